//! The values the OpenMP team and thread queries can take at a point of a kernel, from the
//! clauses of the constructs around it: `omp_get_team_num()` runs over `0..num_teams` inside
//! a `teams` construct (and is 0 in a `target` without one), `omp_get_thread_num()` over
//! `0..num_threads` (or `0..thread_limit`) inside a `parallel` region (and is 0 outside one).
//! Those clauses are upper bounds (OpenMP 5.2, 10.2 and 10.1): the ranges cover every launch,
//! so a section built from them covers every team and thread.
//!
//! CUDA-style kernels index with them (`int by = omp_get_team_num(); a[HEIGHT * by + ty]`):
//! a map clause on the host needs the union over the launch, never the value at the host
//! (where the queries answer 0).

use super::constants::{substitute, Values};
use super::symbolic::{pragma_poly, Poly};
use crate::ir::{ExprKind, Function, Module, Span, StmtKind};
use crate::pragma::{ClauseKind, Leaf};

/// How many teams and threads per team a point of a kernel runs on, as upper bounds; None
/// where no clause says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Launch {
    pub teams: Option<Poly>,
    pub threads: Option<Poly>,
}

/// The launch of the point `at` of `f`; None outside every `target` construct (on the host,
/// the queries are the host's own).
/// Clause values are read with the names of `values` replaced by their numbers, or, when
/// that leaves a quotient of names (`(N + BS - 1) / BS`), with all of `known`'s.
pub fn launch_at(
    module: &Module,
    f: &Function,
    at: Span,
    values: &Values,
    known: &Values,
) -> Option<Launch> {
    let (mut target, mut teams, mut unknown_threads) = (false, false, false);
    let mut parallels = 0;
    let (mut num_teams, mut thread_limit, mut num_threads) = (None, None, None);
    for st in f.stmts.iter() {
        let StmtKind::Omp {
            directive,
            body: Some(body),
        } = st.kind
        else {
            continue;
        };
        let sp = f.stmt(body).span;
        if !(sp.start <= at.start && at.end <= sp.end) {
            continue;
        }
        let d = &module.directive(directive).directive;
        let kind = d.kind;
        target |= kind.has_leaf(Leaf::Target);
        teams |= kind.has_leaf(Leaf::Teams);
        parallels += usize::from(kind.has_leaf(Leaf::Parallel));
        // A `loop` outside `parallel` may bind to threads the program did not count.
        unknown_threads |= kind.has_leaf(Leaf::Loop) && !kind.has_leaf(Leaf::Parallel);
        for c in &d.clauses {
            let slot = match &c.kind {
                ClauseKind::NumTeams(e) => (&mut num_teams, e),
                ClauseKind::ThreadLimit(e) => (&mut thread_limit, e),
                ClauseKind::NumThreads(e) => (&mut num_threads, e),
                _ => continue,
            };
            *slot.0 = pragma_poly(slot.1, values).or_else(|| pragma_poly(slot.1, known));
        }
    }
    if !target {
        return None;
    }
    let teams = if teams {
        num_teams
    } else {
        Some(Poly::constant(1))
    };
    // In nested `parallel` regions the thread number is the innermost team's, which the
    // clauses collected here do not single out.
    let threads = match (parallels, unknown_threads) {
        (_, true) => None,
        (0, false) => Some(Poly::constant(1)),
        (1, false) => num_threads.or(thread_limit),
        _ => None,
    };
    Some(Launch { teams, threads })
}

