//! The rules of `omplens check`: one module per diagnostic, its documentation page beside it
//! (`NAME.md`, shown by `omplens explain CODE`).

use super::env::Facts;
use super::{Finding, Severity};
use crate::ir::{Callee, ExprId, ExprKind, FuncId, Module};
use crate::plan::Plan;
use crate::semantics::constants::{known_values, Values};
use std::cell::OnceCell;
use std::collections::HashMap;

mod allocation_in_loop;
mod collapse_or_interchange;
mod common;
mod copy_in_loop;
mod entered_never_exited;
mod implicit_mapping;
mod lost_scalar_write;
mod redundant_copy;
mod round_trip;
mod scalar_map_to;
mod section_past_allocation;
mod section_too_small;
mod stale_device_read;
mod stale_host_read;
mod unchanged_copy_out;
mod uncoalesced_access;
mod uninitialized_device_read;
mod unmapped_pointer;
mod unused_copy_in;
mod update_in_loop;
mod update_not_present;

/// Correctness (wrong results, faults) or performance (wasted copies, uncoalesced accesses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Correctness,
    Performance,
}

/// A rule: stable code, kebab-case name, and its documentation page (Markdown).
#[derive(Debug)]
pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub family: Family,
    /// Severity when the finding is certain (correctness rules report `warning` when the
    /// problem happens only on some paths).
    pub severity: Severity,
    pub summary: &'static str,
    pub doc: &'static str,
}

/// Every rule, by code.
pub static RULES: &[Rule] = &[
    Rule {
        code: "OMP101",
        name: "stale-host-read",
        family: Family::Correctness,
        severity: Severity::Error,
        summary: "The host reads data whose valid copy is on the device: no copy back reaches the read (including a `from` that does not copy because the data is still present).",
        doc: include_str!("stale_host_read.md"),
    },
    Rule {
        code: "OMP102",
        name: "stale-device-read",
        family: Family::Correctness,
        severity: Severity::Error,
        summary: "A kernel reads data the host changed after it was copied to the device, with no `target update to` in between.",
        doc: include_str!("stale_device_read.md"),
    },
    Rule {
        code: "OMP103",
        name: "unmapped-pointer",
        family: Family::Correctness,
        severity: Severity::Error,
        summary: "A kernel uses the data behind a pointer that is not mapped: the pointer is passed as a zero-length section and the device has no copy of its data.",
        doc: include_str!("unmapped_pointer.md"),
    },
    Rule {
        code: "OMP104",
        name: "lost-scalar-write",
        family: Family::Correctness,
        severity: Severity::Error,
        summary: "A kernel writes a scalar that is implicitly `firstprivate`; the host reads the scalar afterwards and sees the old value.",
        doc: include_str!("lost_scalar_write.md"),
    },
    Rule {
        code: "OMP105",
        name: "uninitialized-device-read",
        family: Family::Correctness,
        severity: Severity::Error,
        summary: "A kernel reads data mapped with `alloc` (or `from`) before anything wrote it on the device.",
        doc: include_str!("uninitialized_device_read.md"),
    },
    Rule {
        code: "OMP106",
        name: "section-too-small",
        family: Family::Correctness,
        severity: Severity::Error,
        summary: "A mapped array section is smaller than what the kernels touch.",
        doc: include_str!("section_too_small.md"),
    },
    Rule {
        code: "OMP107",
        name: "section-past-allocation",
        family: Family::Correctness,
        severity: Severity::Error,
        summary: "A mapped array section extends past the end of the allocation it points into.",
        doc: include_str!("section_past_allocation.md"),
    },
    Rule {
        code: "OMP108",
        name: "entered-never-exited",
        family: Family::Correctness,
        severity: Severity::Warning,
        summary: "Data mapped with `target enter data` is never unmapped with `target exit data` before its lifetime ends.",
        doc: include_str!("entered_never_exited.md"),
    },
    Rule {
        code: "OMP109",
        name: "update-not-present",
        family: Family::Correctness,
        severity: Severity::Error,
        summary: "A `target update` names data that is not mapped at that point, so it copies nothing.",
        doc: include_str!("update_not_present.md"),
    },
    Rule {
        code: "OMP201",
        name: "copy-in-loop",
        family: Family::Performance,
        severity: Severity::Warning,
        summary: "Data is mapped and copied on every iteration of a host loop; a `target data` region around the loop copies it once.",
        doc: include_str!("copy_in_loop.md"),
    },
    Rule {
        code: "OMP202",
        name: "redundant-copy",
        family: Family::Performance,
        severity: Severity::Warning,
        summary: "A copy moves data that is already valid at its destination.",
        doc: include_str!("redundant_copy.md"),
    },
    Rule {
        code: "OMP203",
        name: "round-trip",
        family: Family::Performance,
        severity: Severity::Warning,
        summary: "Data is copied to the host and back to the device with no host access in between.",
        doc: include_str!("round_trip.md"),
    },
    Rule {
        code: "OMP204",
        name: "unused-copy-in",
        family: Family::Performance,
        severity: Severity::Warning,
        summary: "`to`/`tofrom` copies data to the device that the device overwrites (or never reads) before using it.",
        doc: include_str!("unused_copy_in.md"),
    },
    Rule {
        code: "OMP205",
        name: "unchanged-copy-out",
        family: Family::Performance,
        severity: Severity::Warning,
        summary: "`from`/`tofrom` copies data back that the device never wrote.",
        doc: include_str!("unchanged_copy_out.md"),
    },
    Rule {
        code: "OMP206",
        name: "allocation-in-loop",
        family: Family::Performance,
        severity: Severity::Warning,
        summary: "Device memory is allocated and freed on every iteration of a host loop.",
        doc: include_str!("allocation_in_loop.md"),
    },
    Rule {
        code: "OMP207",
        name: "update-in-loop",
        family: Family::Performance,
        severity: Severity::Warning,
        summary: "A `target update` inside a loop copies data that does not change in the loop on its source side; it can move out of the loop.",
        doc: include_str!("update_in_loop.md"),
    },
    Rule {
        code: "OMP208",
        name: "scalar-map-to",
        family: Family::Performance,
        severity: Severity::Hint,
        summary: "A scalar that a kernel only reads is mapped `to`; `firstprivate` passes it without a device allocation and copy.",
        doc: include_str!("scalar_map_to.md"),
    },
    Rule {
        code: "OMP209",
        name: "implicit-mapping",
        family: Family::Performance,
        severity: Severity::Info,
        summary: "A function's kernels rely on implicit copies; the mappings omplens synthesizes move fewer bytes.",
        doc: include_str!("implicit_mapping.md"),
    },
    Rule {
        code: "OMP301",
        name: "uncoalesced-access",
        family: Family::Performance,
        severity: Severity::Warning,
        summary: "An access in a parallel loop of a kernel whose consecutive iterations are far apart in memory: a warp needs more memory requests than consecutive elements would take.",
        doc: include_str!("uncoalesced_access.md"),
    },
    Rule {
        code: "OMP302",
        name: "collapse-or-interchange",
        family: Family::Performance,
        severity: Severity::Warning,
        summary: "A parallel loop nest whose accesses coalesce after `collapse(k)` (or an interchange then `collapse(k)`), shown safe by the iteration-point difference test.",
        doc: include_str!("collapse_or_interchange.md"),
    },
];

