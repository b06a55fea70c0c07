//! The rules of `omplens check`: one module per diagnostic, its documentation page beside it
//! (`NAME.md`, shown by `omplens explain CODE`).

use super::env::Facts;
use super::{Finding, Severity};
use crate::ir::{Callee, ExprId, ExprKind, FuncId, Module};
use crate::plan::Plan;
use crate::semantics::constants::{known_values, Values};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

mod common;

/// Makes the registry from `CODE => module` lines; see the call below.
macro_rules! declare_rules {
    ($($code:ident => $module:ident,)*) => {
        $(mod $module;)*

        /// The code of a rule (`OMP101`): one variant per rule, in code order.
        #[allow(clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($code,)*
        }

        impl Code {
            /// Every code, in code order.
            pub const ALL: &'static [Code] = &[$(Code::$code,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$code => stringify!($code),)*
                }
            }

            /// The rule of this code.
            pub fn rule(self) -> &'static Rule {
                &RULES[self as usize]
            }
        }

        /// Every rule, in code order (`RULES[code as usize].code == code`).
        pub static RULES: &[Rule] = &[$($module::RULE,)*];

        // Each module's `RULE.code` is the code its registry line gives.
        $(const _: () = assert!($module::RULE.code as usize == Code::$code as usize);)*

        /// Every finding of every rule, rule by rule in code order.
        fn run_rules(cx: &Context) -> Vec<Finding> {
            let mut out = Vec::new();
            $(out.extend($module::findings(cx));)*
            out
        }
    };
}

// The registry: one line per rule, `CODE => module`. The module (`NAME.rs`, with its page
// `NAME.md` beside it) declares `pub(super) const RULE: Rule` and `pub fn findings`. This one
// list makes the `mod` lines, [`Code`], [`RULES`] and the order in which [`run`] runs the rules.
declare_rules! {
    OMP101 => stale_host_read,
    OMP102 => stale_device_read,
    OMP103 => unmapped_pointer,
    OMP104 => lost_scalar_write,
    OMP105 => uninitialized_device_read,
    OMP106 => section_too_small,
    OMP107 => section_past_allocation,
    OMP108 => entered_never_exited,
    OMP109 => update_not_present,
    OMP110 => unfinished_nowait_kernel,
    OMP201 => copy_in_loop,
    OMP202 => redundant_copy,
    OMP203 => round_trip,
    OMP204 => unused_copy_in,
    OMP205 => unchanged_copy_out,
    OMP206 => allocation_in_loop,
    OMP207 => update_in_loop,
    OMP208 => scalar_map_to,
    OMP209 => implicit_mapping,
    OMP301 => uncoalesced_access,
    OMP302 => collapse_or_interchange,
}

/// Correctness (wrong results, faults) or performance (wasted copies, uncoalesced accesses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Correctness,
    Performance,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Correctness => "correctness",
            Family::Performance => "performance",
        }
    }
}

/// A property of a rule's findings that editors show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    /// The flagged code does nothing and can go (editors fade it out).
    Unnecessary,
}

/// A rule: stable code, kebab-case name, and its documentation page (Markdown).
#[derive(Debug)]
pub struct Rule {
    pub code: Code,
    pub name: &'static str,
    pub family: Family,
    /// Severity when the finding is certain (correctness rules report `warning` when the
    /// problem happens only on some paths).
    pub severity: Severity,
    pub summary: &'static str,
    pub doc: &'static str,
    pub tags: &'static [Tag],
}

impl Rule {
    pub fn has_tag(&self, tag: Tag) -> bool {
        self.tags.contains(&tag)
    }

    /// The page as users read it (`omplens explain`, SARIF help): [`Rule::doc`] without its
    /// last section, `## Tests`, which names the rule's test programs for contributors.
    pub fn page(&self) -> &'static str {
        self.doc
            .split_once(TESTS_HEADING)
            .map_or(self.doc, |(page, _)| page)
    }
}

/// The heading of the last section of a rule's page: its test programs.
pub const TESTS_HEADING: &str = "\n## Tests\n";

/// The rules as the Markdown table of README.md (`code | name | severity | finds`).
pub fn markdown_table() -> String {
    let mut out = String::from("| code | name | severity | finds |\n| --- | --- | --- | --- |\n");
    for r in RULES {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            r.code,
            r.name,
            r.severity.name(),
            r.summary.replace('|', "\\|")
        ));
    }
    out
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code that names no rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule code `{0}` (see `omplens explain --list`)")]
pub struct UnknownCode(pub String);

impl std::str::FromStr for Code {
    type Err = UnknownCode;

    /// A code as written (`OMP101`), case-insensitive.
    fn from_str(s: &str) -> Result<Code, UnknownCode> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownCode(s.to_string()))
    }
}

/// The rule with this code (`OMP101`) or name (`stale-host-read`), case-insensitive.
pub fn lookup(code_or_name: &str) -> Option<&'static Rule> {
    match code_or_name.parse::<Code>() {
        Ok(code) => Some(code.rule()),
        Err(_) => RULES
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(code_or_name)),
    }
}

/// Every finding of every rule over the facts of `module`.
pub fn run(module: &Module, source: &str, facts: &Facts) -> Vec<Finding> {
    let cx = Context {
        module,
        source,
        facts,
        plan: OnceCell::new(),
        calls: OnceCell::new(),
        values: RefCell::new(HashMap::new()),
        member_aliases: RefCell::new(HashMap::new()),
        split: RefCell::new(HashMap::new()),
        items: RefCell::new(HashMap::new()),
    };
    run_rules(&cx)
}

