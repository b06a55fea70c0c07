//! `declare mapper` (OpenMP 5.2 §5.8.8): a map clause whose list item has a mapper, named
//! (`map(mapper(id), tofrom: s)`) or the default one of its type (`declare mapper(T v)`, also
//! for the implicit map of a variable of that type), maps what the mapper's own `map`
//! clauses name with the mapper's variable replaced by the item (`v.val[0:v.n]` becomes
//! `s.val[0:s.n]`), each with the map type the two map types combine to. A motion clause
//! (`target update to(s)`) with a mapper updates the mapper's items that copy in that
//! direction.
//!
//! Only list items that are a plain variable are expanded (an array of structs or a member
//! with a mapper keeps its item as written); a mapper is matched to a variable by the type's
//! name as written, with `struct`/`class`/`union` and `const` left out.

use crate::ir::{Module, TypeKind, VarId};
use crate::pragma::{Accessor, ClauseKind, DirectiveKind, Expr, ExprKind, ListItem, MapModifier};
use crate::pragma::{Ident, MapType, MotionModifier};

/// One `declare mapper` of the module.
#[derive(Clone, Debug)]
pub struct Mapper {
    /// `default` for a mapper declared without an identifier.
    pub id: String,
    /// The type's name, normalised ([`normalise_type`]).
    pub ty: String,
    /// The mapper's variable (`v` in `declare mapper(T v)`).
    pub var: String,
    /// Its map clauses' items: the item, its map type and whether it is `always`.
    pub items: Vec<(ListItem, MapType, bool)>,
}

/// Every `declare mapper` of the module that omplens can read, in source order.
pub fn mappers(module: &Module) -> Vec<Mapper> {
    module
        .directives
        .iter()
        .filter(|info| info.directive.kind == DirectiveKind::DeclareMapper)
        .filter_map(|info| {
            let (text, _) = info.directive.raw_argument.as_ref()?;
            let (id, ty, var) = parse_argument(text)?;
            let items = info
                .directive
                .clauses
                .iter()
                .filter_map(|c| match &c.kind {
                    ClauseKind::Map {
                        modifiers,
                        map_type,
                        items,
                    } => Some((
                        items,
                        map_type.unwrap_or(MapType::ToFrom),
                        modifiers.contains(&MapModifier::Always),
                    )),
                    _ => None,
                })
                .flat_map(|(items, t, always)| items.iter().map(move |i| (i.clone(), t, always)))
                .collect();
            Some(Mapper { id, ty, var, items })
        })
        .collect()
}

/// `[id :] type var` → (id, normalised type, var); `default` when no identifier is given.
fn parse_argument(text: &str) -> Option<(String, String, String)> {
    let bytes = text.as_bytes();
    // The identifier's `:` is one that is not half of a `::`.
    let colon = (0..bytes.len()).find(|&i| {
        bytes[i] == b':'
            && (i == 0 || bytes[i - 1] != b':')
            && bytes.get(i + 1).is_none_or(|&c| c != b':')
    });
    let (id, decl) = match colon {
        Some(i) => (text[..i].trim().to_string(), &text[i + 1..]),
        None => ("default".to_string(), text),
    };
    let decl = decl.trim();
    let split = decl.rfind(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    let var = decl[split + 1..].to_string();
    let ty = normalise_type(&decl[..=split]);
    (!var.is_empty() && !ty.is_empty() && !id.is_empty()).then_some((id, ty, var))
}

/// A type's name without `struct`/`class`/`union`/`const` and without spaces.
pub fn normalise_type(ty: &str) -> String {
    ty.split_whitespace()
        .filter(|w| !matches!(*w, "struct" | "class" | "union" | "const"))
        .collect::<Vec<_>>()
        .join("")
}

/// The mapper that applies to variable `v` named by a clause: the one `explicit` names
/// (`mapper(id)`; `default` is the type's default mapper), or else the default mapper of
/// the variable's type.
pub fn for_var<'m>(
    module: &Module,
    mappers: &'m [Mapper],
    v: VarId,
    explicit: Option<&str>,
) -> Option<&'m Mapper> {
    if mappers.is_empty() {
        return None;
    }
    let ty = module.var(v).ty.referent();
    let record = match &ty.kind {
        TypeKind::Record(name) => normalise_type(name),
        _ => return None,
    };
    let spelled = normalise_type(&ty.spelling);
    let id = explicit.unwrap_or("default");
    mappers
        .iter()
        .rev()
        .find(|m| m.id == id && (m.ty == spelled || m.ty == record))
}

