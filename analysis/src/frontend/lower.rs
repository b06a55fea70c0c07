//! Lowering of a libclang translation unit into the owned IR.
//!
//! The file is parsed without `-fopenmp`, so directive bodies are ordinary statements; the
//! `#pragma omp` lines are parsed separately (see `pragma`) and attached here to the statement
//! that follows each one. Every libclang call goes through `libclang.rs`; cursors are
//! collected in the visitor callback and processed outside it, so nothing unwinds through C.

use super::header_decls::{before_local, DeclAt};
use super::libclang::{self as lc, Cursor, TranslationUnit};
use super::source::SourceText;
use crate::ir::{
    BinaryOp, Binding, BindingTarget, Callee, Diagnostic, DirId, DirectiveInfo, Expr, ExprId,
    ExprKind, ForLoop, FuncId, Function, IndexVec, Module, Severity, Span, Stmt, StmtId, StmtKind,
    Storage, Type, TypeClass, TypeKind, UnaryOp, Var, VarId,
};
use crate::pragma::{ClauseKind, Directive, DirectiveKind};
use clang_sys::*;
use std::collections::{HashMap, HashSet};

/// libclang's builtin type kinds (`CXType_Bool` … `CXType_Ibm128`).
const BUILTIN_TYPES: std::ops::RangeInclusive<CXTypeKind> = CXType_Bool..=CXType_Ibm128;

/// Nesting limit for statements and expressions; deeper code becomes opaque.
const MAX_DEPTH: usize = 512;

/// Maps declaration cursors to ids (libclang's cursor hashing and equality). The first id
/// given to a cursor stays.
struct CursorMap<'tu, T: Copy> {
    map: HashMap<Cursor<'tu>, T>,
}

impl<'tu, T: Copy> CursorMap<'tu, T> {
    fn new() -> Self {
        CursorMap {
            map: HashMap::new(),
        }
    }
    fn get(&self, c: Cursor<'tu>) -> Option<T> {
        self.map.get(&c).copied()
    }
    fn insert(&mut self, c: Cursor<'tu>, t: T) {
        self.map.entry(c).or_insert(t);
    }
    /// Forgets the cursors whose id `drop` says.
    fn forget(&mut self, drop: impl Fn(T) -> bool) {
        self.map.retain(|_, t| !drop(*t));
    }
}

/// A parsed pragma waiting to be attached to the statement that follows it.
struct PendingPragma {
    offset: u32,
    dir: DirId,
}

/// A project-header body being lowered with the header's own directives: positions are the
/// header's offsets shifted to its band (`ir::header_band`).
#[derive(Clone)]
struct HeaderBody<'a> {
    file: lc::FileHandle<'a>,
    base: u32,
    /// The header's text (its offsets are libclang's in that file).
    src: std::rc::Rc<SourceText>,
}

/// A project header's text, read once per lowering.
struct HeaderFile {
    src: std::rc::Rc<SourceText>,
}

/// The arenas of the function being lowered.
#[derive(Default)]
struct Bodies {
    stmts: IndexVec<StmtId, Stmt>,
    exprs: IndexVec<ExprId, Expr>,
    not_analysed: Option<String>,
    /// The body includes statements of another file that could not be lowered.
    included: bool,
    labels_seen: Vec<String>,
    /// Per project header whose statements the body includes (`#include "step.h"` inside
    /// the function): the directives of its inclusion being lowered.
    inclusions: HashMap<String, Inclusion>,
    /// Those headers, in the order the body first includes them.
    included_files: Vec<String>,
}

/// The directives of a header's statements that a function body includes, waiting to be
/// attached as the body's walk reaches them (like the main file's `pragmas`).
struct Inclusion {
    pending: Vec<PendingPragma>,
    next: usize,
    /// Where in the header the last statement lowered from it starts: a statement before it
    /// is a new inclusion of the same header.
    last_start: u32,
}

/// What lowering an included header's statements replaced, restored after them.
struct Outer<'a> {
    header: Option<HeaderBody<'a>>,
    pragmas: Vec<PendingPragma>,
    next_pragma: usize,
    path: String,
    /// The statement's end in the header.
    end: u32,
    /// The `#include` line in the text outside: where it starts, just past its end.
    include: (u32, u32),
    diagnostics: usize,
}

pub(super) struct Lowerer<'a> {
    src: &'a SourceText,
    module: Module,
    vars: CursorMap<'a, VarId>,
    funcs: CursorMap<'a, FuncId>,
    pragmas: Vec<PendingPragma>,
    next_pragma: usize,
    declare_target_depth: u32,
    cur_func: Option<FuncId>,
    bodies: Bodies,
    /// Span of the statement being lowered, for sub-cursors whose extent is unusable.
    last_span: Span,
    /// The last cursor whose extent was asked for, with the band it was asked in (None: the
    /// main file) and the answer (see [`Self::extent`]).
    #[allow(clippy::type_complexity)]
    last_extent: std::cell::Cell<Option<(Cursor<'a>, Option<u32>, Option<(u32, u32)>)>>,
    /// Where the last statement lowered in a sequence of the text being lowered ends (the
    /// block's `{` before its first): an `#include` of statements comes after it.
    seq_end: u32,
    /// Names declared in the enclosing blocks of the function being lowered, innermost
    /// last: what a name in a clause refers to.
    scopes: Vec<Vec<(String, VarId)>>,
    /// Per enclosing block of the function being lowered (innermost last), the objects
    /// declared in it so far whose destructor has a body: what a `return` destroys.
    owned: Vec<Vec<(Cursor<'a>, Cursor<'a>)>>,
    /// Per enclosing loop or `switch` (innermost last): how many blocks of `owned` were open
    /// at its start, and whether it is a loop (a `continue` target). The blocks opened since
    /// are the ones a `break` or `continue` leaves.
    jump_targets: Vec<(usize, bool)>,
    /// Lowering declarations of a project header the file includes: function bodies are
    /// lowered for what they do (their effects), never reported on or rewritten.
    foreign: bool,
    /// The headers read so far (to see whether a body holds OpenMP pragmas), each read and
    /// scanned once: a header of accessors has hundreds of bodies.
    header_texts: HashMap<String, Option<std::rc::Rc<HeaderFile>>>,
    /// Each header's ranges the preprocessor skipped, asked of libclang once.
    header_skipped: HashMap<String, std::rc::Rc<Vec<(u32, u32)>>>,
    /// The unit being lowered (for the files of its headers).
    tu: Option<&'a TranslationUnit>,
    /// The unit's macros outside system headers, and the names of those that can make a
    /// `_Pragma` operator: a header body may write its directives through them
    /// (`OMP_TARGET(teams distribute)`).
    macros: &'a super::macros::Macros,
    pragma_macro_names: Vec<String>,
    /// Set while a project-header body is lowered with its own directives.
    header: Option<HeaderBody<'a>>,
    /// The band number of each header whose bodies were lowered with their directives.
    header_bands: HashMap<String, u32>,
    /// Where the main file includes each header (asked of libclang when a band is first made).
    include_sites: Option<HashMap<String, u32>>,
    /// The bodies of the lambdas being lowered at their calls (no lambda inside itself).
    inlined_lambdas: Vec<Cursor<'a>>,
    /// The lambdas of the function being lowered held in a local variable that is only ever
    /// called (`auto f = [&](int i) { ... };` then `f(i)`): their bodies are lowered at
    /// the calls, so their definitions touch nothing.
    called_lambdas: Vec<Cursor<'a>>,
    /// The project headers' top-level declarations: recorded by a walk that meets them,
    /// found again by position for a walk that does not ([`super::header_decls`]).
    headers: HeaderWalk,
}

/// A function instantiated from a template (it is at the place of its template's definition
/// or declaration; an explicit specialisation is at its own), as a walk of a unit's local
/// declarations meets them; a walk of its declarations does not.
fn instantiated(c: Cursor<'_>) -> bool {
    let Some(t) = c.specialized_template() else {
        return false;
    };
    // (The template found may be a declaration before the definition it was made from.)
    let at = c.file_location();
    t.file_location() == at || t.definition().is_some_and(|d| d.file_location() == at)
}

/// How a walk of the top level treats the project headers' declarations.
pub(super) enum HeaderWalk {
    /// The walk meets them: record those before the main file's first declaration (and the
    /// offset of that declaration). `complete` turns false when one has no position.
    Record {
        decls: Vec<DeclAt>,
        first_main: Option<u32>,
        complete: bool,
    },
    /// The walk meets only local declarations; those of `recorded` were lowered first.
    /// `failed` when one came up in the walk too, or could not be found again.
    Replay {
        recorded: HashSet<(String, u32)>,
        failed: bool,
    },
}

impl<'a> Lowerer<'a> {
    pub(super) fn new(
        src: &'a SourceText,
        module: Module,
        pragma_offsets: Vec<(u32, DirId)>,
        macros: &'a super::macros::Macros,
    ) -> Self {
        Lowerer {
            src,
            module,
            vars: CursorMap::new(),
            funcs: CursorMap::new(),
            pragmas: pragma_offsets
                .into_iter()
                .map(|(offset, dir)| PendingPragma { offset, dir })
                .collect(),
            next_pragma: 0,
            declare_target_depth: 0,
            cur_func: None,
            bodies: Bodies::default(),
            last_span: Span::default(),
            seq_end: 0,
            last_extent: std::cell::Cell::new(None),
            scopes: Vec::new(),
            owned: Vec::new(),
            jump_targets: Vec::new(),
            foreign: false,
            header_texts: HashMap::new(),
            header_skipped: HashMap::new(),
            tu: None,
            macros,
            pragma_macro_names: macros.pragma_macros(),
            header: None,
            header_bands: HashMap::new(),
            include_sites: None,
            inlined_lambdas: Vec::new(),
            called_lambdas: Vec::new(),
            headers: HeaderWalk::Record {
                decls: Vec::new(),
                first_main: None,
                complete: true,
            },
        }
    }

    /// What the walk recorded of the project headers (see [`HeaderWalk`]): the declarations
    /// and the main file's first declaration's offset; None when it replayed a record or
    /// could not record all.
    pub(super) fn header_record(&self) -> Option<(Vec<DeclAt>, Option<u32>)> {
        match &self.headers {
            HeaderWalk::Record {
                decls,
                first_main,
                complete: true,
            } => Some((decls.clone(), *first_main)),
            _ => None,
        }
    }

    /// Whether a replayed record failed to describe the unit (the module is then wrong).
    pub(super) fn replay_failed(&self) -> bool {
        matches!(self.headers, HeaderWalk::Replay { failed: true, .. })
    }

    pub(super) fn finish(mut self) -> Module {
        // Pragmas after the last declaration.
        self.top_level_pragmas(u32::MAX);
        self.module.macros = crate::ir::macros::macro_values(&self.src.text);
        self.module
    }

    // ----- top level -------------------------------------------------------------------

    /// Lowers the unit's declarations; `replay`: the project headers' declarations of a
    /// unit whose walk meets only local ones, lowered first, as a whole walk meets them.
    pub(super) fn lower_tu(
        &mut self,
        tu: &'a TranslationUnit,
        top: Vec<Cursor<'a>>,
        replay: Option<&[DeclAt]>,
    ) {
        self.tu = Some(tu);
        if let Some(decls) = replay {
            // The record holds every project-header declaration before the main file's
            // first; those parsed after the preamble (a header included past where clang
            // ends it) come up in the walk itself, and must be the record's last ones.
            let local: HashSet<(String, u32)> = top
                .iter()
                .filter(|c| {
                    lc::is_declaration(c.kind())
                        && c.extent().is_none()
                        && !c.in_system_header()
                        && !instantiated(**c)
                })
                .filter_map(|c| c.file_location())
                .collect();
            let at = |d: &DeclAt| (d.file.clone(), d.offset);
            let Some(before) = before_local(decls, &local, at) else {
                self.headers = HeaderWalk::Replay {
                    recorded: HashSet::new(),
                    failed: true,
                };
                return;
            };
            self.headers = HeaderWalk::Replay {
                recorded: before.iter().map(at).collect(),
                failed: false,
            };
            for d in before {
                let Some(c) = d.find(tu) else {
                    self.headers = HeaderWalk::Replay {
                        recorded: HashSet::new(),
                        failed: true,
                    };
                    return;
                };
                let was = std::mem::replace(&mut self.foreign, true);
                self.decl(c, 0);
                self.foreign = was;
            }
        }
        self.decls_in(top, 0);
    }

    /// A top-level declaration of the main file starts at `start`.
    fn note_main_decl(&mut self, start: u32) {
        if let HeaderWalk::Record { first_main, .. } = &mut self.headers {
            first_main.get_or_insert(start);
        }
    }

    /// A top-level declaration `c` of a project header comes up in the walk.
    fn note_header_decl(&mut self, c: Cursor<'a>) {
        match &mut self.headers {
            HeaderWalk::Record {
                decls,
                first_main: None,
                complete,
            } => match DeclAt::of(c) {
                Some(d) => decls.push(d),
                None => *complete = false,
            },
            HeaderWalk::Record { .. } => {}
            HeaderWalk::Replay { recorded, failed } => {
                if c.file_location().is_none_or(|at| recorded.contains(&at)) {
                    *failed = true;
                }
            }
        }
    }

    /// Declarations in a translation unit, namespace, linkage spec or class body.
    fn decls(&mut self, parent: Cursor<'a>, depth: usize) {
        self.decls_in(parent.children(), depth);
    }

