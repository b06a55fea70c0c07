//! OMP110: data a `target ... nowait` kernel (or a `target update`/`enter data`/`exit data`
//! with `nowait`) may still be using is touched before anything waits for it.
//!
//! A `nowait` kernel is a deferred target task: its copies in, its code and its copies back
//! run whenever the runtime schedules them, until a `taskwait` or a barrier waits for it.
//! Until then the host must not write what the task copies in or back, nor read what it
//! copies back, and no other target construct may touch what the kernel writes on the
//! device (or write what it reads) unless `depend` clauses on both order them (a list item
//! of the same base, not both `in` nor both `inoutset`): a target
//! construct without `nowait` does not wait for earlier deferred tasks (OpenMP 5.2 §13.8,
//! §15.5). Kernels inside another construct than `target data` (a `parallel` region, a
//! `task`) are left alone: who waits for them is not followed here. A function that returns
//! while such a kernel may still run on global data passes the kernel on to its callers (one
//! level): `saxpy(); check();` with the kernel in `saxpy` and the read in `check`. Two kernels
//! whose accesses of the data lie certainly apart (and that do not copy it) do not race. The fix
//! is a `taskwait` before the use (before the racing kernel, or before the outermost host
//! loop around the use that the task does not start in).

use crate::semantics::symbolic::Poly;
use super::common::{finding, line};
use super::{Code, Context, Family, Rule};
use crate::check::env::{object_name, Object};
use crate::check::{Finding, Related, Severity};
use crate::ir::cfg::{BlockId, Cfg, NodeKind};
use crate::ir::{DirId, FuncId, Module, Span, Storage};
use crate::pragma::{ClauseKind, DependKind, Directive, DirectiveKind};
use crate::semantics::validity::{calls_in, node_events, RawEvent};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

pub(super) const RULE: Rule = Rule {
    code: Code::OMP110,
    name: "unfinished-nowait-kernel",
    family: Family::Correctness,
    severity: Severity::Error,
    summary: "Data a `nowait` kernel (or `target update`/`enter data`/`exit data` with `nowait`) copies or writes is used before a `taskwait` or barrier waits for it: a data race.",
    doc: include_str!("unfinished_nowait_kernel.md"),
    tags: &[],
};

fn has(d: &Directive, pick: fn(&ClauseKind) -> bool) -> bool {
    d.clauses.iter().any(|c| pick(&c.kind))
}

fn has_nowait(d: &Directive) -> bool {
    has(d, |k| matches!(k, ClauseKind::Nowait))
}

/// A construct that makes a deferred target task: a kernel, `target update`, `target enter
/// data` or `target exit data` with `nowait` (`target data` takes no `nowait`).
fn is_deferred(d: &Directive) -> bool {
    (d.kind.is_offload_kernel() || d.kind.is_data_mapping()) && has_nowait(d)
}

/// A construct's task dependences: (list item's base name, dependence type) per item, empty
/// without `depend`; None for ones omplens does not compare (`depobj`, an `iterator`), taken
/// to meet any other task's.
type Deps = Option<Vec<(String, DependKind)>>;

fn deps_of(d: &Directive) -> Deps {
    let mut out = Vec::new();
    for c in &d.clauses {
        if let ClauseKind::Depend {
            kind,
            iterator,
            items,
        } = &c.kind
        {
            if iterator.is_some() || *kind == DependKind::Depobj {
                return None;
            }
            out.extend(items.iter().map(|i| (i.base.name.clone(), *kind)));
        }
    }
    Some(out)
}

fn has_depend(deps: &Deps) -> bool {
    deps.as_ref().is_none_or(|d| !d.is_empty())
}

/// Whether task dependences order two tasks: a list item they share, not both `in` (nor both
/// `inoutset`). Sections of one base are taken to overlap; dependences omplens does not
/// compare meet any.
fn ordered(a: &Deps, b: &Deps) -> bool {
    // (Two `mutexinoutset` tasks are not ordered, but never run at once: no race either.)
    let meet = |x: DependKind, y: DependKind| {
        !(x == y && matches!(x, DependKind::In | DependKind::Inoutset))
    };
    match (a, b) {
        (Some(a), Some(b)) => a
            .iter()
            .any(|(x, kx)| b.iter().any(|(y, ky)| x == y && meet(*kx, *ky))),
        _ => has_depend(a) && has_depend(b),
    }
}

