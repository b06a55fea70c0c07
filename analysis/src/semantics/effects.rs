//! Interprocedural side effects (OMPDart §IV-C): for each function, which globals and which
//! data reachable through its pointer and reference parameters (and `this`) it reads and
//! writes, on the host and on the device.
//!
//! Summaries are kept *relative* to where the function runs: an effect is either `here` (in
//! code outside the function's own kernels, which runs wherever the function is called from)
//! or `kernel` (inside one of its target regions, always the device). At a call site the
//! callee's `here` effects happen in the caller's space at that point, so a function called
//! both from the host and from kernels is handled with no loss. The fixed point over the call
//! graph only ever adds effects to a finite set, so it terminates, also on recursion.

use crate::ir::access::{Access, AccessKind, Escape, Root};
use crate::ir::cfg::{self, Exec};
use crate::ir::{
    device, ExprKind, FuncId, Function, IndexVec, Module, Storage, TypeClass, TypeKind, VarId,
};
use std::collections::{BTreeMap, HashMap, HashSet};

pub use crate::ir::effect::{Effect, SpaceEffect};

/// What one function does to data visible outside it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Globals (file-scope variables), including their elements and members.
    pub globals: BTreeMap<VarId, Effect>,
    /// Per parameter: the data it points or refers to (not the parameter's own value).
    pub params: Vec<Effect>,
    /// The object of a C++ member function.
    pub this: Effect,
    /// The data inside members, by member name, through any object (`this->v[i]`,
    /// `m.v[i]`, an accessor's `return v[i];`): field objects shared by every object that has
    /// a member of that name, like globals.
    pub members: BTreeMap<String, Effect>,
}

/// Summaries of every function of `module`, indexed by `FuncId`. Functions without a body are
/// judged from their prototype: data behind a pointer or reference to const is read,
/// other pointer and reference parameters are read and written.
pub fn summarize(module: &Module) -> IndexVec<FuncId, Summary> {
    let execs = device::classify(module);
    summarize_with(module, &cfg::build_all(module, &execs))
}

/// [`summarize`] over AST-CFGs already built (`cfg::build_all`).
pub fn summarize_with(
    module: &Module,
    cfgs: &IndexVec<FuncId, Option<cfg::Cfg>>,
) -> IndexVec<FuncId, Summary> {
    let sites = device::call_sites(module);
    let facts: IndexVec<FuncId, Option<FunctionFacts>> = module
        .functions
        .iter_enumerated()
        .map(|(id, f)| {
            cfgs[id].as_ref().filter(|_| f.has_body).map(|g| {
                let mut callees: Vec<(FuncId, bool)> = sites
                    .iter()
                    .filter(|s| s.caller == id)
                    .map(|s| (s.callee, s.in_kernel))
                    .collect();
                callees.sort_by_key(|(f, k)| (f.0, *k));
                callees.dedup();
                FunctionFacts::collect(module, id, g, callees)
            })
        })
        .collect();
    let mut sums: IndexVec<FuncId, Summary> = module
        .functions
        .iter()
        .map(|f| {
            if f.has_body {
                Summary {
                    params: vec![Effect::default(); f.params.len()],
                    ..Summary::default()
                }
            } else if let Some(x) = &f.external {
                external_summary(module, f, x)
            } else {
                prototype_summary(module, f)
            }
        })
        .collect();
    // Chaotic iteration to the least fixed point; each round can only add effects.
    loop {
        let mut changed = false;
        for (i, facts) in facts.iter_enumerated() {
            crate::budget::tick("the side-effect fixed point");
            let Some(facts) = facts else { continue };
            let new = facts.apply(&sums);
            if new != sums[i] {
                sums[i] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    sums
}

use crate::ir::access::NO_DATA_ACCESS;

/// C library functions whose first argument's data they only write (`memset(buf, ...)`
/// reads nothing of `buf`): the prototype's non-const pointer would say read and write.
const WRITES_FIRST_ONLY: &[&str] = &[
    "memset",
    "memcpy",
    "memmove",
    "strcpy",
    "strncpy",
    "bzero",
    "explicit_bzero",
    "fread",
    "fgets",
];

/// Standard algorithms that only write the range they are given first (`std::iota(p, p + n,
/// 0)`): the arguments that name it.
const STD_FILLS: &[&str] = &[
    "iota",
    "fill",
    "fill_n",
    "generate",
    "generate_n",
    "uninitialized_fill",
    "uninitialized_fill_n",
];
/// Standard algorithms that copy from their first range into an output that is only
/// written (argument 2: `std::copy(a, a + n, b)`; `copy_n(a, n, b)`).
const STD_COPIES: &[&str] = &[
    "copy",
    "copy_n",
    "copy_if",
    "copy_backward",
    "move",
    "move_backward",
    "uninitialized_copy",
    "uninitialized_copy_n",
    "uninitialized_move",
    "reverse_copy",
    "rotate_copy",
    "replace_copy",
    "replace_copy_if",
    "remove_copy",
    "remove_copy_if",
    "unique_copy",
    "partial_sum",
    "adjacent_difference",
    "inclusive_scan",
    "exclusive_scan",
    "transform_inclusive_scan",
    "transform_exclusive_scan",
];
/// Standard algorithms that only read every range they are given.
const STD_READS: &[&str] = &[
    "accumulate",
    "reduce",
    "transform_reduce",
    "inner_product",
    "find",
    "find_if",
    "find_if_not",
    "find_end",
    "find_first_of",
    "adjacent_find",
    "count",
    "count_if",
    "equal",
    "mismatch",
    "min_element",
    "max_element",
    "minmax_element",
    "all_of",
    "any_of",
    "none_of",
    "lower_bound",
    "upper_bound",
    "equal_range",
    "binary_search",
    "is_sorted",
    "is_sorted_until",
    "is_partitioned",
    "is_permutation",
    "is_heap",
    "search",
    "search_n",
    "lexicographical_compare",
    "includes",
];
/// Iterator and utility templates that pass a pointer on without touching its data.
const STD_NO_DATA: &[&str] = &[
    "begin",
    "end",
    "cbegin",
    "cend",
    "rbegin",
    "rend",
    "data",
    "size",
    "next",
    "prev",
    "distance",
    "advance",
    "addressof",
    "forward",
    "make_pair",
    "make_tuple",
    "tie",
    "min",
    "max",
    "minmax",
    "exchange",
    "launder",
];

/// What a function template of the C++ library does to the data behind pointer argument
/// `i`. libclang numbers no parameters of a function template declared in a system header,
/// so the prototype cannot say; the algorithm's name does. An algorithm not listed reads and
/// writes what it is given (`std::sort`, `std::shuffle`, `std::for_each`).
pub fn library_template_arg(f: &Function, i: usize) -> Option<Effect> {
    let library_template = f.in_system_header && f.is_template && !f.has_body && !f.is_method;
    if !library_template || i < f.params.len() {
        return None;
    }
    let name = f.name.as_str();
    let (read, write) = if STD_NO_DATA.contains(&name) {
        (false, false)
    } else if STD_FILLS.contains(&name) {
        (false, true)
    } else if STD_COPIES.contains(&name) {
        (i < 2, i >= 2)
    } else if name == "transform" {
        // Argument 2 is the second input (5 arguments) or the output (4): read and write.
        (i <= 2, i >= 2)
    } else if STD_READS.contains(&name) {
        (true, false)
    } else {
        (true, true)
    };
    Some(Effect {
        here_read: read,
        here_write: write,
        ..Effect::default()
    })
}

/// The summary of a function defined in another translation unit, read there: its globals
/// are this module's globals of the same names (one it does not declare is not visible here).
fn external_summary(
    module: &Module,
    f: &Function,
    x: &crate::ir::effect::ExternalSummary,
) -> Summary {
    let mut params = x.params.clone();
    params.resize(f.params.len(), Effect::default());
    let globals = module
        .vars
        .iter_enumerated()
        .filter(|(_, v)| v.storage == Storage::Global)
        .filter_map(|(id, v)| Some((id, *x.globals.get(&v.name)?)))
        .collect();
    Summary {
        globals,
        params,
        this: x.this,
        members: x.members.clone(),
    }
}

/// What `module`'s functions with external linkage do, for other translation units of the
/// project (`project`): each with a body in the main file (its id here), by qualified name and
/// number of parameters. One that holds or calls OpenMP directives that map or launch anything is
/// marked `launches` (its own mappings are not carried across files, so such a call stays
/// unseen, known to act on the device).
pub fn exported(
    module: &Module,
    sums: &IndexVec<FuncId, Summary>,
    cfgs: &IndexVec<FuncId, Option<cfg::Cfg>>,
) -> Vec<(FuncId, (String, usize, crate::ir::effect::ExternalSummary))> {
    let offloads = offloading_functions(module);
    module
        .functions
        .iter_enumerated()
        .filter(|(_, f)| {
            f.has_body
                && f.in_main_file
                && !f.internal_linkage
                && !f.is_template
                && f.not_analysed.is_none()
        })
        .map(|(id, f)| {
            let s = &sums[id];
            let globals = s
                .globals
                .iter()
                .filter(|(v, _)| module.var(**v).storage == Storage::Global)
                .map(|(v, e)| (module.var(*v).name.clone(), *e))
                .collect();
            let summary = crate::ir::effect::ExternalSummary {
                file: module.path.clone(),
                params: s.params.clone(),
                this: s.this,
                members: s.members.clone(),
                globals,
                returns_bytes: crate::semantics::allocation::returned_bytes(module, id)
                    .map(|p| crate::semantics::allocation::encode(&p)),
                launches: offloads.contains(&id),
                present_exits: Vec::new(),
                writes_first: cfgs[id]
                    .as_ref()
                    .map(|g| host_writes_first(module, f, g))
                    .unwrap_or_default(),
            };
            (id, (f.qualified_name.clone(), f.params.len(), summary))
        })
        .collect()
}

/// Per parameter of `func`: the first access to its data in the text of the body, outside
/// kernels, writes it without reading it (nor passing it on). Text order, not control flow:
/// it only tells a caller that the function may fill the data before it reads it.
fn host_writes_first(module: &Module, func: &Function, g: &cfg::Cfg) -> Vec<bool> {
    let mut first: Vec<Option<(u32, bool)>> = vec![None; func.params.len()];
    for (_, node) in g.nodes() {
        if node.exec == Exec::Device {
            continue;
        }
        for a in &node.accesses {
            let Root::Var(v) = a.root else { continue };
            let Some(i) = func.params.iter().position(|p| *p == v) else {
                continue;
            };
            if !touches_outside_data(module, a, Target::Param(i)) {
                continue;
            }
            let at = func.expr(a.expr).span.start;
            let writes = a.kind == AccessKind::Write && a.escape.is_none();
            if first[i].is_none_or(|(s, _)| at < s) {
                first[i] = Some((at, writes));
            }
        }
    }
    first
        .into_iter()
        .map(|f| f.is_some_and(|(_, w)| w))
        .collect()
}

/// Functions that hold an OpenMP directive that maps data or launches kernels, or call one
/// (directly or not). (Data passed on to a call omplens cannot see is marked `opaque` in the
/// summary, which a caller says as the unknown it is.)
fn offloading_functions(module: &Module) -> HashSet<FuncId> {
    let mut out: HashSet<FuncId> = module
        .directives
        .iter()
        .filter(|d| d.directive.kind.is_offload_kernel() || d.directive.kind.is_data_mapping())
        .filter_map(|d| d.function)
        .collect();
    out.extend(
        module
            .functions
            .iter_enumerated()
            .filter(|(_, f)| {
                f.offloads_unseen || f.header_kernels || f.launches_in_file().is_some()
            })
            .map(|(id, _)| id),
    );
    let sites = device::call_sites(module);
    loop {
        let before = out.len();
        for s in &sites {
            if out.contains(&s.callee) {
                out.insert(s.caller);
            }
        }
        if out.len() == before {
            break;
        }
    }
    out
}

fn prototype_summary(module: &Module, f: &Function) -> Summary {
    let c_library = f.qualified_name == f.name && f.in_system_header;
    if NO_DATA_ACCESS.contains(&f.name.as_str()) && f.qualified_name == f.name {
        return Summary {
            params: vec![Effect::default(); f.params.len()],
            ..Summary::default()
        };
    }
    let conservative = |ty: &crate::ir::Type| -> Effect {
        let pointee = match &ty.kind {
            TypeKind::Pointer(p) | TypeKind::Reference(p) => p,
            _ => return Effect::default(),
        };
        Effect {
            here_read: true,
            here_write: !pointee.is_const,
            // A library function's prototype says what it does; a project function's body
            // is elsewhere.
            opaque: !f.in_system_header,
            ..Effect::default()
        }
    };
    let write_only = |i: usize| i == 0 && c_library && WRITES_FIRST_ONLY.contains(&f.name.as_str());
    Summary {
        globals: BTreeMap::new(),
        params: f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let e = conservative(&module.var(*p).ty);
                if write_only(i) && e.here_write {
                    Effect {
                        here_read: false,
                        ..e
                    }
                } else {
                    e
                }
            })
            .collect(),
        this: if f.is_method {
            Effect {
                here_read: true,
                here_write: true,
                ..Effect::default()
            }
        } else {
            Effect::default()
        },
        members: BTreeMap::new(),
    }
}

/// The expressions (casts included) of pointer values `func` stores into memory: the right
/// side of an assignment to an element, a member, a dereference or a global (`l->s = p`,
/// `*out = p`, `table[i] = p`).
fn stored_pointer_values(module: &Module, func: &Function) -> HashSet<crate::ir::ExprId> {
    let mut out = HashSet::new();
    for e in func.exprs.iter() {
        let ExprKind::Assign(None, lhs, rhs) = e.kind else {
            continue;
        };
        let into_memory = match &func.expr(func.strip_casts(lhs)).kind {
            ExprKind::Subscript(..)
            | ExprKind::Member { .. }
            | ExprKind::Unary(crate::ir::UnaryOp::Deref, _) => true,
            ExprKind::Var(v) => matches!(
                module.var(*v).storage,
                Storage::Global | Storage::StaticGlobal | Storage::StaticLocal
            ),
            _ => false,
        };
        if !into_memory {
            continue;
        }
        let mut chain = vec![rhs];
        while let ExprKind::Cast(x) = func.expr(chain[chain.len() - 1]).kind {
            chain.push(x);
        }
        let value = func.expr(chain[chain.len() - 1]);
        if matches!(value.kind, ExprKind::Var(v) if module.var(v).ty.is_pointer()) {
            out.extend(chain);
        }
    }
    out
}

/// What a function's body touches, by the object reached: the part of the summary that does
/// not depend on other functions, plus its call sites.
struct FunctionFacts {
    params: usize,
    /// The data inside members this function touches itself.
    members: Vec<(String, Effect)>,
    /// The names of the members [`Target::Member`] indexes.
    member_names: Vec<String>,
    direct: Vec<(Target, Effect)>,
    calls: Vec<CallFact>,
    /// Every direct call, and whether it sits inside one of this function's kernels.
    callees: Vec<(FuncId, bool)>,
}

/// Data outside the function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Target {
    Global(VarId),
    Param(usize),
    This,
    /// The data inside a member, through any object (an index into
    /// `FunctionFacts::member_names`): a member's data passed to a call (`f(c->u)`,
    /// `f(u)` with `u = c->u`) gets what the callee does to its parameter.
    Member(usize),
}

