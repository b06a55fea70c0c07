//! Bounds with alternatives, for the extremes of an index over a loop nest (DawnCC's
//! symbolic ranges with `min`/`max`).
//!
//! A loop `for (j = max(0, i - 1); j < min(n, i + 2) && j < m; j++)` does not give `j` one
//! first and one last value but several candidates. Each candidate is either *tight*: every
//! one of them is a valid bound and the tightest provable one is kept (`first >= 0` and
//! `first >= i - 1` for a `max` in a lower bound; each conjunct of the guard for the last
//! value), or *cover*: the value may reach any of them and all must be covered (a `min` in a
//! lower bound). Substituting such a bound into an index that is monotone in the variable
//! keeps the kind of each node, so an index's lowest and highest values are trees that are
//! resolved, at the end, to one polynomial each by comparing candidates whose difference is a
//! constant: `max(0, i - 1)` over `i` in `0..n` resolves to `0`, without `max`.

use super::constants::{substitute, Values};
use super::symbolic::Poly;

/// Candidate values of a bound.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    Leaf(Poly),
    /// Every child bounds the value: keep the tightest provable one.
    Tight(Vec<Bound>),
    /// The value may be any child: keep the one that covers the others.
    Cover(Vec<Bound>),
}

/// Trees larger than this are not worth resolving (and must not grow without limit).
const MAX_LEAVES: usize = 64;

impl Bound {
    pub fn leaf(p: Poly) -> Bound {
        Bound::Leaf(p)
    }

    /// A node of `kind` over `children` (one child stands alone).
    pub fn node(tight: bool, mut children: Vec<Bound>) -> Option<Bound> {
        match children.len() {
            0 => None,
            1 => children.pop(),
            _ if tight => Some(Bound::Tight(children)),
            _ => Some(Bound::Cover(children)),
        }
    }

    /// Whether some leaf satisfies `f`.
    pub fn any_leaf(&self, f: &dyn Fn(&Poly) -> bool) -> bool {
        match self {
            Bound::Leaf(p) => f(p),
            Bound::Tight(c) | Bound::Cover(c) => c.iter().any(|b| b.any_leaf(f)),
        }
    }

    pub fn leaves(&self) -> usize {
        match self {
            Bound::Leaf(_) => 1,
            Bound::Tight(c) | Bound::Cover(c) => c.iter().map(Bound::leaves).sum(),
        }
    }

    /// Each leaf `p` replaced by `f(p)` (a tree itself), node kinds kept. None when `f`
    /// fails on a leaf, or the tree grows too large.
    pub fn flat_map(&self, f: &mut dyn FnMut(&Poly) -> Option<Bound>) -> Option<Bound> {
        let out = match self {
            Bound::Leaf(p) => f(p)?,
            Bound::Tight(c) => Bound::Tight(
                c.iter()
                    .map(|b| b.flat_map(f))
                    .collect::<Option<Vec<_>>>()?,
            ),
            Bound::Cover(c) => Bound::Cover(
                c.iter()
                    .map(|b| b.flat_map(f))
                    .collect::<Option<Vec<_>>>()?,
            ),
        };
        (out.leaves() <= MAX_LEAVES).then_some(out)
    }

    /// One polynomial: the lowest value when `lower`, else the highest. A tight node keeps
    /// its tightest child among those that compare by a constant (any child is valid); a
    /// cover node needs all children to compare and keeps the outermost. Names of `known`
    /// value (macros) compare by their values.
    pub fn resolve(&self, lower: bool, known: &Values) -> Option<Poly> {
        // `a` is tighter than `b`: a lower bound that is larger, an upper one that is smaller.
        let tighter = |a: &Poly, b: &Poly| -> Option<bool> {
            let d = substitute(&a.sub(b), known).as_const()?;
            Some(if lower { d > 0 } else { d < 0 })
        };
        match self {
            Bound::Leaf(p) => Some(p.clone()),
            Bound::Tight(children) => {
                let mut best: Option<Poly> = None;
                for c in children.iter().filter_map(|c| c.resolve(lower, known)) {
                    best = match best {
                        None => Some(c),
                        Some(b) => Some(if tighter(&c, &b) == Some(true) { c } else { b }),
                    };
                }
                best
            }
            Bound::Cover(children) => {
                let mut out: Option<Poly> = None;
                for c in children {
                    let c = c.resolve(lower, known)?;
                    out = Some(match out {
                        None => c,
                        // The looser of the two covers both.
                        Some(o) => {
                            if tighter(&o, &c)? {
                                c
                            } else {
                                o
                            }
                        }
                    });
                }
                out
            }
        }
    }
}

/// `min` or `max` of two expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extremum {
    Min,
    Max,
}

impl Extremum {
    /// Whether the candidates of this extremum are each a valid bound on the side asked
    /// for: a `max` bounds from below (`max(a, b) >= a`), a `min` from above.
    pub fn tight_for(self, lower: bool) -> bool {
        (self == Extremum::Max) == lower
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n() -> Poly {
        Poly::atom("n")
    }
    fn k(c: i64) -> Poly {
        Poly::constant(c)
    }

    #[test]
    fn tight_keeps_the_tightest_comparable_candidate() {
        let b = Bound::Tight(vec![Bound::Leaf(k(-1)), Bound::Leaf(k(0))]);
        assert_eq!(b.resolve(true, &Values::new()), Some(k(0)));
        let b = Bound::Tight(vec![Bound::Leaf(n()), Bound::Leaf(n().add(&k(1)))]);
        assert_eq!(b.resolve(false, &Values::new()), Some(n()));
        // Incomparable: any candidate is valid, the first is kept.
        let m = Poly::atom("m");
        let b = Bound::Tight(vec![Bound::Leaf(n()), Bound::Leaf(m)]);
        assert_eq!(b.resolve(false, &Values::new()), Some(n()));
    }

    #[test]
    fn cover_needs_every_candidate() {
        let b = Bound::Cover(vec![Bound::Leaf(k(2)), Bound::Leaf(k(0))]);
        assert_eq!(b.resolve(true, &Values::new()), Some(k(0)));
        assert_eq!(b.resolve(false, &Values::new()), Some(k(2)));
        let b = Bound::Cover(vec![Bound::Leaf(n()), Bound::Leaf(Poly::atom("m"))]);
        assert_eq!(b.resolve(false, &Values::new()), None);
    }

    #[test]
    fn substitution_keeps_kinds_and_is_bounded() {
        let b = Bound::Cover(vec![Bound::Leaf(n()), Bound::Leaf(k(1))]);
        let out = b
            .flat_map(&mut |p| Some(Bound::Leaf(p.add(&k(1)))))
            .unwrap();
        assert_eq!(out.resolve(false, &Values::new()), None);
        assert_eq!(
            out,
            Bound::Cover(vec![Bound::Leaf(n().add(&k(1))), Bound::Leaf(k(2))])
        );
        let wide = Bound::Tight((0..40).map(|c| Bound::Leaf(k(c))).collect());
        assert!(wide
            .flat_map(&mut |p| Bound::node(
                true,
                vec![Bound::Leaf(p.clone()), Bound::Leaf(p.clone())]
            ))
            .is_none());
    }
}
