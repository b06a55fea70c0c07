//! The rewriter: turns the plan's insertions into text edits on the original source.
//!
//! `source` answers raw-text questions (comments and literals, lines, the file's indent unit,
//! line ending and pragma column); `layout` merges insertions and places braces and lines (its
//! module comment explains the model). Edits are applied and diffed by [`crate::text`].
//! Snapshot tests over C snippets, each compiled with clang-19 where it is installed, are in
//! `analysis/tests/rewrite.rs`.

use crate::text::{Span, TextEdit};

mod layout;
mod source;
#[cfg(test)]
mod tests;

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
    AppendClauses {
        directive: Span,
        clauses: Vec<Clause>,
    },
}

/// Renders insertions as text edits (sorted by start, non-overlapping, byte offsets into
/// `source`).
///
/// * Standalone directives at the same statement, side and directive name are written as one
///   line; clauses with the same name and map type share one item list (first-seen order,
///   duplicates dropped); data regions with the same first and last statement, and clauses
///   appended to the same directive, merge the same way.
/// * Lines are indented like the statement they belong to, in the file's own indent unit, and
///   written at column 0 when the file writes its `#pragma omp` lines there in front of
///   indented code. A line never follows code on its own line and never lands in a comment:
///   a line shared with other code is split.
/// * A statement that is the unbraced body of `if`/`else`/`for`/`while`/`do` gets braces
///   (`} else` and `} while` stay on one line) so the directive stays in that body.
/// * A data region over several statements (or over one that is no loop, block or OpenMP
///   construct) gets `{ }` and its lines are re-indented by one unit (not blank lines, not
///   column-0 preprocessor lines, not the inside of multi-line literals). Standalone directives
///   at its first and last statements go inside it.
/// * Insertions with offsets that are out of range, not on character boundaries or not in
///   code are skipped; the result never overlaps.
pub fn render(source: &str, insertions: &[Insertion]) -> Vec<TextEdit> {
    layout::render(source, insertions)
}
