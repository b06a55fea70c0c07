//! The rewriter: turns the plan's insertions into text edits on the original source.
//! CONTRACT (types) written by the synthesis side; the implementation is filled in separately.

use crate::pragma::Span;

/// A replacement of `source[start..end]` by `text` (byte offsets into the original source).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub start: u32,
    pub end: u32,
    pub text: String,
}

/// One clause of a directive to write: `map(to: a[0:n], b)`, `firstprivate(x)`, `to(a[0:n])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// `map`, `firstprivate`, `to`, `from`.
    pub name: String,
    /// The map type for `map` (`to`, `from`, `tofrom`, `alloc`); None otherwise.
    pub modifier: Option<String>,
    /// List items as they are to be written (`a[0:n]`, `this->x`).
    pub items: Vec<String>,
}

/// Which side of the anchor statement a standalone directive goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Before,
    After,
}

/// A statement next to which a directive is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Anchor {
    /// The whole statement: from its first character (the `#` of its first `#pragma` line when
    /// the statement is an OpenMP construct) to its last character. For an expression or
    /// declaration statement the span may stop before the closing `;`.
    pub stmt: Span,
    /// The statement sits directly in a `{ }` block. When false (the body of an `if`, `for`,
    /// `while`, `do`, `else` without braces), braces must be added around it so that the
    /// directive stays in the same branch or loop body.
    pub in_compound: bool,
}

/// What the synthesis wants written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Insertion {
    /// `#pragma omp target data <clauses>` governing the statements from `first.stmt.start` to
    /// `last.stmt.end` (siblings in one block, or one statement when `first == last`).
    DataRegion {
        first: Anchor,
        last: Anchor,
        clauses: Vec<Clause>,
    },
    /// A standalone directive (`directive` is e.g. `target update`) before or after a statement.
    Standalone {
        anchor: Anchor,
        side: Side,
        directive: String,
        clauses: Vec<Clause>,
    },
    /// Clauses appended to an existing directive whose text is `directive` (from `#` to the
    /// end of its last token, as `pragma::Directive::span`).
    AppendClauses { directive: Span, clauses: Vec<Clause> },
}

/// Renders insertions as text edits (sorted, non-overlapping).
pub fn render(_source: &str, _insertions: &[Insertion]) -> Vec<TextEdit> {
    Vec::new()
}

/// Applies sorted, non-overlapping edits.
pub fn apply(source: &str, edits: &[TextEdit]) -> String {
    let mut out = String::with_capacity(source.len());
    let mut at = 0usize;
    for e in edits {
        out.push_str(&source[at..e.start as usize]);
        out.push_str(&e.text);
        at = e.end as usize;
    }
    out.push_str(&source[at..]);
    out
}

/// PLACEHOLDER until the rewriter lands (then replaced by the real diff).
pub fn unified_diff(old_label: &str, new_label: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    format!("--- a/{old_label}\n+++ b/{new_label}\n{new}")
}
