//! The LSP handlers: thin, each one reads the document's analysis and hands it to the module
//! that answers (diagnostics, actions, hover, hints, lens, commands).

use super::actions::{self, Target};
use super::commands;
use super::config::Settings;
use super::documents::Change;
use super::guard::guarded;
use super::state::{Caps, State};
use super::{hints, hover, lens};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

pub struct Backend {
    st: Arc<State>,
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend {
            st: Arc::new(State::new(client)),
        }
    }

    pub fn state(&self) -> Arc<State> {
        self.st.clone()
    }

    async fn warn(&self, message: String) {
        self.st
            .client
            .show_message(MessageType::WARNING, message)
            .await;
    }

    /// New settings from the client: installed, and the open documents analysed again when
    /// the results can differ.
    async fn apply_settings(&self, value: &serde_json::Value) {
        let new = match Settings::from_json(value) {
            Ok(s) => s,
            Err(e) => {
                return self
                    .warn(format!("omplens: {e}; the previous settings stay"))
                    .await
            }
        };
        let old = self.st.set_settings(new);
        let new = self.st.settings();
        if old.analysis_differs(&new) {
            // From now on no request is answered from an analysis under the old settings.
            self.st.invalidate();
            let st = self.st.clone();
            tokio::spawn(async move { st.reanalyse_all("settings changed").await });
        } else {
            self.refresh_views().await;
        }
    }

    async fn refresh_views(&self) {
        let caps = self.st.caps();
        if caps.inlay_hint_refresh {
            let _ = self.st.client.inlay_hint_refresh().await;
        }
        if caps.code_lens_refresh {
            let _ = self.st.client.code_lens_refresh().await;
        }
    }
}

