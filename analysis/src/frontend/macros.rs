//! OpenMP directives as the compiler reads them after macro expansion: a `#pragma omp` line's
//! clauses written through macros (`#pragma omp target MAPS OFFLOAD_IF(gpu)`), `_Pragma("omp
//! ...")` operators, and macros that expand to them (`#define KERNEL _Pragma("omp target")`).
//! omplens parses without OpenMP (directive bodies stay ordinary statements), so clang neither
//! expands these pragmas nor reports them; this module expands them itself from the macro
//! definitions clang recorded (the active ones, from the file and the project's headers).
//!
//! The expander follows C's rules closely enough for directives: object-like and
//! function-like macros, arguments expanded before substitution except next to `#` and `##`,
//! stringizing, pasting, `__VA_ARGS__`, no macro expanded inside its own expansion. Work is
//! bounded: an expansion deeper or longer than the limits gives up (the text stays as
//! written).

use super::libclang::Cursor;
use crate::text::scan::{is_ident_byte, regions, splice_end, RegionKind};
use crate::text::Span;
use std::collections::HashMap;

/// Expansions nested deeper than this give up.
const MAX_DEPTH: usize = 64;
/// Expansions producing more tokens than this give up.
const MAX_TOKENS: usize = 20_000;

/// A preprocessing token and whether whitespace preceded it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tok {
    text: String,
    space: bool,
}

impl Tok {
    fn is_ident(&self) -> bool {
        self.text
            .bytes()
            .next()
            .is_some_and(|c| is_ident_byte(c) && !c.is_ascii_digit())
    }
}

/// One `#define`.
#[derive(Clone, Debug)]
struct Macro {
    /// None for an object-like macro.
    params: Option<Vec<String>>,
    /// The name the variable arguments go by: `__VA_ARGS__`, or GNU's `args` for `args...`.
    variadic: Option<String>,
    body: Vec<Tok>,
}

/// The macros a translation unit defines outside system headers. Definitions in the main
/// file are looked up by position (the last one before a use); the headers' are taken as
/// defined before the file's own code.
#[derive(Default)]
pub struct Macros {
    defs: HashMap<String, Vec<(Option<u32>, Macro)>>,
    /// Integer-valued object-like macros: clause arguments keep them by name.
    values: crate::ir::macros::Values,
}

/// A macro definition outside the system headers, as a walk of the unit meets it: the file
/// and the extent.
pub type MacroAt = (String, u32, u32);

