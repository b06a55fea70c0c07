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
    SourceFile::new(db, "piece_test.c".into(), text.into(), vec![], 0)
}

fn codes_and_lines(db: &Database, file: SourceFile) -> Vec<(u32, &'static str, String)> {
    let module = parse(db, file).module.clone().expect("parses");
    file_findings(db, file)
        .iter()
        .map(|f| {
            (
                module.line_col(f.span.start).0,
                f.code.as_str(),
                f.message.clone(),
            )
        })
        .collect()
}

/// [`codes_and_lines`] of `text` checked whole, without the database.
fn whole_file(text: &str) -> Vec<(u32, &'static str, String)> {
    let module = crate::frontend::lower_file(std::path::Path::new("piece_test.c"), Some(text), &[])
        .expect("lowers");
    check::check(&module, text)
        .into_iter()
        .map(|f| (module.line_col(f.span.start).0, f.code.as_str(), f.message))
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
            "piece_facts scale",
            "piece_facts shift",
            "piece_facts total",
            "piece_findings scale",
            "piece_findings shift",
            "piece_findings total"
        ]
    );

    // Inside `shift`: only its component runs again.
    let edited = TWO.replace("c[i] + 1.0", "c[i] + 2.0");
    file.set_text(&mut db).to(edited.clone());
    let second = codes_and_lines(&db, file);
    assert_eq!(executed(&db), ["piece_facts shift", "piece_findings shift"]);
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
    assert_eq!(third, whole_file(&text));
    assert!(third.iter().any(|(_, _, m)| m.contains("loop at line 6")));
}

#[test]
fn an_edit_inside_a_comment_reruns_nothing_past_parsing() {
    if crate::frontend::ensure_libclang().is_err() {
        eprintln!("libclang not available: skipped");
        return;
    }
    let with_comment = TWO.replace(
        "    c[i] = c[i] + 1.0;",
        "    c[i] = c[i] + 1.0; /* shift by one */",
    );
    let mut db = Database::default();
    let file = new_file(&db, &with_comment);
    let first = codes_and_lines(&db, file);
    executed(&db);
    // Typing inside the comment (longer, shorter): no analysis runs, the findings stay.
    for edit in ["/* shift every element by one */", "/* +1 */"] {
        let text = with_comment.replace("/* shift by one */", edit);
        file.set_text(&mut db).to(text.clone());
        let again = codes_and_lines(&db, file);
        assert!(executed(&db).is_empty(), "{edit}");
        assert_eq!(first, again, "{edit}");
        // And they are the whole file's.
        assert_eq!(again, whole_file(&text));
    }
    // A comment that gains a line moves what follows it: that piece runs again.
    let text = with_comment.replace("/* shift by one */", "/* shift\n by one */");
    file.set_text(&mut db).to(text);
    codes_and_lines(&db, file);
    assert_eq!(executed(&db), ["piece_facts shift", "piece_findings shift"]);
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
            "piece_facts scale",
            "piece_facts shift",
            "piece_facts total",
            "piece_findings scale",
            "piece_findings shift",
            "piece_findings total"
        ]
    );
    // An edit in main re-runs main's component, which holds `scale` (its callee).
    file.set_text(&mut db)
        .to(text.replace("return (int)x[0];", "return (int)x[1];"));
    file_findings(&db, file);
    assert_eq!(executed(&db), ["piece_facts scale", "piece_findings scale"]);
}

/// `path` lowered as the database's `parse` lowers it: with what the project's other files
/// say (summaries, member lengths).
fn lowered_as_parse(path: &std::path::Path, text: &str, flags: &[String]) -> crate::ir::Module {
    let mut module = crate::frontend::lower_file(path, Some(text), flags).expect("lowers");
    crate::project::attach(&mut module, None);
    crate::project::attach_member_lengths(&mut module, text, None);
    module
}

