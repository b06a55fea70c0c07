//! Shared by the subcommands: check the input, find the flags, lower the file.

use crate::SourceArgs;
use anyhow::{bail, Context, Result};
use omplens_analysis::frontend::{self, flags};
use omplens_analysis::ir::Module;
use std::path::Path;

/// Lowers the file named on the command line, with its compile flags.
pub fn lower(args: &SourceArgs) -> Result<Module> {
    check_inputs(args)?;
    let module = frontend::lower_file(&args.file, None, &clang_args(args)?)?;
    Ok(module)
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

/// The directory named by `option` holds a compile_commands.json.
pub fn check_database_dir(option: &str, dir: &Path) -> Result<()> {
    if !dir.join("compile_commands.json").is_file() {
        bail!("{option} {}: no compile_commands.json there", dir.display());
    }
    Ok(())
}
