//! Names whose value is known where a function uses them: object-like macros of the main file
//! whose body is an integer expression (`#define N 4096`, `#define CAP (2 * N)`), and locals
//! initialised with such a value and never changed afterwards (`int n = 3000;`). Section
//! lengths in pragmas and allocation sizes then compare as numbers (OMP106, OMP107).

use crate::ir::{ExprKind, FuncId, Module, StmtKind, TypeKind, UnaryOp, VarId};
use crate::semantics::symbolic::Poly;
use std::collections::{BTreeMap, BTreeSet};

pub type Values = BTreeMap<String, i64>;

/// The known values for code of `func` in `module`: the file's integer macros
/// (`Module::macros`, read once when the file was lowered) and the locals set once.
pub fn known_values(module: &Module, func: FuncId) -> Values {
    let mut out = module.macros.clone();
    let f = module.function(func);
    let changed = changed_vars(module, func);
    let decls: Vec<_> = f
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Decl(ds) => Some(ds),
            _ => None,
        })
        .flatten()
        .collect();
    let mut seen_names: BTreeMap<&str, usize> = BTreeMap::new();
    for (var, _) in &decls {
        *seen_names.entry(&module.var(*var).name).or_default() += 1;
    }
    // Declarations in source order: an initialiser may use values known before it.
    for (var, init) in decls {
        let name = &module.var(*var).name;
        // A name declared twice in the function may mean two values.
        if changed.contains(var) || seen_names.get(name.as_str()) != Some(&1) {
            continue;
        }
        let Some(init) = init else { continue };
        let value = Poly::from_expr(module, f, *init)
            .map(|p| substitute(&p, &out))
            .and_then(|p| p.as_const());
        if let Some(value) = value {
            out.insert(name.clone(), value);
        }
    }
    out
}

/// `p` with every atom of a known value replaced by it.
pub fn substitute(p: &Poly, values: &Values) -> Poly {
    if !p
        .terms()
        .any(|(factors, _)| factors.iter().any(|a| values.contains_key(&**a)))
    {
        return p.clone();
    }
    let atoms: Vec<String> = p.atoms().into_iter().map(str::to_string).collect();
    let mut out = p.clone();
    for a in atoms {
        if let Some(v) = values.get(&a) {
            out = out.subst(&a, &Poly::constant(*v));
        }
    }
    out
}

/// Variables assigned, incremented or whose address is taken anywhere in `func` (beyond their
/// initialiser).
fn changed_vars(module: &Module, func: FuncId) -> BTreeSet<VarId> {
    let f = module.function(func);
    let var_of = |e| match f.expr(e).kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    };
    let mut out = BTreeSet::new();
    for e in &f.exprs {
        let target = match &e.kind {
            ExprKind::Assign(_, l, _) => var_of(*l),
            ExprKind::Unary(
                UnaryOp::PreInc
                | UnaryOp::PreDec
                | UnaryOp::PostInc
                | UnaryOp::PostDec
                | UnaryOp::AddrOf,
                x,
            ) => var_of(*x),
            _ => None,
        };
        out.extend(target);
    }
    // A reference bound to a local may change it too (`int &r = n; r = 5;`).
    for s in &f.stmts {
        if let StmtKind::Decl(ds) = &s.kind {
            for (var, init) in ds {
                if let (TypeKind::Reference(_), Some(init)) = (&module.var(*var).ty.kind, init) {
                    out.extend(var_of(*init));
                }
            }
        }
    }
    out
}
