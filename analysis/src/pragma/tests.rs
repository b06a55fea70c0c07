//! Unit tests of the pragma scanner, parser and printer.

use super::*;

const BASE: u32 = 1000;

fn parse(text: &str) -> PragmaParse {
    parse_pragma(text, BASE)
}

/// Parses and asserts there is no diagnostic at all.
fn parse_ok(text: &str) -> Directive {
    let r = parse(text);
    assert!(r.diagnostics.is_empty(), "{text}: {:?}", r.diagnostics);
    r.directive.expect("directive")
}

/// File span of the first occurrence of `needle` in `text` (at `BASE`).
fn span_of(text: &str, needle: &str) -> Span {
    span_of_nth(text, needle, 0)
}

fn span_of_nth(text: &str, needle: &str, n: usize) -> Span {
    let (idx, _) = text
        .match_indices(needle)
        .nth(n)
        .unwrap_or_else(|| panic!("`{needle}` not in `{text}`"));
    Span::new(BASE + idx as u32, BASE + (idx + needle.len()) as u32)
}

/// The only clause of `#pragma omp <dir> <clause>`.
fn clause_on(dir: &str, clause: &str) -> ClauseKind {
    let d = parse_ok(&format!("#pragma omp {dir} {clause}"));
    assert_eq!(d.clauses.len(), 1, "{clause}");
    d.clauses[0].kind.clone()
}

fn map_items(clause: &str) -> Vec<ListItem> {
    match clause_on("target", clause) {
        ClauseKind::Map { items, .. } => items,
        other => panic!("{other:?}"),
    }
}

/// The first list item of `map(<item>)`.
fn item(text: &str) -> ListItem {
    map_items(&format!("map({text})")).remove(0)
}

/// The expression of `if(<e>)`.
fn expr(text: &str) -> Expr {
    match clause_on("target", &format!("if({text})")) {
        ClauseKind::If { expr, .. } => expr,
        other => panic!("{other:?}"),
    }
}

fn ident(name: &str) -> Expr {
    Expr::new(ExprKind::Ident(name.to_string()), Span::default())
}

fn int(text: &str) -> Expr {
    Expr::new(ExprKind::Int(text.to_string()), Span::default())
}

fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr::new(
        ExprKind::Binary(op, Box::new(a), Box::new(b)),
        Span::default(),
    )
}

/// Parses, prints, and checks both the canonical text and that it parses
/// back to the same tree.
fn assert_canonical(text: &str, canonical: &str) {
    let d = parse_ok(text);
    let printed = d.to_string();
    assert_eq!(printed, canonical);
    let again = parse_ok(&printed);
    assert_eq!(again.without_spans(), d.without_spans());
}

fn only_error(text: &str) -> PragmaDiagnostic {
    let r = parse(text);
    let errors: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{text}: {:?}", r.diagnostics);
    errors[0].clone()
}

// ---------------------------------------------------------------------------
// Directive names

/// Text that parses cleanly for every kind (required arguments added).
fn minimal_pragma(kind: DirectiveKind) -> String {
    let arg = match kind {
        DirectiveKind::Threadprivate | DirectiveKind::Allocate => "(x)",
        DirectiveKind::Depobj => "(o)",
        DirectiveKind::DeclareReduction => "(plus : int : omp_out += omp_in)",
        DirectiveKind::DeclareMapper => "(struct s v)",
        DirectiveKind::DeclareVariant => "(f_gpu)",
        _ => "",
    };
    format!("#pragma omp {}{arg}", kind.name())
}

#[test]
fn every_directive_kind_parses_by_name() {
    for &kind in DirectiveKind::ALL {
        let text = minimal_pragma(kind);
        let d = parse_ok(&text);
        assert_eq!(d.kind, kind, "{text}");
        assert_eq!(d.name_span, span_of(&text, kind.name()), "{text}");
        assert_eq!(DirectiveKind::from_name(kind.name()), Some(kind));
        assert_eq!(d.to_string(), text);
    }
}

#[test]
fn directive_words_may_be_separated_by_any_whitespace() {
    for &kind in DirectiveKind::ALL {
        if kind.words().count() < 2 {
            continue;
        }
        let spaced = kind.words().collect::<Vec<_>>().join(" \t \\\n   ");
        let text = format!("#  pragma   omp   {spaced}");
        let d = parse(&text).directive.expect("directive");
        assert_eq!(d.kind, kind, "{text}");
    }
}

#[test]
fn longest_directive_name_wins() {
    let d = parse_ok("#pragma omp target teams distribute parallel for simd");
    assert_eq!(d.kind, DirectiveKind::TargetTeamsDistributeParallelForSimd);
    assert_eq!(
        d.kind.leaf_constructs(),
        &[
            Leaf::Target,
            Leaf::Teams,
            Leaf::Distribute,
            Leaf::Parallel,
            Leaf::For,
            Leaf::Simd
        ]
    );
    // `ordered` after `for` is a clause, not part of the name.
    let d = parse_ok("#pragma omp for ordered");
    assert_eq!(d.kind, DirectiveKind::For);
    assert_eq!(d.clauses[0].name(), "ordered");
    // `cancel for`: construct-type clause.
    let d = parse_ok("#pragma omp cancel for if(x)");
    assert_eq!(d.kind, DirectiveKind::Cancel);
    assert_eq!(d.clauses[0].name(), "for");
    let d = parse_ok("#pragma omp end declare target");
    assert_eq!(d.kind, DirectiveKind::EndDeclareTarget);
}

#[test]
fn offload_directive_table() {
    use DirectiveKind as K;
    let kernels = [
        K::Target,
        K::TargetParallel,
        K::TargetParallelFor,
        K::TargetParallelForSimd,
        K::TargetParallelLoop,
        K::TargetSimd,
        K::TargetTeams,
        K::TargetTeamsDistribute,
        K::TargetTeamsDistributeSimd,
        K::TargetTeamsDistributeParallelFor,
        K::TargetTeamsDistributeParallelForSimd,
        K::TargetTeamsLoop,
    ];
    for &k in DirectiveKind::ALL {
        assert_eq!(k.is_offload_kernel(), kernels.contains(&k), "{k}");
        assert_eq!(
            k.is_data_mapping(),
            matches!(
                k,
                K::TargetData | K::TargetEnterData | K::TargetExitData | K::TargetUpdate
            ),
            "{k}"
        );
        assert!(!k.leaf_constructs().is_empty());
    }
    for k in kernels {
        assert!(k.has_associated_statement());
        assert!(k.name().starts_with("target"));
        assert_eq!(k.leaf_constructs()[0], Leaf::Target);
    }
    assert!(K::TargetData.has_associated_statement());
    for k in [
        K::TargetEnterData,
        K::TargetExitData,
        K::TargetUpdate,
        K::Barrier,
        K::Taskwait,
        K::Taskyield,
        K::Flush,
        K::DeclareTarget,
        K::BeginDeclareTarget,
        K::EndDeclareTarget,
        K::Threadprivate,
        K::Requires,
        K::Cancel,
        K::CancellationPoint,
        K::Scan,
        K::Depobj,
        K::Error,
        K::DeclareSimd,
        K::DeclareReduction,
        K::DeclareMapper,
        K::DeclareVariant,
    ] {
        assert!(!k.has_associated_statement(), "{k}");
    }
    for k in [
        K::Parallel,
        K::ParallelFor,
        K::For,
        K::Teams,
        K::Critical,
        K::Atomic,
        K::Single,
        K::Master,
        K::Masked,
        K::Task,
        K::Sections,
        K::Section,
        K::Ordered,
        K::Simd,
        K::Loop,
        K::Taskloop,
        K::Taskgroup,
    ] {
        assert!(k.has_associated_statement(), "{k}");
        assert!(!k.is_declarative(), "{k}");
    }
    for k in [
        K::DeclareTarget,
        K::BeginDeclareTarget,
        K::EndDeclareTarget,
        K::DeclareSimd,
        K::DeclareReduction,
        K::DeclareMapper,
        K::DeclareVariant,
        K::Threadprivate,
        K::Requires,
    ] {
        assert!(k.is_declarative(), "{k}");
    }
    assert_eq!(
        K::TargetTeamsDistributeParallelForSimd.name(),
        "target teams distribute parallel for simd"
    );
    assert_eq!(K::TargetData.leaf_constructs(), &[Leaf::Data]);
}

