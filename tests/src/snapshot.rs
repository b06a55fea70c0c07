//! Files that tests compare against text they render (snapshots, generated sections), and
//! rewrite when `UPDATE_EXPECT=1` is set.

use std::path::Path;

use crate::tier::{updating, UPDATE_ENV};

/// Compares `path`'s text with `actual`. When they differ: rewrites the file under
/// `UPDATE_EXPECT=1` and returns `Ok`, else returns the first differing lines.
pub fn check(path: &Path, actual: &str) -> Result<(), String> {
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return Ok(());
    }
    if updating() {
        std::fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(());
    }
    Err(format!(
        "{} is not current (rerun with {UPDATE_ENV}=1 to rewrite it):\n{}",
        path.display(),
        first_difference(&expected, actual)
    ))
}

/// The first line that differs, with a few lines of context after it.
pub fn first_difference(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let at = e
        .iter()
        .zip(&a)
        .position(|(x, y)| x != y)
        .unwrap_or(e.len().min(a.len()));
    let mut out = format!("at line {}:\n", at + 1);
    for l in e.iter().skip(at).take(4) {
        out.push_str(&format!("- {l}\n"));
    }
    for l in a.iter().skip(at).take(4) {
        out.push_str(&format!("+ {l}\n"));
    }
    if e.len() == a.len() && e.iter().zip(&a).all(|(x, y)| x == y) {
        out.push_str("(the line endings differ)\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_first_differing_line() {
        let d = first_difference("a\nb\nc\n", "a\nx\nc\n");
        assert!(d.starts_with("at line 2:\n- b\n- c\n+ x\n+ c\n"), "{d}");
        let d = first_difference("a\n", "a\nb\n");
        assert!(d.contains("at line 2:\n+ b"), "{d}");
    }
}
