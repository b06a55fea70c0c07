//! Inter-thread strides and requests per warp of the accesses of a parallel loop (IPDA §6).
//!
//! Threads take consecutive iterations of the parallel loop (of the innermost loop of a
//! collapsed nest: collapsed iterations are numbered in sequential order). A thread's access
//! is the access's symbolic offset instantiated at that thread's iteration point; the
//! difference to thread 0 is its offset within the warp, a number when the difference
//! cancels to one.

use super::requests::{self, LINE, WARP};
use super::sym::{AtomKind, Cond, Guard, Nest, Value};
use crate::ir::{BinaryOp, StmtId};
use crate::semantics::constants::{substitute, Values};
use crate::semantics::symbolic::Poly;
use std::collections::BTreeMap;
use std::fmt;

/// Which loops are spread over the threads of a warp (outermost first), and how many
/// consecutive iterations each thread takes (`schedule(static, chunk)`; 1 by default).
#[derive(Clone, Debug, PartialEq)]
pub struct Mapping {
    pub loops: Vec<StmtId>,
    /// None when the schedule does not say which iterations a thread gets.
    pub chunk: Option<i64>,
}

/// Bytes between the accesses of consecutive iterations of the parallel loop.
#[derive(Clone, Debug, PartialEq)]
pub enum Stride {
    /// The possible strides (one unless a conditionally defined index makes it vary).
    Bytes(Vec<Poly>),
    /// Not a fixed difference, with the reason.
    Unknown(String),
}

impl fmt::Display for Stride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stride::Bytes(v) => {
                let parts: Vec<String> = v.iter().map(|p| p.to_string()).collect();
                write!(f, "{}", parts.join(" or "))
            }
            Stride::Unknown(why) => write!(f, "unknown ({why})"),
        }
    }
}

/// What one access costs a warp.
#[derive(Clone, Debug, PartialEq)]
pub struct Cost {
    pub stride: Stride,
    /// Requests per warp when known.
    pub requests: Option<u32>,
    /// The paper's count: requests of the threads whose offset is known, plus one for every
    /// thread whose offset is not.
    pub conservative: u32,
    /// Requests if the threads read consecutive elements.
    pub ideal: u32,
    pub threads: u32,
}

/// An iteration point: IV atom → value.
type Point = BTreeMap<String, Poly>;

/// Bit patterns tried for conditions that are the same for every thread.
const MAX_UNIFORM: usize = 6;

/// The threads of a mapping's first warp and the iteration point of each: the same for
/// every access of the loop, so made once per mapping, not per access.
pub struct Warp {
    threads: u32,
    points: Option<Vec<Point>>,
}

impl Warp {
    pub fn new(nest: &Nest, map: &Mapping) -> Warp {
        let threads = active_threads(nest, map);
        Warp {
            threads,
            points: thread_points(nest, map, threads),
        }
    }
}

pub fn cost(
    nest: &Nest,
    value: Option<&Value>,
    width: Option<u64>,
    map: &Mapping,
    warp: &Warp,
    consts: &Values,
) -> Cost {
    let threads = warp.threads;
    let w = width.unwrap_or(8) as i64;
    let ideal = requests::ideal(threads, w);
    let unknown = |stride| Cost {
        stride,
        requests: None,
        conservative: threads,
        ideal,
        threads,
    };
    let Some(value) = value else {
        return unknown(Stride::Unknown(
            "the address is not an affine or polynomial offset of a fixed base".into(),
        ));
    };
    let stride = stride(nest, value, map, consts);
    // (No points without a chunk: `thread_points`.)
    let Some(points) = &warp.points else {
        return unknown(stride);
    };
    let Some(per_assignment) = at_points(nest, value, points, consts, false) else {
        return unknown(stride);
    };
    let mut worst: Option<(u32, u32, bool)> = None;
    for polys in per_assignment {
        let mut known = Vec::new();
        let mut missing = 0u32;
        for p in &polys {
            match (p, &polys[0]) {
                (Some(p), Some(p0)) => match p.const_diff(p0) {
                    Some(c) => known.push(c),
                    None => missing += 1,
                },
                _ => missing += 1,
            }
        }
        let r = requests::requests(&known, w);
        let entry = (r + missing, r, missing == 0);
        worst = Some(match worst {
            Some(x) if x.0 >= entry.0 => x,
            _ => entry,
        });
    }
    let Some((conservative, _, exact)) = worst else {
        return unknown(stride);
    };
    let mut requests = exact.then_some(conservative);
    if requests.is_none() && implied_large(nest, &stride, map) {
        // Each thread's element lies in a line of its own.
        requests = Some(threads);
    }
    Cost {
        stride,
        requests,
        conservative: requests.unwrap_or(conservative),
        ideal,
        threads,
    }
}

