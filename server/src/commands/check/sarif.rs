//! `--format sarif`: SARIF 2.1.0 as GitHub code scanning reads it.
//!
//! Paths are relative to the current directory (`uriBaseId: %SRCROOT%`) when they can be;
//! columns count Unicode code points (`columnKind`). `partialFingerprints` hash the rule, the
//! file and the trimmed text of the line, so a result keeps its identity when lines move.

use super::analyse::Checked;
use super::lines::Lines;
use omplens_analysis::check::rules::{Rule, RULES};
use omplens_analysis::check::{Finding, Severity};
use omplens_analysis::frontend::flags::lexical as normalize;
use omplens_analysis::ir::Span;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
const SRCROOT: &str = "%SRCROOT%";

#[derive(Serialize)]
pub struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    original_uri_base_ids: BTreeMap<&'static str, ArtifactLocation>,
    column_kind: &'static str,
    results: Vec<SarifResult>,
    invocations: Vec<Invocation>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    semantic_version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    information_uri: Option<&'static str>,
    rules: Vec<ReportingDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor {
    id: &'static str,
    name: String,
    short_description: Message,
    full_description: Message,
    help: Help,
    default_configuration: Configuration,
    properties: Properties,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: &'static str,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Properties {
    tags: Vec<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message,
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix>,
    partial_fingerprints: BTreeMap<&'static str, String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Message>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix {
    description: Message,
    artifact_changes: Vec<ArtifactChange>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    deleted_region: Region,
    inserted_content: Content,
}

#[derive(Serialize)]
struct Content {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Message,
}

pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

/// `stale-host-read` → `StaleHostRead`.
fn pascal_case(name: &str) -> String {
    name.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// The first paragraph of a rule's page below its title, or the summary.
fn full_description(rule: &Rule) -> String {
    rule.page()
        .split("\n\n")
        .map(str::trim)
        .find(|p| !p.is_empty() && !p.starts_with('#'))
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| rule.summary.to_string())
}

fn descriptor(rule: &'static Rule) -> ReportingDescriptor {
    ReportingDescriptor {
        id: rule.code.as_str(),
        name: pascal_case(rule.name),
        short_description: Message {
            text: rule.summary.to_string(),
        },
        full_description: Message {
            text: full_description(rule),
        },
        help: Help {
            text: format!("{} (omplens explain {})", rule.summary, rule.code),
            markdown: rule.page(),
        },
        default_configuration: Configuration {
            level: level(rule.severity),
        },
        properties: Properties {
            tags: vec![rule.family.name(), "openmp"],
        },
    }
}

/// Where a file is: relative to `cwd` under `%SRCROOT%` when it is below it, else a `file:`
/// URI.
fn artifact(path: &Path, cwd: Option<&Path>) -> ArtifactLocation {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let abs = normalize(&abs);
    if let Some(rel) = cwd.and_then(|c| abs.strip_prefix(normalize(c)).ok()) {
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        return ArtifactLocation {
            uri: encode(&parts.join("/")),
            uri_base_id: Some(SRCROOT),
        };
    }
    ArtifactLocation {
        uri: file_uri(&abs),
        uri_base_id: None,
    }
}

fn file_uri(abs: &Path) -> String {
    let s = abs.to_string_lossy().replace('\\', "/");
    let s = if s.starts_with('/') {
        s
    } else {
        format!("/{s}")
    };
    format!("file://{}", encode(&s))
}

/// Percent-encodes what may not appear in a URI path.
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn region(lines: &Lines, span: Span, non_empty: bool) -> Region {
    let start = lines.position(span.start);
    let end = lines.position(span.end.max(span.start));
    let mut r = Region {
        start_line: start.line,
        start_column: start.column,
        end_line: end.line,
        end_column: end.column,
    };
    // An empty region is an insertion point; a result must point at something.
    if non_empty && (r.end_line, r.end_column) <= (r.start_line, r.start_column) {
        r.end_line = r.start_line;
        r.end_column = r.start_column + 1;
    }
    r
}

