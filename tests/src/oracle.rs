//! The oracle: build a C/C++ OpenMP program for real host offloading with clang-19, run it
//! under libomptarget with INFO output, and compare it with its sequential build.
//!
//! See DESIGN.md, "The oracle: real host offloading on a machine without a GPU":
//! - semantics: the offloaded build must print what the build without `-fopenmp` prints;
//! - cost: copies and bytes each way, from `Copying data ...` lines;
//! - the unmapped-data trap: an implicitly captured pointer (`use_address(p)[0] (implicit)`)
//!   for which the runtime printed no `Mapping exists ... Name=p` at that launch.
//!
//! Unmapped detection, exactly: for each `Entering OpenMP kernel` block, a `use_address`
//! argument (zero-size, i.e. an implicitly captured pointer) is present iff, before the next
//! header, the runtime printed `Mapping exists[ (implicit)] with ... Name=<same name>`, or the
//! same launch maps that variable explicitly (`tofrom(y[0:n])` for `use_address(y)`). Every
//! other argument kind is mapped by the launch itself and counts as present.
//!
//! Blind spots (what the INFO lines cannot show):
//! - a pointer reached through memory rather than captured: a C++ member pointer used via
//!   `this` shows as `tofrom(this->p)[8] (implicit)` (the pointer, not its pointee), likewise a
//!   pointer inside a mapped struct, a `declare target` global pointer, or
//!   `defaultmap(tofrom: pointer)`: the pointee may be unmapped and nothing is reported;
//! - presence is per name and per launch, not per byte: a pointer into a mapped block counts as
//!   present even if the kernel reads past the block's end, and libomptarget 19 even finds a
//!   pointer just *before* a mapped section (`map(y[10:20])`, kernel uses `y`) present;
//! - a NULL (or never dereferenced) captured pointer is reported unmapped (the runtime cannot
//!   find it), although it would not fault on a GPU;
//! - concurrently running `nowait` regions may interleave their lines, so per-launch
//!   attribution (arguments, presence, per-kernel copies) can be wrong there; totals are not;
//! - a build without `-g` (e.g. `-g0` in `extra_flags`) names every argument `unknown`.
//!
//! The tools can be overridden with `OMPLENS_ORACLE_CC`, `OMPLENS_ORACLE_CXX` (default
//! `clang-19`, `clang++-19`) and `OMPLENS_ORACLE_LIBDIR` (default `/usr/lib/llvm-19/lib`,
//! prepended to `LD_LIBRARY_PATH` for the offloaded run).

use crate::oracle_log::parse_info_log;
pub use crate::oracle_log::{
    parse_info_log as parse_info, DataOp, DataOpKind, InfoLog, KernelArg, KernelLaunch, Transfer,
    UnmappedUse,
};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Offload target triple: the host itself, as a separate device with real copies.
pub const OFFLOAD_TRIPLE: &str = "x86_64-unknown-linux-gnu";
/// `LIBOMPTARGET_INFO`: kernel arguments (0x1) | mapping exists (0x2) | data transfers (0x20).
pub const INFO_LEVEL: u32 = 0x1 | 0x2 | 0x20;
/// Wall-clock limit for one compiler invocation.
pub const BUILD_TIMEOUT: Duration = Duration::from_secs(120);
/// Wall-clock limit for one run of a built program.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(60);

/// The result of one offloaded run.
#[derive(Debug, Clone)]
pub struct OracleRun {
    /// What the program printed on stdout.
    pub stdout: String,
    /// Exit status; `None` if it was killed by a signal.
    pub exit_code: Option<i32>,
    /// Copies and bytes host → device.
    pub h2d: Transfer,
    /// Copies and bytes device → host.
    pub d2h: Transfer,
    /// Each target region launch, in order.
    pub kernels: Vec<KernelLaunch>,
    /// `target data`/`enter`/`exit`/`update` events, in order.
    pub data_ops: Vec<DataOp>,
    /// Implicit pointer arguments whose data was not present at launch (one per launch).
    pub unmapped: Vec<UnmappedUse>,
    /// The whole stderr (INFO lines and the program's own).
    pub stderr: String,
}

impl OracleRun {
    /// Builds the run's record from a finished process's output.
    pub fn from_output(stdout: String, exit_code: Option<i32>, stderr: String) -> Self {
        let InfoLog {
            h2d,
            d2h,
            kernels,
            unmapped,
            data_ops,
        } = parse_info_log(&stderr);
        OracleRun {
            stdout,
            exit_code,
            h2d,
            d2h,
            kernels,
            data_ops,
            unmapped,
            stderr,
        }
    }

