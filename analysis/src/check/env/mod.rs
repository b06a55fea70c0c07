//! The device data environment (OpenMP 5.2 §5.8), interpreted over each host function's
//! AST-CFG: a present table with reference counts per object, combined with host/device
//! validity (OMPDart's definition: a copy is valid when it was last written in its space, or
//! copied from a valid one).
//!
//! Per function, a forward data flow to a fixed point, then one pass that records facts. A
//! function's entry state is the join of its callers' states at the calls (data a caller
//! mapped is present in the callee); roots start with nothing mapped. At a call, what the
//! callee's kernels do to data the caller has mapped happens on the device; to data it has
//! not mapped, the callee maps it itself and the effect is seen on the host.

mod events;
mod fills;
pub mod items;
mod mappers;
pub mod split;
pub mod state;

use crate::ir::cfg::{self, BlockId, Cfg, Exec, LoopId, NodeKind};
use crate::ir::effect::PresentExit;
use crate::ir::{device, DirId, FuncId, IndexVec, Module, Span, StmtId, TypeKind};
use crate::pragma::MapType;
use crate::semantics::effects::{self, Summary};
pub use crate::semantics::validity::Object;
use items::MapItem;
use state::ObjState;
use std::collections::{BTreeMap, HashMap};

/// Per function, what it leaves behind for data not mapped when it is called (its globals and
/// its pointer parameters' data): see `FnInterp::transfer`.
pub type Transfers = HashMap<FuncId, BTreeMap<Object, ObjState>>;

/// What each function leaves behind, for data not mapped when it is called (`unmapped`) and
/// for data mapped with both copies valid (`mapped`).
#[derive(Default)]
pub struct Exits {
    pub unmapped: Transfers,
    pub mapped: Transfers,
    /// What the function leaves of data mapped exactly once at its entry: a count of one on
    /// every path means its own `enter data`/`exit data` balance (one of each on every path,
    /// an `exit data` before each `return`).
    pub once: Transfers,
    /// For a body of a project header (which is not reported on itself, its reads are
    /// reported at the call): per object, whether it may read the host copy before
    /// refreshing it when called with the host copy stale, and what it leaves
    /// ([`events::FnInterp::transfer_stale_host`]).
    pub stale_host: HashMap<FuncId, BTreeMap<Object, (bool, ObjState)>>,
}

/// Identifies one copy: function, block, node, item, direction.
pub type CopyKey = (u32, u32, u32, u32, bool);

