//! Syntax tree of a parsed `#pragma omp` directive.

use super::{DirectiveKind, Span};

/// Defines a fieldless enum of OpenMP keywords with `as_str`, `from_name`
/// and `ALL`.
macro_rules! keyword_enum {
    ($(#[$meta:meta])* $name:ident { $($var:ident => $text:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($var),*
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$var),*];

            /// The OpenMP spelling.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$var => $text),*
                }
            }

            /// Parses the OpenMP spelling.
            pub fn from_name(name: &str) -> Option<$name> {
                match name {
                    $($text => Some($name::$var),)*
                    _ => None,
                }
            }

            /// Every spelling joined with ", " (for diagnostics).
            pub fn expected_list() -> String {
                let names: Vec<&str> = Self::ALL.iter().map(|v| v.as_str()).collect();
                names.join(", ")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// A recognised OpenMP directive with its clauses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    pub kind: DirectiveKind,
    /// Span of the directive name words (e.g. `target teams` incl. the
    /// whitespace between them).
    pub name_span: Span,
    /// From `#` to the end of the last token of the directive (a trailing
    /// comment is not included).
    pub span: Span,
    /// Parenthesised list argument: `declare target(a, b)`,
    /// `threadprivate(x)`, `flush(x)`, `allocate(x)`, `depobj(o)`, and the
    /// name of `critical(name)` (a plain [`ListItem`] with an empty path).
    pub arguments: Vec<ListItem>,
    /// Parenthesised argument kept as normalised text (tokens separated by
    /// single spaces where the source had whitespace) for `declare reduction`,
    /// `declare mapper`, `declare variant` and `declare simd`. The span
    /// covers the text inside the parentheses.
    pub raw_argument: Option<(String, Span)>,
    pub clauses: Vec<Clause>,
}

impl Directive {
    /// Clauses whose OpenMP name is `name`.
    pub fn clauses_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Clause> + 'a {
        self.clauses.iter().filter(move |c| c.name() == name)
    }

    /// True when some clause is named `name`.
    pub fn has_clause(&self, name: &str) -> bool {
        self.clauses_named(name).next().is_some()
    }

    /// Like [`DirectiveKind::has_associated_statement`], but also knows that
    /// `ordered` with a `depend` or `doacross` clause is standalone.
    pub fn has_associated_statement(&self) -> bool {
        if self.kind == DirectiveKind::Ordered
            && self.clauses.iter().any(|c| {
                matches!(
                    c.kind,
                    ClauseKind::Depend { .. } | ClauseKind::Doacross { .. }
                )
            })
        {
            return false;
        }
        self.kind.has_associated_statement()
    }

    /// Every list item that appears in a clause of this directive, with the
    /// clause it appears in (directive arguments are not included).
    pub fn clause_items(&self) -> impl Iterator<Item = (&Clause, &ListItem)> {
        self.clauses
            .iter()
            .flat_map(|c| c.kind.items().iter().map(move |i| (c, i)))
    }
}

/// One clause of a directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    pub kind: ClauseKind,
    /// The whole clause, including its parentheses.
    pub span: Span,
    /// The clause name.
    pub name_span: Span,
}

impl Clause {
    /// The OpenMP clause name (`map`, `to`, `nowait`, ...).
    pub fn name(&self) -> &str {
        self.kind.name()
    }
}