/// A directive after which no task generated before it is still running: `taskwait`,
/// `barrier`, the end of a `taskgroup`.
fn waits(kind: &NodeKind, module: &Module) -> bool {
    match kind {
        NodeKind::Standalone(d) => matches!(
            module.directive(*d).directive.kind,
            DirectiveKind::Taskwait | DirectiveKind::Barrier
        ),
        NodeKind::Exit(d) => module.directive(*d).directive.kind == DirectiveKind::Taskgroup,
        _ => false,
    }
}

/// A target construct without `nowait` whose dependences order it after a task with `deps`:
/// an undeferred task that the encountering thread waits for, itself ordered after the
/// earlier task, so the earlier task has finished when it ends.
fn ordered_wait(kind: &NodeKind, module: &Module, deps: &Deps) -> bool {
    let d = match kind {
        NodeKind::Enter(d) | NodeKind::Standalone(d) => *d,
        _ => return false,
    };
    let d = &module.directive(d).directive;
    (d.kind.is_offload_kernel() || d.kind.is_data_mapping())
        && !has_nowait(d)
        && ordered(deps, &deps_of(d))
}

/// Whether the walk from a task with dependences `deps` stops at this node: a wait, or an
/// undeferred target construct ordered after it.
fn stops(kind: &NodeKind, module: &Module, deps: &Deps) -> bool {
    waits(kind, module) || ordered_wait(kind, module, deps)
}

/// What an unfinished task uses: (objects it copies back, objects it copies in, objects it
/// reads on the device, objects it writes there).
#[derive(Clone, Default)]
struct Uses {
    out: BTreeSet<Object>,
    into: BTreeSet<Object>,
    dev_read: BTreeSet<Object>,
    dev_write: BTreeSet<Object>,
}

impl Uses {
    fn is_empty(&self) -> bool {
        self.out.is_empty()
            && self.into.is_empty()
            && self.dev_read.is_empty()
            && self.dev_write.is_empty()
    }

    /// How event `e` (not of the task itself, unless reached again around a loop) races with
    /// the task, if it does: "read" or "written", and what the task does with the object.
    fn conflict(&self, e: &RawEvent, ordered_on_device: bool) -> Option<(&'static str, &'static str)> {
        let (o, dev, r, w, _) = e;
        let did = if *w { "written" } else { "read" };
        if *dev {
            if ordered_on_device {
                return None;
            }
            if self.dev_write.contains(o) && (*r || *w) {
                return Some((did, "writes it on the device"));
            }
            if self.dev_read.contains(o) && *w {
                return Some((did, "reads it on the device"));
            }
            return None;
        }
        if self.out.contains(o) && (*r || *w) {
            return Some((did, "copies it back to the host"));
        }
        if self.into.contains(o) && *w {
            return Some((did, "copies it to the device"));
        }
        None
    }
}

/// A target construct of a function (kernel or data-mapping construct).
struct Target {
    span: Span,
    stmt: crate::ir::StmtId,
    deps: Deps,
    kernel: bool,
}

/// What the walks of one function ask about its constructs.
struct Constructs {
    /// Spans of the constructs other than `target data` and kernels (`parallel`, `task`,
    /// ...): who waits for a task made inside them is not followed.
    nests: Vec<Span>,
    targets: Vec<Target>,
    /// Host `task` constructs with their dependences: one ordered after the unfinished task
    /// starts only when that task has finished.
    tasks: Vec<(Span, Deps)>,
}

