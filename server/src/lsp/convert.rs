//! Byte offsets (what the analysis speaks) to LSP positions and back. LSP counts columns in
//! UTF-16 code units by default, so a line with non-ASCII text has columns that differ from
//! its byte offsets. The conversions are the analysis's [`text::LineIndex`]; this holds the
//! text with it and speaks the protocol's types.

use omplens_analysis::text;
use tower_lsp_server::ls_types::{Position, Range};

/// One text with its line index, for conversions in both directions. A *shifted* index
/// speaks the offsets of an older text (the one an analysis saw) and the positions of the
/// document's current text: answers from the last finished analysis while a newer one runs.
#[derive(Clone, Debug)]
pub struct LineIndex {
    text: std::sync::Arc<str>,
    index: text::LineIndex,
    /// The current text and how the analysed text maps onto it, for a shifted index.
    current: Option<(std::sync::Arc<str>, text::LineIndex, Shift)>,
}

/// How an older text maps onto a newer one: a common prefix and a common suffix around one
/// changed region, `[prefix, old_end)` in the old text and `[prefix, new_end)` in the new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shift {
    prefix: u32,
    old_end: u32,
    new_end: u32,
}

impl Shift {
    pub fn between(old: &str, new: &str) -> Shift {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
            prefix -= 1;
        }
        let most = a.len().min(b.len()) - prefix;
        let mut suffix = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take(most)
            .take_while(|(x, y)| x == y)
            .count();
        while !old.is_char_boundary(a.len() - suffix) || !new.is_char_boundary(b.len() - suffix) {
            suffix -= 1;
        }
        Shift {
            prefix: prefix as u32,
            old_end: (a.len() - suffix) as u32,
            new_end: (b.len() - suffix) as u32,
        }
    }

    /// The new offset of an old one; inside the changed region, the region's start.
    pub fn old_to_new(&self, o: u32) -> u32 {
        if o < self.prefix {
            o
        } else if o >= self.old_end {
            o - self.old_end + self.new_end
        } else {
            self.prefix
        }
    }

    fn unchanged(&self) -> bool {
        self.prefix == self.old_end && self.prefix == self.new_end
    }

    /// The old offset of a new one, unless it is inside the changed region (or at the point
    /// where text was only deleted, or at the start of inserted text).
    pub fn new_to_old(&self, n: u32) -> Option<u32> {
        if self.unchanged() || n < self.prefix {
            Some(n)
        } else if n > self.new_end || (n == self.new_end && self.new_end > self.prefix) {
            Some(n - self.new_end + self.old_end)
        } else {
            None
        }
    }

    /// Whether a new offset lies in the changed region or at one of its ends.
    pub fn touches(&self, n: u32) -> bool {
        !self.unchanged() && (self.prefix..=self.new_end).contains(&n)
    }
}

impl LineIndex {
    pub fn new(text: std::sync::Arc<str>) -> LineIndex {
        let index = text::LineIndex::new(&text);
        LineIndex {
            text,
            index,
            current: None,
        }
    }

    /// This index's text (an analysis's) in the offsets it speaks, and the positions of
    /// `current`, the document's text now.
    pub fn shifted(&self, current: std::sync::Arc<str>) -> LineIndex {
        let shift = Shift::between(&self.text, &current);
        let index = text::LineIndex::new(&current);
        LineIndex {
            text: self.text.clone(),
            index: self.index.clone(),
            current: Some((current, index, shift)),
        }
    }

    /// The text whose offsets this index speaks (the analysed text).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The LSP position of a byte offset (clamped into the text, down to a char boundary).
    pub fn position(&self, offset: u32) -> Position {
        if let Some((text, index, shift)) = &self.current {
            let (line, character) = index.utf16_position(text, shift.old_to_new(offset));
            return Position::new(line, character);
        }
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
        if let Some((text, index, shift)) = &self.current {
            let n = index.utf16_offset(text, p.line, p.character);
            return shift.new_to_old(n).unwrap_or(shift.prefix);
        }
        self.index.utf16_offset(&self.text, p.line, p.character)
    }

    /// The offset of a position of the current text in the offsets this index speaks; None
    /// inside the region a shifted index's texts differ in.
    pub fn offset_outside_change(&self, p: Position) -> Option<u32> {
        match &self.current {
            Some((text, index, shift)) => {
                shift.new_to_old(index.utf16_offset(text, p.line, p.character))
            }
            None => Some(self.offset(p)),
        }
    }

    /// Whether a position of the current text lies in or at the ends of the changed region
    /// of a shifted index (never for a plain one).
    pub fn touches_change(&self, p: Position) -> bool {
        match &self.current {
            Some((text, index, shift)) => {
                shift.touches(index.utf16_offset(text, p.line, p.character))
            }
            None => false,
        }
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
    fn a_shift_maps_around_the_changed_region() {
        // "int a = 1;" -> "int a = 42;": the 1 became 42.
        let old = "int a = 1;\nint b;\n";
        let new = "int a = 42;\nint b;\n";
        let s = Shift::between(old, new);
        assert_eq!(s.new_to_old(4), Some(4)); // `a`, before the change
        assert_eq!(s.new_to_old(12), Some(11)); // `int b`, after it
        assert_eq!(s.new_to_old(9), None); // inside `42`
        assert_eq!(s.old_to_new(11), 12);
        assert!(s.touches(8) && s.touches(10) && !s.touches(12));
        // Equal texts: everything maps to itself.
        let same = Shift::between(old, old);
        assert_eq!(same.new_to_old(3), Some(3));
        assert!(!same.touches(3));
        // A deletion: the point where text went is ambiguous.
        let d = Shift::between("abcdef", "abef");
        assert_eq!(
            (d.new_to_old(1), d.new_to_old(2), d.new_to_old(3)),
            (Some(1), None, Some(5))
        );
        // Multi-byte characters never split.
        let m = Shift::between("x = \u{e9};", "x = \u{e8};");
        assert!(m.prefix == 4 && m.old_end == 6 && m.new_end == 6);
    }

    #[test]
    fn a_shifted_index_speaks_old_offsets_and_new_positions() {
        let old: Arc<str> = Arc::from("int a;\nint b;\n");
        let new: Arc<str> = Arc::from("// new line\nint a;\nint b;\n");
        let ix = LineIndex::new(old).shifted(new);
        assert_eq!(ix.position(7), Position::new(2, 0)); // `int b` moved down a line
        assert_eq!(ix.offset(Position::new(2, 4)), 11);
        assert_eq!(ix.offset_outside_change(Position::new(0, 3)), None);
        assert!(ix.touches_change(Position::new(0, 3)));
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
