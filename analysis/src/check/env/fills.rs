//! Host loops that fill an allocation whole, whatever their trip count.
//!
//! `for (int i = 0; i < n; i++) a[i] = 0;` writes every element of `a` when `a` holds an
//! allocation of exactly `n` elements: if the loop runs at all it writes them all, and if it
//! runs zero times then `n <= 0` and `a` has no element whose copy could be stale. So for
//! `a`, the loop's zero-trip path is not a path on which `a` keeps its old state (the
//! interpretation takes `a`'s state at the loop's exit from the iterations only). Iterations
//! that skip the write (`continue` before it) or leave early (`break`) still bring their
//! state: only the zero-trip path is dropped.

use crate::ir::{
    BinaryOp, ExprId, ExprKind, FuncId, Function, Module, StmtId, StmtKind, UnaryOp, VarId,
};
use crate::semantics::symbolic::Poly;

/// The pointers whose whole allocation the host loop `l` of `g` writes on every trip count.
///
/// One loop: it is `for (i = 0; i < U; ++i)` (`i++`, `i += 1`), its body writes `v[i] = ...`
/// on every iteration (a statement of the body's block itself) and `v`'s allocation in the
/// function holds `U` elements ([`crate::semantics::sections::allocation_length`]).
///
/// A nest of two (a grid of rows by columns): `for (i = 0; i < R; ++i)` whose body's block
/// holds `for (j = 0; j < C; ++j)` whose body's block writes `v[i * C + j] = ...`, and `v`'s
/// allocation holds `R * C` elements. Both loops of the nest fill `v` (the inner one's zero
/// trips mean `C <= 0`: no element either). (Were `R` and `C` both negative, their product
/// would be a size the loops leave alone; sizes are not negative.)
///
/// In both, nothing changes the variables of the bounds after `v` is allocated (they are
/// written only before every assignment of `v`, which all come before the loops).
pub(super) fn fills_whole_allocation(
    module: &Module,
    id: FuncId,
    g: &crate::ir::cfg::Cfg,
    l: &crate::ir::cfg::Loop,
) -> Vec<VarId> {
    let func = module.function(id);
    if l.exec == crate::ir::cfg::Exec::Device {
        return Vec::new();
    }
    let Some(this) = Counted::of(module, func, l.stmt) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut add = |v: VarId, outer: &Counted, length: Poly, bounds: &[&Counted]| {
        if out.contains(&v) || !module.var(v).ty.is_pointer() {
            return;
        }
        if crate::semantics::sections::allocation_length(module, id, v) != Some(length) {
            return;
        }
        if settled(module, id, v, outer.start, bounds) {
            out.push(v);
        }
    };
    // `v[i] = ...` in this loop's body.
    for (v, index) in this.element_writes(func) {
        if func.var_through_casts(index) == Some(this.iv) {
            add(v, &this, this.upper.clone(), &[&this]);
        }
    }
    // This loop as the outer loop of a nest, then as its inner one.
    let inner_loops = this
        .body
        .iter()
        .filter_map(|&s| Counted::of(module, func, s));
    let outer_loop = l
        .parent
        .map(|p| g.loops[p].stmt)
        .and_then(|p| Counted::of(module, func, p))
        .filter(|o| o.body.contains(&l.stmt));
    let nests: Vec<(Counted, Counted)> = inner_loops
        .map(|i| (this.clone(), i))
        .chain(outer_loop.map(|o| (o, this.clone())))
        .collect();
    for (outer, inner) in &nests {
        if outer.iv == inner.iv {
            continue;
        }
        let (oi, ii) = (&module.var(outer.iv).name, &module.var(inner.iv).name);
        if oi == ii {
            continue;
        }
        // i * C + j, over the names of the variables (the loop variables' names differ).
        let want = Poly::atom(oi).mul(&inner.upper).add(&Poly::atom(ii));
        let length = outer.upper.mul(&inner.upper);
        for (v, index) in inner.element_writes(func) {
            if Poly::from_expr(module, func, index).as_ref() == Some(&want) {
                add(v, outer, length.clone(), &[outer, inner]);
            }
        }
    }
    out
}

/// A host loop `for (iv = 0; iv < upper; ++iv)` with the statements every iteration runs
/// (its body's block itself).
#[derive(Clone)]
struct Counted {
    iv: VarId,
    upper: Poly,
    /// The variables of the bound expression.
    bound_vars: Vec<VarId>,
    body: Vec<StmtId>,
    start: u32,
}

impl Counted {
    fn of(module: &Module, func: &Function, stmt: StmtId) -> Option<Counted> {
        let StmtKind::For(fl) = &func.stmt(stmt).kind else {
            return None;
        };
        let (iv, cond, step) = (fl.induction?, fl.cond?, fl.step?);
        let is_iv = |e: ExprId| func.var_through_casts(e) == Some(iv);
        let zero =
            |e: ExprId| Poly::from_expr(module, func, e).and_then(|p| p.as_const()) == Some(0);
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
            _ => return None,
        };
        if !starts_at_zero || !steps_by_one {
            return None;
        }
        let upper = Poly::from_expr(module, func, bound)?;
        let bound_span = func.expr(bound).span;
        let bound_vars = func
            .exprs
            .iter()
            .filter(|e| bound_span.start <= e.span.start && e.span.end <= bound_span.end)
            .filter_map(|e| match e.kind {
                ExprKind::Var(v) => Some(v),
                _ => None,
            })
            .collect();
        let body = match &func.stmt(fl.body).kind {
            StmtKind::Compound(list) => list.clone(),
            _ => vec![fl.body],
        };
        Some(Counted {
            iv,
            upper,
            bound_vars,
            body,
            start: func.stmt(stmt).span.start,
        })
    }

    /// The statements of the body `v[index] = ...;`, as (`v`, `index`).
    fn element_writes(&self, func: &Function) -> Vec<(VarId, ExprId)> {
        self.body
            .iter()
            .filter_map(|&s| {
                let StmtKind::Expr(e) = func.stmt(s).kind else {
                    return None;
                };
                let ExprKind::Assign(None, lhs, _) = func.expr(e).kind else {
                    return None;
                };
                let ExprKind::Subscript(base, index) = func.expr(func.strip_casts(lhs)).kind else {
                    return None;
                };
                Some((func.var_through_casts(base)?, index))
            })
            .collect()
    }
}

/// Whether every assignment of `v` comes before `loop_start` and the variables of the
/// loops' bounds are written only before the first of them.
fn settled(module: &Module, id: FuncId, v: VarId, loop_start: u32, loops: &[&Counted]) -> bool {
    let assigned = writes_of(module, id, v);
    let first_alloc = assigned.iter().map(|&(s, _)| s).min();
    let last_alloc = assigned.iter().map(|&(_, e)| e).max();
    let (Some(first_alloc), Some(last_alloc)) = (first_alloc, last_alloc) else {
        return false;
    };
    let bounds_settled = loops.iter().flat_map(|c| &c.bound_vars).all(|&x| {
        writes_of(module, id, x)
            .iter()
            .all(|&(_, end)| end <= first_alloc)
    });
    bounds_settled && last_alloc <= loop_start
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
