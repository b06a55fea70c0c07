//! The fix table: for every program in tests/fix/ (or those named), the host-offload oracle's
//! account of three versions of it:
//!
//! - implicit: the input `NAME.c` / `NAME.cpp` as written (no or incomplete mappings);
//! - expert: the hand-written `NAME.expert.c` / `NAME.expert.cpp`;
//! - omplens: what `omplens fix NAME.c -o TMP/NAME.c` writes.
//!
//! For each: copies and bytes host→device and device→host, and a status: `ok` (same output
//! as the build without -fopenmp, which is the input's, exit 0, no unmapped data), `WRONG`
//! (different output or non-zero exit), `UNMAPPED` (right output, unmapped data), `ERROR` (the
//! oracle could not build or run it), `FIX-FAILED` (omplens fix exited 2, crashed, timed out or
//! wrote nothing), `MISSING` (no expert file). ` (exit 1)` after an omplens status: `omplens fix`
//! exited 1 (fixed, but printed error diagnostics).
//!
//! The closing lines count, over the N programs shown: programs where omplens is correct and
//! moves no more bytes (both ways together) than a measured expert version, and programs where
//! omplens (and each other version) is correct.
//!
//! Usage: fix_table [--omplens PATH] [--markdown] [NAMES...]
//!   --omplens PATH  the omplens binary (default: $OMPLENS_BIN, else target/release/omplens)
//!   --markdown      a markdown table instead of aligned text
//!   NAMES           programs to include: NAME, NAME.c or a path (default: all)
//! Environment: OMPLENS_FIX_DIR=DIR reads the programs from DIR instead of tests/fix.
//! The table goes to stdout; progress and the details of every failure go to stderr.
//! Exit status: 0 when omplens is correct on every program shown, 1 when not, 2 when the table
//! could not be made (usage, no programs, omplens or the oracle's tools missing).

use omplens_tests::fix_programs::{self, parallel_map, programs_with, Program};
use omplens_tests::oracle::{self, Transfer, Verdict};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const FIX_TIMEOUT: Duration = Duration::from_secs(120);
const USAGE: &str = "usage: fix_table [--omplens PATH] [--markdown] [NAMES...]";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

struct Args {
    omplens: PathBuf,
    markdown: bool,
    names: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut omplens = None;
    let mut markdown = false;
    let mut names = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--markdown" => markdown = true,
            "--omplens" => {
                omplens = Some(PathBuf::from(
                    it.next().ok_or("--omplens needs a path".to_string())?,
                ))
            }
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with("--omplens=") => {
                omplens = Some(PathBuf::from(&s["--omplens=".len()..]))
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            _ => names.push(a),
        }
    }
    let omplens = omplens
        .or_else(|| {
            std::env::var_os("OMPLENS_BIN")
                .filter(|s| !s.is_empty())
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| repo().join("target").join("release").join("omplens"));
    Ok(Args {
        omplens,
        markdown,
        names,
    })
}

fn fix_dir() -> PathBuf {
    fix_programs::fix_dir(&repo())
}

/// The inputs of `dir` (`NAME.c` / `NAME.cpp`; not `NAME.expert.c` or `NAME.fixed.c`).
fn programs(dir: &Path) -> Result<Vec<Program>, String> {
    programs_with(dir, None).map_err(|e| format!("{}: {e}", dir.display()))
}

/// The programs named (by NAME, file name or path), in the order given.
fn select(all: Vec<Program>, names: &[String]) -> Result<Vec<Program>, String> {
    if names.is_empty() {
        return Ok(all);
    }
    let mut chosen = Vec::new();
    for n in names {
        let base = Path::new(n)
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or(n);
        let p = all
            .iter()
            .find(|p| p.name == base || p.file_name() == base)
            .ok_or_else(|| format!("no program {n} in {}", fix_dir().display()))?;
        chosen.push(p.clone());
    }
    Ok(chosen)
}

// ---------------------------------------------------------------------------------------------
// Measuring one version

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Ok,
    Wrong,
    Unmapped,
    WrongUnmapped,
    Error,
    FixFailed,
    Missing,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Wrong => "WRONG",
            Status::Unmapped => "UNMAPPED",
            Status::WrongUnmapped => "WRONG+UNMAPPED",
            Status::Error => "ERROR",
            Status::FixFailed => "FIX-FAILED",
            Status::Missing => "MISSING",
        }
    }
}

