//! Text edits: [`TextEdit`], applying sorted edits ([`apply`]) and the one choice of fixes
//! that do not collide ([`select_fixes`]) that `omplens check --fix` writes and the tests
//! validate.

/// A replacement of `source[start..end]` by `text` (byte offsets into the original source).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub start: u32,
    pub end: u32,
    pub text: String,
}

/// Applies sorted, non-overlapping edits. An edit that is out of range, not on character
/// boundaries or overlaps the previous one is skipped.
pub fn apply(source: &str, edits: &[TextEdit]) -> String {
    let mut out = String::with_capacity(source.len());
    let mut at = 0usize;
    for e in edits {
        let (s, t) = (e.start as usize, e.end as usize);
        if s < at
            || t < s
            || t > source.len()
            || !source.is_char_boundary(s)
            || !source.is_char_boundary(t)
        {
            continue;
        }
        out.push_str(&source[at..s]);
        out.push_str(&e.text);
        at = t;
    }
    out.push_str(&source[at..]);
    out
}

/// The fixes [`select_fixes`] took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixSelection {
    /// The edits to apply, sorted, none overlapping another.
    pub edits: Vec<TextEdit>,
    /// Indices (into the candidates) of the fixes taken.
    pub taken: Vec<usize>,
    /// Indices of the fixes left out, with the reason.
    pub skipped: Vec<(usize, &'static str)>,
}

/// Takes each candidate fix (a `None` candidate has no fix and is passed over) in order, as
/// long as its edits lie within `text` and do not collide with a fix already taken. An edit
/// identical to one already taken is shared, not a collision: two findings often share a fix
/// (two reads of one array).
pub fn select_fixes<'a>(
    text: &str,
    candidates: impl IntoIterator<Item = Option<&'a [TextEdit]>>,
) -> FixSelection {
    let mut out = FixSelection::default();
    for (i, fix) in candidates.into_iter().enumerate() {
        let Some(edits) = fix else {
            continue;
        };
        if !edits.iter().all(|e| within(text, e)) {
            out.skipped.push((i, "its edits are not within the file"));
            continue;
        }
        let new: Vec<&TextEdit> = edits.iter().filter(|e| !out.edits.contains(e)).collect();
        let clash = new.iter().enumerate().any(|(k, e)| {
            out.edits.iter().any(|a| overlap(a, e)) || new[k + 1..].iter().any(|b| overlap(b, e))
        });
        if clash {
            out.skipped.push((i, "it overlaps another fix"));
            continue;
        }
        out.edits.extend(new.into_iter().cloned());
        out.taken.push(i);
    }
    out.edits.sort_by_key(|e| (e.start, e.end));
    out
}

fn within(text: &str, e: &TextEdit) -> bool {
    let (s, t) = (e.start as usize, e.end as usize);
    s <= t && t <= text.len() && text.is_char_boundary(s) && text.is_char_boundary(t)
}

/// Ranges that share a byte, an insertion strictly inside a replaced range, or two insertions
/// at one place (their order would be a guess).
fn overlap(a: &TextEdit, b: &TextEdit) -> bool {
    if a.start == a.end && b.start == b.end {
        return a.start == b.start;
    }
    a.start < b.end && b.start < a.end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: u32, end: u32, text: &str) -> TextEdit {
        TextEdit {
            start,
            end,
            text: text.to_string(),
        }
    }

    #[test]
    fn takes_disjoint_skips_overlapping_shares_identical() {
        let text = "0123456789";
        let fixes = [
            Some(vec![edit(2, 4, "x")]),
            Some(vec![edit(3, 5, "y")]),
            Some(vec![edit(2, 4, "x")]),
            Some(vec![edit(4, 4, "z"), edit(8, 9, "w")]),
            None,
            Some(vec![edit(8, 8, "v")]),
            Some(vec![edit(4, 4, "u")]),
            Some(vec![edit(20, 21, "out")]),
        ];
        let s = select_fixes(text, fixes.iter().map(|f| f.as_deref()));
        assert_eq!(s.taken, vec![0, 2, 3, 5]);
        assert_eq!(
            s.skipped.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            vec![1, 6, 7]
        );
        assert_eq!(
            s.edits,
            vec![
                edit(2, 4, "x"),
                edit(4, 4, "z"),
                edit(8, 8, "v"),
                edit(8, 9, "w")
            ]
        );
    }

    #[test]
    fn applies_sorted_edits_and_skips_bad_ones() {
        let src = "int a;\n";
        let edits = [edit(0, 3, "long"), edit(2, 3, "x"), edit(7, 7, "// end\n")];
        assert_eq!(apply(src, &edits), "long a;\n// end\n");
        assert_eq!(apply(src, &[edit(5, 99, "")]), src);
    }

    #[test]
    fn apply_skips_bad_edits() {
        let e = |start, end, text: &str| TextEdit {
            start,
            end,
            text: text.into(),
        };
        assert_eq!(
            apply("héllo", &[e(2, 2, "x"), e(0, 1, "H"), e(9, 9, "!")]),
            "Héllo"
        );
        assert_eq!(apply("hello", &[e(0, 1, "H"), e(5, 5, "!")]), "Hello!");
    }
}
