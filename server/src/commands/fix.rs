//! `omplens fix FILE`: synthesize the data mappings and write the fixed program.
//! `omplens plan FILE`: say what would move where, without writing anything.

use super::load;
use super::write::write_atomic;
use crate::{FixArgs, SourceArgs};
use anyhow::{bail, Context, Result};
use omplens_analysis::ide::gate;
use omplens_analysis::ir::Module;
use omplens_analysis::ir::Severity;
use omplens_analysis::plan::{self, Plan};
use omplens_analysis::text;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// The result of planning one file.
struct Planned {
    /// The file as read.
    original: String,
    /// The text the plan applies to (after `--replace` stripped the old mappings).
    source: String,
    module: Arc<Module>,
    plan: Plan,
    /// The original text's compile errors and findings, for the gate.
    baseline: gate::Baseline,
    clang_args: Vec<String>,
    parse_ms: f64,
    analysis_ms: f64,
}

/// The file's text; bytes that are not UTF-8 (a Latin-1 comment) are kept as escapes that
/// [`text::bytes::encode`] writes back unchanged.
fn read_source(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    text::bytes::decode(&bytes).map(|(t, _)| t).ok_or_else(|| {
        anyhow::anyhow!(
            "{}: not UTF-8 text, and it holds characters U+10FF80..U+10FFFF, which omplens uses to keep such bytes: nothing written",
            path.display()
        )
    })
}

fn clang_errors(module: &Module) -> Vec<String> {
    module
        .errors()
        .map(|d| match d.span {
            Some(s) => {
                let (l, c) = module.line_col(s.start);
                format!("{l}:{c}: {}", d.message)
            }
            None => d.message.clone(),
        })
        .collect()
}

/// Plans `args.file`. With `replace`, the programmer's data constructs are stripped first,
/// except those naming data in `also_keep` (function, variable) or data the synthesis
/// cannot bound.
fn planned(args: &SourceArgs, replace: bool, also_keep: &[(String, String)]) -> Result<Planned> {
    load::check_inputs(args)?;
    let path = &args.file;
    let clang_args = load::clang_args(args)?;
    let original = read_source(path)?;
    let mut source = original.clone();
    let t0 = Instant::now();
    let mut file = load::OneFile::new(path, source.clone(), clang_args.clone());
    let mut module = file.module()?;
    let findings = load::uncancelled(file.analysis().findings(path))?;
    let baseline = gate::Baseline::of(path, &clang_args, &source, &module, &findings);
    if replace {
        let strip = plan::strip::strip_mappings(&module, &source, &[]);
        if !strip.is_empty() {
            let original_module = module;
            source = text::apply(&original, &strip);
            file.set_text(source.clone());
            module = file.module()?;
            // Data the synthesis cannot bound (an index from a team number, an indirect
            // one): the programmer's constructs naming it stay, and the rest is planned again.
            let plan = load::uncancelled(file.analysis().plan(path))?;
            let mut keep: Vec<(String, String)> = plan
                .iter()
                .flat_map(|p| &p.diagnostics)
                .filter_map(|d| d.unmapped.clone())
                .collect();
            keep.extend(also_keep.iter().cloned());
            let keep = plan::strip::keep_through_callers(&module, &keep);
            if !keep.is_empty() {
                let strip = plan::strip::strip_mappings(&original_module, &original, &keep);
                source = text::apply(&original, &strip);
                file.set_text(source.clone());
                module = file.module()?;
            }
        }
    }
    let parse_ms = t0.elapsed().as_secs_f64() * 1e3;
    let errors = clang_errors(&module);
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("{}:{e}", path.display());
        }
        bail!(
            "{} has {} error(s); omplens only rewrites code that compiles",
            path.display(),
            errors.len()
        );
    }
    let t1 = Instant::now();
    let plan = load::uncancelled(file.analysis().plan(path))?.map_err(anyhow::Error::msg)?;
    let analysis_ms = t1.elapsed().as_secs_f64() * 1e3;
    Ok(Planned {
        original,
        source,
        module,
        plan,
        baseline,
        clang_args,
        parse_ms,
        analysis_ms,
    })
}

fn print_diagnostics(path: &Path, p: &Planned) {
    for d in &p.plan.diagnostics {
        let (l, c) = p.module.line_col(d.span.start);
        let sev = d.severity.name();
        eprintln!("{}:{l}:{c}: {sev}: {}", path.display(), d.message);
    }
}

