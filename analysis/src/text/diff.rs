//! Unified diffs of two texts by lines, as `patch -p1` and `git apply` read them. The edit
//! script and its grouping into hunks come from the `similar` crate (Myers' algorithm); the
//! rendering (labels, function context after `@@`, the missing-newline mark) is ours.

use similar::{Algorithm, DiffOp};

const CONTEXT: usize = 3;

/// A unified diff from `old` to `new` (3 lines of context) that `patch -p1` and `git apply`
/// accept. The labels get `a/` and `b/` prefixes (unless they have them or are `/dev/null`).
/// Equal texts give an empty string; a last line without a line break is marked
/// `\ No newline at end of file`. After each `@@` stands the last line before the hunk that
/// starts with a letter, `_` or `$` (a function or type heading), as `git diff` writes it.
pub fn unified_diff(old_label: &str, new_label: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = similar::capture_diff_slices(Algorithm::Myers, &a, &b);

    let mut out = format!(
        "--- {}\n+++ {}\n",
        label(old_label, "a/"),
        label(new_label, "b/")
    );
    for hunk in similar::group_diff_ops(ops, CONTEXT) {
        let (Some(first), Some(last)) = (hunk.first(), hunk.last()) else {
            continue;
        };
        let (old_lines, new_lines) = (
            first.old_range().start..last.old_range().end,
            first.new_range().start..last.new_range().end,
        );
        out.push_str(&format!(
            "@@ -{} +{} @@",
            range(old_lines.start, old_lines.len()),
            range(new_lines.start, new_lines.len())
        ));
        if let Some(f) = function_context(&a[..old_lines.start]) {
            out.push(' ');
            out.push_str(f);
        }
        out.push('\n');
        for op in &hunk {
            let (old_part, new_part) = (&a[op.old_range()], &b[op.new_range()]);
            match op {
                DiffOp::Equal { .. } => push_lines(&mut out, ' ', old_part),
                DiffOp::Delete { .. } => push_lines(&mut out, '-', old_part),
                DiffOp::Insert { .. } => push_lines(&mut out, '+', new_part),
                DiffOp::Replace { .. } => {
                    push_lines(&mut out, '-', old_part);
                    push_lines(&mut out, '+', new_part);
                }
            }
        }
    }
    out
}

fn push_lines(out: &mut String, prefix: char, lines: &[&str]) {
    for line in lines {
        out.push(prefix);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

/// The last line before the hunk that starts with a letter, `_` or `$`, cut to 80 bytes.
fn function_context<'a>(before: &[&'a str]) -> Option<&'a str> {
    let line = before
        .iter()
        .rev()
        .find(|l| l.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$'))?;
    let mut line = line.trim_end();
    if line.len() > 80 {
        let mut cut = 80;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line = line[..cut].trim_end();
    }
    Some(line)
}

fn label(l: &str, prefix: &str) -> String {
    if l == "/dev/null" || l.starts_with(prefix) {
        l.to_string()
    } else {
        format!("{prefix}{}", l.trim_start_matches('/'))
    }
}

/// `start,count` with 1-based `start`; an empty range names the line before it.
fn range(start0: usize, count: usize) -> String {
    match count {
        0 => format!("{start0},0"),
        1 => format!("{}", start0 + 1),
        _ => format!("{},{count}", start0 + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_diff_labels_and_hunks() {
        let d = unified_diff("/tmp/x.c", "/dev/null", "a\n", "");
        assert!(
            d.starts_with("--- a/tmp/x.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n"),
            "{d}"
        );
        // Changes more than six lines apart make two hunks; closer ones share one.
        let old: String = (0..20).map(|i| format!("{i}\n")).collect();
        let two = old.replace("2\n", "two\n").replace("12\n", "twelve\n");
        assert_eq!(
            unified_diff("f", "f", &old, &two).matches("@@ -").count(),
            2
        );
        let one = old.replace("2\n", "two\n").replace("8\n", "eight\n");
        assert_eq!(
            unified_diff("f", "f", &old, &one).matches("@@ -").count(),
            1
        );
    }
}
