//! `omplens fix` judged by the host-offload oracle (clang-19 with real host offloading, see
//! `omplens_tests::oracle`), over the programs in tests/fix/.
//!
//! Layout of tests/fix/, for every program NAME (`.c` or `.cpp`):
//! - `NAME.c` — the input: a program with no (or incomplete) data mappings;
//! - `NAME.expert.c` — the hand-written expert mapping (not an input here; see the second test);
//! - `NAME.fixed.c` — the committed snapshot of `omplens fix NAME.c`;
//! - `NAME.expect` — upper bounds on the fixed program's transfers under the oracle:
//!
//!   ```text
//!   # comment lines and blank lines are ignored
//!   h2d_copies = 3
//!   h2d_bytes = 24576
//!   d2h_copies = 1
//!   d2h_bytes = 8192
//!   ```
//!
//! `fixed_programs_pass_the_oracle` requires, for every input: `omplens fix` exits 0; the
//! fixed program is oracle-correct (offloaded output equals its build without `-fopenmp`, which
//! equals the input's, exit 0, no unmapped data); its text equals the snapshot; its copies and
//! bytes each way are at most the recorded ones. With `UPDATE_EXPECT=1` the snapshot and the
//! `.expect` file are (re)written from the run instead of compared, but only for programs that
//! are oracle-correct: a wrong program is never recorded.
//!
//! `replace_keeps_expert_programs_correct` runs `omplens fix --replace` on every expert
//! version and requires the result to stay oracle-correct.
//!
//! Programs run in parallel; all failures are reported together. Both oracle tests are in the
//! slow tier (`OMPLENS_SLOW=1`, see `omplens_tests::tier`); there a missing clang-19 or
//! libomptarget fails them (scripts/bootstrap.sh installs them). The binary under test is
//! `omplens_tests::omplens_bin::path()` (built by the test when needed, or `$OMPLENS_BIN`).
//! `OMPLENS_FIX_DIR=DIR` runs the tests over another directory laid out the same way.

use omplens_tests::fix_programs::{
    self, files_of, parallel_map, programs_with, split_name, Program, EXTENSIONS,
};
use omplens_tests::omplens_bin;
use omplens_tests::oracle::{self, OracleRun, Transfer, Verdict};
use omplens_tests::tier::{self, UPDATE_ENV};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Duration;

/// Wall-clock limit for one `omplens fix` run.
const FIX_TIMEOUT: Duration = Duration::from_secs(120);

// ---------------------------------------------------------------------------------------------
// The programs

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

fn fix_dir() -> PathBuf {
    fix_programs::fix_dir(&repo())
}

/// `.fixed.` snapshots and `.expect` files with no input beside them (left over after a
/// rename or removal).
fn orphans(dir: &Path, inputs: &[Program]) -> Vec<String> {
    let has_input = |name: &str| inputs.iter().any(|p| p.name == name);
    files_of(dir)
        .unwrap_or_else(|e| panic!("cannot read the program directory {}: {e}", dir.display()))
        .into_iter()
        .filter(|f| match split_name(f) {
            Some((name, middle, ext)) => {
                let recorded = (middle.as_slice() == ["fixed"] && EXTENSIONS.contains(&ext))
                    || (middle.is_empty() && ext == "expect");
                recorded && !has_input(name)
            }
            None => false,
        })
        .collect()
}

/// The gate of an oracle test: the slow tier, then the oracle's tools.
fn require_oracle(test: &str) -> bool {
    let test = format!("oracle_fix::{test}");
    tier::slow(&test) && oracle::gate(&test)
}

/// Flags for the oracle's builds of a program written outside `dir`: quoted includes still
/// find the headers beside the original.
fn oracle_flags(dir: &Path) -> Vec<String> {
    vec!["-I".to_string(), dir.display().to_string()]
}

fn as_strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

// ---------------------------------------------------------------------------------------------
// Running `omplens fix`

struct FixRun {
    /// `None` when killed after [`FIX_TIMEOUT`].
    status: Option<ExitStatus>,
    stderr: String,
}

