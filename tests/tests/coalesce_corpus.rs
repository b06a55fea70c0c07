//! The coalescing analysis (OMP301, OMP302) against the programs of tests/coalesce/.
//!
//! Every program `NAME.c` has `NAME.expect` beside it: the analysis of each parallel loop
//! (strides, requests per warp, the reshapings considered and why they are safe or not) and
//! the findings, in the format of tests/coalesce/README.md. `UPDATE_EXPECT=1` rewrites the
//! files with the current output (for reviewing a change: they are checked by hand).
//!
//! - `analysis_matches_expectations`: the rendered analysis and the OMP301/OMP302 findings
//!   equal the expectation;
//! - `reshapings_keep_the_result`: every program is oracle-correct as written; the first fix
//!   of every OMP302 finding is applied, and the transformed program must be oracle-correct
//!   and print what the original's sequential build prints; analysed again, the reshaped loop
//!   must cost the requests per warp the finding predicted, and be offered nothing more.
//!   Slow tier (`OMPLENS_SLOW=1`, `omplens_tests::tier`).

use omplens_analysis::check::{self as omp_check, Code, Finding};
use omplens_analysis::coalesce;
use omplens_analysis::frontend::{flags, lower_file};
use omplens_analysis::ir::Module;
use omplens_analysis::text;
use omplens_tests::fix_programs::{parallel_map, programs_with, Program};
use omplens_tests::oracle;
use omplens_tests::tier::{self, UPDATE_ENV};
use std::path::{Path, PathBuf};

const CODES: [Code; 2] = [Code::OMP301, Code::OMP302];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("coalesce")
}

fn programs() -> Vec<Program> {
    let p = programs_with(&dir(), None).expect("reading tests/coalesce");
    assert!(!p.is_empty(), "no programs in tests/coalesce");
    p
}

struct Analysed {
    source: String,
    module: Module,
    reports: Vec<coalesce::LoopReport>,
    findings: Vec<Finding>,
}

fn analyse_file(path: &Path, source: &str) -> Result<Analysed, String> {
    let args = flags::flags_for(path, None, &[])
        .map_err(|e| format!("flags: {e}"))?
        .args;
    let module = lower_file(path, Some(source), &args).map_err(|e| format!("lowering: {e}"))?;
    if let Some(e) = module.errors().next() {
        return Err(format!("front end error: {}", e.message));
    }
    let reports = coalesce::analyse(&module, source);
    let findings = omp_check::check(&module, source)
        .into_iter()
        .filter(|f| CODES.contains(&f.code))
        .collect();
    Ok(Analysed {
        source: source.to_string(),
        module,
        reports,
        findings,
    })
}

fn analyse(p: &Program) -> Result<Analysed, String> {
    let path = p.input();
    let source = std::fs::read_to_string(&path).map_err(|e| format!("reading: {e}"))?;
    analyse_file(&path, &source)
}

/// The expectation text of an analysis.
fn render(a: &Analysed) -> String {
    let mut s = coalesce::render(&a.module, &a.reports);
    for f in &a.findings {
        let line = a.module.line_col(f.span.start).0;
        let fix = f
            .fixes
            .first()
            .map_or(String::new(), |x| format!(" fix: {}", x.title));
        s.push_str(&format!("finding {line} {}{fix}\n", f.code));
    }
    s
}

/// Expectation lines: comments (`#`) and blank lines are ignored.
fn significant(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect()
}

