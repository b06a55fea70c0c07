//! Host loops that fill an allocation whole, whatever their trip count.
//!
//! `for (int i = 0; i < n; i++) a[i] = 0;` writes every element of `a` when `a` holds an
//! allocation of exactly `n` elements: if the loop runs at all it writes them all, and if it
//! runs zero times then `n <= 0` and `a` has no element whose copy could be stale. So for
//! `a`, the loop's zero-trip path is not a path on which `a` keeps its old state (the
//! interpretation takes `a`'s state at the loop's exit from the iterations only). Iterations
//! that skip the write (`continue` before it) or leave early (`break`) still bring their
//! state: only the zero-trip path is dropped.

use crate::ir::{BinaryOp, ExprId, ExprKind, FuncId, Module, StmtKind, UnaryOp, VarId};
use crate::semantics::symbolic::Poly;

/// The pointers whose whole allocation the host loop `l` writes on every trip count: it is
/// `for (i = 0; i < U; ++i)` (`i++`, `i += 1`), its body writes `v[i] = ...` on every
/// iteration (a statement of the body's block itself), `v`'s allocation in the function
/// holds `U` elements ([`crate::semantics::sections::allocation_length`]), and nothing
/// changes the variables of `U` after `v` is allocated (they are written only before every
/// assignment of `v`, which all come before the loop).
pub(super) fn fills_whole_allocation(
    module: &Module,
    id: FuncId,
    l: &crate::ir::cfg::Loop,
) -> Vec<VarId> {
    let func = module.function(id);
    if l.exec == crate::ir::cfg::Exec::Device {
        return Vec::new();
    }
    let StmtKind::For(fl) = &func.stmt(l.stmt).kind else {
        return Vec::new();
    };
    let (Some(iv), Some(cond), Some(step)) = (fl.induction, fl.cond, fl.step) else {
        return Vec::new();
    };
    let is_iv = |e: ExprId| func.var_through_casts(e) == Some(iv);
    let zero = |e: ExprId| Poly::from_expr(module, func, e).and_then(|p| p.as_const()) == Some(0);
    let starts_at_zero = fl.init.is_some_and(|s| match &func.stmt(s).kind {
        StmtKind::Decl(ds) => ds.iter().any(|(v, e)| *v == iv && e.is_some_and(zero)),
        StmtKind::Expr(e) => {
            matches!(func.expr(*e).kind, ExprKind::Assign(None, x, r) if is_iv(x) && zero(r))
        }
        _ => false,
    });
    let steps_by_one = match func.expr(func.strip_casts(step)).kind {
        ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PreInc, x) => is_iv(x),
        ExprKind::Assign(Some(BinaryOp::Add), x, r) => {
            is_iv(x) && Poly::from_expr(module, func, r).and_then(|p| p.as_const()) == Some(1)
        }
        _ => false,
    };
    let bound = match func.expr(cond).kind {
        ExprKind::Binary(BinaryOp::Lt, x, u) if is_iv(x) => u,
        _ => return Vec::new(),
    };
    if !starts_at_zero || !steps_by_one {
        return Vec::new();
    }
    let Some(upper) = Poly::from_expr(module, func, bound) else {
        return Vec::new();
    };
    // The statements every iteration runs: the body's block itself.
    let body: Vec<crate::ir::StmtId> = match &func.stmt(fl.body).kind {
        StmtKind::Compound(list) => list.clone(),
        _ => vec![fl.body],
    };
    let bound_span = func.expr(bound).span;
    let bound_vars: Vec<VarId> = func
        .exprs
        .iter()
        .filter(|e| bound_span.start <= e.span.start && e.span.end <= bound_span.end)
        .filter_map(|e| match e.kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        })
        .collect();
    let loop_start = func.stmt(l.stmt).span.start;
    let mut out = Vec::new();
    for s in body {
        let StmtKind::Expr(e) = func.stmt(s).kind else {
            continue;
        };
        let ExprKind::Assign(None, lhs, _) = func.expr(e).kind else {
            continue;
        };
        let ExprKind::Subscript(base, index) = func.expr(func.strip_casts(lhs)).kind else {
            continue;
        };
        let Some(v) = func.var_through_casts(base) else {
            continue;
        };
        if !is_iv(index) || out.contains(&v) || !module.var(v).ty.is_pointer() {
            continue;
        }
        let Some(length) = crate::semantics::sections::allocation_length(module, id, v) else {
            continue;
        };
        if length != upper {
            continue;
        }
        let assigned = writes_of(module, id, v);
        let first_alloc = assigned.iter().map(|&(s, _)| s).min();
        let last_alloc = assigned.iter().map(|&(_, e)| e).max();
        let (Some(first_alloc), Some(last_alloc)) = (first_alloc, last_alloc) else {
            continue;
        };
        let bound_settled = bound_vars.iter().all(|&x| {
            writes_of(module, id, x)
                .iter()
                .all(|&(_, end)| end <= first_alloc)
        });
        if bound_settled && last_alloc <= loop_start {
            out.push(v);
        }
    }
    out
}

/// Where `func` may change variable `x`: its declaration with an initialiser, assignments,
/// `++`/`--`, `&x`, and `x` passed to a reference parameter or to a call whose callee is
/// not known (as (start, end) spans).
fn writes_of(module: &Module, id: FuncId, x: VarId) -> Vec<(u32, u32)> {
    let func = module.function(id);
    let is_x = |e: ExprId| func.var_through_casts(e) == Some(x);
    let mut out = Vec::new();
    for st in func.stmts.iter() {
        if let StmtKind::Decl(ds) = &st.kind {
            if ds.iter().any(|(v, init)| *v == x && init.is_some()) {
                out.push((st.span.start, st.span.end));
            }
        }
    }
    for e in func.exprs.iter() {
        let writes = match &e.kind {
            ExprKind::Assign(_, l, _) => is_x(*l),
            ExprKind::Unary(
                UnaryOp::PostInc
                | UnaryOp::PreInc
                | UnaryOp::PostDec
                | UnaryOp::PreDec
                | UnaryOp::AddrOf,
                a,
            ) => is_x(*a),
            ExprKind::Call { callee, args, .. } => args.iter().enumerate().any(|(i, &a)| {
                is_x(a)
                    && match callee {
                        crate::ir::Callee::Direct(f) => {
                            let f = module.function(*f);
                            // (An argument past the parameters goes to `...`: by value.)
                            f.params.get(i).is_some_and(|&p| {
                                matches!(module.var(p).ty.kind, crate::ir::TypeKind::Reference(_))
                            })
                        }
                        _ => true,
                    }
            }),
            _ => false,
        };
        if writes {
            out.push((e.span.start, e.span.end));
        }
    }
    out
}
