//! The client's settings, from `initializationOptions` and `workspace/didChangeConfiguration`,
//! either bare or under an `omplens` key:
//!
//! ```json
//! { "compileCommandsDir": "build", "flags": ["-DN=64"],
//!   "checks": { "select": ["OMP1"], "ignore": ["OMP208"] },
//!   "inlayHints": true, "codeLens": true, "debounceMs": 50,
//!   "docsBaseUrl": "https://example.org/omplens/rules/" }
//! ```
//!
//! `.omplens.toml` files still apply; `checks` narrows what they enable.

use omplens_analysis::check::config::{self, Config};
use serde::Deserialize;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

pub const DEFAULT_DEBOUNCE_MS: u64 = 50;
/// Longer than this is surely a mistake (a value in seconds?): capped.
const MAX_DEBOUNCE_MS: u64 = 10_000;

#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub compile_commands_dir: Option<PathBuf>,
    pub flags: Vec<String>,
    /// The client's `checks`, resolved (every rule when it gave none).
    pub checks: Config,
    pub inlay_hints: bool,
    pub code_lens: bool,
    pub debounce: Duration,
    /// Diagnostics link to `{docsBaseUrl}{CODE}` when set.
    pub docs_base_url: Option<String>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            compile_commands_dir: None,
            flags: Vec::new(),
            checks: Config::default(),
            inlay_hints: true,
            code_lens: true,
            debounce: Duration::from_millis(DEFAULT_DEBOUNCE_MS),
            docs_base_url: None,
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Raw {
    compile_commands_dir: Option<String>,
    flags: Vec<String>,
    checks: RawChecks,
    inlay_hints: Option<bool>,
    code_lens: Option<bool>,
    debounce_ms: Option<u64>,
    docs_base_url: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RawChecks {
    select: Option<Vec<String>>,
    ignore: Vec<String>,
}

impl Settings {
    /// Settings from a client's JSON (`null` or `{}` gives the defaults). Errors name what is
    /// wrong; the caller keeps its previous settings then.
    pub fn from_json(value: &Value) -> Result<Settings, String> {
        let value = match value.get("omplens") {
            Some(inner) => inner,
            None => value,
        };
        if value.is_null() {
            return Ok(Settings::default());
        }
        let raw: Raw = serde_json::from_value(value.clone())
            .map_err(|e| format!("invalid omplens settings: {e}"))?;
        let checks = config::from_selectors(raw.checks.select.as_deref(), &raw.checks.ignore)
            .map_err(|e| format!("invalid omplens settings `checks`: {e}"))?;
        Ok(Settings {
            compile_commands_dir: raw
                .compile_commands_dir
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
            flags: raw.flags,
            checks,
            inlay_hints: raw.inlay_hints.unwrap_or(true),
            code_lens: raw.code_lens.unwrap_or(true),
            debounce: Duration::from_millis(
                raw.debounce_ms
                    .unwrap_or(DEFAULT_DEBOUNCE_MS)
                    .min(MAX_DEBOUNCE_MS),
            ),
            docs_base_url: raw.docs_base_url.filter(|u| !u.is_empty()),
        })
    }

    /// Whether analysing with `other` could give different results (not just different
    /// presentation).
    pub fn analysis_differs(&self, other: &Settings) -> bool {
        self.compile_commands_dir != other.compile_commands_dir
            || self.flags != other.flags
            || self.checks != other.checks
            || self.docs_base_url != other.docs_base_url
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bare_and_nested_forms() {
        let bare = json!({"flags": ["-DN=4"], "inlayHints": false, "debounceMs": 20});
        let nested = json!({"omplens": bare.clone()});
        let a = Settings::from_json(&bare).unwrap();
        assert_eq!(a, Settings::from_json(&nested).unwrap());
        assert_eq!(a.flags, vec!["-DN=4"]);
        assert!(!a.inlay_hints && a.code_lens);
        assert_eq!(a.debounce, Duration::from_millis(20));
    }

    #[test]
    fn defaults_for_null_and_empty() {
        assert_eq!(
            Settings::from_json(&Value::Null).unwrap(),
            Settings::default()
        );
        assert_eq!(
            Settings::from_json(&json!({})).unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn checks_resolve_and_errors_are_named() {
        let s = Settings::from_json(&json!({"checks": {"select": ["OMP1"], "ignore": ["OMP103"]}}))
            .unwrap();
        assert!(
            s.checks.enabled(omplens_analysis::check::Code::OMP101)
                && !s.checks.enabled(omplens_analysis::check::Code::OMP103)
        );
        assert!(!s.checks.enabled(omplens_analysis::check::Code::OMP201));
        let e = Settings::from_json(&json!({"checks": {"ignore": ["OMP999"]}})).unwrap_err();
        assert!(e.contains("OMP999"), "{e}");
        let e = Settings::from_json(&json!({"flags": "-DN=4"})).unwrap_err();
        assert!(e.contains("invalid"), "{e}");
    }
}