/// The rule with this code (`OMP101`) or name (`stale-host-read`), case-insensitive.
pub fn lookup(code_or_name: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| {
        r.code.eq_ignore_ascii_case(code_or_name) || r.name.eq_ignore_ascii_case(code_or_name)
    })
}

/// The rule of a code that is known to exist.
pub(crate) fn rule(code: &str) -> &'static Rule {
    lookup(code).unwrap_or_else(|| panic!("unknown rule {code}"))
}

/// Every finding of every rule over the facts of `module`.
pub fn run(module: &Module, source: &str, facts: &Facts) -> Vec<Finding> {
    let cx = Context {
        module,
        source,
        facts,
        plan: OnceCell::new(),
        calls: OnceCell::new(),
        coalescing: OnceCell::new(),
    };
    let mut out = Vec::new();
    out.extend(stale_host_read::findings(&cx));
    out.extend(stale_device_read::findings(&cx));
    out.extend(unmapped_pointer::findings(&cx));
    out.extend(lost_scalar_write::findings(&cx));
    out.extend(uninitialized_device_read::findings(&cx));
    out.extend(section_too_small::findings(&cx));
    out.extend(section_past_allocation::findings(&cx));
    out.extend(entered_never_exited::findings(&cx));
    out.extend(update_not_present::findings(&cx));
    out.extend(copy_in_loop::findings(&cx));
    out.extend(redundant_copy::findings(&cx));
    out.extend(round_trip::findings(&cx));
    out.extend(unused_copy_in::findings(&cx));
    out.extend(unchanged_copy_out::findings(&cx));
    out.extend(allocation_in_loop::findings(&cx));
    out.extend(update_in_loop::findings(&cx));
    out.extend(scalar_map_to::findings(&cx));
    out.extend(implicit_mapping::findings(&cx));
    out.extend(uncoalesced_access::findings(&cx));
    out.extend(collapse_or_interchange::findings(&cx));
    out
}

/// What a rule sees.
pub struct Context<'a> {
    pub module: &'a Module,
    pub source: &'a str,
    pub facts: &'a Facts,
    plan: OnceCell<Plan>,
    calls: OnceCell<HashMap<FuncId, Vec<(FuncId, ExprId)>>>,
    coalescing: OnceCell<Vec<crate::coalesce::LoopReport>>,
}

impl Context<'_> {
    /// Values known where `func` uses them (macros of the file, locals set once).
    pub fn known_values(&self, func: FuncId) -> Values {
        known_values(self.module, func)
    }

    /// The direct calls of `func` in the module: (caller, call expression). Indexed once, so
    /// rules that follow data to callers stay linear in the size of the file.
    pub fn calls_to(&self, func: FuncId) -> &[(FuncId, ExprId)] {
        let calls = self.calls.get_or_init(|| {
            let mut out: HashMap<FuncId, Vec<(FuncId, ExprId)>> = HashMap::new();
            for (ci, caller) in self.module.functions.iter_enumerated() {
                for (ei, e) in caller.exprs.iter_enumerated() {
                    if let ExprKind::Call {
                        callee: Callee::Direct(id),
                        ..
                    } = &e.kind
                    {
                        out.entry(*id).or_default().push((ci, ei));
                    }
                }
            }
            out
        });
        calls.get(&func).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The synthesized mappings of the module (computed on first use).
    pub fn plan(&self) -> &Plan {
        self.plan.get_or_init(|| crate::plan::plan(self.module))
    }

    /// The coalescing analysis of the module's parallel loops (computed on first use).
    pub fn coalescing(&self) -> &[crate::coalesce::LoopReport] {
        self.coalescing
            .get_or_init(|| crate::coalesce::analyse(self.module, self.source))
    }
}
