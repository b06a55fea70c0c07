//! `workspace/executeCommand`: the mapping plan as text, and the data-region insertions that
//! editor plugins can call directly (they apply their edit through `workspace/applyEdit`).

use super::actions::{self, Target, INSERT_REGION_FILE, INSERT_REGION_FUNCTION, SHOW_PLAN};
use super::analysis::{Analysed, TEST_PANIC_ENV};
use super::guard::{self, guarded};
use super::state::State;
use omplens_analysis::plan::report;
use serde_json::{json, Value};
use std::sync::Arc;
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{MessageType, Position, Uri, WorkspaceEdit};

/// Only registered when [`TEST_PANIC_ENV`] is set: panics, to test that a panic in a handler
/// is answered with an error.
pub const TEST_PANIC: &str = "omplens.test.panic";

/// The commands this server executes.
pub fn names() -> Vec<String> {
    let mut v = vec![
        SHOW_PLAN.to_string(),
        INSERT_REGION_FUNCTION.to_string(),
        INSERT_REGION_FILE.to_string(),
    ];
    if test_hooks() {
        v.push(TEST_PANIC.to_string());
    }
    v
}

fn test_hooks() -> bool {
    std::env::var_os(TEST_PANIC_ENV).is_some_and(|v| !v.is_empty())
}

fn arg<T: serde::de::DeserializeOwned>(args: &[Value], i: usize, what: &str) -> jsonrpc::Result<T> {
    let v = args
        .get(i)
        .ok_or_else(|| guard::invalid_params(format!("missing argument {}: {what}", i + 1)))?;
    serde_json::from_value(v.clone())
        .map_err(|e| guard::invalid_params(format!("argument {} ({what}): {e}", i + 1)))
}

pub async fn execute(
    st: &Arc<State>,
    command: &str,
    args: Vec<Value>,
) -> jsonrpc::Result<Option<Value>> {
    match command {
        SHOW_PLAN => {
            let uri: Uri = arg(&args, 0, "document URI")?;
            let show = args
                .get(1)
                .and_then(|o| o.get("show"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let a = open(st, &uri).await?;
            let text = guarded("omplens.showPlan", || {
                Ok(match &a.result {
                    Err(why) => format!("no plan: {why}"),
                    Ok(fa) => match &fa.plan() {
                        Ok(plan) => report::render(&fa.module, plan),
                        Err(why) => format!("no plan: {why}"),
                    },
                })
            })?;
            if show {
                st.client.show_message(MessageType::INFO, &text).await;
            }
            Ok(Some(Value::String(text)))
        }
        INSERT_REGION_FUNCTION | INSERT_REGION_FILE => {
            let uri: Uri = arg(&args, 0, "document URI")?;
            let position: Option<Position> = if command == INSERT_REGION_FUNCTION {
                Some(arg(&args, 1, "position in the function")?)
            } else {
                None
            };
            let a = open(st, &uri).await?;
            let caps = st.caps();
            let edit = guarded(command, || {
                region_edit(&uri, &a, position, caps.document_changes)
            })?;
            let Some(edit) = edit else {
                return Ok(Some(
                    json!({"applied": false, "reason": "nothing to insert"}),
                ));
            };
            let applied = st
                .client
                .apply_edit(edit)
                .await
                .map(|r| r.applied)
                .unwrap_or(false);
            Ok(Some(json!({ "applied": applied })))
        }
        TEST_PANIC if test_hooks() => guarded(TEST_PANIC, || panic!("test hook: {TEST_PANIC}")),
        _ => Err(jsonrpc::Error::method_not_found()),
    }
}

/// The analysis of an open document, or an error saying it is not open.
async fn open(st: &Arc<State>, uri: &Uri) -> jsonrpc::Result<Arc<Analysed>> {
    st.analysis(uri)
        .await?
        .ok_or_else(|| guard::invalid_params(format!("{} is not open", uri.as_str())))
}

fn region_edit(
    uri: &Uri,
    a: &Analysed,
    position: Option<Position>,
    document_changes: bool,
) -> jsonrpc::Result<Option<WorkspaceEdit>> {
    let fa = a
        .result
        .as_ref()
        .map_err(|why| guard::invalid_params(why.clone()))?;
    let plan = fa
        .plan()
        .as_ref()
        .map_err(|why| guard::invalid_params(why.clone()))?;
    let text = a.index.text();
    let edits = match position {
        Some(p) => {
            actions::function_region(&fa.module, plan, text, a.index.offset(p)).map(|(_, e)| e)
        }
        None => actions::file_region(&fa.module, plan, text),
    };
    if let Some(e) = &edits {
        if !fa.gate_accepts(e) {
            return Err(guard::invalid_params(
                "omplens did not apply the data mappings: the rewritten file failed its \
                 re-analysis (it would not compile, or would add a finding); `omplens fix` \
                 on the command line says why"
                    .to_string(),
            ));
        }
    }
    let target = Target {
        uri,
        version: a.version,
        document_changes,
    };
    Ok(edits.map(|e| actions::workspace_edit(&target, &a.index, &e)))
}
