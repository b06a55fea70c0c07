//! `omplens check`: judge the data mappings a programmer wrote (OmpSan's errors, OmpMemOpt's
//! and OMPDart's waste).
//!
//! [`env`] interprets each host function over its AST-CFG with an abstract device data
//! environment (present table with reference counts, host/device validity) and records what
//! happens ([`env::Fact`]); each rule in [`rules`] turns facts into [`Finding`]s. A rule is one
//! file with its documentation page beside it (`omplens explain CODE`).

pub mod config;
pub mod env;
mod fixes;
mod headers;
pub mod rules;
pub mod suppress;

pub use rules::Code;

use crate::ir::{Module, Span};
use crate::text::{LineIndex, TextEdit};

/// How serious a finding is, as editors and SARIF name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A secondary location of a finding: the write that made data stale, the clause that did not
/// copy, the kernel that reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub span: Span,
    pub message: String,
    /// Where the location is when it is in a project header the file includes: `span` is
    /// then the main file's `#include` line that brings the header in (what consumers that
    /// show one file place), this the place in the header (for editors and reports that can
    /// name another file).
    pub header: Option<HeaderPlace>,
}

/// A range of a project header, with the header's text (for positions in any unit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderPlace {
    pub header: std::sync::Arc<crate::ir::HeaderSource>,
    /// Byte offsets in the header's text.
    pub span: Span,
}

/// A fix: edits of the checked file (byte offsets, non-overlapping) that together resolve the
/// finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

/// How often a copy happens: once per iteration of loops with this many iterations in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Multiplier {
    pub times: u64,
    /// The trip count is a guess (a loop bound that is not a constant).
    pub estimated: bool,
}

/// One diagnostic of `omplens check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule's code, e.g. [`Code::OMP101`] (see [`rules::RULES`]).
    pub code: Code,
    pub severity: Severity,
    /// Primary range (byte offsets in the main file).
    pub span: Span,
    pub message: String,
    pub related: Vec<Related>,
    pub fixes: Vec<Fix>,
    /// Bytes moved per occurrence, when the extent is known.
    pub bytes: Option<u64>,
    pub multiplier: Option<Multiplier>,
}

/// Every finding of `module` (lowered from `source`), in source order, before suppressions
/// and configuration are applied.
pub fn check(module: &Module, source: &str) -> Vec<Finding> {
    let facts = env::interpret(module, source);
    check_facts(module, source, &facts)
}

/// [`check`] over facts already interpreted (callers that also need the facts, e.g. hover).
pub fn check_facts(module: &Module, source: &str, facts: &env::Facts) -> Vec<Finding> {
    let mut out = rules::run(module, source, facts);
    // With unified shared memory, staleness and copies are the implementation's choice: only
    // the rules about the kernels' own memory accesses (OMP3xx) apply (the module says why, in a note
    // at the `requires`).
    if module.unified_shared_memory().is_some() {
        out.retain(|f| {
            f.code.rule().family != rules::Family::Correctness
                && !f.code.as_str().starts_with("OMP2")
        });
    }
    demote_when_not_compiling(module, &mut out);
    demote_chosen_at_run_time(module, &mut out);
    withhold_fixes_for_host_pointer_members(module, &mut out);
    // Text a macro or `_Pragma` turned into a directive is not what the compiler reads: a fix
    // editing it cannot be checked against its meaning, so none is offered.
    if !module.macro_text.is_empty() {
        for f in &mut out {
            f.fixes.retain(|fx| {
                !fx.edits.iter().any(|e| {
                    module.touches_macro_text(Span {
                        start: e.start,
                        end: e.end,
                    })
                })
            });
        }
    }
    headers::place_in_main_file(module, source, &mut out);
    out.sort_by_key(|f| (f.span.start, f.code, f.span.end));
    out.dedup_by(|a, b| a.code == b.code && a.span == b.span && a.message == b.message);
    out
}

/// A file with compile errors is analysed in part (what clang could not build is missing, a
/// kernel may govern nothing): its correctness findings are not certain, so they are
/// warnings, without fixes. Idempotent.
pub fn demote_when_not_compiling(module: &Module, findings: &mut [Finding]) {
    if module.errors().next().is_none() {
        return;
    }
    for f in findings.iter_mut().filter(|f| {
        f.severity == Severity::Error && f.code.rule().family == rules::Family::Correctness
    }) {
        f.severity = Severity::Warning;
        f.message
            .push_str(" (not certain: the file has compile errors, so part of it is not analysed)");
        f.fixes.clear();
    }
}