/// Why a copy may be stale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Written in the other space (the write's span).
    Write { at: Span, on_device: bool },
    /// A region ended without copying the device's writes back (the map item, the write,
    /// and an inner copy back that did not happen because this region still held the data).
    Dropped {
        item: Span,
        write: Span,
        inner: Option<Span>,
    },
    /// `from`/`tofrom` on exit did not copy: the data was still mapped (count above zero).
    /// `write`: the device write whose result stayed there, when known.
    NoCopyBack { item: Span, write: Option<Span> },
    /// Mapped without a copy (`alloc`, `from`): the device memory holds nothing yet.
    Alloc { item: Span },
    /// A `target update to` copied the host's stale data over the device's results (a
    /// `from` was meant): the update's item and the device write it lost.
    Overwritten { update: Span, write: Span },
    /// The host wrote the data while it was mapped and the device's copy was not refreshed;
    /// a copy back (the exit item) then brought the device's old copy over the host's
    /// write (the host write's span).
    CopiedOver { item: Span, write: Span },
    /// A kernel wrote a scalar that was `firstprivate` (implicitly or not). `lastprivate`:
    /// the scalar is `lastprivate` on a combined `target` construct, which OpenMP maps
    /// `tofrom` but clang-19 keeps `firstprivate`.
    LostScalar {
        write: Span,
        kernel: Span,
        lastprivate: bool,
    },
    /// The exit that released the data copied back only part of it (`from: c[0:C/2]` of the
    /// `c[0:C]` entered): the device's writes to the rest were lost with its storage (OpenMP
    /// 5.2 §5.8.3: the copy is of the exit's list item). The item, the entering one, and the
    /// elements copied.
    PartialCopyBack {
        item: Span,
        entered: Span,
        copied: crate::semantics::sections::Section,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum FactKind {
    StaleHostRead {
        why: Option<Why>,
    },
    StaleDeviceRead {
        why: Option<Why>,
        kernel: DirId,
    },
    /// Pointer data used by a kernel while not present. `member`: the data behind a pointer
    /// member of a struct variable (`t.val`) that no clause maps through the member: the
    /// struct's map copies the pointer, not its data.
    Unmapped {
        kernel: DirId,
        member: Option<String>,
    },
    /// Pointer data used by a kernel whose own clause copies the bare pointer (`clause`: the
    /// item as written, `p`, or `firstprivate(p)`), not what it points to.
    PointerCopied {
        kernel: DirId,
        clause: String,
    },
    NeverExited {
        dir: DirId,
    },
    UpdateNotPresent {
        dir: DirId,
    },
    /// A copy whose destination was already valid (index into [`Facts::copies`]).
    RedundantCopy {
        copy: usize,
    },
    /// A copy to the device of data copied to the host with no host access since.
    RoundTrip {
        copy: usize,
        previous: usize,
    },
    /// A round trip whose copy to the host another function made (a callee that returned,
    /// or a caller before this call): its key, resolved to a [`Self::RoundTrip`] when every
    /// function's copies are known (the interpretation's last step).
    RoundTripFrom {
        copy: usize,
        previous: CopyKey,
    },
    UnusedCopyIn {
        copy: usize,
    },
    UnchangedCopyOut {
        copy: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Fact {
    pub func: FuncId,
    pub object: Object,
    /// How the program names the object (`a`, `this->x`).
    pub name: String,
    pub span: Span,
    /// The statement where it happens (the read's statement, the directive's statement).
    pub stmt: StmtId,
    /// On every path (otherwise only on some).
    pub certain: bool,
    /// The object is mapped (count above zero) on every path reaching this point.
    pub present: bool,
    /// A call omplens cannot see into received the object before this point.
    pub unknown: Option<state::Opaque>,
    pub kind: FactKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyKind {
    /// Entering a region or `target enter data`.
    Entry,
    /// Leaving a region or `target exit data`.
    Exit,
    Update,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Copy {
    pub key: CopyKey,
    pub func: FuncId,
    pub dir: DirId,
    pub object: Object,
    /// The list item (for implicit maps, the directive's name).
    pub item: Span,
    pub item_text: String,
    pub map_type: Option<MapType>,
    pub implicit: bool,
    pub to_device: bool,
    pub kind: CopyKind,
    pub bytes: Option<u64>,
    /// Happens whenever the directive runs (the count is certainly zero, or `always`).
    pub certain: bool,
    /// Innermost host loop around the directive.
    pub in_loop: Option<LoopId>,
    /// A device read (for copies in) or host read (out) used it on some path.
    pub consumed: bool,
}

/// A map item entered at a directive (for the loop rules).
#[derive(Clone, Debug, PartialEq)]
pub struct Mapping {
    pub func: FuncId,
    pub dir: DirId,
    pub item: MapItem,
    /// The count may be zero on entry: device memory is allocated here.
    pub allocates: bool,
    pub in_loop: Option<LoopId>,
}

/// An access (for the loop rules): object, space, read, write, at a block of a function.
#[derive(Clone, Debug, PartialEq)]
pub struct AccessEvent {
    pub func: FuncId,
    pub block: BlockId,
    pub object: Object,
    pub on_device: bool,
    pub read: bool,
    pub write: bool,
}

/// An object passed to a call from the host (reporting pass): the caller's object, the
/// callee's (its parameter, a member, a global) and what the callee's kernels do to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Passed {
    pub caller: FuncId,
    pub block: BlockId,
    /// The argument (or the call, for members and globals).
    pub span: Span,
    pub object: Object,
    pub callee: FuncId,
    pub callee_object: Object,
    pub kernel_read: bool,
    pub kernel_write: bool,
}

/// What a kernel gets by OpenMP's implicit rules, with no clause naming it (for editors).
#[derive(Clone, Debug, PartialEq)]
pub struct KernelImplicit {
    pub func: FuncId,
    pub dir: DirId,
    /// Implicitly mapped `tofrom`: arrays and records (scalars under `defaultmap(tofrom)`, a
    /// combined construct's reduction variables).
    pub maps: Vec<MapItem>,
    /// Scalars the kernel uses that are implicitly `firstprivate`.
    pub firstprivate: Vec<String>,
    /// Pointers whose data the kernel uses: passed as zero-length array sections.
    pub pointers: Vec<String>,
}

/// The abstract state of an object just before one access in the reporting pass: the join
/// over every path (and loop iteration) reaching it. For editors (hover).
#[derive(Clone, Debug, PartialEq)]
pub struct PointState {
    pub func: FuncId,
    /// The accessing expression (or the call that passes the object).
    pub span: Span,
    pub object: Object,
    pub on_device: bool,
    pub read: bool,
    pub write: bool,
    /// Possible reference counts in the present table.
    pub counts: state::Counts,
    /// Validity bits ([`state::VALID`], [`state::STALE`]) of the host and device copies.
    pub host: u8,
    pub dev: u8,
}

/// A pointer a kernel uses whose data may not be on the device there, where omplens cannot
/// tell (the data comes from memory, a caller in another file, an alias): not reported by a
/// rule, but a rewrite that leaves it so has not made the program complete (the rewrite
/// gate's gaps).
#[derive(Clone, Debug, PartialEq)]
pub struct Unproven {
    pub func: FuncId,
    pub site: UnprovenSite,
    pub name: String,
    /// The kernel's use of the data, or the call passing it.
    pub span: Span,
}

/// Where the data is used on the device.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UnprovenSite {
    /// A kernel of this file.
    Kernel(DirId),
    /// A call of a function that launches kernels omplens does not analyse (its body in a
    /// project header holds OpenMP directives).
    Launcher(FuncId),
}

/// Everything the rules read.
pub struct Facts {
    pub facts: Vec<Fact>,
    pub copies: Vec<Copy>,
    pub mappings: Vec<Mapping>,
    pub accesses: Vec<AccessEvent>,
    /// Data passed to a function with a body from the host: which object of the callee it
    /// is (the loop rules follow a callee's mappings to its callers' loops).
    pub passed: Vec<Passed>,
    /// Per kernel, its implicit data-sharing (editors' inlay hints).
    pub kernels: Vec<KernelImplicit>,
    /// Per access, the state before it (editors' hover).
    pub points: Vec<PointState>,
    /// Pointers kernels use that may be unmapped there, where presence is unknown.
    pub unproven: Vec<Unproven>,
    pub cfgs: IndexVec<FuncId, Option<Cfg>>,
    pub execs: IndexVec<FuncId, Exec>,
    /// The coalescing analysis of the module's parallel loops (OMP301/OMP302).
    pub loops: Vec<crate::coalesce::LoopReport>,
}

impl Facts {
    /// Host loop `l` of `func` and every loop inside it contain `block`.
    pub fn in_loop(&self, func: FuncId, l: LoopId, block: BlockId) -> bool {
        let Some(g) = &self.cfgs[func] else {
            return false;
        };
        g.block(block)
            .loop_id
            .is_some_and(|b| g.loop_chain(b).any(|x| x == l))
    }

    /// Accesses of `object` inside loop `l` of `func`.
    pub fn accesses_in_loop<'a>(
        &'a self,
        func: FuncId,
        l: LoopId,
        object: &'a Object,
    ) -> impl Iterator<Item = &'a AccessEvent> + 'a {
        self.accesses.iter().filter(move |a| {
            a.func == func && &a.object == object && self.in_loop(func, l, a.block)
        })
    }
}

/// Interprets every host function of `module`.
pub fn interpret(module: &Module, source: &str) -> Facts {
    // The coalescing analysis reads the IR only: it runs beside the interpretation.
    let (mut facts, loops) = crate::budget::join(
        || interpret_data(module, source),
        || crate::coalesce::analyse(module, source),
    );
    facts.loops = loops;
    facts
}

/// The data-environment interpretation of every host function, callers first.
fn interpret_data(module: &Module, source: &str) -> Facts {
    let execs = device::classify(module);
    let cfgs = cfg::build_all(module, &execs);
    let sums = effects::summarize_with(module, &cfgs);
    let mut facts = Facts {
        facts: Vec::new(),
        copies: Vec::new(),
        mappings: Vec::new(),
        accesses: Vec::new(),
        passed: Vec::new(),
        kernels: Vec::new(),
        points: Vec::new(),
        unproven: Vec::new(),
        cfgs: IndexVec::new(),
        execs: execs.clone(),
        loops: Vec::new(),
    };
    let order = host_order(module, &execs);
    let analysed = |id: FuncId| analysed(module, &cfgs, id);
    let prepared = events::Prepared::default();
    let exits = callee_exits(module, source, &cfgs, &sums, &order, &prepared);
    let mut contexts: HashMap<FuncId, BTreeMap<Object, ObjState>> = HashMap::new();
    for id in order {
        let Some(g) = analysed(id) else { continue };
        // A body from a project header is known for what it does (its effects, its exits
        // above), not reported on: its positions are not this file's.
        if !module.function(id).in_main_file {
            continue;
        }
        let entry = contexts.remove(&id).unwrap_or_default();
        let mut f = events::FnInterp::new(module, source, id, g, &sums, &exits, &prepared, entry);
        f.recover = true;
        f.run(&mut facts);
        for (callee, ctx) in f.take_contexts() {
            let slot = contexts.entry(callee).or_default();
            for (o, st) in ctx {
                match slot.get_mut(&o) {
                    Some(s) => s.join(&st),
                    None => {
                        slot.insert(o, st);
                    }
                }
            }
        }
    }
    resolve_round_trips(&mut facts);
    for (i, c) in facts.copies.iter().enumerate() {
        if c.to_device && !c.consumed {
            let span = c.item;
            facts.facts.push(Fact {
                func: c.func,
                object: c.object.clone(),
                name: c.item_text.clone(),
                span,
                stmt: module.function(c.func).body.unwrap_or(StmtId(0)),
                certain: c.certain,
                present: false,
                unknown: None,
                kind: FactKind::UnusedCopyIn { copy: i },
            });
        }
    }
    facts.cfgs = cfgs;
    facts
}

/// Round trips across functions: the copy to the host found among every function's copies
/// (dropped when there is none: its function was not analysed).
fn resolve_round_trips(facts: &mut Facts) {
    let at: HashMap<CopyKey, usize> = facts
        .copies
        .iter()
        .enumerate()
        .map(|(i, c)| (c.key, i))
        .collect();
    facts.facts.retain_mut(|f| match f.kind {
        FactKind::RoundTripFrom { copy, previous } => match at.get(&previous) {
            Some(&p) => {
                f.kind = FactKind::RoundTrip { copy, previous: p };
                true
            }
            None => false,
        },
        _ => true,
    });
}

/// Every function some function of `module` calls directly (what [`events::FnInterp`] looks
/// up in [`Exits`] at a call).
/// The CFG of `id`, when the function is analysed.
fn analysed<'c>(
    module: &Module,
    cfgs: &'c IndexVec<FuncId, Option<Cfg>>,
    id: FuncId,
) -> Option<&'c Cfg> {
    cfgs[id]
        .as_ref()
        .filter(|_| module.function(id).not_analysed.is_none())
}

