//! What a map clause names for an object: the whole variable for arrays and structs, an array
//! section in the program's own symbols for pointers (`a[0:n]`), from the kernels' loop
//! bounds, the callees' sections at hosted calls, or the allocation.

use crate::ir::access::{Escape, Root};
use crate::ir::cfg::Cfg;
use crate::ir::{ExprKind, FuncId, IndexVec, Module, StmtId, TypeKind, VarId};
use crate::semantics::constants;
use crate::semantics::member_lengths;
use crate::semantics::sections::Unbounded;
use crate::semantics::sections::{self, Section};
use crate::semantics::symbolic::Poly;
use crate::semantics::validity::Object;

pub struct Extent {
    /// The list item as written.
    pub item: String,
    pub bytes: Option<u64>,
    /// Arrays the section takes as non-decreasing (see
    /// [`sections::accessed_section_assuming`]), for the note that says so.
    pub monotone: Vec<String>,
}

/// The list item that maps `o` for the kernels `seeds` of function `id`, in names visible
/// where the map clause goes: a section that names a variable in `hidden` (declared inside
/// the region, e.g. a length computed in the loop it encloses) is replaced by the
/// allocation's extent, or refused. `shadowed`: the function's inner views of outer
/// pointers (`effects::shadowed_aliases`), whose accesses count as the outer pointer's.
pub fn of(
    module: &Module,
    id: FuncId,
    cfgs: &IndexVec<FuncId, Option<Cfg>>,
    o: &Object,
    seeds: &[StmtId],
    hidden: &std::collections::BTreeSet<String>,
    shadowed: &std::collections::HashMap<VarId, VarId>,
) -> Result<Extent, String> {
    let e = of_any_scope(module, id, cfgs, o, seeds, shadowed)?;
    // The team and thread numbers have a value inside a kernel only: a section in their
    // terms evaluated at a map clause on the host is one element of team 0, thread 0.
    let unusable = |n: &str| hidden.contains(n) || DEVICE_ONLY.contains(&n);
    let Some(name) = crate::text::scan::identifiers(&e.item)
        .into_iter()
        .find(|n| unusable(n))
    else {
        return Ok(e);
    };
    let name = name.to_string();
    let whole = match o {
        Object::Var(v) => allocation_extent(module, id, *v),
        Object::Member(_) | Object::Field(..) => None,
    };
    match whole {
        Some(w) if !crate::text::scan::identifiers(&w.item).iter().any(|n| unusable(n)) => Ok(w),
        _ if DEVICE_ONLY.contains(&name.as_str()) => Err(format!(
            "its section `{}` depends on `{name}()`, which has a value in a kernel only, and the allocation's length is not known",
            e.item
        )),
        _ => Err(format!(
            "its section `{}` names `{name}`, which is declared inside the region, and the allocation's length is not known where the region starts",
            e.item
        )),
    }
}

/// OpenMP runtime calls whose value depends on the team or thread that runs them.
const DEVICE_ONLY: &[&str] = &[
    "omp_get_team_num",
    "omp_get_thread_num",
    "omp_get_num_teams",
    "omp_get_num_threads",
];

/// `v[0:LEN]` for a pointer whose allocation in function `id` has a length omplens reads.
pub fn allocation_extent(module: &Module, id: FuncId, v: VarId) -> Option<Extent> {
    let var = module.var(v);
    let TypeKind::Pointer(elem) = &var.ty.referent().kind else {
        return None;
    };
    let len = sections::allocation_length_named(module, id, v)?;
    let bytes = constants::substitute(&len, &module.macros)
        .as_const()
        .zip(elem.size)
        .map(|(n, e)| n.max(0) as u64 * e);
    let s = Section {
        lower: Poly::constant(0),
        length: len,
    };
    Some(Extent {
        item: format!("{}[{}]", var.name, s),
        bytes,
        monotone: Vec::new(),
    })
}

