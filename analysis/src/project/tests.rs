use super::*;

/// A project of `files` (name, text) with a compile database naming each, in a new
/// temporary directory.
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut entries = Vec::new();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        entries.push(serde_json::json!({
            "directory": dir.path().display().to_string(),
            "file": name,
            "command": format!("clang -fopenmp -c {name}"),
        }));
    }
    std::fs::write(
        dir.path().join("compile_commands.json"),
        serde_json::to_string(&entries).unwrap(),
    )
    .unwrap();
    dir
}

/// `name` lowered with its flags from the project's database (`-fopenmp` taken out, as the
/// front end needs: with it, libclang hides the bodies of directives).
fn lowered(dir: &Path, name: &str) -> Module {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let args = crate::frontend::flags::flags_for(&path, None, &["-fopenmp".to_string()])
        .unwrap()
        .args;
    crate::frontend::lower_file(&path, Some(&text), &args).unwrap()
}

fn external<'m>(m: &'m Module, name: &str) -> Option<&'m ExternalSummary> {
    m.functions
        .iter()
        .find(|f| f.name == name)
        .and_then(|f| f.external.as_deref())
}

const MAIN: &str = "void scale(double *v, int n);\nvoid launch(double *v, int n);\nstatic void local(double *v);\nextern double total;\nint main(void) {\n  double v[8] = {0};\n  scale(v, 8);\n  launch(v, 8);\n  return (int)total;\n}\n";

const UTIL: &str = "double total;\nvoid scale(double *v, int n) {\n  for (int i = 0; i < n; i++) {\n    v[i] *= 2.0;\n    total += v[i];\n  }\n}\nvoid launch(double *v, int n) {\n#pragma omp target teams distribute parallel for map(tofrom: v[0:n])\n  for (int i = 0; i < n; i++)\n    v[i] += 1.0;\n}\nstatic void local(double *v) { v[0] = 1.0; }\n";

#[test]
fn a_definition_in_another_file_of_the_database_gives_the_summary() {
    let dir = project(&[("main.c", MAIN), ("util.c", UTIL)]);
    let mut m = lowered(dir.path(), "main.c");
    let read = attach_with_cache(&mut m, None);
    assert_eq!(read.len(), 1, "{read:?}");
    let s = external(&m, "scale").expect("scale is read from util.c");
    assert!(s.file.ends_with("util.c"), "{}", s.file);
    assert!(s.params[0].here_read && s.params[0].here_write, "{s:?}");
    assert!(!s.params[0].kernel_read && !s.params[0].opaque, "{s:?}");
    assert!(s.globals["total"].here_write, "{s:?}");
    // Its globals are this file's of the same name.
    let sums = crate::semantics::effects::summarize(&m);
    let (id, _) = m
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.name == "scale")
        .unwrap();
    assert_eq!(sums[id].globals.len(), 1);
    assert!(!m.functions[id].unseen());
}

#[test]
fn a_function_that_launches_kernels_is_known_as_such_and_a_static_one_not_at_all() {
    let dir = project(&[("main.c", MAIN), ("util.c", UTIL)]);
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, None);
    let launch = m.functions.iter().find(|f| f.name == "launch").unwrap();
    assert!(launch.unseen(), "its mappings stay unseen");
    assert_eq!(launch.launches_in_file(), Some("util.c"));
    // What its kernel does is known.
    let s = external(&m, "launch").unwrap();
    assert!(s.params[0].kernel_read && s.params[0].kernel_write, "{s:?}");
    assert!(!s.params[0].here_read && !s.params[0].here_write, "{s:?}");
    assert!(external(&m, "local").is_none(), "static in util.c");
}

