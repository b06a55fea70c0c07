//! Summarises the libomptarget INFO log of one host-offloaded run for scripts
//! (bench/realcode/strip_regenerate.py): reads the run's stderr (a file, or stdin with `-`)
//! and prints one line of `key=value` fields, parsed by the same parser as the oracle tests
//! (`omplens_tests::oracle_log`), so the scripts and the tests count copies alike.
//!
//! ```text
//! h2d_copies=N h2d_bytes=N d2h_copies=N d2h_bytes=N kernels=N unmapped_launches=N unmapped=a@f.c:3:1,b@...
//! ```
//!
//! `unmapped` lists each pointer a kernel used with no device data (`name@location`), once,
//! in order of first use; empty when none. Exit status: 0, or 2 when the input cannot be read.

use omplens_tests::oracle_log::parse_info_log;
use std::io::Read;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: oracle_log STDERR_FILE|-");
        return ExitCode::from(2);
    };
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(&path).map(|b| bytes = b)
    };
    if let Err(e) = read {
        eprintln!("oracle_log: cannot read {path}: {e}");
        return ExitCode::from(2);
    }
    let log = parse_info_log(&String::from_utf8_lossy(&bytes));
    let mut seen: Vec<String> = Vec::new();
    for u in &log.unmapped {
        let key = format!("{}@{}", u.name, u.kernel_location.as_deref().unwrap_or("?"));
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    println!(
        "h2d_copies={} h2d_bytes={} d2h_copies={} d2h_bytes={} kernels={} unmapped_launches={} unmapped={}",
        log.h2d.copies,
        log.h2d.bytes,
        log.d2h.copies,
        log.d2h.bytes,
        log.kernels.len(),
        log.unmapped.len(),
        seen.join(",")
    );
    ExitCode::SUCCESS
}
