//! Canonical printing (`Display`) of directives, clauses, list items and
//! expressions. The output is one line of valid OpenMP/C that parses back to
//! the same tree (spans aside).

use std::fmt::{self, Display, Formatter, Write};

use super::ast::{
    Accessor, Clause, ClauseKind, Directive, DoacrossKind, Expr, ExprKind, IteratorDef, ListItem,
    MapModifier, MotionModifier, ReductionOp, SizeofArg, PREC_POSTFIX, PREC_TERNARY, PREC_UNARY,
};
use super::directives::DirectiveKind;

/// Writes `items` separated by ", ".
fn comma_list<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// Writes `e`, parenthesised when its precedence is below `min_prec`.
fn operand(f: &mut Formatter<'_>, e: &Expr, min_prec: u8) -> fmt::Result {
    if e.precedence() < min_prec {
        write!(f, "({e})")
    } else {
        write!(f, "{e}")
    }
}

/// Writes the base of a postfix expression (`base[..]`, `base(..)`,
/// `base.m`, `base++`), parenthesised when needed. `glued` is true when the
/// operator would merge into a number literal (`1.x`, `0x1e++` lex as one
/// preprocessing number), in which case a space separates them.
fn postfix_base(f: &mut Formatter<'_>, e: &Expr, glued: bool) -> fmt::Result {
    operand(f, e, PREC_POSTFIX)?;
    if glued && matches!(e.kind, ExprKind::Int(_) | ExprKind::Float(_)) {
        f.write_str(" ")?;
    }
    Ok(())
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Ident(s)
            | ExprKind::Int(s)
            | ExprKind::Float(s)
            | ExprKind::Char(s)
            | ExprKind::Str(s) => f.write_str(s),
            ExprKind::Unary(op, e) if op.is_postfix() => {
                postfix_base(f, e, true)?;
                f.write_str(op.symbol())
            }
            ExprKind::Unary(op, e) => {
                let mut inner = String::new();
                if e.precedence() < PREC_UNARY {
                    write!(inner, "({e})")?;
                } else {
                    write!(inner, "{e}")?;
                }
                f.write_str(op.symbol())?;
                // `- -x`, `+ ++x`, `& &x`: keep the tokens apart.
                let last = op.symbol().chars().last();
                if last.is_some() && inner.starts_with(|c: char| Some(c) == last) {
                    f.write_str(" ")?;
                }
                f.write_str(&inner)
            }
            ExprKind::Binary(op, l, r) => {
                operand(f, l, op.precedence())?;
                write!(f, " {} ", op.symbol())?;
                operand(f, r, op.precedence() + 1)
            }
            ExprKind::Ternary(c, t, e) => {
                operand(f, c, PREC_TERNARY + 1)?;
                f.write_str(" ? ")?;
                operand(f, t, PREC_TERNARY)?;
                f.write_str(" : ")?;
                operand(f, e, PREC_TERNARY)
            }
            ExprKind::Call(callee, args) => {
                postfix_base(f, callee, false)?;
                f.write_str("(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    operand(f, a, PREC_TERNARY)?;
                }
                f.write_str(")")
            }
            ExprKind::Index(base, index) => {
                postfix_base(f, base, false)?;
                write!(f, "[{index}]")
            }
            ExprKind::Member(base, name, arrow) => {
                postfix_base(f, base, true)?;
                f.write_str(if *arrow { "->" } else { "." })?;
                f.write_str(name)
            }
            ExprKind::Paren(e) => write!(f, "({e})"),
            ExprKind::Sizeof(SizeofArg::Type(ty)) => write!(f, "sizeof({ty})"),
            ExprKind::Sizeof(SizeofArg::Expr(e)) => {
                // `sizeof (T)x` would read as `sizeof(T)`, so a cast operand
                // gets parentheses.
                let needs_paren =
                    e.precedence() < PREC_UNARY || matches!(e.kind, ExprKind::Cast(..));
                let inner = if needs_paren {
                    format!("({e})")
                } else {
                    e.to_string()
                };
                if inner.starts_with('(') {
                    write!(f, "sizeof{inner}")
                } else {
                    write!(f, "sizeof {inner}")
                }
            }
            ExprKind::Cast(ty, e) => {
                write!(f, "({ty})")?;
                operand(f, e, PREC_UNARY)
            }
        }
    }
}