/// FNV-1a, 64 bits: stable across Rust versions, unlike `DefaultHasher`.
fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn result(
    f: &Finding,
    lines: &Lines,
    location: &ArtifactLocation,
    cwd: Option<&Path>,
    occurrences: &mut HashMap<u64, u32>,
) -> SarifResult {
    // `RULES` is in code order: a code's index is its place in it.
    let rule_index = f.code as usize;
    let physical = |span: Span| PhysicalLocation {
        artifact_location: location.clone(),
        region: region(lines, span, true),
    };
    let line = lines.line_text(lines.position(f.span.start).line).trim();
    let base = fnv1a(&[f.code.as_str(), &location.uri, line]);
    // Identical lines with the same finding get `:1`, `:2`… as GitHub's own hashes do.
    let n = occurrences.entry(base).or_insert(0);
    *n += 1;
    SarifResult {
        rule_id: f.code.as_str(),
        rule_index,
        level: level(f.severity),
        message: Message {
            text: f.message.clone(),
        },
        locations: vec![Location {
            id: None,
            physical_location: physical(f.span),
            message: None,
        }],
        related_locations: f
            .related
            .iter()
            .enumerate()
            .map(|(i, r)| Location {
                id: Some(i + 1),
                physical_location: match &r.header {
                    // A place in a project header: that file and its own positions.
                    Some(h) => PhysicalLocation {
                        artifact_location: artifact(Path::new(&h.header.path), cwd),
                        region: region(&Lines::new(&h.header.text), h.span, true),
                    },
                    None => physical(r.span),
                },
                message: Some(Message {
                    text: r.message.clone(),
                }),
            })
            .collect(),
        fixes: f
            .fixes
            .iter()
            .map(|fix| SarifFix {
                description: Message {
                    text: fix.title.clone(),
                },
                artifact_changes: vec![ArtifactChange {
                    artifact_location: location.clone(),
                    replacements: fix
                        .edits
                        .iter()
                        .map(|e| Replacement {
                            deleted_region: region(lines, Span::new(e.start, e.end), false),
                            inserted_content: Content {
                                text: e.text.clone(),
                            },
                        })
                        .collect(),
                }],
            })
            .collect(),
        partial_fingerprints: BTreeMap::from([("omplensLineHash/v1", format!("{base:016x}:{n}"))]),
    }
}

/// The log of one run over `files`; `problems` are files that could not be checked or
/// were checked only in part.
pub fn log(files: &[Checked], problems: &[String], cwd: Option<&Path>) -> Log {
    let mut results = Vec::new();
    for file in files {
        let lines = Lines::new(&file.text);
        let location = artifact(&file.path, cwd);
        let mut occurrences = HashMap::new();
        results.extend(
            file.findings
                .iter()
                .map(|f| result(f, &lines, &location, cwd, &mut occurrences)),
        );
    }
    let mut base_ids = BTreeMap::new();
    if let Some(cwd) = cwd {
        let mut uri = file_uri(&normalize(cwd));
        if !uri.ends_with('/') {
            uri.push('/');
        }
        base_ids.insert(
            SRCROOT,
            ArtifactLocation {
                uri,
                uri_base_id: None,
            },
        );
    }
    let repository = env!("CARGO_PKG_REPOSITORY");
    Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "omplens",
                    version: env!("CARGO_PKG_VERSION"),
                    semantic_version: env!("CARGO_PKG_VERSION"),
                    information_uri: (!repository.is_empty()).then_some(repository),
                    rules: RULES.iter().map(descriptor).collect(),
                },
            },
            original_uri_base_ids: base_ids,
            column_kind: "unicodeCodePoints",
            results,
            invocations: vec![Invocation {
                execution_successful: true,
                tool_execution_notifications: problems
                    .iter()
                    .map(|p| Notification {
                        level: "warning",
                        message: Message { text: p.clone() },
                    })
                    .collect(),
            }],
        }],
    }
}