/// Findings that depend on a choice the program makes at run time are not certain: a
/// construct with an `if` clause for `target` runs on the host (or moves nothing) when its
/// condition is false (OpenMP 5.2 §13.8, host fallback), and a function whose constructs
/// address more than one device (`device(d)` in a loop, `device(0)` beside `device(1)`)
/// has a data environment per device, where omplens models one (its fixes are withheld
/// there too). Errors touching them become warnings that name the condition; in such a
/// function the data-transfer findings name it too (their advice assumes one device).
/// Idempotent.
pub fn demote_chosen_at_run_time(module: &Module, findings: &mut [Finding]) {
    use crate::pragma::ClauseKind;
    let mut conditional: Vec<(Span, String)> = Vec::new();
    let mut devices: std::collections::HashMap<Option<crate::ir::FuncId>, Vec<String>> =
        std::collections::HashMap::new();
    for info in module.directives.iter() {
        let d = &info.directive;
        if !(d.kind.is_offload_kernel() || d.kind.is_data_mapping()) {
            continue;
        }
        let governed = match (info.function, info.governs) {
            (Some(f), Some(g)) => Span {
                start: d.span.start,
                end: module.function(f).stmt(g).span.end.max(d.span.end),
            },
            _ => d.span,
        };
        let mut device = "the default device".to_string();
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::If { modifier, expr }
                    if modifier.as_deref().is_none_or(|m| m.starts_with("target")) =>
                {
                    conditional.push((
                        governed,
                        format!(
                            "the construct at line {} runs on the host or maps nothing when \
                             `{expr}` is false",
                            module.line_ref(d.span.start)
                        ),
                    ));
                }
                ClauseKind::Device { expr, .. } => {
                    device = match expr.kind {
                        crate::pragma::ExprKind::Int(_) => format!("`device({expr})`"),
                        // A device number computed at run time: any device.
                        _ => format!("`device({expr})` (any device)"),
                    }
                }
                _ => {}
            }
        }
        let seen = devices.entry(info.function).or_default();
        if !seen.contains(&device) {
            seen.push(device);
        }
    }
    let several: Vec<(Span, String)> = devices
        .into_iter()
        .filter(|(_, names)| names.len() > 1 || names.iter().any(|n| n.ends_with("(any device)")))
        .filter_map(|(f, names)| {
            let f = module.function(f?);
            Some((
                f.span?,
                format!(
                    "`{}` addresses several devices ({}), each with its own data environment, \
                     and omplens models one",
                    f.name,
                    names.join(", ")
                ),
            ))
        })
        .collect();
    let within = |outer: Span, s: Span| outer.start <= s.start && s.end <= outer.end;
    for f in findings.iter_mut() {
        let spans: Vec<Span> = std::iter::once(f.span)
            .chain(f.related.iter().map(|r| r.span))
            .collect();
        let device = several
            .iter()
            .find(|(fs, _)| within(*fs, f.span))
            .map(|(_, why)| why.clone());
        let several_devices = device.is_some();
        if several_devices {
            f.fixes.clear();
        }
        let why = device.or_else(|| {
            conditional
                .iter()
                .find(|(g, _)| spans.iter().any(|s| within(*g, *s)))
                .map(|(_, why)| why.clone())
        });
        let Some(why) = why else { continue };
        let correctness = f.code.rule().family == rules::Family::Correctness;
        // A data-transfer finding's advice (the OMP2xx codes) assumes one device too (a
        // `target data` around a loop over devices keeps the data on one of them only): it
        // says so. (How a loop walks memory, OMP3xx, is the same on every device.)
        let transfer = f.code.as_str().starts_with("OMP2");
        let named = f.message.contains("(not certain:");
        if f.severity == Severity::Error
            || ((correctness || (several_devices && transfer)) && !named)
        {
            f.severity = f.severity.max(Severity::Warning);
            f.message.push_str(&format!(" (not certain: {why})"));
        }
    }
}

