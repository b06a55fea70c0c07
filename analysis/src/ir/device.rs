//! Which functions run on the host, the device, or both.
//!
//! A function runs on the device when it is `declare target`, or when it is called from
//! device code (a kernel body or another device function). It runs on the host when it is
//! called from host code, or nothing calls it (an entry point such as `main`). The
//! classification is a fixed point over the call graph; it only ever moves a function towards
//! running in more places, so it terminates (also on recursion).

use super::cfg::Exec;
use super::{Callee, ExprId, ExprKind, FuncId, Function, IndexVec, Module, StmtId, StmtKind};

/// A call of a function with a body, and whether it sits inside a kernel of its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallSite {
    pub caller: FuncId,
    pub callee: FuncId,
    pub in_kernel: bool,
}

/// Every direct call in every lowered function body.
pub fn call_sites(module: &Module) -> Vec<CallSite> {
    let mut out = Vec::new();
    for (caller, f) in module.functions.iter_enumerated() {
        if let Some(body) = f.body {
            let mut w = CallWalker {
                module,
                func: f,
                caller,
                out: &mut out,
            };
            w.stmt(body, false, 0);
        }
    }
    out
}

/// Execution space of every function in `module`, indexed by `FuncId`.
pub fn classify(module: &Module) -> IndexVec<FuncId, Exec> {
    let sites = call_sites(module);
    let mut host: IndexVec<FuncId, bool> = module.functions.iter().map(|_| false).collect();
    let mut device: IndexVec<FuncId, bool> =
        module.functions.iter().map(|f| f.declare_target).collect();
    let mut called: IndexVec<FuncId, bool> = module.functions.iter().map(|_| false).collect();
    for s in &sites {
        if s.caller != s.callee {
            called[s.callee] = true;
        }
    }
    // Roots: functions nobody calls (main, library entry points) run on the host.
    for i in module.functions.indices() {
        if !called[i] && !device[i] {
            host[i] = true;
        }
    }
    loop {
        let mut changed = false;
        for s in &sites {
            crate::budget::tick("device classification");
            let (caller, callee) = (s.caller, s.callee);
            let from_device = s.in_kernel || device[caller];
            let from_host = !s.in_kernel && host[caller];
            if from_device && !device[callee] {
                device[callee] = true;
                changed = true;
            }
            if from_host && !host[callee] {
                host[callee] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    module
        .functions
        .indices()
        .map(|i| match (host[i], device[i]) {
            (_, false) => Exec::Host,
            (false, true) => Exec::Device,
            (true, true) => Exec::HostAndDevice,
        })
        .collect()
}

struct CallWalker<'a> {
    module: &'a Module,
    func: &'a Function,
    caller: FuncId,
    out: &'a mut Vec<CallSite>,
}

const MAX_DEPTH: usize = 2000;

impl CallWalker<'_> {
    fn stmt(&mut self, s: StmtId, in_kernel: bool, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let d = depth + 1;
        let stmt = self.func.stmt(s);
        let mut exprs: Vec<ExprId> = Vec::new();
        let mut children: Vec<StmtId> = Vec::new();
        let mut kernel = in_kernel;
        match &stmt.kind {
            StmtKind::Compound(list) => children.extend(list),
            StmtKind::Expr(e) => exprs.push(*e),
            StmtKind::Decl(ds) => exprs.extend(ds.iter().filter_map(|d| d.1)),
            StmtKind::If {
                init,
                cond,
                then,
                els,
            } => {
                children.extend(init.iter().chain([then]).chain(els.iter()));
                exprs.push(*cond);
            }
            StmtKind::For(f) => {
                children.extend(f.init.iter().chain([&f.body]));
                exprs.extend(f.cond.iter().chain(f.step.iter()));
            }
            StmtKind::RangeFor { range, body, .. } => {
                exprs.push(*range);
                children.push(*body);
            }
            StmtKind::While { cond, body } | StmtKind::Do { body, cond } => {
                exprs.push(*cond);
                children.push(*body);
            }
            StmtKind::Switch { init, cond, body } => {
                children.extend(init.iter().chain([body]));
                exprs.push(*cond);
            }
            StmtKind::Case { body, .. }
            | StmtKind::Default { body }
            | StmtKind::Label { body, .. } => children.extend(body.iter()),
            StmtKind::Return(e) => exprs.extend(e.iter()),
            StmtKind::Omp { directive, body } => {
                if self
                    .module
                    .directive(*directive)
                    .directive
                    .kind
                    .is_offload_kernel()
                {
                    kernel = true;
                }
                children.extend(body.iter());
            }
            StmtKind::Opaque {
                exprs: es,
                children: cs,
                ..
            } => {
                exprs.extend(es);
                children.extend(cs);
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_) | StmtKind::Null => {}
        }
        for e in exprs {
            self.expr(e, kernel, d);
        }
        for c in children {
            self.stmt(c, kernel, d);
        }
    }

    fn expr(&mut self, e: ExprId, in_kernel: bool, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let d = depth + 1;
        match &self.func.expr(e).kind {
            ExprKind::Call {
                callee,
                receiver,
                args,
            } => {
                if let Callee::Direct(f) = callee {
                    self.out.push(CallSite {
                        caller: self.caller,
                        callee: *f,
                        in_kernel,
                    });
                }
                if let Callee::Indirect(x) = callee {
                    self.expr(*x, in_kernel, d);
                }
                for &a in receiver.iter().chain(args) {
                    self.expr(a, in_kernel, d);
                }
            }
            kind => {
                for c in expr_children(kind) {
                    self.expr(c, in_kernel, d);
                }
            }
        }
    }
}

/// Direct sub-expressions of an expression (calls included).
pub fn expr_children(kind: &ExprKind) -> Vec<ExprId> {
    match kind {
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => vec![*x],
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Subscript(a, b) => {
            vec![*a, *b]
        }
        ExprKind::Member { base, .. } => base.iter().copied().collect(),
        ExprKind::Call {
            callee,
            receiver,
            args,
        } => {
            let mut v: Vec<ExprId> = match callee {
                Callee::Indirect(x) => vec![*x],
                _ => Vec::new(),
            };
            v.extend(receiver.iter().chain(args));
            v
        }
        ExprKind::Cond(a, b, c) => vec![*a, *b, *c],
        ExprKind::InitList(v) | ExprKind::Other { children: v, .. } => v.clone(),
        ExprKind::NewArray { len, init, .. } => {
            std::iter::once(*len).chain(init.iter().copied()).collect()
        }
        ExprKind::Var(_)
        | ExprKind::Func(_)
        | ExprKind::Int { .. }
        | ExprKind::Float(_)
        | ExprKind::Str
        | ExprKind::Char(_)
        | ExprKind::Bool(_)
        | ExprKind::NullPtr
        | ExprKind::This
        | ExprKind::SizeOf(_)
        | ExprKind::Lambda => Vec::new(),
    }
}
