//! The synthesis proper: one function at a time.
//!
//! 1. Seeds: the function's outermost kernels, and calls to functions whose data accesses all
//!    happen in their kernels ("device wrappers"); keeping such a callee's data on the device
//!    across calls made in a loop is the caller's job.
//! 2. Region: the siblings of the seeds' lowest common block that hold a seed, widened to the
//!    outermost loop around them (the scope tree keeps the inserted braces valid).
//! 3. Per object the kernels touch: `from` when the host may read it after the region (or it
//!    escapes the function), `to` when the device copy is live at the region's entry (read
//!    before anything overwrites it), `update from` before each stale host read inside the
//!    region and `update to` after each host write the device later needs; both moved out of
//!    every loop that does not change the data on the other side.
//! 4. Kernels: `firstprivate` for the scalars they only read, `map(tofrom:)` for those they write.

use super::extent::{self, Extent};
use super::nodes::NodeGraph;
use super::*;
use crate::ir::cfg::{self, BlockId, Cfg, Exec, NodeKind};
use crate::ir::stmt_tree::{contains, is_loop, StmtTree};
use crate::ir::{device, BindingTarget, IndexVec, Module, StmtId, StmtKind, Storage, VarId};
use crate::semantics::effects::{self, Summary};
use crate::semantics::sections::Section;
use crate::semantics::symbolic::Poly;
use crate::semantics::validity::{self, Dependency, Direction, RawEvent};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Plans the mappings of every analysed host function of `module`.
pub fn plan(module: &Module) -> Plan {
    let execs = device::classify(module);
    let cfgs = cfg::build_all(module, &execs);
    let sums = effects::summarize_with(module, &cfgs);
    let wrappers: IndexVec<FuncId, bool> = module
        .functions
        .indices()
        .map(|i| is_device_wrapper(module, i, &cfgs, &sums))
        .collect();
    let mut out = Plan::default();
    for (i, f) in module.functions.iter_enumerated() {
        let Some(g) = &cfgs[i] else { continue };
        if f.not_analysed.is_some() || !f.in_main_file || g.exec == Exec::Device {
            continue;
        }
        // Statements included from a header cannot be rewritten, and a region omplens
        // writes has no `device` clause: nothing is planned there, and the function's own
        // constructs stay as written.
        let not_rewritten = match f.included_headers.first() {
            Some(first) => Some(format!(
                "its body includes statements of `{}` (an `#include` inside the function), \
                 which omplens does not edit",
                crate::ir::file_name(first)
            )),
            None => super::device_named(module, i).map(|device| {
                format!(
                    "its constructs pick a device (`{device}`), and a region omplens writes \
                     would map on the default device"
                )
            }),
        };
        if let Some(why) = not_rewritten {
            if let Some(span) = f.name_span.or(f.span) {
                out.diagnostics.push(PlanDiagnostic {
                    unmapped: None,
                    severity: crate::plan::Severity::Warning,
                    span,
                    message: format!("`{}` is not rewritten: {why}", f.name),
                });
            }
            continue;
        }
        let ctx = FnCtx::new(module, i, &cfgs, &sums, &wrappers);
        if let Some(fp) = ctx.plan(&mut out.diagnostics) {
            out.functions.push(fp);
        }
    }
    out.diagnostics.sort_by_key(|d| (d.span.start, d.severity));
    out
}

use crate::ir::kernel_stmts;

/// The data a kernel's clauses would name, for a message: `a`, `b`.
fn kernel_clause_names(k: &crate::plan::KernelClauses) -> String {
    let mut names: Vec<String> = k.maps.iter().map(|m| format!("`{}`", m.item)).collect();
    names.extend(k.written_scalars.iter().map(|s| format!("`{s}`")));
    names.extend(k.firstprivate.iter().map(|s| format!("firstprivate `{s}`")));
    names.extend(
        k.device_pointers
            .iter()
            .map(|s| format!("is_device_ptr `{s}`")),
    );
    names.join(", ")
}

/// A function whose effects on data it shares with callers all happen inside its kernels:
/// a caller may keep that data on the device around its calls.
fn is_device_wrapper(
    module: &Module,
    id: FuncId,
    cfgs: &IndexVec<FuncId, Option<Cfg>>,
    sums: &IndexVec<FuncId, Summary>,
) -> bool {
    let f = module.function(id);
    if cfgs[id].is_none() || f.not_analysed.is_some() {
        return false;
    }
    let s = &sums[id];
    let effects = s
        .params
        .iter()
        .chain(s.globals.values())
        .chain(Some(&s.this));
    let mut any_kernel = false;
    for e in effects {
        let on_device = e.kernel_read || e.kernel_write;
        any_kernel |= on_device;
        if on_device && (e.here_read || e.here_write) {
            return false;
        }
    }
    any_kernel
}

struct FnCtx<'a> {
    module: &'a Module,
    id: FuncId,
    func: &'a crate::ir::Function,
    tree: StmtTree<'a>,
    g: &'a Cfg,
    cfgs: &'a IndexVec<FuncId, Option<Cfg>>,
    ng: NodeGraph<'a>,
    /// Events per flattened node.
    events: Vec<Vec<RawEvent>>,
    deps: Vec<Dependency>,
    dep_node: Vec<Option<usize>>,
    wrappers: &'a IndexVec<FuncId, bool>,
    /// Pointers declared again inside as an outer pointer's view (`effects::shadowed_aliases`).
    shadowed: std::collections::HashMap<VarId, VarId>,
    /// Local pointers to device memory only (`allocation::device_allocations`): never mapped,
    /// `is_device_ptr` on the kernels that use them.
    device: std::collections::HashSet<VarId>,
}

/// The region chosen for a function: sibling statements `range` (one or more).
struct Region {
    range: Vec<StmtId>,
    span: Span,
    /// Per flattened node: whether it lies in the region.
    nodes: Vec<bool>,
}

