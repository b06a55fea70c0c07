//! Findings that depend on what the program chooses at run time (tests/uncertain/):
//! - `device_per_chunk.c`: a function that addresses several devices (`device(d)` in loops)
//!   has a data environment per device and omplens models one: every correctness finding
//!   there is a warning that says so, and none offers a fix.
//! - `unseen_callee_fills_mapped_global.c`: a function whose body omplens has nowhere may
//!   launch kernels on a mapped global of external linkage: what the caller then reads of it
//!   is a warning naming the call, with no fix, and its `target update` stays in the loop.
//! - `accessible_guard.c`: a kernel on host memory nothing maps, run only where
//!   `omp_target_is_accessible` said the device reaches it: no finding.
//! - `other_member_written.c`: a host read of one member of a struct variable whose staleness
//!   rests on a write to another member (the variable is also used whole, so omplens follows
//!   it as one object; members mapped apart are followed apart where nothing else needs it): a
//!   warning that says so, with no fix.

use omplens_analysis::check::{self, Severity};
use omplens_analysis::frontend::{flags, lower_file};
use std::path::{Path, PathBuf};

fn findings_of(name: &str) -> Vec<check::Finding> {
    let path = program(name);
    let args = flags::flags_for(&path, None, &[]).expect("flags").args;
    let source = std::fs::read_to_string(&path).unwrap();
    let module = lower_file(&path, Some(&source), &args).expect("lowers");
    check::check(&module, &source)
}

/// The program draws exactly one finding, of `code`: a warning whose message says `said`,
/// with no fix.
fn one_unfixed_warning(name: &str, code: &str, said: &str) {
    let findings = findings_of(name);
    let codes: Vec<String> = findings.iter().map(|f| f.code.to_string()).collect();
    assert_eq!(codes, [code], "{findings:?}");
    let f = &findings[0];
    assert_eq!(f.severity, Severity::Warning, "{}", f.message);
    assert!(f.message.contains(said), "{}", f.message);
    assert!(f.fixes.is_empty(), "{}: a fix was offered", f.message);
}

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

#[test]
fn globals_a_function_out_of_sight_may_reach_are_uncertain_and_unfixed() {
    // The read only (no OMP207 on the update).
    one_unfixed_warning(
        "unseen_callee_fills_mapped_global.c",
        "OMP101",
        "(not certain: the call at line 28 may use `norm`: `compute_norm` has no body in this \
         file and may launch kernels on it)",
    );
}

#[test]
fn host_memory_the_program_checked_as_accessible_is_not_reported_unmapped() {
    let findings = findings_of("accessible_guard.c");
    assert!(
        findings.is_empty(),
        "{:?}",
        findings.iter().map(|f| &f.message).collect::<Vec<_>>()
    );
}

#[test]
fn a_read_stale_only_by_a_write_to_another_member_is_a_warning_that_says_so() {
    one_unfixed_warning(
        "other_member_written.c",
        "OMP101",
        "(not certain: omplens follows `g` as one object, and the write it saw is to `g.x`, \
         another member)",
    );
}
