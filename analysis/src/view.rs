//! The editor-facing view of one analysed file, in plain data: byte offsets, names, sizes.
//! No LSP here; the server turns these into hover text, inlay hints and code lenses.
//!
//! Built once per analysis from the data-environment facts ([`crate::check::env::interpret`])
//! so that requests never re-run the analysis.

use crate::check::env::state::{STALE, VALID};
use crate::check::env::{self, CopyKind, Facts, Object};
use crate::ir::{BindingTarget, DirId, FuncId, Module, Span, Storage, VarId};

/// One copy a directive makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// The list item as written (for implicit maps, the variable's name).
    pub item: String,
    pub to_device: bool,
    pub when: When,
    /// `to`, `from`, `tofrom`, ... for map clauses; None for `target update`.
    pub map_type: Option<&'static str>,
    pub bytes: Option<u64>,
    /// Mapped by the implicit rules, not by a clause.
    pub implicit: bool,
    /// Happens every time the directive runs (else only on some paths: the data may already
    /// be present).
    pub certain: bool,
}

/// When a copy happens relative to its directive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    Entry,
    Exit,
    Update,
}

/// A list item entered without a copy to the device (`alloc`/`from`, or data already
/// present, whose reference count only goes up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entered {
    pub item: String,
    pub map_type: &'static str,
    pub implicit: bool,
    /// Device memory may be allocated here (the count may be zero before).
    pub allocates: bool,
}

/// What a kernel gets without a clause.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Implicit {
    /// Implicit `map(tofrom: ...)` items with their sizes when known.
    pub maps: Vec<(String, Option<u64>)>,
    pub firstprivate: Vec<String>,
    /// Pointers passed as zero-length array sections.
    pub pointers: Vec<String>,
}

impl Implicit {
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty() && self.firstprivate.is_empty() && self.pointers.is_empty()
    }

    /// The clauses a programmer would write for the same effect, e.g.
    /// `map(tofrom: a, b) firstprivate(n)`; pointers as `map(p[:0])`.
    pub fn as_clauses(&self) -> String {
        let mut out = Vec::new();
        if !self.maps.is_empty() {
            let items: Vec<&str> = self.maps.iter().map(|(i, _)| i.as_str()).collect();
            out.push(format!("map(tofrom: {})", items.join(", ")));
        }
        if !self.firstprivate.is_empty() {
            out.push(format!("firstprivate({})", self.firstprivate.join(", ")));
        }
        if !self.pointers.is_empty() {
            let items: Vec<String> = self.pointers.iter().map(|p| format!("{p}[:0]")).collect();
            out.push(format!("map({})", items.join(", ")));
        }
        out.join(" ")
    }
}

/// A `target` directive of the file and what it moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectiveView {
    pub dir: DirId,
    pub func: Option<FuncId>,
    /// From `#` to the end of the directive's last token.
    pub span: Span,
    /// The directive's name, e.g. `target teams distribute parallel for`.
    pub name: &'static str,
    pub is_kernel: bool,
    pub transfers: Vec<Transfer>,
    pub entered: Vec<Entered>,
    /// Kernels only.
    pub implicit: Option<Implicit>,
}

/// Bytes moved per execution of a directive, each way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Traffic {
    pub to_device: u64,
    pub to_host: u64,
    pub copies_to_device: usize,
    pub copies_to_host: usize,
    /// Copies to the device whose size is not known statically (not in `to_device`).
    pub unknown_to_device: usize,
    /// Copies to the host whose size is not known statically (not in `to_host`).
    pub unknown_to_host: usize,
    /// Some copy happens only on some paths (the counts are upper bounds).
    pub conditional: bool,
}

impl DirectiveView {
    /// What one execution moves, both ways.
    pub fn traffic(&self) -> Traffic {
        let mut t = Traffic::default();
        for c in &self.transfers {
            let b = c.bytes.unwrap_or(0);
            let unknown = usize::from(c.bytes.is_none());
            if c.to_device {
                t.to_device += b;
                t.copies_to_device += 1;
                t.unknown_to_device += unknown;
            } else {
                t.to_host += b;
                t.copies_to_host += 1;
                t.unknown_to_host += unknown;
            }
            t.conditional |= !c.certain;
        }
        t
    }
}

/// Whether a copy holds the current value of its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validity {
    Valid,
    Stale,
    /// Valid on some paths, stale on others.
    Maybe,
}

fn validity(bits: u8) -> Validity {
    match (bits & VALID != 0, bits & STALE != 0) {
        (true, true) => Validity::Maybe,
        (false, true) => Validity::Stale,
        _ => Validity::Valid,
    }
}