impl<'a> FnCtx<'a> {
    fn new(
        module: &'a Module,
        id: FuncId,
        cfgs: &'a IndexVec<FuncId, Option<Cfg>>,
        sums: &'a IndexVec<FuncId, Summary>,
        wrappers: &'a IndexVec<FuncId, bool>,
    ) -> FnCtx<'a> {
        let func = module.function(id);
        let g = cfgs[id].as_ref().expect("planned functions have a CFG");
        let ng = NodeGraph::new(g);
        let raw = validity::node_events(module, id, g, sums);
        let deps = validity::dependencies_from_events(module, id, g, &raw);
        let events: Vec<Vec<RawEvent>> = ng
            .at
            .iter()
            .map(|&(b, k)| k.map(|k| raw[b][k].clone()).unwrap_or_default())
            .collect();
        let index: HashMap<(BlockId, usize), usize> = ng
            .at
            .iter()
            .enumerate()
            .filter_map(|(i, &(b, k))| k.map(|k| ((b, k), i)))
            .collect();
        let dep_node = deps
            .iter()
            .map(|d| index.get(&(d.block, d.node)).copied())
            .collect();
        FnCtx {
            module,
            id,
            func,
            tree: StmtTree::new(func),
            g,
            cfgs,
            ng,
            events,
            deps,
            dep_node,
            wrappers,
            shadowed: crate::semantics::effects::shadowed_aliases(module, func),
            device: crate::semantics::allocation::device_allocations(module, func),
        }
    }

    /// The line of `offset` as a message says it (a marker in a piece of a file, resolved
    /// when the plan is mapped back: [`crate::ir::Module::line_ref`]).
    fn line(&self, offset: u32) -> String {
        self.module.line_ref(offset)
    }

    fn anchor(&self, mut s: StmtId) -> Anchor {
        // The statement a directive governs cannot be separated from it (`#pragma omp
        // parallel for` then the loop): code goes before the directive.
        while let Some(p) = self.tree.parent(s) {
            match self.tree.kind(p) {
                StmtKind::Omp { body: Some(b), .. } if *b == s => s = p,
                _ => break,
            }
        }
        Anchor {
            stmt: self.tree.span(s),
            in_compound: self.tree.in_compound(s),
        }
    }

    fn node_stmt_span(&self, i: usize) -> Option<Span> {
        self.ng.node(i).map(|n| self.tree.span(n.stmt))
    }

    fn in_span(&self, i: usize, span: Span) -> bool {
        self.node_stmt_span(i).is_some_and(|s| contains(span, s))
    }

    fn plan(&self, diags: &mut Vec<PlanDiagnostic>) -> Option<FunctionPlan> {
        let kernels = kernel_stmts(self.module, self.func);
        // Calls to device wrappers made on the host.
        let mut seeds: Vec<StmtId> = kernels.clone();
        let mut hosted: BTreeSet<FuncId> = BTreeSet::new();
        for (_, n) in self.g.nodes() {
            if n.exec != Exec::Host {
                continue;
            }
            for c in validity::calls_in(self.func, &n.exprs) {
                if c != self.id && self.wrappers[c] {
                    hosted.insert(c);
                    seeds.push(n.stmt);
                }
            }
        }
        if seeds.is_empty() {
            return None;
        }
        seeds.sort_by_key(|s| self.tree.span(*s).start);
        seeds.dedup();
        let mut fp = FunctionPlan {
            func: self.id,
            name: self.func.qualified_name.clone(),
            region: None,
            updates: Vec::new(),
            kernels: Vec::new(),
        };
        // Kernels whose data the programmer maps already need no region.
        seeds.retain(|&s| {
            let alone = self.region_over(vec![s]);
            !self.objects(&alone, &kernels, &mut Vec::new()).is_empty()
        });
        if seeds.is_empty() {
            fp.kernels = kernels
                .iter()
                .map(|k| self.kernel_clauses(*k))
                .filter(|kc| !kc.is_empty())
                .collect();
            return (!fp.kernels.is_empty()).then_some(fp);
        }
        let region = self.widened_past_uses(self.region(&seeds));
        let lone_kernel = region.range.len() == 1
            && seeds.len() == 1
            && kernels.first() == Some(&region.range[0]);
        // A variable declared among the region's statements and used after them (braces
        // would end its scope too early), or a `return` among them (it may not leave a
        // structured block): the region is written with `enter data` before it and `exit
        // data` after it and before each such `return`.
        let returns = self.returns_in(&region);
        let unstructured = !returns.is_empty() || self.declared_used_after(&region).is_some();
        let region_ok = self.check_scopes(&region, diags);
        let mut items = Vec::new();
        if region_ok {
            for object in self.objects(&region, &kernels, diags) {
                if let Some((item, updates)) = self.decide(&object, &region, &seeds, diags) {
                    items.push(item);
                    fp.updates.extend(updates);
                }
            }
        }
        unify_swapped(self.module, self.func, &mut items);
        fp.updates
            .sort_by_key(|u| (u.anchor.stmt.start, u.side == Side::After));
        fp.updates.dedup();
        let mut lone_maps = Vec::new();
        if lone_kernel {
            lone_maps = std::mem::take(&mut items);
        } else if !items.is_empty() {
            fp.region = Some(RegionPlan {
                first: self.anchor(region.range[0]),
                last: self.anchor(*region.range.last().expect("non-empty range")),
                items,
                hosted_calls: hosted.into_iter().collect(),
                unstructured,
                exits: returns
                    .iter()
                    .map(|r| self.anchor(self.before_frees(*r)))
                    .collect(),
            });
        }
        for k in &kernels {
            let mut kc = self.kernel_clauses(*k);
            if lone_kernel {
                kc.maps = std::mem::take(&mut lone_maps);
            }
            if !kc.is_empty() {
                let span = self.module.directive(kc.directive).directive.span;
                if self.module.touches_macro_text(Span {
                    start: span.end,
                    end: span.end,
                }) {
                    // Clauses cannot be appended to what a macro or `_Pragma` writes.
                    diags.push(PlanDiagnostic {
                        unmapped: None,
                        severity: Severity::Warning,
                        span,
                        message: format!(
                            "this kernel is written through a macro or `_Pragma`: omplens does \
                             not rewrite it; the clauses it needs ({}) are left to the \
                             programmer",
                            kernel_clause_names(&kc)
                        ),
                    });
                    continue;
                }
                fp.kernels.push(kc);
            }
        }
        (fp.region.is_some() || !fp.updates.is_empty() || !fp.kernels.is_empty()).then_some(fp)
    }

    /// Sibling statements holding all seeds, widened to the outermost loop around them.
    fn region(&self, seeds: &[StmtId]) -> Region {
        let lca = seeds[1..]
            .iter()
            .try_fold(seeds[0], |acc, s| self.tree.common_ancestor(acc, *s))
            .unwrap_or(seeds[0]);
        let mut range = match self.tree.kind(lca) {
            StmtKind::Compound(children) if !seeds.contains(&lca) => {
                let holds = |c: &StmtId| {
                    let span = self.tree.span(*c);
                    seeds.iter().any(|s| contains(span, self.tree.span(*s)))
                };
                let first = children.iter().position(holds);
                let last = children.iter().rposition(holds);
                match (first, last) {
                    (Some(a), Some(b)) => children[a..=b].to_vec(),
                    _ => vec![lca],
                }
            }
            _ => vec![lca],
        };
        // Out to the outermost loop, but not past the declaration of data the kernels use
        // (arrays allocated in each iteration of an outer loop: the region goes inside it).
        let loops: Vec<StmtId> = self
            .tree
            .ancestors(range[0])
            .skip(1)
            .filter(|s| is_loop(self.tree.kind(*s)))
            .collect();
        let kernels = kernel_stmts(self.module, self.func);
        for outer in loops {
            if self.declares_device_data(outer, &kernels) {
                break;
            }
            range = vec![outer];
        }
        self.region_over(range)
    }

    /// Whether statement `s` declares (outside any kernel) an array or pointer of this
    /// function that kernels inside `s` use, or sets such a pointer (`a = malloc(...)` in
    /// each iteration): a region around `s` could not map it (its clause would name the
    /// storage the pointer held before).
    fn declares_device_data(&self, s: StmtId, kernels: &[StmtId]) -> bool {
        let span = self.tree.span(s);
        // Pointers set here outside the kernels, other than by copying another pointer
        // (`a = b;` in a swap is the swap groups' business).
        let in_kernel = |e: Span| kernels.iter().any(|k| contains(self.tree.span(*k), e));
        let set_here: Vec<VarId> = self
            .func
            .exprs
            .iter()
            .filter_map(|e| match &e.kind {
                crate::ir::ExprKind::Assign(None, lhs, rhs)
                    if contains(span, e.span)
                        && !in_kernel(e.span)
                        && self.func.var_through_casts(*rhs).is_none() =>
                {
                    match self.func.expr(*lhs).kind {
                        crate::ir::ExprKind::Var(v) if self.module.var(v).ty.is_pointer() => {
                            Some(v)
                        }
                        _ => None,
                    }
                }
                _ => None,
            })
            .collect();
        let sets_device_pointer = self.events.iter().enumerate().any(|(i, evs)| {
            self.in_span(i, span)
                && evs
                    .iter()
                    .any(|(o, dev, ..)| matches!(o, Object::Var(v) if *dev && set_here.contains(v)))
        });
        if sets_device_pointer {
            return true;
        }
        self.events.iter().enumerate().any(|(i, evs)| {
            self.in_span(i, span)
                && evs.iter().any(|(o, dev, ..)| {
                    let Object::Var(v) = o else { return false };
                    let var = self.module.var(*v);
                    let Some(decl) = var.span else { return false };
                    *dev && var.function == Some(self.id)
                        && !var.declare_target
                        && !var.ty.referent().is_scalar()
                        && contains(span, decl)
                        && !kernels.iter().any(|k| contains(self.tree.span(*k), decl))
                })
        })
    }

    /// `region` grown over the sibling statements that follow it up to the last use of a
    /// variable declared in it (`auto start = now(); kernels...; auto end = now();` then
    /// `printf(end - start)`): braces around the region would end their scope too early. The
    /// region stays as it is when a use lies outside the enclosing block (a `return`'s value,
    /// a later block), which [`Self::check_scopes`] then reports.
    fn widened_past_uses(&self, region: Region) -> Region {
        let Some(parent) = self.tree.parent(region.range[0]) else {
            return region;
        };
        let StmtKind::Compound(children) = self.tree.kind(parent) else {
            return region;
        };
        let Some(first) = children.iter().position(|c| *c == region.range[0]) else {
            return region;
        };
        let mut last = first + region.range.len() - 1;
        if children.get(last) != region.range.last() {
            return region;
        }
        loop {
            let end = self.tree.span(children[last]).end;
            let declared: Vec<VarId> = children[first..=last]
                .iter()
                .filter_map(|c| match self.tree.kind(*c) {
                    StmtKind::Decl(ds) => Some(ds.iter().map(|(v, _)| *v)),
                    _ => None,
                })
                .flatten()
                .collect();
            let last_use = (0..self.ng.len())
                .filter_map(|i| {
                    let n = self.ng.node(i)?;
                    let span = self.tree.span(n.stmt);
                    (span.start >= end
                        && n.accesses.iter().any(|a| {
                            matches!(a.root, crate::ir::access::Root::Var(v) if declared.contains(&v))
                        }))
                    .then_some(span)
                })
                .max_by_key(|s| s.start);
            let Some(use_span) = last_use else { break };
            let Some(k) = children
                .iter()
                .position(|c| contains(self.tree.span(*c), use_span))
            else {
                return region;
            };
            if k <= last {
                break;
            }
            // (A `return` cannot be inside a region: the region stops before it, and is
            // written with `enter`/`exit data`.)
            if matches!(self.tree.kind(children[k]), StmtKind::Return(_)) {
                last = last.max(k - 1);
                break;
            }
            last = k;
        }
        if last + 1 == first + region.range.len() {
            return region;
        }
        self.region_over(children[first..=last].to_vec())
    }

    /// The region made of the sibling statements `range`.
    fn region_over(&self, range: Vec<StmtId>) -> Region {
        let span = Span {
            start: self.tree.span(range[0]).start,
            end: self.tree.span(*range.last().expect("non-empty")).end,
        };
        let mut nodes: Vec<bool> = (0..self.ng.len())
            .map(|i| self.ng.node(i).is_none() || self.in_span(i, span))
            .collect();
        // An empty block has no statement to place: it is inside the region when every path
        // through it is (the join after a loop that ends a loop body, for one). Start from
        // "inside" and drop those with a way in or out of the region, until none changes.
        let stand_ins: Vec<usize> = (0..self.ng.len())
            .filter(|&i| self.ng.node(i).is_none())
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &i in &stand_ins {
                let inside = nodes[i]
                    && !self.ng.preds[i].is_empty()
                    && !self.ng.succs[i].is_empty()
                    && self.ng.preds[i].iter().all(|&p| nodes[p])
                    && self.ng.succs[i].iter().all(|&s| nodes[s]);
                if nodes[i] != inside {
                    nodes[i] = inside;
                    changed = true;
                }
            }
        }
        Region { range, span, nodes }
    }

    /// A variable declared among the region's statements (at its top level) and used after
    /// it, with that use.
    fn declared_used_after(&self, region: &Region) -> Option<(VarId, StmtId, Span)> {
        for &s in &region.range {
            let StmtKind::Decl(decls) = self.tree.kind(s) else {
                continue;
            };
            for (v, _) in decls {
                let used_after = (0..self.ng.len()).find_map(|i| {
                    let n = self.ng.node(i)?;
                    let span = self.tree.span(n.stmt);
                    (span.start >= region.span.end
                        && n.accesses
                            .iter()
                            .any(|a| a.root == crate::ir::access::Root::Var(*v)))
                    .then_some(span)
                });
                if let Some(use_span) = used_after {
                    return Some((*v, s, use_span));
                }
            }
        }
        None
    }

    /// Where the `exit data` for the `return` statement `ret` goes: before it, or before the
    /// `free`/`delete` statements just before it in its block (unmapping after the host
    /// memory is freed would name freed memory).
    fn before_frees(&self, ret: StmtId) -> StmtId {
        let Some(parent) = self.tree.parent(ret) else {
            return ret;
        };
        let StmtKind::Compound(children) = self.tree.kind(parent) else {
            return ret;
        };
        let Some(at) = children.iter().position(|c| *c == ret) else {
            return ret;
        };
        let frees = children[..at]
            .iter()
            .rev()
            .take_while(|c| self.frees_memory(**c))
            .count();
        children[at - frees]
    }

    /// Whether statement `s` is `free(p);` or `delete[] p;` (`delete p;`).
    fn frees_memory(&self, s: StmtId) -> bool {
        let StmtKind::Expr(e) = self.tree.kind(s) else {
            return false;
        };
        match &self.func.expr(*e).kind {
            crate::ir::ExprKind::Call {
                callee: crate::ir::Callee::Direct(f),
                ..
            } => self.module.function(*f).name == "free",
            crate::ir::ExprKind::Other { what, .. } => what == "CXXDeleteExpr",
            _ => false,
        }
    }

    /// The `return` statements among the region's statements (outside its kernels).
    fn returns_in(&self, region: &Region) -> Vec<StmtId> {
        let mut out = Vec::new();
        let mut stack = region.range.clone();
        while let Some(s) = stack.pop() {
            match self.tree.kind(s) {
                StmtKind::Return(_) => out.push(s),
                StmtKind::Omp { directive, .. }
                    if self
                        .module
                        .directive(*directive)
                        .directive
                        .kind
                        .is_offload_kernel() => {}
                k => stack.extend(crate::ir::stmt_children(k)),
            }
        }
        out.sort_by_key(|s| self.tree.span(*s).start);
        out
    }

    /// No `goto` may leave a region (structured or not: `exit data` would be skipped; a
    /// `return` gets an `exit data` of its own, see [`Self::returns_in`]).
    fn check_scopes(&self, region: &Region, diags: &mut Vec<PlanDiagnostic>) -> bool {
        let mut ok = true;
        let start_line = self.line(region.span.start);
        let end_line = self.line(region.span.end);
        let mut stack = region.range.clone();
        while let Some(s) = stack.pop() {
            match self.tree.kind(s) {
                StmtKind::Goto(_) => {
                    ok = false;
                    diags.push(PlanDiagnostic {
                        unmapped: None,
                        severity: Severity::Error,
                        span: self.tree.span(s),
                        message: format!(
                            "this `goto` would leave the data region omplens would insert at lines {}-{} of `{}`; OpenMP forbids branching out of it: restructure the code so the kernels and the loops around them have no `goto`",
                            start_line, end_line, self.func.name
                        ),
                    });
                }
                k => stack.extend(crate::ir::stmt_children(k)),
            }
        }
        ok
    }

    /// Objects the region must map: data the kernels (or hosted calls) use on the device that
    /// is neither a scalar (handled on each kernel), nor declared inside a kernel, nor mapped
    /// by the programmer already.
    fn objects(
        &self,
        region: &Region,
        kernels: &[StmtId],
        diags: &mut Vec<PlanDiagnostic>,
    ) -> Vec<Object> {
        let programmer = self.programmer_mapped();
        let mut out: Vec<Object> = Vec::new();
        for (i, evs) in self.events.iter().enumerate() {
            if !region.nodes[i] {
                continue;
            }
            for (o, dev, ..) in evs {
                if *dev && !out.contains(o) {
                    out.push(o.clone());
                }
            }
        }
        out.sort();
        // Pointers into one allocation under several names (`Tree *trees = (Tree *) data;`
        // and `Row *rows = (Row *) data;`): the synthesis tracks copies per name, so a host
        // write through one name would leave the device copy made under another stale.
        let shared = self.shared_data(region);
        out.retain(|o| match o {
            Object::Member(m) => !programmer.1.contains(m),
            // (The checker's alone: the synthesis follows whole variables.)
            Object::Field(..) => true,
            // Device memory (`omp_target_alloc`) has no host copy to map: the kernels use its
            // address as it is.
            Object::Var(v) if self.device.contains(v) => false,
            Object::Var(v) if shared.iter().any(|(x, ..)| x == v) => {
                let Some((_, other, root)) = shared.iter().find(|(x, ..)| x == v) else {
                    return true;
                };
                let var = self.module.var(*v);
                diags.push(PlanDiagnostic {
                    unmapped: None,
                    severity: Severity::Error,
                    span: var.span.unwrap_or(region.span),
                    message: format!(
                        "{} in the data region omplens would insert at line {} of `{}`: omplens tracks copies under one name only, and a host write under one name would leave the device copy made under the other stale; map it by hand",
                        if other == root {
                            format!("`{}` points into the data of `{}`, which is also used under its own name", var.name, self.module.var(*root).name)
                        } else {
                            format!("`{}` and `{}` both point into the data of `{}`", var.name, self.module.var(*other).name, self.module.var(*root).name)
                        },
                        self.line(region.span.start),
                        self.func.name,
                    ),
                });
                false
            }
            Object::Var(v) => {
                let var = self.module.var(*v);
                let ty = var.ty.referent();
                if var.declare_target || ty.is_scalar() || programmer.0.contains(v) {
                    return false;
                }
                // A variable of a template's dependent type (`IdxType n`) that no code
                // indexes, dereferences or takes a member of is a value: as a scalar, each
                // kernel gets it firstprivate.
                if matches!(ty.kind, crate::ir::TypeKind::Dependent) && used_as_value_only(self.func, *v) {
                    return false;
                }
                let Some(decl) = var.span else { return true };
                if kernels
                    .iter()
                    .any(|k| contains(self.tree.span(*k), decl))
                {
                    return false;
                }
                if var.function == Some(self.id) && contains(region.span, decl) {
                    diags.push(PlanDiagnostic {
                        unmapped: None,
                        severity: Severity::Error,
                        span: decl,
                        message: format!(
                            "`{}` (line {}) is used by kernels but declared inside the data region omplens would insert at line {} of `{}`; move its declaration before line {} so it can be mapped",
                            var.name,
                            self.line(decl.start),
                            self.line(region.span.start),
                            self.func.name,
                            self.line(region.span.start)
                        ),
                    });
                    return false;
                }
                true
            }
        });
        out
    }

    /// Variables the region's events name (on the host or the device) that point into the
    /// same data as another one it names, a local pointer set from the other (through casts
    /// and offsets): (the variable, the other, the data's root variable).
    fn shared_data(&self, region: &Region) -> Vec<(VarId, VarId, VarId)> {
        let aliases = crate::semantics::effects::local_aliases(self.module, self.func, |_| false);
        let roots =
            |v: VarId| -> Vec<VarId> { aliases.roots.get(&v).cloned().unwrap_or_else(|| vec![v]) };
        let mut named: Vec<VarId> = Vec::new();
        let mut on_host: Vec<VarId> = Vec::new();
        for (i, evs) in self.events.iter().enumerate() {
            if !region.nodes[i] {
                continue;
            }
            for (o, dev, ..) in evs {
                if let Object::Var(v) = o {
                    if !named.contains(v) {
                        named.push(*v);
                    }
                    if !dev && !on_host.contains(v) {
                        on_host.push(*v);
                    }
                }
            }
        }
        // Pointers that may hold either of several buffers (`r`, `t` swapped in a loop) are
        // the swap groups' business: only one-root copies are compared here. Kernels alone
        // using slices of one buffer under several names (`Q = out; K = out + n;`) are fine:
        // the names matter once the host touches the data, or the buffer's own name is used
        // beside them (its section would overlap theirs).
        let mut out = Vec::new();
        for &v in &named {
            let [root] = roots(v)[..] else { continue };
            let family: Vec<VarId> = named
                .iter()
                .copied()
                .filter(|&w| w == root || roots(w)[..] == [root])
                .collect();
            let touched = named.contains(&root) || family.iter().any(|w| on_host.contains(w));
            let other = family.iter().find(|&&w| w != v);
            if let (true, Some(&w)) = (touched, other) {
                out.push((v, w, root));
            }
        }
        out
    }

    /// Variables and members named in any clause of the function's directives (besides
    /// reductions and loop-privatization): the programmer's own mappings are left alone.
    fn programmer_mapped(&self) -> (Vec<VarId>, Vec<String>) {
        let mut vars = Vec::new();
        let mut members = Vec::new();
        for d in &self.module.directives {
            if d.function != Some(self.id) {
                continue;
            }
            let mut names = Vec::new();
            for c in &d.directive.clauses {
                use crate::pragma::ClauseKind as K;
                if matches!(
                    c.kind,
                    K::Reduction { .. } | K::Private(_) | K::Lastprivate { .. }
                ) {
                    continue;
                }
                names.extend(c.kind.items().iter().map(|it| it.base.name.clone()));
            }
            for b in &d.bindings {
                if !names.contains(&b.name) {
                    continue;
                }
                match b.target {
                    BindingTarget::Var(v) => vars.push(v),
                    BindingTarget::Member => members.push(b.name.clone()),
                    _ => {}
                }
            }
        }
        (vars, members)
    }

    fn name_of(&self, o: &Object) -> String {
        match o {
            Object::Var(v) => self.module.var(*v).name.clone(),
            Object::Member(m) => format!("this->{m}"),
            Object::Field(v, m) => format!("{}.{m}", self.module.var(*v).name),
        }
    }

    /// Map type and updates for one object.
    fn decide(
        &self,
        o: &Object,
        region: &Region,
        seeds: &[StmtId],
        diags: &mut Vec<PlanDiagnostic>,
    ) -> Option<(MappedItem, Vec<PlannedUpdate>)> {
        let name = self.name_of(o);
        let in_r = &region.nodes;
        let evs = |i: usize| self.events[i].iter().filter(move |e| &e.0 == o);
        // A call that touches the object both on the host and in its own kernels manages its
        // own mapping, which would not copy inside this region.
        if let Some(i) =
            (0..self.ng.len()).find(|&i| in_r[i] && evs(i).any(|e| e.1) && evs(i).any(|e| !e.1))
        {
            let span = self.node_stmt_span(i).unwrap_or(region.span);
            diags.push(PlanDiagnostic {
                unmapped: None,
                severity: Severity::Warning,
                span,
                message: format!(
                    "`{name}` is used both on the host and on the device by the call at line {}; omplens leaves its mapping in `{}` to that callee and to you",
                    self.line(span.start),
                    self.func.name
                ),
            });
            return None;
        }
        // Names declared inside the region are not visible at its map clauses (but a pointer
        // declared again inside as the same view as an outer one of its name is that one).
        let hidden: BTreeSet<String> = self
            .func
            .stmts
            .iter()
            .filter(|st| region.span.start <= st.span.start && st.span.end <= region.span.end)
            .flat_map(|st| match &st.kind {
                StmtKind::Decl(ds) => ds.iter().map(|(v, _)| *v).collect::<Vec<_>>(),
                _ => Vec::new(),
            })
            .filter(|v| {
                self.shadowed
                    .get(v)
                    .is_none_or(|u| self.module.var(*u).name != self.module.var(*v).name)
            })
            .map(|v| self.module.var(v).name.clone())
            .collect();
        let extent = match extent::of(
            self.module,
            self.id,
            self.cfgs,
            o,
            seeds,
            &hidden,
            &self.shadowed,
        ) {
            Ok(e) => e,
            Err(why) => {
                diags.push(PlanDiagnostic {
                    unmapped: match o {
                        Object::Var(v) => Some((
                            self.func.qualified_name.clone(),
                            self.module.var(*v).name.clone(),
                        )),
                        Object::Member(_) | Object::Field(..) => None,
                    },
                    severity: Severity::Warning,
                    span: seeds
                        .first()
                        .map(|s| self.tree.span(*s))
                        .unwrap_or(region.span),
                    message: format!("`{name}` is not mapped: {why}; map it by hand"),
                });
                return None;
            }
        };
        let Extent {
            item,
            bytes,
            monotone,
        } = extent;
        for m in &monotone {
            diags.push(PlanDiagnostic {
                unmapped: None,
                severity: Severity::Note,
                span: seeds
                    .first()
                    .map(|s| self.tree.span(*s))
                    .unwrap_or(region.span),
                message: format!(
                    "`{name}` is mapped as `{item}`, which takes the elements of `{m}` to never decrease, as the row offsets of a compressed list do; map it by hand if they can"
                ),
            });
        }
        let device_writes = (0..self.ng.len()).any(|i| in_r[i] && evs(i).any(|e| e.1 && e.3));
        // Host reads of stale data: inside the region they need `update from`, after it the
        // exit copy.
        let mut stale_inside = Vec::new();
        let mut read_after = false;
        for (d, at) in self.deps.iter().zip(&self.dep_node) {
            let Some(at) = *at else { continue };
            if &d.object != o || d.direction != Direction::ToHost {
                continue;
            }
            if in_r[at] {
                stale_inside.push(at);
            } else if self
                .node_stmt_span(at)
                .is_some_and(|s| s.start >= region.span.end)
            {
                read_after = true;
            }
        }
        let from = device_writes && (read_after || self.escapes(o));
        // Device liveness, backwards over the region.
        let n = self.ng.len();
        let mut live_in = vec![false; n];
        let transfer = |i: usize, mut live: bool| {
            for e in evs(i).collect::<Vec<_>>().into_iter().rev() {
                let (_, dev, r, w, element) = e;
                if *dev {
                    if *w && !*r {
                        live = false;
                    } else if *r {
                        live = true;
                    }
                } else {
                    // One element written (and sent) leaves the rest of the device copy as
                    // it was: only a whole write and its update refresh it.
                    if *w && element.is_none() {
                        live = false;
                    }
                    if *r && stale_inside.contains(&i) {
                        live = true;
                    }
                }
            }
            live
        };
        let live_out_of = |i: usize, live_in: &[bool]| {
            self.ng.succs[i]
                .iter()
                .any(|&s| if in_r[s] { live_in[s] } else { from })
                || (self.ng.succs[i].is_empty() && from)
        };
        let mut changed = true;
        let mut rounds = 0;
        while changed && rounds < 10_000 {
            crate::budget::tick("mapping synthesis");
            changed = false;
            rounds += 1;
            for i in (0..n).rev() {
                if !in_r[i] {
                    continue;
                }
                let v = transfer(i, live_out_of(i, &live_in));
                if v != live_in[i] {
                    live_in[i] = v;
                    changed = true;
                }
            }
        }
        let to = (0..n).any(|i| {
            in_r[i]
                && live_in[i]
                && (self.ng.preds[i].is_empty() || self.ng.preds[i].iter().any(|&p| !in_r[p]))
        });
        let to = to && !self.host_holds_nothing(o, region);
        let mut updates = Vec::new();
        let touches_device = |l: StmtId, write_only: bool| {
            let span = self.tree.span(l);
            (0..n).any(|i| {
                in_r[i] && self.in_span(i, span) && evs(i).any(|e| e.1 && (e.3 || !write_only))
            })
        };
        // An update moved before the region's first statement, or after its last, would land
        // outside the region; before or after any other statement of its range it stays in.
        let movable_before = |l: StmtId| region.range.first() != Some(&l);
        let movable_after = |l: StmtId| region.range.last() != Some(&l);
        for &i in &stale_inside {
            let Some(node) = self.ng.node(i) else {
                continue;
            };
            let why = format!(
                "host reads {name} at line {}",
                self.line(self.tree.span(node.stmt).start)
            );
            if let Some(elem) = self.elements(i, o, &name, |e| !e.1 && e.2) {
                updates.push(PlannedUpdate {
                    motion: Motion::From,
                    name: name.clone(),
                    item: elem,
                    anchor: self.anchor(node.stmt),
                    side: Side::Before,
                    why,
                    bytes: None,
                });
                continue;
            }
            for (s, side) in self.read_anchors(node.kind, node.stmt, region, &|l| {
                movable_before(l) && !touches_device(l, true)
            }) {
                updates.push(PlannedUpdate {
                    motion: Motion::From,
                    name: name.clone(),
                    item: item.clone(),
                    anchor: self.anchor(s),
                    side,
                    why: why.clone(),
                    bytes,
                });
            }
        }
        for (i, _) in in_r.iter().enumerate().filter(|(_, r)| **r) {
            // A host write of one element is always sent: a later copy of that element back
            // to the host must not bring an older value.
            let element_write = evs(i).any(|e| !e.1 && e.3 && e.4.is_some());
            if !evs(i).any(|e| !e.1 && e.3) || !(element_write || live_out_of(i, &live_in)) {
                continue;
            }
            let Some(node) = self.ng.node(i) else {
                continue;
            };
            if let Some(elem) = self.elements(i, o, &name, |e| !e.1 && e.3) {
                updates.push(PlannedUpdate {
                    motion: Motion::To,
                    name: name.clone(),
                    item: elem,
                    anchor: self.anchor(node.stmt),
                    side: Side::After,
                    why: format!(
                        "host writes {name} at line {} and the device reads it later",
                        self.line(self.tree.span(node.stmt).start)
                    ),
                    bytes: None,
                });
                continue;
            }
            let mut s = node.stmt;
            for l in self.tree.enclosing_loops(node.stmt, region.span) {
                if movable_after(l) && !touches_device(l, false) {
                    s = l;
                } else {
                    break;
                }
            }
            let (item, bytes) = match self.written_part(o, &item, s) {
                Some(part) => (part, None),
                None => (item.clone(), bytes),
            };
            updates.push(PlannedUpdate {
                motion: Motion::To,
                name: name.clone(),
                item,
                anchor: self.anchor(s),
                side: Side::After,
                why: format!(
                    "host writes {name} at line {} and the device reads it later",
                    self.line(self.tree.span(node.stmt).start)
                ),
                bytes,
            });
        }
        // The same element copied back before consecutive statements that change nothing on the
        // device: the first copy serves them all.
        let mut keep = vec![true; updates.len()];
        for (k, u2) in updates.iter().enumerate() {
            let redundant = updates[..k].iter().enumerate().any(|(j, u1)| {
                keep[j]
                    && u1.motion == Motion::From
                    && u2.motion == Motion::From
                    && u1.side == Side::Before
                    && u2.side == Side::Before
                    && u1.item == u2.item
                    && u1.item != item
                    && self.quiet_between(u1.anchor.stmt, u2.anchor.stmt, &touches_device)
            });
            keep[k] = !redundant;
        }
        let mut k = 0;
        updates.retain(|_| {
            k += 1;
            keep[k - 1]
        });
        Some((
            MappedItem {
                object: o.clone(),
                name,
                item,
                map_type: MapType::of(to, from),
                bytes,
            },
            updates,
        ))
    }

    /// Where an `update from` for a host read at a node goes: before its statement, moved out
    /// of the loops `hoistable` allows; a read in a loop condition whose loop changes the data
    /// on the device needs the copy at the end of the body too.
    fn read_anchors(
        &self,
        kind: NodeKind,
        stmt: StmtId,
        region: &Region,
        hoistable: &dyn Fn(StmtId) -> bool,
    ) -> Vec<(StmtId, Side)> {
        let mut out = Vec::new();
        let mut s = stmt;
        if matches!(kind, NodeKind::Cond | NodeKind::ForStep)
            && is_loop(self.tree.kind(stmt))
            && !hoistable(stmt)
        {
            let body = match self.tree.kind(stmt) {
                StmtKind::For(f) => Some(f.body),
                StmtKind::While { body, .. } | StmtKind::Do { body, .. } => Some(*body),
                _ => None,
            };
            if let Some(StmtKind::Compound(v)) = body.map(|b| self.tree.kind(b)) {
                if let Some(last) = v.last() {
                    out.push((*last, Side::After));
                }
            }
            if matches!(self.tree.kind(stmt), StmtKind::Do { .. }) {
                return out;
            }
        }
        for l in self.tree.enclosing_loops(stmt, region.span) {
            if hoistable(l) {
                s = l;
            } else {
                break;
            }
        }
        // A statement governed by a `case` label: keep the copy inside the case.
        out.push((s, Side::Before));
        out
    }

    /// When every event of `o` at node `i` that `pick` selects is a host access of one element
    /// at a fixed index, in a plain statement: the section of those elements (`a[k:1]`).
    fn elements(
        &self,
        i: usize,
        o: &Object,
        name: &str,
        pick: impl Fn(&RawEvent) -> bool,
    ) -> Option<String> {
        let node = self.ng.node(i)?;
        if !matches!(
            node.kind,
            NodeKind::Stmt | NodeKind::Decl | NodeKind::Return
        ) {
            return None;
        }
        let mut out: Option<Section> = None;
        for e in self.events[i].iter().filter(|e| &e.0 == o && pick(e)) {
            let p = Poly::from_expr(self.module, self.func, e.4?)?;
            let s = Section::new(p, Poly::constant(1));
            out = Some(match out {
                None => s,
                Some(prev) => prev.union(&s)?,
            });
        }
        Some(format!("{name}[{}]", out?))
    }

    /// The part of `o` that statement `s` (a host statement, or a loop of them) touches,
    /// as a section to send after it instead of `item`, when `item` is all of `o`'s
    /// allocation: what the host did not touch there is on the device as it was sent
    /// before, and a section of the allocation the host writes lies inside it (or the
    /// host program itself writes out of bounds). The section's names are the statement's,
    /// not written in it, so they are in scope and hold their values right after it.
    fn written_part(&self, o: &Object, item: &str, s: StmtId) -> Option<String> {
        let Object::Var(v) = o else { return None };
        let whole = extent::allocation_extent(self.module, self.id, *v)?;
        if whole.item != item {
            return None;
        }
        let sec = crate::semantics::sections::accessed_section_named(
            self.module,
            self.id,
            self.g,
            *v,
            &[s],
        )
        .ok()?;
        let part = format!("{}[{sec}]", self.module.var(*v).name);
        (part != item).then_some(part)
    }

    /// `a` and `b` are statements of one block, `a` first, and the statements from `a` up to
    /// `b` write nothing on the device (`touches(stmt, true)`).
    fn quiet_between(&self, a: Span, b: Span, touches: &dyn Fn(StmtId, bool) -> bool) -> bool {
        let find = |sp: Span| {
            self.func
                .stmts
                .iter_enumerated()
                .find(|(_, st)| st.span == sp)
                .map(|(i, _)| i)
        };
        let (Some(sa), Some(sb)) = (find(a), find(b)) else {
            return false;
        };
        let (Some(p), Some(q)) = (self.tree.parent(sa), self.tree.parent(sb)) else {
            return false;
        };
        let StmtKind::Compound(v) = self.tree.kind(p) else {
            return false;
        };
        if p != q {
            return false;
        }
        let (Some(ia), Some(ib)) = (
            v.iter().position(|x| *x == sa),
            v.iter().position(|x| *x == sb),
        ) else {
            return false;
        };
        ia < ib && v[ia..ib].iter().all(|s| !touches(*s, true))
    }

    /// Whether the host copy of `o` holds no value when `region` begins, so that copying it
    /// in would move indeterminate bytes: memory this function allocates uninitialised
    /// (`malloc`, `new float[n]`, a local array with no initialiser), that no host code
    /// writes before the region (here or through a call), that no
    /// other construct maps, and a region that runs once per call (in no loop: a copy back
    /// from an earlier run would give the host a value). The device copy is then as unset
    /// as the host's on every path where no kernel writes it first (a loop of kernels that
    /// may run no times), so `to` preserves nothing.
    fn host_holds_nothing(&self, o: &Object, region: &Region) -> bool {
        let Object::Var(v) = o else { return false };
        let n = self.ng.len();
        let evs = |i: usize| self.events[i].iter().filter(move |e| &e.0 == o);
        let whole_function = Span {
            start: 0,
            end: u32::MAX,
        };
        // Only what the host writes before the region could be preserved: the region runs
        // once, so nothing after it reaches its entry.
        let before = |i: usize| {
            !region.nodes[i]
                && self
                    .node_stmt_span(i)
                    .is_none_or(|s| s.start < region.span.start)
        };
        (crate::semantics::sections::holds_only_indeterminate_allocations(self.module, self.id, *v)
            || crate::semantics::sections::uninitialised_local_array(self.module, self.id, *v))
            && (0..n).all(|i| !before(i) || !evs(i).any(|e| !e.1 && e.3))
            && (0..n).all(|i| region.nodes[i] || !evs(i).any(|e| e.1))
            && region
                .range
                .first()
                .is_some_and(|&s| self.tree.enclosing_loops(s, whole_function).is_empty())
            && !self.programmer_mapped().0.contains(v)
    }

    /// Data visible outside the function after it returns.
    fn escapes(&self, o: &Object) -> bool {
        match o {
            Object::Member(_) => true,
            Object::Var(v) | Object::Field(v, _) => {
                let var = self.module.var(*v);
                match var.storage {
                    Storage::Global | Storage::StaticGlobal | Storage::StaticLocal => true,
                    Storage::Parameter => {
                        var.ty.is_pointer()
                            || matches!(var.ty.kind, crate::ir::TypeKind::Reference(_))
                    }
                    Storage::Local => {
                        // A local pointer may alias anything unless it holds memory allocated
                        // here.
                        var.ty.is_pointer()
                            && (!extent::allocated_here(self.module, self.id, *v)
                                || pointer_leaves(self.module, self.func, *v))
                    }
                }
            }
        }
    }

    fn kernel_clauses(&self, k: StmtId) -> KernelClauses {
        let StmtKind::Omp { directive, .. } = self.tree.kind(k) else {
            unreachable!("kernels are OpenMP statements")
        };
        let info = self.module.directive(*directive);
        let named: Vec<&str> = info
            .directive
            .clauses
            .iter()
            .flat_map(|c| c.kind.items())
            .map(|it| it.base.name.as_str())
            .collect();
        let span = self.tree.span(k);
        let induction: Vec<VarId> = self
            .g
            .loops
            .iter()
            .filter(|l| contains(span, self.tree.span(l.stmt)))
            .filter_map(|l| l.induction)
            .collect();
        let mut read = BTreeSet::new();
        let mut written = BTreeSet::new();
        let mut device_pointers = BTreeSet::new();
        for (i, evs) in self.events.iter().enumerate() {
            if !self.in_span(i, span) {
                continue;
            }
            for (o, dev, r, w, _) in evs {
                let Object::Var(v) = o else { continue };
                if !dev {
                    continue;
                }
                let var = self.module.var(*v);
                if self.device.contains(v) {
                    if !named.contains(&var.name.as_str()) {
                        device_pointers.insert(var.name.clone());
                    }
                    continue;
                }
                let constant =
                    var.ty.is_const && !matches!(var.storage, Storage::Local | Storage::Parameter);
                if !var.ty.is_scalar()
                    || constant
                    || var.declare_target
                    || induction.contains(v)
                    || named.contains(&var.name.as_str())
                    || var.span.is_some_and(|d| contains(span, d))
                {
                    continue;
                }
                if *w {
                    written.insert(var.name.clone());
                } else if *r {
                    read.insert(var.name.clone());
                }
            }
        }
        KernelClauses {
            directive: *directive,
            firstprivate: read.difference(&written).cloned().collect(),
            written_scalars: written.into_iter().collect(),
            maps: Vec::new(),
            device_pointers: device_pointers.into_iter().collect(),
        }
    }
}

