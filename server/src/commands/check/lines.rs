//! Byte offsets to the positions people and tools read: 1-based lines, columns counted in
//! characters (Unicode scalar values) of the line.

use omplens_analysis::ir::line_starts;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// A file's text with its line starts.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<u32>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text,
            starts: line_starts(text),
        }
    }

    /// 0-based line index of a byte offset.
    fn index_of(&self, offset: u32) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// The position of a byte offset (clamped into the text and down to a char boundary).
    pub fn position(&self, offset: u32) -> Position {
        let mut offset = (offset as usize).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let i = self.index_of(offset as u32);
        let start = self.starts[i] as usize;
        Position {
            line: i as u32 + 1,
            column: self.text[start..offset].chars().count() as u32 + 1,
        }
    }

    /// The text of a 1-based line, without its line ending.
    pub fn line_text(&self, line: u32) -> &'a str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.starts.get(i) else {
            return "";
        };
        let end = self
            .starts
            .get(i + 1)
            .map_or(self.text.len(), |&e| e as usize);
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters() {
        let text = "ab\n\u{e9}t\u{e9} x\r\nlast";
        let l = Lines::new(text);
        assert_eq!(l.position(0), Position { line: 1, column: 1 });
        assert_eq!(l.position(3), Position { line: 2, column: 1 });
        // "été x": `x` is the 5th character, at byte 3 + 6.
        assert_eq!(l.position(9), Position { line: 2, column: 5 });
        // Inside a 2-byte character: its start.
        assert_eq!(l.position(4), Position { line: 2, column: 1 });
        assert_eq!(l.line_text(2), "\u{e9}t\u{e9} x");
        assert_eq!(l.line_text(3), "last");
        assert_eq!(l.line_text(9), "");
        assert_eq!(l.position(1000), Position { line: 3, column: 5 });
    }
}