    /// Names of the unmapped pointers, sorted and without repeats.
    pub fn unmapped_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.unmapped.iter().map(|u| u.name.as_str()).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Total copies both ways.
    pub fn total_copies(&self) -> u64 {
        self.h2d.copies + self.d2h.copies
    }

    /// Total bytes both ways.
    pub fn total_bytes(&self) -> u64 {
        self.h2d.bytes + self.d2h.bytes
    }

    /// A short human-readable account, for assertion messages.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "exit={:?} h2d={} copies/{} B d2h={} copies/{} B kernels={}",
            self.exit_code,
            self.h2d.copies,
            self.h2d.bytes,
            self.d2h.copies,
            self.d2h.bytes,
            self.kernels.len()
        );
        if !self.unmapped.is_empty() {
            // name@location, once each in order of first use, with the number of launches.
            let mut seen: Vec<(String, usize)> = Vec::new();
            for u in &self.unmapped {
                let key = format!("{}@{}", u.name, u.kernel_location.as_deref().unwrap_or("?"));
                match seen.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, n)) => *n += 1,
                    None => seen.push((key, 1)),
                }
            }
            let list: Vec<String> = seen
                .into_iter()
                .map(|(k, n)| if n == 1 { k } else { format!("{k}(x{n})") })
                .collect();
            s.push_str(" unmapped=");
            s.push_str(&list.join(","));
        }
        s
    }
}

/// The verdict of [`check`].
#[derive(Debug, Clone)]
pub struct Verdict {
    /// stdout of the build without `-fopenmp`.
    pub reference: String,
    pub offload: OracleRun,
    /// The offloaded run printed exactly the reference output.
    pub output_matches: bool,
    /// The program says `#pragma omp requires unified_shared_memory`: its kernels may use host
    /// memory through pointers nothing maps (the runtime's "not present" is then right).
    pub shared_memory: bool,
}

impl Verdict {
    /// Correct in the oracle's sense: same output as the sequential build, exit status 0, and
    /// no unmapped data.
    pub fn is_correct(&self) -> bool {
        self.output_matches
            && self.offload.exit_code == Some(0)
            && (self.offload.unmapped.is_empty() || self.shared_memory)
    }

    /// A human-readable account (with a diff-like view when outputs differ).
    pub fn summary(&self) -> String {
        let mut s = format!(
            "output_matches={} {}",
            self.output_matches,
            self.offload.summary()
        );
        if !self.output_matches {
            s.push_str(&format!(
                "\n--- reference stdout\n{}--- offload stdout\n{}",
                self.reference, self.offload.stdout
            ));
        }
        s
    }
}

/// Why the oracle could not produce a result.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    #[error("{0}: not a C or C++ source (expected .c, .cpp, .cc, .cxx, .C)")]
    UnsupportedSource(PathBuf),
    #[error("{context}: {source}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
    #[error("build failed: {command}\n{stderr}")]
    Build { command: String, stderr: String },
    #[error("{what} timed out after {} s\n--- stdout\n{stdout}--- stderr\n{stderr}", limit.as_secs())]
    Timeout {
        what: String,
        limit: Duration,
        stdout: String,
        stderr: String,
    },
    #[error("reference run of {src} exited with {status}\n--- stderr\n{stderr}")]
    ReferenceFailed {
        src: PathBuf,
        status: String,
        stdout: String,
        stderr: String,
    },
}

fn io_err(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> OracleError {
    let context = context.into();
    move |source| OracleError::Io { context, source }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lang {
    C,
    Cxx,
}

fn lang_of(src: &Path) -> Result<Lang, OracleError> {
    match src.extension().and_then(|e| e.to_str()) {
        Some("c") => Ok(Lang::C),
        Some("cpp" | "cc" | "cxx" | "C" | "c++") => Ok(Lang::Cxx),
        _ => Err(OracleError::UnsupportedSource(src.to_path_buf())),
    }
}

fn compiler(lang: Lang) -> String {
    let (var, default) = match lang {
        Lang::C => ("OMPLENS_ORACLE_CC", "clang-19"),
        Lang::Cxx => ("OMPLENS_ORACLE_CXX", "clang++-19"),
    };
    std::env::var(var)
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| default.to_string())
}

fn llvm_libdir() -> String {
    std::env::var("OMPLENS_ORACLE_LIBDIR")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "/usr/lib/llvm-19/lib".to_string())
}