/// The oracle's account of one version of a program.
struct Measured {
    status: Status,
    /// Transfers, when the offloaded build ran.
    h2d: Option<Transfer>,
    d2h: Option<Transfer>,
    /// `omplens fix` exited 1.
    fix_exit_1: bool,
    /// Why the status is not `ok` (for stderr).
    detail: Option<String>,
    /// The stdout of the build without -fopenmp.
    reference: Option<String>,
}

impl Measured {
    fn failed(status: Status, detail: String) -> Self {
        Measured {
            status,
            h2d: None,
            d2h: None,
            fix_exit_1: false,
            detail: Some(detail),
            reference: None,
        }
    }

    fn correct(&self) -> bool {
        self.status == Status::Ok
    }

    fn total_bytes(&self) -> Option<u64> {
        Some(self.h2d?.bytes + self.d2h?.bytes)
    }

    fn status_label(&self) -> String {
        let mut s = self.status.label().to_string();
        if self.fix_exit_1 {
            s.push_str(" (exit 1)");
        }
        s
    }
}

/// Runs the oracle on `src`; `reference`: the input's output without -fopenmp, which every
/// version must also print there.
fn measure(src: &Path, dir: &Path, reference: Option<&str>) -> Measured {
    let flags = ["-I".to_string(), dir.display().to_string()];
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let verdict: Verdict = match oracle::check(src, &flags) {
        Ok(v) => v,
        Err(e) => return Measured::failed(Status::Error, format!("oracle: {e}")),
    };
    let run = &verdict.offload;
    let same_reference = reference.is_none_or(|r| r == verdict.reference);
    let wrong = !verdict.output_matches || run.exit_code != Some(0) || !same_reference;
    let unmapped = !run.unmapped.is_empty();
    let status = match (wrong, unmapped) {
        (false, false) => Status::Ok,
        (true, false) => Status::Wrong,
        (false, true) => Status::Unmapped,
        (true, true) => Status::WrongUnmapped,
    };
    let detail = (status != Status::Ok).then(|| {
        let mut d = verdict.summary();
        if !same_reference {
            let _ = write!(
                d,
                "\nits build without -fopenmp prints something else than the input's:\n{}",
                verdict.reference
            );
        }
        d
    });
    Measured {
        status,
        h2d: Some(run.h2d),
        d2h: Some(run.d2h),
        fix_exit_1: false,
        detail,
        reference: Some(verdict.reference.clone()),
    }
}

/// `omplens fix INPUT -o OUT`, stdout discarded, stderr kept, killed after [`FIX_TIMEOUT`].
/// `Ok(exit code)` when it exited 0 or 1.
fn run_fix(omplens: &Path, input: &Path, out: &Path) -> Result<i32, String> {
    let mut cmd = Command::new(omplens);
    cmd.arg("fix").arg(input).arg("-o").arg(out);
    let done = oracle::run_with_timeout(cmd, FIX_TIMEOUT)
        .map_err(|e| format!("running {}: {e}", omplens.display()))?;
    let status = done.status;
    let stderr = done.stderr.trim_end().to_string();
    let code = status.and_then(|s| s.code());
    match code {
        Some(c @ (0 | 1)) if out.is_file() => Ok(c),
        Some(c @ (0 | 1)) => Err(format!(
            "omplens fix exited {c} but wrote no output\n{stderr}"
        )),
        _ => {
            let how = match status {
                None => format!("did not finish within {} s", FIX_TIMEOUT.as_secs()),
                Some(s) => format!("exited with {s}"),
            };
            Err(format!("omplens fix {how}\n{stderr}"))
        }
    }
}

struct Row {
    program: Program,
    implicit: Measured,
    expert: Measured,
    omplens: Measured,
}

fn measure_program(p: &Program, omplens: &Path, scratch: &Path) -> Row {
    let implicit = measure(&p.input(), &p.dir, None);
    let reference = implicit.reference.clone();
    let expert = if p.expert().is_file() {
        measure(&p.expert(), &p.dir, reference.as_deref())
    } else {
        Measured::failed(
            Status::Missing,
            format!("no expert version {}", p.expert().display()),
        )
    };
    // One directory per program, so the fixed file keeps its name (kernel locations read
    // NAME.c:LINE) without clashing with another program's.
    let out_dir = scratch.join(format!("{}-{}", p.name, p.ext));
    let omplens = match std::fs::create_dir_all(&out_dir) {
        Err(e) => Measured::failed(Status::FixFailed, format!("{}: {e}", out_dir.display())),
        Ok(()) => {
            let out = out_dir.join(p.file_name());
            match run_fix(omplens, &p.input(), &out) {
                Err(e) => Measured::failed(Status::FixFailed, e),
                Ok(code) => {
                    let mut m = measure(&out, &p.dir, reference.as_deref());
                    m.fix_exit_1 = code == 1;
                    m
                }
            }
        }
    };
    Row {
        program: p.clone(),
        implicit,
        expert,
        omplens,
    }
}

