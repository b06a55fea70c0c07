//! `omplens check` on a project through its compilation database, as clangd reads one: the
//! project of `tests/compdb/` (see its README) built by icpx, nvc and nvcc.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn omplens(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_omplens"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run omplens")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `tests/compdb/` copied into a temporary directory: `.in` suffixes dropped, `@ROOT@` in the
/// database replaced by the copy's path.
fn project() -> (tempfile::TempDir, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/compdb");
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    copy(&src, &root);
    let db = root.join("build/compile_commands.json");
    let text = std::fs::read_to_string(&db).unwrap();
    std::fs::write(&db, text.replace("@ROOT@", &root.display().to_string())).unwrap();
    (tmp, root)
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_dir() {
            copy(&e.path(), &to.join(&name));
        } else {
            let name = name.strip_suffix(".in").unwrap_or(&name);
            std::fs::copy(e.path(), to.join(name)).unwrap();
        }
    }
}

#[test]
fn c_files_of_cxx_drivers_are_cxx_cuda_is_skipped_flags_noted_once() {
    let (_tmp, root) = project();
    let o = omplens(&root, &["check", "-p", "build"]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    // The stale read of the C++ `.c` file: analysed as C++, with findings.
    assert!(
        out.contains("src/vector_templates.c:18:26: error:") && out.contains("[OMP101]"),
        "{out}{err}"
    );
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(!err.contains("compile error"), "{err}");
    assert!(!err.contains("could not"), "{err}");
    // Three files analysed, the CUDA one skipped with a note.
    assert!(
        err.contains("src/kernel.cu: note: CUDA/HIP source: not analysed"),
        "{err}"
    );
    assert!(err.contains("in 3 files (1 file not analysed)"), "{err}");
    // One note for the run, each flag once though two files carry -qopenmp; nothing of the
    // skipped CUDA file's nvcc flags.
    let notes: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("omplens: note: dropped compiler flags"))
        .collect();
    assert_eq!(
        notes,
        // In the order first seen, files sorted: reduce.c, saxpy.c, vector_templates.c.
        [
            "omplens: note: dropped compiler flags clang does not accept: -qopenmp (icpx), \
          -mp=gpu (nvc), -gpu=cc80 (nvc), -Minfo=mp (nvc), -fiopenmp (icpx)"
        ],
        "{err}"
    );
}

#[test]
fn json_findings_of_every_file_in_the_database() {
    let (_tmp, root) = project();
    let o = omplens(&root, &["check", "-p", "build", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let files: std::collections::BTreeSet<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["file"].as_str())
        .collect();
    // saxpy.c (C, N from the response file): its stale read of y is found.
    assert!(files.contains("src/saxpy.c"), "{v}");
    assert!(files.contains("src/vector_templates.c"), "{v}");
}

#[test]
fn the_database_is_found_upwards_and_by_file() {
    let (_tmp, root) = project();
    // No -p: `build/compile_commands.json` of an ancestor, as clangd finds it.
    let o = omplens(&root.join("src"), &["check", "vector_templates.c"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{}{err}", text(&o.stdout));
    assert!(text(&o.stdout).contains("[OMP101]"));
    assert!(err.contains("-qopenmp (icpx)"), "{err}");
    // `-p` naming the database file itself.
    let o = omplens(
        &root,
        &["check", "-p", "build/compile_commands.json", "src/reduce.c"],
    );
    let err = text(&o.stderr);
    assert!(!err.contains("compile error"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{}{err}", text(&o.stdout));
    // A CUDA file named on its own: not analysed, said so.
    let o = omplens(&root, &["ir", "src/kernel.cu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("CUDA/HIP source: not analysed"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn without_the_database_the_cxx_c_file_is_c() {
    let (_tmp, root) = project();
    std::fs::remove_dir_all(root.join("build")).unwrap();
    // As C, <vector> is unknown: compile errors, and no finding can be trusted.
    let o = omplens(
        &root,
        &[
            "check",
            "src/vector_templates.c",
            "--",
            "-DN=8",
            "-Iinclude",
        ],
    );
    assert!(
        text(&o.stderr).contains("compile error"),
        "{}",
        text(&o.stderr)
    );
    // The fallback: flags after `--`, including the language.
    let o = omplens(
        &root,
        &[
            "check",
            "src/vector_templates.c",
            "--",
            "-x",
            "c++",
            "-DN=8",
            "-Iinclude",
        ],
    );
    assert!(text(&o.stdout).contains("[OMP101]"), "{}", text(&o.stderr));
}

/// A `.c` file with no entry of its own that a source of the database includes (`main.c`
/// does `#include "kernels.c"`, as HeCBench's gmm does with its `.cpp` files) is analysed
/// with that source, not on its own, where it does not compile (it uses `main.c`'s `real`):
/// a note names its includer, no compile errors are listed for it, and the stale read its
/// kernel causes is found in `main.c`.
#[test]
fn a_file_a_source_includes_is_checked_with_it_not_on_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    std::fs::write(
        root.join("kernels.c"),
        "static void scale_on_device(real *a, int n) {\n#pragma omp target teams distribute parallel for map(to: a[0:n])\n  for (int i = 0; i < n; i++)\n    a[i] = 2.0 * a[i];\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("main.c"),
        "#include <stdio.h>\n#include <stdlib.h>\ntypedef double real;\n#include \"kernels.c\"\nint main(void) {\n  int n = 100;\n  real *a = malloc(n * sizeof(real));\n  for (int i = 0; i < n; i++)\n    a[i] = i;\n  scale_on_device(a, n);\n  printf(\"%.1f\\n\", a[3]);\n  free(a);\n  return 0;\n}\n",
    )
    .unwrap();
    std::fs::create_dir(root.join("build")).unwrap();
    std::fs::write(
        root.join("build/compile_commands.json"),
        format!(
            "[{{\"directory\": \"{}\", \"file\": \"main.c\", \"command\": \"clang -c main.c\"}}]",
            root.display()
        ),
    )
    .unwrap();
    let o = omplens(&root, &["check", "-p", "build", "."]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(
        err.contains("kernels.c: note: not checked on its own: main.c includes it"),
        "{out}{err}"
    );
    assert!(!err.contains("compile error"), "{err}");
    assert!(
        out.contains("main.c:11:") && out.contains("[OMP101]"),
        "{out}{err}"
    );
    // Nothing is reported in kernels.c itself; its code is named in related locations.
    assert!(
        !out.lines()
            .any(|l| l.starts_with("./kernels.c:") && !l.contains(": note: ")),
        "{out}"
    );
    assert!(
        !out.contains(") (line 2 of"),
        "the line is said once: {out}"
    );
}