#[test]
fn ordered_with_depend_is_standalone() {
    assert!(parse_ok("#pragma omp ordered").has_associated_statement());
    assert!(parse_ok("#pragma omp ordered simd").has_associated_statement());
    assert!(!parse_ok("#pragma omp ordered depend(source)").has_associated_statement());
    assert!(!parse_ok("#pragma omp ordered doacross(sink: i - 1)").has_associated_statement());
}

// ---------------------------------------------------------------------------
// Directive arguments

#[test]
fn declare_target_forms() {
    let d = parse_ok("#pragma omp declare target(a, b)");
    assert_eq!(d.kind, DirectiveKind::DeclareTarget);
    let names: Vec<_> = d.arguments.iter().map(|i| i.base.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert!(d.clauses.is_empty());

    let d = parse_ok("#pragma omp declare target");
    assert!(d.arguments.is_empty() && d.clauses.is_empty());

    let d = parse_ok(
        "#pragma omp declare target to(f, g) enter(x) link(big) device_type(nohost) indirect",
    );
    assert!(
        matches!(&d.clauses[0].kind, ClauseKind::To { modifiers, items } if modifiers.is_empty() && items.len() == 2)
    );
    assert!(matches!(&d.clauses[1].kind, ClauseKind::Enter(items) if items[0].base.name == "x"));
    assert!(matches!(&d.clauses[2].kind, ClauseKind::Link(items) if items[0].base.name == "big"));
    assert_eq!(
        d.clauses[3].kind,
        ClauseKind::DeviceType(DeviceType::Nohost)
    );
    assert_eq!(d.clauses[4].kind, ClauseKind::Indirect(None));

    for (text, t) in [
        ("host", DeviceType::Host),
        ("nohost", DeviceType::Nohost),
        ("any", DeviceType::Any),
    ] {
        assert_eq!(
            clause_on("declare target", &format!("device_type({text})")),
            ClauseKind::DeviceType(t)
        );
    }
    assert!(matches!(
        clause_on("declare target", "indirect(1)"),
        ClauseKind::Indirect(Some(_))
    ));
    let d = parse_ok("#pragma omp begin declare target device_type(host)");
    assert_eq!(d.kind, DirectiveKind::BeginDeclareTarget);
    assert_canonical(
        "#pragma omp declare target ( a ,b )",
        "#pragma omp declare target(a, b)",
    );
}

#[test]
fn list_and_name_arguments() {
    let d = parse_ok("#pragma omp threadprivate(x, y)");
    assert_eq!(d.arguments.len(), 2);
    let d = parse_ok("#pragma omp flush(a, s.f)");
    assert_eq!(d.arguments.len(), 2);
    assert_eq!(d.to_string(), "#pragma omp flush(a, s.f)");
    let d = parse_ok("#pragma omp flush acq_rel (a)");
    assert_eq!(d.clauses[0].name(), "acq_rel");
    assert_eq!(d.arguments[0].base.name, "a");
    assert_canonical(
        "#pragma omp flush acq_rel (a)",
        "#pragma omp flush acq_rel (a)",
    );
    let text = "#pragma omp critical(lock1) hint(omp_sync_hint_none)";
    let d = parse_ok(text);
    assert_eq!(d.arguments[0].base.name, "lock1");
    assert_eq!(d.arguments[0].span, span_of(text, "lock1"));
    assert!(d.arguments[0].is_plain_variable());
    assert_canonical(text, text);
    let d = parse_ok("#pragma omp depobj(o) update(in)");
    assert_eq!(d.arguments[0].base.name, "o");
}

#[test]
fn raw_arguments() {
    let text = "#pragma omp declare reduction(merge : std::vector<int> : omp_out.insert(omp_out.end(), omp_in.begin(), omp_in.end())) initializer(omp_priv = omp_orig)";
    let d = parse_ok(text);
    assert_eq!(d.kind, DirectiveKind::DeclareReduction);
    let (raw, span) = d.raw_argument.clone().expect("raw");
    assert!(raw.starts_with("merge : std::vector<int> : omp_out.insert("));
    assert_eq!(span, span_of(text, &raw));
    assert_canonical(text, text);

    let text = "#pragma omp declare mapper(id : struct S s) map(s.len, s.data[0:s.len])";
    let d = parse_ok(text);
    assert_eq!(
        d.raw_argument.as_ref().map(|r| r.0.as_str()),
        Some("id : struct S s")
    );
    assert_eq!(d.clauses[0].kind.items().len(), 2);
    assert_canonical(text, text);

    let d = parse_ok("#pragma omp declare variant(f_gpu) match(device={kind(gpu)})");
    assert_eq!(d.raw_argument.unwrap().0, "f_gpu");
    assert_eq!(
        d.clauses[0].kind,
        ClauseKind::Other {
            name: "match".into(),
            raw: Some("device={kind(gpu)}".into())
        }
    );
    // Comments and continuations inside a raw argument are normalised.
    let d = parse_ok("#pragma omp declare variant( f_gpu /* c */ ) match(x)");
    assert_eq!(d.raw_argument.unwrap().0, "f_gpu");
}

// ---------------------------------------------------------------------------
// Clauses

#[test]
fn map_clause_types_and_modifiers() {
    for t in MapType::ALL {
        let c = clause_on("target", &format!("map({t}: a)"));
        assert!(
            matches!(&c, ClauseKind::Map { map_type: Some(x), modifiers, items } if x == t && modifiers.is_empty() && items.len() == 1)
        );
        assert_eq!(c.to_string(), format!("map({t}: a)"));
    }
    let c = clause_on(
        "target",
        "map(always, close, present, mapper(custom), iterator(it = 0:n), tofrom: a[it])",
    );
    let ClauseKind::Map {
        modifiers,
        map_type,
        items,
    } = c
    else {
        panic!()
    };
    assert_eq!(map_type, Some(MapType::ToFrom));
    assert_eq!(modifiers.len(), 5);
    assert_eq!(modifiers[0], MapModifier::Always);
    assert_eq!(modifiers[1], MapModifier::Close);
    assert_eq!(modifiers[2], MapModifier::Present);
    assert_eq!(modifiers[3], MapModifier::Mapper("custom".into()));
    let MapModifier::Iterator(defs) = &modifiers[4] else {
        panic!()
    };
    assert_eq!(defs.len(), 1);
    assert_eq!(defs[0].name, "it");
    assert_eq!(defs[0].ty, None);
    assert_eq!(defs[0].begin.without_spans(), int("0"));
    assert_eq!(defs[0].end.without_spans(), ident("n"));
    assert_eq!(items.len(), 1);

    // Modifiers without commas, mapper(default), map type alone, no map type.
    let c = clause_on("target", "map(always close to: a)");
    assert!(
        matches!(c, ClauseKind::Map { ref modifiers, map_type: Some(MapType::To), .. } if modifiers.len() == 2)
    );
    let c = clause_on("target", "map(mapper(default), from: a)");
    assert!(
        matches!(c, ClauseKind::Map { ref modifiers, .. } if modifiers[0] == MapModifier::Mapper("default".into()))
    );
    let c = clause_on("target", "map(present: a)");
    assert!(
        matches!(c, ClauseKind::Map { ref modifiers, map_type: None, .. } if modifiers == &[MapModifier::Present])
    );
    let c = clause_on("target", "map(a, b)");
    assert!(
        matches!(c, ClauseKind::Map { ref modifiers, map_type: None, ref items } if modifiers.is_empty() && items.len() == 2)
    );
    let c = clause_on("target", "map(ompx_hold, to: a)");
    assert!(
        matches!(c, ClauseKind::Map { ref modifiers, .. } if modifiers == &[MapModifier::OmpxHold])
    );
    let c = clause_on(
        "target",
        "map(iterator(int i = 0:n:2, unsigned long j = 1:m), to: a[i][j])",
    );
    let ClauseKind::Map { modifiers, .. } = c else {
        panic!()
    };
    let MapModifier::Iterator(defs) = &modifiers[0] else {
        panic!()
    };
    assert_eq!(defs[0].ty.as_deref(), Some("int"));
    assert_eq!(
        defs[0].step.as_ref().map(|e| e.without_spans()),
        Some(int("2"))
    );
    assert_eq!(defs[1].ty.as_deref(), Some("unsigned long"));
    assert_eq!(defs[1].name, "j");
}

/// Tiny helper to keep a test expression readable.
trait Pipe: Sized {
    fn pipe<R>(self, f: impl FnOnce(Self) -> R) -> R {
        f(self)
    }
}
impl<T> Pipe for T {}

#[test]
fn motion_clauses() {
    let c = clause_on("target update", "to(present: x)");
    assert!(
        matches!(c, ClauseKind::To { ref modifiers, ref items } if modifiers == &[MotionModifier::Present] && items.len() == 1)
    );
    let c = clause_on("target update", "from(mapper(m), present: p->f[0:n])");
    assert!(
        matches!(c, ClauseKind::From { ref modifiers, .. } if modifiers == &[MotionModifier::Mapper("m".into()), MotionModifier::Present])
    );
    let c = clause_on("target update", "to(iterator(i = 0:n): a[i])");
    assert!(
        matches!(c, ClauseKind::To { ref modifiers, .. } if matches!(modifiers[0], MotionModifier::Iterator(_)))
    );
    let c = clause_on("target update", "from(a, b[1:2])");
    assert!(
        matches!(c, ClauseKind::From { ref modifiers, ref items } if modifiers.is_empty() && items.len() == 2)
    );
    assert_canonical(
        "#pragma omp target update to(present:x) from( mapper(m) present : y)",
        "#pragma omp target update to(present: x) from(mapper(m), present: y)",
    );
}

#[test]
fn list_clauses() {
    type Check = fn(&ClauseKind) -> bool;
    let cases: &[(&str, &str, Check)] = &[
        (
            "target",
            "private(a, b)",
            |c| matches!(c, ClauseKind::Private(v) if v.len() == 2),
        ),
        ("target", "firstprivate(a)", |c| {
            matches!(c, ClauseKind::Firstprivate(_))
        }),
        ("parallel", "shared(a)", |c| {
            matches!(c, ClauseKind::Shared(_))
        }),
        ("target", "is_device_ptr(p)", |c| {
            matches!(c, ClauseKind::IsDevicePtr(_))
        }),
        ("target", "has_device_addr(x)", |c| {
            matches!(c, ClauseKind::HasDeviceAddr(_))
        }),
        ("target data", "use_device_ptr(p)", |c| {
            matches!(c, ClauseKind::UseDevicePtr(_))
        }),
        ("target data", "use_device_addr(x[0:1])", |c| {
            matches!(c, ClauseKind::UseDeviceAddr(_))
        }),
        ("for", "lastprivate(x)", |c| {
            matches!(
                c,
                ClauseKind::Lastprivate {
                    conditional: false,
                    ..
                }
            )
        }),
        ("for", "lastprivate(conditional: x)", |c| {
            matches!(
                c,
                ClauseKind::Lastprivate {
                    conditional: true,
                    ..
                }
            )
        }),
    ];
    for (dir, clause, check) in cases {
        let c = clause_on(dir, clause);
        assert!(check(&c), "{clause}: {c:?}");
        assert_eq!(c.to_string(), *clause);
    }
}

#[test]
fn reduction_clauses() {
    let ops = [
        ("+", ReductionOp::Add),
        ("*", ReductionOp::Mul),
        ("-", ReductionOp::Sub),
        ("&", ReductionOp::BitAnd),
        ("|", ReductionOp::BitOr),
        ("^", ReductionOp::BitXor),
        ("&&", ReductionOp::And),
        ("||", ReductionOp::Or),
        ("max", ReductionOp::Max),
        ("min", ReductionOp::Min),
        ("my_op", ReductionOp::Custom("my_op".into())),
        ("ns::op", ReductionOp::Custom("ns::op".into())),
    ];
    for (text, op) in ops {
        let c = clause_on("parallel for", &format!("reduction({text}: s)"));
        assert!(
            matches!(&c, ClauseKind::Reduction { modifier: None, op: o, items } if *o == op && items[0].base.name == "s"),
            "{c:?}"
        );
        assert_eq!(c.to_string(), format!("reduction({text}: s)"));
    }
    for m in ReductionModifier::ALL {
        let c = clause_on("parallel for", &format!("reduction({m}, +: s)"));
        assert!(matches!(c, ClauseKind::Reduction { modifier: Some(x), .. } if x == *m));
    }
    let c = clause_on("task", "in_reduction(+: x)");
    assert!(matches!(
        c,
        ClauseKind::InReduction {
            op: ReductionOp::Add,
            ..
        }
    ));
    let c = clause_on("target", "in_reduction(max: x)");
    assert!(matches!(
        c,
        ClauseKind::InReduction {
            op: ReductionOp::Max,
            ..
        }
    ));
    let c = clause_on("taskgroup", "task_reduction(*: x, y)");
    assert!(
        matches!(c, ClauseKind::TaskReduction { op: ReductionOp::Mul, ref items } if items.len() == 2)
    );
    // Combined: reduction comes from `teams`.
    parse_ok("#pragma omp target teams reduction(+: s)");
}

#[test]
fn defaultmap_and_default() {
    for b in DefaultmapBehavior::ALL {
        let c = clause_on("target", &format!("defaultmap({b})"));
        assert_eq!(
            c,
            ClauseKind::Defaultmap {
                behavior: *b,
                category: None
            }
        );
        for cat in DefaultmapCategory::ALL {
            let c = clause_on("target", &format!("defaultmap({b}: {cat})"));
            assert_eq!(
                c,
                ClauseKind::Defaultmap {
                    behavior: *b,
                    category: Some(*cat)
                }
            );
            assert_eq!(c.to_string(), format!("defaultmap({b}: {cat})"));
        }
    }
    for k in DefaultKind::ALL {
        assert_eq!(
            clause_on("parallel", &format!("default({k})")),
            ClauseKind::Default(*k)
        );
    }
    // On metadirective, `default` holds a directive variant.
    let d = parse_ok(
        "#pragma omp metadirective when(device={arch(nvptx)}: teams loop) default(parallel for)",
    );
    assert_eq!(
        d.clauses[1].kind,
        ClauseKind::Other {
            name: "default".into(),
            raw: Some("parallel for".into())
        }
    );
}

#[test]
fn depend_and_doacross() {
    for k in DependKind::ALL {
        let c = clause_on("task", &format!("depend({k}: a[0:n], b)"));
        assert!(
            matches!(&c, ClauseKind::Depend { kind, iterator: None, items } if kind == k && items.len() == 2)
        );
        assert_eq!(c.to_string(), format!("depend({k}: a[0:n], b)"));
    }
    let c = clause_on("target", "depend(iterator(i = 0:n), in: a[i])");
    assert!(matches!(&c, ClauseKind::Depend { iterator: Some(defs), .. } if defs[0].name == "i"));
    assert_eq!(c.to_string(), "depend(iterator(i = 0:n), in: a[i])");
    let c = clause_on("target", "depend(inout: omp_all_memory)");
    assert!(matches!(
        c,
        ClauseKind::Depend {
            kind: DependKind::Inout,
            ..
        }
    ));

    let c = clause_on("ordered", "depend(source)");
    assert_eq!(
        c,
        ClauseKind::Doacross {
            kind: DoacrossKind::Source,
            vector: vec![],
            legacy_depend: true
        }
    );
    assert_eq!(c.name(), "depend");
    assert_eq!(c.to_string(), "depend(source)");
    let c = clause_on("ordered", "depend(sink: i-1, j)");
    assert!(
        matches!(&c, ClauseKind::Doacross { kind: DoacrossKind::Sink, vector, legacy_depend: true } if vector.len() == 2)
    );
    assert_eq!(c.to_string(), "depend(sink: i - 1, j)");
    let c = clause_on("ordered", "doacross(source:)");
    assert_eq!(c.to_string(), "doacross(source:)");
    assert_eq!(c.name(), "doacross");
    let c = clause_on("ordered", "doacross(source: omp_cur_iteration)");
    assert_eq!(c.to_string(), "doacross(source: omp_cur_iteration)");
    let c = clause_on("ordered", "doacross(sink: i - 1)");
    assert!(matches!(
        c,
        ClauseKind::Doacross {
            kind: DoacrossKind::Sink,
            legacy_depend: false,
            ..
        }
    ));
}

#[test]
fn expression_clauses() {
    let c = clause_on("target", "device(2)");
    assert!(matches!(c, ClauseKind::Device { modifier: None, .. }));
    let c = clause_on("target", "device(ancestor: 1)");
    assert!(matches!(
        c,
        ClauseKind::Device {
            modifier: Some(DeviceModifier::Ancestor),
            ..
        }
    ));
    let c = clause_on("target", "device(device_num: d + 1)");
    assert!(matches!(
        c,
        ClauseKind::Device {
            modifier: Some(DeviceModifier::DeviceNum),
            ..
        }
    ));
    assert_eq!(c.to_string(), "device(device_num: d + 1)");

    let c = clause_on("target", "if(n > 10)");
    assert!(matches!(c, ClauseKind::If { modifier: None, .. }));
    for m in [
        "target",
        "target data",
        "target enter data",
        "target update",
        "parallel",
        "simd",
    ] {
        let dir = if m.starts_with("target ") {
            m
        } else {
            "target parallel for simd"
        };
        let c = clause_on(dir, &format!("if({m}: n > 10)"));
        assert!(
            matches!(&c, ClauseKind::If { modifier: Some(x), .. } if x == m),
            "{c:?}"
        );
        assert_eq!(c.to_string(), format!("if({m}: n > 10)"));
    }
    let c = clause_on("target", "if(a ? b : c)");
    assert!(matches!(c, ClauseKind::If { modifier: None, .. }));

    assert!(matches!(
        clause_on("for", "collapse(2)"),
        ClauseKind::Collapse(_)
    ));
    assert!(matches!(
        clause_on("teams", "num_teams(n / 2)"),
        ClauseKind::NumTeams(_)
    ));
    assert!(matches!(
        clause_on("target", "thread_limit(64)"),
        ClauseKind::ThreadLimit(_)
    ));
    assert!(matches!(
        clause_on("parallel", "num_threads(8)"),
        ClauseKind::NumThreads(_)
    ));
    // The 5.1 lower-bound form is kept raw.
    assert_eq!(
        clause_on("teams", "num_teams(4: 8)"),
        ClauseKind::Other {
            name: "num_teams".into(),
            raw: Some("4: 8".into())
        }
    );
}

#[test]
fn schedule_clauses() {
    let c = clause_on("for", "schedule(static, 4)");
    assert!(
        matches!(c, ClauseKind::Schedule { ref modifiers, kind: ScheduleKind::Static, chunk: Some(_) } if modifiers.is_empty())
    );
    assert_eq!(c.to_string(), "schedule(static, 4)");
    for k in ScheduleKind::ALL {
        let c = clause_on("for", &format!("schedule({k})"));
        assert!(matches!(c, ClauseKind::Schedule { kind, chunk: None, .. } if kind == *k));
    }
    let c = clause_on("for", "schedule(monotonic, simd: dynamic, n)");
    assert!(
        matches!(c, ClauseKind::Schedule { ref modifiers, kind: ScheduleKind::Dynamic, .. } if modifiers == &[ScheduleModifier::Monotonic, ScheduleModifier::Simd])
    );
    assert_eq!(c.to_string(), "schedule(monotonic, simd: dynamic, n)");
    let c = clause_on("for", "schedule(nonmonotonic: guided)");
    assert!(
        matches!(c, ClauseKind::Schedule { ref modifiers, .. } if modifiers == &[ScheduleModifier::Nonmonotonic])
    );
    let c = clause_on("for", "schedule(static, n > 4 ? 2 : 1)");
    assert!(matches!(c, ClauseKind::Schedule { chunk: Some(_), .. }));
    let c = clause_on("distribute", "dist_schedule(static, 16)");
    assert!(matches!(
        c,
        ClauseKind::DistSchedule {
            kind: ScheduleKind::Static,
            chunk: Some(_)
        }
    ));
    let c = clause_on("distribute", "dist_schedule(static)");
    assert_eq!(c.to_string(), "dist_schedule(static)");
}

#[test]
fn nowait_and_other_clauses() {
    assert_eq!(clause_on("target", "nowait"), ClauseKind::Nowait);
    let d = parse_ok(
        "#pragma omp target parallel for simd proc_bind(close) linear(i:1) aligned(p:64) safelen(8) simdlen(4) order(concurrent) allocate(x) uses_allocators(omp_default_mem_alloc) ompx_bare",
    );
    let names: Vec<_> = d.clauses.iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        [
            "proc_bind",
            "linear",
            "aligned",
            "safelen",
            "simdlen",
            "order",
            "allocate",
            "uses_allocators",
            "ompx_bare"
        ]
    );
    assert_eq!(
        d.clauses[1].kind,
        ClauseKind::Other {
            name: "linear".into(),
            raw: Some("i:1".into())
        }
    );
    let d = parse_ok(
        "#pragma omp task untied mergeable final(x > 1) priority(2) detach(ev) affinity(a)",
    );
    assert_eq!(
        d.clauses[0].kind,
        ClauseKind::Other {
            name: "untied".into(),
            raw: None
        }
    );
    assert_eq!(
        d.to_string(),
        "#pragma omp task untied mergeable final(x > 1) priority(2) detach(ev) affinity(a)"
    );
    parse_ok("#pragma omp atomic capture seq_cst hint(0)");
    parse_ok("#pragma omp atomic compare fail(relaxed) weak");
    parse_ok("#pragma omp taskloop grainsize(strict: 4) nogroup in_reduction(+: s)");
    parse_ok("#pragma omp masked filter(0)");
    parse_ok("#pragma omp scan inclusive(x)");
    parse_ok("#pragma omp tile sizes(4, 4)");
    parse_ok("#pragma omp unroll partial(2)");
    parse_ok("#pragma omp unroll full");
    parse_ok("#pragma omp error at(compilation) severity(warning) message(\"not yet\")");
    parse_ok("#pragma omp requires unified_shared_memory atomic_default_mem_order(seq_cst)");
    parse_ok("#pragma omp assume holds(n > 0) no_parallelism");
    parse_ok("#pragma omp interop init(targetsync: obj) device(0) nowait");
    parse_ok("#pragma omp target teams ompx_attribute(__launch_bounds__(128))");
}

