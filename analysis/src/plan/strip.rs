//! `omplens fix --replace`: the edits that remove a file's own data-mapping constructs
//! (`target data`, `target enter/exit data`, `target update` lines, and `map` clauses on
//! kernels) so fresh ones can be synthesized.

use crate::ir::{device, BindingTarget, Callee, ExprKind, FuncId, Module, VarId};
use crate::text::TextEdit;
use std::collections::HashSet;

/// The variables `func` passes (in any argument expression: `p`, `p + k`, `(float *)p`,
/// `&p[0]`) to a call omplens cannot see into: a project function without a body here, one
/// whose header body holds OpenMP directives, one it does not analyse, a call it cannot
/// resolve, or a lambda's captures.
fn passed_to_unseen_calls(module: &Module, func: FuncId) -> HashSet<VarId> {
    let f = module.function(func);
    let mut out = HashSet::new();
    for e in &f.exprs {
        let ExprKind::Call { callee, args, .. } = &e.kind else {
            continue;
        };
        let unseen = match callee {
            Callee::Direct(c) => module.function(*c).unseen(),
            Callee::Indirect(_) | Callee::Named(_) => true,
        };
        if !unseen {
            continue;
        }
        let mut stack: Vec<_> = args.clone();
        while let Some(a) = stack.pop() {
            let kind = &f.expr(a).kind;
            // An element's value (`g(a[i])`, `g(*p)`) gives the callee no way to the data.
            let element = matches!(
                kind,
                ExprKind::Subscript(..) | ExprKind::Unary(crate::ir::UnaryOp::Deref, _)
            );
            if element && f.expr(a).class == crate::ir::TypeClass::Scalar {
                continue;
            }
            if let ExprKind::Var(v) = kind {
                out.insert(*v);
            }
            stack.extend(device::expr_children(kind));
        }
    }
    out
}

/// Local pointers of each function set only from one other variable's pointer (through
/// casts and offsets: `T *a = (T *) b;`), with that variable.
fn copies_of_pointers(module: &Module) -> Vec<(FuncId, VarId, VarId)> {
    let mut out = Vec::new();
    for (fid, f) in module.functions.iter_enumerated() {
        let aliases = crate::semantics::effects::local_aliases(module, f, |_| false);
        for (v, roots) in aliases.roots {
            if let [w] = roots[..] {
                out.push((fid, v, w));
            }
        }
    }
    out
}

