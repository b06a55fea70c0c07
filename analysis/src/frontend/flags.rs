//! Compile flags: found in `compile_commands.json` the way clangd finds it, cleaned of what
//! must not reach libclang, translated from the drivers of other compilers (gcc, icpx/icx,
//! nvc++/nvc, amdclang/aomp), and completed with what omplens needs.
//!
//! The one reader of compilation databases: `check -p` lists a database's files through
//! [`Database::files`], and every command gets a file's flags through [`flags_for`] or a
//! [`Resolver`] (which reads each database once).

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// `_OPENMP` as clang 19 defines it with `-fopenmp` (OpenMP 5.1 is its default version).
pub const OPENMP_MACRO: &str = "-D_OPENMP=202011";

/// What a skipped CUDA or HIP source is told.
pub const CUDA_HIP_SKIPPED: &str = "CUDA/HIP source: not analysed";

/// Nested response files (`@file` inside `@file`) expanded at most this deep.
const RESPONSE_FILE_DEPTH: usize = 8;

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
    /// Flags of the build command that clang does not accept, left out of `args`.
    pub dropped: Vec<DroppedFlag>,
    /// Why the file is not analysed at all (a CUDA or HIP source), when it is not.
    pub skip: Option<String>,
}

/// A flag of another compiler's driver that clang rejects, and that compiler, for the note
/// that lists them once per run (see [`dropped_note`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DroppedFlag {
    pub flag: String,
    /// The driver that was given the flag (`icpx`), or `--` for the command line's flags.
    pub compiler: String,
}

impl fmt::Display for DroppedFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.flag, self.compiler)
    }
}

