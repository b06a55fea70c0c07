//! Whether a file may hold OpenMP, read from its raw text and that of the project headers it
//! includes, without parsing: `check` over a tree does not parse a file that cannot.
//!
//! Every finding of omplens is about an OpenMP construct or a call of the OpenMP API in the
//! file or in a project header it includes (kernels and mappings in other files are read
//! for what the file's own constructs do, never reported in a file that has none). So a file
//! none of whose text, nor its project headers' text, names OpenMP has no finding, and its
//! parse (on HeCBench a quarter of the files, a sixth of the time) can be saved. The test
//! `project::tests::a_caller_without_openmp_gets_no_finding_from_other_files_kernels` pins
//! the premise.
//!
//! The test errs towards "may hold OpenMP": it looks for the identifiers `omp` (`#pragma
//! omp`, `<omp.h>`), `omp_…` (the API), `_Pragma` and `__pragma` (a directive written by a
//! macro) and `omplens` (a suppression comment, checked for unknown codes) anywhere, comments
//! and literals included. A file also may hold OpenMP when it cannot be told otherwise: an
//! include that does not name its header literally (`#include MACRO`), a quoted include
//! that is not found beside the file or in its `-iquote`/`-I` directories, a forced
//! `-include`, an unreadable file, more project headers than [`MAX_HEADERS`]. An angle
//! include found in no `-I` directory is a system header: not the project's, not read.

use crate::text::scan::identifiers;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Project headers read per file, at most; past it the file is parsed.
const MAX_HEADERS: usize = 256;

/// Whether `path`, whose text is `text`, compiled with the libclang arguments `args`, may
/// hold an OpenMP construct or a call of the OpenMP API (see the module's documentation).
pub fn may_hold_openmp(path: &Path, text: &str, args: &[String]) -> bool {
    if args
        .iter()
        .any(|a| a.starts_with("-include") || a.starts_with("-imacros"))
    {
        return true;
    }
    let mut scan = Scan {
        quote_dirs: super::shared_headers::quote_dirs(args),
        angle_dirs: super::shared_headers::include_dirs(args),
        seen: HashSet::new(),
    };
    scan.seen.insert(path.to_path_buf());
    scan.text_may_hold(path.parent().unwrap_or(Path::new(".")), text)
}

struct Scan<'a> {
    quote_dirs: Vec<&'a str>,
    angle_dirs: Vec<&'a str>,
    /// Files read (each once).
    seen: HashSet<PathBuf>,
}

impl Scan<'_> {
    /// Whether `text` (of a file in `dir`) or a project header it includes may hold OpenMP.
    fn text_may_hold(&mut self, dir: &Path, text: &str) -> bool {
        // Line continuations can split a word or a directive.
        let joined = text.replace("\\\r\n", "").replace("\\\n", "");
        if names_openmp(&joined) {
            return true;
        }
        for line in joined.lines() {
            let Some(directive) = line.trim_start().strip_prefix('#') else {
                continue;
            };
            let directive = directive.trim_start();
            if !(directive.starts_with("include") || directive.starts_with("import")) {
                continue;
            }
            let Some((name, angle)) = header_named(directive) else {
                return true; // `#include MACRO`: unknown
            };
            let found = if angle {
                super::shared_headers::find_in(&self.angle_dirs, None, name)
            } else {
                match super::shared_headers::find_in(&self.quote_dirs, Some(dir), name) {
                    Some(p) => Some(p),
                    None => return true, // not found where the project's are: unknown
                }
            };
            let Some(file) = found else {
                continue; // a system header
            };
            if !self.seen.insert(file.clone()) {
                continue;
            }
            if self.seen.len() > MAX_HEADERS {
                return true;
            }
            let Ok(bytes) = std::fs::read(&file) else {
                return true;
            };
            let header = String::from_utf8_lossy(&bytes);
            if self.text_may_hold(file.parent().unwrap_or(Path::new(".")), &header) {
                return true;
            }
        }
        false
    }
}

