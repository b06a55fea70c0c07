//! Bounded work: generated programs with long expressions (chains of unresolved operator
//! calls on a template's dependent operands, sums, products of sums in indices) inside deep
//! loop nests. Every analysis `check` runs must finish in work (ticks of
//! `omplens_analysis::budget`, which the fixed points, the symbolic simplification, the
//! expansion of products and the lowering count) bounded by a polynomial of the program's
//! size, here a generous `WORK_PER_BYTE` per byte of source, and within a wall-clock budget.
//! Before the fix of unresolved operator calls a chain of 20 terms took 2^20 steps.

mod common;

use omplens_analysis::budget;
use omplens_analysis::check::check;
use proptest::prelude::*;
use std::time::Duration;

/// Ticks per byte of program a linear analysis stays under. Exponential work (S3D's operator
/// chains took 2^n) exceeds it by orders of magnitude. Products of sums in an index expand
/// to at most `MAX_TERMS` terms, and the array-section analysis bounds only indices of a few
/// dozen terms: before that limit a 997-byte program whose index was a product of eleven
/// sums took 135 ticks per byte (132,786 of them bounding that index over a six-deep nest,
/// three times); it takes 10 now, and the most over 600 random programs was 24.
const WORK_PER_BYTE: u64 = 128;

/// A sum of `terms` dependent operands with the given signs, or a product of sums in an
/// index, as C text over the loop variables `v`.
fn index_expr(v: &[String], sums: &[Vec<(usize, i64)>]) -> String {
    let factors: Vec<String> = sums
        .iter()
        .map(|s| {
            let parts: Vec<String> = s
                .iter()
                .map(|(k, c)| format!("{c} * {}", v[k % v.len()]))
                .collect();
            format!("({} + 1)", parts.join(" + "))
        })
        .collect();
    factors.join(" * ")
}

fn program(depth: usize, chain: &[bool], sums: &[Vec<(usize, i64)>]) -> String {
    let v: Vec<String> = (0..depth).map(|d| format!("i{d}")).collect();
    let mut s = String::from(
        "struct S {}; S operator+(S, S); S operator-(S, S);\n\
         template <class real> void f(real *a, real *b, real *w, int n) {\n\
         #pragma omp target teams distribute parallel for map(to: a[0:n], b[0:n]) map(tofrom: w[0:n])\n",
    );
    for (d, x) in v.iter().enumerate() {
        s += &format!("{}for (int {x} = 0; {x} < n; {x}++)\n", "  ".repeat(d + 1));
    }
    let ind = "  ".repeat(depth + 1);
    let terms: String = chain
        .iter()
        .enumerate()
        .map(|(k, plus)| {
            format!(
                " {} (a[{k} * n + {}] - b[{}])",
                if *plus { '+' } else { '-' },
                v[k % depth],
                v[(k + 1) % depth]
            )
        })
        .collect();
    s += &format!(
        "{ind}{{ w[{}] = ({terms}) * (real)2;\n",
        index_expr(&v, sums)
    );
    s += &format!(
        "{ind}  w[{}] += a[{}]; }}\n}}\n",
        v[depth - 1],
        index_expr(&v, sums)
    );
    s += "template void f<float>(float *, float *, float *, int);\n";
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn analysis_work_is_polynomial_in_the_program(
        depth in 1usize..9,
        chain in prop::collection::vec(any::<bool>(), 1..60),
        sums in prop::collection::vec(
            prop::collection::vec((0usize..8, -3i64..4), 1..5), 1..12),
    ) {
        let src = program(depth, &chain, &sums);
        let before = budget::ticks();
        let r = budget::with_deadline(Duration::from_secs(60), || {
            let m = common::lower("p.cpp", &src);
            check(&m, &src).len()
        });
        let work = budget::ticks().wrapping_sub(before);
        prop_assert!(r.is_ok(), "stopped after 60 s: {:?}\n{}", r, src);
        let bound = WORK_PER_BYTE * src.len() as u64;
        prop_assert!(work <= bound, "{} ticks > {} for {} bytes:\n{}", work, bound, src.len(), src);
    }
}

/// The worst shapes at their largest, once each: a chain of 60 operator calls, eleven
/// products of four-term sums in one index, an eight-deep nest.
#[test]
fn largest_shapes_stay_bounded() {
    let chain: Vec<bool> = (0..60).map(|k| k % 3 != 0).collect();
    let sums: Vec<Vec<(usize, i64)>> = (0..11)
        .map(|q| (0..4).map(|t| (q + t, 1 + t as i64)).collect())
        .collect();
    let src = program(8, &chain, &sums);
    let before = budget::ticks();
    let r = budget::with_deadline(Duration::from_secs(60), || {
        let m = common::lower("p.cpp", &src);
        check(&m, &src).len()
    });
    let work = budget::ticks().wrapping_sub(before);
    assert!(r.is_ok(), "{r:?}");
    eprintln!("{work} ticks for {} bytes", src.len());
    assert!(work <= WORK_PER_BYTE * src.len() as u64, "{work} ticks");
}
