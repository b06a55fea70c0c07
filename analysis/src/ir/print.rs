//! The readable, stable text form printed by `omplens ir` (and compared by snapshot tests).
//! Positions are `line:col`; nothing depends on hash order or absolute paths.

use super::access::{Access, PathElem, Root};
use super::cfg::{self, Cfg, NodeKind};
use super::{
    device, Callee, ExprId, ExprKind, FuncId, Function, IndexVec, Module, Span, StmtKind, Storage,
    Var,
};
use std::fmt::Write;

/// Expressions longer than this are cut in the listing.
const MAX_EXPR_CHARS: usize = 120;

/// The IR alone (no analysis): what the front end made of the file.
pub fn render_module(m: &Module) -> String {
    let execs = device::classify(m);
    let cfgs = cfg::build_all(m, &execs);
    render_module_with(m, &cfgs, &mut |_, _, _| {})
}

/// The IR with lines an analysis adds after each function's (`annotate(id, function, out)`;
/// `omplens ir` adds side effects and dependencies), over the functions' AST-CFGs `cfgs`.
pub fn render_module_with(
    m: &Module,
    cfgs: &IndexVec<FuncId, Option<Cfg>>,
    annotate: &mut dyn FnMut(FuncId, &Function, &mut String),
) -> String {
    let mut out = String::new();
    let file = std::path::Path::new(&m.path)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let lang = match m.language {
        Some(super::Language::C) => "C",
        Some(super::Language::Cxx) => "C++",
        None => "?",
    };
    let _ = writeln!(out, "module {file} ({lang})");
    if !m.diagnostics.is_empty() {
        let _ = writeln!(out, "diagnostics:");
        for d in &m.diagnostics {
            let sev = d.severity.name();
            let _ = writeln!(
                out,
                "  {} {sev} [{}] {}",
                pos(m, d.span),
                d.source,
                d.message
            );
        }
    }
    let globals: Vec<_> = m.globals().filter(|(_, v)| v.in_main_file).collect();
    if !globals.is_empty() {
        let _ = writeln!(out, "globals:");
        for (_, v) in globals {
            let _ = writeln!(out, "  {}", var_line(m, v));
        }
    }
    for (id, f) in m.functions.iter_enumerated() {
        if let Some(g) = &cfgs[id] {
            render_function(m, id, f, g, &mut out);
            annotate(id, f, &mut out);
        }
    }
    if !m.directives.is_empty() {
        let _ = writeln!(out, "directives:");
        for d in &m.directives {
            let owner = match d.function {
                Some(f) => format!(" in {}", m.function(f).qualified_name),
                None => String::new(),
            };
            let governs = match (d.governs, d.function) {
                (Some(s), Some(f)) => {
                    let st = m.function(f).stmt(s);
                    format!(" governs {}", range(m, st.span))
                }
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "  {} {}{owner}{governs}",
                pos(m, Some(d.directive.span)),
                d.directive
            );
            if !d.bindings.is_empty() {
                let b: Vec<String> = d.bindings.iter().map(|b| binding(m, b)).collect();
                let _ = writeln!(out, "    names: {}", b.join(", "));
            }
        }
    }
    out
}

fn render_function(m: &Module, id: FuncId, f: &Function, g: &Cfg, out: &mut String) {
    let exec = g.exec;
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let v = m.var(*p);
            format!("{}: {}", v.name, v.ty.spelling)
        })
        .collect();
    let mut flags = vec![exec.name().to_string()];
    if f.declare_target {
        flags.push("declare-target".into());
    }
    if f.is_method {
        flags.push("method".into());
    }
    if f.is_template {
        flags.push("template".into());
    }
    let _ = writeln!(
        out,
        "\nfn {}({}) -> {} [{}] at {}",
        f.qualified_name,
        params.join(", "),
        f.return_type.spelling,
        flags.join(", "),
        pos(m, f.name_span)
    );
    if let Some(why) = &f.not_analysed {
        let _ = writeln!(out, "  not analysed: {why}");
    }
    let locals: Vec<&Var> = m
        .vars
        .iter()
        .filter(|v| {
            v.function == Some(id) && matches!(v.storage, Storage::Local | Storage::StaticLocal)
        })
        .collect();
    for v in &f.params {
        let _ = writeln!(out, "  param {}", var_line(m, m.var(*v)));
    }
    for (k, member) in &f.member_stores {
        let name = f.params.get(*k).map_or("?", |p| m.var(*p).name.as_str());
        let _ = writeln!(out, "  stores param {name} into member {member}");
    }
    for v in locals {
        let _ = writeln!(out, "  local {}", var_line(m, v));
    }
    render_cfg(m, f, g, out);
}