/// A finished (or killed) child process.
pub struct Finished {
    /// `None` when it was killed at the time limit.
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `cmd` with stdout/stderr captured and a wall-clock limit. The child leads its own
/// process group; on timeout the whole group is killed (so a grandchild holding the pipes
/// cannot keep us waiting) and `status` is `None`.
pub fn run_with_timeout(mut cmd: Command, limit: Duration) -> std::io::Result<Finished> {
    use std::os::unix::process::CommandExt;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = cmd.spawn()?;
    let out = drain(child.stdout.take().expect("piped stdout"));
    let err = drain(child.stderr.take().expect("piped stderr"));
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() >= limit {
            // The group id is the child's pid (process_group(0)).
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    };
    // After a normal exit the pipes close at once unless a grandchild still holds them; do
    // not wait for such a one for long.
    let grace = Duration::from_secs(5);
    let stdout = String::from_utf8_lossy(&out.recv_timeout(grace).unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err.recv_timeout(grace).unwrap_or_default()).into_owned();
    Ok(Finished {
        status,
        stdout,
        stderr,
    })
}

/// Reads a pipe to its end on a thread; the bytes arrive on the returned channel.
fn drain(mut pipe: impl Read + Send + 'static) -> std::sync::mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        let _ = tx.send(buf);
    });
    rx
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Compiles `src` into `out` with the given mode flags.
fn build(src: &Path, out: &Path, offload: bool, extra_flags: &[&str]) -> Result<(), OracleError> {
    let lang = lang_of(src)?;
    let src = std::path::absolute(src).map_err(io_err(format!("{}", src.display())))?;
    let mut cmd = Command::new(compiler(lang));
    cmd.arg("-O1");
    if offload {
        cmd.args([
            "-g",
            "-fopenmp",
            &format!("-fopenmp-targets={OFFLOAD_TRIPLE}"),
        ]);
    } else {
        cmd.arg("-Wno-unknown-pragmas");
    }
    if lang == Lang::Cxx {
        cmd.arg("-std=c++17");
    }
    cmd.args(extra_flags).arg(&src).arg("-o").arg(out);
    if lang == Lang::C {
        cmd.arg("-lm");
    }
    let command = describe(&cmd);
    let done =
        run_with_timeout(cmd, BUILD_TIMEOUT).map_err(io_err(format!("spawning `{command}`")))?;
    match done.status {
        Some(s) if s.success() => Ok(()),
        Some(_) => Err(OracleError::Build {
            command,
            stderr: done.stderr,
        }),
        None => Err(OracleError::Timeout {
            what: format!("build `{command}`"),
            limit: BUILD_TIMEOUT,
            stdout: done.stdout,
            stderr: done.stderr,
        }),
    }
}

fn temp_dir() -> Result<tempfile::TempDir, OracleError> {
    tempfile::Builder::new()
        .prefix("omplens-oracle-")
        .tempdir()
        .map_err(io_err("creating a temporary build directory"))
}

/// Builds `src` (C or C++ by extension; C++ gets `-std=c++17` before `extra_flags`) with
/// `-O1 -g -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu` (+ `-lm` for C), runs it with
/// `OMP_TARGET_OFFLOAD=MANDATORY`, `LIBOMPTARGET_INFO=35` and the environment the program asks
/// for ([`program_env`]), and parses its stderr.
///
/// A non-zero exit is not an error (see [`OracleRun::exit_code`]); a build failure or a run
/// past [`RUN_TIMEOUT`] is. `extra_flags` must not turn debug info off (`-g0`): the argument
/// names and locations come from it.
pub fn run_offload(src: &Path, extra_flags: &[&str]) -> Result<OracleRun, OracleError> {
    let dir = temp_dir()?;
    let bin = dir.path().join("offload.bin");
    build(src, &bin, true, extra_flags)?;
    let libdir = llvm_libdir();
    let ld_path = match std::env::var("LD_LIBRARY_PATH") {
        Ok(old) if !old.is_empty() => format!("{libdir}:{old}"),
        _ => libdir,
    };
    let mut cmd = Command::new(&bin);
    cmd.current_dir(dir.path())
        .env("LD_LIBRARY_PATH", ld_path)
        .env("OMP_TARGET_OFFLOAD", "MANDATORY")
        .env("LIBOMPTARGET_INFO", INFO_LEVEL.to_string())
        .env_remove("LIBOMPTARGET_DEBUG")
        .env_remove("OMP_DEFAULT_DEVICE");
    cmd.envs(program_env(src));
    let done =
        run_with_timeout(cmd, RUN_TIMEOUT).map_err(io_err(format!("running {}", bin.display())))?;
    let Some(status) = done.status else {
        return Err(OracleError::Timeout {
            what: format!("offloaded run of {}", src.display()),
            limit: RUN_TIMEOUT,
            stdout: done.stdout,
            stderr: done.stderr,
        });
    };
    Ok(OracleRun::from_output(
        done.stdout,
        status.code(),
        done.stderr,
    ))
}

