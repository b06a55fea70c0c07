//! Code actions: each finding's fixes as quick fixes, the synthesized data region for the
//! function at the cursor or the whole file, a planned `target update` near the cursor, and
//! "show the mapping plan".

use super::analysis::FileAnalysis;
use super::convert::LineIndex;
use super::diagnostics;
use omplens_analysis::ir::{FuncId, Module};
use omplens_analysis::plan::{FunctionPlan, Motion, Plan, Side};
use omplens_analysis::text::TextEdit;
use std::collections::HashMap;
use tower_lsp_server::ls_types::{
    self as lsp, CodeAction, CodeActionContext, CodeActionKind, CodeActionOrCommand, Command,
    DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier, TextDocumentEdit, Uri,
    WorkspaceEdit,
};

pub const SHOW_PLAN: &str = "omplens.showPlan";
pub const INSERT_REGION_FUNCTION: &str = "omplens.insertDataRegion.function";
pub const INSERT_REGION_FILE: &str = "omplens.insertDataRegion.file";

/// Where edits go: the document at the version the edits were computed for.
pub struct Target<'a> {
    pub uri: &'a Uri,
    pub version: i32,
    /// The client takes `documentChanges` (versioned edits).
    pub document_changes: bool,
}

/// Analysis edits (byte offsets) as a workspace edit.
pub fn workspace_edit(t: &Target, index: &LineIndex, edits: &[TextEdit]) -> WorkspaceEdit {
    let edits: Vec<lsp::TextEdit> = edits
        .iter()
        .map(|e| lsp::TextEdit::new(index.range(e.start, e.end), e.text.clone()))
        .collect();
    if t.document_changes {
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: t.uri.clone(),
                    version: Some(t.version),
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..WorkspaceEdit::default()
        }
    } else {
        WorkspaceEdit {
            changes: Some(HashMap::from([(t.uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }
    }
}

/// The ranges every edit of an action writes (none for a command: it computes its edits
/// when it runs).
pub fn edit_ranges(action: &CodeActionOrCommand) -> Vec<lsp::Range> {
    let CodeActionOrCommand::CodeAction(a) = action else {
        return Vec::new();
    };
    let Some(edit) = &a.edit else {
        return Vec::new();
    };
    let mut out: Vec<lsp::Range> = edit
        .changes
        .iter()
        .flat_map(|m| m.values().flatten().map(|e| e.range))
        .collect();
    if let Some(DocumentChanges::Edits(docs)) = &edit.document_changes {
        for d in docs {
            out.extend(d.edits.iter().map(|e| match e {
                OneOf::Left(e) => e.range,
                OneOf::Right(e) => e.text_edit.range,
            }));
        }
    }
    out
}

/// Says in an action's title that it comes from the analysis of an older version.
pub fn mark_stale(action: &mut CodeActionOrCommand, version: i32) {
    let title = match action {
        CodeActionOrCommand::CodeAction(a) => &mut a.title,
        CodeActionOrCommand::Command(c) => &mut c.title,
    };
    title.push_str(&format!(" (from the analysis of version {version})"));
}

/// The code actions for `[start, end]` (byte offsets).
pub fn actions(
    t: &Target,
    index: &LineIndex,
    fa: &FileAnalysis,
    (start, end): (u32, u32),
    ctx: &CodeActionContext,
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for f in &fa.findings {
        let touches = f.span.start <= end && start <= f.span.end;
        if !touches || f.fixes.is_empty() {
            continue;
        }
        let ours = diagnostics::finding(t.uri, index, f, None);
        // The client's copy of the diagnostic when it sent one (same code and range).
        let diag = ctx
            .diagnostics
            .iter()
            .find(|d| d.code == ours.code && d.range == ours.range)
            .cloned()
            .unwrap_or(ours);
        for (i, fix) in f.fixes.iter().enumerate() {
            // An edit the re-analysis refuses (it would not compile, adds a finding, or
            // leaves the defect it is offered for) is not offered.
            if !fa.gate_fixes(&fix.edits, f.code) {
                continue;
            }
            out.push(CodeAction {
                title: format!("{} [{}]", fix.title, f.code),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diag.clone()]),
                edit: Some(workspace_edit(t, index, &fix.edits)),
                is_preferred: Some(i == 0),
                ..CodeAction::default()
            });
        }
    }
    let text = index.text();
    if let Ok(plan) = &fa.plan() {
        let function = function_region(&fa.module, plan, text, start);
        if let Some((title, edits)) = function.filter(|(_, e)| fa.gate_accepts(e)) {
            out.push(refactor(
                t,
                index,
                title,
                CodeActionKind::REFACTOR_REWRITE,
                &edits,
            ));
        }
        for (title, edits) in updates_near(&fa.module, plan, text, index, start) {
            if fa.gate_accepts(&edits) {
                out.push(refactor(t, index, title, CodeActionKind::REFACTOR, &edits));
            }
        }
        if let Some(edits) = file_region(&fa.module, plan, text).filter(|e| fa.gate_accepts(e)) {
            let title = "Insert the data mappings of the whole file (as `omplens fix`)";
            out.push(refactor(
                t,
                index,
                title.into(),
                CodeActionKind::REFACTOR_REWRITE,
                &edits,
            ));
        }
        out.push(CodeAction {
            title: "Show the mapping plan of this file".into(),
            kind: Some(CodeActionKind::SOURCE),
            command: Some(Command::new(
                "Show the mapping plan".into(),
                SHOW_PLAN.into(),
                Some(vec![
                    serde_json::to_value(t.uri).unwrap_or_default(),
                    serde_json::json!({"show": true}),
                ]),
            )),
            ..CodeAction::default()
        });
    }
    match &ctx.only {
        Some(only) => out
            .into_iter()
            .filter(|a| {
                let kind = a.kind.as_ref().map_or("", |k| k.as_str());
                only.iter()
                    .any(|o| kind == o.as_str() || kind.starts_with(&format!("{}.", o.as_str())))
            })
            .map(CodeActionOrCommand::CodeAction)
            .collect(),
        None => out
            .into_iter()
            .map(CodeActionOrCommand::CodeAction)
            .collect(),
    }
}

fn refactor(
    t: &Target,
    index: &LineIndex,
    title: String,
    kind: CodeActionKind,
    edits: &[TextEdit],
) -> CodeAction {
    CodeAction {
        title,
        kind: Some(kind),
        edit: Some(workspace_edit(t, index, edits)),
        ..CodeAction::default()
    }
}

/// The function whose definition contains `offset`.
pub fn function_at(module: &Module, offset: u32) -> Option<FuncId> {
    module
        .functions
        .iter_enumerated()
        .find(|(_, f)| f.has_body && f.span.is_some_and(|s| s.start <= offset && offset <= s.end))
        .map(|(i, _)| i)
}

fn only(fp: FunctionPlan) -> Plan {
    Plan {
        functions: vec![fp],
        diagnostics: Vec::new(),
    }
}

/// The plan of the function at `offset` as edits, with a title; None when it needs nothing.
pub fn function_region(
    module: &Module,
    plan: &Plan,
    text: &str,
    offset: u32,
) -> Option<(String, Vec<TextEdit>)> {
    let func = function_at(module, offset)?;
    let fp = plan.functions.iter().find(|f| f.func == func)?;
    let edits = only(fp.clone()).edits(module, text);
    if edits.is_empty() {
        return None;
    }
    let title = if fp.region.is_some() {
        format!("Insert a target data region in `{}`", fp.name)
    } else {
        format!("Add the data mappings `{}` needs", fp.name)
    };
    Some((title, edits))
}

/// The whole plan as edits; None when it changes nothing.
pub fn file_region(module: &Module, plan: &Plan, text: &str) -> Option<Vec<TextEdit>> {
    let edits = plan.edits(module, text);
    (!edits.is_empty()).then_some(edits)
}

/// Planned `target update`s whose statement is at (or next to) the cursor's line. An update
/// copies only inside a region: when the function's region is still to be written, the
/// action writes the function's whole plan (region, every update, kernel clauses) and says
/// so, since this update alone would copy nothing.
fn updates_near(
    module: &Module,
    plan: &Plan,
    text: &str,
    index: &LineIndex,
    offset: u32,
) -> Vec<(String, Vec<TextEdit>)> {
    let Some(func) = function_at(module, offset) else {
        return Vec::new();
    };
    let Some(fp) = plan.functions.iter().find(|f| f.func == func) else {
        return Vec::new();
    };
    let line = index.position(offset).line;
    let mut out = Vec::new();
    for u in &fp.updates {
        let first = index.position(u.anchor.stmt.start).line;
        let last = index.position(u.anchor.stmt.end).line;
        if line + 1 < first || line > last + 1 {
            continue;
        }
        let (edits, with) = match fp.region {
            None => {
                let single = FunctionPlan {
                    updates: vec![u.clone()],
                    kernels: Vec::new(),
                    ..fp.clone()
                };
                (only(single).edits(module, text), String::new())
            }
            Some(_) => (
                only(fp.clone()).edits(module, text),
                format!(" (with the target data region of `{}` it needs)", fp.name),
            ),
        };
        if edits.is_empty() {
            continue;
        }
        let motion = match u.motion {
            Motion::To => "to",
            Motion::From => "from",
        };
        let side = match u.side {
            Side::Before => "before",
            Side::After => "after",
        };
        out.push((
            format!(
                "Insert `target update {motion}({})` {side} line {}{with}: {}",
                u.item,
                match u.side {
                    Side::Before => first,
                    Side::After => last,
                } + 1,
                u.why
            ),
            edits,
        ));
    }
    out
}