    /// [`Self::decls`] over the children of a declaration context, already listed.
    fn decls_in(&mut self, children: Vec<Cursor<'a>>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        for c in children {
            // Macro and inclusion cursors of the preprocessing record come out of source order.
            if !lc::is_declaration(c.kind()) {
                continue;
            }
            // A walk of local declarations only also meets the functions instantiated from
            // templates (clang hands them to its consumer as top-level declarations), which a
            // walk of the unit's declarations does not: they are at their template's place.
            if depth == 0 && self.tu.is_some_and(|t| t.walks_local_only()) && instantiated(c) {
                continue;
            }
            match c.extent() {
                Some((start, _)) => {
                    if depth == 0 {
                        self.note_main_decl(start);
                    }
                    if !self.foreign {
                        self.top_level_pragmas(start);
                    }
                    self.decl(c, depth);
                }
                // From a header: the project's own headers are lowered for their functions'
                // bodies (accessors, helpers); the system's are not.
                None if c.in_system_header() => {}
                None => {
                    if depth == 0 && !self.foreign {
                        self.note_header_decl(c);
                    }
                    let was = std::mem::replace(&mut self.foreign, true);
                    self.decl(c, depth);
                    self.foreign = was;
                }
            }
        }
    }

    /// One declaration of [`Self::decls`].
    fn decl(&mut self, c: Cursor<'a>, depth: usize) {
        {
            match c.kind() {
                k if lc::is_function_declaration(k) => self.function(c),
                CXCursor_VarDecl => {
                    let v = self.var_id(c);
                    if self.declare_target_depth > 0 {
                        self.module.vars[v].declare_target = true;
                    }
                }
                CXCursor_Namespace
                | CXCursor_LinkageSpec
                | CXCursor_StructDecl
                | CXCursor_ClassDecl
                | CXCursor_UnionDecl
                | CXCursor_ClassTemplate
                | CXCursor_ClassTemplatePartialSpecialization
                | CXCursor_UnexposedDecl => self.decls(c, depth + 1),
                _ => {}
            }
        }
    }

    /// Handles file-scope directives (`declare target` and friends) that precede `offset`.
    fn top_level_pragmas(&mut self, offset: u32) {
        while let Some(p) = self.pragmas.get(self.next_pragma) {
            if p.offset >= offset {
                break;
            }
            let dir = p.dir;
            self.next_pragma += 1;
            let d = self.module.directives[dir].directive.clone();
            match d.kind {
                DirectiveKind::DeclareTarget if d.clauses.is_empty() && d.arguments.is_empty() => {
                    self.declare_target_depth += 1
                }
                DirectiveKind::BeginDeclareTarget => self.declare_target_depth += 1,
                DirectiveKind::EndDeclareTarget => {
                    if self.declare_target_depth == 0 {
                        self.module.diagnostics.push(Diagnostic {
                            severity: Severity::Error,
                            span: Some(d.span),
                            message: "`end declare target` without a matching `declare target`"
                                .into(),
                            source: "omplens",
                        });
                    }
                    self.declare_target_depth = self.declare_target_depth.saturating_sub(1)
                }
                DirectiveKind::DeclareTarget => self.declare_target_list(&d),
                _ => {}
            }
        }
    }

    /// `declare target(a, f)` / `declare target enter(a) link(b)`: marks globals and functions
    /// by name (they are declared before the directive).
    fn declare_target_list(&mut self, d: &Directive) {
        let mut names: Vec<&str> = d.arguments.iter().map(|i| i.base.name.as_str()).collect();
        for c in &d.clauses {
            if let ClauseKind::To { items, .. }
            | ClauseKind::Enter(items)
            | ClauseKind::Link(items) = &c.kind
            {
                names.extend(items.iter().map(|i| i.base.name.as_str()));
            }
        }
        for name in names {
            let mut found = false;
            for v in self.module.vars.iter_mut() {
                if v.name == name && matches!(v.storage, Storage::Global | Storage::StaticGlobal) {
                    v.declare_target = true;
                    found = true;
                }
            }
            for f in self.module.functions.iter_mut() {
                if f.name == name {
                    f.declare_target = true;
                    found = true;
                }
            }
            if !found {
                self.module.diagnostics.push(Diagnostic {
                    severity: Severity::Warning,
                    span: Some(d.span),
                    message: format!(
                        "`{name}` in `declare target` does not name a global variable or function declared before it"
                    ),
                    source: "omplens",
                });
            }
        }
    }

    // ----- declarations ----------------------------------------------------------------

    fn func_id(&mut self, c: Cursor<'a>) -> FuncId {
        // A call to a template specialisation refers to its pattern.
        let c = c.specialized_template().unwrap_or(c);
        let canon = c.canonical();
        if let Some(id) = self.funcs.get(canon) {
            return id;
        }
        let id = FuncId(self.module.functions.len() as u32);
        self.funcs.insert(canon, id);
        let name = c.spelling();
        let is_method = matches!(
            c.kind(),
            CXCursor_CXXMethod
                | CXCursor_Constructor
                | CXCursor_Destructor
                | CXCursor_ConversionFunction
        ) && !c.is_static_method();
        let qualified_name = qualified_name(c, &name);
        let builtin = is_compiler_builtin(&name);
        let ret = c.ty().result();
        self.module.functions.push(Function {
            name,
            qualified_name,
            params: Vec::new(),
            return_type: lower_type(ret, 0),
            has_body: false,
            in_main_file: c.location().is_some() && !builtin,
            in_system_header: c.in_system_header() || builtin,
            span: None,
            name_span: None,
            is_method,
            is_template: c.kind() == CXCursor_FunctionTemplate,
            declare_target: self.declare_target_depth > 0,
            body: None,
            stmts: IndexVec::new(),
            exprs: IndexVec::new(),
            not_analysed: None,
            offloads_unseen: false,
            origin: None,
            included_headers: Vec::new(),
            maps_own_data: false,
            header_kernels: false,
            member_stores: Vec::new(),
            internal_linkage: c.has_internal_linkage(),
            external: None,
        });
        // Parameters of the first declaration seen; a definition replaces them. (libclang
        // numbers no arguments for a function template: its parameters are its children.
        // Those of the standard library's templates stay unknown: `std::swap(T &, T &)` of
        // two pointers would read as a use of their data; swaps are modelled on their own.)
        let parm_decls = if c.kind() == CXCursor_FunctionTemplate && !c.in_system_header() {
            c.parm_decls()
        } else {
            c.arguments()
        };
        let params = parm_decls
            .into_iter()
            .map(|p| self.new_var(p, Storage::Parameter, Some(id)))
            .collect();
        self.module.functions[id].params = params;
        id
    }

    fn function(&mut self, c: Cursor<'a>) {
        let id = self.func_id(c);
        let is_def = c.is_definition();
        if self.declare_target_depth > 0 {
            self.module.functions[id].declare_target = true;
        }
        let children = c.children();
        let body = children
            .iter()
            .rev()
            .find(|k| k.kind() == CXCursor_CompoundStmt)
            .copied();
        // A body in a project header is lowered once. One that holds OpenMP pragmas is
        // lowered with the header's own directives (positions in the header's band) when
        // they all parse; otherwise it stays unseen.
        let mut header = None;
        let mut diagnostics_before = 0;
        let body = body.filter(|_| {
            if !self.foreign || self.module.functions[id].has_body {
                return !self.foreign;
            }
            diagnostics_before = self.module.diagnostics.len();
            if !self.has_omp_pragma(c) {
                // Positions and literals read in the header's own text where it has a band;
                // else positions stay unknown (the main file's last one).
                header = self.header_pragmas(c);
                return true;
            }
            if let Some(maps) = self.header_kernels_map(c) {
                let f = &mut self.module.functions[id];
                f.header_kernels = true;
                f.maps_own_data = maps;
            }
            header = self.header_pragmas(c);
            if header.is_none() && self.module.functions[id].header_kernels {
                self.module.functions[id].offloads_unseen = true;
            }
            header.is_some()
        });
        let (Some(body), true) = (body, is_def) else {
            // A prototype: record where it is, keep going.
            let f = &mut self.module.functions[id];
            if f.span.is_none() {
                f.span = c.extent().map(|(s, e)| Span { start: s, end: e });
                f.name_span = name_span(c, &f.name);
            }
            return;
        };
        // Parameters as the definition names them.
        let params: Vec<VarId> = children
            .iter()
            .filter(|k| k.kind() == CXCursor_ParmDecl)
            .map(|p| self.new_var(*p, Storage::Parameter, Some(id)))
            .collect();
        self.cur_func = Some(id);
        self.bodies = Bodies::default();
        let param_scope = params
            .iter()
            .map(|p| (self.module.vars[*p].name.clone(), *p))
            .collect();
        self.scopes = vec![param_scope];
        self.owned.clear();
        self.jump_targets.clear();
        let origin = header.as_ref().map(|(path, _)| path.clone());
        let saved = header.map(|(_, (h, pending))| {
            self.header = Some(h);
            (
                std::mem::replace(&mut self.pragmas, pending),
                std::mem::replace(&mut self.next_pragma, 0),
            )
        });
        self.called_lambdas = called_only_lambdas(body);
        let body_id = self.stmt(body, 0);
        self.called_lambdas.clear();
        if let Some((pragmas, next)) = saved {
            self.header = None;
            self.pragmas = pragmas;
            self.next_pragma = next;
        }
        self.scopes.clear();
        self.owned.clear();
        self.jump_targets.clear();
        let mut bodies = std::mem::take(&mut self.bodies);
        self.cur_func = None;
        // What the header's directives would say of themselves (misplaced, a name not in
        // scope) is not this file's to report; a body that draws an error is not analysed.
        if origin.is_some() {
            let said = self.module.diagnostics.split_off(diagnostics_before);
            if said.iter().any(|d| d.severity == Severity::Error) && bodies.not_analysed.is_none() {
                bodies.not_analysed = Some(format!(
                    "its OpenMP directives in `{}` are not well formed",
                    origin.as_deref().unwrap_or_default()
                ));
            }
        }
        let member_stores = member_inits(&children, &params, &self.module)
            .into_iter()
            .chain(member_assignments(&params, &self.module, &bodies.exprs))
            .collect();
        let f = &mut self.module.functions[id];
        f.member_stores = member_stores;
        f.params = params;
        f.has_body = true;
        f.in_main_file = !self.foreign;
        f.span = c.extent().map(|(s, e)| Span { start: s, end: e });
        f.name_span = name_span(c, &f.name);
        f.body = Some(body_id);
        f.stmts = bodies.stmts;
        f.exprs = bodies.exprs;
        f.not_analysed = bodies.not_analysed;
        f.included_headers = bodies.included_files;
        f.origin = origin;
        super::references::bind_references(&mut self.module, id);
        let f = &mut self.module.functions[id];
        if let (Some(why), true) = (&f.not_analysed, bodies.included) {
            let message = format!("`{}` is not analysed: {why}", f.name);
            let span = f.name_span.or(f.span);
            self.module.diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                span,
                message,
                source: "omplens",
            });
        }
    }

    /// Whether the text of declaration `c` in its own file holds an OpenMP pragma.
    fn has_omp_pragma(&mut self, c: Cursor<'a>) -> bool {
        // Unreadable text: cannot tell, do not analyse it.
        let Some(body) = self.header_body(c).map(str::to_string) else {
            return true;
        };
        (body.contains("omp") && body.contains("#pragma")) || self.header_operator_pragma(&body)
    }

    /// Whether header body `body` writes an OpenMP directive as a `_Pragma` operator, directly
    /// or through a macro (`#define LOOP _Pragma("omp target …")`), which omplens does not
    /// lower; also when a use of such a macro cannot be read. A body using no such macro is
    /// not one (a header that defines them has other functions too).
    fn header_operator_pragma(&self, body: &str) -> bool {
        self.operator_directives(body).is_none_or(|d| !d.is_empty())
    }

    /// The OpenMP directives (`omp …` texts) `body` writes as `_Pragma` operators, directly or
    /// through the unit's macros; None when a use cannot be read (a macro omplens cannot
    /// expand, or one that makes a directive together with other code). Operators that are
    /// no OpenMP directive (`_Pragma("GCC ivdep")`) are left out.
    fn operator_directives(&self, body: &str) -> Option<Vec<String>> {
        let mut out = Vec::new();
        let mut consumed = 0usize;
        for at in super::macros::uses(body, &self.pragma_macro_names) {
            let at = at as usize;
            if at < consumed {
                continue;
            }
            let rest = &body[at..];
            // (Offset 0: a header's own definitions are the ones in effect in its bodies.)
            let (len, texts) = match super::macros::operator_at(rest) {
                Some((len, text, _)) => (len, vec![text]),
                None => self.macros.pragma_use(rest, 0).ok()?,
            };
            consumed = at + len;
            out.extend(texts.into_iter().filter(|t| {
                let t = t.trim_start();
                t.starts_with("omp") && !t[3..].starts_with(|c: char| c.is_alphanumeric())
            }));
        }
        Some(out)
    }

    /// The header at `path`, read and scanned on first use.
    fn header_file(&mut self, path: &str) -> Option<std::rc::Rc<HeaderFile>> {
        self.header_texts
            .entry(path.to_string())
            .or_insert_with(|| {
                // (A Latin-1 `©` in a comment: still the header's text, offsets kept.)
                let text = std::fs::read(path)
                    .ok()
                    .map(crate::text::bytes::lossy_same_offsets)?;
                Some(std::rc::Rc::new(HeaderFile {
                    src: std::rc::Rc::new(SourceText::new(text)),
                }))
            })
            .clone()
    }

    /// The band of project header `path` (its text `whole`), made on first use: None when
    /// the header is too long for a band or there are no bands left.
    fn band_of(&mut self, path: &str, whole: &HeaderFile) -> Option<u32> {
        if whole.src.text.len() >= crate::ir::header_band::WIDTH as usize {
            return None;
        }
        let tu = self.tu?;
        let band = match self.header_bands.get(path) {
            Some(&band) => band,
            None => {
                let band = self.header_bands.len() as u32;
                crate::ir::header_band::base(band)?;
                // The main file's own `#include` of it, read from the text; libclang's
                // inclusion stacks (slow after a preamble: every file of it is visited) only
                // for a header included through another.
                let included_at = include_directive_of(&self.src.text, path).or_else(|| {
                    self.include_sites
                        .get_or_insert_with(|| tu.include_sites())
                        .get(path)
                        .copied()
                });
                self.header_bands.insert(path.to_string(), band);
                self.module
                    .headers
                    .push(std::sync::Arc::new(crate::ir::HeaderSource {
                        path: path.to_string(),
                        text: whole.src.text.to_string(),
                        lines: crate::text::LineIndex::new(&whole.src.text),
                        included_at,
                    }));
                band
            }
        };
        Some(band)
    }

    /// For a header function `c` whose body holds OpenMP pragmas: its header's path, the
    /// header's band, and the directives of the body (registered, in source order), if every
    /// pragma there parses and the header has a band.
    #[allow(clippy::type_complexity)]
    fn header_pragmas(
        &mut self,
        c: Cursor<'a>,
    ) -> Option<(String, (HeaderBody<'a>, Vec<PendingPragma>))> {
        let (path, start, end) = c.file_extent()?;
        let file = self.tu?.header(&path)?;
        let text = self.header_body(c)?.to_string();
        // Directives written as `_Pragma` are not scanned: such a body is not lowered.
        if text.contains("_Pragma") || self.header_operator_pragma(&text) {
            return None;
        }
        let whole = self.header_file(&path)?;
        let band = self.band_of(&path, &whole)?;
        let base = crate::ir::header_band::base(band)?;
        let pending = self.register_header_pragmas(&path, &text, start, base)?;
        let _ = end;
        let src = whole.src.clone();
        Some((path, (HeaderBody { file, base, src }, pending)))
    }

    /// Registers the directives of the pragmas of `text` (the part of header `path` that
    /// starts at byte `start`) outside the ranges the preprocessor skipped, positioned in the
    /// band at `base`, in source order; None (and nothing registered) if one does not parse.
    fn register_header_pragmas(
        &mut self,
        path: &str,
        text: &str,
        start: u32,
        base: u32,
    ) -> Option<Vec<PendingPragma>> {
        let tu = self.tu?;
        let skipped = self
            .header_skipped
            .entry(path.to_string())
            .or_insert_with(|| std::rc::Rc::new(lc::skipped_ranges(tu, path)))
            .clone();
        let mut infos = Vec::new();
        for raw in crate::pragma::scan_pragmas(text) {
            let at = start + raw.span.start;
            if skipped.iter().any(|&(s, e)| at >= s && at < e) {
                continue;
            }
            let parsed = crate::pragma::parse_pragma(&raw.text, base + at);
            let ok = parsed
                .diagnostics
                .iter()
                .all(|d| d.severity != crate::pragma::Severity::Error);
            let directive = parsed.directive.filter(|_| ok)?;
            infos.push((base + at, directive));
        }
        let mut pending = Vec::new();
        for (offset, directive) in infos {
            let dir = self.module.directives.push(DirectiveInfo {
                directive,
                function: None,
                governs: None,
                bindings: Vec::new(),
                origin: Some(path.to_string()),
            });
            pending.push(PendingPragma { offset, dir });
        }
        Some(pending)
    }

    /// The text of declaration `c` in its own file (a project header), read once per file.
    fn header_body(&mut self, c: Cursor<'a>) -> Option<&str> {
        let (file, start, end) = c.file_extent()?;
        self.header_file(&file)?;
        let h = self.header_texts.get(&file)?.as_deref()?;
        h.src.text.get(start as usize..end as usize)
    }

    /// For the text of declaration `c` (a header function with OpenMP pragmas, which omplens
    /// does not lower): None when it has no kernel (host `parallel for` only); else whether
    /// every kernel names its data in `map`, `is_device_ptr` or `has_device_addr` clauses
    /// (the function maps what its kernels use itself). Unreadable text counts as a kernel
    /// that maps nothing.
    fn header_kernels_map(&mut self, c: Cursor<'a>) -> Option<bool> {
        let Some(body) = self.header_body(c).map(str::to_string) else {
            return Some(false);
        };
        // Directives written as `_Pragma` operators, through macros too.
        let Some(operators) = self.operator_directives(&body) else {
            return Some(false);
        };
        let texts = crate::pragma::scan_pragmas(&body)
            .into_iter()
            .map(|raw| raw.text)
            .chain(operators.into_iter().map(|t| format!("#pragma {t}")));
        let mut kernels = 0;
        let mut all_map = true;
        for text in texts {
            let Some(d) = crate::pragma::parse_pragma(&text, 0).directive else {
                return Some(false);
            };
            if d.kind.is_offload_kernel() {
                kernels += 1;
                all_map &= d
                    .clauses
                    .iter()
                    .any(|k| matches!(k.name(), "map" | "is_device_ptr" | "has_device_addr"));
            }
        }
        (kernels > 0).then_some(all_map)
    }

    /// The variable a declaration declares; a local enters the innermost scope.
    fn declare(&mut self, decl: Cursor<'a>) -> VarId {
        let v = self.var_id(decl);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((self.module.vars[v].name.clone(), v));
        }
        v
    }

    fn var_id(&mut self, decl: Cursor<'a>) -> VarId {
        let canon = decl.canonical();
        if let Some(v) = self.vars.get(canon) {
            return v;
        }
        let storage = storage_of(decl);
        let owner = match storage {
            Storage::Local | Storage::StaticLocal | Storage::Parameter => self.cur_func,
            _ => None,
        };
        self.new_var(decl, storage, owner)
    }

    fn new_var(&mut self, decl: Cursor<'a>, storage: Storage, function: Option<FuncId>) -> VarId {
        let canon = decl.canonical();
        if let Some(v) = self.vars.get(decl) {
            return v;
        }
        let id = VarId(self.module.vars.len() as u32);
        let name = decl.spelling();
        let loc = decl.location();
        let span = loc.map(|s| Span {
            start: s,
            end: s + name.len() as u32,
        });
        let mut ty = lower_type(decl.ty(), 0);
        // `auto p = new T[n];` in a template: the declared type waits for instantiation, the
        // initialiser's is a pointer already.
        if !ty.is_pointer() && ty.spelling.split_whitespace().any(|w| w == "auto") {
            if let Some(init) = decl.var_decl_initializer() {
                let from_init = lower_type(init.ty(), 0);
                if from_init.is_pointer() {
                    ty = from_init;
                }
            }
        }
        // A parameter declared as an array (`double g[][N]`, `int v[8]`) is a pointer to
        // its element (C 6.7.6.3p7, C++ [dcl.fct]p5); libclang reports the type as written.
        if storage == Storage::Parameter {
            if let crate::ir::TypeKind::Array { element, .. } = ty.kind {
                ty = crate::ir::Type {
                    spelling: format!("{} *", element.spelling),
                    kind: crate::ir::TypeKind::Pointer(element),
                    size: Some(std::mem::size_of::<usize>() as u64),
                    is_const: false,
                };
            }
        }
        self.module.vars.push(Var {
            name,
            ty,
            storage,
            in_main_file: loc.is_some(),
            span,
            function,
            declare_target: false,
        });
        self.vars.insert(decl, id);
        self.vars.insert(canon, id);
        id
    }

    // ----- statements ------------------------------------------------------------------

    fn span(&mut self, c: Cursor<'a>) -> Span {
        match self.extent(c) {
            Some((s, e)) => Span { start: s, end: e },
            None => self.last_span,
        }
    }

    /// The cursor's extent in the text being lowered: the main file's, or (while a header body
    /// is lowered with its directives) the header's, in its band.
    fn extent(&self, c: Cursor<'a>) -> Option<(u32, u32)> {
        // A statement's extent is asked for up to four times in a row (its sequence, the
        // file it is in, its span): the last answer is kept, per text being lowered.
        let base = self.header.as_ref().map(|h| h.base);
        if let Some((k, b, e)) = self.last_extent.get() {
            if b == base && k == c {
                return e;
            }
        }
        let e = match &self.header {
            None => c.extent(),
            Some(h) => c.extent_in(h.file).map(|(s, e)| (h.base + s, h.base + e)),
        };
        self.last_extent.set(Some((c, base, e)));
        e
    }

    /// The cursor's location in the text being lowered (see [`Self::extent`]).
    fn location(&self, c: Cursor<'a>) -> Option<u32> {
        match &self.header {
            None => c.location(),
            Some(h) => c.location_in(h.file).map(|o| h.base + o),
        }
    }

    /// The text being lowered and the position of its first byte.
    fn source(&self) -> (&SourceText, u32) {
        match &self.header {
            None => (self.src, 0),
            Some(h) => (&h.src, h.base),
        }
    }

    /// The text of `s` in the text being lowered ("" when it is not there).
    fn text_at(&self, s: Span) -> &str {
        let (src, base) = self.source();
        match (s.start.checked_sub(base), s.end.checked_sub(base)) {
            (Some(start), Some(end)) => src.text(Span { start, end }),
            _ => "",
        }
    }

    fn add_stmt(&mut self, kind: StmtKind, span: Span) -> StmtId {
        self.bodies.stmts.push(Stmt { kind, span })
    }

    fn add_expr(&mut self, kind: ExprKind, span: Span, class: TypeClass) -> ExprId {
        self.bodies.exprs.push(Expr { kind, span, class })
    }

    /// Pragmas that sit before `offset` and have not been attached yet, in source order.
    fn take_pragmas(&mut self, offset: u32) -> Vec<DirId> {
        let mut out = Vec::new();
        if self.foreign && self.header.is_none() {
            return out; // a header's statements: this file's pragmas are not theirs
        }
        while let Some(p) = self.pragmas.get(self.next_pragma) {
            if p.offset >= offset {
                break;
            }
            out.push(p.dir);
            self.next_pragma += 1;
        }
        out
    }

    fn directive_stmt(&mut self, dir: DirId, body: Option<StmtId>) -> StmtId {
        let d = &self.module.directives[dir];
        let span = match body {
            Some(b) => Span {
                start: d.directive.span.start,
                end: self.bodies.stmts[b].span.end,
            },
            None => d.directive.span,
        };
        let bindings = self.resolve_items(dir);
        let info = &mut self.module.directives[dir];
        info.function = self.cur_func;
        info.governs = body;
        info.bindings = bindings;
        self.add_stmt(
            StmtKind::Omp {
                directive: dir,
                body,
            },
            span,
        )
    }

    /// Lowers a statement in statement position, with the pragmas written before it:
    /// standalone directives come first (as statements of their own), directives with an
    /// associated statement wrap it, outermost first. Returns one or more statements.
    fn stmt_in_sequence(&mut self, c: Cursor<'a>, depth: usize, out: &mut Vec<StmtId>) {
        self.stmt_in_sequence_before(c, None, depth, out)
    }

    /// [`Self::stmt_in_sequence`] for `c` followed by sibling `next`. A statement written in a
    /// project header (`#include "step.h"` inside the body) is lowered in that header's text
    /// with its directives, as the compiler reads it.
    fn stmt_in_sequence_before(
        &mut self,
        c: Cursor<'a>,
        next: Option<Cursor<'a>>,
        depth: usize,
        out: &mut Vec<StmtId>,
    ) {
        match self.enter_included(c) {
            Some((outer, carried)) => {
                self.stmt_here(c, carried, depth, out);
                let ends_run = next.is_none_or(|n| {
                    !n.expansion_extent()
                        .is_some_and(|(_, path, s, _, _)| path == outer.path && s >= outer.end)
                });
                self.leave_included(outer, ends_run, out);
            }
            None => self.stmt_here(c, Vec::new(), depth, out),
        }
    }

    /// For a statement `c` of the function being lowered that is written in another file
    /// than the text being lowered (a project header included inside the body): switches to
    /// that header's text and directives. None when it is not such a statement, or when the
    /// header cannot be lowered so (then [`Self::stmt`] marks the function not analysed).
    /// With it, the directives of the text outside written before the `#include` line (a
    /// `target update` just before it, a `parallel for` whose loop is in the header).
    fn enter_included(&mut self, c: Cursor<'a>) -> Option<(Outer<'a>, Vec<DirId>)> {
        if self.foreign
            || self.cur_func.is_none()
            || self.bodies.not_analysed.is_some()
            || self.extent(c).is_some()
        {
            return None;
        }
        let (file, path, start, end, system) = c.expansion_extent()?;
        if system {
            return None;
        }
        let whole = self.header_file(&path)?;
        // Directives written as `_Pragma` are not scanned: such a header is not lowered.
        if whole.src.text.contains("_Pragma") || self.header_operator_pragma(&whole.src.text) {
            return None;
        }
        // The `#include` line outside, after the statement lowered last there.
        let include = {
            let (outer, outer_base) = self.source();
            let from = self.seq_end.saturating_sub(outer_base);
            let (s, e) = include_directive_after(&outer.text, from, &path)?;
            (outer_base + s, outer_base + e)
        };
        let band = self.band_of(&path, &whole)?;
        let base = crate::ir::header_band::base(band)?;
        let again = self
            .bodies
            .inclusions
            .get(&path)
            .is_some_and(|i| i.last_start <= start);
        if !again {
            // The pragmas of the inclusion: from the lines with no code just above its first
            // statement on (the header's declarations before it have their own).
            let floor = no_code_before(&whole.src.text, start as usize);
            let text = whole.src.text.get(floor..)?;
            let pending = self.register_header_pragmas(&path, text, floor as u32, base)?;
            let inclusion = Inclusion {
                pending,
                next: 0,
                last_start: start,
            };
            self.bodies.inclusions.insert(path.clone(), inclusion);
            if !self.bodies.included_files.contains(&path) {
                self.bodies.included_files.push(path.clone());
            }
        }
        let carried = self.take_pragmas(include.0);
        let inclusion = self.bodies.inclusions.get_mut(&path)?;
        inclusion.last_start = start;
        let pending = std::mem::take(&mut inclusion.pending);
        let next = inclusion.next;
        let body = HeaderBody {
            file,
            base,
            src: whole.src.clone(),
        };
        let outer = Outer {
            header: self.header.replace(body),
            pragmas: std::mem::replace(&mut self.pragmas, pending),
            next_pragma: std::mem::replace(&mut self.next_pragma, next),
            path,
            end,
            include,
            diagnostics: self.module.diagnostics.len(),
        };
        Some((outer, carried))
    }

    /// Ends lowering an included header's statement (see [`Self::enter_included`]). At the
    /// end of a run of its statements (`ends_run`) the directives after the last one, up to
    /// the header's next code, are placed as at the end of a block. What the header's
    /// directives say of themselves is not this file's to report; an error makes the
    /// function not analysed.
    fn leave_included(&mut self, outer: Outer<'a>, ends_run: bool, out: &mut Vec<StmtId>) {
        if ends_run {
            if let Some(h) = &self.header {
                let bound = no_code_after(&h.src.text, outer.end as usize) as u32;
                let end = h.base + bound;
                self.trailing_pragmas(end, out);
            }
        }
        let said = self.module.diagnostics.split_off(outer.diagnostics);
        if said.iter().any(|d| d.severity == Severity::Error) && self.bodies.not_analysed.is_none()
        {
            self.bodies.included = true;
            self.bodies.not_analysed = Some(format!(
                "its OpenMP directives in `{}` are not well formed",
                crate::ir::file_name(&outer.path)
            ));
        }
        self.header = outer.header;
        // The next statement outside is after the `#include` line (or on it, for the next
        // statement of the same inclusion).
        self.seq_end = if ends_run {
            outer.include.1
        } else {
            outer.include.0
        };
        let pending = std::mem::replace(&mut self.pragmas, outer.pragmas);
        let next = std::mem::replace(&mut self.next_pragma, outer.next_pragma);
        if let Some(inclusion) = self.bodies.inclusions.get_mut(&outer.path) {
            inclusion.pending = pending;
            inclusion.next = next;
        }
    }

    /// [`Self::stmt_in_sequence`] in the text being lowered, after directives `carried`.
    fn stmt_here(
        &mut self,
        c: Cursor<'a>,
        carried: Vec<DirId>,
        depth: usize,
        out: &mut Vec<StmtId>,
    ) {
        let start = self.span(c).start;
        let mut pending = carried;
        pending.extend(self.take_pragmas(start));
        let mut wrapping = Vec::new();
        for dir in pending {
            if self.module.directives[dir]
                .directive
                .kind
                .has_associated_statement()
            {
                wrapping.push(dir);
            } else {
                if !wrapping.is_empty() {
                    self.misplaced(
                        dir,
                        "a standalone directive cannot be the body of another directive",
                    );
                }
                let s = self.directive_stmt(dir, None);
                out.push(s);
            }
        }
        let mut s = self.stmt(c, depth);
        for dir in wrapping.into_iter().rev() {
            s = self.directive_stmt(dir, Some(s));
        }
        self.seq_end = self.bodies.stmts[s].span.end;
        out.push(s);
    }

    /// A statement in a single-statement position (loop body, `if` branch).
    fn sub_stmt(&mut self, c: Cursor<'a>, depth: usize) -> StmtId {
        let mut v = Vec::new();
        self.stmt_in_sequence(c, depth, &mut v);
        if v.len() == 1 {
            v[0]
        } else {
            let span = Span {
                start: self.bodies.stmts[v[0]].span.start,
                end: self.bodies.stmts[v[v.len() - 1]].span.end,
            };
            self.add_stmt(StmtKind::Compound(v), span)
        }
    }

    /// Pragmas left at the end of a block: standalone ones become statements, others have
    /// nothing to govern.
    fn trailing_pragmas(&mut self, end: u32, out: &mut Vec<StmtId>) {
        for dir in self.take_pragmas(end) {
            if self.module.directives[dir]
                .directive
                .kind
                .has_associated_statement()
            {
                let d = &self.module.directives[dir].directive;
                let name = d.kind.name();
                let after = d.span.end;
                let unparsed = self.module.diagnostics.iter().any(|x| {
                    x.source == "clang"
                        && x.severity == Severity::Error
                        && x.span.is_some_and(|s| s.start >= after && s.start <= end)
                });
                let message = if unparsed {
                    format!(
                        "the statement after `{name}` could not be parsed (see the clang errors \
                         below), so the directive governs nothing"
                    )
                } else {
                    format!("`{name}` must be followed by a statement")
                };
                self.misplaced(dir, &message);
            }
            let s = self.directive_stmt(dir, None);
            out.push(s);
        }
    }

    /// Resolves the base name of every clause list item by scope lookup: the innermost
    /// enclosing declaration, then parameters, then globals, then (in a C++ member function)
    /// a data member of `this`. A name that resolves to nothing gets a warning.
    fn resolve_items(&mut self, dir: DirId) -> Vec<Binding> {
        let d = &self.module.directives[dir].directive;
        let at = d.span.start;
        let items: Vec<(String, Span, String)> = d
            .clause_items()
            .map(|(c, i)| (i.base.name.clone(), i.base.span, c.name().to_string()))
            .collect();
        let is_method = self
            .cur_func
            .is_some_and(|f| self.module.functions[f].is_method);
        let mut out = Vec::with_capacity(items.len());
        for (name, span, clause) in items {
            let local = self
                .scopes
                .iter()
                .rev()
                .find_map(|s| s.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| *v));
            let global = || {
                self.module.vars.iter_enumerated().rev().find_map(|(i, v)| {
                    (v.name == name
                        && matches!(v.storage, Storage::Global | Storage::StaticGlobal)
                        && v.span.is_none_or(|s| s.start < at))
                    .then_some(i)
                })
            };
            let target = match local.or_else(global) {
                Some(v) => BindingTarget::Var(v),
                None if is_method && name == "this" => BindingTarget::This,
                None if is_method => BindingTarget::Member,
                None => {
                    self.module.diagnostics.push(Diagnostic {
                        severity: Severity::Warning,
                        span: Some(span),
                        message: format!("`{name}` in `{clause}` is not a variable in scope here"),
                        source: "omplens",
                    });
                    BindingTarget::Unresolved
                }
            };
            out.push(Binding { name, span, target });
        }
        out
    }

    fn misplaced(&mut self, dir: DirId, message: &str) {
        let span = self.module.directives[dir].directive.span;
        self.module.diagnostics.push(Diagnostic {
            severity: Severity::Error,
            span: Some(span),
            message: message.to_string(),
            source: "omplens",
        });
    }

    fn stmt(&mut self, c: Cursor<'a>, depth: usize) -> StmtId {
        // Statements of another file (`#include "kernel.h"` inside a function body) that
        // `stmt_in_sequence` could not lower in their own text (a system header, a header
        // with `_Pragma` or too long for a band, a statement in a single-statement position):
        // their pragmas and positions are not this file's, so the function is not analysed.
        if !self.foreign
            && self.cur_func.is_some()
            && self.bodies.not_analysed.is_none()
            && self.extent(c).is_none()
        {
            self.bodies.included = true;
            self.bodies.not_analysed = Some(
                "its body includes statements from another file (an `#include` inside the function) that omplens cannot read with their directives"
                    .to_string(),
            );
        }
        let span = self.span(c);
        self.last_span = span;
        if depth > MAX_DEPTH {
            return self.opaque_stmt("statement nested too deeply", span);
        }
        let d = depth + 1;
        let kind = c.kind();
        let ch = c.children();
        let opens_scope = matches!(
            kind,
            CXCursor_CompoundStmt
                | CXCursor_ForStmt
                | CXCursor_CXXForRangeStmt
                | CXCursor_IfStmt
                | CXCursor_WhileStmt
                | CXCursor_SwitchStmt
        );
        if opens_scope {
            self.scopes.push(Vec::new());
        }
        let sk = self.stmt_kind(c, kind, ch, span, d);
        if opens_scope {
            self.scopes.pop();
        }
        self.add_stmt(sk, span)
    }

    fn stmt_kind(
        &mut self,
        c: Cursor<'a>,
        kind: CXCursorKind,
        ch: Vec<Cursor<'a>>,
        span: Span,
        d: usize,
    ) -> StmtKind {
        match kind {
            CXCursor_CompoundStmt => {
                let mut list = Vec::new();
                self.owned.push(Vec::new());
                self.seq_end = span.start;
                for (i, &k) in ch.iter().enumerate() {
                    self.stmt_in_sequence_before(k, ch.get(i + 1).copied(), d, &mut list);
                    if k.kind() == CXCursor_DeclStmt {
                        let objects = k.children().into_iter().filter_map(destructor_of);
                        if let Some(top) = self.owned.last_mut() {
                            top.extend(objects);
                        }
                    }
                }
                self.trailing_pragmas(span.end, &mut list);
                let owned = self.owned.pop().unwrap_or_default();
                let end = Span {
                    start: span.end.saturating_sub(1).max(span.start),
                    end: span.end,
                };
                self.destructor_calls(owned.into_iter().rev(), end, &mut list);
                StmtKind::Compound(list)
            }
            CXCursor_DeclStmt => self.decl_stmt(&ch, d),
            CXCursor_IfStmt => self.if_stmt(&ch, span, d),
            CXCursor_CXXTryStmt if !ch.is_empty() => self.try_stmt(&ch, span, d),
            CXCursor_ForStmt => self.for_stmt(c, &ch, d),
            CXCursor_CXXForRangeStmt => self.range_for(&ch, d),
            CXCursor_WhileStmt if !ch.is_empty() => {
                let body = self.jump_target_body(ch[ch.len() - 1], d, true);
                let cond = if ch.len() >= 2 {
                    self.cond_expr(ch[ch.len() - 2], d)
                } else {
                    self.add_expr(ExprKind::Bool(true), span, TypeClass::Scalar)
                };
                StmtKind::While { cond, body }
            }
            CXCursor_DoStmt if ch.len() == 2 => {
                let body = self.jump_target_body(ch[0], d, true);
                let cond = self.expr(ch[1], d);
                StmtKind::Do { body, cond }
            }
            CXCursor_SwitchStmt if ch.len() >= 2 => {
                let init = (ch.len() >= 3).then(|| self.stmt(ch[0], d));
                let cond = self.cond_expr(ch[ch.len() - 2], d);
                let body = self.jump_target_body(ch[ch.len() - 1], d, false);
                StmtKind::Switch { init, cond, body }
            }
            CXCursor_CaseStmt if !ch.is_empty() => {
                let value = self.expr(ch[0], d);
                let body = (ch.len() >= 2).then(|| self.sub_stmt(ch[ch.len() - 1], d));
                StmtKind::Case { value, body }
            }
            CXCursor_DefaultStmt => StmtKind::Default {
                body: ch.last().map(|b| self.sub_stmt(*b, d)),
            },
            CXCursor_BreakStmt => self.leave_blocks(StmtKind::Break, span, false),
            CXCursor_ContinueStmt => self.leave_blocks(StmtKind::Continue, span, true),
            CXCursor_ReturnStmt => {
                let ret = StmtKind::Return(ch.first().map(|e| self.expr(*e, d)));
                // The objects of every enclosing block are destroyed on the way out (after
                // the value is computed; here before the return, which is the same to the
                // data environment unless the value reads their data).
                let at = Span {
                    start: span.start,
                    end: (span.start + "return".len() as u32).min(span.end),
                };
                self.after_destructors(0, ret, span, at)
            }
            CXCursor_GotoStmt => {
                let label = ch.first().map(|l| l.spelling()).unwrap_or_default();
                if self.bodies.labels_seen.contains(&label) && self.bodies.not_analysed.is_none() {
                    let (line, _) = self.line_col(span.start);
                    self.bodies.not_analysed = Some(format!(
                        "`goto {label}` at line {line} jumps backwards: loops made with goto are not analysed"
                    ));
                }
                StmtKind::Goto(label)
            }
            CXCursor_LabelStmt => {
                let name = c.spelling();
                self.bodies.labels_seen.push(name.clone());
                StmtKind::Label {
                    name,
                    body: ch.first().map(|b| self.sub_stmt(*b, d)),
                }
            }
            CXCursor_NullStmt => StmtKind::Null,
            k if lc::is_expression(k) => StmtKind::Expr(self.expr(c, d)),
            CXCursor_AsmStmt | CXCursor_MSAsmStmt => StmtKind::Opaque {
                what: "inline assembly".into(),
                exprs: Vec::new(),
                children: Vec::new(),
            },
            _ => {
                // try/catch, attributed statements, ...: keep the statements inside.
                let what = lc::kind_spelling(kind);
                let mut exprs = Vec::new();
                let mut children = Vec::new();
                for k in ch {
                    if lc::is_expression(k.kind()) {
                        exprs.push(self.expr(k, d));
                    } else if lc::is_statement(k.kind()) {
                        self.stmt_in_sequence(k, d, &mut children);
                    }
                }
                StmtKind::Opaque {
                    what,
                    exprs,
                    children,
                }
            }
        }
    }

    fn opaque_stmt(&mut self, what: &str, span: Span) -> StmtId {
        self.add_stmt(
            StmtKind::Opaque {
                what: what.into(),
                exprs: Vec::new(),
                children: Vec::new(),
            },
            span,
        )
    }

    fn line_col(&self, offset: u32) -> (u32, u32) {
        self.module.line_col(offset)
    }

    /// The body of a loop (`is_loop`) or of a `switch`: the blocks a `break` (or `continue`)
    /// inside it leaves are those opened from here on.
    fn jump_target_body(&mut self, c: Cursor<'a>, d: usize, is_loop: bool) -> StmtId {
        self.jump_targets.push((self.owned.len(), is_loop));
        let body = self.sub_stmt(c, d);
        self.jump_targets.pop();
        body
    }

    /// A `break` (or a `continue`, `to_loop`) preceded by the destructor calls of the objects
    /// of every block it leaves, innermost first (the statement alone when there are none,
    /// or when it has no target: broken code).
    fn leave_blocks(&mut self, jump: StmtKind, span: Span, to_loop: bool) -> StmtKind {
        let Some(&(depth, _)) = self
            .jump_targets
            .iter()
            .rev()
            .find(|(_, is_loop)| *is_loop || !to_loop)
        else {
            return jump;
        };
        self.after_destructors(depth, jump, span, span)
    }

    /// `exit` (a `return`, `break` or `continue` at `span`) preceded by calls at `at` of the
    /// destructors of the objects of the enclosing blocks from `depth` inward, innermost
    /// block first and the last declared first (`exit` alone when there are none).
    fn after_destructors(
        &mut self,
        depth: usize,
        exit: StmtKind,
        span: Span,
        at: Span,
    ) -> StmtKind {
        let owned: Vec<_> = self.owned[depth.min(self.owned.len())..]
            .iter()
            .rev()
            .flat_map(|b| b.iter().rev())
            .copied()
            .collect();
        if owned.is_empty() {
            return exit;
        }
        let mut list = Vec::new();
        self.destructor_calls(owned, at, &mut list);
        list.push(self.add_stmt(exit, span));
        StmtKind::Compound(list)
    }

    /// Calls at `at` of the destructors of `owned`, in that order: at the end of a block
    /// (`}`) its objects, the last declared first, as C++ destroys them (an RAII object's
    /// `exit data` that copies results back); at a `return`, `break` or `continue` those of
    /// every block it leaves (see `leave_blocks` and the `ReturnStmt` arm). A `goto` leaving
    /// a block runs them too, which is not modelled.
    fn destructor_calls(
        &mut self,
        owned: impl IntoIterator<Item = (Cursor<'a>, Cursor<'a>)>,
        at: Span,
        out: &mut Vec<StmtId>,
    ) {
        for (decl, dtor) in owned {
            let Some(v) = self.vars.get(decl.canonical()) else {
                continue;
            };
            let f = self.func_id(dtor);
            let object = self.add_expr(ExprKind::Var(v), at, TypeClass::Record);
            let call = self.add_expr(
                ExprKind::Call {
                    callee: Callee::Direct(f),
                    receiver: Some(object),
                    args: Vec::new(),
                },
                at,
                TypeClass::Void,
            );
            let s = self.add_stmt(StmtKind::Expr(call), at);
            out.push(s);
        }
    }

    fn decl_stmt(&mut self, ch: &[Cursor<'a>], d: usize) -> StmtKind {
        let mut decls = Vec::new();
        for &k in ch {
            if k.kind() != CXCursor_VarDecl {
                continue;
            }
            let v = self.declare(k);
            let init = k.var_decl_initializer().map(|init| self.expr(init, d));
            decls.push((v, init));
        }
        StmtKind::Decl(decls)
    }

    /// A condition that may declare a variable (`if (T x = e)`): the declaration's initialiser
    /// becomes the condition, with the variable written by it.
    fn cond_expr(&mut self, c: Cursor<'a>, d: usize) -> ExprId {
        if c.kind() == CXCursor_VarDecl {
            let v = self.declare(c);
            let span = self.span(c);
            let var = self.add_expr(ExprKind::Var(v), span, expr_class(c));
            let Some(init) = c.var_decl_initializer() else {
                return var;
            };
            let rhs = self.expr(init, d);
            return self.add_expr(ExprKind::Assign(None, var, rhs), span, expr_class(c));
        }
        self.expr(c, d)
    }

    /// `try { body } catch (...) { handler } ...` as `if (?) body; if (?) handler else if
    /// (?) ...`: the body may run in full or stop anywhere, and one handler may run after it.
    /// (Running the handlers in sequence after the body, as an unknown statement did, made
    /// a handler's `return` end every path, and the code after the `try` unreachable.)
    fn try_stmt(&mut self, ch: &[Cursor<'a>], span: Span, d: usize) -> StmtKind {
        let unknown = |this: &mut Self, what: &str| {
            this.add_expr(
                ExprKind::Other {
                    what: what.into(),
                    children: Vec::new(),
                },
                span,
                TypeClass::Scalar,
            )
        };
        let body = self.sub_stmt(ch[0], d);
        let cond = unknown(self, "the try block completes");
        let tried = self.add_stmt(
            StmtKind::If {
                init: None,
                cond,
                then: body,
                els: None,
            },
            span,
        );
        let mut handlers: Option<StmtId> = None;
        for &catch in ch[1..].iter().rev() {
            let handler = self.sub_stmt(catch, d);
            let cond = unknown(self, "an exception is caught here");
            handlers = Some(self.add_stmt(
                StmtKind::If {
                    init: None,
                    cond,
                    then: handler,
                    els: handlers,
                },
                span,
            ));
        }
        StmtKind::Compound(std::iter::once(tried).chain(handlers).collect())
    }

    fn if_stmt(&mut self, ch: &[Cursor<'a>], span: Span, d: usize) -> StmtKind {
        // Children: [init] [condition variable] cond then [else]. An `else` keyword between
        // the last two children tells whether the last one is the else branch.
        let n = ch.len();
        if n < 2 {
            let cond = self.add_expr(ExprKind::Bool(true), span, TypeClass::Scalar);
            let then = self.opaque_stmt("malformed if", span);
            return StmtKind::If {
                init: None,
                cond,
                then,
                els: None,
            };
        }
        let has_else = n >= 3 && self.else_between(ch[n - 2], ch[n - 1]);
        let (cond_i, then_i) = if has_else {
            (n - 3, n - 2)
        } else {
            (n - 2, n - 1)
        };
        let init = (cond_i > 0).then(|| self.stmt(ch[0], d));
        let cond = self.cond_expr(ch[cond_i], d);
        let then = self.sub_stmt(ch[then_i], d);
        let els = has_else.then(|| self.sub_stmt(ch[n - 1], d));
        StmtKind::If {
            init,
            cond,
            then,
            els,
        }
    }

    fn else_between(&self, a: Cursor<'a>, b: Cursor<'a>) -> bool {
        let (src, base) = self.source();
        match (self.extent(a), self.extent(b)) {
            (Some((_, ae)), Some((bs, _))) if ae >= base && bs >= base => {
                src.has_keyword_between(ae - base, bs - base, "else")
            }
            _ => true,
        }
    }

    fn for_stmt(&mut self, c: Cursor<'a>, ch: &[Cursor<'a>], d: usize) -> StmtKind {
        let Some((&body_c, header)) = ch.split_last() else {
            let body = self.opaque_stmt("malformed for", self.last_span);
            return StmtKind::For(ForLoop {
                init: None,
                cond: None,
                step: None,
                body,
                induction: None,
            });
        };
        // Which header child is init, cond or step: by position against the two `;`.
        let (src, base) = self.source();
        let semis = self
            .extent(c)
            .filter(|(s, _)| *s >= base)
            .and_then(|(s, e)| src.for_header_semicolons(s - base, e - base))
            .map(|(a, b)| (a + base, b + base));
        let mut init_c = None;
        let mut cond_c = None;
        let mut step_c = None;
        for &k in header {
            let start = self.extent(k).map(|e| e.0);
            let slot = match (semis, start) {
                (Some((s1, s2)), Some(st)) => {
                    if st < s1 {
                        0
                    } else if st < s2 {
                        1
                    } else {
                        2
                    }
                }
                // From a macro: guess from the cursor kinds.
                _ => match k.kind() {
                    CXCursor_DeclStmt => 0,
                    _ if init_c.is_none() && cond_c.is_none() && header.len() == 3 => 0,
                    _ if cond_c.is_none() => 1,
                    _ => 2,
                },
            };
            match slot {
                0 if init_c.is_none() => init_c = Some(k),
                1 if cond_c.is_none() => cond_c = Some(k),
                _ => step_c = Some(k),
            }
        }
        let init = init_c.map(|k| self.stmt(k, d));
        let cond = cond_c.map(|k| self.cond_expr(k, d));
        let step = step_c.map(|k| self.expr(k, d));
        let body = self.jump_target_body(body_c, d, true);
        let induction = self.induction_var(init, step);
        StmtKind::For(ForLoop {
            init,
            cond,
            step,
            body,
            induction,
        })
    }

    /// The variable declared or assigned in `init` that `step` modifies.
    fn induction_var(&self, init: Option<StmtId>, step: Option<ExprId>) -> Option<VarId> {
        let init_vars: Vec<VarId> = match init.map(|i| &self.bodies.stmts[i].kind) {
            Some(StmtKind::Decl(ds)) => ds.iter().map(|d| d.0).collect(),
            Some(StmtKind::Expr(e)) => self.assigned_vars(*e),
            _ => Vec::new(),
        };
        let stepped = step.map(|s| self.assigned_vars(s)).unwrap_or_default();
        stepped.into_iter().find(|v| init_vars.contains(v))
    }

    /// Variables assigned or incremented at the top of `e` (through commas).
    fn assigned_vars(&self, e: ExprId) -> Vec<VarId> {
        let ex = &self.bodies.exprs;
        let var_of = |x: ExprId| match ex[x].kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        };
        let mut out = Vec::new();
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            match &ex[x].kind {
                ExprKind::Assign(_, l, _) => out.extend(var_of(*l)),
                ExprKind::Unary(op, v) if op.is_increment() => out.extend(var_of(*v)),
                ExprKind::Binary(BinaryOp::Comma, a, b) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                ExprKind::Cast(x) => stack.push(*x),
                _ => {}
            }
        }
        out
    }

    fn range_for(&mut self, ch: &[Cursor<'a>], d: usize) -> StmtKind {
        let var_c = ch.iter().find(|k| k.kind() == CXCursor_VarDecl).copied();
        let (Some(var_c), true) = (var_c, ch.len() >= 3) else {
            return StmtKind::Opaque {
                what: "range-based for".into(),
                exprs: Vec::new(),
                children: Vec::new(),
            };
        };
        let var = self.declare(var_c);
        let range = self.expr(ch[ch.len() - 2], d);
        let body = self.jump_target_body(ch[ch.len() - 1], d, true);
        StmtKind::RangeFor { var, range, body }
    }

    // ----- expressions -----------------------------------------------------------------

    fn expr(&mut self, c: Cursor<'a>, depth: usize) -> ExprId {
        // Not in a libclang callback (children are collected first): a stop may unwind here.
        crate::budget::tick("lowering");
        let kind = c.kind();
        // An implicit conversion or parentheses around one expression: that expression (its
        // own extent and type are not asked for; libclang's locations are not cheap).
        if depth <= MAX_DEPTH && matches!(kind, CXCursor_UnexposedExpr | CXCursor_ParenExpr) {
            let ch = c.children();
            if ch.len() == 1 {
                return self.expr(ch[0], depth + 1);
            }
        }
        let span = self.span(c);
        let class = expr_class(c);
        if depth > MAX_DEPTH {
            return self.add_expr(
                ExprKind::Other {
                    what: "expression nested too deeply".into(),
                    children: Vec::new(),
                },
                span,
                class,
            );
        }
        let d = depth + 1;
        let ek = match kind {
            CXCursor_UnexposedExpr | CXCursor_ParenExpr => {
                let ch = c.children();
                if ch.len() == 1 {
                    return self.expr(ch[0], d);
                }
                self.other("expression", &ch, d)
            }
            CXCursor_DeclRefExpr => self.decl_ref(c),
            CXCursor_MemberRefExpr => {
                let ch = c.children();
                let base = ch
                    .iter()
                    .find(|k| lc::is_expression(k.kind()))
                    .map(|b| self.expr(*b, d));
                let arrow = match base {
                    Some(b) => {
                        matches!(
                            self.bodies.exprs[b].class,
                            TypeClass::Pointer | TypeClass::PointerToConst
                        ) || self.arrow_before(c)
                    }
                    None => true,
                };
                ExprKind::Member {
                    base,
                    field: self.member_name(c),
                    arrow,
                }
            }
            CXCursor_ArraySubscriptExpr => {
                let ch = c.children();
                if ch.len() == 2 {
                    let b = self.expr(ch[0], d);
                    let i = self.expr(ch[1], d);
                    ExprKind::Subscript(b, i)
                } else {
                    self.other("subscript", &ch, d)
                }
            }
            CXCursor_BinaryOperator | CXCursor_CompoundAssignOperator => {
                let ch = c.children();
                if ch.len() != 2 {
                    self.other("binary operator", &ch, d)
                } else {
                    let l = self.expr(ch[0], d);
                    let r = self.expr(ch[1], d);
                    let op = c.binary_operator();
                    match binary_op(op) {
                        BinOpKind::Plain(op) => ExprKind::Binary(op, l, r),
                        BinOpKind::Assign(op) => ExprKind::Assign(op, l, r),
                        BinOpKind::Unknown => ExprKind::Other {
                            what: "binary operator".into(),
                            children: vec![l, r],
                        },
                    }
                }
            }
            CXCursor_UnaryOperator => {
                let ch = c.children();
                let op = unary_op(c.unary_operator());
                match (op, ch.len()) {
                    (Some(op), 1) => ExprKind::Unary(op, self.expr(ch[0], d)),
                    _ => self.other("unary operator", &ch, d),
                }
            }
            CXCursor_CallExpr => self.call(c, d),
            CXCursor_CStyleCastExpr
            | CXCursor_CXXStaticCastExpr
            | CXCursor_CXXDynamicCastExpr
            | CXCursor_CXXReinterpretCastExpr
            | CXCursor_CXXConstCastExpr
            | CXCursor_CXXFunctionalCastExpr => {
                let ch = c.children();
                match ch.iter().rev().find(|k| lc::is_expression(k.kind())) {
                    Some(x) => ExprKind::Cast(self.expr(*x, d)),
                    None => self.other("cast", &ch, d),
                }
            }
            CXCursor_IntegerLiteral => {
                let text = self.text_at(span).to_string();
                let value = parse_int(&text).or_else(|| c.evaluate_int());
                ExprKind::Int { text, value }
            }
            CXCursor_FloatingLiteral => ExprKind::Float(self.text_at(span).to_string()),
            CXCursor_CharacterLiteral => ExprKind::Char(self.text_at(span).to_string()),
            CXCursor_StringLiteral => ExprKind::Str,
            CXCursor_CXXBoolLiteralExpr => ExprKind::Bool(self.text_at(span) == "true"),
            CXCursor_CXXNullPtrLiteralExpr | CXCursor_GNUNullExpr => ExprKind::NullPtr,
            CXCursor_CXXThisExpr => ExprKind::This,
            CXCursor_ConditionalOperator => {
                let ch = c.children();
                if ch.len() == 3 {
                    let a = self.expr(ch[0], d);
                    let b = self.expr(ch[1], d);
                    let e = self.expr(ch[2], d);
                    ExprKind::Cond(a, b, e)
                } else {
                    self.other("conditional", &ch, d)
                }
            }
            CXCursor_UnaryExpr => ExprKind::SizeOf(c.evaluate_int()),
            CXCursor_InitListExpr => {
                let ch = c.children();
                ExprKind::InitList(ch.iter().map(|k| self.expr(*k, d)).collect())
            }
            CXCursor_LambdaExpr if self.called_lambdas.contains(&c) => {
                // Only called by name: its body is lowered at each call.
                while self
                    .pragmas
                    .get(self.next_pragma)
                    .is_some_and(|p| p.offset < span.end)
                {
                    self.next_pragma += 1;
                }
                ExprKind::Other {
                    what: "lambda followed at its calls".into(),
                    children: Vec::new(),
                }
            }
            CXCursor_LambdaExpr => {
                self.module.diagnostics.push(Diagnostic {
                    severity: Severity::Note,
                    span: Some(span),
                    message: "the body of this lambda is not analysed (omplens follows a \
                              lambda only where a local variable holding it is called): its \
                              accesses and any OpenMP directives inside it are ignored"
                        .into(),
                    source: "omplens",
                });
                // What the body does to the variables it captures is unknown: they go to a
                // call omplens cannot see into (so a pointer captured there is not "unused").
                let captured = self.lambda_captures(c, span);
                // Directives inside the lambda would otherwise attach to the next statement.
                while self
                    .pragmas
                    .get(self.next_pragma)
                    .is_some_and(|p| p.offset < span.end)
                {
                    self.next_pragma += 1;
                }
                if captured.is_empty() {
                    ExprKind::Lambda
                } else {
                    ExprKind::Call {
                        callee: Callee::Named("a lambda".into()),
                        receiver: None,
                        args: captured,
                    }
                }
            }
            CXCursor_CXXNewExpr => self.new_expr(c, span, d),
            _ => {
                let ch = c.children();
                let what = lc::kind_spelling(kind);
                let exprs: Vec<Cursor<'a>> = ch
                    .into_iter()
                    .filter(|k| lc::is_expression(k.kind()))
                    .collect();
                self.other(&what, &exprs, d)
            }
        };
        self.add_expr(ek, span, class)
    }

    /// `new T[len]` as an allocation of `len` elements; any other `new` as an expression
    /// over its children. libclang does not say which form it is: the array length is the
    /// first expression child and the only one written after a `[`.
    fn new_expr(&mut self, c: Cursor<'a>, whole: Span, d: usize) -> ExprKind {
        let exprs: Vec<Cursor<'a>> = c
            .children()
            .into_iter()
            .filter(|k| lc::is_expression(k.kind()))
            .collect();
        let array_len = exprs.first().filter(|first| {
            let at = self.extent(**first).map_or(self.last_span.start, |e| e.0);
            self.preceded_by(at, "[")
        });
        let Some(len) = array_len else {
            return self.other("CXXNewExpr", &exprs, d);
        };
        let elem_size = u64::try_from(c.ty().pointee().size_of())
            .ok()
            .filter(|s| *s > 0);
        // `new T[n]` ends at its `]`; `new T[n]()` and `new T[n]{...}` do not.
        let initialised = !self.preceded_by(whole.end, "]");
        let len = self.expr(*len, d);
        let init = exprs[1..].iter().map(|k| self.expr(*k, d)).collect();
        ExprKind::NewArray {
            len,
            elem_size,
            init,
            initialised,
        }
    }

    fn other(&mut self, what: &str, ch: &[Cursor<'a>], d: usize) -> ExprKind {
        let children = ch
            .iter()
            .filter(|k| lc::is_expression(k.kind()))
            .map(|k| self.expr(*k, d))
            .collect();
        ExprKind::Other {
            what: what.to_string(),
            children,
        }
    }

    /// Whether the token `tok` ends just before `offset` in the text being lowered.
    fn preceded_by(&self, offset: u32, tok: &str) -> bool {
        let (src, base) = self.source();
        offset
            .checked_sub(base)
            .is_some_and(|o| src.preceded_by(o, tok))
    }

    fn arrow_before(&self, member: Cursor<'a>) -> bool {
        self.location(member)
            .is_some_and(|o| self.preceded_by(o, "->"))
    }

    /// The variables lambda `c` (at `span`) uses that are declared outside it, each as a
    /// variable expression at its first use: what it captures.
    fn lambda_captures(&mut self, c: Cursor<'a>, span: Span) -> Vec<ExprId> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut stack = c.children();
        let mut visited = 0usize;
        while let Some(k) = stack.pop() {
            visited += 1;
            if visited > 100_000 {
                break;
            }
            if k.kind() == CXCursor_DeclRefExpr {
                let Some(r) = k.referenced() else { continue };
                let outside = self
                    .extent(r)
                    .is_none_or(|(s, e)| e <= span.start || s >= span.end);
                if matches!(r.kind(), CXCursor_VarDecl | CXCursor_ParmDecl)
                    && outside
                    && seen.insert(r.canonical())
                {
                    let v = self.var_id(r);
                    let at = self.span(k);
                    out.push(self.add_expr(ExprKind::Var(v), at, expr_class(k)));
                }
                continue;
            }
            stack.extend(k.children());
        }
        out
    }

    fn decl_ref(&mut self, c: Cursor<'a>) -> ExprKind {
        let Some(r) = c.referenced() else {
            return ExprKind::Other {
                what: format!("unresolved `{}`", c.spelling()),
                children: Vec::new(),
            };
        };
        match r.kind() {
            CXCursor_VarDecl | CXCursor_ParmDecl => ExprKind::Var(self.var_id(r)),
            CXCursor_FunctionDecl
            | CXCursor_CXXMethod
            | CXCursor_FunctionTemplate
            | CXCursor_Constructor => ExprKind::Func(self.func_id(r)),
            CXCursor_EnumConstantDecl => ExprKind::Int {
                text: r.spelling(),
                value: Some(r.enum_constant_value()),
            },
            _ => ExprKind::Other {
                what: format!("`{}`", c.spelling()),
                children: Vec::new(),
            },
        }
    }

    /// The name of the member a member reference names. libclang does not spell a member of
    /// an object of dependent type (`v.data()` on a `std::vector<T>` in a template); the
    /// text does (the identifier after the last `.` or `->`). Empty when neither tells.
    fn member_name(&mut self, member: Cursor<'a>) -> String {
        let spelled = member.spelling();
        if !spelled.is_empty() {
            return spelled;
        }
        let span = self.span(member);
        let text = self.text_at(span);
        let tail = text.rsplit(['.', '>']).next().unwrap_or("").trim();
        if tail.is_empty() || !tail.bytes().all(crate::text::scan::is_ident_byte) {
            return String::new();
        }
        tail.to_string()
    }

    /// For a call whose callee is a member of an object of dependent type (`result.push(x)`
    /// with `result` a `global_stack<I, N, T> &` in a template), the one method of that name
    /// taking `n_args` parameters in the class (template) the object's type names, and the
    /// object's expression. None for an object whose type is a template parameter, or a name
    /// several methods share with that arity (overloads by type).
    fn dependent_method(
        &mut self,
        children: &[Cursor<'a>],
        n_args: usize,
    ) -> Option<(Cursor<'a>, Cursor<'a>)> {
        let member = *children.first()?;
        if member.kind() != CXCursor_MemberRefExpr || member.referenced().is_some() {
            return None;
        }
        let base = member
            .children()
            .into_iter()
            .find(|k| lc::is_expression(k.kind()))?;
        let name = self.member_name(member);
        if name.is_empty() {
            return None;
        }
        let mut ty = base.ty();
        if matches!(
            ty.kind(),
            CXType_LValueReference | CXType_RValueReference | CXType_Pointer
        ) {
            ty = ty.pointee();
        }
        let decl = ty.declaration()?;
        let class = match decl.kind() {
            CXCursor_ClassTemplate => decl,
            CXCursor_ClassDecl | CXCursor_StructDecl => decl.specialized_template().unwrap_or(decl),
            _ => return None,
        };
        let mut found = class.children().into_iter().filter(|k| {
            matches!(k.kind(), CXCursor_CXXMethod | CXCursor_FunctionTemplate)
                && k.spelling() == name
                && k.parm_decls().len() == n_args
        });
        match (found.next(), found.next()) {
            (Some(m), None) => Some((m, base)),
            _ => None,
        }
    }

    fn call(&mut self, c: Cursor<'a>, d: usize) -> ExprKind {
        if let Some(k) = self.lambda_call(c, d) {
            return k;
        }
        let ch = c.children();
        let all_args = c.arguments();
        let n = all_args.len();
        let callee_id = match c.referenced() {
            Some(target) if lc::is_function_declaration(target.kind()) => {
                Some(self.func_id(target))
            }
            _ => dependent_callee(c, &ch, n).map(|f| self.func_id(f)),
        };
        // `obj.m(args)` on an object of a class template's dependent type: the template's one
        // method of that name and arity (its receiver is `obj`).
        let dependent = match callee_id {
            None => self.dependent_method(&ch, n),
            Some(_) => None,
        };
        let callee_id = callee_id.or(dependent.map(|(m, _)| self.func_id(m)));
        let arg_cursors: Vec<Cursor<'a>> = all_args.into_iter().filter(|a| !a.is_null()).collect();
        let is_member = callee_id.is_some_and(|f| self.module.functions[f].is_method);
        let n_params = callee_id.map_or(0, |f| self.module.functions[f].params.len());
        let mut receiver = None;
        let mut args_c: &[Cursor<'a>] = &arg_cursors;
        // `obj.m(args)` / `p->m(args)`: the first child is the member reference.
        // (Not for an overloaded operator on a member, `obj->v[i]`: there the first child is
        // the operand `obj->v`, a member reference to a field, not to the method.)
        if let Some(first) = ch.first() {
            let names_method = first
                .referenced()
                .is_some_and(|r| lc::is_function_declaration(r.kind()));
            if first.kind() == CXCursor_MemberRefExpr && is_member && names_method {
                let base = first
                    .children()
                    .into_iter()
                    .find(|k| lc::is_expression(k.kind()));
                receiver = base.map(|b| self.expr(b, d));
            }
        }
        if let Some((_, base)) = dependent {
            receiver = Some(self.expr(base, d));
        }
        // An overloaded member operator (`v[i]`): the object is the first argument.
        if receiver.is_none() && is_member && arg_cursors.len() == n_params + 1 {
            receiver = Some(self.expr(arg_cursors[0], d));
            args_c = &arg_cursors[1..];
        }
        let callee = match callee_id {
            Some(f) => Callee::Direct(f),
            None => {
                // Through a function pointer, or unresolved: the first child is the callee.
                // Not so for an operator call not resolved yet (`a - b` on operands of a
                // template's dependent type): its children come in source order, the first
                // operand before the operator's name, so it is named (`operator-`). Taking the
                // operand for the callee lowered it twice, and a chain `a - b + c - …` of such
                // operators grew as 2^n.
                match ch.first() {
                    Some(first) if arg_cursors.first() == Some(first) => {
                        // (Where a macro wrote it, the text is the macro's use, `ROP2(5)`:
                        // not the operator's name.)
                        let op = ch.iter().find(|k| !arg_cursors.contains(k)).map_or_else(
                            String::new,
                            |k| {
                                let s = self.span(*k);
                                self.text_at(s).trim().to_string()
                            },
                        );
                        let is_operator = op.chars().all(|c| "+-*/%^&|~!=<>,[]()".contains(c));
                        Callee::Named(format!("operator{}", if is_operator { &op } else { "" }))
                    }
                    // A name that lookup left unresolved until instantiation (`std::swap`
                    // in a template): named, not a call through a pointer.
                    Some(first) if overload_set(*first).is_some() => Callee::Named(
                        overload_set(*first)
                            .map(|r| r.spelling())
                            .unwrap_or_default(),
                    ),
                    Some(first) if n + 1 == ch.len() => Callee::Indirect(self.expr(*first, d)),
                    _ => Callee::Named(c.spelling()),
                }
            }
        };
        let args = args_c.iter().map(|a| self.expr(*a, d)).collect();
        ExprKind::Call {
            callee,
            receiver,
            args,
        }
    }
}

impl<'a> Lowerer<'a> {
    /// A call of a lambda by name (`f(i)` where `auto f = [&](int k) { ... };`), lowered as
    /// what its body does, at the call: the accesses of its straight-line code as they are;
    /// those under a condition or loop, and the arguments passed to pointer or reference
    /// parameters, as arguments of a call omplens cannot see into (they may or may not be
    /// read and written). None for any other call.
    fn lambda_call(&mut self, c: Cursor<'a>, d: usize) -> Option<ExprKind> {
        const MAX_INLINED: usize = 8;
        let target = c.referenced().filter(|t| is_lambda_operator(*t))?;
        let body = target
            .children()
            .into_iter()
            .find(|k| k.kind() == CXCursor_CompoundStmt)?;
        let key = body.canonical();
        if self.inlined_lambdas.len() >= MAX_INLINED || self.inlined_lambdas.contains(&key) {
            return None;
        }
        let span = self.span(c);
        let first_expr = self.bodies.exprs.len();
        let first_var = self.module.vars.len();
        let params = target.parm_decls();
        let args: Vec<Cursor<'a>> = c.arguments().into_iter().filter(|a| !a.is_null()).collect();
        // The object called (`f`) is the first argument of the operator call.
        let skip = args.len().saturating_sub(params.len());
        let mut plain = Vec::new();
        let mut guarded = Vec::new();
        for (i, a) in args.iter().enumerate().skip(skip) {
            let by_address = params.get(i - skip).is_some_and(|p| {
                matches!(
                    p.ty().kind(),
                    CXType_LValueReference | CXType_RValueReference | CXType_Pointer
                )
            });
            let e = self.expr(*a, d);
            if by_address {
                guarded.push(e);
            } else if let Some(p) = params.get(i - skip) {
                // The parameter takes the argument's value (`k = i`): sections over it are
                // sections over the caller's names.
                let v = self.var_id(*p);
                let lhs = self.add_expr(ExprKind::Var(v), span, expr_class(*p));
                let class = expr_class(*p);
                plain.push(self.add_expr(ExprKind::Assign(None, lhs, e), span, class));
            } else {
                plain.push(e);
            }
        }
        self.inlined_lambdas.push(key);
        self.lambda_body(body, d, false, &mut plain, &mut guarded);
        self.inlined_lambdas.pop();
        // The lambda's parameters and locals are this call's own: declared here (so inside
        // the kernel that makes the call), and new ones at the next call.
        for v in self.module.vars.iter_mut().skip(first_var) {
            v.span = Some(span);
            if v.storage == Storage::Parameter {
                v.storage = Storage::Local;
            }
        }
        self.vars.forget(|v| v.0 as usize >= first_var);
        if !guarded.is_empty() {
            let e = self.add_expr(
                ExprKind::Call {
                    callee: Callee::Named(crate::ir::LAMBDA_CONDITIONAL_CODE.into()),
                    receiver: None,
                    args: guarded,
                },
                span,
                TypeClass::Void,
            );
            plain.push(e);
        }
        // The body is written elsewhere: its accesses happen here, at the call.
        for e in self.bodies.exprs.iter_mut().skip(first_expr) {
            e.span = span;
        }
        Some(ExprKind::Other {
            what: "lambda call".into(),
            children: plain,
        })
    }

    /// The expressions of a lambda's body `k`, lowered in order into `plain`, or into
    /// `guarded` for those under a condition or loop (`conditional`).
    fn lambda_body(
        &mut self,
        k: Cursor<'a>,
        d: usize,
        conditional: bool,
        plain: &mut Vec<ExprId>,
        guarded: &mut Vec<ExprId>,
    ) {
        for ch in k.children() {
            let kind = ch.kind();
            let target = |g: &'_ mut Vec<ExprId>, p: &'_ mut Vec<ExprId>, e: ExprId| {
                if conditional {
                    g.push(e)
                } else {
                    p.push(e)
                }
            };
            if lc::is_expression(kind) {
                let e = self.expr(ch, d);
                target(guarded, plain, e);
                continue;
            }
            match kind {
                CXCursor_VarDecl => {
                    if let Some(init) = ch.var_decl_initializer() {
                        // `T *p = a + off;` as an assignment, so aliases are seen.
                        let v = self.var_id(ch);
                        let at = self.span(ch);
                        let lhs = self.add_expr(ExprKind::Var(v), at, expr_class(ch));
                        let rhs = self.expr(init, d);
                        let e = self.add_expr(ExprKind::Assign(None, lhs, rhs), at, expr_class(ch));
                        target(guarded, plain, e);
                    }
                }
                CXCursor_CompoundStmt | CXCursor_DeclStmt | CXCursor_ReturnStmt => {
                    self.lambda_body(ch, d, conditional, plain, guarded)
                }
                _ => self.lambda_body(ch, d, true, plain, guarded),
            }
        }
    }
}

/// Whether `f` is the call operator of a lambda's closure type (a generic lambda's is a
/// template).
fn is_lambda_operator(f: Cursor<'_>) -> bool {
    matches!(f.kind(), CXCursor_CXXMethod | CXCursor_FunctionTemplate)
        && f.spelling() == "operator()"
        && f.semantic_parent()
            .is_some_and(|p| p.spelling().starts_with("(lambda at "))
}

/// The lambdas of function body `body` that initialise a local variable used only to be
/// called (`auto f = [..](..) {..};` and then only `f(..)`).
fn called_only_lambdas<'a>(body: Cursor<'a>) -> Vec<Cursor<'a>> {
    const MAX_VISITED: usize = 200_000;
    let strip = |mut e: Cursor<'a>| {
        for _ in 0..4 {
            if e.kind() == CXCursor_LambdaExpr {
                return Some(e);
            }
            let ch = e.children();
            match ch[..] {
                [one] if lc::is_expression(one.kind()) => e = one,
                _ => return None,
            }
        }
        None
    };
    let is_lambda_call = |k: Cursor<'_>| {
        k.kind() == CXCursor_CallExpr && k.referenced().is_some_and(is_lambda_operator)
    };
    let mut vars = Vec::new(); // (variable, its lambda, uses, calls)
    let mut refs = Vec::new(); // referenced declarations of every DeclRefExpr
    let mut called = Vec::new(); // the variable each lambda call calls
    let mut stack = vec![body];
    let mut visited = 0;
    while let Some(k) = stack.pop() {
        visited += 1;
        if visited > MAX_VISITED {
            return Vec::new();
        }
        match k.kind() {
            CXCursor_VarDecl => {
                if let Some(l) = k.var_decl_initializer().and_then(strip) {
                    vars.push((k, l));
                }
            }
            CXCursor_DeclRefExpr => refs.extend(k.referenced()),
            _ if is_lambda_call(k) => {
                let object = k.arguments().into_iter().next().and_then(|a| {
                    let mut e = a;
                    for _ in 0..4 {
                        if e.kind() == CXCursor_DeclRefExpr {
                            return e.referenced();
                        }
                        e = *e.children().first()?;
                    }
                    None
                });
                called.extend(object);
            }
            _ => {}
        }
        stack.extend(k.children());
    }
    vars.into_iter()
        .filter(|(v, _)| {
            let uses = refs.iter().filter(|r| *r == v).count();
            uses > 0 && uses == called.iter().filter(|r| *r == v).count()
        })
        .map(|(_, l)| l)
        .collect()
}

