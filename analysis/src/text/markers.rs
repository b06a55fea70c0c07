//! Line markers in messages: a piece of a file (the incremental layer) does not know its real
//! lines yet, so a message says `\u{1}offset\u{2}` where it means "line N" until
//! [`resolve_line_refs`] maps each offset to the real file's line.

const LINE_REF_START: char = '\u{1}';
const LINE_REF_END: char = '\u{2}';

/// The marker standing for the line of `offset`.
pub fn line_marker(offset: u32) -> String {
    format!("{LINE_REF_START}{offset}{LINE_REF_END}")
}

/// `text` with the markers of [`line_marker`] replaced by `line(offset)` (`?` when unknown).
pub fn resolve_line_refs(text: &str, line: impl Fn(u32) -> Option<u32>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(LINE_REF_START) {
        out.push_str(&rest[..i]);
        let after = &rest[i + LINE_REF_START.len_utf8()..];
        let Some(j) = after.find(LINE_REF_END) else {
            rest = after;
            continue;
        };
        match after[..j].parse::<u32>().ok().and_then(&line) {
            Some(l) => out.push_str(&l.to_string()),
            None => out.push('?'),
        }
        rest = &after[j + LINE_REF_END.len_utf8()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_resolve_to_lines() {
        let text = format!("read at line {} and {}", line_marker(7), line_marker(99));
        let out = resolve_line_refs(&text, |o| (o < 50).then_some(o + 1));
        assert_eq!(out, "read at line 8 and ?");
        assert_eq!(resolve_line_refs("plain", |_| None), "plain");
    }
}
