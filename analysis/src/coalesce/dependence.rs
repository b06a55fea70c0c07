//! The IPDA test (§5): two accesses of the same data, one a write, cannot touch the same byte
//! from two different iterations of the loops that run in parallel.
//!
//! The offset of the second access is taken at another iteration point, each IV `i` of a loop
//! around both becoming `i - Δi`; the difference `f(I) - g(I - Δ)` cancels what both share.
//! For every combination `S` of those loops that includes a parallel one (`Δ` nonzero for the
//! loops in `S`, zero for the others), the difference must be shown never to be zero: by
//! interval arithmetic over the loops' ranges (both signs of each `Δ` tried apart), or, with
//! symbolic bounds, by one `Δ` term outweighing everything else (a linearised index
//! `i * n + j` with `0 <= j < n`).

use super::stride::{fixed, min_positive};
use super::sym::{AtomKind, Cond, Guard, Nest, Site};
use crate::ir::{Function, Module, StmtId};
use crate::semantics::constants::{substitute, Values};
use crate::semantics::symbolic::Poly;
use std::collections::BTreeMap;

/// Most accesses paired (the test is quadratic in them).
const MAX_SITES: usize = 96;

/// Ok when no two iterations that differ in a loop of `par` touch the same data with a
/// write; otherwise why not (the accesses and the loops).
pub fn independent(
    module: &Module,
    source: &str,
    func: &Function,
    nest: &Nest,
    par: &[StmtId],
    consts: &Values,
) -> Result<(), String> {
    let _ = func;
    if nest.sites.len() > MAX_SITES {
        return Err(format!("more than {MAX_SITES} accesses: not tested"));
    }
    let text = |s: &Site| {
        module
            .text(source, s.span)
            .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    };
    for (i, a) in nest.sites.iter().enumerate() {
        for b in &nest.sites[i..] {
            if a.root != b.root || !(a.kind.writes() || b.kind.writes()) {
                continue;
            }
            let common: Vec<StmtId> = a
                .loops
                .iter()
                .zip(&b.loops)
                .take_while(|(x, y)| x == y)
                .map(|(x, _)| *x)
                .collect();
            if !common.iter().any(|l| par.contains(l)) {
                continue;
            }
            let (Some(fa), Some(fb)) = (&a.offset, &b.offset) else {
                return Err(format!(
                    "`{}`: the address of `{}` is not symbolic",
                    module.var(a.root).name,
                    if a.offset.is_none() { text(a) } else { text(b) }
                ));
            };
            for (ga, pa) in &fa.cands {
                for (gb, pb) in &fb.cands {
                    // A condition that is the same in every iteration cannot select one
                    // definition in one iteration and the other in another.
                    if contradicts(nest, ga, gb) {
                        continue;
                    }
                    if let Err(loops) = pair(nest, pa, pb, &common, par, consts) {
                        let names: Vec<String> = loops
                            .iter()
                            .filter_map(|l| nest.loops.get(l))
                            .map(|l| format!("`{}`", l.atom))
                            .collect();
                        let what = if std::ptr::eq(a, b) {
                            format!("`{}` may write the same element", text(a))
                        } else {
                            format!("`{}` and `{}` may touch the same element", text(a), text(b))
                        };
                        return Err(format!(
                            "{what} in different iterations of {}",
                            names.join(" and ")
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

fn contradicts(nest: &Nest, ga: &[Guard], gb: &[Guard]) -> bool {
    ga.iter().any(|x| {
        let invariant = match &x.cond {
            Cond::Cmp { diff, .. } => fixed(nest, diff),
            Cond::Opaque { varying, .. } => !varying,
        };
        invariant
            && gb
                .iter()
                .any(|y| y.cond == x.cond && y.positive != x.positive)
    })
}

/// The Δ atom of an IV atom.
fn delta(atom: &str) -> String {
    format!("Δ{atom}")
}

/// Err with the loops of a combination that may give the same address.
fn pair(
    nest: &Nest,
    pa: &Poly,
    pb: &Poly,
    common: &[StmtId],
    par: &[StmtId],
    consts: &Values,
) -> Result<(), Vec<StmtId>> {
    let all: Vec<StmtId> = common.to_vec();
    let fail = || {
        all.iter()
            .filter(|l| par.contains(l))
            .copied()
            .collect::<Vec<_>>()
    };
    // Atoms that change from one iteration to another in ways not followed: no proof.
    for p in [pa, pb] {
        for a in p.atoms() {
            match nest.kind(a) {
                Some(AtomKind::Varying) => return Err(fail()),
                Some(AtomKind::Div(n, _) | AtomKind::Rem(n, _)) if !fixed(nest, n) => {
                    return Err(fail())
                }
                _ => {}
            }
        }
    }
    // g at the other point: IVs of common loops shifted by Δ, IVs of other loops primed
    // (free within their own ranges).
    let common_atoms: BTreeMap<String, StmtId> = common
        .iter()
        .filter_map(|l| nest.loops.get(l).map(|i| (i.atom.clone(), *l)))
        .collect();
    let mut shifted = Poly::zero();
    for (factors, c) in pb.terms() {
        let mut t = Poly::constant(c);
        for f in factors {
            let by = if common_atoms.contains_key(&**f) {
                Poly::shared_atom(f).sub(&Poly::atom(&delta(f)))
            } else if matches!(nest.kind(f), Some(AtomKind::Iv(_))) {
                Poly::atom(&format!("{f}'"))
            } else {
                Poly::shared_atom(f)
            };
            t = t.mul(&by);
        }
        shifted.add_assign(&t);
    }
    let d = substitute(&pa.sub(&shifted), consts);
    // Every combination of the common loops that has a parallel one.
    let n = common.len().min(12);
    for mask in 1u32..(1u32 << n) {
        let in_s: Vec<StmtId> = (0..n)
            .filter(|k| mask >> k & 1 == 1)
            .map(|k| common[k])
            .collect();
        if !in_s.iter().any(|l| par.contains(l)) {
            continue;
        }
        let mut ds = d.clone();
        for (k, l) in common.iter().enumerate().take(n) {
            if mask >> k & 1 == 0 {
                if let Some(info) = nest.loops.get(l) {
                    ds = ds.subst(&delta(&info.atom), &Poly::zero());
                }
            }
        }
        if !nonzero(nest, &ds, &in_s, consts) {
            return Err(in_s);
        }
    }
    Ok(())
}

/// An inclusive integer interval.
#[derive(Clone, Copy, Debug)]
struct Iv {
    lo: i128,
    hi: i128,
}

impl Iv {
    fn mul(self, o: Iv) -> Iv {
        let c = [
            self.lo * o.lo,
            self.lo * o.hi,
            self.hi * o.lo,
            self.hi * o.hi,
        ];
        Iv {
            lo: *c.iter().min().unwrap_or(&0),
            hi: *c.iter().max().unwrap_or(&0),
        }
    }
}

/// The IV atom an atom stands for (`i`, `i'`, `Δi`) and whether it is a Δ.
fn base_atom(a: &str) -> (&str, bool) {
    match a.strip_prefix('Δ') {
        Some(rest) => (rest, true),
        None => (a.strip_suffix('\'').unwrap_or(a), false),
    }
}

/// `d` is never zero while the Δ of every loop in `s` is nonzero.
fn nonzero(nest: &Nest, d: &Poly, s: &[StmtId], consts: &Values) -> bool {
    if let Some(c) = d.as_const() {
        return c != 0;
    }
    match exact_nonzero(nest, d, s, consts) {
        Some(answer) => answer,
        None => numeric_nonzero(nest, d, s, consts) || dominant_nonzero(nest, d, s, consts),
    }
}

/// Most combinations enumerated by the exact test.
const MAX_ENUMERATION: u64 = 1 << 21;

/// For a difference linear in its atoms with numeric ranges: enumerates every atom but the
/// one with the widest domain and solves for that one. Some(true) when no point makes `d`
/// zero, Some(false) when one does, None when the test does not apply.
fn exact_nonzero(nest: &Nest, d: &Poly, s: &[StmtId], consts: &Values) -> Option<bool> {
    // (atom coefficient, values it may take)
    let mut vars: Vec<(i128, Domain)> = Vec::new();
    let mut constant = 0i128;
    for (factors, c) in d.terms() {
        match factors {
            [] => constant = i128::from(c),
            [a] => {
                let (base, is_delta) = base_atom(a);
                let info = loop_of(nest, base)?;
                let (lo, hi) = numeric_range(nest, base, consts)?;
                let step = i128::from(info.step.unsigned_abs());
                let values = if is_delta {
                    if !s.contains(&info.stmt) {
                        return None;
                    }
                    Domain::Delta {
                        step,
                        k: (hi - lo) / step,
                    }
                } else {
                    // IV values: lo, lo + step, ... (from the right end for a negative step).
                    Domain::Iv {
                        lo,
                        hi,
                        step,
                        down: info.step < 0,
                        k: (hi - lo) / step,
                    }
                };
                if values.len() == 0 {
                    // A Δ of a one-iteration loop: no two different iterations.
                    return Some(true);
                }
                vars.push((i128::from(c), values));
            }
            _ => return None,
        }
    }
    if vars.is_empty() {
        return Some(constant != 0);
    }
    vars.sort_by_key(|(_, v)| v.len());
    let (last_c, last) = vars.pop()?;
    let combos: u64 = vars.iter().try_fold(1u64, |acc, (_, v)| {
        acc.checked_mul(u64::try_from(v.len()).ok()?)
    })?;
    if combos > MAX_ENUMERATION {
        return None;
    }
    // The widest domain is solved for, not listed: its values are never materialised (a
    // loop of 10^9 iterations would take gigabytes).
    let vars: Vec<(i128, Vec<i128>)> = vars.iter().map(|(c, v)| (*c, v.values())).collect();
    let mut idx = vec![0usize; vars.len()];
    loop {
        crate::budget::tick("the dependence test");
        let partial: i128 = constant
            + vars
                .iter()
                .zip(&idx)
                .map(|((c, v), i)| c * v[*i])
                .sum::<i128>();
        // last_c * x + partial == 0
        if partial % last_c == 0 && last.contains(-partial / last_c) {
            return Some(false);
        }
        // Next combination.
        let mut k = 0;
        loop {
            if k == idx.len() {
                return Some(true);
            }
            idx[k] += 1;
            if idx[k] < vars[k].1.len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

/// The values an atom of the exact test may take, without listing them.
enum Domain {
    /// An induction variable: `lo, lo + step, …, lo + k·step`, or from `hi` down.
    Iv {
        lo: i128,
        hi: i128,
        step: i128,
        down: bool,
        k: i128,
    },
    /// A Δ: `±step, ±2·step, …, ±k·step`.
    Delta { step: i128, k: i128 },
}

impl Domain {
    fn len(&self) -> u128 {
        match *self {
            Domain::Iv { k, .. } => u128::try_from(k + 1).unwrap_or(0),
            Domain::Delta { k, .. } => u128::try_from(k).unwrap_or(0) * 2,
        }
    }

    /// Every value, in the order the test always listed them.
    fn values(&self) -> Vec<i128> {
        match *self {
            Domain::Iv {
                lo,
                hi,
                step,
                down,
                k,
            } => {
                if down {
                    (0..=k).map(|q| hi - q * step).collect()
                } else {
                    (0..=k).map(|q| lo + q * step).collect()
                }
            }
            Domain::Delta { step, k } => (1..=k).flat_map(|q| [q * step, -q * step]).collect(),
        }
    }

    fn contains(&self, x: i128) -> bool {
        match *self {
            Domain::Iv {
                lo,
                hi,
                step,
                down,
                k,
            } => {
                let q = if down { hi - x } else { x - lo };
                q % step == 0 && (0..=k).contains(&(q / step))
            }
            Domain::Delta { step, k } => x % step == 0 && (1..=k).contains(&(x / step).abs()),
        }
    }
}

fn loop_of<'a>(nest: &'a Nest, atom: &str) -> Option<&'a super::nest::LoopInfo> {
    match nest.kind(atom) {
        Some(AtomKind::Iv(l)) => nest.loops.get(l),
        _ => None,
    }
}

fn numeric_range(nest: &Nest, atom: &str, consts: &Values) -> Option<(i128, i128)> {
    let info = loop_of(nest, atom)?;
    let lo = substitute(info.min.as_ref()?, consts).as_const()?;
    let hi = substitute(info.max.as_ref()?, consts).as_const()?;
    Some((i128::from(lo), i128::from(hi)))
}

fn numeric_nonzero(nest: &Nest, d: &Poly, s: &[StmtId], consts: &Values) -> bool {
    // Ranges of every atom; Δs of loops in `s` get both signs, tried apart.
    let mut ranges: BTreeMap<String, Iv> = BTreeMap::new();
    let mut deltas: Vec<(String, i128, i128)> = Vec::new();
    for a in d.atoms() {
        let (base, is_delta) = base_atom(a);
        let Some((lo, hi)) = numeric_range(nest, base, consts) else {
            return false;
        };
        if is_delta {
            let Some(info) = loop_of(nest, base) else {
                return false;
            };
            if !s.contains(&info.stmt) {
                return false;
            }
            let step = i128::from(info.step.unsigned_abs());
            let span = hi - lo;
            if span < step {
                // The loop has one iteration: no two different ones.
                return true;
            }
            deltas.push((a.to_string(), step, span));
        } else {
            ranges.insert(a.to_string(), Iv { lo, hi });
        }
    }
    for signs in 0u32..(1u32 << deltas.len()) {
        for (k, (a, step, span)) in deltas.iter().enumerate() {
            let iv = if signs >> k & 1 == 1 {
                Iv {
                    lo: *step,
                    hi: *span,
                }
            } else {
                Iv {
                    lo: -*span,
                    hi: -*step,
                }
            };
            ranges.insert(a.clone(), iv);
        }
        let mut total = Iv { lo: 0, hi: 0 };
        for (factors, c) in d.terms() {
            let mut t = Iv {
                lo: i128::from(c),
                hi: i128::from(c),
            };
            for f in factors {
                t = t.mul(ranges[&**f]);
            }
            total = Iv {
                lo: total.lo + t.lo,
                hi: total.hi + t.hi,
            };
        }
        if total.lo <= 0 && 0 <= total.hi {
            return false;
        }
    }
    true
}

/// `d = Σ c_k Δk + r` with invariant `c_k`, `r`: some `|c_a| * step_a` exceeds
/// `Σ_{k≠a} |c_k| * span_k + |r|`, every quantity shown positive with symbolic sizes.
fn dominant_nonzero(nest: &Nest, d: &Poly, s: &[StmtId], consts: &Values) -> bool {
    let mut coef: BTreeMap<String, Poly> = BTreeMap::new();
    let mut rest = Poly::zero();
    for (factors, c) in d.terms() {
        let ds: Vec<&str> = factors
            .iter()
            .filter(|f| f.starts_with('Δ'))
            .map(|f| &**f)
            .collect();
        let mut others = Poly::constant(c);
        for f in factors.iter().filter(|f| !f.starts_with('Δ')) {
            others = others.mul(&Poly::shared_atom(f));
        }
        match ds.as_slice() {
            [] => rest.add_assign(&others),
            [one] => {
                let e = coef.entry((*one).to_string()).or_default();
                e.add_assign(&others);
            }
            _ => return false,
        }
    }
    let abs = |p: &Poly| -> Option<Poly> {
        if p.is_zero() {
            return Some(Poly::zero());
        }
        if min_positive(nest, p).is_some_and(|m| m > 0) {
            Some(p.clone())
        } else if min_positive(nest, &p.neg()).is_some_and(|m| m > 0) {
            Some(p.neg())
        } else {
            None
        }
    };
    // Invariant: no IV (plain, primed or Δ), nothing varying.
    let plain = |p: &Poly| {
        fixed(nest, p)
            && p.atoms()
                .iter()
                .all(|a| !a.ends_with('\'') && !a.starts_with('Δ'))
    };
    if !plain(&rest) || coef.values().any(|c| !plain(c)) {
        return false;
    }
    let Some(r) = abs(&rest) else { return false };
    let mut parts = Vec::new();
    for (a, c) in &coef {
        let (base, _) = base_atom(a);
        let Some(info) = loop_of(nest, base) else {
            return false;
        };
        if !s.contains(&info.stmt) {
            return false;
        }
        let (Some(min), Some(max)) = (&info.min, &info.max) else {
            return false;
        };
        let span = substitute(&max.sub(min), consts);
        if !fixed(nest, &span) {
            return false;
        }
        let Some(c) = abs(c) else { return false };
        parts.push((c.scale(info.step.abs()), c.mul(&span)));
    }
    (0..parts.len()).any(|a| {
        let mut margin = parts[a].0.sub(&r);
        for (b, p) in parts.iter().enumerate() {
            if b != a {
                margin = margin.sub(&p.1);
            }
        }
        let margin = substitute(&margin, consts);
        margin.as_const().map_or_else(
            || min_positive(nest, &margin).is_some_and(|m| m > 0),
            |c| c > 0,
        )
    })
}