pub fn render(files: &[Checked], problems: &[String], cwd: Option<&Path>) -> String {
    let mut s = serde_json::to_string_pretty(&log(files, problems, cwd)).expect("SARIF serializes");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use omplens_analysis::check::{Fix, Related};
    use omplens_analysis::text::TextEdit;
    use serde_json::Value;
    use std::path::PathBuf;

    fn sample() -> Checked {
        let text = "int main() {\n  a[0] = 1;\n  f(a[0]);\n  f(a[0]);\n}\n";
        let at = |n: &str, k: usize| text.match_indices(n).nth(k).unwrap().0 as u32;
        let finding = |start: u32| Finding {
            code: omplens_analysis::check::Code::OMP101,
            severity: Severity::Error,
            span: Span::new(start, start + 4),
            message: "stale".to_string(),
            related: vec![Related {
                span: Span::new(at("a[0]", 0), at("a[0]", 0) + 4),
                message: "written here".to_string(),
                header: None,
            }],
            fixes: vec![Fix {
                title: "map tofrom".to_string(),
                edits: vec![TextEdit {
                    start: 0,
                    end: 0,
                    text: "// x\n".to_string(),
                }],
            }],
            bytes: None,
            multiplier: None,
        };
        Checked {
            path: PathBuf::from("src/my file.c"),
            text: text.to_string(),
            findings: vec![finding(at("a[0]", 1)), finding(at("a[0]", 2))],
            compile_errors: Vec::new(),
            fixed: 0,
            notes: Vec::new(),
            stopped: None,
            without_openmp: false,
        }
    }

    #[test]
    fn shape_github_needs() {
        let cwd = std::env::current_dir().unwrap();
        let v: Value = serde_json::from_str(&render(
            &[sample()],
            &["x.c: could not be parsed".to_string()],
            Some(&cwd),
        ))
        .unwrap();
        assert_eq!(v["$schema"], SCHEMA);
        assert_eq!(v["version"], "2.1.0");
        let run = &v["runs"][0];
        let driver = &run["tool"]["driver"];
        assert_eq!(driver["name"], "omplens");
        let rules = driver["rules"].as_array().unwrap();
        assert_eq!(rules.len(), RULES.len());
        for (r, rule) in rules.iter().zip(RULES) {
            assert_eq!(r["id"], rule.code.as_str());
            assert!(r["shortDescription"]["text"].as_str().unwrap().len() > 3);
            assert!(r["fullDescription"]["text"].is_string());
            assert!(!r["help"]["markdown"].as_str().unwrap().is_empty());
            let level = r["defaultConfiguration"]["level"].as_str().unwrap();
            assert!(["error", "warning", "note"].contains(&level));
        }
        assert_eq!(rules[0]["name"], "StaleHostRead");
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), 2);
        let r = &results[0];
        assert_eq!(r["ruleId"], "OMP101");
        assert_eq!(r["ruleIndex"], 0);
        assert_eq!(r["level"], "error");
        assert_eq!(r["message"]["text"], "stale");
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "src/my%20file.c");
        assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert_eq!(loc["region"]["startLine"], 3);
        assert_eq!(loc["region"]["startColumn"], 5);
        assert_eq!(loc["region"]["endColumn"], 9);
        let rel = &r["relatedLocations"][0];
        assert_eq!(rel["id"], 1);
        assert_eq!(rel["message"]["text"], "written here");
        assert_eq!(rel["physicalLocation"]["region"]["startLine"], 2);
        let rep = &r["fixes"][0]["artifactChanges"][0]["replacements"][0];
        assert_eq!(rep["deletedRegion"]["startLine"], 1);
        assert_eq!(rep["deletedRegion"]["endColumn"], 1);
        assert_eq!(rep["insertedContent"]["text"], "// x\n");
        // Same rule, same line text: told apart by the occurrence count.
        let fp0 = r["partialFingerprints"]["omplensLineHash/v1"]
            .as_str()
            .unwrap();
        let fp1 = results[1]["partialFingerprints"]["omplensLineHash/v1"]
            .as_str()
            .unwrap();
        assert_ne!(fp0, fp1);
        assert_eq!(fp0.split(':').next(), fp1.split(':').next());
        let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            .as_str()
            .unwrap();
        assert!(base.starts_with("file:///") && base.ends_with('/'));
        assert_eq!(
            run["invocations"][0]["toolExecutionNotifications"][0]["level"],
            "warning"
        );
    }

    #[test]
    fn paths_outside_the_directory_are_file_uris() {
        let a = artifact(Path::new("/elsewhere/x.c"), Some(Path::new("/home/me")));
        assert_eq!(a.uri, "file:///elsewhere/x.c");
        assert!(a.uri_base_id.is_none());
        let a = artifact(Path::new("/home/me/./d/x.c"), Some(Path::new("/home/me")));
        assert_eq!(a.uri, "d/x.c");
    }

    #[test]
    fn names_and_levels() {
        assert_eq!(pascal_case("stale-host-read"), "StaleHostRead");
        assert_eq!(level(Severity::Hint), "note");
        assert_eq!(level(Severity::Info), "note");
    }
}
