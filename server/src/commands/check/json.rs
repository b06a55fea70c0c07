//! `--format json`: one array of findings; lines and columns 1-based, columns in characters.

use super::analyse::Checked;
use super::lines::{Lines, Position};
use omplens_analysis::check::Finding;
use omplens_analysis::ir::Span;
use serde::Serialize;

#[derive(Serialize)]
pub struct JsonFinding<'a> {
    file: String,
    range: Range,
    severity: &'static str,
    code: &'static str,
    /// The rule's kebab-case name.
    rule: &'static str,
    message: &'a str,
    related: Vec<JsonRelated<'a>>,
    fixes: Vec<JsonFix<'a>>,
    bytes: Option<u64>,
    multiplier: Option<JsonMultiplier>,
}

#[derive(Serialize)]
struct Range {
    start: Position,
    end: Position,
}

#[derive(Serialize)]
struct JsonRelated<'a> {
    file: String,
    range: Range,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    title: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    range: Range,
    text: &'a str,
}

#[derive(Serialize)]
struct JsonMultiplier {
    times: u64,
    estimated: bool,
}

fn range(lines: &Lines, span: Span) -> Range {
    Range {
        start: lines.position(span.start),
        end: lines.position(span.end.max(span.start)),
    }
}

fn finding<'a>(file: &str, lines: &Lines, f: &'a Finding) -> JsonFinding<'a> {
    JsonFinding {
        file: file.to_string(),
        range: range(lines, f.span),
        severity: f.severity.name(),
        code: f.code.as_str(),
        rule: f.code.rule().name,
        message: &f.message,
        related: f
            .related
            .iter()
            .map(|r| match &r.header {
                // A place in a project header: that file's own positions.
                Some(h) => JsonRelated {
                    file: h.header.path.clone(),
                    range: range(&Lines::new(&h.header.text), h.span),
                    message: &r.message,
                },
                None => JsonRelated {
                    file: file.to_string(),
                    range: range(lines, r.span),
                    message: &r.message,
                },
            })
            .collect(),
        fixes: f
            .fixes
            .iter()
            .map(|fix| JsonFix {
                title: &fix.title,
                edits: fix
                    .edits
                    .iter()
                    .map(|e| JsonEdit {
                        range: range(lines, Span::new(e.start, e.end)),
                        text: &e.text,
                    })
                    .collect(),
            })
            .collect(),
        bytes: f.bytes,
        multiplier: f.multiplier.map(|m| JsonMultiplier {
            times: m.times,
            estimated: m.estimated,
        }),
    }
}

/// The array, pretty-printed, with a final newline.
pub fn render(files: &[Checked]) -> String {
    let mut all = Vec::new();
    for file in files {
        let lines = Lines::new(&file.text);
        let path = file.path.display().to_string();
        all.extend(file.findings.iter().map(|f| finding(&path, &lines, f)));
    }
    let mut s = serde_json::to_string_pretty(&all).expect("findings serialize");
    s.push('\n');
    s
}