fn root_of(params: &InitializeParams) -> Option<std::path::PathBuf> {
    #[allow(deprecated)]
    let uri = params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first().map(|f| f.uri.clone()))
        .or_else(|| params.root_uri.clone())?;
    super::state::file_path(&uri)
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                // A saved file may define functions the open files call.
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR,
                CodeActionKind::REFACTOR_REWRITE,
                CodeActionKind::SOURCE,
            ]),
            ..CodeActionOptions::default()
        })),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        inlay_hint_provider: Some(OneOf::Left(true)),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: commands::names(),
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        *self.st.caps.write().unwrap_or_else(|e| e.into_inner()) = Caps::of(&params.capabilities);
        *self.st.root.write().unwrap_or_else(|e| e.into_inner()) = root_of(&params);
        if let Some(opts) = &params.initialization_options {
            match Settings::from_json(opts) {
                Ok(s) => {
                    self.st.set_settings(s);
                }
                Err(e) => {
                    // Shown once the client is ready (initialized): log it now.
                    self.st
                        .client
                        .log_message(MessageType::WARNING, format!("omplens: {e}"))
                        .await;
                }
            }
        }
        Ok(InitializeResult {
            capabilities: capabilities(),
            server_info: Some(ServerInfo {
                name: "omplens".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if !self.st.caps().watch_registration {
            return;
        }
        let watchers = ["**/compile_commands.json", "**/.omplens.toml"]
            .into_iter()
            .map(|g| FileSystemWatcher {
                glob_pattern: GlobPattern::String(g.into()),
                kind: None,
            })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = Registration {
            id: "omplens-watch".into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(e) = self.st.client.register_capability(vec![registration]).await {
            self.st
                .client
                .log_message(
                    MessageType::WARNING,
                    format!(
                        "omplens: could not watch compile_commands.json: {}",
                        e.message
                    ),
                )
                .await;
        }
    }

    async fn shutdown(&self) -> Result<()> {
        self.st.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let d = params.text_document;
        self.st.docs.open(d.uri.clone(), d.version, d.text);
        self.st.schedule(d.uri, d.version, Duration::ZERO);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        match self.st.docs.change(&uri, version, params.content_changes) {
            Change::Applied { quiet_for, idle } => {
                // The debounce gathers a burst of typing into one analysis. An edit starts
                // at once after a pause at least that long, or when the version before it
                // was analysed and nothing runs (the server is idle: a burst has nothing
                // pending to gather); if more edits come, they cancel this analysis.
                let debounce = self.st.settings().debounce;
                let delay = if quiet_for >= debounce || idle {
                    Duration::ZERO
                } else {
                    debounce
                };
                self.st.schedule(uri, version, delay);
            }
            Change::Stale { have } => {
                self.st
                    .client
                    .log_message(
                        MessageType::LOG,
                        format!(
                            "omplens: ignored change to version {version} of {}: have {have}",
                            uri.as_str()
                        ),
                    )
                    .await;
            }
            Change::Unknown => {}
        }
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        // What the open files know of the functions the saved file defines (read through
        // the compile database) is read again; their diagnostics follow.
        let Some(path) = super::state::file_path(&params.text_document.uri) else {
            return;
        };
        if !omplens_analysis::frontend::is_c_family_source(&path) {
            return;
        }
        let st = self.st.clone();
        tokio::spawn(async move {
            let _ = tokio::task::spawn_blocking(super::analysis::project_changed).await;
            st.reanalyse_all("a file of the project was saved").await
        });
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.st.docs.close(&uri);
        if let Some(path) = super::state::file_path(&uri) {
            tokio::task::spawn_blocking(move || super::analysis::forget(&path));
        }
        self.st
            .client
            .publish_diagnostics(uri, Vec::new(), None)
            .await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let empty =
            params.settings.is_null() || params.settings.as_object().is_some_and(|o| o.is_empty());
        if empty && self.st.caps().configuration {
            // Pull-model clients send no settings: ask for the `omplens` section.
            let item = ConfigurationItem {
                scope_uri: None,
                section: Some("omplens".into()),
            };
            if let Ok(mut v) = self.st.client.configuration(vec![item]).await {
                if let Some(value) = v.pop() {
                    return self.apply_settings(&value).await;
                }
            }
        }
        self.apply_settings(&params.settings).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let relevant = params.changes.iter().any(|c| {
            let p = c.uri.as_str();
            p.ends_with("/compile_commands.json") || p.ends_with("/.omplens.toml")
        });
        if relevant {
            let st = self.st.clone();
            tokio::spawn(async move {
                st.reanalyse_all("compile flags or configuration changed")
                    .await
            });
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        let uri = &p.text_document.uri;
        let Some(a) = self.st.answer_from(uri, Some(p.position)).await? else {
            return Ok(None);
        };
        guarded("textDocument/hover", || {
            let Ok(fa) = &a.analysed.result else {
                return Ok(None);
            };
            let Some(offset) = a.index.offset_outside_change(p.position) else {
                return Ok(None);
            };
            let mut h = hover::hover(&a.index, fa, offset);
            if let (Some(h), Some(v)) = (h.as_mut(), a.stale) {
                hover::mark_stale(h, v);
            }
            Ok(h)
        })
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        if !self.st.settings().inlay_hints {
            return Ok(Some(Vec::new()));
        }
        let Some(a) = self.st.answer_from(&params.text_document.uri, None).await? else {
            return Ok(None);
        };
        guarded("textDocument/inlayHint", || {
            let Ok(fa) = &a.analysed.result else {
                return Ok(Some(Vec::new()));
            };
            let mut hints = hints::hints(&a.index, fa, params.range);
            // A hint whose place changed since its analysis would sit at a guess.
            hints.retain(|h| !a.index.touches_change(h.position));
            Ok(Some(hints))
        })
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        if !self.st.settings().code_lens {
            return Ok(Some(Vec::new()));
        }
        let uri = params.text_document.uri;
        let Some(a) = self.st.answer_from(&uri, None).await? else {
            return Ok(None);
        };
        guarded("textDocument/codeLens", || {
            let Ok(fa) = &a.analysed.result else {
                return Ok(Some(Vec::new()));
            };
            let mut lenses = lens::lenses(&uri, &a.index, fa);
            lenses.retain(|l| !a.index.touches_change(l.range.start));
            Ok(Some(lenses))
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let anchor = Some(params.range.start);
        let Some(mut a) = self.st.answer_from(&uri, anchor).await? else {
            return Ok(None);
        };
        if a.stale.is_some() && a.index.touches_change(params.range.end) {
            // The selection reaches into the changed text: wait for its analysis.
            let Some(now) = self.st.analysis(&uri).await? else {
                return Ok(None);
            };
            a = crate::lsp::state::Answer {
                index: now.index.clone(),
                analysed: now,
                stale: None,
            };
        }
        let document_changes = self.st.caps().document_changes;
        guarded("textDocument/codeAction", || {
            let Ok(fa) = &a.analysed.result else {
                return Ok(Some(Vec::new()));
            };
            // Edits are written in the positions of the document's current text, so they
            // carry its version even when they come from an older analysis.
            let version = match a.stale {
                Some(_) => self.st.docs.version(&uri).unwrap_or(a.analysed.version),
                None => a.analysed.version,
            };
            let target = Target {
                uri: &uri,
                version,
                document_changes,
            };
            let range = (
                a.index.offset(params.range.start),
                a.index.offset(params.range.end),
            );
            let mut out = actions::actions(&target, &a.index, fa, range, &params.context);
            if let Some(v) = a.stale {
                // An edit reaching into text changed since its analysis would be a guess.
                out.retain(|x| {
                    !actions::edit_ranges(x)
                        .iter()
                        .any(|r| a.index.touches_change(r.start) || a.index.touches_change(r.end))
                });
                for x in &mut out {
                    actions::mark_stale(x, v);
                }
            }
            Ok(Some(out))
        })
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        commands::execute(&self.st, &params.command, params.arguments).await
    }
}
