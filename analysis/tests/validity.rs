//! Host/device validity and true dependencies (OMPDart IV-D) on small programs without
//! data mappings.

mod common;
use common::lower;
use omplens_analysis::ir::{cfg, Module};
use omplens_analysis::semantics::validity::{all_dependencies, Dependency, Direction, Object};

/// (object name, direction, line, loop-carried) for every dependency of `f`.
fn deps(m: &Module, f: &str) -> Vec<(String, Direction, u32, bool)> {
    let (id, func) = m
        .functions
        .iter_enumerated()
        .find(|(_, x)| x.name == f && x.has_body)
        .unwrap();
    all_dependencies(m)[id]
        .iter()
        .map(|d: &Dependency| {
            let name = match &d.object {
                Object::Var(v) => m.var(*v).name.clone(),
                Object::Member(s) => format!("this->{s}"),
                Object::Field(v, s) => format!("{}.{s}", m.var(*v).name),
            };
            let line = m.line_col(func.stmt(d.stmt).span.start).0;
            (name, d.direction, line, d.loop_carried.is_some())
        })
        .collect()
}

use Direction::{ToDevice, ToHost};

#[test]
fn kernel_in_a_time_step_loop() {
    let m = lower(
        "v.c",
        "void f(double *a, int n, int steps) {\n\
         for (int t = 0; t < steps; ++t) {\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 0; i < n; ++i)\n\
             a[i] = a[i] * 0.5 + 1;\n\
         }\n\
         double s = a[0];\n\
         }\n",
    );
    // One copy in before the loop (the back edge brings valid device data) and one out after;
    // the scalar bound is read on the device too (what `firstprivate` satisfies).
    assert_eq!(
        deps(&m, "f"),
        vec![
            ("n".into(), ToDevice, 4, false),
            ("a".into(), ToDevice, 5, false),
            ("a".into(), ToHost, 7, false)
        ]
    );
}

#[test]
fn host_write_inside_the_loop_is_carried_by_the_back_edge() {
    let m = lower(
        "v.c",
        "void f(double *a, int n, int steps) {\n\
         for (int t = 0; t < steps; ++t) {\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 0; i < n; ++i)\n\
             a[i] += 1;\n\
           a[0] = t;\n\
         }\n\
         }\n",
    );
    let d = deps(&m, "f");
    // The kernel's read is stale at every iteration because of the host write after it.
    assert!(d.contains(&("a".into(), ToDevice, 5, true)), "{d:?}");
    // The host writes one element at a fixed index: only that element needs sending, the
    // rest of `a` need not come back first.
    assert!(!d.iter().any(|x| x.1 == ToHost), "{d:?}");
}

#[test]
fn host_reads_between_kernels() {
    let m = lower(
        "v.c",
        "double f(double *a, int n) {\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 0; i < n; ++i) a[i] = i;\n\
           double s = a[1];\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 0; i < n; ++i) a[i] *= 2;\n\
           return s + a[2];\n\
         }\n",
    );
    let d = deps(&m, "f");
    assert_eq!(
        d,
        vec![
            ("n".into(), ToDevice, 3, false),
            ("a".into(), ToHost, 4, false),
            ("a".into(), ToHost, 7, false)
        ],
        "the first kernel only writes a, and the host's read does not make the device stale"
    );
}

#[test]
fn scalar_written_by_a_kernel_and_read_by_the_host() {
    let m = lower(
        "v.c",
        "int f(const int *a, int n) {\n\
           int count = 0;\n\
         #pragma omp target teams distribute parallel for reduction(+: count)\n\
           for (int i = 0; i < n; ++i) count += a[i] > 0;\n\
           return count;\n\
         }\n",
    );
    let d = deps(&m, "f");
    assert!(d.contains(&("a".into(), ToDevice, 4, false)), "{d:?}");
    assert!(d.contains(&("count".into(), ToDevice, 4, false)), "{d:?}");
    assert!(d.contains(&("count".into(), ToHost, 5, false)), "{d:?}");
}

#[test]
fn callee_kernels_count_at_the_call() {
    let m = lower(
        "v.c",
        "static void smooth(double *x, int n) {\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 1; i < n; ++i) x[i] = 0.5 * (x[i] + x[i - 1]);\n\
         }\n\
         double g(double *y, int n) {\n\
           y[0] = 3;\n\
           smooth(y, n);\n\
           return y[n - 1];\n\
         }\n",
    );
    assert_eq!(
        deps(&m, "g"),
        vec![
            ("y".into(), ToDevice, 7, false),
            ("y".into(), ToHost, 8, false)
        ]
    );
}

#[test]
fn functions_without_kernels_have_no_dependencies() {
    let m = lower("v.c", "double f(double *a, int n) { double s = 0; for (int i = 0; i < n; ++i) s += a[i]; return s; }\n");
    assert!(deps(&m, "f").is_empty());
    let _ = cfg::Exec::Host;
}

#[test]
fn carried_dependency_is_found_even_when_also_stale_on_entry() {
    // `x` is written on the host before the loop *and* inside it: the kernel's read needs a
    // copy in every iteration, which the back edge causes.
    let m = lower(
        "v.c",
        "void f(double *x, double *y, int n, int steps) {\n\
         for (int i = 0; i < n; ++i) x[i] = 0;\n\
         for (int t = 0; t < steps; ++t) {\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 0; i < n; ++i)\n\
             y[i] = x[i] * 2;\n\
           for (int i = 0; i < n; ++i) x[i] = y[i] + 1;\n\
         }\n\
         }\n",
    );
    let d = deps(&m, "f");
    assert!(d.contains(&("x".into(), ToDevice, 6, true)), "{d:?}");
    // y is written by the kernel and read by the host in the same iteration: a copy inside the
    // loop, but not one carried around the back edge.
    assert!(d.contains(&("y".into(), ToHost, 7, false)), "{d:?}");
}

#[test]
fn a_host_write_of_a_range_needs_the_rest_back_first() {
    let m = lower(
        "v.c",
        "void f(double *a, int n, int steps) {\n\
         for (int t = 0; t < steps; ++t) {\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 0; i < n; ++i)\n\
             a[i] += 1;\n\
           for (int i = 0; i < 4; ++i) a[i] = t;\n\
         }\n\
         }\n",
    );
    let d = deps(&m, "f");
    // Four elements written in a host loop: a partial write of data last written on the device.
    assert!(d.contains(&("a".into(), ToHost, 6, false)), "{d:?}");
}

#[test]
fn a_kernel_that_overwrites_everything_needs_no_copy_in() {
    let m = lower(
        "v.c",
        "void f(double *a, double *b, int n) {\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 0; i < n; ++i) a[i] = i;\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 1; i < n; ++i) b[i] = a[i];\n\
         #pragma omp target teams distribute parallel for\n\
           for (int i = 0; i < n; ++i) b[i] += a[i];\n\
         }\n",
    );
    let d = deps(&m, "f");
    // `a` is written whole by the first kernel; `b` only from 1 while the kernels use b[0].
    assert!(!d.iter().any(|x| x.0 == "a"), "{d:?}");
    assert!(d.contains(&("b".into(), ToDevice, 5, false)), "{d:?}");
}