/// Threads of one warp that have work: fewer than 32 when the parallel loops are short.
fn active_threads(nest: &Nest, map: &Mapping) -> u32 {
    let mut total: u64 = 1;
    for l in &map.loops {
        match nest.loops.get(l).and_then(|i| i.trip) {
            Some(t) => total = total.saturating_mul(t),
            None => return WARP,
        }
    }
    total.clamp(1, u64::from(WARP)) as u32
}

/// The iteration point of each thread of the first warp.
fn thread_points(nest: &Nest, map: &Mapping, threads: u32) -> Option<Vec<Point>> {
    let chunk = map.chunk?;
    let mut out = Vec::new();
    for t in 0..i64::from(threads) {
        let mut logical = t * chunk;
        let mut point = Point::new();
        for l in map.loops.iter().rev() {
            let info = nest.loops.get(l)?;
            let q = match info.trip {
                Some(n) if n > 0 => {
                    let n = n as i64;
                    let q = logical % n;
                    logical /= n;
                    q
                }
                // Unknown trip count: taken as at least a warp's worth of iterations.
                _ => std::mem::take(&mut logical),
            };
            let base = info.first.clone().unwrap_or_else(|| Poly::atom(&info.atom));
            point.insert(info.atom.clone(), base.add(&Poly::constant(info.step * q)));
        }
        out.push(point);
    }
    Some(out)
}

/// The stride: the offset at `iv + step` minus the offset at `iv`, for the innermost mapped
/// loop, with the other IVs left symbolic.
fn stride(nest: &Nest, value: &Value, map: &Mapping, consts: &Values) -> Stride {
    let Some(info) = map.loops.last().and_then(|l| nest.loops.get(l)) else {
        return Stride::Unknown("no parallel loop".into());
    };
    let iv = Poly::atom(&info.atom);
    let step = info.step * map.chunk.unwrap_or(1);
    let p0 = Point::from([(info.atom.clone(), iv.clone())]);
    let p1 = Point::from([(info.atom.clone(), iv.add(&Poly::constant(step)))]);
    let points = [p0, p1];
    let decided = |per: &Vec<Vec<Option<Poly>>>| per.iter().all(|v| v.iter().all(Option::is_some));
    // A condition on the IV (`i < 32`): the stride on each side of it, as the paper's
    // difference at consecutive threads of one warp gives it.
    let per = match at_points(nest, value, &points, consts, false) {
        Some(per) if decided(&per) && !per.is_empty() => per,
        _ => match at_points(nest, value, &points, consts, true) {
            Some(per) if decided(&per) && !per.is_empty() => per,
            _ => {
                return Stride::Unknown(
                    "a condition selects the index differently per iteration".into(),
                )
            }
        },
    };
    let mut out: Vec<Poly> = Vec::new();
    for polys in per {
        let (Some(a), Some(b)) = (&polys[0], &polys[1]) else {
            return Stride::Unknown(
                "a condition selects the index differently per iteration".into(),
            );
        };
        let d = b.sub(a);
        if !fixed(nest, &d) {
            return Stride::Unknown(format!("the difference depends on the iteration: {d}"));
        }
        if !out.contains(&d) {
            out.push(d);
        }
    }
    if out.is_empty() {
        return Stride::Unknown("no path reaches the access".into());
    }
    Stride::Bytes(out)
}