#[test]
fn clauses_may_be_separated_by_commas() {
    let d = parse_ok("#pragma omp target map(to: a), nowait,device(1)");
    assert_eq!(d.clauses.len(), 3);
    assert_eq!(
        d.to_string(),
        "#pragma omp target map(to: a) nowait device(1)"
    );
}

// ---------------------------------------------------------------------------
// List items

#[test]
fn list_item_shapes() {
    let a = item("a");
    assert_eq!(a.base.name, "a");
    assert!(a.path.is_empty() && a.is_plain_variable());

    let s = item("s.f");
    assert!(matches!(&s.path[..], [Accessor::Member { name, arrow: false }] if name.name == "f"));
    let p = item("p->f");
    assert!(matches!(
        &p.path[..],
        [Accessor::Member { arrow: true, .. }]
    ));

    let sec = item("a[lo:len]");
    let [Accessor::Section {
        lower: Some(lo),
        length: Some(len),
        stride: None,
        ..
    }] = &sec.path[..]
    else {
        panic!("{sec:?}")
    };
    assert_eq!(lo.without_spans(), ident("lo"));
    assert_eq!(len.without_spans(), ident("len"));

    assert!(matches!(
        &item("a[:len]").path[..],
        [Accessor::Section {
            lower: None,
            length: Some(_),
            stride: None,
            ..
        }]
    ));
    assert!(matches!(
        &item("a[lo:]").path[..],
        [Accessor::Section {
            lower: Some(_),
            length: None,
            stride: None,
            ..
        }]
    ));
    assert!(matches!(
        &item("a[:]").path[..],
        [Accessor::Section {
            lower: None,
            length: None,
            stride: None,
            ..
        }]
    ));
    assert!(matches!(&item("a[i]").path[..], [Accessor::Index(_)]));
    assert!(matches!(
        &item("a[lo:len:stride]").path[..],
        [Accessor::Section {
            lower: Some(_),
            length: Some(_),
            stride: Some(_),
            ..
        }]
    ));
    assert!(matches!(
        &item("a[::2]").path[..],
        [Accessor::Section {
            lower: None,
            length: None,
            stride: Some(_),
            ..
        }]
    ));
    assert!(matches!(
        &item("a[1::2]").path[..],
        [Accessor::Section {
            lower: Some(_),
            length: None,
            stride: Some(_),
            ..
        }]
    ));

    let deep = item("p->f[0:n][0:m]");
    assert_eq!(deep.path.len(), 3);
    assert_eq!(deep.sections().count(), 2);
    assert!(deep.has_sections());
    assert_eq!(deep.last_name().name, "f");
    let m = item("m[0:n][0:k]");
    assert_eq!(m.sections().count(), 2);

    let mixed = item("s.arr[i].data[0:n]");
    assert_eq!(mixed.path.len(), 4);
    assert_eq!(mixed.to_string(), "s.arr[i].data[0:n]");

    let d = item("*p");
    assert!(d.deref && d.path.is_empty());
    assert_eq!(d.to_string(), "*p");
    let d = item("*p->q");
    assert!(d.deref);
    assert_eq!(d.path.len(), 1);

    let q = item("ns::x[0:n]");
    assert_eq!(q.base.name, "ns::x");
    let t = item("this->data[0:size]");
    assert_eq!(t.base.name, "this");

    // Expressions inside subscripts.
    let e = item("a[i + 1:n * 2]");
    assert_eq!(e.to_string(), "a[i + 1:n * 2]");
    let e = item("a[c ? 1 : 2:n]");
    assert_eq!(e.to_string(), "a[c ? 1 : 2:n]");
    let e = item("a[f(x, y)][b[i]]");
    assert_eq!(e.to_string(), "a[f(x, y)][b[i]]");
}

