//! `omplens lsp`: the language server, over stdio.
//!
//! - [`server`]: the LSP handlers (tower-lsp-server);
//! - [`state`]: open documents, settings, and the debounced analysis schedule;
//! - [`analysis`]: the one call into the analysis (owned results, cached per version);
//! - [`diagnostics`], [`actions`], [`hover`], [`hints`], [`lens`], [`commands`]: answers;
//! - [`documents`], [`convert`]: text, versions, UTF-16 positions;
//! - [`config`]: the client's settings; [`guard`]: panics as errors; [`transport`]: stdio
//!   framing that survives malformed messages.

mod actions;
mod analysis;
mod commands;
mod config;
mod convert;
mod diagnostics;
mod documents;
mod guard;
mod hints;
mod hover;
mod lens;
mod server;
mod state;
mod transport;

use std::sync::atomic::Ordering;
use tower_lsp_server::{LspService, Server};

/// Serves LSP on stdin/stdout until the client sends `exit`. Exit status 0 when `shutdown`
/// came first, 1 otherwise (as the protocol asks).
pub fn run() -> anyhow::Result<std::process::ExitCode> {
    // Load libclang once, up front; each analysis thread then attaches the loaded library to
    // itself. A missing libclang is reported per file, not fatal.
    let _ = omplens_analysis::frontend::ensure_libclang();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let shut_down = runtime.block_on(async {
        let (service, socket) = LspService::new(server::Backend::new);
        let state = service.inner().state();
        transport::run(tokio::io::stdin(), tokio::io::stdout(), |input, output| {
            Server::new(input, output, socket).serve(service)
        })
        .await;
        state.shut_down.load(Ordering::SeqCst)
    });
    // stdin's reader is a blocking thread that may wait forever for input: don't join it.
    runtime.shutdown_background();
    analysis::release(std::time::Duration::from_secs(2));
    // An analysis of a text nobody waits for may still be inside libclang: leave without
    // running LLVM's static destructors under it.
    omplens_analysis::frontend::exit_process(if shut_down { 0 } else { 1 })
}
