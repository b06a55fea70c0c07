//! What omplens cannot see, per function (`omplens check --verbose`): the calls and constructs
//! a finding's certainty may rest on. A finding that depends on one of them is a warning that
//! names it; this lists them all, also where no finding came of them.

use crate::ir::{Callee, ExprKind, FuncId, Module, Span};

const LAMBDA: &str = "a lambda (its body is not analysed)";

/// One unknown in a function's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    pub function: FuncId,
    /// Where (the call, the lambda; the function's name when it is not analysed at all).
    pub span: Option<Span>,
    pub what: String,
}

/// The unknowns of every function with a body in the main file, in order of functions and,
/// within one, of the expressions; each said once per function.
pub fn unknowns(module: &Module) -> Vec<Unknown> {
    let mut out = Vec::new();
    for (id, f) in module.functions.iter_enumerated() {
        if !f.has_body || !f.in_main_file {
            continue;
        }
        let mut said: Vec<String> = Vec::new();
        let mut push = |span: Option<Span>, what: String| {
            if !said.contains(&what) {
                said.push(what.clone());
                out.push(Unknown {
                    function: id,
                    span,
                    what,
                });
            }
        };
        if let Some(why) = &f.not_analysed {
            push(
                f.name_span.or(f.span),
                format!("`{}` is not analysed: {why}", f.qualified_name),
            );
            continue;
        }
        for e in f.exprs.iter() {
            let what = match &e.kind {
                ExprKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } => {
                    let g = module.function(*g);
                    let name = &g.qualified_name;
                    if name.starts_with("(lambda at ") {
                        // Calling a lambda: its body was said where it is written.
                        continue;
                    } else if g.offloads_unseen {
                        format!("`{name}` has OpenMP directives in a header that omplens could not read")
                    } else if let Some(file) = g.launches_in_file() {
                        format!(
                            "`{name}` maps data or launches kernels in `{file}`, which omplens does not follow across files"
                        )
                    } else if g.not_analysed.is_some() {
                        format!("omplens does not analyse `{name}`")
                    } else if !g.has_body && !g.in_system_header && g.external.is_none() {
                        format!("`{name}` has no body in this file nor in another file of the compile database")
                    } else {
                        continue;
                    }
                }
                // (A lambda that captures variables is lowered as a call of its captures.)
                ExprKind::Call {
                    callee: Callee::Named(n),
                    ..
                } if n == "a lambda" => LAMBDA.to_string(),
                ExprKind::Call {
                    callee: Callee::Named(n),
                    ..
                } if n == crate::ir::LAMBDA_CONDITIONAL_CODE => {
                    "a lambda's code under a condition or loop, or its arguments passed by \
                     reference (taken as may read and write)"
                        .to_string()
                }
                ExprKind::Call {
                    callee: Callee::Named(n),
                    ..
                } => format!("the call of `{n}` depends on a template parameter (not resolved)"),
                ExprKind::Call {
                    callee: Callee::Indirect(c),
                    ..
                } => match &f.expr(*c).kind {
                    ExprKind::Member { field, .. } if !field.is_empty() => format!(
                        "the call of member `{field}` depends on a template parameter (not resolved)"
                    ),
                    ExprKind::Member { .. } => {
                        "a member call that depends on a template parameter (not resolved)"
                            .to_string()
                    }
                    _ => "a call through a function pointer (the callee is not known)".to_string(),
                },
                ExprKind::Lambda => LAMBDA.to_string(),
                _ => continue,
            };
            push(Some(e.span), what);
        }
    }
    out
}