/// The pieces together say what the whole-file check says, on every program of tests/check
/// and tests/fix.
#[test]
fn pieces_agree_with_the_whole_file_check() {
    if !crate::frontend::slow_test_with_libclang("db::pieces_agree_with_the_whole_file_check") {
        return;
    }
    let db = Database::default();
    for (path, flags) in corpus() {
        let text = std::fs::read_to_string(&path).unwrap();
        let module = lowered_as_parse(&path, &text, &flags);
        let whole = check::check(&module, &text);
        let file = SourceFile::new(&db, path.display().to_string(), text, flags, 0);
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
    assert_eq!(db.tu_stats().counts(), (1, 0, 0));
    // The first parse is plain; the unit with a preamble comes from the background.
    db.tu_cache().expect("a cache").settle();
    assert_eq!(db.tu_stats().preambles, 1);

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

/// The programs of tests/check and tests/fix with their flags.
fn corpus() -> Vec<(std::path::PathBuf, Vec<String>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests");
    let mut files: Vec<_> = ["check", "fix"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).expect("tests/check, tests/fix"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "cpp")))
        .collect();
    files.sort();
    assert!(files.len() > 100);
    files
        .into_iter()
        .map(|p| {
            let flags = if p.extension().is_some_and(|e| e == "cpp") {
                vec!["-std=c++17".to_string()]
            } else {
                vec![]
            };
            (p, flags)
        })
        .collect()
}

/// Items in a canonical order, for lists whose order the pieces need not keep.
fn canonical<T: std::fmt::Debug>(v: &[T]) -> Vec<String> {
    let mut out: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
    out.sort();
    out
}

/// The pieces' views and plans, moved back to the file, are the whole file's: same
/// directives (ids, spans, copies), same accesses, same function plans, diagnostics and edits.
#[test]
fn pieces_views_and_plans_agree_with_the_whole_file() {
    if !crate::frontend::slow_test_with_libclang(
        "db::pieces_views_and_plans_agree_with_the_whole_file",
    ) {
        return;
    }
    let db = Database::default();
    let (mut directives, mut accesses, mut planned, mut edits) = (0, 0, 0, 0);
    for (path, flags) in corpus() {
        let text = std::fs::read_to_string(&path).unwrap();
        let module = lowered_as_parse(&path, &text, &flags);
        let file = SourceFile::new(&db, path.display().to_string(), text.clone(), flags, 0);
        let name = path.display();

        let whole = crate::view::view(&module, &crate::check::env::interpret(&module, &text));
        let pieces = file_view(&db, file);
        assert_eq!(pieces.directives, whole.directives, "{name}: directives");
        assert_eq!(
            canonical(&pieces.accesses),
            canonical(&whole.accesses),
            "{name}: accesses"
        );
        directives += whole.directives.len();
        accesses += whole.accesses.len();

        let whole = crate::plan::plan(&module);
        let pieces = file_plan(&db, file);
        assert_eq!(pieces.functions, whole.functions, "{name}: function plans");
        assert_eq!(
            canonical(&pieces.diagnostics),
            canonical(&whole.diagnostics),
            "{name}: plan diagnostics"
        );
        let e = whole.edits(&module, &text);
        assert_eq!(pieces.edits(&module, &text), e, "{name}: edits");
        planned += whole.functions.len();
        edits += e.len();
    }
    // The corpus exercises every part of the mapping.
    assert!(
        directives > 100 && accesses > 1000,
        "{directives} {accesses}"
    );
    assert!(planned > 50 && edits > 50, "{planned} {edits}");
}

#[test]
fn an_edit_inside_one_function_recomputes_only_its_view_and_plan() {
    if crate::frontend::ensure_libclang().is_err() {
        return;
    }
    let mut db = Database::default();
    let file = new_file(&db, TWO);
    let view = file_view(&db, file);
    let plan = file_plan(&db, file);
    assert_eq!(
        executed(&db),
        [
            "piece_facts scale",
            "piece_facts shift",
            "piece_facts total",
            "piece_plan scale",
            "piece_plan shift",
            "piece_plan total",
            "piece_view scale",
            "piece_view shift",
            "piece_view total"
        ]
    );
    assert_eq!(view.directives.len(), 3);
    assert_eq!(plan.functions.len(), 3, "{plan:?}");

    // Inside `shift`: only its component's view and plan run again, nothing moves.
    let edited = TWO.replace("c[i] + 1.0", "c[i] + 2.0");
    file.set_text(&mut db).to(edited.clone());
    assert_eq!(file_view(&db, file), view);
    assert_eq!(file_plan(&db, file), plan);
    assert_eq!(
        executed(&db),
        ["piece_facts shift", "piece_plan shift", "piece_view shift"]
    );

    // A line above everything: nothing runs again, and every offset moves by its length.
    let header = "/* header */\n";
    file.set_text(&mut db).to(format!("{header}{edited}"));
    let moved_view = file_view(&db, file);
    let moved_plan = file_plan(&db, file);
    assert_eq!(executed(&db), Vec::<String>::new());
    let n = header.len() as u32;
    let starts = |v: &crate::view::FileView| -> Vec<u32> {
        v.directives
            .iter()
            .map(|d| d.span.start)
            .chain(v.accesses.iter().map(|a| a.span.start))
            .collect()
    };
    assert_eq!(
        starts(&moved_view),
        starts(&view).iter().map(|s| s + n).collect::<Vec<_>>()
    );
    let text = file.text(&db).clone();
    let module = parse(&db, file).module.clone().unwrap();
    assert_eq!(
        moved_plan.edits(&module, &text),
        crate::plan::plan(&module).edits(&module, &text)
    );
}