impl Constructs {
    fn of(module: &Module, fid: FuncId, g: &Cfg) -> Constructs {
        let func = module.function(fid);
        let mut c = Constructs {
            nests: Vec::new(),
            targets: Vec::new(),
            tasks: Vec::new(),
        };
        for n in g.blocks.iter().flat_map(|b| &b.nodes) {
            let (NodeKind::Enter(d) | NodeKind::Standalone(d)) = n.kind else {
                continue;
            };
            let dir = &module.directive(d).directive;
            let span = func.stmt(n.stmt).span;
            if dir.kind.is_offload_kernel() || dir.kind.is_data_mapping() {
                c.targets.push(Target {
                    span,
                    stmt: n.stmt,
                    deps: deps_of(dir),
                    kernel: dir.kind.is_offload_kernel(),
                });
            } else if matches!(n.kind, NodeKind::Enter(_)) {
                c.nests.push(span);
                if dir.kind == DirectiveKind::Task {
                    c.tasks.push((span, deps_of(dir)));
                }
            }
        }
        c
    }

    fn nested(&self, span: Span) -> bool {
        self.nests.iter().any(|s| contains(*s, span))
    }

    /// The kernel whose code holds `span`.
    fn kernel_around(&self, span: Span) -> Option<crate::ir::StmtId> {
        self.targets
            .iter()
            .find(|t| t.kernel && contains(t.span, span))
            .map(|t| t.stmt)
    }

    /// `span` lies in a target construct whose dependences order it after a task with
    /// `deps`.
    fn in_ordered_construct(&self, span: Span, deps: &Deps) -> bool {
        self.targets
            .iter()
            .any(|t| contains(t.span, span) && ordered(deps, &t.deps))
    }

