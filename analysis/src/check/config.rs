//! `.omplens.toml`: which rules run and how severe they are.
//!
//! ```toml
//! [check]
//! select = ["OMP1", "OMP201"]           # only these (codes, code prefixes or rule names)
//! ignore = ["OMP208", "scalar-map-to"]  # never these (wins over `select`)
//! [check.severity]                     # per-rule override (codes, prefixes or names)
//! OMP205 = "hint"
//! ```
//!
//! The file is found by walking up from the checked file's directory; the nearest one wins
//! and is not merged with those further up (as ruff does).

use super::rules::{Code, RULES};
use super::{Finding, Severity};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The name of the configuration file.
pub const FILE_NAME: &str = ".omplens.toml";

/// A loaded configuration, its names resolved to rule codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    enabled: BTreeSet<Code>,
    severity: BTreeMap<Code, Severity>,
}

impl Default for Config {
    /// Every rule, at its own severity.
    fn default() -> Config {
        Config {
            enabled: RULES.iter().map(|r| r.code).collect(),
            severity: BTreeMap::new(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    check: CheckSection,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct CheckSection {
    select: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    ignore: Vec<Spanned<String>>,
    #[serde(default)]
    severity: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// A name in a configuration and the 1-based line it is on (none for an editor's settings).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Name {
    text: String,
    line: Option<usize>,
}

impl Name {
    fn at(text: &str, spanned: &Spanned<String>) -> Name {
        let offset = spanned.span().start.min(text.len());
        Name {
            text: spanned.get_ref().clone(),
            line: Some(text[..offset].matches('\n').count() + 1),
        }
    }

    fn unplaced(text: &str) -> Name {
        Name {
            text: text.to_string(),
            line: None,
        }
    }

    /// `OMP999 (line 3)`.
    fn describe(&self, what: String) -> String {
        match self.line {
            Some(l) => format!("{what} (line {l})"),
            None => what,
        }
    }
}

/// `[check]` with every name placed: what [`resolve_section`] works on.
struct Section {
    select: Option<Vec<Name>>,
    ignore: Vec<Name>,
    /// (rule selector, severity level).
    severity: Vec<(Name, Name)>,
}

/// Reads and resolves the configuration file at `path`.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&text).map_err(|message| ConfigError::Invalid {
        path: path.to_path_buf(),
        message,
    })
}

/// The nearest `.omplens.toml` in `start_dir` or its ancestors, loaded.
pub fn discover(start_dir: &Path) -> Result<Option<(PathBuf, Config)>, ConfigError> {
    let start = std::path::absolute(start_dir).unwrap_or_else(|_| start_dir.to_path_buf());
    for dir in start.ancestors() {
        let cand = dir.join(FILE_NAME);
        if cand.is_file() {
            return load(&cand).map(|c| Some((cand, c)));
        }
    }
    Ok(None)
}

/// Parses the text of a configuration file; the error is the message without the path.
pub fn parse(text: &str) -> Result<Config, String> {
    let file: File = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())?;
    let check = file.check;
    let names = |list: &[Spanned<String>]| list.iter().map(|n| Name::at(text, n)).collect();
    resolve_section(Section {
        select: check.select.as_deref().map(names),
        ignore: names(&check.ignore),
        severity: check
            .severity
            .iter()
            .map(|(k, v)| (Name::at(text, k), Name::at(text, v)))
            .collect(),
    })
}

/// A configuration from `select` / `ignore` lists as `[check]` takes them (an editor's
/// settings); every rule keeps its severity.
pub fn from_selectors(select: Option<&[String]>, ignore: &[String]) -> Result<Config, String> {
    let names = |list: &[String]| list.iter().map(|n| Name::unplaced(n)).collect();
    resolve_section(Section {
        select: select.map(names),
        ignore: names(ignore),
        severity: Vec::new(),
    })
}

