//! The interpretation of one function: events per CFG node, the transfer of each directive,
//! the fixed point, and the reporting pass.

use super::items::{directive_items, DirectiveItems, MapItem, MotionItem};
use super::state::{join_into, Counts, ObjState, Opaque, State, STALE, VALID};
use super::*;
use crate::ir::access::{Access, Escape, Root};
use crate::ir::cfg::Node;
use crate::ir::{Function, IndexVec, StmtKind, Storage, TypeClass};
use crate::pragma::{Accessor, DirectiveKind, Leaf};
use crate::semantics::effects::Effect;
use crate::semantics::sections::Section;
use crate::semantics::symbolic::Poly;
use crate::semantics::validity::{calls_in, coverage, is_partial_write, member_path};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What a node does to one tracked object.
#[derive(Clone, Debug)]
pub(super) enum Event {
    /// A direct access, in the node's space.
    Access {
        obj: usize,
        read: bool,
        write: bool,
        span: Span,
        /// Read only because it writes part of the object (the rest must be valid).
        partial: bool,
        /// Passed to a call omplens cannot resolve (what it does is a guess).
        opaque: bool,
        /// Through a pointer that may point elsewhere: the access may not happen to this object.
        may: bool,
    },
    /// Data a callee is given (or a global it uses): its summary effect.
    Call {
        obj: usize,
        callee: FuncId,
        effect: Effect,
        span: Span,
        /// The callee's view of the object: its parameter's data, or the same global.
        callee_object: Option<Object>,
        /// Through a pointer that may point elsewhere: the call may not reach this object.
        may: bool,
    },
    /// A call of a function whose body omplens has nowhere, and a global of external linkage
    /// it could name (no argument passes it): it may read or write the global on the host,
    /// or launch kernels on its device copy. Nothing certain changes; findings on the global
    /// while it is mapped are no longer certain, and the host loop around the call may
    /// change it.
    Reach {
        obj: usize,
        callee: FuncId,
        span: Span,
    },
    /// `omp_target_associate_ptr(p, d, ...)` (`associate`) or `omp_target_disassociate_ptr(p,
    /// ...)`: `p`'s data is present from then on, its device copy the device memory `d`
    /// (whose contents omplens does not follow), or no longer present.
    Associate { obj: usize, associate: bool },
}

/// A kernel of this function and what its body does.
struct Kernel {
    dir: DirId,
    span: Span,
    items: DirectiveItems,
    /// Implicitly mapped `tofrom` (arrays, records, scalars under `defaultmap`).
    implicit: Vec<MapItem>,
    /// Pointers whose data the kernel uses without a map: first use.
    pointers: Vec<(usize, Span)>,
    /// Pointers whose data the kernel uses while its own `map` clause names the bare pointer
    /// (`map(tofrom: p)`): first use, and the clause item.
    copied_pointers: Vec<(usize, Span, String)>,
    /// Pointer members' data the kernel uses through local aliases, mapped by no clause of
    /// this function (see [`super::Unproven`]).
    unmapped_members: Vec<(usize, Span)>,
    /// Data behind a pointer member of a struct variable the kernel uses (`t.val[i]`, or
    /// `t.val` passed to a call), which no clause of this function maps through the member
    /// (`t.val[0:n]`): the struct's own map copies the pointer, not what it points to, so
    /// the kernel would follow a host address. The member expression's text, and the use.
    unmapped_pointer_members: Vec<(crate::ir::VarId, String, Span)>,
    /// `firstprivate` scalars the kernel writes: first write.
    lost: Vec<(usize, Span)>,
    /// Scalars `lastprivate` on the combined construct that it writes (see
    /// [`Why::LostScalar`]).
    lost_lastprivate: Vec<(usize, Span)>,
    /// Scalars the kernel uses that are firstprivate by the implicit rules (no clause).
    implicit_firstprivate: Vec<usize>,
    /// First read (not a partial write) of each object in the body.
    reads: Vec<(usize, Span)>,
    /// Objects the kernel's events do not touch in the data environment (private copies,
    /// locals of the kernel, `declare target` data, firstprivate scalars).
    untracked: BTreeSet<usize>,
    /// Objects the body passes to calls omplens cannot see into: the first such call.
    opaque: BTreeMap<usize, Opaque>,
    /// Objects the body writes (on some path).
    writes: BTreeSet<usize>,
}

impl Kernel {
    /// Its explicit map items, then the implicit ones, in the order they are entered.
    fn maps(&self) -> Vec<MapItem> {
        self.items
            .maps
            .iter()
            .chain(&self.implicit)
            .cloned()
            .collect()
    }
}

pub(super) struct FnInterp<'a> {
    module: &'a Module,
    id: FuncId,
    func: &'a Function,
    g: &'a Cfg,
    sums: &'a IndexVec<FuncId, Summary>,
    /// What each analysed callee leaves behind for data mapped or not at the call.
    exits: &'a Exits,
    objects: Vec<Object>,
    index: HashMap<Object, usize>,
    entry: State,
    items: HashMap<DirId, DirectiveItems>,
    kernels: Vec<Kernel>,
    /// Events per block, per node.
    events: IndexVec<BlockId, Vec<Vec<Event>>>,
    /// Full overwrites by a kernel (span of the kernel, variables).
    cover: Vec<(Span, Vec<crate::ir::VarId>)>,
    report: bool,
    facts: Vec<Fact>,
    copies: Vec<Copy>,
    consumed: BTreeSet<CopyKey>,
    mappings: Vec<Mapping>,
    accesses: Vec<AccessEvent>,
    passed: Vec<super::Passed>,
    points: Vec<PointState>,
    unproven: Vec<super::Unproven>,
    /// Pointers this function swaps ([`crate::semantics::effects::swap_groups`]): a write
    /// through one may be a write to the data of any of its group (weak update).
    swaps: HashMap<crate::ir::VarId, usize>,
    /// Applying such a weak update (it does not spread further).
    in_swap: bool,
    /// Per loop header: the objects the loop fills whole on any trip count
    /// (`fills::fills_whole_allocation`); at its exit they take the iterations' state.
    filled: IndexVec<BlockId, Vec<usize>>,
    /// Exact exchanges ([`crate::semantics::effects::exact_swaps`]): after the statement, the
    /// two objects exchange their states (their groups are not in `swaps`).
    exchanges: HashMap<StmtId, (usize, usize)>,
    /// Per `target data` region: the pairs of pointers an exact exchange inside it swapped
    /// an odd number of times, once per run of the region (no loop of the region around the
    /// exchange). Its end unmaps what each item's pointer held at the start, which the other
    /// name holds by then.
    region_exchanges: HashMap<DirId, Vec<(crate::ir::VarId, crate::ir::VarId)>>,
    contexts: HashMap<FuncId, BTreeMap<Object, ObjState>>,
    /// Objects whose entry state a caller's context gave.
    context_known: BTreeSet<usize>,
    /// Local pointers that only point into another variable's data: their accesses are that
    /// variable's (locals that a clause names keep their own).
    aliases: crate::semantics::effects::LocalAliases,
    /// Per variable, the local pointers a clause names that always point into its data
    /// (`Row *rows = (Row *)data;` with `map(rows[0:k])`): objects of their own, whose
    /// device copies the host's accesses to the variable may make stale or need.
    views: HashMap<crate::ir::VarId, Vec<crate::ir::VarId>>,
    /// Facts are not recorded (a weak update through a pointer that may point elsewhere).
    quiet: bool,
    /// The run reports the function's findings (not what it leaves its callers): data its
    /// kernels use through pointers that may not be mapped is judged after them on the paths
    /// where it is, or as an unseen caller mapped it ([`FnInterp::assume_present`]).
    pub(super) recover: bool,
    /// Local pointers into one member's data (`x = &obj->v[0]`): their accesses are that
    /// member's field object.
    member_aliases: HashMap<crate::ir::VarId, String>,
    /// The member expressions those aliases take the address of (no access by themselves).
    member_alias_sources: std::collections::HashSet<crate::ir::ExprId>,
    /// Local containers whose storage a local pointer views (`d = v.data()`), with that
    /// pointer: their accesses are the pointer's data's (see `container_views`).
    container_views: HashMap<crate::ir::VarId, crate::ir::VarId>,
    /// The receivers of those `.data()` calls (no access by themselves).
    container_view_sources: std::collections::HashSet<crate::ir::ExprId>,
    /// Containers whose storage is passed straight to a call (see [`Prep`]).
    data_args: HashMap<crate::ir::ExprId, (FuncId, usize)>,
    /// Callees that hand out an element of their object's storage (see [`Prep`]).
    accessors: std::collections::HashSet<FuncId>,
    /// Local pointers to device memory only (see [`Prep`]).
    device_memory: std::collections::HashSet<crate::ir::VarId>,
    /// Members of local structs that hold device memory only (see [`Prep`]).
    device_members: std::collections::HashSet<(crate::ir::VarId, String)>,
    /// Local arrays of pointers to device memory only (see [`Prep`]).
    device_elements: std::collections::HashSet<crate::ir::VarId>,
    /// Members whose data is a field object here (aliased here, or given by a caller).
    fields: BTreeSet<String>,
    /// Struct variables followed member by member here (see [`Prep`]).
    split: super::split::Split,
    /// Variables a clause of this function names (their members' data stays theirs).
    clause_vars: BTreeSet<crate::ir::VarId>,
    /// Objects read on the host while their host copy may be stale, on any path (collected
    /// while solving, for [`FnInterp::transfer_stale_host`]).
    stale_reads: Option<BTreeSet<usize>>,
    /// Members of local objects that hold a pointer to a variable's data (see
    /// [`crate::semantics::effects::member_targets`]).
    member_targets: crate::semantics::effects::MemberTargets,
    /// Host loops known to read a clock or not ([`FnInterp::times_itself`]).
    timing: HashMap<LoopId, bool>,
}

/// What [`FnInterp::new`] derives from a function's IR alone, whatever the calling
/// context: made once per function and interpretation (a called function is set up four
/// times for its exits and once more with its callers' context).
pub(super) struct Prep {
    cover: Vec<(Span, Vec<crate::ir::VarId>)>,
    /// Struct variables whose members are followed apart (`split::split_structs`).
    split: super::split::Split,
    swaps: HashMap<crate::ir::VarId, usize>,
    member_targets: crate::semantics::effects::MemberTargets,
    member_aliases: (
        HashMap<crate::ir::VarId, String>,
        std::collections::HashSet<crate::ir::ExprId>,
    ),
    container_views: (
        HashMap<crate::ir::VarId, crate::ir::VarId>,
        std::collections::HashSet<crate::ir::ExprId>,
    ),
    /// The items of the function's directives, in the module's order.
    items: Vec<(DirId, DirectiveItems)>,
    /// Per loop header, the variables the loop fills whole (`fills::fills_whole_allocation`).
    filled: IndexVec<BlockId, Vec<crate::ir::VarId>>,
    /// Containers whose storage is passed straight to a call (`scale(v.data(), n)`), by the
    /// receiver expression: the callee and the argument's index.
    data_args: HashMap<crate::ir::ExprId, (FuncId, usize)>,
    /// The functions it calls that hand out an element of their object's storage
    /// (`effects::returns_member_element`).
    accessors: std::collections::HashSet<FuncId>,
    /// Local pointers that only hold device memory (`allocation::device_allocations`): no
    /// host copy to be stale or valid, nothing for a map to copy. Their accesses are not
    /// followed (a kernel reaches the memory by its address; the host, through
    /// `omp_target_memcpy`).
    device_memory: std::collections::HashSet<crate::ir::VarId>,
    /// Pointer members of local structs that only hold device memory
    /// (`allocation::device_member_allocations`): what they point to is not the struct's.
    device_members: std::collections::HashSet<(crate::ir::VarId, String)>,
    /// Local arrays of pointers whose elements only hold device memory
    /// (`allocation::device_element_allocations`): what they point to is not the array's.
    device_elements: std::collections::HashSet<crate::ir::VarId>,
}

/// Each function's [`Prep`], made on first use.
#[derive(Default)]
pub(super) struct Prepared {
    cells: std::cell::RefCell<HashMap<FuncId, std::rc::Rc<Prep>>>,
}

impl Prepared {
    fn of(&self, module: &Module, source: &str, id: FuncId, g: &Cfg) -> std::rc::Rc<Prep> {
        if let Some(p) = self.cells.borrow().get(&id) {
            return p.clone();
        }
        let func = module.function(id);
        let member_aliases = crate::semantics::effects::member_alias_sets(module, func);
        let split = super::split::Split::of(module, id);
        let items = module
            .directives
            .iter_enumerated()
            .filter(|(_, info)| info.function == Some(id))
            // (A clause naming a pointer into a member's data already names that member's
            // field object: `directive_items` maps it.)
            .map(|(d, _)| {
                let items = super::items::directive_items_with(
                    module,
                    d,
                    source,
                    Some(&member_aliases.0),
                    Some(&split),
                );
                (d, items)
            })
            .collect();
        let p = std::rc::Rc::new(Prep {
            cover: coverage(module, id, g),
            split,
            swaps: crate::semantics::effects::swap_groups(module, func),
            member_targets: crate::semantics::effects::member_targets(module, func),
            member_aliases,
            container_views: crate::semantics::effects::container_views(module, func),
            data_args: crate::semantics::effects::data_arguments(module, func),
            accessors: func
                .exprs
                .iter()
                .filter_map(|e| match e.kind {
                    crate::ir::ExprKind::Call {
                        callee: crate::ir::Callee::Direct(c),
                        ..
                    } => Some(c),
                    _ => None,
                })
                .filter(|c| crate::semantics::effects::returns_member_element(module, *c))
                .collect(),
            items,
            device_memory: crate::semantics::allocation::device_allocations(module, func),
            device_members: crate::semantics::allocation::device_member_allocations(module, func),
            device_elements: crate::semantics::allocation::device_element_allocations(module, func),
            filled: g
                .blocks
                .indices()
                .map(|b| {
                    g.loops
                        .iter()
                        .filter(|l| l.header == b)
                        .flat_map(|l| super::fills::fills_whole_allocation(module, id, g, l))
                        .collect()
                })
                .collect(),
        });
        self.cells.borrow_mut().insert(id, p.clone());
        p
    }
}

const UNRESOLVED: &str = "omplens cannot see what the call does with it (the callee depends on a \
     template parameter or goes through a pointer, or it is a lambda's code under a condition)";

