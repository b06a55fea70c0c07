use super::*;
use crate::frontend::TuStats;
use salsa::Setter;

const TWO: &str = r#"#include <stdlib.h>
#define N 1000

void scale(double *a, int n) {
  for (int t = 0; t < 10; t++) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
      a[i] = a[i] * 2.0;
  }
}

double total(const double *b, int n) {
  double s = 0.0;
#pragma omp target teams distribute parallel for map(to: b[0:n]) map(tofrom: s) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += b[i];
  return s;
}

void shift(double *c, int n) {
#pragma omp target teams distribute parallel for map(tofrom: c[0:n])
  for (int i = 0; i < n; i++)
    c[i] = c[i] + 1.0;
}
"#;

fn new_file(db: &Database, text: &str) -> SourceFile {
    SourceFile::new(db, "piece_test.c".into(), text.into(), vec![])
}

fn codes_and_lines(db: &Database, file: SourceFile) -> Vec<(u32, &'static str, String)> {
    let module = parse(db, file).module.clone().expect("parses");
    file_findings(db, file)
        .iter()
        .map(|f| (module.line_col(f.span.start).0, f.code, f.message.clone()))
        .collect()
}

fn executed(db: &Database) -> Vec<String> {
    let mut l = db.take_log();
    l.sort();
    l
}

#[test]
fn an_edit_inside_one_function_reanalyses_only_its_component() {
    if crate::frontend::ensure_libclang().is_err() {
        eprintln!("libclang not available: skipped");
        return;
    }
    let mut db = Database::default();
    let file = new_file(&db, TWO);
    let first = codes_and_lines(&db, file);
    assert!(
        first.iter().any(|(l, c, _)| (*l, *c) == (6, "OMP201")),
        "the copy in the loop of scale: {first:?}"
    );
    assert_eq!(
        executed(&db),
        [
            "piece_findings scale",
            "piece_findings shift",
            "piece_findings total"
        ]
    );

    // Inside `shift`: only its component runs again.
    let edited = TWO.replace("c[i] + 1.0", "c[i] + 2.0");
    file.set_text(&mut db).to(edited.clone());
    let second = codes_and_lines(&db, file);
    assert_eq!(executed(&db), ["piece_findings shift"]);
    assert_eq!(first, second, "the edit changed no finding");

    // A line added above every function: no component runs, the findings move down.
    file.set_text(&mut db).to(format!("/* header */\n{edited}"));
    let third = codes_and_lines(&db, file);
    assert!(executed(&db).is_empty());
    let moved: Vec<_> = second.iter().map(|(l, c, _)| (l + 1, *c)).collect();
    assert_eq!(
        third.iter().map(|(l, c, _)| (*l, *c)).collect::<Vec<_>>(),
        moved
    );
    // Line numbers inside messages follow too ("the loop at line 6", was 5).
    let text = file.text(&db).clone();
    let module =
        crate::frontend::lower_file(std::path::Path::new("piece_test.c"), Some(&text), &[])
            .expect("lowers");
    let whole: Vec<_> = check::check(&module, &text)
        .into_iter()
        .map(|f| (module.line_col(f.span.start).0, f.code, f.message))
        .collect();
    assert_eq!(third, whole);
    assert!(third.iter().any(|(_, _, m)| m.contains("loop at line 6")));
}

#[test]
fn callers_and_callees_are_one_component() {
    if crate::frontend::ensure_libclang().is_err() {
        return;
    }
    let text = format!("{TWO}\nint main(void) {{ double x[N]; scale(x, N); return (int)x[0]; }}\n");
    let mut db = Database::default();
    let file = new_file(&db, &text);
    file_findings(&db, file);
    assert_eq!(
        executed(&db),
        [
            "piece_findings scale",
            "piece_findings shift",
            "piece_findings total"
        ]
    );
    // An edit in main re-runs main's component, which holds `scale` (its callee).
    file.set_text(&mut db)
        .to(text.replace("return (int)x[0];", "return (int)x[1];"));
    file_findings(&db, file);
    assert_eq!(executed(&db), ["piece_findings scale"]);
}

/// The pieces together say what the whole-file check says, on every program of tests/check.
#[test]
fn pieces_agree_with_the_whole_file_check() {
    if crate::frontend::ensure_libclang().is_err() {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/check");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/check")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "cpp")))
        .collect();
    files.sort();
    assert!(files.len() > 20);
    let db = Database::default();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let flags = if path.extension().is_some_and(|e| e == "cpp") {
            vec!["-std=c++17".to_string()]
        } else {
            vec![]
        };
        let module = crate::frontend::lower_file(&path, Some(&text), &flags).expect("lowers");
        let whole = check::check(&module, &text);
        let file = SourceFile::new(&db, path.display().to_string(), text, flags);
        let pieces = file_findings(&db, file);
        assert_eq!(
            *pieces,
            whole,
            "{}: the pieces' findings differ from the whole file's",
            path.display()
        );
    }
}

/// The server's database keeps the translation unit: an edit is a reparse (with the
/// precompiled preamble), and the findings are those of a fresh database that parses anew.
#[test]
fn an_edit_is_a_reparse_with_the_findings_of_a_fresh_parse() {
    if crate::frontend::ensure_libclang().is_err() {
        return;
    }
    let mut db = Database::with_tu_cache(4);
    let file = new_file(&db, TWO);
    let first = codes_and_lines(&db, file);
    assert!(first.iter().any(|(l, c, _)| (*l, *c) == (6, "OMP201")));
    assert_eq!(
        db.tu_stats(),
        TuStats {
            parses: 1,
            reparses: 0,
            failed_reparses: 0
        }
    );

    // Without the time-step loop the copy in `scale` runs once: OMP201 goes away, which only
    // a parse of the new text can know.
    let edited = TWO.replace("  for (int t = 0; t < 10; t++) {\n", "  {\n");
    file.set_text(&mut db).to(edited.clone());
    let second = codes_and_lines(&db, file);
    assert!(!second.iter().any(|(_, c, _)| *c == "OMP201"), "{second:?}");
    assert_eq!(db.tu_stats().parses, 1);
    assert_eq!(db.tu_stats().reparses, 1);
    let fresh = Database::default();
    let fresh_file = new_file(&fresh, &edited);
    assert_eq!(second, codes_and_lines(&fresh, fresh_file));
    assert_eq!(
        fresh.tu_stats(),
        TuStats::default(),
        "no cache: plain parses"
    );
    assert_eq!(
        *parse(&db, file).module.clone().unwrap(),
        *parse(&fresh, fresh_file).module.clone().unwrap()
    );

    // New flags: the unit is parsed anew (a reparse keeps the old arguments).
    file.set_flags(&mut db).to(vec!["-DEXTRA=1".into()]);
    codes_and_lines(&db, file);
    assert_eq!(db.tu_stats().parses, 2);
    assert_eq!(db.tu_stats().reparses, 1);
    db.forget_tu("piece_test.c");
    file.set_text(&mut db).to(TWO.into());
    assert_eq!(codes_and_lines(&db, file), first);
    assert_eq!(db.tu_stats().parses, 3, "forgotten: parsed anew");
}
