//! The text of `omplens ir`: the IR of every function followed by what the base analyses
//! say of it (side effects its callers see, true dependencies between host and device).
//! Stable, and compared by the corpus snapshot tests.

use crate::ir::cfg::{self, Exec};
use crate::ir::print::{pos, render_module_with};
use crate::ir::{device, Function, Module};
use crate::semantics::effects::{self, Summary};
use crate::semantics::validity::{self, Dependency};
use std::fmt::Write;

/// The IR of `m` with each function's effects and dependencies.
pub fn render_ir(m: &Module) -> String {
    let execs = device::classify(m);
    let cfgs = cfg::build_all(m, &execs);
    let sums = effects::summarize_with(m, &cfgs);
    let deps = validity::all_dependencies_with(m, &cfgs, &sums);
    render_module_with(m, &cfgs, &mut |id, f, out| {
        render_effects(m, f, &sums[id], execs[id], out);
        render_dependencies(m, f, &deps[id], out);
    })
}

/// One line: what the function does to data its callers can see.
fn render_effects(m: &Module, f: &Function, s: &Summary, exec: Exec, out: &mut String) {
    let mut parts = Vec::new();
    for (p, e) in f.params.iter().zip(&s.params) {
        if !e.is_empty() {
            parts.push(format!("*{}: {}", m.var(*p).name, e.spaces(exec)));
        }
    }
    if !s.this.is_empty() {
        parts.push(format!("this: {}", s.this.spaces(exec)));
    }
    for (g, e) in &s.globals {
        if !e.is_empty() {
            parts.push(format!("{}: {}", m.var(*g).name, e.spaces(exec)));
        }
    }
    for (member, e) in &s.members {
        if !e.is_empty() {
            parts.push(format!(".{member}: {}", e.spaces(exec)));
        }
    }
    if !parts.is_empty() {
        let _ = writeln!(out, "  effects: {}", parts.join("; "));
    }
}

/// One line per true dependency: data read where it may be stale.
fn render_dependencies(m: &Module, f: &Function, deps: &[Dependency], out: &mut String) {
    use validity::{Direction, Object};
    for d in deps {
        let name = match &d.object {
            Object::Var(v) => m.var(*v).name.clone(),
            Object::Member(s) => format!("this->{s}"),
            Object::Field(v, s) => crate::check::env::field_name(&m.var(*v).name, s),
        };
        let dir = match d.direction {
            Direction::ToDevice => "host->device",
            Direction::ToHost => "device->host",
        };
        let carried = d
            .loop_carried
            .map(|l| format!(" (carried by L{})", l.0))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  dependency {name}: {dir} at {}{carried}",
            pos(m, Some(f.stmt(d.stmt).span))
        );
    }
}