/// The header an `include`, `include_next` or `import` directive (after its `#`) names
/// literally, and whether in angle brackets (`include_next` searches as an angle include
/// does); `None` when it does not name one literally.
pub(super) fn header_named(directive: &str) -> Option<(&str, bool)> {
    let (rest, next) = if let Some(r) = directive.strip_prefix("include_next") {
        (r, true)
    } else if let Some(r) = directive.strip_prefix("include") {
        (r, false)
    } else {
        (directive.strip_prefix("import")?, false)
    };
    let rest = rest.trim_start();
    let (close, angle) = match rest.as_bytes().first()? {
        b'<' => (b'>', true),
        b'"' => (b'"', false),
        _ => return None,
    };
    let end = rest[1..].bytes().position(|c| c == close)?;
    Some((&rest[1..1 + end], angle || next))
}

/// Whether `text` has one of the identifiers that name OpenMP (see the module's
/// documentation).
fn names_openmp(text: &str) -> bool {
    identifiers(text).into_iter().any(|word| {
        word == "omp"
            || word.starts_with("omp_")
            || word == "_Pragma"
            || word == "__pragma"
            || word == "omplens"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn may(dir: &Path, file: &str, args: &[&str]) -> bool {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        may_hold_openmp(&path, &text, &args)
    }

    fn write(dir: &Path, name: &str, text: &str) {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn the_words_that_name_openmp() {
        for yes in [
            "#pragma omp target\n",
            "#  pragma   omp parallel for\n",
            "#pragma \\\nomp target\n",
            "#include <omp.h>\n",
            "double t = omp_get_wtime();\n",
            "#define P _Pragma(\"omp target\")\n",
            "__pragma(omp parallel)\n",
            "// omplens: ignore OMP999\n",
            "int om\\\np_x;\n",
        ] {
            assert!(names_openmp(&yes.replace("\\\n", "")), "{yes:?}");
        }
        for no in [
            "int compute(int omplen) { return omplen; }\n",
            "#pragma once\n#pragma GCC diagnostic push\n",
            "int romp_x, xomp;\n",
        ] {
            assert!(!names_openmp(no), "{no:?}");
        }
    }

    #[test]
    fn project_headers_are_read_and_system_headers_are_not() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        write(dir, "plain.h", "#pragma once\nint f(int);\n");
        write(dir, "kern.h", "#pragma once\n#include \"deep/k.h\"\n");
        write(
            dir,
            "deep/k.h",
            "void k(double *a) {\n#pragma omp target\n a[0] = 1; }\n",
        );
        write(dir, "inc/lib.h", "#pragma omp declare target\n");
        write(
            dir,
            "a.c",
            "#include <stdio.h>\n#include \"plain.h\"\nint main(void) { return f(1); }\n",
        );
        write(
            dir,
            "b.c",
            "#include \"plain.h\"\n#include \"kern.h\"\nint main(void) { return 0; }\n",
        );
        write(
            dir,
            "c.c",
            "#include <lib.h>\nint main(void) { return 0; }\n",
        );
        write(
            dir,
            "d.c",
            "#include \"missing.h\"\nint main(void) { return 0; }\n",
        );
        write(
            dir,
            "e.c",
            "#define H \"plain.h\"\n#include H\nint main(void) { return 0; }\n",
        );
        assert!(!may(dir, "a.c", &[]));
        assert!(may(dir, "b.c", &[]), "through two quoted includes");
        assert!(
            !may(dir, "c.c", &[]),
            "<lib.h> outside -I is a system header"
        );
        let inc = format!("-I{}", dir.join("inc").display());
        assert!(
            may(dir, "c.c", &[&inc]),
            "<lib.h> in an -I directory is the project's"
        );
        assert!(may(dir, "d.c", &[]), "a header not found: unknown");
        assert!(may(dir, "e.c", &[]), "a computed include: unknown");
        assert!(
            may(dir, "a.c", &["-include", "x.h"]),
            "a forced include: unknown"
        );
    }

    #[test]
    fn include_cycles_end() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        write(dir, "x.h", "#include \"y.h\"\n");
        write(dir, "y.h", "#include \"x.h\"\n");
        write(
            dir,
            "m.c",
            "#include \"x.h\"\nint main(void) { return 0; }\n",
        );
        assert!(!may(dir, "m.c", &[]));
    }
}