fn render_cfg(m: &Module, f: &Function, g: &Cfg, out: &mut String) {
    for (i, l) in g.loops.iter().enumerate() {
        let st = f.stmt(l.stmt);
        let parent = l
            .parent
            .map(|p| format!(" in L{}", p.0))
            .unwrap_or_default();
        let ind = l
            .induction
            .map(|v| format!(" induction {}", m.var(v).name))
            .unwrap_or_default();
        let header = match &st.kind {
            StmtKind::For(fl) => {
                let part = |e: Option<ExprId>| e.map(|e| expr(m, f, e)).unwrap_or_default();
                let init = fl.init.map(|s| stmt_text(m, f, s)).unwrap_or_default();
                format!(" ({init}; {}; {})", part(fl.cond), part(fl.step))
            }
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "  loop L{i} {:?} at {} depth {}{parent} {} header bb{}{ind}{header}",
            l.kind,
            pos(m, Some(st.span)),
            l.depth,
            l.exec.name(),
            l.header.0,
        );
    }
    for (i, b) in g.blocks.iter().enumerate() {
        let name = match i {
            0 => " (entry)",
            1 => " (exit)",
            _ => "",
        };
        let lp = b
            .loop_id
            .map(|l| format!(" in L{}", l.0))
            .unwrap_or_default();
        let succs: Vec<String> = b.succs.iter().map(|s| format!("bb{}", s.0)).collect();
        let _ = writeln!(out, "  bb{i}{name}{lp} -> [{}]", succs.join(", "));
        for n in &b.nodes {
            let st = f.stmt(n.stmt);
            let what = match n.kind {
                NodeKind::Enter(d) => format!("enter {}", m.directive(d).directive.kind.name()),
                NodeKind::Exit(d) => format!("exit {}", m.directive(d).directive.kind.name()),
                NodeKind::Standalone(d) => m.directive(d).directive.to_string(),
                NodeKind::Decl | NodeKind::ForInit if matches!(st.kind, StmtKind::Decl(_)) => {
                    format!("{} {}", kind_name(n.kind), stmt_text(m, f, n.stmt))
                }
                _ => {
                    let es: Vec<String> = n.exprs.iter().map(|e| expr(m, f, *e)).collect();
                    format!("{} {}", kind_name(n.kind), es.join(", "))
                }
            };
            let _ = writeln!(
                out,
                "    {} {} {}",
                pos(m, Some(st.span)),
                n.exec.name(),
                what.trim_end()
            );
            if !n.accesses.is_empty() {
                let acc: Vec<String> = n.accesses.iter().map(|a| access(m, f, a)).collect();
                let _ = writeln!(out, "      accesses: {}", acc.join("; "));
            }
        }
    }
}

fn kind_name(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Stmt => "stmt",
        NodeKind::Decl => "decl",
        NodeKind::Cond => "cond",
        NodeKind::ForInit => "forInit",
        NodeKind::ForStep => "forStep",
        NodeKind::Return => "return",
        NodeKind::Enter(_) => "enter",
        NodeKind::Exit(_) => "exit",
        NodeKind::Standalone(_) => "directive",
    }
}

