//! Integer values of the object-like macros of a source text (`#define N 4096`,
//! `#define CAP (2 * N)`): what the preprocessor replaced by numbers, so that sections and
//! sizes can be written, and compared, in the program's own names.

use std::collections::{BTreeMap, BTreeSet};

pub type Values = BTreeMap<String, i64>;

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