// ---------------------------------------------------------------------------------------------
// The table

fn transfer_cell(t: Option<Transfer>) -> String {
    match t {
        Some(t) => format!("{} / {}", t.copies, t.bytes),
        None => "-".to_string(),
    }
}

const VERSIONS: [&str; 3] = ["implicit", "expert", "omplens"];

fn versions(r: &Row) -> [&Measured; 3] {
    [&r.implicit, &r.expert, &r.omplens]
}

/// Column headings: (group, heading); the group is empty for the program column.
fn headers() -> Vec<(String, String)> {
    let mut h = vec![(String::new(), "program".to_string())];
    for v in VERSIONS {
        for sub in ["h2d copies / B", "d2h copies / B", "status"] {
            h.push((v.to_string(), sub.to_string()));
        }
    }
    h
}

fn body(rows: &[Row]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut cells = vec![r.program.file_name()];
            for m in versions(r) {
                cells.push(transfer_cell(m.h2d));
                cells.push(transfer_cell(m.d2h));
                cells.push(m.status_label());
            }
            cells
        })
        .collect();
    // Totals over the programs where the version ran.
    let n = rows.len();
    let mut total = vec!["total".to_string()];
    for i in 0..VERSIONS.len() {
        let ms: Vec<&Measured> = rows.iter().map(|r| versions(r)[i]).collect();
        let sum = |pick: fn(&Measured) -> Option<Transfer>| {
            ms.iter().filter_map(|m| pick(m)).fold(
                Transfer {
                    copies: 0,
                    bytes: 0,
                },
                |a, t| Transfer {
                    copies: a.copies + t.copies,
                    bytes: a.bytes + t.bytes,
                },
            )
        };
        let measured = ms.iter().filter(|m| m.h2d.is_some()).count();
        let mark = if measured < n {
            format!(" ({measured} of {n})")
        } else {
            String::new()
        };
        total.push(format!("{}{mark}", transfer_cell(Some(sum(|m| m.h2d)))));
        total.push(format!("{}{mark}", transfer_cell(Some(sum(|m| m.d2h)))));
        let ok = ms.iter().filter(|m| m.correct()).count();
        total.push(format!("{ok} of {n} ok"));
    }
    out.push(total);
    out
}

/// Columns with numbers are right-aligned: all but the program and status columns.
fn right_aligned(col: usize) -> bool {
    col != 0 && !col.is_multiple_of(3)
}