/// Start of the line holding `offset`.
fn line_start(src: &str, offset: usize) -> usize {
    src[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// Just past the newline ending the line holding `offset` (or the end of the text).
fn line_end(src: &str, offset: usize) -> usize {
    src[offset..]
        .find('\n')
        .map_or(src.len(), |i| offset + i + 1)
}

/// Edits deleting every data-mapping directive line and every `map` clause of `module`'s main
/// file (`source` is its text). A directive that governs a block leaves the block in place.
/// `keep` lists (function, variable) pairs, by qualified and plain name, whose constructs stay.
pub fn strip_mappings(module: &Module, source: &str, keep: &[(String, String)]) -> Vec<TextEdit> {
    let mut edits = Vec::new();
    // A data construct naming data that goes to a call omplens cannot see into (its kernels
    // in a header or another file, a template or lambda it cannot resolve), or data whose
    // extent the synthesis cannot bound (`keep`), stays as the programmer wrote it: nothing
    // synthesized could replace it (issue 16: never map less than the input did). So do the
    // other constructs naming any variable a kept one names (its `update`s, the `exit data`
    // of its `enter data`): the synthesis leaves data the programmer maps alone.
    let mut kept_vars: HashSet<(FuncId, VarId)> = HashSet::new();
    for f in module.functions.indices() {
        for v in passed_to_unseen_calls(module, f) {
            kept_vars.insert((f, v));
        }
    }
    for (id, var) in module.vars.iter_enumerated() {
        if let Some(f) = var.function {
            let func = &module.function(f).qualified_name;
            if keep.iter().any(|(kf, kv)| kf == func && *kv == var.name) {
                kept_vars.insert((f, id));
            }
        }
    }
    // The programmer may map a kept pointer through a local alias (`double *co = (double *)
    // c;` then `map(to: co[0:n])`): the alias is kept with it.
    let aliases = copies_of_pointers(module);
    loop {
        let more: Vec<(FuncId, VarId)> = aliases
            .iter()
            .filter_map(|&(f, a, b)| {
                if kept_vars.contains(&(f, a)) && !kept_vars.contains(&(f, b)) {
                    Some((f, b))
                } else if kept_vars.contains(&(f, b)) && !kept_vars.contains(&(f, a)) {
                    Some((f, a))
                } else {
                    None
                }
            })
            .collect();
        if more.is_empty() {
            break;
        }
        kept_vars.extend(more);
    }
    let vars_of = |d: &crate::ir::DirectiveInfo| -> Vec<(FuncId, VarId)> {
        let Some(f) = d.function else {
            return Vec::new();
        };
        d.bindings
            .iter()
            .filter_map(|b| match b.target {
                BindingTarget::Var(v) => Some((f, v)),
                _ => None,
            })
            .collect()
    };
    // A directive written through a macro or `_Pragma` stays as written: its text is not
    // what the compiler reads, so no edit of it can be checked against its meaning.
    let mut kept_dirs: HashSet<crate::ir::DirId> = HashSet::new();
    for (id, d) in module.directives.iter_enumerated() {
        if module.touches_macro_text(d.directive.span) {
            kept_dirs.insert(id);
            kept_vars.extend(vars_of(d));
        }
    }
    loop {
        let mut grew = false;
        for (id, d) in module.directives.iter_enumerated() {
            if !d.directive.kind.is_data_mapping() || kept_dirs.contains(&id) {
                continue;
            }
            let vars = vars_of(d);
            if vars.iter().any(|x| kept_vars.contains(x)) {
                kept_dirs.insert(id);
                kept_vars.extend(vars);
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let picks_device: std::collections::HashSet<crate::ir::FuncId> = module
        .directives
        .iter()
        .filter_map(|d| d.function)
        .filter(|f| super::device_named(module, *f).is_some())
        .collect();
    for (id, d) in module.directives.iter_enumerated() {
        let dir = &d.directive;
        // A directive of a header, of a function omplens does not analyse, whose body
        // includes a header's statements or whose constructs pick a device (nothing would be
        // synthesized in its place), or attached to no function it lowered stays.
        let analysed = d.function.is_some_and(|id| {
            let f = module.function(id);
            f.not_analysed.is_none() && f.included_headers.is_empty() && !picks_device.contains(&id)
        });
        if kept_dirs.contains(&id) || d.origin.is_some() || !analysed {
            continue;
        }
        let (start, end) = (dir.span.start as usize, dir.span.end as usize);
        if end > source.len()
            || start > end
            || !source.is_char_boundary(start)
            || !source.is_char_boundary(end)
        {
            continue;
        }
        if dir.kind.is_data_mapping() {
            let ls = line_start(source, start);
            let only_space_before = source[ls..start].trim().is_empty();
            let le = line_end(source, end);
            let rest = source[end..le].trim();
            let only_comment_after =
                rest.is_empty() || rest.starts_with("//") || rest.starts_with("/*");
            if only_space_before && only_comment_after {
                edits.push(TextEdit {
                    start: ls as u32,
                    end: le as u32,
                    text: String::new(),
                });
            } else {
                edits.push(TextEdit {
                    start: start as u32,
                    end: end as u32,
                    text: String::new(),
                });
            }
        } else if dir.kind.is_offload_kernel() {
            for c in &dir.clauses {
                if c.name() != "map" {
                    continue;
                }
                let names_kept = d.function.is_some_and(|f| {
                    d.bindings.iter().any(|b| {
                        c.span.start <= b.span.start
                            && b.span.end <= c.span.end
                            && matches!(b.target, BindingTarget::Var(v) if kept_vars.contains(&(f, v)))
                    })
                });
                if names_kept {
                    continue;
                }
                // The clause and the blanks before it.
                let mut s = c.span.start as usize;
                while s > 0 && matches!(source.as_bytes()[s - 1], b' ' | b'\t') {
                    s -= 1;
                }
                edits.push(TextEdit {
                    start: s as u32,
                    end: c.span.end,
                    text: String::new(),
                });
            }
        }
    }
    edits.sort_by_key(|e| (e.start, e.end));
    // Overlaps cannot happen between distinct directives; keep the first of any that do.
    let mut out: Vec<TextEdit> = Vec::new();
    for e in edits {
        if out.last().is_some_and(|l| e.start < l.end) {
            continue;
        }
        out.push(e);
    }
    out
}

/// `keep` grown over calls: a parameter kept in its function keeps, in every caller of that
/// function in `module`, the variable passed for it (`gelu(output, …)` keeps `output` where
/// the callee's `src` could not be bounded), up through the callers' own callers.
pub fn keep_through_callers(module: &Module, keep: &[(String, String)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = keep.to_vec();
    let mut i = 0;
    while i < out.len() {
        let (func, var) = out[i].clone();
        i += 1;
        let callees: Vec<(FuncId, usize)> = module
            .functions
            .iter_enumerated()
            .filter(|(_, f)| f.qualified_name == func)
            .filter_map(|(id, f)| {
                let k = f.params.iter().position(|p| module.var(*p).name == var)?;
                Some((id, k))
            })
            .collect();
        for f in &module.functions {
            for e in &f.exprs {
                let ExprKind::Call {
                    callee: Callee::Direct(c),
                    args,
                    ..
                } = &e.kind
                else {
                    continue;
                };
                for (callee, k) in &callees {
                    if c != callee {
                        continue;
                    }
                    let Some(v) = args.get(*k).and_then(|a| f.var_through_casts(*a)) else {
                        continue;
                    };
                    let item = (f.qualified_name.clone(), module.var(v).name.clone());
                    if !out.contains(&item) {
                        out.push(item);
                    }
                }
            }
        }
    }
    out
}
