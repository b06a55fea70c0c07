//! What a directive's clauses name: map items with their map types and modifiers, motion
//! items of `target update`, and the objects other data-sharing clauses take out of the
//! implicit rules.

use crate::ir::{Binding, BindingTarget, DirId, Module, Span, TypeKind};
use crate::pragma::{Accessor, ClauseKind, Expr, ListItem, MapModifier, MapType};
use crate::semantics::constants::Values;
use crate::semantics::symbolic::pragma_poly;
use crate::semantics::validity::Object;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
pub struct MapItem {
    pub object: Object,
    /// The item as written (`a[0:n]`).
    pub text: String,
    pub span: Span,
    /// The whole `map(...)` clause, and how many items it has (0 for an implicit map and for
    /// an item a mapper stands for: no fix edits those).
    pub clause: Span,
    pub clause_items: usize,
    pub map_type: MapType,
    pub always: bool,
    /// The first array section: lower bound and length as written.
    pub section: Option<(Option<Expr>, Option<Expr>)>,
    pub bytes: Option<u64>,
    /// For an item a mapper stands for: the mapper's item as applied to the clause's
    /// (`s.val[0:s.n]` for `map(tofrom: s)`); `text` is the clause's item as written.
    pub through_mapper: Option<String>,
}

#[derive(Clone, Debug)]
pub struct MotionItem {
    pub object: Object,
    pub text: String,
    pub span: Span,
    pub to_device: bool,
    pub bytes: Option<u64>,
}

#[derive(Clone, Debug, Default)]
pub struct DirectiveItems {
    pub maps: Vec<MapItem>,
    pub motions: Vec<MotionItem>,
    /// Objects in `firstprivate`, `private`, `is_device_ptr`, `has_device_addr`, `reduction`
    /// and the like: not subject to the implicit map rules.
    pub other: Vec<Object>,
    /// Objects in a `reduction` or `lastprivate` clause of the directive itself (mapped
    /// `tofrom` on a combined construct).
    pub reductions: Vec<Object>,
    /// Objects in a `lastprivate` clause of the directive itself (also in `reductions`).
    pub lastprivate: Vec<Object>,
    /// Objects in `private` or `firstprivate` clauses.
    pub private: Vec<Object>,
    /// Objects in `firstprivate` clauses.
    pub firstprivate: Vec<Object>,
    /// Bare pointers in `map` clauses (`map(tofrom: p)`), with the item as a clause
    /// (`map(tofrom: p)`): the pointer variable is mapped, not what it points to (also in
    /// `other`).
    pub bare_pointer_maps: Vec<(Object, String)>,
    /// Objects in `is_device_ptr` or `has_device_addr`: the kernel uses their device data
    /// through a device address (from `use_device_ptr`/`use_device_addr`, or allocated there).
    pub device_addresses: Vec<Object>,
    /// What the construct's `defaultmap` clauses make of the variables no clause names
    /// (OpenMP 5.2 §5.8.7).
    pub defaults: Defaults,
}

/// The implicit data-mapping rules of one construct after its `defaultmap` clauses.
#[derive(Clone, Copy, Debug, Default)]
pub struct Defaults {
    /// Scalars are mapped with this type (`defaultmap(tofrom: scalar)`; `present` maps
    /// `alloc` with the `present` modifier), not firstprivate.
    pub scalar_map: Option<MapType>,
    /// The programmer wrote that scalars are firstprivate (`defaultmap(firstprivate:
    /// scalar)`, or `default`, whose scalar rule is firstprivate): a kernel's write to one is
    /// meant to stay on the device, as with a `firstprivate` clause.
    pub scalars_firstprivate: bool,
    /// Arrays and records are mapped with this type instead of `tofrom`.
    pub aggregate_map: Option<MapType>,
    /// `defaultmap(firstprivate: aggregate)`: arrays and records are private copies.
    pub aggregates_private: bool,
}

impl Defaults {
    fn apply(&mut self, behavior: &str, category: Option<&str>) {
        let map = match behavior {
            "alloc" => Some(MapType::Alloc),
            "to" => Some(MapType::To),
            "from" => Some(MapType::From),
            "tofrom" => Some(MapType::ToFrom),
            // As if mapped `alloc` with the `present` modifier: the device copy is used, no
            // copy either way (a missing one is a run-time error).
            "present" => Some(MapType::Alloc),
            _ => None,
        };
        let scalar = matches!(category, None | Some("scalar") | Some("all"));
        let aggregate = matches!(category, None | Some("aggregate") | Some("all"));
        if scalar {
            match behavior {
                "firstprivate" | "default" => self.scalars_firstprivate = true,
                _ => self.scalar_map = map.or(self.scalar_map),
            }
        }
        if aggregate {
            match behavior {
                "firstprivate" => self.aggregates_private = true,
                _ => self.aggregate_map = map.or(self.aggregate_map),
            }
        }
    }
}

