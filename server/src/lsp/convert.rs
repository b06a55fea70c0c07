//! Byte offsets (what the analysis speaks) to LSP positions and back. LSP counts columns in
//! UTF-16 code units by default, so a line with non-ASCII text has columns that differ from
//! its byte offsets. The conversions are the analysis's [`text::LineIndex`]; this holds the
//! text with it and speaks the protocol's types.

use omplens_analysis::text;
use tower_lsp_server::ls_types::{Position, Range};

/// One text with its line index, for conversions in both directions.
#[derive(Clone, Debug)]
pub struct LineIndex {
    text: std::sync::Arc<str>,
    index: text::LineIndex,
}

impl LineIndex {
    pub fn new(text: std::sync::Arc<str>) -> LineIndex {
        let index = text::LineIndex::new(&text);
        LineIndex { text, index }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The LSP position of a byte offset (clamped into the text, down to a char boundary).
    pub fn position(&self, offset: u32) -> Position {
        let (line, character) = self.index.utf16_position(&self.text, offset);
        Position::new(line, character)
    }

    pub fn range(&self, start: u32, end: u32) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The byte offset of an LSP position: a line past the end is the end of the text, a
    /// column past the end of its line is the line's end (as the protocol asks), and a column
    /// inside a surrogate pair rounds down to the character's start.
    pub fn offset(&self, p: Position) -> u32 {
        self.index.utf16_offset(&self.text, p.line, p.character)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn index(t: &str) -> LineIndex {
        LineIndex::new(Arc::from(t))
    }

    #[test]
    fn ascii_round_trip() {
        let ix = index("int a;\nint b;\n");
        assert_eq!(ix.position(7), Position::new(1, 0));
        assert_eq!(ix.position(11), Position::new(1, 4));
        assert_eq!(ix.offset(Position::new(1, 4)), 11);
        assert_eq!(ix.position(14), Position::new(2, 0));
    }
}