#[test]
fn list_item_and_clause_spans() {
    let text = "#pragma omp target map(always, to: p->f[0:n][0:m], s.f) nowait";
    let d = parse_ok(text);
    assert_eq!(d.span, span_of(text, text));
    assert_eq!(d.name_span, span_of(text, "target"));
    let map = &d.clauses[0];
    assert_eq!(
        map.span,
        span_of(text, "map(always, to: p->f[0:n][0:m], s.f)")
    );
    assert_eq!(map.name_span, span_of(text, "map"));
    let items = map.kind.items();
    assert_eq!(items[0].span, span_of(text, "p->f[0:n][0:m]"));
    assert_eq!(
        items[0].base.span,
        span_of(text, "p->").pipe(|s| Span::new(s.start, s.start + 1))
    );
    let Accessor::Member { name, .. } = &items[0].path[0] else {
        panic!()
    };
    assert_eq!(
        name.span,
        span_of(text, "f[").pipe(|s| Span::new(s.start, s.start + 1))
    );
    assert_eq!(name.span.len(), 1);
    let Accessor::Section {
        span,
        lower,
        length,
        ..
    } = &items[0].path[2]
    else {
        panic!()
    };
    assert_eq!(*span, span_of(text, "[0:m]"));
    assert_eq!(lower.as_ref().unwrap().span, span_of_nth(text, "0", 1));
    assert_eq!(
        length.as_ref().unwrap().span,
        span_of(text, "m]").pipe(|s| Span::new(s.start, s.start + 1))
    );
    assert_eq!(items[1].span, span_of(text, "s.f"));
    assert_eq!(d.clauses[1].span, span_of(text, "nowait"));
}

