//! Which files `check` looks at: those named, the sources under named directories, or every
//! main file of a compilation database.

use crate::commands::load;
use crate::CheckArgs;
use anyhow::{bail, Context, Result};
use omplens_analysis::frontend::flags;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Extensions of the C and C++ sources found in directories.
use omplens_analysis::frontend::SOURCE_EXTENSIONS;

/// The files to check, sorted by path, each once. Errors when a named path does not exist.
pub fn collect(args: &CheckArgs) -> Result<Vec<PathBuf>> {
    if let Some(dir) = &args.build_dir {
        load::check_database_dir("-p", dir)?;
    }
    let mut files = Vec::new();
    if args.files.is_empty() {
        if let Some(dir) = &args.build_dir {
            files = database_files(dir)?;
        }
    }
    for path in &args.files {
        if !path.exists() {
            bail!("{}: no such file or directory", path.display());
        }
        if path.is_dir() {
            let before = files.len();
            walk(path, &mut files)
                .with_context(|| format!("reading the directory {}", path.display()))?;
            files[before..].sort();
        } else {
            files.push(path.clone());
        }
    }
    let mut seen = HashSet::new();
    files.retain(|f| seen.insert(f.canonicalize().unwrap_or_else(|_| f.clone())));
    files.sort();
    Ok(files)
}

/// The C and C++ sources under `dir`, recursively; hidden entries and links to directories
/// are skipped (no loops, no `.git`).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        let ty = entry.file_type()?;
        if ty.is_dir() {
            walk(&path, out)?;
        } else if (ty.is_file() || (ty.is_symlink() && path.is_file())) && is_source(&path) {
            out.push(path);
        }
    }
    Ok(())
}

fn is_source(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e))
}

/// Every file of the compilation database in `build_dir` (or named by it), [`shown`].
fn database_files(build_dir: &Path) -> Result<Vec<PathBuf>> {
    let db = flags::find_database(build_dir, Some(build_dir))
        .unwrap_or_else(|| build_dir.join("compile_commands.json"));
    let database = flags::Database::load(&db)?;
    Ok(database
        .files()
        .iter()
        .map(|path| shown(path).to_path_buf())
        .collect())
}

/// `path` relative to the current directory when it is below it.
pub fn shown(path: &Path) -> &Path {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok())
        .unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_extensions() {
        assert!(is_source(Path::new("x/a.cpp")));
        assert!(is_source(Path::new("a.c")));
        assert!(!is_source(Path::new("a.h")));
        assert!(!is_source(Path::new("Makefile")));
    }
}
