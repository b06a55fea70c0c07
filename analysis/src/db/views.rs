//! The editor view (hover, inlay hints, code lenses) and the synthesized mapping plan, per
//! component like the findings: `piece_view`/`piece_plan` (tracked) run on a piece's module
//! and synthetic source, `file_view`/`file_plan` move every piece's result back to the file's
//! offsets and ids. The moving is plain code, not a query: it changes with every edit (the
//! offsets do), and the server runs it after dropping its clone of the database. What cannot be moved (a span between a piece's segments, an id the piece
//! does not know) is dropped rather than put at a wrong place.

use super::piece::{Piece, PieceIds, Segment};
use super::{component, parse, pieces, Db, PieceSlot, SourceFile};
use crate::ir::{Module, Span};
use crate::plan::{self, Anchor, FunctionPlan, Plan, PlanDiagnostic};
use crate::semantics::validity::Object;
use crate::view::{self, AccessState, DirectiveView, FileView};
use std::sync::Arc;

/// The view of one component, in its synthetic coordinates and ids.
#[salsa::tracked(returns(clone))]
pub fn piece_view<'db>(db: &'db dyn Db, slot: PieceSlot<'db>) -> Arc<FileView> {
    let Some(p) = component(db, slot) else {
        return Arc::new(FileView::default());
    };
    let Some(facts) = super::piece_facts(db, slot) else {
        return Arc::new(FileView::default());
    };
    db.log_execution(format!("piece_view {}", slot.name(db)));
    Arc::new(view::view(&p.module, &facts))
}

/// The plan of one component, in its synthetic coordinates and ids.
#[salsa::tracked(returns(clone))]
pub fn piece_plan<'db>(db: &'db dyn Db, slot: PieceSlot<'db>) -> Arc<Plan> {
    let Some(p) = component(db, slot) else {
        return Arc::new(Plan::default());
    };
    db.log_execution(format!("piece_plan {}", slot.name(db)));
    Arc::new(plan::plan(&p.module))
}

/// Every piece's view with the piece (its map back to the file). Cheap once the pieces'
/// views are memoized, and cancellable between pieces: a caller holding a clone of the
/// database can then [`combine_views`] without it, so a write never waits for the mapping.
pub fn piece_views(db: &dyn Db, file: SourceFile) -> Vec<(Arc<FileView>, Piece)> {
    pieces(db, file)
        .iter()
        .map(|(name, p)| {
            (
                piece_view(db, PieceSlot::new(db, file, name.clone())),
                p.clone(),
            )
        })
        .collect()
}

/// The view of the whole file from its pieces': directives in the order of their ids (as
/// [`view::view`] lists them), accesses function by function.
pub fn combine_views(parts: &[(Arc<FileView>, Piece)]) -> FileView {
    let mut out = FileView::default();
    for (v, p) in parts {
        let m = Mapper::new(p);
        out.directives
            .extend(v.directives.iter().filter_map(|d| m.directive(d)));
        out.accesses
            .extend(v.accesses.iter().filter_map(|a| m.access(a)));
    }
    // File-scope directives are in every piece: listed once.
    out.directives.sort_by_key(|d| d.dir);
    out.directives.dedup_by_key(|d| d.dir);
    out.accesses.sort_by_key(|a| a.func);
    out
}

/// The view of the whole file, in its offsets and ids.
pub fn file_view(db: &dyn Db, file: SourceFile) -> FileView {
    // Bodies from the project's headers cannot travel in pieces (see `file_findings`).
    if let Some(module) = parse(db, file).module.as_ref().filter(|m| checked_whole(m)) {
        return match super::whole_file_facts(db, file) {
            Some(facts) => view::view(module, &facts),
            None => FileView::default(),
        };
    }
    combine_views(&piece_views(db, file))
}

/// The module holds code lowered from the project's headers: such a file is
/// analysed whole (its findings, facts, view and plan), not in pieces.
pub fn checked_whole(module: &Module) -> bool {
    // (A band is made only for header code that is lowered: bodies of the headers', or their
    // statements a function body includes.)
    !module.headers.is_empty()
        || module
            .functions
            .iter()
            .any(|f| f.has_body && !f.in_main_file)
}

/// Every piece's plan with the piece, as [`piece_views`].
pub fn piece_plans(db: &dyn Db, file: SourceFile) -> Vec<(Arc<Plan>, Piece)> {
    pieces(db, file)
        .iter()
        .map(|(name, p)| {
            (
                piece_plan(db, PieceSlot::new(db, file, name.clone())),
                p.clone(),
            )
        })
        .collect()
}

