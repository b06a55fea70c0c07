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

#[derive(Subcommand)]
enum Command {
    /// Print the lowered IR: functions, AST-CFG, accesses and OpenMP directives.
    Ir(SourceArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Ir(args) => commands::ir::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("omplens: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
