//! Which function names a source text may define, read from its raw text without parsing:
//! the identifiers written as `name(…) … {` (a qualifier list, a trailing return type or a
//! constructor's initialisers between the `)` and the `{`). It decides which of the
//! project's other files are worth parsing for a function this file calls: a file that only
//! calls the function (every copy of a program, every other driver in a directory) is not.
//!
//! The test errs towards "may define": a function-like macro used as a statement head
//! (`FOR_EACH(i) {`) or `if (…) {` counts, which costs a parse at most. It misses what it
//! cannot see in the text: a definition written by a macro, or a K&R definition
//! (`int f(a) int a; {`); the call then stays unseen, as it was before the project's other
//! files were read.

use crate::text::scan::{is_ident_byte, regions};
use std::collections::HashSet;

/// How far past the `)` a definition's `{` may be (qualifiers, a trailing return type, a
/// constructor's initialisers).
const MAX_TAIL: usize = 4096;

/// The identifiers of `text` in definition position.
pub fn defined_names(text: &str) -> HashSet<String> {
    // Comments and literals blanked, offsets kept.
    let mut b = text.as_bytes().to_vec();
    for r in regions(text) {
        b[r.start..r.end].fill(b' ');
    }
    let mut out = HashSet::new();
    let mut i = 0;
    while i < b.len() {
        if !is_ident_byte(b[i]) || b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && is_ident_byte(b[i]) {
            i += 1;
        }
        if start > 0 && is_ident_byte(b[start - 1]) {
            continue; // the tail of a number such as `1e5f`
        }
        if defines_at(&b, i) {
            out.insert(String::from_utf8_lossy(&b[start..i]).into_owned());
        }
    }
    out
}

/// Whether the identifier ending at `i` is followed by `(…)` and then, past qualifiers and
/// initialisers only, a `{`.
fn defines_at(b: &[u8], i: usize) -> bool {
    let mut j = skip_blank(b, i);
    if b.get(j) == Some(&b'<') {
        // Template arguments of a specialisation: `name<int>(…) {`.
        let Some(after) = balanced(b, j, b'<', b'>') else {
            return false;
        };
        j = skip_blank(b, after);
    }
    if b.get(j) != Some(&b'(') {
        return false;
    }
    let Some(mut j) = balanced(b, j, b'(', b')') else {
        return false;
    };
    let limit = j + MAX_TAIL;
    while j < b.len().min(limit) {
        match b[j] {
            b'{' => return true,
            c if c.is_ascii_whitespace() => j += 1,
            c if is_ident_byte(c) => j += 1,
            b'&' | b'*' | b':' | b',' | b'<' | b'>' | b'[' | b']' | b'-' | b'.' => j += 1,
            b'(' => match balanced(b, j, b'(', b')') {
                Some(after) => j = after,
                None => return false,
            },
            // `;` (a call or a prototype), `)` (a call inside a condition), `=`
            // (`= default`, an assignment), an operator: not a definition.
            _ => return false,
        }
    }
    false
}

fn skip_blank(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The offset past the bracket that closes the one at `i`, if it closes before a `;`, `{`
/// or `}` (a parameter list holds none).
fn balanced(b: &[u8], i: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &c) in b.iter().enumerate().skip(i) {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(k + 1);
            }
        } else if matches!(c, b';' | b'{' | b'}') {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::defined_names;

    fn names(text: &str) -> Vec<String> {
        let mut v: Vec<String> = defined_names(text).into_iter().collect();
        v.sort();
        v
    }

    #[test]
    fn definitions_are_found_and_calls_are_not() {
        let text = "void scale(double *v, int n);\n\
                    static void helper(int a) { scale(0, a); }\n\
                    int Grid::size() const noexcept { return n; }\n\
                    template <class T> T twice(T x) -> T { return x + x; }\n\
                    A::A(int n) : v(n), w{n} { }\n\
                    int main() {\n  if (ready(x)) { go(1); }\n  y = pick(2) ? 1 : 0;\n  \
                    while (more(z) && ok) {}\n  return total(3);\n}\n\
                    // void commented(int x) { }\n\
                    const char *s = \"quoted(1) {\";\n";
        // (`v` of the initialiser `v(n), w{n} {` and the statement heads count too: the
        // test only has to keep every real definition.)
        assert_eq!(
            names(text),
            ["A", "helper", "if", "main", "size", "twice", "v", "while"]
        );
    }

    #[test]
    fn a_defaulted_or_deleted_function_has_no_body() {
        assert!(names("S() = default;\nS(const S&) = delete;\n").is_empty());
    }
}
