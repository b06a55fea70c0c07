//! The rewriter on small C snippets: each case renders insertions, applies the edits and
//! compares the result with a snapshot (`UPDATE_EXPECT=1 cargo test` refreshes them). Every
//! case also checks the edits (sorted, non-overlapping), that no trailing blanks were added,
//! and, where clang-19 is installed, that the snippet and its rewrite both compile.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use expect_test::{expect, Expect};
use omplens_analysis::pragma::Span;
use omplens_analysis::rewrite::{render, Anchor, Clause, Insertion, Side};
use omplens_analysis::text::{apply, unified_diff, TextEdit};

// ---------------------------------------------------------------- helpers

/// Span of the `n`-th (0-based) occurrence of `pat`.
fn span_n(src: &str, pat: &str, n: usize) -> Span {
    let start = src
        .match_indices(pat)
        .nth(n)
        .unwrap_or_else(|| panic!("`{pat}` #{n} not in the snippet"))
        .0;
    Span::new(start as u32, (start + pat.len()) as u32)
}

fn span(src: &str, pat: &str) -> Span {
    span_n(src, pat, 0)
}

/// A statement directly in a `{ }` block.
fn stmt(src: &str, pat: &str) -> Anchor {
    Anchor {
        stmt: span(src, pat),
        in_compound: true,
    }
}

/// A statement that is the unbraced body of a control statement.
fn body(src: &str, pat: &str) -> Anchor {
    Anchor {
        stmt: span(src, pat),
        in_compound: false,
    }
}

fn clause(name: &str, modifier: Option<&str>, items: &[&str]) -> Clause {
    Clause {
        name: name.into(),
        modifier: modifier.map(Into::into),
        items: items.iter().map(|s| s.to_string()).collect(),
    }
}

fn map(kind: &str, items: &[&str]) -> Clause {
    clause("map", Some(kind), items)
}

fn to(items: &[&str]) -> Clause {
    clause("to", None, items)
}

fn from(items: &[&str]) -> Clause {
    clause("from", None, items)
}

fn update(anchor: Anchor, side: Side, clauses: Vec<Clause>) -> Insertion {
    Insertion::Standalone {
        anchor,
        side,
        directive: "target update".into(),
        clauses,
    }
}

fn region(first: Anchor, last: Anchor, clauses: Vec<Clause>) -> Insertion {
    Insertion::DataRegion {
        first,
        last,
        clauses,
    }
}