/// What every function that is called directly leaves behind (callees before callers: a
/// caller applies what its callees leave behind). Only a direct call reads it, so a function
/// nobody calls (`main`, often the largest) is not solved for it.
fn callee_exits(
    module: &Module,
    source: &str,
    cfgs: &IndexVec<FuncId, Option<Cfg>>,
    sums: &IndexVec<FuncId, Summary>,
    order: &[FuncId],
    prepared: &events::Prepared,
) -> Exits {
    let called = direct_callees(module);
    let mut exits = Exits::default();
    for &id in order.iter().rev() {
        let Some(g) = analysed(module, cfgs, id) else {
            continue;
        };
        if !called.contains(&id) {
            continue;
        }
        let new = || {
            events::FnInterp::new(
                module,
                source,
                id,
                g,
                sums,
                &exits,
                prepared,
                BTreeMap::new(),
            )
        };
        let (t, p, o) = (
            new().transfer(),
            new().transfer_present(),
            new().transfer_once(),
        );
        // (And for a method: whether it refreshes its object's members, `target update
        // from` through a member, is what its callers need to know.)
        let f = module.function(id);
        let r = (!f.in_main_file || f.is_method).then(|| new().transfer_stale_host());
        exits.unmapped.insert(id, t);
        exits.mapped.insert(id, p);
        exits.once.insert(id, o);
        if let Some(r) = r {
            exits.stale_host.insert(id, r);
        }
    }
    exits
}

