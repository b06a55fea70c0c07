//! The `omplens` binary as a user runs it: help, the IR of a real file, and the messages for
//! each way the input can be wrong.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn omplens(args: &[&str]) -> Output {
    omplens_env(args, &[])
}

fn omplens_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_omplens"));
    cmd.args(args).current_dir(repo());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run omplens")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn help_lists_the_ir_command() {
    let o = omplens(&["--help"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("ir"), "{}", stdout(&o));
    let o = omplens(&["ir", "--help"]);
    assert!(stdout(&o).contains("--compile-commands-dir"));
}

#[test]
fn ir_of_the_bundled_example() {
    let o = omplens(&["ir", "examples/jacobi.c"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("module jacobi.c (C)\n"), "{out}");
    assert!(out.contains("fn main() -> int [host]"));
    // Both kernels are recognised, attached, and their bodies run on the device.
    assert_eq!(
        out.matches("host enter target teams distribute parallel for")
            .count(),
        2
    );
    assert!(out.contains("device stmt u[k] = unew[k]"), "{out}");
    assert!(out.contains(
        "26:1 #pragma omp target teams distribute parallel for collapse(2) in main governs 27:5-"
    ));
}

#[test]
fn missing_file_is_a_clear_error() {
    let o = omplens(&["ir", "no/such/file.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no/such/file.c: no such file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_directory_is_not_a_source_file() {
    let o = omplens(&["ir", "examples"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}

#[test]
fn missing_compilation_database_dir() {
    let o = omplens(&[
        "ir",
        "examples/jacobi.c",
        "--compile-commands-dir",
        "examples",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no compile_commands.json there"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_clang_flags_are_reported_not_fatal() {
    let o = omplens(&["ir", "examples/jacobi.c", "--", "-fno-such-flag-at-all"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("unknown argument: '-fno-such-flag-at-all'"),
        "{}",
        stdout(&o)
    );
    // The file is still analysed.
    assert!(stdout(&o).contains("fn main()"));
}

#[test]
fn missing_libclang_says_how_to_install_it() {
    let o = omplens_env(
        &["ir", "examples/jacobi.c"],
        &[("LIBCLANG_PATH", "/nonexistent/libclang/dir")],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("libclang could not be loaded"), "{err}");
    assert!(err.contains("apt-get install libclang-19-dev"), "{err}");
}

#[test]
fn broken_code_gives_located_errors_and_partial_ir() {
    let o = omplens(&["ir", "tests/corpus/broken/syntax_errors.c"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("error [pragma] unknown clause `mapp` on `target`; did you mean `map`?"),
        "{out}"
    );
    assert!(
        out.contains("error [pragma] expected `)` to close `map(`"),
        "{out}"
    );
    assert!(out.contains("\nfn "), "{out}");
    assert!(stderr(&o).contains("the IR above is partial"));
}

#[test]
fn compile_commands_json_is_found_upwards() {
    let dir = std::env::temp_dir().join(format!("omplens-ccdb-{}", std::process::id()));
    let sub = dir.join("src");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        sub.join("k.c"),
        "void f(double *a) {\n#pragma omp target\n  for (int i = 0; i < LEN; ++i) a[i] = 0;\n}\n",
    )
    .unwrap();
    let db = format!(
        r#"[{{"directory": "{}", "file": "src/k.c", "command": "clang-19 -fopenmp -fopenmp-targets=nvptx64 -DLEN=42 -c src/k.c -o k.o"}}]"#,
        dir.display()
    );
    std::fs::write(dir.join("compile_commands.json"), db).unwrap();
    let o = omplens(&["ir", sub.join("k.c").to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    // LEN came from the database; the offload flags were dropped (no device errors).
    assert!(stdout(&o).contains("device cond i < LEN"), "{}", stdout(&o));
}

#[test]
fn fix_diff_shows_the_region_and_the_update() {
    let o = omplens(&["fix", "--diff", "examples/jacobi.c"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let d = stdout(&o);
    assert!(
        d.starts_with("--- a/examples/jacobi.c\n+++ b/examples/jacobi.c\n"),
        "{d}"
    );
    assert!(
        d.contains("+#pragma omp target data map(to: unew[0:NX * NY]) map(tofrom: u[0:NX * NY])"),
        "{d}"
    );
    assert!(
        d.contains("+#pragma omp target update from(u[0:NX * NY])"),
        "{d}"
    );
}

#[test]
fn fix_in_place_rewrites_the_file_and_keeps_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("jacobi.c");
    std::fs::copy(repo().join("examples/jacobi.c"), &f).unwrap();
    let before = std::fs::read_to_string(&f).unwrap();
    let o = omplens(&["fix", "--in-place", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let after = std::fs::read_to_string(&f).unwrap();
    assert_ne!(before, after);
    assert!(after.contains("#pragma omp target data"));
    // Only the temporary file's rename happened: no stray files left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    // A second run has nothing to add for data it now maps itself.
    let o = omplens(&["fix", "--diff", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("target data"), "{}", stdout(&o));
}

#[test]
fn fix_refuses_a_file_that_does_not_compile_and_leaves_it_alone() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("broken.c");
    let text = "int main(void) {\n  double a[4]\n#pragma omp target\n  a[0] = 1;\n  return 0;\n}\n";
    std::fs::write(&f, text).unwrap();
    let o = omplens(&["fix", "--in-place", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("only rewrites code that compiles"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("broken.c:2:"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&f).unwrap(), text);
}

#[test]
fn plan_says_what_moves_where() {
    let o = omplens(&["plan", "examples/jacobi.c"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let p = stdout(&o);
    assert!(p.contains("fn main:"), "{p}");
    assert!(p.contains("target data region: lines 25-38"), "{p}");
    assert!(
        p.contains("map(tofrom: u[0:NX * NY]): copied in at entry and back at exit (524288 B)"),
        "{p}"
    );
    assert!(
        p.contains("target update from(u[0:NX * NY]) before line 37"),
        "{p}"
    );
}

#[test]
fn fix_in_place_through_a_symlink_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.c");
    let link = dir.path().join("link.c");
    std::fs::copy(repo().join("examples/jacobi.c"), &real).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = omplens(&["fix", "--in-place", link.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link was replaced");
    let after = std::fs::read_to_string(&real).unwrap();
    assert!(after.contains("#pragma omp target data"), "{after}");
}

#[test]
fn fix_to_dev_null_leaves_the_device_alone() {
    use std::os::unix::fs::FileTypeExt;
    let o = omplens(&["fix", "examples/jacobi.c", "-o", "/dev/null"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let meta = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(
        meta.file_type().is_char_device(),
        "omplens replaced /dev/null with a regular file"
    );
}

/// A source file that is not UTF-8 (a Latin-1 `©` in its header comment, as in HeCBench's
/// eigenvalue) is fixed and written back with every byte it had; `check --fix` too.
#[test]
fn fix_keeps_the_bytes_of_a_file_that_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("latin1.c");
    let mut text = b"/* Copyright \xa9 2011 J\xf6rg */\n".to_vec();
    text.extend_from_slice(
        b"#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  int n = 256;\n  double *v = (double *)malloc(n * sizeof(double));\n  for (int i = 0; i < n; i++)\n    v[i] = i;\n#pragma omp target teams distribute parallel for\n  for (int i = 0; i < n; i++)\n    v[i] *= 2.0; /* \xb5s */\n  printf(\"%.1f\\n\", v[n - 1]);\n  free(v);\n  return 0;\n}\n",
    );
    std::fs::write(&program, &text).unwrap();
    let o = omplens(&["fix", "--in-place", program.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let fixed = std::fs::read(&program).unwrap();
    assert!(
        fixed.starts_with(b"/* Copyright \xa9 2011 J\xf6rg */\n"),
        "the Latin-1 comment is kept byte for byte"
    );
    assert!(fixed.windows(9).any(|w| w == b"/* \xb5s */\n"));
    let fixed_text = String::from_utf8_lossy(&fixed);
    assert!(
        fixed_text.contains("map(tofrom: v[0:n])"),
        "the kernel is mapped: {fixed_text}"
    );
}

#[test]
fn fix_says_when_it_takes_row_offsets_as_non_decreasing() {
    let o = omplens(&["fix", "tests/fix/csr_row_offsets.c"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("cols[start[0]:start[n] - start[0]]"),
        "{}",
        stdout(&o)
    );
    let e = stderr(&o);
    assert!(
        e.contains(
            "csr_row_offsets.c:47:1: note: `cols` is mapped as `cols[start[0]:start[n] - start[0]]`, which takes the elements of `start` to never decrease"
        ),
        "{e}"
    );
}
