//! Checking files on all cores, and the progress line while it happens.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Lowering recurses over the AST; give workers the main thread's usual stack and more.
const STACK_SIZE: usize = 16 << 20;

/// `f` over every item on `threads` threads (default: one per core) taking items from a
/// shared index; `done(n)` on the calling thread after each result. Results come back in
/// item order. A panic in `f` is caught and becomes `Err` with its message.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    threads: Option<usize>,
    f: impl Fn(&T) -> R + Sync,
    mut done: impl FnMut(usize),
) -> Vec<Result<R, String>> {
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(items.len())
        .max(1);
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<Result<R, String>>> = items.iter().map(|_| None).collect();
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, f) = (&next, &f);
            std::thread::Builder::new()
                .stack_size(STACK_SIZE)
                .spawn_scoped(s, move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        break;
                    };
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(item)))
                        .map_err(panic_message);
                    if tx.send((i, r)).is_err() {
                        break;
                    }
                })
                .expect("spawn a worker thread");
        }
        drop(tx);
        for (n, (i, r)) in rx.into_iter().enumerate() {
            out[i] = Some(r);
            done(n + 1);
        }
    });
    out.into_iter()
        .map(|r| r.unwrap_or_else(|| Err("not checked".to_string())))
        .collect()
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// A progress bar on stderr (`checking [=====>    ] 120/506 files 0:42, about 1:10 left`),
/// drawn only on a terminal and for more than a few files; `indicatif` limits the redraws
/// and fits the bar to the terminal's width.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        let shown = total > 3 && std::io::stderr().is_terminal();
        let bar = shown.then(|| {
            let style = indicatif::ProgressStyle::with_template(
                "checking [{bar:30}] {pos}/{len} files {elapsed}, about {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> ");
            indicatif::ProgressBar::with_draw_target(
                Some(total as u64),
                indicatif::ProgressDrawTarget::stderr(),
            )
            .with_style(style)
        });
        Progress { bar }
    }

    pub fn update(&self, done: usize) {
        if let Some(b) = &self.bar {
            b.set_position(done as u64);
        }
    }

    pub fn clear(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_in_order_and_panics_caught() {
        let items: Vec<u32> = (0..50).collect();
        let mut calls = 0;
        let out = map(
            &items,
            Some(3),
            |&x| {
                if x == 7 {
                    panic!("seven");
                }
                x * 2
            },
            |_| calls += 1,
        );
        assert_eq!(calls, 50);
        assert_eq!(out[3], Ok(6));
        assert_eq!(out[7], Err("seven".to_string()));
        assert_eq!(out[49], Ok(98));
    }

    #[test]
    fn items_run_at_the_same_time() {
        let started = AtomicUsize::new(0);
        let out = map(
            &[0, 1],
            Some(2),
            |_| {
                started.fetch_add(1, Ordering::SeqCst);
                let t0 = std::time::Instant::now();
                while started.load(Ordering::SeqCst) < 2 {
                    if t0.elapsed().as_secs() > 10 {
                        return false;
                    }
                    std::thread::yield_now();
                }
                true
            },
            |_| {},
        );
        assert_eq!(out, vec![Ok(true), Ok(true)]);
    }
}
