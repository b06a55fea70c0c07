//! The rewrite gate: before `fix`, `check --fix` or an editor writes a rewritten text, the text
//! is parsed again with libclang under the same flags and analysed again. A rewrite is
//! **refused** when it brings a compiler error the original did not have, or more findings
//! of a correctness rule (or more error findings of any rule) than the original had. Data a
//! kernel of the rewritten program still uses unmapped (OMP103), or uses where no map omplens
//! can see is known to cover it, is a **gap**: `fix` writes nothing while gaps remain unless
//! asked for a partial result.

use super::{AnalysisHost, Cancellable, Change};
use crate::check::env::UnprovenSite;
use crate::check::rules::Family;
use crate::check::{Code, Finding, Severity};
use crate::ir::Module;
use std::collections::BTreeMap;
use std::path::Path;

/// What the gate compares a rewrite with: the original text's compile errors and findings.
#[derive(Clone, Debug, Default)]
pub struct Baseline {
    compile_errors: Vec<String>,
    counts: BTreeMap<Code, usize>,
    /// The errors of a parse with OpenMP semantics on (None: that parse failed).
    openmp_errors: Option<Vec<String>>,
}

impl Baseline {
    /// How many findings of `code` the original has, as the gate counts them (every finding
    /// of a correctness rule, error findings of the others).
    pub fn count(&self, code: Code) -> usize {
        self.counts.get(&code).copied().unwrap_or(0)
    }

    /// The baseline of `text` (the original of `path`, compiled with `flags`): its module's
    /// compile errors, its findings (before suppressions and configuration: a rewrite must
    /// not add what a configuration hides either) and the errors clang reports with OpenMP
    /// semantics on.
    pub fn of(
        path: &Path,
        flags: &[String],
        text: &str,
        module: &Module,
        findings: &[Finding],
    ) -> Baseline {
        Baseline {
            compile_errors: module.errors().map(|d| d.message.clone()).collect(),
            counts: counted(findings),
            openmp_errors: openmp_messages(path, flags, text),
        }
    }
}

fn openmp_messages(path: &Path, flags: &[String], text: &str) -> Option<Vec<String>> {
    crate::frontend::openmp_errors(path, text, flags)
        .ok()
        .map(|v| v.into_iter().map(|(_, m)| m).collect())
}

/// The messages of `after` not in `before` (as multisets), with their items.
fn new_messages<'a, T>(before: &[String], after: &'a [(T, String)]) -> Vec<&'a (T, String)> {
    let mut known = before.to_vec();
    after
        .iter()
        .filter(|(_, m)| match known.iter().position(|k| k == m) {
            Some(i) => {
                known.swap_remove(i);
                false
            }
            None => true,
        })
        .collect()
}

/// The findings the gate counts: every finding of a correctness rule, and error findings
/// of the others.
fn counted(findings: &[Finding]) -> BTreeMap<Code, usize> {
    let mut out = BTreeMap::new();
    for f in findings {
        if f.code.rule().family == Family::Correctness || f.severity == Severity::Error {
            *out.entry(f.code).or_insert(0) += 1;
        }
    }
    out
}

/// One reason, located in the rewritten text (1-based line and column in bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The data it is about, when one variable's: (the function's qualified name, the
    /// variable's name). `fix --replace` keeps the programmer's constructs naming it.
    pub subject: Option<(String, String)>,
}

/// The gate's verdict on a rewritten text.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Why the rewrite must not be written (empty: it may be).
    pub refusals: Vec<Problem>,
    /// Data kernels of the rewritten program use without a mapping.
    pub gaps: Vec<Problem>,
    /// The rewritten text's findings as the gate counts them (see [`Baseline::count`]).
    pub counts: BTreeMap<Code, usize>,
}

impl Verdict {
    pub fn accepted(&self) -> bool {
        self.refusals.is_empty()
    }

    /// How many findings of `code` the rewritten text has, as the gate counts them.
    pub fn count(&self, code: Code) -> usize {
        self.counts.get(&code).copied().unwrap_or(0)
    }

    /// Whether a fix for a finding of `code` did what it says, against `before` findings of
    /// that code: for a correctness rule, the rewritten text has fewer of them (a rewrite that
    /// leaves the defect, such as mappings `omplens fix` writes around data it cannot map, is
    /// no fix of it). The other rules' fixes are judged by [`Verdict::accepted`] alone.
    pub fn resolves(&self, code: Code, before: usize) -> bool {
        code.rule().family != Family::Correctness || self.count(code) < before
    }
}

/// How many fixes of one file [`gated_fixes`] re-analyses one by one when they do not pass
/// the gate together (each try parses and analyses the file again).
pub const ONE_BY_ONE_TRIES: usize = 12;

