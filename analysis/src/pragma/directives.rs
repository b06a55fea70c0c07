//! The table of OpenMP directive names and their leaf constructs.

/// A leaf construct: a directive that is not a combination of others.
/// Combined directives are sequences of leaves (`target teams` =
/// `[Target, Teams]`). `Data`, `EnterData`, `ExitData` and `Update` are the
/// constructs `target data`, `target enter data`, `target exit data` and
/// `target update` (they are not combinations of `target` with something).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Leaf {
    Target,
    Teams,
    Distribute,
    Parallel,
    For,
    Simd,
    Loop,
    Data,
    EnterData,
    ExitData,
    Update,
    DeclareTarget,
    BeginDeclareTarget,
    EndDeclareTarget,
    Sections,
    Section,
    Single,
    Master,
    Masked,
    Task,
    Taskloop,
    Taskwait,
    Taskyield,
    Taskgroup,
    Barrier,
    Critical,
    Atomic,
    Ordered,
    Flush,
    Threadprivate,
    DeclareSimd,
    DeclareReduction,
    DeclareMapper,
    DeclareVariant,
    BeginDeclareVariant,
    EndDeclareVariant,
    Requires,
    Cancel,
    CancellationPoint,
    Scan,
    Depobj,
    Metadirective,
    BeginMetadirective,
    EndMetadirective,
    Tile,
    Unroll,
    Error,
    Nothing,
    Assume,
    Assumes,
    BeginAssumes,
    EndAssumes,
    Allocate,
    Allocators,
    Dispatch,
    Interop,
    Scope,
}

impl Leaf {
    /// True when the construct applies to the following statement (or loop
    /// nest). Begin/end delimiters and declarative/standalone directives are
    /// `false`; `metadirective` is `false` (it depends on the variant chosen).
    pub fn has_associated_statement(self) -> bool {
        use Leaf::*;
        matches!(
            self,
            Target
                | Teams
                | Distribute
                | Parallel
                | For
                | Simd
                | Loop
                | Data
                | Sections
                | Section
                | Single
                | Master
                | Masked
                | Task
                | Taskloop
                | Taskgroup
                | Critical
                | Atomic
                | Ordered
                | Tile
                | Unroll
                | Assume
                | Allocators
                | Dispatch
                | Scope
        )
    }

    /// True for declarative directives.
    pub fn is_declarative(self) -> bool {
        use Leaf::*;
        matches!(
            self,
            DeclareTarget
                | BeginDeclareTarget
                | EndDeclareTarget
                | Threadprivate
                | DeclareSimd
                | DeclareReduction
                | DeclareMapper
                | DeclareVariant
                | BeginDeclareVariant
                | EndDeclareVariant
                | Requires
                | Assumes
                | BeginAssumes
                | EndAssumes
                | Allocate
        )
    }
}

/// Declares `DirectiveKind` with its canonical name and leaves.
macro_rules! directive_kinds {
    ($($var:ident => $name:literal [$($leaf:ident),+];)*) => {
        /// A recognised OpenMP directive (one variant per directive name,
        /// combined constructs included).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum DirectiveKind {
            $($var),*
        }

        impl DirectiveKind {
            /// Every directive kind.
            pub const ALL: &'static [DirectiveKind] = &[$(DirectiveKind::$var),*];

            /// Canonical spelling, words separated by one space, e.g.
            /// `"target teams distribute parallel for simd"`.
            pub fn name(self) -> &'static str {
                match self {
                    $(DirectiveKind::$var => $name),*
                }
            }

            /// The leaf constructs, outermost first, e.g. `[Target, Teams,
            /// Distribute, Parallel, For, Simd]`.
            pub fn leaf_constructs(self) -> &'static [Leaf] {
                match self {
                    $(DirectiveKind::$var => &[$(Leaf::$leaf),+]),*
                }
            }
        }
    };
}