impl FixRun {
    fn describe_failure(&self) -> String {
        let status = match self.status {
            Some(s) => format!("exited with {s}"),
            None => format!("did not finish within {} s", FIX_TIMEOUT.as_secs()),
        };
        format!("omplens fix {status}{}", stderr_block(&self.stderr))
    }
}

fn stderr_block(stderr: &str) -> String {
    if stderr.trim().is_empty() {
        String::new()
    } else {
        format!("; stderr:\n{}", indent(stderr.trim_end(), "    "))
    }
}

fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| format!("{by}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs the omplens binary under test with `args` (its stdout is not looked at), killed after
/// [`FIX_TIMEOUT`].
fn omplens(args: &[OsString]) -> Result<FixRun, String> {
    let mut cmd = Command::new(omplens_bin::path());
    cmd.args(args).current_dir(repo());
    let done =
        oracle::run_with_timeout(cmd, FIX_TIMEOUT).map_err(|e| format!("running omplens: {e}"))?;
    Ok(FixRun {
        status: done.status,
        stderr: done.stderr,
    })
}

// ---------------------------------------------------------------------------------------------
// The `.expect` format

/// Upper bounds on the transfers of a fixed program (`NAME.expect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Expect {
    h2d: Transfer,
    d2h: Transfer,
}

const EXPECT_KEYS: [&str; 4] = ["h2d_copies", "h2d_bytes", "d2h_copies", "d2h_bytes"];

impl Expect {
    fn of(run: &OracleRun) -> Self {
        Expect {
            h2d: run.h2d,
            d2h: run.d2h,
        }
    }

    fn values(&self) -> [u64; 4] {
        [
            self.h2d.copies,
            self.h2d.bytes,
            self.d2h.copies,
            self.d2h.bytes,
        ]
    }

