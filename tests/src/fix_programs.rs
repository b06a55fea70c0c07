//! The programs of `tests/fix` (inputs `NAME.c|cpp` with `NAME.expert.*`, `NAME.fixed.*` and
//! `NAME.expect` beside them), shared by the oracle test of `omplens fix` and the table.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Input extensions (the oracle knows C and C++ by extension).
pub const EXTENSIONS: [&str; 2] = ["c", "cpp"];

/// `tests/fix` under the repository root `repo`, or `$OMPLENS_FIX_DIR` when set.
pub fn fix_dir(repo: &Path) -> PathBuf {
    match std::env::var_os("OMPLENS_FIX_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => repo.join("tests").join("fix"),
    }
}

/// One program: `NAME.EXT` (the input) and its siblings `NAME.KIND.EXT`.
#[derive(Debug, Clone)]
pub struct Program {
    pub name: String,
    pub ext: String,
    pub dir: PathBuf,
}

impl Program {
    pub fn file_name(&self) -> String {
        format!("{}.{}", self.name, self.ext)
    }
    pub fn input(&self) -> PathBuf {
        self.dir.join(self.file_name())
    }
    pub fn expert(&self) -> PathBuf {
        self.dir.join(format!("{}.expert.{}", self.name, self.ext))
    }
    pub fn snapshot(&self) -> PathBuf {
        self.dir.join(format!("{}.fixed.{}", self.name, self.ext))
    }
    pub fn expect_file(&self) -> PathBuf {
        self.dir.join(format!("{}.expect", self.name))
    }
}

/// Splits `a.b.c` into (`a`, [`b`], `c`): the name, the middle parts and the extension.
pub fn split_name(file_name: &str) -> Option<(&str, Vec<&str>, &str)> {
    let mut parts: Vec<&str> = file_name.split('.').collect();
    if parts.len() < 2 || parts[0].is_empty() {
        return None;
    }
    let ext = parts.pop()?;
    let name = parts.remove(0);
    Some((name, parts, ext))
}

/// The plain files of `dir`, sorted by name.
pub fn files_of(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    Ok(names)
}

/// Programs whose file name has the given middle part (`None`: the inputs, `NAME.EXT`),
/// sorted by file name.
pub fn programs_with(dir: &Path, kind: Option<&str>) -> std::io::Result<Vec<Program>> {
    Ok(files_of(dir)?
        .iter()
        .filter_map(|f| split_name(f))
        .filter(|(_, middle, ext)| {
            EXTENSIONS.contains(ext)
                && match kind {
                    None => middle.is_empty(),
                    Some(k) => middle.as_slice() == [k],
                }
        })
        .map(|(name, _, ext)| Program {
            name: name.to_string(),
            ext: ext.to_string(),
            dir: dir.to_path_buf(),
        })
        .collect())
}

/// `f` over `items` on `available_parallelism()` threads; results in the order of `items`.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|r| r.expect("every item has a result"))
        .collect()
}

/// What a corpus test found for one program: problems fail the test, notes are printed.
pub struct Outcome<'a> {
    pub problems: &'a [String],
    pub notes: &'a [String],
    /// An account of the program's run (the oracle's), shown under its problems.
    pub summary: &'a str,
}

/// Prints every program's notes, then panics with each failed program's problems (and the
/// `extra` lines) unless there are none; `title` names the test.
pub fn report(title: &str, programs: &[Program], outcomes: &[Outcome], extra: &[String]) {
    use std::fmt::Write as _;
    let mut notes = String::new();
    for (p, o) in programs.iter().zip(outcomes) {
        for n in o.notes {
            let _ = writeln!(notes, "{}: {n}", p.file_name());
        }
    }
    if !notes.is_empty() {
        eprintln!("{title}:\n{notes}");
    }
    let failed: Vec<(&Program, &Outcome)> = programs
        .iter()
        .zip(outcomes)
        .filter(|(_, o)| !o.problems.is_empty())
        .collect();
    if failed.is_empty() && extra.is_empty() {
        eprintln!("{title}: all {} programs pass", programs.len());
        return;
    }
    let mut msg = format!(
        "{title}: {} of {} programs failed\n",
        failed.len(),
        programs.len()
    );
    for e in extra {
        let _ = writeln!(msg, "\n{e}");
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("/"));
    for (p, o) in failed {
        let input = p.input();
        let shown = input.strip_prefix(repo).unwrap_or(&input);
        let _ = writeln!(msg, "\n== {} ({})", p.file_name(), shown.display());
        for problem in o.problems {
            for (i, l) in problem.lines().enumerate() {
                let _ = writeln!(msg, "{}{l}", if i == 0 { "  " } else { "    " });
            }
        }
        if !o.summary.is_empty() {
            let _ = writeln!(msg, "  oracle: {}", o.summary.replace('\n', "\n  "));
        }
    }
    panic!("{msg}");
}
