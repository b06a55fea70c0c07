//! Symbolic integer expressions for array sections (DawnCC-style bounds, simplified): a
//! polynomial with integer coefficients over *atoms*, the C text of sub-expressions that are not
//! sums, differences, negations or products (`n`, `v.size()`, `p->len`, `(n + 1) / 2`).
//!
//! Equality is structural on a canonical form: a monomial is a sorted multiset of atoms and
//! a polynomial maps monomials to non-zero coefficients. Each monomial also remembers the
//! order its factors were written in (`n * m` stays `n * m`), which only affects printing.
//! Arithmetic wraps on overflow instead of panicking: constants that large are not indices.

use crate::ir::BinaryOp;
use crate::ir::{Callee, ExprId, ExprKind, Function, Module, TypeClass, TypeKind, UnaryOp, VarId};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

/// An atom's text. Shared: the monomials of a polynomial and the polynomials made from it
/// hold the same texts, and copying one is a reference count, not an allocation (the
/// coalescing analysis instantiates each index at every thread of a warp).
pub type Atom = Arc<str>;

/// A product of atoms. Compared, ordered and hashed by the sorted factors only; shared
/// between the polynomials that hold it.
#[derive(Clone, Debug)]
struct Mono(Arc<MonoParts>);

#[derive(Debug)]
struct MonoParts {
    /// Sorted factors: the identity of the monomial.
    key: Vec<Atom>,
    /// The same factors in the order they were written (for printing).
    shown: Vec<Atom>,
}

impl Mono {
    fn one() -> Mono {
        static ONE: std::sync::OnceLock<Mono> = std::sync::OnceLock::new();
        ONE.get_or_init(|| Mono::new(Vec::new(), Vec::new()))
            .clone()
    }
    fn new(key: Vec<Atom>, shown: Vec<Atom>) -> Mono {
        Mono(Arc::new(MonoParts { key, shown }))
    }
    fn atom(a: &str) -> Mono {
        let a: Atom = a.into();
        Mono::new(vec![a.clone()], vec![a])
    }
    fn key(&self) -> &[Atom] {
        &self.0.key
    }
    fn shown(&self) -> &[Atom] {
        &self.0.shown
    }
    fn times(&self, other: &Mono) -> Mono {
        if other.key().is_empty() {
            return self.clone();
        }
        if self.key().is_empty() {
            return other.clone();
        }
        let mut key = Vec::with_capacity(self.key().len() + other.key().len());
        key.extend(self.key().iter().cloned());
        key.extend(other.key().iter().cloned());
        key.sort();
        let mut shown = Vec::with_capacity(key.len());
        shown.extend(self.shown().iter().cloned());
        shown.extend(other.shown().iter().cloned());
        Mono::new(key, shown)
    }
}

impl PartialEq for Mono {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.key() == other.key()
    }
}
impl Eq for Mono {}
impl std::hash::Hash for Mono {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state)
    }
}
impl PartialOrd for Mono {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Mono {
    /// Higher degree first, then by factor text; the constant monomial sorts last.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .key()
            .len()
            .cmp(&self.key().len())
            .then_with(|| self.key().cmp(other.key()))
    }
}

/// A polynomial with `i64` coefficients over atoms (C sub-expression texts).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Poly {
    /// No zero coefficients; iteration order is the printing order.
    terms: BTreeMap<Mono, i64>,
}

impl Poly {
    pub fn zero() -> Poly {
        Poly::default()
    }

    pub fn constant(c: i64) -> Poly {
        let mut p = Poly::zero();
        if c != 0 {
            p.terms.insert(Mono::one(), c);
        }
        p
    }

    /// The atom `text` (a variable name, `v.size()`, ...), taken as given.
    pub fn atom(text: &str) -> Poly {
        let mut p = Poly::zero();
        p.terms.insert(Mono::atom(text.trim()), 1);
        p
    }