/// Data present on the device, handed to a function of another file that launches kernels,
/// then copied back (`update from`, or the region's `from` at its end) before the host reads
/// it (HeCBench's convolutionSeparable, dct8x8, rsc and others): the call acts on the device
/// copy, and the copy back brings its result. (Before, the call counted as a host write that
/// the copy back then overwrote: OMP101 at the read.) Its kernels are known by what they
/// touch: `dir`, a pointer to non-const data they only read, is not copied back and needs
/// not be (sobol).
#[test]
fn a_launcher_of_another_file_acts_on_the_device_copy() {
    let main = "int printf(const char *, ...);\nvoid launch(int *flag);\nvoid gen(unsigned *dir, float *out);\nint main(void) {\n  int flag[1] = {0};\n#pragma omp target data map(to: flag[0:1])\n  {\n    launch(flag);\n#pragma omp target update from(flag[0:1])\n    printf(\"%d\\n\", flag[0]);\n  }\n  unsigned dir[4] = {1, 2, 3, 4};\n  float out[4];\n#pragma omp target data map(to: dir[0:4]) map(from: out[0:4])\n  gen(dir, out);\n  printf(\"%u %f\\n\", dir[0], out[0]);\n  return 0;\n}\n";
    let launcher = "void launch(int *flag) {\n#pragma omp target\n  flag[0] = 1;\n}\nvoid gen(unsigned *dir, float *out) {\n#pragma omp target teams distribute parallel for\n  for (int i = 0; i < 4; i++)\n    out[i] = dir[i];\n}\n";
    let findings = |files: &[(&str, &str)]| {
        let dir = project(files);
        let mut m = lowered(dir.path(), "main.c");
        attach_with_cache(&mut m, None);
        crate::check::check(&m, main)
            .into_iter()
            .map(|f| format!("{:?} {}", f.code, f.message))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        findings(&[("main.c", main), ("launch.c", launcher)]),
        Vec::<String>::new()
    );
    // Host functions of those names instead: their writes are the host's, and the copies
    // back then overwrite them (the findings this program deserves).
    let host = "void launch(int *flag) { flag[0] = 1; }\nvoid gen(unsigned *dir, float *out) {\n  for (int i = 0; i < 4; i++)\n    out[i] = dir[i];\n}\n";
    let got = findings(&[("main.c", main), ("launch.c", host)]);
    assert!(
        got.iter().any(|f| f.starts_with("OMP101 `flag`")),
        "{got:?}"
    );
    assert!(got.iter().any(|f| f.starts_with("OMP101 `out`")), "{got:?}");
}

#[test]
fn a_name_two_files_define_is_left_unseen() {
    let other = UTIL.replace("v[i] *= 2.0;", "v[i] = 0.0;");
    let dir = project(&[("main.c", MAIN), ("util.c", UTIL), ("util2.c", &other)]);
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, None);
    assert!(external(&m, "scale").is_none());
}

#[test]
fn without_a_database_nothing_is_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.c"), MAIN).unwrap();
    std::fs::write(dir.path().join("util.c"), UTIL).unwrap();
    let mut m = lowered(dir.path(), "main.c");
    assert!(attach_with_cache(&mut m, None).is_empty());
    assert!(external(&m, "scale").is_none());
}

#[test]
fn the_disk_cache_is_used_and_follows_the_defining_files_text() {
    let dir = project(&[("main.c", MAIN), ("util.c", UTIL)]);
    let cache = tempfile::tempdir().unwrap();
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, Some(cache.path()));
    let entries = || std::fs::read_dir(cache.path()).unwrap().count();
    assert_eq!(entries(), 1, "one entry for util.c");
    // A new text of util.c is a new key: its summary is computed again, and says so.
    let reads_only = UTIL.replace("v[i] *= 2.0;", "total += 0.0;");
    std::fs::write(dir.path().join("util.c"), reads_only).unwrap();
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, Some(cache.path()));
    assert_eq!(entries(), 2);
    let s = external(&m, "scale").unwrap();
    assert!(s.params[0].here_read && !s.params[0].here_write, "{s:?}");
    // A corrupt entry is recomputed, not trusted.
    for e in std::fs::read_dir(cache.path()).unwrap() {
        std::fs::write(e.unwrap().path(), "{ not json").unwrap();
    }
    let mut m = lowered(dir.path(), "main.c");
    memory().lock().unwrap().clear();
    attach_with_cache(&mut m, Some(cache.path()));
    assert!(external(&m, "scale").is_some());
}

#[test]
fn a_file_that_only_calls_the_function_is_not_parsed() {
    // A second driver that calls `scale` and `launch` too (a copy of the program, another
    // benchmark of the directory): reading it cannot give their summaries.
    let other = "void scale(double *v, int n);\nvoid launch(double *v, int n);\nint run(void) {\n  double w[4] = {0};\n  if (w[0] == 0) { scale(w, 4); }\n  launch(w, 4);\n  return 0;\n}\n";
    let dir = project(&[("main.c", MAIN), ("other.c", other), ("util.c", UTIL)]);
    let mut m = lowered(dir.path(), "main.c");
    let read = attach_with_cache(&mut m, None);
    assert_eq!(read.len(), 1, "{read:?}");
    assert!(read[0].ends_with("util.c"), "{read:?}");
    assert!(external(&m, "scale").is_some());
}

