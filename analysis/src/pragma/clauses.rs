//! Clause names, their argument requirements, and which clauses each leaf
//! construct accepts (OpenMP 5.2, C/C++).

use super::directives::{DirectiveKind, Leaf};

/// Whether a clause takes a parenthesised argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ArgReq {
    /// Never (`nowait`, `seq_cst`, ...).
    None,
    /// May (`ordered`, `indirect`, `partial`, ...).
    Optional,
    /// Must (`map(...)`, `collapse(...)`, ...).
    Required,
}

use ArgReq::{None as N, Optional as O, Required as R};

/// Every clause name of OpenMP 5.2 for C/C++ with its argument requirement.
/// The construct-type clauses of `cancel` (`parallel`, `sections`, `for`,
/// `taskgroup`) are included. Names starting with `ompx_` are accepted as
/// extensions everywhere.
const CLAUSE_SPECS: &[(&str, ArgReq)] = &[
    ("absent", R),
    ("acq_rel", N),
    ("acquire", N),
    ("adjust_args", R),
    ("affinity", R),
    ("align", R),
    ("aligned", R),
    ("allocate", R),
    ("allocator", R),
    ("append_args", R),
    ("at", R),
    ("atomic_default_mem_order", R),
    ("bind", R),
    ("capture", N),
    ("collapse", R),
    ("compare", N),
    ("contains", R),
    ("copyin", R),
    ("copyprivate", R),
    ("default", R),
    ("defaultmap", R),
    ("depend", R),
    ("destroy", O),
    ("detach", R),
    ("device", R),
    ("device_type", R),
    ("dist_schedule", R),
    ("doacross", R),
    ("dynamic_allocators", N),
    ("enter", R),
    ("exclusive", R),
    ("fail", R),
    ("filter", R),
    ("final", R),
    ("firstprivate", R),
    ("for", N),
    ("from", R),
    ("full", N),
    ("grainsize", R),
    ("has_device_addr", R),
    ("hint", R),
    ("holds", R),
    ("if", R),
    ("in_reduction", R),
    ("inbranch", N),
    ("inclusive", R),
    ("indirect", O),
    ("init", R),
    ("initializer", R),
    ("is_device_ptr", R),
    ("lastprivate", R),
    ("linear", R),
    ("link", R),
    ("map", R),
    ("match", R),
    ("mergeable", N),
    ("message", R),
    ("no_openmp", N),
    ("no_openmp_routines", N),
    ("no_parallelism", N),
    ("nocontext", R),
    ("nogroup", N),
    ("nontemporal", R),
    ("notinbranch", N),
    ("novariants", R),
    ("nowait", N),
    ("num_tasks", R),
    ("num_teams", R),
    ("num_threads", R),
    ("order", R),
    ("ordered", O),
    ("otherwise", O),
    ("parallel", N),
    ("partial", O),
    ("priority", R),
    ("private", R),
    ("proc_bind", R),
    ("read", N),
    ("reduction", R),
    ("relaxed", N),
    ("release", N),
    ("reverse_offload", N),
    ("safelen", R),
    ("schedule", R),
    ("sections", N),
    ("seq_cst", N),
    ("severity", R),
    ("shared", R),
    ("simd", N),
    ("simdlen", R),
    ("sizes", R),
    ("task_reduction", R),
    ("taskgroup", N),
    ("thread_limit", R),
    ("threads", N),
    ("to", R),
    ("unified_address", N),
    ("unified_shared_memory", N),
    ("uniform", R),
    ("untied", N),
    ("update", O),
    ("use", R),
    ("use_device_addr", R),
    ("use_device_ptr", R),
    ("uses_allocators", R),
    ("weak", N),
    ("when", R),
    ("write", N),
];

/// Every known clause name (without `ompx_` extensions), sorted.
pub fn known_clauses() -> impl Iterator<Item = &'static str> {
    CLAUSE_SPECS.iter().map(|(name, _)| *name)
}

/// The argument requirement of a clause name, `None` when unknown.
pub(crate) fn arg_req(name: &str) -> Option<ArgReq> {
    if name.starts_with("ompx_") {
        return Some(ArgReq::Optional);
    }
    CLAUSE_SPECS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, req)| *req)
}

/// True for an OpenMP 5.2 clause name (or an `ompx_` extension).
pub fn is_known_clause(name: &str) -> bool {
    arg_req(name).is_some()
}