    /// `span` lies in a `task` whose dependences order it after a task with `deps`
    /// (`task depend(in: a)` after `target ... depend(out: a) nowait`): it runs after that
    /// task has finished, copies back included.
    fn in_ordered_task(&self, span: Span, deps: &Deps) -> bool {
        self.tasks
            .iter()
            .any(|(t, d)| contains(*t, span) && has_depend(d) && ordered(deps, d))
    }
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Where an unfinished task comes from: a kernel of this function, or a call of a function
/// that returns with one of its kernels unfinished.
struct Origin {
    /// The kernel's directive (or the `target update`'s, `target enter/exit data`'s).
    kernel: Span,
    /// What it is, as messages say it: "kernel", "`target update`".
    label: String,
    /// The kernel's statement, when it is in this function.
    stmt: Option<crate::ir::StmtId>,
    /// The call through which it reaches this function (None: the kernel is here).
    call: Option<(Span, String)>,
    deps: Deps,
    uses: Uses,
}

pub fn findings(cx: &Context) -> Vec<Finding> {
    let module = cx.module;
    if !module.directives.iter().any(|d| is_deferred(&d.directive)) {
        return Vec::new();
    }
    let sums = crate::semantics::effects::summarize(module);
    let events: HashMap<FuncId, _> = cx
        .facts
        .cfgs
        .iter_enumerated()
        .filter_map(|(f, g)| g.as_ref().map(|g| (f, node_events(module, f, g, &sums))))
        .collect();
    // Kernels of each function that may still run when it returns, on global data.
    let mut leftover: HashMap<FuncId, Vec<Origin>> = HashMap::new();
    let mut out = Vec::new();
    for pass in 0..2 {
        for (fid, g) in cx.facts.cfgs.iter_enumerated() {
            let (Some(g), Some(evs)) = (g, events.get(&fid)) else {
                continue;
            };
            let constructs = Constructs::of(module, fid, g);
            for (at, origin) in origins(cx, fid, g, evs, &constructs, &leftover, pass) {
                let walk = walk(cx, fid, g, evs, &constructs, at, &origin);
                out.extend(walk.findings);
                // Still running when the function returns: its global data races in the
                // callers too.
                if pass == 0 && walk.reaches_exit && origin.call.is_none() {
                    let globals = |s: &BTreeSet<Object>| -> BTreeSet<Object> {
                        s.iter()
                            .filter(|o| matches!(o, Object::Var(v) if matches!(module.var(*v).storage, Storage::Global | Storage::StaticGlobal)))
                            .cloned()
                            .collect()
                    };
                    let uses = Uses {
                        out: globals(&origin.uses.out),
                        into: globals(&origin.uses.into),
                        dev_read: globals(&origin.uses.dev_read),
                        dev_write: globals(&origin.uses.dev_write),
                    };
                    if !uses.is_empty() {
                        leftover.entry(fid).or_default().push(Origin { uses, ..origin });
                    }
                }
            }
        }
    }
    out
}

/// The unfinished tasks that start in `fid`: its `nowait` kernels (pass 0), or its calls of
/// functions that return with one unfinished (pass 1). Each with the node after which the
/// task may be running: (block, index of the node after).
fn origins(
    cx: &Context,
    fid: FuncId,
    g: &Cfg,
    evs: &crate::ir::IndexVec<BlockId, Vec<Vec<RawEvent>>>,
    constructs: &Constructs,
    leftover: &HashMap<FuncId, Vec<Origin>>,
    pass: usize,
) -> Vec<((BlockId, usize), Origin)> {
    let module = cx.module;
    let func = module.function(fid);
    let mut out = Vec::new();
    for (b, block) in g.blocks.iter_enumerated() {
        for (i, n) in block.nodes.iter().enumerate() {
            if pass == 0 {
                let (d, standalone) = match n.kind {
                    NodeKind::Enter(d) => (d, false),
                    NodeKind::Standalone(d) => (d, true),
                    _ => continue,
                };
                let info = module.directive(d);
                if !is_deferred(&info.directive) {
                    continue;
                }
                let span = func.stmt(n.stmt).span;
                if constructs.nested(span) {
                    continue;
                }
                let exit = if standalone {
                    Some((b, i + 1))
                } else {
                    exit_of(g, d)
                };
                let Some(exit) = exit else { continue };
                out.push((
                    exit,
                    Origin {
                        kernel: info.directive.span,
                        label: if standalone {
                            format!("`{}`", info.directive.kind.name())
                        } else {
                            "kernel".into()
                        },
                        stmt: Some(n.stmt),
                        call: None,
                        deps: deps_of(&info.directive),
                        uses: kernel_uses(cx, fid, g, evs, d, span),
                    },
                ));
            } else {
                // A call inside a `parallel` region, a `task`, ...: who waits is that
                // construct's business, as for a kernel there.
                let span = func.stmt(n.stmt).span;
                if constructs.nested(span) {
                    continue;
                }
                for callee in calls_in(func, &n.exprs) {
                    for o in leftover.get(&callee).into_iter().flatten() {
                        out.push((
                            (b, i + 1),
                            Origin {
                                kernel: o.kernel,
                                label: o.label.clone(),
                                stmt: None,
                                call: Some((func.stmt(n.stmt).span, module.function(callee).name.clone())),
                                deps: o.deps.clone(),
                                uses: o.uses.clone(),
                            },
                        ));
                    }
                }
            }
        }
    }
    out
}

/// The node after the exit of directive `d`'s region.
fn exit_of(g: &Cfg, d: DirId) -> Option<(BlockId, usize)> {
    g.blocks.iter_enumerated().find_map(|(b, block)| {
        block
            .nodes
            .iter()
            .position(|n| n.kind == NodeKind::Exit(d))
            .map(|i| (b, i + 1))
    })
}

fn kernel_uses(
    cx: &Context,
    fid: FuncId,
    g: &Cfg,
    evs: &crate::ir::IndexVec<BlockId, Vec<Vec<RawEvent>>>,
    d: DirId,
    span: Span,
) -> Uses {
    let func = cx.module.function(fid);
    let mut u = Uses::default();
    for c in cx.facts.copies.iter().filter(|c| c.func == fid && c.dir == d) {
        if c.to_device {
            u.into.insert(c.object.clone());
        } else {
            u.out.insert(c.object.clone());
        }
        // A copy writes the device's copy (in) or reads it (back): kernels race with that
        // as with a kernel's own accesses.
        if cx.module.directive(d).directive.kind.is_data_mapping() {
            if c.to_device {
                u.dev_write.insert(c.object.clone());
            } else {
                u.dev_read.insert(c.object.clone());
            }
        }
    }
    for (b, block) in g.blocks.iter_enumerated() {
        for (i, n) in block.nodes.iter().enumerate() {
            let s = func.stmt(n.stmt).span;
            if !(span.start <= s.start && s.end <= span.end) {
                continue;
            }
            for (o, dev, r, w, _) in &evs[b][i] {
                if !*dev || !shared_on_device(cx.module, o, span, &u) {
                    continue;
                }
                if *r {
                    u.dev_read.insert(o.clone());
                }
                if *w {
                    u.dev_write.insert(o.clone());
                }
            }
        }
    }
    u
}

/// Whether a kernel's access of `o` is of memory other tasks can see: not a variable
/// declared inside the kernel (`span`), and not a scalar the kernel takes `firstprivate`
/// (one it does not copy: its own copy is made when the task is created).
fn shared_on_device(module: &Module, o: &Object, span: Span, u: &Uses) -> bool {
    let Object::Var(v) = o else { return true };
    let var = module.var(*v);
    if var.span.is_some_and(|d| span.start <= d.start && d.end <= span.end) {
        return false;
    }
    let ty = var.ty.referent();
    ty.is_pointer()
        || ty.is_array()
        || matches!(ty.kind, crate::ir::TypeKind::Record(_))
        || u.into.contains(o)
        || u.out.contains(o)
}

struct Walk {
    findings: Vec<Finding>,
    reaches_exit: bool,
}

/// Follows the paths from `at` until something waits for the task, reporting the first
/// racing use of each object.
fn walk(
    cx: &Context,
    fid: FuncId,
    g: &Cfg,
    evs: &crate::ir::IndexVec<BlockId, Vec<Vec<RawEvent>>>,
    constructs: &Constructs,
    at: (BlockId, usize),
    origin: &Origin,
) -> Walk {
    let module = cx.module;
    let func = module.function(fid);
    let mut reported: BTreeMap<Object, (Finding, BlockId, bool)> = BTreeMap::new();
    // Per other kernel and object: whether the two kernels' accesses of it lie apart (asked
    // again at each access of that kernel, and around loops).
    let mut apart_from: BTreeMap<(crate::ir::StmtId, Object), bool> = BTreeMap::new();
    let mut seen: HashSet<BlockId> = HashSet::new();
    let mut reaches_exit = false;
    let mut stack = vec![at];
    while let Some((b, start)) = stack.pop() {
        crate::budget::tick("nowait kernels");
        let block = g.block(b);
        let mut stopped = false;
        for i in start..block.nodes.len() {
            let n = &block.nodes[i];
            if stops(&n.kind, module, &origin.deps) {
                stopped = true;
                break;
            }
            let s = func.stmt(n.stmt).span;
            if constructs.in_ordered_task(s, &origin.deps) {
                continue;
            }
            let ordered = constructs.in_ordered_construct(s, &origin.deps);
            for e in &evs[b][i] {
                if reported.contains_key(&e.0) {
                    continue;
                }
                let Some((did, what)) = origin.uses.conflict(e, ordered) else {
                    continue;
                };
                // The kernel making a device access (none for a host access).
                let other = if e.1 {
                    constructs.kernel_around(s)
                } else {
                    None
                };
                if let (Some(k1), Some(k2)) = (origin.stmt, other) {
                    if *apart_from
                        .entry((k2, e.0.clone()))
                        .or_insert_with(|| apart(cx, fid, g, &e.0, (k1, &origin.uses), k2))
                    {
                        continue;
                    }
                }
                let name = object_name(module, &e.0);
                let side = if e.1 { "by a kernel" } else { "on the host" };
                let from = match &origin.call {
                    None => format!(
                        "the `nowait` {} at line {}",
                        origin.label,
                        line(cx, origin.kernel)
                    ),
                    Some((_, callee)) => format!(
                        "the `nowait` {} at line {} (in `{callee}`, which returns without waiting for it)",
                        origin.label,
                        line(cx, origin.kernel)
                    ),
                };
                // Two kernels race for certain only where they touch the same part of
                // the data (the same section in both); else they may write disjoint parts.
                let sure = !e.1 || {
                    match (origin.stmt, other, &e.0) {
                        (Some(k1), Some(k2), Object::Var(v)) => {
                            let sec = |k| {
                                crate::semantics::sections::accessed_section(module, fid, g, *v, &[k])
                            };
                            sec(k1).is_some_and(|a| sec(k2).is_some_and(|b| a == b))
                        }
                        _ => false,
                    }
                };
                let race = if sure {
                    "so this is a data race"
                } else {
                    "so the two may run at once (a data race where they touch the same elements)"
                };
                let mut x = finding(
                    RULE.code,
                    false,
                    s,
                    format!(
                        "`{name}` is {did} {side} here while {from} may still be running, and that {} {what}: nothing waits for it first (a `taskwait`), {race}",
                        origin.label
                    ),
                );
                x.related.push(Related {
                    span: origin.kernel,
                    message: format!("the `nowait` {}", origin.label),
                    header: None,
                });
                if let Some((call, _)) = &origin.call {
                    x.related.push(Related {
                        span: *call,
                        message: "the call that leaves the kernel running".into(),
                        header: None,
                    });
                }
                let waiting_point = if e.1 { other } else { Some(n.stmt) };
                if let Some(stmt) = waiting_point {
                    let stmt = outside_host_loops(g, b, at.0).unwrap_or(stmt);
                    let edits = crate::rewrite::render(
                        cx.source,
                        &[crate::rewrite::Insertion::Standalone {
                            anchor: crate::check::fixes::anchor(module, fid, stmt),
                            side: crate::rewrite::Side::Before,
                            directive: "taskwait".into(),
                            clauses: Vec::new(),
                        }],
                    );
                    x.fixes = crate::check::fixes::fix(
                        format!(
                            "wait for the `nowait` {} first (`#pragma omp taskwait` before line {})",
                            origin.label,
                            line(cx, func.stmt(stmt).span)
                        ),
                        edits,
                    );
                }
                reported.insert(e.0.clone(), (x, b, sure));
            }
        }
        if stopped {
            continue;
        }
        if b == g.exit || block.succs.is_empty() {
            reaches_exit = true;
        }
        for &s in &block.succs {
            if seen.insert(s) {
                stack.push((s, 0));
            }
        }
    }
    // An error where every path from the task's start reaches the use without a wait;
    // else a warning (the use or the race on some paths only).
    Walk {
        findings: reported
            .into_values()
            .map(|(mut f, x, sure)| {
                if sure && every_path_unwaited(module, g, at, x, &origin.deps) {
                    f.severity = RULE.severity;
                }
                f
            })
            .collect(),
        reaches_exit,
    }
}

/// Whether two different kernels touch certainly disjoint parts of `o`'s data (every section
/// one accesses lies apart from every section the other does: `a[1:n-2]` against `a[0]` and
/// `a[n-1]`) and neither copies it (an enclosing region maps it; a copy moves the whole
/// section): then they do not race on it. `first` is the `nowait` kernel with its uses.
fn apart(
    cx: &Context,
    fid: FuncId,
    g: &Cfg,
    o: &Object,
    (first, uses): (crate::ir::StmtId, &Uses),
    second: crate::ir::StmtId,
) -> bool {
    let Object::Var(v) = o else { return false };
    if uses.into.contains(o) || uses.out.contains(o) {
        return false;
    }
    if first == second {
        return apart_across_iterations(cx, fid, g, *v, first);
    }
    let func = cx.module.function(fid);
    let crate::ir::StmtKind::Omp { directive, .. } = func.stmt(second).kind else {
        return false;
    };
    if cx
        .facts
        .copies
        .iter()
        .any(|c| c.func == fid && c.dir == directive && c.object == *o)
    {
        return false;
    }
    let parts = |k| {
        crate::semantics::sections::SectionsIn::new(cx.module, fid, g, &[k]).accessed_parts(*v)
    };
    let (Some(a), Some(b)) = (parts(first), parts(second)) else {
        return false;
    };
    a.iter()
        .all(|x| b.iter().all(|y| crate::semantics::sections::disjoint(x, y)))
}

/// Whether the one `nowait` kernel `k`, launched again by each iteration of the host loop
/// around it, touches a part of `v`'s data that moves by at least its length from one
/// iteration to the next (`a[j*N + i]` for `i` in `0..N`): the launches of different
/// iterations touch disjoint parts. The section one launch touches has the same length in
/// every iteration, and its start moves a constant step each time.
fn apart_across_iterations(
    cx: &Context,
    fid: FuncId,
    g: &Cfg,
    v: crate::ir::VarId,
    k: crate::ir::StmtId,
) -> bool {
    let func = cx.module.function(fid);
    let span = func.stmt(k).span;
    // The innermost host loop holding the kernel, and the variable it counts.
    let Some(l) = g
        .loops
        .iter()
        .filter(|l| {
            l.exec != crate::ir::cfg::Exec::Device && {
                let s = func.stmt(l.stmt).span;
                s.start <= span.start && span.end <= s.end && s != span
            }
        })
        .min_by_key(|l| {
            let s = func.stmt(l.stmt).span;
            s.end - s.start
        })
    else {
        return false;
    };
    let crate::ir::StmtKind::For(fl) = &func.stmt(l.stmt).kind else {
        return false;
    };
    let Some(iv) = fl.induction else { return false };
    let name = cx.module.var(iv).name.as_str();
    // (The hull of what one launch touches; for a fixed-size array, its elements.)
    let Some(part) = crate::semantics::sections::accessed_elements(cx.module, fid, g, v, &[k])
    else {
        return false;
    };
    let part = &part;
    if part.length.contains_atom(name) {
        return false;
    }
    let next = part
        .lower
        .subst(name, &Poly::atom(name).add(&Poly::constant(1)));
    let step = next.sub(&part.lower);
    step.sub(&part.length).as_const().is_some_and(|d| d >= 0) && step.as_const().is_some()
}

/// The outermost host loop around block `b` that does not hold `task` (the block the task
/// starts in), if any: a wait before it serves every iteration.
fn outside_host_loops(g: &Cfg, b: BlockId, task: BlockId) -> Option<crate::ir::StmtId> {
    loops_without(g, b, task)
        .into_iter()
        .rfind(|l| g.loops[*l].exec != crate::ir::cfg::Exec::Device)
        .map(|l| g.loops[l].stmt)
}

/// The loops around block `b` (innermost first) that do not also hold block `task`.
fn loops_without(g: &Cfg, b: BlockId, task: BlockId) -> Vec<crate::ir::cfg::LoopId> {
    let chain = |b: BlockId| -> Vec<crate::ir::cfg::LoopId> {
        g.block(b)
            .loop_id
            .map(|l| g.loop_chain(l).collect())
            .unwrap_or_default()
    };
    let around_task = chain(task);
    chain(b)
        .into_iter()
        .filter(|l| !around_task.contains(l))
        .collect()
}

/// Whether every path from `at` reaches block `x` and none passes a wait before it: the
/// paths that avoid `x` neither end nor wait.
fn every_path_unwaited(
    module: &Module,
    g: &Cfg,
    at: (BlockId, usize),
    x: BlockId,
    deps: &Deps,
) -> bool {
    if at.0 == x {
        // The use follows in the task's own block, and the walk met no wait before it.
        return true;
    }
    // A use in the body of a loop that does not hold the task is reached where the loop is.
    let x = loops_without(g, x, at.0)
        .last()
        .map_or(x, |l| g.loops[*l].header);
    if at.0 == x {
        return true;
    }
    let mut seen: HashSet<BlockId> = HashSet::new();
    let mut stack = vec![at];
    while let Some((b, start)) = stack.pop() {
        let block = g.block(b);
        if block.nodes[start.min(block.nodes.len())..]
            .iter()
            .any(|n| stops(&n.kind, module, deps))
        {
            return false;
        }
        if b == g.exit || block.succs.is_empty() {
            return false;
        }
        for &s in &block.succs {
            if s != x && seen.insert(s) {
                stack.push((s, 0));
            }
        }
    }
    true
}
