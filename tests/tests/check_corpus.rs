//! `omplens check` against the hand-written ground truth of tests/check/.
//!
//! Layout of tests/check/, for every program NAME (`.c` or `.cpp`, 20-80 lines, real OpenMP
//! offload code with deterministic output):
//! - `NAME.c` — the program;
//! - `NAME.expect` — the findings `omplens check` must report, authored by hand, one per line:
//!
//!   ```text
//!   # comment lines (why the finding is expected) and blank lines are ignored
//!   # oracle: not observable (a leak: the output is right)
//!   23 OMP101
//!   ```
//!
//!   `LINE CODE`: the finding's code and the line of its primary range. A line ending in
//!   `# known gap: why` is expected but known to be missed today: it counts as a false negative
//!   in the table without failing the test, and the test fails once it is found (remove the
//!   mark then). An expectation with no
//!   finding line means that no finding at all is allowed (a correct, not wasteful program).
//!   Programs with a correctness code (OMP1xx) are *buggy*; the others are *correct* (possibly
//!   wasteful, with performance codes). `# oracle: not observable` marks a bug that the
//!   host-offload oracle cannot see (the output stays right and no data is unmapped).
//!
//! The tests:
//! - `findings_match_expectations`: lowers every program, runs `check::check`, compares the
//!   set of (line, code) with the expectation, prints a table per code (expected, found, true
//!   positives, false positives, false negatives) and the number of error findings on programs
//!   without a correctness expectation, and fails on any mismatch. With
//!   `UPDATE_EXPECT=1` every `.expect` is rewritten with the current findings instead
//!   (comment lines kept): only for reviewing a change in the analysis — the files are ground
//!   truth, not snapshots.
//! - `oracle_agrees_with_expectations`: builds every program with clang-19 host offloading
//!   (`omplens_tests::oracle`): correct programs must be oracle-correct (output equals the
//!   build without `-fopenmp`, exit 0, no unmapped data); buggy ones must not be, unless marked
//!   `not observable` (then they must be).
//! - `fixes_pass_the_oracle`: for every program with fixes, applies the first fix of each
//!   finding as `omplens check --fix` does (`text::select_fixes`) and runs the oracle on the result:
//!   it must be oracle-correct and print what the original's sequential build prints; when only
//!   performance findings were fixed, it must not copy more often nor move more bytes in
//!   either direction than the original.
//!
//! The two oracle tests are in the slow tier (`OMPLENS_SLOW=1`, see `omplens_tests::tier`):
//! without it they are skipped with a note; with it (or with `CI` set) a missing clang-19 or
//! libomptarget fails them. `findings_match_expectations` is in the fast tier. Programs
//! run in parallel and share one analysis and one oracle run of each original between tests.
//! `OMPLENS_CHECK_DIR=DIR` runs the tests over another directory laid out the same way.

use omplens_analysis::check::rules::{self, Family};
use omplens_analysis::check::{self as omp_check, Finding, Severity};
use omplens_analysis::frontend::{flags, lower_file};
use omplens_analysis::ide::gate;
use omplens_analysis::text;
use omplens_tests::fix_programs::{
    self, files_of, parallel_map, programs_with, split_name, Program,
};
use omplens_tests::oracle::{self, Verdict};
use omplens_tests::tier::{self, UPDATE_ENV};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The comment that marks a bug the oracle cannot see.
const UNOBSERVABLE: &str = "not observable";

// ---------------------------------------------------------------------------------------------
// The programs and their expectations

fn check_dir() -> PathBuf {
    match std::env::var_os("OMPLENS_CHECK_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("check"),
    }
}

fn programs() -> Vec<Program> {
    let dir = check_dir();
    let programs = programs_with(&dir, None)
        .unwrap_or_else(|e| panic!("cannot read the program directory {}: {e}", dir.display()));
    assert!(
        !programs.is_empty(),
        "no programs (NAME.c or NAME.cpp) in {}",
        dir.display()
    );
    programs
}