impl Display for ListItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.deref {
            f.write_str("*")?;
        }
        f.write_str(&self.base.name)?;
        for accessor in &self.path {
            write!(f, "{accessor}")?;
        }
        Ok(())
    }
}

impl Display for Accessor {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Accessor::Member { name, arrow } => {
                write!(f, "{}{}", if *arrow { "->" } else { "." }, name.name)
            }
            Accessor::Index(e) => write!(f, "[{e}]"),
            Accessor::Section {
                lower,
                length,
                stride,
                ..
            } => {
                f.write_str("[")?;
                if let Some(lo) = lower {
                    write!(f, "{lo}")?;
                }
                f.write_str(":")?;
                if let Some(len) = length {
                    write!(f, "{len}")?;
                }
                if let Some(st) = stride {
                    // `[lo: :s]` rather than `[lo::s]`, which would lex `::`.
                    if length.is_none() {
                        f.write_str(" ")?;
                    }
                    write!(f, ":{st}")?;
                }
                f.write_str("]")
            }
        }
    }
}

impl Display for IteratorDef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(ty) = &self.ty {
            write!(f, "{ty} ")?;
        }
        write!(f, "{} = {}:{}", self.name, self.begin, self.end)?;
        if let Some(step) = &self.step {
            write!(f, ":{step}")?;
        }
        Ok(())
    }
}

fn write_iterator(f: &mut Formatter<'_>, defs: &[IteratorDef]) -> fmt::Result {
    f.write_str("iterator(")?;
    comma_list(f, defs)?;
    f.write_str(")")
}

impl Display for MapModifier {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            MapModifier::Always => f.write_str("always"),
            MapModifier::Close => f.write_str("close"),
            MapModifier::Present => f.write_str("present"),
            MapModifier::OmpxHold => f.write_str("ompx_hold"),
            MapModifier::Mapper(id) => write!(f, "mapper({id})"),
            MapModifier::Iterator(defs) => write_iterator(f, defs),
        }
    }
}

impl Display for MotionModifier {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            MotionModifier::Present => f.write_str("present"),
            MotionModifier::Mapper(id) => write!(f, "mapper({id})"),
            MotionModifier::Iterator(defs) => write_iterator(f, defs),
        }
    }
}

impl Display for ReductionOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Display for Clause {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)
    }
}

impl Display for ClauseKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let name = self.name();
        match self {
            ClauseKind::Nowait => f.write_str(name),
            ClauseKind::Other { name, raw } => match raw {
                Some(raw) => write!(f, "{name}({raw})"),
                None => f.write_str(name),
            },
            ClauseKind::Indirect(None) => f.write_str(name),
            _ => {
                write!(f, "{name}(")?;
                self.write_args(f)?;
                f.write_str(")")
            }
        }
    }
}

