//! The disk cache of what each file exports (`super::Exports`), one JSON file per key.

use serde::{de::DeserializeOwned, Serialize};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// The directory of the cache, if one can be named.
pub(super) fn default_dir() -> Option<PathBuf> {
    crate::frontend::cache_dir("summaries-v3")
}

/// The key of `file` with `text` and `args`: its path, text and flags, the texts of the
/// headers it includes with quotes that lie beside it (or below), and omplens's version.
/// (`DefaultHasher::new()` hashes the same way in every run of one build; another build
/// may only miss.)
pub(super) fn key(file: &Path, text: &str, args: &[String]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    file.hash(&mut h);
    text.hash(&mut h);
    args.hash(&mut h);
    let dir = file.parent().unwrap_or(Path::new("."));
    for header in quoted_includes(text) {
        let p = dir.join(header);
        header.hash(&mut h);
        std::fs::read(&p).ok().hash(&mut h);
    }
    h.finish()
}

/// The names in `#include "name"` lines.
fn quoted_includes(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|l| {
        let rest = l.trim_start().strip_prefix('#')?.trim_start();
        let rest = rest.strip_prefix("include")?.trim_start();
        let rest = rest.strip_prefix('"')?;
        rest.split('"').next().filter(|n| !n.is_empty())
    })
}

fn entry(dir: Option<&Path>, key: u64, kind: &str) -> Option<PathBuf> {
    Some(dir?.join(format!("{key:016x}{kind}.json")))
}

/// What is stored in `dir` under `key` for `kind` ("" for the exports, "-members" for the
/// member evidence), if readable.
pub(super) fn load<T: DeserializeOwned>(dir: Option<&Path>, key: u64, kind: &str) -> Option<T> {
    let text = std::fs::read(entry(dir, key, kind)?).ok()?;
    serde_json::from_slice(&text).ok()
}

/// Stores `value` in `dir` under `key` and `kind` (atomically: written aside, then
/// renamed); a cache that cannot be written is skipped.
pub(super) fn store<T: Serialize>(dir: Option<&Path>, key: u64, kind: &str, value: &T) {
    let (Some(path), Ok(json)) = (entry(dir, key, kind), serde_json::to_vec(value)) else {
        return;
    };
    let Some(parent) = path.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    let tmp = parent.join(format!(".{key:016x}.{}.tmp", std::process::id()));
    if std::fs::write(&tmp, json).is_ok() && std::fs::rename(&tmp, &path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_includes_are_read_from_include_lines() {
        let text = "#include <stdio.h>\n#include \"kernels.h\"\n  # include \"util/a.h\"\nint x;\n";
        let got: Vec<&str> = quoted_includes(text).collect();
        assert_eq!(got, ["kernels.h", "util/a.h"]);
    }
}
