//! `omplens`: a language server and command-line tool for OpenMP offload data mappings.

#![deny(unsafe_code)]

mod commands;
mod lsp;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "omplens",
    version,
    about = "Finds and fixes data-mapping mistakes in OpenMP offload programs (C and C++)",
    long_about = None,
    after_help = "Compile flags come from compile_commands.json (searched upwards from the file, \
                  as clangd does) or from the flags given after `--`."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Debug)]
struct SourceArgs {
    /// The C or C++ source file.
    file: PathBuf,
    /// Directory holding compile_commands.json, or that file (default: search upwards from
    /// FILE, also in `build/`).
    #[arg(long, value_name = "DIR")]
    compile_commands_dir: Option<PathBuf>,
    /// Extra clang flags, after `--` (e.g. `-- -I include -DN=100 -std=c++17`).
    #[arg(last = true, value_name = "CLANG-FLAGS")]
    clang_flags: Vec<String>,
}

#[derive(clap::Args, Debug)]
struct FixArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// Write the fixed program to OUT (`-` for stdout) instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "OUT", conflicts_with_all = ["in_place", "diff"])]
    output: Option<PathBuf>,
    /// Rewrite FILE itself (atomically: a temporary file, then a rename).
    #[arg(long, conflicts_with = "diff")]
    in_place: bool,
    /// Print a unified diff instead of the fixed program.
    #[arg(long)]
    diff: bool,
    /// Remove the file's own data-mapping constructs (`target data`, `enter/exit data`,
    /// `update`, `map` clauses) first and synthesize fresh ones.
    #[arg(long)]
    replace: bool,
    /// Print the time spent parsing, analysing and rewriting on stderr.
    #[arg(long)]
    timings: bool,
    /// Write the verified rewrite even when gaps remain (kernels using data left unmapped);
    /// the gaps are listed and the exit status is still 1.
    #[arg(long)]
    allow_partial: bool,
}

/// How `check` prints its findings.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// Compiler-style messages with the source line and a caret.
    Text,
    /// One JSON array of findings (1-based lines, columns in characters).
    Json,
    /// SARIF 2.1.0 (GitHub code scanning).
    Sarif,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Source files, or directories to search recursively for .c, .cc, .cpp and .cxx files.
    #[arg(value_name = "FILES", required_unless_present = "build_dir")]
    files: Vec<PathBuf>,
    /// Build directory with compile_commands.json (or that file): its flags for every file,
    /// and with no FILES, every file it lists. Default: the nearest one upwards of each file
    /// (also in `build/`), as clangd finds it.
    #[arg(short = 'p', value_name = "BUILD_DIR")]
    build_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Apply the first fix of every finding (atomically), then report what remains.
    #[arg(long)]
    fix: bool,
    /// Also list, per function, what omplens cannot see (callees with no body here nor in
    /// the compile database, calls that depend on a template parameter, calls through
    /// pointers, lambdas, functions it does not analyse): the unknowns a warning may rest on.
    #[arg(short = 'v', long)]
    verbose: bool,
    /// Files checked at once (default: one per core).
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Use this configuration file instead of the nearest .omplens.toml of each file.
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    config: Option<PathBuf>,
    /// Ignore .omplens.toml files: every rule at its own severity.
    #[arg(long)]
    no_config: bool,
    /// Seconds of analysis per file: past them the file's analysis stops with a note at the
    /// file ("analysis stopped after N s"), its findings are left out, the run goes on with
    /// the other files and ends with exit status 3. 0: no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    file_timeout: f64,
    /// Parse every file's system headers itself. By default, system headers that several
    /// files begin with (the same `#include <...>` lines and flags) are precompiled once,
    /// kept in omplens's cache for later runs, and shared: the same findings, sooner.
    #[arg(long)]
    no_shared_headers: bool,
    /// Extra clang flags, after `--` (e.g. `-- -I include -DN=100 -std=c++17`).
    #[arg(last = true, value_name = "CLANG-FLAGS")]
    clang_flags: Vec<String>,
}

#[derive(clap::Args, Debug)]
struct ExplainArgs {
    /// A rule code (OMP101) or name (stale-host-read); none lists every rule.
    #[arg(value_name = "CODE|NAME", conflicts_with = "list")]
    rule: Option<String>,
    /// List every rule: code, name, family, summary.
    #[arg(long)]
    list: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Check the data mappings a program already has: stale data, missing copies, waste.
    ///
    /// Findings can be silenced by `// omplens: ignore[CODE]` on their line (or alone on
    /// the line above) and configured in `.omplens.toml`. Exit status 1 when an error
    /// remains, 2 when a file could not be checked or the command line is wrong, 3 when the
    /// analysis of a file was stopped by --file-timeout (and none failed).
    Check(CheckArgs),
    /// Print the documentation of a rule of `check`, or list them all.
    Explain(ExplainArgs),
    /// Print the lowered IR: functions, AST-CFG, accesses and OpenMP directives.
    Ir(SourceArgs),
    /// Write the data mappings the kernels need: a `target data` region per function, map
    /// types, `target update`s outside loops, `firstprivate` for read-only scalars.
    ///
    /// Before anything is written the rewritten program is parsed and analysed again: a
    /// rewrite that does not compile or adds a finding is refused, and one that leaves data
    /// a kernel uses unmapped (a gap) is not written unless `--allow-partial`. Exit status:
    /// 0 written, complete; 1 refused or gaps left (nothing written, or with
    /// `--allow-partial` the verified rewrite written); 2 the file could not be read,
    /// parsed or does not compile, or the command line is wrong.
    #[command(verbatim_doc_comment)]
    Fix(FixArgs),
    /// Print, per function, what `fix` would move where and the bytes when known.
    Plan(SourceArgs),
    /// Run the language server on stdin/stdout (LSP): diagnostics as you type, quick fixes,
    /// hover with what each directive copies, inlay hints of implicit mappings.
    Lsp,
}

/// `OMPLENS_PROFILE=1`: the language server logs, per analysis, where its time went
/// (libclang's reparse, lowering, the analysis) and each publication's time on stderr;
/// `check` prints what its shared headers did.
pub(crate) fn profiling() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OMPLENS_PROFILE").is_ok_and(|v| !v.is_empty() && v != "0"))
}

fn main() -> ExitCode {
    // Before any thread starts (the parallel `check`, the language server's runtime): setting
    // an environment variable is only sound while the process is single-threaded. clang-sys
    // reads LIBCLANG_PATH when libclang is first loaded.
    if let Some(dir) = omplens_analysis::frontend::default_libclang_path() {
        std::env::set_var("LIBCLANG_PATH", dir);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => commands::check::run(&args),
        Command::Explain(args) => commands::explain::run(&args),
        Command::Ir(args) => commands::ir::run(&args),
        Command::Fix(args) => commands::fix::run_fix(&args),
        Command::Plan(args) => commands::fix::run_plan(&args),
        Command::Lsp => lsp::run(),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("omplens: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A number of seconds, fractions allowed, not negative.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("`{s}` is not a number of seconds")),
    }
}