/// The lowest and highest value of the atom `atom` when it is a team or thread query of
/// `launch` (`omp_get_team_num()`, `omp_get_num_threads()`), or one divided by or taken
/// modulo a positive constant
/// (`omp_get_thread_num() / BLOCK_SIZE`, `omp_get_thread_num() % 16`); None otherwise or when
/// the launch does not say.
pub fn range(atom: &str, launch: &Launch, known: &Values) -> Option<(Poly, Poly)> {
    let (query, rest) = match atom.split_once(' ') {
        Some((q, r)) => (q, Some(r)),
        None => (atom, None),
    };
    // A number runs over 0..count, a count over 1..=count.
    let (count, first) = match query {
        "omp_get_team_num()" => (launch.teams.as_ref()?, 0),
        "omp_get_thread_num()" => (launch.threads.as_ref()?, 0),
        "omp_get_num_teams()" => (launch.teams.as_ref()?, 1),
        "omp_get_num_threads()" => (launch.threads.as_ref()?, 1),
        _ => return None,
    };
    let Some(rest) = rest else {
        let last = count.sub(&Poly::constant(1 - first));
        return Some((Poly::constant(first), last));
    };
    let (op, by) = rest.split_once(' ')?;
    let divisor = if let Ok(c) = by.parse::<i64>() {
        Poly::constant(c)
    } else if is_identifier(by) {
        Poly::atom(by)
    } else {
        return None;
    };
    let c = substitute(&divisor, known).as_const().filter(|c| *c > 0)?;
    match op {
        "%" => Some((Poly::zero(), divisor.sub(&Poly::constant(1)))),
        // The last value of `q / c` is `(count - 1) / c`, in numbers only: a symbolic
        // quotient rounded the wrong way would reach past the data.
        "/" => {
            let n = substitute(count, known).as_const().filter(|n| *n > 0)?;
            Some((
                Poly::constant(first / c),
                Poly::constant((n - 1 + first) / c),
            ))
        }
        _ => None,
    }
}

/// The values of the macros `f` uses as numbers (`BLOCK_SIZE` where a header defines it as
/// 16): the front end keeps each use's spelling beside its value. A name seen with two values
/// is left out.
pub fn macro_uses(f: &Function) -> Values {
    let mut out = Values::new();
    let mut clash = Vec::new();
    for e in f.exprs.iter() {
        let ExprKind::Int {
            value: Some(v),
            text,
        } = &e.kind
        else {
            continue;
        };
        let name = text.as_str();
        if is_identifier(name) && *out.entry(name.to_string()).or_insert(*v) != *v {
            clash.push(name.to_string());
        }
    }
    for c in clash {
        out.remove(&c);
    }
    out
}

fn is_identifier(text: &str) -> bool {
    crate::text::scan::identifiers(text).as_slice() == [text]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(teams: i64, threads: i64) -> Launch {
        Launch {
            teams: Some(Poly::constant(teams)),
            threads: Some(Poly::constant(threads)),
        }
    }

    #[test]
    fn queries_run_from_zero_to_the_count_less_one() {
        let l = launch(8, 256);
        let v = Values::new();
        assert_eq!(
            range("omp_get_team_num()", &l, &v),
            Some((Poly::zero(), Poly::constant(7)))
        );
        assert_eq!(
            range("omp_get_thread_num() / 16", &l, &v),
            Some((Poly::zero(), Poly::constant(15)))
        );
        assert_eq!(
            range("omp_get_thread_num() % 16", &l, &v),
            Some((Poly::zero(), Poly::constant(15)))
        );
        assert_eq!(range("omp_get_thread_num() / n", &l, &v), None);
        assert_eq!(
            range("omp_get_num_teams()", &l, &v),
            Some((Poly::constant(1), Poly::constant(8)))
        );
        assert_eq!(
            range("omp_get_num_threads() / 16", &l, &v),
            Some((Poly::zero(), Poly::constant(16)))
        );
        assert_eq!(range("omp_get_max_threads()", &l, &v), None);
    }

    #[test]
    fn a_macro_divisor_keeps_its_name_in_a_modulo() {
        let l = launch(8, 256);
        let v = Values::from([("BS".to_string(), 16)]);
        assert_eq!(
            range("omp_get_thread_num() % BS", &l, &v),
            Some((Poly::zero(), Poly::atom("BS").sub(&Poly::constant(1))))
        );
        assert_eq!(
            range("omp_get_thread_num() / BS", &l, &v),
            Some((Poly::zero(), Poly::constant(15)))
        );
    }

    #[test]
    fn an_unknown_count_is_no_range() {
        let l = Launch {
            teams: None,
            threads: Some(Poly::constant(4)),
        };
        assert_eq!(range("omp_get_team_num()", &l, &Values::new()), None);
    }
}