/// `omplens: note: dropped compiler flags clang does not accept: -qopenmp (icpx), ...`: each
/// flag once, in the order first seen; `None` when nothing was dropped.
pub fn dropped_note<'a>(dropped: impl IntoIterator<Item = &'a DroppedFlag>) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    let listed: Vec<String> = dropped
        .into_iter()
        .filter(|d| seen.insert(*d))
        .map(|d| d.to_string())
        .collect();
    (!listed.is_empty()).then(|| {
        format!(
            "omplens: note: dropped compiler flags clang does not accept: {}",
            listed.join(", ")
        )
    })
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
/// `build/` subdirectory of each, as clangd does), or in `explicit_dir` when given (which may
/// also name the database file itself).
pub fn find_database(file: &Path, explicit_dir: Option<&Path>) -> Option<PathBuf> {
    if let Some(d) = explicit_dir {
        if d.is_file() {
            return Some(d.to_path_buf());
        }
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
    Resolver::new(explicit_dir).flags_for(file, extra)
}

/// [`flags_for`] for many files: each database is read once.
#[derive(Default)]
pub struct Resolver {
    explicit_dir: Option<PathBuf>,
    databases: Mutex<HashMap<PathBuf, Arc<Database>>>,
}

impl Resolver {
    pub fn new(explicit_dir: Option<&Path>) -> Resolver {
        Resolver {
            explicit_dir: explicit_dir.map(Path::to_path_buf),
            databases: Mutex::default(),
        }
    }

    /// The database at `path`, read on first use.
    pub fn database(&self, path: &Path) -> Result<Arc<Database>, FlagsError> {
        if let Some(db) = self
            .databases
            .lock()
            .ok()
            .and_then(|m| m.get(path).cloned())
        {
            return Ok(db);
        }
        let db = Database::load_unchanged(path)?;
        if let Ok(mut m) = self.databases.lock() {
            m.insert(path.to_path_buf(), db.clone());
        }
        Ok(db)
    }

    /// See [`flags_for`].
    pub fn flags_for(&self, file: &Path, extra: &[String]) -> Result<CompileFlags, FlagsError> {
        let mut flags = match find_database(file, self.explicit_dir.as_deref()) {
            Some(db) => self.database(&db)?.flags_for(file).unwrap_or_else(defaults),
            None => defaults(),
        };
        let mut dropped = std::mem::take(&mut flags.dropped);
        let extra = clean(extra, flags.directory.as_deref(), "--", &mut dropped);
        flags.dropped = dropped;
        flags.args.extend(extra);
        if flags.origin != FlagsOrigin::Defaults {
            // Warning options of gcc that clang does not know are harmless; say nothing.
            flags.args.push("-Wno-unknown-warning-option".to_string());
        }
        flags.args.push(OPENMP_MACRO.to_string());
        // Without -fopenmp clang would warn on every pragma.
        flags.args.push("-Wno-unknown-pragmas".to_string());
        flags.args.push("-Wno-source-uses-openmp".to_string());
        // Past 20 errors (a wrong include directory gives that many) clang stops: the rest of
        // the file, templates' instantiations included, would be missing from the analysis.
        flags.args.push("-ferror-limit=0".to_string());
        Ok(flags)
    }
}

fn defaults() -> CompileFlags {
    CompileFlags {
        args: Vec::new(),
        directory: None,
        origin: FlagsOrigin::Defaults,
        dropped: Vec::new(),
        skip: None,
    }
}

/// A `compile_commands.json`, read: one entry per command, its words split and its response
/// files expanded.
#[derive(Debug)]
pub struct Database {
    pub path: PathBuf,
    entries: Vec<Entry>,
    /// The response files its commands read (`@file`), for [`Database::load_unchanged`].
    response_files: Vec<PathBuf>,
}

/// What a file was when it was read: size and modification time (None: unreadable).
type Stamp = Option<(u64, std::time::SystemTime)>;

fn stamp(path: &Path) -> Stamp {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// Databases read by this process, by path, with the stamps of the files they were read
/// from (the database and its response files).
type Loaded = Mutex<HashMap<PathBuf, (Vec<Stamp>, Arc<Database>)>>;

fn loaded() -> &'static Loaded {
    static L: std::sync::OnceLock<Loaded> = std::sync::OnceLock::new();
    L.get_or_init(Mutex::default)
}

#[derive(Debug)]
struct Entry {
    /// The command's working directory (absolute).
    directory: PathBuf,
    /// The file as the entry spells it.
    file: String,
    /// `directory/file`, normalised without touching the file system.
    path: PathBuf,
    /// `path`, canonical when the file exists: what lookups compare.
    key: PathBuf,
    /// The whole command, compiler first.
    arguments: Vec<String>,
}

impl Database {
    /// [`Database::load`], or the database this process read from `path` before if neither
    /// it nor a response file its commands read has changed since (size and modification
    /// time): the language server asks for a file's flags on every edit, and a large
    /// project's database is megabytes of JSON and a path lookup per entry. (Like clangd, a
    /// listed file created after the read keeps its unresolved path until the database
    /// changes.)
    pub fn load_unchanged(path: &Path) -> Result<Arc<Database>, FlagsError> {
        let stamps = |db: &Database| -> Vec<Stamp> {
            std::iter::once(path)
                .chain(db.response_files.iter().map(PathBuf::as_path))
                .map(stamp)
                .collect()
        };
        if let Some((then, db)) = loaded().lock().ok().and_then(|m| m.get(path).cloned()) {
            if then.first().is_some_and(Option::is_some) && stamps(&db) == then {
                return Ok(db);
            }
        }
        // Stamped before reading: a change while it is read is seen at the next call.
        let before = stamp(path);
        let db = Arc::new(Database::load(path)?);
        let mut now = stamps(&db);
        if now.first() != Some(&before) {
            now[0] = None;
        }
        if let Ok(mut m) = loaded().lock() {
            m.insert(path.to_path_buf(), (now, db.clone()));
        }
        Ok(db)
    }

    /// Reads `path`: a JSON array of `{directory, file, arguments | command}`; a relative
    /// `directory` is taken from the database's own directory.
    pub fn load(path: &Path) -> Result<Database, FlagsError> {
        let text = std::fs::read_to_string(path).map_err(|source| FlagsError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let invalid = |message: String| FlagsError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let json: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
        let items = json
            .as_array()
            .ok_or_else(|| invalid("expected a JSON array of entries".to_string()))?;
        let base = absolute(path.parent().unwrap_or(Path::new(".")));
        let mut entries = Vec::with_capacity(items.len());
        let mut response_files = Vec::new();
        for e in items {
            let (Some(dir), Some(file)) = (
                e.get("directory").and_then(|d| d.as_str()),
                e.get("file").and_then(|f| f.as_str()),
            ) else {
                continue;
            };
            let directory = lexical(&base.join(dir));
            let words = match (e.get("arguments"), e.get("command")) {
                (Some(serde_json::Value::Array(a)), _) => a
                    .iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect(),
                (_, Some(serde_json::Value::String(c))) => split_command(c),
                _ => continue,
            };
            let arguments = expand_response_files(&words, &directory, 0, &mut response_files);
            let path = lexical(&directory.join(file));
            entries.push(Entry {
                key: normalize(&path),
                path,
                directory,
                file: file.to_string(),
                arguments,
            });
        }
        response_files.sort();
        response_files.dedup();
        Ok(Database {
            path: path.to_path_buf(),
            entries,
            response_files,
        })
    }

    /// Every file the database lists, in its order, each once (absolute, not resolved
    /// through links).
    pub fn files(&self) -> Vec<PathBuf> {
        let mut seen = std::collections::HashSet::new();
        self.entries
            .iter()
            .filter(|e| seen.insert(&e.key))
            .map(|e| e.path.clone())
            .collect()
    }

    /// The working directory of `file`'s entry (a build's: every file of a CMake build
    /// shares it; each directory's own with one Makefile per directory).
    pub fn directory_of(&self, file: &Path) -> Option<&Path> {
        let target = absolute(file);
        self.entries
            .iter()
            .find(|e| e.key == target)
            .map(|e| e.directory.as_path())
    }

    /// Every file whose entry runs in `directory`, in the database's order, each once.
    pub fn files_run_in(&self, directory: &Path) -> Vec<PathBuf> {
        let mut seen = std::collections::HashSet::new();
        self.entries
            .iter()
            .filter(|e| e.directory == directory && seen.insert(&e.key))
            .map(|e| e.path.clone())
            .collect()
    }

    /// The flags of `file`'s entry, else those of the first entry of the same directory and
    /// extension (as clangd infers them), else `None`. Without the flags omplens adds.
    pub fn flags_for(&self, file: &Path) -> Option<CompileFlags> {
        let target = absolute(file);
        let ext = target.extension();
        let (entry, origin) = match self.entries.iter().find(|e| e.key == target) {
            Some(e) => (e, FlagsOrigin::CompileCommands(self.path.clone())),
            None => {
                let e = self
                    .entries
                    .iter()
                    .find(|e| e.key.parent() == target.parent() && e.key.extension() == ext)?;
                let origin = FlagsOrigin::Inferred {
                    database: self.path.clone(),
                    from: e.key.clone(),
                };
                (e, origin)
            }
        };
        let t = translate(&entry.arguments, &entry.file, &target, &entry.directory);
        Some(CompileFlags {
            args: t.args,
            directory: Some(entry.directory.clone()),
            origin,
            dropped: t.dropped,
            skip: t.skip,
        })
    }
}

/// `@file` arguments replaced by the words of the file (relative to the command's
/// directory), recursively; an unreadable one is kept as it is. Every file tried is added to
/// `read` (an unreadable one too: it may appear).
fn expand_response_files(
    words: &[String],
    dir: &Path,
    depth: usize,
    read: &mut Vec<PathBuf>,
) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    for w in words {
        let Some(name) = w.strip_prefix('@').filter(|n| !n.is_empty()) else {
            out.push(w.clone());
            continue;
        };
        let file = dir.join(name);
        let text = std::fs::read_to_string(&file);
        read.push(file);
        match text {
            Ok(text) if depth < RESPONSE_FILE_DEPTH => out.extend(expand_response_files(
                &split_command(&text),
                dir,
                depth + 1,
                read,
            )),
            _ => out.push(w.clone()),
        }
    }
    out
}

/// A compile command made into libclang's arguments for `target`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Translated {
    pub args: Vec<String>,
    pub dropped: Vec<DroppedFlag>,
    pub skip: Option<String>,
}