/// What a clause says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClauseKind {
    /// `map([modifiers[,]... [map-type] :] list)`.
    Map {
        modifiers: Vec<MapModifier>,
        map_type: Option<MapType>,
        items: Vec<ListItem>,
    },
    /// Motion clause of `target update`; also `to(list)` of `declare target`.
    To {
        modifiers: Vec<MotionModifier>,
        items: Vec<ListItem>,
    },
    From {
        modifiers: Vec<MotionModifier>,
        items: Vec<ListItem>,
    },
    Private(Vec<ListItem>),
    Firstprivate(Vec<ListItem>),
    Shared(Vec<ListItem>),
    /// `lastprivate([conditional:] list)`.
    Lastprivate {
        conditional: bool,
        items: Vec<ListItem>,
    },
    /// `reduction([modifier,] op: list)`.
    Reduction {
        modifier: Option<ReductionModifier>,
        op: ReductionOp,
        items: Vec<ListItem>,
    },
    /// `in_reduction(op: list)`.
    InReduction {
        op: ReductionOp,
        items: Vec<ListItem>,
    },
    /// `task_reduction(op: list)`.
    TaskReduction {
        op: ReductionOp,
        items: Vec<ListItem>,
    },
    IsDevicePtr(Vec<ListItem>),
    HasDeviceAddr(Vec<ListItem>),
    UseDevicePtr(Vec<ListItem>),
    UseDeviceAddr(Vec<ListItem>),
    /// `defaultmap(behavior[: category])`.
    Defaultmap {
        behavior: DefaultmapBehavior,
        category: Option<DefaultmapCategory>,
    },
    /// `default(kind)`. (On `metadirective`, `default(variant)` is an
    /// [`ClauseKind::Other`].)
    Default(DefaultKind),
    /// `depend([iterator(...),] kind: list)`. The doacross forms
    /// `depend(source)` and `depend(sink: vec)` are [`ClauseKind::Doacross`].
    Depend {
        kind: DependKind,
        iterator: Option<Vec<IteratorDef>>,
        items: Vec<ListItem>,
    },
    /// `doacross(source:)`, `doacross(sink: i - 1, j)`, and the deprecated
    /// spellings `depend(source)` / `depend(sink: ...)` (`legacy_depend`).
    Doacross {
        kind: DoacrossKind,
        vector: Vec<Expr>,
        legacy_depend: bool,
    },
    Nowait,
    /// `device([modifier:] expr)`.
    Device {
        modifier: Option<DeviceModifier>,
        expr: Expr,
    },
    /// `if([directive-name-modifier:] expr)`; the modifier is the canonical
    /// directive name, words separated by one space (`target data`).
    If {
        modifier: Option<String>,
        expr: Expr,
    },
    Collapse(Expr),
    /// `num_teams(upper)`. The OpenMP 5.1 form with a lower bound,
    /// `num_teams(lo: hi)`, is kept as [`ClauseKind::Other`].
    NumTeams(Expr),
    ThreadLimit(Expr),
    NumThreads(Expr),
    /// `schedule([modifier[, modifier]:] kind[, chunk])`.
    Schedule {
        modifiers: Vec<ScheduleModifier>,
        kind: ScheduleKind,
        chunk: Option<Expr>,
    },
    /// `dist_schedule(static[, chunk])`.
    DistSchedule {
        kind: ScheduleKind,
        chunk: Option<Expr>,
    },
    Enter(Vec<ListItem>),
    Link(Vec<ListItem>),
    DeviceType(DeviceType),
    Indirect(Option<Expr>),
    /// A valid OpenMP clause that is not modelled. `raw` is the text inside
    /// the parentheses, normalised (tokens separated by one space where the
    /// source had whitespace or comments), or `None` without parentheses.
    Other {
        name: String,
        raw: Option<String>,
    },
}

impl ClauseKind {
    /// The OpenMP clause name.
    pub fn name(&self) -> &str {
        match self {
            ClauseKind::Map { .. } => "map",
            ClauseKind::To { .. } => "to",
            ClauseKind::From { .. } => "from",
            ClauseKind::Private(_) => "private",
            ClauseKind::Firstprivate(_) => "firstprivate",
            ClauseKind::Shared(_) => "shared",
            ClauseKind::Lastprivate { .. } => "lastprivate",
            ClauseKind::Reduction { .. } => "reduction",
            ClauseKind::InReduction { .. } => "in_reduction",
            ClauseKind::TaskReduction { .. } => "task_reduction",
            ClauseKind::IsDevicePtr(_) => "is_device_ptr",
            ClauseKind::HasDeviceAddr(_) => "has_device_addr",
            ClauseKind::UseDevicePtr(_) => "use_device_ptr",
            ClauseKind::UseDeviceAddr(_) => "use_device_addr",
            ClauseKind::Defaultmap { .. } => "defaultmap",
            ClauseKind::Default(_) => "default",
            ClauseKind::Depend { .. } => "depend",
            ClauseKind::Doacross {
                legacy_depend: true,
                ..
            } => "depend",
            ClauseKind::Doacross { .. } => "doacross",
            ClauseKind::Nowait => "nowait",
            ClauseKind::Device { .. } => "device",
            ClauseKind::If { .. } => "if",
            ClauseKind::Collapse(_) => "collapse",
            ClauseKind::NumTeams(_) => "num_teams",
            ClauseKind::ThreadLimit(_) => "thread_limit",
            ClauseKind::NumThreads(_) => "num_threads",
            ClauseKind::Schedule { .. } => "schedule",
            ClauseKind::DistSchedule { .. } => "dist_schedule",
            ClauseKind::Enter(_) => "enter",
            ClauseKind::Link(_) => "link",
            ClauseKind::DeviceType(_) => "device_type",
            ClauseKind::Indirect(_) => "indirect",
            ClauseKind::Other { name, .. } => name,
        }
    }

