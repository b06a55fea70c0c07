//! Code that measures time: a loop whose body reads a clock repeats its work to time it.
//!
//! Benchmarks rerun their kernels in such a loop and often restore the kernels' input or
//! output from the host at the top of each repetition (`target update to`), so that every
//! repetition starts from the same data. The check reads that update as the restore it is
//! instead of as results dropped by mistake.

use crate::ir::{Callee, ExprKind, FuncId, Function, Module, Span};

/// Whether code within `span` of `func` reads a clock: calls one of the standard clocks
/// (`std::chrono::…::now`, `omp_get_wtime`, `gettimeofday`, `clock_gettime`, `clock`,
/// `MPI_Wtime`, `timespec_get`), or a function of the module whose own body calls one (a
/// project's `get_time()` wrapper).
pub fn reads_clock_within(module: &Module, func: FuncId, span: Span) -> bool {
    calls_clock(module, module.function(func), Some(span), true)
}

fn calls_clock(module: &Module, f: &Function, within: Option<Span>, follow: bool) -> bool {
    f.exprs.iter().any(|e| {
        if within.is_some_and(|s| e.span.start < s.start || e.span.end > s.end) {
            return false;
        }
        let ExprKind::Call { callee, .. } = &e.kind else {
            return false;
        };
        match callee {
            Callee::Named(name) => is_clock(name),
            Callee::Direct(c) => module.functions.get(*c).is_some_and(|g| {
                is_clock(&g.qualified_name)
                    || (follow && g.has_body && calls_clock(module, g, None, false))
            }),
            Callee::Indirect(_) => false,
        }
    })
}

/// A standard clock by its (qualified) name. `time()` is left out: programs call it to seed
/// random numbers at least as often as to time anything.
fn is_clock(qualified: &str) -> bool {
    let last = qualified.rsplit("::").next().unwrap_or(qualified);
    match last {
        "omp_get_wtime" | "gettimeofday" | "clock_gettime" | "clock" | "MPI_Wtime"
        | "timespec_get" => true,
        "now" => qualified.contains("chrono"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_clock;

    #[test]
    fn clocks_by_name() {
        assert!(is_clock("std::chrono::steady_clock::now"));
        assert!(is_clock("std::chrono::_V2::high_resolution_clock::now"));
        assert!(is_clock("omp_get_wtime"));
        assert!(is_clock("gettimeofday"));
        assert!(!is_clock("now"));
        assert!(!is_clock("Timer::now"));
        assert!(!is_clock("time"));
        assert!(!is_clock("std::clock_t"));
    }
}