/// One argument (or the receiver) of a call, passed by address.
struct CallFact {
    callee: FuncId,
    /// None: the receiver object of a member call.
    index: Option<usize>,
    target: Target,
    in_kernel: bool,
    /// What a library template does to this argument, where its parameters are unknown.
    library: Option<Effect>,
    /// The access says the call only reads (an element read of a container).
    read_only: bool,
}

impl FunctionFacts {
    fn collect(
        module: &Module,
        id: FuncId,
        g: &cfg::Cfg,
        callees: Vec<(FuncId, bool)>,
    ) -> FunctionFacts {
        let func = module.function(id);
        let (mut aliases, alias_sources) = pointer_aliases(module, func);
        let member_sources = member_alias_sources(module, func);
        // `p = v.data()`: what goes through `p` reaches `v`'s data; taking it touches none.
        let (views, view_sources) = container_views(module, func);
        for (c, p) in views {
            aliases.entry(p).or_insert_with(|| vec![AliasOf::Var(c)]);
        }
        // The data outside the function an access reaches: through a local alias, each
        // thing it may point into (`src = c ? (float *)a : (float *)b` set on two branches).
        let resolve = |root: Root| -> Vec<Target> {
            let one = |v: VarId| {
                let var = module.var(v);
                match var.storage {
                    Storage::Global | Storage::StaticGlobal => Some(Target::Global(v)),
                    Storage::Parameter => {
                        func.params.iter().position(|p| *p == v).map(Target::Param)
                    }
                    _ => None,
                }
            };
            match root {
                Root::This => vec![Target::This],
                Root::Var(v) => match aliases.get(&v) {
                    Some(roots) => roots
                        .iter()
                        .filter_map(|r| match r {
                            AliasOf::This => Some(Target::This),
                            AliasOf::Var(s) => one(*s),
                        })
                        .collect(),
                    None => one(v).into_iter().collect(),
                },
            }
        };
        let mut direct = Vec::new();
        let mut calls = Vec::new();
        let mut members = Vec::new();
        let mut member_names: Vec<String> = Vec::new();
        // A call that receives a member's data (`f(c->u)`, or a local copy of the member
        // `u`): the member's data gets the callee's effect on that parameter.
        // Says whether it recorded the call (then the access itself is not counted).
        let mut member_call = |m: &str, a: &Access, in_kernel: bool, calls: &mut Vec<CallFact>| {
            let Some(Escape::CallArg {
                callee: Some(callee),
                index: Some(i),
            }) = &a.escape
            else {
                return false;
            };
            let at = match member_names.iter().position(|n| n == m) {
                Some(k) => k,
                None => {
                    member_names.push(m.to_string());
                    member_names.len() - 1
                }
            };
            calls.push(CallFact {
                callee: *callee,
                index: Some(*i),
                target: Target::Member(at),
                in_kernel,
                library: library_template_arg(module.function(*callee), *i),
                read_only: false,
            });
            true
        };
        let stored = stored_pointer_values(module, func);
        // A local copy of a member pointer (`double *a = a_;` in a method, `double *u =
        // c->u;` through a parameter): its accesses are that member's data's, as the
        // interpretation counts them (its transfers name the member), besides the object's.
        let member_views = member_alias_sets(module, func).0;
        for (_, node) in g.nodes() {
            // Inside a kernel of this function (as opposed to wherever the function runs).
            let in_kernel = node.exec == Exec::Device && g.exec != Exec::Device;
            for a in &node.accesses {
                // `l->next = p`: the pointer is kept where code omplens does not follow may
                // take it again and read what it points to (a linked structure a kernel walks
                // later): an unseen read of the data, never a certain one.
                if a.path.is_empty() && stored.contains(&a.expr) {
                    for target in resolve(a.root) {
                        let mut e = Effect::access(AccessKind::Read, in_kernel);
                        e.opaque = true;
                        direct.push((target, e));
                    }
                }
                if view_sources.contains(&a.expr) || is_library_query(module, a) {
                    continue;
                }
                // `x = &obj.v[0]` with `x` a member alias: the accesses through `x` count.
                if matches!(a.escape, Some(Escape::AddressTaken))
                    && member_sources.contains(&a.expr)
                {
                    continue;
                }
                if let Some(f) = member_data(a) {
                    // A library member call on the member: a query (`v.size()`) touches no
                    // element, a mutator (`v.clear()`, `v.resize(n)`) writes without reading.
                    let library_method = match &a.escape {
                        Some(Escape::CallArg {
                            callee: Some(c),
                            index: None,
                        }) => {
                            let c = module.function(*c);
                            (c.in_system_header && !c.has_body).then_some(c.name.as_str())
                        }
                        _ => None,
                    };
                    const MUTATORS: &[&str] = &[
                        "clear",
                        "resize",
                        "reserve",
                        "assign",
                        "push_back",
                        "emplace_back",
                        "pop_back",
                        "insert",
                        "erase",
                        "swap",
                        "shrink_to_fit",
                        "fill",
                    ];
                    let kind = if library_method.is_some_and(|n| MUTATORS.contains(&n)) {
                        AccessKind::Write
                    } else if a.escape.is_some() && a.kind != AccessKind::Read {
                        AccessKind::ReadWrite
                    } else {
                        a.kind
                    };
                    if !member_call(f, a, in_kernel, &mut calls) {
                        members.push((f.to_string(), Effect::access(kind, in_kernel)));
                    }
                }
                if let Root::Var(v) = a.root {
                    if let Some(m) = member_views.get(&v) {
                        if !a.path.is_empty() || a.escape.is_some() {
                            let kind = if a.escape.is_some() && a.kind != AccessKind::Read {
                                AccessKind::ReadWrite
                            } else {
                                a.kind
                            };
                            if !member_call(m, a, in_kernel, &mut calls) {
                                members.push((m.clone(), Effect::access(kind, in_kernel)));
                            }
                        }
                    }
                }
                for target in resolve(a.root) {
                    if !touches_outside_data(module, a, target) {
                        continue;
                    }
                    match &a.escape {
                        Some(Escape::CallArg {
                            callee: Some(callee),
                            index,
                        }) => {
                            calls.push(CallFact {
                                callee: *callee,
                                index: *index,
                                target,
                                in_kernel,
                                library: index.and_then(|i| {
                                    library_template_arg(module.function(*callee), i)
                                }),
                                // An element read of a container (`s += v[i]`, `v.size()`).
                                read_only: a.kind == AccessKind::Read,
                            });
                        }
                        // `q = &p[k]` with `q` a tracked alias: accesses through `q` count instead.
                        Some(Escape::AddressTaken) if alias_sources.contains(&a.expr) => {}
                        Some(Escape::CallArg { callee: None, .. }) | Some(Escape::AddressTaken) => {
                            let kind = if a.kind == AccessKind::Read {
                                AccessKind::Read
                            } else {
                                AccessKind::ReadWrite
                            };
                            let mut e = Effect::access(kind, in_kernel);
                            e.opaque =
                                matches!(a.escape, Some(Escape::CallArg { callee: None, .. }));
                            direct.push((target, e))
                        }
                        None => direct.push((target, Effect::access(a.kind, in_kernel))),
                    }
                }
            }
        }
        FunctionFacts {
            params: func.params.len(),
            members,
            member_names,
            direct,
            calls,
            callees,
        }
    }

