//! The size of an allocation in bytes, as a polynomial in the program's symbols: `malloc`,
//! `calloc`, `aligned_alloc`, `new T[n]`, and calls of functions that return one
//! (`Allocate<T>(n)`, `load_mats(...)`), with their parameters replaced by the call's
//! arguments.

use crate::ir::VarId;
use crate::ir::{Callee, ExprId, ExprKind, FuncId, Function, Module, StmtKind, TypeKind, UnaryOp};
use crate::semantics::symbolic::{ExprPolys, Poly};
use std::collections::BTreeMap;

/// The atom that stands for `sizeof(T)` of a function template's type parameter in the bytes
/// it allocates (`malloc(sizeof(T) * n)` in `template <class T> T *Allocate(size_t n)`): the
/// caller replaces it by the size of the element it stores the result as.
pub const DEPENDENT_SIZEOF: &str = "sizeof(T)";

/// `e`'s factors, through casts and products (`sizeof(T) * n` -> `sizeof(T)`, `n`).
fn flatten_product(f: &Function, e: ExprId, out: &mut Vec<ExprId>) {
    let e = f.strip_casts(e);
    match f.expr(e).kind {
        ExprKind::Binary(crate::ir::BinaryOp::Mul, a, b) => {
            flatten_product(f, a, out);
            flatten_product(f, b, out);
        }
        _ => out.push(e),
    }
}

/// `e`, or the initialiser of the local it names when that local is never assigned after its
/// declaration (`const size_t bytes = n * sizeof(float); malloc(bytes)`), a few levels deep.
pub(crate) fn through_fixed_locals(
    module: &Module,
    f: &crate::ir::Function,
    mut e: ExprId,
) -> ExprId {
    for _ in 0..4 {
        let mut x = e;
        while let ExprKind::Cast(y) = f.expr(x).kind {
            x = y;
        }
        let ExprKind::Var(v) = f.expr(x).kind else {
            return e;
        };
        if module.var(v).storage != crate::ir::Storage::Local {
            return e;
        }
        let init = f.stmts.iter().find_map(|st| match &st.kind {
            StmtKind::Decl(ds) => ds.iter().find(|(d, _)| *d == v).map(|(_, i)| *i),
            _ => None,
        });
        let Some(Some(init)) = init else {
            return e;
        };
        let is_v = |x: ExprId| matches!(f.expr(x).kind, ExprKind::Var(y) if y == v);
        let changed = f.exprs.iter().any(|ex| match &ex.kind {
            ExprKind::Assign(_, l, _) => is_v(*l),
            ExprKind::Unary(op, y) => (op.is_increment() || *op == UnaryOp::AddrOf) && is_v(*y),
            _ => false,
        });
        if changed {
            return e;
        }
        e = init;
    }
    e
}

/// The bytes the allocation `rhs` makes, in the caller's terms: `malloc`, `calloc`,
/// `aligned_alloc`, `new T[n]`, or a call of a function that returns such an allocation.
pub(crate) fn bytes_of(
    module: &Module,
    func: FuncId,
    polys: &mut ExprPolys,
    rhs: ExprId,
) -> Option<Poly> {
    let f = module.function(func);
    let rhs = f.strip_casts(rhs);
    let product = |es: &[ExprId], polys: &mut ExprPolys| -> Option<Poly> {
        let mut factors = Vec::new();
        for &e in es {
            flatten_product(f, through_fixed_locals(module, f, e), &mut factors);
        }
        let mut p = Poly::constant(1);
        for e in factors {
            // `sizeof(T)` of a template's parameter: the element size, known at the call.
            let factor = match f.expr(e).kind {
                ExprKind::SizeOf(None) if f.is_template => Poly::atom(DEPENDENT_SIZEOF),
                _ => polys.poly(e)?,
            };
            p = p.mul(&factor);
        }
        Some(fixed_locals_inside(module, f, polys, p))
    };
    match &f.expr(rhs).kind {
        ExprKind::NewArray {
            len,
            elem_size: Some(size),
            ..
        } => Some(product(&[*len], polys)?.scale(i64::try_from(*size).ok()?)),
        ExprKind::Call { callee, args, .. } => {
            let name = match callee {
                Callee::Direct(id) => module.function(*id).name.as_str(),
                Callee::Named(n) => n.as_str(),
                Callee::Indirect(_) => return None,
            };
            match (name, args.as_slice()) {
                ("malloc" | "_mm_malloc" | "omp_alloc", [n, ..]) => product(&[*n], polys),
                ("calloc", [n, m]) => product(&[*n, *m], polys),
                ("aligned_alloc" | "omp_aligned_alloc" | "realloc", [_, n, ..]) => {
                    product(&[*n], polys)
                }
                _ => {
                    let Callee::Direct(id) = callee else {
                        return None;
                    };
                    let callee_f = module.function(*id);
                    let returned = if callee_f.has_body {
                        returned_bytes(module, *id)?
                    } else {
                        decode(callee_f.external.as_ref()?.returns_bytes.as_ref()?)
                    };
                    at_call(module, f, polys, callee_f, args, returned)
                }
            }
        }
        _ => None,
    }
}

