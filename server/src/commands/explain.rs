//! `omplens explain CODE|NAME`: a rule's documentation page. Without an argument (or with
//! `--list`): every rule, one per line.

use crate::ExplainArgs;
use anyhow::Result;
use omplens_analysis::check::rules::{self, Rule, RULES};
use std::io::Write;
use std::process::ExitCode;

pub fn run(args: &ExplainArgs) -> Result<ExitCode> {
    let text = match &args.rule {
        None => list(),
        Some(query) => match rules::lookup(query.trim()) {
            Some(rule) => page(rule),
            None => {
                eprintln!("omplens: error: no rule named `{query}`");
                let close = close_matches(query.trim());
                if close.is_empty() {
                    eprintln!("run `omplens explain --list` to see every rule");
                } else {
                    eprintln!("did you mean:");
                    for r in close {
                        eprintln!("  {}  {}", r.code, r.name);
                    }
                }
                return Ok(ExitCode::from(2));
            }
        },
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(ExitCode::SUCCESS)
}

fn page(rule: &Rule) -> String {
    let mut s = rule.page().to_string();
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// `CODE  name  family  summary`, aligned.
fn list() -> String {
    let name_width = RULES.iter().map(|r| r.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for r in RULES {
        out.push_str(&format!(
            "{}  {:name_width$}  {:11}  {}\n",
            r.code,
            r.name,
            r.family.name(),
            r.summary
        ));
    }
    out
}

/// Rules whose code or name is a few edits away from `query`, or that contain it, closest
/// first.
fn close_matches(query: &str) -> Vec<&'static Rule> {
    let q = query.to_ascii_lowercase();
    let mut scored: Vec<(usize, &Rule)> = RULES
        .iter()
        .filter_map(|r| {
            let code = r.code.as_str().to_ascii_lowercase();
            let d = distance(&q, &code).min(distance(&q, r.name));
            let contains = q.len() >= 3 && (r.name.contains(&q) || code.starts_with(&q));
            let near = d <= 2.max(q.len() / 4);
            (near || contains).then_some((if near { d } else { usize::MAX }, r))
        })
        .collect();
    scored.sort_by_key(|(d, r)| (*d, r.code));
    scored.into_iter().take(6).map(|(_, r)| r).collect()
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(distance("kitten", "sitting"), 3);
        let codes = |q: &str| {
            close_matches(q)
                .iter()
                .map(|r| r.code.as_str())
                .collect::<Vec<_>>()
        };
        assert_eq!(codes("OMP11")[0], "OMP101");
        assert!(codes("stale-host-reads").contains(&"OMP101"));
        assert!(codes("stale").contains(&"OMP102"));
        assert!(codes("zzzzzzzzzzzz").is_empty());
    }

    #[test]
    fn list_has_every_rule() {
        let l = list();
        assert_eq!(l.lines().count(), RULES.len());
        assert!(l.contains("OMP101  stale-host-read"));
    }
}
