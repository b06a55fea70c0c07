//! Bounded work per file: a deadline the analysis checks cooperatively, and a count of its
//! steps.
//!
//! The analyses call [`tick`] in their inner loops (fixed points, symbolic simplification).
//! Under [`with_deadline`] a tick past the deadline unwinds with a private payload that
//! `with_deadline` catches and turns into [`Stopped`]; outside it a tick only counts. Ticks
//! are placed in analyses that run after lowering, never in code called back by libclang, so
//! the unwind crosses Rust frames only (salsa's among them: its cancellation unwinds the same
//! way, and its `Cancelled::catch` lets other payloads through).
//!
//! The deadline and the count are per thread: a query runs on the thread that asks it.

use std::cell::Cell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// The clock is read once every this many ticks.
const CLOCK_EVERY: u64 = 256;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static TICKS: Cell<u64> = const { Cell::new(0) };
}

/// An analysis that ran past its deadline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Time from the start of [`with_deadline`] to the stop.
    pub after: Duration,
    /// What was running: `"symbolic simplification"`, `"the data-environment fixed point"`, …
    pub during: &'static str,
}

/// The unwind payload: private, so no one else can raise or mistake it.
struct Unwind(&'static str);

/// One step of work in `during`. Past the deadline of the enclosing [`with_deadline`] on
/// this thread, unwinds to it.
#[inline]
pub fn tick(during: &'static str) {
    let n = TICKS.with(|t| {
        let n = t.get().wrapping_add(1);
        t.set(n);
        n
    });
    if n.is_multiple_of(CLOCK_EVERY) {
        check(during);
    }
}

/// Reads the clock now (for steps that are each expensive).
pub fn check(during: &'static str) {
    if let Some(d) = DEADLINE.with(Cell::get) {
        if Instant::now() >= d {
            resume_unwind(Box::new(Unwind(during)));
        }
    }
}

/// Ticks counted on this thread so far (wrapping): the work the analyses did, for tests that
/// bound it.
pub fn ticks() -> u64 {
    TICKS.with(Cell::get)
}

/// `f()`, stopped at its next tick after `limit` has passed: `Err(Stopped)` then. Other
/// panics go on unwinding. Nested calls keep the earlier deadline.
pub fn with_deadline<T>(limit: Duration, f: impl FnOnce() -> T) -> Result<T, Stopped> {
    let start = Instant::now();
    let outer = DEADLINE.with(Cell::get);
    let mine = start.checked_add(limit);
    let deadline = match (outer, mine) {
        (Some(o), Some(m)) => Some(o.min(m)),
        (o, m) => o.or(m),
    };
    DEADLINE.with(|d| d.set(deadline));
    let r = catch_unwind(AssertUnwindSafe(f));
    DEADLINE.with(|d| d.set(outer));
    match r {
        Ok(t) => Ok(t),
        Err(payload) => match payload.downcast::<Unwind>() {
            Ok(u) if outer.is_none_or(|o| mine.is_some_and(|m| m <= o)) => Err(Stopped {
                after: start.elapsed(),
                during: u.0,
            }),
            // The outer deadline's: its own `with_deadline` reports it.
            Ok(u) => resume_unwind(u),
            Err(other) => resume_unwind(other),
        },
    }
}

/// `(a(), b())`, with `b` on a thread of its own under this thread's deadline: its ticks are
/// counted here, and its stop or panic goes on unwinding here once `a` is done. Runs both
/// here, one after the other, when no thread can be started.
pub fn join<RA, RB>(a: impl FnOnce() -> RA, b: impl FnOnce() -> RB + Send) -> (RA, RB)
where
    RB: Send,
{
    let deadline = DEADLINE.with(Cell::get);
    // The closure waits in a slot: the thread takes it, or this thread if none starts.
    let slot = std::sync::Mutex::new(Some(b));
    let take = || slot.lock().ok().and_then(|mut b| b.take());
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("omplens-join".into())
            .spawn_scoped(s, || {
                DEADLINE.with(|d| d.set(deadline));
                let before = ticks();
                let r = take().map(|b| catch_unwind(AssertUnwindSafe(b)));
                (r, ticks().wrapping_sub(before))
            });
        let ra = a();
        let rb = match spawned {
            Ok(h) => {
                let (r, n) = h.join().unwrap_or_else(|p| resume_unwind(p));
                TICKS.with(|t| t.set(t.get().wrapping_add(n)));
                match r {
                    Some(Ok(rb)) => rb,
                    Some(Err(p)) => resume_unwind(p),
                    None => unreachable!("the thread takes the closure it was started for"),
                }
            }
            Err(_) => take().expect("no thread took it")(),
        };
        (ra, rb)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_count_and_stop_only_under_a_deadline() {
        let before = ticks();
        for _ in 0..1000 {
            tick("test");
        }
        assert!(ticks().wrapping_sub(before) >= 1000);
        let r = with_deadline(Duration::ZERO, || loop {
            tick("spinning");
        });
        let s: Stopped = r.unwrap_err();
        assert_eq!(s.during, "spinning");
        assert_eq!(with_deadline(Duration::from_secs(60), || 7), Ok(7));
        // The deadline is gone after `with_deadline`.
        for _ in 0..1000 {
            tick("test");
        }
    }

    #[test]
    fn a_joined_thread_counts_here_and_stops_with_this_deadline() {
        let before = ticks();
        let (a, b) = join(
            || 1,
            || {
                for _ in 0..1000 {
                    tick("test");
                }
                2
            },
        );
        assert_eq!((a, b), (1, 2));
        assert!(ticks().wrapping_sub(before) >= 1000);
        // The other thread spins past this thread's deadline: the stop reaches here.
        let r = with_deadline(Duration::from_millis(10), || {
            join(
                || 1,
                || loop {
                    tick("spinning beside");
                },
            )
        });
        assert_eq!(r.unwrap_err().during, "spinning beside");
        let r = catch_unwind(|| join(|| 1, || panic!("boom")));
        assert!(r.is_err());
    }

    #[test]
    fn other_panics_go_on() {
        let r = catch_unwind(|| with_deadline(Duration::from_secs(60), || panic!("boom")));
        assert!(r.is_err());
    }
}
