//! OMP207: a `target update` in a loop copies data that does not change there on its source
//! side; it can move before (or after) the loop.

use super::common::{cost, finding, names_fixed_in_loop, trips, var_set_in, widest_loop};
use super::Context;
use crate::check::env::{CopyKind, Object};
use crate::check::{fixes, Finding, Related};
use crate::ir::cfg::LoopId;
use crate::ir::StmtKind;
use crate::rewrite::{self, Clause, Insertion, Side};
use super::{Code, Family, Rule};
use crate::check::Severity;

pub(super) const RULE: Rule = Rule {
    code: Code::OMP207,
    name: "update-in-loop",
    family: Family::Performance,
    severity: Severity::Warning,
    summary: "A `target update` inside a loop copies data that does not change in the loop on its source side; it can move out of the loop.",
    doc: include_str!("update_in_loop.md"),
    tags: &[],
};

pub fn findings(cx: &Context) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    // Per function, its statement tree: made once, not once per update (LULESH's `main`
    // has dozens).
    let mut trees: std::collections::HashMap<crate::ir::FuncId, crate::ir::stmt_tree::StmtTree> =
        std::collections::HashMap::new();
    for c in &cx.facts.copies {
        let (CopyKind::Update, Some(l0)) = (c.kind, c.in_loop) else {
            continue;
        };
        if !seen.insert(c.dir) {
            continue;
        }
        let items = cx.items(c.dir);
        // An update of the rows of an array of pointers names one row by a loop's counter:
        // another row each iteration.
        if items
            .motions
            .iter()
            .any(|m| crate::check::env::split::is_rows(&m.object))
        {
            continue;
        }
        let writes = |l: LoopId, o| cx.facts.accesses_in_loop(c.func, l, o).any(|a| a.write);
        // A copy to the device inside the loop (`target update to`, a `map(to:)`) reads the
        // host copy too: the `from` feeds it.
        let copies_out = |l: LoopId, o: &Object| {
            let Some(g) = cx.facts.cfgs[c.func].as_ref() else {
                return true;
            };
            cx.facts.copies.iter().any(|k| {
                k.func == c.func
                    && k.to_device
                    && &k.object == o
                    && k.in_loop.is_some_and(|i| g.loop_chain(i).any(|x| x == l))
            })
        };
        let host_touch = |l: LoopId, o: &Object| {
            cx.facts
                .accesses_in_loop(c.func, l, o)
                .any(|a| !a.on_device)
                || copies_out(l, o)
        };
        // A pointer the loop sets (buffers swapped each iteration) names other data on each
        // one: the update copies each of them, and once outside the loop only one.
        let retargeted = |l: LoopId, o: &Object| {
            let (Object::Var(v), Some(g)) = (o, cx.facts.cfgs[c.func].as_ref()) else {
                return false;
            };
            let f = cx.module.function(c.func);
            var_set_in(cx.module, f, f.stmt(g.loops[l].stmt).span, *v)
        };
        // The data under another name the interpretation does not follow (`int *d_val =
        // &val;`): any use of that name in the loop is a use of the data.
        let other_name_in_loop = |l: LoopId, o: &Object| {
            let (Object::Var(v), Some(g)) = (o, cx.facts.cfgs[c.func].as_ref()) else {
                return false;
            };
            let f = cx.module.function(c.func);
            let span = f.stmt(g.loops[l].stmt).span;
            let names = address_sources(cx.module, f, *v);
            f.exprs.iter().any(|e| {
                matches!(e.kind, crate::ir::ExprKind::Var(x) if names.contains(&x))
                    && span.start <= e.span.start
                    && e.span.end <= span.end
            })
        };
        // After the loop: copies to the host nobody on the host looks at inside the loop,
        // made on every iteration (not under an `if`: `if (t == 1) update from(..)` keeps the
        // first iteration's results) and after every device write of the loop (else the
        // host would get later results than the loop left it).
        let update = fixes::directive_stmt(cx.module, c.dir);
        let func = cx.module.function(c.func);
        let tree = &*trees
            .entry(c.func)
            .or_insert_with(|| crate::ir::stmt_tree::StmtTree::new(func));
        let every_iteration = |l: LoopId| {
            let (Some((_, s)), Some(g)) = (update, cx.facts.cfgs[c.func].as_ref()) else {
                return false;
            };
            let top = g.loops[l].stmt;
            tree.ancestors(s).take_while(|a| *a != top).all(|a| {
                let k = &func.stmt(a).kind;
                crate::ir::stmt_tree::is_loop(k)
                    || matches!(k, StmtKind::Compound(_) | StmtKind::Omp { .. })
            })
        };
        let at = cx.module.directive(c.dir).directive.span;
        let device_write_after = |l: LoopId, o: &Object| {
            let Some(g) = cx.facts.cfgs[c.func].as_ref() else {
                return true;
            };
            cx.facts.accesses_in_loop(c.func, l, o).any(|a| {
                a.on_device
                    && a.write
                    && g.block(a.block)
                        .nodes
                        .iter()
                        .any(|n| func.stmt(n.stmt).span.start >= at.end)
            })
        };
        let after = |l: LoopId| {
            every_iteration(l)
                && items.motions.iter().all(|m| {
                    !m.to_device
                        && !host_touch(l, &m.object)
                        && !other_name_in_loop(l, &m.object)
                        && !retargeted(l, &m.object)
                        && !device_write_after(l, &m.object)
                        && names_fixed_in_loop(cx, c.func, l, &m.text)
                })
        };
        // Before the loop: nothing in the loop changes the data on either side.
        let before = |l: LoopId| {
            items
                .motions
                .iter()
                .all(|m| {
                    !writes(l, &m.object)
                        && !other_name_in_loop(l, &m.object)
                        && !retargeted(l, &m.object)
                        && names_fixed_in_loop(cx, c.func, l, &m.text)
                })
        };
        let (side, l) = match widest_loop(cx, c.func, l0, after) {
            Some(l) => (Side::After, l),
            None => match widest_loop(cx, c.func, l0, before) {
                Some(l) => (Side::Before, l),
                None => continue,
            },
        };
        let Some(g) = cx.facts.cfgs[c.func].as_ref() else {
            continue;
        };
        let loop_stmt = g.loops[l].stmt;
        let loop_span = cx.module.function(c.func).stmt(loop_stmt).span;
        let d = &cx.module.directive(c.dir).directive;
        let mult = trips(cx, c.func, l);
        let bytes: Option<u64> = items.motions.iter().map(|m| m.bytes).sum();
        let where_ = if side == Side::After {
            "after"
        } else {
            "before"
        };
        let mut x = finding(
            RULE.code,
            true,
            d.span,
            format!(
                "this `target update` runs on every iteration of the loop at line {} ({}) but {}; it can move {where_} the loop",
                super::common::line(cx, loop_span),
                cost(bytes, Some(mult)),
                if side == Side::After {
                    "the host does not use the data inside the loop"
                } else {
                    "the data does not change inside the loop"
                }
            ),
        );
        x.bytes = bytes;
        x.multiplier = Some(mult);
        x.related.push(Related {
            span: crate::ir::Span {
                start: loop_span.start,
                end: loop_span.start,
            },
            message: "the loop".into(),
            header: None,
        });
        let mut clauses: Vec<Clause> = Vec::new();
        for m in &items.motions {
            let name = if m.to_device { "to" } else { "from" };
            match clauses.iter_mut().find(|k| k.name == name) {
                Some(k) => k.items.push(m.text.clone()),
                None => clauses.push(fixes::clause(name, None, &m.text)),
            }
        }
        let mut edits = rewrite::render(
            cx.source,
            &[Insertion::Standalone {
                anchor: fixes::anchor_in(tree, loop_stmt),
                side,
                directive: "target update".into(),
                clauses,
            }],
        );
        if !edits.is_empty() {
            edits.push(fixes::remove_lines(cx.source, d.span));
            edits.sort_by_key(|e| e.start);
            x.fixes = fixes::fix(format!("move the update {where_} the loop"), edits);
        }
        out.push(x);
    }
    out
}