/// The object a list item names, if it names one omplens follows. `split`: the variables
/// followed in parts (`split::Split`).
fn object_of(
    module: &Module,
    binding: &Binding,
    item: &ListItem,
    split: &super::split::Split,
) -> Option<Object> {
    match &binding.target {
        BindingTarget::Var(v) if split.structs.contains(v) => match item.path.first() {
            Some(Accessor::Member { name, .. }) => Some(Object::Field(*v, name.name.clone())),
            _ => Some(Object::Var(*v)),
        },
        // (`split_rows` admits no other items: `p`, `p[0:n]`, or a row `p[i][0:m]`.)
        BindingTarget::Var(v) if split.rows.contains(v) => Some(if item.path.len() == 2 {
            super::split::rows_of(*v)
        } else {
            Object::Var(*v)
        }),
        BindingTarget::Var(v) => Some(Object::Var(*v)),
        // (The binding's name: a reference to a member names the member, `frontend::references`.)
        BindingTarget::Member => Some(Object::Member(binding.name.clone())),
        // `this->d`, `(*this).d`, and `this[0].d` (the object itself, element 0).
        BindingTarget::This => match item.path.as_slice() {
            [Accessor::Member { name, .. }, ..] => Some(Object::Member(name.name.clone())),
            [Accessor::Index(i), Accessor::Member { name, .. }, ..]
                if !item.deref && i.to_string().trim() == "0" =>
            {
                Some(Object::Member(name.name.clone()))
            }
            _ => None,
        },
        BindingTarget::Unresolved => {
            let _ = module;
            None
        }
    }
}

pub fn directive_items(module: &Module, dir: DirId, source: &str) -> DirectiveItems {
    directive_items_with(module, dir, source, None, None)
}

