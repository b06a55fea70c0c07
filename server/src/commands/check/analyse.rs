//! The files of a run, through the library's [`AnalysisHost`]: loaded in batches, every file
//! of a batch set on the host at once, then analysed in parallel on snapshots (one per file);
//! with `--fix` the fixes are written and the fixed files analysed again the same way. After a
//! batch its files are removed from the host, which keeps memory bounded on long runs.

use super::lines::Lines;
use super::parallel;
use crate::commands::write::write_atomic;
use anyhow::{Context, Result};
use omplens_analysis::budget;
use omplens_analysis::check::config::Config;
use omplens_analysis::check::Finding;
use omplens_analysis::frontend::{may_hold_openmp, SharedHeaders};
use omplens_analysis::ide::{gate, Analysis, AnalysisHost, Change};
use omplens_analysis::ir::Module;
use omplens_analysis::text;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What `check` needs to know beyond the file.
pub struct Settings {
    pub fix: bool,
    /// List each function's unknowns in notes (`--verbose`).
    pub verbose: bool,
    /// Files analysed at once (default: one per core).
    pub jobs: Option<usize>,
    /// Time for one file's analysis (`--file-timeout`); None: no limit.
    pub file_timeout: Option<Duration>,
    /// Precompile the system headers several files begin with, once (see
    /// [`SharedHeaders`]).
    pub shared_headers: bool,
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
    /// The analysis ran out of time (`--file-timeout`): why, in a line for the file. The
    /// findings are then empty.
    pub stopped: Option<String>,
    /// Not parsed: neither the file nor a project header it includes names OpenMP, so it
    /// has no finding ([`may_hold_openmp`]).
    pub without_openmp: bool,
}

/// One file of the run: its configuration and what became of it.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    pub path: &'a Path,
    pub config: &'a Config,
    /// Its libclang arguments, or why they could not be had.
    pub args: &'a Result<Vec<String>, String>,
}

/// A file read and given its flags, ready to be set on the host.
struct Loaded {
    text: String,
    lossless: bool,
    args: Vec<String>,
}

/// The outcome of one file: `Err` for a file that could not be checked (its message), and
/// the outer `Err` for a panic (its message).
pub type Outcome = Result<Result<Checked, String>, String>;

/// Every job, in order; `done(n)` after each file's first analysis.
pub fn check_files(jobs: &[Job], settings: &Settings, mut done: impl FnMut(usize)) -> Vec<Outcome> {
    let threads = settings
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    // Enough files per batch that the wait for a batch's slowest file leaves a core idle
    // rarely, few enough to bound memory (the host keeps a batch's modules until it ends).
    // Over HeCBench at -j2, a first run: 32 files 32.7 s (438 MiB), 64 31.9 s (425 MiB),
    // 128 31.4 s (490 MiB), all in one batch 31.2 s (625 MiB).
    let batch = (threads * 32).max(64);
    let mut out: Vec<Option<Outcome>> = (0..jobs.len()).map(|_| None).collect();
    // A file that cannot hold OpenMP has no finding: it is not parsed.
    let mut order = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        match without_openmp(job, settings.verbose) {
            Some(c) => out[i] = Some(Ok(Ok(c))),
            None => order.push(i),
        }
    }
    let mut finished = jobs.len() - order.len();
    done(finished);
    // Big files first, so that the last files of a batch are short ones; results go back
    // to the order of the command line.
    let size = |i: usize| std::fs::metadata(jobs[i].path).map_or(0, |m| m.len());
    order.sort_by_cached_key(|&i| std::cmp::Reverse(size(i)));
    let parsed: Vec<Job> = order.iter().map(|&i| jobs[i]).collect();
    let shared = shared_headers(&parsed, settings);
    let mut host = match &shared {
        Some(s) => AnalysisHost::with_shared_headers(s.clone()),
        None => AnalysisHost::new(),
    };
    for chunk in order.chunks(batch) {
        let batch_jobs: Vec<Job> = chunk.iter().map(|&i| jobs[i]).collect();
        let outcomes = check_batch(&mut host, &batch_jobs, settings, threads, &mut |n| {
            done(finished + n)
        });
        finished += chunk.len();
        for (&i, o) in chunk.iter().zip(outcomes) {
            out[i] = Some(o);
        }
    }
    if let Some(s) = shared.filter(|_| crate::profiling()) {
        eprintln!("omplens: shared headers: {:?}", s.stats());
    }
    out.into_iter()
        .map(|o| o.unwrap_or_else(|| Err("not checked".to_string())))
        .collect()
}

