//! Coalescing analysis of the parallel loops of target regions, after IPDA (Chikin et al.,
//! "Memory-access-aware safety and profitability analysis for transformation of
//! accelerator-bound OpenMP loops", TACO 2019).
//!
//! For each loop that a directive in a kernel spreads over threads (`distribute parallel for`,
//! `parallel for`, `loop`): the byte stride of every access between consecutive iterations,
//! the memory requests a warp of 32 threads needs for it ([`requests`], the paper's
//! Figure 7), and the reorderings of the perfect nest under the loop (`collapse(k)`, or an
//! interchange that brings an inner loop up before collapsing) that are safe
//! ([`dependence`], [`transform`]) and cut the requests.
//!
//! - [`sym`]: symbolic values of the loop body with definitions substituted, conditional
//!   definitions as guarded candidates;
//! - [`nest`]: canonical loops and the perfect chain;
//! - [`stride`]: thread iteration points, strides and requests per access;
//! - [`requests`]: fitting a warp's offsets into requests;
//! - [`dependence`]: the iteration-point difference test;
//! - [`transform`]: safety, profitability and text edits.

pub mod dependence;
pub mod nest;
pub mod requests;
pub mod stride;
pub mod sym;
pub mod transform;

use crate::ir::access::AccessKind;
use crate::ir::{kernel_stmts, stmt_children, DirId, FuncId, Module, Span, StmtId, StmtKind};
use crate::pragma::{ClauseKind, Leaf, ScheduleKind};
use crate::semantics::constants::{known_values, Values};
use crate::text::TextEdit;
pub use stride::{Cost, Mapping, Stride};
pub use transform::Reshape;

/// One access of a parallel loop and what it costs a warp.
#[derive(Clone, Debug)]
pub struct SiteReport {
    pub span: Span,
    /// The access as written (whitespace normalised).
    pub text: String,
    pub kind: AccessKind,
    /// Element size in bytes.
    pub width: Option<u64>,
    pub cost: Cost,
}

impl SiteReport {
    /// Needs more requests than a warp reading consecutive elements would, with a stride
    /// that holds for every warp (not only the first: `x[(i + 1) % n]` wraps once).
    pub fn uncoalesced(&self) -> bool {
        matches!(self.cost.stride, Stride::Bytes(_))
            && self.cost.requests.is_some_and(|r| r > self.cost.ideal)
    }
}

/// A reshaping considered, with its verdicts.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub reshape: Reshape,
    /// Ok, or why it is not safe.
    pub safe: Result<(), String>,
    /// Total requests per warp of the loop's accesses afterwards (paper's count).
    pub requests: u32,
    /// The text edits performing it (None when the source cannot be edited safely).
    pub edits: Option<Vec<TextEdit>>,
}

/// One parallel loop.
#[derive(Clone, Debug)]
pub struct LoopReport {
    pub func: FuncId,
    pub directive: DirId,
    pub root: StmtId,
    /// IV names of the perfect chain under the directive, outermost first.
    pub chain: Vec<String>,
    /// How many loops of the chain the directive spreads over threads (its `collapse`).
    pub collapsed: usize,
    /// The parallel IV the strides are per iteration of (the innermost collapsed loop's).
    pub iv: String,
    pub sites: Vec<SiteReport>,
    /// Total requests per warp over the accesses (paper's count: unknowns count as one per
    /// thread).
    pub requests: u32,
    pub candidates: Vec<Candidate>,
    /// Index in `candidates` of the reshaping offered: safe, with edits, fewest requests.
    pub best: Option<usize>,
}

