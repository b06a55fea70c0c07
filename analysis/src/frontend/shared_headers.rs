//! System headers precompiled once per run and shared by the files that include them.
//!
//! `omplens check` over a tree parses hundreds of files that begin with the same
//! `#include <...>` lines, and clang spends most of each parse in those headers (a C++ file
//! with `<chrono>` and `<random>`: 0.15 s of a 0.5 s parse is the file itself). Before the
//! run, [`SharedHeaders::plan`] reads the leading block of angle includes of every file (up
//! to its first other line) and keeps each set of headers that two or more files of the same
//! language and flags begin with. A file then parses after the largest kept set that its own
//! block contains (`-include-pch`); each set is precompiled once, on first use.
//!
//! Why a parse after the shared headers is the parse of the file (a test compares the
//! lowered modules over the corpora):
//! - The headers are system headers (checked when the PCH is made: any other file included
//!   refuses it), self-contained and include-guarded, so the file's own `#include` lines of
//!   them become no-ops and their order among themselves does not matter.
//! - They lead the file: no macro or declaration of the file comes before them.
//! - The flags are the file's own, include directories aside: the PCH is made without them,
//!   and a file with an include directory that holds one of the set's headers by name does
//!   not use it.
//! - `omp.h` is never in a set: read without OpenMP semantics (as omplens reads) it has
//!   errors that libclang will not save; the file parses it itself, after the others.
//! - A parse after a PCH that fails or reports a problem with the PCH is done again plainly.

use super::libclang;
use crate::ir::Language;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The language and the flags that decide how a file reads its system headers.
type FlagKey = (bool, Vec<String>);

/// The planned header sets of a run and their precompiled forms (in a temporary directory
/// removed with the value).
pub struct SharedHeaders {
    dir: tempfile::TempDir,
    /// Per flag key, the planned sets, largest first.
    planned: HashMap<FlagKey, Vec<Arc<Planned>>>,
    /// Names in include directories, per directory (see [`Made::names`]).
    listings: Mutex<HashMap<String, Arc<HashSet<String>>>>,
    stats: Counters,
}

struct Planned {
    names: BTreeSet<String>,
    pch: PathBuf,
    /// Made (with what it includes) or refused (`None`), once.
    made: OnceLock<Option<Made>>,
}

struct Made {
    /// The file and directory names of every header the PCH holds: a file whose include
    /// directory holds one of them might read another header in its place, so it does not
    /// use the PCH.
    names: HashSet<String>,
}

#[derive(Default)]
struct Counters {
    built: AtomicUsize,
    refused: AtomicUsize,
    used: AtomicUsize,
    fallbacks: AtomicUsize,
}

/// What the shared headers did in a run (for the summary and for tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharedStats {
    /// Header sets planned (each led two or more files).
    pub planned: usize,
    /// Sets precompiled.
    pub built: usize,
    /// Sets whose PCH was refused (an error, or a header that is not a system header).
    pub refused: usize,
    /// Parses made after a shared PCH.
    pub used: usize,
    /// Parses after a PCH that were done again without it.
    pub fallbacks: usize,
}

