//! Host/device validity (OMPDart §IV-D): data is *valid* in a memory space when it was last
//! written there. A forward data flow over the AST-CFG tracks, for every object a kernel of
//! the function touches, whether each space holds a valid copy on *every* path; a read in a
//! space where the object may be stale is a true dependency, i.e. a copy the program needs.
//!
//! This analysis reasons about the program as if no mapping existed (the input of synthesis):
//! at entry the host copy is valid and the device holds nothing. A dependency is
//! *loop-carried* when it only arises through a loop's back edge: the copy must then sit inside
//! that loop; otherwise it can go before or after it.

use super::effects::{self, Summary};
use super::sections;
use crate::ir::access::{Access, Escape, Root};
use crate::ir::cfg::{BlockId, Cfg, Exec, LoopId};
use crate::ir::{device, FuncId, IndexVec, Module, StmtId, VarId};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Data the analysis follows: a variable (for a pointer, the data it points to) or a data
/// member of `this`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Object {
    Var(VarId),
    Member(String),
    /// One member of a struct variable that the checker follows member by member
    /// (`check::env::split`): `g.x` apart from `g.y` (for a pointer member, the data it
    /// points to). Only the checker makes these; this analysis keeps one object per variable.
    Field(VarId, String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The device reads data last written on the host.
    ToDevice,
    /// The host reads data last written on the device.
    ToHost,
}

/// A read of data that may be stale in the space where the read runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependency {
    pub object: Object,
    pub direction: Direction,
    pub block: BlockId,
    /// Index of the node in its block.
    pub node: usize,
    pub stmt: StmtId,
    /// The innermost loop around the read whose back edge carries the dependency.
    pub loop_carried: Option<LoopId>,
}

/// Which tracked objects (by index) are valid on every path, per space: two bitsets.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct State {
    host: Vec<u64>,
    device: Vec<u64>,
}