/// The fixes of a file that pass the gate, as `check --fix` writes them.
#[derive(Clone, Debug, Default)]
pub struct GatedFixes {
    /// The edits to apply, sorted.
    pub edits: Vec<crate::text::TextEdit>,
    /// The findings (indices) whose first fix is in `edits`.
    pub taken: Vec<usize>,
    /// The findings whose fix was selected but left out, with why (a clause).
    pub refused: Vec<(usize, String)>,
}

/// The first fix of each finding of `findings` as [`crate::text::select_fixes`] selects them,
/// kept if the gate accepts them together and each fix of a correctness finding leaves fewer
/// findings of its code ([`Verdict::resolves`]); otherwise tried one by one in finding order,
/// each on top of those accepted so far, at most `tries` of them (each try parses and
/// analyses the file again). `selected`: the selection's taken findings and edits.
pub fn gated_fixes(
    path: &Path,
    flags: &[String],
    before: &Baseline,
    text: &str,
    findings: &[Finding],
    selected: (&[usize], &[crate::text::TextEdit]),
    tries: usize,
) -> GatedFixes {
    let (taken, edits) = selected;
    let together = crate::text::apply(text, edits);
    let pass = together == text || {
        let verdict = verify(path, flags, before, &together);
        verdict.accepted()
            && taken.iter().all(|&i| {
                let code = findings[i].code;
                verdict.resolves(code, before.count(code))
            })
    };
    if pass {
        return GatedFixes {
            edits: edits.to_vec(),
            taken: taken.to_vec(),
            refused: Vec::new(),
        };
    }
    let mut out = GatedFixes::default();
    // The verdict on the text with the fixes accepted so far (None: the original).
    let mut now: Option<Verdict> = None;
    for (k, &i) in taken.iter().enumerate() {
        let f = &findings[i];
        if k >= tries {
            out.refused.push((
                i,
                format!("the fixes together did not pass the re-analysis and only {tries} are tried one by one"),
            ));
            continue;
        }
        let Some(fix) = f.fixes.first() else { continue };
        let mut trial = out.edits.clone();
        trial.extend(fix.edits.iter().filter(|e| !out.edits.contains(e)).cloned());
        trial.sort_by_key(|e| (e.start, e.end));
        let v = verify(path, flags, before, &crate::text::apply(text, &trial));
        let had = now
            .as_ref()
            .map_or_else(|| before.count(f.code), |n| n.count(f.code));
        match v.refusals.first() {
            Some(r) => out.refused.push((
                i,
                format!("the re-analysis of the fixed file refused it ({})", r.message),
            )),
            None if !v.resolves(f.code, had) => out.refused.push((
                i,
                format!(
                    "the re-analysis of the fixed file still reports it ({had} finding{} of [{}] before, {} after)",
                    if had == 1 { "" } else { "s" },
                    f.code,
                    v.count(f.code)
                ),
            )),
            None => {
                out.edits = trial;
                out.taken.push(i);
                now = Some(v);
            }
        }
    }
    out
}

/// Parses and analyses `after` (the rewrite of `path`, compiled with `flags`) on a host of its
/// own and judges it against `before`.
pub fn verify(path: &Path, flags: &[String], before: &Baseline, after: &str) -> Verdict {
    let mut host = AnalysisHost::new();
    let mut change = Change::new();
    change.set_file(path, after.to_string(), flags.to_vec());
    host.apply_change(change);
    // Nothing changes this host while it is asked: a cancellation cannot happen.
    match judge(&host, path, flags, after, before) {
        Ok(v) => v,
        Err(_) => Verdict {
            refusals: vec![Problem {
                line: 1,
                column: 1,
                message: "internal error: the re-analysis was cancelled".into(),
                subject: None,
            }],
            gaps: Vec::new(),
            counts: BTreeMap::new(),
        },
    }
}

