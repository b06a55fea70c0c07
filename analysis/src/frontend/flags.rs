//! Compile flags: found in `compile_commands.json` the way clangd finds it, cleaned of what
//! must not reach libclang, and completed with what omplens needs.

use std::path::{Path, PathBuf};

/// `_OPENMP` as clang 19 defines it with `-fopenmp` (OpenMP 5.1 is its default version).
pub const OPENMP_MACRO: &str = "-D_OPENMP=202011";

/// Where the flags for a file came from, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlagsOrigin {
    /// An entry for this exact file.
    CompileCommands(PathBuf),
    /// Borrowed from another entry of the same directory and language.
    Inferred {
        database: PathBuf,
        from: PathBuf,
    },
    Defaults,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileFlags {
    /// Arguments for libclang, without the compiler or the file name.
    pub args: Vec<String>,
    /// Working directory that relative paths in the arguments were resolved against.
    pub directory: Option<PathBuf>,
    pub origin: FlagsOrigin,
}

/// Errors reading a compilation database the user pointed at.
#[derive(Debug, thiserror::Error)]
pub enum FlagsError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a valid compilation database: {message}")]
    Invalid { path: PathBuf, message: String },
}

/// Looks for `compile_commands.json` in the file's directory and its ancestors (also in a
/// `build/` subdirectory of each, as clangd does), or in `explicit_dir` when given.
pub fn find_database(file: &Path, explicit_dir: Option<&Path>) -> Option<PathBuf> {
    if let Some(d) = explicit_dir {
        let p = d.join("compile_commands.json");
        return p.is_file().then_some(p);
    }
    let abs = absolute(file);
    let mut dir = abs.parent();
    while let Some(d) = dir {
        for cand in [
            d.join("compile_commands.json"),
            d.join("build").join("compile_commands.json"),
        ] {
            if cand.is_file() {
                return Some(cand);
            }
        }
        dir = d.parent();
    }
    None
}

/// Flags for `file`: from the database if one is found and has (or suggests) an entry,
/// otherwise defaults. `extra` (flags after `--` on the command line) are appended.
pub fn flags_for(
    file: &Path,
    explicit_dir: Option<&Path>,
    extra: &[String],
) -> Result<CompileFlags, FlagsError> {
    let mut flags = match find_database(file, explicit_dir) {
        Some(db) => from_database(&db, file)?.unwrap_or_else(defaults),
        None => defaults(),
    };
    flags
        .args
        .extend(sanitize(extra, flags.directory.as_deref()));
    flags.args.push(OPENMP_MACRO.to_string());
    // Without -fopenmp clang would warn on every pragma.
    flags.args.push("-Wno-unknown-pragmas".to_string());
    flags.args.push("-Wno-source-uses-openmp".to_string());
    Ok(flags)
}

fn defaults() -> CompileFlags {
    CompileFlags {
        args: Vec::new(),
        directory: None,
        origin: FlagsOrigin::Defaults,
    }
}

fn from_database(db: &Path, file: &Path) -> Result<Option<CompileFlags>, FlagsError> {
    let text = std::fs::read_to_string(db).map_err(|source| FlagsError::Read {
        path: db.to_path_buf(),
        source,
    })?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| FlagsError::Invalid {
        path: db.to_path_buf(),
        message: e.to_string(),
    })?;
    let entries = json.as_array().ok_or_else(|| FlagsError::Invalid {
        path: db.to_path_buf(),
        message: "expected a JSON array of entries".to_string(),
    })?;
    let target = absolute(file);
    let ext = target.extension().map(|e| e.to_owned());
    let mut fallback: Option<(PathBuf, Vec<String>, PathBuf)> = None;
    for e in entries {
        let Some(dir) = e.get("directory").and_then(|d| d.as_str()) else {
            continue;
        };
        let Some(f) = e.get("file").and_then(|d| d.as_str()) else {
            continue;
        };
        let dir = PathBuf::from(dir);
        let entry_file = normalize(&dir.join(f));
        let args = match (e.get("arguments"), e.get("command")) {
            (Some(serde_json::Value::Array(a)), _) => a
                .iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect(),
            (_, Some(serde_json::Value::String(c))) => split_command(c),
            _ => continue,
        };
        if entry_file == target {
            return Ok(Some(CompileFlags {
                args: sanitize(&strip_compiler_and_file(&args, f), Some(&dir)),
                directory: Some(dir),
                origin: FlagsOrigin::CompileCommands(db.to_path_buf()),
            }));
        }
        if fallback.is_none()
            && entry_file.parent() == target.parent()
            && entry_file.extension().map(|e| e.to_owned()) == ext
        {
            fallback = Some((dir, strip_compiler_and_file(&args, f), entry_file));
        }
    }
    Ok(fallback.map(|(dir, args, from)| CompileFlags {
        args: sanitize(&args, Some(&dir)),
        directory: Some(dir),
        origin: FlagsOrigin::Inferred {
            database: db.to_path_buf(),
            from,
        },
    }))
}