    fn parse(text: &str) -> Result<Self, String> {
        let mut values: [Option<u64>; 4] = [None; 4];
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| format!("line {}: expected `key = number`: {line}", i + 1))?;
            let (key, value) = (key.trim(), value.trim());
            let slot = EXPECT_KEYS
                .iter()
                .position(|k| *k == key)
                .ok_or_else(|| format!("line {}: unknown key `{key}`", i + 1))?;
            if values[slot].is_some() {
                return Err(format!("line {}: `{key}` given twice", i + 1));
            }
            let n = value
                .parse::<u64>()
                .map_err(|_| format!("line {}: `{value}` is not a count", i + 1))?;
            values[slot] = Some(n);
        }
        let missing: Vec<&str> = EXPECT_KEYS
            .iter()
            .zip(values)
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| *k)
            .collect();
        if !missing.is_empty() {
            return Err(format!("missing {}", missing.join(", ")));
        }
        let [hc, hb, dc, db] = values.map(Option::unwrap_or_default);
        Ok(Expect {
            h2d: Transfer {
                copies: hc,
                bytes: hb,
            },
            d2h: Transfer {
                copies: dc,
                bytes: db,
            },
        })
    }

    fn render(&self, program: &str) -> String {
        let mut s = format!(
            "# Upper bounds on the oracle's transfers for `omplens fix {program}` \
             (tests/tests/oracle_fix.rs).\n# Rewrite with {UPDATE_ENV}=1.\n"
        );
        for (k, v) in EXPECT_KEYS.iter().zip(self.values()) {
            let _ = writeln!(s, "{k} = {v}");
        }
        s
    }

    /// `key: actual > recorded` for every number above its bound.
    fn exceeded_by(&self, actual: &Expect) -> Vec<String> {
        EXPECT_KEYS
            .iter()
            .zip(self.values().iter().zip(actual.values()))
            .filter(|(_, (bound, got))| got > bound)
            .map(|(k, (bound, got))| format!("{k} = {got} > {bound} recorded"))
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// A unified diff of `expected` (the file at `expected_path`) against `actual` (at
/// `actual_path`), via `diff -u`; the first differing line when `diff` cannot run.
fn diff(expected_path: &Path, actual_path: &Path, expected: &str, actual: &str) -> String {
    let out = Command::new("diff")
        .arg("-u")
        .arg("--label")
        .arg(format!("{} (snapshot)", expected_path.display()))
        .arg("--label")
        .arg("omplens fix (actual)")
        .arg(expected_path)
        .arg(actual_path)
        .output();
    match out {
        Ok(o) if o.status.code() == Some(1) => String::from_utf8_lossy(&o.stdout).into_owned(),
        _ => {
            let (e, a): (Vec<&str>, Vec<&str>) =
                (expected.lines().collect(), actual.lines().collect());
            let line = (0..e.len().max(a.len()))
                .find(|&i| e.get(i) != a.get(i))
                .unwrap_or(0);
            format!(
                "first difference at line {}:\n- {}\n+ {}\n",
                line + 1,
                e.get(line).copied().unwrap_or("<end of file>"),
                a.get(line).copied().unwrap_or("<end of file>")
            )
        }
    }
}

fn rel(path: &Path) -> String {
    path.strip_prefix(repo())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The oracle's verdict on `fixed`, plus the requirement that its build without `-fopenmp`
/// prints what `original`'s does (a fix must not change what the program computes).
/// `Err` holds the reasons it is not correct (and the summary when there is a verdict).
fn judge(fixed: &Path, original: &Path, dir: &Path) -> Result<Verdict, (Vec<String>, String)> {
    let flags = oracle_flags(dir);
    let flags = as_strs(&flags);
    let (verdict, original_ref) = std::thread::scope(|s| {
        let r = s.spawn(|| oracle::run_reference(original, &flags));
        (
            oracle::check(fixed, &flags),
            r.join().expect("reference thread"),
        )
    });
    let verdict = verdict.map_err(|e| (vec![format!("oracle: {e}")], String::new()))?;
    let mut problems = Vec::new();
    if !verdict.output_matches {
        problems.push("offloaded output differs from the build without -fopenmp".to_string());
    }
    if verdict.offload.exit_code != Some(0) {
        problems.push(format!(
            "offloaded run exited with {:?}",
            verdict.offload.exit_code
        ));
    }
    if !verdict.offload.unmapped.is_empty() {
        problems.push(format!(
            "unmapped data: {}",
            verdict.offload.unmapped_names().join(", ")
        ));
    }
    match original_ref {
        Ok(r) if r == verdict.reference => {}
        Ok(r) => problems.push(format!(
            "the fixed program's build without -fopenmp prints something else than the \
             original's\n--- original\n{r}--- fixed\n{}",
            verdict.reference
        )),
        Err(e) => problems.push(format!("reference run of {}: {e}", rel(original))),
    }
    if problems.is_empty() {
        Ok(verdict)
    } else {
        Err((problems, verdict.summary()))
    }
}

/// What one program contributed to the report.
#[derive(Default)]
struct Outcome {
    /// Reasons the program fails; empty when it passes.
    problems: Vec<String>,
    /// The oracle's account of the fixed program, when it ran.
    summary: String,
    /// Things written (update mode) or worth knowing that do not fail the test.
    notes: Vec<String>,
}

fn report(title: &str, programs: &[Program], outcomes: &[Outcome], extra: &[String]) {
    let views: Vec<fix_programs::Outcome> = outcomes
        .iter()
        .map(|o| fix_programs::Outcome {
            problems: &o.problems,
            notes: &o.notes,
            summary: &o.summary,
        })
        .collect();
    fix_programs::report(title, programs, &views, extra);
}

/// Under `UPDATE_EXPECT=1`: writes `text` to `path` and notes it ("wrote" a new file,
/// "updated" one that `existed`), or records the failure as a problem.
fn record(o: &mut Outcome, path: &Path, existed: bool, text: &str) {
    match std::fs::write(path, text) {
        Ok(()) => o.notes.push(format!(
            "{} {}",
            if existed { "updated" } else { "wrote" },
            rel(path)
        )),
        Err(e) => o.problems.push(format!("writing {}: {e}", path.display())),
    }
}

fn scratch_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("omplens-fix-test-")
        .tempdir()
        .expect("creating a temporary directory")
}

// ---------------------------------------------------------------------------------------------
// The tests

fn check_fixed(p: &Program, out_dir: &Path, update: bool) -> Outcome {
    let mut o = Outcome::default();
    let out = out_dir.join(p.file_name());
    let args: Vec<OsString> = vec![
        "fix".into(),
        p.input().into(),
        "-o".into(),
        out.clone().into(),
    ];
    let run = match omplens(&args) {
        Ok(r) => r,
        Err(e) => {
            o.problems.push(e);
            return o;
        }
    };
    if run.status.and_then(|s| s.code()) != Some(0) {
        o.problems.push(run.describe_failure());
        return o;
    }
    let actual = match std::fs::read_to_string(&out) {
        Ok(t) => t,
        Err(e) => {
            o.problems.push(format!(
                "omplens fix exited 0 but its output {} is unreadable: {e}",
                out.display()
            ));
            return o;
        }
    };

    // (ii) the oracle: never record a wrong program.
    let verdict = match judge(&out, &p.input(), &p.dir) {
        Ok(v) => v,
        Err((problems, summary)) => {
            o.problems.extend(problems);
            o.summary = summary;
            if update {
                o.problems
                    .push("not recorded: the fixed program is not correct".to_string());
            }
            return o;
        }
    };
    o.summary = verdict.summary();
    let got = Expect::of(&verdict.offload);

    // (i) the snapshot.
    let snap_path = p.snapshot();
    let snapshot = std::fs::read_to_string(&snap_path).ok();
    if snapshot.as_deref() != Some(actual.as_str()) {
        if update {
            record(&mut o, &snap_path, snapshot.is_some(), &actual);
        } else {
            match &snapshot {
                None => o.problems.push(format!(
                    "no snapshot {}: review the fixed program, then record it with \
                     {UPDATE_ENV}=1 OMPLENS_SLOW=1 cargo test -p omplens-tests --test \
                     oracle_fix",
                    rel(&snap_path)
                )),
                Some(expected) => o.problems.push(format!(
                    "the fixed program differs from the snapshot {} (if the change is \
                     intended, re-record with {UPDATE_ENV}=1):\n{}",
                    rel(&snap_path),
                    diff(&snap_path, &out, expected, &actual).trim_end()
                )),
            }
        }
    }

    // (iii) the transfers against the recorded bounds.
    let expect_path = p.expect_file();
    let recorded = match std::fs::read_to_string(&expect_path) {
        Ok(text) => Some(Expect::parse(&text).map_err(|e| format!("{}: {e}", rel(&expect_path)))),
        Err(_) => None,
    };
    if update {
        if recorded.as_ref().is_none_or(|r| r.as_ref() != Ok(&got)) {
            let text = got.render(&p.file_name());
            record(&mut o, &expect_path, recorded.is_some(), &text);
        }
    } else {
        match recorded {
            None => o.problems.push(format!(
                "no {}: record the transfers with {UPDATE_ENV}=1 OMPLENS_SLOW=1 cargo test -p \
                 omplens-tests --test oracle_fix",
                rel(&expect_path)
            )),
            Some(Err(e)) => o.problems.push(e),
            Some(Ok(bound)) => {
                let over = bound.exceeded_by(&got);
                if !over.is_empty() {
                    o.problems.push(format!(
                        "moves more than recorded in {}: {}",
                        rel(&expect_path),
                        over.join(", ")
                    ));
                } else if bound != got {
                    o.notes.push(format!(
                        "moves less than recorded in {} ({}); tighten with {UPDATE_ENV}=1",
                        rel(&expect_path),
                        got.values()
                            .iter()
                            .zip(EXPECT_KEYS)
                            .map(|(v, k)| format!("{k}={v}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ));
                }
            }
        }
    }
    o
}

#[test]
fn fixed_programs_pass_the_oracle() {
    if !require_oracle("fixed_programs_pass_the_oracle") {
        return;
    }
    let dir = fix_dir();
    let programs = programs_with(&dir, None)
        .unwrap_or_else(|e| panic!("cannot read the program directory {}: {e}", dir.display()));
    assert!(
        !programs.is_empty(),
        "no input programs (NAME.c or NAME.cpp) in {}",
        dir.display()
    );
    let update = tier::updating();
    let scratch = scratch_dir();
    let outcomes = parallel_map(&programs, |p| check_fixed(p, scratch.path(), update));
    let orphaned: Vec<String> = orphans(&dir, &programs)
        .into_iter()
        .map(|f| format!("{}: recorded for a program that does not exist", f))
        .collect();
    report(
        "omplens fix under the oracle",
        &programs,
        &outcomes,
        &orphaned,
    );
}

fn check_replaced(p: &Program, out_dir: &Path) -> Outcome {
    let mut o = Outcome::default();
    let out = out_dir.join(format!("{}.replaced.{}", p.name, p.ext));
    let args: Vec<OsString> = vec![
        "fix".into(),
        "--replace".into(),
        p.expert().into(),
        "-o".into(),
        out.clone().into(),
    ];
    let run = match omplens(&args) {
        Ok(r) => r,
        Err(e) => {
            o.problems.push(e);
            return o;
        }
    };
    // 0: fixed; 1: fixed, with error diagnostics (the oracle still judges the output).
    if !matches!(run.status.and_then(|s| s.code()), Some(0 | 1)) {
        o.problems.push(run.describe_failure());
        return o;
    }
    if !out.is_file() {
        o.problems.push(format!(
            "omplens fix --replace wrote no output to {}{}",
            out.display(),
            stderr_block(&run.stderr)
        ));
        return o;
    }
    if let Err((problems, summary)) = judge(&out, &p.expert(), &p.dir) {
        o.problems.extend(problems);
        o.summary = summary;
        if run.status.and_then(|s| s.code()) == Some(1) {
            o.problems.push(run.describe_failure());
        }
    }
    o
}

#[test]
fn replace_keeps_expert_programs_correct() {
    if !require_oracle("replace_keeps_expert_programs_correct") {
        return;
    }
    let dir = fix_dir();
    let experts = programs_with(&dir, Some("expert"))
        .unwrap_or_else(|e| panic!("cannot read the program directory {}: {e}", dir.display()));
    assert!(
        !experts.is_empty(),
        "no expert programs (NAME.expert.c or NAME.expert.cpp) in {}",
        dir.display()
    );
    let scratch = scratch_dir();
    let outcomes = parallel_map(&experts, |p| check_replaced(p, scratch.path()));
    // Report under the expert file's name.
    let named: Vec<Program> = experts
        .iter()
        .map(|p| Program {
            name: format!("{}.expert", p.name),
            ..p.clone()
        })
        .collect();
    report(
        "omplens fix --replace on the expert programs",
        &named,
        &outcomes,
        &[],
    );
}

#[test]
fn expect_files_round_trip_and_reject_bad_input() {
    let e = Expect {
        h2d: Transfer {
            copies: 3,
            bytes: 24576,
        },
        d2h: Transfer {
            copies: 1,
            bytes: 8192,
        },
    };
    let text = e.render("x.c");
    assert_eq!(Expect::parse(&text), Ok(e));
    assert!(text.ends_with("h2d_copies = 3\nh2d_bytes = 24576\nd2h_copies = 1\nd2h_bytes = 8192\n"));
    assert!(Expect::parse("h2d_copies = 3\n").is_err_and(|m| m.contains("missing h2d_bytes")));
    assert!(Expect::parse("h2d_copy = 3\n").is_err_and(|m| m.contains("unknown key")));
    assert!(Expect::parse("h2d_copies = -1\n").is_err());
    let more = Expect {
        d2h: Transfer {
            copies: 2,
            bytes: 8192,
        },
        ..e
    };
    assert_eq!(e.exceeded_by(&more), vec!["d2h_copies = 2 > 1 recorded"]);
    assert!(more.exceeded_by(&e).is_empty());
}

#[test]
fn program_names_split_inputs_from_their_siblings() {
    assert_eq!(split_name("a.c"), Some(("a", vec![], "c")));
    assert_eq!(
        split_name("a.expert.cpp"),
        Some(("a", vec!["expert"], "cpp"))
    );
    assert_eq!(split_name("a.fixed.c"), Some(("a", vec!["fixed"], "c")));
    assert_eq!(split_name("README"), None);
    assert_eq!(split_name(".hidden"), None);
}