impl SharedHeaders {
    /// Plans the header sets of `files` (path and libclang arguments; a file that cannot be
    /// read is left out): largest first, a set that the leading headers of two files or more
    /// not served by a larger one contain. Fails only when no temporary directory can be made.
    pub fn plan<'a>(
        files: impl IntoIterator<Item = (&'a Path, &'a [String])>,
    ) -> std::io::Result<SharedHeaders> {
        let mut by_key: HashMap<FlagKey, Vec<BTreeSet<String>>> = HashMap::new();
        for (path, args) in files {
            let Ok(bytes) = std::fs::read(path) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            if let Some((key, names)) = leading_set(path, &text, args) {
                by_key.entry(key).or_default().push(names);
            }
        }
        let dir = tempfile::Builder::new().prefix("omplens-pch").tempdir()?;
        let mut planned: HashMap<FlagKey, Vec<Arc<Planned>>> = HashMap::new();
        let mut keys: Vec<FlagKey> = by_key.keys().cloned().collect();
        keys.sort();
        let mut n = 0;
        for key in keys {
            let files = &by_key[&key];
            let mut candidates: Vec<&BTreeSet<String>> = files.iter().collect();
            candidates.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            candidates.dedup();
            let mut served = vec![false; files.len()];
            let mut sets = Vec::new();
            for c in candidates {
                let fits: Vec<usize> = (0..files.len())
                    .filter(|&f| !served[f] && c.is_subset(&files[f]))
                    .collect();
                if fits.len() < MIN_SHARERS {
                    continue;
                }
                for f in fits {
                    served[f] = true;
                }
                sets.push(Arc::new(Planned {
                    names: c.clone(),
                    pch: dir.path().join(format!("shared-{n}.pch")),
                    made: OnceLock::new(),
                }));
                n += 1;
            }
            if !sets.is_empty() {
                planned.insert(key, sets);
            }
        }
        Ok(SharedHeaders {
            dir,
            planned,
            listings: Mutex::default(),
            stats: Counters::default(),
        })
    }

    /// The PCH `path` (with `text` and `args`) should parse after, if a planned set fits:
    /// the largest whose headers all lead the file, made and not shadowed by the file's
    /// include directories. Made here on first use (other threads asking for it wait).
    pub fn pch_for(&self, path: &Path, text: &str, args: &[String]) -> Option<&Path> {
        let (key, names) = leading_set(path, text, args)?;
        let dirs = include_dirs(args);
        let sets = self.planned.get(&key)?;
        sets.iter()
            .filter(|p| p.names.is_subset(&names))
            .find(
                |p| match p.made.get_or_init(|| self.make(p, key.0, &key.1)) {
                    Some(made) => !dirs.iter().any(|d| self.shadows(d, made)),
                    None => false,
                },
            )
            .map(|p| {
                self.stats.used.fetch_add(1, Ordering::Relaxed);
                p.pch.as_path()
            })
    }

    /// Whether the include directory `dir` holds a file or directory named as one the PCH
    /// includes (listings are read once per run).
    fn shadows(&self, dir: &str, made: &Made) -> bool {
        let listing = {
            let Ok(mut l) = self.listings.lock() else {
                return true;
            };
            l.entry(dir.to_string())
                .or_insert_with(|| {
                    Arc::new(
                        std::fs::read_dir(dir)
                            .into_iter()
                            .flatten()
                            .flatten()
                            .map(|e| e.file_name().to_string_lossy().into_owned())
                            .collect(),
                    )
                })
                .clone()
        };
        listing.iter().any(|n| made.names.contains(n))
    }

    /// Counts a parse after a PCH that had to be done again without it.
    pub(super) fn fell_back(&self) {
        self.stats.fallbacks.fetch_add(1, Ordering::Relaxed);
    }

    pub fn stats(&self) -> SharedStats {
        SharedStats {
            planned: self.planned.values().map(Vec::len).sum(),
            built: self.stats.built.load(Ordering::Relaxed),
            refused: self.stats.refused.load(Ordering::Relaxed),
            used: self.stats.used.load(Ordering::Relaxed),
            fallbacks: self.stats.fallbacks.load(Ordering::Relaxed),
        }
    }

    fn make(&self, set: &Planned, cxx: bool, flags: &[String]) -> Option<Made> {
        let header = set.pch.with_extension("h");
        let text: String = set
            .names
            .iter()
            .map(|n| format!("#include <{n}>\n"))
            .collect();
        let mut args = flags.to_vec();
        args.push("-x".into());
        args.push(if cxx { "c++-header" } else { "c-header" }.into());
        let made = libclang::save_header_pch(
            &header.display().to_string(),
            &text,
            &args,
            &set.pch.display().to_string(),
        )
        .ok()
        .map(|files| {
            let mut names = HashSet::new();
            for f in &files {
                let p = Path::new(f);
                // `bits/types.h` is shadowed by a `bits` directory; the roots (`include`)
                // are never part of a header's name.
                let parent = p
                    .parent()
                    .and_then(Path::file_name)
                    .filter(|d| *d != "include");
                for part in [p.file_name(), parent].into_iter().flatten() {
                    names.insert(part.to_string_lossy().into_owned());
                }
            }
            Made { names }
        });
        let counter = if made.is_some() {
            &self.stats.built
        } else {
            &self.stats.refused
        };
        counter.fetch_add(1, Ordering::Relaxed);
        made
    }

    /// Where the precompiled headers are written (removed when `self` is dropped).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

