//! The `omplens` binary under test, for the integration tests of this crate (Cargo sets
//! `CARGO_BIN_EXE_omplens` only for the tests of the `omplens` package itself).
//!
//! `$OMPLENS_BIN` when set; otherwise `omplens` in the profile directory this test binary was
//! built into (`<target>/<profile>/deps/TEST` → `<target>/<profile>/omplens`, so
//! `CARGO_TARGET_DIR` and `--release` are followed). `cargo test --workspace` builds it (for the
//! tests of the server); `cargo test -p omplens-tests` alone does not, and a stale binary would
//! test old code: when it is missing or older than a source of `analysis/` or `server/` (or
//! `Cargo.lock`), the test builds it first with `cargo build -p omplens` into that target
//! directory. (Not on every run: `-p omplens` unifies features differently from `--workspace`
//! and would compile the server a second time.)

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::SystemTime;

/// The path of the `omplens` binary, built (once per test process) when it is not given by
/// `$OMPLENS_BIN`. Panics when it cannot be built.
pub fn path() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| locate().unwrap_or_else(|e| panic!("the omplens binary: {e}")))
}

fn locate() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("OMPLENS_BIN").filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("OMPLENS_BIN={} is not a file", p.display()))
        };
    }
    let exe = std::env::current_exe().map_err(|e| format!("locating the test binary: {e}"))?;
    let profile_dir = exe
        .parent()
        .filter(|d| d.file_name().is_some_and(|n| n == "deps"))
        .and_then(Path::parent)
        .ok_or_else(|| {
            format!(
                "the test binary {} is not in <target>/<profile>/deps/; set OMPLENS_BIN",
                exe.display()
            )
        })?;
    let target_dir = profile_dir
        .parent()
        .ok_or("the profile directory has no parent")?;
    let profile = profile_dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or("the profile directory has no name")?;
    let bin = profile_dir.join(format!("omplens{}", std::env::consts::EXE_SUFFIX));
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("tests/ has no parent")?;
    let built = std::fs::metadata(&bin).and_then(|m| m.modified()).ok();
    let newest = [
        repo.join("analysis"),
        repo.join("server"),
        repo.join("Cargo.lock"),
    ]
    .iter()
    .filter_map(|p| newest_mtime(p))
    .max();
    if let (Some(built), Some(newest)) = (built, newest) {
        if built >= newest {
            return Ok(bin);
        }
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = repo.join("Cargo.toml");
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--quiet", "-p", "omplens", "--bin", "omplens"])
        .arg("--manifest-path")
        .arg(&manifest)
        .arg("--target-dir")
        .arg(target_dir);
    match profile {
        "debug" => {}
        "release" => {
            cmd.arg("--release");
        }
        other => {
            cmd.args(["--profile", other]);
        }
    }
    let out = cmd
        .output()
        .map_err(|e| format!("running cargo build -p omplens: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo build -p omplens failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!("cargo built no {}", bin.display()))
    }
}

/// The newest modification time of `path`, or of the files below it (`target/`, `tests/`
/// fixtures and hidden entries left out).
fn newest_mtime(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_dir() {
        return meta.modified().ok();
    }
    std::fs::read_dir(path)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            !name.starts_with('.') && name != "target" && name != "tests"
        })
        .filter_map(|e| newest_mtime(&e.path()))
        .max()
}
