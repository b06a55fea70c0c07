//! `omplens check`: judge the data mappings a programmer wrote (OmpSan's errors, OmpMemOpt's
//! and OMPDart's waste).
//!
//! [`env`] interprets each host function over its AST-CFG with an abstract device data
//! environment (present table with reference counts, host/device validity) and records what
//! happens ([`env::Fact`]); each rule in [`rules`] turns facts into [`Finding`]s. A rule is one
//! file with its documentation page beside it (`omplens explain CODE`).

pub mod config;
pub mod env;
mod fixes;
pub mod rules;
pub mod suppress;

pub use rules::Code;

use crate::ir::{Module, Span};
pub use crate::plan::rewrite::TextEdit;

/// How serious a finding is, as editors and SARIF name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A secondary location of a finding: the write that made data stale, the clause that did not
/// copy, the kernel that reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub span: Span,
    pub message: String,
}

/// A fix: edits of the checked file (byte offsets, non-overlapping) that together resolve the
/// finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

/// How often a copy happens: once per iteration of loops with this many iterations in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Multiplier {
    pub times: u64,
    /// The trip count is a guess (a loop bound that is not a constant).
    pub estimated: bool,
}

/// One diagnostic of `omplens check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule's code, e.g. [`Code::OMP101`] (see [`rules::RULES`]).
    pub code: Code,
    pub severity: Severity,
    /// Primary range (byte offsets in the main file).
    pub span: Span,
    pub message: String,
    pub related: Vec<Related>,
    pub fixes: Vec<Fix>,
    /// Bytes moved per occurrence, when the extent is known.
    pub bytes: Option<u64>,
    pub multiplier: Option<Multiplier>,
}

/// The line of `offset` as a message says it ("at line 12"). In a piece of a file (the
/// incremental layer, [`crate::db`]) the line is not known yet: a marker holding the offset
/// stands in until [`resolve_line_refs`] maps it to the real file.
pub fn line_ref(module: &Module, offset: u32) -> String {
    if module.piece {
        format!("{LINE_REF_START}{offset}{LINE_REF_END}")
    } else {
        module.line_col(offset).0.to_string()
    }
}

const LINE_REF_START: char = '\u{1}';
const LINE_REF_END: char = '\u{2}';

/// `text` with the markers of [`line_ref`] replaced by `line(offset)` (`?` when unknown).
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

/// Every finding of `module` (lowered from `source`), in source order, before suppressions
/// and configuration are applied.
pub fn check(module: &Module, source: &str) -> Vec<Finding> {
    let facts = env::interpret(module, source);
    check_facts(module, source, &facts)
}

/// [`check`] over facts already interpreted (callers that also need the facts, e.g. hover).
pub fn check_facts(module: &Module, source: &str, facts: &env::Facts) -> Vec<Finding> {
    let mut out = rules::run(module, source, facts);
    out.sort_by_key(|f| (f.span.start, f.code, f.span.end));
    out.dedup_by(|a, b| a.code == b.code && a.span == b.span && a.message == b.message);
    out
}

/// What `omplens check` reports for one file: the findings no inline suppression silences,
/// after `config` (rules enabled, severities), and the names in suppression comments that are
/// no rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reported {
    pub findings: Vec<Finding>,
    /// (byte offset of the comment, the unknown name).
    pub unknown_suppressions: Vec<(u32, String)>,
}

/// Applies the inline suppressions of `source` and then each configuration in turn (a
/// finding survives only if every one enables it; later ones override severities) to
/// `findings` of that source. The CLI and the language server both report through this.
pub fn report(source: &str, findings: Vec<Finding>, configs: &[&config::Config]) -> Reported {
    let starts = crate::ir::line_starts(source);
    let suppressions = suppress::Suppressions::parse(source, &starts);
    let mut findings: Vec<Finding> = findings
        .into_iter()
        .filter(|f| !suppressions.suppresses(&starts, f))
        .collect();
    for c in configs {
        findings = c.apply(findings);
    }
    Reported {
        findings,
        unknown_suppressions: suppressions.unknown,
    }
}
