//! Findings and front-end problems as LSP diagnostics.

use super::analysis::{Analysed, FileAnalysis};
use super::convert::LineIndex;
use omplens_analysis::check::rules::Tag;
use omplens_analysis::check::{Finding, Severity};
use omplens_analysis::ir::Severity as IrSeverity;
use serde_json::json;
use tower_lsp_server::ls_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag,
    Location, NumberOrString, Position, Range, Uri,
};

/// At most this many problems of the front end that have no place in the file (headers).
const MAX_UNPLACED: usize = 10;

/// Every diagnostic of one analysed version (one on line 1 when there is no analysis).
pub fn of(uri: &Uri, a: &Analysed, docs_base_url: Option<&str>) -> Vec<Diagnostic> {
    match &a.result {
        Err(why) => vec![file_level(
            why.clone(),
            DiagnosticSeverity::ERROR,
            "omplens",
        )],
        Ok(fa) => of_analysis(uri, &a.index, fa, docs_base_url),
    }
}

fn of_analysis(
    uri: &Uri,
    index: &LineIndex,
    fa: &FileAnalysis,
    docs_base_url: Option<&str>,
) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = fa
        .findings
        .iter()
        .map(|f| finding(uri, index, f, docs_base_url))
        .collect();
    let mut unplaced = 0;
    for d in &fa.module.diagnostics {
        // Clang's own warnings are clangd's business; its errors matter here because they
        // make the findings incomplete. Our pragma parser's problems and notes are ours.
        let (severity, source) = match (d.source, d.severity) {
            ("clang", IrSeverity::Error) => (DiagnosticSeverity::ERROR, "clang"),
            ("clang", _) => continue,
            (_, IrSeverity::Error) => (DiagnosticSeverity::ERROR, "omplens"),
            (_, IrSeverity::Warning) => (DiagnosticSeverity::WARNING, "omplens"),
            (_, IrSeverity::Note) => (DiagnosticSeverity::INFORMATION, "omplens"),
        };
        match d.span {
            Some(s) => out.push(Diagnostic {
                range: index.range(s.start, s.end),
                severity: Some(severity),
                source: Some(source.to_string()),
                message: d.message.clone(),
                ..Diagnostic::default()
            }),
            None if unplaced < MAX_UNPLACED => {
                unplaced += 1;
                out.push(file_level(d.message.clone(), severity, source));
            }
            None => {}
        }
    }
    for (offset, name) in &fa.unknown_suppressions {
        out.push(Diagnostic {
            range: index.range(*offset, *offset),
            severity: Some(DiagnosticSeverity::WARNING),
            source: Some("omplens".into()),
            message: format!(
                "unknown rule `{name}` in an omplens comment (see `omplens explain --list`)"
            ),
            ..Diagnostic::default()
        });
    }
    if let Some(e) = &fa.config_error {
        out.push(file_level(
            format!("{e} (the defaults are used)"),
            DiagnosticSeverity::WARNING,
            "omplens",
        ));
    }
    out
}

/// A diagnostic about the whole file, on its first line.
pub fn file_level(message: String, severity: DiagnosticSeverity, source: &str) -> Diagnostic {
    Diagnostic {
        range: Range::new(Position::new(0, 0), Position::new(0, 0)),
        severity: Some(severity),
        source: Some(source.to_string()),
        message,
        ..Diagnostic::default()
    }
}

/// One finding; also used to match a client's diagnostic back to its finding.
pub fn finding(
    uri: &Uri,
    index: &LineIndex,
    f: &Finding,
    docs_base_url: Option<&str>,
) -> Diagnostic {
    let related = f
        .related
        .iter()
        .map(|r| DiagnosticRelatedInformation {
            location: r
                .header
                .as_ref()
                .and_then(header_location)
                .unwrap_or_else(|| {
                    Location::new(uri.clone(), index.range(r.span.start, r.span.end))
                }),
            message: r.message.clone(),
        })
        .collect::<Vec<_>>();
    let code_description = docs_base_url
        .and_then(|base| format!("{base}{}", f.code).parse::<Uri>().ok())
        .map(|href| CodeDescription { href });
    Diagnostic {
        range: index.range(f.span.start, f.span.end),
        severity: Some(severity(f.severity)),
        code: Some(NumberOrString::String(f.code.to_string())),
        code_description,
        source: Some("omplens".into()),
        message: f.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        tags: f
            .code
            .rule()
            .has_tag(Tag::Unnecessary)
            .then(|| vec![DiagnosticTag::UNNECESSARY]),
        data: Some(json!({
            "rule": f.code.rule().name,
            "bytes": f.bytes,
            "times": f.multiplier.map(|m| m.times),
            "fixes": f.fixes.len(),
        })),
    }
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

/// A place in a project header as an LSP location in that file (its own UTF-16 positions),
/// if its path makes a `file:` URI.
fn header_location(h: &omplens_analysis::check::HeaderPlace) -> Option<Location> {
    let uri = Uri::from_file_path(std::path::absolute(&h.header.path).ok()?)?;
    let (text, lines) = (&h.header.text, &h.header.lines);
    let at = |o: u32| {
        let (line, character) = lines.utf16_position(text, o);
        Position::new(line, character)
    };
    Some(Location::new(
        uri,
        Range::new(at(h.span.start), at(h.span.end.max(h.span.start))),
    ))
}