/// A kernel that reaches data through a pointer member of an object variable (`s.out[i]`,
/// or a method of `s` reading `this->out[i]`) uses the address the object was given on the
/// host: mapping an object copies its bytes and attaches no pointer member (a lambda's
/// captures are the exception). Maps of the arrays themselves do not change what such a
/// kernel touches, so findings in its function say so and offer no fix (a changed map type
/// would not repair it). Idempotent.
pub fn withhold_fixes_for_host_pointer_members(module: &Module, findings: &mut [Finding]) {
    use crate::ir::{Callee, ExprKind, TypeClass, TypeKind};
    use crate::pragma::DirectiveKind;
    // A declared mapper may attach the members; a map through the object does.
    if module
        .directives
        .iter()
        .any(|d| d.directive.kind == DirectiveKind::DeclareMapper)
    {
        return;
    }
    let attached = |name: &str| {
        module.directives.iter().any(|d| {
            d.directive
                .clause_items()
                .any(|(_, it)| it.base.name == name && !it.path.is_empty())
        })
    };
    let pointer = |c: TypeClass| matches!(c, TypeClass::Pointer | TypeClass::PointerToConst);
    // (function, object, member)
    let mut reached: Vec<(Span, String, String)> = Vec::new();
    for f in module.functions.iter() {
        let Some(fspan) = f.span else { continue };
        for k in crate::ir::kernel_stmts(module, f) {
            let ks = f.stmt(k).span;
            let object = |e: crate::ir::ExprId| match f.expr(f.strip_casts(e)).kind {
                ExprKind::Var(v)
                    if matches!(module.var(v).ty.referent().kind, TypeKind::Record(_)) =>
                {
                    Some(module.var(v).name.clone())
                }
                _ => None,
            };
            for e in f.exprs.iter() {
                if !(ks.start <= e.span.start && e.span.end <= ks.end) {
                    continue;
                }
                let hit = match &e.kind {
                    ExprKind::Member {
                        base: Some(b),
                        arrow: false,
                        field,
                    } if pointer(e.class) => object(*b).map(|o| (o, field.clone())),
                    ExprKind::Call {
                        callee: Callee::Direct(c),
                        receiver: Some(r),
                        ..
                    } => {
                        let callee = module.function(*c);
                        let member = callee.exprs.iter().find_map(|m| match &m.kind {
                            ExprKind::Member { base, field, .. }
                                if pointer(m.class)
                                    && base.is_none_or(|b| {
                                        matches!(callee.expr(b).kind, ExprKind::This)
                                    }) =>
                            {
                                Some(field.clone())
                            }
                            _ => None,
                        });
                        object(*r).zip(member)
                    }
                    _ => None,
                };
                if let Some((o, m)) = hit {
                    if !attached(&o) && !reached.iter().any(|(s, n, _)| *s == fspan && *n == o) {
                        reached.push((fspan, o, m));
                    }
                }
            }
        }
    }
    for f in findings.iter_mut() {
        let Some((_, name, member)) = reached
            .iter()
            .find(|(s, _, _)| s.start <= f.span.start && f.span.end <= s.end)
        else {
            continue;
        };
        f.fixes.clear();
        let note = format!(
            " (a kernel here reaches data through pointer members of `{name}`, which keep the \
             addresses they hold on the host: mapping `{name}` copies its bytes and attaches \
             no member, so map the members' data through it, e.g. `{name}.{member}[0:n]`)"
        );
        if !f.message.contains(&note) {
            f.message.push_str(&note);
        }
    }
}

/// What `omplens check` reports for one file: the findings no inline suppression silences,
/// after `config` (rules enabled, severities), and the names in suppression comments that are
/// no rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reported {
    pub findings: Vec<Finding>,
    /// (byte offset of the comment, the unknown name).
    pub unknown_suppressions: Vec<(u32, String)>,
}

/// Applies the inline suppressions of `source` and then each configuration in turn (a
/// finding survives only if every one enables it; later ones override severities) to
/// `findings` of that source. The CLI and the language server both report through this.
pub fn report(source: &str, findings: Vec<Finding>, configs: &[&config::Config]) -> Reported {
    let lines = LineIndex::new(source);
    let suppressions = suppress::Suppressions::parse(source, &lines);
    let mut findings: Vec<Finding> = findings
        .into_iter()
        .filter(|f| !suppressions.suppresses(&lines, f))
        .collect();
    for c in configs {
        findings = c.apply(findings);
    }
    Reported {
        findings,
        unknown_suppressions: suppressions.unknown,
    }
}