fn expect_path(p: &Program) -> PathBuf {
    p.dir.join(format!("{}.expect", p.name))
}

/// One expected finding: its line and code.
type Entry = (u32, &'static str);

#[derive(Debug, Clone, PartialEq, Eq)]
struct Expectation {
    findings: BTreeSet<Entry>,
    /// Entries marked `# known gap: why`: expected, known to be missed today. Counted as false
    /// negatives in the table; the gate fails when one is found (remove the mark then).
    gaps: BTreeSet<Entry>,
    /// `# oracle: not observable`.
    unobservable: bool,
}

impl Expectation {
    /// The program has an expected correctness finding.
    fn buggy(&self) -> bool {
        self.findings.iter().any(|(_, c)| is_correctness(c))
    }
}

fn is_correctness(code: &str) -> bool {
    rules::lookup(code).is_some_and(|r| r.family == Family::Correctness)
}

/// `LINE CODE` (an optional trailing `# comment` allowed); `Ok(None)` for comments and blanks.
fn parse_entry(line: &str) -> Result<Option<Entry>, String> {
    let body = line.split('#').next().unwrap_or("").trim();
    if body.is_empty() {
        return Ok(None);
    }
    let parts: Vec<&str> = body.split_whitespace().collect();
    let [num, code] = parts.as_slice() else {
        return Err(format!("expected `LINE CODE`: {line}"));
    };
    let n: u32 = num
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("`{num}` is not a line number"))?;
    let rule = rules::RULES
        .iter()
        .find(|r| r.code.as_str() == *code)
        .ok_or_else(|| format!("unknown code `{code}`"))?;
    Ok(Some((n, rule.code.as_str())))
}

fn parse_expect(text: &str) -> Result<Expectation, String> {
    let mut findings = BTreeSet::new();
    let mut gaps = BTreeSet::new();
    let mut unobservable = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(comment) = t.strip_prefix('#') {
            if let Some(note) = comment.trim().strip_prefix("oracle:") {
                unobservable |= note.trim().starts_with(UNOBSERVABLE);
            }
            continue;
        }
        match parse_entry(t) {
            Ok(Some(e)) => {
                if !findings.insert(e) {
                    return Err(format!("line {}: `{} {}` given twice", i + 1, e.0, e.1));
                }
                if is_gap(t) {
                    gaps.insert(e);
                }
            }
            Ok(None) => {}
            Err(m) => return Err(format!("line {}: {m}", i + 1)),
        }
    }
    Ok(Expectation {
        findings,
        gaps,
        unobservable,
    })
}

/// `LINE CODE # known gap: why`.
fn is_gap(line: &str) -> bool {
    line.split_once('#')
        .is_some_and(|(_, c)| c.trim_start().starts_with("known gap"))
}

fn read_expectation(p: &Program) -> Result<Expectation, String> {
    let path = expect_path(p);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "no readable {} ({e}): write the ground truth by hand",
            rel(&path)
        )
    })?;
    parse_expect(&text).map_err(|e| format!("{}: {e}", rel(&path)))
}

