//! `omplens plan`: the plan in words, per function: what moves where, why, and how many bytes
//! when the sizes are known.

use super::{FunctionPlan, MappedItem, Motion, Plan, Side};
use crate::ir::Module;
use std::fmt::Write;

fn bytes(b: Option<u64>) -> String {
    match b {
        Some(b) => format!("{b} B"),
        None => "size not known statically".to_string(),
    }
}

fn line(module: &Module, offset: u32) -> u32 {
    module.line_col(offset).0
}

fn item_line(out: &mut String, i: &MappedItem) {
    let what = match i.map_type {
        super::MapType::To => "copied to the device at entry",
        super::MapType::From => "copied back to the host at exit",
        super::MapType::ToFrom => "copied in at entry and back at exit",
        super::MapType::Alloc => "allocated on the device only",
    };
    let _ = writeln!(
        out,
        "    map({}: {}): {} ({})",
        i.map_type.name(),
        i.item,
        what,
        bytes(i.bytes)
    );
}

fn function(out: &mut String, module: &Module, f: &FunctionPlan) {
    let _ = writeln!(out, "fn {}:", f.name);
    if let Some(r) = &f.region {
        let _ = writeln!(
            out,
            "  {}: lines {}-{}",
            if r.unstructured {
                "target enter/exit data"
            } else {
                "target data region"
            },
            line(module, r.first.stmt.start),
            line(module, r.last.stmt.end)
        );
        for i in &r.items {
            item_line(out, i);
        }
        for c in &r.hosted_calls {
            let _ = writeln!(
                out,
                "    keeps the data of `{}` on the device across its calls",
                module.function(*c).qualified_name
            );
        }
    }
    for u in &f.updates {
        let (dir, motion) = match u.motion {
            Motion::To => ("to", "host -> device"),
            Motion::From => ("from", "device -> host"),
        };
        let side = match u.side {
            Side::Before => "before",
            Side::After => "after",
        };
        let at = match u.side {
            Side::Before => u.anchor.stmt.start,
            Side::After => u.anchor.stmt.end,
        };
        let _ = writeln!(
            out,
            "  target update {dir}({}) {side} line {}: {motion}, {} ({})",
            u.item,
            line(module, at),
            u.why,
            bytes(u.bytes)
        );
    }
    for k in &f.kernels {
        let d = module.directive(k.directive);
        let _ = write!(
            out,
            "  kernel at line {}:",
            line(module, d.directive.span.start)
        );
        if !k.maps.is_empty() {
            let _ = write!(out, " (lone kernel, maps on the directive)");
        }
        let _ = writeln!(out);
        for i in &k.maps {
            item_line(out, i);
        }
        if !k.written_scalars.is_empty() {
            let _ = writeln!(
                out,
                "    map(tofrom: {}): scalars the kernel writes",
                k.written_scalars.join(", ")
            );
        }
        if !k.firstprivate.is_empty() {
            let _ = writeln!(
                out,
                "    firstprivate({}): read-only scalars passed by value",
                k.firstprivate.join(", ")
            );
        }
        if !k.device_pointers.is_empty() {
            let _ = writeln!(
                out,
                "    is_device_ptr({}): pointers to device memory (omp_target_alloc)",
                k.device_pointers.join(", ")
            );
        }
    }
}

/// The plan as text.
pub fn render(module: &Module, plan: &Plan) -> String {
    let mut out = String::new();
    for f in &plan.functions {
        function(&mut out, module, f);
    }
    if plan.functions.is_empty() {
        out.push_str("nothing to map: no kernel needs data omplens can move\n");
    }
    for d in &plan.diagnostics {
        let (l, c) = module.line_col(d.span.start);
        let sev = d.severity.name();
        let _ = writeln!(out, "{l}:{c}: {sev}: {}", d.message);
    }
    out
}