    /// The list items of a list-taking clause (empty for the others).
    pub fn items(&self) -> &[ListItem] {
        match self {
            ClauseKind::Map { items, .. }
            | ClauseKind::To { items, .. }
            | ClauseKind::From { items, .. }
            | ClauseKind::Lastprivate { items, .. }
            | ClauseKind::Reduction { items, .. }
            | ClauseKind::InReduction { items, .. }
            | ClauseKind::TaskReduction { items, .. }
            | ClauseKind::Depend { items, .. }
            | ClauseKind::Private(items)
            | ClauseKind::Firstprivate(items)
            | ClauseKind::Shared(items)
            | ClauseKind::IsDevicePtr(items)
            | ClauseKind::HasDeviceAddr(items)
            | ClauseKind::UseDevicePtr(items)
            | ClauseKind::UseDeviceAddr(items)
            | ClauseKind::Enter(items)
            | ClauseKind::Link(items) => items,
            _ => &[],
        }
    }
}

/// Modifier of a `map` clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapModifier {
    Always,
    Close,
    Present,
    /// LLVM extension `ompx_hold`.
    OmpxHold,
    /// `mapper(id)`; `id` may be `default`.
    Mapper(String),
    Iterator(Vec<IteratorDef>),
}

/// Modifier of a `to` / `from` motion clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MotionModifier {
    Present,
    Mapper(String),
    Iterator(Vec<IteratorDef>),
}

/// One definition of an `iterator(...)` modifier:
/// `[type] name = begin : end [: step]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IteratorDef {
    /// Type text, normalised like [`ExprKind::Cast`] types.
    pub ty: Option<String>,
    pub name: String,
    pub begin: Expr,
    pub end: Expr,
    pub step: Option<Expr>,
}

keyword_enum! {
    /// Map type of a `map` clause.
    MapType {
        To => "to",
        From => "from",
        ToFrom => "tofrom",
        Alloc => "alloc",
        Release => "release",
        Delete => "delete",
    }
}

keyword_enum! {
    /// `reduction` modifier.
    ReductionModifier {
        Inscan => "inscan",
        Task => "task",
        Default => "default",
    }
}

/// Reduction identifier.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReductionOp {
    Add,
    Mul,
    Sub,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
    Max,
    Min,
    /// A user-defined reduction identifier (`declare reduction`), possibly
    /// `::`-qualified.
    Custom(String),
}

impl ReductionOp {
    /// The spelling in a clause.
    pub fn as_str(&self) -> &str {
        match self {
            ReductionOp::Add => "+",
            ReductionOp::Mul => "*",
            ReductionOp::Sub => "-",
            ReductionOp::BitAnd => "&",
            ReductionOp::BitOr => "|",
            ReductionOp::BitXor => "^",
            ReductionOp::And => "&&",
            ReductionOp::Or => "||",
            ReductionOp::Max => "max",
            ReductionOp::Min => "min",
            ReductionOp::Custom(name) => name,
        }
    }

    /// Parses an operator token or identifier.
    pub fn from_token(text: &str) -> Option<ReductionOp> {
        Some(match text {
            "+" => ReductionOp::Add,
            "*" => ReductionOp::Mul,
            "-" => ReductionOp::Sub,
            "&" => ReductionOp::BitAnd,
            "|" => ReductionOp::BitOr,
            "^" => ReductionOp::BitXor,
            "&&" => ReductionOp::And,
            "||" => ReductionOp::Or,
            "max" => ReductionOp::Max,
            "min" => ReductionOp::Min,
            _ => return None,
        })
    }
}

keyword_enum! {
    /// Implicit behavior of `defaultmap`.
    DefaultmapBehavior {
        Alloc => "alloc",
        To => "to",
        From => "from",
        ToFrom => "tofrom",
        Firstprivate => "firstprivate",
        None => "none",
        Default => "default",
        Present => "present",
    }
}

keyword_enum! {
    /// Variable category of `defaultmap`.
    DefaultmapCategory {
        Scalar => "scalar",
        Aggregate => "aggregate",
        Pointer => "pointer",
        All => "all",
        Allocatable => "allocatable",
    }
}

keyword_enum! {
    /// Argument of `default`.
    DefaultKind {
        Shared => "shared",
        None => "none",
        Private => "private",
        Firstprivate => "firstprivate",
    }
}

keyword_enum! {
    /// Dependence type of a `depend` clause (task dependences).
    DependKind {
        In => "in",
        Out => "out",
        Inout => "inout",
        Mutexinoutset => "mutexinoutset",
        Inoutset => "inoutset",
        Depobj => "depobj",
    }
}

