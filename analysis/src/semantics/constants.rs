//! Names whose value is known where a function uses them: object-like macros of the main file
//! whose body is an integer expression (`#define N 4096`, `#define CAP (2 * N)`), and locals
//! initialised with such a value and never changed afterwards (`int n = 3000;`). Section
//! lengths in pragmas and allocation sizes then compare as numbers (OMP106, OMP107).

use crate::ir::{ExprKind, FuncId, Module, StmtKind, TypeKind, UnaryOp, VarId};
use crate::semantics::symbolic::Poly;
use std::collections::{BTreeMap, BTreeSet};

pub type Values = BTreeMap<String, i64>;

/// The known values for code of `func` in `module`, lowered from `source`.
pub fn known_values(module: &Module, source: &str, func: FuncId) -> Values {
    known_values_over(module, macro_values(source), func)
}

/// [`known_values`] with the file's [`macro_values`] already computed (callers asking for many
/// functions of one file scan its text once).
pub fn known_values_over(module: &Module, macros: Values, func: FuncId) -> Values {
    let mut out = macros;
    let f = module.function(func);
    let changed = changed_vars(module, func);
    let decls: Vec<_> = f
        .stmts
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Decl(ds) => Some(ds),
            _ => None,
        })
        .flatten()
        .collect();
    let mut seen_names: BTreeMap<&str, usize> = BTreeMap::new();
    for (var, _) in &decls {
        *seen_names.entry(&module.var(*var).name).or_default() += 1;
    }
    // Declarations in source order: an initialiser may use values known before it.
    for (var, init) in decls {
        let name = &module.var(*var).name;
        // A name declared twice in the function may mean two values.
        if changed.contains(var) || seen_names.get(name.as_str()) != Some(&1) {
            continue;
        }
        let Some(init) = init else { continue };
        let value = Poly::from_expr(module, f, *init)
            .map(|p| substitute(&p, &out))
            .and_then(|p| p.as_const());
        if let Some(value) = value {
            out.insert(name.clone(), value);
        }
    }
    out
}

/// `p` with every atom of a known value replaced by it.
pub fn substitute(p: &Poly, values: &Values) -> Poly {
    let atoms: Vec<String> = p.atoms().into_iter().map(str::to_string).collect();
    let mut out = p.clone();
    for a in atoms {
        if let Some(v) = values.get(&a) {
            out = out.subst(&a, &Poly::constant(*v));
        }
    }
    out
}

/// Variables assigned, incremented or whose address is taken anywhere in `func` (beyond their
/// initialiser).
fn changed_vars(module: &Module, func: FuncId) -> BTreeSet<VarId> {
    let f = module.function(func);
    let var_of = |e| match f.expr(e).kind {
        ExprKind::Var(v) => Some(v),
        _ => None,
    };
    let mut out = BTreeSet::new();
    for e in &f.exprs {
        let target = match &e.kind {
            ExprKind::Assign(_, l, _) => var_of(*l),
            ExprKind::Unary(
                UnaryOp::PreInc
                | UnaryOp::PreDec
                | UnaryOp::PostInc
                | UnaryOp::PostDec
                | UnaryOp::AddrOf,
                x,
            ) => var_of(*x),
            _ => None,
        };
        out.extend(target);
    }
    // A reference bound to a local may change it too (`int &r = n; r = 5;`).
    for s in &f.stmts {
        if let StmtKind::Decl(ds) = &s.kind {
            for (var, init) in ds {
                if let (TypeKind::Reference(_), Some(init)) = (&module.var(*var).ty.kind, init) {
                    out.extend(var_of(*init));
                }
            }
        }
    }
    out
}

/// `#define NAME EXPR` lines of `source` whose EXPR evaluates to an integer (integer literals,
/// earlier such macros, parentheses, + - * / %, unary minus).
pub fn macro_values(source: &str) -> Values {
    let mut out = Values::new();
    let mut redefined = BTreeSet::new();
    for line in source.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("define") else {
            continue;
        };
        if !rest.starts_with([' ', '\t']) {
            continue;
        }
        let rest = rest.trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (name, body) = rest.split_at(end);
        // Function-like macros (`#define F(x)`) are not values.
        if name.is_empty() || body.starts_with('(') {
            continue;
        }
        let body = body.split("//").next().unwrap_or("");
        match eval(body, &out) {
            Some(v) if !redefined.contains(name) => {
                if out.insert(name.to_string(), v).is_some_and(|old| old != v) {
                    out.remove(name);
                    redefined.insert(name.to_string());
                }
            }
            _ => {
                out.remove(name);
                redefined.insert(name.to_string());
            }
        }
    }
    out
}