/// The state of the data an access touches, just before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessState {
    pub span: Span,
    pub func: FuncId,
    /// How the program names the object (`a`, `this->x`).
    pub name: String,
    pub var: Option<VarId>,
    pub on_device: bool,
    pub read: bool,
    pub write: bool,
    /// The reference counts it may have in the present table (4 means "4 or more").
    pub counts: Vec<u8>,
    pub host: Validity,
    pub device: Validity,
}

impl AccessState {
    pub fn present(&self) -> Option<bool> {
        match (self.counts.contains(&0), self.counts.iter().any(|&c| c > 0)) {
            (true, false) => Some(false),
            (false, true) => Some(true),
            _ => None,
        }
    }
}

/// Everything the editor features need, computed once per analysis.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FileView {
    /// Data-mapping and kernel directives in source order.
    pub directives: Vec<DirectiveView>,
    /// Accesses of host functions and their kernels, in the order they were interpreted.
    pub accesses: Vec<AccessState>,
}

impl FileView {
    pub fn directive_at(&self, offset: u32) -> Option<&DirectiveView> {
        self.directives
            .iter()
            .find(|d| d.span.start <= offset && offset <= d.span.end)
    }

    pub fn kernels(&self) -> impl Iterator<Item = &DirectiveView> {
        self.directives.iter().filter(|d| d.is_kernel)
    }

    /// The innermost access whose expression contains `offset`.
    pub fn access_at(&self, offset: u32) -> Option<&AccessState> {
        self.accesses
            .iter()
            .filter(|a| a.span.start <= offset && offset < a.span.end.max(a.span.start + 1))
            .min_by_key(|a| a.span.end - a.span.start)
    }
}

/// The view of `module` (lowered from `source`) with its facts.
pub fn view(module: &Module, facts: &Facts) -> FileView {
    let mut directives = Vec::new();
    for (dir, info) in module.directives.iter_enumerated() {
        let kind = info.directive.kind;
        // (A header's directives are not this file's to show.)
        if !(kind.is_offload_kernel() || kind.is_data_mapping()) || info.origin.is_some() {
            continue;
        }
        let mut transfers: Vec<Transfer> = facts
            .copies
            .iter()
            .filter(|c| c.dir == dir)
            .map(|c| Transfer {
                item: c.item_text.clone(),
                to_device: c.to_device,
                when: match c.kind {
                    CopyKind::Entry => When::Entry,
                    CopyKind::Exit => When::Exit,
                    CopyKind::Update => When::Update,
                },
                map_type: c.map_type.map(|m| m.as_str()),
                bytes: c.bytes,
                implicit: c.implicit,
                certain: c.certain,
            })
            .collect();
        dedup(&mut transfers);
        let mut entered: Vec<Entered> = facts
            .mappings
            .iter()
            .filter(|m| m.dir == dir)
            .filter(|m| {
                !transfers
                    .iter()
                    .any(|t| t.when == When::Entry && t.item == m.item.text && t.certain)
            })
            .map(|m| Entered {
                item: m.item.text.clone(),
                map_type: m.item.map_type.as_str(),
                implicit: m.item.clause == info.directive.span,
                allocates: m.allocates,
            })
            .collect();
        entered.dedup();
        let implicit = kind.is_offload_kernel().then(|| {
            facts
                .kernels
                .iter()
                .find(|k| k.dir == dir)
                .map(|k| Implicit {
                    maps: k.maps.iter().map(|m| (m.text.clone(), m.bytes)).collect(),
                    firstprivate: k.firstprivate.clone(),
                    pointers: k.pointers.clone(),
                })
                .unwrap_or_default()
        });
        directives.push(DirectiveView {
            dir,
            func: info.function,
            span: info.directive.span,
            name: kind.name(),
            is_kernel: kind.is_offload_kernel(),
            transfers,
            entered,
            implicit,
        });
    }
    let accesses = facts
        .points
        .iter()
        .map(|p| AccessState {
            span: p.span,
            func: p.func,
            name: env::object_name(module, &p.object),
            var: match p.object {
                Object::Var(v) | Object::Field(v, _) => Some(v),
                Object::Member(_) => None,
            },
            on_device: p.on_device,
            read: p.read,
            write: p.write,
            counts: (0..5u8).filter(|k| p.counts.0 & (1 << k) != 0).collect(),
            host: validity(p.host),
            device: validity(p.dev),
        })
        .collect();
    FileView {
        directives,
        accesses,
    }
}