keyword_enum! {
    /// Dependence type of a `doacross` clause (or legacy `depend(source)` /
    /// `depend(sink: ...)`).
    DoacrossKind {
        Source => "source",
        Sink => "sink",
    }
}

keyword_enum! {
    /// Modifier of a `device` clause.
    DeviceModifier {
        Ancestor => "ancestor",
        DeviceNum => "device_num",
    }
}

keyword_enum! {
    /// Modifier of a `schedule` clause.
    ScheduleModifier {
        Monotonic => "monotonic",
        Nonmonotonic => "nonmonotonic",
        Simd => "simd",
    }
}

keyword_enum! {
    /// Kind of a `schedule` / `dist_schedule` clause.
    ScheduleKind {
        Static => "static",
        Dynamic => "dynamic",
        Guided => "guided",
        Auto => "auto",
        Runtime => "runtime",
    }
}

keyword_enum! {
    /// Argument of `device_type`.
    DeviceType {
        Host => "host",
        Nohost => "nohost",
        Any => "any",
    }
}

/// A list item: a variable, struct member path, array element or array
/// section of any rank, optionally dereferenced (`*p`, OpenMP 5.0+).
///
/// Examples: `a`, `s.f`, `p->f`, `a[lo:len]`, `a[:len]`, `a[lo:]`, `a[:]`,
/// `a[i]`, `p->f[0:n][0:m]`, `a[lo:len:stride]`, `*p`, `*p->q`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListItem {
    pub span: Span,
    /// A leading `*` applied to the whole item: `*p.q` is `*(p.q)`. Only one
    /// `*` is accepted.
    pub deref: bool,
    /// The first name (may be `::`-qualified, e.g. `ns::x`).
    pub base: Ident,
    pub path: Vec<Accessor>,
}

impl ListItem {
    /// The array sections in the path, outermost first.
    pub fn sections(&self) -> impl Iterator<Item = &Accessor> {
        self.path
            .iter()
            .filter(|a| matches!(a, Accessor::Section { .. }))
    }

    /// True when the path contains an array section.
    pub fn has_sections(&self) -> bool {
        self.sections().next().is_some()
    }

    /// True for a bare variable name (`a`).
    pub fn is_plain_variable(&self) -> bool {
        !self.deref && self.path.is_empty()
    }

    /// The last member name in the path, or the base name.
    pub fn last_name(&self) -> &Ident {
        self.path
            .iter()
            .rev()
            .find_map(|a| match a {
                Accessor::Member { name, .. } => Some(name),
                _ => None,
            })
            .unwrap_or(&self.base)
    }
}

/// An identifier with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// One step of a list item path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Accessor {
    /// `.name` or `->name`.
    Member { name: Ident, arrow: bool },
    /// `[expr]`.
    Index(Expr),
    /// `[lower : length : stride]`, each part optional; `span` covers the
    /// brackets.
    Section {
        lower: Option<Expr>,
        length: Option<Expr>,
        stride: Option<Expr>,
        span: Span,
    },
}

/// A C expression.
///
/// Casts are recognised with a heuristic: a parenthesised sequence of
/// identifiers and `*` (with optional `::` qualification) is a type when it
/// contains a `*` after a name, more than one word (`unsigned long`,
/// `struct s`), a C type keyword (`int`, `double`, `void`, `const`, ...) or a
/// name ending in `_t` (`size_t`). Such a type followed by an operand is a
/// cast. A single other identifier in parentheses, `(T)`, is a cast only when
/// directly followed by an identifier or literal (`(T)x`); `(f)(x)` is a
/// call and `(a) - b` a subtraction. `sizeof(...)` takes a type only under
/// the first rule, so `sizeof(x)` is `sizeof` of the expression `(x)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// Expression node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// A name, possibly `::`-qualified.
    Ident(String),
    /// Integer literal text including prefix and suffix (`10`, `0x1F`,
    /// `100UL`).
    Int(String),
    /// Floating literal text (`1.5`, `2e10f`).
    Float(String),
    /// Character literal text including quotes and prefix (`'a'`, `L'x'`).
    Char(String),
    /// String literal text including quotes and prefix; adjacent literals
    /// are joined with one space (`"a" "b"`).
    Str(String),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `base.name` or `base->name` (`true` = arrow).
    Member(Box<Expr>, String, bool),
    /// Parentheses as written.
    Paren(Box<Expr>),
    Sizeof(SizeofArg),
    /// `(type)expr`; the type text is normalised: words separated by one
    /// space, `*` separated from a preceding word by a space (`char **`,
    /// `const char *`, `unsigned long`).
    Cast(String, Box<Expr>),
}

