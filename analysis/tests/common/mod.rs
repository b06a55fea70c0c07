//! Shared by the integration tests: lower a small program written to a temporary file.

use omplens_analysis::frontend::lower_file;
use omplens_analysis::ir::Module;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Writes `src` as `name` in a fresh temporary directory and lowers it (with `_OPENMP`
/// defined, as the real flags do).
pub fn lower(name: &str, src: &str) -> Module {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "omplens-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    let m = lower_file(&path, None, &["-D_OPENMP=202011".to_string()]).expect("lower");
    let _ = std::fs::remove_dir_all(&dir);
    m
}