/// Timing (run with `--ignored --nocapture`): after an edit inside one function of a file of
/// many components, the view and plan from the pieces against the whole-file computation the
/// server did before.
#[test]
#[ignore]
fn time_view_and_plan_after_an_edit() {
    if crate::frontend::ensure_libclang().is_err() {
        return;
    }
    let body = TWO.split_once("#define N 1000\n").unwrap().1;
    let mut text = String::from("#include <stdlib.h>\n#define N 1000\n");
    for k in 0..300 {
        text.push_str(
            &body
                .replace("scale(", &format!("scale{k}("))
                .replace("total(", &format!("total{k}("))
                .replace("shift(", &format!("shift{k}(")),
        );
    }
    let mut db = Database::default();
    let file = new_file(&db, &text);
    file_findings(&db, file);
    file_view(&db, file);
    file_plan(&db, file);
    db.take_log();
    let edited = text.replacen("c[i] + 1.0", "c[i] + 2.0", 1);
    file.set_text(&mut db).to(edited.clone());
    file_findings(&db, file);
    let t = std::time::Instant::now();
    let view = file_view(&db, file);
    let plan = file_plan(&db, file);
    let incremental = t.elapsed();
    assert_eq!(
        executed(&db),
        [
            "piece_facts shift0",
            "piece_findings shift0",
            "piece_plan shift0",
            "piece_view shift0"
        ]
    );
    let module = parse(&db, file).module.clone().unwrap();
    let t = std::time::Instant::now();
    let whole_view = crate::view::view(&module, &crate::check::env::interpret(&module, &edited));
    let whole_plan = crate::plan::plan(&module);
    let whole = t.elapsed();
    assert_eq!(view.directives, whole_view.directives);
    assert_eq!(plan.functions, whole_plan.functions);
    eprintln!(
        "{} lines, {} components: view+plan after an edit {incremental:?} (pieces) vs {whole:?} (whole file)",
        edited.lines().count(),
        pieces(&db, file).len()
    );
}

/// A file holding bodies from a project header is analysed whole: its findings and its view
/// read one interpretation (computed once per revision), and the view and plan see what the
/// header's bodies do, as the findings do.
#[test]
fn a_file_with_header_bodies_is_interpreted_once_for_findings_and_view() {
    if crate::frontend::ensure_libclang().is_err() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("acc.h"),
        "static inline void bump(double *a, int n) { for (int i = 0; i < n; i++) a[i] += 1.0; }\n",
    )
    .unwrap();
    let text = r#"#include "acc.h"