/// The definitions among `top`, a walk of a unit's top level, in its order.
pub fn definitions(top: &[Cursor<'_>]) -> Vec<MacroAt> {
    top.iter()
        .filter(|c| c.kind() == clang_sys::CXCursor_MacroDefinition && !c.in_system_header())
        .filter_map(|c| c.file_extent())
        .collect()
}

impl Macros {
    /// The active definitions outside system headers, `defs` (the unit's, [`definitions`]);
    /// `main_path` is the main file, whose text (possibly unsaved) is `main_text`.
    pub fn of_definitions(defs: &[MacroAt], main_path: &str, main_text: &str) -> Macros {
        let mut out = Macros {
            values: crate::ir::macros::macro_values(main_text),
            ..Macros::default()
        };
        let mut texts: HashMap<String, Option<String>> = HashMap::new();
        // Integer-valued macros of the headers too (`#define BLOCK_SIZE 256` in a project
        // header): clause arguments keep their names. In the order they are defined, so that
        // one defined from another (`A_SIZE (A_DIM * A_DIM)`) has its value every time.
        let mut defines = String::new();
        for (file, start, end) in defs {
            let (file, start, end) = (file.clone(), *start, *end);
            let main = file == main_path;
            let text = if main {
                Some(main_text)
            } else {
                texts
                    .entry(file.clone())
                    .or_insert_with(|| std::fs::read_to_string(&file).ok())
                    .as_deref()
            };
            let Some(def) = text.and_then(|t| t.get(start as usize..end as usize)) else {
                continue;
            };
            if let Some((name, m)) = parse_definition(def) {
                if m.params.is_none() && !main {
                    defines.push_str(&format!("#define {name} {}\n", render(&m.body)));
                }
                let at = main.then_some(start);
                out.defs.entry(name).or_default().push((at, m));
            }
        }
        for (name, v) in crate::ir::macros::macro_values(&defines) {
            out.values.entry(name).or_insert(v);
        }
        out
    }

    #[cfg(test)]
    fn from_defines(lines: &[&str]) -> Macros {
        let mut out = Macros::default();
        for l in lines {
            if let Some((name, m)) = parse_definition(l) {
                out.defs.entry(name).or_default().push((None, m));
            }
        }
        out
    }

    /// The definition of `name` in effect at main-file offset `at`.
    fn get(&self, name: &str, at: u32) -> Option<&Macro> {
        let defs = self.defs.get(name)?;
        defs.iter()
            .rev()
            .find(|(o, _)| o.is_some_and(|o| o < at))
            .or_else(|| defs.iter().rev().find(|(o, _)| o.is_none()))
            .map(|(_, m)| m)
    }

    /// Whether a clause argument's identifier is expanded: the compiler expands every
    /// macro; omplens keeps integer-valued ones by name (sections read `a[0:N]`).
    fn expands_in_argument(&self, name: &str, m: &Macro) -> bool {
        m.params.is_some() || !self.values.contains_key(name)
    }

    /// The macro names whose expansion can produce a `_Pragma`/`__pragma` operator.
    pub fn pragma_macros(&self) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        loop {
            let before = found.len();
            for (name, defs) in &self.defs {
                if found.contains(name) {
                    continue;
                }
                let makes = defs.iter().any(|(_, m)| {
                    m.body.iter().any(|t| {
                        t.text == "_Pragma" || t.text == "__pragma" || found.contains(&t.text)
                    })
                });
                if makes {
                    found.push(name.clone());
                }
            }
            if found.len() == before {
                break;
            }
        }
        found.sort();
        found
    }

    /// Expands the macro use starting at `text[0]` (a main-file offset `at`): the length of
    /// the use in `text` and the tokens it expands to; None when it cannot be expanded (too
    /// deep, wrong arity, unbalanced parentheses).
    fn expand_use(&self, text: &str, at: u32) -> Option<(usize, Vec<Tok>)> {
        let b = text.as_bytes();
        let name_end = b.iter().position(|&c| !is_ident_byte(c)).unwrap_or(b.len());
        let m = self.get(&text[..name_end], at)?;
        let len = if m.params.is_some() {
            invocation_end(b, name_end)?
        } else {
            name_end
        };
        let toks = tokenize(&text[..len]);
        let mut ex = Expander {
            macros: self,
            at,
            budget: MAX_TOKENS,
        };
        let out = ex.expand(&toks, &mut Vec::new(), 0)?;
        Some((len, out))
    }

    /// The directives a use of a pragma-making macro at `text[0]` (main-file offset `at`)
    /// expands to: the use's length and the text of each `_Pragma` operator (`omp ...`), or
    /// `Err(len)` when the expansion also holds other code (a loop, a statement), which
    /// omplens does not place, or cannot be expanded (`len` 0).
    pub fn pragma_use(&self, text: &str, at: u32) -> Result<(usize, Vec<String>), usize> {
        let (len, toks) = self.expand_use(text, at).ok_or(0usize)?;
        operators(&toks).map(|v| (len, v)).ok_or(len)
    }

    /// `raw` (a `#pragma omp` line as written, at main-file offset `at`) with its macros
    /// expanded, when it uses any: the new text and where each of its bytes comes from.
    pub fn expand_pragma_line(&self, raw: &str, at: u32) -> Option<Expanded> {
        let b = raw.as_bytes();
        let lits = regions(raw);
        let mut next_lit = 0;
        let mut out = Expanded::default();
        let mut copied = 0;
        let mut depth = 0i32;
        let mut words = 0; // `pragma` and `omp` are never expanded
        let mut i = 0;
        let mut any = false;
        while i < b.len() {
            while next_lit < lits.len() && lits[next_lit].end <= i {
                next_lit += 1;
            }
            if let Some(r) = lits.get(next_lit).filter(|r| r.start <= i) {
                i = r.end.max(i + 1);
                continue;
            }
            if let Some(after) = splice_end(b, i) {
                i = after.max(i + 1);
                continue;
            }
            match b[i] {
                b'(' => depth += 1,
                b')' => depth -= 1,
                c if is_ident_byte(c) && !c.is_ascii_digit() => {
                    let end = i + b[i..]
                        .iter()
                        .position(|&c| !is_ident_byte(c))
                        .unwrap_or(b.len() - i);
                    let name = &raw[i..end];
                    words += 1;
                    let m = (words > 2).then(|| self.get(name, at)).flatten();
                    let wanted = m.filter(|m| depth == 0 || self.expands_in_argument(name, m));
                    if let Some(m) = wanted {
                        let use_end = match m.params {
                            Some(_) => invocation_end(b, end),
                            None => Some(end),
                        };
                        let expanded = use_end.and_then(|e| {
                            let mut ex = Expander {
                                macros: self,
                                at,
                                budget: MAX_TOKENS,
                            };
                            let toks = ex.expand(&tokenize(&raw[i..e]), &mut Vec::new(), 0)?;
                            Some((e, render(&toks)))
                        });
                        if let Some((e, text)) = expanded {
                            out.verbatim(&raw[copied..i], copied as u32);
                            out.expanded(&format!(" {text} "), (i as u32, e as u32));
                            copied = e;
                            any = true;
                            i = e;
                            continue;
                        }
                    }
                    i = end;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        out.verbatim(&raw[copied..], copied as u32);
        any.then_some(out)
    }
}

/// Where bytes of an expanded text come from: copied from the original from that offset on,
/// or produced by the macro use at that span of the original.
type Origin = Result<u32, (u32, u32)>;

/// A pragma's text after expansion, with the origin of its bytes.
#[derive(Debug, Default)]
pub struct Expanded {
    pub text: String,
    /// (start in `text`, origin): `Ok(offset)` copied from the original from that offset on,
    /// `Err(span)` produced by the macro use at `span` of the original.
    pieces: Vec<(u32, Origin)>,
}

impl Expanded {
    fn verbatim(&mut self, s: &str, from: u32) {
        if !s.is_empty() {
            self.pieces.push((self.text.len() as u32, Ok(from)));
            self.text.push_str(s);
        }
    }

    fn expanded(&mut self, s: &str, span: (u32, u32)) {
        self.pieces.push((self.text.len() as u32, Err(span)));
        self.text.push_str(s);
    }

    /// The spans of the original that macro uses took (relative to the original's start).
    pub fn macro_uses(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.pieces.iter().filter_map(|(_, o)| o.err())
    }

    /// The original offset of `span` of the expanded text: copied bytes map to themselves,
    /// bytes a macro produced to the macro use.
    pub fn original(&self, span: Span) -> Span {
        let piece = |at: u32| {
            let n = self.pieces.partition_point(|(s, _)| *s <= at);
            self.pieces[..n.max(1)].last().copied()
        };
        let start = match piece(span.start) {
            Some((s, Ok(o))) => o + (span.start - s),
            Some((_, Err((a, _)))) => a,
            None => span.start,
        };
        let end = match piece(span.end.saturating_sub(1).max(span.start)) {
            Some((s, Ok(o))) => o + (span.end - s),
            Some((_, Err((_, b)))) => b,
            None => span.end,
        };
        Span {
            start,
            end: end.max(start),
        }
    }
}

/// The end of a function-like macro's arguments: the byte after the `)` matching the `(`
/// that follows `from` (blanks and continuations between); None without one.
fn invocation_end(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    loop {
        if let Some(after) = splice_end(b, i) {
            i = after.max(i + 1);
            continue;
        }
        match b.get(i)? {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'(' => break,
            _ => return None,
        }
    }
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `NAME body`, `NAME(params) body` (a macro definition's extent as clang records it).
fn parse_definition(def: &str) -> Option<(String, Macro)> {
    let b = def.as_bytes();
    let name_end = b.iter().position(|&c| !is_ident_byte(c)).unwrap_or(b.len());
    if name_end == 0 {
        return None;
    }
    let name = def[..name_end].to_string();
    let (params, variadic, rest) = if b.get(name_end) == Some(&b'(') {
        let close = def[name_end..].find(')')? + name_end;
        let mut params = Vec::new();
        let mut variadic = None;
        for p in def[name_end + 1..close].split(',') {
            let p = p.trim();
            if p == "..." {
                variadic = Some("__VA_ARGS__".to_string());
            } else if let Some(named) = p.strip_suffix("...") {
                // GNU named variadic parameter: `args...`.
                variadic = Some(named.trim().to_string());
            } else if !p.is_empty() {
                params.push(p.to_string());
            }
        }
        (Some(params), variadic, &def[close + 1..])
    } else {
        (None, None, &def[name_end..])
    };
    let mut body = tokenize(rest);
    if let Some(first) = body.first_mut() {
        first.space = false;
    }
    Some((
        name,
        Macro {
            params,
            variadic,
            body,
        },
    ))
}

/// Preprocessing tokens of `s` (comments and continuations are whitespace).
fn tokenize(s: &str) -> Vec<Tok> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut space = false;
    while i < b.len() {
        if let Some(after) = splice_end(b, i) {
            i = after.max(i + 1);
            space = true;
            continue;
        }
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            space = true;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = crate::text::scan::block_comment_end(b, i);
            space = true;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            space = true;
            continue;
        }
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < b.len()
                && (is_ident_byte(b[i])
                    || b[i] == b'.'
                    || (matches!(b[i], b'+' | b'-')
                        && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')))
            {
                i += 1;
            }
        } else if is_ident_byte(c) {
            while i < b.len() && is_ident_byte(b[i]) {
                i += 1;
            }
            // A string prefix (`L"..."`, `u8"..."`) makes one token with its literal.
            if b.get(i) == Some(&b'"') && matches!(&s[start..i], "L" | "u" | "U" | "u8") {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
            }
        } else if b[i..].starts_with(b"##") || b[i..].starts_with(b"...") {
            i += if c == b'#' { 2 } else { 3 };
        } else {
            i += s[i..].chars().next().map_or(1, char::len_utf8);
        }
        let end = i.min(b.len());
        out.push(Tok {
            text: s.get(start..end).unwrap_or_default().to_string(),
            space,
        });
        space = false;
    }
    out
}

/// Tokens back to text, one blank where whitespace was.
fn render(toks: &[Tok]) -> String {
    let mut out = String::new();
    for (i, t) in toks.iter().enumerate() {
        if t.space && i > 0 {
            out.push(' ');
        }
        out.push_str(&t.text);
    }
    out
}

/// The `_Pragma("...")`/`__pragma(...)` operators of an expansion, each as the text of the
/// directive (`omp target ...`); None when the expansion holds anything else.
fn operators(toks: &[Tok]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match toks[i].text.as_str() {
            "_Pragma" => {
                let [open, lit, close] = toks.get(i + 1..i + 4)? else {
                    return None;
                };
                if open.text != "(" || close.text != ")" {
                    return None;
                }
                out.push(destringize(&lit.text)?);
                i += 4;
            }
            "__pragma" => {
                if toks.get(i + 1)?.text != "(" {
                    return None;
                }
                let mut depth = 0;
                let mut j = i + 1;
                loop {
                    match toks.get(j)?.text.as_str() {
                        "(" => depth += 1,
                        ")" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                out.push(render(&toks[i + 2..j]));
                i = j + 1;
            }
            ";" => i += 1,
            _ => return None,
        }
    }
    Some(out)
}

/// The text a `_Pragma` string literal stands for (C 6.10.9: the prefix and quotes removed,
/// `\"` and `\\` unescaped).
fn destringize(lit: &str) -> Option<String> {
    let lit = lit.strip_prefix('L').unwrap_or(lit);
    let inner = lit.strip_prefix('"')?.strip_suffix('"')?;
    Some(inner.replace("\\\"", "\"").replace("\\\\", "\\"))
}

/// `toks` as one string literal (`#param`).
fn stringize(toks: &[Tok]) -> String {
    let mut out = String::from("\"");
    for (i, t) in toks.iter().enumerate() {
        if t.space && i > 0 {
            out.push(' ');
        }
        if t.text.contains('"') || t.text.starts_with('\'') {
            out.push_str(&t.text.replace('\\', "\\\\").replace('"', "\\\""));
        } else {
            out.push_str(&t.text);
        }
    }
    out.push('"');
    out
}

struct Expander<'m> {
    macros: &'m Macros,
    at: u32,
    budget: usize,
}

impl Expander<'_> {
    /// `toks` with every macro expanded; `active` are the macros being expanded (not
    /// expanded again inside themselves).
    fn expand(&mut self, toks: &[Tok], active: &mut Vec<String>, depth: usize) -> Option<Vec<Tok>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut out = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            let m = (t.is_ident() && !active.contains(&t.text))
                .then(|| self.macros.get(&t.text, self.at))
                .flatten();
            let Some(m) = m else {
                out.push(t.clone());
                i += 1;
                continue;
            };
            let (body, next) = match &m.params {
                None => (paste(m.body.clone()), i + 1),
                Some(params) => {
                    if toks.get(i + 1).is_none_or(|t| t.text != "(") {
                        out.push(t.clone());
                        i += 1;
                        continue;
                    }
                    let (args, next) = arguments(toks, i + 1)?;
                    let body = self.substitute(m, params, args, active, depth)?;
                    (body, next)
                }
            };
            active.push(t.text.clone());
            let mut expanded = self.expand(&body, active, depth + 1)?;
            active.pop();
            if let Some(first) = expanded.first_mut() {
                first.space = t.space;
            }
            self.budget = self.budget.checked_sub(expanded.len())?;
            out.extend(expanded);
            i = next;
        }
        Some(out)
    }

    /// A function-like macro's body with its parameters replaced by `args`.
    fn substitute(
        &mut self,
        m: &Macro,
        params: &[String],
        mut args: Vec<Vec<Tok>>,
        active: &mut Vec<String>,
        depth: usize,
    ) -> Option<Vec<Tok>> {
        if args.len() == 1 && args[0].is_empty() && params.is_empty() {
            args.clear();
        }
        let variadic = if m.variadic.is_some() {
            if args.len() < params.len() {
                args.resize(params.len(), Vec::new());
            }
            let rest = args.split_off(params.len());
            let mut joined = Vec::new();
            for (k, a) in rest.into_iter().enumerate() {
                if k > 0 {
                    joined.push(Tok {
                        text: ",".into(),
                        space: false,
                    });
                }
                joined.extend(a);
            }
            Some(joined)
        } else {
            None
        };
        if args.len() != params.len() {
            return None;
        }
        let arg_of = |name: &str| -> Option<&Vec<Tok>> {
            if m.variadic.as_deref() == Some(name) {
                return variadic.as_ref();
            }
            params
                .iter()
                .position(|p| p == name)
                .and_then(|k| args.get(k))
        };
        let body = &m.body;
        let mut out = Vec::new();
        let mut k = 0;
        while k < body.len() {
            let t = &body[k];
            if t.text == "#" {
                if let Some(a) = body.get(k + 1).and_then(|n| arg_of(&n.text)) {
                    out.push(Tok {
                        text: stringize(a),
                        space: t.space,
                    });
                    k += 2;
                    continue;
                }
            }
            if let Some(a) = arg_of(&t.text) {
                let pasted = body.get(k + 1).is_some_and(|n| n.text == "##")
                    || (k > 0 && body[k - 1].text == "##");
                let mut a = if pasted {
                    a.clone()
                } else {
                    self.expand(a, active, depth + 1)?
                };
                if a.is_empty() && pasted {
                    // A placemarker: pasting with nothing leaves the other side.
                    a.push(Tok {
                        text: String::new(),
                        space: false,
                    });
                }
                if let Some(first) = a.first_mut() {
                    first.space = t.space;
                }
                out.extend(a);
            } else {
                out.push(t.clone());
            }
            k += 1;
        }
        Some(paste(out))
    }
}

/// Applies `##`: the tokens on both sides become one (a GNU `, ## __VA_ARGS__` with no
/// arguments drops the comma).
fn paste(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut it = toks.into_iter().peekable();
    while let Some(t) = it.next() {
        if t.text == "##" {
            if let (Some(left), Some(right)) = (out.last_mut(), it.next()) {
                if left.text == "," && right.text.is_empty() {
                    out.pop();
                } else {
                    left.text.push_str(&right.text);
                }
            }
            continue;
        }
        out.push(t);
    }
    out.retain(|t| !t.text.is_empty());
    out
}

/// The arguments of a call whose `(` is `toks[open]`, split at top-level commas, and the index
/// after its `)`.
fn arguments(toks: &[Tok], open: usize) -> Option<(Vec<Vec<Tok>>, usize)> {
    let mut args = vec![Vec::new()];
    let mut depth = 0;
    let mut i = open;
    while i < toks.len() {
        let t = &toks[i];
        match t.text.as_str() {
            "(" => {
                depth += 1;
                if depth == 1 {
                    i += 1;
                    continue;
                }
            }
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return Some((args, i + 1));
                }
            }
            "," if depth == 1 => {
                args.push(Vec::new());
                i += 1;
                continue;
            }
            _ => {}
        }
        args.last_mut()?.push(t.clone());
        i += 1;
    }
    None
}