/// The plan of the whole file (`module`) from its pieces': function plans in the order of
/// their ids (as [`plan::plan`] makes them), diagnostics in source order.
pub fn combine_plans(parts: &[(Arc<Plan>, Piece)], module: &Module) -> Plan {
    let mut out = Plan::default();
    for (plan, p) in parts {
        let m = Mapper::new(p);
        out.functions
            .extend(plan.functions.iter().filter_map(|f| m.function(f, module)));
        out.diagnostics.extend(
            plan.diagnostics
                .iter()
                .filter_map(|d| m.diagnostic(d, module)),
        );
    }
    out.functions.sort_by_key(|f| f.func);
    out.diagnostics.sort_by_key(|d| (d.span.start, d.severity));
    out
}

/// The plan of the whole file, in its offsets and ids (empty if it was not lowered).
pub fn file_plan(db: &dyn Db, file: SourceFile) -> Plan {
    match parse(db, file).module.clone() {
        Some(module) if checked_whole(&module) => plan::plan(&module),
        Some(module) => combine_plans(&piece_plans(db, file), &module),
        None => Plan::default(),
    }
}

/// Moves a piece's results to the file.
struct Mapper<'a> {
    segments: &'a [Segment],
    ids: &'a PieceIds,
}

impl<'a> Mapper<'a> {
    fn new(p: &'a Piece) -> Mapper<'a> {
        Mapper {
            segments: &p.segments,
            ids: &p.ids,
        }
    }

    fn span(&self, s: Span) -> Option<Span> {
        Some(Span {
            start: Piece::to_real(self.segments, s.start)?,
            end: Piece::to_real(self.segments, s.end)?,
        })
    }

    /// `text` with the piece's line markers replaced by the file's lines.
    fn text(&self, t: &str, module: &Module) -> String {
        crate::text::resolve_line_refs(t, |at| {
            Piece::to_real(self.segments, at).map(|r| module.line_col(r).0)
        })
    }

    fn directive(&self, d: &DirectiveView) -> Option<DirectiveView> {
        let func = match d.func {
            Some(f) => Some(self.ids.func(f)?),
            None => None,
        };
        Some(DirectiveView {
            dir: self.ids.dir(d.dir)?,
            func,
            span: self.span(d.span)?,
            ..d.clone()
        })
    }

    fn access(&self, a: &AccessState) -> Option<AccessState> {
        let var = match a.var {
            Some(v) => Some(self.ids.var(v)?),
            None => None,
        };
        Some(AccessState {
            span: self.span(a.span)?,
            func: self.ids.func(a.func)?,
            var,
            ..a.clone()
        })
    }

    fn object(&self, o: &Object) -> Option<Object> {
        Some(match o {
            Object::Var(v) => Object::Var(self.ids.var(*v)?),
            Object::Member(m) => Object::Member(m.clone()),
            Object::Field(v, m) => Object::Field(self.ids.var(*v)?, m.clone()),
        })
    }

    fn anchor(&self, a: Anchor) -> Option<Anchor> {
        Some(Anchor {
            stmt: self.span(a.stmt)?,
            ..a
        })
    }

    fn items(&self, items: &[plan::MappedItem]) -> Option<Vec<plan::MappedItem>> {
        items
            .iter()
            .map(|i| {
                Some(plan::MappedItem {
                    object: self.object(&i.object)?,
                    ..i.clone()
                })
            })
            .collect()
    }

    /// A function's plan, whole or not at all (a part of it would write wrong code).
    fn function(&self, f: &FunctionPlan, module: &Module) -> Option<FunctionPlan> {
        let region = match &f.region {
            Some(r) => Some(plan::RegionPlan {
                first: self.anchor(r.first)?,
                last: self.anchor(r.last)?,
                items: self.items(&r.items)?,
                hosted_calls: r
                    .hosted_calls
                    .iter()
                    .map(|c| self.ids.func(*c))
                    .collect::<Option<_>>()?,
                unstructured: r.unstructured,
                exits: r
                    .exits
                    .iter()
                    .map(|a| self.anchor(*a))
                    .collect::<Option<_>>()?,
            }),
            None => None,
        };
        let updates = f
            .updates
            .iter()
            .map(|u| {
                Some(plan::PlannedUpdate {
                    anchor: self.anchor(u.anchor)?,
                    why: self.text(&u.why, module),
                    ..u.clone()
                })
            })
            .collect::<Option<_>>()?;
        let kernels = f
            .kernels
            .iter()
            .map(|k| {
                Some(plan::KernelClauses {
                    directive: self.ids.dir(k.directive)?,
                    maps: self.items(&k.maps)?,
                    ..k.clone()
                })
            })
            .collect::<Option<_>>()?;
        Some(FunctionPlan {
            func: self.ids.func(f.func)?,
            name: f.name.clone(),
            region,
            updates,
            kernels,
        })
    }

    fn diagnostic(&self, d: &PlanDiagnostic, module: &Module) -> Option<PlanDiagnostic> {
        Some(PlanDiagnostic {
            unmapped: d.unmapped.clone(),
            severity: d.severity,
            span: self.span(d.span)?,
            message: self.text(&d.message, module),
        })
    }
}
