//! Findings that depend on what the program chooses at run time (tests/uncertain/):
//! - `device_per_chunk.c`: a function that addresses several devices (`device(d)` in loops)
//!   has a data environment per device and omplens models one: every correctness finding
//!   there is a warning that says so, and none offers a fix.

use omplens_analysis::check::{self, Severity};
use omplens_analysis::frontend::{flags, lower_file};
use std::path::{Path, PathBuf};

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("uncertain")
        .join(name)
}

#[test]
fn findings_in_a_function_addressing_several_devices_are_uncertain_and_unfixed() {
    let path = program("device_per_chunk.c");
    let args = flags::flags_for(&path, None, &[]).expect("flags").args;
    let source = std::fs::read_to_string(&path).unwrap();
    let module = lower_file(&path, Some(&source), &args).expect("lowers");
    let findings = check::check(&module, &source);
    assert!(!findings.is_empty(), "the chunk loops draw warnings");
    for f in &findings {
        assert_ne!(f.severity, Severity::Error, "{}", f.message);
        assert!(
            f.message.contains(
                "(not certain: `main` addresses several devices (`device(d)` (any device))"
            ),
            "{}",
            f.message
        );
        assert!(f.fixes.is_empty(), "{}: a fix was offered", f.message);
    }
}