/// Operand of `sizeof`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeofArg {
    /// `sizeof(type)`; normalised like [`ExprKind::Cast`] types.
    Type(String),
    /// `sizeof expr` (parentheses, if any, are a [`ExprKind::Paren`]).
    Expr(Box<Expr>),
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Plus,
    Neg,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

impl UnaryOp {
    /// The operator token.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Plus => "+",
            UnaryOp::Neg => "-",
            UnaryOp::Not => "!",
            UnaryOp::BitNot => "~",
            UnaryOp::Deref => "*",
            UnaryOp::AddrOf => "&",
            UnaryOp::PreInc | UnaryOp::PostInc => "++",
            UnaryOp::PreDec | UnaryOp::PostDec => "--",
        }
    }

    /// True for `x++` / `x--`.
    pub fn is_postfix(self) -> bool {
        matches!(self, UnaryOp::PostInc | UnaryOp::PostDec)
    }

    pub(crate) fn prefix_from_token(text: &str) -> Option<UnaryOp> {
        Some(match text {
            "+" => UnaryOp::Plus,
            "-" => UnaryOp::Neg,
            "!" => UnaryOp::Not,
            "~" => UnaryOp::BitNot,
            "*" => UnaryOp::Deref,
            "&" => UnaryOp::AddrOf,
            "++" => UnaryOp::PreInc,
            "--" => UnaryOp::PreDec,
            _ => return None,
        })
    }
}

/// Binary operators (no assignment, no comma).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
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
}

impl BinaryOp {
    /// Every operator.
    pub const ALL: &'static [BinaryOp] = &[
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Rem,
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Shl,
        BinaryOp::Shr,
        BinaryOp::Lt,
        BinaryOp::Gt,
        BinaryOp::Le,
        BinaryOp::Ge,
        BinaryOp::Eq,
        BinaryOp::Ne,
        BinaryOp::BitAnd,
        BinaryOp::BitXor,
        BinaryOp::BitOr,
        BinaryOp::And,
        BinaryOp::Or,
    ];

    /// The operator token.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitXor => "^",
            BinaryOp::BitOr => "|",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }

    /// C precedence, higher binds tighter (multiplicative = 13 ... `||` = 4).
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 13,
            BinaryOp::Add | BinaryOp::Sub => 12,
            BinaryOp::Shl | BinaryOp::Shr => 11,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => 10,
            BinaryOp::Eq | BinaryOp::Ne => 9,
            BinaryOp::BitAnd => 8,
            BinaryOp::BitXor => 7,
            BinaryOp::BitOr => 6,
            BinaryOp::And => 5,
            BinaryOp::Or => 4,
        }
    }

    pub(crate) fn from_token(text: &str) -> Option<BinaryOp> {
        BinaryOp::ALL.iter().copied().find(|op| op.symbol() == text)
    }
}

/// Precedence of a ternary expression.
pub(crate) const PREC_TERNARY: u8 = 3;
/// Precedence of prefix unary operators, casts and `sizeof`.
pub(crate) const PREC_UNARY: u8 = 14;
/// Precedence of primary and postfix expressions.
pub(crate) const PREC_POSTFIX: u8 = 15;

impl Expr {
    /// Creates an expression.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// C precedence of the expression's top operator (15 for primary and
    /// postfix expressions, 14 for prefix unary operators, casts and
    /// `sizeof`, [`BinaryOp::precedence`] for binaries, 3 for `?:`).
    pub fn precedence(&self) -> u8 {
        match &self.kind {
            ExprKind::Ident(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Char(_)
            | ExprKind::Str(_)
            | ExprKind::Paren(_)
            | ExprKind::Call(..)
            | ExprKind::Index(..)
            | ExprKind::Member(..) => PREC_POSTFIX,
            ExprKind::Unary(op, _) if op.is_postfix() => PREC_POSTFIX,
            ExprKind::Unary(..) | ExprKind::Sizeof(_) | ExprKind::Cast(..) => PREC_UNARY,
            ExprKind::Binary(op, _, _) => op.precedence(),
            ExprKind::Ternary(..) => PREC_TERNARY,
        }
    }

    /// The expression without any outer [`ExprKind::Paren`].
    pub fn strip_parens(&self) -> &Expr {
        let mut e = self;
        while let ExprKind::Paren(inner) = &e.kind {
            e = inner;
        }
        e
    }
}