/// [`directive_items`] with the directive's function's member aliases
/// (`effects::member_aliases`) and variables followed in parts (`split::Split`) when the
/// caller has them: they are the costly part, and a function's are the same for each of its
/// directives.
pub fn directive_items_with(
    module: &Module,
    dir: DirId,
    source: &str,
    member_aliases: Option<&HashMap<crate::ir::VarId, String>>,
    split: Option<&super::split::Split>,
) -> DirectiveItems {
    let info = module.directive(dir);
    let split_here;
    let split = match (split, info.function) {
        (Some(s), _) => s,
        (None, Some(f)) => {
            split_here = super::split::Split::of(module, f);
            &split_here
        }
        (None, None) => {
            split_here = super::split::Split::default();
            &split_here
        }
    };
    let d = &info.directive;
    let mut out = DirectiveItems::default();
    // A clause naming a local pointer into a member's data (`p = &dom->m_p[0]`) maps that
    // member's data: the field object the analyses share.
    let names_local_pointer = info.bindings.iter().any(|b| {
        matches!(b.target, crate::ir::BindingTarget::Var(v)
            if module.var(v).ty.is_pointer() && module.var(v).storage == crate::ir::Storage::Local)
    });
    let computed;
    let none = HashMap::new();
    let members = match (
        info.function.filter(|_| names_local_pointer),
        member_aliases,
    ) {
        (None, _) => &none,
        (Some(_), Some(m)) => m,
        (Some(f), None) => {
            computed = crate::semantics::effects::member_aliases(module, module.function(f));
            &computed
        }
    };
    let mappers = super::mappers::mappers(module);
    for (k, (clause, written)) in d.clause_items().enumerate() {
        let Some(binding) = info.bindings.get(k) else {
            continue;
        };
        // A map or motion item with a mapper stands for the mapper's items (one each).
        for (item, mapper_type, mapper_always) in
            with_mapper(module, &mappers, binding, clause, written)
        {
            let item = &item;
            let Some(object) = object_of(module, binding, item, split) else {
                continue;
            };
            let object = match &object {
                Object::Var(v) => members
                    .get(v)
                    .map_or(object.clone(), |m| Object::Member(m.clone())),
                _ => object,
            };
            // (The object the item names, whose units its bounds are in.)
            let named = object.clone();
            // `double *d = (double *)h;` then `map(to: d[0:n])`: the data is `h`'s (the
            // analyses follow `d`'s accesses to `h` when no clause names it separately). When
            // `h` points to elements of another size (rows of a 2-D array), the section's bounds
            // are not in `h`'s units: the item maps `h`'s data, bounds unknown.
            // (A bare pointer, `map(to: p)`, maps the pointer variable itself, not its data.)
            let (object, same_units) = match (&object, info.function) {
                (Object::Var(v), Some(f))
                    if names_local_pointer && item.sections().next().is_some() =>
                {
                    let func = module.function(f);
                    match crate::semantics::sections::copy_root(module, func, *v) {
                        Some((root, same)) => (Object::Var(root), same),
                        // `tail = data + 1` then `target update to(tail[0:1])`: the update
                        // moves part of `data`'s data, where in it not said (a motion only:
                        // a map's presence is not moved to another variable this way).
                        None if matches!(
                            clause.kind,
                            ClauseKind::To { .. } | ClauseKind::From { .. }
                        ) =>
                        {
                            match crate::semantics::sections::offset_root(module, func, *v) {
                                Some(root) => (Object::Var(root), false),
                                None => (object.clone(), true),
                            }
                        }
                        None => (object.clone(), true),
                    }
                }
                _ => (object, true),
            };
            // `declare target` data lives on the device for the whole program.
            if matches!(object, Object::Var(v) if module.var(v).declare_target) {
                continue;
            }
            // (A mapper's item is not written at the clause: the clause's item names it,
            // and its own text is kept beside.)
            let text = module
                .text(source, item.span)
                .unwrap_or(&item.base.name)
                .to_string();
            let through_mapper = mapper_type.map(|_| item.to_string());
            // `a[i][0:m]`: the section is of what `a[i]` points to (a row), not of `a`'s own
            // elements, so its bounds are not in the units of `a`'s allocation.
            let inner_section = item.has_sections()
                && item
                    .path
                    .iter()
                    .take_while(|a| !matches!(a, Accessor::Section { .. }))
                    .any(|a| matches!(a, Accessor::Index(_)));
            // (A mapper's member item: its bytes are not the variable's.)
            let bytes = match mapper_type {
                _ if inner_section => None,
                Some(_) if !item.is_plain_variable() => None,
                _ => item_bytes(module, if same_units { &object } else { &named }, item),
            };
            // A bare pointer in a map (`target enter data map(to: p)`, `exit data
            // map(delete: p)`, `target map(tofrom: p)`): the pointer variable is mapped, not
            // what it points to, which stays as it was (OpenMP 5.2 §5.8.3; clang-19's runtime
            // copies the pointer's 8 bytes and attaches nothing). A kernel that dereferences
            // it is judged at the kernel (`bare_pointer_maps`).
            let bare_pointer = mapper_type.is_none()
                && item.is_plain_variable()
                && matches!(&named, Object::Var(v)
                    if matches!(module.var(*v).ty.kind, crate::ir::TypeKind::Pointer(_)));
            match &clause.kind {
                ClauseKind::Map { map_type, .. } if bare_pointer => {
                    let ty = map_type.unwrap_or(MapType::ToFrom);
                    out.bare_pointer_maps.push((
                        object.clone(),
                        format!("map({}: {})", ty.as_str(), text.trim()),
                    ));
                    out.other.push(object);
                }
                ClauseKind::Map {
                    modifiers,
                    map_type,
                    items,
                } => out.maps.push(MapItem {
                    object,
                    text,
                    span: item.span,
                    clause: clause.span,
                    // (None for a mapper's item: no fix edits the clause's map type, which
                    // the mapper's own types combine with.)
                    clause_items: if mapper_type.is_some() {
                        0
                    } else {
                        items.len()
                    },
                    map_type: match mapper_type {
                        Some(t) => super::mappers::combine(map_type.unwrap_or(MapType::ToFrom), t),
                        None => map_type.unwrap_or(MapType::ToFrom),
                    },
                    always: modifiers.contains(&MapModifier::Always) || mapper_always,
                    section: item.sections().next().map(|s| match s {
                        Accessor::Section { lower, length, .. } if same_units && !inner_section => {
                            (lower.clone(), length.clone())
                        }
                        _ => (None, None),
                    }),
                    bytes,
                    through_mapper: through_mapper.clone(),
                }),
                // A mapper's item updates in the direction of its own map type.
                ClauseKind::To { .. } | ClauseKind::From { .. }
                    if mapper_type.is_some_and(|t| {
                        let to = matches!(clause.kind, ClauseKind::To { .. });
                        !matches!(
                            (to, t),
                            (true, MapType::To | MapType::ToFrom)
                                | (false, MapType::From | MapType::ToFrom)
                        )
                    }) => {}
                ClauseKind::To { .. } | ClauseKind::From { .. } => out.motions.push(MotionItem {
                    object,
                    text,
                    span: item.span,
                    to_device: matches!(clause.kind, ClauseKind::To { .. }),
                    bytes,
                }),
                ClauseKind::Reduction { .. } => {
                    out.reductions.push(object.clone());
                    out.other.push(object);
                }
                ClauseKind::Private(_) => {
                    out.private.push(object.clone());
                    out.other.push(object);
                }
                ClauseKind::Firstprivate(_) => {
                    out.private.push(object.clone());
                    out.firstprivate.push(object.clone());
                    out.other.push(object);
                }
                ClauseKind::IsDevicePtr(_) | ClauseKind::HasDeviceAddr(_) => {
                    out.device_addresses.push(object.clone());
                    out.other.push(object);
                }
                // `shared` names the kernel's own (mapped) copy: nothing private about it.
                ClauseKind::Shared(_) => {}
                // Task dependences order the construct; they do not touch the data environment
                // (the kernel's `a` in `depend(out: a[0])` is still its mapped `a`).
                ClauseKind::Depend { .. } => {}
                // On a combined construct with `target`, a lastprivate item is also mapped
                // `tofrom` (OpenMP 5.2 §17.2), like a reduction's.
                ClauseKind::Lastprivate { .. } => {
                    out.reductions.push(object.clone());
                    out.lastprivate.push(object.clone());
                    out.other.push(object);
                }
                _ => out.other.push(object),
            }
        }
    }
    for c in &d.clauses {
        if let ClauseKind::Defaultmap { behavior, category } = &c.kind {
            out.defaults
                .apply(behavior.as_str(), category.map(|c| c.as_str()));
        }
    }
    out
}