/// One directive can have several CFG nodes (a region left by `break` or `return` as well as
/// at its end): the same copy is then listed once.
fn dedup(v: &mut Vec<Transfer>) {
    let mut seen: Vec<Transfer> = Vec::new();
    for t in v.drain(..) {
        if !seen.contains(&t) {
            seen.push(t);
        }
    }
    *v = seen;
}

/// A variable under the cursor: what it is and which directives name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarInfo {
    pub var: VarId,
    pub name: String,
    pub type_spelling: String,
    pub size: Option<u64>,
    pub storage: Storage,
    /// Directives of the function that name it in a clause (directive span, clause text).
    pub named_by: Vec<(Span, String)>,
    /// Kernels of the function that map it by the implicit rules (kernel directive span).
    pub implicit_in: Vec<Span>,
}

/// The variable whose use or declaration is at `offset`, within a function that has OpenMP
/// target directives.
pub fn var_at(module: &Module, view: &FileView, offset: u32) -> Option<VarInfo> {
    let (func, _) = module.functions.iter_enumerated().find(|(_, f)| {
        f.has_body && f.span.is_some_and(|s| s.start <= offset && offset <= s.end)
    })?;
    let has_directives = view.directives.iter().any(|d| d.func == Some(func));
    if !has_directives {
        return None;
    }
    let var =
        var_used_at(module, func, offset).or_else(|| view.access_at(offset).and_then(|a| a.var))?;
    Some(var_info(module, view, func, var))
}

fn var_used_at(module: &Module, func: FuncId, offset: u32) -> Option<VarId> {
    let f = module.function(func);
    let inside = |s: Span| s.start <= offset && offset < s.end.max(s.start + 1);
    // A use: the smallest variable expression around the offset.
    let used = f
        .exprs
        .iter()
        .filter(|e| inside(e.span))
        .filter_map(|e| match e.kind {
            crate::ir::ExprKind::Var(v) => Some((e.span.end - e.span.start, v)),
            _ => None,
        })
        .min_by_key(|(len, _)| *len)
        .map(|(_, v)| v);
    if used.is_some() {
        return used;
    }
    // A declaration, or a name in a clause.
    let declared = module
        .vars
        .iter_enumerated()
        .find(|(_, v)| v.span.is_some_and(inside))
        .map(|(i, _)| i);
    declared.or_else(|| {
        module
            .directives
            .iter()
            .filter(|d| d.function == Some(func))
            .flat_map(|d| &d.bindings)
            .find(|b| inside(b.span))
            .and_then(|b| match b.target {
                BindingTarget::Var(v) => Some(v),
                _ => None,
            })
    })
}

fn var_info(module: &Module, view: &FileView, func: FuncId, var: VarId) -> VarInfo {
    let v = module.var(var);
    let mut named_by = Vec::new();
    for d in module
        .directives
        .iter()
        .filter(|d| d.function == Some(func))
    {
        let names_it = d
            .bindings
            .iter()
            .any(|b| b.target == BindingTarget::Var(var));
        if !names_it {
            continue;
        }
        for c in &d.directive.clauses {
            let text = c.to_string();
            // A clause names it if its items mention it as a whole word.
            if mentions(&text, &v.name) {
                named_by.push((d.directive.span, text));
            }
        }
    }
    let implicit_in = view
        .kernels()
        .filter(|k| k.func == Some(func))
        .filter(|k| {
            k.implicit.as_ref().is_some_and(|i| {
                i.maps.iter().any(|(n, _)| n == &v.name)
                    || i.firstprivate.contains(&v.name)
                    || i.pointers.contains(&v.name)
            })
        })
        .map(|k| k.span)
        .collect();
    VarInfo {
        var,
        name: v.name.clone(),
        type_spelling: v.ty.spelling.clone(),
        size: v.ty.referent().size,
        storage: v.storage,
        named_by,
        implicit_in,
    }
}

fn mentions(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn implicit_clauses_read_like_openmp() {
        let i = Implicit {
            maps: vec![("a".into(), Some(400)), ("b".into(), None)],
            firstprivate: vec!["n".into()],
            pointers: vec!["x".into()],
        };
        assert_eq!(
            i.as_clauses(),
            "map(tofrom: a, b) firstprivate(n) map(x[:0])"
        );
        assert!(Implicit::default().is_empty());
    }

    #[test]
    fn names_are_whole_words() {
        assert!(mentions("map(to: a[0:n])", "a"));
        assert!(mentions("map(to: a[0:n])", "n"));
        assert!(!mentions("map(to: ab)", "a"));
    }

    #[test]
    fn validity_bits() {
        assert_eq!(validity(VALID), Validity::Valid);
        assert_eq!(validity(STALE), Validity::Stale);
        assert_eq!(validity(VALID | STALE), Validity::Maybe);
    }
}
