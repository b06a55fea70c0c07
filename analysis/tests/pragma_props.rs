//! Property tests of the `#pragma omp` scanner, parser and printer:
//! no panics on any input, and print/parse round trips.

use omplens_analysis::pragma::*;
use proptest::prelude::*;
use proptest::sample::select;

// ---------------------------------------------------------------------------
// No panics on arbitrary input

/// OpenMP-ish fragments to build half-valid pragmas from.
const VOCAB: &[&str] = &[
    "target",
    "teams",
    "distribute",
    "parallel",
    "for",
    "simd",
    "loop",
    "data",
    "enter",
    "exit",
    "update",
    "declare",
    "begin",
    "end",
    "critical",
    "flush",
    "ordered",
    "metadirective",
    "map",
    "to",
    "from",
    "tofrom",
    "alloc",
    "release",
    "delete",
    "always",
    "close",
    "present",
    "mapper",
    "iterator",
    "nowait",
    "device",
    "if",
    "reduction",
    "depend",
    "in",
    "out",
    "source",
    "sink",
    "schedule",
    "static",
    "defaultmap",
    "scalar",
    "default",
    "none",
    "num_teams",
    "collapse",
    "private",
    "firstprivate",
    "is_device_ptr",
    "link",
    "device_type",
    "nohost",
    "indirect",
    "doacross",
    "lastprivate",
    "conditional",
    "+",
    "-",
    "*",
    "&&",
    "max",
    "(",
    ")",
    "(",
    ")",
    ":",
    "::",
    "[",
    "]",
    ",",
    ",",
    "a",
    "b",
    "n",
    "s",
    "p",
    "->",
    ".",
    "0",
    "1",
    "42",
    "0x1F",
    "1.5",
    "\\\n",
    "\\\r\n",
    "\\",
    "€",
    "é",
    "\"",
    "'",
    "\"s\"",
    "'c'",
    "/*",
    "*/",
    "//",
    "?",
    "sizeof",
    "int",
    "size_t",
    "=",
    "#",
    "!",
    "~",
    "++",
    "--",
    "<<",
    ">=",
    "\n",
    "\t",
    "@",
];

fn vocab_pragma() -> impl Strategy<Value = String> {
    prop::collection::vec((select(VOCAB), any::<bool>()), 0..40).prop_map(|parts| {
        let mut s = String::from("#pragma omp ");
        for (p, space) in parts {
            s.push_str(p);
            if space {
                s.push(' ');
            }
        }
        s
    })
}

/// Checks the invariants every parse result must satisfy.
fn check_parse(text: &str, base: u32) -> PragmaParse {
    let r = parse_pragma(text, base);
    let end = base.saturating_add(text.len() as u32);
    for d in &r.diagnostics {
        assert!(d.span.start <= d.span.end, "{d:?}");
        assert!(d.span.start >= base && d.span.end <= end, "{text:?}: {d:?}");
        assert!(!d.message.is_empty());
    }
    if r.directive.is_none() {
        assert!(r.has_errors(), "{text:?}");
    }
    r
}

/// print -> parse -> print is a fixed point; when the original parse had
/// no error, the reparse also has the same tree. (After error recovery the
/// tree may differ: `for (junk) simd` keeps a `simd` clause on `for`, which
/// prints as the directive `for simd`.)
fn check_reprint(d: &Directive, diags: &[PragmaDiagnostic]) {
    if diags.iter().any(|x| x.message.starts_with("unterminated")) {
        return;
    }
    let printed = d.to_string();
    let again = parse_pragma(&printed, 0);
    let d2 = again
        .directive
        .unwrap_or_else(|| panic!("{printed:?}: {:?}", again.diagnostics));
    assert_eq!(d2.to_string(), printed);
    if !diags.iter().any(|x| x.severity == Severity::Error) {
        assert_eq!(d2.without_spans(), d.without_spans(), "{printed:?}");
    }
}