/// A record declared in a header, filled in `init.c`, read by kernels in `main.c`.
const TABLE_H: &str = "typedef struct { double *vals; long n_vals; } table;\ntable make(long n);\n";

const TABLE_MAIN: &str = "#include \"table.h\"\ndouble run(table t) {\n  const double *v = t.vals;\n  double s = 0;\n#pragma omp target teams distribute parallel for reduction(+: s)\n  for (int i = 0; i < 8; i++) s += v[i];\n  return s;\n}\n";

const TABLE_INIT: &str = "#include <stdlib.h>\n#include \"table.h\"\ntable make(long n) {\n  table t;\n  t.n_vals = n;\n  t.vals = (double *)malloc(t.n_vals * sizeof(double));\n  return t;\n}\n";

fn table_project(extra: &[(&str, &str)]) -> tempfile::TempDir {
    let mut files = vec![("main.c", TABLE_MAIN), ("init.c", TABLE_INIT)];
    files.extend_from_slice(extra);
    let dir = project(&files);
    std::fs::write(dir.path().join("table.h"), TABLE_H).unwrap();
    dir
}

fn member_lengths_of(dir: &Path) -> BTreeMap<(String, String), (String, i64)> {
    let mut m = lowered(dir, "main.c");
    attach_with_cache(&mut m, None);
    members::attach_with_cache(&mut m, TABLE_MAIN, None);
    m.member_lengths
}

#[test]
fn a_member_length_comes_from_the_stores_of_another_file() {
    let dir = table_project(&[]);
    let got = member_lengths_of(dir.path());
    assert_eq!(
        got.get(&("table".to_string(), "vals".to_string())),
        Some(&("n_vals".to_string(), 8))
    );
}

#[test]
fn a_file_that_changes_the_length_alone_breaks_the_member_length() {
    let grow = "#include \"table.h\"\nvoid grow(table *t) { t->n_vals = 2 * t->n_vals; }\n";
    let dir = table_project(&[("grow.c", grow)]);
    assert!(member_lengths_of(dir.path()).is_empty());
}

#[test]
fn without_a_database_a_record_of_a_header_gets_no_member_length() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("main.c", TABLE_MAIN),
        ("init.c", TABLE_INIT),
        ("table.h", TABLE_H),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    assert!(member_lengths_of(dir.path()).is_empty());
}

/// A function of another file that copies back itself what its kernel wrote (`target update
/// from` of data its caller mapped; HeCBench's keccaktreehash, radixsort): the caller's host
/// read after the call reads valid data. Without that update the read is stale (a warning,
/// since how the callee maps is not known here).
#[test]
fn a_launcher_of_another_file_that_copies_back_leaves_the_host_valid() {
    let main = "int printf(const char *, ...);\nvoid hash(float *out);\nint main(void) {\n  float out[4];\n#pragma omp target data map(alloc: out[0:4])\n  {\n    hash(out);\n    printf(\"%f\\n\", out[0]);\n  }\n  return 0;\n}\n";
    let launcher = |update: &str| {
        format!("void hash(float *out) {{\n#pragma omp target teams distribute parallel for\n  for (int i = 0; i < 4; i++)\n    out[i] = i;\n{update}}}\n")
    };
    let findings = |callee: &str| {
        let dir = project(&[("main.c", main), ("hash.c", callee)]);
        let mut m = lowered(dir.path(), "main.c");
        attach_with_cache(&mut m, None);
        let s = external(&m, "hash").expect("hash is read from hash.c");
        assert!(s.launches, "{s:?}");
        crate::check::check(&m, main)
            .into_iter()
            .map(|f| format!("{:?} {}", f.code, f.message))
            .collect::<Vec<_>>()
    };
    let copies_back = launcher("#pragma omp target update from(out[0:4])\n");
    assert_eq!(findings(&copies_back), Vec::<String>::new());
    let got = findings(&launcher(""));
    assert!(got.iter().any(|f| f.starts_with("OMP101 `out`")), "{got:?}");
}

