//! Span erasure, for comparing trees by structure only (e.g. in round-trip
//! tests): `a.without_spans() == b.without_spans()`.

use super::ast::{
    Accessor, Clause, ClauseKind, Directive, Expr, ExprKind, Ident, IteratorDef, ListItem,
    MapModifier, MotionModifier, SizeofArg,
};
use super::Span;

/// Sets every span in a tree to `Span::default()`.
trait ZeroSpans {
    fn zero_spans(&mut self);
}

impl<T: ZeroSpans> ZeroSpans for Vec<T> {
    fn zero_spans(&mut self) {
        self.iter_mut().for_each(ZeroSpans::zero_spans);
    }
}

impl<T: ZeroSpans> ZeroSpans for Option<T> {
    fn zero_spans(&mut self) {
        if let Some(v) = self {
            v.zero_spans();
        }
    }
}

impl<T: ZeroSpans> ZeroSpans for Box<T> {
    fn zero_spans(&mut self) {
        (**self).zero_spans();
    }
}

impl ZeroSpans for Ident {
    fn zero_spans(&mut self) {
        self.span = Span::default();
    }
}

impl ZeroSpans for Expr {
    fn zero_spans(&mut self) {
        self.span = Span::default();
        match &mut self.kind {
            ExprKind::Ident(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Char(_)
            | ExprKind::Str(_)
            | ExprKind::Sizeof(SizeofArg::Type(_)) => {}
            ExprKind::Unary(_, e)
            | ExprKind::Member(e, _, _)
            | ExprKind::Paren(e)
            | ExprKind::Cast(_, e)
            | ExprKind::Sizeof(SizeofArg::Expr(e)) => e.zero_spans(),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                a.zero_spans();
                b.zero_spans();
            }
            ExprKind::Ternary(a, b, c) => {
                a.zero_spans();
                b.zero_spans();
                c.zero_spans();
            }
            ExprKind::Call(callee, args) => {
                callee.zero_spans();
                args.zero_spans();
            }
        }
    }
}

impl ZeroSpans for Accessor {
    fn zero_spans(&mut self) {
        match self {
            Accessor::Member { name, .. } => name.zero_spans(),
            Accessor::Index(e) => e.zero_spans(),
            Accessor::Section {
                lower,
                length,
                stride,
                span,
            } => {
                lower.zero_spans();
                length.zero_spans();
                stride.zero_spans();
                *span = Span::default();
            }
        }
    }
}

impl ZeroSpans for ListItem {
    fn zero_spans(&mut self) {
        self.span = Span::default();
        self.base.zero_spans();
        self.path.zero_spans();
    }
}

impl ZeroSpans for IteratorDef {
    fn zero_spans(&mut self) {
        self.begin.zero_spans();
        self.end.zero_spans();
        self.step.zero_spans();
    }
}

impl ZeroSpans for MapModifier {
    fn zero_spans(&mut self) {
        if let MapModifier::Iterator(defs) = self {
            defs.zero_spans();
        }
    }
}

impl ZeroSpans for MotionModifier {
    fn zero_spans(&mut self) {
        if let MotionModifier::Iterator(defs) = self {
            defs.zero_spans();
        }
    }
}

impl ZeroSpans for ClauseKind {
    fn zero_spans(&mut self) {
        match self {
            ClauseKind::Map {
                modifiers, items, ..
            } => {
                modifiers.zero_spans();
                items.zero_spans();
            }
            ClauseKind::To { modifiers, items } | ClauseKind::From { modifiers, items } => {
                modifiers.zero_spans();
                items.zero_spans();
            }
            ClauseKind::Depend {
                iterator, items, ..
            } => {
                iterator.zero_spans();
                items.zero_spans();
            }
            ClauseKind::Lastprivate { items, .. }
            | ClauseKind::Reduction { items, .. }
            | ClauseKind::InReduction { items, .. }
            | ClauseKind::TaskReduction { items, .. }
            | ClauseKind::Private(items)
            | ClauseKind::Firstprivate(items)
            | ClauseKind::Shared(items)
            | ClauseKind::IsDevicePtr(items)
            | ClauseKind::HasDeviceAddr(items)
            | ClauseKind::UseDevicePtr(items)
            | ClauseKind::UseDeviceAddr(items)
            | ClauseKind::Enter(items)
            | ClauseKind::Link(items) => items.zero_spans(),
            ClauseKind::Doacross { vector, .. } => vector.zero_spans(),
            ClauseKind::Device { expr, .. } | ClauseKind::If { expr, .. } => expr.zero_spans(),
            ClauseKind::Collapse(e)
            | ClauseKind::NumTeams(e)
            | ClauseKind::ThreadLimit(e)
            | ClauseKind::NumThreads(e) => e.zero_spans(),
            ClauseKind::Schedule { chunk, .. } | ClauseKind::DistSchedule { chunk, .. } => {
                chunk.zero_spans()
            }
            ClauseKind::Indirect(e) => e.zero_spans(),
            ClauseKind::Defaultmap { .. }
            | ClauseKind::Default(_)
            | ClauseKind::Nowait
            | ClauseKind::DeviceType(_)
            | ClauseKind::Other { .. } => {}
        }
    }
}

impl ZeroSpans for Clause {
    fn zero_spans(&mut self) {
        self.span = Span::default();
        self.name_span = Span::default();
        self.kind.zero_spans();
    }
}

impl ZeroSpans for Directive {
    fn zero_spans(&mut self) {
        self.span = Span::default();
        self.name_span = Span::default();
        self.arguments.zero_spans();
        if let Some((_, span)) = &mut self.raw_argument {
            *span = Span::default();
        }
        self.clauses.zero_spans();
    }
}

macro_rules! without_spans {
    ($($ty:ty),*) => {
        $(
            impl $ty {
                /// A copy with every span set to `Span::default()`, for
                /// comparing trees by structure.
                pub fn without_spans(&self) -> $ty {
                    let mut copy = self.clone();
                    copy.zero_spans();
                    copy
                }
            }
        )*
    };
}

without_spans!(Directive, Clause, ClauseKind, ListItem, Expr);
