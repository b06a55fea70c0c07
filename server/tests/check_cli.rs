//! `omplens check` and `omplens explain` as a user runs them, on small programs in temporary
//! directories.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

/// The analysis reports OMP101 (stale-host-read) at `a[0]` on line 6, with the kernel's write
/// on line 5 as the related location.
const STALE: &str = r#"#include <stdio.h>
int main(void) {
  double a[8] = {0};
#pragma omp target map(to: a)
  a[0] = 1.0;
  printf("%f\n", a[0]);
  return 0;
}
"#;

/// No mapping mistakes: nothing is offloaded.
const CLEAN: &str = "int main(void) {\n  int x = 1;\n  return x - 1;\n}\n";

fn omplens(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_omplens"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("run omplens")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(o), stderr(o)))
}

/// `STALE` with `comment` appended to line `line` (1-based) or inserted before it.
fn stale_with(line: usize, comment: &str, own_line: bool) -> String {
    let mut lines: Vec<String> = STALE.lines().map(String::from).collect();
    if own_line {
        lines.insert(line - 1, comment.to_string());
    } else {
        lines[line - 1].push_str(&format!(" {comment}"));
    }
    lines.join("\n") + "\n"
}

#[test]
fn text_is_compiler_style() {
    let d = dir_with(&[("stale.c", STALE)]);
    let o = omplens(d.path(), &["check", "stale.c"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{}", stderr(&o));
    let first = out.lines().next().unwrap_or_default();
    assert!(first.starts_with("stale.c:6:"), "{out}");
    assert!(
        first.contains(": error: ") && first.ends_with("[OMP101]"),
        "{out}"
    );
    assert!(out.contains("    6 |   printf(\"%f\\n\", a[0]);"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with('|') && l.contains('^')),
        "no caret line: {out}"
    );
    assert!(out.contains("stale.c:5:"), "related location: {out}");
    assert!(out.contains(": note: "), "{out}");
    // Not a terminal: no colours.
    assert!(!out.contains('\x1b'), "{out}");
    let err = stderr(&o);
    assert!(err.contains("1 error, "), "{err}");
    assert!(err.contains(" in 1 file"), "{err}");
    assert!(
        !err.contains("checking"),
        "no progress line off a terminal: {err}"
    );
}

#[test]
fn json_positions_are_one_based() {
    let d = dir_with(&[("stale.c", STALE)]);
    let o = omplens(d.path(), &["check", "--format", "json", "stale.c"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    let all = v.as_array().expect("one array");
    let f = all
        .iter()
        .find(|f| f["code"] == "OMP101")
        .unwrap_or_else(|| panic!("no OMP101: {v:#}"));
    assert_eq!(f["file"], "stale.c");
    assert_eq!(f["severity"], "error");
    assert!(f["message"].as_str().unwrap().len() > 5);
    assert_eq!(f["range"]["start"]["line"], 6);
    // `a[0]` in `  printf("%f\n", a[0]);` starts at character 18.
    assert_eq!(f["range"]["start"]["column"], 18);
    assert_eq!(f["range"]["end"]["line"], 6);
    assert_eq!(f["range"]["end"]["column"], 22);
    let related = f["related"].as_array().unwrap();
    assert!(
        related
            .iter()
            .any(|r| r["range"]["start"]["line"] == 5 && r["file"] == "stale.c"),
        "{f:#}"
    );
    assert!(f["fixes"].is_array());
    assert!(
        f.get("bytes").is_some() && f.get("multiplier").is_some(),
        "{f:#}"
    );
}

#[test]
fn sarif_for_code_scanning() {
    let d = dir_with(&[("stale.c", STALE)]);
    let o = omplens(d.path(), &["check", "--format", "sarif", "stale.c"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["version"], "2.1.0");
    assert_eq!(
        v["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    let run = &v["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "omplens");
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let list = stdout(&omplens(d.path(), &["explain", "--list"]));
    let codes: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(codes.len() >= 18, "{list}");
    assert_eq!(rules, codes);
    let r = &run["results"][0];
    assert_eq!(r["ruleId"], "OMP101");
    assert_eq!(r["level"], "error");
    let rule_index = r["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[rule_index], "OMP101");
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "stale.c");
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(loc["region"]["startLine"], 6);
    assert_eq!(loc["region"]["startColumn"], 18);
    assert!(r["partialFingerprints"]
        .as_object()
        .is_some_and(|m| !m.is_empty()));
    assert_eq!(
        r["relatedLocations"][0]["physicalLocation"]["region"]["startLine"],
        5
    );
}

#[test]
fn inline_comment_suppresses() {
    for (line, comment, own_line) in [
        (6, "// omplens: ignore[OMP101]", false),
        (6, "/* omplens: ignore[stale-host-read] */", false),
        (6, "// omplens: ignore", true),
        (1, "// omplens: ignore-file[omp101]", true),
    ] {
        let d = dir_with(&[("stale.c", &stale_with(line, comment, own_line))]);
        let o = omplens(d.path(), &["check", "--format", "json", "stale.c"]);
        assert_eq!(o.status.code(), Some(0), "{comment}: {}", stderr(&o));
        let v = json(&o);
        assert!(
            !v.as_array().unwrap().iter().any(|f| f["code"] == "OMP101"),
            "{comment}: {v:#}"
        );
    }
    // Another rule's code silences nothing.
    let d = dir_with(&[(
        "stale.c",
        &stale_with(6, "// omplens: ignore[OMP202]", false),
    )]);
    assert_eq!(
        omplens(d.path(), &["check", "stale.c"]).status.code(),
        Some(1)
    );
}

#[test]
fn unknown_codes_are_named_at_their_line() {
    // In a suppression comment: a warning at the comment; the known code still suppresses.
    let d = dir_with(&[(
        "stale.c",
        &stale_with(6, "// omplens: ignore[OMP999, OMP101]", false),
    )]);
    let o = omplens(d.path(), &["check", "stale.c"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("stale.c:6:25: warning: unknown rule `OMP999` in an omplens comment"),
        "{err}"
    );
    // In the configuration: an error that names the line.
    let d = dir_with(&[
        ("stale.c", STALE),
        (
            ".omplens.toml",
            "[check]\nignore = [\n  \"OMP101\",\n  \"OMP999\",\n]\n",
        ),
    ]);
    let o = omplens(d.path(), &["check", "stale.c"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("unknown rule OMP999 (line 4)"), "{err}");
}

#[test]
fn configuration_file() {
    let d = dir_with(&[
        ("src/stale.c", STALE),
        (".omplens.toml", "[check]\nignore = [\"OMP101\"]\n"),
    ]);
    let o = omplens(d.path(), &["check", "src/stale.c"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(!stdout(&o).contains("[OMP101]"));
    let o = omplens(d.path(), &["check", "--no-config", "src/stale.c"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // A severity override below error: reported, but no longer fails the run.
    std::fs::write(
        d.path().join("other.toml"),
        "[check.severity]\nstale-host-read = \"warning\"\n",
    )
    .unwrap();
    let o = omplens(
        d.path(),
        &[
            "check",
            "--config",
            "other.toml",
            "--format",
            "json",
            "src/stale.c",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert!(
        v.as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "OMP101" && f["severity"] == "warning"),
        "{v:#}"
    );
}

#[test]
fn bad_configuration_is_a_usage_error() {
    let d = dir_with(&[
        ("stale.c", STALE),
        (".omplens.toml", "[check]\nignore = [\n"),
    ]);
    let o = omplens(d.path(), &["check", "stale.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(".omplens.toml"), "{}", stderr(&o));
    std::fs::write(
        d.path().join(".omplens.toml"),
        "[check]\nselect = [\"OMP101\", \"OMP999\"]\n",
    )
    .unwrap();
    let o = omplens(d.path(), &["check", "stale.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("OMP999"), "{}", stderr(&o));
    // `--no-config` does not read it at all.
    let o = omplens(d.path(), &["check", "--no-config", "stale.c"]);
    assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = omplens(d.path(), &["check", "--config", "missing.toml", "stale.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.toml"), "{}", stderr(&o));
}

#[test]
fn explain_prints_the_page() {
    let d = dir_with(&[]);
    for q in ["OMP101", "omp101", "stale-host-read"] {
        let o = omplens(d.path(), &["explain", q]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.starts_with('#'), "a Markdown page: {out}");
        assert!(out.contains("OMP101"), "{out}");
    }
    let o = omplens(d.path(), &["explain"]);
    assert!(o.status.success());
    assert!(stdout(&o)
        .lines()
        .any(|l| l.starts_with("OMP101  stale-host-read")));
    assert!(stdout(&o).contains("performance"));
}

#[test]
fn explain_unknown_rule() {
    let d = dir_with(&[]);
    let o = omplens(d.path(), &["explain", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nosuch"), "{}", stderr(&o));
    let o = omplens(d.path(), &["explain", "OMP11"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("OMP101"), "close match: {}", stderr(&o));
}

#[test]
fn build_directory_lists_the_files_and_their_flags() {
    // Compiles only with the database's -DN=8.
    let needs_flag = STALE.replace("a[8]", "a[N]");
    let d = dir_with(&[("src/stale.c", &needs_flag), ("src/clean.c", CLEAN)]);
    let root = d.path().canonicalize().unwrap();
    let db = serde_json::json!([
        {"directory": root.join("src"), "file": "stale.c",
         "arguments": ["cc", "-DN=8", "-c", "stale.c"]},
        {"directory": root.join("src"), "file": "clean.c",
         "arguments": ["cc", "-c", "clean.c"]},
    ]);
    std::fs::create_dir_all(d.path().join("build")).unwrap();
    std::fs::write(d.path().join("build/compile_commands.json"), db.to_string()).unwrap();
    let o = omplens(&root, &["check", "-p", "build"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{}{err}", stdout(&o));
    assert!(stdout(&o).contains("src/stale.c:6:"), "{}", stdout(&o));
    assert!(
        !err.contains("may be incomplete"),
        "flags from the database: {err}"
    );
    assert!(err.contains("in 2 files"), "{err}");
    let o = omplens(&root, &["check", "-p", "nowhere"]);
    assert_eq!(o.status.code(), Some(2));

    // A listed file that is gone: the others are still checked, and the run fails.
    let mut entries = db.as_array().unwrap().clone();
    entries.push(
        serde_json::json!({"directory": root.join("src"), "file": "gone.c",
                                    "arguments": ["cc", "-c", "gone.c"]}),
    );
    std::fs::write(
        d.path().join("build/compile_commands.json"),
        Value::Array(entries).to_string(),
    )
    .unwrap();
    let o = omplens(&root, &["check", "-p", "build"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("gone.c"), "{}", stderr(&o));
    assert!(stdout(&o).contains("src/stale.c:6:"), "{}", stdout(&o));
}

#[test]
fn directories_are_searched_and_output_is_sorted() {
    let d = dir_with(&[
        ("proj/b/stale.c", STALE),
        ("proj/a/stale.cpp", STALE),
        ("proj/a/clean.c", CLEAN),
        ("proj/a/header.h", "int f(void);\n"),
        ("proj/.hidden/stale.c", STALE),
    ]);
    let o = omplens(d.path(), &["check", "--format", "json", "proj"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    let files: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "OMP101")
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, vec!["proj/a/stale.cpp", "proj/b/stale.c"], "{v:#}");
    assert!(stderr(&o).contains("in 3 files"), "{}", stderr(&o));
}

#[test]
fn broken_code_is_checked_with_a_warning() {
    let broken = STALE.replace("return 0;", "return undeclared_thing +;");
    let d = dir_with(&[("broken.c", &broken), ("clean.c", CLEAN)]);
    let o = omplens(d.path(), &["check", "broken.c", "clean.c"]);
    let err = stderr(&o);
    assert!(matches!(o.status.code(), Some(0) | Some(1)), "{err}");
    assert!(err.contains("broken.c"), "{err}");
    assert!(err.contains("may be incomplete"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn clean_file_and_usage_errors() {
    let d = dir_with(&[("clean.c", CLEAN)]);
    let o = omplens(d.path(), &["check", "--format", "json", "clean.c"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o), serde_json::json!([]));
    assert!(stderr(&o).contains("0 errors, 0 warnings, 0 infos/hints in 1 file"));
    let o = omplens(d.path(), &["check", "missing.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.c"), "{}", stderr(&o));
    let o = omplens(d.path(), &["check"]);
    assert_eq!(o.status.code(), Some(2));
    let o = omplens(d.path(), &["check", "--format", "xml", "clean.c"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn fix_writes_and_rechecks() {
    let d = dir_with(&[("stale.c", STALE)]);
    let o = omplens(d.path(), &["check", "--fix", "stale.c"]);
    let err = stderr(&o);
    assert!(err.contains("fixed 1 finding in 1 file"), "{err}");
    let fixed = std::fs::read_to_string(d.path().join("stale.c")).unwrap();
    assert_ne!(fixed, STALE);
    assert!(!stdout(&o).contains("[OMP101]"), "{}", stdout(&o));
    assert_eq!(o.status.code(), Some(0), "{err}");
    // Nothing left to fix.
    let o = omplens(d.path(), &["check", "--fix", "stale.c"]);
    assert!(
        stderr(&o).contains("fixed 0 findings in 0 files"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("stale.c")).unwrap(),
        fixed
    );
}

/// Sixty kernels with a long sum in a loop nest: about 10 s of analysis in a debug build,
/// 2 s in a release one.
fn slow_program() -> String {
    let sum: String = (0..300)
        .map(|k| format!(" + a[(i + {k}) * n + j]"))
        .collect();
    (0..60)
        .map(|q| {
            format!(
                "void f{q}(double *a, double *w, int n) {{\n\
                 #pragma omp target teams distribute parallel for collapse(2) map(to: a[0:400*n]) map(from: w[0:n*n])\n\
                   for (int i = 0; i < n; i++)\n\
                     for (int j = 0; j < n; j++)\n\
                       w[i * n + j] = 0{sum};\n\
                 }}\n"
            )
        })
        .collect()
}

#[test]
fn file_timeout_stops_one_file_and_the_run_goes_on() {
    let dir = dir_with(&[("slow.c", &slow_program()), ("stale.c", STALE)]);
    let started = std::time::Instant::now();
    let o = omplens(
        dir.path(),
        &["check", "--file-timeout", "0.3", "slow.c", "stale.c"],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("slow.c: note: analysis stopped after ")
            && err.contains("ran past the time budget of 0.3 s per file (--file-timeout)"),
        "{err}"
    );
    assert!(
        err.contains(
            "1 error, 0 warnings, 0 infos/hints in 2 files (1 file stopped by --file-timeout)"
        ),
        "{err}"
    );
    // The other file is checked: its stale read is reported.
    assert!(stdout(&o).contains("stale.c:6:"), "{}", stdout(&o));
    assert!(started.elapsed().as_secs() < 8, "{:?}", started.elapsed());
}

#[test]
fn file_timeout_must_be_seconds() {
    let dir = dir_with(&[("clean.c", CLEAN)]);
    let o = omplens(dir.path(), &["check", "--file-timeout", "soon", "clean.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is not a number of seconds"),
        "{}",
        stderr(&o)
    );
}

/// Over a tree: a progress bar on a terminal (run under `script`, which gives the command a
/// pseudo-terminal), none when stderr is a pipe, and the summary says how long it took.
#[test]
fn progress_bar_on_a_terminal_and_time_in_the_summary() {
    let files: Vec<(String, &str)> = (0..5).map(|i| (format!("f{i}.c"), STALE)).collect();
    let named: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let d = dir_with(&named);
    let o = omplens(d.path(), &["check", "--no-config", "."]);
    let err = stderr(&o);
    assert!(!err.contains("checking ["), "{err}");
    assert!(
        err.contains("5 errors, 0 warnings, 0 infos/hints in 5 files; took "),
        "{err}"
    );
    let cmd = format!("{} check --no-config -j 1 .", env!("CARGO_BIN_EXE_omplens"));
    // `script` (util-linux, on every Debian) runs the command on a pseudo-terminal.
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(d.path())
        .output()
        .expect("run script(1) from util-linux");
    let shown = stdout(&o);
    assert!(shown.contains("checking ["), "{shown}");
    assert!(shown.contains("/5 files"), "{shown}");
    assert!(shown.contains("in 5 files; took "), "{shown}");
}

/// `requires unified_shared_memory`: no mapping finding (the same kernel without it is an
/// OMP101 error), a note at the `requires` saying why, and `fix` writes nothing.
#[test]
fn unified_shared_memory_is_said_and_not_judged() {
    let usm = STALE.replace(
        "#include <stdio.h>\n",
        "#include <stdio.h>\n#pragma omp requires unified_shared_memory\n",
    );
    let d = dir_with(&[("usm.c", &usm), ("plain.c", STALE)]);
    let o = omplens(d.path(), &["check", "--no-config", "plain.c"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = omplens(d.path(), &["check", "--no-config", "usm.c"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "usm.c:2:1: note: `requires unified_shared_memory`: host and device share memory"
        ),
        "{err}"
    );
    assert!(err.contains("0 errors, 0 warnings"), "{err}");
    let o = omplens(d.path(), &["fix", "-o", "-", "usm.c"]);
    assert_ne!(o.status.code(), Some(0));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("requires unified_shared_memory"),
        "{}",
        stderr(&o)
    );
}

/// A run over many files parses them after the system headers they share, precompiled once
/// (`OMPLENS_PROFILE` prints what was shared): the findings are those of files that each
/// parse their own headers, byte for byte.
#[test]
fn shared_headers_change_no_finding() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dirs = ["tests/check", "tests/corpus", "tests/fix"];
    // The PCHs a run keeps go to a cache of this test's own.
    let cache = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["check", "--no-config", "--format", "json"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&dirs);
        let o = Command::new(env!("CARGO_BIN_EXE_omplens"))
            .args(&args)
            .current_dir(&root)
            .env("OMPLENS_PROFILE", "1")
            .env("OMPLENS_CACHE_DIR", cache.path())
            .output()
            .expect("run omplens");
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
        o
    };
    let shared = run(&[]);
    let alone = run(&["--no-shared-headers"]);
    // A second run takes the PCHs the first kept.
    let again = run(&[]);
    assert!(
        stderr(&again).contains(" built: 0,") && !stderr(&again).contains(" reused: 0,"),
        "{}",
        stderr(&again)
    );
    assert_eq!(json(&again), json(&shared));
    let used = stderr(&shared)
        .lines()
        .find_map(|l| l.strip_prefix("omplens: shared headers: "))
        .map(String::from)
        .unwrap_or_else(|| panic!("no profile line: {}", stderr(&shared)));
    assert!(!used.contains(" used: 0,"), "{used}");
    assert!(!stderr(&alone).contains("shared headers:"));
    let (with, without) = (json(&shared), json(&alone));
    let (with, without) = (with.as_array().unwrap(), without.as_array().unwrap());
    assert!(with.len() > 100, "{} findings", with.len());
    if let Some((a, b)) = with.iter().zip(without).find(|(a, b)| a != b) {
        panic!("{used}\nshared headers: {a}\nalone: {b}");
    }
    assert_eq!(with.len(), without.len(), "{used}");
}

/// A file with more than twenty compile errors (clang's default limit) before a template that
/// holds a kernel: the kernel is still analysed, so its write of `out` reaches the copy back
/// and nothing is reported; every error past the twentieth is still counted.
#[test]
fn a_kernel_after_many_compile_errors_is_analysed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let o = omplens(
        &root,
        &[
            "check",
            "tests/corpus/broken/many_errors_then_kernel.cpp",
            "--",
            "-fopenmp",
        ],
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(!out.contains("OMP101"), "{out}{err}");
    assert!(
        err.contains("has 22 compile errors"),
        "all 22 errors are kept: {err}"
    );
}

/// `check -p` names the database's files relative to the current directory, and the project
/// reads them under the database's absolute paths: a file lowered for another file's sake
/// (`b.c`, for the summary of `fill` that `a.c` calls) is the same file, and its own check
/// takes that module instead of parsing it again, with the same findings. (`a.c` has a host
/// `parallel for`: a file without OpenMP would not be parsed at all.)
#[test]
fn a_file_read_for_another_is_not_parsed_again_for_its_own_check() {
    const HEADERS: &str = "#include <stdio.h>\n#include <stdlib.h>\n";
    let a = format!(
        "{HEADERS}void fill(double *x, int n);\n\
         // The largest file of the run, so checked first.\n// {}\n\
         int main(void) {{\n  int n = 100;\n  double *x = malloc(n * sizeof *x);\n\
         #pragma omp parallel for\n  for (int i = 0; i < n; i++)\n    x[i] = 0;\n  \
         fill(x, n);\n  printf(\"%f\\n\", x[0]);\n  free(x);\n  return 0;\n}}\n",
        "padding ".repeat(40)
    );
    let b = format!(
        "{HEADERS}void fill(double *x, int n) {{\n\
         #pragma omp target teams distribute parallel for map(to: x[0:n])\n  \
         for (int i = 0; i < n; i++)\n    x[i] = i;\n}}\n"
    );
    let c = format!("{HEADERS}int twice(int v) {{ return 2 * v; }}\n");
    let dir = dir_with(&[("a.c", &a), ("b.c", &b), ("c.c", &c)]);
    let entries: Vec<Value> = ["a.c", "b.c", "c.c"]
        .iter()
        .map(|f| {
            serde_json::json!({
                "directory": dir.path(),
                "file": f,
                "arguments": ["clang", "-fopenmp", "-c", f],
            })
        })
        .collect();
    std::fs::write(
        dir.path().join("compile_commands.json"),
        serde_json::to_string(&entries).unwrap(),
    )
    .unwrap();
    let run = |extra: &[&str]| {
        // A cache of its own: summaries kept by an earlier run would spare the project's
        // parse of `b.c`.
        let cache = tempfile::tempdir().unwrap();
        let mut args = vec!["check", "--no-config", "--format", "json", "-p", "."];
        args.extend_from_slice(extra);
        let o = Command::new(env!("CARGO_BIN_EXE_omplens"))
            .args(&args)
            .current_dir(dir.path())
            .env("OMPLENS_PROFILE", "1")
            .env("OMPLENS_CACHE_DIR", cache.path())
            .output()
            .expect("run omplens");
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
        o
    };
    let alone = run(&["--no-shared-headers", "-j", "1"]);
    let findings = json(&alone);
    // The kernel writes `x` and copies nothing back: main's read of `x[0]` is stale.
    assert!(
        findings
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["file"] == "b.c" || f["file"] == "a.c"),
        "{findings}"
    );
    for jobs in ["1", "2"] {
        let shared = run(&["-j", jobs]);
        assert_eq!(json(&shared), findings, "-j {jobs}: {}", stderr(&shared));
        if jobs == "1" {
            assert!(
                stderr(&shared).contains("kept_taken: 1 "),
                "{}",
                stderr(&shared)
            );
        }
    }
}

/// A file that neither it nor a project header it includes names OpenMP cannot hold a
/// finding: it is not parsed (its compile errors are not reported), the summary counts it.
/// A file whose only OpenMP is in a header it includes is parsed and its findings reported.
#[test]
fn files_without_openmp_are_not_parsed() {
    let kernel =
        "static void bump(double *a) {\n#pragma omp target map(to: a[0:8])\n  a[0] = 1.0;\n}\n";
    let via_header =
        "#include <stdio.h>\n#include \"kern.h\"\nint main(void) {\n  double a[8] = {0};\n  bump(a);\n  printf(\"%f\\n\", a[0]);\n  return 0;\n}\n";
    let broken_plain = "#include <stdio.h>\nint main(void) { return undeclared_thing +; }\n";
    let d = dir_with(&[
        ("kern.h", kernel),
        ("via_header.c", via_header),
        ("plain.c", broken_plain),
        ("clean.c", CLEAN),
    ]);
    let o = omplens(
        d.path(),
        &[
            "check",
            "--format",
            "json",
            "via_header.c",
            "plain.c",
            "clean.c",
        ],
    );
    let err = stderr(&o);
    let v = json(&o);
    let files: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert!(files.contains(&"via_header.c"), "{v:#}\n{err}");
    assert!(files.iter().all(|f| *f == "via_header.c"), "{v:#}");
    assert!(!err.contains("plain.c has"), "{err}");
    assert!(
        err.contains("in 3 files (2 without OpenMP, not parsed)"),
        "{err}"
    );
    let o = omplens(d.path(), &["check", "--verbose", "plain.c"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("plain.c: note: not parsed: neither the file nor a project header"),
        "{}",
        stderr(&o)
    );
}
