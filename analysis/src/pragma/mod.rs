//! OpenMP 5.2 directive and clause parser working on the text of
//! `#pragma omp` lines, with no dependency on libclang.
//!
//! Two entry points:
//!
//! * [`scan_pragmas`] finds every `#pragma omp` line in a C/C++ source file
//!   and returns its raw text and byte span.
//! * [`parse_pragma`] parses the text of one such line into a [`Directive`]
//!   plus diagnostics. It never panics, whatever the input.
//!
//! # Spans
//!
//! Every [`Span`] is a half-open byte range in the *file*: `parse_pragma`
//! adds its `base` argument to every index into its `text`.
//!
//! # What `scan_pragmas` returns
//!
//! A pragma is a logical line: backslash-newline continuations (also `\`
//! followed by `\r\n`, or by trailing spaces before the newline) join
//! physical lines. The span of a [`RawPragma`] starts at `#` and covers the
//! whole logical line, *including* a trailing `//` or `/* */` comment, up to
//! (excluding) the line terminator. A `/* */` comment that starts on the
//! pragma line and ends on a later line extends the pragma, as in the C
//! preprocessor. The parser treats comments as whitespace, so the comment
//! never becomes part of the directive; [`Directive::span`] ends at the last
//! token of the directive, before any trailing comment.
//!
//! `scan_pragmas` knows nothing of `#if 0` (the caller filters those with
//! libclang's skipped ranges) nor of `_Pragma("omp ...")`.
//!
//! # Parsing model
//!
//! * Backslash-newline sequences are removed before tokenising (as in C
//!   translation phase 2), so they may even split a word.
//! * The directive name is matched greedily against the known names
//!   ([`DirectiveKind::ALL`]), so `target teams distribute parallel for simd`
//!   is one kind, whatever the whitespace between the words.
//! * [`PragmaParse::directive`] is `Some` whenever the directive name was
//!   recognised, even if clauses had errors. A clause with a syntax error is
//!   reported and dropped; parsing resumes after its closing parenthesis. A
//!   clause that is well-formed but not allowed on the directive is reported
//!   (as an error) and *kept* in [`Directive::clauses`].
//! * Directive arguments: the parenthesised list of `declare target(a, b)`,
//!   `threadprivate(x)`, `flush(x)`, `allocate(x)`, `depobj(o)` and the name of
//!   `critical(name)` (a [`ListItem`] with an empty path) go into
//!   [`Directive::arguments`]. The argument of `declare reduction`,
//!   `declare mapper`, `declare variant` and `declare simd` is kept as
//!   normalised raw text in [`Directive::raw_argument`].
//! * Expressions use C precedence; see [`Expr`] for the cast heuristic.
//! * Expression nesting is capped at [`MAX_NESTING`] levels.
//! * A clause whose `)` is missing at the end of the pragma
//!   (`map(to: a`) is reported and kept (an unmodelled
//!   [`ClauseKind::Other`] clause is dropped instead).
//! * Clause validity follows OpenMP 5.2 with one table per leaf construct
//!   (see [`clause_allowed`]); `ompx_*` extension clauses are accepted
//!   everywhere.
//!
//! # Printing
//!
//! `Display` for [`Directive`], [`Clause`], [`ListItem`] and [`Expr`] prints a
//! canonical single-line form that parses back to the same tree (spans
//! aside): `#pragma omp target map(always, to: a[0:n], s.f) nowait`.
//! Expressions keep their [`ExprKind::Paren`] nodes as written; for trees
//! built by hand the printer adds the parentheses C precedence requires.
//! Use `without_spans()` to compare trees by structure.
//!
//! # Limitations
//!
//! * No preprocessing: macros in clauses are plain identifiers, `#if 0` is
//!   not known to the scanner and `_Pragma("omp ...")` is not found.
//! * Casts are recognised heuristically (see [`Expr`]); C++ templates
//!   (`static_cast<T>(x)`, `v<int>`) are not parsed as such in expressions.
//! * Clauses that are not modelled (`linear`, `aligned`, `allocate`,
//!   `proc_bind`, `num_teams(lo: hi)`, ...) are [`ClauseKind::Other`] with
//!   their raw text; their arguments are not checked.
//! * List items are names with member, subscript and section accessors and
//!   an optional single leading `*`; other lvalue expressions (`*(p + 1)`,
//!   `(*p).x`) are rejected with an error.
//! * After error recovery a printed directive may not reparse to the same
//!   tree (e.g. `for (junk) simd` keeps a `simd` clause, which prints as the
//!   directive `for simd`); without errors it always does.
//! * Recursion is bounded by [`MAX_NESTING`]; the deepest accepted input
//!   needs well under 1 MiB of stack in a debug build.

mod ast;
mod clause_parse;
mod clauses;
mod cursor;
mod directives;
mod expr;
mod items;
mod lexer;
mod parser;
mod print;
mod scan;
mod spans;
#[cfg(test)]
mod tests;

pub use ast::{
    Accessor, BinaryOp, Clause, ClauseKind, DefaultKind, DefaultmapBehavior, DefaultmapCategory,
    DependKind, DeviceModifier, DeviceType, Directive, DoacrossKind, Expr, ExprKind, Ident,
    IteratorDef, ListItem, MapModifier, MapType, MotionModifier, ReductionModifier, ReductionOp,
    ScheduleKind, ScheduleModifier, SizeofArg, UnaryOp,
};
pub use clauses::{clause_allowed, is_known_clause, known_clauses};
pub use directives::{DirectiveKind, Leaf};

/// Maximum nesting depth of expressions (parentheses, unary operators,
/// subscripts, ...). Deeper input is rejected with an error instead of
/// risking a stack overflow.
pub const MAX_NESTING: u32 = 256;

pub use crate::text::Span;

/// One `#pragma omp ...` (possibly continued with backslash-newlines) found
/// in a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawPragma {
    /// From `#` to the end of the last physical line of the pragma,
    /// excluding the final line terminator (`\n` or `\r\n`).
    pub span: Span,
    /// The raw text exactly as in the file, continuations and comments
    /// included.
    pub text: String,
}

/// Severity of a [`PragmaDiagnostic`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// A problem found while parsing a pragma.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PragmaDiagnostic {
    pub span: Span,
    pub severity: Severity,
    /// Lower-case first letter, no trailing period (rustc style).
    pub message: String,
}

/// Result of [`parse_pragma`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PragmaParse {
    /// `Some` whenever the directive name was recognised.
    pub directive: Option<Directive>,
    pub diagnostics: Vec<PragmaDiagnostic>,
}

impl PragmaParse {
    /// True when at least one diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Finds every `#pragma omp` line in C/C++ source text.
///
/// Ignores text in `//` and `/* */` comments and in string, character and
/// C++ raw-string literals; accepts `#  pragma  omp` with spaces, tabs,
/// comments and continuations between the words, and leading whitespace
/// before `#`. See the module docs for the extent of the returned span.
pub fn scan_pragmas(source: &str) -> Vec<RawPragma> {
    scan::scan(source)
}

/// Parses one pragma. `text` starts with `#` (as in [`RawPragma::text`]);
/// `base` is the file offset of `text[0]`. All spans in the result are file
/// offsets. Backslash-newline sequences are whitespace; comments are
/// whitespace.
pub fn parse_pragma(text: &str, base: u32) -> PragmaParse {
    parser::parse(text, base)
}