/// Pointers the function swaps or rotates (`t = a; a = b; b = t;`) name each other's data by
/// turns, while a region's map items are evaluated once, at its start: each must be copied
/// both ways any of them needs (the results may end in either).
fn unify_swapped(module: &Module, func: &crate::ir::Function, items: &mut [MappedItem]) {
    let group = effects::swap_groups(module, func);
    let group_of = |o: &Object| match o {
        Object::Var(v) => group.get(v).copied(),
        Object::Member(_) | Object::Field(..) => None,
    };
    // Only a group with two or more mapped members is swapped between mapped names.
    let mut needs: BTreeMap<usize, (bool, bool, usize)> = BTreeMap::new();
    for i in items.iter() {
        if let Some(g) = group_of(&i.object) {
            let e = needs.entry(g).or_default();
            e.0 |= matches!(i.map_type, MapType::To | MapType::ToFrom);
            e.1 |= matches!(i.map_type, MapType::From | MapType::ToFrom);
            e.2 += 1;
        }
    }
    for i in items.iter_mut() {
        if let Some(&(to, from, n)) = group_of(&i.object).and_then(|g| needs.get(&g)) {
            if n >= 2 {
                i.map_type = MapType::of(to, from);
            }
        }
    }
}

/// Whether the value of local pointer `v` leaves the function: returned (`return out;`), or
/// stored where a caller can reach it (`*result = out;`, a global, a member). The data behind
/// it is then read after the function returns, where the region cannot see.
fn pointer_leaves(module: &Module, func: &crate::ir::Function, v: VarId) -> bool {
    use crate::ir::{BinaryOp, ExprKind};
    let points_into = |mut e: crate::ir::ExprId| {
        for _ in 0..16 {
            match &func.expr(e).kind {
                ExprKind::Var(x) => return *x == v,
                ExprKind::Cast(x) | ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, x, _) => e = *x,
                ExprKind::Cond(_, a, b) => {
                    let (a, b) = (*a, *b);
                    return [a, b].iter().any(|&x| func.var_through_casts(x) == Some(v));
                }
                _ => return false,
            }
        }
        false
    };
    let local_var = |e: crate::ir::ExprId| {
        matches!(func.expr(e).kind, ExprKind::Var(x)
            if matches!(module.var(x).storage, Storage::Local | Storage::Parameter)
                && !matches!(module.var(x).ty.kind, crate::ir::TypeKind::Reference(_)))
    };
    func.stmts.iter().any(|st| {
        matches!(&st.kind, StmtKind::Return(Some(e)) if points_into(*e))
    }) || func.exprs.iter().any(|e| {
        matches!(&e.kind, ExprKind::Assign(None, l, r) if points_into(*r) && !local_var(*l))
    })
}

/// Whether `func` uses variable `v` only as a value: never indexed, dereferenced, passed by
/// address or reached through for a member.
fn used_as_value_only(func: &crate::ir::Function, v: VarId) -> bool {
    use crate::ir::{ExprKind, UnaryOp};
    let is_v = |e: crate::ir::ExprId| func.var_through_casts(e) == Some(v);
    !func.exprs.iter().any(|e| match &e.kind {
        ExprKind::Subscript(b, _) => is_v(*b),
        ExprKind::Unary(UnaryOp::Deref | UnaryOp::AddrOf, x) => is_v(*x),
        ExprKind::Member { base: Some(b), .. } => is_v(*b),
        ExprKind::Call {
            receiver: Some(r), ..
        } => is_v(*r),
        _ => false,
    })
}