/// Resolves the names of `section` to codes. Every name that is no rule, code prefix or
/// severity is named in the error, with its line.
fn resolve_section(section: Section) -> Result<Config, String> {
    let mut unknown = Vec::new();
    let mut resolve = |names: &[Name]| -> BTreeSet<Code> {
        let mut out = BTreeSet::new();
        for n in names {
            let codes = matching(&n.text);
            if codes.is_empty() {
                unknown.push(n.describe(n.text.clone()));
            }
            out.extend(codes);
        }
        out
    };
    let selected = match &section.select {
        Some(names) => resolve(names),
        None => RULES.iter().map(|r| r.code).collect(),
    };
    let ignored = resolve(&section.ignore);
    // Broader selectors first, so `OMP205 = "hint"` beats `OMP2 = "warning"`.
    let mut overrides: Vec<&(Name, Name)> = section.severity.iter().collect();
    overrides.sort_by_key(|(name, _)| specificity(&name.text));
    let mut severity = BTreeMap::new();
    let mut bad_levels = Vec::new();
    for (name, level) in overrides {
        let Some(level) = severity_named(&level.text) else {
            bad_levels.push(level.describe(format!("{} = {:?}", name.text, level.text)));
            continue;
        };
        let codes = resolve(std::slice::from_ref(name));
        for code in codes {
            severity.insert(code, level);
        }
    }
    if !unknown.is_empty() {
        return Err(format!(
            "unknown rule{} {} (see `omplens explain --list`)",
            if unknown.len() == 1 { "" } else { "s" },
            unknown.join(", ")
        ));
    }
    if !bad_levels.is_empty() {
        return Err(format!(
            "invalid severity in [check.severity]: {} (expected \"error\", \"warning\", \"info\" or \"hint\")",
            bad_levels.join(", ")
        ));
    }
    Ok(Config {
        enabled: selected.difference(&ignored).copied().collect(),
        severity,
    })
}

impl Config {
    /// Whether findings of `code` are reported.
    pub fn enabled(&self, code: Code) -> bool {
        self.enabled.contains(&code)
    }

    /// The severity `code` reports with, if overridden.
    pub fn severity_of(&self, code: Code) -> Option<Severity> {
        self.severity.get(&code).copied()
    }

    /// Drops the findings of disabled rules and applies the severity overrides.
    pub fn apply(&self, findings: Vec<Finding>) -> Vec<Finding> {
        findings
            .into_iter()
            .filter(|f| self.enabled(f.code))
            .map(|mut f| {
                if let Some(s) = self.severity_of(f.code) {
                    f.severity = s;
                }
                f
            })
            .collect()
    }
}

/// The codes a selector names: an exact code or rule name, or a code prefix (`OMP1`).
fn matching(selector: &str) -> Vec<Code> {
    let s = selector.trim();
    if let Some(r) = super::rules::lookup(s) {
        return vec![r.code];
    }
    if s.is_empty() {
        return Vec::new();
    }
    RULES
        .iter()
        .filter(|r| {
            r.code
                .as_str()
                .get(..s.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(s))
        })
        .map(|r| r.code)
        .collect()
}

/// Exact codes and names are the most specific; a longer prefix is more specific.
fn specificity(selector: &str) -> usize {
    if super::rules::lookup(selector.trim()).is_some() {
        usize::MAX
    } else {
        selector.trim().len()
    }
}

