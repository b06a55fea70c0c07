//! The oracle end to end: the programs in tests/oracle/ built with clang-19, run under real
//! host offloading and compared with their sequential builds. Needs clang-19 and
//! libomp-19-dev (scripts/bootstrap.sh installs them). Slow tier (`OMPLENS_SLOW=1`, see
//! `omplens_tests::tier`): each test returns early without it.

use omplens_tests::tier;
use omplens_tests::{check, run_offload, KernelArg, OracleError, Transfer, Verdict};
use std::path::{Path, PathBuf};

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("oracle")
        .join(name)
}

/// The oracle's verdict on `tests/oracle/NAME`; `None` when the test is skipped (fast tier,
/// or the oracle's tools are missing outside CI).
fn verdict(name: &str) -> Option<Verdict> {
    let test = format!("oracle_e2e ({name})");
    if !(tier::slow(&test) && omplens_tests::oracle::gate(&test)) {
        return None;
    }
    Some(check(&program(name), &[]).unwrap_or_else(|e| panic!("{name}: {e}")))
}

fn t(copies: u64, bytes: u64) -> Transfer {
    Transfer { copies, bytes }
}

fn arg<'a>(args: &'a [KernelArg], name: &str) -> &'a KernelArg {
    args.iter()
        .find(|a| a.name == name)
        .unwrap_or_else(|| panic!("no argument {name} in {args:?}"))
}

#[test]
fn correctly_mapped_program_is_correct_with_exact_transfers() {
    let Some(v) = verdict("mapped_ok.c") else {
        return;
    };
    assert!(v.is_correct(), "{}", v.summary());
    assert_eq!(v.reference, "mid=65280.0 sum=32768.0 b[7]=7.5\n");
    let run = &v.offload;
    assert!(run.unmapped.is_empty(), "{}", run.summary());
    // to: a at region entry + update to a; from: update from b + b at region exit.
    assert_eq!(run.h2d, t(2, 4096), "{}", run.summary());
    assert_eq!(run.d2h, t(2, 4096), "{}", run.summary());
    assert_eq!(run.kernels.len(), 2);
    for k in &run.kernels {
        for name in ["a", "b"] {
            let a = arg(&k.args, name);
            assert_eq!(
                (a.kind.as_str(), a.implicit, a.present),
                ("use_address", true, true)
            );
        }
        assert_eq!((k.h2d, k.d2h), (t(0, 0), t(0, 0)));
    }
    assert_eq!(run.kernels[0].location.as_deref(), Some("mapped_ok.c:22"));
}

#[test]
fn never_mapped_pointer_is_reported() {
    let Some(v) = verdict("unmapped_pointer.c") else {
        return;
    };
    // On the host "device" the result is still right: only the INFO lines show the bug.
    assert!(v.output_matches, "{}", v.summary());
    assert_eq!(
        v.offload.unmapped_names(),
        vec!["field"],
        "{}",
        v.offload.summary()
    );
    assert_eq!(
        v.offload.unmapped[0].kernel_location.as_deref(),
        Some("unmapped_pointer.c:19")
    );
    assert!(!v.is_correct());
    // `out` (target enter data) is present in the same launch.
    assert!(arg(&v.offload.kernels[0].args, "out").present);
}

#[test]
fn stale_host_read_changes_output() {
    let Some(v) = verdict("stale_host_read.c") else {
        return;
    };
    assert!(!v.output_matches, "{}", v.summary());
    assert_eq!(v.reference, "host sees s sum=2080.0\ny sum=4032.0\n");
    assert_eq!(v.offload.stdout, "host sees s sum=0.0\ny sum=2016.0\n");
    assert_eq!(v.offload.exit_code, Some(0));
    assert!(v.offload.unmapped.is_empty(), "{}", v.offload.summary());
    // y goes in and never comes back; s is allocated and never copied at all.
    assert_eq!(v.offload.h2d, t(1, 512));
    assert_eq!(v.offload.d2h, t(0, 0));
}

#[test]
fn time_step_loop_copies_every_iteration() {
    let Some(v) = verdict("time_step_loop.c") else {
        return;
    };
    assert!(v.is_correct(), "{}", v.summary());
    let run = &v.offload;
    assert_eq!(run.kernels.len(), 10);
    for k in &run.kernels {
        assert_eq!(k.location.as_deref(), Some("time_step_loop.c:17"));
        assert_eq!((k.h2d, k.d2h), (t(2, 1024), t(2, 1024)), "{k:?}");
        for name in ["u", "unew"] {
            let a = arg(&k.args, name);
            assert_eq!((a.kind.as_str(), a.size, a.implicit), ("tofrom", 512, true));
        }
    }
    assert_eq!(run.h2d, t(20, 10240));
    assert_eq!(run.d2h, t(20, 10240));
}

#[test]
fn cpp_class_member_array() {
    let Some(v) = verdict("class_member.cpp") else {
        return;
    };
    assert!(v.is_correct(), "{}", v.summary());
    let run = &v.offload;
    assert_eq!(run.kernels.len(), 3);
    // scale(): implicit this->data, copied in and out.
    let k0 = &run.kernels[0];
    let data = arg(&k0.args, "this->data");
    assert_eq!(
        (data.kind.as_str(), data.size, data.implicit),
        ("tofrom", 1024, true)
    );
    assert_eq!((k0.h2d, k0.d2h), (t(1, 1024), t(1, 1024)));
    // shift() inside run()'s target data: the member section already exists, no copies.
    for k in &run.kernels[1..] {
        assert_eq!(k.location.as_deref(), Some("class_member.cpp:23"));
        assert!(arg(&k.args, "this->data[0:N]").existed, "{k:?}");
        assert_eq!((k.h2d, k.d2h), (t(0, 0), t(0, 0)));
    }
    assert_eq!(run.h2d, t(2, 2048));
    assert_eq!(run.d2h, t(2, 2048));
}

#[test]
fn build_errors_carry_the_compiler_output() {
    let test = "oracle_e2e::build_errors_carry_the_compiler_output";
    if !(tier::slow(test) && omplens_tests::oracle::gate(test)) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("broken.c");
    std::fs::write(&src, "int main(void) { return undeclared_thing; }\n").unwrap();
    match run_offload(&src, &[]) {
        Err(OracleError::Build { stderr, command }) => {
            assert!(stderr.contains("undeclared_thing"), "{stderr}");
            assert!(
                command.contains("-fopenmp-targets=x86_64-unknown-linux-gnu"),
                "{command}"
            );
        }
        other => panic!("expected a build error, got {other:?}"),
    }
    let txt = dir.path().join("notes.txt");
    std::fs::write(&txt, "").unwrap();
    assert!(matches!(
        check(&txt, &[]),
        Err(OracleError::UnsupportedSource(_))
    ));
}