/// Every parallel loop of every kernel of `module`.
pub fn analyse(module: &Module, source: &str) -> Vec<LoopReport> {
    let mut out = Vec::new();
    for (fid, func) in module.functions.iter_enumerated() {
        // (A header's kernels are not this file's to rewrite.)
        if !func.has_body || func.not_analysed.is_some() || !func.in_main_file {
            continue;
        }
        let mut consts: Option<Values> = None;
        for k in kernel_stmts(module, func) {
            let mut stack = vec![k];
            let mut found = Vec::new();
            while let Some(s) = stack.pop() {
                if let StmtKind::Omp {
                    directive,
                    body: Some(b),
                } = &func.stmt(s).kind
                {
                    let kind = module.directive(*directive).directive.kind;
                    if (kind.has_leaf(Leaf::For) || kind.has_leaf(Leaf::Loop))
                        && matches!(func.stmt(*b).kind, StmtKind::For(_))
                    {
                        found.push((*directive, *b));
                    }
                }
                stack.extend(stmt_children(&func.stmt(s).kind));
            }
            found.sort_by_key(|(_, b)| func.stmt(*b).span.start);
            for (d, root) in found {
                let consts = consts.get_or_insert_with(|| known_values(module, fid));
                if let Some(r) = analyse_loop(module, source, fid, d, root, consts) {
                    out.push(r);
                }
            }
        }
    }
    out
}

/// A directive argument's value (`collapse(2)`, `schedule(static, CHUNK)`).
fn arg_value(e: &crate::pragma::Expr, consts: &Values) -> Option<i64> {
    match &e.kind {
        crate::pragma::ExprKind::Int(t) => {
            let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
            t.parse().ok()
        }
        crate::pragma::ExprKind::Ident(n) => consts.get(n).copied(),
        _ => None,
    }
}

fn analyse_loop(
    module: &Module,
    source: &str,
    fid: FuncId,
    dir: DirId,
    root: StmtId,
    consts: &Values,
) -> Option<LoopReport> {
    let func = module.function(fid);
    let directive = &module.directive(dir).directive;
    let mut collapse = 1usize;
    let mut collapse_clause = None;
    let mut chunk = Some(1);
    for c in &directive.clauses {
        match &c.kind {
            ClauseKind::Collapse(e) => {
                collapse = usize::try_from(arg_value(e, consts)?).ok()?.max(1);
                collapse_clause = Some(c.span);
            }
            ClauseKind::Schedule {
                kind, chunk: ch, ..
            } => {
                chunk = match (kind, ch) {
                    (ScheduleKind::Static, Some(e)) => arg_value(e, consts).filter(|c| *c > 0),
                    _ => None,
                };
            }
            _ => {}
        }
    }
    let chain = nest::perfect_chain(func, root);
    if chain.len() < collapse {
        return None;
    }
    let nest = sym::interpret(module, source, func, root);
    // Every loop of the chain must be canonical to map iterations to threads.
    if chain.iter().any(|l| !nest.loops.contains_key(l)) {
        return None;
    }
    let names: Vec<String> = chain.iter().map(|l| nest.loops[l].atom.clone()).collect();
    let mapping = Mapping {
        loops: chain[..collapse].to_vec(),
        chunk,
    };
    let text = |s: Span| {
        module
            .text(source, s)
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    };
    let costs = |m: &Mapping| -> Vec<Cost> {
        let warp = stride::Warp::new(&nest, m);
        nest.sites
            .iter()
            .map(|s| stride::cost(&nest, s.offset.as_ref(), s.width, m, &warp, consts))
            .collect()
    };
    let base = costs(&mapping);
    let total: u32 = base.iter().map(|c| c.conservative).sum();
    let sites: Vec<SiteReport> = nest
        .sites
        .iter()
        .zip(base)
        .map(|(s, cost)| SiteReport {
            span: s.span,
            text: text(s.span),
            kind: s.kind,
            width: s.width,
            cost,
        })
        .collect();

    let mut candidates = Vec::new();
    // Only loops that are all in a kernel reorder; the chain's length bounds both kinds.
    if chunk == Some(1) {
        let mut reshapes = Vec::new();
        for depth in collapse + 1..=chain.len() {
            reshapes.push(Reshape::Collapse { depth });
        }
        for moved in collapse + 1..chain.len() {
            reshapes.push(Reshape::Interchange {
                moved,
                depth: collapse + 1,
            });
        }
        for reshape in reshapes {
            let order = reshape.order(&chain);
            let depth = reshape.depth();
            let involved: Vec<StmtId> = match reshape {
                Reshape::Collapse { depth } => chain[..depth].to_vec(),
                Reshape::Interchange { moved, .. } => chain[..=moved].to_vec(),
            };
            let par = order[..depth].to_vec();
            let safe = transform::safety(module, source, func, &nest, &involved, &par, consts);
            let m = Mapping { loops: par, chunk };
            let requests = costs(&m).iter().map(|c| c.conservative).sum();
            let edits = transform::edits(
                source,
                &nest,
                &chain,
                &reshape,
                directive.span,
                collapse_clause,
            );
            candidates.push(Candidate {
                reshape,
                safe,
                requests,
                edits,
            });
        }
    }
    let best = candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.safe.is_ok() && c.edits.is_some() && c.requests < total)
        .min_by_key(|(i, c)| (c.requests, *i))
        .map(|(i, _)| i);
    Some(LoopReport {
        func: fid,
        directive: dir,
        root,
        iv: names[collapse - 1].clone(),
        chain: names,
        collapsed: collapse,
        sites,
        requests: total,
        candidates,
        best,
    })
}

