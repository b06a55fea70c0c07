//! Byte offsets to the positions people and tools read: 1-based lines, columns counted in
//! characters (Unicode scalar values) of the line. The index is the analysis's
//! [`LineIndex`]; this adds the serialisable [`Position`] that the JSON output writes.

use omplens_analysis::text::LineIndex;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// A file's text with its line index.
pub struct Lines<'a> {
    text: &'a str,
    index: LineIndex,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text,
            index: LineIndex::new(text),
        }
    }

    /// The position of a byte offset (clamped into the text and down to a char boundary).
    pub fn position(&self, offset: u32) -> Position {
        let (line, column) = self.index.char_position(self.text, offset);
        Position { line, column }
    }

    /// The text of a 1-based line, without its line ending.
    pub fn line_text(&self, line: u32) -> &'a str {
        self.index.line_text(self.text, line)
    }
}
