//! Lengths of the arrays behind struct members, read from the members stored beside them
//! (`semantics::member_lengths`), on small programs: what pairs, and what breaks a pair.

mod common;
use omplens_analysis::ir::Module;
use omplens_analysis::semantics::allocation::{decode, encode, returned_bytes};
use omplens_analysis::semantics::member_lengths::{evidence, infer};
use omplens_analysis::semantics::symbolic::Poly;

fn lower(text: &str) -> Module {
    common::lower("t.c", text)
}

fn infer_in(text: &str, field: &str) -> Option<(String, i64)> {
    let m = lower(text);
    let e = evidence(&m);
    infer(&[&e], "Data", field)
}

const HEAD: &str = "#include <stdlib.h>\n#include <stdio.h>\ntypedef struct { int *counts; long n_counts; double *vals; long n_vals; int width; int *grid; long n_grid; } Data;\n";

#[test]
fn a_length_stored_beside_its_allocation_pairs_them() {
    let text = format!(
        "{HEAD}Data make(long n) {{\n  Data d;\n  d.n_vals = n * 2;\n  d.vals = (double *)malloc(d.n_vals * sizeof(double));\n  return d;\n}}\n"
    );
    assert_eq!(infer_in(&text, "vals"), Some(("n_vals".into(), 8)));
}

#[test]
fn an_allocation_returned_by_a_function_pairs_with_a_constant_length() {
    let text = format!(
        "{HEAD}int *load(long k) {{\n  int *c = (int *)malloc(12 * sizeof(int));\n  for (int i = 0; i < 12; i++) c[i] = i + (int)k;\n  return c;\n}}\n\
         int *grid_of(int *w) {{\n  int rows = 12;\n  *w = 0;\n  for (int i = 0; i < 5; i++) if (i > *w) *w = i;\n  int *g = (int *)malloc(rows * (*w) * sizeof(int));\n  return g;\n}}\n\
         Data make(long k) {{\n  Data d;\n  d.counts = load(k);\n  d.n_counts = 12;\n  d.grid = grid_of(&d.width);\n  d.n_grid = d.n_counts * d.width;\n  return d;\n}}\n"
    );
    let m = lower(&text);
    let load = m
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.name == "load")
        .unwrap()
        .0;
    assert_eq!(
        returned_bytes(&m, load).map(|p| p.to_string()),
        Some("48".into())
    );
    let grid = m
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.name == "grid_of")
        .unwrap()
        .0;
    assert_eq!(
        returned_bytes(&m, grid).map(|p| p.to_string()),
        Some("48 * *w".into())
    );
    let e = evidence(&m);
    assert_eq!(infer(&[&e], "Data", "counts"), Some(("n_counts".into(), 4)));
    assert_eq!(infer(&[&e], "Data", "grid"), Some(("n_grid".into(), 4)));
}

#[test]
fn a_length_that_disagrees_with_the_allocation_pairs_nothing() {
    let text = format!(
        "{HEAD}Data make(long n) {{\n  Data d;\n  d.n_vals = n;\n  d.vals = (double *)malloc((n + 1) * sizeof(double));\n  return d;\n}}\n"
    );
    assert_eq!(infer_in(&text, "vals"), None);
}

#[test]
fn a_length_changed_alone_elsewhere_breaks_the_pair() {
    let good = "Data make(long n) {\n  Data d;\n  d.n_vals = n;\n  d.vals = (double *)malloc(d.n_vals * sizeof(double));\n  return d;\n}\n";
    for other in [
        "void grow(Data *d) { d->n_vals = 2 * d->n_vals; }\n",
        "void grow(Data *d) { d->n_vals += 1; }\n",
        "void grow(Data *d) { long *p = &d->n_vals; *p = 9; }\n",
        "void grow(Data *d, Data *a) { a[0].n_vals = 9; }\n",
    ] {
        let text = format!("{HEAD}{good}{other}");
        assert_eq!(infer_in(&text, "vals"), None, "{other}");
    }
    // Set to 0 alone: a shrink, harmless.
    let text = format!("{HEAD}{good}void empty(Data *d) {{ d->n_vals = 0; }}\n");
    assert_eq!(infer_in(&text, "vals"), Some(("n_vals".into(), 8)));
}

#[test]
fn an_object_read_whole_from_a_file_keeps_the_pair_only_when_the_pointer_is_allocated_again() {
    let restored = format!(
        "{HEAD}Data read_it(FILE *fp) {{\n  Data d;\n  fread(&d, sizeof(Data), 1, fp);\n  d.vals = (double *)malloc(d.n_vals * sizeof(double));\n  return d;\n}}\n"
    );
    assert_eq!(infer_in(&restored, "vals"), Some(("n_vals".into(), 8)));
    let raw = format!(
        "{HEAD}Data make(long n) {{\n  Data d;\n  d.n_vals = n;\n  d.vals = (double *)malloc(d.n_vals * sizeof(double));\n  return d;\n}}\nData read_it(FILE *fp) {{\n  Data d;\n  fread(&d, sizeof(Data), 1, fp);\n  return d;\n}}\n"
    );
    assert_eq!(infer_in(&raw, "vals"), None);
}

#[test]
fn a_pair_set_in_a_branch_holds_when_every_branch_pairs_it() {
    let text = format!(
        "{HEAD}void prep(Data *d, int kind, long n) {{\n  if (kind == 0) {{\n    d->n_grid = 0;\n  }}\n  if (kind == 1) {{\n    d->n_grid = n;\n    d->grid = (int *)malloc(d->n_grid * sizeof(int));\n  }} else {{\n    d->n_grid = 1;\n    d->grid = (int *)malloc(sizeof(int));\n  }}\n}}\n"
    );
    assert_eq!(infer_in(&text, "grid"), Some(("n_grid".into(), 4)));
}

#[test]
fn summaries_travel_as_encoded_polynomials() {
    let p = Poly::atom("n")
        .mul(&Poly::atom("*w"))
        .scale(8)
        .add(&Poly::constant(4));
    assert_eq!(decode(&encode(&p)), p);
}