proptest! {
    #[test]
    fn pragma_parse_never_panics(text in any::<String>(), base in any::<u32>()) {
        check_parse(&text, base);
        let prefixed = format!("#pragma omp {text}");
        check_parse(&prefixed, base);
    }

    #[test]
    fn pragma_parse_vocab_never_panics_and_reprints(text in vocab_pragma(), base in 0u32..1_000_000) {
        let r = check_parse(&text, base);
        if let Some(d) = &r.directive {
            assert!(d.span.start == base);
            check_reprint(d, &r.diagnostics);
        }
    }

    #[test]
    fn pragma_scan_never_panics(text in any::<String>()) {
        for p in scan_pragmas(&text) {
            assert_eq!(text.get(p.span.start as usize..p.span.end as usize), Some(p.text.as_str()));
        }
    }

    #[test]
    fn pragma_scan_vocab(parts in prop::collection::vec(select(SCAN_VOCAB), 0..60)) {
        let text: String = parts.concat();
        for p in scan_pragmas(&text) {
            assert_eq!(text.get(p.span.start as usize..p.span.end as usize), Some(p.text.as_str()));
            assert!(p.text.starts_with('#'));
            check_parse(&p.text, p.span.start);
        }
    }
}

const SCAN_VOCAB: &[&str] = &[
    "#", "pragma", "omp", " ", "\t", "\n", "\r\n", "\\\n", "\\", "\"", "'", "//", "/*", "*/",
    "R\"x(", ")x\"", "target", "map(a)", "x;", "1'000", "once", "é", "€",
];

// ---------------------------------------------------------------------------
// Round trip of generated trees

const NAMES: &[&str] = &[
    "a", "b", "c", "n", "m", "p", "q", "s", "arr", "len", "x1", "_y",
];
const TYPES: &[&str] = &[
    "int",
    "double",
    "size_t",
    "unsigned long",
    "float *",
    "char **",
    "const char *",
    "struct s",
    "T *",
];

fn e(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::default())
}

fn paren(x: Expr) -> Expr {
    e(ExprKind::Paren(Box::new(x)))
}

/// Wraps `x` in parentheses when its precedence is below `min`.
fn wrap(x: Expr, min: u8) -> Expr {
    if x.precedence() < min {
        paren(x)
    } else {
        x
    }
}

/// The base of a postfix expression.
fn postfix_base(x: Expr) -> Expr {
    wrap(x, 15)
}

fn name() -> impl Strategy<Value = String> {
    select(NAMES).prop_map(str::to_string)
}

fn arb_expr() -> BoxedStrategy<Expr> {
    let leaf = prop_oneof![
        name().prop_map(|n| e(ExprKind::Ident(n))),
        select(&["0", "1", "42", "0x1F", "100UL", "7u"][..])
            .prop_map(|t| e(ExprKind::Int(t.to_string()))),
        select(&["1.5", "2e10", "0.5f"][..]).prop_map(|t| e(ExprKind::Float(t.to_string()))),
        select(&["'a'", "'\\n'"][..]).prop_map(|t| e(ExprKind::Char(t.to_string()))),
        Just(e(ExprKind::Str("\"str\"".to_string()))),
    ];
    let unary_ops = [
        UnaryOp::Plus,
        UnaryOp::Neg,
        UnaryOp::Not,
        UnaryOp::BitNot,
        UnaryOp::Deref,
        UnaryOp::AddrOf,
        UnaryOp::PreInc,
        UnaryOp::PreDec,
        UnaryOp::PostInc,
        UnaryOp::PostDec,
    ];
    leaf.prop_recursive(4, 32, 3, move |inner| {
        prop_oneof![
            (select(unary_ops.to_vec()), inner.clone()).prop_map(|(op, x)| {
                let x = if op.is_postfix() {
                    postfix_base(x)
                } else {
                    wrap(x, 14)
                };
                e(ExprKind::Unary(op, Box::new(x)))
            }),
            (select(BinaryOp::ALL), inner.clone(), inner.clone()).prop_map(|(op, l, r)| {
                let p = op.precedence();
                e(ExprKind::Binary(
                    op,
                    Box::new(wrap(l, p)),
                    Box::new(wrap(r, p + 1)),
                ))
            }),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, t, f)| {
                e(ExprKind::Ternary(
                    Box::new(wrap(c, 4)),
                    Box::new(t),
                    Box::new(f),
                ))
            }),
            (name(), prop::collection::vec(inner.clone(), 0..3))
                .prop_map(|(f, args)| { e(ExprKind::Call(Box::new(e(ExprKind::Ident(f))), args)) }),
            (inner.clone(), inner.clone())
                .prop_map(|(b, i)| e(ExprKind::Index(Box::new(postfix_base(b)), Box::new(i)))),
            (inner.clone(), name(), any::<bool>()).prop_map(|(b, m, arrow)| {
                e(ExprKind::Member(Box::new(postfix_base(b)), m, arrow))
            }),
            inner.clone().prop_map(paren),
            (select(TYPES), inner.clone())
                .prop_map(|(t, x)| { e(ExprKind::Cast(t.to_string(), Box::new(wrap(x, 14)))) }),
            inner.clone().prop_map(|x| {
                let x = match x.kind {
                    ExprKind::Cast(..) => paren(x),
                    _ => wrap(x, 14),
                };
                e(ExprKind::Sizeof(SizeofArg::Expr(Box::new(x))))
            }),
            select(TYPES).prop_map(|t| e(ExprKind::Sizeof(SizeofArg::Type(t.to_string())))),
        ]
    })
    .boxed()
}