#[test]
fn spans_across_continuations() {
    let text = "#pragma omp target \\\n    teams \\\r\n  map(to: a[0:n])  // trailing";
    let d = parse_ok(text);
    assert_eq!(d.kind, DirectiveKind::TargetTeams);
    assert_eq!(d.name_span.start, span_of(text, "target").start);
    assert_eq!(d.name_span.end, span_of(text, "teams").end);
    assert_eq!(d.clauses[0].span, span_of(text, "map(to: a[0:n])"));
    // The directive span stops before the trailing comment.
    assert_eq!(d.span.end, span_of(text, "map(to: a[0:n])").end);
    assert_eq!(d.span.start, BASE);

    // A continuation inside a word splices it.
    let text = "#pragma omp tar\\\nget ma\\\np(a)";
    let d = parse_ok(text);
    assert_eq!(d.kind, DirectiveKind::Target);
    assert_eq!(d.name_span, span_of(text, "tar\\\nget"));
    assert_eq!(d.clauses[0].name_span, span_of(text, "ma\\\np"));

    // A continuation right at the end of the text.
    let d = parse_ok("#pragma omp target nowait \\");
    assert_eq!(d.clauses.len(), 1);
    let d = parse_ok("#pragma omp target nowait\\");
    assert_eq!(d.clauses.len(), 1);
}

#[test]
fn expression_spans() {
    let text = "#pragma omp target if(target: (size_t)n * sizeof(double) > 10)";
    let d = parse_ok(text);
    let ClauseKind::If { expr, modifier } = &d.clauses[0].kind else {
        panic!()
    };
    assert_eq!(modifier.as_deref(), Some("target"));
    assert_eq!(expr.span, span_of(text, "(size_t)n * sizeof(double) > 10"));
    let ExprKind::Binary(BinaryOp::Gt, lhs, _) = &expr.kind else {
        panic!("{expr:?}")
    };
    assert_eq!(lhs.span, span_of(text, "(size_t)n * sizeof(double)"));
    let ExprKind::Binary(BinaryOp::Mul, cast, size) = &lhs.kind else {
        panic!()
    };
    assert_eq!(cast.span, span_of(text, "(size_t)n"));
    assert_eq!(size.span, span_of(text, "sizeof(double)"));
    assert!(matches!(&size.kind, ExprKind::Sizeof(SizeofArg::Type(t)) if t == "double"));
}

// ---------------------------------------------------------------------------
// Expressions

#[test]
fn expression_precedence() {
    use BinaryOp::*;
    assert_eq!(
        expr("a + b * c").without_spans(),
        bin(Add, ident("a"), bin(Mul, ident("b"), ident("c")))
    );
    assert_eq!(
        expr("a - b - c").without_spans(),
        bin(Sub, bin(Sub, ident("a"), ident("b")), ident("c"))
    );
    assert_eq!(
        expr("a || b && c | d ^ e & f == g < h << i + j * k").to_string(),
        "a || b && c | d ^ e & f == g < h << i + j * k"
    );
    let e = expr("a || b && c");
    assert!(matches!(e.kind, ExprKind::Binary(Or, _, _)));
    let e = expr("a < b == c");
    assert!(matches!(e.kind, ExprKind::Binary(Eq, _, _)));
    let e = expr("a ? b : c ? d : e");
    let ExprKind::Ternary(_, _, else_) = &e.kind else {
        panic!()
    };
    assert!(matches!(else_.kind, ExprKind::Ternary(..)));
    let e = expr("(a + b) * c");
    let ExprKind::Binary(Mul, l, _) = &e.kind else {
        panic!()
    };
    assert!(matches!(l.kind, ExprKind::Paren(_)));
    assert_eq!(e.to_string(), "(a + b) * c");
}