/// A function the compiler declares itself where it is first used (`__builtin_popcountll`,
/// `__sync_fetch_and_add`): libclang places that declaration at the call, in the main file,
/// but it is a library function like those of system headers.
fn is_compiler_builtin(name: &str) -> bool {
    ["__builtin_", "__sync_", "__atomic_"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// The one free function a call in a template can mean before instantiation (`f<T>(x)`,
/// `f(x)` with a dependent argument), as clangd's heuristic resolver picks it: the
/// candidates the name finds that take as many arguments as the call passes, and only when
/// exactly one does (overloads by type stay unresolved). Methods are left alone: their
/// receiver is not known yet either.
/// The overload set a call's callee expression names (`std::swap` in a template: an
/// unresolved lookup, perhaps under an implicit cast), if it is one.
fn overload_set(callee: Cursor<'_>) -> Option<Cursor<'_>> {
    let mut level = vec![callee];
    for _ in 0..3 {
        if let Some(r) = level
            .iter()
            .find(|k| k.kind() == CXCursor_OverloadedDeclRef)
        {
            return Some(*r);
        }
        level = level.iter().flat_map(|k| k.children()).collect();
    }
    None
}

fn dependent_callee<'a>(
    call: Cursor<'a>,
    children: &[Cursor<'a>],
    n_args: usize,
) -> Option<Cursor<'a>> {
    let reference = call
        .referenced()
        .filter(|r| r.kind() == CXCursor_OverloadedDeclRef)
        .or_else(|| overload_set(*children.first()?))?;
    let free: Vec<Cursor<'a>> = reference
        .overloaded_decls()
        .into_iter()
        .filter(|d| matches!(d.kind(), CXCursor_FunctionDecl | CXCursor_FunctionTemplate))
        .filter(|d| {
            !d.semantic_parent().is_some_and(|p| {
                matches!(
                    p.kind(),
                    CXCursor_ClassDecl
                        | CXCursor_StructDecl
                        | CXCursor_ClassTemplate
                        | CXCursor_ClassTemplatePartialSpecialization
                        | CXCursor_UnionDecl
                )
            })
        })
        .collect();
    let mut exact = free.iter().filter(|d| d.parm_decls().len() == n_args);
    match (exact.next(), exact.next()) {
        (Some(one), None) => Some(*one),
        _ => None,
    }
}

enum BinOpKind {
    Plain(BinaryOp),
    Assign(Option<BinaryOp>),
    Unknown,
}

fn binary_op(k: CXBinaryOperatorKind) -> BinOpKind {
    use BinOpKind::*;
    use BinaryOp as B;
    match k {
        CXBinaryOperator_PtrMemD => Plain(B::PtrMemD),
        CXBinaryOperator_PtrMemI => Plain(B::PtrMemI),
        CXBinaryOperator_Mul => Plain(B::Mul),
        CXBinaryOperator_Div => Plain(B::Div),
        CXBinaryOperator_Rem => Plain(B::Rem),
        CXBinaryOperator_Add => Plain(B::Add),
        CXBinaryOperator_Sub => Plain(B::Sub),
        CXBinaryOperator_Shl => Plain(B::Shl),
        CXBinaryOperator_Shr => Plain(B::Shr),
        CXBinaryOperator_Cmp => Plain(B::Cmp3),
        CXBinaryOperator_LT => Plain(B::Lt),
        CXBinaryOperator_GT => Plain(B::Gt),
        CXBinaryOperator_LE => Plain(B::Le),
        CXBinaryOperator_GE => Plain(B::Ge),
        CXBinaryOperator_EQ => Plain(B::Eq),
        CXBinaryOperator_NE => Plain(B::Ne),
        CXBinaryOperator_And => Plain(B::BitAnd),
        CXBinaryOperator_Xor => Plain(B::BitXor),
        CXBinaryOperator_Or => Plain(B::BitOr),
        CXBinaryOperator_LAnd => Plain(B::And),
        CXBinaryOperator_LOr => Plain(B::Or),
        CXBinaryOperator_Assign => Assign(None),
        CXBinaryOperator_MulAssign => Assign(Some(B::Mul)),
        CXBinaryOperator_DivAssign => Assign(Some(B::Div)),
        CXBinaryOperator_RemAssign => Assign(Some(B::Rem)),
        CXBinaryOperator_AddAssign => Assign(Some(B::Add)),
        CXBinaryOperator_SubAssign => Assign(Some(B::Sub)),
        CXBinaryOperator_ShlAssign => Assign(Some(B::Shl)),
        CXBinaryOperator_ShrAssign => Assign(Some(B::Shr)),
        CXBinaryOperator_AndAssign => Assign(Some(B::BitAnd)),
        CXBinaryOperator_XorAssign => Assign(Some(B::BitXor)),
        CXBinaryOperator_OrAssign => Assign(Some(B::BitOr)),
        CXBinaryOperator_Comma => Plain(B::Comma),
        _ => Unknown,
    }
}

fn unary_op(k: CXUnaryOperatorKind) -> Option<UnaryOp> {
    use UnaryOp as U;
    Some(match k {
        CXUnaryOperator_PostInc => U::PostInc,
        CXUnaryOperator_PostDec => U::PostDec,
        CXUnaryOperator_PreInc => U::PreInc,
        CXUnaryOperator_PreDec => U::PreDec,
        CXUnaryOperator_AddrOf => U::AddrOf,
        CXUnaryOperator_Deref => U::Deref,
        CXUnaryOperator_Plus => U::Plus,
        CXUnaryOperator_Minus => U::Minus,
        CXUnaryOperator_Not => U::BitNot,
        CXUnaryOperator_LNot => U::Not,
        CXUnaryOperator_Real => U::Real,
        CXUnaryOperator_Imag => U::Imag,
        CXUnaryOperator_Extension => U::Extension,
        _ => return None,
    })
}

/// Parses a C integer literal (decimal, hex, octal, binary; suffixes ignored).
fn parse_int(text: &str) -> Option<i64> {
    let t = text
        .trim_end_matches(['u', 'U', 'l', 'L', 'z', 'Z'])
        .replace('\'', "");
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h.to_string(), 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b.to_string(), 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (t[1..].to_string(), 8)
    } else {
        (t, 10)
    };
    i64::from_str_radix(&digits, radix).ok()
}

/// A local object (not a pointer or reference) of a project class whose destructor has a
/// body: the declaration and the destructor's definition.
fn destructor_of(decl: Cursor<'_>) -> Option<(Cursor<'_>, Cursor<'_>)> {
    if decl.kind() != CXCursor_VarDecl || storage_of(decl) != Storage::Local {
        return None;
    }
    let ty = decl.ty().canonical();
    if ty.kind() != CXType_Record {
        return None;
    }
    let class = ty.declaration()?;
    if class.in_system_header() {
        return None;
    }
    fn find(c: Cursor<'_>) -> Option<Cursor<'_>> {
        c.children()
            .into_iter()
            .find(|k| k.kind() == CXCursor_Destructor)
    }
    // An object of a class template's specialisation (`Buf<double> b`): libclang lists no
    // members of the implicit instantiation; the template's destructor is the one lowered.
    let dtor = find(class)
        .or_else(|| class.specialized_template().and_then(find))?
        .definition()?;
    (!dtor.in_system_header()).then_some((decl, dtor))
}

fn storage_of(decl: Cursor<'_>) -> Storage {
    if decl.kind() == CXCursor_ParmDecl {
        return Storage::Parameter;
    }
    let static_ = decl.storage_class() == CX_SC_Static;
    let in_function = decl.semantic_parent().is_some_and(|parent| {
        lc::is_function_declaration(parent.kind()) || parent.kind() == CXCursor_LambdaExpr
    });
    match (in_function, static_) {
        (true, true) => Storage::StaticLocal,
        (true, false) => Storage::Local,
        (false, true) => Storage::StaticGlobal,
        (false, false) => Storage::Global,
    }
}

fn qualified_name(c: Cursor<'_>, name: &str) -> String {
    let mut parts = vec![name.to_string()];
    let mut parent = c.semantic_parent();
    let mut guard = 0;
    while let Some(p) = parent.filter(|_| guard < 64) {
        guard += 1;
        match p.kind() {
            CXCursor_Namespace
            | CXCursor_StructDecl
            | CXCursor_ClassDecl
            | CXCursor_ClassTemplate
            | CXCursor_UnionDecl => parts.push(p.spelling()),
            CXCursor_TranslationUnit => break,
            _ => {}
        }
        parent = p.semantic_parent();
    }
    parts.reverse();
    parts.join("::")
}

fn name_span(c: Cursor<'_>, name: &str) -> Option<Span> {
    c.location().map(|s| Span {
        start: s,
        end: s + name.len() as u32,
    })
}

/// The coarse type class of an expression cursor.
fn expr_class(c: Cursor<'_>) -> TypeClass {
    let t = c.ty().canonical();
    match t.kind() {
        CXType_Invalid => TypeClass::Unknown,
        CXType_Void => TypeClass::Void,
        CXType_Pointer | CXType_BlockPointer | CXType_ObjCObjectPointer => {
            if t.pointee().is_const() {
                TypeClass::PointerToConst
            } else {
                TypeClass::Pointer
            }
        }
        CXType_ConstantArray
        | CXType_IncompleteArray
        | CXType_VariableArray
        | CXType_DependentSizedArray => TypeClass::Array,
        CXType_Record => TypeClass::Record,
        // (`auto` left undeduced: a declaration in a template initialised from a dependent
        // expression, `auto p = v.data();`.)
        CXType_Dependent | CXType_Unexposed | CXType_Auto => TypeClass::Dependent,
        k if BUILTIN_TYPES.contains(&k) || k == CXType_Enum => TypeClass::Scalar,
        _ => TypeClass::Unknown,
    }
}

/// Lowers a clang type (shape, size, const-ness), following pointers and arrays.
fn lower_type(t: lc::Type<'_>, depth: usize) -> Type {
    let spelling = super::source::strip_paths_in_spelling(&t.spelling());
    let is_const = t.is_const();
    let size = t.size_of();
    let size = (size >= 0).then_some(size as u64);
    let canon = t.canonical();
    let kind = if depth > 16 {
        TypeKind::Other
    } else {
        match canon.kind() {
            CXType_Void => TypeKind::Void,
            CXType_Bool => TypeKind::Bool,
            CXType_Float | CXType_Double | CXType_LongDouble | CXType_Half | CXType_Float16
            | CXType_Float128 => TypeKind::Floating,
            k if BUILTIN_TYPES.contains(&k) => TypeKind::Integer,
            CXType_Enum => TypeKind::Enum,
            CXType_Pointer | CXType_BlockPointer => {
                TypeKind::Pointer(Box::new(lower_type(t.pointee(), depth + 1)))
            }
            CXType_LValueReference | CXType_RValueReference => {
                TypeKind::Reference(Box::new(lower_type(t.pointee(), depth + 1)))
            }
            CXType_ConstantArray => TypeKind::Array {
                element: Box::new(lower_type(canon.array_element(), depth + 1)),
                len: u64::try_from(canon.array_size()).ok(),
            },
            CXType_IncompleteArray | CXType_VariableArray | CXType_DependentSizedArray => {
                TypeKind::Array {
                    element: Box::new(lower_type(canon.array_element(), depth + 1)),
                    len: None,
                }
            }
            CXType_Record => TypeKind::Record(canon.spelling()),
            CXType_FunctionProto | CXType_FunctionNoProto => TypeKind::Function,
            CXType_Dependent | CXType_Unexposed | CXType_Auto => TypeKind::Dependent,
            _ => TypeKind::Other,
        }
    };
    Type {
        spelling,
        kind,
        size,
        is_const,
    }
}

/// A constructor's member initialisers that store a pointer parameter (`buf(b)`), as
/// (parameter index, member). libclang lists each initialiser as a `MemberRef` followed by
/// its expression among the constructor's children.
fn member_inits(
    children: &[Cursor<'_>],
    params: &[VarId],
    module: &Module,
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let parms: Vec<Cursor<'_>> = children
        .iter()
        .filter(|k| k.kind() == CXCursor_ParmDecl)
        .copied()
        .collect();
    for w in children.windows(2) {
        if w[0].kind() != CXCursor_MemberRef || !lc::is_expression(w[1].kind()) {
            continue;
        }
        let mut e = w[1];
        while matches!(e.kind(), CXCursor_UnexposedExpr | CXCursor_ParenExpr) {
            match e.children().as_slice() {
                [only] => e = *only,
                _ => break,
            }
        }
        if e.kind() != CXCursor_DeclRefExpr {
            continue;
        }
        let Some(k) = e
            .referenced()
            .and_then(|r| parms.iter().position(|p| *p == r))
        else {
            continue;
        };
        if params
            .get(k)
            .is_some_and(|v| module.vars[*v].ty.is_pointer())
        {
            out.push((k, w[0].spelling()));
        }
    }
    out
}

/// Assignments of a pointer parameter to a member of the object in a body (`buf = b;`,
/// `this->buf = b;`), as (parameter index, member).
fn member_assignments(
    params: &[VarId],
    module: &Module,
    exprs: &IndexVec<ExprId, Expr>,
) -> Vec<(usize, String)> {
    let strip = |mut e: ExprId| {
        while let ExprKind::Cast(inner) = &exprs[e].kind {
            e = *inner;
        }
        e
    };
    let mut out = Vec::new();
    for e in exprs.iter() {
        let ExprKind::Assign(None, lhs, rhs) = &e.kind else {
            continue;
        };
        let ExprKind::Member { base, field, .. } = &exprs[strip(*lhs)].kind else {
            continue;
        };
        if base.is_some_and(|b| !matches!(exprs[strip(b)].kind, ExprKind::This)) {
            continue;
        }
        let ExprKind::Var(v) = exprs[strip(*rhs)].kind else {
            continue;
        };
        if let Some(k) = params.iter().position(|p| *p == v) {
            if module.vars[v].ty.is_pointer() && !out.contains(&(k, field.clone())) {
                out.push((k, field.clone()));
            }
        }
    }
    out
}

/// Whether a line holds no code: blank, a comment line, or a preprocessor line.
fn no_code(line: &str) -> bool {
    let t = line.trim();
    t.is_empty()
        || t.starts_with('#')
        || t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with('*')
        || t.ends_with("*/")
}

/// The start of the lines with no code (see [`no_code`]; a line continued from the one
/// before counts with it) just above the line holding byte `at` of `text`.
fn no_code_before(text: &str, at: usize) -> usize {
    let Some(before) = text.get(..at) else {
        return at;
    };
    let mut start = before.rfind('\n').map_or(0, |i| i + 1);
    while start > 0 {
        let prev = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        let continued = prev > 0 && text[..prev - 1].trim_end().ends_with('\\');
        if !continued && !no_code(&text[prev..start - 1]) {
            break;
        }
        start = prev;
    }
    start
}

/// The end of the lines with no code just below the line holding byte `at` of `text`: the
/// start of the next line with code, or the end of the text.
fn no_code_after(text: &str, at: usize) -> usize {
    let Some(mut line) = text
        .get(at..)
        .and_then(|r| r.find('\n'))
        .map(|i| at + i + 1)
    else {
        return text.len();
    };
    let mut continued = false;
    while line < text.len() {
        let end = text[line..].find('\n').map_or(text.len(), |i| line + i);
        let t = &text[line..end];
        if !continued && !no_code(t) {
            break;
        }
        continued = t.trim_end().ends_with('\\');
        line = (end + 1).min(text.len());
    }
    line
}

/// The offset of the main file's `#include` line whose file name `header`'s path ends with
/// (at a `/` boundary, `./` and `../` parts compared as written), if one does.
fn include_directive_of(main: &str, header: &str) -> Option<u32> {
    include_directive_after(main, 0, header).map(|(start, _)| start)
}

/// The first `#include` line of `text` starting at or after byte `from` whose file name
/// `header`'s path ends with (see [`include_directive_of`]): its start and just past its end.
fn include_directive_after(text: &str, from: u32, header: &str) -> Option<(u32, u32)> {
    let header = header.replace('\\', "/");
    // From the first line starting at or after `from`.
    let from = from as usize;
    let mut at = match text.get(..from) {
        Some("") => 0,
        Some(before) if before.ends_with('\n') => from,
        Some(_) => text[from..].find('\n').map_or(text.len(), |i| from + i + 1),
        None => return None,
    };
    for line in text[at..].split_inclusive('\n') {
        let start = at;
        at += line.len();
        let rest = line.trim_start();
        let Some(rest) = rest.strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim_start();
        let close = match rest.chars().next() {
            Some('"') => '"',
            Some('<') => '>',
            _ => continue,
        };
        let Some(name) = rest[1..].split(close).next().filter(|n| !n.is_empty()) else {
            continue;
        };
        let name = name.trim_start_matches("./");
        if header == name || header.ends_with(&format!("/{name}")) {
            return Some((u32::try_from(start).ok()?, u32::try_from(at).ok()?));
        }
    }
    None
}

#[cfg(test)]
mod include_directive_tests {
    use super::include_directive_of;

    #[test]
    fn the_main_files_own_include_line_is_found_by_the_headers_path() {
        let main =
            "// top\n#include <stdio.h>\n  #  include \"./k.h\"\n#include \"../other/ref.h\"\n";
        assert_eq!(include_directive_of(main, "/p/src/k.h"), Some(26));
        assert_eq!(
            include_directive_of(main, "/p/src/../other/ref.h"),
            Some(47)
        );
        // A name that only ends the same way is not the header; nor is a header it lacks.
        assert_eq!(include_directive_of(main, "/p/src/kk.h"), None);
        assert_eq!(include_directive_of(main, "/usr/include/stdlib.h"), None);
    }
}