fn access(m: &Module, f: &Function, a: &Access) -> String {
    let mut s = match a.root {
        Root::Var(v) => m.var(v).name.clone(),
        Root::This => "this".to_string(),
    };
    let mut i = 0;
    while i < a.path.len() {
        match (&a.path[i], a.path.get(i + 1)) {
            (PathElem::Deref, Some(PathElem::Member(name))) => {
                s = format!("{s}->{name}");
                i += 1;
            }
            (PathElem::Deref, _) => s = format!("*{s}"),
            (PathElem::Member(name), _) => s = format!("{s}.{name}"),
            (PathElem::Index(e), _) => s = format!("{s}[{}]", expr(m, f, *e)),
        }
        i += 1;
    }
    let via = match &a.escape {
        Some(super::access::Escape::CallArg { callee, index }) => {
            let name = callee
                .map(|c| m.function(c).name.clone())
                .unwrap_or_else(|| "?".into());
            match index {
                Some(i) => format!(" (arg {i} of {name})"),
                None => format!(" (object of {name})"),
            }
        }
        Some(super::access::Escape::AddressTaken) => " (address taken)".into(),
        None => String::new(),
    };
    format!("{} {s}{via}", a.kind.name())
}

fn binding(m: &Module, b: &super::Binding) -> String {
    match b.target {
        super::BindingTarget::Var(v) => {
            let var = m.var(v);
            let storage = match var.storage {
                Storage::Global | Storage::StaticGlobal => "global",
                Storage::StaticLocal | Storage::Local => "local",
                Storage::Parameter => "param",
            };
            format!("{} = {storage} at {}", b.name, pos(m, var.span))
        }
        super::BindingTarget::Member => format!("{} = this->{}", b.name, b.name),
        super::BindingTarget::This => "this".to_string(),
        super::BindingTarget::Unresolved => format!("{} = ?", b.name),
    }
}

fn var_line(m: &Module, v: &Var) -> String {
    let size =
        v.ty.size
            .map(|s| format!(", {s} bytes"))
            .unwrap_or_default();
    let storage = match v.storage {
        Storage::Global => "global",
        Storage::StaticGlobal => "static global",
        Storage::StaticLocal => "static local",
        Storage::Local => "local",
        Storage::Parameter => "param",
    };
    let mut extra = String::new();
    if v.ty.is_const {
        extra.push_str(", const");
    }
    if v.declare_target {
        extra.push_str(", declare-target");
    }
    format!(
        "{}: {} ({}{size}, {storage}{extra}) at {}",
        v.name,
        v.ty.spelling,
        v.ty.shape(),
        pos(m, v.span)
    )
}

pub(crate) fn pos(m: &Module, s: Option<Span>) -> String {
    match s {
        Some(s) => point(m, s.start),
        None => "-".into(),
    }
}

/// `line:column` in the main file; `header+byte` in a header whose body omplens lowered.
fn point(m: &Module, offset: u32) -> String {
    match super::header_band::offset_in_header(offset) {
        Some(o) => format!("header+{o}"),
        None => {
            let (l, c) = m.line_col(offset);
            format!("{l}:{c}")
        }
    }
}

fn range(m: &Module, s: Span) -> String {
    format!("{}-{}", point(m, s.start), point(m, s.end))
}

fn stmt_text(m: &Module, f: &Function, s: super::StmtId) -> String {
    match &f.stmt(s).kind {
        StmtKind::Decl(ds) => ds
            .iter()
            .map(|(v, init)| match init {
                Some(i) => format!("{} = {}", m.var(*v).name, expr(m, f, *i)),
                None => m.var(*v).name.clone(),
            })
            .collect::<Vec<_>>()
            .join(", "),
        StmtKind::Expr(e) => expr(m, f, *e),
        _ => "…".into(),
    }
}

/// An expression as C-like text, cut at `MAX_EXPR_CHARS`.
pub fn expr(m: &Module, f: &Function, e: ExprId) -> String {
    let mut s = String::new();
    write_expr(m, f, e, &mut s, 0);
    if s.chars().count() > MAX_EXPR_CHARS {
        s = s.chars().take(MAX_EXPR_CHARS).collect::<String>() + "…";
    }
    s
}