#[test]
fn expression_forms() {
    let cases = [
        ("-x", "-x"),
        ("- -x", "- -x"),
        ("-(-x)", "-(-x)"),
        ("!x", "!x"),
        ("~x", "~x"),
        ("*p", "*p"),
        ("&x", "&x"),
        ("++i", "++i"),
        ("i--", "i--"),
        ("f()", "f()"),
        ("f(a,b)", "f(a, b)"),
        ("a[i][j]", "a[i][j]"),
        ("s.f", "s.f"),
        ("p->f->g", "p->f->g"),
        ("(int)x", "(int)x"),
        ("(unsigned long)x", "(unsigned long)x"),
        ("(double*)p", "(double *)p"),
        ("(const char **)p", "(const char **)p"),
        ("(struct s *)p", "(struct s *)p"),
        ("(T)x", "(T)x"),
        ("(int)-x", "(int)-x"),
        ("sizeof(double)", "sizeof(double)"),
        ("sizeof(x)", "sizeof(x)"),
        ("sizeof x", "sizeof x"),
        ("sizeof(size_t) * n", "sizeof(size_t) * n"),
        ("sizeof a[0]", "sizeof a[0]"),
        ("0x1F", "0x1F"),
        ("100UL", "100UL"),
        ("1.5e-3f", "1.5e-3f"),
        ("'a'", "'a'"),
        ("L'a'", "L'a'"),
        ("\"s\" \"t\"", "\"s\" \"t\""),
        ("std::max(a, b)", "std::max(a, b)"),
        ("(f)(x)", "(f)(x)"),
        ("(a) - b", "(a) - b"),
        ("a ? b : c", "a ? b : c"),
    ];
    for (input, printed) in cases {
        let e = expr(input);
        assert_eq!(e.to_string(), printed, "{input}");
        let again = expr(printed);
        assert_eq!(again.without_spans(), e.without_spans(), "{input}");
    }
    assert!(matches!(expr("0x1F").kind, ExprKind::Int(_)));
    assert!(matches!(expr("1.5").kind, ExprKind::Float(_)));
    assert!(matches!(expr("1e5").kind, ExprKind::Float(_)));
    assert!(matches!(expr("0x1p3").kind, ExprKind::Float(_)));
    assert!(matches!(expr("(T)x").kind, ExprKind::Cast(ref t, _) if t == "T"));
    assert!(matches!(expr("(f)(x)").kind, ExprKind::Call(..)));
    assert!(matches!(expr("(a) - b").kind, ExprKind::Binary(..)));
    assert!(matches!(
        expr("sizeof(x)").kind,
        ExprKind::Sizeof(SizeofArg::Expr(_))
    ));
    assert!(matches!(expr("(size_t)n").kind, ExprKind::Cast(ref t, _) if t == "size_t"));
    assert!(matches!(
        expr("i--").kind,
        ExprKind::Unary(UnaryOp::PostDec, _)
    ));
}

#[test]
fn display_adds_needed_parentheses() {
    use BinaryOp::*;
    let e = bin(Mul, bin(Add, ident("a"), ident("b")), ident("c"));
    assert_eq!(e.to_string(), "(a + b) * c");
    let e = bin(Sub, ident("a"), bin(Sub, ident("b"), ident("c")));
    assert_eq!(e.to_string(), "a - (b - c)");
    let neg = |e: Expr| Expr::new(ExprKind::Unary(UnaryOp::Neg, Box::new(e)), Span::default());
    assert_eq!(neg(neg(ident("x"))).to_string(), "- -x");
    assert_eq!(neg(bin(Add, ident("a"), int("1"))).to_string(), "-(a + 1)");
    let member = Expr::new(
        ExprKind::Member(Box::new(int("1")), "x".into(), false),
        Span::default(),
    );
    assert_eq!(member.to_string(), "1 .x");
    assert_eq!(expr("1 .x").without_spans(), member);
    assert_eq!(expr("0x1e ++").to_string(), "0x1e ++");
    assert_eq!(expr("0(x)").to_string(), "0(x)");
}

