//! Canonical `for` loops (`for (iv = first; iv < bound; iv += step)`) and the perfect chain of
//! loops under a parallel loop: what collapse and interchange may reorder.

use crate::ir::{BinaryOp, ExprId, ExprKind, ForLoop, Function, Span, StmtId, StmtKind, UnaryOp};
use crate::ir::{Module, VarId};
use crate::semantics::symbolic::Poly;

/// The parts of a canonical loop header, before symbolic evaluation.
#[derive(Clone, Debug)]
pub struct Header {
    pub iv: VarId,
    /// The value the IV starts at.
    pub first: ExprId,
    /// The other bound and the comparison, normalised to `iv OP bound`.
    pub op: BinaryOp,
    pub bound: ExprId,
    pub step: i64,
}

/// A loop with its bounds as polynomials (None when not symbolic or not single-valued).
#[derive(Clone, Debug)]
pub struct LoopInfo {
    pub stmt: StmtId,
    pub iv: VarId,
    /// The IV's atom in the symbolic values.
    pub atom: String,
    pub first: Option<Poly>,
    /// Smallest and largest value the IV takes (inclusive).
    pub min: Option<Poly>,
    pub max: Option<Poly>,
    pub step: i64,
    /// Iterations, when the bounds are known numbers.
    pub trip: Option<u64>,
    /// `for (...)` up to the closing parenthesis.
    pub header: Span,
}

/// Strips casts and parentheses (the IR has no parentheses; casts are implicit conversions).
pub fn strip(func: &Function, mut e: ExprId) -> ExprId {
    while let ExprKind::Cast(x) = func.expr(e).kind {
        e = x;
    }
    e
}

fn is_var(func: &Function, e: ExprId, v: VarId) -> bool {
    matches!(func.expr(strip(func, e)).kind, ExprKind::Var(x) if x == v)
}

fn int_value(func: &Function, e: ExprId) -> Option<i64> {
    match &func.expr(strip(func, e)).kind {
        ExprKind::Int { value, .. } => *value,
        ExprKind::Unary(UnaryOp::Minus, x) => int_value(func, *x).map(|v| -v),
        _ => None,
    }
}