fn ident(n: String) -> Ident {
    Ident {
        name: n,
        span: Span::default(),
    }
}

fn arb_accessor() -> impl Strategy<Value = Accessor> {
    let opt = || prop::option::of(arb_expr());
    prop_oneof![
        (name(), any::<bool>()).prop_map(|(n, arrow)| Accessor::Member {
            name: ident(n),
            arrow
        }),
        arb_expr().prop_map(Accessor::Index),
        (opt(), opt(), opt()).prop_map(|(lower, length, stride)| Accessor::Section {
            lower,
            length,
            stride,
            span: Span::default()
        }),
    ]
}

fn arb_item() -> impl Strategy<Value = ListItem> {
    (
        any::<bool>(),
        name(),
        prop::collection::vec(arb_accessor(), 0..3),
    )
        .prop_map(|(deref, base, path)| ListItem {
            span: Span::default(),
            deref,
            base: ident(base),
            path,
        })
}

fn items() -> impl Strategy<Value = Vec<ListItem>> {
    prop::collection::vec(arb_item(), 1..3)
}

fn arb_iterator() -> impl Strategy<Value = Vec<IteratorDef>> {
    prop::collection::vec(
        (
            prop::option::of(select(&["int", "unsigned long", "size_t", "int *"][..])),
            name(),
            arb_expr(),
            arb_expr(),
            prop::option::of(arb_expr()),
        )
            .prop_map(|(ty, name, begin, end, step)| IteratorDef {
                ty: ty.map(str::to_string),
                name,
                begin,
                end,
                step,
            }),
        1..3,
    )
}

fn arb_map_modifier() -> impl Strategy<Value = MapModifier> {
    prop_oneof![
        Just(MapModifier::Always),
        Just(MapModifier::Close),
        Just(MapModifier::Present),
        Just(MapModifier::OmpxHold),
        select(&["m1", "default"][..]).prop_map(|m| MapModifier::Mapper(m.to_string())),
        arb_iterator().prop_map(MapModifier::Iterator),
    ]
}

fn arb_motion_modifier() -> impl Strategy<Value = MotionModifier> {
    prop_oneof![
        Just(MotionModifier::Present),
        select(&["m1", "default"][..]).prop_map(|m| MotionModifier::Mapper(m.to_string())),
        arb_iterator().prop_map(MotionModifier::Iterator),
    ]
}

fn arb_reduction_op() -> impl Strategy<Value = ReductionOp> {
    select(vec![
        ReductionOp::Add,
        ReductionOp::Mul,
        ReductionOp::Sub,
        ReductionOp::BitAnd,
        ReductionOp::BitOr,
        ReductionOp::BitXor,
        ReductionOp::And,
        ReductionOp::Or,
        ReductionOp::Max,
        ReductionOp::Min,
        ReductionOp::Custom("myred".to_string()),
        ReductionOp::Custom("ns::red".to_string()),
    ])
}