#[test]
fn nesting_depth_is_capped() {
    let ok = format!(
        "#pragma omp target if({}x{})",
        "(".repeat(100),
        ")".repeat(100)
    );
    parse_ok(&ok);
    let deep = format!(
        "#pragma omp target if({}x{}) nowait",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let r = parse(&deep);
    let d = r.directive.expect("directive");
    assert_eq!(d.clauses.len(), 1, "nowait survives");
    assert!(
        r.diagnostics[0].message.contains("nested too deeply"),
        "{:?}",
        r.diagnostics
    );
    let deep = format!("#pragma omp target if({}x)", "-".repeat(5000));
    assert!(parse(&deep).has_errors());
    let deep = format!("#pragma omp target map(a{})", "[b".repeat(3000));
    assert!(parse(&deep).has_errors());
    let deep = format!("#pragma omp target if(a{})", " ? b : c".repeat(3000));
    assert!(parse(&deep).has_errors());
}

// ---------------------------------------------------------------------------
// Diagnostics

#[test]
fn unknown_clause_with_suggestion() {
    let text = "#pragma omp target mapp(to: a) nowait";
    let r = parse(text);
    let d = r.directive.as_ref().expect("directive");
    assert_eq!(d.clauses.len(), 1);
    assert_eq!(d.clauses[0].kind, ClauseKind::Nowait);
    let e = only_error(text);
    assert_eq!(e.span, span_of(text, "mapp"));
    assert_eq!(
        e.message,
        "unknown clause `mapp` on `target`; did you mean `map`?"
    );
    let e = only_error("#pragma omp target frobnicate");
    assert_eq!(e.message, "unknown clause `frobnicate` on `target`");
    let e = only_error("#pragma omp target firstprivat(a)");
    assert!(
        e.message.ends_with("did you mean `firstprivate`?"),
        "{}",
        e.message
    );
}

#[test]
fn missing_close_paren() {
    let text = "#pragma omp target map(to: a";
    let r = parse(text);
    let e = only_error(text);
    assert_eq!(e.message, "expected `)` to close `map(`");
    let end = BASE + text.len() as u32;
    assert_eq!(e.span, Span::new(end, end));
    // The clause is kept.
    let d = r.directive.unwrap();
    assert_eq!(d.clauses.len(), 1);
    assert_eq!(d.clauses[0].kind.items().len(), 1);

    let text = "#pragma omp target map(to: a nowait";
    let r = parse(text);
    let e = only_error(text);
    assert_eq!(e.message, "expected `)` to close `map(`, found `nowait`");
    let at = span_of(text, "a nowait").start + 1;
    assert_eq!(e.span, Span::new(at, at));
    assert_eq!(r.directive.unwrap().clauses.len(), 2);

    let text = "#pragma omp target map(to: a b) nowait";
    let r = parse(text);
    let e = only_error(text);
    assert_eq!(e.message, "expected `,` or `)` after list item, found `b`");
    assert_eq!(e.span, span_of(text, "b"));
    let d = r.directive.unwrap();
    assert_eq!(d.clauses.len(), 1);
    assert_eq!(d.clauses[0].kind, ClauseKind::Nowait);

    let e = only_error("#pragma omp target device(1");
    assert_eq!(e.message, "expected `)` to close `device(`");
}

#[test]
fn bad_map_type_and_modifier() {
    let text = "#pragma omp target map(tofro: a) nowait";
    let r = parse(text);
    let e = only_error(text);
    assert_eq!(e.span, span_of(text, "tofro"));
    assert_eq!(
        e.message,
        "unknown map type `tofro`; expected one of to, from, tofrom, alloc, release, delete"
    );
    assert_eq!(r.directive.unwrap().clauses.len(), 1);

    let text = "#pragma omp target map(alway, to: a)";
    let e = only_error(text);
    assert_eq!(e.span, span_of(text, "alway"));
    assert!(
        e.message.starts_with("unknown map-type modifier `alway`"),
        "{}",
        e.message
    );

    let e = only_error("#pragma omp target map(to, from: a)");
    assert_eq!(e.message, "more than one map type in `map`");

    let text = "#pragma omp target update to(presnt: x)";
    let e = only_error(text);
    assert_eq!(e.span, span_of(text, "presnt"));
    assert!(e.message.starts_with("unknown motion modifier `presnt`"));

    let r = parse("#pragma omp target map(always, always, to: a)");
    assert!(!r.has_errors());
    assert_eq!(r.diagnostics[0].severity, Severity::Warning);
}

#[test]
fn missing_list_item() {
    for text in ["#pragma omp target map(to:)", "#pragma omp target map()"] {
        let e = only_error(text);
        assert_eq!(e.message, "expected a list item, found `)`", "{text}");
        assert_eq!(e.span, span_of(text, ")"));
    }
    let e = only_error("#pragma omp target map(to: a,)");
    assert_eq!(e.message, "expected a list item, found `)`");
    let e = only_error("#pragma omp target firstprivate(1)");
    assert_eq!(e.message, "expected a list item, found `1`");
    let e = only_error("#pragma omp target map");
    assert_eq!(
        e.message,
        "clause `map` requires an argument in parentheses"
    );
}

#[test]
fn bad_sections() {
    parse_ok("#pragma omp target map(a[0:])");
    let text = "#pragma omp target map(a[0:n) nowait";
    let e = only_error(text);
    assert_eq!(e.message, "expected `]` to close `[`, found `)`");
    assert_eq!(e.span, span_of(text, ")"));
    let text = "#pragma omp target map(to: a[0:n";
    let e = only_error(text);
    assert_eq!(e.message, "expected `]` to close `[`");
    let end = BASE + text.len() as u32;
    assert_eq!(e.span, Span::new(end, end));
    let e = only_error("#pragma omp target map(to: a[])");
    assert_eq!(e.message, "expected an index or array section, found `]`");
    let e = only_error("#pragma omp target map(to: a[0:n:])");
    assert_eq!(e.message, "expected a stride expression, found `]`");
    let e = only_error("#pragma omp target map(to: a[");
    assert_eq!(
        e.message,
        "expected an index or array section, found end of pragma"
    );
}

#[test]
fn clause_not_allowed() {
    let cases = [
        ("target update", "map(to: a)", "map"),
        ("target data", "to(a)", "to"),
        ("target data", "nowait", "nowait"),
        ("target enter data", "map(to: a) from(b)", "from"),
        ("parallel for", "nowait", "nowait"),
        ("teams distribute parallel for", "nowait", "nowait"),
        ("target", "schedule(static)", "schedule"),
        ("end declare target", "nowait", "nowait"),
        ("declare target", "map(a)", "map"),
    ];
    for (dir, clauses, bad) in cases {
        let text = format!("#pragma omp {dir} {clauses}");
        let r = parse(&text);
        let e = only_error(&text);
        assert_eq!(
            e.message,
            format!("clause `{bad}` is not allowed on `{dir}`")
        );
        assert_eq!(e.span, span_of(&text, bad));
        // The clause is still parsed and kept.
        assert!(r.directive.unwrap().has_clause(bad));
    }
    // Allowed through a leaf of a combined construct.
    parse_ok("#pragma omp target teams distribute parallel for simd map(a) num_teams(4) thread_limit(8) dist_schedule(static) num_threads(2) schedule(static) safelen(4) reduction(+: s) collapse(2) nowait");
    parse_ok("#pragma omp target enter data map(to: a) depend(in: a) nowait if(n) device(0)");
    parse_ok("#pragma omp target exit data map(from: a) depend(out: a) nowait");
    parse_ok("#pragma omp target update to(a) from(b) depend(inout: c) nowait if(target update: n) device(1)");
    parse_ok("#pragma omp target data map(a) use_device_ptr(p) use_device_addr(x) if(n) device(0)");
    assert!(clause_allowed(DirectiveKind::Target, "ompx_anything"));
    assert!(is_known_clause("map") && !is_known_clause("mapp"));
    assert!(known_clauses().any(|c| c == "use_device_addr"));
}

#[test]
fn unknown_or_missing_directive() {
    let text = "#pragma omp targ";
    let r = parse(text);
    assert!(r.directive.is_none());
    let e = only_error(text);
    assert_eq!(
        e.message,
        "unknown OpenMP directive `targ`; did you mean `target`?"
    );
    assert_eq!(e.span, span_of(text, "targ"));

    let text = "#pragma omp frobnicate map(a)";
    let e = only_error(text);
    assert_eq!(e.message, "unknown OpenMP directive `frobnicate`");
    assert_eq!(e.span, span_of(text, "frobnicate"));

    let text = "#pragma omp end";
    let e = only_error(text);
    assert_eq!(
        e.message,
        "unknown OpenMP directive `end`; did you mean `end declare target`?"
    );

    let text = "#pragma omp declare targt";
    let e = only_error(text);
    assert_eq!(e.span, span_of(text, "declare"));

    for text in ["#pragma omp", "#pragma omp   ", "#pragma omp // comment"] {
        let r = parse(text);
        assert!(r.directive.is_none());
        let e = only_error(text);
        assert_eq!(
            e.message,
            "expected an OpenMP directive name after `#pragma omp`"
        );
        let at = BASE + "#pragma omp".len() as u32;
        assert_eq!(e.span, Span::new(at, at));
    }
    let e = only_error("#pragma omp (");
    assert_eq!(
        e.message,
        "expected an OpenMP directive name after `#pragma omp`, found `(`"
    );
    let e = only_error("#pragma once");
    assert_eq!(e.message, "expected `omp` after `#pragma`, found `once`");
    let e = only_error("");
    assert_eq!(e.message, "expected `#pragma omp`, found end of pragma");
    let e = only_error("int x;");
    assert_eq!(e.message, "expected `#pragma omp`, found `int`");
}

#[test]
fn half_typed_pragmas() {
    let r = parse("#pragma omp target map(");
    assert_eq!(r.directive.unwrap().kind, DirectiveKind::Target);
    assert_eq!(r.diagnostics.len(), 1);
    assert_eq!(
        r.diagnostics[0].message,
        "expected a list item, found end of pragma"
    );

    let r = parse("#pragma omp target teams distribute parallel");
    let d = r.directive.unwrap();
    assert_eq!(d.kind, DirectiveKind::TargetTeamsDistribute);
    assert!(r.diagnostics[0].message.contains("`parallel`"));

    let r = parse("#pragma omp target map(to: a) )");
    assert_eq!(r.directive.unwrap().clauses.len(), 1);
    assert_eq!(
        r.diagnostics[0].message,
        "expected an OpenMP clause, found `)`"
    );

    let text = "#pragma omp target 1 2 3 nowait";
    let r = parse(text);
    assert_eq!(r.directive.unwrap().clauses.len(), 1);
    let e = only_error(text);
    assert_eq!(e.span, span_of(text, "1 2 3"));

    let text = "#pragma omp target ∑ é nowait";
    let r = parse(text);
    let d = r.directive.unwrap();
    // `é` is a (unicode) identifier, hence an unknown clause.
    assert_eq!(d.clauses.len(), 1);
    assert_eq!(r.diagnostics.len(), 2);
    assert_eq!(r.diagnostics[0].span, span_of(text, "∑"));

    let text = "#pragma omp target map(to: \"abc) nowait";
    let r = parse(text);
    assert!(r.directive.is_some());
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message == "unterminated string literal"));
    let r = parse("#pragma omp critical('x");
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message == "unterminated character literal"));
    let r = parse("#pragma omp target /* unterminated");
    assert_eq!(r.diagnostics[0].message, "unterminated `/*` comment");

    let r = parse("#pragma omp target(x) nowait");
    assert_eq!(
        r.diagnostics[0].message,
        "`target` does not take an argument in parentheses"
    );
    assert_eq!(r.directive.unwrap().clauses.len(), 1);
    let r = parse("#pragma omp threadprivate");
    assert_eq!(
        r.diagnostics[0].message,
        "`threadprivate` requires an argument in parentheses"
    );
    let r = parse("#pragma omp target nowait(1)");
    assert_eq!(
        r.diagnostics[0].message,
        "clause `nowait` does not take an argument"
    );
    let r = parse("#pragma omp target map(to: a),");
    assert_eq!(r.diagnostics[0].message, "expected a clause after `,`");
    let r = parse("#pragma omp target if(foo: x)");
    assert_eq!(
        r.diagnostics[0].message,
        "unknown directive-name modifier `foo` in `if` clause"
    );
    let r = parse("#pragma omp for schedule(sometimes)");
    assert!(r.diagnostics[0]
        .message
        .starts_with("unknown schedule kind `sometimes`; expected one of static"));
    let r = parse("#pragma omp target defaultmap(tofrom: scalars)");
    assert!(r.diagnostics[0]
        .message
        .starts_with("unknown variable category `scalars`"));
    let r = parse("#pragma omp task depend(inn: a)");
    assert!(r.diagnostics[0]
        .message
        .starts_with("unknown dependence type `inn`"));
    let r = parse("#pragma omp parallel for reduction(+ s)");
    assert_eq!(
        r.diagnostics[0].message,
        "expected `:` after the reduction identifier, found `s`"
    );
    let r = parse("#pragma omp parallel reduction(: s)");
    assert!(r.diagnostics[0]
        .message
        .starts_with("expected a reduction identifier"));
    let r = parse("#pragma omp parallel default(nobody)");
    assert!(r.diagnostics[0]
        .message
        .starts_with("unknown data-sharing attribute `nobody`"));
    let r = parse("#pragma omp distribute dist_schedule(dynamic)");
    assert_eq!(
        r.diagnostics[0].message,
        "unknown dist_schedule kind `dynamic`; expected `static`"
    );
    let r = parse("#pragma omp target map(**p)");
    assert_eq!(
        r.diagnostics[0].message,
        "only one leading `*` is supported in a list item"
    );
    let r = parse("#pragma omp target if((a, b))");
    assert!(r.diagnostics[0].message.contains("comma operator"));
}