/// For each function of `ids`, per parameter: which copies of the data it points to are
/// certainly valid at the function's exit when that data is mapped at its entry with both
/// copies valid (for other files of the project, which cannot see its mappings: `project`).
pub fn present_exits(
    module: &Module,
    source: &str,
    ids: &[FuncId],
) -> BTreeMap<FuncId, Vec<Option<PresentExit>>> {
    let execs = device::classify(module);
    let cfgs = cfg::build_all(module, &execs);
    let sums = effects::summarize_with(module, &cfgs);
    let order = host_order(module, &execs);
    let prepared = events::Prepared::default();
    let exits = callee_exits(module, source, &cfgs, &sums, &order, &prepared);
    let mut out = BTreeMap::new();
    for &id in ids {
        let Some(g) = analysed(module, &cfgs, id) else {
            continue;
        };
        let at_exit = match exits.mapped.get(&id) {
            Some(m) => m.clone(),
            None => events::FnInterp::new(
                module,
                source,
                id,
                g,
                &sums,
                &exits,
                &prepared,
                BTreeMap::new(),
            )
            .transfer_present(),
        };
        let per_param = module
            .function(id)
            .params
            .iter()
            .map(|p| {
                let s = at_exit.get(&Object::Var(*p))?;
                Some(PresentExit {
                    host_valid: s.host == state::VALID,
                    dev_valid: s.dev == state::VALID,
                })
            })
            .collect();
        out.insert(id, per_param);
    }
    out
}