/// The code of `text` outside comments, literals and preprocessor lines: the offsets of
/// identifiers equal to one of `names` and of `_Pragma`/`__pragma` operators, in order.
pub fn uses(text: &str, names: &[String]) -> Vec<u32> {
    let b = text.as_bytes();
    let lits = regions(text);
    let mut next = 0;
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        while next < lits.len() && lits[next].end <= i {
            next += 1;
        }
        if let Some(r) = lits.get(next).filter(|r| r.start <= i) {
            if r.kind == RegionKind::Literal {
                line_start = false;
            }
            i = r.end.max(i + 1);
            continue;
        }
        if let Some(after) = splice_end(b, i) {
            i = after.max(i + 1);
            continue;
        }
        match b[i] {
            b'\n' => line_start = true,
            b' ' | b'\t' | b'\r' => {}
            b'#' if line_start => {
                // A preprocessor line: skip it, continuations included.
                while i < b.len() && b[i] != b'\n' {
                    match splice_end(b, i) {
                        Some(after) => i = after.max(i + 1),
                        None => i += 1,
                    }
                }
                continue;
            }
            c if is_ident_byte(c) && !c.is_ascii_digit() => {
                line_start = false;
                let end = i + b[i..]
                    .iter()
                    .position(|&c| !is_ident_byte(c))
                    .unwrap_or(b.len() - i);
                let w = &text[i..end];
                if w == "_Pragma" || w == "__pragma" || names.iter().any(|n| n == w) {
                    out.push(i as u32);
                }
                i = end;
                continue;
            }
            c if c.is_ascii_digit() => {
                line_start = false;
                while i < b.len() && is_ident_byte(b[i]) {
                    i += 1;
                }
                continue;
            }
            _ => line_start = false,
        }
        i += 1;
    }
    out
}