/// The flag key and the leading system headers of a file, when it has any and its flags let
/// it share them.
fn leading_set(path: &Path, text: &str, args: &[String]) -> Option<(FlagKey, BTreeSet<String>)> {
    // A forced include or an existing PCH comes before the file's first line.
    if args
        .iter()
        .any(|a| a.starts_with("-include") || a.starts_with("-imacros"))
    {
        return None;
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut lead = Lead {
        quote_dirs: quote_dirs(args),
        angle_dirs: include_dirs(args),
        read: 0,
        names: BTreeSet::new(),
    };
    lead.walk(dir, text, 0);
    lead.names.remove("omp.h");
    if lead.names.is_empty() {
        return None;
    }
    let cxx = super::language_of(path, args) == Language::Cxx;
    Some(((cxx, header_flags(args)), lead.names))
}

/// The system headers a file includes before anything else: its leading `#include <...>`
/// lines and, through its leading `#include "..."` lines, those of the project headers they
/// name (each past its include guard), up to the first line anywhere that is not an include.
/// Whatever the order among them, they read the same: only include guards (or
/// `#pragma once`) come before any of them.
struct Lead<'a> {
    /// Where `#include "..."` looks after the including file's directory (`-iquote`, `-I`).
    quote_dirs: Vec<&'a str>,
    /// Where `#include <...>` looks before the system (`-I`): a header found there is the
    /// project's.
    angle_dirs: Vec<&'a str>,
    /// Project headers read (bounded).
    read: usize,
    names: BTreeSet<String>,
}

/// Files a header set must lead to be precompiled: making a PCH costs about one and a half
/// parses of its headers, so two files gain little (over HeCBench's 620 files, 3 was faster
/// than 2 and 4).
const MIN_SHARERS: usize = 3;

/// Project headers read per file, at most (they are read again at the file's parse).
const MAX_HEADERS_READ: usize = 64;
const MAX_INCLUDE_DEPTH: usize = 16;

impl Lead<'_> {
    /// Walks the leading lines of `text` (a file in `dir`); true when the whole text was
    /// includes (under a guard), so that what follows the parent's `#include` still leads.
    fn walk(&mut self, dir: &Path, text: &str, depth: usize) -> bool {
        let b = text.as_bytes();
        let mut i = 0;
        let mut guard: Option<&str> = None;
        let mut first = true;
        loop {
            i = skip_blank_and_comments(b, i);
            if i >= b.len() {
                return true;
            }
            if b[i] != b'#' {
                return false;
            }
            let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
            let line = text[i + 1..end].trim();
            i = end;
            if line.ends_with('\\') {
                return false;
            }
            let was_first = std::mem::replace(&mut first, false);
            if let Some(name) = directive_arg(line, "ifndef").filter(|_| was_first) {
                // A guard: `#ifndef X` then `#define X`.
                i = skip_blank_and_comments(b, i);
                let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
                let next = text.get(i + 1..end).unwrap_or("").trim();
                if b.get(i) != Some(&b'#') || directive_arg(next, "define") != Some(name) {
                    return false;
                }
                guard = Some(name);
                i = end;
                continue;
            }
            if line.strip_prefix("pragma").map(str::trim) == Some("once") {
                continue;
            }
            if line == "endif" || line.starts_with("endif ") || line.starts_with("endif/") {
                // The guard's end: only blank lines and comments may follow.
                return guard.is_some() && skip_blank_and_comments(b, i) >= b.len();
            }
            let Some((name, angle)) = include_name(line) else {
                return false;
            };
            if depth >= MAX_INCLUDE_DEPTH {
                return false;
            }
            let project = if angle {
                find_in(&self.angle_dirs, None, name)
            } else {
                match find_in(&self.quote_dirs, Some(dir), name) {
                    Some(p) => Some(p),
                    // Not the project's: whatever it is, it ends what is known to lead.
                    None => return false,
                }
            };
            match project {
                Some(file) => {
                    if self.read >= MAX_HEADERS_READ {
                        return false;
                    }
                    self.read += 1;
                    let Ok(bytes) = std::fs::read(&file) else {
                        return false;
                    };
                    let text = String::from_utf8_lossy(&bytes);
                    let dir = file.parent().unwrap_or(Path::new("."));
                    if !self.walk(dir, &text, depth + 1) {
                        return false;
                    }
                }
                None => {
                    self.names.insert(name.to_string());
                }
            }
        }
    }
}