fn direct_callees(module: &Module) -> std::collections::HashSet<FuncId> {
    module
        .functions
        .iter()
        .flat_map(|f| f.exprs.iter())
        .filter_map(|e| match &e.kind {
            crate::ir::ExprKind::Call {
                callee: crate::ir::Callee::Direct(c),
                ..
            } => Some(*c),
            _ => None,
        })
        .collect()
}

/// Host functions with bodies, callers before callees (roots first; cycles broken in
/// declaration order).
fn host_order(module: &Module, execs: &IndexVec<FuncId, Exec>) -> Vec<FuncId> {
    let sites = device::call_sites(module);
    let mut callers: IndexVec<FuncId, Vec<FuncId>> =
        module.functions.iter().map(|_| Vec::new()).collect();
    for s in sites
        .iter()
        .filter(|s| !s.in_kernel && s.caller != s.callee)
    {
        callers[s.callee].push(s.caller);
    }
    let host = |i: FuncId| module.functions[i].has_body && execs[i].on_host();
    let mut done: IndexVec<FuncId, bool> = module.functions.iter().map(|_| false).collect();
    let mut out = Vec::new();
    loop {
        let mut progress = false;
        for i in module.functions.indices() {
            crate::budget::tick("the data-environment fixed point");
            if done[i] || !host(i) {
                continue;
            }
            if callers[i].iter().all(|&c| done[c] || !host(c) || c == i) {
                done[i] = true;
                out.push(i);
                progress = true;
            }
        }
        if !progress {
            // A cycle: take the first function left.
            match module.functions.indices().find(|&i| !done[i] && host(i)) {
                Some(i) => {
                    done[i] = true;
                    out.push(i);
                }
                None => break,
            }
        }
    }
    out
}