#[test]
fn analysis_matches_expectations() {
    let update = tier::updating();
    let results = parallel_map(&programs(), |p| -> Result<(), String> {
        let a = analyse(p)?;
        let got = render(&a);
        let path = p.dir.join(format!("{}.expect", p.name));
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        if update {
            // Comment lines at the top are kept.
            let head: String = old
                .lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| format!("{l}\n"))
                .collect();
            let new = format!("{head}{got}");
            if new != old {
                std::fs::write(&path, new).map_err(|e| e.to_string())?;
            }
            return Ok(());
        }
        if old.is_empty() {
            return Err(format!(
                "no {}: write it ({UPDATE_ENV}=1 drafts it)",
                path.display()
            ));
        }
        let (want, have) = (significant(&old), significant(&got));
        if want != have {
            return Err(format!(
                "expected:\n{}\nfound:\n{}",
                want.join("\n"),
                have.join("\n")
            ));
        }
        Ok(())
    });
    let failures: Vec<String> = programs()
        .iter()
        .zip(results)
        .filter_map(|(p, r)| r.err().map(|e| format!("== {}\n{e}", p.file_name())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn check_reshapings(p: &Program, scratch: &Path) -> Result<Vec<String>, String> {
    let mut notes = Vec::new();
    let dir_flag = p.dir.display().to_string();
    let flags = ["-I", dir_flag.as_str()];
    let original = oracle::check(&p.input(), &flags).map_err(|e| format!("oracle: {e}"))?;
    if !original.is_correct() {
        return Err(format!(
            "the program itself is not oracle-correct: {}",
            original.summary()
        ));
    }
    let a = analyse(p)?;
    let omp302: Vec<_> = a
        .findings
        .iter()
        .filter(|f| f.code == Code::OMP302)
        .collect();
    let mut predicted = Vec::new();
    for f in &omp302 {
        if f.fixes.is_empty() {
            return Err("an OMP302 finding without a fix".into());
        }
        // The loop's report (its directive is where the finding is).
        let r = a
            .reports
            .iter()
            .find(|r| a.module.directive(r.directive).directive.span == f.span)
            .ok_or("no loop report for an OMP302 finding")?;
        let c = &r.candidates[r.best.ok_or("OMP302 without a best candidate")?];
        predicted.push((
            a.reports
                .iter()
                .position(|x| std::ptr::eq(x, r))
                .unwrap_or(0),
            c.requests,
        ));
    }
    // The fixes `omplens check --fix` would write; every one must be taken.
    let selection = text::select_fixes(
        &a.source,
        omp302
            .iter()
            .map(|f| f.fixes.first().map(|fix| fix.edits.as_slice())),
    );
    if let Some((_, why)) = selection.skipped.first() {
        return Err(format!("an OMP302 fix is left out: {why}"));
    }
    let edits = selection.edits;
    if edits.is_empty() {
        return Ok(notes);
    }
    let text = text::apply(&a.source, &edits);
    if text == a.source {
        return Err("the fixes change nothing".into());
    }
    let fixed = scratch.join(p.file_name());
    std::fs::write(&fixed, &text).map_err(|e| e.to_string())?;
    let v = oracle::check(&fixed, &flags)
        .map_err(|e| format!("oracle on the fixed program: {e}\n{text}"))?;
    if !v.is_correct() || v.reference != original.reference {
        return Err(format!(
            "the reshaped program changes the result: {}\noriginal printed {:?}, reshaped {:?}\n{text}",
            v.summary(),
            original.reference,
            v.offload.stdout
        ));
    }
    // The reshaped loops cost what was predicted and are offered nothing more.
    let again = analyse_file(&fixed, &text)?;
    for (i, want) in predicted {
        let r = again
            .reports
            .get(i)
            .ok_or("a loop vanished after the reshaping")?;
        if r.requests != want {
            return Err(format!(
                "loop {} costs {} requests per warp after the reshaping; {want} were predicted\n{}",
                i,
                r.requests,
                coalesce::render(&again.module, &again.reports)
            ));
        }
        if r.best.is_some() {
            return Err(format!(
                "loop {i} is offered another reshaping after the first"
            ));
        }
    }
    notes.push(format!(
        "reshaped; output {:?} unchanged",
        v.reference.trim()
    ));
    Ok(notes)
}

#[test]
fn reshapings_keep_the_result() {
    let test = "coalesce_corpus::reshapings_keep_the_result";
    if !(tier::slow(test) && oracle::gate(test)) {
        return;
    }
    let scratch = tempfile::Builder::new()
        .prefix("omplens-coalesce-")
        .tempdir()
        .expect("temporary directory");
    let programs = programs();
    let results = parallel_map(&programs, |p| {
        let d = scratch.path().join(&p.name);
        std::fs::create_dir_all(&d).map_err(|e| e.to_string())?;
        check_reshapings(p, &d)
    });
    let mut failures = Vec::new();
    let mut reshaped = 0;
    for (p, r) in programs.iter().zip(results) {
        match r {
            Ok(notes) => {
                reshaped += usize::from(!notes.is_empty());
                for n in notes {
                    eprintln!("{}: {n}", p.file_name());
                }
            }
            Err(e) => failures.push(format!("== {}\n{e}", p.file_name())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        reshaped > 0,
        "no program was reshaped: the oracle test judged nothing"
    );
}
