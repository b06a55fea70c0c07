//! The rewrite gate (`omplens_analysis::ide::gate`) on programs built for it (tests/gate/):
//! - `host_update_in_loop.c`: omplens's rewrite (with its `target update to` in the time-step
//!   loop) passes the gate and is written; the same rewrite without that update is refused
//!   (it adds OMP102), and the oracle confirms the refused text computes a wrong result.
//! - `refused_undefined_macro.c`: the gate refuses omplens's own rewrite (its section names a
//!   macro the file `#undef`s before the region, so it does not compile):
//!   `fix` writes nothing and exits 1, with or without `--allow-partial`, and prints nothing
//!   on stdout.
//! - `gap_region_cannot_enclose.c`: no region can be placed (it would enclose an early
//!   `return`), so a malloc'ed buffer stays unmapped (a gap): `fix` writes nothing and exits 1; `--allow-partial` writes the
//!   verified rewrite, lists the gaps and still exits 1.
//! - `gap_struct_member_alias.c`: a kernel uses data behind a struct's pointer members through
//!   local aliases, which omplens cannot bound: gaps named by the aliases' names, nothing
//!   written; the partial rewrite leaves exactly that data unmapped under the oracle.
//! - `team_thread_sections.c`: sections never name the team or thread numbers (they have a
//!   value in a kernel only); the allocations give them.
//! - `gap_header_kernel_launcher.c`: the kernels are in a header omplens does not analyse
//!   (`launcher_kernels.h`) and nothing maps the data passed to them: a gap naming the
//!   launcher, nothing written (the partial rewrite leaves the data unmapped under the
//!   oracle); `fix --replace` on the same program with the programmer's `target data` keeps
//!   that region (HeCBench's complex, chemv, ...: it was deleted, exit 0).
//! - `gap_macro_kernel.c`: the kernel is a `_Pragma` macro's text, which omplens does not
//!   rewrite: `fix` says so at the kernel, names its data as a gap and writes nothing.
//! - A rewrite that does not compile is refused with the compiler's message.

use omplens_analysis::frontend::{flags, lower_file};
use omplens_analysis::ide::gate::{self, Baseline};
use omplens_analysis::{check, plan, text};
use omplens_tests::{omplens_bin, oracle, tier};
use std::path::{Path, PathBuf};
use std::process::Command;

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("gate")
        .join(name)
}

/// The original's baseline and the rewrite `omplens fix` would write, before the gate.
fn rewrite_of(path: &Path) -> (Vec<String>, Baseline, String) {
    let args = flags::flags_for(path, None, &[]).expect("flags").args;
    let source = std::fs::read_to_string(path).unwrap();
    let module = lower_file(path, Some(&source), &args).expect("lowers");
    let baseline = Baseline::of(
        path,
        &args,
        &source,
        &module,
        &check::check(&module, &source),
    );
    let p = plan::plan(&module);
    let fixed = text::apply(&source, &p.edits(&module, &source));
    (args, baseline, fixed)
}

fn fix(args: &[&str]) -> std::process::Output {
    Command::new(omplens_bin::path())
        .arg("fix")
        .args(args)
        .output()
        .expect("runs omplens")
}

/// omplens's rewrite of host_update_in_loop.c with its `target update to(heat)` line taken out.
fn without_the_update(fixed: &str) -> String {
    let out: Vec<&str> = fixed
        .lines()
        .filter(|l| !l.contains("target update to(heat)"))
        .collect();
    assert!(
        out.len() < fixed.lines().count(),
        "the rewrite has the update:\n{fixed}"
    );
    out.join("\n") + "\n"
}

#[test]
fn a_rewrite_that_adds_a_finding_is_refused() {
    let path = program("host_update_in_loop.c");
    let (args, baseline, fixed) = rewrite_of(&path);
    assert!(gate::verify(&path, &args, &baseline, &fixed).accepted());
    let v = gate::verify(&path, &args, &baseline, &without_the_update(&fixed));
    assert!(!v.accepted(), "{v:?}");
    assert!(
        v.refusals.iter().any(|r| r.message.contains("[OMP102]")),
        "{v:?}"
    );
    // omplens fix writes its own (accepted) rewrite.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.c");
    let o = fix(&["-o", out.to_str().unwrap(), path.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), fixed);
}