/// What lets `check` skip a file that names no OpenMP (`frontend::may_hold_openmp`): the
/// kernels and mappings of other files act on what the file's own constructs map, and are
/// never reported in a file that has none. Here the callees enter data, launch a kernel on
/// it and leave it mapped, and the caller reads its stale host copy: nothing is reported in
/// the caller. A change that reports such a read must make that skip look across files too.
#[test]
fn a_caller_without_openmp_gets_no_finding_from_other_files_kernels() {
    let main = "int printf(const char *, ...);\nvoid init(double *a, int n);\nvoid compute(double *a, int n);\nint main(void) {\n  double a[100];\n  for (int i = 0; i < 100; i++)\n    a[i] = i;\n  init(a, 100);\n  compute(a, 100);\n  printf(\"%f\\n\", a[5]);\n  return 0;\n}\n";
    let kernels = "void init(double *a, int n) {\n#pragma omp target enter data map(to: a[0:n])\n}\nvoid compute(double *a, int n) {\n#pragma omp target teams distribute parallel for\n  for (int i = 0; i < n; i++)\n    a[i] *= 2.0;\n}\n";
    let dir = project(&[("main.c", main), ("kernels.c", kernels)]);
    let path = dir.path().join("main.c");
    assert!(!crate::frontend::may_hold_openmp(&path, main, &[]));
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, None);
    assert!(external(&m, "compute").is_some_and(|s| s.launches));
    let got: Vec<String> = crate::check::check(&m, main)
        .into_iter()
        .map(|f| format!("{:?} {}", f.code, f.message))
        .collect();
    assert_eq!(got, Vec::<String>::new());
}

/// `main.c` calls `solve` of `mid.c`, which calls `step` of `kern.c`, which launches a
/// kernel on what its argument's member points to.
const CHAIN_MAIN: &str = "typedef struct { double *u; int n; } grid;\nvoid solve(grid *g);\nint main(void) {\n  grid g = {0, 0};\n  solve(&g);\n  return 0;\n}\n";
const CHAIN_MID: &str = "typedef struct { double *u; int n; } grid;\nvoid step(grid *g);\nvoid solve(grid *g) {\n  for (int t = 0; t < 4; t++)\n    step(g);\n}\n";
const CHAIN_KERN: &str = "typedef struct { double *u; int n; } grid;\nstatic void scale(double *u, int n) {\n#pragma omp target teams distribute parallel for\n  for (int i = 0; i < n; i++)\n    u[i] *= 2.0;\n}\nvoid step(grid *g) { scale(g->u, g->n); }\n";

#[test]
fn a_function_calling_a_launcher_of_a_third_file_is_a_launcher() {
    let dir = project(&[
        ("main.c", CHAIN_MAIN),
        ("mid.c", CHAIN_MID),
        ("kern.c", CHAIN_KERN),
    ]);
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, None);
    let s = external(&m, "solve").expect("solve is read from mid.c");
    // (Before, `step` was a prototype in mid.c: `solve` looked like host code.)
    assert!(s.launches, "{s:?}");
    let u = &s.members["u"];
    assert!(u.kernel_read && u.kernel_write, "{s:?}");
}

#[test]
fn a_summary_made_with_a_third_file_follows_that_files_text() {
    let dir = project(&[
        ("main.c", CHAIN_MAIN),
        ("mid.c", CHAIN_MID),
        ("kern.c", CHAIN_KERN),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, Some(cache.path()));
    assert!(external(&m, "solve").unwrap().launches);
    // kern.c's kernel becomes host code: mid.c's text is the same, its summary is not.
    let host = CHAIN_KERN.replace("#pragma omp target teams distribute parallel for\n", "");
    std::fs::write(dir.path().join("kern.c"), host).unwrap();
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, Some(cache.path()));
    let s = external(&m, "solve").unwrap();
    assert!(!s.launches, "{s:?}");
    assert!(!s.members.get("u").is_some_and(|u| u.kernel_write), "{s:?}");
    // And back: kern.c launches again, which mid.c's entry (made without following its
    // calls, no OpenMP being in reach) must see.
    std::fs::write(dir.path().join("kern.c"), CHAIN_KERN).unwrap();
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, Some(cache.path()));
    assert!(external(&m, "solve").unwrap().launches);
}