fn of_any_scope(
    module: &Module,
    id: FuncId,
    cfgs: &IndexVec<FuncId, Option<Cfg>>,
    o: &Object,
    seeds: &[StmtId],
    shadowed: &std::collections::HashMap<VarId, VarId>,
) -> Result<Extent, String> {
    let v = match o {
        Object::Member(m) => {
            return Ok(Extent {
                item: format!("this->{m}"),
                bytes: None,
                monotone: Vec::new(),
            })
        }
        Object::Field(v, m) => {
            return Ok(Extent {
                item: format!("{}.{m}", module.var(*v).name),
                bytes: None,
                monotone: Vec::new(),
            })
        }
        Object::Var(v) => *v,
    };
    let var = module.var(v);
    let ty = var.ty.referent();
    match &ty.kind {
        // A library container keeps its data behind a pointer of its own, which no map clause
        // can name: mapping the object copies its few bytes of bookkeeping, not the data.
        TypeKind::Record(name) if name.starts_with("std::") => Err(format!(
            "`{}` is a library container ({name}): its data sits behind the container's own \
             pointer, which a map clause cannot name (map a pointer to it, such as `{}.data()`, \
             held in a variable)",
            var.name, var.name
        )),
        // A map of an array of pointers (or of a pointer to pointers) copies the pointers,
        // not the data behind them, which is what the kernels use.
        TypeKind::Array { element, .. } | TypeKind::Pointer(element)
            if element.referent().is_pointer() =>
        {
            Err(format!(
                "`{}` holds pointers ({}): a map of it copies the pointers, not the data behind them that the kernels use (map each one's data, such as `{}[0][0:n]`)",
                var.name, ty.spelling, var.name
            ))
        }
        TypeKind::Array { len: Some(_), .. } | TypeKind::Record(_) => Ok(Extent {
            item: var.name.clone(),
            bytes: ty.size,
            monotone: Vec::new(),
        }),
        TypeKind::Pointer(elem) => {
            let Some(g) = cfgs[id].as_ref() else {
                return Err("its function is not analysed".into());
            };
            let (here, monotone) = match sections::accessed_section_assuming(module, id, g, v, seeds)
            {
                Ok((s, m)) => (Ok(s), m),
                Err(e) => (Err(e), Default::default()),
            };
            let mut section = here.as_ref().ok().cloned();
            // The kernels' accesses under the names that declare the same view again inside
            // (`Real *ss = &domain.m_ss[0];` in an inner scope) are accesses of `v`'s data.
            for (&w, _) in shadowed.iter().filter(|(_, u)| **u == v) {
                let there = sections::accessed_section_named(module, id, g, w, seeds).ok();
                section = match (section, there) {
                    (Some(a), Some(b)) => a.union_known(&b, &module.macros),
                    (None, s) if here.is_err() => s,
                    _ => None,
                };
            }
            for s in hosted_sections(module, id, cfgs, v, seeds) {
                section = match (section, s) {
                    (None, s) => s,
                    (Some(a), Some(b)) => a.union_known(&b, &module.macros),
                    (Some(_), None) => None,
                };
                if section.is_none() {
                    break;
                }
            }
            // A section that may start before the pointer (`in[i - w/2]` under a guard
            // `i - w/2 >= 0` omplens does not read) would map memory outside the data, and
            // extend a caller's mapping: the allocation's extent, or no map.
            let starts_before = section
                .as_ref()
                .is_some_and(|s| !s.lower.nonneg_coefficients());
            let section = section.filter(|_| !starts_before);
            let monotone: Vec<String> = if section.is_some() {
                monotone
                    .iter()
                    .map(|m| module.var(*m).name.clone())
                    .collect()
            } else {
                Vec::new()
            };
            // The whole allocation, of `v` or of the pointer `v` is an exact copy of
            // (`float *w = weights_1d;`).
            let section = section.or_else(|| {
                let root = sections::exact_copy_root(module, module.function(id), v).unwrap_or(v);
                sections::allocation_length_named(module, id, v)
                    .or_else(|| sections::allocation_length_named(module, id, root))
                    .or_else(|| member_lengths::copied_member_length(module, id, v))
                    .or_else(|| sections::vector_view_length(module, id, v))
                    .map(|len| Section {
                        lower: Poly::constant(0),
                        length: len,
                    })
            });
            match section {
                Some(s) => {
                    let bytes = constants::substitute(&s.length, &module.macros)
                        .as_const()
                        .zip(elem.size)
                        .map(|(n, e)| n.max(0) as u64 * e);
                    Ok(Extent {
                        item: format!("{}[{}]", var.name, s),
                        bytes,
                        monotone,
                    })
                }
                None => Err(match here {
                    Ok(s) if starts_before => format!(
                        "the kernels' accesses to `{}` may reach below its first element (`{}[{s}]`), and the length of its allocation is not known here",
                        var.name, var.name
                    ),
                    Err(Unbounded {
                        span: Some(at),
                        text,
                        why,
                    }) => format!(
                        "omplens cannot tell how much of the data behind `{}` the kernels use: the access `{text}` (line {}) defeats it: {why}",
                        var.name,
                        module.line_ref(at.start),
                    ),
                    _ => format!(
                        "omplens cannot tell how much of the data behind `{}` the kernels use (no loop bounds or allocation size it can read)",
                        var.name
                    ),
                }),
            }
        }
        TypeKind::Array { len: None, .. } => Err(format!("`{}` has no known length", var.name)),
        _ => Err(format!(
            "`{}` has a type omplens does not map ({})",
            var.name, ty.spelling
        )),
    }
}