/// What a rule sees.
pub struct Context<'a> {
    pub module: &'a Module,
    pub source: &'a str,
    pub facts: &'a Facts,
    plan: OnceCell<Plan>,
    calls: OnceCell<HashMap<FuncId, Vec<(FuncId, ExprId)>>>,
    /// [`Self::known_values`] per function, once: several rules ask for each finding.
    values: RefCell<HashMap<FuncId, Rc<Values>>>,
    /// Per function, its member aliases (`effects::member_aliases`), for [`Self::items`].
    member_aliases: RefCell<HashMap<FuncId, Rc<HashMap<crate::ir::VarId, String>>>>,
    /// Per function, its struct variables followed member by member
    /// (`env::split::Split`), for [`Self::items`].
    split: RefCell<HashMap<FuncId, Rc<crate::check::env::split::Split>>>,
    /// [`Self::items`] per directive, once: rules ask per copy.
    items: RefCell<HashMap<crate::ir::DirId, Rc<crate::check::env::items::DirectiveItems>>>,
}

impl Context<'_> {
    /// The objects and sections of directive `d`'s clauses (`env::items::directive_items`),
    /// made once per directive, with its function's member aliases made once per function.
    pub fn items(&self, d: crate::ir::DirId) -> Rc<crate::check::env::items::DirectiveItems> {
        if let Some(i) = self.items.borrow().get(&d) {
            return i.clone();
        }
        let aliases = self.module.directive(d).function.map(|f| {
            self.member_aliases
                .borrow_mut()
                .entry(f)
                .or_insert_with(|| {
                    Rc::new(crate::semantics::effects::member_aliases(
                        self.module,
                        self.module.function(f),
                    ))
                })
                .clone()
        });
        let split = self.module.directive(d).function.map(|f| {
            self.split
                .borrow_mut()
                .entry(f)
                .or_insert_with(|| Rc::new(crate::check::env::split::Split::of(self.module, f)))
                .clone()
        });
        let items = Rc::new(crate::check::env::items::directive_items_with(
            self.module,
            d,
            self.source,
            aliases.as_deref(),
            split.as_deref(),
        ));
        self.items.borrow_mut().insert(d, items.clone());
        items
    }

    /// Values known where `func` uses them (macros of the file, locals set once).
    pub fn known_values(&self, func: FuncId) -> Rc<Values> {
        self.values
            .borrow_mut()
            .entry(func)
            .or_insert_with(|| Rc::new(known_values(self.module, func)))
            .clone()
    }

    /// The direct calls of `func` in the module: (caller, call expression). Indexed once, so
    /// rules that follow data to callers stay linear in the size of the file.
    pub fn calls_to(&self, func: FuncId) -> &[(FuncId, ExprId)] {
        let calls = self.calls.get_or_init(|| {
            let mut out: HashMap<FuncId, Vec<(FuncId, ExprId)>> = HashMap::new();
            for (ci, caller) in self.module.functions.iter_enumerated() {
                for (ei, e) in caller.exprs.iter_enumerated() {
                    if let ExprKind::Call {
                        callee: Callee::Direct(id),
                        ..
                    } = &e.kind
                    {
                        out.entry(*id).or_default().push((ci, ei));
                    }
                }
            }
            out
        });
        calls.get(&func).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The synthesized mappings of the module (computed on first use).
    pub fn plan(&self) -> &Plan {
        self.plan.get_or_init(|| crate::plan::plan(self.module))
    }

    /// The coalescing analysis of the module's parallel loops (computed with the facts).
    pub fn coalescing(&self) -> &[crate::coalesce::LoopReport] {
        &self.facts.loops
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_declared_in_code_order() {
        // Findings sort by `Code`; its order must be the order of the code strings.
        let strings: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = strings.clone();
        sorted.sort_unstable();
        assert_eq!(strings, sorted);
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(r.code as usize, i, "{}", r.code);
            assert!(std::ptr::eq(r.code.rule(), r));
        }
    }

    #[test]
    fn codes_parse_and_print() {
        for &c in Code::ALL {
            assert_eq!(c.as_str().parse::<Code>(), Ok(c));
            assert_eq!(c.as_str().to_ascii_lowercase().parse::<Code>(), Ok(c));
            assert_eq!(c.to_string(), c.as_str());
        }
        let e = "OMP999".parse::<Code>().unwrap_err();
        assert_eq!(e, UnknownCode("OMP999".into()));
        assert!(e.to_string().contains("`OMP999`"), "{e}");
        assert!("stale-host-read".parse::<Code>().is_err());
    }

    #[test]
    fn lookup_by_code_or_name() {
        assert_eq!(lookup("omp202").map(|r| r.code), Some(Code::OMP202));
        assert_eq!(lookup("Redundant-Copy").map(|r| r.code), Some(Code::OMP202));
        assert!(lookup("OMP999").is_none() && lookup("").is_none());
    }

    #[test]
    fn names_are_unique_kebab_case() {
        let mut names: Vec<&str> = RULES.iter().map(|r| r.name).collect();
        assert!(names
            .iter()
            .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '-')));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RULES.len());
    }

    #[test]
    fn only_redundant_copies_are_unnecessary() {
        let tagged: Vec<Code> = RULES
            .iter()
            .filter(|r| r.has_tag(Tag::Unnecessary))
            .map(|r| r.code)
            .collect();
        assert_eq!(tagged, vec![Code::OMP202]);
    }
}
