//! Span rewriting over directive trees: erasure, for comparing trees by structure only (e.g.
//! in round-trip tests: `a.without_spans() == b.without_spans()`), and moving a directive to
//! other offsets (`map_spans`, for the incremental layer's per-function pieces).

use super::ast::{
    Accessor, Clause, ClauseKind, Directive, Expr, ExprKind, Ident, IteratorDef, ListItem,
    MapModifier, MotionModifier, SizeofArg,
};
use super::Span;

/// Rewrites every span in a tree with `f`.
trait MapSpans {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span);
}

impl<T: MapSpans> MapSpans for Vec<T> {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        self.iter_mut().for_each(|x| x.rewrite_spans(f));
    }
}

impl<T: MapSpans> MapSpans for Option<T> {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        if let Some(v) = self {
            v.rewrite_spans(f);
        }
    }
}

impl<T: MapSpans> MapSpans for Box<T> {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        (**self).rewrite_spans(f);
    }
}

impl MapSpans for Ident {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        self.span = f(self.span);
    }
}

impl MapSpans for Expr {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        self.span = f(self.span);
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
            | ExprKind::Sizeof(SizeofArg::Expr(e)) => e.rewrite_spans(f),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                a.rewrite_spans(f);
                b.rewrite_spans(f);
            }
            ExprKind::Ternary(a, b, c) => {
                a.rewrite_spans(f);
                b.rewrite_spans(f);
                c.rewrite_spans(f);
            }
            ExprKind::Call(callee, args) => {
                callee.rewrite_spans(f);
                args.rewrite_spans(f);
            }
        }
    }
}

impl MapSpans for Accessor {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        match self {
            Accessor::Member { name, .. } => name.rewrite_spans(f),
            Accessor::Index(e) => e.rewrite_spans(f),
            Accessor::Section {
                lower,
                length,
                stride,
                span,
            } => {
                lower.rewrite_spans(f);
                length.rewrite_spans(f);
                stride.rewrite_spans(f);
                *span = f(*span);
            }
        }
    }
}

impl MapSpans for ListItem {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        self.span = f(self.span);
        self.base.rewrite_spans(f);
        self.path.rewrite_spans(f);
    }
}

impl MapSpans for IteratorDef {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        self.begin.rewrite_spans(f);
        self.end.rewrite_spans(f);
        self.step.rewrite_spans(f);
    }
}

impl MapSpans for MapModifier {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        if let MapModifier::Iterator(defs) = self {
            defs.rewrite_spans(f);
        }
    }
}

impl MapSpans for MotionModifier {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        if let MotionModifier::Iterator(defs) = self {
            defs.rewrite_spans(f);
        }
    }
}

impl MapSpans for ClauseKind {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        match self {
            ClauseKind::Map {
                modifiers, items, ..
            } => {
                modifiers.rewrite_spans(f);
                items.rewrite_spans(f);
            }
            ClauseKind::To { modifiers, items } | ClauseKind::From { modifiers, items } => {
                modifiers.rewrite_spans(f);
                items.rewrite_spans(f);
            }
            ClauseKind::Depend {
                iterator, items, ..
            } => {
                iterator.rewrite_spans(f);
                items.rewrite_spans(f);
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
            | ClauseKind::Link(items) => items.rewrite_spans(f),
            ClauseKind::Doacross { vector, .. } => vector.rewrite_spans(f),
            ClauseKind::Device { expr, .. } | ClauseKind::If { expr, .. } => expr.rewrite_spans(f),
            ClauseKind::Collapse(e)
            | ClauseKind::NumTeams(e)
            | ClauseKind::ThreadLimit(e)
            | ClauseKind::NumThreads(e) => e.rewrite_spans(f),
            ClauseKind::Schedule { chunk, .. } | ClauseKind::DistSchedule { chunk, .. } => {
                chunk.rewrite_spans(f)
            }
            ClauseKind::Indirect(e) => e.rewrite_spans(f),
            ClauseKind::Defaultmap { .. }
            | ClauseKind::Default(_)
            | ClauseKind::Nowait
            | ClauseKind::DeviceType(_)
            | ClauseKind::Other { .. } => {}
        }
    }
}

impl MapSpans for Clause {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        self.span = f(self.span);
        self.name_span = f(self.name_span);
        self.kind.rewrite_spans(f);
    }
}

impl MapSpans for Directive {
    fn rewrite_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        self.span = f(self.span);
        self.name_span = f(self.name_span);
        self.arguments.rewrite_spans(f);
        if let Some((_, span)) = &mut self.raw_argument {
            *span = f(*span);
        }
        self.clauses.rewrite_spans(f);
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
                    copy.rewrite_spans(&|_| Span::default());
                    copy
                }
            }
        )*
    };
}

without_spans!(Directive, Clause, ClauseKind, ListItem, Expr);

impl Directive {
    /// Every span of the directive rewritten with `f` (e.g. moved by an offset).
    pub fn map_spans(&mut self, f: &dyn Fn(Span) -> Span) {
        self.rewrite_spans(f);
    }
}