/// The printable name of a field object: `g.x` for a struct's member, `p[:][:]` for the rows
/// of an array of pointers.
pub fn field_name(var: &str, member: &str) -> String {
    if member.starts_with('[') {
        format!("{var}{member}")
    } else {
        format!("{var}.{member}")
    }
}

/// The printable name of an object.
pub fn object_name(module: &Module, o: &Object) -> String {
    match o {
        Object::Var(v) => module.var(*v).name.clone(),
        Object::Member(m) => format!("this->{m}"),
        Object::Field(v, m) => field_name(&module.var(*v).name, m),
    }
}

/// Whether a variable's type makes it a scalar for the implicit rules (not a pointer, array
/// or record).
pub fn is_scalar_var(module: &Module, o: &Object) -> bool {
    match o {
        Object::Var(v) => {
            let t = module.var(*v).ty.referent();
            !matches!(
                t.kind,
                TypeKind::Pointer(_) | TypeKind::Array { .. } | TypeKind::Record(_)
            )
        }
        // (A member of a struct variable: the variable is the aggregate the implicit rules
        // judge.)
        Object::Member(_) | Object::Field(..) => false,
    }
}

/// Iterations of `for (i = a; i < b; step)` (or `<=`, `>`, `>=`) with constant bounds and a
/// step the loop shows: `i++`, `i += c`, `i = i + c` (and their decrements), or a geometric
/// `i *= k`, `i <<= k`, `i /= k`, `i >>= k`. Any other step gives `None` (an estimate), never a
/// count that assumes a unit step.
pub fn constant_trips(module: &Module, func: &crate::ir::Function, stmt: StmtId) -> Option<u64> {
    constant_trips_with(module, func, stmt, None)
}

