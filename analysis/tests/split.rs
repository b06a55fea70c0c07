//! `check::env::split`: which struct variables the checker follows member by member, and which
//! arrays of pointers apart from their rows.

mod common;

use omplens_analysis::check::env::split::{split_rows, split_structs};

fn split_names(src: &str) -> Vec<String> {
    names_by(src, split_structs)
}

fn row_names(src: &str) -> Vec<String> {
    names_by(src, split_rows)
}

fn names_by(
    src: &str,
    split: fn(
        &omplens_analysis::ir::Module,
        omplens_analysis::ir::FuncId,
    ) -> std::collections::HashSet<omplens_analysis::ir::VarId>,
) -> Vec<String> {
    let module = common::lower("split.c", src);
    let main = module
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.name == "main")
        .map(|(id, _)| id)
        .expect("main");
    let mut names: Vec<String> = split(&module, main)
        .into_iter()
        .map(|v| module.var(v).name.clone())
        .collect();
    names.sort();
    names
}

const HEAD: &str = "typedef struct { double x[8]; double y[8]; int n; } grid_t;\n";

#[test]
fn members_mapped_apart_split_the_variable() {
    let src = format!(
        "{HEAD}int main(void) {{ grid_t g; g.n = 8;\n\
         #pragma omp target map(to: g.x) map(from: g.y[0:8])\n\
         for (int i = 0; i < 8; i++) g.y[i] = g.x[i];\n\
         return (int)g.y[1]; }}\n"
    );
    assert_eq!(split_names(&src), ["g"]);
}

#[test]
fn a_whole_use_keeps_the_variable_whole() {
    for body in [
        // mapped whole somewhere
        "#pragma omp target map(to: g.x) map(from: g.y)\n g.y[0] = g.x[0];\n\
         #pragma omp target map(tofrom: g)\n g.y[1] = 1;\n",
        // passed whole
        "#pragma omp target map(to: g.x) map(from: g.y)\n g.y[0] = g.x[0];\n use(&g);\n",
        // a pointer into a member
        "double *p = g.x;\n#pragma omp target map(to: g.x) map(from: g.y)\n g.y[0] = p[0];\n",
        // a kernel uses a member no map item names
        "#pragma omp target map(to: g.x) map(from: g.y)\n g.y[0] = g.x[0] + g.n;\n",
    ] {
        let src = format!(
            "{HEAD}void use(grid_t *);\nint main(void) {{ grid_t g; g.n = 1;\n{body}\
             return 0; }}\n"
        );
        assert!(split_names(&src).is_empty(), "{body}");
    }
}

#[test]
fn a_global_splits_only_where_no_other_function_shares_its_view() {
    let kernel = "#pragma omp target map(to: g.x) map(from: g.y)\n g.y[0] = g.x[0];\n";
    let alone = format!("{HEAD}grid_t g;\nint main(void) {{\n{kernel} return 0; }}\n");
    assert_eq!(split_names(&alone), ["g"]);
    let calls = format!(
        "{HEAD}grid_t g;\nvoid step(void) {{ g.x[0] += 1; }}\n\
         int main(void) {{\n{kernel} step(); return 0; }}\n"
    );
    assert!(split_names(&calls).is_empty());
}

/// A struct passed by value is the function's own copy: split like a local where no caller in
/// the file gives it a context.
#[test]
fn a_parameter_by_value_splits_where_no_caller_of_the_file_reaches_it() {
    let run = "void run(grid_t g) {\n\
               #pragma omp target map(to: g.x) map(from: g.y)\n g.y[0] = g.x[0];\n}\n";
    let names = |src: &str| {
        let module = common::lower("split.c", src);
        let (id, _) = module
            .functions
            .iter_enumerated()
            .find(|(_, f)| f.name == "run" && f.has_body)
            .expect("run");
        split_structs(&module, id)
            .into_iter()
            .map(|v| module.var(v).name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&format!("{HEAD}{run}")), ["g"]);
    let called = format!("{HEAD}{run}int main(void) {{ grid_t g = {{0}}; run(g); return 0; }}\n");
    assert!(names(&called).is_empty());
}

const ROWS_HEAD: &str = "#include <stdlib.h>\nvoid use(double *);\nint main(void) {\n\
    double *p[4];\n#pragma omp target enter data map(alloc: p[0:4])\n\
    for (int i = 0; i < 4; i++) { p[i] = malloc(64);\n\
    #pragma omp target enter data map(to: p[i][0:8])\n }\n";

#[test]
fn rows_mapped_one_by_one_split_the_array_of_pointers() {
    let body = "#pragma omp target\n p[1][2] = 3;\n\
        if (p[0] != 0) free(p[0]);\n";
    assert_eq!(
        row_names(&format!("{ROWS_HEAD}{body} return 0; }}\n")),
        ["p"]
    );
}

#[test]
fn a_row_pointer_that_escapes_keeps_the_array_whole() {
    for body in [
        // copied into a local: its accesses would not be the rows'
        "double *row = p[1];\n row[0] = 1;\n",
        // passed to a function of the program
        "use(p[1]);\n",
        // the array itself passed
        "void *q = p;\n",
        // pointer arithmetic on a row pointer
        "*(p[1] + 2) = 0;\n",
    ] {
        let src = format!("{ROWS_HEAD}{body} return 0; }}\n");
        assert!(row_names(&src).is_empty(), "{body}");
    }
}

#[test]
fn rows_without_the_array_mapped_are_not_split() {
    // Nothing maps `p` itself: whether its device copy points at the rows is not followed.
    let src = "#include <stdlib.h>\nint main(void) { double *p[4];\n\
        for (int i = 0; i < 4; i++) { p[i] = malloc(64);\n\
        #pragma omp target enter data map(to: p[i][0:8])\n }\n return 0; }\n";
    assert!(row_names(src).is_empty());
}