    /// The atom of a factor [`Self::terms`] gave (its text shared, not copied).
    pub fn shared_atom(a: &Atom) -> Poly {
        let mut p = Poly::zero();
        p.terms
            .insert(Mono::new(vec![a.clone()], vec![a.clone()]), 1);
        p
    }

    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The value when the polynomial has no atoms.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => {
                let (m, c) = self.terms.iter().next()?;
                m.key().is_empty().then_some(*c)
            }
            _ => None,
        }
    }

    /// `self - other` when that is a constant (`self.sub(other).as_const()`, without
    /// building the difference).
    pub fn const_diff(&self, other: &Poly) -> Option<i64> {
        fn atoms(p: &Poly) -> impl Iterator<Item = (&[Atom], &i64)> + '_ {
            p.terms
                .iter()
                .filter(|(m, _)| !m.key().is_empty())
                .map(|(m, c)| (m.key(), c))
        }
        // Both maps iterate in the same order, so equal atom terms line up.
        let same = atoms(self).eq(atoms(other));
        same.then(|| {
            self.constant_term()
                .wrapping_add(other.constant_term().wrapping_mul(-1))
        })
    }

    /// Adds the term `c` times the product of `factors` (sorted, as [`Self::terms`] gives
    /// them), written in that order.
    pub fn add_sorted_term(&mut self, factors: &[Atom], c: i64) {
        let m = Mono::new(factors.to_vec(), factors.to_vec());
        self.add_term(m, c);
    }

    /// The constant term.
    pub fn constant_term(&self) -> i64 {
        self.terms.get(&Mono::one()).copied().unwrap_or(0)
    }

    /// Terms as (sorted factors, coefficient), in printing order.
    pub fn terms(&self) -> impl Iterator<Item = (&[Atom], i64)> + '_ {
        self.terms.iter().map(|(m, c)| (m.key(), *c))
    }

    /// Every atom used, sorted.
    pub fn atoms(&self) -> BTreeSet<&str> {
        self.terms
            .keys()
            .flat_map(|m| m.key().iter().map(|a| &**a))
            .collect()
    }

    pub fn contains_atom(&self, atom: &str) -> bool {
        self.terms
            .keys()
            .any(|m| m.key().iter().any(|a| &**a == atom))
    }

    /// Highest power of `atom` in any term.
    pub fn degree_in(&self, atom: &str) -> usize {
        self.terms
            .keys()
            .map(|m| m.key().iter().filter(|a| &***a == atom).count())
            .max()
            .unwrap_or(0)
    }

    /// True when every coefficient (constant term included) is non-negative: the value is
    /// then non-negative whenever every atom is.
    pub fn nonneg_coefficients(&self) -> bool {
        self.terms.values().all(|c| *c >= 0)
    }

    fn add_term(&mut self, m: Mono, c: i64) {
        if c == 0 {
            return;
        }
        match self.terms.get_mut(&m) {
            Some(x) => {
                *x = x.wrapping_add(c);
                if *x == 0 {
                    self.terms.remove(&m);
                }
            }
            None => {
                self.terms.insert(m, c);
            }
        }
    }

    pub fn add(&self, other: &Poly) -> Poly {
        let mut p = self.clone();
        p.add_assign(other);
        p
    }

    /// `self += other`, without copying `self`.
    pub fn add_assign(&mut self, other: &Poly) {
        for (m, c) in &other.terms {
            self.add_term(m.clone(), *c);
        }
    }

    pub fn neg(&self) -> Poly {
        self.scale(-1)
    }

    pub fn sub(&self, other: &Poly) -> Poly {
        self.add(&other.neg())
    }

    /// Every coefficient multiplied by `k`.
    pub fn scale(&self, k: i64) -> Poly {
        let mut p = Poly::zero();
        for (m, c) in &self.terms {
            p.add_term(m.clone(), c.wrapping_mul(k));
        }
        p
    }

    pub fn mul(&self, other: &Poly) -> Poly {
        let mut p = Poly::zero();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &other.terms {
                crate::budget::tick("symbolic simplification");
                p.add_term(m1.times(m2), c1.wrapping_mul(*c2));
            }
        }
        p
    }

    /// `self / c` as C computes it: exact division when `c` divides every coefficient (or
    /// both are constants: truncated as C does); otherwise the atom `(self) / c`. None when
    /// `c` is zero.
    pub fn div(&self, c: i64) -> Option<Poly> {
        if c == 0 {
            return None;
        }
        if let Some(x) = self.as_const() {
            return Some(Poly::constant(x.wrapping_div(c)));
        }
        if self.terms.values().all(|k| k.wrapping_rem(c) == 0) {
            let mut p = Poly::zero();
            for (m, k) in &self.terms {
                p.add_term(m.clone(), k.wrapping_div(c));
            }
            return Some(p);
        }
        Some(Poly::atom(&format!("{} / {c}", self.operand_text())))
    }

    /// Replaces every occurrence of `atom` by `by`.
    pub fn subst(&self, atom: &str, by: &Poly) -> Poly {
        let mut p = Poly::zero();
        for (m, c) in &self.terms {
            if !m.key().iter().any(|a| &**a == atom) {
                p.add_term(m.clone(), *c);
                continue;
            }
            // Rebuilt factor by factor so the written order survives.
            let mut t = Poly::constant(*c);
            for a in m.shown() {
                t = if &**a == atom {
                    t.mul(by)
                } else {
                    t.mul(&Poly::shared_atom(a))
                };
            }
            p.add_assign(&t);
        }
        p
    }

    /// The coefficient of `atom` in a polynomial of degree one in it (`8` in `8 * i + k`,
    /// `n` in `n * i`).
    pub fn coefficient(&self, atom: &str) -> Poly {
        self.subst(atom, &Poly::constant(1))
            .sub(&self.subst(atom, &Poly::zero()))
    }

    /// Whether some atom other than `name` itself reads the variable `name` in its text
    /// (`s[n]`, `n / 2`; not a member `p->n`).
    pub fn mentions_within_atoms(&self, name: &str) -> bool {
        self.atoms()
            .into_iter()
            .any(|a| a != name && !ident_positions(a, name).is_empty())
    }

    /// [`Poly::subst`] of `name` by `by`, also inside the text of compound atoms (`s[n]`
    /// becomes `s[m + 1]`, `n / 2` becomes `(m + 1) / 2`).
    pub fn subst_everywhere(&self, name: &str, by: &Poly) -> Poly {
        let mut p = self.subst(name, by);
        let compound: Vec<String> = p
            .atoms()
            .into_iter()
            .filter(|a| *a != name && !ident_positions(a, name).is_empty())
            .map(str::to_string)
            .collect();
        let text = by.operand_text();
        for a in compound {
            let mut renamed = a.clone();
            for at in ident_positions(&a, name).into_iter().rev() {
                renamed.replace_range(at..at + name.len(), &text);
            }
            p = p.subst(&a, &Poly::atom(&renamed));
        }
        p
    }

    /// The text of `self` as the operand of a binary operator of multiplicative precedence:
    /// parenthesised unless it is a single atom without operators or a non-negative constant.
    fn operand_text(&self) -> String {
        let text = self.to_string();
        let simple = match self.as_const() {
            Some(c) => c >= 0,
            None => {
                self.terms.len() == 1
                    && self.terms.iter().all(|(m, c)| {
                        *c == 1 && m.key().len() == 1 && !top_level_ops(&m.key()[0]).0
                    })
            }
        };
        if simple {
            text
        } else {
            format!("({text})")
        }
    }

    /// A polynomial from an IR expression: integer literals, integral variables, `+`, `-`,
    /// `*` (and `<<` by a constant), unary minus, casts looked through; `/` by a constant
    /// divides exactly or becomes an atom; members, calls and subscripts become atoms by
    /// their text. None for what cannot be an index (floats, assignments, increments, ...).
    pub fn from_expr(module: &Module, func: &Function, e: ExprId) -> Option<Poly> {
        ExprPolys::new(module, func).poly(e)
    }

    /// [`Poly::from_expr`] with macro uses kept as their names (`N * M`, not `2048`).
    pub fn from_expr_named(module: &Module, func: &Function, e: ExprId) -> Option<Poly> {
        ExprPolys::naming_macros(module, func).poly(e)
    }
}