/// The variables whose storage pointer `v` is set to point into by taking their address
/// (`int *d = &val;`, `double *row = &a[k];`, `p = arr` of an array): the data's other names.
fn address_sources(
    module: &crate::ir::Module,
    func: &crate::ir::Function,
    v: crate::ir::VarId,
) -> Vec<crate::ir::VarId> {
    use crate::ir::{ExprKind, TypeKind, UnaryOp};
    let root = |mut e: crate::ir::ExprId| loop {
        match &func.expr(func.strip_casts(e)).kind {
            ExprKind::Subscript(b, _) => e = *b,
            ExprKind::Member { base: Some(b), arrow: false, .. } => e = *b,
            ExprKind::Var(x) => return Some(*x),
            _ => return None,
        }
    };
    let source = |r: crate::ir::ExprId| match &func.expr(func.strip_casts(r)).kind {
        ExprKind::Unary(UnaryOp::AddrOf, x) => root(*x),
        ExprKind::Var(x) if matches!(module.var(*x).ty.kind, TypeKind::Array { .. }) => Some(*x),
        _ => None,
    };
    let mut out: Vec<crate::ir::VarId> = func
        .exprs
        .iter()
        .filter_map(|e| match e.kind {
            ExprKind::Assign(None, l, r) if func.var_through_casts(l) == Some(v) => source(r),
            _ => None,
        })
        .collect();
    for st in func.stmts.iter() {
        if let StmtKind::Decl(ds) = &st.kind {
            out.extend(
                ds.iter()
                    .filter(|(x, _)| *x == v)
                    .filter_map(|(_, init)| init.and_then(source)),
            );
        }
    }
    out.retain(|&x| x != v);
    out
}