/// The canonical header of `f`, if it has one.
pub fn header(module: &Module, func: &Function, f: &ForLoop) -> Option<Header> {
    let _ = module;
    let (iv, first) = match &func.stmt(f.init?).kind {
        StmtKind::Decl(ds) if ds.len() == 1 => (ds[0].0, ds[0].1?),
        StmtKind::Expr(e) => match func.expr(*e).kind {
            ExprKind::Assign(None, l, r) => match func.expr(strip(func, l)).kind {
                ExprKind::Var(v) => (v, r),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    if f.induction.is_some_and(|x| x != iv) {
        return None;
    }
    let step = match &func.expr(f.step?).kind {
        ExprKind::Unary(op, x) if is_var(func, *x, iv) => match op {
            UnaryOp::PreInc | UnaryOp::PostInc => 1,
            UnaryOp::PreDec | UnaryOp::PostDec => -1,
            _ => return None,
        },
        ExprKind::Assign(Some(op @ (BinaryOp::Add | BinaryOp::Sub)), l, r)
            if is_var(func, *l, iv) =>
        {
            let c = int_value(func, *r)?;
            if *op == BinaryOp::Add {
                c
            } else {
                c.checked_neg()?
            }
        }
        ExprKind::Assign(None, l, r) if is_var(func, *l, iv) => {
            match func.expr(strip(func, *r)).kind {
                ExprKind::Binary(BinaryOp::Add, a, b) if is_var(func, a, iv) => int_value(func, b)?,
                ExprKind::Binary(BinaryOp::Add, a, b) if is_var(func, b, iv) => int_value(func, a)?,
                ExprKind::Binary(BinaryOp::Sub, a, b) if is_var(func, a, iv) => {
                    int_value(func, b)?.checked_neg()?
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    if step == 0 {
        return None;
    }
    let (op, bound) = match func.expr(strip(func, f.cond?)).kind {
        ExprKind::Binary(op, l, r) if is_var(func, l, iv) => (op, r),
        ExprKind::Binary(op, l, r) if is_var(func, r, iv) => (flip(op)?, l),
        _ => return None,
    };
    let ok = match op {
        BinaryOp::Lt | BinaryOp::Le => step > 0,
        BinaryOp::Gt | BinaryOp::Ge => step < 0,
        BinaryOp::Ne => step.abs() == 1,
        _ => false,
    };
    ok.then_some(Header {
        iv,
        first,
        op,
        bound,
        step,
    })
}

fn flip(op: BinaryOp) -> Option<BinaryOp> {
    Some(match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Ge => BinaryOp::Le,
        BinaryOp::Ne => BinaryOp::Ne,
        _ => return None,
    })
}

/// Range and trip count of a loop from its first value and bound (when each has one value).
pub fn bounds(
    h: &Header,
    first: Option<&Poly>,
    bound: Option<&Poly>,
) -> (Option<Poly>, Option<Poly>, Option<Poly>) {
    let first = first.cloned();
    let bound = bound.cloned();
    let last = bound.map(|b| match h.op {
        BinaryOp::Lt => b.sub(&Poly::constant(1)),
        BinaryOp::Gt => b.add(&Poly::constant(1)),
        BinaryOp::Ne if h.step > 0 => b.sub(&Poly::constant(1)),
        BinaryOp::Ne => b.add(&Poly::constant(1)),
        _ => b,
    });
    if h.step > 0 {
        (first.clone(), first, last)
    } else {
        (first.clone(), last, first)
    }
}

/// Number of iterations when both ends are numbers.
pub fn trip_count(min: Option<&Poly>, max: Option<&Poly>, step: i64) -> Option<u64> {
    let (lo, hi) = (min?.as_const()?, max?.as_const()?);
    if hi < lo {
        return Some(0);
    }
    let span = hi.checked_sub(lo)?;
    Some((span / step.abs()) as u64 + 1)
}

/// The statement directly nested in a loop body when the body holds nothing else: the loop
/// itself, or the only statement of a block.
pub fn only_child(func: &Function, body: StmtId) -> Option<StmtId> {
    match &func.stmt(body).kind {
        StmtKind::Compound(v) => {
            let real: Vec<StmtId> = v
                .iter()
                .copied()
                .filter(|s| !matches!(func.stmt(*s).kind, StmtKind::Null))
                .collect();
            match real.as_slice() {
                [one] => only_child(func, *one).or(Some(*one)),
                _ => None,
            }
        }
        _ => Some(body),
    }
}

/// The loops perfectly nested under `root` (root first): each loop's body holds exactly the
/// next loop, so `collapse` may merge them and their headers may trade places.
pub fn perfect_chain(func: &Function, root: StmtId) -> Vec<StmtId> {
    let mut out = vec![root];
    let mut cur = root;
    while out.len() < 8 {
        let StmtKind::For(f) = &func.stmt(cur).kind else {
            break;
        };
        match only_child(func, f.body) {
            Some(s) if matches!(func.stmt(s).kind, StmtKind::For(_)) => {
                out.push(s);
                cur = s;
            }
            _ => break,
        }
    }
    out
}

/// `for (...)`: from the keyword to the parenthesis that closes the header.
pub fn header_span(source: &str, func: &Function, stmt: StmtId) -> Option<Span> {
    let StmtKind::For(f) = &func.stmt(stmt).kind else {
        return None;
    };
    let start = func.stmt(stmt).span.start as usize;
    let body = func.stmt(f.body).span.start as usize;
    let text = source.get(start..body)?;
    if !text.starts_with("for") {
        return None;
    }
    // The last `)` before the body closes the header (comments between are not expected;
    // a `)` inside one would only shorten the span to a wrong place, so refuse them).
    if text.contains("//") || text.contains("/*") {
        return None;
    }
    let close = text.rfind(')')?;
    Some(Span {
        start: start as u32,
        end: (start + close + 1) as u32,
    })
}