fn arb_clause_kind() -> BoxedStrategy<ClauseKind> {
    let if_modifiers: Vec<Option<String>> = vec![
        None,
        Some("target".into()),
        Some("target data".into()),
        Some("target enter data".into()),
        Some("parallel".into()),
        Some("simd".into()),
    ];
    let others: Vec<(&str, Option<&str>)> = vec![
        ("proc_bind", Some("close")),
        ("untied", None),
        ("safelen", Some("4")),
        ("linear", Some("i : 1")),
        ("ompx_bare", None),
        ("num_teams", Some("1 : n")),
    ];
    prop_oneof![
        (
            prop::collection::vec(arb_map_modifier(), 0..3),
            prop::option::of(select(MapType::ALL)),
            items()
        )
            .prop_map(|(modifiers, map_type, items)| ClauseKind::Map {
                modifiers,
                map_type,
                items
            }),
        (prop::collection::vec(arb_motion_modifier(), 0..3), items())
            .prop_map(|(modifiers, items)| ClauseKind::To { modifiers, items }),
        (prop::collection::vec(arb_motion_modifier(), 0..3), items())
            .prop_map(|(modifiers, items)| ClauseKind::From { modifiers, items }),
        items().prop_map(ClauseKind::Private),
        items().prop_map(ClauseKind::Firstprivate),
        items().prop_map(ClauseKind::Shared),
        items().prop_map(ClauseKind::IsDevicePtr),
        items().prop_map(ClauseKind::HasDeviceAddr),
        items().prop_map(ClauseKind::UseDevicePtr),
        items().prop_map(ClauseKind::UseDeviceAddr),
        items().prop_map(ClauseKind::Enter),
        items().prop_map(ClauseKind::Link),
        (any::<bool>(), items())
            .prop_map(|(conditional, items)| ClauseKind::Lastprivate { conditional, items }),
        (
            prop::option::of(select(ReductionModifier::ALL)),
            arb_reduction_op(),
            items()
        )
            .prop_map(|(modifier, op, items)| ClauseKind::Reduction {
                modifier,
                op,
                items
            }),
        (arb_reduction_op(), items()).prop_map(|(op, items)| ClauseKind::InReduction { op, items }),
        (arb_reduction_op(), items())
            .prop_map(|(op, items)| ClauseKind::TaskReduction { op, items }),
        (
            select(DefaultmapBehavior::ALL),
            prop::option::of(select(DefaultmapCategory::ALL))
        )
            .prop_map(|(behavior, category)| ClauseKind::Defaultmap { behavior, category }),
        select(DefaultKind::ALL).prop_map(ClauseKind::Default),
        (
            select(DependKind::ALL),
            prop::option::of(arb_iterator()),
            items()
        )
            .prop_map(|(kind, iterator, items)| ClauseKind::Depend {
                kind,
                iterator,
                items
            }),
        Just(ClauseKind::Doacross {
            kind: DoacrossKind::Source,
            vector: vec![],
            legacy_depend: true
        }),
        prop::collection::vec(arb_expr(), 1..3).prop_map(|vector| ClauseKind::Doacross {
            kind: DoacrossKind::Sink,
            vector,
            legacy_depend: true
        }),
        (
            select(DoacrossKind::ALL),
            prop::collection::vec(arb_expr(), 0..3)
        )
            .prop_map(|(kind, vector)| ClauseKind::Doacross {
                kind,
                vector,
                legacy_depend: false
            }),
        Just(ClauseKind::Nowait),
        (prop::option::of(select(DeviceModifier::ALL)), arb_expr())
            .prop_map(|(modifier, expr)| ClauseKind::Device { modifier, expr }),
        (select(if_modifiers), arb_expr())
            .prop_map(|(modifier, expr)| ClauseKind::If { modifier, expr }),
        arb_expr().prop_map(ClauseKind::Collapse),
        arb_expr().prop_map(ClauseKind::NumTeams),
        arb_expr().prop_map(ClauseKind::ThreadLimit),
        arb_expr().prop_map(ClauseKind::NumThreads),
        (
            prop::collection::vec(select(ScheduleModifier::ALL), 0..3),
            select(ScheduleKind::ALL),
            prop::option::of(arb_expr())
        )
            .prop_map(|(modifiers, kind, chunk)| ClauseKind::Schedule {
                modifiers,
                kind,
                chunk
            }),
        prop::option::of(arb_expr()).prop_map(|chunk| ClauseKind::DistSchedule {
            kind: ScheduleKind::Static,
            chunk
        }),
        select(DeviceType::ALL).prop_map(ClauseKind::DeviceType),
        prop::option::of(arb_expr()).prop_map(ClauseKind::Indirect),
        select(others).prop_map(|(name, raw)| ClauseKind::Other {
            name: name.to_string(),
            raw: raw.map(str::to_string)
        }),
    ]
    .boxed()
}