/// The environment a program asks for in a comment line `oracle-env: NAME=VALUE ...`: a
/// CUDA-style program that indexes by team and thread number computes its result only when
/// host offloading forms every team and thread of its launch, which it does not by default
/// (as many as the machine has cores).
fn program_env(src: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(src).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.split_once("oracle-env:"))
        .flat_map(|(_, rest)| rest.split_whitespace())
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Builds `src` without `-fopenmp` (`-O1 -Wno-unknown-pragmas`, C++: `-std=c++17`, C: `-lm`)
/// and returns its stdout: the reference result. A non-zero exit is an error.
pub fn run_reference(src: &Path, extra_flags: &[&str]) -> Result<String, OracleError> {
    let dir = temp_dir()?;
    let bin = dir.path().join("reference.bin");
    build(src, &bin, false, extra_flags)?;
    let mut cmd = Command::new(&bin);
    cmd.current_dir(dir.path());
    let done =
        run_with_timeout(cmd, RUN_TIMEOUT).map_err(io_err(format!("running {}", bin.display())))?;
    match done.status {
        Some(s) if s.success() => Ok(done.stdout),
        Some(s) => Err(OracleError::ReferenceFailed {
            src: src.to_path_buf(),
            status: s.to_string(),
            stdout: done.stdout,
            stderr: done.stderr,
        }),
        None => Err(OracleError::Timeout {
            what: format!("reference run of {}", src.display()),
            limit: RUN_TIMEOUT,
            stdout: done.stdout,
            stderr: done.stderr,
        }),
    }
}

/// Runs both builds (concurrently) and compares: see [`Verdict::is_correct`].
pub fn check(src: &Path, extra_flags: &[&str]) -> Result<Verdict, OracleError> {
    let (reference, offload) = std::thread::scope(|s| {
        let r = s.spawn(|| run_reference(src, extra_flags));
        let o = run_offload(src, extra_flags);
        (r.join().expect("reference thread panicked"), o)
    });
    let reference = reference?;
    let offload = offload?;
    let output_matches = reference == offload.stdout;
    Ok(Verdict {
        reference,
        offload,
        output_matches,
        shared_memory: std::fs::read_to_string(src).is_ok_and(|t| requires_shared_memory(&t)),
    })
}

/// Whether C source `text` has a `#pragma omp requires` naming `unified_shared_memory`.
pub fn requires_shared_memory(text: &str) -> bool {
    text.lines().any(|l| {
        let words: Vec<&str> = l
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        l.trim_start().starts_with('#')
            && words.starts_with(&["pragma", "omp", "requires"])
            && words.contains(&"unified_shared_memory")
    })
}

/// Whether the oracle's tools are installed (the C compiler runs and libomptarget exists).
pub fn available() -> bool {
    let cc_ok = Command::new(compiler(Lang::C))
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    cc_ok && Path::new(&llvm_libdir()).join("libomptarget.so").exists()
}

/// [`crate::tier::require`] for the host-offload oracle: clang-19 and libomptarget.
pub fn gate(test: &str) -> bool {
    crate::tier::require(
        test,
        "the oracle (clang-19 or /usr/lib/llvm-19/lib/libomptarget.so)",
        available(),
        "scripts/bootstrap.sh",
    )
}

#[cfg(test)]
mod tests {

    #[test]
    fn shared_memory_is_a_requires_pragma_naming_it() {
        assert!(requires_shared_memory(
            "#include <stdio.h>\n#pragma omp requires unified_shared_memory\n"
        ));
        assert!(requires_shared_memory(
            "  #  pragma  omp requires reverse_offload, unified_shared_memory\n"
        ));
        assert!(!requires_shared_memory(
            "#pragma omp requires unified_address\n"
        ));
        assert!(!requires_shared_memory(
            "/* unified_shared_memory */\n#pragma omp target\n"
        ));
    }

    use super::*;

    #[test]
    fn a_run_past_its_limit_is_killed() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo started; sleep 30"]);
        let start = Instant::now();
        let done = run_with_timeout(cmd, Duration::from_millis(300)).unwrap();
        assert!(done.status.is_none());
        assert!(start.elapsed() < Duration::from_secs(10));
        assert_eq!(done.stdout, "started\n");
    }

    #[test]
    fn language_by_extension() {
        assert!(lang_of(Path::new("a.c")).is_ok_and(|l| l == Lang::C));
        assert!(lang_of(Path::new("a.cpp")).is_ok_and(|l| l == Lang::Cxx));
        assert!(lang_of(Path::new("a.cc")).is_ok_and(|l| l == Lang::Cxx));
        assert!(matches!(
            lang_of(Path::new("a.h")),
            Err(OracleError::UnsupportedSource(_))
        ));
    }
}
