//! One file: lower, check, drop what suppressions and configuration silence, and with
//! `--fix` apply the fixes and check again.

use super::lines::Lines;
use crate::commands::load;
use crate::commands::write::write_atomic;
use anyhow::{Context, Result};
use omplens_analysis::check::config::Config;
use omplens_analysis::check::{self, Finding};
use omplens_analysis::frontend;
use omplens_analysis::ir::Module;
use omplens_analysis::text;
use std::path::{Path, PathBuf};

/// What `check` needs to know beyond the file.
pub struct Settings<'a> {
    pub build_dir: Option<&'a Path>,
    pub clang_flags: &'a [String],
    pub fix: bool,
}

/// A checked file.
pub struct Checked {
    pub path: PathBuf,
    /// The text the findings point into (after `--fix` wrote it).
    pub text: String,
    /// After suppressions and configuration, in source order.
    pub findings: Vec<Finding>,
    /// Errors of the front end (`path:line:col: error: message`): the findings may be
    /// incomplete.
    pub compile_errors: Vec<String>,
    /// Findings whose fix was written.
    pub fixed: usize,
    /// Messages for stderr: fixes not applied, unknown names in suppression comments.
    pub notes: Vec<String>,
}

pub fn check_file(path: &Path, settings: &Settings, config: &Config) -> Result<Checked> {
    let args = load::file_flags(path, settings.build_dir, settings.clang_flags)?;
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let (mut text, lossless) = match String::from_utf8(bytes) {
        Ok(t) => (t, true),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), false),
    };
    let mut notes = Vec::new();
    let (mut module, mut findings, mut comment_notes) = analyse(path, &text, &args, config)?;
    let mut fixed = 0;
    if settings.fix && !findings.iter().all(|f| f.fixes.is_empty()) {
        if !lossless {
            notes.push(format!(
                "{}: not UTF-8 text; no fixes written",
                path.display()
            ));
        } else if !compile_errors(path, &module, &text).is_empty() {
            notes.push(format!(
                "{}: has errors; omplens only rewrites code that compiles, no fixes written",
                path.display()
            ));
        } else {
            let selection = text::select_fixes(
                &text,
                findings
                    .iter()
                    .map(|f| f.fixes.first().map(|fix| fix.edits.as_slice())),
            );
            let lines = Lines::new(&text);
            for (i, why) in &selection.skipped {
                let f = &findings[*i];
                let p = lines.position(f.span.start);
                notes.push(format!(
                    "{}:{}:{}: note: fix for [{}] not applied: {why}",
                    path.display(),
                    p.line,
                    p.column,
                    f.code
                ));
            }
            let new = text::apply(&text, &selection.edits);
            if new != text {
                write_atomic(path, &new)?;
                fixed = selection.taken.len();
                text = new;
                (module, findings, comment_notes) = analyse(path, &text, &args, config)?;
            }
        }
    }
    notes.extend(comment_notes);
    Ok(Checked {
        path: path.to_path_buf(),
        compile_errors: compile_errors(path, &module, &text),
        text,
        findings,
        fixed,
        notes,
    })
}

/// The module, the findings left after suppressions and configuration, and warnings about
/// the suppression comments.
fn analyse(
    path: &Path,
    text: &str,
    args: &[String],
    config: &Config,
) -> Result<(Module, Vec<Finding>, Vec<String>)> {
    let module = frontend::lower_file(path, Some(text), args)?;
    let reported = check::report(text, check::check(&module, text), &[config]);
    let lines = Lines::new(text);
    let notes = reported
        .unknown_suppressions
        .iter()
        .map(|(offset, name)| {
            let p = lines.position(*offset);
            format!(
                "{}:{}:{}: warning: unknown rule `{name}` in an omplens comment (see `omplens explain --list`)",
                path.display(),
                p.line,
                p.column
            )
        })
        .collect();
    Ok((module, reported.findings, notes))
}

fn compile_errors(path: &Path, module: &Module, text: &str) -> Vec<String> {
    let lines = Lines::new(text);
    let path = path.display();
    module
        .errors()
        .map(|d| match d.span {
            Some(s) => {
                let p = lines.position(s.start);
                format!("{path}:{}:{}: error: {}", p.line, p.column, d.message)
            }
            None => format!("{path}: error: {}", d.message),
        })
        .collect()
}