impl ClauseKind {
    /// Writes the text between the parentheses.
    fn write_args(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ClauseKind::Map {
                modifiers,
                map_type,
                items,
            } => {
                comma_list(f, modifiers)?;
                if let Some(t) = map_type {
                    if !modifiers.is_empty() {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                if !modifiers.is_empty() || map_type.is_some() {
                    f.write_str(": ")?;
                }
                comma_list(f, items)
            }
            ClauseKind::To { modifiers, items } | ClauseKind::From { modifiers, items } => {
                if !modifiers.is_empty() {
                    comma_list(f, modifiers)?;
                    f.write_str(": ")?;
                }
                comma_list(f, items)
            }
            ClauseKind::Lastprivate { conditional, items } => {
                if *conditional {
                    f.write_str("conditional: ")?;
                }
                comma_list(f, items)
            }
            ClauseKind::Reduction {
                modifier,
                op,
                items,
            } => {
                if let Some(m) = modifier {
                    write!(f, "{m}, ")?;
                }
                write!(f, "{op}: ")?;
                comma_list(f, items)
            }
            ClauseKind::InReduction { op, items } | ClauseKind::TaskReduction { op, items } => {
                write!(f, "{op}: ")?;
                comma_list(f, items)
            }
            ClauseKind::Private(items)
            | ClauseKind::Firstprivate(items)
            | ClauseKind::Shared(items)
            | ClauseKind::IsDevicePtr(items)
            | ClauseKind::HasDeviceAddr(items)
            | ClauseKind::UseDevicePtr(items)
            | ClauseKind::UseDeviceAddr(items)
            | ClauseKind::Enter(items)
            | ClauseKind::Link(items) => comma_list(f, items),
            ClauseKind::Defaultmap { behavior, category } => {
                write!(f, "{behavior}")?;
                if let Some(c) = category {
                    write!(f, ": {c}")?;
                }
                Ok(())
            }
            ClauseKind::Default(kind) => write!(f, "{kind}"),
            ClauseKind::Depend {
                kind,
                iterator,
                items,
            } => {
                if let Some(defs) = iterator {
                    write_iterator(f, defs)?;
                    f.write_str(", ")?;
                }
                write!(f, "{kind}: ")?;
                comma_list(f, items)
            }
            ClauseKind::Doacross {
                kind,
                vector,
                legacy_depend,
            } => {
                write!(f, "{kind}")?;
                if *legacy_depend && *kind == DoacrossKind::Source && vector.is_empty() {
                    return Ok(());
                }
                f.write_str(":")?;
                if !vector.is_empty() {
                    f.write_str(" ")?;
                    comma_list(f, vector)?;
                }
                Ok(())
            }
            ClauseKind::Device { modifier, expr } => {
                if let Some(m) = modifier {
                    write!(f, "{m}: ")?;
                }
                write!(f, "{expr}")
            }
            ClauseKind::If { modifier, expr } => {
                if let Some(m) = modifier {
                    write!(f, "{m}: ")?;
                }
                write!(f, "{expr}")
            }
            ClauseKind::Collapse(e)
            | ClauseKind::NumTeams(e)
            | ClauseKind::ThreadLimit(e)
            | ClauseKind::NumThreads(e)
            | ClauseKind::Indirect(Some(e)) => write!(f, "{e}"),
            ClauseKind::Schedule {
                modifiers,
                kind,
                chunk,
            } => {
                if !modifiers.is_empty() {
                    comma_list(f, modifiers)?;
                    f.write_str(": ")?;
                }
                write!(f, "{kind}")?;
                if let Some(c) = chunk {
                    write!(f, ", {c}")?;
                }
                Ok(())
            }
            ClauseKind::DistSchedule { kind, chunk } => {
                write!(f, "{kind}")?;
                if let Some(c) = chunk {
                    write!(f, ", {c}")?;
                }
                Ok(())
            }
            ClauseKind::DeviceType(t) => write!(f, "{t}"),
            ClauseKind::Nowait | ClauseKind::Indirect(None) | ClauseKind::Other { .. } => Ok(()),
        }
    }
}

impl Display for Directive {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "#pragma omp {}", self.kind.name())?;
        let list_after_clauses = self.kind == DirectiveKind::Flush && !self.clauses.is_empty();
        if !list_after_clauses {
            self.write_argument(f)?;
        }
        for clause in &self.clauses {
            write!(f, " {clause}")?;
        }
        if list_after_clauses && !self.arguments.is_empty() {
            f.write_str(" ")?;
            self.write_argument(f)?;
        }
        Ok(())
    }
}

impl Directive {
    fn write_argument(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some((raw, _)) = &self.raw_argument {
            write!(f, "({raw})")?;
        } else if !self.arguments.is_empty() {
            f.write_str("(")?;
            comma_list(f, &self.arguments)?;
            f.write_str(")")?;
        }
        Ok(())
    }
}