/// True when `p` is the same for every iteration (no IV, nothing varying, nothing renamed per
/// thread).
pub fn fixed(nest: &Nest, p: &Poly) -> bool {
    nest.invariant(p) && p.atoms().iter().all(|a| !a.contains('#'))
}

/// A symbolic stride every thread of which lands in a line of its own: positive atoms only,
/// and at least [`LINE`] bytes when each is 1; with the warp's threads all in the innermost
/// mapped loop.
fn implied_large(nest: &Nest, stride: &Stride, map: &Mapping) -> bool {
    let Stride::Bytes(v) = stride else {
        return false;
    };
    let inner_long = map
        .loops
        .last()
        .and_then(|l| nest.loops.get(l))
        .is_some_and(|i| i.trip.is_none_or(|t| t >= u64::from(WARP)));
    inner_long
        && map.chunk == Some(1)
        && v.iter().all(|p| {
            let p = if p.constant_term() < 0 && p.terms().all(|(_, c)| c <= 0) {
                p.neg()
            } else {
                p.clone()
            };
            min_positive(nest, &p).is_some_and(|m| m >= LINE)
        })
}

/// The least value of `p` when every atom is at least 1, if `p` only has positive atoms and
/// non-negative coefficients.
pub fn min_positive(nest: &Nest, p: &Poly) -> Option<i64> {
    if !p.atoms().iter().all(|a| nest.positive.contains(*a)) {
        return None;
    }
    let mut sum: i64 = 0;
    for (_, c) in p.terms() {
        if c < 0 {
            return None;
        }
        sum = sum.checked_add(c)?;
    }
    Some(sum)
}

/// `p` at `point` (`tag` names the point, so that varying atoms of different points differ).
pub fn instantiate(nest: &Nest, p: &Poly, point: &Point, tag: usize) -> Poly {
    instantiate_at(nest, p, point, tag, 0)
}

fn instantiate_at(nest: &Nest, p: &Poly, point: &Point, tag: usize, depth: usize) -> Poly {
    let mut out = Poly::zero();
    for (factors, c) in p.terms() {
        // A term of atoms the point leaves alone stays (the common case: most of an
        // index is the same for every thread).
        if factors.iter().all(|a| {
            !point.contains_key(&**a)
                && !matches!(
                    nest.kind(a),
                    Some(AtomKind::Varying | AtomKind::Div(..) | AtomKind::Rem(..))
                )
        }) {
            out.add_sorted_term(factors, c);
            continue;
        }
        let mut term = Poly::constant(c);
        for a in factors {
            let by = match (point.get(&**a), nest.kind(a)) {
                (Some(v), _) => v.clone(),
                (None, Some(AtomKind::Varying)) => Poly::atom(&format!("{a}#{tag}")),
                (None, Some(AtomKind::Div(n, k) | AtomKind::Rem(n, k))) if depth < 16 => {
                    let div = matches!(nest.kind(a), Some(AtomKind::Div(..)));
                    let n2 = instantiate_at(nest, n, point, tag, depth + 1);
                    match n2.as_const() {
                        Some(x) if div => Poly::constant(x.checked_div(*k).unwrap_or(0)),
                        Some(x) => Poly::constant(x.checked_rem(*k).unwrap_or(0)),
                        None if &n2 == n => Poly::shared_atom(a),
                        None => Poly::atom(&format!("({n2}) {} {k}#", if div { "/" } else { "%" })),
                    }
                }
                _ => Poly::shared_atom(a),
            };
            term = term.mul(&by);
        }
        out.add_assign(&term);
    }
    out
}

/// How a guard evaluates at a point.
enum Truth {
    Known(bool),
    /// The same at every point, value unknown: the index of the condition in the list.
    Uniform(usize),
    Unknown,
}

fn touched(nest: &Nest, p: &Poly, point: &Point) -> bool {
    p.atoms().into_iter().any(|a| {
        point.contains_key(a)
            || match nest.kind(a) {
                Some(AtomKind::Varying) => true,
                Some(AtomKind::Div(n, _) | AtomKind::Rem(n, _)) => touched(nest, n, point),
                _ => false,
            }
    })
}

