//! `--fix`: the first fix of every finding, as long as it does not collide with a fix
//! already taken.

use omplens_analysis::check::{Finding, TextEdit};

pub struct Selection {
    /// The edits to apply, sorted, none overlapping another.
    pub edits: Vec<TextEdit>,
    /// How many findings the edits fix.
    pub applied: usize,
    /// Findings whose fix was left out, with the reason.
    pub skipped: Vec<(usize, &'static str)>,
}

pub fn select(text: &str, findings: &[Finding]) -> Selection {
    let mut out = Selection {
        edits: Vec::new(),
        applied: 0,
        skipped: Vec::new(),
    };
    for (i, f) in findings.iter().enumerate() {
        let Some(fix) = f.fixes.first() else {
            continue;
        };
        if !fix.edits.iter().all(|e| valid(text, e)) {
            out.skipped.push((i, "its edits are not within the file"));
            continue;
        }
        // Two findings often share a fix (two reads of one array): an identical edit is
        // already there.
        let new: Vec<&TextEdit> = fix
            .edits
            .iter()
            .filter(|e| !out.edits.contains(e))
            .collect();
        let clash = new.iter().enumerate().any(|(k, e)| {
            out.edits.iter().any(|a| overlap(a, e)) || new[k + 1..].iter().any(|b| overlap(b, e))
        });
        if clash {
            out.skipped.push((i, "it overlaps another fix"));
            continue;
        }
        out.edits.extend(new.into_iter().cloned());
        out.applied += 1;
    }
    out.edits.sort_by_key(|e| (e.start, e.end));
    out
}

fn valid(text: &str, e: &TextEdit) -> bool {
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
    use omplens_analysis::check::{Fix, Severity};
    use omplens_analysis::ir::Span;

    fn edit(start: u32, end: u32, text: &str) -> TextEdit {
        TextEdit {
            start,
            end,
            text: text.to_string(),
        }
    }

    fn finding(edits: Vec<TextEdit>) -> Finding {
        Finding {
            code: omplens_analysis::check::Code::OMP101,
            severity: Severity::Error,
            span: Span::new(0, 1),
            message: String::new(),
            related: Vec::new(),
            fixes: vec![Fix {
                title: "fix".to_string(),
                edits,
            }],
            bytes: None,
            multiplier: None,
        }
    }

    #[test]
    fn takes_disjoint_skips_overlapping_shares_identical() {
        let text = "0123456789";
        let s = select(
            text,
            &[
                finding(vec![edit(2, 4, "x")]),
                finding(vec![edit(3, 5, "y")]),
                finding(vec![edit(2, 4, "x")]),
                finding(vec![edit(4, 4, "z"), edit(8, 9, "w")]),
                finding(vec![edit(8, 8, "v")]),
                finding(vec![edit(4, 4, "u")]),
                finding(vec![edit(20, 21, "out")]),
            ],
        );
        assert_eq!(s.applied, 4);
        assert_eq!(
            s.skipped.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            vec![1, 5, 6]
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
}
