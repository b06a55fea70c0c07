//! Local C++ references bound to a variable or to a member of the object: another name for
//! the same storage, for good.
//!
//! `int &hs = size;` in a method, or `double &r = x;`, cannot be re-seated, so every use of
//! the reference is a use of what it names. The lowering replaces each use by the variable (or
//! the member) itself, in the function's expressions and in its directives' clauses, and
//! drops the binding's initializer: binding a reference reads nothing. (Programs written for
//! OpenMP 4.5, which allowed no member in a `map` clause, map members through such
//! references: `map(to: hs)`.) References bound to anything else (`a[i]`, `*p`, `s.f` of
//! another object) are left as variables of their own.

use crate::ir::{BindingTarget, ExprKind, FuncId, Module, StmtKind, Storage, TypeKind, VarId};
use std::collections::HashMap;

/// What a reference stands for.
#[derive(Clone)]
enum Bound {
    Var(VarId),
    /// A member of the method's object (`size`, `this->size`): the member expression.
    Member(ExprKind, String),
}

/// Replaces the uses of `id`'s local references by what they are bound to.
pub(super) fn bind_references(module: &mut Module, id: FuncId) {
    let func = &module.functions[id];
    let mut bound: HashMap<VarId, Bound> = HashMap::new();
    let mut inits: HashMap<VarId, usize> = HashMap::new();
    for st in &func.stmts {
        let StmtKind::Decl(ds) = &st.kind else {
            continue;
        };
        for (v, init) in ds {
            let var = &module.vars[*v];
            if var.storage != Storage::Local || !matches!(var.ty.kind, TypeKind::Reference(_)) {
                continue;
            }
            *inits.entry(*v).or_default() += 1;
            let Some(init) = init else { continue };
            let target = match &func.expr(func.strip_casts(*init)).kind {
                ExprKind::Var(x) if x != v => Some(Bound::Var(*x)),
                kind @ ExprKind::Member { base, field, .. }
                    if base.is_none_or(|b| matches!(func.expr(b).kind, ExprKind::This)) =>
                {
                    Some(Bound::Member(kind.clone(), field.clone()))
                }
                _ => None,
            };
            if let Some(t) = target {
                bound.insert(*v, t);
            }
        }
    }
    // A reference declared more than once (a lowering artefact) is left alone.
    bound.retain(|v, _| inits.get(v) == Some(&1));
    if bound.is_empty() {
        return;
    }
    // Chains (`int &a = x; int &b = a;`) end at the first name that is not such a reference.
    let resolve = |mut v: VarId| -> Option<Bound> {
        let mut last = None;
        for _ in 0..16 {
            match bound.get(&v) {
                Some(Bound::Var(x)) => {
                    last = Some(Bound::Var(*x));
                    v = *x;
                }
                Some(m @ Bound::Member(..)) => return Some(m.clone()),
                None => return last,
            }
        }
        None
    };
    let resolved: HashMap<VarId, Bound> = bound
        .keys()
        .filter_map(|&v| Some((v, resolve(v)?)))
        .collect();
    let func = &mut module.functions[id];
    for e in func.exprs.iter_mut() {
        if let ExprKind::Var(v) = e.kind {
            match resolved.get(&v) {
                Some(Bound::Var(x)) => e.kind = ExprKind::Var(*x),
                Some(Bound::Member(kind, _)) => e.kind = kind.clone(),
                None => {}
            }
        }
    }
    for st in func.stmts.iter_mut() {
        if let StmtKind::Decl(ds) = &mut st.kind {
            for (v, init) in ds.iter_mut() {
                if resolved.contains_key(v) {
                    *init = None;
                }
            }
        }
    }
    for d in module.directives.iter_mut() {
        if d.function != Some(id) {
            continue;
        }
        for b in &mut d.bindings {
            let BindingTarget::Var(v) = b.target else {
                continue;
            };
            match resolved.get(&v) {
                Some(Bound::Var(x)) => b.target = BindingTarget::Var(*x),
                Some(Bound::Member(_, field)) => {
                    b.target = BindingTarget::Member;
                    b.name = field.clone();
                }
                None => {}
            }
        }
    }
}