/// The expectation rewritten for `found`: comment and blank lines kept in place, finding
/// lines still found kept, the others dropped, new findings appended.
fn rewrite_expect(old: Option<&str>, found: &BTreeSet<Entry>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut kept = BTreeSet::new();
    match old {
        Some(old) => {
            for line in old.lines() {
                match parse_entry(line.trim()) {
                    Ok(Some(e)) if (found.contains(&e) || is_gap(line)) && kept.insert(e) => {
                        out.push(line.into())
                    }
                    Ok(Some(_)) | Err(_) => {}
                    Ok(None) => out.push(line.into()),
                }
            }
        }
        None => out.push(
            "# Ground truth for omplens check: one `LINE CODE` per expected finding \
             (tests/tests/check_corpus.rs)."
                .into(),
        ),
    }
    out.extend(
        found
            .iter()
            .filter(|e| !kept.contains(e))
            .map(|(l, c)| format!("{l} {c}")),
    );
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// `.expect` files with no program beside them.
fn orphans(dir: &Path, programs: &[Program]) -> Vec<String> {
    files_of(dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|f| match split_name(f) {
            Some((name, middle, "expect")) => {
                middle.is_empty() && !programs.iter().any(|p| p.name == name)
            }
            _ => false,
        })
        .collect()
}

fn rel(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("/"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// The analysis and the oracle, once per program

/// Results computed once per key and shared by the tests of this binary (which run on
/// concurrent threads: a second caller waits for the first one's result).
struct Memo<T> {
    cells: OnceLock<Mutex<HashMap<PathBuf, Arc<OnceLock<T>>>>>,
}

impl<T> Memo<T> {
    const fn new() -> Self {
        Memo {
            cells: OnceLock::new(),
        }
    }

    fn get(&self, key: &Path, compute: impl FnOnce() -> T) -> Arc<OnceLock<T>> {
        let cell = {
            let mut map = self
                .cells
                .get_or_init(Default::default)
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            map.entry(key.to_path_buf()).or_default().clone()
        };
        cell.get_or_init(compute);
        cell
    }
}

struct Analysis {
    source: String,
    /// The lowered program and its compile flags (the rewrite gate's baseline).
    module: omplens_analysis::ir::Module,
    args: Vec<String>,
    /// Every finding with the 1-based line of its primary range.
    findings: Vec<(u32, Finding)>,
    /// Errors the front end reported (the programs must compile).
    frontend_errors: Vec<String>,
}

impl Analysis {
    fn entries(&self) -> BTreeSet<Entry> {
        self.findings
            .iter()
            .map(|(l, f)| (*l, f.code.as_str()))
            .collect()
    }
}

static ANALYSES: Memo<Result<Analysis, String>> = Memo::new();
static VERDICTS: Memo<Result<Verdict, String>> = Memo::new();

fn clang_args(path: &Path) -> Result<Vec<String>, String> {
    let extra: Vec<String> = if path.extension().is_some_and(|e| e == "cpp") {
        vec!["-std=c++17".into()]
    } else {
        Vec::new()
    };
    flags::flags_for(path, None, &extra)
        .map(|f| f.args)
        .map_err(|e| format!("compile flags: {e}"))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

fn analyze(path: &Path) -> Result<Analysis, String> {
    let source = std::fs::read_to_string(path).map_err(|e| format!("reading: {e}"))?;
    let args = clang_args(path)?;
    let module = catch_unwind(|| lower_file(path, Some(&source), &args))
        .map_err(|p| format!("lowering panicked: {}", panic_message(&*p)))?
        .map_err(|e| format!("lowering failed: {e}"))?;
    let frontend_errors = module
        .diagnostics
        .iter()
        .filter(|d| d.severity == omplens_analysis::ir::Severity::Error)
        .map(|d| match d.span {
            Some(s) => format!("line {}: {}", module.line_col(s.start).0, d.message),
            None => d.message.clone(),
        })
        .collect();
    let findings = catch_unwind(AssertUnwindSafe(|| omp_check::check(&module, &source)))
        .map_err(|p| format!("check::check panicked: {}", panic_message(&*p)))?;
    let findings = findings
        .into_iter()
        .map(|f| (module.line_col(f.span.start).0, f))
        .collect();
    Ok(Analysis {
        source,
        module,
        args,
        findings,
        frontend_errors,
    })
}

fn analysis(p: &Program) -> Arc<OnceLock<Result<Analysis, String>>> {
    let path = p.input();
    ANALYSES.get(&path, || analyze(&path))
}

fn oracle_flags(dir: &Path) -> Vec<String> {
    vec!["-I".to_string(), dir.display().to_string()]
}

fn run_oracle(path: &Path, include_dir: &Path) -> Result<Verdict, String> {
    let flags = oracle_flags(include_dir);
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    oracle::check(path, &flags).map_err(|e| format!("oracle: {e}"))
}

/// The oracle's verdict on the original program.
fn original_verdict(p: &Program) -> Arc<OnceLock<Result<Verdict, String>>> {
    let path = p.input();
    VERDICTS.get(&path, || run_oracle(&path, &p.dir))
}

/// The gate of an oracle test: the slow tier, then the oracle's tools.
fn require_oracle(test: &str) -> bool {
    let test = format!("check_corpus::{test}");
    tier::slow(&test) && oracle::gate(&test)
}

// ---------------------------------------------------------------------------------------------
// Reporting

/// What one program contributed.
#[derive(Default)]
struct Outcome {
    /// Reasons the program fails; empty when it passes.
    problems: Vec<String>,
    /// Worth knowing, not failing.
    notes: Vec<String>,
}

fn report(title: &str, programs: &[Program], outcomes: &[Outcome], extra: &[String]) {
    let views: Vec<fix_programs::Outcome> = outcomes
        .iter()
        .map(|o| fix_programs::Outcome {
            problems: &o.problems,
            notes: &o.notes,
            summary: "",
        })
        .collect();
    fix_programs::report(title, programs, &views, extra);
}

// ---------------------------------------------------------------------------------------------
// Test 1: findings against the ground truth

/// One program's comparison.
#[derive(Default)]
struct Comparison {
    expected: BTreeSet<Entry>,
    /// (line, code, severity, message) of every finding.
    found: Vec<(u32, &'static str, Severity, String)>,
    /// The expectation has a correctness code.
    buggy: bool,
    /// The comparison could be made (analysis and expectation both available).
    compared: bool,
}

impl Comparison {
    fn found_set(&self) -> BTreeSet<Entry> {
        self.found.iter().map(|(l, c, _, _)| (*l, *c)).collect()
    }
}

fn compare(p: &Program, update: bool) -> (Comparison, Outcome) {
    let mut cmp = Comparison::default();
    let mut o = Outcome::default();
    let cell = analysis(p);
    let a = match cell.get().expect("computed") {
        Ok(a) => a,
        Err(e) => {
            o.problems.push(e.clone());
            return (cmp, o);
        }
    };
    for e in &a.frontend_errors {
        o.problems.push(format!("front end error: {e}"));
    }
    cmp.found = a
        .findings
        .iter()
        .map(|(l, f)| (*l, f.code.as_str(), f.severity, f.message.clone()))
        .collect();
    let found = a.entries();

    let path = expect_path(p);
    let old = std::fs::read_to_string(&path).ok();
    if update {
        let new = rewrite_expect(old.as_deref(), &found);
        if old.as_deref() != Some(new.as_str()) {
            match std::fs::write(&path, &new) {
                Ok(()) => o.notes.push(format!(
                    "{} {}",
                    if old.is_some() { "updated" } else { "wrote" },
                    rel(&path)
                )),
                Err(e) => o.problems.push(format!("writing {}: {e}", path.display())),
            }
        }
    }
    let expectation = match read_expectation(p) {
        Ok(e) => e,
        Err(e) => {
            o.problems.push(e);
            return (cmp, o);
        }
    };
    cmp.buggy = expectation.buggy();
    cmp.expected = expectation.findings.clone();
    cmp.compared = true;

    for (line, code) in expectation.gaps.intersection(&found) {
        o.problems.push(format!(
            "{line} {code} is marked `# known gap` but is found now: remove the mark"
        ));
    }
    for (line, code) in cmp.expected.difference(&found) {
        if expectation.gaps.contains(&(*line, *code)) {
            continue;
        }
        o.problems.push(format!(
            "missing (false negative): {line} {code} ({})",
            rules::lookup(code).map_or("", |r| r.name)
        ));
    }
    for (line, code, severity, message) in &cmp.found {
        if !cmp.expected.contains(&(*line, *code)) {
            o.problems.push(format!(
                "unexpected (false positive): {line} {code} [{}] {message}",
                severity.name()
            ));
        }
    }
    (cmp, o)
}

#[derive(Default, Clone, Copy)]
struct Counts {
    expected: usize,
    found: usize,
    tp: usize,
    fp: usize,
    fn_: usize,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.expected += o.expected;
        self.found += o.found;
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }
}

/// The table per code, and the error findings on programs without a correctness expectation.
fn table(programs: &[Program], cmps: &[Comparison]) -> String {
    let mut by_code: BTreeMap<&'static str, Counts> = rules::RULES
        .iter()
        .map(|r| (r.code.as_str(), Counts::default()))
        .collect();
    let mut false_errors: Vec<String> = Vec::new();
    let mut compared = 0;
    for (p, c) in programs.iter().zip(cmps) {
        if !c.compared {
            continue;
        }
        compared += 1;
        let found = c.found_set();
        for (_, code) in &c.expected {
            by_code.entry(code).or_default().expected += 1;
        }
        for e @ (_, code) in &found {
            let n = by_code.entry(code).or_default();
            n.found += 1;
            if c.expected.contains(e) {
                n.tp += 1;
            } else {
                n.fp += 1;
            }
        }
        for (_, code) in c.expected.difference(&found) {
            by_code.entry(code).or_default().fn_ += 1;
        }
        if !c.buggy {
            for (line, code, severity, message) in &c.found {
                if *severity == Severity::Error {
                    false_errors.push(format!("{}:{line} {code} {message}", p.file_name()));
                }
            }
        }
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "omplens check over {compared} programs of {}",
        rel(&check_dir())
    );
    let _ = writeln!(
        s,
        "{:<8} {:<26} {:>8} {:>6} {:>4} {:>4} {:>4}",
        "code", "name", "expected", "found", "TP", "FP", "FN"
    );
    let mut total = Counts::default();
    for (code, n) in &by_code {
        let name = rules::lookup(code).map_or("", |r| r.name);
        let _ = writeln!(
            s,
            "{code:<8} {name:<26} {:>8} {:>6} {:>4} {:>4} {:>4}",
            n.expected, n.found, n.tp, n.fp, n.fn_
        );
        total.add(n);
    }
    let _ = writeln!(
        s,
        "{:<8} {:<26} {:>8} {:>6} {:>4} {:>4} {:>4}",
        "total", "", total.expected, total.found, total.tp, total.fp, total.fn_
    );
    let _ = writeln!(
        s,
        "error findings on programs without an expected correctness finding: {}",
        false_errors.len()
    );
    for e in &false_errors {
        let _ = writeln!(s, "  {e}");
    }
    s
}

#[test]
fn findings_match_expectations() {
    let dir = check_dir();
    let programs = programs();
    let update = tier::updating();
    let results = parallel_map(&programs, |p| compare(p, update));
    let (cmps, outcomes): (Vec<Comparison>, Vec<Outcome>) = results.into_iter().unzip();
    let table = table(&programs, &cmps);
    eprintln!("{table}");
    let extra: Vec<String> = orphans(&dir, &programs)
        .into_iter()
        .map(|f| format!("{f}: an expectation for a program that does not exist"))
        .collect();
    let title = format!("omplens check against tests/check ({UPDATE_ENV}=1 rewrites)\n{table}");
    report(&title, &programs, &outcomes, &extra);
}

// ---------------------------------------------------------------------------------------------
// Test 2: the oracle sees what the expectations say

fn judge_original(p: &Program) -> Outcome {
    let mut o = Outcome::default();
    let expectation = match read_expectation(p) {
        Ok(e) => e,
        Err(e) => {
            o.problems.push(e);
            return o;
        }
    };
    let cell = original_verdict(p);
    let v = match cell.get().expect("computed") {
        Ok(v) => v,
        Err(e) => {
            o.problems.push(e.clone());
            return o;
        }
    };
    match (
        expectation.buggy(),
        expectation.unobservable,
        v.is_correct(),
    ) {
        (false, _, false) => o.problems.push(format!(
            "expected correct (no correctness finding), but the oracle says: {}",
            v.summary()
        )),
        (true, false, true) => o.problems.push(format!(
            "the expected bug does not show under the oracle (mark it `# oracle: \
             {UNOBSERVABLE}` if that is intended): {}",
            v.summary()
        )),
        (true, true, false) => o.problems.push(format!(
            "marked `{UNOBSERVABLE}`, but the oracle sees the bug (remove the mark): {}",
            v.summary()
        )),
        _ => {}
    }
    o
}

#[test]
fn oracle_agrees_with_expectations() {
    if !require_oracle("oracle_agrees_with_expectations") {
        return;
    }
    let programs = programs();
    let outcomes = parallel_map(&programs, judge_original);
    report(
        "the oracle on the programs of tests/check",
        &programs,
        &outcomes,
        &[],
    );
}

// ---------------------------------------------------------------------------------------------
// Test 3: the fixes

/// The fixes `omplens check --fix` would write: [`text::select_fixes`] (the first fix of each
/// finding, in finding order, unless it collides with one already taken), then the rewrite
/// gate ([`gate::gated_fixes`]: the rewritten file analysed again, each fix of a correctness
/// finding leaving fewer of its code). Returns the sorted edits, the codes of the findings
/// whose fix was taken, and why the others were left out.
fn choose_fixes(
    p: &Program,
    a: &Analysis,
) -> (Vec<text::TextEdit>, Vec<&'static str>, Vec<String>) {
    let findings: Vec<Finding> = a.findings.iter().map(|(_, f)| f.clone()).collect();
    let selection = text::select_fixes(
        &a.source,
        findings
            .iter()
            .map(|f| f.fixes.first().map(|fix| fix.edits.as_slice())),
    );
    let mut left: Vec<String> = selection
        .skipped
        .iter()
        .map(|(i, why)| format!("fix for {} not applied: {why}", findings[*i].code))
        .collect();
    let path = p.input();
    let baseline = gate::Baseline::of(&path, &a.args, &a.source, &a.module, &findings);
    let gated = gate::gated_fixes(
        &path,
        &a.args,
        &baseline,
        &a.source,
        &findings,
        (&selection.taken, &selection.edits),
        gate::ONE_BY_ONE_TRIES,
    );
    left.extend(
        gated
            .refused
            .iter()
            .map(|(i, why)| format!("fix for {} not applied: {why}", findings[*i].code)),
    );
    let codes = gated
        .taken
        .iter()
        .map(|&i| findings[i].code.as_str())
        .collect();
    (gated.edits, codes, left)
}

fn check_fixes(p: &Program, scratch: &Path) -> Outcome {
    let mut o = Outcome::default();
    let cell = analysis(p);
    let a = match cell.get().expect("computed") {
        Ok(a) => a,
        Err(_) => {
            o.notes
                .push("no analysis (reported by findings_match_expectations)".into());
            return o;
        }
    };
    let (edits, codes, left) = choose_fixes(p, a);
    o.notes.extend(left);
    if codes.is_empty() {
        return o;
    }
    let fixed_text = text::apply(&a.source, &edits);
    if fixed_text == a.source {
        o.problems
            .push(format!("the fixes of {} change nothing", codes.join(", ")));
        return o;
    }
    let dir = scratch.join(&p.name);
    let fixed = dir.join(p.file_name());
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&fixed, &fixed_text))
    {
        o.problems.push(format!("writing {}: {e}", fixed.display()));
        return o;
    }
    let applied = format!("fixes applied for {}", codes.join(", "));
    // The fixed program must print what the original's sequential build prints.
    let (offload, original) = std::thread::scope(|s| {
        let orig = s.spawn(|| original_verdict(p));
        let flags = oracle_flags(&p.dir);
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        (
            oracle::run_offload(&fixed, &flags).map_err(|e| format!("oracle: {e}")),
            orig.join().expect("oracle thread"),
        )
    });
    let orig = match original.get().expect("computed") {
        Ok(v) => v,
        Err(e) => {
            o.problems.push(format!("the original program: {e}"));
            return o;
        }
    };
    let offload = match offload {
        Ok(run) => run,
        Err(e) => {
            o.problems
                .push(format!("{applied}; the fixed program:\n{e}\n{fixed_text}"));
            return o;
        }
    };
    let v = Verdict {
        output_matches: offload.stdout == orig.reference,
        reference: orig.reference.clone(),
        offload,
        shared_memory: oracle::requires_shared_memory(&fixed_text),
    };
    let mut problems = Vec::new();
    if !v.is_correct() {
        problems.push(format!("the fixed program is not correct: {}", v.summary()));
    } else if codes.iter().all(|c| !is_correctness(c)) {
        let (b, a) = (&orig.offload, &v.offload);
        let worse: Vec<String> = [
            ("h2d copies", b.h2d.copies, a.h2d.copies),
            ("h2d bytes", b.h2d.bytes, a.h2d.bytes),
            ("d2h copies", b.d2h.copies, a.d2h.copies),
            ("d2h bytes", b.d2h.bytes, a.d2h.bytes),
        ]
        .iter()
        .filter(|(_, before, after)| after > before)
        .map(|(what, before, after)| format!("{what} {before} -> {after}"))
        .collect();
        if worse.is_empty() {
            o.notes.push(format!(
                "{applied}: {} -> {} copies, {} -> {} bytes",
                b.total_copies(),
                a.total_copies(),
                b.total_bytes(),
                a.total_bytes()
            ));
        } else {
            problems.push(format!(
                "the performance fixes move more: {}",
                worse.join(", ")
            ));
        }
    } else {
        o.notes.push(format!("{applied}: oracle-correct"));
    }
    if !problems.is_empty() {
        problems.insert(0, applied);
        problems.push(format!("--- the fixed program\n{}", fixed_text.trim_end()));
        o.problems.push(problems.join("\n"));
    }
    o
}

#[test]
fn fixes_pass_the_oracle() {
    if !require_oracle("fixes_pass_the_oracle") {
        return;
    }
    let programs = programs();
    let scratch = tempfile::Builder::new()
        .prefix("omplens-check-fixes-")
        .tempdir()
        .expect("creating a temporary directory");
    let outcomes = parallel_map(&programs, |p| check_fixes(p, scratch.path()));
    report(
        "the fixes of omplens check under the oracle",
        &programs,
        &outcomes,
        &[],
    );
}

// ---------------------------------------------------------------------------------------------
// The runner's own pieces

#[test]
fn expect_files_parse_and_rewrite() {
    let text = "# why\n# oracle: not observable (a leak)\n23 OMP101\n\n7 OMP208 # trailing\n";
    let e = parse_expect(text).expect("parses");
    assert!(e.unobservable);
    assert!(e.buggy());
    assert_eq!(e.findings, BTreeSet::from([(23, "OMP101"), (7, "OMP208")]));
    assert!(parse_expect("# only a comment\n").is_ok_and(|e| e.findings.is_empty() && !e.buggy()));
    assert!(parse_expect("23 OMP999\n").is_err_and(|m| m.contains("unknown code")));
    assert!(parse_expect("x OMP101\n").is_err_and(|m| m.contains("not a line number")));
    assert!(parse_expect("3 OMP101\n3 OMP101\n").is_err_and(|m| m.contains("twice")));
    assert!(parse_expect("3\n").is_err());
    let g = parse_expect("39 OMP101 # known gap: destructors\n5 OMP102 # known\n").unwrap();
    assert_eq!(g.gaps, BTreeSet::from([(39, "OMP101")]));
    assert_eq!(g.findings.len(), 2);

    let found = BTreeSet::from([(23, "OMP101"), (40, "OMP204")]);
    assert_eq!(
        rewrite_expect(Some(text), &found),
        "# why\n# oracle: not observable (a leak)\n23 OMP101\n\n40 OMP204\n"
    );
    assert!(rewrite_expect(None, &BTreeSet::new()).starts_with("# Ground truth"));
}
