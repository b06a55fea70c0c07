//! Runs the host-offload oracle on the given C/C++ files and prints, per file, whether the
//! offloaded run is correct (same output as the build without -fopenmp, exit 0, no unmapped
//! data) and the copies/bytes each way.
//!
//! cargo run -q -p omplens-tests --example oracle_check -- FILE...

use omplens_tests::oracle;
use std::path::Path;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: oracle_check FILE...");
        std::process::exit(2);
    }
    let mut failed = 0;
    for f in &files {
        match oracle::check(Path::new(f), &[]) {
            Ok(v) => {
                let tag = if v.is_correct() { "ok  " } else { "FAIL" };
                if !v.is_correct() {
                    failed += 1;
                }
                println!("{tag} {f}: {}", v.summary());
            }
            Err(e) => {
                failed += 1;
                println!("ERR  {f}: {e}");
            }
        }
    }
    std::process::exit(if failed == 0 { 0 } else { 1 });
}