fn arb_directive() -> impl Strategy<Value = Directive> {
    // Kinds whose clause syntax is context-free; `flush` and the
    // metadirectives are covered by unit tests.
    let kinds: Vec<DirectiveKind> = DirectiveKind::ALL
        .iter()
        .copied()
        .filter(|k| {
            !matches!(
                k,
                DirectiveKind::Flush
                    | DirectiveKind::Metadirective
                    | DirectiveKind::BeginMetadirective
            )
        })
        .collect();
    (
        select(kinds),
        prop::collection::vec(
            arb_clause_kind().prop_map(|kind| Clause {
                kind,
                span: Span::default(),
                name_span: Span::default(),
            }),
            0..4,
        ),
        items(),
        name(),
    )
        .prop_map(|(kind, clauses, list, critical_name)| {
            let mut d = Directive {
                kind,
                name_span: Span::default(),
                span: Span::default(),
                arguments: Vec::new(),
                raw_argument: None,
                clauses,
            };
            match kind {
                DirectiveKind::DeclareTarget
                | DirectiveKind::Threadprivate
                | DirectiveKind::Allocate => d.arguments = list,
                DirectiveKind::Depobj => d.arguments = list.into_iter().take(1).collect(),
                DirectiveKind::Critical => {
                    d.arguments = vec![ListItem {
                        span: Span::default(),
                        deref: false,
                        base: ident(critical_name),
                        path: vec![],
                    }]
                }
                DirectiveKind::DeclareReduction => {
                    d.raw_argument =
                        Some(("plus : int : omp_out += omp_in".into(), Span::default()))
                }
                DirectiveKind::DeclareMapper => {
                    d.raw_argument = Some(("id : struct S s".into(), Span::default()))
                }
                DirectiveKind::DeclareVariant => {
                    d.raw_argument = Some(("f_gpu".into(), Span::default()))
                }
                _ => {}
            }
            d
        })
}

proptest! {
    #[test]
    fn pragma_generated_directives_round_trip(d in arb_directive()) {
        let printed = d.to_string();
        let r = parse_pragma(&printed, 7);
        for diag in &r.diagnostics {
            // Only clause placement may be reported: the syntax is valid.
            prop_assert!(
                diag.message.contains("is not allowed on") || diag.message.starts_with("duplicate"),
                "{}: {:?}", printed, diag
            );
        }
        let parsed = r.directive.expect("directive");
        prop_assert_eq!(parsed.without_spans(), d.clone(), "{}", printed);
        prop_assert_eq!(parsed.to_string(), printed);
    }

    #[test]
    fn pragma_generated_expressions_round_trip(x in arb_expr()) {
        let printed = format!("#pragma omp target if({x})");
        let r = parse_pragma(&printed, 0);
        prop_assert!(r.diagnostics.is_empty(), "{}: {:?}", printed, r.diagnostics);
        let d = r.directive.expect("directive");
        let ClauseKind::If { expr, .. } = &d.clauses[0].kind else {
            panic!("{printed}");
        };
        prop_assert_eq!(expr.without_spans(), x);
    }
}

/// Cuts `text` at a char boundary near `at` (a fraction of its length).
fn boundary(text: &str, at: f64) -> usize {
    let mut i = ((text.len() as f64) * at) as usize;
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

proptest! {
    /// Valid pragmas with a random edit (deleted range, inserted token):
    /// the error recovery must never panic, and whatever it returns must
    /// print and reparse to a fixed point.
    #[test]
    fn pragma_mutated_directives_recover(
        d in arb_directive(),
        cut in (0.0f64..1.0, 0.0f64..0.2),
        insert in select(VOCAB),
    ) {
        let text = d.to_string();
        let start = boundary(&text, cut.0);
        let end = boundary(&text, (cut.0 + cut.1).min(1.0)).max(start);
        let mutated = format!("{}{insert}{}", &text[..start], &text[end..]);
        let r = check_parse(&mutated, 3);
        if let Some(d) = &r.directive {
            check_reprint(d, &r.diagnostics);
        }
    }
}