fn judge(
    host: &AnalysisHost,
    path: &Path,
    flags: &[String],
    text: &str,
    before: &Baseline,
) -> Cancellable<Verdict> {
    let a = host.analysis();
    let module = match a.module(path)? {
        Ok(m) => m,
        Err(e) => {
            return Ok(Verdict {
                refusals: vec![Problem {
                    line: 1,
                    column: 1,
                    message: format!("the rewritten file could not be parsed again: {e}"),
                    subject: None,
                }],
                gaps: Vec::new(),
                counts: BTreeMap::new(),
            })
        }
    };
    let findings = a.findings(path)?;
    let at = |offset: Option<u32>, message: String| {
        let (line, column) = offset.map_or((1, 1), |o| module.line_col(o));
        let subject = offset.and_then(|o| subject_at(&module, text, o, &message));
        Problem {
            line,
            column,
            message,
            subject,
        }
    };
    let mut v = Verdict::default();
    // Compile errors the original did not have (compared by message: lines move).
    let errors: Vec<(Option<u32>, String)> = module
        .errors()
        .map(|d| (d.span.map(|s| s.start), d.message.clone()))
        .collect();
    for (offset, message) in new_messages(&before.compile_errors, &errors) {
        v.refusals.push(at(
            *offset,
            format!("the rewritten file does not compile: {message}"),
        ));
    }
    // The directives as clang reads them with OpenMP on (omplens's own parse keeps it off).
    if let Some(had) = &before.openmp_errors {
        match crate::frontend::openmp_errors(path, text, flags) {
            Ok(now) => {
                for (offset, message) in new_messages(had, &now) {
                    v.refusals.push(at(
                        *offset,
                        format!("the rewritten file does not compile with OpenMP: {message}"),
                    ));
                }
            }
            Err(e) => v.refusals.push(at(
                None,
                format!("the rewritten file could not be compiled with OpenMP: {e}"),
            )),
        }
    }
    // Findings the original did not have: more of a code than before is a new one; each
    // finding of that code is named (which one is new cannot be told once lines move).
    let after = counted(&findings);
    v.counts = after.clone();
    for (code, n) in &after {
        let had = before.counts.get(code).copied().unwrap_or(0);
        if *n > had {
            for f in findings.iter().filter(|f| f.code == *code) {
                v.refusals.push(at(
                    Some(f.span.start),
                    format!(
                        "the rewrite adds a finding [{code}] ({had} before, {n} after): {}",
                        f.message
                    ),
                ));
            }
        }
    }
    for f in findings.iter().filter(|f| f.code == Code::OMP103) {
        v.gaps.push(at(Some(f.span.start), f.message.clone()));
    }
    // Data a kernel uses that no map of this file is known to cover where it runs (loaded
    // from a struct, passed in from another file): no rule reports it, but a rewrite that
    // leaves it so has not completed the program.
    let facts = crate::check::env::interpret(&module, text);
    for u in &facts.unproven {
        // The name the kernel uses (a local alias of a member reads better than `this->m`).
        let used = text
            .get(u.span.start as usize..u.span.end as usize)
            .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .unwrap_or(&u.name);
        let message = match u.site {
            // A pointer member of a struct variable (`t.val`): mapping the struct copies the
            // pointer, not the data.
            UnprovenSite::Kernel(d) if used.contains('.') => format!(
                "the kernel at line {} uses the data behind `{}`, which no map of this function names (`{}[0:n]`): mapping the struct copies the pointer, not its data; map it by hand",
                module.line_col(module.directive(d).directive.span.start).0,
                used,
                used
            ),
            UnprovenSite::Kernel(d) => format!(
                "the kernel at line {} uses the data behind `{}`, and no map omplens can see covers it there (the pointer's data is not an allocation this file makes and maps); map it by hand",
                module.line_col(module.directive(d).directive.span.start).0,
                used
            ),
            UnprovenSite::Launcher(f) => match &module.function(f).origin {
                Some(header) => format!(
                    "`{}` launches kernels in `{}` that use the data behind `{}`, and no map omplens can see covers it at this call; map it by hand around the call",
                    module.function(f).name,
                    file_name(header),
                    u.name
                ),
                None => format!(
                    "`{}` launches kernels omplens does not analyse (OpenMP directives in a header) and receives the data behind `{}` here, which no map omplens can see covers; map it by hand around the call",
                    module.function(f).name,
                    u.name
                ),
            },
        };
        let mut gap = at(Some(u.span.start), message);
        gap.subject = Some((
            module.function(u.func).qualified_name.clone(),
            used.to_string(),
        ));
        v.gaps.push(gap);
    }
    Ok(v)
}

/// The variable a problem at `offset` of `text` is about, in the function whose body holds
/// it: (the function's qualified name, the name). The first name in backquotes in `message`
/// that is a variable there (a finding names its data so, also one placed on a directive or
/// on a call through an object: `s.put(x)` writing `buf`), else the identifier at `offset`.
fn subject_at(module: &Module, text: &str, offset: u32, message: &str) -> Option<(String, String)> {
    let (id, f) = module.functions.iter_enumerated().find(|(_, f)| {
        f.in_main_file && f.span.is_some_and(|s| s.start <= offset && offset < s.end)
    })?;
    let known = |name: &str| {
        module
            .vars
            .iter()
            .any(|v| v.name == name && (v.function == Some(id) || v.function.is_none()))
    };
    // The identifier a text starts with (a quoted name counts when it is one whole).
    fn first(t: &str) -> Option<&str> {
        // (Stops at an ASCII byte, so at a character boundary.)
        let n = t
            .bytes()
            .take_while(|&c| crate::text::scan::is_ident_byte(c))
            .count();
        Some(&t[..n]).filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
    }
    let at = text.get(offset as usize..).and_then(first);
    let quoted = message
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|q| first(q) == Some(*q));
    quoted
        .chain(at)
        .find(|n| known(n))
        .map(|n| (f.qualified_name.clone(), n.to_string()))
}

/// The last component of a path (a header named in a message).
fn file_name(path: &str) -> &str {
    std::path::Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}
