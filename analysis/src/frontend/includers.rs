//! Which source of a compilation database includes a file that has no entry of its own
//! (HeCBench's gmm: `main.cpp` does `#include "cluster.cpp"`). Such a file is analysed with
//! its includer, where its code is lowered as a project file's and its findings are placed
//! on the `#include` line; on its own it does not compile (nothing it uses is declared), and
//! what omplens would say of it there is noise. So `check` leaves it to its includer.
//!
//! Read from raw text, without parsing: quoted includes are looked for beside the including
//! file, then in the source's `-iquote`/`-I` directories; angle includes only in its `-I`
//! directories (one found nowhere is a system header, not read). At most [`MAX_FILES`]
//! project files are read per source.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Project files read per source, at most.
const MAX_FILES: usize = 256;

/// For every project file some source includes (directly or through other project files),
/// the first such source, by canonical path.
#[derive(Debug, Default)]
pub struct Includers {
    by_file: HashMap<PathBuf, PathBuf>,
}

impl Includers {
    /// The includes of `sources` (each a path and its libclang arguments), in their order.
    pub fn of<'a>(sources: impl IntoIterator<Item = (&'a Path, &'a [String])>) -> Includers {
        let mut by_file = HashMap::new();
        for (source, args) in sources {
            let Ok(canonical) = source.canonicalize() else {
                continue;
            };
            for file in project_includes(source, args) {
                if file != canonical {
                    by_file.entry(file).or_insert_with(|| source.to_path_buf());
                }
            }
        }
        Includers { by_file }
    }

    /// The source that includes `file`, if one does.
    pub fn includer_of(&self, file: &Path) -> Option<&Path> {
        let file = file.canonicalize().ok()?;
        self.by_file.get(&file).map(PathBuf::as_path)
    }
}

/// The project files `source` (compiled with `args`) includes, directly or through other
/// project files, canonical; unreadable files are left out.
fn project_includes(source: &Path, args: &[String]) -> Vec<PathBuf> {
    let quote_dirs = super::shared_headers::quote_dirs(args);
    let angle_dirs = super::shared_headers::include_dirs(args);
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut out = Vec::new();
    let mut todo = vec![source.to_path_buf()];
    while let Some(file) = todo.pop() {
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let dir = file.parent().unwrap_or(Path::new("."));
        for line in text.lines() {
            let Some(directive) = line.trim_start().strip_prefix('#') else {
                continue;
            };
            let Some((name, angle)) = super::openmp_text::header_named(directive.trim_start())
            else {
                continue;
            };
            let found = if angle {
                super::shared_headers::find_in(&angle_dirs, None, name)
            } else {
                super::shared_headers::find_in(&quote_dirs, Some(dir), name)
            };
            let Some(found) = found.and_then(|f| f.canonicalize().ok()) else {
                continue;
            };
            if seen.len() < MAX_FILES && seen.insert(found.clone()) {
                out.push(found.clone());
                todo.push(found);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_included_through_a_header_has_the_source_for_includer() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        std::fs::create_dir(p("inc")).unwrap();
        std::fs::write(
            p("main.cpp"),
            "#include <stdio.h>\n#include \"kernels.h\"\nint main() {}\n",
        )
        .unwrap();
        std::fs::write(
            p("kernels.h"),
            "  #  include \"kernels.cpp\"\n#include <util.h>\n",
        )
        .unwrap();
        std::fs::write(p("kernels.cpp"), "void k() {}\n").unwrap();
        std::fs::write(p("inc/util.h"), "// found through -I\n").unwrap();
        std::fs::write(p("alone.cpp"), "int f() { return 0; }\n").unwrap();
        let args = vec![format!("-I{}", p("inc").display())];
        let main = p("main.cpp");
        let inc = Includers::of([(main.as_path(), args.as_slice())]);
        assert_eq!(inc.includer_of(&p("kernels.cpp")), Some(main.as_path()));
        assert_eq!(inc.includer_of(&p("kernels.h")), Some(main.as_path()));
        assert_eq!(inc.includer_of(&p("inc/util.h")), Some(main.as_path()));
        // Nobody includes it; nor does a source include itself.
        assert_eq!(inc.includer_of(&p("alone.cpp")), None);
        assert_eq!(inc.includer_of(&main), None);
    }
}