/// `p` with each atom that names a local never assigned after its initialiser replaced by
/// that initialiser (`int num_mats = 12; malloc(num_mats * m * sizeof(int))`).
fn fixed_locals_inside(module: &Module, f: &Function, polys: &mut ExprPolys, p: Poly) -> Poly {
    let mut out = p;
    for _ in 0..4 {
        let atoms: Vec<String> = out.atoms().into_iter().map(str::to_string).collect();
        let mut changed = false;
        for a in atoms {
            let vars = polys.deps.get(&a).cloned().unwrap_or_default();
            let [v] = vars.into_iter().collect::<Vec<_>>()[..] else {
                continue;
            };
            if module.var(v).name != a {
                continue;
            }
            let use_of = f
                .exprs
                .iter_enumerated()
                .find_map(|(id, ex)| match ex.kind {
                    ExprKind::Var(x) if x == v => Some(id),
                    _ => None,
                });
            let Some(use_of) = use_of else { continue };
            let init = through_fixed_locals(module, f, use_of);
            if init == use_of {
                continue;
            }
            if let Some(by) = polys.poly(init) {
                out = out.subst(&a, &by);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    out
}

/// `returned` (in the callee's parameter names) in the caller's terms at a call with `args`.
fn at_call(
    module: &Module,
    f: &Function,
    polys: &mut ExprPolys,
    callee: &Function,
    args: &[ExprId],
    returned: Poly,
) -> Option<Poly> {
    let mut out = returned;
    for (i, &p) in callee.params.iter().enumerate() {
        let name = &module.var(p).name;
        let deref = format!("*{name}");
        if out.contains_atom(&deref) {
            let a = f.strip_casts(*args.get(i)?);
            let ExprKind::Unary(UnaryOp::AddrOf, x) = f.expr(a).kind else {
                return None;
            };
            out = out.subst(&deref, &polys.poly(x)?);
        }
        if out.contains_atom(name) {
            out = out.subst(name, &polys.poly(*args.get(i)?)?);
        }
    }
    Some(out)
}

/// The bytes of the allocation function `id` returns, in its parameters' names (`n`, `*p`)
/// and macro names: every `return` gives a local holding one allocation of those bytes (or
/// the allocation itself), parameters are never assigned, and `*p` is written only before
/// the allocation and outside any loop around it.
pub fn returned_bytes(module: &Module, id: FuncId) -> Option<Poly> {
    let f = module.function(id);
    if !f.has_body || !matches!(f.return_type.kind, TypeKind::Pointer(_)) {
        return None;
    }
    let mut polys = ExprPolys::naming_macros(module, f);
    let mut found: Option<(Poly, u32)> = None;
    for st in f.stmts.iter() {
        let StmtKind::Return(e) = &st.kind else {
            continue;
        };
        let e = f.strip_casts((*e)?);
        let (bytes, at) = match f.expr(e).kind {
            ExprKind::Var(v) => local_allocation(module, id, &mut polys, v)?,
            _ => (bytes_of(module, id, &mut polys, e)?, f.expr(e).span.start),
        };
        match &found {
            Some((p, _)) if *p != bytes => return None,
            Some(_) => {}
            None => found = Some((bytes, at)),
        }
    }
    let (bytes, at) = found?;
    // `sizeof(T)` stands for the element the function returns a pointer to: only when that
    // element is the template's own parameter type (`T *`).
    if bytes.contains_atom(DEPENDENT_SIZEOF)
        && !matches!(&f.return_type.kind, TypeKind::Pointer(t) if matches!(t.kind, TypeKind::Dependent))
    {
        return None;
    }
    let params: BTreeMap<&str, VarId> = f
        .params
        .iter()
        .map(|p| (module.var(*p).name.as_str(), *p))
        .collect();
    let is_p =
        |e: ExprId, p: VarId| matches!(f.expr(f.strip_casts(e)).kind, ExprKind::Var(x) if x == p);
    let in_loop_at = |pos: u32| {
        f.stmts.iter().any(|s| {
            crate::ir::stmt_tree::is_loop(&s.kind) && s.span.start <= pos && pos < s.span.end
        })
    };
    for a in bytes.atoms() {
        if module.macros.contains_key(a) || a == DEPENDENT_SIZEOF {
            continue;
        }
        let (name, deref) = match a.strip_prefix('*') {
            Some(n) => (n, true),
            None => (a, false),
        };
        let p = *params.get(name)?;
        for ex in f.exprs.iter() {
            match &ex.kind {
                ExprKind::Assign(_, l, _) if is_p(*l, p) => return None,
                ExprKind::Unary(op, x)
                    if (op.is_increment() || *op == UnaryOp::AddrOf) && is_p(*x, p) =>
                {
                    return None
                }
                // A write through the parameter after the allocation, or in a loop with it.
                ExprKind::Assign(_, l, _) if deref => {
                    let through = match f.expr(f.strip_casts(*l)).kind {
                        ExprKind::Unary(UnaryOp::Deref, x) | ExprKind::Subscript(x, _) => {
                            is_p(x, p)
                        }
                        _ => false,
                    };
                    if through && (ex.span.start > at || in_loop_at(at)) {
                        return None;
                    }
                }
                _ => {}
            }
        }
    }
    Some(bytes)
}

/// The bytes of the one allocation local `v` of `func` holds (all its stores agree), with
/// where it is made.
fn local_allocation(
    module: &Module,
    func: FuncId,
    polys: &mut ExprPolys,
    v: VarId,
) -> Option<(Poly, u32)> {
    let f = module.function(func);
    if module.var(v).storage != crate::ir::Storage::Local {
        return None;
    }
    let is_v = |e: ExprId| matches!(f.expr(f.strip_casts(e)).kind, ExprKind::Var(x) if x == v);
    let mut stores = Vec::new();
    for st in f.stmts.iter() {
        if let StmtKind::Decl(ds) = &st.kind {
            for (d, init) in ds {
                if *d == v {
                    stores.extend(*init);
                }
            }
        }
    }
    for ex in f.exprs.iter() {
        match &ex.kind {
            ExprKind::Assign(None, l, r) if is_v(*l) => stores.push(*r),
            ExprKind::Assign(Some(_), l, _) if is_v(*l) => return None,
            ExprKind::Unary(op, x) if (op.is_increment() || *op == UnaryOp::AddrOf) && is_v(*x) => {
                return None
            }
            _ => {}
        }
    }
    let mut found: Option<(Poly, u32)> = None;
    for s in stores {
        let bytes = bytes_of(module, func, polys, s)?;
        match &found {
            Some((p, _)) if *p != bytes => return None,
            Some(_) => {}
            None => found = Some((bytes, f.expr(s).span.start)),
        }
    }
    found
}
pub use crate::ir::effect::EncodedPoly as Encoded;

/// `p` as a summary carries it (`ExternalSummary::returns_bytes`).
pub fn encode(p: &Poly) -> Encoded {
    p.terms()
        .map(|(m, c)| (m.iter().map(|a| a.to_string()).collect(), c))
        .collect()
}

/// The polynomial [`encode`] wrote.
pub fn decode(e: &Encoded) -> Poly {
    let mut out = Poly::zero();
    for (atoms, c) in e {
        let mut t = Poly::constant(*c);
        for a in atoms {
            t = t.mul(&Poly::atom(a));
        }
        out.add_assign(&t);
    }
    out
}

/// Functions that return memory of a device, which the host cannot access (OpenMP's
/// `omp_target_alloc` and LLVM's device-only variant).
const DEVICE_ALLOCATORS: &[&str] = &["omp_target_alloc", "llvm_omp_target_alloc_device"];

/// Whether `e` (through casts) is a call of a device allocator (`omp_target_alloc`).
fn is_device_allocation(module: &Module, f: &Function, e: ExprId) -> bool {
    match &f.expr(f.strip_casts(e)).kind {
        ExprKind::Call {
            callee: Callee::Direct(c),
            ..
        } => DEVICE_ALLOCATORS.contains(&module.function(*c).name.as_str()),
        ExprKind::Call {
            callee: Callee::Named(n),
            ..
        } => DEVICE_ALLOCATORS.contains(&n.rsplit("::").next().unwrap_or(n)),
        _ => false,
    }
}

/// The local pointers of `f` that only ever hold memory a device allocator returned
/// (`int *d = (int *)omp_target_alloc(n, dev);`): device memory with no host copy, which
/// the kernels reach by its device address and the host only through `omp_target_memcpy`.
pub fn device_allocations(module: &Module, f: &Function) -> std::collections::HashSet<VarId> {
    let allocates = |e: ExprId| is_device_allocation(module, f, e);
    // Per local pointer: whether every definition seen so far is a device allocation.
    let mut defs: BTreeMap<VarId, bool> = BTreeMap::new();
    let mut note = |v: VarId, device: bool| {
        let e = defs.entry(v).or_insert(true);
        *e &= device;
    };
    for st in &f.stmts {
        if let StmtKind::Decl(ds) = &st.kind {
            for (v, init) in ds {
                if let Some(i) = init {
                    note(*v, allocates(*i));
                }
            }
        }
    }
    for e in &f.exprs {
        match &e.kind {
            ExprKind::Assign(op, l, r) => {
                if let ExprKind::Var(v) = f.expr(f.strip_casts(*l)).kind {
                    note(v, op.is_none() && allocates(*r));
                }
            }
            // `&d` handed anywhere may set it to something else.
            ExprKind::Unary(UnaryOp::AddrOf, x) => {
                if let ExprKind::Var(v) = f.expr(*x).kind {
                    note(v, false);
                }
            }
            _ => {}
        }
    }
    defs.into_iter()
        .filter(|(v, all)| {
            *all && {
                let var = module.var(*v);
                var.storage == crate::ir::Storage::Local
                    && matches!(var.ty.referent().kind, TypeKind::Pointer(_))
            }
        })
        .map(|(v, _)| v)
        .collect()
}

/// The pointer members of local structs that only ever hold memory a device allocator
/// returned (`v.data = (double *)omp_target_alloc(bytes, dev);`), as (struct, member): like
/// [`device_allocations`], for a struct the function owns whose address is never taken (a
/// callee given `&v` may set the member to anything).
pub fn device_member_allocations(
    module: &Module,
    f: &Function,
) -> std::collections::HashSet<(VarId, String)> {
    let allocates = |e: ExprId| is_device_allocation(module, f, e);
    // `v.m` directly on a local struct variable.
    let member_of = |e: ExprId| match &f.expr(f.strip_casts(e)).kind {
        ExprKind::Member {
            base: Some(b),
            field,
            arrow: false,
        } => match f.expr(f.strip_casts(*b)).kind {
            ExprKind::Var(v) => Some((v, field.clone())),
            _ => None,
        },
        _ => None,
    };
    let var_of = |e: ExprId| match f.expr(f.strip_casts(e)).kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    };
    let mut defs: BTreeMap<(VarId, String), bool> = BTreeMap::new();
    let mut spoiled: std::collections::HashSet<VarId> = std::collections::HashSet::new();
    for e in &f.exprs {
        match &e.kind {
            ExprKind::Assign(op, l, r) => {
                if let Some(m) = member_of(*l) {
                    let device = op.is_none() && allocates(*r);
                    *defs.entry(m).or_insert(true) &= device;
                } else if let Some(v) = var_of(*l) {
                    // The whole struct assigned: its members are whatever the other held.
                    spoiled.insert(v);
                }
            }
            ExprKind::Unary(UnaryOp::AddrOf, x) => {
                if let Some(v) = var_of(*x).or_else(|| member_of(*x).map(|(v, _)| v)) {
                    spoiled.insert(v);
                }
            }
            _ => {}
        }
    }
    defs.into_iter()
        .filter(|((v, _), all)| {
            *all && !spoiled.contains(v) && {
                let var = module.var(*v);
                var.storage == crate::ir::Storage::Local
                    && matches!(var.ty.kind, TypeKind::Record(_))
            }
        })
        .map(|(m, _)| m)
        .collect()
}

/// The local arrays of pointers (`float **rows`, `double *rows[4]`) whose elements only ever
/// hold memory a device allocator returned (`rows[i] = omp_target_alloc(bytes, dev);`):
/// what an element points to is device memory, not the array's data. None of the elements'
/// addresses may be taken.
pub fn device_element_allocations(
    module: &Module,
    f: &Function,
) -> std::collections::HashSet<VarId> {
    let allocates = |e: ExprId| is_device_allocation(module, f, e);
    // `v[k]` directly on a variable.
    let element_of = |e: ExprId| match f.expr(f.strip_casts(e)).kind {
        ExprKind::Subscript(b, _) => match f.expr(f.strip_casts(b)).kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        },
        _ => None,
    };
    let mut defs: BTreeMap<VarId, bool> = BTreeMap::new();
    let mut spoiled: std::collections::HashSet<VarId> = std::collections::HashSet::new();
    for e in &f.exprs {
        match &e.kind {
            ExprKind::Assign(op, l, r) => {
                if let Some(v) = element_of(*l) {
                    *defs.entry(v).or_insert(true) &= op.is_none() && allocates(*r);
                }
            }
            ExprKind::Unary(op, x) if *op == UnaryOp::AddrOf || op.is_increment() => {
                if let Some(v) = element_of(*x) {
                    spoiled.insert(v);
                }
            }
            _ => {}
        }
    }
    let pointer_elements = |t: &crate::ir::Type| match &t.kind {
        TypeKind::Pointer(e) | TypeKind::Array { element: e, .. } => {
            matches!(e.kind, TypeKind::Pointer(_))
        }
        _ => false,
    };
    defs.into_iter()
        .filter(|(v, all)| {
            *all && !spoiled.contains(v) && {
                let var = module.var(*v);
                var.storage == crate::ir::Storage::Local && pointer_elements(&var.ty)
            }
        })
        .map(|(v, _)| v)
        .collect()
}
