//! `omplens check [FILES... | -p BUILD_DIR] [--format text|json|sarif] [--fix]`: the findings
//! of the rules over every file, in parallel, after inline suppressions and `.omplens.toml`.
//!
//! Exit status: 2 when a file could not be checked (unreadable, refused by libclang) or the
//! command line or a configuration is wrong; otherwise 3 when the analysis of a file was
//! stopped by `--file-timeout`; otherwise 1 when an error-severity finding remains, else 0. Findings go to stdout, sorted by file then position; everything else
//! (notes, the summary, progress) goes to stderr.

mod analyse;
mod inputs;
mod json;
mod lines;
mod parallel;
mod render;
mod sarif;

use crate::{CheckArgs, Format};
use analyse::{Checked, Job, Settings};
use anyhow::{Context, Result};
use omplens_analysis::check::config::{self, Config};
use omplens_analysis::check::Severity;
use omplens_analysis::frontend::flags::{self, FlagsOrigin};
use omplens_analysis::frontend::includers::Includers;
use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Compile errors shown per file before "and N more".
const SHOWN_COMPILE_ERRORS: usize = 5;

pub fn run(args: &CheckArgs) -> Result<ExitCode> {
    let listed = inputs::collect(args)?;
    if listed.is_empty() {
        eprintln!("omplens: warning: no C or C++ files to check");
    }
    let (files, file_args, skipped) = flags_of(args, listed);
    let (configs, config_of) = configs(args, &files)?;
    let settings = Settings {
        fix: args.fix,
        verbose: args.verbose,
        jobs: args.jobs.map(usize::from),
        file_timeout: (args.file_timeout > 0.0)
            .then(|| std::time::Duration::try_from_secs_f64(args.file_timeout).ok())
            .flatten(),
        shared_headers: !args.no_shared_headers,
    };
    let started = std::time::Instant::now();
    let progress = parallel::Progress::new(files.len());
    let jobs: Vec<Job> = files
        .iter()
        .zip(&config_of)
        .zip(&file_args)
        .map(|((f, &c), a)| Job {
            path: f,
            config: &configs[c],
            args: a,
        })
        .collect();
    let results = analyse::check_files(&jobs, &settings, |done| progress.update(done));
    progress.clear();

    let mut checked = Vec::new();
    let mut failures = Vec::new();
    for (path, r) in files.iter().zip(results) {
        match r {
            Ok(Ok(c)) => checked.push(c),
            Ok(Err(e)) => failures.push(with_path(path, e)),
            Err(panic) => failures.push(format!(
                "{}: internal error (omplens panicked: {panic}); please report it",
                path.display()
            )),
        }
    }
    let problems = report_problems(&checked, &failures);
    write_findings(args.format, &checked, &problems)?;
    if args.fix {
        let fixed: usize = checked.iter().map(|c| c.fixed).sum();
        let files = checked.iter().filter(|c| c.fixed > 0).count();
        eprintln!(
            "fixed {fixed} finding{} in {files} file{}",
            plural(fixed),
            plural(files)
        );
    }
    let errors = eprint_summary(&checked, failures.len(), skipped, started.elapsed());
    Ok(if !failures.is_empty() {
        ExitCode::from(2)
    } else if checked.iter().any(|c| c.stopped.is_some()) {
        ExitCode::from(3)
    } else if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A file's libclang arguments, or why there are none.
type FileArgs = Result<Vec<String>, String>;

/// The libclang arguments of every file (from its compilation database, read once, and the
/// flags after `--`), or why there are none; files that are not analysed (CUDA, HIP) are left
/// out with a note each. The flags of other compilers that clang rejects are dropped and
/// listed in one note for the whole run. Returns the files kept, their arguments and the
/// number left out.
fn flags_of(args: &CheckArgs, listed: Vec<PathBuf>) -> (Vec<PathBuf>, Vec<FileArgs>, usize) {
    let resolver = flags::Resolver::new(args.build_dir.as_deref());
    omplens_analysis::project::set_database_dir(args.build_dir.as_deref());
    let mut files = Vec::with_capacity(listed.len());
    let mut file_args = Vec::with_capacity(listed.len());
    let mut dropped = Vec::new();
    let mut skipped = 0;
    // Per database, which of its sources include which project files (made on first need).
    let mut includers: HashMap<PathBuf, Includers> = HashMap::new();
    for f in listed {
        match resolver.flags_for(&f, &args.clang_flags) {
            Ok(flags) => {
                if let Some(why) = flags.skip {
                    eprintln!("{}: note: {why}", f.display());
                    skipped += 1;
                    continue;
                }
                // A file with no entry of its own that a source of the database includes
                // is analysed with that source, never on its own (where it does not
                // compile).
                if let FlagsOrigin::Inferred { database, .. } = &flags.origin {
                    let inc = includers
                        .entry(database.clone())
                        .or_insert_with(|| includers_of(&resolver, database));
                    if let Some(by) = inc.includer_of(&f) {
                        eprintln!(
                            "{}: note: not checked on its own: {} includes it, and its code is analysed with that file (findings on its `#include` line)",
                            f.display(),
                            inputs::shown(by).display()
                        );
                        skipped += 1;
                        continue;
                    }
                }
                dropped.extend(flags.dropped);
                files.push(f);
                file_args.push(Ok(flags.args));
            }
            Err(e) => {
                files.push(f);
                file_args.push(Err(format!("reading the compilation database: {e}")));
            }
        }
    }
    if let Some(note) = flags::dropped_note(&dropped) {
        eprintln!("{note}");
    }
    (files, file_args, skipped)
}

/// The includes of every source of the database at `path` (none when it cannot be read).
fn includers_of(resolver: &flags::Resolver, path: &Path) -> Includers {
    let Ok(db) = resolver.database(path) else {
        return Includers::default();
    };
    let sources: Vec<(PathBuf, Vec<String>)> = db
        .files()
        .into_iter()
        .filter_map(|f| {
            let args = db.flags_for(&f)?.args;
            Some((f, args))
        })
        .collect();
    Includers::of(sources.iter().map(|(f, a)| (f.as_path(), a.as_slice())))
}

/// The configuration of every file: one for all with `--config`/`--no-config`, else the
/// nearest `.omplens.toml` above each file (each loaded once).
fn configs(args: &CheckArgs, files: &[PathBuf]) -> Result<(Vec<Config>, Vec<usize>)> {
    if args.no_config {
        return Ok((vec![Config::default()], vec![0; files.len()]));
    }
    if let Some(path) = &args.config {
        return Ok((vec![config::load(path)?], vec![0; files.len()]));
    }
    let mut configs = vec![Config::default()];
    let mut by_path: HashMap<PathBuf, usize> = HashMap::new();
    let mut by_dir: HashMap<PathBuf, usize> = HashMap::new();
    let mut of = Vec::with_capacity(files.len());
    for f in files {
        let dir = match f.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if let Some(&i) = by_dir.get(&dir) {
            of.push(i);
            continue;
        }
        let i = match config::discover(&dir)
            .with_context(|| format!("configuration of {}", f.display()))?
        {
            Some((path, c)) => *by_path.entry(path).or_insert_with(|| {
                configs.push(c);
                configs.len() - 1
            }),
            None => 0,
        };
        by_dir.insert(dir, i);
        of.push(i);
    }
    Ok((configs, of))
}

fn with_path(path: &Path, message: String) -> String {
    let shown = path.display().to_string();
    if message.contains(&shown) {
        message
    } else {
        format!("{shown}: {message}")
    }
}

/// Prints notes, compile errors and failures on stderr; returns them as one line each for
/// SARIF's notifications.
fn report_problems(checked: &[Checked], failures: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    for c in checked {
        for n in &c.notes {
            eprintln!("{n}");
        }
        if let Some(s) = &c.stopped {
            eprintln!("{s}");
            problems.push(s.clone());
        }
        if c.compile_errors.is_empty() {
            continue;
        }
        let path = c.path.display();
        let n = c.compile_errors.len();
        let line = format!(
            "{path} has {n} compile error{}; its findings may be incomplete",
            plural(n)
        );
        eprintln!("omplens: warning: {line}:");
        for e in c.compile_errors.iter().take(SHOWN_COMPILE_ERRORS) {
            eprintln!("{e}");
        }
        if n > SHOWN_COMPILE_ERRORS {
            eprintln!("... and {} more", n - SHOWN_COMPILE_ERRORS);
        }
        problems.push(line);
    }
    for f in failures {
        eprintln!("omplens: error: {f}");
        problems.push(f.clone());
    }
    problems
}

fn write_findings(format: Format, checked: &[Checked], problems: &[String]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let written = match format {
        Format::Text => {
            let color = std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            render::write(&mut out, checked, render::Style { color })
        }
        Format::Json => out.write_all(json::render(checked).as_bytes()),
        Format::Sarif => {
            let cwd = std::env::current_dir().ok();
            out.write_all(sarif::render(checked, problems, cwd.as_deref()).as_bytes())
        }
    };
    match written.and_then(|()| out.flush()) {
        // A closed pipe (`omplens check . | head`) is not an error worth reporting.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// `2 errors, 1 warning, 0 infos/hints in 3 files; took 4.2 s` on stderr (the time for more than
/// one file: a run over a tree); returns the number of errors.
fn eprint_summary(
    checked: &[Checked],
    failed: usize,
    skipped: usize,
    took: std::time::Duration,
) -> usize {
    let count = |pred: &dyn Fn(Severity) -> bool| -> usize {
        checked
            .iter()
            .flat_map(|c| &c.findings)
            .filter(|f| pred(f.severity))
            .count()
    };
    let errors = count(&|s| s == Severity::Error);
    let warnings = count(&|s| s == Severity::Warning);
    let others = count(&|s| matches!(s, Severity::Info | Severity::Hint));
    let files = checked.len();
    let mut line = format!(
        "{errors} error{}, {warnings} warning{}, {others} infos/hints in {files} file{}",
        plural(errors),
        plural(warnings),
        plural(files)
    );
    let without = checked.iter().filter(|c| c.without_openmp).count();
    if without > 0 {
        line.push_str(&format!(" ({without} without OpenMP, not parsed)"));
    }
    if failed > 0 {
        line.push_str(&format!(
            " ({failed} file{} could not be checked)",
            plural(failed)
        ));
    }
    if skipped > 0 {
        line.push_str(&format!(
            " ({skipped} file{} not analysed)",
            plural(skipped)
        ));
    }
    let stopped = checked.iter().filter(|c| c.stopped.is_some()).count();
    if stopped > 0 {
        line.push_str(&format!(
            " ({stopped} file{} stopped by --file-timeout)",
            plural(stopped)
        ));
    }
    if files + failed > 1 {
        line.push_str(&format!("; took {:.1} s", took.as_secs_f64()));
    }
    eprintln!("{line}");
    errors
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
