//! Byte offsets (what the analysis speaks) to LSP positions and back. LSP counts columns in
//! UTF-16 code units by default, so a line with non-ASCII text has columns that differ from
//! its byte offsets.

use tower_lsp_server::ls_types::{Position, Range};

/// The line starts of one text, for conversions in both directions.
#[derive(Clone, Debug)]
pub struct LineIndex {
    text: std::sync::Arc<str>,
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: std::sync::Arc<str>) -> LineIndex {
        let starts = omplens_analysis::ir::line_starts(&text);
        LineIndex { text, starts }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The LSP position of a byte offset (clamped into the text, down to a char boundary).
    pub fn position(&self, offset: u32) -> Position {
        let text = &*self.text;
        let mut offset = (offset as usize).min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.starts.binary_search(&(offset as u32)) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line] as usize;
        let character = text[start..offset].encode_utf16().count() as u32;
        Position::new(line as u32, character)
    }

    pub fn range(&self, start: u32, end: u32) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The byte offset of an LSP position: a line past the end is the end of the text, a
    /// column past the end of its line is the line's end (as the protocol asks), and a column
    /// inside a surrogate pair rounds down to the character's start.
    pub fn offset(&self, p: Position) -> u32 {
        offset_in(&self.text, &self.starts, p)
    }
}

/// [`LineIndex::offset`] for a text without an index (edits being applied).
pub fn offset_in(text: &str, starts: &[u32], p: Position) -> u32 {
    let Some(&start) = starts.get(p.line as usize) else {
        return text.len() as u32;
    };
    let line_end = starts
        .get(p.line as usize + 1)
        .map_or(text.len(), |&s| s as usize);
    let line = &text[start as usize..line_end];
    // The line's content, without its terminator: columns never point past it.
    let content = line
        .strip_suffix('\n')
        .map_or(line, |l| l.strip_suffix('\r').unwrap_or(l));
    let mut units = 0u32;
    for (i, c) in content.char_indices() {
        let w = c.len_utf16() as u32;
        if units + w > p.character {
            return start + i as u32;
        }
        units += w;
    }
    start + content.len() as u32
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

    #[test]
    fn utf16_columns() {
        // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" is 4 bytes and 2 units.
        let t = "/* é𝄞 */ x\n";
        let ix = index(t);
        let x = t.find('x').unwrap() as u32;
        assert_eq!(ix.position(x), Position::new(0, 10));
        assert_eq!(ix.offset(Position::new(0, 10)), x);
        // Inside the surrogate pair: the character's start.
        let clef = t.find('𝄞').unwrap() as u32;
        assert_eq!(ix.offset(Position::new(0, 5)), clef);
        assert_eq!(ix.offset(Position::new(0, 4)), clef);
    }

    #[test]
    fn past_the_end_clamps() {
        let ix = index("ab\r\ncd");
        assert_eq!(ix.offset(Position::new(0, 99)), 2);
        assert_eq!(ix.offset(Position::new(1, 99)), 6);
        assert_eq!(ix.offset(Position::new(7, 0)), 6);
        assert_eq!(ix.position(99), Position::new(1, 2));
    }
}
