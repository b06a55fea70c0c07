//! `omplens ir FILE`: the lowered IR in the stable text form the snapshot tests use.

use super::load;
use crate::SourceArgs;
use anyhow::Result;
use omplens_analysis::ide::render_ir;
use std::io::Write;
use std::process::ExitCode;

pub fn run(args: &SourceArgs) -> Result<ExitCode> {
    let module = load::one_file(args)?.module()?;
    let text = render_ir(&module);
    let mut out = std::io::stdout().lock();
    // A closed pipe (`omplens ir f.c | head`) is not an error worth a panic.
    if out.write_all(text.as_bytes()).is_err() {
        return Ok(ExitCode::SUCCESS);
    }
    let errors = module.errors().count();
    if errors > 0 {
        eprintln!(
            "omplens: {} had {errors} error(s); the IR above is partial (see `diagnostics:`)",
            args.file.display()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