    fn apply(&self, sums: &IndexVec<FuncId, Summary>) -> Summary {
        let mut s = Summary {
            params: vec![Effect::default(); self.params],
            ..Summary::default()
        };
        let add = |s: &mut Summary, t: Target, e: Effect| match t {
            Target::Global(v) => {
                s.globals.entry(v).or_default().merge(e);
            }
            Target::Param(i) => {
                if let Some(p) = s.params.get_mut(i) {
                    p.merge(e);
                }
            }
            Target::This => {
                s.this.merge(e);
            }
            Target::Member(i) => {
                if let Some(m) = self.member_names.get(i) {
                    s.members.entry(m.clone()).or_default().merge(e);
                }
            }
        };
        for (t, e) in &self.direct {
            add(&mut s, *t, *e);
        }
        for c in &self.calls {
            let callee = &sums[c.callee];
            let e = match c.index {
                Some(i) => callee
                    .params
                    .get(i)
                    .copied()
                    .or(c.library)
                    .unwrap_or(Effect {
                        // A variadic argument passed by address: conservative.
                        here_read: true,
                        here_write: true,
                        ..Effect::default()
                    }),
                None => callee.this,
            };
            let e = if c.read_only {
                Effect {
                    here_write: false,
                    kernel_write: false,
                    ..e
                }
            } else {
                e
            };
            add(&mut s, c.target, e.at_call_site(c.in_kernel));
        }
        for (m, e) in &self.members {
            s.members.entry(m.clone()).or_default().merge(*e);
        }
        // What callees do to globals (and to members' data) happens to the caller's too.
        for &(callee, in_kernel) in &self.callees {
            for (v, e) in &sums[callee].globals {
                add(&mut s, Target::Global(*v), e.at_call_site(in_kernel));
            }
            for (m, e) in &sums[callee].members {
                s.members
                    .entry(m.clone())
                    .or_default()
                    .merge(e.at_call_site(in_kernel));
            }
        }
        s
    }
}

/// Whether an access touches data visible to callers: an element, member or pointee of a
/// parameter, `this` or a global; a global itself; the referent of a reference parameter.
fn touches_outside_data(module: &Module, a: &Access, target: Target) -> bool {
    match target {
        Target::Global(_) => true,
        // Through `this` itself, or through a local alias of a member (not the alias itself).
        Target::This if matches!(a.root, Root::This) => true,
        Target::Member(_) => true,
        Target::This | Target::Param(_) => {
            let Root::Var(v) = a.root else { return true };
            let ty = &module.var(v).ty;
            // A reference to a pointer (`float *&p`) refers to the caller's pointer: using
            // `p` itself reads or sets that pointer, not the data (`swap(float *&, float *&)`).
            let pointer_ref = ty.is_pointer_reference();
            !a.path.is_empty()
                || (matches!(ty.kind, TypeKind::Reference(_)) && !pointer_ref)
                || (a.escape.is_some()
                    && (ty.is_pointer()
                        || pointer_ref
                        || ty.is_array()
                        || matches!(ty.kind, TypeKind::Dependent)))
        }
    }
}

/// The member whose data an access reaches (`this->v[i]`, `m.v[i]`, `p->v[i]`, `v.data()`
/// on a member `v`), if any: a member followed by more of the path, or passed to a call.
pub fn member_data(a: &Access) -> Option<&str> {
    let path = match a.path.first() {
        Some(crate::ir::access::PathElem::Deref) => &a.path[1..],
        _ => &a.path[..],
    };
    match path.first() {
        Some(crate::ir::access::PathElem::Member(f)) if path.len() > 1 || a.escape.is_some() => {
            Some(f)
        }
        _ => None,
    }
}

/// Every value a local pointer of `func` is set to: initialisers, then plain assignments
/// (`p += k` keeps `p` inside what it pointed to and is not listed), in that order.
fn local_pointer_sets(module: &Module, func: &Function) -> Vec<(VarId, crate::ir::ExprId)> {
    // A pointer: declared so, or a template's undeduced `auto` set from pointer arithmetic
    // on a pointer (`auto c = data_col + k;`; not `auto x = a[i]`, a value).
    let is_local_pointer = |v: VarId, rhs: crate::ir::ExprId| {
        let var = module.var(v);
        matches!(var.storage, Storage::Local)
            && (var.ty.is_pointer()
                || (matches!(var.ty.kind, TypeKind::Dependent)
                    && pointer_valued(module, func, rhs)))
    };
    let mut out = Vec::new();
    for st in &func.stmts {
        if let crate::ir::StmtKind::Decl(ds) = &st.kind {
            for (v, init) in ds {
                if let Some(i) = init.filter(|i| is_local_pointer(*v, *i)) {
                    out.push((*v, i));
                }
            }
        }
    }
    for e in &func.exprs {
        if let ExprKind::Assign(None, l, r) = &e.kind {
            if let ExprKind::Var(v) = func.expr(*l).kind {
                if is_local_pointer(v, *r) {
                    out.push((v, *r));
                }
            }
        }
    }
    out
}

