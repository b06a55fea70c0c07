//! Memory accesses of an expression tree, classified read / write / read-write / unknown.
//!
//! An access names the object touched as a root (a variable or `this`) plus a path of
//! members, subscripts and dereferences, so `p->f[i] = 0` is a write of `p` → `f` → `[i]`.
//! Index expressions inside the path are themselves reads. Data passed to a callee by
//! pointer or reference is `Unknown` here; the interprocedural analysis refines it.

use super::{
    BinaryOp, Callee, ExprId, ExprKind, FuncId, Function, Module, TypeClass, UnaryOp, VarId,
};

/// C library functions that receive a pointer without touching the data behind it.
pub const NO_DATA_ACCESS: &[&str] = &[
    "free",
    "omp_target_free",
    "omp_free",
    // The OpenMP runtime's questions about an address: no data is touched.
    "omp_target_is_present",
    "omp_target_is_accessible",
    "omp_get_mapped_ptr",
    // Pairing host data with device memory, or ending that: the data is not touched (the
    // data environment's change is modelled apart).
    "omp_target_associate_ptr",
    "omp_target_disassociate_ptr",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessKind {
    Read,
    Write,
    ReadWrite,
    /// Passed by address (to a callee, or its address taken): effect not known locally.
    Unknown,
}

impl AccessKind {
    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::ReadWrite => "read-write",
            AccessKind::Unknown => "unknown",
        }
    }
    pub fn reads(self) -> bool {
        matches!(
            self,
            AccessKind::Read | AccessKind::ReadWrite | AccessKind::Unknown
        )
    }
    pub fn writes(self) -> bool {
        matches!(
            self,
            AccessKind::Write | AccessKind::ReadWrite | AccessKind::Unknown
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Root {
    Var(VarId),
    /// The implicit object of a C++ member function.
    This,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathElem {
    Member(String),
    Index(ExprId),
    Deref,
}

/// Why an access is `Unknown`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Escape {
    /// Argument `index` of a call (`None` index: the receiver object of a member call).
    CallArg {
        callee: Option<FuncId>,
        index: Option<usize>,
    },
    AddressTaken,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    pub root: Root,
    pub path: Vec<PathElem>,
    pub kind: AccessKind,
    /// The whole accessed expression (`a[i]`, not just `a`).
    pub expr: ExprId,
    pub escape: Option<Escape>,
}

impl Access {
    /// True when the access touches data through the root (an element, a member or a
    /// pointee) rather than the root variable's own value.
    pub fn is_indirect(&self) -> bool {
        !self.path.is_empty()
    }
}

/// Accesses of the expressions `roots` of `func`, in evaluation-ish order.
pub fn accesses(module: &Module, func: &Function, roots: &[ExprId]) -> Vec<Access> {
    let mut c = Collector {
        module,
        func,
        out: Vec::new(),
    };
    for &e in roots {
        c.visit(e, AccessKind::Read, None);
    }
    c.out
}

/// Accesses of the declaration `var = init`: the initialiser is read, the variable written.
pub fn decl_accesses(
    module: &Module,
    func: &Function,
    var: VarId,
    init: Option<ExprId>,
    decl_expr: ExprId,
) -> Vec<Access> {
    let mut out = init
        .map(|i| accesses(module, func, &[i]))
        .unwrap_or_default();
    if init.is_some() {
        out.push(Access {
            root: Root::Var(var),
            path: Vec::new(),
            kind: AccessKind::Write,
            expr: decl_expr,
            escape: None,
        });
    }
    out
}

struct Collector<'a> {
    module: &'a Module,
    func: &'a Function,
    out: Vec<Access>,
}

/// Library member functions that return (a reference to) an element or a pointer into the
/// container: read in a read context.
const ELEMENT_ACCESS: &[&str] = &["operator[]", "at", "front", "back", "data", "size"];

/// Library member functions returning a reference to an element, whose address is an
/// address into the container's data (`&v[0]`).
const ELEMENT_ADDRESS: &[&str] = &["operator[]", "at", "front", "back"];

/// A called name as the C library's (`::free` and `std::printf` are `free` and `printf`).
fn c_library_name(n: &str) -> &str {
    n.strip_prefix("::")
        .or_else(|| n.strip_prefix("std::"))
        .unwrap_or(n)
}

/// C formatted-output functions and the index of their first printed argument.
const PRINTED_FROM: &[(&str, usize)] = &[
    ("printf", 1),
    ("fprintf", 2),
    ("dprintf", 2),
    ("sprintf", 2),
    ("snprintf", 3),
];

/// Upper bound on recursion so a pathological expression cannot blow the stack.
const MAX_DEPTH: usize = 2000;

impl Collector<'_> {
    fn visit(&mut self, e: ExprId, ctx: AccessKind, escape: Option<Escape>) {
        self.visit_depth(e, ctx, escape, 0)
    }

    fn visit_depth(&mut self, e: ExprId, ctx: AccessKind, escape: Option<Escape>, depth: usize) {
        crate::budget::tick("accesses");
        if depth > MAX_DEPTH {
            return;
        }
        let d = depth + 1;
        let expr = self.func.expr(e);
        match &expr.kind {
            // An array's name as a value decays to its address (`int *p = a;`): that reads
            // no element, it goes where the address goes, as `&a[0]` does.
            ExprKind::Var(_) if escape.is_none() && expr.class == TypeClass::Array => {
                self.lvalue(e, ctx, Some(Escape::AddressTaken), d)
            }
            ExprKind::Var(_)
            | ExprKind::Subscript(..)
            | ExprKind::Member { .. }
            | ExprKind::Unary(UnaryOp::Deref, _) => self.lvalue(e, ctx, escape, d),
            ExprKind::Assign(op, lhs, rhs) => {
                self.visit_depth(*rhs, AccessKind::Read, None, d);
                let k = if op.is_some() {
                    AccessKind::ReadWrite
                } else {
                    AccessKind::Write
                };
                self.visit_depth(*lhs, k, None, d);
            }
            ExprKind::Unary(op, x) if op.is_increment() => {
                self.visit_depth(*x, AccessKind::ReadWrite, None, d)
            }
            // `f(&p)` with `p` a pointer: the callee gets the pointer variable (to read or
            // set it, as `Release(&p)` does), not the data behind it.
            ExprKind::Unary(UnaryOp::AddrOf, x)
                if matches!(escape, Some(Escape::CallArg { .. }))
                    && matches!(self.func.expr(*x).kind, ExprKind::Var(_))
                    && self.is_pointer(*x) => {}
            ExprKind::Unary(UnaryOp::AddrOf, x) => {
                // `&x` used as a call argument keeps the call's escape; otherwise the address
                // escapes locally (e.g. `p = &x`).
                let esc = escape.unwrap_or(Escape::AddressTaken);
                // `&v[k]` of a library container is the address of its data, as `&a[k]` is
                // an array's: it goes where that address goes and reads nothing by itself.
                if let ExprKind::Call {
                    callee: Callee::Direct(f),
                    receiver: Some(r),
                    args,
                } = &self.func.expr(*x).kind
                {
                    let f = self.module.function(*f);
                    if f.in_system_header
                        && !f.has_body
                        && ELEMENT_ADDRESS.contains(&f.name.as_str())
                    {
                        for &a in args {
                            self.visit_depth(a, AccessKind::Read, None, d);
                        }
                        return self.visit_depth(*r, AccessKind::Unknown, Some(esc), d);
                    }
                }
                self.visit_depth(*x, AccessKind::Unknown, Some(esc), d)
            }
            ExprKind::Unary(_, x) | ExprKind::Cast(x) => self.visit_depth(*x, ctx, escape, d),
            // `p + k` passed by address (`f(out + 2*i)`): the call reaches p's data.
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, l, r)
                if escape.is_some() && self.is_pointer(*l) =>
            {
                self.visit_depth(*l, ctx, escape, d);
                self.visit_depth(*r, AccessKind::Read, None, d);
            }
            ExprKind::Binary(BinaryOp::Add, l, r) if escape.is_some() && self.is_pointer(*r) => {
                self.visit_depth(*l, AccessKind::Read, None, d);
                self.visit_depth(*r, ctx, escape, d);
            }
            ExprKind::Binary(_, l, r) => {
                self.visit_depth(*l, AccessKind::Read, None, d);
                self.visit_depth(*r, AccessKind::Read, None, d);
            }
            ExprKind::Cond(c, t, f) => {
                self.visit_depth(*c, AccessKind::Read, None, d);
                self.visit_depth(*t, ctx, escape.clone(), d);
                self.visit_depth(*f, ctx, escape, d);
            }
            ExprKind::Call {
                callee,
                receiver,
                args,
            } => self.call(callee, *receiver, args, ctx, d),
            ExprKind::InitList(items) => {
                for &i in items {
                    self.visit_depth(i, AccessKind::Read, None, d);
                }
            }
            ExprKind::Other { what, children } => {
                for &i in children {
                    // `delete[] p` frees the data, as `free(p)` does: it reads none of it
                    // (a pointer whose type is `auto` in a template would pass for data).
                    let freed = what == "CXXDeleteExpr"
                        && matches!(self.func.expr(i).kind, ExprKind::Var(_));
                    if !freed {
                        self.visit_depth(i, AccessKind::Read, None, d);
                    }
                }
            }
            ExprKind::NewArray { len, init, .. } => {
                for &i in std::iter::once(len).chain(init) {
                    self.visit_depth(i, AccessKind::Read, None, d);
                }
            }
            ExprKind::Func(_)
            | ExprKind::Int { .. }
            | ExprKind::Float(_)
            | ExprKind::Str
            | ExprKind::Char(_)
            | ExprKind::Bool(_)
            | ExprKind::NullPtr
            | ExprKind::This
            | ExprKind::SizeOf(_)
            | ExprKind::Lambda => {}
        }
    }

    fn is_pointer(&self, e: ExprId) -> bool {
        matches!(
            self.func.expr(e).class,
            TypeClass::Pointer | TypeClass::PointerToConst | TypeClass::Array
        )
    }

    /// `swap(p, q)` (`std::swap`, resolved or named in a template) of two pointer values.
    fn swaps_pointers(&self, callee: &Callee, receiver: Option<ExprId>, args: &[ExprId]) -> bool {
        let name = match callee {
            Callee::Direct(f) => {
                let f = self.module.function(*f);
                if !f.in_system_header || f.has_body {
                    return false;
                }
                f.name.as_str()
            }
            Callee::Named(n) => n.rsplit("::").next().unwrap_or(n),
            Callee::Indirect(_) => return false,
        };
        let pointer = |e: ExprId| {
            matches!(
                self.func.expr(e).class,
                TypeClass::Pointer | TypeClass::PointerToConst
            )
        };
        name == "swap" && receiver.is_none() && args.len() == 2 && args.iter().all(|&a| pointer(a))
    }

    fn call(
        &mut self,
        callee: &Callee,
        receiver: Option<ExprId>,
        args: &[ExprId],
        ctx: AccessKind,
        d: usize,
    ) {
        // `free(p)` named in a template (`template <class T> void mem_free(T *p) { free(p);
        // }`): the C library function, which touches none of the data.
        if let (Callee::Named(n), None) = (callee, receiver) {
            if NO_DATA_ACCESS.contains(&c_library_name(n)) {
                for &a in args {
                    self.visit_depth(a, AccessKind::Read, None, d);
                }
                return;
            }
        }
        if self.swaps_pointers(callee, receiver, args) {
            // `std::swap(p, q)` of two pointers exchanges the pointers, not their data.
            for &a in args {
                self.visit_depth(a, AccessKind::ReadWrite, None, d);
            }
            return;
        }
        let target = match callee {
            Callee::Direct(f) => Some(*f),
            Callee::Indirect(e) => {
                // A call of a member that depends on a template parameter (`obj.push(x)` on
                // a dependent `obj`) has its object in the callee expression: a receiver the
                // unknown method may write.
                match &self.func.expr(*e).kind {
                    ExprKind::Member { base: Some(b), .. } if receiver.is_none() => {
                        let esc = Escape::CallArg {
                            callee: None,
                            index: None,
                        };
                        self.visit_depth(*b, AccessKind::Unknown, Some(esc), d);
                    }
                    _ => self.visit_depth(*e, AccessKind::Read, None, d),
                }
                None
            }
            Callee::Named(_) => None,
        };
        if let Some(r) = receiver {
            let esc = Escape::CallArg {
                callee: target,
                index: None,
            };
            // An element access of a container whose result is only read (`s += v[i]`) reads
            // the container; otherwise (`v[i] = x`, `v.push_back(x)`) it may write it.
            let element_read = ctx == AccessKind::Read
                && target.is_some_and(|f| {
                    let f = self.module.function(f);
                    f.in_system_header && ELEMENT_ACCESS.contains(&f.name.as_str()) && !f.has_body
                });
            // `a[i] = s` on a record (`a[i].operator=(s)`): the assignment writes the whole
            // object and reads nothing of it.
            let assigns = target.is_some_and(|f| self.module.function(f).name == "operator=");
            if assigns {
                self.visit_depth(r, AccessKind::Write, None, d);
            } else {
                let kind = if element_read {
                    AccessKind::Read
                } else {
                    AccessKind::Unknown
                };
                self.visit_depth(r, kind, Some(esc), d);
            }
        }
        let params = target.map(|f| &self.module.function(f).params);
        let printed_from = self.printed_arguments(callee);
        for (i, &a) in args.iter().enumerate() {
            // A value a `printf` prints is read, whatever its type (`(T)dev[i]` in a
            // template): formatted output writes only through `%n`, which nobody passes data
            // arrays to.
            if printed_from.is_some_and(|k| i >= k) {
                // (An element's address, `%p` of `&a[i]`: only its index is read.)
                match self.printed_address(a) {
                    Some(index) => {
                        if let Some(i) = index {
                            self.visit_depth(i, AccessKind::Read, None, d);
                        }
                    }
                    None => self.visit_depth(a, AccessKind::Read, None, d),
                }
                continue;
            }
            let param_ty = params
                .and_then(|p| p.get(i))
                .map(|&v| &self.module.var(v).ty);
            // Passed by address: a pointer or reference parameter (the callee reads the
            // data behind it, and writes it unless it is const), or, for an unknown callee or
            // a variadic argument, an argument that is itself a pointer or array.
            let by_address = match param_ty {
                // An element copied into a template's by-value parameter (`typeToFloat(T a)`
                // given `in[i]` of a `const T *in`): read here, whatever the callee does with
                // its copy. (A whole variable of dependent type may be a pointer the callee
                // writes through: what the argument is decides, below.)
                Some(t)
                    if matches!(t.kind, super::TypeKind::Dependent)
                        && self.func.expr(a).class == TypeClass::Dependent
                        && self.is_element(a) =>
                {
                    None
                }
                // A template's parameter whose type depends on the template's arguments
                // (`template <class P> f(P v)`): what the argument is decides.
                Some(t) if !matches!(t.kind, super::TypeKind::Dependent) => match &t.kind {
                    super::TypeKind::Pointer(p) | super::TypeKind::Reference(p) => Some(p.is_const),
                    _ => None,
                },
                _ => match self.func.expr(a).class {
                    TypeClass::Pointer | TypeClass::Array | TypeClass::Dependent => Some(false),
                    TypeClass::PointerToConst => Some(true),
                    _ => None,
                },
            };
            match by_address {
                Some(is_const) => {
                    let esc = Escape::CallArg {
                        callee: target,
                        index: Some(i),
                    };
                    let kind = if is_const {
                        AccessKind::Read
                    } else {
                        AccessKind::Unknown
                    };
                    self.visit_depth(a, kind, Some(esc), d);
                }
                None => self.visit_depth(a, AccessKind::Read, None, d),
            }
        }
    }

    /// A printed argument that is the address of a variable or of an element of an array
    /// variable or of a pointer variable's data (`&x`, `&a[i]`, through casts): printing it
    /// reads no data. Some(the subscript's index, if any); None for any other argument.
    fn printed_address(&self, a: ExprId) -> Option<Option<ExprId>> {
        let ExprKind::Unary(UnaryOp::AddrOf, x) = &self.func.expr(self.func.strip_casts(a)).kind
        else {
            return None;
        };
        match &self.func.expr(*x).kind {
            ExprKind::Var(_) => Some(None),
            ExprKind::Subscript(base, index)
                if matches!(self.func.expr(*base).kind, ExprKind::Var(_)) =>
            {
                Some(Some(*index))
            }
            _ => None,
        }
    }

    /// An element of data, not a variable: a subscript, a dereference or a member (through
    /// parentheses and casts).
    fn is_element(&self, e: ExprId) -> bool {
        matches!(
            self.func.expr(self.func.strip_casts(e)).kind,
            ExprKind::Subscript(..) | ExprKind::Member { .. } | ExprKind::Unary(UnaryOp::Deref, _)
        )
    }

    /// For a C formatted-output function (`printf`, `fprintf`, `sprintf`, `snprintf`,
    /// `dprintf`, also as `std::`), the index of its first printed argument.
    fn printed_arguments(&self, callee: &Callee) -> Option<usize> {
        let name = match callee {
            Callee::Direct(f) => {
                let f = self.module.function(*f);
                if f.has_body {
                    return None;
                }
                f.name.as_str()
            }
            Callee::Named(n) => c_library_name(n),
            Callee::Indirect(_) => return None,
        };
        PRINTED_FROM
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| *k)
    }

    /// An lvalue chain: find its root and path, read the index expressions, record one access.
    fn lvalue(&mut self, e: ExprId, ctx: AccessKind, escape: Option<Escape>, d: usize) {
        let mut path = Vec::new();
        let mut cur = e;
        let root = loop {
            if path.len() > MAX_DEPTH {
                return;
            }
            match &self.func.expr(cur).kind {
                ExprKind::Var(v) => break Some(Root::Var(*v)),
                ExprKind::This => break Some(Root::This),
                ExprKind::Subscript(base, idx) => {
                    self.visit_depth(*idx, AccessKind::Read, None, d);
                    path.push(PathElem::Index(*idx));
                    cur = *base;
                }
                ExprKind::Member { base, field, arrow } => {
                    path.push(PathElem::Member(field.clone()));
                    if *arrow {
                        path.push(PathElem::Deref);
                    }
                    match base {
                        Some(b) => cur = *b,
                        None => break Some(Root::This),
                    }
                }
                ExprKind::Unary(UnaryOp::Deref, x) => {
                    path.push(PathElem::Deref);
                    cur = *x;
                }
                ExprKind::Cast(x) => cur = *x,
                // `*(p + k)` (or `*(k + p)`) is `p[k]`: an element of `p`'s data, as
                // `sections` reads it (HeCBench's gaussian reads its matrix so on the host).
                ExprKind::Binary(BinaryOp::Add, l, r) if path.last() == Some(&PathElem::Deref) => {
                    // The pointer operand and the offset of `p + k` / `k + p`.
                    let split = |x: ExprId| -> Option<(ExprId, ExprId)> {
                        let ExprKind::Binary(BinaryOp::Add, l, r) = &self.func.expr(x).kind else {
                            return None;
                        };
                        let is_pointer = |y: ExprId| {
                            matches!(
                                self.func.expr(y).class,
                                TypeClass::Pointer | TypeClass::PointerToConst | TypeClass::Array
                            )
                        };
                        match (is_pointer(*l), is_pointer(*r)) {
                            (true, false) => Some((*l, *r)),
                            (false, true) => Some((*r, *l)),
                            _ => None,
                        }
                    };
                    let Some((base, idx)) = split(cur) else {
                        self.visit_depth(cur, AccessKind::Read, None, d);
                        break None;
                    };
                    self.visit_depth(idx, AccessKind::Read, None, d);
                    // `*(p + i*n + j)`: several offsets, no one index expression; the access
                    // is then an element of `p`'s data at an index left unnamed (`*p`).
                    let mut inner = base;
                    while let Some((b, k)) = split(inner) {
                        self.visit_depth(k, AccessKind::Read, None, d);
                        inner = b;
                    }
                    if inner == base {
                        path.pop();
                        path.push(PathElem::Index(idx));
                    }
                    cur = inner;
                }
                _ => {
                    // `f()[i]`, `(p + 1)[i]`, ...: the base is an rvalue; its own accesses
                    // are reads and the element access has no named root.
                    self.visit_depth(cur, AccessKind::Read, None, d);
                    break None;
                }
            }
        };
        if let Some(root) = root {
            // Collected outward (for `->` Member then Deref); reversed, the deref of the
            // pointer precedes the member selection, which is the path convention.
            path.reverse();
            self.out.push(Access {
                root,
                path,
                kind: ctx,
                expr: e,
                escape,
            });
        }
    }
}
