//! [`LineIndex`]: the start offset of every line of a text, and conversions from byte offsets
//! to lines and columns counted in bytes, characters (Unicode scalar values) or UTF-16 code
//! units (what LSP counts), and back from UTF-16 positions. Only `\n` ends a line; a `\r`
//! before it belongs to the line's terminator where a method says so.
//!
//! The index keeps no text: methods that look at characters take the text it was built from.

/// The line starts of one text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LineIndex {
    /// Offset of the first byte of every line (the first is 0).
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex {
            starts: std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i as u32 + 1))
                .collect(),
        }
    }

    /// Offsets of the line starts, in order.
    pub fn starts(&self) -> &[u32] {
        &self.starts
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line holding byte `offset` (the last line past the end).
    pub fn line(&self, offset: u32) -> u32 {
        match self.starts.binary_search(&offset) {
            Ok(i) => i as u32,
            Err(i) => i.saturating_sub(1) as u32,
        }
    }

    /// Offset of the first byte of the 0-based `line`.
    pub fn line_start(&self, line: u32) -> Option<u32> {
        self.starts.get(line as usize).copied()
    }

    /// End of the 0-based `line`'s text in `text`: the offset of its `\r\n` or `\n`, or the
    /// end of the text for the last line.
    pub fn line_end(&self, text: &str, line: u32) -> u32 {
        let start = self.line_start(line).unwrap_or(text.len() as u32) as usize;
        let mut e = match self.starts.get(line as usize + 1) {
            Some(&next) => next as usize - 1,
            None => text.len(),
        };
        if e > start && e < text.len() && text.as_bytes()[e - 1] == b'\r' {
            e -= 1;
        }
        e as u32
    }

    /// The text of the 1-based `line`, without its line ending (empty past the end).
    pub fn line_text<'t>(&self, text: &'t str, line: u32) -> &'t str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.starts.get(i) else {
            return "";
        };
        let end = self.starts.get(i + 1).map_or(text.len(), |&e| e as usize);
        text[start as usize..end].trim_end_matches(['\n', '\r'])
    }

    /// 1-based line and column of a byte offset, the column counted in bytes.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self.line(offset);
        let start = self.line_start(line).unwrap_or(0);
        (line + 1, offset.saturating_sub(start) + 1)
    }

    /// 1-based line and column of a byte offset of `text`, the column counted in characters.
    /// The offset is clamped into the text and down to a character boundary.
    pub fn char_position(&self, text: &str, offset: u32) -> (u32, u32) {
        let (line, start, offset) = self.clamped(text, offset);
        (line + 1, text[start..offset].chars().count() as u32 + 1)
    }

    /// 0-based line and column of a byte offset of `text`, the column counted in UTF-16 code
    /// units. The offset is clamped into the text and down to a character boundary.
    pub fn utf16_position(&self, text: &str, offset: u32) -> (u32, u32) {
        let (line, start, offset) = self.clamped(text, offset);
        (line, text[start..offset].encode_utf16().count() as u32)
    }

    /// The byte offset of the 0-based `line` and UTF-16 `column` in `text`: a line past the
    /// end is the end of the text, a column past the end of its line is the line's end, and a
    /// column inside a surrogate pair rounds down to the character's start.
    pub fn utf16_offset(&self, text: &str, line: u32, column: u32) -> u32 {
        let Some(start) = self.line_start(line) else {
            return text.len() as u32;
        };
        let end = self.line_end(text, line);
        let content = &text[start as usize..end as usize];
        let mut units = 0u32;
        for (i, c) in content.char_indices() {
            let w = c.len_utf16() as u32;
            if units + w > column {
                return start + i as u32;
            }
            units += w;
        }
        end
    }

    /// (0-based line, its start, the offset) for an offset clamped into `text` and down to a
    /// character boundary.
    fn clamped(&self, text: &str, offset: u32) -> (u32, usize, usize) {
        let mut offset = (offset as usize).min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line(offset as u32);
        let start = self.line_start(line).unwrap_or(0) as usize;
        (line, start, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_columns() {
        let ix = LineIndex::new("ab\ncd\n");
        assert_eq!(ix.line_col(0), (1, 1));
        assert_eq!(ix.line_col(4), (2, 2));
        assert_eq!(ix.line_col(6), (3, 1));
        assert_eq!(LineIndex::default().line_col(5), (1, 6));
    }

    #[test]
    fn char_columns() {
        let text = "ab\n\u{e9}t\u{e9} x\r\nlast";
        let ix = LineIndex::new(text);
        assert_eq!(ix.char_position(text, 0), (1, 1));
        assert_eq!(ix.char_position(text, 3), (2, 1));
        // "été x": `x` is the 5th character, at byte 3 + 6.
        assert_eq!(ix.char_position(text, 9), (2, 5));
        // Inside a 2-byte character: its start.
        assert_eq!(ix.char_position(text, 4), (2, 1));
        assert_eq!(ix.line_text(text, 2), "\u{e9}t\u{e9} x");
        assert_eq!(ix.line_text(text, 3), "last");
        assert_eq!(ix.line_text(text, 9), "");
        assert_eq!(ix.char_position(text, 1000), (3, 5));
    }

    #[test]
    fn utf16_columns_both_ways() {
        // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" is 4 bytes and 2 units.
        let t = "/* é𝄞 */ x\n";
        let ix = LineIndex::new(t);
        let x = t.find('x').unwrap() as u32;
        assert_eq!(ix.utf16_position(t, x), (0, 10));
        assert_eq!(ix.utf16_offset(t, 0, 10), x);
        // Inside the surrogate pair: the character's start.
        let clef = t.find('𝄞').unwrap() as u32;
        assert_eq!(ix.utf16_offset(t, 0, 5), clef);
        assert_eq!(ix.utf16_offset(t, 0, 4), clef);
    }

    #[test]
    fn past_the_end_clamps() {
        let t = "ab\r\ncd";
        let ix = LineIndex::new(t);
        assert_eq!(ix.utf16_offset(t, 0, 99), 2);
        assert_eq!(ix.utf16_offset(t, 1, 99), 6);
        assert_eq!(ix.utf16_offset(t, 7, 0), 6);
        assert_eq!(ix.utf16_position(t, 99), (1, 2));
        assert_eq!(ix.line_end(t, 0), 2);
        assert_eq!(ix.line_end(t, 1), 6);
    }
}
