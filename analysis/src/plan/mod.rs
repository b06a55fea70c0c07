//! Mapping synthesis (OMPDart §IV-E/F): from the validity analysis to a `target data` region
//! per function, map types from what is read before and after it, `target update` placed
//! outside the loops that do not need it, `firstprivate` for read-only scalars, and the
//! rewriter that turns all of that into text edits.

mod extent;
mod nodes;
pub mod report;

pub mod strip;
mod synth;

use crate::ir::{DirId, FuncId, Severity};
use crate::pragma::Span;
pub use crate::rewrite::{Anchor, Clause, Insertion, Side};
use crate::semantics::validity::Object;
use crate::text::TextEdit;
pub use synth::plan;

/// How data enters and leaves a `target data` region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapType {
    To,
    From,
    ToFrom,
    Alloc,
}

impl MapType {
    pub fn name(self) -> &'static str {
        match self {
            MapType::To => "to",
            MapType::From => "from",
            MapType::ToFrom => "tofrom",
            MapType::Alloc => "alloc",
        }
    }
    fn of(to: bool, from: bool) -> MapType {
        match (to, from) {
            (true, true) => MapType::ToFrom,
            (true, false) => MapType::To,
            (false, true) => MapType::From,
            (false, false) => MapType::Alloc,
        }
    }
}

/// One list item of a region's (or a single kernel's) map clauses.
#[derive(Clone, Debug, PartialEq)]
pub struct MappedItem {
    pub object: Object,
    /// The variable's name (`a`, `this->u`).
    pub name: String,
    /// The list item as written (`a[0:n]`).
    pub item: String,
    pub map_type: MapType,
    /// Size of the item in bytes, when known statically.
    pub bytes: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    To,
    From,
}

/// A `target update` the plan needs.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedUpdate {
    pub motion: Motion,
    pub name: String,
    pub item: String,
    pub anchor: Anchor,
    pub side: Side,
    /// Why (for `omplens plan`): e.g. "host reads a at line 12".
    pub why: String,
    pub bytes: Option<u64>,
}

/// Clauses added to one existing kernel directive.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelClauses {
    pub directive: DirId,
    pub firstprivate: Vec<String>,
    /// Scalars the kernel writes: `map(tofrom: s)`.
    pub written_scalars: Vec<String>,
    /// Map items of a lone kernel that gets no `target data` region.
    pub maps: Vec<MappedItem>,
    /// Pointers to device memory (`omp_target_alloc`) the kernel uses: `is_device_ptr`.
    pub device_pointers: Vec<String>,
}

impl KernelClauses {
    /// Nothing to add to the kernel.
    pub fn is_empty(&self) -> bool {
        self.firstprivate.is_empty()
            && self.written_scalars.is_empty()
            && self.maps.is_empty()
            && self.device_pointers.is_empty()
    }
}

/// The `target data` region of one function.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionPlan {
    pub first: Anchor,
    pub last: Anchor,
    pub items: Vec<MappedItem>,
    /// Functions whose calls inside the region have their data kept on the device by it.
    pub hosted_calls: Vec<FuncId>,
    /// Written as `target enter data` before `first` and `target exit data` after `last`
    /// instead of a structured region: a variable declared among its statements is used
    /// after them (braces would end its scope too early).
    pub unstructured: bool,
    /// With `unstructured`: `return` statements among the region's statements, each of
    /// which gets a `target exit data` of its own before it.
    pub exits: Vec<Anchor>,
}

/// Everything planned for one function.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionPlan {
    pub func: FuncId,
    pub name: String,
    pub region: Option<RegionPlan>,
    pub updates: Vec<PlannedUpdate>,
    pub kernels: Vec<KernelClauses>,
}

/// A problem that keeps the plan from being complete (e.g. a declaration that must move).
#[derive(Clone, Debug, PartialEq)]
pub struct PlanDiagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    /// The variable whose data the plan could not bound (its map is left to the
    /// programmer), as (function's qualified name, variable's name): `fix --replace` keeps
    /// the programmer's own constructs naming it there. Names, not ids: a plan made over
    /// part of a file numbers its variables on its own.
    pub unmapped: Option<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Plan {
    pub functions: Vec<FunctionPlan>,
    pub diagnostics: Vec<PlanDiagnostic>,
}

/// The first `device(...)` clause of a kernel or data construct of `f`, as written: a
/// function that picks its device is not rewritten (a region omplens writes would map on the
/// default device while its kernels run on another), and `--replace` keeps its constructs.
pub(crate) fn device_named(module: &crate::ir::Module, f: crate::ir::FuncId) -> Option<String> {
    module
        .directives
        .iter()
        .filter(|d| d.function == Some(f))
        .filter(|d| d.directive.kind.is_offload_kernel() || d.directive.kind.is_data_mapping())
        .flat_map(|d| d.directive.clauses.iter())
        .find_map(|c| match &c.kind {
            crate::pragma::ClauseKind::Device { expr, .. } => Some(format!("device({expr})")),
            _ => None,
        })
}