/// [`constant_trips`], where the bounds may also be names whose value `values` knows (a
/// `const int steps = 12;`, `semantics::constants::known_values`).
pub fn constant_trips_with(
    module: &Module,
    func: &crate::ir::Function,
    stmt: StmtId,
    values: Option<&crate::ir::macros::Values>,
) -> Option<u64> {
    use crate::ir::{BinaryOp, ExprKind, StmtKind};
    use crate::semantics::symbolic::Poly;
    let StmtKind::For(fl) = &func.stmt(stmt).kind else {
        return None;
    };
    let (iv, cond) = (fl.induction?, fl.cond?);
    let value = |e| {
        let mut p = Poly::from_expr(module, func, e)?;
        if let Some(values) = values {
            let atoms: Vec<String> = p.atoms().into_iter().map(str::to_string).collect();
            for a in atoms {
                if let Some(v) = values.get(&a) {
                    p = p.subst(&a, &Poly::constant(*v));
                }
            }
        }
        p.as_const()
    };
    let start = fl.init.and_then(|s| match &func.stmt(s).kind {
        StmtKind::Decl(ds) => ds
            .iter()
            .find(|(v, _)| *v == iv)
            .and_then(|(_, e)| e.and_then(value)),
        StmtKind::Expr(e) => match &func.expr(*e).kind {
            ExprKind::Assign(None, _, rhs) => value(*rhs),
            _ => None,
        },
        _ => None,
    })?;
    let step = loop_step(module, func, fl.step?, iv)?;
    // The loop runs while `i < end` (up) or `i > end` (down); `<=` and `>=` move the end by one.
    let (end, up) = match &func.expr(cond).kind {
        ExprKind::Binary(BinaryOp::Lt, _, rhs) => (value(*rhs)?, true),
        ExprKind::Binary(BinaryOp::Le, _, rhs) => (value(*rhs)?.checked_add(1)?, true),
        ExprKind::Binary(BinaryOp::Gt, _, rhs) => (value(*rhs)?, false),
        ExprKind::Binary(BinaryOp::Ge, _, rhs) => (value(*rhs)?.checked_sub(1)?, false),
        _ => return None,
    };
    let runs = |i: i64| if up { i < end } else { i > end };
    match step {
        Step::Add(c) if c > 0 && up => Some(if end > start {
            ((end - start) as u64).div_ceil(c as u64)
        } else {
            0
        }),
        Step::Add(c) if c < 0 && !up => Some(if start > end {
            ((start - end) as u64).div_ceil(c.unsigned_abs())
        } else {
            0
        }),
        Step::Mul(k) if k > 1 && up && start > 0 => {
            let (mut i, mut n) = (start, 0u64);
            while runs(i) {
                n += 1;
                i = i.checked_mul(k)?;
            }
            Some(n)
        }
        Step::Div(k) if k > 1 && !up && start >= 0 && end >= 0 => {
            let (mut i, mut n) = (start, 0u64);
            while runs(i) {
                n += 1;
                i /= k;
            }
            Some(n)
        }
        // A step away from the end (or none): the loop's count is not a constant we can trust.
        _ => None,
    }
}

/// How a loop's step expression moves its induction variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Add(i64),
    Mul(i64),
    Div(i64),
}

fn loop_step(
    module: &Module,
    func: &crate::ir::Function,
    step: crate::ir::ExprId,
    iv: crate::ir::VarId,
) -> Option<Step> {
    use crate::ir::{BinaryOp, ExprKind, UnaryOp};
    use crate::semantics::symbolic::Poly;
    let is_iv = |e: crate::ir::ExprId| func.var_through_casts(e) == Some(iv);
    let value = |e| Poly::from_expr(module, func, e).and_then(|p| p.as_const());
    // `i op= c` and `i = i op c` step alike.
    let step_by = |op: BinaryOp, c: i64| {
        let shift = |k: i64| (0..62).contains(&k).then(|| 1i64 << k);
        match op {
            BinaryOp::Add => Some(Step::Add(c)),
            BinaryOp::Sub => Some(Step::Add(c.checked_neg()?)),
            BinaryOp::Mul => Some(Step::Mul(c)),
            BinaryOp::Shl => Some(Step::Mul(shift(c)?)),
            BinaryOp::Div => Some(Step::Div(c)),
            BinaryOp::Shr => Some(Step::Div(shift(c)?)),
            _ => None,
        }
    };
    match &func.expr(func.strip_casts(step)).kind {
        ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PreInc, x) if is_iv(*x) => Some(Step::Add(1)),
        ExprKind::Unary(UnaryOp::PostDec | UnaryOp::PreDec, x) if is_iv(*x) => Some(Step::Add(-1)),
        ExprKind::Assign(Some(op), x, rhs) if is_iv(*x) => {
            let c = value(*rhs)?;
            step_by(*op, c)
        }
        ExprKind::Assign(None, x, rhs) if is_iv(*x) => {
            let ExprKind::Binary(op, a, b) = &func.expr(func.strip_casts(*rhs)).kind else {
                return None;
            };
            // `i = i op c`, or `i = c op i` for the commutative ones.
            let c = if is_iv(*a) {
                value(*b)?
            } else if is_iv(*b) && matches!(op, BinaryOp::Add | BinaryOp::Mul) {
                value(*a)?
            } else {
                return None;
            };
            step_by(*op, c)
        }
        _ => None,
    }
}