/// The language a command compiles its input as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    C,
    Cxx,
    CudaHip,
    Other,
}

/// `arguments` (compiler first) of an entry whose file is spelled `file`, for `target` (that
/// file, or another one borrowing its flags): the compiler and the input dropped, flags
/// cleaned (see [`clean`]), and the language made explicit where the driver decides it
/// (`-x c++` for a `.c` file given to a C++ driver).
pub fn translate(arguments: &[String], file: &str, target: &Path, directory: &Path) -> Translated {
    let (compiler, rest) = strip_launcher(arguments);
    let compiler_name = driver_name(compiler);
    let file_name = Path::new(file).file_name();
    // The words before the input, and the language given by the last `-x` before it.
    let mut explicit: Option<String> = None;
    let mut words = Vec::with_capacity(rest.len());
    let mut i = 0;
    let mut seen_input = false;
    while i < rest.len() {
        let a = rest[i].as_str();
        i += 1;
        if a == file || (!a.starts_with('-') && Path::new(a).file_name() == file_name) {
            seen_input = true;
            continue;
        }
        let lang = if a == "-x" {
            i += 1;
            rest.get(i - 1).cloned()
        } else if let Some(l) = a.strip_prefix("-x").filter(|l| is_language(l)) {
            Some(l.to_string())
        } else {
            words.push(rest[i - 1].clone());
            continue;
        };
        if !seen_input {
            explicit = lang;
        }
    }
    let mut dropped = Vec::new();
    let mut args = clean(&words, Some(directory), &compiler_name, &mut dropped);
    let by_extension = |ext: &str| match ext {
        "c" if is_cxx_driver(&compiler_name) => Lang::Cxx,
        "c" => Lang::C,
        "cu" | "cuh" | "hip" => Lang::CudaHip,
        _ => Lang::Other,
    };
    let ext = target.extension().and_then(|e| e.to_str()).unwrap_or("");
    let lang = match explicit.as_deref() {
        Some("c" | "c-header" | "cpp-output") => Lang::C,
        Some("c++" | "c++-header" | "c++-cpp-output") => Lang::Cxx,
        Some("cuda" | "cu" | "hip") => Lang::CudaHip,
        Some(_) | None => by_extension(ext),
    };
    let mut skip = None;
    match lang {
        // libclang appends the file after the arguments: the `-x` applies to it.
        Lang::Cxx if ext != "c" && explicit.is_none() => {}
        Lang::Cxx => args.extend(["-x".to_string(), "c++".to_string()]),
        Lang::C if explicit.is_some() => args.extend(["-x".to_string(), "c".to_string()]),
        Lang::CudaHip => skip = Some(CUDA_HIP_SKIPPED.to_string()),
        Lang::C | Lang::Other => {}
    }
    Translated {
        args,
        dropped,
        skip,
    }
}