// ---------------------------------------------------------------------------
// Printing

#[test]
fn canonical_printing() {
    assert_canonical(
        "#pragma omp target map(always,to:a[0:n],s.f)",
        "#pragma omp target map(always, to: a[0:n], s.f)",
    );
    assert_canonical(
        "#pragma omp target update to(present : x)",
        "#pragma omp target update to(present: x)",
    );
    assert_canonical(
        "#pragma omp parallel for reduction(+:s) schedule(static,4)",
        "#pragma omp parallel for reduction(+: s) schedule(static, 4)",
    );
    assert_canonical(
        "#pragma omp target defaultmap(tofrom:scalar) if(target:n>10)",
        "#pragma omp target defaultmap(tofrom: scalar) if(target: n > 10)",
    );
    assert_canonical(
        "#pragma omp task depend(in:a[0:n])",
        "#pragma omp task depend(in: a[0:n])",
    );
    assert_canonical(
        "#pragma omp declare target(a,b)",
        "#pragma omp declare target(a, b)",
    );
    assert_canonical(
        "#pragma omp target map(a[ :: 2], b[1: :s], c[ : ])",
        "#pragma omp target map(a[: :2], b[1: :s], c[:])",
    );
    assert_canonical(
        "#pragma omp target teams distribute parallel for simd map(tofrom: x) num_teams(n) thread_limit(256) proc_bind( spread ) collapse(2)",
        "#pragma omp target teams distribute parallel for simd map(tofrom: x) num_teams(n) thread_limit(256) proc_bind(spread) collapse(2)",
    );
    assert_canonical(
        "#pragma omp target map(iterator(int i=0:n:2),to:a[i]) depend(iterator(it=0:n), out: b[it])",
        "#pragma omp target map(iterator(int i = 0:n:2), to: a[i]) depend(iterator(it = 0:n), out: b[it])",
    );
}

// ---------------------------------------------------------------------------
// Scanner

#[test]
fn scan_finds_pragmas() {
    let src = "#include <omp.h>\n#pragma once\nint main() {\n  #pragma omp target map(a)\n  {}\n#  pragma  omp  parallel\n\t# pragma\tomp barrier\n}\n";
    let found = scan_pragmas(src);
    let texts: Vec<_> = found.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "#pragma omp target map(a)",
            "#  pragma  omp  parallel",
            "# pragma\tomp barrier"
        ]
    );
    for p in &found {
        let start = p.span.start as usize;
        assert_eq!(&src[start..p.span.end as usize], p.text);
        assert!(parse_pragma(&p.text, p.span.start).directive.is_some());
    }
}

#[test]
fn scan_ignores_comments_and_literals() {
    let src = r##"// #pragma omp target
/* #pragma omp target
   #pragma omp parallel */
const char *s = "\
#pragma omp target";
const char *t = "#pragma omp for";
char c = '#'; int n = 1'000'000;
x = y; #pragma omp target
auto r = R"x(
#pragma omp target
)x";
#pragma omp single
"##;
    let found = scan_pragmas(src);
    let texts: Vec<_> = found.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(texts, ["#pragma omp single"]);
}

#[test]
fn scan_continuations_and_comments() {
    let src = "a;\n#pragma omp target \\\n  map(to: a) \\\r\n  nowait\nb;\n#pragma omp parallel // comment \\\n still comment\nc;\n#pragma omp for /* multi\nline */ nowait\n";
    let found = scan_pragmas(src);
    assert_eq!(found.len(), 3);
    assert_eq!(
        found[0].text,
        "#pragma omp target \\\n  map(to: a) \\\r\n  nowait"
    );
    let d = parse_pragma(&found[0].text, found[0].span.start)
        .directive
        .unwrap();
    assert_eq!(d.clauses.len(), 2);
    assert_eq!(d.clauses[0].span.start as usize, src.find("map(").unwrap());
    assert_eq!(
        found[1].text,
        "#pragma omp parallel // comment \\\n still comment"
    );
    let r = parse_pragma(&found[1].text, found[1].span.start);
    assert!(r.diagnostics.is_empty());
    assert_eq!(found[2].text, "#pragma omp for /* multi\nline */ nowait");
    let d = parse_pragma(&found[2].text, found[2].span.start)
        .directive
        .unwrap();
    assert_eq!(d.clauses.len(), 1);
}

#[test]
fn scan_crlf_and_end_of_file() {
    let src = "#pragma omp target\r\nx;\r\n#pragma omp barrier\r\n";
    let found = scan_pragmas(src);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].text, "#pragma omp target");
    assert_eq!(found[0].span, Span::new(0, 18));
    assert_eq!(found[1].text, "#pragma omp barrier");

    let src = "#pragma omp target nowait \\";
    let found = scan_pragmas(src);
    assert_eq!(found[0].text, src);
    assert!(parse_pragma(&found[0].text, 0).diagnostics.is_empty());
    let src = "x;\n#pragma omp target";
    assert_eq!(scan_pragmas(src)[0].span, Span::new(3, 21));
    assert!(scan_pragmas("#pragma").is_empty());
    assert!(scan_pragmas("#pragma ompx").is_empty());
    assert!(scan_pragmas("#").is_empty());
    assert!(scan_pragmas("\\").is_empty());
    assert!(scan_pragmas("/* unterminated #pragma omp target").is_empty());
    assert_eq!(scan_pragmas("#pra\\\ngma omp target").len(), 1);
    assert_eq!(scan_pragmas("/* c */ #pragma omp target").len(), 1);
}

#[test]
fn deep_nesting_fits_in_a_small_stack() {
    // Patterns that maximise recursion per nesting level; each must be
    // rejected (or accepted) without overflowing a 1 MiB stack, and the
    // resulting tree must print and drop without overflowing either.
    let level = "a || a && a | a ^ a & a == a < a << a + a * -(";
    let texts = vec![
        format!(
            "#pragma omp target if({}a{})",
            level.repeat(400),
            ")".repeat(400)
        ),
        format!(
            "#pragma omp target if({}a{})",
            "(".repeat(400),
            ")".repeat(400)
        ),
        format!(
            "#pragma omp target if({}a{})",
            "a[".repeat(400),
            "]".repeat(400)
        ),
        format!(
            "#pragma omp target if({}a{})",
            "f(".repeat(400),
            ")".repeat(400)
        ),
        format!("#pragma omp target if({}a)", "(int)".repeat(400)),
        format!("#pragma omp target if({}a)", "sizeof ".repeat(400)),
        format!("#pragma omp target if({}a)", "a ? a : ".repeat(400)),
        format!("#pragma omp target if({}a)", "a + ".repeat(5000)),
        format!("#pragma omp target if(a{})", "[0]".repeat(5000)),
        format!("#pragma omp target if(a{})", ".b".repeat(5000)),
        format!(
            "#pragma omp target map(p[{}0{}])",
            "b[".repeat(400),
            "]".repeat(400)
        ),
        format!("#pragma omp target map(p{})", ".b[0]".repeat(5000)),
    ];
    // Just under the limit is accepted.
    let ok = format!(
        "#pragma omp target if({}a{})",
        "(".repeat(120),
        ")".repeat(120)
    );
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for text in texts {
                let r = parse_pragma(&text, 0);
                let d = r.directive.expect("directive");
                let _ = d.to_string();
                let _ = d.without_spans() == d;
            }
            let r = parse_pragma(&ok, 0);
            assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
            let d = r.directive.expect("directive");
            assert_eq!(d.to_string(), ok);
        })
        .expect("spawn");
    assert!(handle.join().is_ok());
}