/// A tiny integer expression evaluator for macro bodies.
fn eval(text: &str, values: &Values) -> Option<i64> {
    let tokens = tokenize(text)?;
    let mut p = Parser { tokens, at: 0 };
    let v = p.sum(values, 0)?;
    (p.at == p.tokens.len()).then_some(v)
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Name(String),
    Op(char),
}

fn tokenize(text: &str) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            let t = text[start..i].trim_end_matches(['u', 'U', 'l', 'L']);
            let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(h) => i64::from_str_radix(h, 16).ok()?,
                None => t.parse().ok()?,
            };
            out.push(Tok::Int(v));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Name(text[start..i].to_string()));
        } else if "+-*/%()".contains(c) {
            out.push(Tok::Op(c));
            i += 1;
        } else {
            return None;
        }
    }
    (!out.is_empty()).then_some(out)
}

struct Parser {
    tokens: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek_op(&self) -> Option<char> {
        match self.tokens.get(self.at) {
            Some(Tok::Op(c)) => Some(*c),
            _ => None,
        }
    }

    fn sum(&mut self, values: &Values, depth: usize) -> Option<i64> {
        let mut v = self.product(values, depth)?;
        while let Some(op @ ('+' | '-')) = self.peek_op() {
            self.at += 1;
            let r = self.product(values, depth)?;
            v = if op == '+' {
                v.checked_add(r)?
            } else {
                v.checked_sub(r)?
            };
        }
        Some(v)
    }

    fn product(&mut self, values: &Values, depth: usize) -> Option<i64> {
        let mut v = self.unary(values, depth)?;
        while let Some(op @ ('*' | '/' | '%')) = self.peek_op() {
            self.at += 1;
            let r = self.unary(values, depth)?;
            v = match op {
                '*' => v.checked_mul(r)?,
                '/' => v.checked_div(r)?,
                _ => v.checked_rem(r)?,
            };
        }
        Some(v)
    }

    fn unary(&mut self, values: &Values, depth: usize) -> Option<i64> {
        if depth > 64 {
            return None;
        }
        let t = self.tokens.get(self.at)?.clone();
        self.at += 1;
        match t {
            Tok::Int(v) => Some(v),
            Tok::Name(n) => values.get(&n).copied(),
            Tok::Op('-') => self.unary(values, depth + 1)?.checked_neg(),
            Tok::Op('+') => self.unary(values, depth + 1),
            Tok::Op('(') => {
                let v = self.sum(values, depth + 1)?;
                (self.tokens.get(self.at) == Some(&Tok::Op(')'))).then(|| self.at += 1)?;
                Some(v)
            }
            Tok::Op(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_with_integer_bodies() {
        let v = macro_values(
            "#define N 4096\n#  define CAP (2 * N + 1) // cap\n#define F(x) x\n#define S \"s\"\n\
             #define M 10u\n#define R 1\n#define R 2\n",
        );
        assert_eq!(v.get("N"), Some(&4096));
        assert_eq!(v.get("CAP"), Some(&8193));
        assert_eq!(v.get("M"), Some(&10));
        assert!(!v.contains_key("F") && !v.contains_key("S"));
        assert!(!v.contains_key("R"), "redefined with another value");
    }

    #[test]
    fn evaluator_rejects_what_it_does_not_know() {
        let v = Values::new();
        assert_eq!(eval("(1 + 2) * 3 - -4", &v), Some(13));
        assert_eq!(eval("1 / 0", &v), None);
        assert_eq!(eval("sizeof(double)", &v), None);
        assert_eq!(eval("(1", &v), None);
        assert_eq!(eval(&"(".repeat(500), &v), None);
    }
}