/// The items one clause item stands for: itself (no mapper type), or, for a map or motion
/// item of a variable with a mapper, the mapper's items with their map types and `always`.
fn with_mapper(
    module: &Module,
    mappers: &[super::mappers::Mapper],
    binding: &Binding,
    clause: &crate::pragma::Clause,
    item: &ListItem,
) -> Vec<(ListItem, Option<MapType>, bool)> {
    let plain = || vec![(item.clone(), None, false)];
    let named = match &clause.kind {
        ClauseKind::Map { modifiers, .. } => super::mappers::named_in_map(modifiers),
        ClauseKind::To { modifiers, .. } | ClauseKind::From { modifiers, .. } => {
            super::mappers::named_in_motion(modifiers)
        }
        _ => return plain(),
    };
    let BindingTarget::Var(v) = binding.target else {
        return plain();
    };
    super::mappers::for_var(module, mappers, v, named)
        .and_then(|m| super::mappers::expand(m, item))
        .map(|items| {
            items
                .into_iter()
                .map(|(i, t, always)| (i, Some(t), always))
                .collect()
        })
        .unwrap_or_else(plain)
}

/// Bytes a list item covers, when its extent is a constant.
fn item_bytes(module: &Module, object: &Object, item: &ListItem) -> Option<u64> {
    let Object::Var(v) = object else { return None };
    let ty = module.var(*v).ty.referent();
    let section = item.sections().next();
    match (section, &ty.kind) {
        (None, TypeKind::Pointer(_)) => None,
        (None, _) => ty.size,
        (Some(Accessor::Section { lower, length, .. }), kind) => {
            let elem = match kind {
                TypeKind::Pointer(t) => t.size?,
                TypeKind::Array { element, len } => match length {
                    None => {
                        let lo = lower.as_ref().map_or(Some(0), const_value)?;
                        return len
                            .map(|n| (n as i64 - lo).max(0) as u64)
                            .zip(element.size)
                            .map(|(n, e)| n * e);
                    }
                    Some(_) => element.size?,
                },
                _ => return None,
            };
            let n = const_value(length.as_ref()?)?;
            Some(n.max(0) as u64 * elem)
        }
        _ => None,
    }
}

/// The value of a constant integer expression.
pub fn const_value(e: &Expr) -> Option<i64> {
    pragma_poly(e, &Values::new())?.as_const()
}