directive_kinds! {
    Target => "target" [Target];
    TargetData => "target data" [Data];
    TargetEnterData => "target enter data" [EnterData];
    TargetExitData => "target exit data" [ExitData];
    TargetUpdate => "target update" [Update];
    TargetParallel => "target parallel" [Target, Parallel];
    TargetParallelFor => "target parallel for" [Target, Parallel, For];
    TargetParallelForSimd => "target parallel for simd" [Target, Parallel, For, Simd];
    TargetParallelLoop => "target parallel loop" [Target, Parallel, Loop];
    TargetSimd => "target simd" [Target, Simd];
    TargetTeams => "target teams" [Target, Teams];
    TargetTeamsDistribute => "target teams distribute" [Target, Teams, Distribute];
    TargetTeamsDistributeSimd => "target teams distribute simd" [Target, Teams, Distribute, Simd];
    TargetTeamsDistributeParallelFor => "target teams distribute parallel for"
        [Target, Teams, Distribute, Parallel, For];
    TargetTeamsDistributeParallelForSimd => "target teams distribute parallel for simd"
        [Target, Teams, Distribute, Parallel, For, Simd];
    TargetTeamsLoop => "target teams loop" [Target, Teams, Loop];
    DeclareTarget => "declare target" [DeclareTarget];
    BeginDeclareTarget => "begin declare target" [BeginDeclareTarget];
    EndDeclareTarget => "end declare target" [EndDeclareTarget];
    Teams => "teams" [Teams];
    TeamsDistribute => "teams distribute" [Teams, Distribute];
    TeamsDistributeSimd => "teams distribute simd" [Teams, Distribute, Simd];
    TeamsDistributeParallelFor => "teams distribute parallel for" [Teams, Distribute, Parallel, For];
    TeamsDistributeParallelForSimd => "teams distribute parallel for simd"
        [Teams, Distribute, Parallel, For, Simd];
    TeamsLoop => "teams loop" [Teams, Loop];
    Distribute => "distribute" [Distribute];
    DistributeSimd => "distribute simd" [Distribute, Simd];
    DistributeParallelFor => "distribute parallel for" [Distribute, Parallel, For];
    DistributeParallelForSimd => "distribute parallel for simd" [Distribute, Parallel, For, Simd];
    Parallel => "parallel" [Parallel];
    ParallelFor => "parallel for" [Parallel, For];
    ParallelForSimd => "parallel for simd" [Parallel, For, Simd];
    ParallelLoop => "parallel loop" [Parallel, Loop];
    ParallelSections => "parallel sections" [Parallel, Sections];
    ParallelMaster => "parallel master" [Parallel, Master];
    ParallelMasked => "parallel masked" [Parallel, Masked];
    ParallelMasterTaskloop => "parallel master taskloop" [Parallel, Master, Taskloop];
    ParallelMasterTaskloopSimd => "parallel master taskloop simd" [Parallel, Master, Taskloop, Simd];
    ParallelMaskedTaskloop => "parallel masked taskloop" [Parallel, Masked, Taskloop];
    ParallelMaskedTaskloopSimd => "parallel masked taskloop simd" [Parallel, Masked, Taskloop, Simd];
    For => "for" [For];
    ForSimd => "for simd" [For, Simd];
    Simd => "simd" [Simd];
    Loop => "loop" [Loop];
    Sections => "sections" [Sections];
    Section => "section" [Section];
    Single => "single" [Single];
    Master => "master" [Master];
    Masked => "masked" [Masked];
    Task => "task" [Task];
    Taskloop => "taskloop" [Taskloop];
    TaskloopSimd => "taskloop simd" [Taskloop, Simd];
    MasterTaskloop => "master taskloop" [Master, Taskloop];
    MasterTaskloopSimd => "master taskloop simd" [Master, Taskloop, Simd];
    MaskedTaskloop => "masked taskloop" [Masked, Taskloop];
    MaskedTaskloopSimd => "masked taskloop simd" [Masked, Taskloop, Simd];
    Taskwait => "taskwait" [Taskwait];
    Taskyield => "taskyield" [Taskyield];
    Taskgroup => "taskgroup" [Taskgroup];
    Barrier => "barrier" [Barrier];
    Critical => "critical" [Critical];
    Atomic => "atomic" [Atomic];
    Ordered => "ordered" [Ordered];
    Flush => "flush" [Flush];
    Threadprivate => "threadprivate" [Threadprivate];
    DeclareSimd => "declare simd" [DeclareSimd];
    DeclareReduction => "declare reduction" [DeclareReduction];
    DeclareMapper => "declare mapper" [DeclareMapper];
    DeclareVariant => "declare variant" [DeclareVariant];
    BeginDeclareVariant => "begin declare variant" [BeginDeclareVariant];
    EndDeclareVariant => "end declare variant" [EndDeclareVariant];
    Requires => "requires" [Requires];
    Cancel => "cancel" [Cancel];
    CancellationPoint => "cancellation point" [CancellationPoint];
    Scan => "scan" [Scan];
    Depobj => "depobj" [Depobj];
    Metadirective => "metadirective" [Metadirective];
    BeginMetadirective => "begin metadirective" [BeginMetadirective];
    EndMetadirective => "end metadirective" [EndMetadirective];
    Tile => "tile" [Tile];
    Unroll => "unroll" [Unroll];
    Error => "error" [Error];
    Nothing => "nothing" [Nothing];
    Assume => "assume" [Assume];
    Assumes => "assumes" [Assumes];
    BeginAssumes => "begin assumes" [BeginAssumes];
    EndAssumes => "end assumes" [EndAssumes];
    Allocate => "allocate" [Allocate];
    Allocators => "allocators" [Allocators];
    Dispatch => "dispatch" [Dispatch];
    Interop => "interop" [Interop];
    Scope => "scope" [Scope];
}