/// `e` is a pointer variable, an address (`&x[k]`), or arithmetic on a pointer variable
/// (`p + k`, `p - k`), through casts.
fn pointer_valued(module: &Module, func: &Function, e: crate::ir::ExprId) -> bool {
    let mut e = func.strip_casts(e);
    for _ in 0..32 {
        match &func.expr(e).kind {
            ExprKind::Var(v) => return module.var(*v).ty.referent().is_pointer(),
            ExprKind::Unary(crate::ir::UnaryOp::AddrOf, _) => return true,
            ExprKind::Binary(crate::ir::BinaryOp::Add | crate::ir::BinaryOp::Sub, a, _) => {
                e = func.strip_casts(*a)
            }
            _ => return false,
        }
    }
    false
}

/// Pointers `func` swaps or rotates (`t = a; a = b; b = t;`): each pointer assigned from
/// another pointer, with the temporaries that carry a value between them, grouped by the
/// connected components of those copies (a group number per variable). A copy that is only
/// an initialiser (`double *d = (double *)h;`) makes no group: `d` is an alias, not a swap.
pub fn swap_groups(module: &Module, func: &Function) -> HashMap<VarId, usize> {
    swap_groups_of(module, func, true)
}

/// [`swap_groups`]; with `calls`, also the pointers passed to a function that exchanges them.
fn swap_groups_of(module: &Module, func: &Function, calls: bool) -> HashMap<VarId, usize> {
    let pointer_var = |e: crate::ir::ExprId| {
        func.var_through_casts(e)
            .filter(|v| module.var(*v).ty.referent().is_pointer())
    };
    let mut pairs: Vec<(VarId, VarId)> = Vec::new();
    let mut copies: Vec<(VarId, VarId)> = Vec::new();
    for ex in func.exprs.iter() {
        match &ex.kind {
            ExprKind::Assign(None, l, r) => {
                if let (Some(x), Some(y)) = (pointer_var(*l), pointer_var(*r)) {
                    copies.push((x, y));
                }
            }
            // `std::swap(a, b)` (HeCBench's heat2d rotates its buffers so).
            ExprKind::Call { callee, args, .. } if args.len() == 2 => {
                let name = match callee {
                    crate::ir::Callee::Direct(c) => module.function(*c).name.as_str(),
                    crate::ir::Callee::Named(n) => n.rsplit("::").next().unwrap_or(n),
                    crate::ir::Callee::Indirect(_) => "",
                };
                if name == "swap" || (calls && swaps_its_parameters(module, callee)) {
                    if let (Some(x), Some(y)) = (pointer_var(args[0]), pointer_var(args[1])) {
                        pairs.push((x, y));
                    }
                }
            }
            _ => {}
        }
    }
    // A parameter or global that is never assigned does not move: local pointers set from
    // it (`s = d; sn = dn;` or the other way round, per pass) are aliases that may point
    // into either, not a swap of `d` and `dn` (HeCBench's quicksort: a write through `d`
    // was taken as a possible write of `dn`).
    let assigned: HashSet<VarId> = copies
        .iter()
        .map(|p| p.0)
        .chain(pairs.iter().flat_map(|p| [p.0, p.1]))
        .collect();
    pairs.extend(
        copies.into_iter().filter(|(_, y)| {
            assigned.contains(y) || matches!(module.var(*y).storage, Storage::Local)
        }),
    );
    // A temporary initialised from one pointer and assigned to another (`t` above).
    let sources: HashSet<VarId> = pairs.iter().map(|p| p.1).collect();
    for st in func.stmts.iter() {
        if let crate::ir::StmtKind::Decl(ds) = &st.kind {
            for (v, init) in ds {
                if let Some(y) = init.and_then(pointer_var) {
                    if sources.contains(v) {
                        pairs.push((*v, y));
                    }
                }
            }
        }
    }
    let mut group: HashMap<VarId, usize> = HashMap::new();
    let mut next = 0;
    for (x, y) in pairs {
        match (group.get(&x).copied(), group.get(&y).copied()) {
            (None, None) => {
                group.insert(x, next);
                group.insert(y, next);
                next += 1;
            }
            (Some(g), None) => {
                group.insert(y, g);
            }
            (None, Some(g)) => {
                group.insert(x, g);
            }
            (Some(g), Some(h)) if g != h => {
                for v in group.values_mut() {
                    if *v == h {
                        *v = g;
                    }
                }
            }
            _ => {}
        }
    }
    group
}

/// A statement after which two pointers hold each other's former value: the last of
/// `t = a; a = b; b = t;` (three consecutive statements of a block, `t` declared there or
/// assigned), or a call `std::swap(a, b)` or of a function that exchanges its two parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactSwap {
    pub at: crate::ir::StmtId,
    pub a: VarId,
    pub b: VarId,
}

/// The exchanges of `func` whose swap groups ([`swap_groups`]) they explain whole: every copy
/// between the group's pointers is part of one of them. After such an exchange the data
/// each pointer names is exactly the data the other named before, so the interpretation can
/// exchange what it knows of the two instead of taking every write through one as a possible
/// write through the other.
pub fn exact_swaps(module: &Module, func: &Function) -> Vec<ExactSwap> {
    use crate::ir::{ExprId, StmtKind};
    let groups = swap_groups(module, func);
    if groups.is_empty() {
        return Vec::new();
    }
    let pointer_var = |e: ExprId| {
        func.var_through_casts(e)
            .filter(|v| module.var(*v).ty.referent().is_pointer())
    };
    let assign = |s: crate::ir::StmtId| -> Option<(ExprId, VarId, VarId)> {
        match func.stmt(s).kind {
            StmtKind::Expr(e) => match func.expr(e).kind {
                ExprKind::Assign(None, l, r) => Some((e, pointer_var(l)?, pointer_var(r)?)),
                _ => None,
            },
            _ => None,
        }
    };
    // `swap(a, b)` of two pointers, anywhere.
    let swap_of = |e: ExprId| -> Option<(VarId, VarId)> {
        let ExprKind::Call { callee, args, .. } = &func.expr(e).kind else {
            return None;
        };
        let name = match callee {
            crate::ir::Callee::Direct(c) => module.function(*c).name.as_str(),
            crate::ir::Callee::Named(n) => n.rsplit("::").next().unwrap_or(n),
            crate::ir::Callee::Indirect(_) => "",
        };
        if args.len() != 2 || !(name == "swap" || swaps_its_parameters(module, callee)) {
            return None;
        }
        Some((pointer_var(args[0])?, pointer_var(args[1])?))
    };
    let swap_call = |s: crate::ir::StmtId| -> Option<(ExprId, VarId, VarId)> {
        let StmtKind::Expr(e) = func.stmt(s).kind else {
            return None;
        };
        swap_of(e).map(|(a, b)| (e, a, b))
    };
    let mut sites = Vec::new();
    // The copies and temporaries the sites explain.
    let mut explained: HashSet<ExprId> = HashSet::new();
    let mut temps: HashMap<VarId, usize> = HashMap::new();
    for st in func.stmts.iter() {
        let StmtKind::Compound(list) = &st.kind else {
            continue;
        };
        for (i, &s) in list.iter().enumerate() {
            if let Some((e, a, b)) = swap_call(s) {
                if a != b {
                    sites.push(ExactSwap { at: s, a, b });
                    explained.insert(e);
                }
                continue;
            }
            let [s1, s2, s3] = match list.get(i..i + 3) {
                Some(&[s1, s2, s3]) => [s1, s2, s3],
                _ => continue,
            };
            // `t = a` or `T *t = a`.
            let first = match &func.stmt(s1).kind {
                StmtKind::Decl(ds) => match ds[..] {
                    [(t, Some(init))] => pointer_var(init).map(|a| (None, t, a)),
                    _ => None,
                },
                _ => assign(s1).map(|(e, t, a)| (Some(e), t, a)),
            };
            let (Some((e1, t, a)), Some((e2, a2, b)), Some((e3, b2, t2))) =
                (first, assign(s2), assign(s3))
            else {
                continue;
            };
            if a2 != a || b2 != b || t2 != t || a == b || t == a || t == b {
                continue;
            }
            sites.push(ExactSwap { at: s3, a, b });
            explained.extend(e1);
            explained.extend([e2, e3]);
            // The temporary's own uses: read at `b = t`, and written at `t = a`.
            temps.insert(t, 1 + usize::from(e1.is_some()));
        }
    }
    // A group with a copy no site explains (`a = b` alone, a temporary read again) keeps
    // the weak model: which data a pointer names then depends on more than the exchanges.
    let mut unexplained: HashSet<usize> = HashSet::new();
    let mut uses: HashMap<VarId, usize> = HashMap::new();
    for (id, ex) in func.exprs.iter_enumerated() {
        if let ExprKind::Var(v) = ex.kind {
            *uses.entry(v).or_default() += 1;
        }
        let pair = match &ex.kind {
            ExprKind::Assign(None, l, r) => pointer_var(*l).zip(pointer_var(*r)),
            _ => swap_of(id),
        };
        if let Some((x, y)) = pair.filter(|_| !explained.contains(&id)) {
            unexplained.extend(groups.get(&x));
            unexplained.extend(groups.get(&y));
        }
    }
    for (t, n) in &temps {
        if uses.get(t).copied().unwrap_or(0) != *n {
            unexplained.extend(groups.get(t));
        }
    }
    sites.retain(|s| {
        let (ga, gb) = (groups.get(&s.a), groups.get(&s.b));
        ga.is_some() && ga == gb && ga.is_some_and(|g| !unexplained.contains(g))
    });
    sites
}