/// `X` of a directive line `keyword X` (after the `#`).
fn directive_arg<'t>(line: &'t str, keyword: &str) -> Option<&'t str> {
    let rest = line.strip_prefix(keyword)?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let arg = rest.trim();
    let ident = arg.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    (ident && !arg.is_empty()).then_some(arg)
}

/// The header an `include` directive line names, and whether in angle brackets; `None` for
/// any other line (a macro name, `include_next`, text after the name).
fn include_name(line: &str) -> Option<(&str, bool)> {
    let rest = line.strip_prefix("include")?.trim_start();
    let (close, angle) = match rest.as_bytes().first()? {
        b'<' => ('>', true),
        b'"' => ('"', false),
        _ => return None,
    };
    let inner = &rest[1..];
    let end = inner.find(close)?;
    let after = inner[end + 1..].trim();
    let trailing_comment = after.starts_with("//")
        || (after.starts_with("/*")
            && after
                .find("*/")
                .is_some_and(|k| after[k + 2..].trim().is_empty()));
    (after.is_empty() || trailing_comment).then(|| (inner[..end].trim(), angle))
}

/// The file `name` in `first` (if given) or in one of `dirs`, as clang looks.
fn find_in(dirs: &[&str], first: Option<&Path>, name: &str) -> Option<PathBuf> {
    first
        .into_iter()
        .chain(dirs.iter().map(Path::new))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// `args` without include directories, warning options (clang does not hold a PCH to
/// them; system headers warn about nothing) and language (the header's is set apart).
fn header_flags(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        // `-Wp,-DX` passes a definition; `-Wl,`/`-Wa,` go to other tools (kept: harmless).
        let warning = a.starts_with("-W") && !a.contains(',') || a == "-w" || a == "-pedantic";
        if a == "-I" || a == "-x" || a == "-iquote" {
            i += 1;
        } else if !(a.starts_with("-I")
            || a.starts_with("-x")
            || a.starts_with("-iquote")
            || warning)
        {
            out.push(a.to_string());
        }
    }
    out
}

/// The directories `args` gives with `flag` (`-I`, `-iquote`), in order.
fn dirs_of<'a>(args: &'a [String], flag: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == flag {
            if let Some(d) = it.next() {
                out.push(d.as_str());
            }
        } else if let Some(d) = a.strip_prefix(flag).filter(|d| !d.is_empty()) {
            out.push(d);
        }
    }
    out
}

/// The `-I` directories of `args`, in order.
fn include_dirs(args: &[String]) -> Vec<&str> {
    dirs_of(args, "-I")
}

/// Where `#include "..."` looks after the including file's directory: `-iquote`, then `-I`.
fn quote_dirs(args: &[String]) -> Vec<&str> {
    let mut out = dirs_of(args, "-iquote");
    out.extend(include_dirs(args));
    out
}