impl State {
    fn filled(n: usize, host: bool, device: bool) -> State {
        let words = n.div_ceil(64);
        let fill = |on: bool| vec![if on { u64::MAX } else { 0 }; words];
        State {
            host: fill(host),
            device: fill(device),
        }
    }
    fn get(&self, device: bool, i: usize) -> bool {
        let bits = if device { &self.device } else { &self.host };
        bits[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, device: bool, i: usize, on: bool) {
        let bits = if device {
            &mut self.device
        } else {
            &mut self.host
        };
        if on {
            bits[i / 64] |= 1 << (i % 64);
        } else {
            bits[i / 64] &= !(1 << (i % 64));
        }
    }
    /// Valid on all incoming paths.
    fn meet_with(&mut self, other: &State) {
        for (a, b) in self.host.iter_mut().zip(&other.host) {
            *a &= b;
        }
        for (a, b) in self.device.iter_mut().zip(&other.device) {
            *a &= b;
        }
    }
}

/// One read or write of a tracked object (index into the tracked list) at a node.
#[derive(Clone, Debug)]
struct Event {
    object: usize,
    on_device: bool,
    read: bool,
    write: bool,
    /// A host access of one element at a fixed index: it makes nothing else valid.
    element: bool,
}

/// The dependencies of function `id`, whose AST-CFG is `g`.
pub fn dependencies(
    module: &Module,
    id: FuncId,
    g: &Cfg,
    sums: &IndexVec<FuncId, Summary>,
) -> Vec<Dependency> {
    dependencies_from_events(module, id, g, &node_events(module, id, g, sums))
}

/// [`dependencies`] from the events of each node ([`node_events`]), for callers that need
/// those events too.
pub(crate) fn dependencies_from_events(
    module: &Module,
    id: FuncId,
    g: &Cfg,
    raw: &IndexVec<BlockId, Vec<Vec<RawEvent>>>,
) -> Vec<Dependency> {
    // Only objects some device code touches can need a copy.
    let mut tracked: Vec<Object> = raw
        .iter()
        .flatten()
        .flatten()
        .filter(|e| e.1)
        .map(|e| e.0.clone())
        .collect();
    tracked.sort();
    tracked.dedup();
    if tracked.is_empty() {
        return Vec::new();
    }
    let index: std::collections::HashMap<&Object, usize> =
        tracked.iter().enumerate().map(|(i, o)| (o, i)).collect();
    let events: IndexVec<BlockId, Vec<Vec<Event>>> = raw
        .iter()
        .map(|b| {
            b.iter()
                .map(|n| {
                    n.iter()
                        .filter_map(|(o, on_device, read, write, element)| {
                            index.get(o).map(|&object| Event {
                                object,
                                on_device: *on_device,
                                read: *read,
                                write: *write,
                                element: element.is_some(),
                            })
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    let n = tracked.len();
    let with_back = solve(g, &events, n, Mode::Whole);
    // A read is carried around loop L when, entering L with everything valid, it is stale with
    // L's back edge and not without it: the staleness comes from the previous iteration.
    let mut isolated: BTreeMap<(LoopId, bool), IndexVec<BlockId, State>> = BTreeMap::new();
    let stale = |st: &State, e: &Event| !st.get(e.on_device, e.object);
    let mut out = Vec::new();
    for (b, block) in g.blocks.iter_enumerated() {
        let mut state = with_back[b].clone();
        for (i, node) in block.nodes.iter().enumerate() {
            for (k, e) in events[b][i].iter().enumerate() {
                if e.read && stale(&state, e) {
                    let mut carried = None;
                    let host_loops = block
                        .loop_id
                        .into_iter()
                        .flat_map(|l| g.loop_chain(l))
                        .filter(|l| g.loops[*l].exec != Exec::Device);
                    for l in host_loops {
                        let mut at = |keep_back: bool| {
                            let sol = isolated.entry((l, keep_back)).or_insert_with(|| {
                                solve(g, &events, n, Mode::Isolate { l, keep_back })
                            });
                            stale(&state_at(&sol[b], &events[b], i, k), e)
                        };
                        if at(true) && !at(false) {
                            carried = Some(l);
                            break;
                        }
                    }
                    out.push(Dependency {
                        object: tracked[e.object].clone(),
                        direction: if e.on_device {
                            Direction::ToDevice
                        } else {
                            Direction::ToHost
                        },
                        block: b,
                        node: i,
                        stmt: node.stmt,
                        loop_carried: carried,
                    });
                }
                step(&mut state, e);
            }
        }
    }
    out.dedup_by(|a, b| a.object == b.object && a.block == b.block && a.node == b.node);
    // Source order, then objects by name order of their ids.
    let func = module.function(id);
    out.sort_by_key(|d| {
        (
            func.stmt(d.stmt).span.start,
            d.object.clone(),
            d.direction as u8,
        )
    });
    out
}

/// Dependencies of every function with a body, indexed by `FuncId` (empty without a body).
pub fn all_dependencies(module: &Module) -> IndexVec<FuncId, Vec<Dependency>> {
    let execs = device::classify(module);
    let cfgs = crate::ir::cfg::build_all(module, &execs);
    let sums = effects::summarize_with(module, &cfgs);
    all_dependencies_with(module, &cfgs, &sums)
}

/// [`all_dependencies`] over AST-CFGs and summaries already computed.
pub fn all_dependencies_with(
    module: &Module,
    cfgs: &IndexVec<FuncId, Option<Cfg>>,
    sums: &IndexVec<FuncId, Summary>,
) -> IndexVec<FuncId, Vec<Dependency>> {
    module
        .functions
        .iter_enumerated()
        .map(|(i, f)| match &cfgs[i] {
            Some(g) if f.not_analysed.is_none() => dependencies(module, i, g, sums),
            _ => Vec::new(),
        })
        .collect()
}

/// The state just before event `k` of node `i` of a block whose entry state is `entry`.
fn state_at(entry: &State, block_events: &[Vec<Event>], i: usize, k: usize) -> State {
    let mut st = entry.clone();
    for (n, evs) in block_events.iter().enumerate().take(i + 1) {
        let upto = if n == i { k } else { evs.len() };
        for e in &evs[..upto] {
            step(&mut st, e);
        }
    }
    st
}

/// Applies one event: a read makes the space valid (the copy it needs is assumed made), a
/// write makes only its own space valid. A host access of a single element (a copy of that
/// element only) changes nothing in its own space.
fn step(state: &mut State, e: &Event) {
    // One element copied or written leaves the rest of the copy as it was.
    if e.read && !e.element {
        state.set(e.on_device, e.object, true);
    }
    if e.write {
        if !e.element {
            state.set(e.on_device, e.object, true);
        }
        state.set(!e.on_device, e.object, false);
    }
}

/// What the data flow is solved over.
#[derive(Clone, Copy)]
enum Mode {
    /// The whole function from its entry.
    Whole,
    /// Loop `l` entered with everything valid in both spaces, with or without its back edge.
    Isolate { l: LoopId, keep_back: bool },
}

/// Forward must-analysis to a fixed point.
fn solve(
    g: &Cfg,
    events: &IndexVec<BlockId, Vec<Vec<Event>>>,
    objects: usize,
    mode: Mode,
) -> IndexVec<BlockId, State> {
    // At entry the host copy is valid and the device holds nothing.
    let entry = State::filled(objects, true, false);
    let all_valid = State::filled(objects, true, true);
    let n = g.blocks.len();
    let mut ins: IndexVec<BlockId, Option<State>> = g.blocks.iter().map(|_| None).collect();
    let mut outs: IndexVec<BlockId, Option<State>> = g.blocks.iter().map(|_| None).collect();
    ins[g.entry] = Some(entry);
    // An edge into a loop header from a block inside that loop.
    let is_back = |from: BlockId, to: BlockId| {
        g.blocks[from]
            .loop_id
            .is_some_and(|l| g.loop_chain(l).any(|c| g.loops[c].header == to))
    };
    // A loop inside a kernel is taken to run at least once: its exit sees the state after
    // the body (from its latches), not the zero-trip state of the header. Otherwise every
    // kernel write would only "maybe" happen.
    let mut latches: std::collections::HashMap<BlockId, Vec<BlockId>> = Default::default();
    for l in g.loops.iter().filter(|l| l.exec == Exec::Device) {
        let h = l.header;
        let inside: Vec<BlockId> = g.blocks[h]
            .preds
            .iter()
            .copied()
            .filter(|&p| is_back(p, l.header))
            .collect();
        latches.insert(h, inside);
    }
    let in_loop_of = |b: BlockId, header: BlockId| {
        g.blocks[b]
            .loop_id
            .is_some_and(|l| g.loop_chain(l).any(|c| g.loops[c].header == header))
    };
    let mut work: Vec<BlockId> = g.blocks.indices().rev().collect();
    let mut rounds = 0usize;
    while let Some(b) = work.pop() {
        crate::budget::tick("the validity fixed point");
        rounds += 1;
        if rounds > n * 64 + 1024 {
            break; // cannot happen for a monotone problem; a guard, not a result
        }
        let mut preds: Vec<&State> = Vec::new();
        let isolated_header = match mode {
            Mode::Isolate { l, keep_back } if g.loops[l].header == b => Some(keep_back),
            _ => None,
        };
        if isolated_header.is_some() {
            preds.push(&all_valid);
        }
        for &p in &g.blocks[b].preds {
            if let Some(keep_back) = isolated_header {
                // Entry edges are replaced by the all-valid state; back edges kept or cut.
                if !keep_back || !is_back(p, b) {
                    continue;
                }
            }
            match latches.get(&p) {
                Some(ls) if !in_loop_of(b, p) && !ls.is_empty() => {
                    preds.extend(ls.iter().filter_map(|l| outs[*l].as_ref()))
                }
                _ => preds.extend(outs[p].as_ref()),
            }
        }
        let input = if b == g.entry {
            ins[b].clone().unwrap_or_default()
        } else if let Some((first, rest)) = preds.split_first() {
            let mut m = (*first).clone();
            for p in rest {
                m.meet_with(p);
            }
            m
        } else {
            continue;
        };
        let mut state = input.clone();
        for evs in &events[b] {
            for e in evs {
                step(&mut state, e);
            }
        }
        ins[b] = Some(input);
        if outs[b].as_ref() != Some(&state) {
            outs[b] = Some(state);
            for &s in &g.blocks[b].succs {
                work.push(s);
                // A latch also feeds its loop's exits.
                if latches.get(&s).is_some_and(|ls| ls.contains(&b)) {
                    work.extend(g.blocks[s].succs.iter().copied());
                }
            }
        }
    }
    // A block no path reaches (after a `return`, an infinite loop's exit) reads nothing
    // stale: everything valid, sized like every other state.
    ins.into_iter()
        .map(|s| s.unwrap_or_else(|| all_valid.clone()))
        .collect()
}

/// Reads and writes of each node, per block: direct accesses, plus what callees do to the data
/// passed to them (their summaries, placed in the space of the call).
/// An event before the tracked objects are indexed: (object, on device, read, write).
/// (object, on device, read, write, index of a host access to one element at an index fixed
/// in the host loops around it).
pub(crate) type RawEvent = (Object, bool, bool, bool, Option<crate::ir::ExprId>);

/// A write to part of an object (an element, a member) needs the rest of it valid in that
/// space first, so it counts as a read too; only a write to the whole variable does not.
pub(crate) fn is_partial_write(a: &Access) -> bool {
    match a.root {
        Root::Var(_) => !a.path.is_empty(),
        Root::This => member_path(a).len() > 1,
    }
}

/// `a[k]` of an array of one element (`int count[1]`): in bounds, that is the whole array.
fn all_of_a_one_element_array(module: &Module, a: &Access) -> bool {
    matches!(
        (a.root, a.path.as_slice()),
        (Root::Var(v), [crate::ir::access::PathElem::Index(_)])
            if matches!(module.var(v).ty.referent().kind, crate::ir::TypeKind::Array { len: Some(1), .. })
    )
}

/// The path of an access through `this`, without the dereference of `this` itself.
pub(crate) fn member_path(a: &Access) -> &[crate::ir::access::PathElem] {
    match a.path.first() {
        Some(crate::ir::access::PathElem::Deref) => &a.path[1..],
        _ => &a.path,
    }
}

/// Per kernel of a function (its span): the variables it overwrites in full, i.e. every
/// element the function's kernels use (see [`sections::covered_sections`]).
pub(crate) fn coverage(module: &Module, id: FuncId, g: &Cfg) -> Vec<(crate::ir::Span, Vec<VarId>)> {
    let func = module.function(id);
    let kernels = crate::ir::kernel_stmts(module, func);
    let mut accessed: BTreeMap<VarId, Option<sections::Section>> = BTreeMap::new();
    // Set up on the first candidate: most functions have none.
    let mut all_kernels: Option<sections::SectionsIn> = None;
    let mut out = Vec::new();
    for &k in &kernels {
        let span = func.stmt(k).span;
        let mut candidates: Vec<VarId> = g
            .nodes()
            .map(|(_, n)| n)
            .filter(|n| {
                n.exec == Exec::Device && {
                    let s = func.stmt(n.stmt).span;
                    span.start <= s.start && s.end <= span.end
                }
            })
            .flat_map(|n| n.accesses.iter())
            .filter_map(|a| match (a.root, a.path.as_slice()) {
                (Root::Var(v), [crate::ir::access::PathElem::Index(_)]) if a.kind.writes() => {
                    Some(v)
                }
                _ => None,
            })
            .collect();
        candidates.sort();
        candidates.dedup();
        let mut covered = Vec::new();
        let mut cover: Option<sections::KernelCover> = None;
        for v in candidates {
            let acc = accessed.entry(v).or_insert_with(|| {
                all_kernels
                    .get_or_insert_with(|| sections::SectionsIn::new(module, id, g, &kernels))
                    .accessed(v)
            });
            let Some(acc) = acc else { continue };
            let full = cover
                .get_or_insert_with(|| sections::KernelCover::new(module, id, g, k))
                .covered(v)
                .iter()
                .any(|c| {
                    c.lower.sub(&acc.lower).as_const().is_some_and(|d| d <= 0)
                        && c.end().sub(&acc.end()).as_const().is_some_and(|d| d >= 0)
                });
            if full {
                covered.push(v);
            }
        }
        if !covered.is_empty() {
            out.push((span, covered));
        }
    }
    out
}

pub(crate) fn node_events(
    module: &Module,
    id: FuncId,
    g: &Cfg,
    sums: &IndexVec<FuncId, Summary>,
) -> IndexVec<BlockId, Vec<Vec<RawEvent>>> {
    let func = module.function(id);
    let cover = coverage(module, id, g);
    let overwrites = |n: &crate::ir::cfg::Node, a: &Access| {
        let Root::Var(v) = a.root else { return false };
        let stmt = func.stmt(n.stmt).span;
        n.exec == Exec::Device
            && a.path.len() == 1
            && cover
                .iter()
                .any(|(k, vs)| k.start <= stmt.start && stmt.end <= k.end && vs.contains(&v))
    };
    // Locals that alias one member's data (`float *d = net->delta;`), by member: a use of
    // that member's data elsewhere (`update(net->delta)`) is a use of the local's object.
    // A pointer declared again in an inner scope as the same view of the same member's data
    // is the outer pointer's object (a clause at the outer scope maps what it reaches).
    let shadowed = super::effects::shadowed_aliases(module, func);
    // The member expressions those views are made from (`mesh.m_ss` in `&mesh.m_ss[0]`):
    // making a view touches none of the data.
    let (member_aliases, view_sources) = super::effects::member_alias_sets(module, func);
    let mut by_member: HashMap<String, Option<VarId>> = HashMap::new();
    for (v, m) in member_aliases {
        if shadowed.contains_key(&v) {
            continue;
        }
        by_member
            .entry(m)
            .and_modify(|x| *x = None)
            .or_insert(Some(v));
    }
    // Local pointers a kernel declares into one variable's data (`float *row = in + b * n;`):
    // their accesses are accesses of that variable's data, which a clause can name (the
    // local cannot be). Aliases on the host keep their identity: a clause on the kernel
    // must name the pointer the kernel uses. A local a clause names keeps its own too.
    let named: HashSet<VarId> = module
        .directives
        .iter()
        .filter(|d| d.function == Some(id))
        .flat_map(|d| &d.bindings)
        .filter_map(|b| match b.target {
            crate::ir::BindingTarget::Var(v) => Some(v),
            _ => None,
        })
        .collect();
    let kernel_spans: Vec<crate::pragma::Span> = crate::ir::kernel_stmts(module, func)
        .into_iter()
        .map(|k| func.stmt(k).span)
        .collect();
    let in_kernel = |v: VarId| {
        module.var(v).span.is_some_and(|d| {
            kernel_spans
                .iter()
                .any(|k| k.start <= d.start && d.end <= k.end)
        })
    };
    let aliases =
        super::effects::local_aliases(module, func, |l| named.contains(&l) || !in_kernel(l));
    let object_of = |a: &Access| -> Option<Object> {
        match a.root {
            Root::This => match member_path(a).first() {
                Some(crate::ir::access::PathElem::Member(m)) => Some(Object::Member(m.clone())),
                _ => None,
            },
            Root::Var(v) => {
                let v = shadowed.get(&v).copied().unwrap_or(v);
                if let Some(m) = super::effects::member_data(a) {
                    let local = by_member.get(m).copied().flatten();
                    return Some(Object::Var(local.unwrap_or(v)));
                }
                // A pointer's own value (no path, not passed by address) is not its data.
                let pointer_value =
                    module.var(v).ty.is_pointer() && a.path.is_empty() && a.escape.is_none();
                if pointer_value {
                    return None;
                }
                match aliases.roots.get(&v).map(Vec::as_slice) {
                    Some([root]) => Some(Object::Var(*root)),
                    _ => Some(Object::Var(v)),
                }
            }
        }
    };
    let polys = std::cell::RefCell::new(super::symbolic::ExprPolys::new(module, func));
    // `a[e]` on the host with `e` fixed in the host loops around it.
    let element = |a: &Access, ivs: &[VarId]| -> Option<crate::ir::ExprId> {
        let (Root::Var(v), [crate::ir::access::PathElem::Index(e)]) = (a.root, a.path.as_slice())
        else {
            return None;
        };
        let ty = &module.var(v).ty.referent().kind;
        let one_dim = match ty {
            crate::ir::TypeKind::Pointer(t) => !t.is_pointer() && !t.is_array(),
            // The element of a one-element array (`int count[1]`) is all of it.
            crate::ir::TypeKind::Array { len: Some(1), .. } => false,
            crate::ir::TypeKind::Array { element, .. } => !element.is_array(),
            _ => false,
        };
        if !one_dim || a.escape.is_some() {
            return None;
        }
        let (_, deps) = polys.borrow_mut().poly_with_deps(*e)?;
        let fixed = deps.values().flatten().all(|x| !ivs.contains(x));
        fixed.then_some(*e)
    };
    g.blocks
        .iter()
        .map(|b| {
            let host_ivs: Vec<VarId> = b
                .loop_id
                .into_iter()
                .flat_map(|l| g.loop_chain(l))
                .filter(|l| g.loops[*l].exec != Exec::Device)
                .filter_map(|l| g.loops[l].induction)
                .collect();
            b.nodes
                .iter()
                .map(|n| {
                    let on_device = n.exec == Exec::Device;
                    let mut evs = Vec::new();
                    // What callees do to globals, at this node.
                    for callee in calls_in(func, &n.exprs) {
                        for (v, e) in &sums[callee].globals {
                            let e = effect_at(*e, on_device);
                            for (dev, r, w) in e {
                                // Callees write parts of what they are given.
                                evs.push((Object::Var(*v), dev, r || w, w, None));
                            }
                        }
                        // What they do to the data of members a local here views
                        // (`arealg = &dom->m_arealg[0]` and a callee reading `m_arealg`).
                        for (m, e) in &sums[callee].members {
                            let Some(Some(local)) = by_member.get(m) else {
                                continue;
                            };
                            for (dev, r, w) in effect_at(*e, on_device) {
                                evs.push((Object::Var(*local), dev, r || w, w, None));
                            }
                        }
                    }
                    for a in &n.accesses {
                        if view_sources.contains(&a.expr) {
                            continue;
                        }
                        // `row = &a[k]` takes an address: the accesses through `row` are
                        // `a`'s (as the checker reads them).
                        if matches!(a.escape, Some(Escape::AddressTaken))
                            && aliases.sources.contains(&a.expr)
                        {
                            continue;
                        }
                        let Some(object) = object_of(a) else { continue };
                        let (read, write) = match &a.escape {
                            Some(Escape::CallArg {
                                callee: Some(c),
                                index,
                            }) => {
                                let s = &sums[*c];
                                let e = match index {
                                    Some(i) => s.params.get(*i).copied().unwrap_or_default(),
                                    None => s.this,
                                };
                                // `memset(p, 0, bytes)` of all of `p`'s allocation needs
                                // none of it valid first; nor does a kernel whose calls
                                // write every element its function's kernels use
                                // (`sum(&f[8 * k])` writing eight from there, for each `k`).
                                let whole = fills_allocation(module, id, a) || overwrites(n, a);
                                for (dev, r, w) in effect_at(e, on_device) {
                                    evs.push((object.clone(), dev, r || (w && !whole), w, None));
                                }
                                (false, false)
                            }
                            _ => {
                                let el = if on_device {
                                    None
                                } else {
                                    element(a, &host_ivs)
                                };
                                (
                                    a.kind.reads()
                                        || (a.kind.writes()
                                            && el.is_none()
                                            && is_partial_write(a)
                                            && !overwrites(n, a)
                                            && !all_of_a_one_element_array(module, a)),
                                    a.kind.writes(),
                                )
                            }
                        };
                        if read || write {
                            let el = if on_device || a.escape.is_some() {
                                None
                            } else {
                                element(a, &host_ivs)
                            };
                            evs.push((object, on_device, read, write, el));
                        }
                    }
                    evs
                })
                .collect()
        })
        .collect()
}

/// Whether access `a` is the destination of a library fill or copy (`memset`, `memcpy`,
/// `memmove`: they only write it) whose byte count is the whole allocation the pointer holds.
fn fills_allocation(module: &Module, id: FuncId, a: &Access) -> bool {
    let (Root::Var(v), true) = (a.root, a.path.is_empty()) else {
        return false;
    };
    let Some(Escape::CallArg {
        callee: Some(c),
        index: Some(0),
    }) = a.escape
    else {
        return false;
    };
    if !matches!(
        module.function(c).name.as_str(),
        "memset" | "memcpy" | "memmove"
    ) {
        return false;
    }
    let func = module.function(id);
    let call = func.exprs.iter().find_map(|e| match &e.kind {
        crate::ir::ExprKind::Call { args, .. } if args.first() == Some(&a.expr) => Some(args),
        _ => None,
    });
    match call.and_then(|args| args.get(2)) {
        Some(bytes) => sections::is_whole_allocation(module, id, v, *bytes),
        None => false,
    }
}

/// A callee's effect split into (on_device, read, write) events for a call made on the host or
/// on the device.
fn effect_at(e: effects::Effect, call_on_device: bool) -> Vec<(bool, bool, bool)> {
    // Seen from the call, `here` effects run where the call runs (on the host, since a call
    // on the device moves everything to `kernel`) and `kernel` effects on the device.
    let e = e.at_call_site(call_on_device);
    [
        (false, e.here_read, e.here_write),
        (true, e.kernel_read, e.kernel_write),
    ]
    .into_iter()
    .filter(|(_, r, w)| *r || *w)
    .collect()
}

/// Functions called directly in the expression trees `roots`.
pub(crate) fn calls_in(func: &crate::ir::Function, roots: &[crate::ir::ExprId]) -> Vec<FuncId> {
    direct_calls(func, roots)
        .into_iter()
        .map(|(f, _)| f)
        .collect()
}

/// The direct calls in the expression trees `roots`: the callee and the receiver expression
/// of a member call (None for a plain call or an implicit `this`).
pub(crate) fn direct_calls(
    func: &crate::ir::Function,
    roots: &[crate::ir::ExprId],
) -> Vec<(FuncId, Option<crate::ir::ExprId>)> {
    let mut out = Vec::new();
    let mut stack: Vec<crate::ir::ExprId> = roots.to_vec();
    let mut guard = 0usize;
    while let Some(e) = stack.pop() {
        guard += 1;
        if guard > 100_000 {
            break;
        }
        let kind = &func.expr(e).kind;
        if let crate::ir::ExprKind::Call {
            callee: crate::ir::Callee::Direct(f),
            receiver,
            ..
        } = kind
        {
            out.push((*f, *receiver));
        }
        stack.extend(device::expr_children(kind));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meet_is_valid_on_all_paths() {
        let mut a = State::filled(70, true, true);
        let mut b = State::filled(70, true, true);
        b.set(true, 66, false);
        a.meet_with(&b);
        assert!(a.get(false, 66) && !a.get(true, 66) && a.get(true, 65));
    }

    #[test]
    fn a_write_invalidates_the_other_space() {
        let mut s = State::filled(3, true, false);
        step(
            &mut s,
            &Event {
                object: 1,
                on_device: true,
                read: false,
                write: true,
                element: false,
            },
        );
        assert!(s.get(true, 1) && !s.get(false, 1) && s.get(false, 0));
    }

    #[test]
    fn one_host_element_leaves_the_host_copy_as_it_was() {
        let mut s = State::filled(2, false, true);
        let e = |read, write| Event {
            object: 0,
            on_device: false,
            read,
            write,
            element: true,
        };
        step(&mut s, &e(true, false));
        assert!(
            !s.get(false, 0),
            "copying one element back does not make the host valid"
        );
        step(&mut s, &e(false, true));
        assert!(
            !s.get(false, 0) && !s.get(true, 0),
            "the device copy is now stale too"
        );
    }
}