fn truth(
    nest: &Nest,
    g: &Guard,
    point: &Point,
    tag: usize,
    consts: &Values,
    keys: &mut Vec<Cond>,
    same: bool,
) -> Truth {
    let value = match &g.cond {
        Cond::Cmp { op, diff } => {
            let d = substitute(&instantiate(nest, diff, point, tag), consts);
            match d.as_const() {
                Some(x) => Some(match op {
                    BinaryOp::Lt => x < 0,
                    BinaryOp::Le => x <= 0,
                    BinaryOp::Gt => x > 0,
                    BinaryOp::Ge => x >= 0,
                    BinaryOp::Eq => x == 0,
                    _ => x != 0,
                }),
                None if touched(nest, diff, point) && !same => return Truth::Unknown,
                None => None,
            }
        }
        Cond::Opaque { varying: true, .. } => return Truth::Unknown,
        Cond::Opaque { .. } => None,
    };
    match value {
        Some(b) => Truth::Known(b == g.positive),
        None => {
            let i = match keys.iter().position(|k| *k == g.cond) {
                Some(i) => i,
                None => {
                    keys.push(g.cond.clone());
                    keys.len() - 1
                }
            };
            Truth::Uniform(i)
        }
    }
}

/// The value at each point, for each assignment of the conditions that are the same at every
/// point (the predicates a difference cancels); None for a point where a condition that
/// differs between points cannot be decided. None overall when too many conditions.
///
/// With `same`, a comparison that depends on the iteration is taken to have one value at all
/// the points too (consecutive iterations on the same side of the condition).
fn at_points(
    nest: &Nest,
    value: &Value,
    points: &[Point],
    consts: &Values,
    same: bool,
) -> Option<Vec<Vec<Option<Poly>>>> {
    let mut keys: Vec<Cond> = Vec::new();
    // truths[t][cand][guard]
    let mut truths: Vec<Vec<Vec<Truth>>> = Vec::new();
    for (t, point) in points.iter().enumerate() {
        let per_cand = value
            .cands
            .iter()
            .map(|(gs, _)| {
                gs.iter()
                    .map(|g| truth(nest, g, point, t, consts, &mut keys, same))
                    .collect()
            })
            .collect();
        truths.push(per_cand);
    }
    if keys.len() > MAX_UNIFORM {
        return None;
    }
    let mut out = Vec::new();
    for bits in 0u32..(1u32 << keys.len()) {
        let mut polys = Vec::with_capacity(points.len());
        for (t, point) in points.iter().enumerate() {
            // The first candidate that certainly holds; undecided when one that may hold
            // comes first.
            let mut chosen = None;
            let mut undecided = false;
            for (ci, (gs, p)) in value.cands.iter().enumerate() {
                let mut holds = Some(true);
                for (gi, g) in gs.iter().enumerate() {
                    let b = match truths[t][ci][gi] {
                        Truth::Known(b) => Some(b),
                        Truth::Uniform(k) => Some(((bits >> k) & 1 == 1) == g.positive),
                        Truth::Unknown => None,
                    };
                    holds = match (holds, b) {
                        (Some(false), _) | (_, Some(false)) => Some(false),
                        (Some(true), Some(true)) => Some(true),
                        _ => None,
                    };
                }
                match holds {
                    Some(true) => {
                        chosen = Some(p);
                        break;
                    }
                    Some(false) => {}
                    None => {
                        undecided = true;
                        break;
                    }
                }
            }
            polys.push(match (chosen, undecided) {
                (Some(p), false) => Some(substitute(&instantiate(nest, p, point, t), consts)),
                _ => None,
            });
        }
        // An assignment no candidate satisfies at thread 0 is impossible (e.g. `c` and `!c`).
        if polys.iter().any(Option::is_some) || value.cands.len() == 1 {
            out.push(polys);
        }
    }
    Some(out)
}