fn skip_blank_and_comments(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i = crate::text::scan::block_comment_end(b, i);
        } else {
            return i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::test_corpus::{assert_same, corpus, flags_for};
    use crate::frontend::{lower_file, lower_file_shared, slow_test_with_libclang};

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn names(path: &Path, text: &str, args: &[String]) -> Vec<String> {
        leading_set(path, text, args)
            .map(|(_, n)| n.into_iter().collect())
            .unwrap_or_default()
    }

    #[test]
    fn the_leading_block_of_angle_includes() {
        let p = Path::new("/nowhere/a.c");
        let text = "// header comment\n/* block\n */\n#include <stdio.h>\n#  include<stdlib.h> // why\n\n#include <omp.h>\n#include <math.h> /* done */\nint x;\n#include <string.h>\n";
        assert_eq!(names(p, text, &[]), s(&["math.h", "stdio.h", "stdlib.h"]));
        assert!(names(p, "#define N 4\n#include <stdio.h>\n", &[]).is_empty());
        assert!(
            names(p, "#include <omp.h>\n", &[]).is_empty(),
            "omp.h is never shared"
        );
        assert_eq!(
            names(p, "#include <a.h> /* x\n */\n#include <b.h>\n", &[]),
            s(&[])
        );
        assert_eq!(names(p, "#include <a.h>", &[]), s(&["a.h"]));
        // A header not found in the project ends the block; so does a forced include.
        assert_eq!(
            names(
                p,
                "#include <a.h>\n#include \"gone.h\"\n#include <b.h>\n",
                &[]
            ),
            s(&["a.h"])
        );
        assert!(names(p, "#include <a.h>\n", &s(&["-include", "x.h"])).is_empty());
    }

    #[test]
    fn project_headers_lead_with_their_own_system_headers() {
        let dir = tempfile::tempdir().unwrap();
        let inc = dir.path().join("inc");
        std::fs::create_dir(&inc).unwrap();
        std::fs::write(
            dir.path().join("common.h"),
            "/* guard */\n#ifndef COMMON_H\n#define COMMON_H\n#include <vector>\n#include \"more.h\"\n#include <map>\n#endif // COMMON_H\n",
        )
        .unwrap();
        std::fs::write(inc.join("more.h"), "#pragma once\n#include <string>\n").unwrap();
        // `<utils.h>` is found in an include directory: the project's, walked like a quoted one.
        std::fs::write(
            inc.join("utils.h"),
            "#include <cmath>\nint f();\n#include <list>\n",
        )
        .unwrap();
        let main = dir.path().join("main.cpp");
        let args = vec![format!("-I{}", inc.display())];
        let text = "#include <cstdio>\n#include \"common.h\"\n#include <utils.h>\n#include <set>\n";
        assert_eq!(
            names(&main, text, &args),
            s(&["cmath", "cstdio", "map", "string", "vector"]),
            "up to the first line that is not an include, in any header"
        );
        // A guard with something else inside ends the block where that is.
        std::fs::write(
            dir.path().join("decl.h"),
            "#ifndef D\n#define D\n#include <array>\nint g();\n#endif\n#include <deque>\n",
        )
        .unwrap();
        assert_eq!(
            names(&main, "#include \"decl.h\"\n#include <set>\n", &args),
            s(&["array"])
        );
        // Without its `#define`, an `#ifndef` is a condition, not a guard.
        std::fs::write(
            dir.path().join("cond.h"),
            "#ifndef X\n#include <array>\n#endif\n",
        )
        .unwrap();
        assert!(names(&main, "#include \"cond.h\"\n", &args).is_empty());
    }

    #[test]
    fn flags_lose_include_directories_warnings_and_language() {
        let args = s(&[
            "-I",
            "/x",
            "-I/y",
            "-x",
            "c++",
            "-std=c++17",
            "-Wall",
            "-DN=3",
            "-xc",
        ]);
        assert_eq!(header_flags(&args), s(&["-std=c++17", "-DN=3"]));
        assert_eq!(header_flags(&s(&["-Wp,-DX=1", "-w"])), s(&["-Wp,-DX=1"]));
        assert_eq!(include_dirs(&args), vec!["/x", "/y"]);
        assert_eq!(quote_dirs(&s(&["-I/a", "-iquote", "/q"])), vec!["/q", "/a"]);
    }

    /// Sets are planned for what several files share, largest first; a file parses after
    /// the largest planned set it contains, not after one that an include directory of its
    /// own could shadow, and lowers as it does alone.
    #[test]
    fn sets_shared_by_three_files_and_shadowed_ones_refused() {
        if !slow_test_with_libclang(
            "shared_headers::sets_shared_by_three_files_and_shadowed_ones_refused",
        ) {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let body = "int main(void) { double a[4] = {0}; printf(\"%f\\n\", a[0]); return 0; }\n";
        let texts = [
            "#include <stdio.h>\n#include <stdlib.h>\n",
            "#include <stdlib.h>\n#include <stdio.h>\n",
            "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n",
            "#include <stdio.h>\n",
        ];
        let mut files = Vec::new();
        for (i, t) in texts.iter().enumerate() {
            let p = dir.path().join(format!("f{i}.c"));
            std::fs::write(&p, format!("{t}{body}")).unwrap();
            files.push(p);
        }
        // An include directory holding a `stddef.h` (which `<stdlib.h>` includes).
        let shadow = dir.path().join("shadow");
        std::fs::create_dir(&shadow).unwrap();
        std::fs::write(shadow.join("stddef.h"), "#error not the system's\n").unwrap();
        let plain: Vec<String> = Vec::new();
        let shadowed = vec![format!("-I{}", shadow.display())];
        let args = [&plain, &plain, &plain, &plain];
        let shared = SharedHeaders::plan(
            files
                .iter()
                .zip(args)
                .map(|(p, a)| (p.as_path(), a.as_slice())),
        )
        .unwrap();
        let planned: Vec<Vec<String>> = shared
            .planned
            .values()
            .flatten()
            .map(|p| p.names.iter().cloned().collect())
            .collect();
        assert_eq!(
            planned,
            vec![s(&["stdio.h", "stdlib.h"])],
            "f3 alone with stdio.h only"
        );
        for (p, a) in files.iter().zip(args) {
            let text = std::fs::read_to_string(p).unwrap();
            let got = lower_file_shared(Some(&shared), p, Some(&text), a).unwrap();
            assert_same(
                p,
                "a parse after shared headers",
                &got,
                &lower_file(p, Some(&text), a).unwrap(),
            );
        }
        let text = std::fs::read_to_string(&files[0]).unwrap();
        assert!(shared.pch_for(&files[0], &text, &shadowed).is_none());
        let stats = shared.stats();
        assert_eq!(
            (
                stats.planned,
                stats.built,
                stats.refused,
                stats.used,
                stats.fallbacks
            ),
            (1, 1, 0, 3, 0),
            "{stats:?}"
        );
        let pch = shared.dir().to_path_buf();
        assert!(pch.join("shared-0.pch").is_file());
        drop(shared);
        assert!(!pch.exists(), "the run's PCH directory goes with it");
    }

    /// Every program of the test corpora lowers after the shared headers of a run over all
    /// of them exactly as it does alone.
    #[test]
    fn corpus_lowers_after_shared_headers_as_alone() {
        if !slow_test_with_libclang("shared_headers::corpus_lowers_after_shared_headers_as_alone") {
            return;
        }
        let files = corpus();
        let flags: Vec<Vec<String>> = files.iter().map(|p| flags_for(p)).collect();
        let shared = SharedHeaders::plan(
            files
                .iter()
                .zip(&flags)
                .map(|(p, f)| (p.as_path(), f.as_slice())),
        )
        .unwrap();
        for (path, flags) in files.iter().zip(&flags) {
            let text = std::fs::read_to_string(path).unwrap();
            let fresh = lower_file(path, Some(&text), flags).expect("fresh parse");
            let after = lower_file_shared(Some(&shared), path, Some(&text), flags).expect("parse");
            assert_same(path, "a parse after shared headers", &after, &fresh);
        }
        let stats = shared.stats();
        assert!(
            stats.built >= 3 && stats.used * 2 > files.len(),
            "{stats:?}"
        );
        assert_eq!((stats.refused, stats.fallbacks), (0, 0), "{stats:?}");
    }
}