fn clang() -> Option<&'static str> {
    let path = "/usr/bin/clang-19";
    std::path::Path::new(path).exists().then_some(path)
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "omplens-rewrite-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `Ok` when clang accepts the C text (OpenMP on, misleading indentation an error), `Err`
/// with its diagnostics otherwise.
fn compile(clang: &str, text: &str) -> Result<(), String> {
    let path = temp_file("t.c", text);
    let out = Command::new(clang)
        .args([
            "-fsyntax-only",
            "-fopenmp",
            "-Werror=misleading-indentation",
            "-Werror=unknown-pragmas",
        ])
        .arg(&path)
        .output()
        .expect("run clang");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn trailing_blank_lines(s: &str) -> usize {
    s.lines()
        .filter(|l| l.trim_end_matches('\r').ends_with([' ', '\t']))
        .count()
}

fn check_edits(src: &str, edits: &[TextEdit]) {
    let mut at = 0u32;
    for e in edits {
        assert!(
            e.start >= at && e.end >= e.start,
            "edits out of order: {edits:?}"
        );
        assert!(e.end as usize <= src.len());
        assert!(src.is_char_boundary(e.start as usize) && src.is_char_boundary(e.end as usize));
        at = e.end.max(e.start + u32::from(e.start == e.end));
    }
}

/// Renders, applies and checks the invariants; returns the rewritten text.
fn rewrite(src: &str, ins: &[Insertion]) -> String {
    let edits = render(src, ins);
    check_edits(src, &edits);
    let out = apply(src, &edits);
    assert!(
        trailing_blank_lines(&out) <= trailing_blank_lines(src),
        "trailing blanks added:\n{out}"
    );
    if let Some(clang) = clang() {
        if let Err(e) = compile(clang, src) {
            panic!("the snippet itself does not compile:\n{src}\n{e}");
        }
        if let Err(e) = compile(clang, &out) {
            panic!("the rewritten snippet does not compile:\n{out}\n{e}");
        }
    }
    out
}

fn check(src: &str, ins: &[Insertion], expect: Expect) {
    expect.assert_eq(&rewrite(src, ins));
}

// ---------------------------------------------------------------- standalone directives

#[test]
fn before_and_after_two_spaces() {
    let src = "\
void f(int *a, int n) {
  a[0] = 1;
  for (int i = 0; i < n; i++)
    a[i] += 1;
  a[1] = 2;
}
";
    check(
        src,
        &[
            update(
                stmt(src, "for (int i = 0; i < n; i++)\n    a[i] += 1"),
                Side::Before,
                vec![to(&["a[0:n]"])],
            ),
            update(stmt(src, "a[0] = 1"), Side::After, vec![from(&["a[0:1]"])]),
        ],
        expect![[r#"
            void f(int *a, int n) {
              a[0] = 1;
              #pragma omp target update from(a[0:1])
              #pragma omp target update to(a[0:n])
              for (int i = 0; i < n; i++)
                a[i] += 1;
              a[1] = 2;
            }
        "#]],
    );
}

#[test]
fn four_spaces() {
    let src = "\
void f(int *a, int n) {
    if (n > 0) {
        a[0] = 1;
        a[1] = 2;
    }
}
";
    check(
        src,
        &[
            update(stmt(src, "a[0] = 1;"), Side::Before, vec![to(&["a[0:n]"])]),
            update(stmt(src, "a[1] = 2"), Side::After, vec![from(&["a[0:n]"])]),
        ],
        expect![[r#"
            void f(int *a, int n) {
                if (n > 0) {
                    #pragma omp target update to(a[0:n])
                    a[0] = 1;
                    a[1] = 2;
                    #pragma omp target update from(a[0:n])
                }
            }
        "#]],
    );
}

#[test]
fn tabs() {
    let src = "void f(int *a, int n) {\n\tif (n > 0) {\n\t\ta[0] = 1;\n\t}\n\ta[1] = 2;\n}\n";
    check(
        src,
        &[
            update(stmt(src, "a[0] = 1;"), Side::Before, vec![to(&["a[0:n]"])]),
            update(stmt(src, "a[1] = 2;"), Side::After, vec![from(&["a[0:n]"])]),
        ],
        expect![[r#"
            void f(int *a, int n) {
            	if (n > 0) {
            		#pragma omp target update to(a[0:n])
            		a[0] = 1;
            	}
            	a[1] = 2;
            	#pragma omp target update from(a[0:n])
            }
        "#]],
    );
}

#[test]
fn after_a_statement_with_trailing_comments() {
    let src = "\
void f(int *a, int n) {
  a[0] = 1; // first
  a[1] = 2; /* second */
  a[2] = 3 ; /* third */ a[3] = 4;
}
";
    check(
        src,
        &[
            update(stmt(src, "a[0] = 1"), Side::After, vec![from(&["a[0:1]"])]),
            update(stmt(src, "a[1] = 2"), Side::After, vec![from(&["a[1:1]"])]),
            update(stmt(src, "a[2] = 3"), Side::After, vec![from(&["a[2:1]"])]),
        ],
        expect![[r#"
            void f(int *a, int n) {
              a[0] = 1; // first
              #pragma omp target update from(a[0:1])
              a[1] = 2; /* second */
              #pragma omp target update from(a[1:1])
              a[2] = 3 ;
              #pragma omp target update from(a[2:1])
              /* third */ a[3] = 4;
            }
        "#]],
    );
}

#[test]
fn statements_sharing_a_line() {
    let src = "\
void f(int *a, int *b) {
  a[0] = 1; b[0] = 2;  a[1] = 3;
}
";
    check(
        src,
        &[
            update(stmt(src, "a[0] = 1;"), Side::After, vec![from(&["a[0:1]"])]),
            update(stmt(src, "b[0] = 2;"), Side::Before, vec![to(&["b[0:1]"])]),
            update(stmt(src, "a[1] = 3;"), Side::Before, vec![to(&["a[1:1]"])]),
        ],
        expect![[r#"
            void f(int *a, int *b) {
              a[0] = 1;
              #pragma omp target update from(a[0:1])
              #pragma omp target update to(b[0:1])
              b[0] = 2;
              #pragma omp target update to(a[1:1])
              a[1] = 3;
            }
        "#]],
    );
}

#[test]
fn merges_updates_at_one_point() {
    let src = "\
void f(int *a, int *b, int c, int n) {
  a[0] = 1;
}
";
    let at = stmt(src, "a[0] = 1;");
    check(
        src,
        &[
            update(at, Side::After, vec![from(&["a[0:n]"])]),
            update(
                at,
                Side::After,
                vec![to(&["b[0:n]"]), from(&["c", "a[0:n]"])],
            ),
            update(at, Side::After, vec![from(&["n"])]),
            update(at, Side::Before, vec![to(&["a[0:n]"])]),
            update(at, Side::Before, vec![to(&["a[0:n]", "b[0:n]"])]),
            Insertion::Standalone {
                anchor: at,
                side: Side::Before,
                directive: "target enter data".into(),
                clauses: vec![map("to", &["c"])],
            },
        ],
        expect![[r#"
            void f(int *a, int *b, int c, int n) {
              #pragma omp target update to(a[0:n], b[0:n])
              #pragma omp target enter data map(to: c)
              a[0] = 1;
              #pragma omp target update from(a[0:n], c, n) to(b[0:n])
            }
        "#]],
    );
}

// ---------------------------------------------------------------- unbraced bodies

#[test]
fn unbraced_if_body_after() {
    let src = "\
void f(int *a, int c) {
  if (c)
    a[0] = 1;
  a[1] = 2;
}
";
    check(
        src,
        &[update(
            body(src, "a[0] = 1"),
            Side::After,
            vec![from(&["a[0:1]"])],
        )],
        expect![[r#"
            void f(int *a, int c) {
              if (c) {
                a[0] = 1;
                #pragma omp target update from(a[0:1])
              }
              a[1] = 2;
            }
        "#]],
    );
}

#[test]
fn unbraced_if_body_before_with_comment_on_the_condition() {
    let src = "\
void f(int *a, int c) {
  if (c) // only sometimes
    a[0] = 1;
}
";
    check(
        src,
        &[update(
            body(src, "a[0] = 1;"),
            Side::Before,
            vec![to(&["a[0:1]"])],
        )],
        expect![[r#"
            void f(int *a, int c) {
              if (c) { // only sometimes
                #pragma omp target update to(a[0:1])
                a[0] = 1;
              }
            }
        "#]],
    );
}

#[test]
fn unbraced_body_on_the_if_line() {
    let src = "\
void f(int *a, int c) {
  if (c) a[0] = 1;
  a[1] = 2;
}
";
    check(
        src,
        &[
            update(body(src, "a[0] = 1"), Side::Before, vec![to(&["a[0:1]"])]),
            update(body(src, "a[0] = 1"), Side::After, vec![from(&["a[0:1]"])]),
        ],
        expect![[r#"
            void f(int *a, int c) {
              if (c) {
                #pragma omp target update to(a[0:1])
                a[0] = 1;
                #pragma omp target update from(a[0:1])
              }
              a[1] = 2;
            }
        "#]],
    );
}

#[test]
fn if_else_on_one_line() {
    let src = "\
void f(int *a, int c) {
  if (c) a[0] = 1; else a[1] = 2;
}
";
    check(
        src,
        &[
            update(body(src, "a[0] = 1"), Side::After, vec![from(&["a[0:1]"])]),
            update(body(src, "a[1] = 2;"), Side::Before, vec![to(&["a[1:1]"])]),
        ],
        expect![[r#"
            void f(int *a, int c) {
              if (c) {
                a[0] = 1;
                #pragma omp target update from(a[0:1])
              } else {
                #pragma omp target update to(a[1:1])
                a[1] = 2;
              }
            }
        "#]],
    );
}

#[test]
fn if_else_on_separate_lines() {
    let src = "\
void f(int *a, int c) {
  if (c)
    a[0] = 1;
  else if (c > 1)
    a[1] = 2;
  else
    a[2] = 3;
}
";
    check(
        src,
        &[
            update(body(src, "a[0] = 1"), Side::After, vec![from(&["a[0:1]"])]),
            update(body(src, "a[1] = 2"), Side::Before, vec![to(&["a[1:1]"])]),
            update(body(src, "a[2] = 3;"), Side::After, vec![from(&["a[2:1]"])]),
        ],
        expect![[r#"
            void f(int *a, int c) {
              if (c) {
                a[0] = 1;
                #pragma omp target update from(a[0:1])
              } else if (c > 1) {
                #pragma omp target update to(a[1:1])
                a[1] = 2;
              } else {
                a[2] = 3;
                #pragma omp target update from(a[2:1])
              }
            }
        "#]],
    );
}

#[test]
fn unbraced_loop_bodies() {
    let src = "\
void f(int *a, int n) {
  for (int i = 0;
       i < n; i++)
    a[i] = i;
  while (n--)
    a[n] = 0;
  do
    a[n++] = 1;
  while (n < 4);
  do a[0] = 2; while (0);
}
";
    check(
        src,
        &[
            update(body(src, "a[i] = i"), Side::After, vec![from(&["a[i:1]"])]),
            update(body(src, "a[n] = 0;"), Side::Before, vec![to(&["a[n:1]"])]),
            update(
                body(src, "a[n++] = 1"),
                Side::After,
                vec![from(&["a[0:n]"])],
            ),
            update(body(src, "a[0] = 2"), Side::After, vec![from(&["a[0:1]"])]),
        ],
        expect![[r#"
            void f(int *a, int n) {
              for (int i = 0;
                   i < n; i++) {
                a[i] = i;
                #pragma omp target update from(a[i:1])
              }
              while (n--) {
                #pragma omp target update to(a[n:1])
                a[n] = 0;
              }
              do {
                a[n++] = 1;
                #pragma omp target update from(a[0:n])
              } while (n < 4);
              do {
                a[0] = 2;
                #pragma omp target update from(a[0:1])
              } while (0);
            }
        "#]],
    );
}

#[test]
fn nested_unbraced_bodies() {
    let src = "\
void f(int *a, int n) {
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i * n + j] = 0;
}
";
    check(
        src,
        &[
            update(
                body(src, "for (int j = 0; j < n; j++) a[i * n + j] = 0"),
                Side::Before,
                vec![to(&["a[0:n*n]"])],
            ),
            update(
                body(src, "a[i * n + j] = 0"),
                Side::After,
                vec![from(&["a[0:n*n]"])],
            ),
        ],
        expect![[r#"
            void f(int *a, int n) {
              for (int i = 0; i < n; i++) {
                #pragma omp target update to(a[0:n*n])
                for (int j = 0; j < n; j++) {
                  a[i * n + j] = 0;
                  #pragma omp target update from(a[0:n*n])
                }
              }
            }
        "#]],
    );
}

// ---------------------------------------------------------------- column-0 pragmas

#[test]
fn pragmas_at_column_zero() {
    let src = "\
void f(double *a, int n) {
  for (int t = 0; t < 10; t++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      a[i] += 1;
    a[0] = 0;
  }
}
";
    let kernel_start = span(src, "#pragma omp target teams").start;
    let kernel_end = span(src, "a[i] += 1;").end;
    let kernel = Anchor {
        stmt: Span::new(kernel_start, kernel_end),
        in_compound: true,
    };
    check(
        src,
        &[
            update(kernel, Side::Before, vec![to(&["a[0:n]"])]),
            update(kernel, Side::After, vec![from(&["a[0:1]"])]),
        ],
        expect![[r#"
            void f(double *a, int n) {
              for (int t = 0; t < 10; t++) {
            #pragma omp target update to(a[0:n])
            #pragma omp target teams distribute parallel for
                for (int i = 0; i < n; i++)
                  a[i] += 1;
            #pragma omp target update from(a[0:1])
                a[0] = 0;
              }
            }
        "#]],
    );
}

// ---------------------------------------------------------------- data regions

#[test]
fn region_over_one_loop_has_no_braces() {
    let src = "\
void f(double *a, int n) {
  for (int t = 0; t < 10; t++) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      a[i] += 1;
  }
}
";
    let lp = stmt(src, "for (int t = 0; t < 10; t++) {\n    #pragma omp target teams distribute parallel for\n    for (int i = 0; i < n; i++)\n      a[i] += 1;\n  }");
    check(
        src,
        &[region(lp, lp, vec![map("tofrom", &["a[0:n]"])])],
        expect![[r#"
            void f(double *a, int n) {
              #pragma omp target data map(tofrom: a[0:n])
              for (int t = 0; t < 10; t++) {
                #pragma omp target teams distribute parallel for
                for (int i = 0; i < n; i++)
                  a[i] += 1;
              }
            }
        "#]],
    );
}

#[test]
fn region_over_one_construct_has_no_braces() {
    let src = "\
void f(double *a, int n) {
  #pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    a[i] += 1;
}
";
    let start = span(src, "#pragma").start;
    let k = Anchor {
        stmt: Span::new(start, span(src, "a[i] += 1").end),
        in_compound: true,
    };
    check(
        src,
        &[region(k, k, vec![map("tofrom", &["a[0:n]"])])],
        expect![[r#"
            void f(double *a, int n) {
              #pragma omp target data map(tofrom: a[0:n])
              #pragma omp target teams distribute parallel for
              for (int i = 0; i < n; i++)
                a[i] += 1;
            }
        "#]],
    );
}

#[test]
fn region_over_one_plain_statement_gets_braces() {
    let src = "\
void g(double *);
void f(double *a) {
  g(a);
}
";
    let s = stmt(src, "g(a)");
    check(
        src,
        &[region(s, s, vec![map("to", &["a[0:4]"])])],
        expect![[r#"
            void g(double *);
            void f(double *a) {
              #pragma omp target data map(to: a[0:4])
              {
                g(a);
              }
            }
        "#]],
    );
}

#[test]
fn region_over_several_statements_reindents() {
    let src = "\
void f(double *a, int n) {
  double s = 0;
  a[0] = 1;
  for (int i = 0; i < n; i++) {
    s += a[i];
  }

#ifdef _OPENMP
  a[1] = s; /* done */
#endif
  if (n > 2)
    a[2] = 2;
  a[3] = 3;
}
";
    let first = stmt(src, "a[0] = 1;");
    let last = stmt(src, "if (n > 2)\n    a[2] = 2");
    check(
        src,
        &[region(
            first,
            last,
            vec![
                map("to", &["a[0:n]"]),
                map("from", &["a[0:4]"]),
                map("to", &["s"]),
            ],
        )],
        expect![[r#"
            void f(double *a, int n) {
              double s = 0;
              #pragma omp target data map(to: a[0:n], s) map(from: a[0:4])
              {
                a[0] = 1;
                for (int i = 0; i < n; i++) {
                  s += a[i];
                }

            #ifdef _OPENMP
                a[1] = s; /* done */
            #endif
                if (n > 2)
                  a[2] = 2;
              }
              a[3] = 3;
            }
        "#]],
    );
}

#[test]
fn region_with_updates_inside() {
    let src = "\
void f(double *a, int n) {
  a[0] = 1;
  for (int t = 0; t < 3; t++) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      a[i] += 1;
    if (t == 1)
      a[0] = a[1];
  }
  a[2] = 2;
}
";
    let first = stmt(src, "a[0] = 1;");
    let lp_start = span(src, "for (int t").start;
    let lp_end = span(src, "a[0] = a[1];\n  }").end;
    let lp = Anchor {
        stmt: Span::new(lp_start, lp_end),
        in_compound: true,
    };
    let kernel = Anchor {
        stmt: Span::new(
            span(src, "#pragma omp target teams").start,
            span(src, "a[i] += 1").end,
        ),
        in_compound: true,
    };
    check(
        src,
        &[
            region(first, lp, vec![map("tofrom", &["a[0:n]"])]),
            update(first, Side::Before, vec![to(&["a[0:1]"])]),
            update(first, Side::After, vec![to(&["a[0:1]"])]),
            update(kernel, Side::After, vec![from(&["a[1:1]"])]),
            update(body(src, "a[0] = a[1]"), Side::After, vec![to(&["a[0:1]"])]),
            update(lp, Side::After, vec![from(&["a[0:n]"])]),
        ],
        expect![[r#"
            void f(double *a, int n) {
              #pragma omp target data map(tofrom: a[0:n])
              {
                #pragma omp target update to(a[0:1])
                a[0] = 1;
                #pragma omp target update to(a[0:1])
                for (int t = 0; t < 3; t++) {
                  #pragma omp target teams distribute parallel for
                  for (int i = 0; i < n; i++)
                    a[i] += 1;
                  #pragma omp target update from(a[1:1])
                  if (t == 1) {
                    a[0] = a[1];
                    #pragma omp target update to(a[0:1])
                  }
                }
                #pragma omp target update from(a[0:n])
              }
              a[2] = 2;
            }
        "#]],
    );
}

#[test]
fn nested_regions_and_merged_map_clauses() {
    let src = "\
void f(double *a, double *b, int n) {
  a[0] = 1;
  b[0] = 2;
  a[1] = 3;
}
";
    let s1 = stmt(src, "a[0] = 1;");
    let s2 = stmt(src, "b[0] = 2;");
    let s3 = stmt(src, "a[1] = 3;");
    check(
        src,
        &[
            region(s1, s2, vec![map("to", &["b[0:n]"])]),
            region(s1, s3, vec![map("to", &["a[0:n]"])]),
            region(
                s1,
                s3,
                vec![map("from", &["a[0:n]"]), map("to", &["a[0:n]", "b[0:1]"])],
            ),
            update(s2, Side::After, vec![from(&["b[0:1]"])]),
        ],
        expect![[r#"
            void f(double *a, double *b, int n) {
              #pragma omp target data map(to: a[0:n], b[0:1]) map(from: a[0:n])
              {
                #pragma omp target data map(to: b[0:n])
                {
                  a[0] = 1;
                  b[0] = 2;
                  #pragma omp target update from(b[0:1])
                }
                a[1] = 3;
              }
            }
        "#]],
    );
}

#[test]
fn region_over_an_unbraced_body() {
    let src = "\
void g(double *);
void f(double *a, int c) {
  if (c)
    g(a);
  else
    for (int i = 0; i < 4; i++) a[i] = 0;
}
";
    let call = body(src, "g(a)");
    let lp = body(src, "for (int i = 0; i < 4; i++) a[i] = 0;");
    check(
        src,
        &[
            region(call, call, vec![map("tofrom", &["a[0:4]"])]),
            region(lp, lp, vec![map("from", &["a[0:4]"])]),
        ],
        expect![[r#"
            void g(double *);
            void f(double *a, int c) {
              if (c) {
                #pragma omp target data map(tofrom: a[0:4])
                {
                  g(a);
                }
              } else {
                #pragma omp target data map(from: a[0:4])
                for (int i = 0; i < 4; i++) a[i] = 0;
              }
            }
        "#]],
    );
}

#[test]
fn region_sharing_a_line() {
    let src = "\
void f(int *a) {
  a[0] = 0; a[1] = 1; a[2] = 2; a[3] = 3;
}
";
    check(
        src,
        &[region(
            stmt(src, "a[1] = 1;"),
            stmt(src, "a[2] = 2;"),
            vec![map("tofrom", &["a[0:4]"])],
        )],
        expect![[r#"
            void f(int *a) {
              a[0] = 0;
              #pragma omp target data map(tofrom: a[0:4])
              {
                a[1] = 1; a[2] = 2;
              }
              a[3] = 3;
            }
        "#]],
    );
}

#[test]
fn region_in_a_file_with_pragmas_at_column_zero() {
    let src = "\
void f(double *a, int n) {
  a[0] = 1;
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    a[i] += 1;
  a[1] = 2;
}
";
    let k = Anchor {
        stmt: Span::new(span(src, "#pragma").start, span(src, "a[i] += 1;").end),
        in_compound: true,
    };
    check(
        src,
        &[
            region(k, stmt(src, "a[1] = 2;"), vec![map("tofrom", &["a[0:n]"])]),
            update(k, Side::After, vec![from(&["a[0:1]"])]),
        ],
        expect![[r#"
            void f(double *a, int n) {
              a[0] = 1;
            #pragma omp target data map(tofrom: a[0:n])
              {
            #pragma omp target teams distribute parallel for
                for (int i = 0; i < n; i++)
                  a[i] += 1;
            #pragma omp target update from(a[0:1])
                a[1] = 2;
              }
            }
        "#]],
    );
}

#[test]
fn region_keeps_multi_line_strings_and_column_0_lines() {
    let src = "\
int puts(const char *);
void f(int *a) {
  a[0] = 1;
  puts(\"one \\
two\");
#define TWO 2
  a[1] = TWO;
}
";
    check(
        src,
        &[region(
            stmt(src, "a[0] = 1;"),
            stmt(src, "a[1] = TWO;"),
            vec![map("tofrom", &["a[0:2]"])],
        )],
        expect![[r#"
            int puts(const char *);
            void f(int *a) {
              #pragma omp target data map(tofrom: a[0:2])
              {
                a[0] = 1;
                puts("one \
            two");
            #define TWO 2
                a[1] = TWO;
              }
            }
        "#]],
    );
}

#[test]
fn region_over_a_loop_with_an_update_before_it_gets_braces() {
    let src = "\
void f(int *a, int n) {
  for (int i = 0; i < n; i++)
    a[i] = i;
}
";
    let lp = stmt(src, "for (int i = 0; i < n; i++)\n    a[i] = i;");
    check(
        src,
        &[
            region(lp, lp, vec![map("from", &["a[0:n]"])]),
            update(lp, Side::Before, vec![to(&["a[0:1]"])]),
        ],
        expect![[r#"
            void f(int *a, int n) {
              #pragma omp target data map(from: a[0:n])
              {
                #pragma omp target update to(a[0:1])
                for (int i = 0; i < n; i++)
                  a[i] = i;
              }
            }
        "#]],
    );
}

#[test]
fn else_after_a_comment_line_is_joined_only_when_adjacent() {
    let src = "\
void f(int *a, int c) {
  if (c)
    a[0] = 1; // one
  else
    a[1] = 2;
  if (c)
    a[2] = 3;
  // not joined across this comment
  else
    a[3] = 4;
}
";
    check(
        src,
        &[
            update(body(src, "a[0] = 1;"), Side::After, vec![from(&["a[0:1]"])]),
            update(body(src, "a[2] = 3;"), Side::After, vec![from(&["a[2:1]"])]),
        ],
        expect![[r#"
            void f(int *a, int c) {
              if (c) {
                a[0] = 1; // one
                #pragma omp target update from(a[0:1])
              } else
                a[1] = 2;
              if (c) {
                a[2] = 3;
                #pragma omp target update from(a[2:1])
              }
              // not joined across this comment
              else
                a[3] = 4;
            }
        "#]],
    );
}

#[test]
fn body_of_an_openmp_construct_gets_braces_on_their_own_lines() {
    let src = "\
void f(int *a) {
  #pragma omp parallel
    a[0] = 1;
  #pragma omp parallel
  a[1] = 1;
#pragma omp parallel
  a[2] = 1;
}
";
    check(
        src,
        &[
            update(body(src, "a[0] = 1;"), Side::After, vec![from(&["a[0:1]"])]),
            update(body(src, "a[1] = 1;"), Side::After, vec![from(&["a[1:1]"])]),
            update(body(src, "a[2] = 1;"), Side::After, vec![from(&["a[2:1]"])]),
        ],
        expect![[r#"
            void f(int *a) {
              #pragma omp parallel
              {
                a[0] = 1;
                #pragma omp target update from(a[0:1])
              }
              #pragma omp parallel
              {
                a[1] = 1;
                #pragma omp target update from(a[1:1])
              }
            #pragma omp parallel
              {
                a[2] = 1;
                #pragma omp target update from(a[2:1])
              }
            }
        "#]],
    );
}

// ---------------------------------------------------------------- clauses on existing directives

#[test]
fn append_clauses() {
    let src = "\
void f(double *a, double x, int n) {
  #pragma omp target teams distribute parallel for // the kernel
  for (int i = 0; i < n; i++)
    a[i] += x;
  #pragma omp target teams distribute \\
      parallel for
  for (int i = 0; i < n; i++)
    a[i] -= x;
}
";
    let d1 = span(src, "#pragma omp target teams distribute parallel for");
    let d2 = span(
        src,
        "#pragma omp target teams distribute \\\n      parallel for",
    );
    check(
        src,
        &[
            Insertion::AppendClauses {
                directive: d1,
                clauses: vec![map("tofrom", &["a[0:n]"])],
            },
            Insertion::AppendClauses {
                directive: d1,
                clauses: vec![
                    clause("firstprivate", None, &["x"]),
                    map("tofrom", &["a[0:n]"]),
                ],
            },
            Insertion::AppendClauses {
                directive: d2,
                clauses: vec![
                    map("to", &["a[0:n]"]),
                    clause("firstprivate", None, &["x", "n"]),
                ],
            },
        ],
        expect![[r#"
            void f(double *a, double x, int n) {
              #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) firstprivate(x) // the kernel
              for (int i = 0; i < n; i++)
                a[i] += x;
              #pragma omp target teams distribute \
                  parallel for map(to: a[0:n]) firstprivate(x, n)
              for (int i = 0; i < n; i++)
                a[i] -= x;
            }
        "#]],
    );
}

// ---------------------------------------------------------------- line endings, robustness

#[test]
fn crlf_file() {
    let src = "void f(int *a, int c) {\r\n  a[0] = 1;\r\n  if (c)\r\n    a[1] = 2;\r\n}\r\n";
    let out = rewrite(
        src,
        &[
            region(
                stmt(src, "a[0] = 1;"),
                stmt(src, "if (c)\r\n    a[1] = 2;"),
                vec![map("tofrom", &["a[0:2]"])],
            ),
            update(body(src, "a[1] = 2;"), Side::After, vec![from(&["a[1:1]"])]),
        ],
    );
    assert!(
        !out.replace("\r\n", "").contains('\n'),
        "bare line feed in {out:?}"
    );
    expect![[r#"
        "void f(int *a, int c) {\r\n  #pragma omp target data map(tofrom: a[0:2])\r\n  {\r\n    a[0] = 1;\r\n    if (c) {\r\n      a[1] = 2;\r\n      #pragma omp target update from(a[1:1])\r\n    }\r\n  }\r\n}\r\n"
    "#]].assert_debug_eq(&out);
}

#[test]
fn no_newline_at_end_of_file() {
    let src = "int x;\nvoid f(void) { x = 1; }";
    check(
        src,
        &[update(stmt(src, "x = 1;"), Side::After, vec![from(&["x"])])],
        expect![[r#"
            int x;
            void f(void) { x = 1;
            #pragma omp target update from(x)
            }"#]],
    );
}

#[test]
fn garbage_offsets_do_not_panic() {
    let src = "void f(int *a) {\n  a[0] = 1; // é\n}\n";
    let bad = |s: u32, e: u32| Anchor {
        stmt: Span::new(s, e),
        in_compound: false,
    };
    let accent = src.find('é').unwrap() as u32;
    let comment = src.find("//").unwrap() as u32;
    let mut ins = vec![];
    for (s, e) in [
        (0, 0),
        (5, 2),
        (1000, 1001),
        (0, 1000),
        (accent + 1, accent + 2),
        (comment, comment + 3),
        (u32::MAX - 1, u32::MAX),
    ] {
        ins.push(update(bad(s, e), Side::Before, vec![to(&["a"])]));
        ins.push(update(bad(s, e), Side::After, vec![to(&["a"])]));
        ins.push(region(bad(s, e), bad(0, 3), vec![to(&["a"])]));
        ins.push(Insertion::AppendClauses {
            directive: Span::new(s, e),
            clauses: vec![to(&["a"])],
        });
    }
    let out = apply(src, &render(src, &ins));
    assert!(out.starts_with("void"), "{out}");
    assert!(render("", &ins).is_empty());
    // Every pair of positions in a short file, as every kind of insertion.
    let src = "if (c)\n  x; else {y;}\n#pragma omp x\n\"s\" /* c */";
    for s in 0..=src.len() as u32 + 1 {
        for e in 0..=src.len() as u32 + 1 {
            let a = bad(s, e);
            let ins = [
                update(a, Side::Before, vec![to(&["a"])]),
                update(a, Side::After, vec![to(&["a"])]),
                region(a, a, vec![to(&["a"])]),
                region(a, bad(e, e + 2), vec![to(&["a"])]),
                Insertion::AppendClauses {
                    directive: Span::new(s, e),
                    clauses: vec![to(&["a"])],
                },
            ];
            let edits = render(src, &ins);
            check_edits(src, &edits);
            apply(src, &edits);
        }
    }
}

// ---------------------------------------------------------------- a whole program through clang

#[test]
fn rewritten_program_compiles_with_clang() {
    let Some(clang) = clang() else {
        eprintln!("note: /usr/bin/clang-19 not found, compile check skipped");
        return;
    };
    let src = "\
#include <stdlib.h>

void step(double *a, double *b, int n, int c) {
    double s = 0;
    for (int t = 0; t < 4; t++) {
        #pragma omp target teams distribute parallel for reduction(+: s)
        for (int i = 0; i < n; i++)
            s += a[i] * b[i];
        if (c)
            a[0] = s;
        else
            b[0] = s;
    }
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
        b[i] = a[i] + s;
}

int main(void) {
    int n = 100;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (int i = 0; i < n; i++) a[i] = b[i] = i;
    step(a, b, n, 1);
    free(a);
    free(b);
    return 0;
}
";
    compile(clang, src).expect("the original compiles");
    let first = stmt(src, "double s = 0;");
    let last_start = span_n(src, "#pragma omp target teams distribute parallel for", 1).start;
    let last = Anchor {
        stmt: Span::new(last_start, span(src, "b[i] = a[i] + s").end),
        in_compound: true,
    };
    let kernel1_start = span(
        src,
        "#pragma omp target teams distribute parallel for reduction",
    )
    .start;
    let kernel1 = Anchor {
        stmt: Span::new(kernel1_start, span(src, "s += a[i] * b[i]").end),
        in_compound: true,
    };
    let ins = [
        region(
            first,
            last,
            vec![map("to", &["a[0:n]", "b[0:n]"]), map("from", &["b[0:n]"])],
        ),
        update(kernel1, Side::Before, vec![to(&["a[0:n]"])]),
        update(body(src, "a[0] = s"), Side::After, vec![to(&["a[0:1]"])]),
        update(body(src, "b[0] = s;"), Side::After, vec![to(&["b[0:1]"])]),
        Insertion::AppendClauses {
            directive: span(
                src,
                "#pragma omp target teams distribute parallel for reduction(+: s)",
            ),
            clauses: vec![clause("firstprivate", None, &["n"])],
        },
    ];
    let out = rewrite(src, &ins);
    if let Err(e) = compile(clang, &out) {
        panic!("rewritten program does not compile:\n{out}\n{e}");
    }
    expect![[r#"
        #include <stdlib.h>

        void step(double *a, double *b, int n, int c) {
            #pragma omp target data map(to: a[0:n], b[0:n]) map(from: b[0:n])
            {
                double s = 0;
                for (int t = 0; t < 4; t++) {
                    #pragma omp target update to(a[0:n])
                    #pragma omp target teams distribute parallel for reduction(+: s) firstprivate(n)
                    for (int i = 0; i < n; i++)
                        s += a[i] * b[i];
                    if (c) {
                        a[0] = s;
                        #pragma omp target update to(a[0:1])
                    } else {
                        b[0] = s;
                        #pragma omp target update to(b[0:1])
                    }
                }
                #pragma omp target teams distribute parallel for
                for (int i = 0; i < n; i++)
                    b[i] = a[i] + s;
            }
        }

        int main(void) {
            int n = 100;
            double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
            for (int i = 0; i < n; i++) a[i] = b[i] = i;
            step(a, b, n, 1);
            free(a);
            free(b);
            return 0;
        }
    "#]]
    .assert_eq(&out);
}

// ---------------------------------------------------------------- unified diff

#[test]
fn unified_diff_of_a_rewrite() {
    let src = "\
void f(int *a, int n) {
  a[0] = 1;
  for (int i = 0; i < n; i++)
    a[i] += 1;
  a[1] = 2;
  a[2] = 3;
  a[3] = 4;
  a[4] = 5;
  a[5] = 6;
  a[6] = 7;
  a[7] = 8;
}
";
    let out = rewrite(
        src,
        &[
            update(stmt(src, "a[0] = 1;"), Side::After, vec![to(&["a[0:1]"])]),
            update(
                stmt(src, "a[7] = 8;"),
                Side::Before,
                vec![from(&["a[0:8]"])],
            ),
        ],
    );
    let d = unified_diff("src/f.c", "src/f.c", src, &out);
    expect![[r#"
        --- a/src/f.c
        +++ b/src/f.c
        @@ -1,5 +1,6 @@
         void f(int *a, int n) {
           a[0] = 1;
        +  #pragma omp target update to(a[0:1])
           for (int i = 0; i < n; i++)
             a[i] += 1;
           a[1] = 2;
        @@ -8,5 +9,6 @@ void f(int *a, int n) {
           a[4] = 5;
           a[5] = 6;
           a[6] = 7;
        +  #pragma omp target update from(a[0:8])
           a[7] = 8;
         }
    "#]]
    .assert_eq(&d);
    assert_patch_applies(src, &out, &d);
}

#[test]
fn unified_diff_without_trailing_newlines() {
    let old = "a\nb\nc";
    let new = "a\nB\nc\nd";
    let d = unified_diff("x.c", "x.c", old, new);
    expect![[r#"
        --- a/x.c
        +++ b/x.c
        @@ -1,3 +1,4 @@
         a
        -b
        -c
        \ No newline at end of file
        +B
        +c
        +d
        \ No newline at end of file
    "#]]
    .assert_eq(&d);
    assert_patch_applies(old, new, &d);
    let d = unified_diff("x.c", "x.c", "a\n", "a");
    expect![[r#"
        --- a/x.c
        +++ b/x.c
        @@ -1 +1 @@
        -a
        +a
        \ No newline at end of file
    "#]]
    .assert_eq(&d);
    assert_patch_applies("a\n", "a", &d);
    assert_eq!(unified_diff("x.c", "x.c", "same\n", "same\n"), "");
    let d = unified_diff("x.c", "x.c", "", "new\n");
    expect![[r#"
        --- a/x.c
        +++ b/x.c
        @@ -0,0 +1 @@
        +new
    "#]]
    .assert_eq(&d);
    assert_patch_applies("", "new\n", &d);
}

#[test]
fn unified_diff_random_edits_apply() {
    // Deterministic pseudo-random line edits; every diff must apply with patch.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    for round in 0..12 {
        let n = 5 + rnd(40) as usize;
        let old: Vec<String> = (0..n).map(|i| format!("line {}", i % 7)).collect();
        let mut new = old.clone();
        for _ in 0..1 + rnd(6) {
            let at = rnd(new.len() as u64 + 1) as usize;
            match rnd(3) {
                0 if at < new.len() => {
                    new.remove(at);
                }
                1 if at < new.len() => new[at] = format!("changed {round}"),
                _ => new.insert(at, format!("added {round}")),
            }
        }
        let mut old = old.join("\n");
        let mut new = new.join("\n");
        if rnd(2) == 0 {
            old.push('\n');
        }
        if rnd(2) == 0 {
            new.push('\n');
        }
        let d = unified_diff("r.txt", "r.txt", &old, &new);
        assert_patch_applies(&old, &new, &d);
    }
}

/// Applies `diff` to `old` with `patch -p1` (and `git apply` when present) and compares.
fn assert_patch_applies(old: &str, new: &str, diff: &str) {
    if old == new {
        return;
    }
    let label = diff
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("--- a/"))
        .expect("--- a/ header")
        .to_string();
    for tool in ["patch", "git"] {
        if Command::new(tool).arg("--version").output().is_err() {
            eprintln!("note: {tool} not found, check skipped");
            continue;
        }
        let file = temp_file("orig", "");
        let dir = file.parent().unwrap().to_path_buf();
        let target = dir.join(&label);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(&target, old).unwrap();
        std::fs::write(dir.join("d.patch"), diff).unwrap();
        let out = if tool == "patch" {
            Command::new("patch")
                .args(["-p1", "-s", "--no-backup-if-mismatch", "-i", "d.patch"])
                .current_dir(&dir)
                .output()
                .unwrap()
        } else {
            Command::new("git")
                .args(["apply", "--unsafe-paths", "d.patch"])
                .current_dir(&dir)
                .env("GIT_CEILING_DIRECTORIES", &dir)
                .output()
                .unwrap()
        };
        assert!(
            out.status.success(),
            "{tool} failed: {}\n{diff}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = std::fs::read_to_string(&target).unwrap();
        assert_eq!(got, new, "{tool} gave a different file for\n{diff}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