/// A `_Pragma("...")`/`__pragma(...)` operator written at `text[0]`: its length and the
/// directive's text (`omp ...`) with the offset in `text` where that text starts (None when
/// the literal has escapes, whose bytes do not map one to one).
pub fn operator_at(text: &str) -> Option<(usize, String, Option<usize>)> {
    let b = text.as_bytes();
    let name = if text.starts_with("_Pragma") {
        7
    } else if text.starts_with("__pragma") {
        8
    } else {
        return None;
    };
    let end = invocation_end(b, name)?;
    let open = name + text[name..].find('(')?;
    let inner = text[open + 1..end - 1].trim();
    let inner_at = open + 1 + text[open + 1..].find(|c: char| !c.is_whitespace())?;
    if name == 8 {
        return Some((end, inner.to_string(), Some(inner_at)));
    }
    let lit = tokenize(inner);
    let [lit] = &lit[..] else { return None };
    let directive = destringize(&lit.text)?;
    let plain = !lit.text.contains('\\') && lit.text.starts_with('"');
    Some((end, directive, plain.then_some(inner_at + 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(m: &Macros, s: &str) -> String {
        let mut ex = Expander {
            macros: m,
            at: u32::MAX,
            budget: MAX_TOKENS,
        };
        render(&ex.expand(&tokenize(s), &mut Vec::new(), 0).unwrap())
    }

    /// A header's macro defined from another (`A_SIZE (A_DIM * A_DIM)`, HeCBench's S3D) has
    /// its value every time: the definitions are evaluated in the order they are written
    /// (they were evaluated in hash order, and S3D's sections named `A_SIZE` in some runs).
    #[test]
    fn header_values_follow_the_order_of_definition() {
        let dir = tempfile::tempdir().unwrap();
        let header = dir.path().join("dims.h");
        let text =
            "#define A_DIM 11\n#define A_SIZE (A_DIM * A_DIM)\n#define B_SIZE (A_SIZE + 1)\n\
                    #define C_SIZE (B_SIZE * 2)\n#define D_SIZE (C_SIZE - A_DIM)\n";
        std::fs::write(&header, text).unwrap();
        let file = header.display().to_string();
        let mut defs = Vec::new();
        let mut at = 0u32;
        for line in text.lines() {
            let start = at + "#define ".len() as u32;
            defs.push((file.clone(), start, at + line.len() as u32));
            at += line.len() as u32 + 1;
        }
        for _ in 0..20 {
            let m = Macros::of_definitions(&defs, "main.c", "int x;\n");
            let values: Vec<Option<i64>> = ["A_DIM", "A_SIZE", "B_SIZE", "C_SIZE", "D_SIZE"]
                .iter()
                .map(|n| m.values.get(*n).copied())
                .collect();
            assert_eq!(
                values,
                vec![Some(11), Some(121), Some(122), Some(244), Some(233)]
            );
        }
    }

    #[test]
    fn expands_object_and_function_like_macros() {
        let m = Macros::from_defines(&[
            "N 10",
            "PRAGMA(x) _Pragma(#x)",
            "OFFLOAD(clauses) PRAGMA(omp target teams clauses)",
            "IF(c) if(target: c)",
            "CAT(a, b) a ## b",
            "V(...) f(0, ## __VA_ARGS__)",
        ]);
        assert_eq!(
            expand(&m, "OFFLOAD(map(to: a[0:N]))"),
            "_Pragma(\"omp target teams map(to: a[0:10])\")"
        );
        assert_eq!(expand(&m, "IF(x > N)"), "if(target: x > 10)");
        assert_eq!(expand(&m, "CAT(N, 2)"), "N2");
        assert_eq!(expand(&m, "V()"), "f(0)");
        assert_eq!(expand(&m, "V(1, 2)"), "f(0,1, 2)");
        assert_eq!(expand(&m, "IF"), "IF");
    }

    #[test]
    fn a_macro_is_not_expanded_inside_itself() {
        let m = Macros::from_defines(&["A B", "B A x"]);
        assert_eq!(expand(&m, "A"), "A x");
    }

    #[test]
    fn pragma_uses_are_directives_only_when_nothing_else_comes_with_them() {
        let m = Macros::from_defines(&[
            "PRAGMA(x) _Pragma(#x)",
            "LOOP PRAGMA(omp target teams distribute parallel for)",
            "KERNEL(n) PRAGMA(omp target) for (int i = 0; i < n; i++)",
        ]);
        let names = m.pragma_macros();
        assert_eq!(names, ["KERNEL", "LOOP", "PRAGMA"]);
        assert_eq!(
            m.pragma_use("LOOP\nfor", 0),
            Ok((
                4,
                vec!["omp target teams distribute parallel for".to_string()]
            ))
        );
        assert_eq!(m.pragma_use("KERNEL(8) x;", 0), Err(9));
    }

    #[test]
    fn a_pragma_lines_clause_macros_expand_and_map_back() {
        let mut m = Macros::from_defines(&["MAPS map(to: a[0:N])", "IF(c) if(target: c)", "N 8"]);
        m.values.insert("N".into(), 8);
        let raw = "#pragma omp target MAPS IF(g) map(from: b[0:N])";
        let e = m.expand_pragma_line(raw, 0).unwrap();
        assert_eq!(
            e.text,
            "#pragma omp target  map(to: a[0:8])   if(target: g)  map(from: b[0:N])"
        );
        let at = e.text.find("a[0:8]").unwrap() as u32;
        // Bytes a macro produced map to its use; copied bytes to themselves.
        assert_eq!(
            e.original(Span {
                start: at,
                end: at + 6
            }),
            Span { start: 19, end: 23 }
        );
        let b = e.text.find("b[0:N]").unwrap() as u32;
        let ob = raw.find("b[0:N]").unwrap() as u32;
        assert_eq!(
            e.original(Span {
                start: b,
                end: b + 6
            }),
            Span {
                start: ob,
                end: ob + 6
            }
        );
        assert!(m
            .expand_pragma_line("#pragma omp target map(to: a[0:N])", 0)
            .is_none());
    }

    #[test]
    fn finds_operators_and_uses() {
        assert_eq!(
            operator_at("_Pragma(\"omp target update from(b)\") x"),
            Some((36, "omp target update from(b)".to_string(), Some(9)))
        );
        assert_eq!(
            operator_at("_Pragma(\"omp critical(\\\"x\\\")\")"),
            Some((30, "omp critical(\"x\")".to_string(), None))
        );
        let text = "#define K _Pragma(\"omp x\")\nK\n// K\n\"K\"\n  _Pragma(\"omp y\")";
        assert_eq!(uses(text, &["K".to_string()]), [27, 40]);
    }
}