fn render_text(headers: &[(String, String)], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..headers.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([headers[c].1.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (c, cell) in cells.iter().enumerate() {
            if c > 0 {
                s.push_str("  ");
            }
            let w = widths[c];
            if right_aligned(c) {
                let _ = write!(s, "{cell:>w$}");
            } else {
                let _ = write!(s, "{cell:<w$}");
            }
        }
        s.trim_end().to_string() + "\n"
    };
    // The group row: each version's name centred over its columns, in a rule of dashes.
    let mut s = String::new();
    let mut c = 0;
    while c < headers.len() {
        let group = &headers[c].0;
        let span = headers[c..].iter().take_while(|h| h.0 == *group).count();
        let w: usize = widths[c..c + span].iter().sum::<usize>() + 2 * (span - 1);
        if c > 0 {
            s.push_str("  ");
        }
        if group.is_empty() {
            s.push_str(&" ".repeat(w));
        } else {
            let _ = write!(s, "{:-^w$}", format!(" {group} "));
        }
        c += span;
    }
    s.push('\n');
    let names: Vec<String> = headers.iter().map(|h| h.1.clone()).collect();
    s.push_str(&line(&names));
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    s.push_str(&line(&rule));
    let last = rows.len().saturating_sub(1);
    for (i, r) in rows.iter().enumerate() {
        if i == last {
            s.push_str(&line(&rule));
        }
        s.push_str(&line(r));
    }
    s
}

fn render_markdown(headers: &[(String, String)], rows: &[Vec<String>]) -> String {
    let esc = |c: &str| c.replace('|', "\\|");
    let names: Vec<String> = headers
        .iter()
        .map(|(g, h)| esc(format!("{g} {h}").trim()))
        .collect();
    let mut s = String::new();
    let _ = writeln!(s, "| {} |", names.join(" | "));
    let align: Vec<&str> = (0..headers.len())
        .map(|c| if right_aligned(c) { "---:" } else { ":---" })
        .collect();
    let _ = writeln!(s, "|{}|", align.join("|"));
    let last = rows.len().saturating_sub(1);
    for (i, r) in rows.iter().enumerate() {
        let cells: Vec<String> = r
            .iter()
            .map(|c| {
                if i == last {
                    format!("**{}**", esc(c))
                } else {
                    esc(c)
                }
            })
            .collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    s
}

fn count_lines(rows: &[Row]) -> Vec<String> {
    let n = rows.len();
    let no_more_bytes = rows
        .iter()
        .filter(|r| {
            r.omplens.correct()
                && matches!(
                    (r.omplens.total_bytes(), r.expert.total_bytes()),
                    (Some(o), Some(e)) if o <= e
                )
        })
        .count();
    let correct = |i: usize| rows.iter().filter(|r| versions(r)[i].correct()).count();
    let mut lines = vec![
        format!("omplens moves no more bytes than the expert in {no_more_bytes} of {n} programs"),
        format!("omplens correct in {} of {n}", correct(2)),
        format!("expert correct in {} of {n}", correct(1)),
        format!("implicit correct in {} of {n}", correct(0)),
    ];
    let exit_1 = rows.iter().filter(|r| r.omplens.fix_exit_1).count();
    if exit_1 > 0 {
        lines.push(format!(
            "omplens fix exited 1 (error diagnostics) on {exit_1} of {n}"
        ));
    }
    lines
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("fix_table: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if !args.omplens.is_file() {
        eprintln!(
            "fix_table: no omplens binary at {}: build it with `cargo build --release -p \
             omplens`, or pass --omplens PATH (or set OMPLENS_BIN)",
            args.omplens.display()
        );
        return ExitCode::from(2);
    }
    if !oracle::available() {
        eprintln!(
            "fix_table: the oracle is not available (clang-19 or \
             /usr/lib/llvm-19/lib/libomptarget.so missing): run scripts/bootstrap.sh"
        );
        return ExitCode::from(2);
    }
    let dir = fix_dir();
    let chosen = match programs(&dir).and_then(|all| select(all, &args.names)) {
        Ok(p) if p.is_empty() => {
            eprintln!(
                "fix_table: no programs (NAME.c, NAME.cpp) in {}",
                dir.display()
            );
            return ExitCode::from(2);
        }
        Ok(p) => p,
        Err(e) => {
            eprintln!("fix_table: {e}");
            return ExitCode::from(2);
        }
    };
    let scratch = match tempfile::Builder::new()
        .prefix("omplens-fix-table-")
        .tempdir()
    {
        Ok(d) => d,
        Err(e) => {
            eprintln!("fix_table: creating a temporary directory: {e}");
            return ExitCode::from(2);
        }
    };

    eprintln!(
        "fix_table: {} programs from {}, omplens = {}",
        chosen.len(),
        dir.display(),
        args.omplens.display()
    );
    let done = AtomicUsize::new(0);
    let rows = parallel_map(&chosen, |p| {
        let row = measure_program(p, &args.omplens, scratch.path());
        let k = done.fetch_add(1, Ordering::Relaxed) + 1;
        let statuses: Vec<String> = VERSIONS
            .iter()
            .zip(versions(&row))
            .map(|(v, m)| format!("{v} {}", m.status_label()))
            .collect();
        eprintln!(
            "[{k}/{}] {}: {}",
            chosen.len(),
            p.file_name(),
            statuses.join(", ")
        );
        row
    });

    // Details of everything that is not ok, on stderr.
    let mut details = String::new();
    for r in &rows {
        for (v, m) in VERSIONS.iter().zip(versions(r)) {
            if let Some(d) = &m.detail {
                let _ = writeln!(
                    details,
                    "\n== {} ({v}): {}\n{}",
                    r.program.file_name(),
                    m.status_label(),
                    d.trim_end()
                );
            }
        }
    }
    if !details.is_empty() {
        eprintln!("{details}");
    }

    let (h, b) = (headers(), body(&rows));
    let lines = count_lines(&rows);
    if args.markdown {
        print!("{}", render_markdown(&h, &b));
        println!();
        for l in &lines {
            println!("- {l}");
        }
    } else {
        print!("{}", render_text(&h, &b));
        println!();
        for l in &lines {
            println!("{l}");
        }
    }
    if rows.iter().all(|r| r.omplens.correct()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