/// At each call of a hosted function in `seeds` passing `v` as an argument: the callee's
/// section of that parameter, in the caller's symbols. `None` entries when one is unknown.
fn hosted_sections(
    module: &Module,
    id: FuncId,
    cfgs: &IndexVec<FuncId, Option<Cfg>>,
    v: VarId,
    seeds: &[StmtId],
) -> Vec<Option<Section>> {
    let func = module.function(id);
    let Some(g) = cfgs[id].as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (_, n) in g.nodes() {
        if !seeds.contains(&n.stmt) {
            continue;
        }
        for a in &n.accesses {
            let (
                Root::Var(x),
                Some(Escape::CallArg {
                    callee: Some(c),
                    index: Some(i),
                }),
            ) = (&a.root, &a.escape)
            else {
                continue;
            };
            if *x != v || !a.path.is_empty() {
                continue;
            }
            let callee = module.function(*c);
            let (Some(p), Some(cg)) = (callee.params.get(*i), cfgs[*c].as_ref()) else {
                out.push(None);
                continue;
            };
            let kernels = crate::ir::kernel_stmts(module, callee);
            let Ok(mut s) = sections::accessed_section_named(module, *c, cg, *p, &kernels) else {
                out.push(None);
                continue;
            };
            // Names of the callee other than its parameters (a template's `numTeams`, a
            // local, a global the caller hides under a local of the same name) mean nothing,
            // or something else, at the caller.
            if !names_carry(module, *c, id, &s.lower) || !names_carry(module, *c, id, &s.length) {
                out.push(None);
                continue;
            }
            // The callee's parameters in terms of the call's arguments.
            let args = call_args(func, &n.exprs, *c);
            let mut ok = true;
            for (k, param) in callee.params.iter().enumerate() {
                let pname = &module.var(*param).name;
                // Also inside compound atoms (`n / 2`, `start[n]`), which keep the callee's
                // names as text.
                let uses = [&s.lower, &s.length]
                    .iter()
                    .any(|p| p.contains_atom(pname) || p.mentions_within_atoms(pname));
                if !uses {
                    continue;
                }
                match args
                    .get(k)
                    .and_then(|e| Poly::from_expr_named(module, func, *e))
                {
                    Some(by) => {
                        s.lower = s.lower.subst_everywhere(pname, &by);
                        s.length = s.length.subst_everywhere(pname, &by);
                    }
                    None => ok = false,
                }
            }

            // A cast at the call (`f((grid *)p)`): the callee counts in its own element
            // type; the caller's section counts in `v`'s.
            match element_ratio(module.var(v), module.var(*p)) {
                Some(1) => {}
                Some(k) => {
                    s.lower = s.lower.scale(k);
                    s.length = s.length.scale(k);
                }
                None => ok = false,
            }
            out.push(ok.then_some(s));
        }
    }
    out
}