/// Clauses accepted by one leaf construct.
fn leaf_clauses(leaf: Leaf) -> &'static [&'static str] {
    use Leaf::*;
    match leaf {
        Target => &[
            "if",
            "device",
            "thread_limit",
            "private",
            "firstprivate",
            "in_reduction",
            "map",
            "is_device_ptr",
            "has_device_addr",
            "defaultmap",
            "nowait",
            "depend",
            "allocate",
            "uses_allocators",
        ],
        Data => &["if", "device", "map", "use_device_ptr", "use_device_addr"],
        EnterData | ExitData => &["if", "device", "map", "depend", "nowait"],
        Update => &["if", "device", "to", "from", "depend", "nowait"],
        DeclareTarget => &["to", "enter", "link", "device_type", "indirect"],
        BeginDeclareTarget => &["device_type", "indirect"],
        Teams => &[
            "num_teams",
            "thread_limit",
            "default",
            "private",
            "firstprivate",
            "shared",
            "reduction",
            "allocate",
            "if",
        ],
        Distribute => &[
            "private",
            "firstprivate",
            "lastprivate",
            "collapse",
            "dist_schedule",
            "allocate",
            "order",
        ],
        Parallel => &[
            "if",
            "num_threads",
            "default",
            "private",
            "firstprivate",
            "shared",
            "copyin",
            "reduction",
            "proc_bind",
            "allocate",
        ],
        For => &[
            "private",
            "firstprivate",
            "lastprivate",
            "linear",
            "reduction",
            "schedule",
            "collapse",
            "ordered",
            "nowait",
            "allocate",
            "order",
        ],
        Simd => &[
            "if",
            "safelen",
            "simdlen",
            "linear",
            "aligned",
            "nontemporal",
            "private",
            "lastprivate",
            "reduction",
            "collapse",
            "order",
        ],
        Loop => &[
            "bind",
            "collapse",
            "order",
            "private",
            "lastprivate",
            "reduction",
        ],
        Sections => &[
            "private",
            "firstprivate",
            "lastprivate",
            "reduction",
            "allocate",
            "nowait",
        ],
        Single => &[
            "private",
            "firstprivate",
            "copyprivate",
            "allocate",
            "nowait",
        ],
        Masked => &["filter"],
        Task => &[
            "if",
            "final",
            "untied",
            "default",
            "mergeable",
            "private",
            "firstprivate",
            "shared",
            "in_reduction",
            "depend",
            "priority",
            "allocate",
            "affinity",
            "detach",
        ],
        Taskloop => &[
            "if",
            "shared",
            "private",
            "firstprivate",
            "lastprivate",
            "reduction",
            "in_reduction",
            "default",
            "grainsize",
            "num_tasks",
            "collapse",
            "final",
            "priority",
            "untied",
            "mergeable",
            "nogroup",
            "allocate",
        ],
        Taskwait => &["depend", "nowait"],
        Taskgroup => &["task_reduction", "allocate"],
        Critical => &["hint"],
        Atomic => &[
            "read", "write", "update", "capture", "compare", "fail", "weak", "seq_cst", "acq_rel",
            "release", "acquire", "relaxed", "hint",
        ],
        Ordered => &["threads", "simd", "depend", "doacross"],
        Flush => &["acq_rel", "release", "acquire", "seq_cst"],
        DeclareSimd => &[
            "simdlen",
            "linear",
            "aligned",
            "uniform",
            "inbranch",
            "notinbranch",
        ],
        DeclareReduction => &["initializer"],
        DeclareMapper => &["map"],
        DeclareVariant => &["match", "adjust_args", "append_args"],
        BeginDeclareVariant => &["match"],
        Requires => &[
            "reverse_offload",
            "unified_address",
            "unified_shared_memory",
            "atomic_default_mem_order",
            "dynamic_allocators",
        ],
        Cancel => &["parallel", "sections", "for", "taskgroup", "if"],
        CancellationPoint => &["parallel", "sections", "for", "taskgroup"],
        Scan => &["inclusive", "exclusive"],
        Depobj => &["depend", "destroy", "update"],
        Metadirective | BeginMetadirective => &["when", "default", "otherwise"],
        Tile => &["sizes"],
        Unroll => &["full", "partial"],
        Error => &["at", "severity", "message"],
        Assume | Assumes | BeginAssumes => &[
            "absent",
            "contains",
            "holds",
            "no_openmp",
            "no_openmp_routines",
            "no_parallelism",
        ],
        Allocate => &["allocator", "align"],
        Allocators => &["allocate"],
        Dispatch => &[
            "device",
            "depend",
            "nowait",
            "novariants",
            "nocontext",
            "is_device_ptr",
            "has_device_addr",
        ],
        Interop => &["init", "use", "destroy", "device", "depend", "nowait"],
        Scope => &["private", "firstprivate", "reduction", "allocate", "nowait"],
        EndDeclareTarget | Section | Master | Taskyield | Barrier | Threadprivate
        | EndDeclareVariant | EndMetadirective | Nothing | EndAssumes => &[],
    }
}

/// True when clause `name` may appear on `kind`: a combined directive
/// accepts the union of its leaves' clauses, except that `nowait` is not
/// accepted on a combined construct that contains `parallel` but not
/// `target` (`parallel for`, `teams distribute parallel for`: the parallel
/// region ends with a barrier; with `target`, `nowait` applies to the
/// target task). `ompx_` extensions are accepted everywhere.
pub fn clause_allowed(kind: DirectiveKind, name: &str) -> bool {
    if name.starts_with("ompx_") {
        return true;
    }
    let leaves = kind.leaf_constructs();
    if name == "nowait"
        && leaves.len() > 1
        && leaves.contains(&Leaf::Parallel)
        && !leaves.contains(&Leaf::Target)
    {
        return false;
    }
    leaves.iter().any(|&l| leaf_clauses(l).contains(&name))
}

/// Names of the clauses allowed on `kind`, in table order, without
/// duplicates.
pub(crate) fn allowed_clauses(kind: DirectiveKind) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for &leaf in kind.leaf_constructs() {
        for &name in leaf_clauses(leaf) {
            if !out.contains(&name) && clause_allowed(kind, name) {
                out.push(name);
            }
        }
    }
    out
}

/// Levenshtein distance between two short ASCII-ish strings (by chars).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The closest candidate within edit distance 2 (and closer than the word
/// is long), preferring earlier candidates on ties.
pub(crate) fn suggest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if word.chars().count() > 64 {
        return None;
    }
    let len = word.chars().count();
    let mut best: Option<(usize, &'a str)> = None;
    for cand in candidates {
        if cand == word {
            continue;
        }
        if cand.chars().count().abs_diff(len) > 2 {
            continue;
        }
        let d = edit_distance(word, cand);
        if d <= 2 && d < len && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

/// Suggestion for an unknown clause name on `kind`: clauses allowed on the
/// directive first, then any known clause.
pub(crate) fn suggest_clause(kind: DirectiveKind, word: &str) -> Option<&'static str> {
    suggest(word, allowed_clauses(kind)).or_else(|| suggest(word, known_clauses()))
}