/// Whether `callee` has a body that exchanges its two parameters, references to pointers
/// (`void swap_ptr(float *&a, float *&b) { float *t = a; a = b; b = t; }`).
fn swaps_its_parameters(module: &Module, callee: &crate::ir::Callee) -> bool {
    let crate::ir::Callee::Direct(c) = callee else {
        return false;
    };
    let Some(f) = module.functions.get(*c) else {
        return false;
    };
    let [a, b] = f.params[..] else {
        return false;
    };
    let by_reference = |p: VarId| module.var(p).ty.is_pointer_reference();
    if !f.has_body || !by_reference(a) || !by_reference(b) {
        return false;
    }
    let groups = swap_groups_of(module, f, false);
    matches!((groups.get(&a), groups.get(&b)), (Some(x), Some(y)) if x == y)
}

/// The member whose data `e` points into (`&obj->v[0]`, `obj.v.data()`, `this->v + k`): its
/// name and the member expression.
fn member_source(func: &Function, mut e: crate::ir::ExprId) -> Option<(String, crate::ir::ExprId)> {
    use crate::ir::{BinaryOp, UnaryOp};
    for _ in 0..32 {
        match &func.expr(e).kind {
            ExprKind::Cast(x) => e = *x,
            ExprKind::Unary(UnaryOp::AddrOf, x) => match &func.expr(*x).kind {
                ExprKind::Subscript(b, _) => e = *b,
                ExprKind::Call {
                    receiver: Some(r), ..
                } => e = *r,
                _ => return None,
            },
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, _) => e = *a,
            // `obj.v.data()`, `obj.v.begin()`: a member call on the member.
            ExprKind::Call {
                receiver: Some(r),
                callee: crate::ir::Callee::Direct(_) | crate::ir::Callee::Named(_),
                ..
            } => e = *r,
            ExprKind::Member { field, .. } => return Some((field.clone(), e)),
            _ => return None,
        }
    }
    None
}

/// Whether `c` is a function of one of `names` (unqualified), resolved or named in a template.
fn callee_named(module: &Module, c: &crate::ir::Callee, names: &[&str]) -> bool {
    match c {
        crate::ir::Callee::Direct(f) => names.contains(&module.function(*f).name.as_str()),
        crate::ir::Callee::Named(n) => names.contains(&n.as_str()),
        crate::ir::Callee::Indirect(_) => false,
    }
}

/// A pointer to the first element of a container or array: `&x[0]` (built in, or through
/// `operator[]`), `&x.front()`, `x.data()`. The container expression (`x`) and the method
/// called on it (None for a built-in subscript).
pub fn first_element_view(
    module: &Module,
    func: &Function,
    init: crate::ir::ExprId,
) -> Option<(crate::ir::ExprId, Option<FuncId>)> {
    use crate::ir::{Callee, UnaryOp};
    let zero = |i| {
        matches!(
            func.expr(func.strip_casts(i)).kind,
            ExprKind::Int { value: Some(0), .. }
        )
    };
    let method = |c: &Callee| match c {
        Callee::Direct(f) => Some(*f),
        _ => None,
    };
    match &func.expr(func.strip_casts(init)).kind {
        ExprKind::Unary(UnaryOp::AddrOf, x) => match &func.expr(*x).kind {
            ExprKind::Subscript(b, i) if zero(*i) => Some((*b, None)),
            ExprKind::Call {
                callee,
                receiver: Some(r),
                args,
            } => match args.as_slice() {
                [] if callee_named(module, callee, &["front"]) => Some((*r, method(callee))),
                [i] if callee_named(module, callee, &["operator[]"]) && zero(*i) => {
                    Some((*r, method(callee)))
                }
                _ => None,
            },
            _ => None,
        },
        ExprKind::Call {
            callee,
            receiver: Some(r),
            args,
        } if args.is_empty() && callee_named(module, callee, &["data"]) => {
            Some((*r, method(callee)))
        }
        _ => None,
    }
}