impl Reshape {
    /// How a message names it: `collapse(2)`, `interchange j and k, then collapse(2)`.
    pub fn describe(&self, chain: &[String]) -> String {
        match *self {
            Reshape::Collapse { depth } => format!("collapse({depth})"),
            Reshape::Interchange { moved, depth } => {
                let at = chain.get(depth - 1).map_or("?", String::as_str);
                let m = chain.get(moved).map_or("?", String::as_str);
                format!("interchange `{at}` and `{m}`, then collapse({depth})")
            }
        }
    }
}

/// A stride as a message says it: `8 bytes`, `8 * n bytes (= 384)`.
pub fn stride_text(s: &Stride, consts: &Values) -> String {
    match s {
        Stride::Bytes(v) => {
            let parts: Vec<String> = v
                .iter()
                .map(|p| {
                    let n = crate::semantics::constants::substitute(p, consts);
                    match (p.as_const(), n.as_const()) {
                        (Some(c), _) => format!("{c}"),
                        (None, Some(c)) => format!("{p} (= {c})"),
                        _ => p.to_string(),
                    }
                })
                .collect();
            format!("{} bytes", parts.join(" or "))
        }
        Stride::Unknown(why) => format!("unknown ({why})"),
    }
}

/// The requests of one access as text: `32 (ideal 2)`, `unknown (ideal 2)`.
pub fn requests_text(c: &Cost) -> String {
    match c.requests {
        Some(r) => format!("{r} (ideal {})", c.ideal),
        None => format!("unknown (ideal {})", c.ideal),
    }
}

/// A stable text form of the reports (used by the tests' expectations).
pub fn render(module: &Module, reports: &[LoopReport]) -> String {
    let mut s = String::new();
    for r in reports {
        let consts = known_values(module, r.func);
        let func = module.function(r.func);
        let line = module.line_col(func.stmt(r.root).span.start).0;
        s.push_str(&format!(
            "loop {line} `{}` chain [{}] collapse {}: {} requests per warp\n",
            r.iv,
            r.chain.join(" "),
            r.collapsed,
            r.requests
        ));
        for site in &r.sites {
            s.push_str(&format!(
                "  access {} `{}` {} {}B: stride {}, requests {}\n",
                module.line_col(site.span.start).0,
                site.text,
                site.kind.name(),
                site.width.map_or("?".to_string(), |w| w.to_string()),
                stride_text(&site.cost.stride, &consts),
                requests_text(&site.cost)
            ));
        }
        for (i, c) in r.candidates.iter().enumerate() {
            let verdict = match &c.safe {
                Ok(()) => "safe".to_string(),
                Err(why) => format!("unsafe: {why}"),
            };
            s.push_str(&format!(
                "  {}: {}, {} requests{}\n",
                c.reshape.describe(&r.chain),
                verdict,
                c.requests,
                if r.best == Some(i) { " <- offered" } else { "" }
            ));
        }
    }
    s
}