pub fn run_fix(args: &FixArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let path = &args.source.file;
    let mut also_keep: Vec<(String, String)> = Vec::new();
    let mut rounds = 0;
    let (p, fixed, verdict, rewrite_ms, gate_ms) = loop {
        let p = planned(&args.source, args.replace, &also_keep)?;
        let t1 = Instant::now();
        let edits = p.plan.edits(&p.module, &p.source);
        let fixed = text::apply(&p.source, &edits);
        let rewrite_ms = t1.elapsed().as_secs_f64() * 1e3;
        // The gate: the rewritten program is parsed and analysed again before anything is
        // written; a region the plan could not place leaves its kernels unmapped (a gap).
        let t2 = Instant::now();
        let verdict = gate::verify(path, &p.clang_args, &p.baseline, &fixed);
        let gate_ms = t2.elapsed().as_secs_f64() * 1e3;
        // `--replace` never maps less than the input did (issue 16): data the rewrite left
        // stale or unmapped keeps the programmer's own constructs, and the rest is planned
        // again, a few rounds at most (each keeps at least one more variable).
        rounds += 1;
        let more: Vec<(String, String)> = if args.replace && rounds < 4 {
            let mut more: Vec<_> = verdict
                .refusals
                .iter()
                .chain(&verdict.gaps)
                .filter_map(|r| r.subject.clone())
                .filter(|s| !also_keep.contains(s))
                .collect();
            more.sort();
            more.dedup();
            more
        } else {
            Vec::new()
        };
        if more.is_empty() || p.source == p.original {
            break (p, fixed, verdict, rewrite_ms, gate_ms);
        }
        also_keep.extend(more);
    };
    print_diagnostics(path, &p);
    let shown = path.display();
    for r in &verdict.refusals {
        eprintln!("{shown}:{}:{}: error: {}", r.line, r.column, r.message);
    }
    let mut gaps = 0;
    for d in p
        .plan
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
    {
        let (l, c) = p.module.line_col(d.span.start);
        eprintln!("{shown}:{l}:{c}: error: gap: the kernels of this function stay unmapped");
        gaps += 1;
    }
    for g in &verdict.gaps {
        eprintln!("{shown}:{}:{}: error: gap: {}", g.line, g.column, g.message);
        gaps += 1;
    }
    let write = verdict.accepted() && (gaps == 0 || args.allow_partial);
    if !verdict.accepted() {
        if let Some(d) = std::env::var_os("OMPLENS_DEBUG_REFUSED") {
            let _ = std::fs::write(d, &fixed);
        }
        eprintln!("omplens: the rewrite of {shown} was refused (see above); nothing written");
    } else if !write {
        eprintln!(
            "omplens: {gaps} gap{} left in {shown} (see above); nothing written \
             (--allow-partial writes the verified rewrite anyway)",
            if gaps == 1 { "" } else { "s" }
        );
    }
    let original = &p.original;
    if !write {
        // Nothing on stdout either: a refused rewrite is not printed as if it were the fix.
    } else if args.diff {
        let label = path.display().to_string();
        let d = text::unified_diff(&label, &label, original, &fixed);
        let _ = std::io::stdout().lock().write_all(&text::bytes::encode(&d));
    } else if args.in_place {
        if &fixed != original {
            write_atomic(path, &text::bytes::encode(&fixed))?;
        }
    } else if let Some(out) = &args.output {
        if out.as_os_str() == "-" {
            let _ = std::io::stdout()
                .lock()
                .write_all(&text::bytes::encode(&fixed));
        } else {
            write_atomic(out, &text::bytes::encode(&fixed))?;
        }
    } else {
        let _ = std::io::stdout()
            .lock()
            .write_all(&text::bytes::encode(&fixed));
    }
    if args.timings {
        eprintln!(
            "omplens-timings: parse_ms={:.3} analysis_ms={:.3} rewrite_ms={:.3} gate_ms={gate_ms:.3} total_ms={:.3}",
            p.parse_ms,
            p.analysis_ms,
            rewrite_ms,
            t0.elapsed().as_secs_f64() * 1e3
        );
    }
    Ok(if verdict.accepted() && gaps == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub fn run_plan(args: &SourceArgs) -> Result<ExitCode> {
    let p = planned(args, false, &[])?;
    let text = plan::report::render(&p.module, &p.plan);
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(if p.plan.has_errors() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