fn severity_named(name: &str) -> Option<Severity> {
    [
        Severity::Error,
        Severity::Warning,
        Severity::Info,
        Severity::Hint,
    ]
    .into_iter()
    .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Span;

    fn finding(code: Code, severity: Severity) -> Finding {
        Finding {
            code,
            severity,
            span: Span::new(0, 1),
            message: String::new(),
            related: Vec::new(),
            fixes: Vec::new(),
            bytes: None,
            multiplier: None,
        }
    }

    #[test]
    fn empty_file_enables_everything() {
        let c = parse("").unwrap();
        assert_eq!(c, Config::default());
        assert!(RULES.iter().all(|r| c.enabled(r.code)));
    }

    #[test]
    fn select_by_prefix_code_and_name() {
        let c = parse("[check]\nselect = [\"OMP1\", \"omp201\", \"scalar-map-to\"]\n").unwrap();
        assert!(c.enabled(Code::OMP101) && c.enabled(Code::OMP109));
        assert!(c.enabled(Code::OMP201) && c.enabled(Code::OMP208));
        assert!(!c.enabled(Code::OMP202) && !c.enabled(Code::OMP209));
    }

    #[test]
    fn ignore_wins_over_select() {
        let c =
            parse("[check]\nselect = [\"OMP2\"]\nignore = [\"OMP208\", \"round-trip\"]\n").unwrap();
        assert!(c.enabled(Code::OMP201));
        assert!(!c.enabled(Code::OMP208) && !c.enabled(Code::OMP203) && !c.enabled(Code::OMP101));
    }

    #[test]
    fn severity_overrides_most_specific_last() {
        let c = parse(
            "[check.severity]\nOMP205 = \"hint\"\nOMP2 = \"info\"\n\"stale-host-read\" = \"Warning\"\n",
        )
        .unwrap();
        assert_eq!(c.severity_of(Code::OMP205), Some(Severity::Hint));
        assert_eq!(c.severity_of(Code::OMP201), Some(Severity::Info));
        assert_eq!(c.severity_of(Code::OMP101), Some(Severity::Warning));
        assert_eq!(c.severity_of(Code::OMP102), None);
    }

    #[test]
    fn apply_drops_and_overrides() {
        let c = parse("[check]\nignore = [\"OMP208\"]\n[check.severity]\nOMP101 = \"warning\"\n")
            .unwrap();
        let out = c.apply(vec![
            finding(Code::OMP101, Severity::Error),
            finding(Code::OMP208, Severity::Hint),
            finding(Code::OMP201, Severity::Warning),
        ]);
        let got: Vec<_> = out.iter().map(|f| (f.code, f.severity)).collect();
        assert_eq!(
            got,
            vec![
                (Code::OMP101, Severity::Warning),
                (Code::OMP201, Severity::Warning)
            ]
        );
    }

    #[test]
    fn unknown_rules_are_named() {
        let e =
            parse("[check]\nignore = [\"OMP999\", \"OMP101\", \"no-such-rule\"]\n").unwrap_err();
        assert!(e.contains("OMP999") && e.contains("no-such-rule"), "{e}");
        assert!(!e.contains("OMP101"), "{e}");
        let e = parse("[check.severity]\nOMP7 = \"hint\"\n").unwrap_err();
        assert!(e.contains("OMP7"), "{e}");
    }

    #[test]
    fn unknown_rules_and_bad_levels_name_their_lines() {
        let e = parse("[check]\nselect = [\"OMP1\",\n  \"OMP999\"]\nignore = [\"nope\"]\n")
            .unwrap_err();
        assert_eq!(
            e,
            "unknown rules OMP999 (line 3), nope (line 4) (see `omplens explain --list`)"
        );
        let e = parse("# levels\n[check.severity]\nOMP7 = \"hint\"\n").unwrap_err();
        assert_eq!(
            e,
            "unknown rule OMP7 (line 3) (see `omplens explain --list`)"
        );
        let e = parse("[check.severity]\nOMP101 = \"error\"\nOMP102 = \"fatal\"\n").unwrap_err();
        assert!(e.contains("OMP102 = \"fatal\" (line 3)"), "{e}");
        // An editor's settings have no lines.
        let e = from_selectors(None, &["OMP999".to_string()]).unwrap_err();
        assert_eq!(e, "unknown rule OMP999 (see `omplens explain --list`)");
    }

    #[test]
    fn bad_values_and_keys_are_errors() {
        let e = parse("[check.severity]\nOMP101 = \"fatal\"\n").unwrap_err();
        assert!(e.contains("fatal"), "{e}");
        let e = parse("[check]\nselec = [\"OMP1\"]\n").unwrap_err();
        assert!(e.contains("selec"), "{e}");
        let e = parse("[check]\nignore = \"OMP101\"\n").unwrap_err();
        assert!(!e.is_empty());
        assert!(parse("[check\n").is_err());
    }

    #[test]
    fn selectors_as_an_editor_gives_them() {
        let c = from_selectors(Some(&["OMP1".to_string()]), &["OMP101".to_string()]).unwrap();
        assert!(c.enabled(Code::OMP102) && !c.enabled(Code::OMP101) && !c.enabled(Code::OMP201));
        assert_eq!(from_selectors(None, &[]).unwrap(), Config::default());
        let e = from_selectors(None, &["OMP999".to_string()]).unwrap_err();
        assert!(e.contains("OMP999"), "{e}");
    }

    #[test]
    fn load_names_the_file() {
        let dir = std::env::temp_dir().join(format!("omplens-config-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        let path = dir.join(FILE_NAME);
        std::fs::write(&path, "[check]\nignore = [\n").unwrap();
        let e = load(&path).unwrap_err().to_string();
        assert!(e.contains(".omplens.toml"), "{e}");

        std::fs::write(&path, "[check]\nignore = [\"OMP208\"]\n").unwrap();
        let (found, c) = discover(&dir.join("a/b")).unwrap().unwrap();
        assert_eq!(found, path);
        assert!(!c.enabled(Code::OMP208));
        // The nearest file wins, with no merging.
        std::fs::write(
            dir.join("a").join(FILE_NAME),
            "[check]\nignore = [\"OMP101\"]\n",
        )
        .unwrap();
        let (found, c) = discover(&dir.join("a/b")).unwrap().unwrap();
        assert_eq!(found, dir.join("a").join(FILE_NAME));
        assert!(c.enabled(Code::OMP208) && !c.enabled(Code::OMP101));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