/// Whether every name `p` (a section in `callee`'s terms) reads means the same at a call in
/// `caller`: `callee`'s parameters (replaced by the arguments), macros, and globals no local
/// or parameter of `caller` hides (members after `.`/`->` and called functions aside).
fn names_carry(module: &Module, callee: FuncId, caller: FuncId, p: &Poly) -> bool {
    let known = |n: &str| {
        if module.macros.contains_key(n) {
            return true;
        }
        let is_param = module
            .function(callee)
            .params
            .iter()
            .any(|v| module.var(*v).name == n);
        let global = module
            .vars
            .iter()
            .any(|v| v.name == n && v.storage == crate::ir::Storage::Global);
        let hidden_at_caller = module
            .vars
            .iter()
            .any(|v| v.name == n && v.function == Some(caller));
        let callee_local = module
            .vars
            .iter()
            .any(|v| v.name == n && v.function == Some(callee));
        is_param || (global && !hidden_at_caller && !callee_local)
    };
    p.atoms().into_iter().all(|atom| {
        let bytes = atom.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_alphabetic() || c == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let name = &atom[start..i];
                let before = atom[..start].trim_end();
                let member = before.ends_with('.') || before.ends_with("->");
                let call = atom[i..].trim_start().starts_with('(');
                let keyword = matches!(name, "sizeof" | "this");
                if !member && !call && !keyword && !known(name) {
                    return false;
                }
            } else if c.is_ascii_digit() {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                    i += 1;
                }
            } else {
                i += 1;
            }
        }
        true
    })
}

/// How many of the caller's elements (`arg`'s pointee) one element of the callee's parameter
/// `param` is: 1 when the types agree, `k` when the parameter's element is `k` of them
/// (`double *` passed as `double (*)[N][N]`), None when it is not a whole number or a size
/// is unknown.
fn element_ratio(arg: &crate::ir::Var, param: &crate::ir::Var) -> Option<i64> {
    let elem = |t: &crate::ir::Type| match &t.referent().kind {
        crate::ir::TypeKind::Pointer(e) => Some(e.size),
        crate::ir::TypeKind::Array { element, .. } => Some(element.size),
        _ => None,
    };
    let (a, p) = (elem(&arg.ty), elem(&param.ty));
    match (a, p) {
        (Some(Some(a)), Some(Some(p))) if a > 0 && p % a == 0 => i64::try_from(p / a).ok(),
        (Some(Some(_)), Some(Some(_))) => None,
        // Sizes unknown on one side (dependent, incomplete): same spelling is the same type.
        _ => {
            let spell = |t: &crate::ir::Type| match &t.referent().kind {
                crate::ir::TypeKind::Pointer(e) => Some(e.spelling.clone()),
                crate::ir::TypeKind::Array { element, .. } => Some(element.spelling.clone()),
                _ => None,
            };
            (spell(&arg.ty).is_some() && spell(&arg.ty) == spell(&param.ty)).then_some(1)
        }
    }
}

/// Arguments of the first direct call to `callee` in the expression trees `roots`.
fn call_args(
    func: &crate::ir::Function,
    roots: &[crate::ir::ExprId],
    callee: FuncId,
) -> Vec<crate::ir::ExprId> {
    let mut stack = roots.to_vec();
    while let Some(e) = stack.pop() {
        let kind = &func.expr(e).kind;
        if let ExprKind::Call {
            callee: crate::ir::Callee::Direct(f),
            args,
            ..
        } = kind
        {
            if *f == callee {
                return args.clone();
            }
        }
        stack.extend(crate::ir::device::expr_children(kind));
    }
    Vec::new()
}

/// `v` holds memory allocated in function `id` (so nothing outside can see it).
pub fn allocated_here(module: &Module, id: FuncId, v: VarId) -> bool {
    sections::allocation_length(module, id, v).is_some()
}
