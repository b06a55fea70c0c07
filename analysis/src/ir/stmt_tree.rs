//! The statement tree of one function (DawnCC's scope tree): parents, loops and blocks, so
//! that inserted regions and directives land where braces and scopes stay valid.

use crate::ir::{Function, IndexVec, StmtId, StmtKind};
use crate::pragma::Span;

pub struct StmtTree<'f> {
    pub func: &'f Function,
    parent: IndexVec<StmtId, Option<StmtId>>,
}

use crate::ir::stmt_children;

pub fn is_loop(kind: &StmtKind) -> bool {
    matches!(
        kind,
        StmtKind::For(_) | StmtKind::RangeFor { .. } | StmtKind::While { .. } | StmtKind::Do { .. }
    )
}

impl<'f> StmtTree<'f> {
    pub fn new(func: &'f Function) -> StmtTree<'f> {
        let mut parent: IndexVec<StmtId, Option<StmtId>> =
            func.stmts.iter().map(|_| None).collect();
        let mut stack: Vec<StmtId> = func.body.into_iter().collect();
        let mut seen: IndexVec<StmtId, bool> = func.stmts.iter().map(|_| false).collect();
        while let Some(s) = stack.pop() {
            if std::mem::replace(&mut seen[s], true) {
                continue;
            }
            for c in stmt_children(&func.stmt(s).kind) {
                if let Some(p) = parent.get_mut(c) {
                    *p = Some(s);
                    stack.push(c);
                }
            }
        }
        StmtTree { func, parent }
    }

    pub fn parent(&self, s: StmtId) -> Option<StmtId> {
        self.parent.get(s).copied().flatten()
    }

    /// `s` and its ancestors, innermost first.
    pub fn ancestors(&self, s: StmtId) -> impl Iterator<Item = StmtId> + '_ {
        std::iter::successors(Some(s), move |&x| self.parent(x))
    }

    pub fn span(&self, s: StmtId) -> Span {
        self.func.stmt(s).span
    }

    pub fn kind(&self, s: StmtId) -> &StmtKind {
        &self.func.stmt(s).kind
    }

    /// `s` sits directly in a `{ }` block (so a directive can be written next to it).
    pub fn in_compound(&self, s: StmtId) -> bool {
        self.parent(s)
            .is_some_and(|p| matches!(self.kind(p), StmtKind::Compound(_)))
    }

    /// The lowest statement that is `a` or an ancestor of it and also an ancestor of `b`.
    pub fn common_ancestor(&self, a: StmtId, b: StmtId) -> Option<StmtId> {
        let up: Vec<StmtId> = self.ancestors(b).collect();
        self.ancestors(a).find(|x| up.contains(x))
    }

    /// Loops strictly enclosing `s`, innermost first, that lie within `within` (a span).
    pub fn enclosing_loops(&self, s: StmtId, within: Span) -> Vec<StmtId> {
        self.ancestors(s)
            .skip(1)
            .filter(|&x| is_loop(self.kind(x)) && contains(within, self.span(x)))
            .collect()
    }
}

/// `outer` contains `inner` (spans, end exclusive).
pub fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}
