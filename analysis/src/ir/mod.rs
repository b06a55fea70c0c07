//! The owned IR: what the front end lowers a translation unit into.
//!
//! Nothing here refers to libclang; every value outlives the translation unit it
//! came from. Statements and expressions live in per-function arenas so a later
//! incremental layer can compare one function's IR without looking at others.

pub mod access;
pub mod cfg;
pub mod device;
pub mod effect;
pub mod index_vec;
pub mod macros;
pub(crate) mod print;
pub mod stmt_tree;
mod types;

use crate::text::LineIndex;
pub use crate::text::Span;
pub use print::render_module;
pub use types::{Type, TypeKind};

/// Index of a variable in [`Module::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);
/// Index of a function in [`Module::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
/// Index of a directive in [`Module::directives`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DirId(pub u32);
/// Index of a statement in its function's [`Function::stmts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtId(pub u32);
/// Index of an expression in its function's [`Function::exprs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

index_vec::impl_idx!(DirId, FuncId, VarId, StmtId, ExprId);
pub use index_vec::{Idx, IndexVec};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    C,
    Cxx,
}

/// One lowered main file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    pub path: String,
    pub language: Option<Language>,
    /// Length of the main file in bytes; every span is within it.
    pub source_len: u32,
    pub vars: IndexVec<VarId, Var>,
    pub functions: IndexVec<FuncId, Function>,
    /// Every `#pragma omp` of the main file that parsed to a known directive, in source order.
    pub directives: IndexVec<DirId, DirectiveInfo>,
    pub diagnostics: Vec<Diagnostic>,
    /// The main file's lines (for printing `line:col`).
    pub lines: LineIndex,
    /// A piece of a file made by the incremental layer (`db::piece`): its offsets point into a
    /// synthetic source, so messages refer to lines by marker ([`Module::line_ref`]).
    pub piece: bool,
    /// Integer values of the main file's object-like macros (`#define N 4096`): the
    /// preprocessor turned their uses into numbers; sections are written with the names.
    pub macros: macros::Values,
    /// Text of the main file that macros or `_Pragma` operators turned into directive text
    /// (clang reads the expansion; omplens must not edit what it cannot see written).
    pub macro_text: Vec<MacroText>,
    /// (record, pointer member) -> (integer member holding its length, element size in
    /// bytes), where every store the project shows agrees (`semantics::member_lengths`, set
    /// by `project::attach_member_lengths`).
    pub member_lengths: std::collections::BTreeMap<(String, String), (String, i64)>,
    /// The project headers whose bodies were lowered with their directives: header `n` holds
    /// the positions of band `n` ([`header_band`]).
    pub headers: Vec<std::sync::Arc<HeaderSource>>,
}

/// A project header some of whose function bodies were lowered, positions in its band.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderSource {
    pub path: String,
    /// Its text and lines, as it was read.
    pub text: String,
    pub lines: LineIndex,
    /// The main-file offset of the `#include` that brings it in (directly or through other
    /// headers), if libclang told.
    pub included_at: Option<u32>,
}

impl HeaderSource {
    /// The file's name without its directories (messages name no absolute path).
    pub fn name(&self) -> &str {
        file_name(&self.path)
    }
}

/// A path's file name without its directories (messages name no absolute path).
pub fn file_name(path: &str) -> &str {
    std::path::Path::new(path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(path)
}

/// The callee name under which a lambda followed at its call passes what its code under a
/// condition or loop touches (and its arguments to reference or pointer parameters).
pub const LAMBDA_CONDITIONAL_CODE: &str = "a lambda's conditional code";

/// Main-file text a macro expanded into (part of) a directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MacroText {
    pub span: Span,
    /// The whole directive comes from it (`_Pragma(...)`, a macro making one): nothing may
    /// be appended to it either.
    pub whole: bool,
}

impl MacroText {
    /// Whether an edit of `span` (an insertion when empty) changes what this text expands to.
    pub fn touched_by(&self, span: Span) -> bool {
        let m = self.span;
        if span.start == span.end {
            m.start < span.start && (span.start < m.end || (self.whole && span.start == m.end))
        } else {
            span.start < m.end && span.end > m.start
        }
    }
}