fn write_expr(m: &Module, f: &Function, e: ExprId, s: &mut String, depth: usize) {
    if depth > 64 || s.len() > MAX_EXPR_CHARS * 2 {
        s.push('…');
        return;
    }
    let d = depth + 1;
    let sub = |e: ExprId, s: &mut String| {
        let compound = matches!(
            f.expr(e).kind,
            ExprKind::Binary(..) | ExprKind::Assign(..) | ExprKind::Cond(..)
        );
        if compound {
            s.push('(');
        }
        write_expr(m, f, e, s, d);
        if compound {
            s.push(')');
        }
    };
    match &f.expr(e).kind {
        ExprKind::Var(v) => s.push_str(&m.var(*v).name),
        ExprKind::Func(id) => s.push_str(&m.function(*id).name),
        ExprKind::Int { text, .. } => s.push_str(text),
        ExprKind::Float(t) | ExprKind::Char(t) => s.push_str(t),
        ExprKind::Str => s.push_str("\"…\""),
        ExprKind::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        ExprKind::NullPtr => s.push_str("nullptr"),
        ExprKind::This => s.push_str("this"),
        ExprKind::Unary(op, x) => {
            if op.is_postfix() {
                sub(*x, s);
                s.push_str(op.spelling());
            } else {
                s.push_str(op.spelling());
                sub(*x, s);
            }
        }
        ExprKind::Binary(op, a, b) => {
            sub(*a, s);
            let _ = write!(s, " {} ", op.spelling());
            sub(*b, s);
        }
        ExprKind::Assign(op, a, b) => {
            sub(*a, s);
            let _ = write!(s, " {}= ", op.map(|o| o.spelling()).unwrap_or(""));
            sub(*b, s);
        }
        ExprKind::Subscript(a, i) => {
            sub(*a, s);
            s.push('[');
            write_expr(m, f, *i, s, d);
            s.push(']');
        }
        ExprKind::Member { base, field, arrow } => {
            if let Some(b) = base {
                sub(*b, s);
                s.push_str(if *arrow { "->" } else { "." });
            }
            s.push_str(field);
        }
        ExprKind::Call {
            callee,
            receiver,
            args,
        } => {
            if let Some(r) = receiver {
                sub(*r, s);
                s.push('.');
            }
            match callee {
                Callee::Direct(id) => s.push_str(&m.function(*id).name),
                Callee::Indirect(x) => sub(*x, s),
                Callee::Named(n) => s.push_str(n),
            }
            s.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_expr(m, f, *a, s, d);
            }
            s.push(')');
        }
        ExprKind::Cast(x) => write_expr(m, f, *x, s, d),
        ExprKind::Cond(c, a, b) => {
            sub(*c, s);
            s.push_str(" ? ");
            sub(*a, s);
            s.push_str(" : ");
            sub(*b, s);
        }
        ExprKind::SizeOf(v) => match v {
            Some(v) => {
                let _ = write!(s, "sizeof(={v})");
            }
            None => s.push_str("sizeof(…)"),
        },
        ExprKind::InitList(items) => write_list(m, f, items, ('{', '}'), s, d),
        ExprKind::Other { what, children } => {
            s.push_str(what);
            if !children.is_empty() {
                write_list(m, f, children, ('(', ')'), s, d);
            }
        }
        ExprKind::Lambda => s.push_str("[lambda]"),
        ExprKind::NewArray { len, init, .. } => {
            s.push_str("new[");
            write_expr(m, f, *len, s, d);
            s.push(']');
            if !init.is_empty() {
                write_list(m, f, init, ('{', '}'), s, d);
            }
        }
    }
}

/// `items` separated by commas between the `brackets`.
fn write_list(
    m: &Module,
    f: &Function,
    items: &[ExprId],
    brackets: (char, char),
    s: &mut String,
    d: usize,
) {
    s.push(brackets.0);
    for (i, a) in items.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        write_expr(m, f, *a, s, d);
    }
    s.push(brackets.1);
}
