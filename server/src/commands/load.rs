//! Shared by the subcommands: check the input, find the flags, lower the file.

use crate::SourceArgs;
use anyhow::{bail, Context, Result};
use omplens_analysis::frontend::flags;
use omplens_analysis::ide::{Analysis, AnalysisHost, Cancellable, Change};
use omplens_analysis::ir::Module;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One file on an analysis host of its own (the commands that take one file).
pub struct OneFile {
    host: AnalysisHost,
    pub path: PathBuf,
    args: Vec<String>,
}

impl OneFile {
    pub fn new(path: &Path, text: String, args: Vec<String>) -> OneFile {
        let mut f = OneFile {
            host: AnalysisHost::new(),
            path: path.to_path_buf(),
            args,
        };
        f.set_text(text);
        f
    }

    /// The file now has `text` (same flags).
    pub fn set_text(&mut self, text: String) {
        let mut change = Change::new();
        change.set_file(self.path.clone(), text, self.args.clone());
        self.host.apply_change(change);
    }

    pub fn analysis(&self) -> Analysis {
        self.host.analysis()
    }

    /// The lowered module; an error when libclang refused the file.
    pub fn module(&self) -> Result<Arc<Module>> {
        uncancelled(self.analysis().module(&self.path))?.map_err(anyhow::Error::msg)
    }
}

/// A query's answer; nothing changes a command's own host while it asks, so a cancellation
/// is an internal error.
pub fn uncancelled<T>(r: Cancellable<T>) -> Result<T> {
    r.map_err(|_| anyhow::anyhow!("internal error: the analysis was cancelled"))
}

/// The file named on the command line, read from disk, with its compile flags.
pub fn one_file(args: &SourceArgs) -> Result<OneFile> {
    check_inputs(args)?;
    let path = &args.file;
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    Ok(OneFile::new(path, text, clang_args(args)?))
}

/// The clang arguments for the file: from the compilation database, plus those after `--`.
pub fn clang_args(args: &SourceArgs) -> Result<Vec<String>> {
    file_flags(
        &args.file,
        args.compile_commands_dir.as_deref(),
        &args.clang_flags,
    )
}

/// The clang arguments for `file`: from the compilation database in `database_dir` (or the
/// nearest one upwards), plus `extra`.
pub fn file_flags(
    file: &Path,
    database_dir: Option<&Path>,
    extra: &[String],
) -> Result<Vec<String>> {
    let flags =
        flags::flags_for(file, database_dir, extra).context("reading the compilation database")?;
    omplens_analysis::project::set_database_dir(database_dir);
    if let Some(note) = flags::dropped_note(&flags.dropped) {
        eprintln!("{note}");
    }
    if let Some(why) = flags.skip {
        bail!("{}: {why}", file.display());
    }
    Ok(flags.args)
}

/// The file exists and is a file; the compilation database directory, if given, has one.
pub fn check_inputs(args: &SourceArgs) -> Result<()> {
    let path = &args.file;
    if !path.exists() {
        bail!("{}: no such file", path.display());
    }
    if !path.is_file() {
        bail!("{}: not a regular file", path.display());
    }
    if let Some(d) = &args.compile_commands_dir {
        check_database_dir("--compile-commands-dir", d)?;
    }
    Ok(())
}

/// The directory named by `option` holds a compile_commands.json (or is such a file).
pub fn check_database_dir(option: &str, dir: &Path) -> Result<()> {
    if !dir.join("compile_commands.json").is_file() && !dir.is_file() {
        bail!("{option} {}: no compile_commands.json there", dir.display());
    }
    Ok(())
}