/// What may follow a directive name in parentheses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ArgForm {
    /// No parenthesised argument.
    None,
    /// A list of list items.
    List { required: bool },
    /// A single plain name (`critical(name)`).
    Name,
    /// Kept as raw text.
    Raw { required: bool },
}

impl DirectiveKind {
    /// Looks up a directive by its canonical name (words separated by one
    /// space).
    pub fn from_name(name: &str) -> Option<DirectiveKind> {
        DirectiveKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == name)
    }

    /// The words of the name.
    pub fn words(self) -> impl Iterator<Item = &'static str> {
        self.name().split(' ')
    }

    /// Any `target ...` construct that executes code on the device (target,
    /// combined target constructs); not `target data/enter data/exit
    /// data/update`.
    pub fn is_offload_kernel(self) -> bool {
        self.leaf_constructs().first() == Some(&Leaf::Target)
    }

    /// `target data`, `target enter data`, `target exit data`, `target update`.
    pub fn is_data_mapping(self) -> bool {
        matches!(
            self,
            DirectiveKind::TargetData
                | DirectiveKind::TargetEnterData
                | DirectiveKind::TargetExitData
                | DirectiveKind::TargetUpdate
        )
    }

    /// True when the directive applies to the following statement. `ordered`
    /// is reported as `true`; with a `depend`/`doacross` clause it is
    /// standalone, which [`super::Directive::has_associated_statement`]
    /// takes into account.
    pub fn has_associated_statement(self) -> bool {
        self.leaf_constructs()
            .first()
            .is_some_and(|l| l.has_associated_statement())
    }

    /// Declarative directives: `declare target`, `begin/end declare target`,
    /// `declare simd/reduction/mapper/variant`, `threadprivate`, `requires`,
    /// `assumes`, `allocate`, ...
    pub fn is_declarative(self) -> bool {
        self.leaf_constructs()
            .first()
            .is_some_and(|l| l.is_declarative())
    }

    /// True for combined constructs (more than one leaf).
    pub fn is_combined(self) -> bool {
        self.leaf_constructs().len() > 1
    }

    /// True when `leaf` is one of the leaf constructs.
    pub fn has_leaf(self, leaf: Leaf) -> bool {
        self.leaf_constructs().contains(&leaf)
    }

    pub(crate) fn arg_form(self) -> ArgForm {
        match self {
            DirectiveKind::DeclareTarget | DirectiveKind::Flush => {
                ArgForm::List { required: false }
            }
            DirectiveKind::Threadprivate | DirectiveKind::Allocate | DirectiveKind::Depobj => {
                ArgForm::List { required: true }
            }
            DirectiveKind::Critical => ArgForm::Name,
            DirectiveKind::DeclareReduction
            | DirectiveKind::DeclareMapper
            | DirectiveKind::DeclareVariant => ArgForm::Raw { required: true },
            DirectiveKind::DeclareSimd => ArgForm::Raw { required: false },
            _ => ArgForm::None,
        }
    }
}

impl std::fmt::Display for DirectiveKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
