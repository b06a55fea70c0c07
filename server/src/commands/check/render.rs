//! The text format: compiler-style messages with the source line and a caret underline.
//!
//! ```text
//! f.c:6:18: error: the host reads `a[0]` ... [OMP101]
//!     6 |   printf("%f\n", a[0]);
//!       |                  ^~~~
//! f.c:5:3: note: written on the device here
//!     5 |   a[0] = 1.0;
//!       |   ^~~~
//!   = suggested fix: map `a` tofrom (`--fix` writes it only if the fixed file passes a re-check)
//!   = moves 64 B each time, x100
//! ```

use super::analyse::Checked;
use super::lines::Lines;
use omplens_analysis::check::{Finding, Severity};
use omplens_analysis::ir::Span;
use std::io::{self, Write};

/// ANSI colours, or none.
#[derive(Clone, Copy)]
pub struct Style {
    pub color: bool,
}

impl Style {
    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

fn severity_color(s: Severity) -> &'static str {
    match s {
        Severity::Error => "1;31",
        Severity::Warning => "1;35",
        Severity::Info => "1;34",
        Severity::Hint => "1;36",
    }
}

const NOTE_COLOR: &str = "1;36";
const BOLD: &str = "1";
const CARET_COLOR: &str = "1;32";

pub fn write(out: &mut impl Write, files: &[Checked], style: Style) -> io::Result<()> {
    for file in files {
        let lines = Lines::new(&file.text);
        let path = file.path.display().to_string();
        for f in &file.findings {
            write_finding(out, &path, &lines, f, style)?;
        }
    }
    Ok(())
}

fn write_finding(
    out: &mut impl Write,
    path: &str,
    lines: &Lines,
    f: &Finding,
    style: Style,
) -> io::Result<()> {
    let width = std::iter::once(f.span.start)
        .chain(f.related.iter().map(|r| r.span.start))
        .map(|o| lines.position(o).line.to_string().len())
        .max()
        .unwrap_or(1)
        // As clang does: five columns for the line number.
        .max(5);
    let p = lines.position(f.span.start);
    writeln!(
        out,
        "{} {} {}",
        style.paint(BOLD, &format!("{path}:{}:{}:", p.line, p.column)),
        style.paint(
            severity_color(f.severity),
            &format!("{}:", f.severity.name())
        ),
        style.paint(BOLD, &format!("{} [{}]", f.message, f.code)),
    )?;
    write_snippet(out, lines, f.span, width, style)?;
    for r in &f.related {
        // A place in a project header is shown in that file, as clang shows notes.
        let header_lines = r.header.as_ref().map(|h| Lines::new(&h.header.text));
        let (at, lines, span) = match (&r.header, &header_lines) {
            (Some(h), Some(l)) => (h.header.path.as_str(), l, h.span),
            _ => (path, lines, r.span),
        };
        let p = lines.position(span.start);
        writeln!(
            out,
            "{} {} {}",
            style.paint(BOLD, &format!("{at}:{}:{}:", p.line, p.column)),
            style.paint(NOTE_COLOR, "note:"),
            r.message
        )?;
        let width = width.max(p.line.to_string().len());
        write_snippet(out, lines, span, width, style)?;
    }
    // Not "available": `--fix` writes a fix only when the re-analysis of the fixed file
    // accepts it (the gate), which this listing has not run.
    for fix in &f.fixes {
        writeln!(
            out,
            "  = suggested fix: {} (`--fix` writes it only if the fixed file passes a re-check)",
            fix.title
        )?;
    }
    if let Some(cost) = cost(f) {
        writeln!(out, "  = {cost}")?;
    }
    Ok(())
}

/// `moves 64 B each time, x100 (estimated)`.
fn cost(f: &Finding) -> Option<String> {
    let times = f.multiplier.map(|m| {
        let guess = if m.estimated { " (estimated)" } else { "" };
        format!("x{}{guess}", m.times)
    });
    match (f.bytes, times) {
        (Some(b), Some(t)) => Some(format!("moves {b} B each time, {t}")),
        (Some(b), None) => Some(format!("moves {b} B each time")),
        (None, Some(t)) => Some(format!("happens {t}")),
        (None, None) => None,
    }
}

/// The first line of `span` with `^~~~` under the part of it the span covers.
fn write_snippet(
    out: &mut impl Write,
    lines: &Lines,
    span: Span,
    width: usize,
    style: Style,
) -> io::Result<()> {
    let start = lines.position(span.start);
    let end = lines.position(span.end.max(span.start));
    let text = lines.line_text(start.line);
    let from = start.column as usize - 1;
    let to = if end.line == start.line {
        end.column as usize - 1
    } else {
        text.chars().count()
    };
    // Tabs stay tabs so the caret lines up however the terminal expands them.
    let pad: String = text
        .chars()
        .take(from)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let marker = format!("^{}", "~".repeat(to.saturating_sub(from + 1)));
    writeln!(out, "{:>width$} | {text}", start.line)?;
    writeln!(
        out,
        "{:>width$} | {pad}{}",
        "",
        style.paint(CARET_COLOR, &marker)
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use omplens_analysis::check::{Fix, Multiplier, Related};
    use std::path::PathBuf;

    #[test]
    fn compiler_style() {
        let text = "int main() {\n\ta[0] = 1;\n  f(a[0]);\n}\n";
        let read = text.find("a[0])").unwrap() as u32;
        let written = text.find("a[0] =").unwrap() as u32;
        let file = Checked {
            path: PathBuf::from("dir/f.c"),
            text: text.to_string(),
            findings: vec![Finding {
                code: omplens_analysis::check::Code::OMP101,
                severity: Severity::Error,
                span: Span::new(read, read + 4),
                message: "stale".to_string(),
                related: vec![Related {
                    span: Span::new(written, written + 4),
                    message: "written here".to_string(),
                    header: None,
                }],
                fixes: vec![Fix {
                    title: "map tofrom".to_string(),
                    edits: Vec::new(),
                }],
                bytes: Some(64),
                multiplier: Some(Multiplier {
                    times: 10,
                    estimated: true,
                }),
            }],
            compile_errors: Vec::new(),
            fixed: 0,
            notes: Vec::new(),
            stopped: None,
            without_openmp: false,
        };
        let mut out = Vec::new();
        write(&mut out, &[file], Style { color: false }).unwrap();
        let expected = "\
dir/f.c:3:5: error: stale [OMP101]
    3 |   f(a[0]);
      |     ^~~~
dir/f.c:2:2: note: written here
    2 | \ta[0] = 1;
      | \t^~~~
  = suggested fix: map tofrom (`--fix` writes it only if the fixed file passes a re-check)
  = moves 64 B each time, x10 (estimated)
";
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }
}