#[test]
fn files_that_call_each_other_are_summarised_without_looping() {
    let a = "void pong(double *v, int n);\nvoid ping(double *v, int n) {\n  if (n > 0)\n    pong(v, n - 1);\n}\n";
    let b = "void ping(double *v, int n);\nvoid pong(double *v, int n) {\n  v[n] = 1.0;\n  ping(v, n);\n}\n";
    let main = "void ping(double *v, int n);\nint main(void) {\n  double v[4];\n  ping(v, 3);\n  return (int)v[0];\n}\n";
    let dir = project(&[("main.c", main), ("a.c", a), ("b.c", b)]);
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, None);
    let s = external(&m, "ping").expect("ping is read from a.c");
    assert!(s.params[0].here_write, "through pong of b.c: {s:?}");
}

#[test]
fn a_file_built_in_the_same_directory_is_read_though_it_lies_elsewhere() {
    // A CMake build: every entry runs in the build directory, the sources in siblings.
    let dir = project(&[
        ("src/main.c", MAIN.replace("launch(v, 8);", "").as_str()),
        ("lib/util.c", UTIL),
    ]);
    let mut m = lowered(dir.path(), "src/main.c");
    attach_with_cache(&mut m, None);
    assert!(external(&m, "scale").is_some_and(|s| s.file.ends_with("util.c")));
}

#[test]
fn a_function_that_fills_a_buffer_before_reading_it_says_so() {
    let fill = "void reference(const double *in, double *tmp, double *out, int n) {\n  for (int i = 0; i < n; i++)\n    tmp[i] = 2.0 * in[i];\n  for (int i = 0; i < n; i++)\n    out[i] = tmp[i] + tmp[n - 1 - i];\n}\n";
    let main = "void reference(const double *in, double *tmp, double *out, int n);\nint main(void) {\n  double a[4] = {0}, t[4], o[4];\n  reference(a, t, o, 4);\n  return (int)o[0];\n}\n";
    let dir = project(&[("main.c", main), ("ref.c", fill), ("util.c", UTIL)]);
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, None);
    let s = external(&m, "reference").unwrap();
    assert_eq!(s.writes_first, [false, true, true, false], "{s:?}");
}

/// A host reference of another file given a buffer a kernel wrote and did not copy back
/// (HeCBench's boxfilter: `BoxFilterHost(in, tmp, ...)` after the region mapped `tmp` with
/// `to`): it fills `tmp` before it reads it, which its summary cannot say for sure, so the
/// stale read is a warning that says why; one that reads first (`normalize`) is an error.
#[test]
fn a_stale_read_by_a_function_that_writes_first_is_not_certain() {
    let main = "void reference(double *tmp, int n);\nvoid normalize(double *v, int n);\nint main(void) {\n  double t[8] = {0}, v[8] = {0};\n#pragma omp target data map(to: t[0:8], v[0:8])\n  {\n#pragma omp target teams distribute parallel for\n    for (int i = 0; i < 8; i++) {\n      t[i] = i;\n      v[i] = i;\n    }\n  }\n  reference(t, 8);\n  normalize(v, 8);\n  return (int)(t[0] + v[0]);\n}\n";
    let other = "void reference(double *tmp, int n) {\n  for (int i = 0; i < n; i++)\n    tmp[i] = 1.0;\n  for (int i = 1; i < n; i++)\n    tmp[i] += tmp[i - 1];\n}\nvoid normalize(double *v, int n) {\n  double s = 0.0;\n  for (int i = 0; i < n; i++)\n    s += v[i];\n  for (int i = 0; i < n; i++)\n    v[i] /= s;\n}\n";
    let dir = project(&[("main.c", main), ("other.c", other)]);
    let mut m = lowered(dir.path(), "main.c");
    attach_with_cache(&mut m, None);
    let got: Vec<String> = crate::check::check(&m, main)
        .into_iter()
        .filter(|f| f.code == crate::check::Code::OMP101)
        .map(|f| {
            format!(
                "{} {:?} {}",
                m.line_col(f.span.start).0,
                f.severity,
                f.message
            )
        })
        .collect();
    assert_eq!(got.len(), 2, "{got:#?}");
    assert!(
        got[0].starts_with("13 Warning")
            && got[0].contains("`reference` (in `other.c`) also writes it there"),
        "{got:#?}"
    );
    assert!(got[1].starts_with("14 Error"), "{got:#?}");
}
