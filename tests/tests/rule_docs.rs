//! Documentation generated from the rule registry (`analysis/src/check/rules/mod.rs`), checked
//! to be current; `UPDATE_EXPECT=1` rewrites it:
//! - README.md's rule table, between `<!-- rules:begin -->` and `<!-- rules:end -->`;
//! - the `## Tests` section that ends each rule's page (`rules/NAME.md`): the programs of
//!   tests/check/ whose `.expect` names the rule's code.

use omplens_analysis::check::rules::{self, Code, Rule, RULES, TESTS_HEADING};
use omplens_tests::snapshot;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const BEGIN: &str = "<!-- rules:begin -->\n";
const END: &str = "<!-- rules:end -->\n";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate is in the workspace")
        .to_path_buf()
}

/// `text` with the part between the markers replaced by the registry's table.
fn with_table(text: &str) -> Result<String, String> {
    let begin = text.find(BEGIN).ok_or("no `<!-- rules:begin -->` line")? + BEGIN.len();
    let end = text[begin..]
        .find(END)
        .ok_or("no `<!-- rules:end -->` line after `<!-- rules:begin -->`")?
        + begin;
    Ok(format!(
        "{}<!-- generated from the rule registry (analysis/src/check/rules/mod.rs); \
         UPDATE_EXPECT=1 cargo test -p omplens-tests --test rule_docs rewrites it -->\n{}{}",
        &text[..begin],
        rules::markdown_table(),
        &text[end..]
    ))
}

#[test]
fn readme_rule_table_is_current() {
    let path = repo().join("README.md");
    let text = std::fs::read_to_string(&path).expect("README.md");
    let current = with_table(&text).unwrap_or_else(|e| panic!("README.md: {e}"));
    snapshot::check(&path, &current).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn the_table_has_a_row_per_rule() {
    let table = rules::markdown_table();
    assert_eq!(table.lines().count(), RULES.len() + 2);
    for r in RULES {
        let row = format!("| {} | {} | {} |", r.code, r.name, r.severity.name());
        assert!(table.contains(&row), "{row}\n{table}");
    }
    let edited =
        with_table("intro\n<!-- rules:begin -->\nold\n<!-- rules:end -->\nrest\n").unwrap();
    assert!(edited.starts_with("intro\n<!-- rules:begin -->\n<!-- generated"));
    assert!(edited.ends_with(&format!("{}<!-- rules:end -->\nrest\n", table)));
    assert!(with_table("no markers\n").is_err());
}

/// The programs of tests/check/ (file names) whose `.expect` names each code, and whether
/// the expectation is a known gap.
fn fixtures() -> BTreeMap<Code, Vec<(String, bool)>> {
    let dir = repo().join("tests/check");
    let mut out: BTreeMap<Code, Vec<(String, bool)>> = BTreeMap::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/check")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let Some(stem) = name.strip_suffix(".expect") else {
            continue;
        };
        let program = ["c", "cpp"]
            .iter()
            .map(|ext| format!("{stem}.{ext}"))
            .find(|p| dir.join(p).is_file())
            .unwrap_or_else(|| panic!("{name} has no program beside it"));
        let text = std::fs::read_to_string(dir.join(&name)).expect("read .expect");
        for line in text.lines() {
            let (body, comment) = line.split_once('#').unwrap_or((line, ""));
            let Some(code) = body.split_whitespace().nth(1) else {
                continue;
            };
            let code: Code = code.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            let gap = comment.contains("known gap");
            let list = out.entry(code).or_default();
            match list.iter_mut().find(|(p, _)| *p == program) {
                Some(entry) => entry.1 &= gap,
                None => list.push((program.clone(), gap)),
            }
        }
    }
    out
}

fn tests_section(rule: &Rule, programs: &[(String, bool)]) -> String {
    let list = if programs.is_empty() {
        "none yet".to_string()
    } else {
        programs
            .iter()
            .map(|(p, gap)| {
                let gap = if *gap { " (a known gap)" } else { "" };
                format!("`{p}`{gap}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "{TESTS_HEADING}Programs of `tests/check/` that expect {} (each with its `.expect` and its snapshot `.snap` beside it): {list}.\n",
        rule.code
    )
}

#[test]
fn rule_pages_name_their_tests() {
    let fixtures = fixtures();
    let mut stale = Vec::new();
    for rule in RULES {
        let path = repo()
            .join("analysis/src/check/rules")
            .join(format!("{}.md", rule.name.replace('-', "_")));
        let doc =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            doc,
            rule.doc,
            "{} is not the page of {}",
            path.display(),
            rule.code
        );
        let programs = fixtures.get(&rule.code).map_or(&[][..], Vec::as_slice);
        let current = format!("{}{}", rule.page(), tests_section(rule, programs));
        if let Err(e) = snapshot::check(&path, &current) {
            stale.push(e);
        }
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}
