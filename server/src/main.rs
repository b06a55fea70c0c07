//! `omplens`: a language server and command-line tool for OpenMP offload data mappings.

mod commands;

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
    /// Directory holding compile_commands.json (default: search upwards from FILE).
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
}

#[derive(Subcommand)]
enum Command {
    /// Print the lowered IR: functions, AST-CFG, accesses and OpenMP directives.
    Ir(SourceArgs),
    /// Write the data mappings the kernels need: a `target data` region per function, map
    /// types, `target update`s outside loops, `firstprivate` for read-only scalars.
    Fix(FixArgs),
    /// Print, per function, what `fix` would move where and the bytes when known.
    Plan(SourceArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Ir(args) => commands::ir::run(&args),
        Command::Fix(args) => commands::fix::run_fix(&args),
        Command::Plan(args) => commands::fix::run_plan(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("omplens: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