fn within(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

impl<'a> FnInterp<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        module: &'a Module,
        source: &str,
        id: FuncId,
        g: &'a Cfg,
        sums: &'a IndexVec<FuncId, Summary>,
        exits: &'a Exits,
        prepared: &Prepared,
        context: BTreeMap<Object, ObjState>,
    ) -> FnInterp<'a> {
        let func = module.function(id);
        let prep = prepared.of(module, source, id, g);
        let mut f = FnInterp {
            module,
            id,
            func,
            g,
            sums,
            exits,
            objects: Vec::new(),
            index: HashMap::new(),
            entry: State::default(),
            items: HashMap::new(),
            kernels: Vec::new(),
            events: IndexVec::new(),
            cover: prep.cover.clone(),
            report: false,
            facts: Vec::new(),
            copies: Vec::new(),
            consumed: BTreeSet::new(),
            mappings: Vec::new(),
            accesses: Vec::new(),
            passed: Vec::new(),
            points: Vec::new(),
            unproven: Vec::new(),
            swaps: prep.swaps.clone(),
            in_swap: false,
            exchanges: HashMap::new(),
            region_exchanges: HashMap::new(),
            filled: IndexVec::new(),
            contexts: HashMap::new(),
            context_known: BTreeSet::new(),
            aliases: crate::semantics::effects::LocalAliases {
                roots: HashMap::new(),
                sources: Default::default(),
            },
            views: HashMap::new(),
            quiet: false,
            recover: false,
            member_aliases: HashMap::new(),
            member_alias_sources: Default::default(),
            container_views: HashMap::new(),
            container_view_sources: Default::default(),
            data_args: prep.data_args.clone(),
            accessors: prep.accessors.clone(),
            device_memory: prep.device_memory.clone(),
            device_members: prep.device_members.clone(),
            device_elements: prep.device_elements.clone(),
            fields: BTreeSet::new(),
            split: prep.split.clone(),
            clause_vars: BTreeSet::new(),
            stale_reads: None,
            member_targets: prep.member_targets.clone(),
            timing: HashMap::new(),
        };
        (f.member_aliases, f.member_alias_sources) = prep.member_aliases.clone();
        (f.container_views, f.container_view_sources) = prep.container_views.clone();
        for (d, items) in &prep.items {
            for o in items
                .maps
                .iter()
                .map(|m| &m.object)
                .chain(items.motions.iter().map(|m| &m.object))
            {
                f.track(o);
            }
            f.items.insert(*d, items.clone());
        }
        f.clause_vars = f
            .objects
            .iter()
            .filter_map(|o| match o {
                Object::Var(v) => Some(*v),
                Object::Member(_) | Object::Field(..) => None,
            })
            .collect();
        for o in context.keys() {
            let i = f.track(o);
            f.context_known.insert(i);
        }
        f.fields = f
            .member_aliases
            .values()
            .cloned()
            .chain(context.keys().filter_map(|o| match o {
                Object::Member(m) => Some(m.clone()),
                _ => None,
            }))
            .collect();
        let named = f.index.clone();
        f.aliases = crate::semantics::effects::local_aliases(module, func, |l| {
            named.contains_key(&Object::Var(l))
        });
        let all = crate::semantics::effects::local_aliases(module, func, |_| false);
        for (&v, roots) in &all.roots {
            if let [r] = roots[..] {
                if named.contains_key(&Object::Var(v)) && !f.aliases.roots.contains_key(&v) {
                    f.views.entry(r).or_default().push(v);
                }
            }
        }
        f.events = g
            .blocks
            .iter()
            .map(|b| b.nodes.iter().map(|n| f.node_events(n)).collect())
            .collect();
        // A local view of a container parameter's storage (`src = in.data()`) starts as the
        // caller's container does.
        let viewed: HashMap<Object, Object> = f
            .container_views
            .iter()
            .map(|(c, p)| (Object::Var(*p), Object::Var(*c)))
            .collect();
        for (i, o) in f.objects.iter().enumerate() {
            if viewed.get(o).is_some_and(|c| context.contains_key(c)) {
                f.context_known.insert(i);
            }
        }
        f.entry = f
            .objects
            .iter()
            .map(|o| {
                let given = context
                    .get(o)
                    .or_else(|| viewed.get(o).and_then(|c| context.get(c)));
                let mut s = given.cloned().unwrap_or_else(ObjState::unmapped);
                // (`last_out` stays: a copy to the host the callers made last, which a copy
                // back here makes a round trip.)
                s.pending_in.clear();
                s.entered = None;
                s
            })
            .collect();
        f.kernels = f.find_kernels();
        f.exchanges = f.exact_exchanges();
        f.filled = f.filled_by_loops(&prep);
        f
    }

    /// [`Self::filled`] in this set-up's objects (the fixed point is solved more than once).
    fn filled_by_loops(&self, prep: &Prep) -> IndexVec<BlockId, Vec<usize>> {
        prep.filled
            .iter()
            .map(|vs| {
                vs.iter()
                    .filter_map(|v| self.index.get(&Object::Var(*v)).copied())
                    .collect()
            })
            .collect()
    }

    /// Per loop header: the rows of arrays of pointers (`split_rows`) that the loop takes one
    /// at a time: every access and every list item of them in the loop (its kernels too)
    /// indexes the array with the loop's counter first (`p[i][j]`, `map(to: p[i][0:m])`).
    /// Each iteration then finds its row as the loop found it, not as the iteration before
    /// left another row: the body starts from the state before the loop (`solve`).
    fn rowwise_loops(&self) -> IndexVec<BlockId, Vec<usize>> {
        let mut out: IndexVec<BlockId, Vec<usize>> =
            self.g.blocks.iter().map(|_| Vec::new()).collect();
        if self.split.rows.is_empty() {
            return out;
        }
        let rows: Vec<(crate::ir::VarId, usize)> = self
            .split
            .rows
            .iter()
            .filter_map(|v| {
                let o = super::split::rows_of(*v);
                Some((*v, *self.index.get(&o)?))
            })
            .collect();
        for (l, lp) in self.g.loops.iter_enumerated() {
            let Some(iv) = lp.induction else { continue };
            let span = self.func.stmt(lp.stmt).span;
            let counter = |e: crate::ir::ExprId| matches!(self.func.expr(self.func.strip_casts(e)).kind, crate::ir::ExprKind::Var(x) if x == iv);
            let iv_name = self.module.var(iv).name.as_str();
            for &(v, obj) in &rows {
                let name = self.module.var(v).name.as_str();
                let object = &self.objects[obj];
                // Every access in the loop's blocks.
                let accesses_ok = self
                    .g
                    .blocks
                    .iter()
                    .filter(|b| {
                        b.loop_id
                            .is_some_and(|x| self.g.loop_chain(x).any(|c| c == l))
                    })
                    .flat_map(|b| b.nodes.iter())
                    .flat_map(|n| n.accesses.iter())
                    .filter(|a| a.root == Root::Var(v))
                    .all(|a| match a.path.first() {
                        _ if a.path.len() < 2 => true,
                        Some(crate::ir::access::PathElem::Index(e)) => counter(*e),
                        _ => false,
                    });
                // Every list item of the loop's directives.
                let row_of_counter = |text: &str| {
                    text.trim_start()
                        .strip_prefix(name)
                        .and_then(|r| r.trim_start().strip_prefix('['))
                        .and_then(|r| r.split_once(']'))
                        .is_some_and(|(i, _)| i.trim() == iv_name)
                };
                let items_ok = self
                    .items
                    .iter()
                    .filter(|(d, _)| within(span, self.module.directive(**d).directive.span))
                    .all(|(_, it)| {
                        it.maps
                            .iter()
                            .filter(|m| &m.object == object)
                            .all(|m| row_of_counter(&m.text))
                            && it
                                .motions
                                .iter()
                                .filter(|m| &m.object == object)
                                .all(|m| row_of_counter(&m.text))
                    });
                if accesses_ok && items_ok {
                    out[lp.header].push(obj);
                }
            }
        }
        out
    }

    /// The exact swaps of the function whose two pointers are both tracked, outside kernels,
    /// and that every data region around them maps alike (a region's end unmaps the data its
    /// start mapped, whatever the pointers hold by then: an exchange must not change what it
    /// copies back). A group with one swap that fails keeps the weak model; the others leave
    /// `swaps`.
    fn exact_exchanges(&mut self) -> HashMap<StmtId, (usize, usize)> {
        let sites = crate::semantics::effects::exact_swaps(self.module, self.func);
        let mut failed: BTreeSet<usize> = BTreeSet::new();
        let mut ok = Vec::new();
        for s in &sites {
            let Some(&g) = self.swaps.get(&s.a) else {
                continue;
            };
            let objs = (
                self.index.get(&Object::Var(s.a)).copied(),
                self.index.get(&Object::Var(s.b)).copied(),
            );
            let (Some(i), Some(j)) = objs else {
                failed.insert(g);
                continue;
            };
            if self.kernel_of(s.at).is_some() {
                failed.insert(g);
                continue;
            }
            let remap = if self.regions_map_alike(s) {
                Vec::new()
            } else {
                match self.regions_run_once_around(s.at) {
                    Some(regions) => regions,
                    None => {
                        failed.insert(g);
                        continue;
                    }
                }
            };
            ok.push((g, s.at, i, j, remap, (s.a, s.b)));
        }
        let mut out = HashMap::new();
        for (g, at, i, j, remap, pair) in ok {
            if !failed.contains(&g) {
                out.insert(at, (i, j));
                self.swaps.retain(|_, h| *h != g);
                for d in remap {
                    let pairs = self.region_exchanges.entry(d).or_default();
                    // Two exchanges of one pair in a region cancel out.
                    match pairs
                        .iter()
                        .position(|p| *p == pair || *p == (pair.1, pair.0))
                    {
                        Some(k) => {
                            pairs.remove(k);
                        }
                        None => pairs.push(pair),
                    }
                }
            }
        }
        out
    }

    /// The `target data` regions around `at` when `at` runs once per run of each (no loop
    /// inside a region holds it); None when one of them repeats it (its parity at the region's
    /// end is not known).
    fn regions_run_once_around(&self, at: StmtId) -> Option<Vec<DirId>> {
        let at_span = self.func.stmt(at).span;
        let mut out = Vec::new();
        for &d in self.items.keys() {
            let info = self.module.directive(d);
            let Some(body) = info.governs else { continue };
            let body = self.func.stmt(body).span;
            if !within(body, at_span) {
                continue;
            }
            if info.directive.kind != DirectiveKind::TargetData {
                return None;
            }
            let repeated = self.g.loops.iter().any(|l| {
                let ls = self.func.stmt(l.stmt).span;
                within(body, ls) && within(ls, at_span)
            });
            if repeated {
                return None;
            }
            out.push(d);
        }
        Some(out)
    }

    /// Whether every `target data` region of the function around `s` maps its two pointers
    /// alike: neither, or both with the same copy back and the same section.
    fn regions_map_alike(&self, s: &crate::semantics::effects::ExactSwap) -> bool {
        let at = self.func.stmt(s.at).span;
        let name = |v: crate::ir::VarId| self.module.var(v).name.clone();
        let (na, nb) = (name(s.a), name(s.b));
        self.items.iter().all(|(&d, items)| {
            let info = self.module.directive(d);
            let Some(body) = info.governs else {
                return true;
            };
            if !within(self.func.stmt(body).span, at) {
                return true;
            }
            let item = |v: crate::ir::VarId, n: &str| {
                items
                    .maps
                    .iter()
                    .find(|m| m.object == Object::Var(v))
                    .map(|m| {
                        let from = matches!(m.map_type, MapType::From | MapType::ToFrom);
                        (from, m.text.strip_prefix(n).map(str::to_string))
                    })
            };
            match (item(s.a, &na), item(s.b, &nb)) {
                (None, None) => true,
                (Some((fa, Some(sa))), Some((fb, Some(sb)))) => fa == fb && sa == sb,
                _ => false,
            }
        })
    }

    /// The call of `callee`, passing data with `effect`, when omplens cannot see what it does
    /// to the data: no body here, not analysed, or it passes the data on to such a call.
    fn opaque_call(&self, callee: FuncId, effect: &Effect, at: Span) -> Option<Opaque> {
        let f = self.module.function(callee);
        let name = &f.qualified_name;
        // The cases of `Function::unseen`, each said, then a callee that passes the data on.
        let what = if f.not_analysed.is_some() {
            format!("omplens does not analyse `{name}`")
        } else if f.offloads_unseen {
            format!("`{name}` has OpenMP directives in a header, which omplens does not analyse")
        } else if let Some(file) = f.launches_in_file() {
            format!(
                "`{name}` maps data or launches kernels in `{file}`, which omplens does not \
                 follow across files"
            )
        } else if !f.has_body && !f.in_system_header && f.external.is_none() {
            format!("`{name}` has no body in this file")
        } else if effect.opaque {
            format!("`{name}` passes it on to a call omplens cannot see into")
        } else {
            return None;
        };
        Some(Opaque {
            what,
            at,
            passed: true,
        })
    }

    /// Whether `callee`'s body is nowhere omplens reads: no body in this file, none known
    /// from another file of the compile database, not a library function.
    fn unseen_body(&self, callee: FuncId) -> bool {
        let f = self.module.function(callee);
        !f.has_body && !f.in_system_header && f.external.is_none() && !f.declare_target
    }

    /// The globals of external linkage that this function's data directives (`target data`,
    /// `enter`/`exit data`, `update`) name: those whose device copy outlives one kernel here.
    fn mapped_globals(&self) -> Vec<crate::ir::VarId> {
        let mut out: Vec<crate::ir::VarId> = self
            .items
            .iter()
            .filter(|(d, _)| {
                matches!(
                    self.module.directives[**d].directive.kind,
                    DirectiveKind::TargetData
                        | DirectiveKind::TargetEnterData
                        | DirectiveKind::TargetExitData
                        | DirectiveKind::TargetUpdate
                )
            })
            .flat_map(|(_, items)| {
                items
                    .maps
                    .iter()
                    .map(|m| &m.object)
                    .chain(items.motions.iter().map(|m| &m.object))
            })
            .filter_map(|o| match o {
                Object::Var(v) => Some(*v),
                _ => None,
            })
            .filter(|v| {
                let var = self.module.var(*v);
                var.storage == Storage::Global && !var.declare_target
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn track(&mut self, o: &Object) -> usize {
        if let Some(&i) = self.index.get(o) {
            return i;
        }
        self.objects.push(o.clone());
        self.index.insert(o.clone(), self.objects.len() - 1);
        self.objects.len() - 1
    }

    pub(super) fn take_contexts(&mut self) -> HashMap<FuncId, BTreeMap<Object, ObjState>> {
        std::mem::take(&mut self.contexts)
    }

    /// The pointer member of a struct variable whose data `a` reaches (`t.val[i]`, `*t.val`,
    /// `t.val` passed to a call as a pointer), and how the program names it (`t.val`).
    fn pointer_member_data(&self, a: &Access) -> Option<(String, String)> {
        let Root::Var(v) = a.root else { return None };
        if !matches!(
            self.module.var(v).ty.referent().kind,
            crate::ir::TypeKind::Record(_)
        ) {
            return None;
        }
        let passed = matches!(a.escape, Some(Escape::CallArg { index: Some(_), .. }));
        let mut e = a.expr;
        let mut through = false;
        for _ in 0..32 {
            match &self.func.expr(e).kind {
                crate::ir::ExprKind::Subscript(b, _)
                | crate::ir::ExprKind::Unary(crate::ir::UnaryOp::Deref, b) => {
                    through = true;
                    e = *b;
                }
                crate::ir::ExprKind::Cast(x) => e = *x,
                crate::ir::ExprKind::Member { field, base, .. } => {
                    let pointer = matches!(
                        self.func.expr(e).class,
                        TypeClass::Pointer | TypeClass::PointerToConst
                    );
                    // Directly on the variable (`t.val`), not through a nested member.
                    let on_var = base.is_some_and(|b| {
                        matches!(self.func.expr(self.func.strip_casts(b)).kind, crate::ir::ExprKind::Var(x) if x == v)
                    });
                    let name = format!("{}.{}", self.module.var(v).name, field);
                    return (pointer && on_var && (through || passed))
                        .then_some((field.clone(), name));
                }
                _ => return None,
            }
        }
        None
    }

    /// Whether a map clause of this function maps data through the member `member` (an
    /// item `t.val[0:n]`, `s->val[:n]`, or the expression `text` itself as a section).
    /// An access of the data behind a struct's member or an array's element that holds
    /// device memory (`v.data[i]` after `v.data = omp_target_alloc(...)`, `rows[i][j]` after
    /// `rows[i] = omp_target_alloc(...)`): not the struct's or the array's data.
    fn through_device_member(&self, a: &Access) -> bool {
        let Root::Var(v) = a.root else { return false };
        match a.path.as_slice() {
            [crate::ir::access::PathElem::Member(m), _, ..] => {
                self.device_members.contains(&(v, m.clone()))
            }
            [crate::ir::access::PathElem::Index(_), _, ..] => self.device_elements.contains(&v),
            _ => false,
        }
    }

    fn maps_through_member(&self, member: &str, text: &str) -> bool {
        let through = [
            format!(".{member}["),
            format!("->{member}["),
            format!("{text}["),
        ];
        self.items.values().any(|it| {
            it.maps.iter().any(|m| {
                let t: String = m
                    .through_mapper
                    .as_deref()
                    .unwrap_or(&m.text)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                through.iter().any(|p| t.contains(p.as_str()))
            })
        })
    }

    fn object_of(&self, a: &Access) -> Option<Object> {
        match a.root {
            Root::This => match member_path(a) {
                // The pointer held in a member (`double *p = p_;`, `p_(p)`): its value, not
                // the data it points to.
                [crate::ir::access::PathElem::Member(_)]
                    if a.escape.is_none()
                        && matches!(
                            self.func.expr(a.expr).class,
                            TypeClass::Pointer | TypeClass::PointerToConst
                        ) =>
                {
                    None
                }
                [crate::ir::access::PathElem::Member(m), ..] => Some(Object::Member(m.clone())),
                _ => None,
            },
            Root::Var(v) if self.split.structs.contains(&v) => match a.path.first() {
                Some(crate::ir::access::PathElem::Member(m)) => Some(Object::Field(v, m.clone())),
                // (`split_structs` admits no other use.)
                _ => Some(Object::Var(v)),
            },
            // An element of a row (`p[i][j]`, `*p[i]`) is the rows'; `p[i]` itself, the
            // array's.
            Root::Var(v) if self.split.rows.contains(&v) => Some(if a.path.len() >= 2 {
                super::split::rows_of(v)
            } else {
                Object::Var(v)
            }),
            Root::Var(v) => {
                let var = self.module.var(v);
                let pointer_value = (var.ty.is_pointer() || var.ty.is_pointer_reference())
                    && a.path.is_empty()
                    && a.escape.is_none();
                if let Some(m) = self.member_aliases.get(&v) {
                    return (!pointer_value).then(|| Object::Member(m.clone()));
                }
                // A member's data as a field object, unless a clause here maps the object
                // itself (`map(s.x[0:n])` names `s`: its accesses stay `s`'s).
                if let Some(m) = crate::semantics::effects::member_data(a) {
                    if self.fields.contains(m) && !self.clause_vars.contains(&v) {
                        return Some(Object::Member(m.to_string()));
                    }
                }
                let v = match self.aliases.roots.get(&v) {
                    Some(r) if r.len() == 1 => r[0],
                    _ => v,
                };
                // `v[i] = x` on a container whose data a pointer views (`d = v.data()`).
                if let Some(p) = self.container_views.get(&v) {
                    return Some(Object::Var(*p));
                }
                // `e = nodelist + 8*k` with `nodelist = &dom->m_nodelist[0]`.
                if let Some(m) = self.member_aliases.get(&v) {
                    return (!pointer_value).then(|| Object::Member(m.clone()));
                }
                let declare_target = self.module.var(v).declare_target;
                (!pointer_value && !declare_target).then_some(Object::Var(v))
            }
        }
    }

    /// The calls of `omp_target_associate_ptr` (true) and `omp_target_disassociate_ptr`
    /// (false) in `n`, with the variable whose data their first argument names.
    fn associations(&self, n: &Node) -> Vec<(crate::ir::VarId, bool)> {
        let f = self.func;
        let mut out = Vec::new();
        let mut stack: Vec<crate::ir::ExprId> = n.exprs.clone();
        while let Some(e) = stack.pop() {
            let kind = &f.expr(e).kind;
            stack.extend(crate::semantics::symbolic::children(kind));
            let crate::ir::ExprKind::Call {
                callee: crate::ir::Callee::Direct(c),
                args,
                ..
            } = kind
            else {
                continue;
            };
            let g = self.module.function(*c);
            let associate = match g.name.as_str() {
                "omp_target_associate_ptr" => true,
                "omp_target_disassociate_ptr" => false,
                _ => continue,
            };
            if !g.in_system_header {
                continue;
            }
            let first = args.first().map(|a| f.strip_casts(*a));
            let var = first.and_then(|a| match f.expr(a).kind {
                crate::ir::ExprKind::Var(v) => Some(v),
                // `&x` or `&a[0]`
                crate::ir::ExprKind::Unary(crate::ir::UnaryOp::AddrOf, x) => match f.expr(x).kind {
                    crate::ir::ExprKind::Var(v) => Some(v),
                    crate::ir::ExprKind::Subscript(b, i)
                        if matches!(
                            f.expr(f.strip_casts(i)).kind,
                            crate::ir::ExprKind::Int { value: Some(0), .. }
                        ) =>
                    {
                        match f.expr(f.strip_casts(b)).kind {
                            crate::ir::ExprKind::Var(v) => Some(v),
                            _ => None,
                        }
                    }
                    _ => None,
                },
                _ => None,
            });
            if let Some(v) = var {
                out.push((v, associate));
            }
        }
        out
    }

    fn node_events(&mut self, n: &Node) -> Vec<Event> {
        let mut evs = Vec::new();
        if n.exec != Exec::Device {
            for (v, associate) in self.associations(n) {
                let obj = self.track(&Object::Var(v));
                evs.push(Event::Associate { obj, associate });
            }
        }
        let span_of = |e: crate::ir::ExprId| self.func.expr(e).span;
        let call_span = n
            .exprs
            .first()
            .map_or(self.func.stmt(n.stmt).span, |e| span_of(*e));
        let own_object_calls = own_object_calls(self.module, self.func, &n.exprs);
        for callee in calls_in(self.func, &n.exprs) {
            let mut globals: Vec<(crate::ir::VarId, Effect)> = self.sums[callee]
                .globals
                .iter()
                .map(|(v, e)| (*v, *e))
                .collect();
            let mut members: Vec<(String, Effect)> = self.sums[callee]
                .members
                .iter()
                .map(|(m, e)| (m.clone(), *e))
                .collect();
            // Members the callee only maps or unmaps through (`double *p = p_;` then `exit
            // data map(from: p[0:n])`, a destructor's): the call still changes their data.
            for o in [&self.exits.unmapped, &self.exits.mapped]
                .into_iter()
                .filter_map(|t| t.get(&callee))
                .flat_map(|t| t.keys())
            {
                if let Object::Member(m) = o {
                    if !members.iter().any(|(x, _)| x == m) {
                        members.push((m.clone(), Effect::default()));
                    }
                }
            }
            for (m, e) in members {
                // A member that holds a pointer to one of this function's variables: the
                // callee's accesses through it are that variable's data's.
                let target =
                    self.member_targets
                        .members
                        .get(&m)
                        .map(|v| match self.aliases.roots.get(v) {
                            Some(r) if r.len() == 1 => r[0],
                            _ => *v,
                        });
                let obj = match target {
                    Some(v) => self.track(&Object::Var(v)),
                    None => self.track(&Object::Member(m.clone())),
                };
                evs.push(Event::Call {
                    obj,
                    callee,
                    effect: e,
                    span: call_span,
                    callee_object: Some(Object::Member(m)),
                    may: false,
                });
            }
            // A method of this object called on it (`at(x, i)` in a method) reads or sets the
            // scalar members a clause here maps by name (`map(to: alpha)`). Only here, for the
            // object's own members: the summaries do not carry scalar members, which would
            // pass by name to every caller whatever the object.
            if own_object_calls.contains(&callee) {
                for (m, e) in own_scalar_members(self.module, callee) {
                    let o = Object::Member(m);
                    if !self.index.contains_key(&o) {
                        continue;
                    }
                    let obj = self.track(&o);
                    evs.push(Event::Call {
                        obj,
                        callee,
                        effect: e,
                        span: call_span,
                        callee_object: Some(o),
                        may: false,
                    });
                }
            }
            // Globals the callee only maps or unmaps (no access): the call still changes them
            // (an `exit data` of its own shows only when the data is mapped at its entry).
            for o in [&self.exits.unmapped, &self.exits.mapped]
                .into_iter()
                .filter_map(|t| t.get(&callee))
                .flat_map(|t| t.keys())
            {
                if let Object::Var(v) = o {
                    let global = matches!(
                        self.module.var(*v).storage,
                        Storage::Global | Storage::StaticGlobal
                    );
                    if global && !globals.iter().any(|(g, _)| g == v) {
                        globals.push((*v, Effect::default()));
                    }
                }
            }
            for (v, e) in globals.iter().copied() {
                if self.module.var(v).declare_target {
                    continue;
                }
                let obj = self.track(&Object::Var(v));
                evs.push(Event::Call {
                    obj,
                    callee,
                    effect: e,
                    span: call_span,
                    callee_object: Some(Object::Var(v)),
                    may: false,
                });
            }
            // A function whose body omplens has nowhere (another file, no compile database)
            // can name any global of external linkage, and launch kernels on it (NPB's
            // `l2norm()` in its own file): the globals this function maps may be read or
            // written there, on the host or on the device (a weak update, said so).
            if n.exec != Exec::Device && self.unseen_body(callee) {
                for v in self.mapped_globals() {
                    if globals.iter().any(|(g, _)| *g == v) {
                        continue;
                    }
                    let obj = self.track(&Object::Var(v));
                    evs.push(Event::Reach {
                        obj,
                        callee,
                        span: call_span,
                    });
                }
            }
        }
        for a in &n.accesses {
            if matches!(a.root, Root::Var(v) if self.device_memory.contains(&v)) {
                continue;
            }
            // (The data behind a member holding device memory is not the struct's: the
            // access reads the member, the address.)
            let through_member;
            let a = if self.through_device_member(a) {
                through_member = Access {
                    path: a.path[..1].to_vec(),
                    kind: crate::ir::access::AccessKind::Read,
                    escape: None,
                    ..a.clone()
                };
                &through_member
            } else {
                a
            };
            // `row = &a[k]` takes an address: the accesses through `row` are a's.
            if matches!(a.escape, Some(Escape::AddressTaken))
                && (self.aliases.sources.contains(&a.expr)
                    || self.member_alias_sources.contains(&a.expr))
            {
                continue;
            }
            // `scale(v.data(), n)`: the call's effect on its parameter is on `v`'s data.
            let data_arg = self.data_args.get(&a.expr).map(|&(c, i)| Escape::CallArg {
                callee: Some(c),
                index: Some(i),
            });
            // `d = v.data()`: taking the view touches no data; nor does `v.size()`.
            if data_arg.is_none()
                && (self.container_view_sources.contains(&a.expr)
                    || crate::semantics::effects::is_library_query(self.module, a))
            {
                continue;
            }
            let escape = data_arg.as_ref().or(a.escape.as_ref());
            // Through a pointer that may point into several variables (`dst = c ? a : b`, a
            // swap): each may be accessed, none certainly (a weak update of each).
            let multi = match a.root {
                Root::Var(v) if !a.path.is_empty() || a.escape.is_some() => {
                    self.aliases.roots.get(&v).filter(|r| r.len() > 1).cloned()
                }
                _ => None,
            };
            let may_all = multi.is_some();
            let mut objects: Vec<(Object, bool)> = match multi {
                Some(roots) => roots
                    .into_iter()
                    .filter(|r| !self.module.var(*r).declare_target)
                    .map(|r| (Object::Var(r), true))
                    .collect(),
                None => self.object_of(a).into_iter().map(|o| (o, false)).collect(),
            };
            // An object holding pointers to variables' data (`Ring r(out, t)`) passed to a
            // callee: the callee may reach that data through it (a weak update of each).
            if let (Root::Var(v), Some(Escape::CallArg { index: Some(_), .. })) =
                (a.root, &a.escape)
            {
                if let Some(held) = self.member_targets.holders.get(&v) {
                    objects.extend(held.iter().map(|t| (Object::Var(*t), true)));
                }
            }
            // The host's access to data a clause also maps under another name may be an
            // access to that copy too (a weak update of each view). Calls are left to the
            // callee's context, which follows the argument's own object.
            if n.exec == Exec::Host && a.escape.is_none() {
                let views: Vec<(Object, bool)> = objects
                    .iter()
                    .filter_map(|(o, _)| match o {
                        Object::Var(r) => self.views.get(r),
                        Object::Member(_) | Object::Field(..) => None,
                    })
                    .flatten()
                    .map(|v| (Object::Var(*v), true))
                    .collect();
                objects.extend(views);
            }
            for (object, may) in objects {
                let may = may || may_all;
                let first = evs.len();
                let span = span_of(a.expr);
                match escape {
                    Some(Escape::CallArg {
                        callee: Some(c),
                        index,
                    }) => {
                        let s = &self.sums[*c];
                        let mut effect = match index {
                            Some(i) => s.params.get(*i).copied().unwrap_or_else(|| {
                                crate::semantics::effects::library_template_arg(
                                    self.module.function(*c),
                                    *i,
                                )
                                .unwrap_or_default()
                            }),
                            // `v.clear()`: the elements go, none is read.
                            None if crate::semantics::effects::is_library_discard(
                                self.module,
                                *c,
                            ) =>
                            {
                                Effect {
                                    here_write: true,
                                    ..Default::default()
                                }
                            }
                            // `v.begin()` given to `std::fill`: what the algorithm does.
                            None => crate::semantics::effects::iterator_argument_effect(
                                self.module,
                                self.func,
                                &n.exprs,
                                a,
                            )
                            .unwrap_or(s.this),
                        };
                        // The access says the call only reads (an element read of a container).
                        if a.kind == crate::ir::access::AccessKind::Read {
                            effect.here_write = false;
                            effect.kernel_write = false;
                        }
                        let callee_object = index.and_then(|i| {
                            self.module
                                .function(*c)
                                .params
                                .get(i)
                                .map(|p| Object::Var(*p))
                        });
                        let obj = self.track(&object);
                        evs.push(Event::Call {
                            obj,
                            callee: *c,
                            effect,
                            span,
                            callee_object,
                            may: false,
                        });
                    }
                    _ => {
                        let write = a.kind.writes();
                        let read_itself = a.kind.reads();
                        let mut read = read_itself;
                        // A kernel's write to part of an object needs the rest valid on the device
                        // (it is copied back whole), unless the kernel overwrites all it maps.
                        if write && n.exec == Exec::Device && is_partial_write(a) {
                            let stmt = self.func.stmt(n.stmt).span;
                            let covered = match (a.root, a.path.len()) {
                                (Root::Var(v), 1) => self
                                    .cover
                                    .iter()
                                    .any(|(k, vs)| within(*k, stmt) && vs.contains(&v)),
                                _ => false,
                            };
                            read |= !covered;
                        }
                        if read || write {
                            let obj = self.track(&object);
                            evs.push(Event::Access {
                                obj,
                                read,
                                write,
                                span,
                                partial: read && !read_itself,
                                opaque: matches!(
                                    a.escape,
                                    Some(Escape::CallArg { callee: None, .. })
                                ),
                                may: false,
                            });
                        }
                    }
                }
                if may {
                    for e in &mut evs[first..] {
                        match e {
                            Event::Access { may, .. } | Event::Call { may, .. } => *may = true,
                            Event::Reach { .. } | Event::Associate { .. } => {}
                        }
                    }
                }
            }
        }
        evs
    }

    fn find_kernels(&self) -> Vec<Kernel> {
        let mut out = Vec::new();
        let mappers = super::mappers::mappers(self.module);
        for (&d, items) in &self.items {
            let info = self.module.directive(d);
            if !info.directive.kind.is_offload_kernel() {
                continue;
            }
            let Some(body) = info.governs else { continue };
            let span = Span {
                start: info.directive.span.start,
                end: self.func.stmt(body).span.end,
            };
            let mut k = Kernel {
                dir: d,
                span,
                items: items.clone(),
                implicit: Vec::new(),
                pointers: Vec::new(),
                copied_pointers: Vec::new(),
                unmapped_members: Vec::new(),
                unmapped_pointer_members: Vec::new(),
                lost: Vec::new(),
                lost_lastprivate: Vec::new(),
                implicit_firstprivate: Vec::new(),
                reads: Vec::new(),
                untracked: BTreeSet::new(),
                opaque: BTreeMap::new(),
                writes: BTreeSet::new(),
            };
            // Private copies: data-sharing clauses of the kernel, and private copies made by
            // directives nested in it (a nested reduction still writes the kernel's copy).
            // A reduction on the combined construct itself is not one: its list item is
            // mapped `tofrom` (OpenMP 5.2 §5.8.1), and the kernel combines its partial
            // results with the device copy of it, reading and writing that copy.
            let combined = info.directive.kind.is_combined();
            for (&d2, it2) in &self.items {
                let s2 = self.module.directive(d2).directive.span;
                let list = if d2 == d {
                    &it2.other
                } else if within(span, s2) {
                    &it2.private
                } else {
                    continue;
                };
                for o in list {
                    if d2 == d
                        && (items.firstprivate.contains(o)
                            || (combined && items.reductions.contains(o)))
                    {
                        continue;
                    }
                    if let Some(&i) = self.index.get(o) {
                        k.untracked.insert(i);
                    }
                }
            }
            for (i, o) in self.objects.iter().enumerate() {
                if let Object::Var(v) = o {
                    let var = self.module.var(*v);
                    if var.declare_target || var.span.is_some_and(|s| within(span, s)) {
                        k.untracked.insert(i);
                    }
                }
            }
            // The iteration variable of a loop a loop construct is associated with is
            // predetermined private (OpenMP 5.2 §5.1.1), even when declared outside.
            for (d2, info2) in self.module.directives.iter_enumerated() {
                let loops = [
                    Leaf::For,
                    Leaf::Distribute,
                    Leaf::Simd,
                    Leaf::Loop,
                    Leaf::Taskloop,
                ];
                let kind2 = info2.directive.kind;
                if info2.function != Some(self.id)
                    || !(d2 == d || within(span, info2.directive.span))
                    || !loops.iter().any(|l| kind2.has_leaf(*l))
                {
                    continue;
                }
                let Some(body) = info2.governs else { continue };
                if let StmtKind::For(fl) = &self.func.stmt(body).kind {
                    if let Some(&i) = fl.induction.and_then(|iv| self.index.get(&Object::Var(iv))) {
                        k.untracked.insert(i);
                    }
                }
            }
            let explicit: BTreeSet<usize> = items
                .maps
                .iter()
                .filter_map(|m| self.index.get(&m.object).copied())
                .collect();
            // What the body reads and writes, first occurrence.
            let mut uses: BTreeMap<usize, (Option<Span>, Option<Span>)> = BTreeMap::new();
            // Reads (not partial writes) and writes with the start of their statement: a
            // read counts as reading what the kernel found on entry only when no statement
            // before it in the kernel writes the object.
            let mut reads: Vec<(u32, usize, Span)> = Vec::new();
            let mut first_write: BTreeMap<usize, u32> = BTreeMap::new();
            for (b, block) in self.g.blocks.iter_enumerated() {
                for (n, node) in block.nodes.iter().enumerate() {
                    let at = self.func.stmt(node.stmt).span;
                    if node.exec != Exec::Device || !within(span, at) {
                        continue;
                    }
                    for a in &node.accesses {
                        let Some((member, text)) = self.pointer_member_data(a) else {
                            continue;
                        };
                        let Root::Var(v) = a.root else { continue };
                        // A struct the kernel declares, or one that is `declare target`,
                        // lives on the device with whatever its members point to there.
                        let var = self.module.var(v);
                        if var.declare_target || var.span.is_some_and(|s| within(span, s)) {
                            continue;
                        }
                        // (A struct the kernel maps implicitly maps its members as its
                        // type's default mapper says.)
                        let by_mapper = || {
                            super::mappers::for_var(self.module, &mappers, v, None).is_some_and(
                                |m| {
                                    m.items.iter().any(|(i, _, _)| {
                                        i.base.name == m.var
                                            && i.has_sections()
                                            && matches!(i.path.first(),
                                                Some(Accessor::Member { name, .. }) if name.name == member)
                                    })
                                },
                            )
                        };
                        if !self.maps_through_member(&member, &text)
                            && !by_mapper()
                            && !self.device_members.contains(&(v, member.clone()))
                            && !k
                                .unmapped_pointer_members
                                .iter()
                                .any(|(_, t, _)| *t == text)
                        {
                            k.unmapped_pointer_members
                                .push((v, text, self.func.expr(a.expr).span));
                        }
                    }
                    for e in &self.events[b][n] {
                        let (obj, read, write, sp) = match e {
                            Event::Access {
                                obj,
                                read,
                                write,
                                span,
                                partial,
                                opaque,
                                ..
                            } => {
                                if *opaque {
                                    k.opaque.entry(*obj).or_insert(Opaque {
                                        what: UNRESOLVED.to_string(),
                                        at: *span,
                                        passed: true,
                                    });
                                }
                                if *read && !*partial {
                                    reads.push((at.start, *obj, *span));
                                }
                                if *write {
                                    let w = first_write.entry(*obj).or_insert(at.start);
                                    *w = (*w).min(at.start);
                                }
                                (*obj, *read, *write, *span)
                            }
                            Event::Call {
                                obj,
                                effect,
                                span,
                                callee,
                                ..
                            } => {
                                if let Some(o) = self.opaque_call(*callee, effect, *span) {
                                    k.opaque.entry(*obj).or_insert(o);
                                }
                                let e = effect.at_call_site(true);
                                (*obj, e.kernel_read, e.kernel_write, *span)
                            }
                            // (Made for host calls only.)
                            Event::Reach { .. } | Event::Associate { .. } => continue,
                        };
                        let u = uses.entry(obj).or_default();
                        if read && u.0.is_none() {
                            u.0 = Some(sp);
                        }
                        if write && u.1.is_none() {
                            u.1 = Some(sp);
                        }
                    }
                }
            }
            reads.sort_by_key(|r| (r.0, r.2.start));
            for (at, obj, span) in reads {
                let written_before = first_write.get(&obj).is_some_and(|w| *w < at);
                if !written_before && !k.reads.iter().any(|r| r.0 == obj) {
                    k.reads.push((obj, span));
                }
            }
            k.writes = uses
                .iter()
                .filter(|(_, u)| u.1.is_some())
                .map(|(o, _)| *o)
                .collect();
            k.copied_pointers = self.copied_pointers(items, &uses, span);
            for (&obj, &(read, write)) in &uses {
                if explicit.contains(&obj) || k.untracked.contains(&obj) {
                    continue;
                }
                let o = &self.objects[obj];
                // (A member of a split struct variable is judged as the variable would be:
                // an aggregate, implicitly mapped whole.)
                let (Object::Var(v) | Object::Field(v, _)) = o else {
                    // A member's data that a clause of this function maps (through a pointer
                    // into it) is followed like pointer data; other members are the object's.
                    let mapped_here = self
                        .items
                        .values()
                        .any(|it| it.maps.iter().any(|m| &m.object == o));
                    if !mapped_here {
                        k.untracked.insert(obj);
                        // Data behind a pointer member reached through a local alias
                        // (`p = s.data`): no clause here maps it, so whether it is on the
                        // device depends on what omplens cannot see.
                        if self
                            .member_aliases
                            .values()
                            .any(|m| o == &Object::Member(m.clone()))
                        {
                            k.unmapped_members
                                .push((obj, read.or(write).unwrap_or(span)));
                        }
                    }
                    continue;
                };
                let var = self.module.var(*v);
                let ty = var.ty.referent();
                let field = matches!(o, Object::Field(..));
                let first = read.or(write).unwrap_or(span);
                // A variable of a template's dependent type (`auto p = v.data();`) that a
                // clause of this function maps as an array section (`p[0:n]`) is a pointer.
                let dependent_pointer = matches!(ty.kind, TypeKind::Dependent)
                    && self.items.values().any(|it| {
                        it.maps
                            .iter()
                            .any(|m| &m.object == o && m.section.is_some())
                    });
                let scalar = is_scalar_var(self.module, o) && !dependent_pointer;
                let defaults = &items.defaults;
                // A pointer named `firstprivate`: its copy points to the device copy of what
                // it points to when that is present (OpenMP 5.2 §5.4.4, as clang does), like
                // an implicit zero-length section; else to host memory.
                let firstprivate_pointer = items.firstprivate.contains(o)
                    && matches!(ty.kind, crate::ir::TypeKind::Pointer(_));
                // The rows of an array of pointers (`split_rows`) are what its pointers point
                // to: no implicit map copies them; the device follows the attached pointers.
                let rows = super::split::is_rows(o);
                if rows {
                    k.pointers.push((obj, first));
                } else if firstprivate_pointer {
                    if !self.set_first_in(*v, span) {
                        k.pointers.push((obj, first));
                    } else {
                        k.untracked.insert(obj);
                    }
                } else if items.firstprivate.contains(o)
                    || (scalar && defaults.scalars_firstprivate)
                {
                    // Named `firstprivate` by the programmer (a clause, or `defaultmap` for
                    // scalars): the kernel's writes are meant to stay private (a scratch
                    // copy), so the host's old value is not a lost write (unlike an
                    // implicit firstprivate).
                    k.untracked.insert(obj);
                } else if scalar {
                    let reduction = combined && items.reductions.contains(o);
                    if let Some(map_type) =
                        defaults.scalar_map.or(reduction.then_some(MapType::ToFrom))
                    {
                        k.implicit.push(implicit_item(
                            o,
                            var.name.clone(),
                            info,
                            ty.size,
                            map_type,
                        ));
                        // OpenMP maps a combined construct's lastprivate scalar `tofrom`;
                        // clang-19 does not copy it back.
                        if let (None, true, Some(w)) =
                            (defaults.scalar_map, items.lastprivate.contains(o), write)
                        {
                            k.lost_lastprivate.push((obj, w));
                        }
                    } else {
                        k.untracked.insert(obj);
                        k.implicit_firstprivate.push(obj);
                        if let Some(w) = write {
                            k.lost.push((obj, w));
                        }
                    }
                } else if ty.is_pointer() || dependent_pointer {
                    if self.set_first_in(*v, span) {
                        // The kernel gives the pointer its value before anything else uses it
                        // (`p = malloc(...)` on the device): its data is the kernel's own.
                        k.untracked.insert(obj);
                    } else {
                        k.pointers.push((obj, first));
                    }
                } else if defaults.aggregates_private {
                    k.untracked.insert(obj);
                } else {
                    let map_type = defaults.aggregate_map.unwrap_or(MapType::ToFrom);
                    let mapper = super::mappers::for_var(self.module, &mappers, *v, None)
                        .filter(|m| m.items.iter().any(|(i, _, _)| i.base.name == m.var));
                    match mapper {
                        // Mapped as its type's default mapper says: one item per item of
                        // the mapper (they merge into one for the object).
                        Some(m) => {
                            for (i, t, always) in
                                m.items.iter().filter(|(i, _, _)| i.base.name == m.var)
                            {
                                let mut item = implicit_item(
                                    o,
                                    var.name.clone(),
                                    info,
                                    ty.size.filter(|_| i.is_plain_variable()),
                                    super::mappers::combine(map_type, *t),
                                );
                                item.always = *always;
                                k.implicit.push(item);
                            }
                        }
                        None if field => k.implicit.push(implicit_item(
                            o,
                            object_name(self.module, o),
                            info,
                            None,
                            map_type,
                        )),
                        None => k.implicit.push(implicit_item(
                            o,
                            var.name.clone(),
                            info,
                            ty.size,
                            map_type,
                        )),
                    }
                }
            }
            out.push(k);
        }
        out.sort_by_key(|k| k.span.start);
        out
    }

    /// The first mention of the pointer `v` inside `span` (text order) is a plain assignment
    /// to it from something that does not mention it: the code in `span` sets the pointer
    /// before it uses it (`p = malloc(...)`, not `p = &p[k]`).
    /// The pointers whose data the kernel (`span`, its clauses `items`) uses (`uses`) while
    /// its own `map` clause names the bare pointer: that maps the pointer variable and neither
    /// maps nor attaches what it points to, even when that is present (clang-19's runtime
    /// copies the 8 bytes and nothing else), so on a device with memory of its own the kernel
    /// follows a host address.
    /// Not under `requires unified_shared_memory`, nor for a pointer the kernel sets first.
    fn copied_pointers(
        &self,
        items: &DirectiveItems,
        uses: &BTreeMap<usize, (Option<Span>, Option<Span>)>,
        span: Span,
    ) -> Vec<(usize, Span, String)> {
        if self.module.unified_shared_memory().is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (&obj, &(read, write)) in uses {
            let o = &self.objects[obj];
            let Object::Var(v) = o else { continue };
            let var = self.module.var(*v);
            if !matches!(var.ty.kind, crate::ir::TypeKind::Pointer(_)) {
                continue;
            }
            let clause = items
                .bare_pointer_maps
                .iter()
                .find(|(x, _)| x == o)
                .map(|(_, c)| c.clone());
            let (Some(clause), Some(first)) = (clause, read.or(write)) else {
                continue;
            };
            // `map(p, p[:n])`: the section's data is mapped and the pointer attached to it.
            if items
                .maps
                .iter()
                .any(|m| &m.object == o && m.section.is_some())
            {
                continue;
            }
            // Only a pointer known to hold host memory: one set only to allocations of the
            // host (`malloc`, `new`) whose value goes nowhere else. A parameter, or a pointer
            // that may hold a device address (`omp_target_alloc`, `use_device_ptr`, a
            // wrapper), is passed as the program means it.
            let host_memory = match var.storage {
                crate::ir::Storage::Local => {
                    crate::semantics::sections::local_holds_only_own_allocations(
                        self.module,
                        self.id,
                        *v,
                        &|_| false,
                    )
                }
                crate::ir::Storage::Global | crate::ir::Storage::StaticGlobal => {
                    crate::semantics::sections::holds_only_own_allocations(self.module, *v)
                }
                _ => false,
            };
            if !host_memory
                || self.set_first_in(*v, span)
                || self.set_in_a_kernel(*v)
                || self.accessibility_checked(*v)
            {
                continue;
            }
            out.push((obj, first, clause));
        }
        out
    }

    /// Whether some kernel of the module assigns the pointer `v` (`v1 = malloc(...)` inside a
    /// `target` region gives it device memory).
    fn set_in_a_kernel(&self, v: crate::ir::VarId) -> bool {
        self.module.directives.iter().any(|d| {
            let (Some(fid), Some(body), true) =
                (d.function, d.governs, d.directive.kind.is_offload_kernel())
            else {
                return false;
            };
            let f = self.module.function(fid);
            let region = Span {
                start: d.directive.span.start,
                end: f.stmt(body).span.end,
            };
            f.exprs.iter().any(|e| {
                matches!(e.kind, crate::ir::ExprKind::Assign(_, l, _)
                    if matches!(f.expr(f.strip_casts(l)).kind, crate::ir::ExprKind::Var(x) if x == v))
                    && within(region, e.span)
            })
        })
    }

    /// Whether this function asks `omp_target_is_accessible` about the data `v` points to:
    /// its kernels may then use host memory the device can reach, as the program checked.
    fn accessibility_checked(&self, v: crate::ir::VarId) -> bool {
        self.func.exprs.iter().any(|e| match &e.kind {
            crate::ir::ExprKind::Call {
                callee: crate::ir::Callee::Direct(c),
                args,
                ..
            } => {
                self.module.function(*c).name == "omp_target_is_accessible"
                    && args.first().is_some_and(|a| {
                        matches!(self.func.expr(self.func.strip_casts(*a)).kind,
                            crate::ir::ExprKind::Var(x) if x == v)
                    })
            }
            _ => false,
        })
    }

    fn set_first_in(&self, v: crate::ir::VarId, span: Span) -> bool {
        let mentions: Vec<(crate::ir::ExprId, Span)> = self
            .func
            .exprs
            .iter_enumerated()
            .filter(|(_, e)| {
                matches!(e.kind, crate::ir::ExprKind::Var(x) if x == v) && within(span, e.span)
            })
            .map(|(id, e)| (id, e.span))
            .collect();
        let Some(&(first, _)) = mentions.iter().min_by_key(|(_, s)| s.start) else {
            return false;
        };
        self.func.exprs.iter().any(|e| {
            matches!(e.kind, crate::ir::ExprKind::Assign(None, l, _) if self.func.strip_casts(l) == first)
                && mentions
                    .iter()
                    .all(|(id, s)| *id == first || !within(e.span, *s))
        })
    }

    fn kernel_of(&self, stmt: StmtId) -> Option<&Kernel> {
        let s = self.func.stmt(stmt).span;
        self.kernels.iter().find(|k| within(k.span, s))
    }

    /// What the function leaves behind when it is entered with nothing mapped: the state at
    /// its exit of each global and of each pointer parameter's data, where it differs from
    /// "not mapped, host copy valid". Computed without reporting.
    pub(super) fn transfer(&mut self) -> BTreeMap<Object, ObjState> {
        self.exit_states(false)
    }

    /// What the function leaves behind when every global and pointer parameter's data is
    /// mapped on entry with both copies valid: its states at the exit (all of them). A copy
    /// still valid there after the function wrote the other one was refreshed by it (a
    /// `target update` of its own).
    pub(super) fn transfer_present(&mut self) -> BTreeMap<Object, ObjState> {
        for i in 0..self.objects.len() {
            if self.visible(i) {
                let s = &mut self.entry[i];
                s.counts = Counts::SOME;
                s.host = VALID;
                s.dev = VALID;
            }
        }
        self.exit_states(true)
    }

    /// What the function leaves of visible data mapped exactly once at its entry.
    pub(super) fn transfer_once(&mut self) -> BTreeMap<Object, ObjState> {
        for i in 0..self.objects.len() {
            if self.visible(i) {
                let s = &mut self.entry[i];
                s.counts = Counts::ONE;
                s.host = VALID;
                s.dev = VALID;
            }
        }
        self.exit_states(true)
    }

    /// What the function does to every global and pointer parameter's data mapped at its
    /// entry with the device's copy valid and the host's stale (a caller's kernel wrote it):
    /// whether the host copy may be read before the function refreshes it (`target update
    /// from`), and the state at the exit.
    pub(super) fn transfer_stale_host(&mut self) -> BTreeMap<Object, (bool, ObjState)> {
        for i in 0..self.objects.len() {
            if self.visible(i) {
                let s = &mut self.entry[i];
                s.counts = Counts::SOME;
                s.host = STALE;
                s.dev = VALID;
            }
        }
        self.stale_reads = Some(BTreeSet::new());
        let exits = self.exit_states(true);
        let read = self.stale_reads.take().unwrap_or_default();
        exits
            .into_iter()
            .map(|(o, s)| {
                let i = self.index[&o];
                (o, (read.contains(&i), s))
            })
            .collect()
    }

    /// A global, or a pointer parameter's data: what callers see of the function.
    fn visible(&self, i: usize) -> bool {
        match &self.objects[i] {
            Object::Var(v) => {
                let var = self.module.var(*v);
                matches!(var.storage, Storage::Global | Storage::StaticGlobal)
                    || self.func.params.contains(v)
            }
            // A member of a struct variable followed apart: a local's, or a global's in a
            // function no caller of this file reaches (`split`): no caller asks.
            Object::Field(..) => false,
            // A method's member is its object's: the caller's (`buf.finish()` unmapping what
            // `buf.p_` points to). Not one its kernels use: the interpretation does not follow
            // a member's data through a kernel, so its exit would say the host's copy is still
            // valid; the caller applies the summary's device access instead.
            Object::Member(m) => {
                self.func.is_method
                    && !self.sums[self.id]
                        .members
                        .get(m)
                        .is_some_and(|e| e.kernel_read || e.kernel_write)
            }
        }
    }

    fn exit_states(&mut self, all: bool) -> BTreeMap<Object, ObjState> {
        let ins = self.solve();
        let mut out = BTreeMap::new();
        let Some(mut st) = ins[self.g.exit].clone() else {
            return out;
        };
        self.block(self.g.exit, &mut st);
        for (i, s) in st.iter().enumerate() {
            // (Data unmapped again and valid on the host is as the caller had it, unless the
            // function's last act was to copy it back: the caller's next copy to the device
            // would make a round trip.)
            let unchanged =
                !all && s.counts.must_be_zero() && s.host == VALID && s.last_out.is_none();
            if self.visible(i) && !unchanged {
                let mut s = s.clone();
                s.pending_in.clear();
                if all {
                    s.last_out = None;
                }
                out.insert(self.objects[i].clone(), s);
            }
        }
        out
    }

    /// Solves to a fixed point, then records the facts in one more pass.
    pub(super) fn run(&mut self, out: &mut Facts) {
        let ins = self.solve();
        self.record(ins, out);
    }

    /// The state at the entry of every block, at the fixed point.
    fn solve(&mut self) -> IndexVec<BlockId, Option<State>> {
        let n = self.g.blocks.len();
        // Loops that certainly run at least once: their exit sees only the states that went
        // around them, not the zero-trip state of the header.
        // (A bound may be a local set once to a constant: `const unsigned n = 10;`.)
        let values = (!self.g.loops.is_empty())
            .then(|| crate::semantics::constants::known_values(self.module, self.id));
        let once: IndexVec<BlockId, bool> =
            self.g
                .blocks
                .indices()
                .map(|b| {
                    self.g.loops.iter().any(|l| {
                        l.header == b && runs_once(self.module, self.func, l, values.as_ref())
                    })
                })
                .collect();
        let filled = self.filled.clone();
        let rowwise = self.rowwise_loops();
        let in_loop_of = |b: BlockId, header: BlockId| {
            self.g.blocks[b].loop_id.is_some_and(|l| {
                self.g
                    .loop_chain(l)
                    .any(|c| self.g.loops[c].header == header)
            })
        };
        let mut ins: IndexVec<BlockId, Option<State>> =
            self.g.blocks.iter().map(|_| None).collect();
        let mut around: IndexVec<BlockId, Option<State>> =
            self.g.blocks.iter().map(|_| None).collect();
        // Per header of a loop with rows taken one at a time: the states that come from
        // outside the loop.
        let mut before: IndexVec<BlockId, Option<State>> =
            self.g.blocks.iter().map(|_| None).collect();
        ins[self.g.entry] = Some(self.entry.clone());
        let mut work: Vec<BlockId> = vec![self.g.entry];
        // Whether a block is on `work` (a linear `contains` was most of a large function's
        // fixed point).
        let mut queued: IndexVec<BlockId, bool> = self.g.blocks.iter().map(|_| false).collect();
        queued[self.g.entry] = true;
        let mut rounds = 0usize;
        let merge = |slot: &mut Option<State>, st: &State| match slot {
            Some(cur) => join_into(cur, st),
            None => {
                *slot = Some(st.clone());
                true
            }
        };
        while let Some(b) = work.pop() {
            queued[b] = false;
            crate::budget::tick("the data-environment fixed point");
            rounds += 1;
            if rounds > n * 64 + 1024 {
                break; // a guard: the lattice is finite and the transfer monotone
            }
            let Some(mut st) = ins[b].clone() else {
                continue;
            };
            self.block(b, &mut st);
            // Only a loop that runs at least once leaves with a state of its own; one that
            // fills objects whole leaves with their state from the iterations.
            let exit_state = if once[b] {
                around[b].clone().map(|mut a| {
                    self.block(b, &mut a);
                    a
                })
            } else if !filled[b].is_empty() {
                around[b].clone().map(|mut a| {
                    self.block(b, &mut a);
                    let mut e = st.clone();
                    for &o in &filled[b] {
                        e.take_from(o, &a);
                    }
                    e
                })
            } else {
                None
            };
            let own_exit = once[b] || !filled[b].is_empty();
            // The body of a loop taking rows one at a time: each row as before the loop.
            let body_state = match (&before[b], rowwise[b].is_empty()) {
                (Some(first), false) => {
                    let mut a = first.clone();
                    self.block(b, &mut a);
                    let mut e = st.clone();
                    for &o in &rowwise[b] {
                        e.take_from(o, &a);
                    }
                    Some(e)
                }
                _ => None,
            };
            for s in self.g.blocks[b].succs.clone() {
                let leaves = own_exit && !in_loop_of(s, b);
                let out = if leaves {
                    exit_state.as_ref()
                } else if body_state.is_some() && in_loop_of(s, b) {
                    body_state.as_ref()
                } else {
                    Some(&st)
                };
                let Some(out) = out else { continue };
                let mut changed = merge(&mut ins[s], out);
                if (once[s] || !filled[s].is_empty()) && in_loop_of(b, s) {
                    changed |= merge(&mut around[s], out);
                }
                if !rowwise[s].is_empty() && !in_loop_of(b, s) {
                    changed |= merge(&mut before[s], out);
                }
                if changed && !queued[s] {
                    queued[s] = true;
                    work.push(s);
                }
            }
        }
        ins
    }

    /// The reporting pass over the fixed point's states.
    fn record(&mut self, ins: IndexVec<BlockId, Option<State>>, out: &mut Facts) {
        self.report = true;
        let mut exit_state: Option<State> = None;
        for (b, input) in ins.iter_enumerated() {
            let Some(mut st) = input.clone() else {
                continue;
            };
            self.block(b, &mut st);
            if b == self.g.exit {
                exit_state = Some(st);
            }
        }
        if let Some(st) = exit_state {
            self.at_exit(&st);
        }
        let base = out.copies.len();
        for mut c in std::mem::take(&mut self.copies) {
            c.consumed = self.consumed.contains(&c.key);
            out.copies.push(c);
        }
        for mut f in std::mem::take(&mut self.facts) {
            match &mut f.kind {
                FactKind::RedundantCopy { copy }
                | FactKind::UnchangedCopyOut { copy }
                | FactKind::UnusedCopyIn { copy } => *copy += base,
                FactKind::RoundTrip { copy, previous } => {
                    *copy += base;
                    *previous += base;
                }
                FactKind::RoundTripFrom { copy, .. } => *copy += base,
                _ => {}
            }
            out.facts.push(f);
        }
        out.mappings.append(&mut self.mappings);
        out.accesses.append(&mut self.accesses);
        out.passed.append(&mut self.passed);
        out.points.append(&mut self.points);
        out.unproven.append(&mut self.unproven);
        for k in &self.kernels {
            let names = |objs: &mut dyn Iterator<Item = usize>| -> Vec<String> {
                objs.map(|o| object_name(self.module, &self.objects[o]))
                    .collect()
            };
            out.kernels.push(KernelImplicit {
                func: self.id,
                dir: k.dir,
                maps: k.implicit.clone(),
                firstprivate: names(&mut k.implicit_firstprivate.iter().copied()),
                pointers: names(&mut k.pointers.iter().map(|p| p.0)),
            });
        }
    }

    fn at_exit(&mut self, st: &State) {
        let is_main = self.func.name == "main";
        for (i, s) in st.iter().enumerate() {
            // Data still present when the function returns may be read by kernels elsewhere
            // (the caller's, or those of functions it calls next): its copies are not judged.
            if s.counts.may_be_present() {
                self.consumed.extend(s.pending_in.iter().copied());
            }
            let Some(d) = s.entered else { continue };
            if !s.counts.may_be_present() {
                continue;
            }
            let local = match &self.objects[i] {
                Object::Var(v) | Object::Field(v, _) => {
                    self.module.var(*v).storage == Storage::Local
                }
                Object::Member(_) => false,
            };
            // A local pointer loaded from elsewhere (`double *u = f->u;`) may be unmapped
            // through another alias later: judge only what this function owns.
            let local = local && self.owned_here(i);
            if !(local || is_main) {
                continue;
            }
            let dspan = self.module.directive(d).directive.span;
            let stmt =
                crate::check::fixes::directive_stmt(self.module, d).map_or(StmtId(0), |(_, s)| s);
            self.fact(
                i,
                dspan,
                stmt,
                s.counts.must_be_present(),
                s,
                FactKind::NeverExited { dir: d },
            );
        }
    }

    /// Data whose presence this function alone decides: a local array or struct, or data a
    /// local pointer gets from an allocation here. Presence is by address at run time; a
    /// pointer loaded from memory may alias data mapped elsewhere, so it is not judged.
    fn owned_here(&self, obj: usize) -> bool {
        let Object::Var(v) = &self.objects[obj] else {
            return false;
        };
        let var = self.module.var(*v);
        match var.storage {
            Storage::Local => {
                !var.ty.is_pointer()
                    || crate::semantics::sections::allocation_length(self.module, self.id, *v)
                        .is_some()
            }
            // A global pointer that only ever holds its own allocations, when every caller's
            // state is known (or this is `main`, entered with nothing mapped).
            Storage::Global | Storage::StaticGlobal => {
                var.ty.is_pointer()
                    && (self.context_known.contains(&obj) || self.func.name == "main")
                    && crate::semantics::sections::holds_only_own_allocations(self.module, *v)
            }
            _ => false,
        }
    }

    /// Whether `obj`'s presence in state `s` is known: the function owns the data, or it is
    /// a pointer parameter whose every caller in this file knew the presence of what it
    /// passed (`s` came from their contexts, see [`ObjState::presence_known`]).
    fn presence_known(&self, obj: usize, s: &ObjState) -> bool {
        let Object::Var(v) = &self.objects[obj] else {
            return false;
        };
        let var = self.module.var(*v);
        match var.storage {
            // Every value the pointer holds is an allocation of this function, and its copies
            // are aliases the interpreter follows back to it (a copy a clause names is an
            // object of its own: mapping it maps this data under another name).
            Storage::Local if var.ty.is_pointer() => {
                crate::semantics::sections::local_holds_only_own_allocations(
                    self.module,
                    self.id,
                    *v,
                    &|x| self.aliases.roots.get(&x).is_some_and(|r| r[..] == [*v]),
                )
                // The view of a container whose every caller knew its presence (`src =
                // in.data()` of a `const std::vector<double> &in`).
                    || (self.container_views.values().any(|p| p == v)
                        && self.context_known.contains(&obj)
                        && s.presence_known)
            }
            Storage::Parameter => {
                var.ty.is_pointer() && self.context_known.contains(&obj) && s.presence_known
            }
            _ => self.owned_here(obj),
        }
    }

    /// The `alloc` (or `from`) map that left the device memory uninitialised really
    /// allocated: the function owns the data, or a caller's context says it was not present.
    /// Data reached through `this` or a parameter without a context may be present already.
    fn allocated_here(&self, obj: usize) -> bool {
        if self.owned_here(obj) {
            return true;
        }
        // A struct's members are mapped through its methods, which callers' states do not
        // follow: only plain data takes its presence from the context.
        let plain = match &self.objects[obj] {
            Object::Var(v) => !matches!(
                self.module.var(*v).ty.referent().kind,
                crate::ir::TypeKind::Record(_)
            ),
            Object::Member(_) | Object::Field(..) => false,
        };
        plain && self.context_known.contains(&obj)
    }

    fn fact(
        &mut self,
        obj: usize,
        span: Span,
        stmt: StmtId,
        certain: bool,
        s: &ObjState,
        kind: FactKind,
    ) {
        if !self.report || self.quiet {
            return;
        }
        let object = self.objects[obj].clone();
        self.facts.push(Fact {
            func: self.id,
            // Outside a method, a member's data is named by the member (`m_len`), not `this`.
            name: match &object {
                Object::Member(m) if !self.func.is_method => m.clone(),
                _ => object_name(self.module, &object),
            },
            object,
            span,
            stmt,
            certain,
            present: s.counts.must_be_present(),
            unknown: s.opaque.clone(),
            kind,
        });
    }

    fn block(&mut self, b: BlockId, st: &mut State) {
        let loop_id = self.g.blocks[b].loop_id;
        let host_loop = loop_id.and_then(|l| {
            self.g
                .loop_chain(l)
                .find(|&x| self.g.loops[x].exec != Exec::Device)
        });
        for ni in 0..self.g.blocks[b].nodes.len() {
            let node = &self.g.blocks[b].nodes[ni];
            let (kind, exec, stmt) = (node.kind, node.exec, node.stmt);
            let fid = self.id.0;
            let at =
                move |item: usize, to: bool| -> CopyKey { (fid, b.0, ni as u32, item as u32, to) };
            match kind {
                NodeKind::Enter(d) | NodeKind::Exit(d) | NodeKind::Standalone(d) => {
                    let dk = self.module.directive(d).directive.kind;
                    let entering = matches!(kind, NodeKind::Enter(_));
                    if dk.is_offload_kernel() && exec != Exec::Device {
                        if entering {
                            self.enter_kernel(d, st, stmt, host_loop, &at);
                        } else if matches!(kind, NodeKind::Exit(_)) {
                            self.exit_kernel(d, st, stmt, host_loop, &at);
                        }
                        continue;
                    }
                    let Some(items) = self.items.get(&d).cloned() else {
                        continue;
                    };
                    match (dk, kind) {
                        (DirectiveKind::TargetData, NodeKind::Enter(_))
                        | (DirectiveKind::TargetEnterData, NodeKind::Standalone(_)) => {
                            let enter_data = dk == DirectiveKind::TargetEnterData;
                            for (k, m) in merged_by_object(&items.maps).iter().enumerate() {
                                self.enter_item(st, m, d, stmt, host_loop, at(k, true), enter_data);
                            }
                        }
                        (DirectiveKind::TargetData, NodeKind::Exit(_))
                        | (DirectiveKind::TargetExitData, NodeKind::Standalone(_)) => {
                            let swapped = self.region_exchanges.get(&d).cloned();
                            for (k, m) in merged_by_object(&items.maps).iter().enumerate().rev() {
                                // What the item's pointer held at the region's start.
                                let mut m = m.clone();
                                for (a, b) in swapped.iter().flatten() {
                                    if m.object == Object::Var(*a) {
                                        m.object = Object::Var(*b);
                                    } else if m.object == Object::Var(*b) {
                                        m.object = Object::Var(*a);
                                    }
                                }
                                self.exit_item(st, &m, d, stmt, host_loop, at(k, false));
                            }
                        }
                        (DirectiveKind::TargetUpdate, NodeKind::Standalone(_)) => {
                            for (k, m) in items.motions.iter().enumerate() {
                                self.motion(st, m, d, stmt, host_loop, at(k, m.to_device));
                            }
                        }
                        _ => {}
                    }
                }
                _ => {
                    let evs = self.events[b][ni].clone();
                    let on_device = exec == Exec::Device;
                    let untracked = if on_device {
                        self.kernel_of(stmt).map(|k| k.untracked.clone())
                    } else {
                        None
                    };
                    for e in evs {
                        self.event(st, &e, on_device, stmt, b, untracked.as_ref());
                    }
                    let last_of_stmt = self.g.blocks[b]
                        .nodes
                        .get(ni + 1)
                        .is_none_or(|n| n.stmt != stmt);
                    if let Some(&(i, j)) = self.exchanges.get(&stmt).filter(|_| last_of_stmt) {
                        st.exchange(i, j);
                    }
                }
            }
        }
    }

    fn event(
        &mut self,
        st: &mut State,
        e: &Event,
        on_device: bool,
        stmt: StmtId,
        b: BlockId,
        untracked: Option<&BTreeSet<usize>>,
    ) {
        match e {
            Event::Access {
                obj,
                read,
                write,
                span,
                partial,
                opaque,
                may,
            } => {
                if untracked.is_some_and(|u| u.contains(obj)) {
                    return;
                }
                let before = may.then(|| st[*obj].clone());
                if *opaque && st[*obj].opaque.is_none() {
                    st[*obj].opaque = Some(Opaque {
                        what: UNRESOLVED.to_string(),
                        at: *span,
                        passed: true,
                    });
                }
                if *opaque && !on_device {
                    self.unseen_callee_uses(st, *obj);
                }
                self.point(st, *obj, *span, on_device, *read, *write);
                self.log(*obj, b, on_device, *read, *write);
                if on_device {
                    // A partial write uses the rest of the data (it is copied back whole) but
                    // is not reported as a read of stale data.
                    self.device_access(st, *obj, *read, *write, *span, stmt, !partial && !may);
                } else {
                    self.host_access(st, *obj, *read, *write, *span, stmt, !may);
                }
                if let Some(b) = before {
                    st[*obj].join(&b);
                }
            }
            Event::Associate { obj, associate } => {
                if untracked.is_some_and(|u| u.contains(obj)) {
                    return;
                }
                let s = &mut st[*obj];
                if *associate {
                    // Present with a count no construct of the program ends; the device copy
                    // is the memory given, taken as filled by the program (`omp_target_memcpy`,
                    // which omplens does not follow: a kernel reading it unfilled is missed).
                    s.counts = Counts::SOME;
                    s.dev = VALID;
                    s.dev_why = None;
                    s.presence_known = true;
                } else {
                    s.counts = Counts::ZERO;
                    s.dev = STALE;
                    s.dev_why = None;
                    s.entered = None;
                    s.pending_in.clear();
                    s.last_out = None;
                }
            }
            Event::Reach { obj, callee, span } => {
                // Not mapped here: kernels there would map it themselves and copy it back.
                if untracked.is_some_and(|u| u.contains(obj)) || !st[*obj].counts.may_be_present() {
                    return;
                }
                if st[*obj].opaque.is_none() {
                    let f = self.module.function(*callee);
                    st[*obj].opaque = Some(Opaque {
                        what: format!(
                            "`{}` has no body in this file and may launch kernels on it",
                            f.qualified_name
                        ),
                        at: *span,
                        passed: false,
                    });
                }
                // What it may read of the copies made so far counts as read; the loop around
                // it may change the data on the device.
                self.unseen_callee_uses(st, *obj);
                self.log(*obj, b, true, true, true);
            }
            Event::Call {
                obj,
                callee,
                effect,
                span,
                callee_object,
                may,
            } => {
                if untracked.is_some_and(|u| u.contains(obj)) {
                    return;
                }
                if *may {
                    // A weak update: the call may reach this object or another one.
                    let before = st[*obj].clone();
                    let mut e2 = e.clone();
                    if let Event::Call { may, .. } = &mut e2 {
                        *may = false;
                    }
                    let quiet = std::mem::replace(&mut self.quiet, true);
                    self.event(st, &e2, on_device, stmt, b, untracked);
                    self.quiet = quiet;
                    st[*obj].join(&before);
                    return;
                }
                let unseen = self.opaque_call(*callee, effect, *span);
                if unseen.is_some() && !on_device {
                    self.unseen_callee_uses(st, *obj);
                }
                // Data a kernel launcher of a project header receives with no map known to
                // cover it: its kernels (which omplens does not report on, they are the
                // header's) would not find it on the device (a gap for the rewrite gate).
                // An unseen launcher counts for any data; a lowered one for the data its
                // kernels use.
                let g = self.module.function(*callee);
                let launcher = g.header_kernels
                    && !g.maps_own_data
                    && (unseen.is_some() || effect.kernel_read || effect.kernel_write);
                if launcher && !on_device {
                    // (Even data known not to be mapped: the launcher may map it itself.)
                    if self.report && !self.quiet && st[*obj].counts.may_be_zero() {
                        self.unproven.push(super::Unproven {
                            func: self.id,
                            site: super::UnprovenSite::Launcher(*callee),
                            name: object_name(self.module, &self.objects[*obj]),
                            span: *span,
                        });
                    }
                }
                let seen = unseen.is_none();
                if st[*obj].opaque.is_none() {
                    st[*obj].opaque = unseen;
                }
                let e = effect.at_call_site(on_device);
                let (r, w) = (e.here_read || e.kernel_read, e.here_write || e.kernel_write);
                self.point(st, *obj, *span, on_device, r, w);
                // (An accessor of its object's storage gets no context: what it hands out is
                // read by this function, and reported here, not in the accessor's body.)
                let accessor = self.accessors.contains(callee);
                if self.report && !on_device && !accessor {
                    if let Some(co) = callee_object {
                        let mut s = st[*obj].clone();
                        s.pending_in.clear();
                        s.presence_known = self.presence_known(*obj, &st[*obj]);
                        let slot = self.contexts.entry(*callee).or_default();
                        match slot.get_mut(co) {
                            Some(x) => x.join(&s),
                            None => {
                                slot.insert(co.clone(), s);
                            }
                        }
                    }
                }
                let e = effect.at_call_site(on_device);
                // As after a kernel of this function (`assume_present`): data of unknown
                // presence that the callee's kernels use without mapping it was mapped by a
                // caller omplens does not see; its kernels would not find it otherwise.
                // (Cheap tests first: this runs for every call at every visit of its block.)
                if self.recover
                    && !on_device
                    && (e.kernel_read || e.kernel_write)
                    && st[*obj].counts.may_be_zero()
                    && !self.presence_known(*obj, &st[*obj])
                    && callee_object
                        .as_ref()
                        .is_some_and(|co| self.leaves_mapping_to_callers(*callee, co))
                {
                    let s = st[*obj].clone();
                    self.assume_present(st, *obj, &s);
                }
                let present = st[*obj].counts.may_be_present();
                let (mut hr, mut hw, mut kr, mut kw) =
                    (e.here_read, e.here_write, e.kernel_read, e.kernel_write);
                // A function of a project header whose body holds OpenMP directives (which
                // omplens does not analyse there) launches kernels: what its prototype says it
                // does to data on the device happens there. Findings stay uncertain and name
                // the call (`opaque`). A body in another file that maps data or launches
                // kernels is known by what its kernels and its host code touch (its summary
                // there), not by how it maps them: uncertain too. A body omplens did not find
                // may be host code or a launcher: its prototype's effects stay on the host,
                // and only the copies it may read are kept (`unseen_callee_uses`).
                let f = self.module.function(*callee);
                if !seen && present && f.offloads_unseen {
                    (kr, kw) = (kr || hr, kw || hw);
                    (hr, hw) = (false, false);
                }
                if on_device {
                    // A call inside a kernel: all it does happens on the device (a method of
                    // an element, `p[i].set(..)`, writes the data there).
                    self.log(*obj, b, true, kr || hr, kw || hw);
                    // What it writes it may write, not must (`if (x != axis) shade(img + i)`,
                    // or part of what it is given): what was copied in may go back unchanged
                    // where it did not write, so that copy is used.
                    if (kw || hw) && self.report {
                        self.consumed.extend(st[*obj].pending_in.iter().copied());
                    }
                    self.device_access(st, *obj, kr || hr, kw || hw, *span, stmt, true);
                    return;
                }
                self.log(*obj, b, false, hr, hw);
                if let (true, false, Some(co)) = (self.report, self.quiet, callee_object) {
                    if f.has_body {
                        self.passed.push(super::Passed {
                            caller: self.id,
                            block: b,
                            span: *span,
                            object: self.objects[*obj].clone(),
                            callee: *callee,
                            callee_object: co.clone(),
                            kernel_read: kr,
                            kernel_write: kw,
                        });
                    }
                }
                // A library function (its body is not analysed, its prototype is known) reads
                // the data here: nothing else reports it (`v[i]` on a vector member, `memcpy`).
                // Same for a function of a project header: it is not reported on itself.
                // (A function of another file of the project, known by its summary there,
                // is reported at the call too.)
                // And an accessor of an element of its object's storage (`u[i]` on a class
                // wrapping a vector): its caller reads the element.
                let library = (!f.has_body && (f.in_system_header || f.external.is_some()))
                    || (f.has_body && !f.in_main_file)
                    || accessor;
                // A project header's body that copies the data back (`target update from`)
                // before it reads it on the host reads valid data, and leaves the host's copy
                // as valid as its own exit says.
                let refreshed_by_callee = callee_object
                    .as_ref()
                    .filter(|co| {
                        let member_of_method = f.is_method && matches!(co, Object::Member(_));
                        (library || member_of_method)
                            && f.has_body
                            && st[*obj].counts.must_be_present()
                    })
                    .filter(|_| st[*obj].dev == VALID)
                    .and_then(|co| self.exits.stale_host.get(callee)?.get(co))
                    .filter(|(reads_stale, _)| !reads_stale)
                    .map(|(_, exit)| exit.host);
                if refreshed_by_callee.is_some() {
                    hr = false;
                }
                // A function of another file known by its summary, which reads and writes the
                // data on the host and whose first access to it writes it: it may fill what it
                // reads (a host reference's scratch buffer). A stale read is then uncertain,
                // said so.
                let fills_first = |x: &crate::ir::effect::ExternalSummary| {
                    let param = match callee_object {
                        Some(Object::Var(p)) => f.params.iter().position(|q| q == p),
                        _ => None,
                    };
                    param.is_some_and(|i| x.writes_first.get(i) == Some(&true))
                };
                if hr && hw && !f.has_body && st[*obj].host & STALE != 0 {
                    let x = f.external.as_ref().filter(|x| fills_first(x));
                    if let (Some(x), None) = (x, &st[*obj].opaque) {
                        st[*obj].opaque = Some(Opaque {
                            what: format!(
                                "`{}` (in `{}`) also writes it there, and omplens does not know \
                                 whether it writes before it reads",
                                f.qualified_name,
                                crate::ir::file_name(&x.file)
                            ),
                            at: *span,
                            passed: true,
                        });
                    }
                }
                self.host_access(st, *obj, hr, hw, *span, stmt, library);
                if refreshed_by_callee == Some(VALID) {
                    let s = &mut st[*obj];
                    s.host = VALID;
                    s.host_why = None;
                }
                // Data not mapped at the call: the callee's own interpretation says what it
                // leaves (mapped, copied back, dropped without a copy back).
                let transfer = callee_object
                    .as_ref()
                    .filter(|_| st[*obj].counts.must_be_zero())
                    .and_then(|co| self.exits.unmapped.get(callee)?.get(co));
                if let Some(t) = transfer {
                    let host_changed = t.host & STALE != 0;
                    if !host_changed {
                        self.host_access(st, *obj, kr, kw, *span, stmt, false);
                    }
                    let s = &mut st[*obj];
                    s.counts = t.counts;
                    s.dev = t.dev;
                    s.dev_why = t.dev_why.clone();
                    // The callee's last copy to the host, when nothing touched the data on
                    // the host after it (a round trip if the caller sends it back).
                    s.last_out = t.last_out;
                    if host_changed {
                        s.host = t.host;
                        s.host_why = t.host_why.clone();
                        s.last_out = None;
                    }
                    if t.counts.may_be_present() {
                        s.entered = s.entered.or(t.entered);
                    }
                    return;
                }
                // (A callee whose own `enter`/`exit data` balance on every path leaves the
                // count as it was.)
                if let Some(co) = callee_object {
                    let balanced = self
                        .exits
                        .once
                        .get(callee)
                        .and_then(|m| m.get(co))
                        .is_some_and(|t| t.counts == Counts::ONE);
                    if !balanced {
                        self.callee_enters_or_exits(st, *obj, *callee, co);
                    }
                }
                if present {
                    self.log(*obj, b, true, kr, kw);
                    // The callee's kernels may write part of the data only (`out[x]` for
                    // `x >= 1`): what was copied in may come back unchanged, so it is used.
                    if kw && self.report {
                        self.consumed.extend(st[*obj].pending_in.iter().copied());
                    }
                    self.device_access(st, *obj, kr, kw, *span, stmt, false);
                    // The callee refreshed the copy it did not write (`target update`): as its
                    // interpretation here says, or its summary in another file.
                    let refreshed =
                        callee_object
                            .as_ref()
                            .and_then(|co| match self.exits.mapped.get(callee) {
                                Some(m) => m.get(co).map(|t| (t.host == VALID, t.dev == VALID)),
                                None => self.present_exit_elsewhere(*callee, co),
                            });
                    if let Some((host_valid, dev_valid)) = refreshed {
                        let s = &mut st[*obj];
                        if hw && dev_valid && s.counts.must_be_present() {
                            s.dev = VALID;
                            s.dev_why = None;
                        }
                        if kw && host_valid && s.counts.must_be_present() {
                            s.host = VALID;
                            s.host_why = None;
                        }
                    }
                } else {
                    // The callee maps the data itself; what its kernels do shows on the host.
                    self.host_access(st, *obj, kr, kw, *span, stmt, false);
                }
            }
        }
    }

    /// For a function of another file that maps data or launches kernels (`external`,
    /// `launches`) and its parameter's data `co`: which copies are valid at its exit when the
    /// data is mapped at its entry, as read there.
    fn present_exit_elsewhere(&self, callee: FuncId, co: &Object) -> Option<(bool, bool)> {
        let f = self.module.function(callee);
        let x = f.external.as_ref().filter(|x| x.launches)?;
        let i = f.params.iter().position(|p| *co == Object::Var(*p))?;
        let e = x.present_exits.get(i).copied().flatten()?;
        Some((e.host_valid, e.dev_valid))
    }

    /// A call omplens cannot see into receives data that may be on the device: its kernels
    /// may read the device copy, so the copies to the device waiting for a reader are used
    /// (taking `to` away would break the program: HeCBench's chemv, adjacent, distort).
    fn unseen_callee_uses(&mut self, st: &State, obj: usize) {
        if self.report && st[obj].counts.may_be_present() {
            self.consumed.extend(st[obj].pending_in.iter().copied());
        }
    }

    /// A callee that maps the data with `target enter data` (or unmaps it with `target exit
    /// data`) changes the caller's present table too.
    fn callee_enters_or_exits(&self, st: &mut State, obj: usize, callee: FuncId, co: &Object) {
        for (d, info) in self.module.directives.iter_enumerated() {
            if info.function != Some(callee) {
                continue;
            }
            let kind = info.directive.kind;
            if !matches!(
                kind,
                DirectiveKind::TargetEnterData | DirectiveKind::TargetExitData
            ) {
                continue;
            }
            let items = directive_items(self.module, d, "");
            for m in items.maps.iter().filter(|m| &m.object == co) {
                let s = &mut st[obj];
                if kind == DirectiveKind::TargetEnterData {
                    if s.counts.may_be_zero() {
                        s.entered.get_or_insert(d);
                        s.dev = if matches!(m.map_type, MapType::To | MapType::ToFrom) {
                            s.host
                        } else {
                            STALE
                        };
                        s.dev_why = None;
                    }
                    s.counts = s.counts.inc();
                } else {
                    let after = match m.map_type {
                        MapType::Delete => Counts::ZERO,
                        _ => s.counts.dec(),
                    };
                    if after.must_be_zero() {
                        if matches!(m.map_type, MapType::From | MapType::ToFrom) {
                            s.host = s.dev;
                            s.host_why = s.dev_why.clone();
                        }
                        s.dev = STALE;
                        s.pending_in.clear();
                    }
                    s.counts = after;
                }
            }
        }
    }

    /// The round trip of copy `copy` (of this function) after the copy to the host `prev`:
    /// this function's, or another's (resolved once every function is interpreted).
    fn round_trip(&self, copy: usize, prev: CopyKey) -> FactKind {
        match self.copies.iter().position(|c| c.key == prev) {
            Some(previous) => FactKind::RoundTrip { copy, previous },
            None => FactKind::RoundTripFrom {
                copy,
                previous: prev,
            },
        }
    }

    /// Records the state of `obj` before an access (reporting pass only).
    fn point(
        &mut self,
        st: &State,
        obj: usize,
        span: Span,
        on_device: bool,
        read: bool,
        write: bool,
    ) {
        if !self.report {
            return;
        }
        let s = &st[obj];
        self.points.push(PointState {
            func: self.id,
            span,
            object: self.objects[obj].clone(),
            on_device,
            read,
            write,
            counts: s.counts,
            host: s.host,
            dev: s.dev,
        });
    }

    fn log(&mut self, obj: usize, b: BlockId, on_device: bool, read: bool, write: bool) {
        if self.report && (read || write) {
            self.accesses.push(AccessEvent {
                func: self.id,
                block: b,
                object: self.objects[obj].clone(),
                on_device,
                read,
                write,
            });
        }
    }

    /// The other tracked objects of `obj`'s swap group.
    fn swapped_with(&self, obj: usize) -> Vec<usize> {
        if self.in_swap {
            return Vec::new();
        }
        let Object::Var(v) = &self.objects[obj] else {
            return Vec::new();
        };
        let Some(g) = self.swaps.get(v) else {
            return Vec::new();
        };
        (0..self.objects.len())
            .filter(|&o| o != obj)
            .filter(|&o| matches!(&self.objects[o], Object::Var(w) if self.swaps.get(w) == Some(g)))
            .collect()
    }

    /// A write through `obj` as a weak write to the data of the pointers it is swapped with:
    /// each of them may hold what `obj` held.
    fn weak_swap_writes(
        &mut self,
        st: &mut State,
        obj: usize,
        on_device: bool,
        span: Span,
        stmt: StmtId,
    ) {
        for o in self.swapped_with(obj) {
            let before = st[o].clone();
            let quiet = std::mem::replace(&mut self.quiet, true);
            self.in_swap = true;
            if on_device {
                self.device_access(st, o, false, true, span, stmt, false);
            } else {
                self.host_access(st, o, false, true, span, stmt, false);
            }
            self.in_swap = false;
            self.quiet = quiet;
            st[o].join(&before);
            // A weak write does not replace the reason the copy was already stale for.
            if before.dev & STALE != 0 && before.dev_why.is_some() {
                st[o].dev_why = before.dev_why.clone();
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn host_access(
        &mut self,
        st: &mut State,
        obj: usize,
        read: bool,
        write: bool,
        span: Span,
        stmt: StmtId,
        report: bool,
    ) {
        if !(read || write) {
            return;
        }
        if write {
            self.weak_swap_writes(st, obj, false, span, stmt);
        }
        let s = &mut st[obj];
        s.last_out = None;
        // After a partial copy back, a read of the copied elements only is a read of valid
        // data; a read known to reach past them is certainly stale.
        let partial = match &s.host_why {
            Some(Why::PartialCopyBack { copied, .. }) if read && s.host & STALE != 0 => {
                let copied = copied.clone();
                Some(self.reads_within(obj, stmt, &copied))
            }
            _ => None,
        };
        let s = &mut st[obj];
        if read && s.host & STALE != 0 {
            if let Some(r) = &mut self.stale_reads {
                r.insert(obj);
            }
        }
        if read && s.host & STALE != 0 && partial != Some(Some(true)) {
            let why = s.host_why.clone();
            let certain = s.host == STALE || partial == Some(Some(false));
            let snapshot = s.clone();
            if report && (certain || !matches!(why, Some(Why::Alloc { .. }))) {
                self.fact(
                    obj,
                    span,
                    stmt,
                    certain,
                    &snapshot,
                    FactKind::StaleHostRead { why },
                );
            }
            // Within the reporting pass, later reads in the same block are not reported
            // again. The fixed point keeps the data stale, so a read in a loop stays certain
            // (the rule reports each stale copy once, at its first read).
            if self.report {
                let s = &mut st[obj];
                s.host = VALID;
                s.host_why = None;
            }
        }
        let s = &mut st[obj];
        if write {
            s.host = VALID;
            s.host_why = None;
            if s.counts.may_be_present() {
                if s.counts.must_be_present() {
                    s.dev = STALE;
                    s.dev_why = Some(Why::Write {
                        at: span,
                        on_device: false,
                    });
                } else {
                    s.dev |= STALE;
                    if s.dev_why.is_none() {
                        s.dev_why = Some(Why::Write {
                            at: span,
                            on_device: false,
                        });
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn device_access(
        &mut self,
        st: &mut State,
        obj: usize,
        read: bool,
        write: bool,
        span: Span,
        stmt: StmtId,
        report: bool,
    ) {
        if !(read || write) || st[obj].counts.must_be_zero() {
            return;
        }
        if write {
            self.weak_swap_writes(st, obj, true, span, stmt);
        }
        if read {
            let s = &mut st[obj];
            let pending = std::mem::take(&mut s.pending_in);
            if s.dev & STALE != 0 {
                let why = s.dev_why.clone();
                let certain = s.dev == STALE && s.counts.must_be_present();
                let snapshot = s.clone();
                let kernel = self.kernel_of(stmt).map(|k| k.dir);
                // Uninitialized device memory is reported only when certain: on other paths it
                // comes from loops that may run zero times, which programs rarely mean.
                let report = report
                    && match why {
                        Some(Why::Alloc { .. }) => certain && self.allocated_here(obj),
                        _ => true,
                    };
                if let (true, Some(kernel)) = (report, kernel) {
                    self.fact(
                        obj,
                        span,
                        stmt,
                        certain,
                        &snapshot,
                        FactKind::StaleDeviceRead { why, kernel },
                    );
                }
                let s = &mut st[obj];
                s.dev = VALID;
                s.dev_why = None;
            }
            if self.report {
                self.consumed.extend(pending);
            }
        }
        if write {
            let s = &mut st[obj];
            s.pending_in.clear();
            s.dev = VALID;
            s.dev_why = None;
            let w = Why::Write {
                at: span,
                on_device: true,
            };
            if s.counts.must_be_present() {
                s.host = STALE;
                s.host_why = Some(w);
            } else {
                s.host |= STALE;
                if s.host_why.is_none() {
                    s.host_why = Some(w);
                }
            }
        }
    }

    fn enter_kernel(
        &mut self,
        d: DirId,
        st: &mut State,
        stmt: StmtId,
        host_loop: Option<LoopId>,
        at: &dyn Fn(usize, bool) -> CopyKey,
    ) {
        let Some(k) = self.kernels.iter().position(|k| k.dir == d) else {
            return;
        };
        let maps = merged_by_object(&self.kernels[k].maps());
        for (i, m) in maps.iter().enumerate() {
            self.enter_item(st, m, d, stmt, host_loop, at(i, true), false);
        }
        // Data the kernel reaches through a device address (`is_device_ptr(h)` inside
        // `use_device_ptr(h)`): its accesses are not followed, so take it as read and written.
        let span = self.module.directive(d).directive.span;
        for o in self.items[&d].device_addresses.clone() {
            if let Some(&obj) = self.index.get(&o) {
                self.device_access(st, obj, true, true, span, stmt, false);
            }
        }
        for (obj, o) in self.kernels[k].opaque.clone() {
            if st[obj].opaque.is_none() {
                st[obj].opaque = Some(o);
            }
        }
        // Device memory nothing wrote yet, read by the kernel: certain at its first read,
        // whatever the kernel's own loops do afterwards.
        for (obj, span) in self.kernels[k].reads.clone() {
            let s = st[obj].clone();
            if s.dev == STALE
                && s.counts.must_be_present()
                && matches!(s.dev_why, Some(Why::Alloc { .. }))
                && !self.kernels[k].untracked.contains(&obj)
                && self.allocated_here(obj)
            {
                self.fact(
                    obj,
                    span,
                    stmt,
                    true,
                    &s,
                    FactKind::StaleDeviceRead {
                        why: s.dev_why.clone(),
                        kernel: d,
                    },
                );
                st[obj].dev = VALID;
                st[obj].dev_why = None;
            }
        }
        if self.report && !self.quiet {
            for (v, name, span) in self.kernels[k].unmapped_pointer_members.clone() {
                // Reported as uncertain: the member may hold a device address
                // (`omp_target_alloc`), or, for a struct a reference names, a caller may have
                // mapped that one member with its data.
                // (The rewrite gate takes the finding as a gap; without an object to report
                // it on, the data is a gap of its own.)
                if let Some(&obj) = self.index.get(&Object::Var(v)) {
                    let s = st[obj].clone();
                    self.fact(
                        obj,
                        span,
                        stmt,
                        false,
                        &s,
                        FactKind::Unmapped {
                            kernel: d,
                            member: Some(name.clone()),
                        },
                    );
                    continue;
                }
                self.unproven.push(super::Unproven {
                    func: self.id,
                    site: super::UnprovenSite::Kernel(d),
                    name,
                    span,
                });
            }
            for (obj, span) in self.kernels[k].unmapped_members.clone() {
                if st[obj].counts.may_be_zero() {
                    // The local alias's name (`input`), not `this->input_units`.
                    let alias = self.member_aliases.iter().find_map(|(v, m)| {
                        (self.objects[obj] == Object::Member(m.clone()))
                            .then(|| self.module.var(*v).name.clone())
                    });
                    let name =
                        alias.unwrap_or_else(|| object_name(self.module, &self.objects[obj]));
                    self.unproven.push(super::Unproven {
                        func: self.id,
                        site: super::UnprovenSite::Kernel(d),
                        name,
                        span,
                    });
                }
            }
        }
        for (obj, span, clause) in self.kernels[k].copied_pointers.clone() {
            let s = st[obj].clone();
            self.fact(
                obj,
                span,
                stmt,
                true,
                &s,
                FactKind::PointerCopied { kernel: d, clause },
            );
        }
        for (obj, span) in self.kernels[k].pointers.clone() {
            if matches!(self.objects[obj], Object::Var(v) if self.accessibility_checked(v)) {
                continue;
            }
            let s = st[obj].clone();
            if s.counts.may_be_zero() && !self.presence_known(obj, &s) {
                if self.report && !self.quiet {
                    let name = object_name(self.module, &self.objects[obj]);
                    self.unproven.push(super::Unproven {
                        func: self.id,
                        site: super::UnprovenSite::Kernel(d),
                        name,
                        span,
                    });
                }
                self.assume_present(st, obj, &s);
                continue;
            }
            if s.counts.may_be_zero() {
                self.fact(
                    obj,
                    span,
                    stmt,
                    s.counts.must_be_zero(),
                    &s,
                    FactKind::Unmapped {
                        kernel: d,
                        member: None,
                    },
                );
                // Not mapped on some paths only: those are the finding, and what follows is
                // judged on the others (not "stale on some paths" after a `target update`
                // that does nothing on the paths the finding is about).
                if self.recover && !s.counts.must_be_zero() {
                    st[obj].counts = Counts(s.counts.0 & !1);
                }
            }
        }
    }

    /// Whether `callee`'s kernels find the data of its parameter `co` only where a caller
    /// mapped it: the callee launches kernels itself, maps nothing (no `map` clause, no data
    /// directive: not the parameter, nor a local view of it such as `p = a.data()`), names
    /// the parameter in no clause, and calls no function with directives of its own (which
    /// might map it).
    fn leaves_mapping_to_callers(&self, callee: FuncId, co: &Object) -> bool {
        let Object::Var(p) = co else {
            return false;
        };
        let own = |f: FuncId| {
            self.module
                .directives
                .iter()
                .filter(move |d| d.function == Some(f))
        };
        let mut kernels = false;
        for d in own(callee) {
            let kind = d.directive.kind;
            if kind.is_data_mapping()
                || d.directive.clauses.iter().any(|c| c.name() == "map")
                || d.bindings
                    .iter()
                    .any(|b| b.target == crate::ir::BindingTarget::Var(*p))
            {
                return false;
            }
            kernels |= kind.is_offload_kernel();
        }
        let g = self.module.function(callee);
        let calls_directives = g.exprs.iter().any(|e| match &e.kind {
            crate::ir::ExprKind::Call {
                callee: crate::ir::Callee::Direct(c),
                ..
            } => own(*c).next().is_some(),
            _ => false,
        });
        kernels && !calls_directives
    }

    /// After a kernel that uses `obj`'s data through a pointer of unknown presence (state `s`
    /// before it; a function no caller in this file calls starts with its parameters' data
    /// not mapped): in the run that reports the function's findings, the data is taken as
    /// present from the kernel on, as a caller omplens does not see mapped it (both copies
    /// valid unless this function made one stale). Had it not been, the kernel would fail
    /// there (the unproven note), so a later `target update` of it is not a no-op. Not in the
    /// runs that compute what a function leaves its callers ([`FnInterp::transfer`]): there
    /// the caller's own state decides.
    fn assume_present(&self, st: &mut State, obj: usize, s: &ObjState) {
        if !self.recover {
            return;
        }
        let n = &mut st[obj];
        n.counts = if s.counts.may_be_present() {
            Counts(s.counts.0 & !1)
        } else {
            Counts::SOME
        };
        if s.dev_why.is_none() {
            n.dev = VALID;
        }
    }

    fn exit_kernel(
        &mut self,
        d: DirId,
        st: &mut State,
        stmt: StmtId,
        host_loop: Option<LoopId>,
        at: &dyn Fn(usize, bool) -> CopyKey,
    ) {
        let Some(k) = self.kernels.iter().position(|k| k.dir == d) else {
            return;
        };
        let maps = merged_by_object(&self.kernels[k].maps());
        // A kernel that writes data on some paths only copies back what was copied in on the
        // others (`if (found) flag = true;` under `map(tofrom: flag)`): the copy in is used.
        if self.report {
            for m in &maps {
                let Some(&obj) = self.index.get(&m.object) else {
                    continue;
                };
                let copies_back = matches!(m.map_type, MapType::From | MapType::ToFrom);
                if copies_back && self.kernels[k].writes.contains(&obj) {
                    self.consumed.extend(st[obj].pending_in.iter().copied());
                }
            }
        }
        for (i, m) in maps.iter().enumerate().rev() {
            self.exit_item(st, m, d, stmt, host_loop, at(i, false));
        }
        let kspan = self.kernels[k].span;
        let lost = self.kernels[k].lost.iter().map(|&(o, w)| (o, w, false));
        let lastprivate = self.kernels[k]
            .lost_lastprivate
            .iter()
            .map(|&(o, w)| (o, w, true));
        for (obj, write, lastprivate) in lost.chain(lastprivate).collect::<Vec<_>>() {
            let s = &mut st[obj];
            s.host = STALE;
            s.host_why = Some(Why::LostScalar {
                write,
                kernel: kspan,
                lastprivate,
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn record_copy(
        &mut self,
        key: CopyKey,
        d: DirId,
        object: &Object,
        item: Span,
        text: &str,
        map_type: Option<MapType>,
        implicit: bool,
        kind: CopyKind,
        bytes: Option<u64>,
        certain: bool,
        in_loop: Option<LoopId>,
    ) -> usize {
        if let Some(i) = self.copies.iter().position(|c| c.key == key) {
            return i;
        }
        self.copies.push(Copy {
            key,
            func: self.id,
            dir: d,
            object: object.clone(),
            item,
            item_text: text.to_string(),
            map_type,
            implicit,
            to_device: key.4,
            kind,
            bytes,
            certain,
            in_loop,
            consumed: false,
        });
        self.copies.len() - 1
    }

    #[allow(clippy::too_many_arguments)]
    fn enter_item(
        &mut self,
        st: &mut State,
        m: &MapItem,
        d: DirId,
        stmt: StmtId,
        in_loop: Option<LoopId>,
        key: CopyKey,
        enter_data: bool,
    ) {
        let Some(&obj) = self.index.get(&m.object) else {
            return;
        };
        let s = st[obj].clone();
        let (may0, may_p) = (s.counts.may_be_zero(), s.counts.may_be_present());
        let copies = matches!(m.map_type, MapType::To | MapType::ToFrom);
        let implicit = m.clause == self.module.directive(d).directive.span;
        if self.report {
            self.mappings.push(Mapping {
                func: self.id,
                dir: d,
                item: m.clone(),
                allocates: may0,
                in_loop,
            });
        }
        let mut dev = 0;
        let mut dev_why = None;
        if may0 {
            if copies {
                dev |= s.host;
                dev_why = s.host_why.clone();
            } else {
                dev |= STALE;
                dev_why = Some(Why::Alloc { item: m.span });
            }
        }
        if may_p {
            if copies && m.always {
                dev |= s.host;
            } else {
                dev |= s.dev;
                dev_why = dev_why.or(s.dev_why.clone());
            }
        }
        let happens = copies && (may0 || m.always);
        let mut next = s.clone();
        if happens {
            let certain = s.counts.must_be_zero() || m.always;
            if self.report {
                let c = self.record_copy(
                    key,
                    d,
                    &m.object,
                    m.span,
                    &m.text,
                    Some(m.map_type),
                    implicit,
                    CopyKind::Entry,
                    m.bytes,
                    certain,
                    in_loop,
                );
                if !may0 && s.dev == VALID && s.opaque.is_none() && !s.partial_sync {
                    self.fact(
                        obj,
                        m.span,
                        stmt,
                        true,
                        &s,
                        FactKind::RedundantCopy { copy: c },
                    );
                } else if let (Some(prev), true) = (s.last_out, certain) {
                    let kind = self.round_trip(c, prev);
                    self.fact(obj, m.span, stmt, true, &s, kind);
                }
            }
            if certain {
                next.pending_in = [key].into_iter().collect();
            } else {
                next.pending_in.insert(key);
            }
        }
        next.dev = dev;
        next.dev_why = if dev & STALE != 0 { dev_why } else { None };
        // A copy in of the mapped item, on every path, moves all of it.
        if happens && !may_p {
            next.partial_sync = false;
        }
        next.counts = s.counts.inc();
        if enter_data {
            next.entered = Some(d);
        }
        st[obj] = next;
    }

    fn exit_item(
        &mut self,
        st: &mut State,
        m: &MapItem,
        d: DirId,
        stmt: StmtId,
        in_loop: Option<LoopId>,
        key: CopyKey,
    ) {
        let Some(&obj) = self.index.get(&m.object) else {
            return;
        };
        let s = st[obj].clone();
        // Unmapping data that is not mapped does nothing: no copy, no count (OpenMP 5.2
        // §5.8.3: the list item is not present, so neither the release nor the copy happens).
        if s.counts.must_be_zero() {
            return;
        }
        let after = match m.map_type {
            MapType::Delete => Counts::ZERO,
            _ => s.counts.dec(),
        };
        let copies = matches!(m.map_type, MapType::From | MapType::ToFrom);
        let (may0, may_p) = (after.may_be_zero(), after.may_be_present());
        let happens = copies && (may0 || m.always);
        let certain = s.counts.must_be_present() && (after.must_be_zero() || m.always);
        let implicit = m.clause == self.module.directive(d).directive.span;
        let mut next = s.clone();
        let mut host = 0;
        let mut host_why = None;
        if happens {
            if self.report {
                let c = self.record_copy(
                    key,
                    d,
                    &m.object,
                    m.span,
                    &m.text,
                    Some(m.map_type),
                    implicit,
                    CopyKind::Exit,
                    m.bytes,
                    certain,
                    in_loop,
                );
                // (Not after a call omplens cannot see into received the data: its kernels
                // may have written the device copy, and taking the copy back away would lose
                // that: HeCBench's lda.)
                if s.host == VALID && s.dev == VALID && s.opaque.is_none() {
                    self.fact(
                        obj,
                        m.span,
                        stmt,
                        certain,
                        &s,
                        FactKind::UnchangedCopyOut { copy: c },
                    );
                }
            }
            host |= s.dev;
            host_why = s.dev_why.clone();
            // The device's copy is stale because the host wrote the data while it was
            // mapped: the copy back brings the device's old data over that write. (Not said
            // of an item naming one member of a variable followed whole, `map(from: g.y)`:
            // the write may be to another member, which this copy leaves alone.)
            let one_member = match &m.object {
                Object::Var(v) => m
                    .text
                    .trim_start()
                    .strip_prefix(self.module.var(*v).name.as_str())
                    .map(str::trim_start)
                    .is_some_and(|r| r.starts_with('.') || r.starts_with("->")),
                _ => false,
            };
            if let (
                false,
                Some(Why::Write {
                    at,
                    on_device: false,
                }),
            ) = (one_member, &s.dev_why)
            {
                let at = *at;
                if s.dev & STALE != 0 {
                    host_why = Some(Why::CopiedOver {
                        item: m.span,
                        write: at,
                    });
                }
            }
            next.last_out = certain.then_some(key);
            // The device wrote the data and its storage goes now, but only the exit's own
            // section comes back: the rest of the host copy stays stale. Whether a read
            // afterwards touches the rest is judged at the read (`host_access`).
            if after.must_be_zero() && s.host & STALE != 0 && s.dev & VALID != 0 {
                if let Some((entered, copied)) = self.partial_exit(m, s.entered) {
                    host |= STALE;
                    host_why = Some(Why::PartialCopyBack {
                        item: m.span,
                        entered,
                        copied,
                    });
                }
            }
        }
        if !certain || !happens {
            host |= s.host;
            host_why = host_why.or(s.host_why.clone());
            if s.host & STALE != 0 {
                let device_write = match s.host_why {
                    Some(Why::Write {
                        at,
                        on_device: true,
                    }) => Some(at),
                    Some(Why::NoCopyBack { write, .. }) => write,
                    _ => None,
                };
                if copies && may_p && !m.always {
                    host_why = Some(Why::NoCopyBack {
                        item: m.span,
                        write: device_write,
                    });
                } else if let (false, true, Some(at)) = (copies, may0, device_write) {
                    // (Also after an inner copy back that did not happen: this exit, the
                    // last, drops the device's results.)
                    host_why = Some(Why::Dropped {
                        item: m.span,
                        write: at,
                        inner: match s.host_why {
                            Some(Why::NoCopyBack { item, .. }) => Some(item),
                            _ => None,
                        },
                    });
                }
            }
        }
        next.host = host;
        next.host_why = if host & STALE != 0 { host_why } else { None };
        if after.must_be_zero() {
            next.dev = STALE;
            next.dev_why = None;
            next.pending_in.clear();
            next.entered = None;
        } else if may0 {
            next.dev |= STALE;
        }
        next.counts = after;
        st[obj] = next;
    }

    /// The entering item (`enter data` directive `entered`, this function's) and the copied
    /// section, when exit item `m` names a part strictly inside what was entered, both with
    /// constant bounds (`c[0:C/2]` of `c[0:C]`, `C` a macro).
    /// Whether update item `m` moves all of its data as far as omplens can tell: it names
    /// no section, or the section some map clause of the function maps the data with.
    fn moves_whole(&self, m: &MotionItem) -> bool {
        let section = |text: &str| -> Option<String> {
            let at = text.find('[')?;
            Some(text[at..].chars().filter(|c| !c.is_whitespace()).collect())
        };
        let Some(moved) = section(&m.text) else {
            return true;
        };
        self.items.values().any(|items| {
            items
                .maps
                .iter()
                .any(|x| x.object == m.object && section(&x.text).as_ref() == Some(&moved))
        })
    }

    fn partial_exit(&self, m: &MapItem, entered: Option<DirId>) -> Option<(Span, Section)> {
        let e = self
            .items
            .get(&entered?)?
            .maps
            .iter()
            .find(|x| x.object == m.object)?;
        let values = crate::semantics::constants::known_values(self.module, self.id);
        let constant = |it: &MapItem| -> Option<(i64, i64)> {
            let (lower, length) = it.section.as_ref()?;
            let lower = match lower {
                Some(x) => crate::semantics::symbolic::pragma_poly(x, &values)?,
                None => Poly::constant(0),
            };
            let length = crate::semantics::symbolic::pragma_poly(length.as_ref()?, &values)?;
            let sub = |p: &Poly| crate::semantics::constants::substitute(p, &values).as_const();
            Some((sub(&lower)?, sub(&length)?))
        };
        let ((elo, elen), (lo, len)) = (constant(e)?, constant(m)?);
        (lo >= elo && lo + len <= elo + elen && len < elen).then(|| {
            (
                e.span,
                Section::new(Poly::constant(lo), Poly::constant(len)),
            )
        })
    }

    /// Whether host read `span` of `obj` at `stmt` reads only elements in `copied`: the
    /// elements the enclosing host loops (or the statement alone) read, when they are known.
    /// `Some(false)`: they are known and reach past it.
    fn reads_within(&self, obj: usize, stmt: StmtId, copied: &Section) -> Option<bool> {
        let Object::Var(v) = &self.objects[obj] else {
            return None;
        };
        let at = self.func.stmt(stmt).span;
        let outermost = self
            .g
            .loops
            .iter()
            .filter(|l| within(self.func.stmt(l.stmt).span, at))
            .min_by_key(|l| l.depth)
            .map_or(stmt, |l| l.stmt);
        let read = crate::semantics::sections::accessed_section(
            self.module,
            self.id,
            self.g,
            *v,
            &[outermost],
        )?;
        let values = crate::semantics::constants::known_values(self.module, self.id);
        let sub = |p: &Poly| crate::semantics::constants::substitute(p, &values).as_const();
        let (lo, len) = (sub(&read.lower)?, sub(&read.length)?);
        let (clo, clen) = (copied.lower.as_const()?, copied.length.as_const()?);
        Some(lo >= clo && lo + len <= clo + clen)
    }

    /// Whether host loop `l` reads a clock (a benchmark's repetitions; see
    /// [`crate::semantics::timing`]).
    fn times_itself(&mut self, l: LoopId) -> bool {
        let (module, id, span) = (
            self.module,
            self.id,
            self.func.stmt(self.g.loops[l].stmt).span,
        );
        *self
            .timing
            .entry(l)
            .or_insert_with(|| crate::semantics::timing::reads_clock_within(module, id, span))
    }

    fn motion(
        &mut self,
        st: &mut State,
        m: &MotionItem,
        d: DirId,
        stmt: StmtId,
        in_loop: Option<LoopId>,
        key: CopyKey,
    ) {
        let Some(&obj) = self.index.get(&m.object) else {
            return;
        };
        let s = st[obj].clone();
        if s.counts.must_be_zero() && self.owned_here(obj) {
            self.fact(
                obj,
                m.span,
                stmt,
                true,
                &s,
                FactKind::UpdateNotPresent { dir: d },
            );
            return;
        }
        let certain = s.counts.must_be_present();
        // Both copies agree already, whichever way it copies (on all of the data: not after
        // a copy of a part only).
        let redundant = s.dev == VALID && s.host == VALID && s.opaque.is_none() && !s.partial_sync;
        let mut next = s.clone();
        let whole = self.moves_whole(m);
        next.partial_sync = if certain {
            !whole
        } else {
            s.partial_sync || !whole
        };
        if self.report {
            let c = self.record_copy(
                key,
                d,
                &m.object,
                m.span,
                &m.text,
                None,
                false,
                CopyKind::Update,
                m.bytes,
                certain,
                in_loop,
            );
            if redundant && certain {
                self.fact(
                    obj,
                    m.span,
                    stmt,
                    true,
                    &s,
                    FactKind::RedundantCopy { copy: c },
                );
            } else if let (true, Some(prev), true) = (m.to_device, s.last_out, certain) {
                let kind = self.round_trip(c, prev);
                self.fact(obj, m.span, stmt, true, &s, kind);
            }
        }
        if m.to_device {
            // Where the device's results come from when the host's copy is stale because of
            // them: a kernel's write, or a kernel's copy back that did not happen (a
            // `reduction` or `map(tofrom)` inside a region that still maps the data).
            let kernel_result = |why: &Option<Why>| match why {
                Some(Why::Write {
                    at,
                    on_device: true,
                }) => Some(*at),
                Some(Why::NoCopyBack { item, .. }) => Some(*item),
                _ => None,
            };
            // In a loop that times its repetitions, putting the host's copy over the results
            // of a kernel that runs later in the loop's body (in the previous repetition)
            // restores the data each repetition starts from: both copies hold the host's
            // data again. (Results of a kernel earlier in the same repetition are lost.)
            let restore = |l: LoopId| {
                let body = self.func.stmt(self.g.loops[l].stmt).span;
                kernel_result(&s.host_why)
                    .is_some_and(|at| within(body, at) && at.start >= m.span.end)
            };
            if certain
                && s.host & STALE != 0
                && in_loop.is_some_and(|l| restore(l) && self.times_itself(l))
            {
                next.dev = VALID;
                next.host = VALID;
                next.dev_why = None;
                next.host_why = None;
                if !redundant {
                    next.pending_in = [key].into_iter().collect();
                }
                st[obj] = next;
                return;
            }
            // The host's copy is stale and the device's is the valid one: this update loses
            // the device's results (`from` was meant, or a reset from the host's data).
            if let (true, VALID, STALE, Some(at)) =
                (certain, s.dev, s.host, kernel_result(&s.host_why))
            {
                let why = Why::Overwritten {
                    update: m.span,
                    write: at,
                };
                next.host_why = Some(why.clone());
                next.dev = STALE;
                next.dev_why = Some(why);
                st[obj] = next;
                return;
            }
            next.dev = if certain { s.host } else { s.host | s.dev };
            next.dev_why = match kernel_result(&s.host_why) {
                // The host's copy may be stale because a kernel wrote the data (the back edge
                // of a loop that restores its input each iteration): what may reach the
                // device is the host's old copy over the kernel's results, not a host change.
                Some(at) if s.host & STALE != 0 => Some(Why::Overwritten {
                    update: m.span,
                    write: at,
                }),
                _ => s.host_why.clone().or(s.dev_why.clone()),
            };
            if next.dev & STALE == 0 {
                next.dev_why = None;
            }
            // A redundant update copies what the device holds already: the earlier copy is
            // as much read as this one (OMP202 reports this one, not OMP204 the earlier).
            if certain && !redundant {
                next.pending_in = [key].into_iter().collect();
            } else {
                next.pending_in.insert(key);
            }
        } else {
            // Data this function does not know to be present (a member a constructor maps,
            // an update of data its caller maps): where it is present, its device copy is
            // nothing this function knows of, and the update is the program saying it holds
            // the results; not the unmapped state's "no valid device copy".
            let present = if s.counts.must_be_zero() {
                VALID
            } else {
                s.dev
            };
            next.host = if certain { s.dev } else { present | s.host };
            next.host_why = s.dev_why.clone().or(s.host_why.clone());
            if next.host & STALE == 0 {
                next.host_why = None;
            }
            next.last_out = certain.then_some(key);
        }
        st[obj] = next;
    }
}

/// A `do` loop, a `for` loop whose bounds are constants with at least one iteration, or a
/// loop inside a kernel (taken to run at least once, as the validity analysis does: a kernel
/// whose loop runs zero times does no work worth judging).
fn runs_once(
    module: &Module,
    func: &Function,
    l: &crate::ir::cfg::Loop,
    values: Option<&crate::ir::macros::Values>,
) -> bool {
    l.kind == crate::ir::cfg::LoopKind::Do
        || l.exec == crate::ir::cfg::Exec::Device
        || super::constant_trips_with(module, func, l.stmt, values).is_some()
}

/// The methods called in the expression trees `roots` on the calling method's own object
/// (`at(x, i)`, `this->at(x, i)`); none outside a method.
fn own_object_calls(
    module: &Module,
    func: &Function,
    roots: &[crate::ir::ExprId],
) -> BTreeSet<FuncId> {
    if !func.is_method {
        return BTreeSet::new();
    }
    crate::semantics::validity::direct_calls(func, roots)
        .into_iter()
        .filter(|(f, receiver)| {
            receiver.is_none_or(|r| {
                matches!(
                    func.expr(func.strip_casts(r)).kind,
                    crate::ir::ExprKind::This
                )
            }) && module.function(*f).is_method
                && module.function(*f).has_body
        })
        .map(|(f, _)| f)
        .collect()
}

/// The scalar members (not pointers) method `callee` reads or sets by value on its own object
/// (`alpha` in `return alpha * x[i];`), with the effect where the method runs.
fn own_scalar_members(module: &Module, callee: FuncId) -> Vec<(String, Effect)> {
    use crate::ir::ExprKind;
    let f = module.function(callee);
    let mut found: BTreeMap<String, Effect> = BTreeMap::new();
    // Member expressions set by an assignment (`total = 0;`).
    let assigned: BTreeSet<crate::ir::ExprId> = f
        .exprs
        .iter()
        .filter_map(|e| match e.kind {
            ExprKind::Assign(_, l, _) => Some(f.strip_casts(l)),
            _ => None,
        })
        .collect();
    // Member expressions that are the base of another access (`v[i]`, `s.x`): not a value.
    let bases: BTreeSet<crate::ir::ExprId> = f
        .exprs
        .iter()
        .filter_map(|e| match e.kind {
            ExprKind::Subscript(b, _) => Some(f.strip_casts(b)),
            ExprKind::Member { base: Some(b), .. } => Some(f.strip_casts(b)),
            _ => None,
        })
        .collect();
    for (id, e) in f.exprs.iter_enumerated() {
        let ExprKind::Member { base, field, .. } = &e.kind else {
            continue;
        };
        let on_this = base.is_none_or(|b| matches!(f.expr(f.strip_casts(b)).kind, ExprKind::This));
        if !on_this
            || bases.contains(&id)
            || matches!(
                e.class,
                TypeClass::Pointer | TypeClass::PointerToConst | TypeClass::Array
            )
        {
            continue;
        }
        let kind = if assigned.contains(&id) {
            crate::ir::access::AccessKind::ReadWrite
        } else {
            crate::ir::access::AccessKind::Read
        };
        found
            .entry(field.clone())
            .or_default()
            .merge(Effect::access(kind, false));
    }
    found.into_iter().collect()
}

fn implicit_item(
    o: &Object,
    name: String,
    info: &crate::ir::DirectiveInfo,
    size: Option<u64>,
    map_type: MapType,
) -> MapItem {
    MapItem {
        object: o.clone(),
        text: name,
        span: info.directive.name_span,
        clause: info.directive.span,
        clause_items: 0,
        map_type,
        always: false,
        section: None,
        bytes: size,
        through_mapper: None,
    }
}

/// The map items of one construct with the items of the same storage merged: OpenMP 5.2
/// (§5.8.3) counts a construct's list items of one storage once, and copies when that count
/// goes from or to zero for every item that asks (`map(to: s.x, s.n) map(tofrom: s.y)`: one
/// increment of `s`, one decrement, the copy back of `s.y` when it reaches zero). The merged
/// item keeps the first item's text and span.
fn merged_by_object(maps: &[MapItem]) -> Vec<MapItem> {
    let mut out: Vec<MapItem> = Vec::new();
    for m in maps {
        match out.iter_mut().find(|o| o.object == m.object) {
            None => out.push(m.clone()),
            Some(o) => {
                let to = |t: MapType| matches!(t, MapType::To | MapType::ToFrom);
                let from = |t: MapType| matches!(t, MapType::From | MapType::ToFrom);
                let (a, b) = (o.map_type, m.map_type);
                o.map_type = if a == MapType::Delete || b == MapType::Delete {
                    MapType::Delete
                } else {
                    match (to(a) || to(b), from(a) || from(b)) {
                        (true, true) => MapType::ToFrom,
                        (true, false) => MapType::To,
                        (false, true) => MapType::From,
                        (false, false) if a == MapType::Release || b == MapType::Release => {
                            MapType::Release
                        }
                        (false, false) => MapType::Alloc,
                    }
                };
                o.always |= m.always;
                o.bytes = match (o.bytes, m.bytes) {
                    (Some(x), Some(y)) => Some(x + y),
                    _ => None,
                };
            }
        }
    }
    out
}