/// Drops the compiler (first word) and the source file itself from a command line.
fn strip_compiler_and_file(args: &[String], file: &str) -> Vec<String> {
    let file_name = Path::new(file).file_name();
    args.iter()
        .skip(1)
        .filter(|a| a.as_str() != file && Path::new(a.as_str()).file_name() != file_name)
        .cloned()
        .collect()
}

/// Removes flags that would make libclang load code, write files, enable OpenMP semantics
/// (which hide directive bodies) or compile for an offload device (which fails without the
/// device libraries); makes include paths absolute.
pub fn sanitize(args: &[String], dir: Option<&Path>) -> Vec<String> {
    // Flags that take the next argument as their value and are dropped with it.
    const DROP_WITH_VALUE: &[&str] = &["-o", "-MF", "-MT", "-MQ", "-Xopenmp-target", "-load"];
    // Flags whose value is a path to make absolute.
    const PATH_FLAGS: &[&str] = &[
        "-I",
        "-isystem",
        "-iquote",
        "-idirafter",
        "-include",
        "-imacros",
        "--sysroot",
        "-isysroot",
    ];
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if DROP_WITH_VALUE.contains(&a) {
            i += 1;
            continue;
        }
        // `-Xclang -load -Xclang plugin.so`
        if a == "-Xclang" && args.get(i).map(String::as_str) == Some("-load") {
            i += 3;
            continue;
        }
        if a == "-c"
            || a == "-fopenmp"
            || a.starts_with("-fopenmp=")
            || a.starts_with("-fopenmp-targets")
            || a.starts_with("-fopenmp-version")
            || a.starts_with("-fopenmp-offload")
            || a.starts_with("-Xopenmp-target")
            || a.starts_with("--offload")
            || a.starts_with("-foffload")
            || a.starts_with("-fplugin")
            || a.starts_with("-fpass-plugin")
            || a.starts_with("-M")
            || (a.starts_with("-o") && a.len() > 2)
        {
            continue;
        }
        if let Some(flag) = PATH_FLAGS.iter().find(|f| **f == a) {
            if let Some(v) = args.get(i) {
                out.push(flag.to_string());
                out.push(resolve(v, dir));
                i += 1;
            }
            continue;
        }
        if let Some(v) = a.strip_prefix("-I").filter(|v| !v.is_empty()) {
            out.push(format!("-I{}", resolve(v, dir)));
            continue;
        }
        out.push(a.to_string());
    }
    out
}

fn resolve(p: &str, dir: Option<&Path>) -> String {
    match dir {
        Some(d) if Path::new(p).is_relative() => normalize(&d.join(p)).display().to_string(),
        _ => p.to_string(),
    }
}

/// Splits a shell command line (as in `"command"` entries): whitespace, quotes, backslashes.
pub fn split_command(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut has = false;
    let mut chars = cmd.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                has = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '"') | (None, '\'') => {
                quote = Some(c);
                has = true;
            }
            (None, c) if c.is_whitespace() => {
                if has || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if has || !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn absolute(p: &Path) -> PathBuf {
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    normalize(&abs)
}

/// Lexical normalisation (`a/./b/../c` → `a/c`), resolving symlinks when the path exists.
fn normalize(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn splits_shell_words() {
        assert_eq!(
            split_command(r#"clang -DX="a b" -I 'inc dir' -c f.c"#),
            s(&["clang", "-DX=a b", "-I", "inc dir", "-c", "f.c"])
        );
        assert_eq!(split_command(r"cc a\ b ''"), s(&["cc", "a b", ""]));
    }

    #[test]
    fn drops_offload_and_output_flags() {
        let got = sanitize(
            &s(&[
                "-O2",
                "-fopenmp",
                "-fopenmp-targets=nvptx64-nvidia-cuda",
                "--offload-arch=sm_80",
                "-Xopenmp-target",
                "-march=sm_80",
                "-o",
                "x.o",
                "-MD",
                "-MF",
                "x.d",
                "-fplugin=foo.so",
                "-Xclang",
                "-load",
                "-Xclang",
                "p.so",
                "-DN=4",
            ]),
            None,
        );
        assert_eq!(got, s(&["-O2", "-DN=4"]));
    }

    #[test]
    fn makes_include_paths_absolute() {
        let got = sanitize(
            &s(&["-Iinc", "-I", "../x", "-isystem", "/abs"]),
            Some(Path::new("/w/b")),
        );
        assert_eq!(got, s(&["-I/w/b/inc", "-I", "/w/x", "-isystem", "/abs"]));
    }
}
