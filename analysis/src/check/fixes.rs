//! Text edits the rules offer as fixes: a directive inserted next to a statement, a map type
//! changed, a clause replaced, a directive line removed or moved, a region around a loop.

use super::Fix;
use crate::ir::stmt_tree::StmtTree;
use crate::ir::{DirId, FuncId, Module, Span, StmtId, StmtKind};
use crate::rewrite::{self, Anchor, Clause, Insertion, Side};
use crate::text::TextEdit;

pub fn anchor(module: &Module, func: FuncId, stmt: StmtId) -> Anchor {
    anchor_in(&StmtTree::new(module.function(func)), stmt)
}

/// [`anchor`] in a statement tree already made.
pub fn anchor_in(tree: &StmtTree, stmt: StmtId) -> Anchor {
    Anchor {
        stmt: tree.span(stmt),
        in_compound: tree.in_compound(stmt),
    }
}

/// The statement of directive `d` in its function.
pub fn directive_stmt(module: &Module, d: DirId) -> Option<(FuncId, StmtId)> {
    let func = module.directive(d).function?;
    let f = module.function(func);
    f.stmts.indices().find_map(|s| {
        matches!(f.stmt(s).kind, StmtKind::Omp { directive, .. } if directive == d)
            .then_some((func, s))
    })
}

/// `#pragma omp <directive> <clause>(<item>)` on its own line before or after `stmt`.
pub fn standalone(
    module: &Module,
    source: &str,
    func: FuncId,
    stmt: StmtId,
    side: Side,
    directive: &str,
    clause: Clause,
) -> Vec<TextEdit> {
    let ins = Insertion::Standalone {
        anchor: anchor(module, func, stmt),
        side,
        directive: directive.to_string(),
        clauses: vec![clause],
    };
    rewrite::render(source, &[ins])
}

pub fn clause(name: &str, modifier: Option<&str>, item: &str) -> Clause {
    Clause {
        name: name.to_string(),
        modifier: modifier.map(str::to_string),
        items: vec![item.to_string()],
    }
}

/// Clauses appended to an existing directive.
pub fn append(source: &str, directive: Span, clause: Clause) -> Vec<TextEdit> {
    rewrite::render(
        source,
        &[Insertion::AppendClauses {
            directive,
            clauses: vec![clause],
        }],
    )
}

/// A `target data` region around statement `stmt`.
pub fn region(
    module: &Module,
    source: &str,
    func: FuncId,
    stmt: StmtId,
    clauses: Vec<Clause>,
) -> Vec<TextEdit> {
    let a = anchor(module, func, stmt);
    rewrite::render(
        source,
        &[Insertion::DataRegion {
            first: a,
            last: a,
            clauses,
        }],
    )
}

/// Changes the map type of `item` in its `map` clause to `to_type`: the keyword is replaced
/// when the item is alone in its clause; otherwise the item moves to a clause of its own.
pub fn change_map_type(
    source: &str,
    clause: Span,
    clause_items: usize,
    item: Span,
    item_text: &str,
    directive: Span,
    to_type: &str,
) -> Option<Vec<TextEdit>> {
    let text = source.get(clause.start as usize..clause.end as usize)?;
    if clause_items == 1 {
        let open = text.find('(')? + 1;
        let colon = text[open..].find(':').map(|c| c + open);
        return Some(match colon {
            // `map(to: a)`: the word before the colon is the map type (after modifiers).
            Some(c) if !text[c..].starts_with("::") => {
                let head = &text[open..c];
                let word_start = head
                    .trim_end()
                    .rfind(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                    .map_or(0, |i| i + 1);
                let word_end = head.trim_end().len();
                vec![TextEdit {
                    start: clause.start + (open + word_start) as u32,
                    end: clause.start + (open + word_end) as u32,
                    text: to_type.to_string(),
                }]
            }
            _ => vec![TextEdit {
                start: clause.start + open as u32,
                end: clause.start + open as u32,
                text: format!("{to_type}: "),
            }],
        });
    }
    let mut edits = remove_item(source, clause, item)?;
    let mut add = append(
        source,
        directive,
        clause_one("map", Some(to_type), item_text),
    );
    edits.append(&mut add);
    edits.sort_by_key(|e| e.start);
    Some(edits)
}

fn clause_one(name: &str, modifier: Option<&str>, item: &str) -> Clause {
    clause(name, modifier, item)
}

/// Removes one item and its separating comma from a clause with several items.
pub fn remove_item(source: &str, clause: Span, item: Span) -> Option<Vec<TextEdit>> {
    let bytes = source.as_bytes();
    let (mut s, mut e) = (item.start as usize, item.end as usize);
    // Prefer the comma after the item; else the one before.
    let mut j = e;
    while j < clause.end as usize && bytes[j].is_ascii_whitespace() {
        j += 1;
    }
    if j < clause.end as usize && bytes[j] == b',' {
        e = j + 1;
        while e < clause.end as usize && bytes[e] == b' ' {
            e += 1;
        }
    } else {
        let mut i = s;
        while i > clause.start as usize && bytes[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        if i > clause.start as usize && bytes[i - 1] == b',' {
            s = i - 1;
        } else {
            return None;
        }
    }
    Some(vec![TextEdit {
        start: s as u32,
        end: e as u32,
        text: String::new(),
    }])
}

/// Removes the whole line(s) of a directive (from its line start through its newline).
pub fn remove_lines(source: &str, span: Span) -> TextEdit {
    let start = source[..span.start as usize]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end = source[span.end as usize..]
        .find('\n')
        .map_or(source.len(), |i| span.end as usize + i + 1);
    TextEdit {
        start: start as u32,
        end: end as u32,
        text: String::new(),
    }
}

pub fn fix(title: impl Into<String>, edits: Vec<TextEdit>) -> Vec<Fix> {
    if edits.is_empty() {
        return Vec::new();
    }
    vec![Fix {
        title: title.into(),
        edits,
    }]
}