/// Local pointers declared again in an inner scope as the same view of the same object's
/// member as a pointer of an enclosing scope (`Real *ss = &dom->m_ss[0];` before a loop, and
/// `Real *ss = &domain.m_ss[0];` inside it, `domain` a reference bound to `*dom`): the inner
/// one, mapped to the outer one. Each is set only by its declaration, to the first element of
/// the member's data (`&x.m[0]`, `x.m.data()`), the object's pointer is not set again
/// after the outer declaration, and nothing but views and queries is called on a member of
/// that name here (`resize` would give it other storage). A map clause at the outer scope
/// names the data the inner name reaches. (A method of the object that reallocates the
/// member between the two is not seen: the outer pointer would dangle there.)
pub fn shadowed_aliases(module: &Module, func: &Function) -> HashMap<VarId, VarId> {
    use crate::ir::{ExprId, StmtKind, UnaryOp};
    let strip = |e: ExprId| func.strip_casts(e);
    // The object a member expression's base denotes: (pointer or object variable, deref).
    let object = |member: ExprId| -> Option<(VarId, bool)> {
        let ExprKind::Member {
            base: Some(b),
            arrow,
            ..
        } = &func.expr(member).kind
        else {
            return None;
        };
        let ExprKind::Var(b) = func.expr(strip(*b)).kind else {
            return None;
        };
        if *arrow {
            return Some((b, true));
        }
        if !matches!(module.var(b).ty.kind, TypeKind::Reference(_)) {
            return Some((b, false));
        }
        // A reference bound to `*p`.
        let init = func.stmts.iter().find_map(|st| match &st.kind {
            StmtKind::Decl(ds) => ds.iter().find(|(d, _)| *d == b).and_then(|(_, i)| *i),
            _ => None,
        })?;
        match func.expr(strip(init)).kind {
            ExprKind::Unary(UnaryOp::Deref, p) => match func.expr(strip(p)).kind {
                ExprKind::Var(p) => Some((p, true)),
                _ => None,
            },
            _ => None,
        }
    };
    let named = |c: &crate::ir::Callee, names: &[&str]| callee_named(module, c, names);
    let first_element = |init: ExprId| first_element_view(module, func, init).is_some();
    let assigned = |v: VarId| {
        func.exprs.iter().any(|ex| match &ex.kind {
            ExprKind::Assign(_, l, _) => {
                matches!(func.expr(strip(*l)).kind, ExprKind::Var(x) if x == v)
            }
            ExprKind::Unary(op, x) => {
                (op.is_increment() || *op == UnaryOp::AddrOf)
                    && matches!(func.expr(strip(*x)).kind, ExprKind::Var(y) if y == v)
            }
            _ => false,
        })
    };
    let assigned_after = |v: VarId, at: u32| {
        func.exprs.iter().any(|ex| match &ex.kind {
            ExprKind::Assign(_, l, _) => {
                ex.span.start > at
                    && matches!(func.expr(strip(*l)).kind, ExprKind::Var(x) if x == v)
            }
            _ => false,
        })
    };
    // Members the function calls something on that may reallocate their storage
    // (`dom->m_ss.resize(n)`): a view taken before and one taken after are not the same.
    const VIEWS: &[&str] = &[
        "operator[]",
        "data",
        "front",
        "back",
        "at",
        "size",
        "empty",
        "capacity",
        "begin",
        "end",
    ];
    let reallocated: HashSet<String> = func
        .exprs
        .iter()
        .filter_map(|ex| match &ex.kind {
            ExprKind::Call {
                callee,
                receiver: Some(r),
                ..
            } if !named(callee, VIEWS) => match &func.expr(strip(*r)).kind {
                ExprKind::Member { field, .. } => Some(field.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let tree = crate::ir::stmt_tree::StmtTree::new(func);
    // (member, object, element size) -> [(declaration statement, variable)], in source order.
    let mut groups: HashMap<(String, VarId, bool), Vec<(crate::ir::StmtId, VarId)>> =
        HashMap::new();
    for (sid, st) in func.stmts.iter_enumerated() {
        let StmtKind::Decl(ds) = &st.kind else {
            continue;
        };
        for (v, init) in ds {
            let var = module.var(*v);
            let Some(init) = *init else { continue };
            if !var.ty.is_pointer() || var.storage != Storage::Local || !first_element(init) {
                continue;
            }
            let Some((member, e)) = member_source(func, init) else {
                continue;
            };
            if reallocated.contains(&member) {
                continue;
            }
            let Some((obj, deref)) = object(e) else {
                continue;
            };
            if assigned(*v) {
                continue;
            }
            groups
                .entry((member, obj, deref))
                .or_default()
                .push((sid, *v));
        }
    }
    let mut out = HashMap::new();
    for ((_, obj, _), mut decls) in groups {
        decls.sort_by_key(|(s, _)| func.stmt(*s).span.start);
        let (outer_stmt, outer) = decls[0];
        let at = func.stmt(outer_stmt).span.start;
        if assigned_after(obj, at) {
            continue;
        }
        let Some(scope) = tree.parent(outer_stmt) else {
            continue;
        };
        let scope = func.stmt(scope).span;
        let elem = |v: VarId| match &module.var(v).ty.kind {
            TypeKind::Pointer(t) => t.size,
            _ => None,
        };
        for &(s, inner) in &decls[1..] {
            let span = func.stmt(s).span;
            if scope.start <= span.start && span.end <= scope.end && elem(inner) == elem(outer) {
                out.insert(inner, outer);
            }
        }
    }
    out
}

/// Local pointers that always point into one member's data: `x = &obj->v[0]`,
/// `x = obj.v.data()`, `x = this->v + k` (the member's name). Flow-insensitive: every
/// assignment of the local must reach the same member.
pub fn member_aliases(module: &Module, func: &Function) -> HashMap<VarId, String> {
    member_alias_sets(module, func).0
}

/// The member expressions whose address [`member_aliases`]' assignments take (`obj->v` in
/// `x = &obj->v[0]`): taking it reads none of the member's data; the accesses through the
/// alias do.
pub fn member_alias_sources(module: &Module, func: &Function) -> HashSet<crate::ir::ExprId> {
    member_alias_sets(module, func).1
}

/// [`member_aliases`] and [`member_alias_sources`] in one pass.
pub fn member_alias_sets(
    module: &Module,
    func: &Function,
) -> (HashMap<VarId, String>, HashSet<crate::ir::ExprId>) {
    let mut found: HashMap<VarId, Option<String>> = HashMap::new();
    let mut sources: HashMap<VarId, Vec<crate::ir::ExprId>> = HashMap::new();
    for (v, rhs) in local_pointer_sets(module, func) {
        let m = member_source(func, rhs);
        if let Some((_, e)) = &m {
            sources.entry(v).or_default().push(*e);
        }
        let m = m.map(|(name, _)| name);
        let slot = found.entry(v).or_insert_with(|| m.clone());
        if *slot != m {
            *slot = None;
        }
    }
    let aliases: HashMap<VarId, String> = found
        .into_iter()
        .filter_map(|(v, m)| Some((v, m?)))
        .collect();
    let taken = sources
        .into_iter()
        .filter(|(v, _)| aliases.contains_key(v))
        .flat_map(|(_, es)| es)
        .collect();
    (aliases, taken)
}

/// The container variable whose storage `e` points into (`v.data()`, `&v[0]`, `&v.front()`,
/// casts and offsets of those), and the receiver expression.
pub fn container_storage(
    module: &Module,
    func: &Function,
    mut e: crate::ir::ExprId,
) -> Option<(VarId, crate::ir::ExprId)> {
    use crate::ir::{BinaryOp, ExprId, UnaryOp};
    let library_method = |c: &crate::ir::Callee, names: &[&str]| library_call(module, c, names);
    // A standard container's type, spelled so in a template where it depends on a
    // parameter (`std::vector<T>`).
    let std_container = |t: &crate::ir::Type| {
        let s = t.spelling.trim_start_matches("const ");
        ["std::vector<", "std::array<", "std::valarray<"]
            .iter()
            .any(|p| s.starts_with(p))
    };
    let container = |r: ExprId| match func.expr(r).kind {
        ExprKind::Var(x) => {
            let ty = module.var(x).ty.referent();
            let is = match ty.kind {
                TypeKind::Record(_) => true,
                TypeKind::Dependent => std_container(ty),
                _ => false,
            };
            is.then_some((x, r))
        }
        _ => None,
    };
    for _ in 0..8 {
        match &func.expr(e).kind {
            ExprKind::Cast(x) | ExprKind::Binary(BinaryOp::Add, x, _) => e = *x,
            ExprKind::Call {
                callee,
                receiver: Some(r),
                ..
            } if library_method(callee, &["data"]) => return container(*r),
            // A method of the project's own class that hands out its storage (`double
            // *data() { return v_.data(); }`): the object's data, as a container's.
            ExprKind::Call {
                callee: crate::ir::Callee::Direct(f),
                receiver: Some(r),
                args,
            } if args.is_empty() && returns_member_storage(module, *f) => return container(*r),
            // `v.data()` on a container of a template's dependent type: a member call
            // resolved at instantiation (the callee is the member expression).
            ExprKind::Call {
                callee: crate::ir::Callee::Indirect(m),
                receiver: None,
                args,
            } if args.is_empty() => {
                return match &func.expr(*m).kind {
                    ExprKind::Member {
                        base: Some(b),
                        field,
                        arrow: false,
                    } if field == "data" => container(*b),
                    _ => None,
                };
            }
            ExprKind::Unary(UnaryOp::AddrOf, x) => match &func.expr(*x).kind {
                ExprKind::Call {
                    callee,
                    receiver: Some(r),
                    ..
                } if library_method(callee, &["operator[]", "front", "at"]) => {
                    return container(*r)
                }
                _ => return None,
            },
            _ => return None,
        }
    }
    None
}

/// The expression a method returns when its whole body is one `return` of an expression on
/// a member of its own object, with no parameters beyond `max_params`.
fn accessor_return(
    module: &Module,
    f: crate::ir::FuncId,
    max_params: usize,
) -> Option<(&Function, crate::ir::ExprId)> {
    use crate::ir::StmtKind;
    let f = module.function(f);
    if !f.is_method || !f.has_body || f.in_system_header || f.params.len() > max_params {
        return None;
    }
    let list = match &f.stmt(f.body?).kind {
        StmtKind::Compound(list) if list.len() == 1 => list,
        _ => return None,
    };
    match &f.stmt(list[0]).kind {
        StmtKind::Return(Some(e)) => Some((f, f.strip_casts(*e))),
        _ => None,
    }
}

/// `m` or `this->m`: a member of the method's own object.
fn own_member(f: &Function, e: crate::ir::ExprId) -> bool {
    match &f.expr(f.strip_casts(e)).kind {
        ExprKind::Member { base: None, .. } => true,
        ExprKind::Member {
            base: Some(b),
            arrow: true,
            ..
        } => matches!(f.expr(*b).kind, ExprKind::This),
        _ => false,
    }
}

/// A library method (`std::vector::data`) of one of `names`, with `args` arguments.
fn library_call(module: &Module, c: &crate::ir::Callee, names: &[&str]) -> bool {
    match c {
        crate::ir::Callee::Direct(c) => {
            let c = module.function(*c);
            c.in_system_header && !c.has_body && names.contains(&c.name.as_str())
        }
        _ => false,
    }
}

/// A method whose whole body is `return m.data();`, `return &m[0];` or `return m;` for a
/// member `m` of its object (a library container or a pointer): an accessor of the object's
/// storage.
fn returns_member_storage(module: &Module, f: crate::ir::FuncId) -> bool {
    use crate::ir::UnaryOp;
    let Some((f, e)) = accessor_return(module, f, 0) else {
        return false;
    };
    let zero =
        |i: crate::ir::ExprId| matches!(f.expr(i).kind, ExprKind::Int { value: Some(0), .. });
    match &f.expr(e).kind {
        ExprKind::Member { .. } => {
            own_member(f, e)
                && matches!(
                    f.expr(e).class,
                    TypeClass::Pointer | TypeClass::PointerToConst
                )
        }
        ExprKind::Call {
            callee,
            receiver: Some(r),
            args,
        } => args.is_empty() && library_call(module, callee, &["data"]) && own_member(f, *r),
        ExprKind::Unary(UnaryOp::AddrOf, x) => member_element(module, f, *x, &["operator[]"], zero),
        _ => false,
    }
}

/// `e` is an element of a member of the method's own object, `m[i]` or `m.op(i)` for a library
/// method `op` of `names`, at an index `index` accepts.
fn member_element(
    module: &Module,
    f: &Function,
    e: crate::ir::ExprId,
    names: &[&str],
    index: impl Fn(crate::ir::ExprId) -> bool,
) -> bool {
    match &f.expr(e).kind {
        ExprKind::Call {
            callee,
            receiver: Some(r),
            args,
        } => {
            args.len() == 1
                && index(args[0])
                && library_call(module, callee, names)
                && own_member(f, *r)
        }
        ExprKind::Subscript(b, i) => own_member(f, *b) && index(*i),
        _ => false,
    }
}

/// A method of the project whose whole body returns one element of its object's storage
/// (`double &operator[](int i) { return v_[i]; }`, `at(i)`, `p_[i]` of a pointer member): it
/// does nothing itself, its caller reads or writes that element.
pub fn returns_member_element(module: &Module, f: crate::ir::FuncId) -> bool {
    let Some((f, e)) = accessor_return(module, f, 1) else {
        return false;
    };
    let param = |i: crate::ir::ExprId| matches!(f.expr(f.strip_casts(i)).kind, ExprKind::Var(v) if f.params.contains(&v));
    member_element(module, f, e, &["operator[]", "at"], param)
}

/// Calls that take a container's storage straight as an argument (`scale(v.data(), n)`,
/// `f(&v[0])`), by the receiver expression (`v`): the callee and the argument's index. The
/// callee's effect on that parameter is the call's effect on the container's data. Library
/// functions are left to their own models (`std::fill(v.data(), ...)`, `memcpy`).
pub fn data_arguments(
    module: &Module,
    func: &Function,
) -> HashMap<crate::ir::ExprId, (crate::ir::FuncId, usize)> {
    let mut out = HashMap::new();
    for e in &func.exprs {
        let ExprKind::Call {
            callee: crate::ir::Callee::Direct(c),
            args,
            ..
        } = &e.kind
        else {
            continue;
        };
        if module.function(*c).in_system_header {
            continue;
        }
        for (i, a) in args.iter().enumerate() {
            if let Some((_, r)) = container_storage(module, func, *a) {
                out.insert(r, (*c, i));
            }
        }
    }
    out
}

/// Local pointers that view a local container's storage (`int *d = v.data();`, `&v[0]`,
/// `&v.front()`), by container: each pointer set only so, each container with one such
/// pointer. The pointer is the name a map clause uses for the container's data, so what the
/// host does to the container (`v[i] = x`, `std::sort(v.begin(), v.end())`) it does to the
/// data behind the pointer. Also the receiver expressions of those calls (the view's
/// creation touches no data).
pub fn container_views(
    module: &Module,
    func: &Function,
) -> (HashMap<VarId, VarId>, HashSet<crate::ir::ExprId>) {
    use crate::ir::{ExprId, UnaryOp};
    let view_of = |e: ExprId| container_storage(module, func, e);
    let mut of_pointer: HashMap<VarId, Option<VarId>> = HashMap::new();
    let mut receivers: HashMap<VarId, Vec<ExprId>> = HashMap::new();
    for (p, rhs) in local_pointer_sets(module, func) {
        let v = view_of(rhs);
        if let Some((_, r)) = v {
            receivers.entry(p).or_default().push(r);
        }
        let c = v.map(|(c, _)| c);
        let slot = of_pointer.entry(p).or_insert(c);
        if *slot != c {
            *slot = None;
        }
    }
    // A pointer whose address is taken may be set elsewhere.
    for e in &func.exprs {
        if let ExprKind::Unary(UnaryOp::AddrOf, x) = &e.kind {
            if let ExprKind::Var(p) = func.expr(*x).kind {
                of_pointer.insert(p, None);
            }
        }
    }
    let mut by_container: HashMap<VarId, Option<VarId>> = HashMap::new();
    for (p, c) in &of_pointer {
        if let Some(c) = c {
            by_container
                .entry(*c)
                .and_modify(|q| *q = None)
                .or_insert(Some(*p));
        }
    }
    let views: HashMap<VarId, VarId> = by_container
        .into_iter()
        .filter_map(|(c, p)| Some((c, p?)))
        .collect();
    let sources = receivers
        .into_iter()
        .filter(|(p, _)| views.values().any(|q| q == p))
        .flat_map(|(_, rs)| rs)
        .collect();
    (views, sources)
}

/// For `a`, the object of a library container's iterator call (`v.begin()`, `v.end()`,
/// `v.data()`) that is itself an argument of a standard algorithm (`std::fill(v.begin(),
/// v.end(), 0)`): what the algorithm does to the data of that argument (the container's
/// elements). `roots`: the expressions of the statement holding the access (the algorithm
/// call is among them or under them). None for any other access.
pub fn iterator_argument_effect(
    module: &Module,
    func: &Function,
    roots: &[crate::ir::ExprId],
    a: &Access,
) -> Option<Effect> {
    const ITERATORS: &[&str] = &["begin", "end", "cbegin", "cend", "rbegin", "rend", "data"];
    let Some(Escape::CallArg {
        callee: Some(c),
        index: None,
    }) = &a.escape
    else {
        return None;
    };
    let it = module.function(*c);
    if !(it.in_system_header && !it.has_body && ITERATORS.contains(&it.name.as_str())) {
        return None;
    }
    // The iterator call whose object `a` is, then the algorithm call it is an argument of.
    let is_iterator_call = |e: crate::ir::ExprId| {
        matches!(&func.expr(func.strip_casts(e)).kind, ExprKind::Call {
            callee: crate::ir::Callee::Direct(k),
            receiver: Some(r),
            ..
        } if k == c && func.strip_casts(*r) == func.strip_casts(a.expr))
    };
    // An argument as the algorithm receives it: before C++17 the iterator is copied into the
    // parameter (`fill(operator(v.begin()), …)`: a construction libclang names no
    // constructor for, lowered as a call named `operator`, or a library constructor).
    let unwrapped = |mut e: crate::ir::ExprId| {
        for _ in 0..3 {
            e = func.strip_casts(e);
            let ExprKind::Call {
                callee,
                receiver: None,
                args,
            } = &func.expr(e).kind
            else {
                break;
            };
            let copy = match callee {
                crate::ir::Callee::Named(n) => n == "operator",
                crate::ir::Callee::Direct(k) => {
                    let k = module.function(*k);
                    k.in_system_header && !k.has_body
                }
                crate::ir::Callee::Indirect(_) => false,
            };
            if args.len() != 1 || !copy || is_iterator_call(e) {
                break;
            }
            e = args[0];
        }
        e
    };
    let mut stack = roots.to_vec();
    while let Some(e) = stack.pop() {
        let kind = &func.expr(e).kind;
        if let ExprKind::Call {
            callee: crate::ir::Callee::Direct(alg),
            receiver: None,
            args,
        } = kind
        {
            if let Some(i) = args.iter().position(|x| is_iterator_call(unwrapped(*x))) {
                return library_template_arg(module.function(*alg), i);
            }
        }
        stack.extend(crate::ir::device::expr_children(kind));
    }
    None
}

/// Whether `a` is the object of a library container's query (`v.size()`, `v.empty()`): it
/// touches no element.
pub fn is_library_query(module: &Module, a: &Access) -> bool {
    const QUERIES: &[&str] = &["empty", "size", "capacity", "max_size"];
    match &a.escape {
        Some(Escape::CallArg {
            callee: Some(c),
            index: None,
        }) => {
            let c = module.function(*c);
            c.in_system_header && !c.has_body && QUERIES.contains(&c.name.as_str())
        }
        _ => false,
    }
}

/// A library container's member call that destroys its elements without reading them
/// (`v.clear()`): on the object's data, a write and no read.
pub fn is_library_discard(module: &Module, callee: FuncId) -> bool {
    let c = module.function(callee);
    c.in_system_header && !c.has_body && c.is_method && c.name == "clear"
}

/// Local objects that hold a pointer this function passed to their constructor or setter
/// (`Ring r(out, t);` with `Ring(double *b, int) : buf(b)`, or `r.attach(out)`).
#[derive(Clone, Default)]
pub struct MemberTargets {
    /// Per member, the variable whose data it points to: a call on such an object that
    /// accesses the member's data accesses the variable's. A member stored from two
    /// different variables is absent, and so is every member in a method (where `this`'s
    /// own member shares the name).
    pub members: HashMap<String, VarId>,
    /// Per local object, the variables whose data its members point to: a callee that
    /// receives the object may reach that data.
    pub holders: HashMap<VarId, Vec<VarId>>,
}

/// The [`MemberTargets`] of `func`.
pub fn member_targets(module: &Module, func: &Function) -> MemberTargets {
    let mut out = MemberTargets::default();
    if func.is_method {
        return out;
    }
    // (A container's storage, `Buffer b(v.data(), n)`, is the container's data.)
    let var_of = |e: crate::ir::ExprId| match func.expr(func.strip_casts(e)).kind {
        ExprKind::Var(v) => Some(v),
        _ => container_storage(module, func, e).map(|(v, _)| v),
    };
    // The object each constructor call initialises.
    let mut constructed: HashMap<crate::ir::ExprId, VarId> = HashMap::new();
    for st in func.stmts.iter() {
        if let crate::ir::StmtKind::Decl(ds) = &st.kind {
            for (v, init) in ds {
                if let Some(e) = init {
                    constructed.insert(func.strip_casts(*e), *v);
                }
            }
        }
    }
    let mut found: HashMap<String, Option<VarId>> = HashMap::new();
    for (id, e) in func.exprs.iter_enumerated() {
        let ExprKind::Call {
            callee: crate::ir::Callee::Direct(f),
            args,
            receiver,
        } = &e.kind
        else {
            continue;
        };
        let holder = match receiver {
            Some(r) => var_of(*r),
            None => constructed.get(&id).copied(),
        };
        for (k, member) in &module.function(*f).member_stores {
            let var = args.get(*k).and_then(|a| var_of(*a));
            let slot = found.entry(member.clone()).or_insert(var);
            if *slot != var {
                *slot = None;
            }
            if let (Some(h), Some(v)) = (holder, var) {
                let held = out.holders.entry(h).or_default();
                if !held.contains(&v) {
                    held.push(v);
                }
            }
        }
    }
    out.members = found
        .into_iter()
        .filter_map(|(m, v)| Some((m, v?)))
        .collect();
    out
}

/// What a local pointer alias points into.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AliasOf {
    Var(VarId),
    /// A member of the object (`double *d = data;` in a method).
    This,
}

/// Local pointers that point into other variables' data (`float *row = out + k*n;`,
/// `q = &a[i];`, `dst = even ? a : b;`, chains of such), flow-insensitively.
pub struct LocalAliases {
    /// Per local pointer, every variable whose data it may reach (one: it always points
    /// there). A local also set from something else, or whose address is taken, is absent.
    pub roots: HashMap<VarId, Vec<VarId>>,
    /// The expressions on the right of those assignments (`&a[i]` there takes no data).
    pub sources: HashSet<crate::ir::ExprId>,
}

/// The [`LocalAliases`] of `func`. Locals for which `own` holds keep their own identity (a
/// pointer a map clause names): they are roots, never aliases.
pub fn local_aliases(
    module: &Module,
    func: &Function,
    own: impl Fn(VarId) -> bool,
) -> LocalAliases {
    use crate::ir::{BinaryOp, ExprId, UnaryOp};
    fn root_of(
        func: &Function,
        e: ExprId,
        seen: &mut Vec<ExprId>,
        depth: u32,
    ) -> Option<Vec<VarId>> {
        if depth > 32 {
            return None;
        }
        seen.push(e);
        match &func.expr(e).kind {
            ExprKind::Var(v) => Some(vec![*v]),
            ExprKind::Cast(x) => root_of(func, *x, seen, depth + 1),
            ExprKind::Unary(UnaryOp::AddrOf, x) => match func.expr(*x).kind {
                // `&a[k]`: into a's data.
                ExprKind::Subscript(b, _) => {
                    seen.push(*x);
                    root_of(func, b, seen, depth + 1)
                }
                // `&v` of a variable that is not a pointer (a scalar, a record, an array):
                // its own storage, which is what its object is. (`&p` of a pointer is the
                // pointer variable, not the data it points to.)
                ExprKind::Var(v)
                    if !matches!(
                        func.expr(*x).class,
                        TypeClass::Pointer | TypeClass::PointerToConst
                    ) =>
                {
                    seen.push(*x);
                    Some(vec![v])
                }
                // `&p->f`, `&a[k].f`: into the data of the object `p` points to.
                ExprKind::Member {
                    base: Some(b),
                    arrow: true,
                    ..
                } => {
                    seen.push(*x);
                    root_of(func, b, seen, depth + 1)
                }
                ExprKind::Member {
                    base: Some(b),
                    arrow: false,
                    ..
                } => match func.expr(b).kind {
                    ExprKind::Subscript(a, _) => {
                        seen.extend([*x, b]);
                        root_of(func, a, seen, depth + 1)
                    }
                    _ => None,
                },
                _ => None,
            },
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, _) => {
                root_of(func, *a, seen, depth + 1)
            }
            ExprKind::Cond(_, a, b) if func.is_null_pointer(*b) => {
                root_of(func, *a, seen, depth + 1)
            }
            ExprKind::Cond(_, a, b) if func.is_null_pointer(*a) => {
                root_of(func, *b, seen, depth + 1)
            }
            ExprKind::Cond(_, a, b) => {
                let mut r = root_of(func, *a, seen, depth + 1)?;
                r.extend(root_of(func, *b, seen, depth + 1)?);
                Some(r)
            }
            _ => None,
        }
    }
    let is_local_pointer = |v: VarId| {
        let var = module.var(v);
        var.ty.is_pointer() && matches!(var.storage, Storage::Local)
    };
    // Every root each local pointer is set from (None: something that is not an alias).
    let mut roots: HashMap<VarId, Vec<Option<Vec<VarId>>>> = HashMap::new();
    let mut sources = HashSet::new();
    for (v, rhs) in local_pointer_sets(module, func) {
        let mut seen = Vec::new();
        let r = root_of(func, rhs, &mut seen, 0);
        if r.is_some() {
            sources.extend(seen);
        }
        roots.entry(v).or_default().push(r);
    }
    // A local whose address is taken may be set through it.
    for e in &func.exprs {
        if let ExprKind::Unary(UnaryOp::AddrOf, x) = &e.kind {
            if let ExprKind::Var(v) = func.expr(*x).kind {
                if is_local_pointer(v) {
                    roots.entry(v).or_default().push(None);
                }
            }
        }
    }
    let direct: HashMap<VarId, Vec<VarId>> = roots
        .into_iter()
        .filter(|(l, _)| !own(*l))
        .filter_map(|(l, rs)| {
            let mut all: Vec<VarId> = Vec::new();
            for r in rs {
                all.extend(r?);
            }
            all.sort();
            all.dedup();
            all.retain(|r| *r != l);
            (!all.is_empty()).then_some((l, all))
        })
        .collect();
    // Follow chains (`q = p + 1` with `p = a + k`), stopping at cycles.
    let mut out = HashMap::new();
    for &l in direct.keys() {
        let mut done: Vec<VarId> = Vec::new();
        let mut todo = direct[&l].clone();
        let mut ok = true;
        while let Some(r) = todo.pop() {
            // A swap (`t = p; p = q; q = t;`) cycles: the cycle adds no root of its own.
            if r == l || done.contains(&r) {
                continue;
            }
            match direct.get(&r) {
                Some(next) => {
                    done.push(r);
                    todo.extend(next.iter().copied());
                }
                None => done.push(r),
            }
            if done.len() > 16 {
                ok = false;
                break;
            }
        }
        let leaves: Vec<VarId> = done
            .into_iter()
            .filter(|r| !direct.contains_key(r))
            .collect();
        if ok && !leaves.is_empty() {
            out.insert(l, leaves);
        }
    }
    LocalAliases {
        roots: out,
        sources,
    }
}

/// Local pointers that point into a parameter's, global's or member's data:
/// `double *q = p + k;`, `q = &g[0];`, `double *d = this->data;`. Flow-insensitive: a local
/// assigned from several roots (`src = a;` on one branch, `src = b;` on the other) may point
/// into each. Also returns the expressions on the right of those assignments.
fn pointer_aliases(
    module: &Module,
    func: &Function,
) -> (HashMap<VarId, Vec<AliasOf>>, HashSet<crate::ir::ExprId>) {
    let mut out: HashMap<VarId, Vec<AliasOf>> = HashMap::new();
    let mut sources = HashSet::new();
    let root_of =
        |mut e: crate::ir::ExprId, seen: &mut Vec<crate::ir::ExprId>| -> Option<AliasOf> {
            for _ in 0..64 {
                seen.push(e);
                match &func.expr(e).kind {
                    ExprKind::Var(v) => return Some(AliasOf::Var(*v)),
                    ExprKind::Member { base: None, .. } => return Some(AliasOf::This),
                    ExprKind::Member { base: Some(b), .. }
                        if matches!(func.expr(*b).kind, ExprKind::This) =>
                    {
                        return Some(AliasOf::This)
                    }
                    ExprKind::Cast(x) => e = *x,
                    ExprKind::Unary(crate::ir::UnaryOp::AddrOf, x) => e = *x,
                    ExprKind::Subscript(b, _) => e = *b,
                    ExprKind::Binary(crate::ir::BinaryOp::Add | crate::ir::BinaryOp::Sub, a, _) => {
                        e = *a
                    }
                    // `c ? p + k : nullptr` points into p's data or nowhere.
                    ExprKind::Cond(_, a, b) if func.is_null_pointer(*b) => e = *a,
                    ExprKind::Cond(_, a, b) if func.is_null_pointer(*a) => e = *b,
                    _ => return None,
                }
            }
            None
        };
    // (`local_pointer_sets` gives local pointers only.)
    let mut consider = |local: VarId, rhs: crate::ir::ExprId| {
        let mut seen = Vec::new();
        let srcs = match root_of(rhs, &mut seen) {
            Some(AliasOf::Var(v)) => out.get(&v).cloned().unwrap_or(vec![AliasOf::Var(v)]),
            Some(AliasOf::This) => vec![AliasOf::This],
            None => return,
        };
        let mut added = false;
        for src in srcs {
            let outside = match src {
                AliasOf::This => true,
                AliasOf::Var(v) => {
                    v != local
                        && matches!(
                            module.var(v).storage,
                            Storage::Parameter | Storage::Global | Storage::StaticGlobal
                        )
                }
            };
            if !outside {
                continue;
            }
            let roots = out.entry(local).or_default();
            if !roots.contains(&src) {
                roots.push(src);
                added = true;
            }
        }
        if added {
            sources.extend(seen);
        }
    };
    for (v, rhs) in local_pointer_sets(module, func) {
        consider(v, rhs);
    }
    (out, sources)
}