impl Module {
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id]
    }
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id]
    }
    pub fn directive(&self, id: DirId) -> &DirectiveInfo {
        &self.directives[id]
    }
    /// The `#pragma omp requires unified_shared_memory` of the file, if it has one: host and
    /// device then share memory (OpenMP 5.2 §10.5.1.1), and whether a map copies is the
    /// implementation's choice.
    pub fn unified_shared_memory(&self) -> Option<Span> {
        self.directives
            .iter()
            .map(|d| &d.directive)
            .find(|d| {
                d.kind == crate::pragma::DirectiveKind::Requires
                    && d.clauses
                        .iter()
                        .any(|c| c.name() == "unified_shared_memory")
            })
            .map(|d| d.span)
    }
    /// Whether an edit of `span` would change text a macro turned into a directive.
    pub fn touches_macro_text(&self, span: Span) -> bool {
        self.macro_text.iter().any(|m| m.touched_by(span))
    }
    /// The error diagnostics (clang's errors, pragma syntax errors): code that does not compile.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }
    /// For a position in a header's band: the header and the byte offset in it.
    pub fn header_at(&self, offset: u32) -> Option<(&std::sync::Arc<HeaderSource>, u32)> {
        let o = offset.checked_sub(header_band::FIRST)?;
        let h = self.headers.get((o / header_band::WIDTH) as usize)?;
        Some((h, o % header_band::WIDTH))
    }
    /// The text of `span`: in the main file (`source`), or in a project header for a span in
    /// its band (both ends in the same header).
    pub fn text<'s>(&'s self, source: &'s str, span: Span) -> Option<&'s str> {
        match (self.header_at(span.start), self.header_at(span.end)) {
            (None, None) => source.get(span.start as usize..span.end as usize),
            (Some((h, s)), Some((h2, e))) if std::sync::Arc::ptr_eq(h, h2) => {
                h.text.get(s as usize..e as usize)
            }
            _ => None,
        }
    }
    /// 1-based line and column (in bytes) of a file offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        self.lines.line_col(offset)
    }
    /// The line of `offset` as a message says it ("at line 12"). In a piece of a file (the
    /// incremental layer, [`crate::db`]) the line is not known yet: a marker holding the
    /// offset stands in until [`crate::text::resolve_line_refs`] maps it to the real file.
    pub fn line_ref(&self, offset: u32) -> String {
        if let Some((h, o)) = self.header_at(offset) {
            format!("{} of `{}`", h.lines.line_col(o).0, h.name())
        } else if self.piece {
            crate::text::line_marker(offset)
        } else {
            self.line_col(offset).0.to_string()
        }
    }
    pub fn globals(&self) -> impl Iterator<Item = (VarId, &Var)> {
        self.vars
            .iter_enumerated()
            .filter(|(_, v)| matches!(v.storage, Storage::Global | Storage::StaticGlobal))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Storage {
    /// File-scope object with external linkage.
    Global,
    /// File-scope `static`.
    StaticGlobal,
    /// Block-scope `static`.
    StaticLocal,
    Local,
    Parameter,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Var {
    pub name: String,
    pub ty: Type,
    pub storage: Storage,
    /// Declared in the main file (otherwise in a header).
    pub in_main_file: bool,
    /// Span of the declarator name in the main file, when it is there.
    pub span: Option<Span>,
    /// Owning function for locals and parameters.
    pub function: Option<FuncId>,
    /// Named in a `declare target` directive (lives on the device too).
    pub declare_target: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    /// Qualified name for C++ (`ns::Class::method`), same as `name` in C.
    pub qualified_name: String,
    pub params: Vec<VarId>,
    pub return_type: Type,
    /// True when this function's body is lowered (a definition in the main file).
    pub has_body: bool,
    pub in_main_file: bool,
    /// Declared in a system header (the C and C++ libraries): a body omplens does not see is
    /// the library's, not the project's.
    pub in_system_header: bool,
    /// Span of the whole definition or declaration in the main file.
    pub span: Option<Span>,
    pub name_span: Option<Span>,
    /// A non-static C++ member function (has `this`).
    pub is_method: bool,
    /// A template pattern (analysed once for all instantiations; dependent sizes unknown).
    pub is_template: bool,
    /// Enclosed by `declare target` / `begin declare target`, or named in one.
    pub declare_target: bool,
    pub body: Option<StmtId>,
    pub stmts: IndexVec<StmtId, Stmt>,
    pub exprs: IndexVec<ExprId, Expr>,
    /// Why this function is not analysed, if it is not (e.g. `goto`).
    pub not_analysed: Option<String>,
    /// Its body, in a project header, holds OpenMP directives that omplens could not read
    /// (a pragma it cannot parse, a header too large), so it is not lowered: a function that
    /// launches kernels omplens cannot see.
    pub offloads_unseen: bool,
    /// Its body was lowered from this project header (with the header's own OpenMP
    /// directives); its positions are in that header's band (see [`header_band`]), never
    /// reported on or rewritten.
    pub origin: Option<String>,
    /// The project headers whose statements its body includes (`#include "step.h"` inside
    /// the function), lowered with their own directives at positions in their bands: what
    /// is found there is reported on the `#include` line, and never rewritten.
    pub included_headers: Vec<String>,
    /// Kernels of a project-header body (`offloads_unseen`, or lowered from `origin`): every
    /// kernel there names its data in a `map` (or device address) clause, so it maps what it
    /// uses itself.
    pub maps_own_data: bool,
    /// A project-header body that holds kernels (`offloads_unseen`, or lowered from
    /// `origin`): it launches kernels that a map of this file must cover unless
    /// `maps_own_data`.
    pub header_kernels: bool,
    /// Pointer parameters whose value the function stores into a member of its object, as
    /// (parameter index, member): a constructor's `buf(b)`, a `this->buf = b` in its body.
    /// The object's later accesses through that member reach the argument's data.
    pub member_stores: Vec<(usize, String)>,
    /// Declared `static` (or in an anonymous namespace): no other translation unit calls it.
    pub internal_linkage: bool,
    /// For a function with no body here: what its definition in another translation unit of
    /// the project does (`project::attach`), when omplens read it there. One that maps data
    /// or launches kernels there (`launches`) stays [`Function::unseen`]: its mappings are
    /// not carried across files.
    pub external: Option<std::sync::Arc<effect::ExternalSummary>>,
}

/// Positions in a project header whose body omplens lowers with its directives are shifted
/// into a band of their own, far above any main file's, so that no span of the header is ever
/// read as a position of the main file (text slices of them find nothing). Header `n` of a
/// file starts at `FIRST + n * WIDTH`; a header longer than `WIDTH`, or more headers than
/// fit, are not lowered that way.
pub mod header_band {
    pub const FIRST: u32 = 1 << 30;
    pub const WIDTH: u32 = 1 << 24;
    pub const COUNT: u32 = 64;
    /// The first position of header number `n`, if there is a band for it.
    pub fn base(n: u32) -> Option<u32> {
        (n < COUNT).then(|| FIRST + n * WIDTH)
    }
    /// The byte offset in its header of a position in a header's band; None for a position
    /// of the main file.
    pub fn offset_in_header(offset: u32) -> Option<u32> {
        offset.checked_sub(FIRST).map(|o| o % WIDTH)
    }
}

impl Function {
    pub fn stmt(&self, id: StmtId) -> &Stmt {
        &self.stmts[id]
    }
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id]
    }
    /// What a call of it does is not visible to omplens: a project function with no body
    /// here, one whose header body holds OpenMP directives (`offloads_unseen`), one whose
    /// body in another file maps data or launches kernels, or one it does not analyse. (Library functions of system headers are judged from their prototypes.)
    pub fn unseen(&self) -> bool {
        self.offloads_unseen
            || self.not_analysed.is_some()
            || (!self.has_body && !self.in_system_header && self.external.is_none())
            || self.external.as_ref().is_some_and(|x| x.launches)
    }
    /// For a function another file of the project defines with OpenMP mappings or kernels
    /// (`external`, `launches`): that file's name, without its directories (messages name no
    /// absolute path).
    pub fn launches_in_file(&self) -> Option<&str> {
        let f = self.external.as_ref().filter(|x| x.launches)?.file.as_str();
        Some(file_name(f))
    }
    /// `e` without the casts around it (`(double *)p` is `p`).
    pub fn strip_casts(&self, mut e: ExprId) -> ExprId {
        while let ExprKind::Cast(x) = self.expr(e).kind {
            e = x;
        }
        e
    }
    /// Whether `e` is a null pointer constant (`nullptr`, `NULL`, `0`), through casts.
    pub fn is_null_pointer(&self, e: ExprId) -> bool {
        matches!(
            self.expr(self.strip_casts(e)).kind,
            ExprKind::NullPtr | ExprKind::Int { value: Some(0), .. }
        )
    }
    /// The variable `e` names, through casts.
    pub fn var_through_casts(&self, e: ExprId) -> Option<VarId> {
        match self.expr(self.strip_casts(e)).kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Compound(Vec<StmtId>),
    Expr(ExprId),
    /// Declarations with their initialisers.
    Decl(Vec<(VarId, Option<ExprId>)>),
    If {
        init: Option<StmtId>,
        cond: ExprId,
        then: StmtId,
        els: Option<StmtId>,
    },
    For(ForLoop),
    /// C++ range-based `for (decl : range)`.
    RangeFor {
        var: VarId,
        range: ExprId,
        body: StmtId,
    },
    While {
        cond: ExprId,
        body: StmtId,
    },
    Do {
        body: StmtId,
        cond: ExprId,
    },
    Switch {
        init: Option<StmtId>,
        cond: ExprId,
        body: StmtId,
    },
    Case {
        value: ExprId,
        body: Option<StmtId>,
    },
    Default {
        body: Option<StmtId>,
    },
    Break,
    Continue,
    Return(Option<ExprId>),
    Goto(String),
    Label {
        name: String,
        body: Option<StmtId>,
    },
    /// An OpenMP directive; `body` is the statement it governs (None for standalone ones).
    Omp {
        directive: DirId,
        body: Option<StmtId>,
    },
    Null,
    /// Something the front end does not model (inline asm, `try`, ...). Accesses inside are
    /// still collected from `exprs`.
    Opaque {
        what: String,
        exprs: Vec<ExprId>,
        children: Vec<StmtId>,
    },
}

/// The statements directly under `kind`, in source order.
pub fn stmt_children(kind: &StmtKind) -> Vec<StmtId> {
    match kind {
        StmtKind::Compound(v) => v.clone(),
        StmtKind::If {
            init, then, els, ..
        } => init
            .iter()
            .chain(Some(then))
            .chain(els.iter())
            .copied()
            .collect(),
        StmtKind::For(f) => f.init.iter().chain(Some(&f.body)).copied().collect(),
        StmtKind::RangeFor { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Do { body, .. } => vec![*body],
        StmtKind::Switch { init, body, .. } => init.iter().chain(Some(body)).copied().collect(),
        StmtKind::Case { body, .. }
        | StmtKind::Default { body }
        | StmtKind::Label { body, .. }
        | StmtKind::Omp { body, .. } => body.iter().copied().collect(),
        StmtKind::Opaque { children, .. } => children.clone(),
        StmtKind::Expr(_)
        | StmtKind::Decl(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Return(_)
        | StmtKind::Goto(_)
        | StmtKind::Null => Vec::new(),
    }
}

/// The outermost kernel statements of a function, in source order.
pub fn kernel_stmts(module: &Module, func: &crate::ir::Function) -> Vec<StmtId> {
    let mut out = Vec::new();
    let mut stack: Vec<StmtId> = func.body.into_iter().collect();
    while let Some(s) = stack.pop() {
        if let StmtKind::Omp { directive, .. } = &func.stmt(s).kind {
            if module
                .directive(*directive)
                .directive
                .kind
                .is_offload_kernel()
            {
                out.push(s);
                continue;
            }
        }
        stack.extend(stmt_children(&func.stmt(s).kind));
    }
    out.sort_by_key(|s| func.stmt(*s).span.start);
    out
}

#[derive(Clone, Debug, PartialEq)]
pub struct ForLoop {
    pub init: Option<StmtId>,
    pub cond: Option<ExprId>,
    pub step: Option<ExprId>,
    pub body: StmtId,
    /// The induction variable: declared or assigned in `init` and stepped in `step`.
    pub induction: Option<VarId>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Coarse type class of the expression's value.
    pub class: TypeClass,
}

/// Enough of an expression's type to classify accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    Scalar,
    Pointer,
    /// Pointer to const-qualified data.
    PointerToConst,
    Array,
    Record,
    Void,
    Dependent,
    Unknown,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Var(VarId),
    Func(FuncId),
    /// Integer literal or enumerator, with its value when it fits.
    Int {
        text: String,
        value: Option<i64>,
    },
    Float(String),
    Str,
    Char(String),
    Bool(bool),
    NullPtr,
    This,
    Unary(UnaryOp, ExprId),
    Binary(BinaryOp, ExprId, ExprId),
    /// `lhs = rhs` (op None) or `lhs op= rhs`.
    Assign(Option<BinaryOp>, ExprId, ExprId),
    Subscript(ExprId, ExprId),
    /// `base.field` / `base->field`; base None for an implicit `this->field`.
    Member {
        base: Option<ExprId>,
        field: String,
        arrow: bool,
    },
    Call {
        callee: Callee,
        /// Object of a member call (`obj.f()`), if any.
        receiver: Option<ExprId>,
        args: Vec<ExprId>,
    },
    Cast(ExprId),
    Cond(ExprId, ExprId, ExprId),
    /// `sizeof`/`alignof`, with the folded value when known.
    SizeOf(Option<i64>),
    InitList(Vec<ExprId>),
    /// `new`/`delete`/statement expressions and the like: children still lowered.
    Other {
        what: String,
        children: Vec<ExprId>,
    },
    /// A lambda: its body is not analysed.
    Lambda,
    /// C++ `new T[len]` (with an initialiser, `new T[len]{…}`, in `init`): an allocation of
    /// `len` elements of `elem_size` bytes each (None when the type's size is not known).
    NewArray {
        len: ExprId,
        elem_size: Option<u64>,
        init: Vec<ExprId>,
        /// Written with an initialiser, even an empty one (`new T[n]()`, `new T[n]{}`: the
        /// elements are zeroed).
        initialised: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    Direct(FuncId),
    /// Through a function pointer or other expression.
    Indirect(ExprId),
    /// Name only (unresolved, e.g. dependent call in a template).
    Named(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    PostInc,
    PostDec,
    PreInc,
    PreDec,
    AddrOf,
    Deref,
    Plus,
    Minus,
    BitNot,
    Not,
    Real,
    Imag,
    Extension,
}

impl UnaryOp {
    pub fn spelling(self) -> &'static str {
        use UnaryOp::*;
        match self {
            PostInc | PreInc => "++",
            PostDec | PreDec => "--",
            AddrOf => "&",
            Deref => "*",
            Plus => "+",
            Minus => "-",
            BitNot => "~",
            Not => "!",
            Real => "__real",
            Imag => "__imag",
            Extension => "__extension__",
        }
    }
    pub fn is_increment(self) -> bool {
        matches!(
            self,
            UnaryOp::PostInc | UnaryOp::PostDec | UnaryOp::PreInc | UnaryOp::PreDec
        )
    }
    pub fn is_postfix(self) -> bool {
        matches!(self, UnaryOp::PostInc | UnaryOp::PostDec)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Cmp3,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    Comma,
    PtrMemD,
    PtrMemI,
}

impl BinaryOp {
    pub fn spelling(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Cmp3 => "<=>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            And => "&&",
            Or => "||",
            Comma => ",",
            PtrMemD => ".*",
            PtrMemI => "->*",
        }
    }
}

/// A `#pragma omp` directive of the main file and where it sits.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectiveInfo {
    pub directive: crate::pragma::Directive,
    /// The function whose body holds it (None at file scope).
    pub function: Option<FuncId>,
    /// The statement it governs, for directives with an associated statement.
    pub governs: Option<StmtId>,
    /// What the base name of each clause list item refers to, in clause order.
    pub bindings: Vec<Binding>,
    /// The project header it is written in, for a directive of a header body omplens lowers
    /// (its spans are in the header's band); None in the main file.
    pub origin: Option<String>,
}

/// The resolution of a name used in a clause (`a` in `map(to: a[0:n])`).
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    pub name: String,
    pub span: Span,
    pub target: BindingTarget,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingTarget {
    Var(VarId),
    /// A data member of the object of a C++ member function (`this->name`).
    Member,
    /// `this` itself (`map(to: this->x)`).
    This,
    /// Not a variable in scope at the directive.
    Unresolved,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    /// As compilers print it: `error`, `warning`, `note`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A problem found while lowering: a clang error, a pragma syntax error, or a note that some
/// construct is not analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Range in the main file; None when the problem is elsewhere (a header, the command line).
    pub span: Option<Span>,
    pub message: String,
    /// Where it came from: `clang`, `pragma`, `omplens`.
    pub source: &'static str,
}