/// The compiler of a command, past a launcher such as `ccache`, and the words after it.
fn strip_launcher(arguments: &[String]) -> (&str, &[String]) {
    let mut i = 0;
    while i + 1 < arguments.len()
        && matches!(
            driver_name(&arguments[i]).as_str(),
            "ccache" | "sccache" | "distcc" | "icecc"
        )
        && !arguments[i + 1].starts_with('-')
    {
        i += 1;
    }
    match arguments.get(i) {
        Some(c) => (c.as_str(), &arguments[i + 1..]),
        None => ("", &[]),
    }
}

/// The driver's file name: `/opt/intel/bin/icpx` → `icpx`.
fn driver_name(compiler: &str) -> String {
    Path::new(compiler)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Drivers that compile a `.c` file as C++: `clang++`, `g++`, `c++`, `icpx`, `nvc++`,
/// `amdclang++`, `hipcc`, Cray's `CC`, `mpicxx`, any `*++` (also with a version or target
/// prefix, `x86_64-linux-gnu-g++-12`).
pub fn is_cxx_driver(name: &str) -> bool {
    let name = name.strip_suffix(".exe").unwrap_or(name);
    name.contains("++")
        || matches!(
            name,
            "icpx" | "icpc" | "hipcc" | "CC" | "dpcpp" | "mpicxx" | "mpiCC" | "mpiicpx" | "mpiicpc"
        )
}

fn is_language(l: &str) -> bool {
    matches!(
        l,
        "c" | "c++"
            | "c-header"
            | "c++-header"
            | "cpp-output"
            | "c++-cpp-output"
            | "cuda"
            | "hip"
            | "cu"
            | "none"
            | "objective-c"
            | "objective-c++"
            | "assembler"
            | "assembler-with-cpp"
            | "cl"
    )
}

/// Flags dropped with the argument after them, whatever compiler was given them.
const DROP_WITH_VALUE: &[&str] = &["-o", "-MF", "-MT", "-MQ", "-MJ", "-Xopenmp-target", "-load"];

/// Flags of other drivers that take the next argument as their value; clang rejects both.
const FOREIGN_WITH_VALUE: &[&str] = &[
    "-Xopenmp-target-backend",
    "-Xsycl-target-backend",
    "-Xsycl-target-frontend",
    "-Xsycl-target-linker",
    "-Xs",
    "-fp-model",
    "-tp",
    "-Xcompiler",
    "--compiler-options",
    "-Xptxas",
    "-Xnvlink",
    "-ccbin",
    "--compiler-bindir",
    "-gencode",
    "-arch",
];

/// Exact flags of other drivers that clang rejects.
const FOREIGN: &[&str] = &[
    // icpx / icx
    "-fiopenmp",
    "--fiopenmp",
    "-fno-iopenmp",
    "-qnextgen",
    "-fsycl",
    "-static-intel",
    "-prec-div",
    "-no-prec-div",
    "-prec-sqrt",
    "-no-prec-sqrt",
    "-no-ipo",
    "-qtbb",
    // nvc / nvc++
    "-mp",
    "-nomp",
    "-acc",
    "-noacc",
    "-cuda",
    "-stdpar",
    "-static-nvidia",
    "-traceback",
    "-notraceback",
    "-Kieee",
    "-Knoieee",
    "-gopt",
    // gcc
    "-fconserve-stack",
    "-fallow-argument-mismatch",
    // nvcc (host files it compiles)
    "-lineinfo",
    "-use_fast_math",
    "--use_fast_math",
    "-Xcuda-fatbinary",
];

/// Prefixes of flags of other drivers that clang rejects.
const FOREIGN_PREFIXES: &[&str] = &[
    // icpx / icx
    "-qopenmp",
    "-qno-openmp",
    "-qopt-",
    "-qno-opt-",
    "-qmkl",
    // Intel MPI wrappers (mpiicc -cxx=icpx)
    "-cxx=",
    "-cc=",
    "-qdaal",
    "-qipp",
    "-ipo",
    "-fp-model=",
    "-fimf-",
    "-fsycl-",
    "-fno-sycl",
    "-diag-",
    "-Xopenmp-target-backend=",
    "-Xsycl-target-",
    // nvc / nvc++
    "-mp=",
    "-acc=",
    "-gpu=",
    "-cudalib",
    "-stdpar=",
    "-tp=",
    // gcc
    "-fopt-info",
    "-fipa-",
    "-fno-ipa-",
    "-flto-partition=",
    // amdclang / aomp (upstream clang has none of these)
    "-fopenmp-target-xteam",
    // nvcc
    "--expt-",
    "-rdc=",
    "--relocatable-device-code",
    "-arch=",
    "-gencode=",
    "--generate-code",
    "--gpu-architecture",
];

/// Dependency-file flags (`-MD`, `-MMD`, ...): dropped without a word. Any other `-M...` is a
/// flag of nvc (`-Minfo=mp`, `-Mcuda`).
fn is_dependency_flag(a: &str) -> bool {
    matches!(
        a,
        "-M" | "-MM" | "-MD" | "-MMD" | "-MP" | "-MG" | "-MV" | "-MF" | "-MT" | "-MQ" | "-MJ"
    ) || ["-MF", "-MT", "-MQ", "-MJ"]
        .iter()
        .any(|p| a.starts_with(p))
}

/// A target CPU of an offload device (`sm_80`, `gfx90a`, `pvc`, `spir64`): the host parse
/// fails on it.
fn is_device_cpu(v: &str) -> bool {
    ["sm_", "compute_", "gfx", "pvc", "spir", "nvptx", "amdgcn"]
        .iter()
        .any(|p| v.starts_with(p))
}

/// Removes flags that would make libclang load code, write files, enable OpenMP semantics
/// (which hide directive bodies) or compile for an offload device (which fails without the
/// device libraries), and the flags of other compilers that clang rejects (each recorded in
/// `dropped`, with `compiler`); makes include paths absolute. Keeps `-x` (a file's language
/// is decided by [`translate`]).
pub fn clean(
    args: &[String],
    dir: Option<&Path>,
    compiler: &str,
    dropped: &mut Vec<DroppedFlag>,
) -> Vec<String> {
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
    let mut drop = |flag: &str| {
        dropped.push(DroppedFlag {
            flag: flag.to_string(),
            compiler: compiler.to_string(),
        })
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if DROP_WITH_VALUE.contains(&a) || a.starts_with("-Xopenmp-target=") {
            i += 1;
            continue;
        }
        if FOREIGN_WITH_VALUE.contains(&a) {
            match args.get(i) {
                Some(v) => drop(&format!("{a} {v}")),
                None => drop(a),
            }
            i += 1;
            continue;
        }
        // `-Xclang -load -Xclang plugin.so`
        if a == "-Xclang" && args.get(i).map(String::as_str) == Some("-load") {
            i += 3;
            continue;
        }
        if a == "-c"
            || a == "-S"
            || a == "-E"
            || a.starts_with("-fopenmp") && !a.starts_with("-fopenmp-target-xteam")
            || a.starts_with("--offload")
            || a.starts_with("-foffload")
            || a.starts_with("-fplugin")
            || a.starts_with("-fpass-plugin")
            || is_dependency_flag(a)
            || (a.starts_with("-o") && a.len() > 2)
        {
            continue;
        }
        if FOREIGN.contains(&a)
            || FOREIGN_PREFIXES.iter().any(|p| a.starts_with(p))
            // nvc's `-M...` flags (`-Minfo=mp`, `-Mcuda`)
            || a.starts_with("-M")
            // icx's `-x<cpu>` (`-xHost`, `-xCORE-AVX512`), `-ax<cpu>`
            || (a.starts_with("-x") && a.len() > 2 && !is_language(&a[2..]))
            || (a.starts_with("-ax") && a.len() > 3)
            // `-march=sm_80`, `-mcpu=gfx90a`: offload targets, not the host
            || ["-march=", "-mcpu=", "-mtune="]
                .iter()
                .any(|p| a.strip_prefix(p).is_some_and(is_device_cpu))
        {
            drop(a);
            continue;
        }
        // nvc++'s `--c++17` / `-c++17`: the standard, in clang's words.
        if let Some(std) = a
            .strip_prefix("--c++")
            .or_else(|| a.strip_prefix("-c++"))
            .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        {
            out.push(format!("-std=c++{std}"));
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
        if let Some((flag, v)) = ["-I", "-isystem", "-iquote", "-idirafter"]
            .iter()
            .find_map(|f| a.strip_prefix(f).filter(|v| !v.is_empty()).map(|v| (f, v)))
        {
            out.push(format!("{flag}{}", resolve(v, dir)));
            continue;
        }
        out.push(a.to_string());
    }
    out
}

/// [`clean`] with nothing recorded about dropped flags (kept for callers that only need
/// libclang's arguments).
pub fn sanitize(args: &[String], dir: Option<&Path>) -> Vec<String> {
    clean(args, dir, "", &mut Vec::new())
}

fn resolve(p: &str, dir: Option<&Path>) -> String {
    match dir {
        Some(d) if Path::new(p).is_relative() => normalize(&d.join(p)).display().to_string(),
        _ => p.to_string(),
    }
}

/// Splits a shell command line (as in `"command"` entries and response files) with POSIX
/// shell rules (the `shlex` crate: inside double quotes a backslash escapes only `$`, `` ` ``,
/// `"`, `\` and a newline); a line it cannot split (an open quote) is split at whitespace.
pub fn split_command(cmd: &str) -> Vec<String> {
    shlex::split(cmd).unwrap_or_else(|| cmd.split_whitespace().map(String::from).collect())
}

fn absolute(p: &Path) -> PathBuf {
    normalize(&std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
}

/// Lexical normalisation (`a/./b/../c` → `a/c`), resolving symlinks when the path exists.
fn normalize(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    lexical(p)
}

/// `a/./b/../c` → `a/c`, without touching the file system.
pub fn lexical(p: &Path) -> PathBuf {
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
mod tests;