fn clause(name: &str, modifier: Option<&str>, items: Vec<String>) -> Clause {
    Clause {
        name: name.to_string(),
        modifier: modifier.map(str::to_string),
        items,
    }
}

fn map_clauses(items: &[MappedItem]) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    for ty in [MapType::To, MapType::ToFrom, MapType::From, MapType::Alloc] {
        let list: Vec<String> = items
            .iter()
            .filter(|i| i.map_type == ty)
            .map(|i| i.item.clone())
            .collect();
        if !list.is_empty() {
            out.push(clause("map", Some(ty.name()), list));
        }
    }
    out
}

/// The items of an unstructured region as `target enter data` maps them (`to` for data the
/// region copies in, `alloc` otherwise) and as `target exit data` does (`from` for data it
/// copies out; the rest is released, see [`exit_clauses`]).
fn enter_exit_items(items: &[MappedItem]) -> (Vec<MappedItem>, Vec<MappedItem>) {
    let with = |i: &MappedItem, t: MapType| MappedItem {
        map_type: t,
        ..i.clone()
    };
    let enter = items
        .iter()
        .map(|i| match i.map_type {
            MapType::To | MapType::ToFrom => with(i, MapType::To),
            _ => with(i, MapType::Alloc),
        })
        .collect();
    let exit = items
        .iter()
        .map(|i| match i.map_type {
            MapType::From | MapType::ToFrom => with(i, MapType::From),
            _ => with(i, MapType::Alloc),
        })
        .collect();
    (enter, exit)
}

/// `map(from: …)` and `map(release: …)` for `target exit data` (`Alloc` items are released).
fn exit_clauses(items: &[MappedItem]) -> Vec<Clause> {
    let mut out = Vec::new();
    for (ty, name) in [(MapType::From, "from"), (MapType::Alloc, "release")] {
        let list: Vec<String> = items
            .iter()
            .filter(|i| i.map_type == ty)
            .map(|i| i.item.clone())
            .collect();
        if !list.is_empty() {
            out.push(clause("map", Some(name), list));
        }
    }
    out
}

impl Plan {
    /// What the rewriter must write, in plan order.
    pub fn insertions(&self, module: &crate::ir::Module) -> Vec<Insertion> {
        let mut out = Vec::new();
        for f in &self.functions {
            match &f.region {
                Some(r) if r.unstructured => {
                    let (enter, exit) = enter_exit_items(&r.items);
                    out.push(Insertion::Standalone {
                        anchor: r.first,
                        side: Side::Before,
                        directive: "target enter data".to_string(),
                        clauses: map_clauses(&enter),
                    });
                    for (anchor, side) in r
                        .exits
                        .iter()
                        .map(|a| (*a, Side::Before))
                        // (Nothing runs after a `return` that ends the region.)
                        .chain((!r.exits.contains(&r.last)).then_some((r.last, Side::After)))
                    {
                        out.push(Insertion::Standalone {
                            anchor,
                            side,
                            directive: "target exit data".to_string(),
                            clauses: exit_clauses(&exit),
                        });
                    }
                }
                Some(r) => out.push(Insertion::DataRegion {
                    first: r.first,
                    last: r.last,
                    clauses: map_clauses(&r.items),
                }),
                None => {}
            }
            for u in &f.updates {
                let name = match u.motion {
                    Motion::To => "to",
                    Motion::From => "from",
                };
                out.push(Insertion::Standalone {
                    anchor: u.anchor,
                    side: u.side,
                    directive: "target update".to_string(),
                    clauses: vec![clause(name, None, vec![u.item.clone()])],
                });
            }
            for k in &f.kernels {
                let mut clauses = map_clauses(&k.maps);
                if !k.written_scalars.is_empty() {
                    clauses.push(clause("map", Some("tofrom"), k.written_scalars.clone()));
                }
                if !k.firstprivate.is_empty() {
                    clauses.push(clause("firstprivate", None, k.firstprivate.clone()));
                }
                if !k.device_pointers.is_empty() {
                    clauses.push(clause("is_device_ptr", None, k.device_pointers.clone()));
                }
                if !clauses.is_empty() {
                    out.push(Insertion::AppendClauses {
                        directive: module.directive(k.directive).directive.span,
                        clauses,
                    });
                }
            }
        }
        out
    }

    /// The plan as text edits on `source` (the text `module` was lowered from).
    pub fn edits(&self, module: &crate::ir::Module, source: &str) -> Vec<TextEdit> {
        crate::rewrite::render(source, &self.insertions(module))
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}