/// The outcome of a file that neither it nor a project header it includes names OpenMP
/// ([`may_hold_openmp`]); `None` for any other file (one that cannot be read or has no
/// arguments too: its check says why).
fn without_openmp(job: &Job, verbose: bool) -> Option<Checked> {
    let args = job.args.as_ref().ok()?;
    let bytes = std::fs::read(job.path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    if may_hold_openmp(job.path, &text, args) {
        return None;
    }
    Some(Checked {
        path: job.path.to_path_buf(),
        text: String::new(),
        findings: Vec::new(),
        compile_errors: Vec::new(),
        fixed: 0,
        notes: verbose
            .then(|| {
                format!(
                    "{}: note: not parsed: neither the file nor a project header it includes \
                     names OpenMP",
                    job.path.display()
                )
            })
            .into_iter()
            .collect(),
        stopped: None,
        without_openmp: true,
    })
}

/// The run's shared system headers, when asked for and two files or more are checked (a
/// directory for them that cannot be made leaves every file to parse its own).
fn shared_headers(jobs: &[Job], settings: &Settings) -> Option<Arc<SharedHeaders>> {
    if !settings.shared_headers || jobs.len() < 2 {
        return None;
    }
    let files = jobs
        .iter()
        .filter_map(|j| Some((j.path, j.args.as_ref().ok()?.as_slice())));
    let store = omplens_analysis::frontend::cache_dir("pch-v1");
    SharedHeaders::plan(files, store.as_deref())
        .ok()
        .map(Arc::new)
}

fn check_batch(
    host: &mut AnalysisHost,
    jobs: &[Job],
    settings: &Settings,
    threads: usize,
    done: &mut dyn FnMut(usize),
) -> Vec<Outcome> {
    let loaded: Vec<Result<Loaded, String>> = jobs
        .iter()
        .map(|j| load_file(j).map_err(|e| format!("{e:#}")))
        .collect();
    let mut change = Change::new();
    for (j, l) in jobs.iter().zip(&loaded) {
        if let Ok(l) = l {
            change.set_file(j.path, l.text.clone(), l.args.clone());
        }
    }
    host.apply_change(change);

    // First analysis; with `--fix`, the fixed text is written here too.
    let first = on_snapshots(host, jobs.len(), threads, done, |i, a| {
        let l = loaded[i].as_ref().map_err(Clone::clone)?;
        let mut c = analyse(a, jobs[i].path, &l.text, jobs[i].config, settings)?;
        let mut fix_notes = 0;
        if settings.fix {
            let path = jobs[i].path;
            // What the gate compares the fixed text with: made only for a file with fixes
            // (it costs a second parse, with OpenMP semantics on).
            let baseline = || -> Result<gate::Baseline, String> {
                let cancelled = |_| "internal error: the analysis was cancelled".to_string();
                let module = a.module(path).map_err(cancelled)??;
                let raw = a.findings(path).map_err(cancelled)?;
                Ok(gate::Baseline::of(path, &l.args, &l.text, &module, &raw))
            };
            fix_notes = fix(&mut c, l, path, baseline).map_err(|e| format!("{e:#}"))?;
        }
        Ok((c, fix_notes))
    });
    let (first, fix_notes): (Vec<Outcome>, Vec<usize>) = first
        .into_iter()
        .map(|r| match r {
            Ok(Ok((c, n))) => (Ok(Ok(c)), n),
            Ok(Err(e)) => (Ok(Err(e)), 0),
            Err(p) => (Err(p), 0),
        })
        .unzip();

    // Files whose fixes were written are analysed again on their new text.
    let mut change = Change::new();
    for (j, r) in jobs.iter().zip(&first) {
        if let Ok(Ok(c)) = r {
            if c.fixed > 0 {
                let args = loaded_args(&loaded, j.path, jobs);
                change.set_file(j.path, c.text.clone(), args);
            }
        }
    }
    let mut outcomes = first;
    if !change.is_empty() {
        host.apply_change(change);
        let again = on_snapshots(
            host,
            jobs.len(),
            threads,
            &mut |_| {},
            |i, a| match &outcomes[i] {
                Ok(Ok(c)) if c.fixed > 0 => {
                    analyse(a, jobs[i].path, &c.text, jobs[i].config, settings).map(Some)
                }
                _ => Ok(None),
            },
        );
        for ((o, r), kept) in outcomes.iter_mut().zip(again).zip(fix_notes) {
            let Ok(Ok(c)) = o else { continue };
            match r {
                Ok(Ok(Some(new))) => {
                    let (fixed, mut notes) = (c.fixed, std::mem::take(&mut c.notes));
                    // The notes about fixes come first, then the fixed text's own.
                    notes.truncate(kept);
                    notes.extend(new.notes);
                    *c = Checked {
                        fixed,
                        notes,
                        ..new
                    };
                }
                Ok(Ok(None)) => {}
                Ok(Err(e)) => *o = Ok(Err(e)),
                Err(p) => *o = Err(p),
            }
        }
    }

    let mut change = Change::new();
    for j in jobs {
        change.remove_file(j.path);
    }
    host.apply_change(change);
    outcomes
}

fn loaded_args(loaded: &[Result<Loaded, String>], path: &Path, jobs: &[Job]) -> Vec<String> {
    jobs.iter()
        .position(|j| j.path == path)
        .and_then(|i| loaded[i].as_ref().ok())
        .map(|l| l.args.clone())
        .unwrap_or_default()
}

/// `f(i, snapshot)` for every index below `n` on `threads` threads, each with a snapshot of
/// its own (made here: a snapshot is `Send` but not `Sync`). Every snapshot is dropped
/// before this returns, so the host can take the next change.
fn on_snapshots<R: Send>(
    host: &AnalysisHost,
    n: usize,
    threads: usize,
    done: &mut dyn FnMut(usize),
    f: impl Fn(usize, &Analysis) -> Result<R, String> + Sync,
) -> Vec<Result<Result<R, String>, String>> {
    let items: Vec<(usize, Mutex<Option<Analysis>>)> = (0..n)
        .map(|i| (i, Mutex::new(Some(host.analysis()))))
        .collect();
    parallel::map(
        &items,
        Some(threads),
        |(i, snapshot)| {
            let taken = snapshot.lock().ok().and_then(|mut s| s.take());
            match taken {
                Some(a) => f(*i, &a),
                None => Err("internal error: no snapshot".to_string()),
            }
        },
        done,
    )
}

fn load_file(job: &Job) -> Result<Loaded> {
    let path = job.path;
    let args = job.args.clone().map_err(anyhow::Error::msg)?;
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    // Bytes that are not UTF-8 are kept as escapes (`--fix` writes them back); only a file
    // that holds the escape characters themselves is read lossily, and never rewritten.
    let (text, lossless) = match text::bytes::decode(&bytes) {
        Some((t, _)) => (t, true),
        None => (String::from_utf8_lossy(&bytes).into_owned(), false),
    };
    Ok(Loaded {
        text,
        lossless,
        args,
    })
}

/// The findings left after suppressions and configuration, the compile errors and warnings
/// about the suppression comments, from a snapshot holding `text` for `path`. Past
/// `--file-timeout` the analysis stops: no findings, and `stopped` says so.
fn analyse(
    a: &Analysis,
    path: &Path,
    text: &str,
    config: &Config,
    settings: &Settings,
) -> Result<Checked, String> {
    let cancelled = |_| "internal error: the analysis was cancelled".to_string();
    let run = || -> Result<_, String> {
        let module = a.module(path).map_err(cancelled)??;
        let diagnostics = a.diagnostics(path, &[config]).map_err(cancelled)?;
        Ok((module, diagnostics))
    };
    let outcome = match settings.file_timeout {
        Some(limit) => budget::with_deadline(limit, run),
        None => Ok(run()),
    };
    let (module, diagnostics) = match outcome {
        Ok(r) => r?,
        Err(stopped) => {
            let limit = settings.file_timeout.unwrap_or_default();
            return Ok(Checked {
                path: path.to_path_buf(),
                compile_errors: Vec::new(),
                text: text.to_string(),
                findings: Vec::new(),
                fixed: 0,
                notes: Vec::new(),
                stopped: Some(format!(
                    "{}: note: analysis stopped after {} s: {} ran past the time budget of \
                     {} s per file (--file-timeout); no findings for this file",
                    path.display(),
                    seconds(stopped.after),
                    stopped.during,
                    seconds(limit)
                )),
                without_openmp: false,
            });
        }
    };
    let lines = Lines::new(text);
    let mut notes: Vec<String> = diagnostics
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
    // What omplens left out of the analysis (a function it does not analyse, a file with
    // unified shared memory) is said, not silently skipped.
    for d in module.diagnostics.iter().filter(|d| {
        (d.severity == omplens_analysis::ir::Severity::Warning
            && d.message.contains("is not analysed"))
            || d.message == omplens_analysis::frontend::USM_NOTE
    }) {
        let p = lines.position(d.span.map_or(0, |s| s.start));
        notes.push(format!(
            "{}:{}:{}: {}: {}",
            path.display(),
            p.line,
            p.column,
            d.severity.name(),
            d.message
        ));
    }
    if settings.verbose {
        for u in omplens_analysis::semantics::unknowns::unknowns(&module) {
            let p = lines.position(u.span.map_or(0, |s| s.start));
            notes.push(format!(
                "{}:{}:{}: note: unknown in `{}`: {}",
                path.display(),
                p.line,
                p.column,
                module.function(u.function).qualified_name,
                u.what
            ));
        }
    }
    Ok(Checked {
        path: path.to_path_buf(),
        compile_errors: compile_errors(path, &module, text),
        text: text.to_string(),
        findings: diagnostics.findings,
        fixed: 0,
        notes,
        stopped: None,
        without_openmp: false,
    })
}

/// `60`, `0.5`: seconds as a person writes them.
fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 10.0 {
        format!("{s:.0}")
    } else {
        let t = format!("{s:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// `--fix`: the selected fixes written to the file (atomically); `c.text` becomes the new
/// text and `c.fixed` the number of findings fixed. The rewritten text passes the gate first
/// (parsed and analysed again: no new compile error, no new finding of a correctness rule,
/// fewer findings of each correctness rule a fix is for); when the fixes together do not,
/// they are tried one by one and only those the gate accepts are kept
/// ([`gate::gated_fixes`]). Notes put first say which fixes were left out; returns how many.
fn fix(
    c: &mut Checked,
    loaded: &Loaded,
    path: &Path,
    baseline: impl FnOnce() -> Result<gate::Baseline, String>,
) -> Result<usize> {
    if c.findings.iter().all(|f| f.fixes.is_empty()) {
        return Ok(0);
    }
    if !loaded.lossless {
        c.notes.insert(
            0,
            format!(
                "{}: not UTF-8 text, and it holds characters U+10FF80..U+10FFFF, which omplens uses to keep such bytes; no fixes written",
                path.display()
            ),
        );
        return Ok(1);
    }
    if !c.compile_errors.is_empty() {
        c.notes.insert(
            0,
            format!(
                "{}: has errors; omplens only rewrites code that compiles, no fixes written",
                path.display()
            ),
        );
        return Ok(1);
    }
    let selection = text::select_fixes(
        &c.text,
        c.findings
            .iter()
            .map(|f| f.fixes.first().map(|fix| fix.edits.as_slice())),
    );
    let lines = Lines::new(&c.text);
    let not_applied = |i: usize, why: &str| {
        let f = &c.findings[i];
        let p = lines.position(f.span.start);
        format!(
            "{}:{}:{}: note: fix for [{}] not applied: {why}",
            path.display(),
            p.line,
            p.column,
            f.code
        )
    };
    let mut skipped: Vec<String> = selection
        .skipped
        .iter()
        .map(|(i, why)| not_applied(*i, why))
        .collect();
    let mut taken = selection.taken.clone();
    let mut new = text::apply(&c.text, &selection.edits);
    if new != c.text {
        let baseline = baseline().map_err(anyhow::Error::msg)?;
        let gated = gate::gated_fixes(
            path,
            &loaded.args,
            &baseline,
            &c.text,
            &c.findings,
            (&selection.taken, &selection.edits),
            gate::ONE_BY_ONE_TRIES,
        );
        skipped.extend(gated.refused.iter().map(|(i, why)| not_applied(*i, why)));
        taken = gated.taken;
        new = text::apply(&c.text, &gated.edits);
    }
    let n = skipped.len();
    c.notes.splice(0..0, skipped);
    if new != c.text {
        write_atomic(path, &text::bytes::encode(&new))?;
        c.fixed = taken.len();
        c.text = new;
    }
    Ok(n)
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