/// The mapper a map clause's modifiers name, if any.
pub fn named_in_map(modifiers: &[MapModifier]) -> Option<&str> {
    modifiers.iter().find_map(|m| match m {
        MapModifier::Mapper(id) => Some(id.as_str()),
        _ => None,
    })
}

/// The mapper a motion clause's modifiers name, if any.
pub fn named_in_motion(modifiers: &[MotionModifier]) -> Option<&str> {
    modifiers.iter().find_map(|m| match m {
        MotionModifier::Mapper(id) => Some(id.as_str()),
        _ => None,
    })
}

/// The map type of a mapper's item when the construct maps with `construct` (OpenMP 5.2
/// §5.8.8, the table of combined map types).
pub fn combine(construct: MapType, mapper: MapType) -> MapType {
    use MapType::*;
    match (construct, mapper) {
        (Release | Delete, _) => construct,
        (Alloc, _) | (_, Alloc | Release | Delete) => Alloc,
        (To, To | ToFrom) => To,
        (To, From) | (From, To) => Alloc,
        (From, From | ToFrom) => From,
        (ToFrom, m) => m,
    }
}

/// The mapper's items for the list item `item` (a plain variable): each with the mapper's
/// variable replaced by the item's name, placed at the item. None when the item is not a
/// plain variable.
pub fn expand(mapper: &Mapper, item: &ListItem) -> Option<Vec<(ListItem, MapType, bool)>> {
    if !item.is_plain_variable() {
        return None;
    }
    let name = &item.base.name;
    Some(
        mapper
            .items
            .iter()
            .filter(|(m, _, _)| m.base.name == mapper.var)
            .map(|(m, t, always)| {
                let path = m
                    .path
                    .iter()
                    .map(|a| match a {
                        Accessor::Member { .. } => a.clone(),
                        Accessor::Index(e) => Accessor::Index(rename(e, &mapper.var, name)),
                        Accessor::Section {
                            lower,
                            length,
                            stride,
                            span,
                        } => Accessor::Section {
                            lower: lower.as_ref().map(|e| rename(e, &mapper.var, name)),
                            length: length.as_ref().map(|e| rename(e, &mapper.var, name)),
                            stride: stride.as_ref().map(|e| rename(e, &mapper.var, name)),
                            span: *span,
                        },
                    })
                    .collect();
                let expanded = ListItem {
                    span: item.span,
                    deref: m.deref,
                    base: Ident {
                        name: name.clone(),
                        span: item.base.span,
                    },
                    path,
                };
                (expanded, *t, *always)
            })
            .collect(),
    )
}

/// `e` with the name `from` replaced by `to`.
fn rename(e: &Expr, from: &str, to: &str) -> Expr {
    let r = |x: &Expr| Box::new(rename(x, from, to));
    let kind = match &e.kind {
        ExprKind::Ident(n) if n == from => ExprKind::Ident(to.to_string()),
        ExprKind::Unary(op, x) => ExprKind::Unary(*op, r(x)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, r(a), r(b)),
        ExprKind::Ternary(a, b, c) => ExprKind::Ternary(r(a), r(b), r(c)),
        ExprKind::Call(f, args) => {
            ExprKind::Call(r(f), args.iter().map(|a| rename(a, from, to)).collect())
        }
        ExprKind::Index(a, b) => ExprKind::Index(r(a), r(b)),
        ExprKind::Member(a, m, arrow) => ExprKind::Member(r(a), m.clone(), *arrow),
        ExprKind::Paren(x) => ExprKind::Paren(r(x)),
        ExprKind::Cast(t, x) => ExprKind::Cast(t.clone(), r(x)),
        other => other.clone(),
    };
    Expr { kind, span: e.span }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_with_and_without_identifier() {
        assert_eq!(
            parse_argument("default : myvec_t v"),
            Some(("default".into(), "myvec_t".into(), "v".into()))
        );
        assert_eq!(
            parse_argument("values_only:struct S s"),
            Some(("values_only".into(), "S".into(), "s".into()))
        );
        assert_eq!(
            parse_argument("ns::Vec v"),
            Some(("default".into(), "ns::Vec".into(), "v".into()))
        );
        assert_eq!(parse_argument("id :"), None);
    }

    #[test]
    fn combined_map_types_follow_the_table() {
        use MapType::*;
        assert_eq!(combine(ToFrom, From), From);
        assert_eq!(combine(To, ToFrom), To);
        assert_eq!(combine(To, From), Alloc);
        assert_eq!(combine(From, To), Alloc);
        assert_eq!(combine(Alloc, ToFrom), Alloc);
        assert_eq!(combine(From, Alloc), Alloc);
        assert_eq!(combine(Delete, To), Delete);
    }
}