int main(void) {
  double a[64] = {0};
#pragma omp target data map(tofrom: a)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 64; i++) a[i] = i;
    bump(a, 64);
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 64; i++) a[i] *= 2.0;
  }
  return (int)a[3];
}
"#;
    let path = dir.path().join("main.c");
    std::fs::write(&path, text).unwrap();
    let db = Database::default();
    let file = SourceFile::new(&db, path.display().to_string(), text.into(), vec![], 0);
    let module = parse(&db, file).module.clone().expect("parses");
    assert!(checked_whole(&module), "bump's body comes from acc.h");
    let findings = file_findings(&db, file);
    let view = file_view(&db, file);
    assert_eq!(
        executed(&db),
        ["whole_file_facts", "whole_file_findings"],
        "one interpretation for both"
    );
    // The host write in `bump` (the header's body) makes the device copy stale: the second
    // kernel reads it (OMP102), as the whole-file check says.
    let whole = check::check(&module, text);
    assert_eq!(*findings, whole);
    assert!(
        whole.iter().any(|f| f.code.as_str() == "OMP102"),
        "{whole:?}"
    );
    let facts = env::interpret(&module, text);
    assert_eq!(view, crate::view::view(&module, &facts));
    assert_eq!(
        file_plan(&db, file).functions,
        crate::plan::plan(&module).functions
    );
}

/// Timing of a real file (run with `OMPLENS_TIME_FILE=path [OMPLENS_TIME_FLAGS="..."]
/// --ignored --nocapture`; by default the flags its compile database gives, as the language
/// server reads them): its call-graph components, what an edit (a statement added to the
/// first statement line of `main`) runs again, the time of its findings, view and plan from
/// the database (pieces, or the whole file where it is checked whole; cumulative) against the
/// whole-file computation.
#[test]
#[ignore]
fn time_an_edit_of_a_real_file() {
    let Ok(path) = std::env::var("OMPLENS_TIME_FILE") else {
        return;
    };
    crate::frontend::ensure_libclang().expect("libclang");
    // The flags the compile database gives (as the server reads them) unless given.
    let flags: Vec<String> = match std::env::var("OMPLENS_TIME_FLAGS") {
        Ok(f) => f.split_whitespace().map(str::to_string).collect(),
        Err(_) => {
            crate::frontend::flags::flags_for(std::path::Path::new(&path), None, &[])
                .unwrap()
                .args
        }
    };
    eprintln!("flags {flags:?}");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut db = Database::default();
    let file = SourceFile::new(&db, path.clone(), text.clone(), flags, 0);
    let module = parse(&db, file).module.clone().unwrap();
    let sizes: Vec<usize> = piece::components(&module).iter().map(Vec::len).collect();
    eprintln!(
        "{} functions, {} with bodies, checked whole: {}, components {sizes:?}",
        module.functions.len(),
        module.functions.iter().filter(|f| f.has_body).count(),
        checked_whole(&module)
    );
    file_findings(&db, file);
    file_view(&db, file);
    file_plan(&db, file);
    let at = text.find("\nint main").expect("main") + 1;
    let line = text[at..].find(";\n").unwrap() + at + 1;
    let (mut pieces_ms, mut whole_ms) = (Vec::new(), Vec::new());
    for k in 0..10 {
        let mut edited = text.clone();
        edited.insert_str(line, &" (void)0;".repeat(k % 2 + 1));
        file.set_text(&mut db).to(edited.clone());
        let module = parse(&db, file).module.clone().unwrap();
        db.take_log();
        let t = std::time::Instant::now();
        pieces(&db, file);
        let t_pieces = t.elapsed().as_secs_f64() * 1e3;
        file_findings(&db, file);
        let t_findings = t.elapsed().as_secs_f64() * 1e3;
        file_view(&db, file);
        let t_view = t.elapsed().as_secs_f64() * 1e3;
        file_plan(&db, file);
        pieces_ms.push(t.elapsed().as_secs_f64() * 1e3);
        eprintln!(
            "database: pieces {t_pieces:.1} ms, +findings {t_findings:.1}, +view {t_view:.1}, +plan {:.1}",
            pieces_ms.last().unwrap()
        );
        let ran = executed(&db);
        let t = std::time::Instant::now();
        let facts = env::interpret(&module, &edited);
        check::check_facts(&module, &edited, &facts);
        crate::view::view(&module, &facts);
        crate::plan::plan(&module);
        whole_ms.push(t.elapsed().as_secs_f64() * 1e3);
        if k == 0 {
            eprintln!("ran: {ran:?}");
        }
    }
    pieces_ms.sort_by(f64::total_cmp);
    whole_ms.sort_by(f64::total_cmp);
    eprintln!(
        "findings, view and plan after an edit: database {:.1} ms, whole module directly {:.1} ms (medians of 10)",
        pieces_ms[5], whole_ms[5]
    );
}
