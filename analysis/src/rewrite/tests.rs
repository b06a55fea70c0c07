//! Unit tests of the rewriter's text questions and of cases the snapshot tests
//! (`analysis/tests/rewrite.rs`) do not cover.

use super::source::{indent_unit, pragmas_at_column0, Kind, SourceText};
use super::*;
use crate::text::apply;
use proptest::prelude::*;

fn kinds(src: &str) -> String {
    let t = SourceText::new(src);
    (0..src.len())
        .map(|i| match t.kind(i) {
            Kind::Code => '.',
            Kind::Comment => 'c',
            Kind::Literal => 's',
        })
        .collect()
}

#[test]
fn classifies_comments_and_literals() {
    assert_eq!(kinds("a /*x*/ b // y\nc"), "..ccccc...cccc..");
    assert_eq!(
        kinds(r#"x = "a\"b"; y"#),
        r#"....ssssss;.."#.replace(';', ".")
    );
    assert_eq!(kinds("c = '\"'; d"), "....sss...");
    // C++14 digit separators are not character literals.
    assert_eq!(kinds("n = 1'000'000; m"), "................");
    assert_eq!(kinds("c = u8'a';"), "......sss.");
    // A raw string runs to its own delimiter, whatever it contains.
    let raw = "s = R\"x(a \" )\" b)x\"; t";
    let k = kinds(raw);
    assert_eq!(&k[..5], ".....");
    assert!(k[5..raw.find("; t").unwrap()].chars().all(|c| c == 's'));
    assert!(k.ends_with("..."));
    // `//` continued by a backslash; unterminated comment and string.
    assert_eq!(kinds("// a \\\nb\nc"), "cccccccc..");
    assert_eq!(kinds("x /* y"), "..cccc");
    assert_eq!(kinds("\"abc\nd"), "ssss..");
}

#[test]
fn lines_and_line_endings() {
    let t = SourceText::new("ab\r\n  cd\r\n");
    assert_eq!(t.nl, "\r\n");
    assert_eq!(t.line_count(), 3);
    assert_eq!((t.line_start(1), t.line_end(1)), (4, 8));
    assert_eq!(t.indent_of_line(1), "  ");
    assert_eq!(t.line_of(8), 1);
    assert_eq!(t.line_of(10), 2);
    assert_eq!(SourceText::new("a\nb\r\nc\n").nl, "\n");
    let e = SourceText::new("");
    assert_eq!((e.line_count(), e.line_end(0)), (1, 0));
}

#[test]
fn previous_code_and_parentheses() {
    let src = "if (a(b) /* ) */)  // x\n  y;";
    let t = SourceText::new(src);
    let qi = t.prev_code(src.find('y').unwrap()).unwrap();
    assert_eq!(qi, src.find(")  //").unwrap());
    assert_eq!(t.matching_open_paren(qi), Some(3));
    assert_eq!(t.word_before(2), "if");
    assert!(t.keyword_at(0, "if") && !t.keyword_at(0, "i"));
}

#[test]
fn detects_the_indent_unit() {
    let two = "int f() {\n  if (x) {\n    y;\n  }\n}\n";
    let four = "int f() {\n    if (x) {\n        y;\n    }\n}\n";
    let tabs = "int f() {\n\tif (x) {\n\t\ty;\n\t}\n}\n";
    let flat = "int x;\nint y;\n";
    // Column-0 preprocessor lines and comment continuation lines do not count.
    let noisy =
        "int f() {\n#ifdef A\n   /* a\n    * b\n    */\n   x;\n#endif\n   if (c)\n      y;\n}\n";
    let aligned =
        "void f() {\n    g(a,\n      b);\n    h(a,\n      b);\n    if (c)\n        d;\n}\n";
    for (src, unit) in [
        (two, "  "),
        (four, "    "),
        (tabs, "\t"),
        (flat, "  "),
        (noisy, "   "),
        (aligned, "    "),
    ] {
        assert_eq!(indent_unit(&SourceText::new(src)), unit, "{src}");
    }
}

#[test]
fn detects_pragmas_at_column_zero() {
    let col0 = "void f() {\n  x;\n#pragma omp parallel\n  y;\n}\n";
    let indented = "void f() {\n  x;\n  #pragma omp parallel\n  y;\n}\n";
    // At column 0 but so is the code: nothing to learn from it.
    let flat = "#pragma omp declare target\nint x;\n#pragma omp end declare target\n";
    let mixed = "void f() {\n#pragma omp parallel\n  y;\n  #pragma omp parallel\n  y;\n  #pragma omp parallel\n  y;\n}\n";
    assert!(pragmas_at_column0(&SourceText::new(col0)));
    assert!(!pragmas_at_column0(&SourceText::new(indented)));
    assert!(!pragmas_at_column0(&SourceText::new(flat)));
    assert!(!pragmas_at_column0(&SourceText::new(mixed)));
    assert!(!pragmas_at_column0(&SourceText::new("")));
}

fn span_of(src: &str, pat: &str) -> Span {
    let s = src.find(pat).unwrap();
    Span::new(s as u32, (s + pat.len()) as u32)
}

fn upd(stmt: Span, in_compound: bool, side: Side, items: &[&str]) -> Insertion {
    Insertion::Standalone {
        anchor: Anchor { stmt, in_compound },
        side,
        directive: "target update".into(),
        clauses: vec![Clause {
            name: "to".into(),
            modifier: None,
            items: items.iter().map(|s| s.to_string()).collect(),
        }],
    }
}

fn run(src: &str, ins: &[Insertion]) -> String {
    apply(src, &render(src, ins))
}

#[test]
fn region_over_an_unbraced_body_on_the_if_line() {
    let src = "void f() {\n  if (c) g(a);\n}\n";
    let a = Anchor {
        stmt: span_of(src, "g(a)"),
        in_compound: false,
    };
    let ins = [Insertion::DataRegion {
        first: a,
        last: a,
        clauses: vec![Clause {
            name: "map".into(),
            modifier: Some("to".into()),
            items: vec!["a[0:1]".into()],
        }],
    }];
    assert_eq!(
        run(src, &ins),
        "void f() {\n  if (c) {\n    #pragma omp target data map(to: a[0:1])\n    {\n      g(a);\n    }\n  }\n}\n"
    );
}

#[test]
fn statement_with_multi_line_body_moves_with_its_lines() {
    let src = "void f() {\n  if (c) for (;;) {\n    x;\n  }\n}\n";
    let s = src.find("for").unwrap();
    let e = src.rfind("  }").unwrap() + 3;
    let ins = [upd(
        Span::new(s as u32, e as u32),
        false,
        Side::Before,
        &["x"],
    )];
    assert_eq!(
        run(src, &ins),
        "void f() {\n  if (c) {\n    #pragma omp target update to(x)\n    for (;;) {\n      x;\n    }\n  }\n}\n"
    );
}

#[test]
fn clauses_merge_and_empty_ones_vanish() {
    let src = "x;\n";
    let s = span_of(src, "x;");
    let c = |name: &str, m: Option<&str>, items: &[&str]| Clause {
        name: name.into(),
        modifier: m.map(Into::into),
        items: items.iter().map(|s| s.to_string()).collect(),
    };
    let ins = [
        Insertion::Standalone {
            anchor: Anchor {
                stmt: s,
                in_compound: true,
            },
            side: Side::After,
            directive: " target update ".into(),
            clauses: vec![c("to", None, &["a", "a", " b "]), c("from", None, &[])],
        },
        Insertion::Standalone {
            anchor: Anchor {
                stmt: s,
                in_compound: true,
            },
            side: Side::After,
            directive: "target update".into(),
            clauses: vec![c("to", None, &["c", "b"]), c("from", Some(""), &["d\ne"])],
        },
    ];
    assert_eq!(
        run(src, &ins),
        "x;\n#pragma omp target update to(a, b, c) from(d e)\n"
    );
}

const PIECES: &[&str] = &[
    "if (c)",
    " x;",
    "\n",
    "  ",
    "else",
    "{",
    "}",
    "#pragma omp parallel\n",
    "// c\n",
    "/* c */",
    "\"s\"",
    "do",
    "while (0);",
    "é",
    "\r\n",
    ";",
    "for (;;)",
    "#ifdef A\n",
    "\t",
    "R\"(x)\"",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Whatever the text and offsets: no panic, sorted non-overlapping edits on character
    /// boundaries, and no `#pragma` glued after code on its line.
    #[test]
    fn never_panics(
        pieces in prop::collection::vec(0..PIECES.len(), 0..30),
        spans in prop::collection::vec((0u32..200, 0u32..200, any::<bool>(), 0u8..5), 0..8),
    ) {
        let src: String = pieces.iter().map(|&i| PIECES[i]).collect();
        let mut ins = Vec::new();
        for (a, b, in_compound, kind) in spans {
            let (s, e) = (a.min(b), a.max(b));
            let anchor = Anchor { stmt: Span::new(s, e), in_compound };
            ins.push(match kind {
                0 => upd(anchor.stmt, in_compound, Side::Before, &["a"]),
                1 => upd(anchor.stmt, in_compound, Side::After, &["b"]),
                2 => Insertion::DataRegion { first: anchor, last: anchor, clauses: vec![] },
                3 => Insertion::DataRegion {
                    first: anchor,
                    last: Anchor { stmt: Span::new(e, e + 3), in_compound },
                    clauses: vec![],
                },
                _ => Insertion::AppendClauses { directive: anchor.stmt, clauses: vec![] },
            });
        }
        let edits = render(&src, &ins);
        let mut at = 0;
        for e in &edits {
            prop_assert!(e.start >= at && e.end >= e.start && (e.end as usize) <= src.len());
            prop_assert!(src.is_char_boundary(e.start as usize) && src.is_char_boundary(e.end as usize));
            at = if e.start == e.end { e.end + 1 } else { e.end };
        }
        let out = apply(&src, &edits);
        for line in out.lines() {
            if let Some(p) = line.find("#pragma omp target") {
                prop_assert!(line[..p].trim().is_empty() || src.contains(line), "{out:?}");
            }
        }
    }
}