#[test]
fn a_refused_rewrite_is_not_written() {
    let path = program("refused_undefined_macro.c");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.c");
    for extra in [&[][..], &["--allow-partial"][..]] {
        let mut a = vec!["-o", out.to_str().unwrap()];
        a.extend_from_slice(extra);
        a.push(path.to_str().unwrap());
        let o = fix(&a);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("was refused"), "{stderr}");
        assert!(!out.exists(), "a refused rewrite must not be written");
        assert!(o.stdout.is_empty());
    }
    // Printing to stdout (`--diff`) prints nothing either.
    let o = fix(&["--diff", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn the_refused_rewrite_is_wrong_under_the_oracle() {
    let test = "gate::the_refused_rewrite_is_wrong_under_the_oracle";
    if !(tier::slow(test) && oracle::gate(test)) {
        return;
    }
    let path = program("host_update_in_loop.c");
    let original = oracle::check(&path, &[]).expect("the oracle runs");
    assert!(original.is_correct(), "{}", original.summary());
    let (_, _, fixed) = rewrite_of(&path);
    let dir = tempfile::tempdir().unwrap();
    let accepted = dir.path().join("accepted.c");
    std::fs::write(&accepted, &fixed).unwrap();
    let v = oracle::check(&accepted, &[]).expect("the oracle runs");
    assert!(v.is_correct(), "the accepted rewrite: {}", v.summary());
    let refused = dir.path().join("refused.c");
    std::fs::write(&refused, without_the_update(&fixed)).unwrap();
    let v = oracle::check(&refused, &[]).expect("the oracle runs");
    assert!(
        !v.output_matches,
        "the gate refused a rewrite the oracle finds right: {}",
        v.summary()
    );
}

#[test]
fn gaps_are_written_only_when_a_partial_rewrite_is_allowed() {
    let path = program("gap_region_cannot_enclose.c");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.c");
    let o = fix(&["-o", out.to_str().unwrap(), path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: gap:") && stderr.contains("`buf`"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing written"), "{stderr}");
    assert!(!out.exists());

    let o = fix(&[
        "--allow-partial",
        "-o",
        out.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "gaps remain: {stderr}");
    assert!(stderr.contains("error: gap:"), "{stderr}");
    assert!(out.is_file(), "--allow-partial writes the verified rewrite");
}

#[test]
fn a_kernel_written_through_a_macro_is_not_rewritten_and_its_data_is_a_gap() {
    let path = program("gap_macro_kernel.c");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.c");
    let o = fix(&["-o", out.to_str().unwrap(), path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(":15:3: warning: this kernel is written through a macro"),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .any(|l| l.contains("error: gap:") && l.contains("`v`")),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing is written while gaps remain");
    // `--replace` keeps the macro's use (it stripped the whole kernel before).
    let o = fix(&[
        "--replace",
        "--allow-partial",
        "-o",
        "-",
        path.to_str().unwrap(),
    ]);
    let written = String::from_utf8_lossy(&o.stdout);
    assert!(written.contains("  KERNEL\n  for"), "{written}");
}

#[test]
fn data_no_map_is_known_to_cover_is_a_gap() {
    let path = program("gap_struct_member_alias.c");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.c");
    let o = fix(&["-o", out.to_str().unwrap(), path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    for name in ["`idx`", "`val`"] {
        assert!(
            stderr
                .lines()
                .any(|l| l.contains("error: gap:") && l.contains(name)),
            "no gap names {name}: {stderr}"
        );
    }
    assert!(!out.exists(), "nothing is written while gaps remain");

    partial_rewrite_leaves_unmapped(
        "gate::data_no_map_is_known_to_cover_is_a_gap",
        &path,
        &out,
        &["idx", "val"],
    );
}

/// Slow tier: `fix --allow-partial` of `path` into `out` leaves exactly `names` unmapped
/// under the oracle (the gaps it listed, nothing else).
fn partial_rewrite_leaves_unmapped(test: &str, path: &Path, out: &Path, names: &[&str]) {
    if !(tier::slow(test) && oracle::gate(test)) {
        return;
    }
    let o = fix(&[
        "--allow-partial",
        "-o",
        out.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert!(out.is_file(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = oracle::check(out, &[]).expect("the oracle runs");
    assert_eq!(
        v.offload.unmapped_names(),
        names.to_vec(),
        "the gaps are what stays unmapped: {}",
        v.summary()
    );
}

#[test]
fn sections_never_name_team_or_thread_numbers() {
    let path = program("team_thread_sections.c");
    let o = fix(&["-o", "-", path.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let maps: Vec<&str> = out.lines().filter(|l| l.contains("map(")).collect();
    assert!(
        maps.iter()
            .any(|l| l.contains("in[0:T * B]") && l.contains("out[0:T * B]")),
        "{out}"
    );
    assert!(!maps.iter().any(|l| l.contains("omp_get_")), "{out}");
}

/// A two-dimensional launch has more threads than the grid has points, and the kernel's
/// tests on its row and column keep the extra ones out: those tests bound the section
/// (`a[0:h * w]`), not the launch (rows and columns up to 127), which would reach past the
/// data. The parameters' allocation is not visible in the function, so only the tests can.
#[test]
fn the_kernels_own_tests_bound_a_team_and_thread_index() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grid.c");
    std::fs::write(&path, "#include <omp.h>\n#include <stdio.h>\n#include <stdlib.h>\n#define BS 16\nstatic void twice(const float *a, float *b, int h, int w) {\n#pragma omp target teams num_teams(64) thread_limit(BS * BS)\n#pragma omp parallel num_threads(BS * BS)\n  {\n    int r = omp_get_team_num() / 8 * BS + omp_get_thread_num() / BS;\n    int c = omp_get_team_num() % 8 * BS + omp_get_thread_num() % BS;\n    if (r < h && c < w)\n      b[r * w + c] = 2 * a[r * w + c];\n  }\n}\nint main(void) {\n  int h = 100, w = 70;\n  float *a = (float *)malloc(h * w * sizeof(float));\n  float *b = (float *)malloc(h * w * sizeof(float));\n  for (int i = 0; i < h * w; i++)\n    a[i] = i;\n  twice(a, b, h, w);\n  double s = 0;\n  for (int i = 0; i < h * w; i++)\n    s += b[i];\n  printf(\"%f\\n\", s);\n  return 0;\n}\n").unwrap();
    let o = fix(&["-o", "-", path.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let kernel = out
        .lines()
        .find(|l| l.contains("target teams num_teams(64)"))
        .unwrap_or_default();
    assert!(
        kernel.contains("map(to: a[0:h * w])") && kernel.contains("b[0:h * w]"),
        "{out}"
    );
}

#[test]
fn a_rewrite_that_does_not_compile_is_refused_with_the_compilers_message() {
    let path = program("gap_region_cannot_enclose.c");
    let (args, baseline, _) = rewrite_of(&path);
    let source = std::fs::read_to_string(&path).unwrap();
    let broken = source.replace("double peak = 0.0;", "double peak = 0.0 +;");
    let v = gate::verify(&path, &args, &baseline, &broken);
    assert!(!v.accepted());
    assert!(
        v.refusals
            .iter()
            .any(|r| r.message.contains("does not compile") && r.line == 17),
        "{v:?}"
    );
    // The original itself passes its own gate.
    assert!(gate::verify(&path, &args, &baseline, &source).accepted());
}

#[test]
fn data_passed_to_kernels_omplens_cannot_see_is_a_gap_and_replace_keeps_its_map() {
    let path = program("gap_header_kernel_launcher.c");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.c");
    let o = fix(&["-o", out.to_str().unwrap(), path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let gaps: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("error: gap:"))
        .collect();
    assert_eq!(gaps.len(), 2, "one per call: {stderr}");
    assert!(
        gaps.iter()
            .all(|l| l.contains("`square_on_device` launches kernels") && l.contains("`x`")),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing is written while gaps remain");

    // The programmer's region around the calls: `--replace` keeps it as written.
    let text = std::fs::read_to_string(&path).unwrap();
    let expert = text.replace(
        "  square_on_device(x, N);\n  square_on_device(x, N);\n",
        "#pragma omp target data map(tofrom: x[0:N])\n  {\n    square_on_device(x, N);\n    square_on_device(x, N);\n  }\n",
    );
    assert_ne!(expert, text);
    // (In the temporary directory, with the header beside it.)
    std::fs::copy(
        path.with_file_name("launcher_kernels.h"),
        dir.path().join("launcher_kernels.h"),
    )
    .unwrap();
    let expert_path = dir.path().join("expert.c");
    std::fs::write(&expert_path, &expert).unwrap();
    let o = fix(&["--replace", "-o", "-", expert_path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains("#pragma omp target data map(tofrom: x[0:N])"),
        "the region stays: {stdout}"
    );

    partial_rewrite_leaves_unmapped(
        "gate::data_passed_to_kernels_omplens_cannot_see_is_a_gap_and_replace_keeps_its_map",
        &path,
        &out,
        &["x"],
    );
}

/// A header function whose OpenMP pragmas are host `parallel for` only launches no kernel:
/// data passed to it is no gap (HeCBench's permute validates its results so, and `fix
/// --replace` was refused).
#[test]
fn a_header_function_with_host_pragmas_only_is_no_kernel_launcher() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("check_sum.h"),
        "static double check_sum(const double *v, int n) {\n  double s = 0.0;\n#pragma omp parallel for reduction(+: s)\n  for (int i = 0; i < n; i++)\n    s += v[i];\n  return s;\n}\n",
    )
    .unwrap();
    let program = dir.path().join("main.c");
    std::fs::write(
        &program,
        "#include <stdio.h>\n#include <stdlib.h>\n#include \"check_sum.h\"\nint main(void) {\n  int n = 256;\n  double *v = (double *)malloc(n * sizeof(double));\n#pragma omp target teams distribute parallel for map(from: v[0:n])\n  for (int i = 0; i < n; i++)\n    v[i] = 0.5 * i;\n  printf(\"%.1f\\n\", check_sum(v, n));\n  free(v);\n  return 0;\n}\n",
    )
    .unwrap();
    let o = fix(&["-o", "-", program.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("gap"), "{stderr}");
}

/// `omplens fix --replace` of the C program `text` (in a temporary directory); it must write
/// the rewrite (exit 0), which is returned.
fn replaced(text: &str) -> String {
    replaced_as("main.c", &[], text)
}

/// [`replaced`] for a file named `name`, with more options for `fix` (with
/// `--allow-partial`, it must write the rewrite, and may exit 1 for its gaps).
fn replaced_as(name: &str, options: &[&str], text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join(name);
    std::fs::write(&program, text).unwrap();
    let mut args = vec!["--replace", "-o", "-"];
    args.extend(options);
    args.push(program.to_str().unwrap());
    let o = fix(&args);
    let partial = options.contains(&"--allow-partial");
    let code = o.status.code();
    assert!(
        code == Some(0) || (partial && code == Some(1) && !o.stdout.is_empty()),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A function omplens does not analyse (here a loop made with a backward `goto`) gets
/// nothing synthesized, so `--replace` must keep the programmer's constructs in it: it took
/// them out and wrote the program with its kernels unmapped (HeCBench's sort, whose `main`
/// includes kernel bodies with `#include`).
#[test]
fn replace_keeps_the_constructs_of_a_function_it_does_not_analyse() {
    let stdout = replaced("#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  int n = 1000, pass = 0;\n  double *a = malloc(n * sizeof(double));\n  for (int i = 0; i < n; i++)\n    a[i] = i;\n#pragma omp target data map(tofrom: a[0:n])\n  {\n  again:\n#pragma omp target teams distribute parallel for\n    for (int i = 0; i < n; i++)\n      a[i] = 2.0 * a[i];\n    if (++pass < 3)\n      goto again;\n  }\n  printf(\"%.1f\\n\", a[7]);\n  free(a);\n  return 0;\n}\n");
    assert!(
        stdout.contains("#pragma omp target data map(tofrom: a[0:n])"),
        "the region of the function omplens does not analyse stays: {stdout}"
    );
}

/// A function whose body includes a header's statements (`#include "step.h"` inside the
/// kernel's loop, as HeCBench's s3d writes its kernels) is analysed, but nothing in it is
/// rewritten: `fix --replace` keeps its region and says why.
#[test]
fn replace_keeps_a_function_that_includes_statements_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("step.h"),
        "const double old = a[i];\na[i] = 2.0 * old;\n",
    )
    .unwrap();
    let program = dir.path().join("main.c");
    std::fs::write(
        &program,
        "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  int n = 1000;\n  double *a = malloc(n * sizeof(double));\n  for (int i = 0; i < n; i++)\n    a[i] = i;\n#pragma omp target data map(tofrom: a[0:n])\n  {\n#pragma omp target teams distribute parallel for\n    for (int i = 0; i < n; i++) {\n#include \"step.h\"\n    }\n  }\n  printf(\"%.1f\\n\", a[7]);\n  free(a);\n  return 0;\n}\n",
    )
    .unwrap();
    let o = fix(&["--replace", "-o", "-", program.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("#pragma omp target data map(tofrom: a[0:n])"),
        "the region stays: {stdout}"
    );
    assert!(
        stderr.contains("`main` is not rewritten: its body includes statements of `step.h`"),
        "{stderr}"
    );
}

/// A compiler builtin in a kernel (`__builtin_popcountl(data[i])`) is a library function, and
/// an element's value passed to a call gives it no way to the array: `--replace` takes the
/// programmer's region out and writes its own (HeCBench's popcount kept the expert's region,
/// and what omplens added around it was refused).
#[test]
fn builtins_and_element_values_do_not_keep_the_programmers_region() {
    let stdout = replaced("#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  int n = 1000;\n  unsigned long *data = malloc(n * sizeof(unsigned long));\n  int *count = malloc(n * sizeof(int));\n  for (int i = 0; i < n; i++)\n    data[i] = (unsigned long)i * 2654435761u;\n#pragma omp target data map(tofrom: data[0:n]) map(tofrom: count[0:n])\n  {\n#pragma omp target teams distribute parallel for\n    for (int i = 0; i < n; i++)\n      count[i] = __builtin_popcountl(data[i]);\n  }\n  long s = 0;\n  for (int i = 0; i < n; i++)\n    s += count[i];\n  printf(\"%ld\\n\", s);\n  free(data);\n  free(count);\n  return 0;\n}\n");
    assert!(
        !stdout.contains("map(tofrom: data[0:n])"),
        "the programmer's region is replaced: {stdout}"
    );
    assert!(
        stdout.contains("map(to: data[0:n])") && stdout.contains("map(from: count[0:n])"),
        "{stdout}"
    );
}

/// Data the synthesis cannot bound (an index made of team and thread numbers in a launch
/// that does not say how many teams it has, an allocation of a byte count omplens cannot
/// divide): `--replace` keeps the programmer's region naming it instead of deleting it and
/// refusing the result (HeCBench's scan, where the kernels' blocks come from
/// `omp_get_team_num()`).
#[test]
fn replace_keeps_the_programmers_map_of_data_it_cannot_bound() {
    let stdout = replaced("#include <omp.h>\n#include <stdio.h>\n#include <stdlib.h>\nstatic double run(size_t bytes, int teams) {\n  float *in = (float *)malloc(bytes);\n  float *out = (float *)malloc(bytes);\n  for (size_t i = 0; i < bytes / sizeof(float); i++)\n    in[i] = (float)(i % 9);\n#pragma omp target data map(to: in[0:teams * 64]) map(from: out[0:teams * 64])\n  {\n#pragma omp target teams thread_limit(64)\n#pragma omp parallel num_threads(64)\n    {\n      int k = omp_get_team_num() * 64 + omp_get_thread_num();\n      out[k] = 2.0f * in[k];\n    }\n  }\n  double s = 0.0;\n  for (int i = 0; i < teams * 64; i++)\n    s += out[i];\n  free(in);\n  free(out);\n  return s;\n}\nint main(void) {\n  printf(\"%.1f\\n\", run(16 * 64 * sizeof(float), 16));\n  return 0;\n}\n");
    assert!(
        stdout.contains(
            "#pragma omp target data map(to: in[0:teams * 64]) map(from: out[0:teams * 64])"
        ),
        "the region stays: {stdout}"
    );
}

/// With `num_teams` and `num_threads` the launch bounds the team and thread numbers: the
/// section is the union over every team and thread (never the host's value, 0), so
/// `--replace` writes its own map of the data (Rodinia's backprop and HeCBench's CUDA-style
/// kernels).
#[test]
fn replace_bounds_team_and_thread_indices_by_the_launch() {
    let stdout = replaced("#include <omp.h>\n#include <stdio.h>\n#include <stdlib.h>\nstatic double run(size_t bytes, int teams) {\n  float *in = (float *)malloc(bytes);\n  float *out = (float *)malloc(bytes);\n  for (size_t i = 0; i < bytes / sizeof(float); i++)\n    in[i] = (float)(i % 9);\n#pragma omp target data map(tofrom: in[0:teams * 64]) map(tofrom: out[0:teams * 64])\n  {\n#pragma omp target teams num_teams(teams) thread_limit(64)\n#pragma omp parallel num_threads(64)\n    {\n      int k = omp_get_team_num() * 64 + omp_get_thread_num() % 32 + 32;\n      out[k] = 2.0f * in[k];\n    }\n  }\n  double s = 0.0;\n  for (int i = 0; i < teams * 64; i++)\n    s += out[i];\n  free(in);\n  free(out);\n  return s;\n}\nint main(void) {\n  printf(\"%.1f\\n\", run(16 * 64 * sizeof(float), 16));\n  return 0;\n}\n");
    assert!(
        stdout.contains("map(to: in[32:64 * teams - 32]) map(from: out[32:64 * teams - 32])"),
        "the section covers teams 0 to teams - 1 and threads 0 to 63 (modulo 32): {stdout}"
    );
}

/// The same through a call: the kernel's function cannot bound its parameters, so the
/// caller's region naming the arguments stays as the programmer wrote it (HeCBench's gelu,
/// where a synthesized region replaced it and the rewrite was refused).
#[test]
fn replace_keeps_the_callers_map_of_parameters_it_cannot_bound() {
    let stdout = replaced("#include <omp.h>\n#include <stdio.h>\n#include <stdlib.h>\nstatic void twice(const float *in, float *out, int teams) {\n#pragma omp target teams thread_limit(64)\n#pragma omp parallel num_threads(64)\n  {\n    int k = omp_get_team_num() * 64 + omp_get_thread_num();\n    out[k] = 2.0f * in[k];\n  }\n}\nstatic double run(int n, int teams) {\n  float *in = (float *)malloc(n * sizeof(float));\n  float *out = (float *)malloc(n * sizeof(float));\n  for (size_t i = 0; i < (size_t)n; i++)\n    in[i] = (float)(i % 9);\n#pragma omp target data map(to: in[0:n])  map(tofrom: out[0:n])\n  {\n    twice(in, out, teams);\n    twice(out, out, teams);\n  }\n  double s = 0.0;\n  for (int i = 0; i < teams * 64; i++)\n    s += out[i];\n  free(in);\n  free(out);\n  return s;\n}\nint main(void) {\n  printf(\"%.1f\\n\", run(16 * 64, 16));\n  return 0;\n}\n");
    assert!(
        stdout.contains("#pragma omp target data map(to: in[0:n])  map(tofrom: out[0:n])"),
        "the programmer's region stays, as written: {stdout}"
    );
}

/// A construct kept for data the synthesis cannot bound keeps the other constructs naming what
/// it maps: its `update from(res)` stays with the region that maps `res` (HeCBench's rfs,
/// where the update was taken out and the rewrite was refused for a stale host read).
#[test]
fn replace_keeps_the_updates_of_a_kept_region() {
    let stdout = replaced("#include <omp.h>\n#include <stdio.h>\n#include <stdlib.h>\nstatic double run(size_t bytes, int teams) {\n  float *in = (float *)malloc(bytes);\n  float *res = (float *)malloc(teams * sizeof(float));\n  for (size_t i = 0; i < bytes / sizeof(float); i++)\n    in[i] = (float)(i % 9);\n  double s = 0.0;\n#pragma omp target data map(to: in[0:teams * 64]) map(alloc: res[0:teams])\n  {\n    for (int r = 0; r < 2; r++) {\n#pragma omp target teams thread_limit(64)\n      {\n        int t = omp_get_team_num();\n        res[t] = in[t * 64] + (float)r;\n      }\n#pragma omp target update from(res[0:teams])\n      for (int i = 0; i < teams; i++)\n        s += res[i];\n    }\n  }\n  free(in);\n  free(res);\n  return s;\n}\nint main(void) {\n  printf(\"%.1f\\n\", run(16 * 64 * sizeof(float), 16));\n  return 0;\n}\n");
    assert!(
        stdout
            .contains("#pragma omp target data map(to: in[0:teams * 64]) map(alloc: res[0:teams])")
            && stdout.contains("#pragma omp target update from(res[0:teams])"),
        "{stdout}"
    );
}

/// A buffer the kernel hands to an object's constructor: the synthesis does not see the
/// kernel use it, so its rewrite leaves it unmapped and the gate finds the kernel reading
/// unmapped data. `--replace` then keeps the programmer's map of it and plans the rest again,
/// never mapping less than the input did (HeCBench's interval was refused).
#[test]
fn replace_keeps_the_programmers_map_of_data_its_own_rewrite_left_unmapped() {
    let stdout = replaced_as(
        "main.cpp",
        &[],
        "#include <cstdio>\nstruct Slot {\n  int *data;\n  int tid;\n  Slot(int *d, int t) : data(d), tid(t) {}\n  void put(int v) { data[tid] = v; }\n};\nint main() {\n  const int n = 1024;\n  int *buf = new int[n];\n#pragma omp target data map(from: buf[0:n])\n  {\n#pragma omp target teams distribute parallel for\n    for (int t = 0; t < n; t++) {\n      Slot s(buf, t);\n      s.put(t * 2);\n    }\n  }\n  long sum = 0;\n  for (int i = 0; i < n; i++)\n    sum += buf[i];\n  std::printf(\"%ld\\n\", sum);\n  delete[] buf;\n  return 0;\n}\n",
    );
    assert!(
        stdout.contains("#pragma omp target data map(from: buf[0:n])"),
        "the programmer's region stays: {stdout}"
    );
}

/// The programmer maps data through a local alias of another type (`double *co = (double *)
/// cold;` then `map(to: co[0:vol])`): when `cold` is kept, so is the construct naming `co`
/// (HeCBench's che lost its region and was refused).
#[test]
fn replace_keeps_a_map_through_a_local_alias_of_kept_data() {
    let stdout = replaced_as(
        "main.c",
        &["--allow-partial"],
        "#include <stdio.h>\n#include <stdlib.h>\n#define NX 8\n#define NY 4\n#pragma omp declare target\ndouble lap(const double c[][NX], int x, int y) {\n  int xp = x + 1 < NX ? x + 1 : 0;\n  return c[(y * 3 + 1) % NY][xp] - c[y][x];\n}\n#pragma omp end declare target\nvoid step(const double c[][NX], double mu[][NX]) {\n#pragma omp target teams distribute parallel for collapse(2)\n  for (int y = 0; y < NY; y++)\n    for (int x = 0; x < NX; x++)\n      mu[y][x] = c[y][x] + lap(c, x, y);\n}\nint main(void) {\n  typedef double row[NX];\n  row *cold = (row *)malloc(NX * NY * sizeof(double));\n  row *muold = (row *)malloc(NX * NY * sizeof(double));\n  const int vol = NX * NY;\n  for (int y = 0; y < NY; y++)\n    for (int x = 0; x < NX; x++)\n      cold[y][x] = x + y;\n  double *co = (double *)cold;\n  double *mu = (double *)muold;\n#pragma omp target data map(to: co[0:vol]) map(from: mu[0:vol])\n  {\n    step(cold, muold);\n  }\n  double s = 0;\n  for (int y = 0; y < NY; y++)\n    for (int x = 0; x < NX; x++)\n      s += muold[y][x];\n  printf(\"%g\\n\", s);\n  free(cold);\n  free(muold);\n  return 0;\n}\n",
    );
    assert!(
        stdout.contains("#pragma omp target data map(to: co[0:vol]) map(from: mu[0:vol])"),
        "the programmer's region stays: {stdout}"
    );
}

/// Buffers behind an array of pointers, passed to a kernel in a header: a map of the array
/// copies the pointers only. `fix` names a gap at each use and writes nothing (it used to map
/// `buf` itself and call the kernel's data covered: HeCBench's tsa ran with its data unmapped).
#[test]
fn an_array_of_pointers_is_never_mapped_for_the_data_behind_it() {
    let path = program("gap_pointer_array.c");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.c");
    let o = fix(&["-o", out.to_str().unwrap(), path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let gaps: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("error: gap:"))
        .collect();
    assert_eq!(gaps.len(), 2, "one per argument: {stderr}");
    assert!(
        gaps.iter().all(
            |l| l.contains("`relax` launches kernels in `pingpong_kernels.h`")
                && l.contains("`buf`")
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("`buf` holds pointers"),
        "the reason is said: {stderr}"
    );
    assert!(!out.exists(), "nothing is written while gaps remain");
}

/// One buffer used by kernels under two names (`trees`, `rows`, casts of `data`) and rewritten
/// on the host between them: the synthesis tracks copies per name, so it maps neither and
/// says why (it used to map both at the region's entry, and the second kernel read the data
/// from before the host's rewrite: HeCBench's layout).
#[test]
fn one_buffer_under_two_names_is_not_mapped_per_name() {
    let path = program("gap_two_names_one_buffer.c");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.c");
    let o = fix(&["-o", out.to_str().unwrap(), path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("`rows` and `trees` both point into the data of `data`"),
        "{stderr}"
    );
    assert!(!out.exists(), "nothing is written while gaps remain");
}

/// A kernel in a project header that maps nothing itself is lowered with the header's own
/// directives: `fix` maps the data around its calls (it used to refuse every such call as one
/// it could not see into).
#[test]
fn kernels_in_a_header_are_mapped_around_their_calls() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        program("pingpong_kernels.h"),
        dir.path().join("pingpong_kernels.h"),
    )
    .unwrap();
    let main = dir.path().join("main.c");
    std::fs::write(
        &main,
        "#include <stdio.h>\n#include <stdlib.h>\n#include \"pingpong_kernels.h\"\n\nint main(void) {\n  int n = 512;\n  float *a = malloc(n * sizeof(float));\n  float *b = malloc(n * sizeof(float));\n  for (int i = 0; i < n; i++)\n    a[i] = i;\n  for (int r = 0; r < 4; r++) {\n    relax(a, b, n);\n    relax(b, a, n);\n  }\n  printf(\"%f\\n\", a[7]);\n  free(a);\n  free(b);\n  return 0;\n}\n",
    )
    .unwrap();
    let o = fix(&["-o", "-", main.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains("#pragma omp target data map(tofrom: a[0:n]) map(alloc: b[0:n])"),
        "{stdout}"
    );
}

/// A kernel that reads arrays through a struct's pointer members, mapped by the programmer
/// as `t.idx[:t.n_idx]` (XSBench's `SD.num_nucs[:SD.length_num_nucs]`, RSBench): `--replace`
/// re-mapped only the struct (`map(to: t)`), which copies the pointers and not the data, and
/// wrote that with exit 0 (on a GPU the kernel would follow host addresses). Now it keeps the
/// programmer's maps through the members (data it cannot map itself); plain `fix` too. With no
/// such map at all, the members' data are gaps and nothing is written.
#[test]
fn data_behind_a_structs_pointer_members_is_a_gap_unless_a_clause_maps_it() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("table.c");
    std::fs::write(
        &program,
        "#include <stdio.h>\n#include <stdlib.h>\ntypedef struct {\n  int *idx;\n  double *val;\n  int n_idx, n_val;\n} table;\n#pragma omp declare target\nstatic double lookup(const int *idx, const double *val, int i) { return val[idx[i]]; }\n#pragma omp end declare target\nint main(void) {\n  table t;\n  t.n_idx = 1000;\n  t.n_val = 100;\n  t.idx = malloc(t.n_idx * sizeof(int));\n  t.val = malloc(t.n_val * sizeof(double));\n  for (int i = 0; i < t.n_idx; i++)\n    t.idx[i] = (i * 7) % t.n_val;\n  for (int i = 0; i < t.n_val; i++)\n    t.val[i] = 0.5 * i;\n  int n = t.n_idx;\n  double *out = malloc(n * sizeof(double));\n#pragma omp target teams distribute parallel for map(to: t.idx[:t.n_idx]) map(to: t.val[:t.n_val]) map(from: out[:n])\n  for (int i = 0; i < n; i++)\n    out[i] = lookup(t.idx, t.val, i);\n  double s = 0;\n  for (int i = 0; i < n; i++)\n    s += out[i];\n  printf(\"%.1f\\n\", s);\n  return 0;\n}\n",
    )
    .unwrap();
    let path = program.to_str().unwrap();
    let o = fix(&["--replace", "-o", "-", path]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains("map(to: t.idx[:t.n_idx]) map(to: t.val[:t.n_val])"),
        "{stdout}"
    );
    // Without the programmer's maps through the members: gaps, nothing written.
    let bare = std::fs::read_to_string(&program)
        .unwrap()
        .replace("map(to: t.idx[:t.n_idx]) map(to: t.val[:t.n_val]) ", "");
    std::fs::write(&program, bare).unwrap();
    let o = fix(&["-o", "-", path]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(o.stdout.is_empty(), "nothing written");
    for member in ["t.idx", "t.val"] {
        assert!(
            stderr.contains(&format!(
                "uses the data behind `{member}`, a pointer held in a struct, but no clause maps it through the member"
            )),
            "{stderr}"
        );
    }
    std::fs::write(
        &program,
        std::fs::read_to_string(&program).unwrap().replace(
            "map(from: out[:n])",
            "map(to: t.idx[:t.n_idx]) map(to: t.val[:t.n_val]) map(from: out[:n])",
        ),
    )
    .unwrap();
    let o = fix(&["-o", "-", path]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains("map(to: t.idx[:t.n_idx]) map(to: t.val[:t.n_val])"),
        "{stdout}"
    );
}

/// A function whose kernels pick their device (`device(dev)`, PRK's nstream): a `target
/// data` region omplens writes has no device clause, so it would map on the default device
/// while the kernels run on another, and copy that device's stale data back over their
/// results (PRK's nstream-ua failed validation on device 1 that way). The function is not
/// rewritten, and `--replace` keeps its constructs.
#[test]
fn a_function_whose_constructs_pick_a_device_is_not_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("dev.c");
    let text = "#include <omp.h>\n#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n  int dev = argc > 1 ? atoi(argv[1]) : omp_get_default_device();\n  int n = 1000;\n  double *a = malloc(n * sizeof(double));\n  for (int i = 0; i < n; i++)\n    a[i] = i;\n  for (int it = 0; it < 4; it++) {\n#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) device(dev)\n    for (int i = 0; i < n; i++)\n      a[i] += 1.0;\n  }\n  printf(\"%.1f\\n\", a[10]);\n  free(a);\n  return 0;\n}\n";
    std::fs::write(&program, text).unwrap();
    let path = program.to_str().unwrap();
    for options in [&[][..], &["--replace"][..]] {
        let mut args = options.to_vec();
        args.extend(["-o", "-", path]);
        let o = fix(&args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{options:?}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&o.stdout), text, "{options:?}");
        assert!(
            stderr
                .contains("`main` is not rewritten: its constructs pick a device (`device(dev)`)"),
            "{options:?}: {stderr}"
        );
    }
}
