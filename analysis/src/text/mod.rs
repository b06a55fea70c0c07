//! The bottom layer: plain text and byte offsets, knowing nothing of C semantics, OpenMP or
//! the IR. Every other module may use it; it uses none of them.
//!
//! - [`span`]: [`Span`], a half-open byte range;
//! - [`edit`]: [`TextEdit`], [`apply`] and [`select_fixes`] (the one non-overlapping choice
//!   of fixes that `check --fix` and the tests make);
//! - [`lines`]: [`LineIndex`], offsets to lines with byte, character and UTF-16 columns;
//! - [`scan`]: the C/C++ raw-text scanner (comments, literals, raw strings, continuations);
//! - [`diff`]: unified diffs;
//! - [`bytes`]: files that are not UTF-8, read as text and written back byte for byte;
//! - [`markers`]: line markers in messages of a piece of a file.

pub mod bytes;
pub mod diff;
pub mod edit;
pub mod lines;
pub mod markers;
pub mod scan;
pub mod span;

pub use diff::unified_diff;
pub use edit::{apply, select_fixes, FixSelection, TextEdit};
pub use lines::LineIndex;
pub use markers::{line_marker, resolve_line_refs};
pub use span::Span;