impl std::ops::Add for &Poly {
    type Output = Poly;
    fn add(self, rhs: &Poly) -> Poly {
        Poly::add(self, rhs)
    }
}
impl std::ops::Sub for &Poly {
    type Output = Poly;
    fn sub(self, rhs: &Poly) -> Poly {
        Poly::sub(self, rhs)
    }
}
impl std::ops::Mul for &Poly {
    type Output = Poly;
    fn mul(self, rhs: &Poly) -> Poly {
        Poly::mul(self, rhs)
    }
}
impl std::ops::Neg for &Poly {
    type Output = Poly;
    fn neg(self) -> Poly {
        Poly::neg(self)
    }
}

/// Byte offsets where the identifier `name` stands in `text` as a variable: a whole word,
/// not a member after `.` or `->`, not inside a literal.
fn ident_positions(text: &str, name: &str) -> Vec<usize> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        if !word(c) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && word(b[i]) {
            i += 1;
        }
        let before = text[..start].trim_end();
        let member = before.ends_with('.') || before.ends_with("->");
        if &text[start..i] == name && !member && !c.is_ascii_digit() {
            out.push(start);
        }
    }
    out
}

/// Whether `atom` has a binary operator outside brackets (`n / 2`, `c ? a : b`), and
/// whether all such operators are multiplicative (`*`, `/`, `%`). Operators are recognised by
/// the spaces around them, which is how atoms are rendered.
fn top_level_ops(atom: &str) -> (bool, bool) {
    let b = atom.as_bytes();
    let mut depth = 0i32;
    let mut any = false;
    let mut only_mul = true;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'"' | b'\'' => {
                // Skip a literal.
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b' ' if depth == 0 => {
                let mut j = i + 1;
                while j < b.len() && b"+-*/%<>=!&|^?:".contains(&b[j]) {
                    j += 1;
                }
                if j > i + 1 && j < b.len() && b[j] == b' ' {
                    any = true;
                    let op = &atom[i + 1..j];
                    if !matches!(op, "*" | "/" | "%") {
                        only_mul = false;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    (any, only_mul)
}

impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        let single = self.terms.len() == 1;
        // `start[n] - start[0]`, not `-start[0] + start[n]`: a positive term leads.
        let mut order: Vec<(&Mono, &i64)> = self.terms.iter().collect();
        if *order[0].1 < 0 {
            if let Some(k) = order
                .iter()
                .position(|(m, c)| **c > 0 && !m.key().is_empty())
            {
                let t = order.remove(k);
                order.insert(0, t);
            }
        }
        for (i, (m, c)) in order.into_iter().enumerate() {
            let neg = *c < 0;
            match (i, neg) {
                (0, true) => f.write_str("-")?,
                (0, false) => {}
                (_, true) => f.write_str(" - ")?,
                (_, false) => f.write_str(" + ")?,
            }
            let abs = c.unsigned_abs();
            if m.shown().is_empty() {
                write!(f, "{abs}")?;
                continue;
            }
            let factors = m.shown().len() + usize::from(abs != 1);
            let mut parts = Vec::with_capacity(factors);
            if abs != 1 {
                parts.push(abs.to_string());
            }
            for a in m.shown() {
                let (any, only_mul) = top_level_ops(a);
                // Alone: the only term, positive; an operator of lower precedence than `*`
                // must be parenthesised otherwise.
                let alone = single && !neg;
                let wrap = any && (factors > 1 || (!only_mul && !alone));
                parts.push(if wrap {
                    format!("({a})")
                } else {
                    a.to_string()
                });
            }
            f.write_str(&parts.join(" * "))?;
        }
        Ok(())
    }
}

/// A pragma expression (a clause's argument, a section's bounds) as a polynomial over the
/// names it uses (`n - 1`, `nx * ny`), the names of known value in `values` replaced by their
/// values first (so `n / 2` with `n` known is a number).
pub fn pragma_poly(e: &crate::pragma::Expr, values: &crate::ir::macros::Values) -> Option<Poly> {
    use crate::pragma::{BinaryOp, ExprKind};
    let poly = |e: &crate::pragma::Expr| pragma_poly(e, values);
    match &e.kind {
        ExprKind::Int(t) => {
            let digits: String = t.trim_end_matches(['u', 'U', 'l', 'L']).to_string();
            let v = if let Some(h) = digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
            {
                i64::from_str_radix(h, 16).ok()?
            } else {
                digits.parse().ok()?
            };
            Some(Poly::constant(v))
        }
        ExprKind::Ident(n) => Some(match values.get(n) {
            Some(v) => Poly::constant(*v),
            None => Poly::atom(n),
        }),
        ExprKind::Paren(e) => poly(e),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (poly(a)?, poly(b)?);
            match op {
                BinaryOp::Add => Some(a.add(&b)),
                BinaryOp::Sub => Some(a.sub(&b)),
                BinaryOp::Mul => Some(a.mul(&b)),
                BinaryOp::Div => a.div(b.as_const()?),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether a value of this type is an integer (an index or a count): not a floating-point
/// number, pointer, array, record, function or `void` (a reference to an integer is one).
pub(crate) fn is_integer(kind: &TypeKind) -> bool {
    !matches!(
        kind,
        TypeKind::Floating
            | TypeKind::Pointer(_)
            | TypeKind::Array { .. }
            | TypeKind::Record(_)
            | TypeKind::Function
            | TypeKind::Void
    )
}

/// Atom text → variables read by the sub-expression it stands for.
pub(crate) type Deps = BTreeMap<String, BTreeSet<VarId>>;

/// Builds polynomials from IR expressions and remembers, for every atom made, the variables
/// its text mentions (so callers can tell an atom that varies from one that does not).
pub(crate) struct ExprPolys<'a> {
    module: &'a Module,
    func: &'a Function,
    /// Atom text → variables read by the sub-expression it stands for.
    pub deps: Deps,
    /// Whether a number that is a macro's use (`N` where `#define N 4096`) stays its name,
    /// for sections written in the program's own terms.
    names_macros: bool,
    /// Atoms that are an element of a variable's data (`start[r + 1]`): the variable and
    /// the index expression, per expression of that text (two loops may both name their
    /// counter `r`).
    pub elements: BTreeMap<String, Vec<(VarId, ExprId)>>,
}

/// Deeper expressions are not indices worth reasoning about (and must not blow the stack).
const MAX_DEPTH: usize = 200;

/// Most terms of a product expanded by [`ExprPolys`]; a larger one is unknown.
pub const MAX_TERMS: usize = 1024;

impl<'a> ExprPolys<'a> {
    pub fn new(module: &'a Module, func: &'a Function) -> Self {
        ExprPolys {
            module,
            func,
            deps: BTreeMap::new(),
            names_macros: false,
            elements: BTreeMap::new(),
        }
    }

    /// [`ExprPolys::new`], keeping macro names (`N`) instead of their values.
    pub fn naming_macros(module: &'a Module, func: &'a Function) -> Self {
        ExprPolys {
            names_macros: true,
            ..ExprPolys::new(module, func)
        }
    }

    pub fn poly(&mut self, e: ExprId) -> Option<Poly> {
        self.poly_at(e, 0)
    }

    /// The polynomial of `e` with the variables each of its atoms mentions, counting only
    /// what `e` itself says (the same name elsewhere may be another variable).
    pub fn poly_with_deps(&mut self, e: ExprId) -> Option<(Poly, Deps)> {
        let saved = std::mem::take(&mut self.deps);
        let p = self.poly_at(e, 0);
        let deps = std::mem::replace(&mut self.deps, saved);
        Some((p?, deps))
    }

    /// Variables mentioned by any atom of `p`.
    pub fn vars_of(&self, p: &Poly) -> BTreeSet<VarId> {
        p.atoms()
            .into_iter()
            .filter_map(|a| self.deps.get(a))
            .flatten()
            .copied()
            .collect()
    }

    /// An atom made outside this builder (an element at another index), with the variables
    /// its text mentions.
    pub fn register_atom(&mut self, text: &str, vars: BTreeSet<VarId>) -> Poly {
        self.make_atom(text.to_string(), vars)
    }

    fn make_atom(&mut self, text: String, vars: BTreeSet<VarId>) -> Poly {
        let text = text.trim().to_string();
        self.deps.entry(text.clone()).or_default().extend(vars);
        Poly::atom(&text)
    }

    fn poly_at(&mut self, e: ExprId, depth: usize) -> Option<Poly> {
        crate::budget::tick("symbolic simplification");
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        let expr = self.func.expr(e);
        match &expr.kind {
            ExprKind::Int { value, text } => {
                // A whole macro use whose value is the macro's own (not `-N`, not one of the
                // numbers of `#define SIZE NX * NY`): written by its name.
                if self.names_macros
                    && value.is_some()
                    && self.module.macros.get(text) == value.as_ref()
                {
                    return Some(self.make_atom(text.clone(), BTreeSet::new()));
                }
                value.map(Poly::constant)
            }
            ExprKind::SizeOf(v) => v.map(Poly::constant),
            ExprKind::Var(v) => {
                let var = self.module.var(*v);
                is_integer(&var.ty.referent().kind)
                    .then(|| self.make_atom(var.name.clone(), BTreeSet::from([*v])))
            }
            ExprKind::Cast(x) => {
                if !index_class(expr.class) {
                    return None;
                }
                self.poly_at(*x, d)
            }
            ExprKind::Unary(UnaryOp::Minus, x) => Some(self.poly_at(*x, d)?.neg()),
            ExprKind::Unary(UnaryOp::Plus, x) => self.poly_at(*x, d),
            ExprKind::Binary(op, l, r) => {
                let (l, r) = (*l, *r);
                match op {
                    BinaryOp::Add => Some(self.poly_at(l, d)?.add(&self.poly_at(r, d)?)),
                    BinaryOp::Sub => Some(self.poly_at(l, d)?.sub(&self.poly_at(r, d)?)),
                    BinaryOp::Mul => {
                        let (a, b) = (self.poly_at(l, d)?, self.poly_at(r, d)?);
                        // A product of sums expands to the product of their sizes: past a
                        // bound no index has, the expression is unknown, not 2^n terms.
                        if a.terms.len().saturating_mul(b.terms.len()) > MAX_TERMS {
                            return None;
                        }
                        Some(a.mul(&b))
                    }
                    BinaryOp::Div
                    | BinaryOp::Rem
                    | BinaryOp::Shl
                    | BinaryOp::Shr
                    | BinaryOp::BitAnd
                    | BinaryOp::BitOr
                    | BinaryOp::BitXor => {
                        let a = self.poly_at(l, d)?;
                        let b = self.poly_at(r, d)?;
                        let bc = b.as_const();
                        match (op, bc) {
                            (BinaryOp::Div, Some(c)) => {
                                let q = a.div(c)?;
                                let vars = self.vars_of(&a);
                                for atom in q.atoms() {
                                    self.deps
                                        .entry(atom.to_string())
                                        .or_insert_with(|| vars.clone());
                                }
                                return Some(q);
                            }
                            (BinaryOp::Rem, Some(0)) => return None,
                            (BinaryOp::Shl, Some(c)) if (0..62).contains(&c) => {
                                return Some(a.scale(1i64 << c))
                            }
                            _ => {}
                        }
                        if let (Some(x), Some(y)) = (a.as_const(), bc) {
                            return const_binary(*op, x, y).map(Poly::constant);
                        }
                        let mut vars = self.vars_of(&a);
                        vars.extend(self.vars_of(&b));
                        let text = format!(
                            "{} {} {}",
                            a.operand_text(),
                            op.spelling(),
                            b.operand_text()
                        );
                        Some(self.make_atom(text, vars))
                    }
                    _ => None,
                }
            }
            ExprKind::Member { .. }
            | ExprKind::Call { .. }
            | ExprKind::Subscript(..)
            | ExprKind::Cond(..)
            | ExprKind::Unary(UnaryOp::Deref, _) => {
                if !index_class(expr.class) {
                    return None;
                }
                let (text, _) = self.render(e, d)?;
                let mut vars = BTreeSet::new();
                self.collect_vars(e, &mut vars, d);
                if let ExprKind::Subscript(b, i) = expr.kind {
                    if let ExprKind::Var(a) = self.func.expr(self.func.strip_casts(b)).kind {
                        let list = self.elements.entry(text.trim().to_string()).or_default();
                        if !list.contains(&(a, i)) {
                            list.push((a, i));
                        }
                    }
                }
                Some(self.make_atom(text, vars))
            }
            _ => None,
        }
    }

    fn collect_vars(&self, e: ExprId, out: &mut BTreeSet<VarId>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if let ExprKind::Var(v) = self.func.expr(e).kind {
            out.insert(v);
        }
        for c in children(&self.func.expr(e).kind) {
            self.collect_vars(c, out, depth + 1);
        }
    }

    /// C text of an expression with the parentheses precedence needs, and its precedence
    /// (16 primary, 15 postfix, 14 prefix, 13 multiplicative, ..., 3 conditional). None for
    /// expressions with side effects other than calls, or that cannot be spelled back.
    fn render(&self, e: ExprId, depth: usize) -> Option<(String, u8)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        let at_least = |x: ExprId, p: u8| -> Option<String> {
            let (s, q) = self.render(x, d)?;
            Some(if q < p { format!("({s})") } else { s })
        };
        let m = self.module;
        Some(match &self.func.expr(e).kind {
            ExprKind::Var(v) => (m.var(*v).name.clone(), 16),
            ExprKind::Func(f) => (m.function(*f).qualified_name.clone(), 16),
            ExprKind::Int { text, .. } => (text.clone(), 16),
            ExprKind::Float(t) | ExprKind::Char(t) => (t.clone(), 16),
            ExprKind::Bool(b) => (b.to_string(), 16),
            ExprKind::This => ("this".into(), 16),
            ExprKind::SizeOf(Some(v)) => (v.to_string(), 16),
            ExprKind::Cast(x) => return self.render(*x, d),
            ExprKind::Unary(op, x) => match op {
                UnaryOp::Minus | UnaryOp::Plus | UnaryOp::Deref | UnaryOp::AddrOf => {
                    (format!("{}{}", op.spelling(), at_least(*x, 14)?), 14)
                }
                UnaryOp::Not | UnaryOp::BitNot => {
                    (format!("{}{}", op.spelling(), at_least(*x, 14)?), 14)
                }
                _ => return None,
            },
            ExprKind::Binary(op, l, r) => {
                let p = binary_prec(*op)?;
                let ls = at_least(*l, p)?;
                let rs = at_least(*r, p + 1)?;
                (format!("{ls} {} {rs}", op.spelling()), p)
            }
            ExprKind::Subscript(b, i) => {
                let bs = at_least(*b, 15)?;
                let (is, _) = self.render(*i, d)?;
                (format!("{bs}[{is}]"), 15)
            }
            ExprKind::Member { base, field, arrow } => match base {
                Some(b) => {
                    let bs = at_least(*b, 15)?;
                    let sep = if *arrow { "->" } else { "." };
                    (format!("{bs}{sep}{field}"), 15)
                }
                None => (field.clone(), 16),
            },
            ExprKind::Call {
                callee,
                receiver,
                args,
            } => {
                let mut a = Vec::with_capacity(args.len());
                for x in args {
                    a.push(self.render(*x, d)?.0);
                }
                let name = match callee {
                    Callee::Direct(f) => {
                        let func = m.function(*f);
                        if receiver.is_some() || func.is_method {
                            func.name.clone()
                        } else {
                            func.qualified_name.clone()
                        }
                    }
                    Callee::Named(n) => n.clone(),
                    Callee::Indirect(x) => at_least(*x, 15)?,
                };
                match receiver {
                    Some(r) => {
                        let rs = at_least(*r, 15)?;
                        let arrow = matches!(
                            self.func.expr(*r).class,
                            TypeClass::Pointer | TypeClass::PointerToConst
                        );
                        if name == "operator[]" && a.len() == 1 && !arrow {
                            (format!("{rs}[{}]", a[0]), 15)
                        } else {
                            let sep = if arrow { "->" } else { "." };
                            (format!("{rs}{sep}{name}({})", a.join(", ")), 15)
                        }
                    }
                    None => (format!("{name}({})", a.join(", ")), 15),
                }
            }
            ExprKind::Cond(c, t, f) => {
                let cs = at_least(*c, 4)?;
                let ts = self.render(*t, d)?.0;
                let fs = at_least(*f, 3)?;
                (format!("{cs} ? {ts} : {fs}"), 3)
            }
            _ => return None,
        })
    }
}

/// Expression classes an index or a length can have.
fn index_class(c: TypeClass) -> bool {
    matches!(
        c,
        TypeClass::Scalar | TypeClass::Dependent | TypeClass::Unknown
    )
}

fn const_binary(op: BinaryOp, x: i64, y: i64) -> Option<i64> {
    Some(match op {
        BinaryOp::Rem => x.checked_rem(y)?,
        BinaryOp::Shl => x.checked_shl(u32::try_from(y).ok()?)?,
        BinaryOp::Shr => x.checked_shr(u32::try_from(y).ok()?)?,
        BinaryOp::BitAnd => x & y,
        BinaryOp::BitOr => x | y,
        BinaryOp::BitXor => x ^ y,
        _ => return None,
    })
}

fn binary_prec(op: BinaryOp) -> Option<u8> {
    use BinaryOp::*;
    Some(match op {
        Mul | Div | Rem => 13,
        Add | Sub => 12,
        Shl | Shr => 11,
        Lt | Gt | Le | Ge => 10,
        Eq | Ne => 9,
        BitAnd => 8,
        BitXor => 7,
        BitOr => 6,
        And => 5,
        Or => 4,
        Cmp3 | Comma | PtrMemD | PtrMemI => return None,
    })
}

/// Direct sub-expressions of an expression.
pub(crate) fn children(k: &ExprKind) -> Vec<ExprId> {
    match k {
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => vec![*x],
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Subscript(a, b) => {
            vec![*a, *b]
        }
        ExprKind::Member { base, .. } => base.iter().copied().collect(),
        ExprKind::Call {
            callee,
            receiver,
            args,
        } => {
            let mut v = Vec::with_capacity(args.len() + 2);
            if let Callee::Indirect(x) = callee {
                v.push(*x);
            }
            v.extend(receiver.iter().copied());
            v.extend(args.iter().copied());
            v
        }
        ExprKind::Cond(a, b, c) => vec![*a, *b, *c],
        ExprKind::InitList(items) => items.clone(),
        ExprKind::Other { children, .. } => children.clone(),
        ExprKind::NewArray { len, init, .. } => {
            std::iter::once(*len).chain(init.iter().copied()).collect()
        }
        ExprKind::Var(_)
        | ExprKind::Func(_)
        | ExprKind::Int { .. }
        | ExprKind::Float(_)
        | ExprKind::Str
        | ExprKind::Char(_)
        | ExprKind::Bool(_)
        | ExprKind::NullPtr
        | ExprKind::This
        | ExprKind::SizeOf(_)
        | ExprKind::Lambda => Vec::new(),
    }
}
