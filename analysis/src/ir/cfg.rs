//! The AST-CFG of one function (OMPDart §IV-B): basic blocks whose nodes point back at the
//! statements they came from, with loop nesting, `for` headers, and every node marked as
//! executing on the host or the device. Every OpenMP directive is a node of its own: a
//! directive with a body becomes an `Enter` and an `Exit` node around it.

use super::access::{self, Access};
use super::{DirId, ExprId, FuncId, Function, IndexVec, Module, StmtId, StmtKind, VarId};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);
super::index_vec::impl_idx!(BlockId, LoopId);

/// Where code runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exec {
    Host,
    Device,
    /// A function compiled for both and called from both (e.g. `declare target`).
    HostAndDevice,
}

impl Exec {
    pub fn name(self) -> &'static str {
        match self {
            Exec::Host => "host",
            Exec::Device => "device",
            Exec::HostAndDevice => "host+device",
        }
    }
    pub fn on_device(self) -> bool {
        !matches!(self, Exec::Host)
    }
    pub fn on_host(self) -> bool {
        !matches!(self, Exec::Device)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// An expression statement.
    Stmt,
    Decl,
    /// The condition of an `if`, `switch`, `while`, `do` or `for`.
    Cond,
    ForInit,
    ForStep,
    Return,
    /// Entry into the region of a directive with a body (a kernel, `target data`, ...).
    Enter(DirId),
    /// Exit from that region.
    Exit(DirId),
    /// A directive without a body: `target update`, `enter/exit data`, `barrier`, ...
    Standalone(DirId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub stmt: StmtId,
    pub exec: Exec,
    /// Top-level expressions evaluated at this node.
    pub exprs: Vec<ExprId>,
    pub accesses: Vec<Access>,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Block {
    pub nodes: Vec<Node>,
    pub succs: Vec<BlockId>,
    pub preds: Vec<BlockId>,
    /// Innermost loop this block belongs to.
    pub loop_id: Option<LoopId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    For,
    RangeFor,
    While,
    Do,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    pub stmt: StmtId,
    pub kind: LoopKind,
    pub parent: Option<LoopId>,
    /// 1 for an outermost loop.
    pub depth: u32,
    /// The block holding the loop condition (the target of the back edge).
    pub header: BlockId,
    pub exec: Exec,
    /// `for` loops: the induction variable.
    pub induction: Option<VarId>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Cfg {
    pub function: FuncId,
    pub blocks: IndexVec<BlockId, Block>,
    pub entry: BlockId,
    pub exit: BlockId,
    pub loops: IndexVec<LoopId, Loop>,
    /// Execution space of code outside kernels.
    pub exec: Exec,
}

impl Cfg {
    pub fn block(&self, b: BlockId) -> &Block {
        &self.blocks[b]
    }
    pub fn nodes(&self) -> impl Iterator<Item = (BlockId, &Node)> {
        self.blocks
            .iter_enumerated()
            .flat_map(|(i, b)| b.nodes.iter().map(move |n| (i, n)))
    }
    /// Loops enclosing `l`, innermost first, `l` included.
    pub fn loop_chain(&self, l: LoopId) -> impl Iterator<Item = LoopId> + '_ {
        std::iter::successors(Some(l), |l| self.loops[*l].parent)
    }
}

/// Builds the AST-CFG of `func`, whose code outside kernels runs in `exec`.
pub fn build(module: &Module, func_id: FuncId, exec: Exec) -> Cfg {
    let func = module.function(func_id);
    let mut b = Builder {
        module,
        func,
        blocks: vec![Block::default(), Block::default()].into(),
        cur: BlockId(0),
        loops: IndexVec::new(),
        loop_stack: Vec::new(),
        jumps: Vec::new(),
        switches: Vec::new(),
        labels: HashMap::new(),
        exec,
    };
    if let Some(body) = func.body {
        b.stmt(body);
    }
    let cur = b.cur;
    b.edge(cur, BlockId(1));
    let (blocks, loops) = prune(b.blocks, b.loops);
    Cfg {
        function: func_id,
        blocks,
        entry: BlockId(0),
        exit: BlockId(1),
        loops,
        exec,
    }
}

/// The AST-CFG of every function with a body (None for the others), indexed by `FuncId`:
/// built once and shared by the analyses and the printer.
pub fn build_all(module: &Module, execs: &IndexVec<FuncId, Exec>) -> IndexVec<FuncId, Option<Cfg>> {
    module
        .functions
        .iter_enumerated()
        .map(|(i, f)| f.has_body.then(|| build(module, i, execs[i])))
        .collect()
}

/// Where `break` and `continue` go.
struct JumpTargets {
    brk: BlockId,
    cont: Option<BlockId>,
}

struct SwitchCtx {
    dispatch: BlockId,
    has_default: bool,
}

struct Builder<'a> {
    module: &'a Module,
    func: &'a Function,
    blocks: IndexVec<BlockId, Block>,
    cur: BlockId,
    loops: IndexVec<LoopId, Loop>,
    loop_stack: Vec<LoopId>,
    jumps: Vec<JumpTargets>,
    switches: Vec<SwitchCtx>,
    labels: HashMap<String, BlockId>,
    exec: Exec,
}

impl Builder<'_> {
    fn new_block(&mut self) -> BlockId {
        self.blocks.push(Block {
            loop_id: self.loop_stack.last().copied(),
            ..Block::default()
        })
    }

    fn edge(&mut self, from: BlockId, to: BlockId) {
        let f = &mut self.blocks[from];
        if !f.succs.contains(&to) {
            f.succs.push(to);
            self.blocks[to].preds.push(from);
        }
    }

    /// Ends the current block with an edge to `to` and continues in a fresh block.
    fn jump(&mut self, to: BlockId) {
        let cur = self.cur;
        self.edge(cur, to);
        self.cur = self.new_block();
    }

    /// Continues in `next`, falling through from the current block.
    fn enter(&mut self, next: BlockId) {
        let cur = self.cur;
        self.edge(cur, next);
        self.cur = next;
    }

    fn push(&mut self, kind: NodeKind, stmt: StmtId, exprs: Vec<ExprId>) {
        let accesses = access::accesses(self.module, self.func, &exprs);
        self.push_with(kind, stmt, exprs, accesses);
    }

    fn push_with(
        &mut self,
        kind: NodeKind,
        stmt: StmtId,
        exprs: Vec<ExprId>,
        accesses: Vec<Access>,
    ) {
        let exec = self.exec;
        self.blocks[self.cur].nodes.push(Node {
            kind,
            stmt,
            exec,
            exprs,
            accesses,
        });
    }

    fn begin_loop(&mut self, stmt: StmtId, kind: LoopKind, induction: Option<VarId>) -> LoopId {
        let parent = self.loop_stack.last().copied();
        let depth = parent.map_or(1, |p| self.loops[p].depth + 1);
        let id = self.loops.push(Loop {
            stmt,
            kind,
            parent,
            depth,
            header: BlockId(0),
            exec: self.exec,
            induction,
        });
        self.loop_stack.push(id);
        id
    }

    fn end_loop(&mut self) {
        self.loop_stack.pop();
    }

    fn stmt(&mut self, s: StmtId) {
        let stmt = self.func.stmt(s);
        match &stmt.kind {
            StmtKind::Compound(list) => {
                for &c in list {
                    self.stmt(c);
                }
            }
            StmtKind::Expr(e) => self.push(NodeKind::Stmt, s, vec![*e]),
            StmtKind::Decl(decls) => self.decl(NodeKind::Decl, s, decls),
            StmtKind::If {
                init,
                cond,
                then,
                els,
            } => {
                if let Some(i) = init {
                    self.stmt(*i);
                }
                self.push(NodeKind::Cond, s, vec![*cond]);
                let branch = self.cur;
                let then_b = self.new_block();
                self.enter(then_b);
                self.stmt(*then);
                let then_end = self.cur;
                let join = self.new_block();
                if let Some(e) = els {
                    let else_b = self.new_block();
                    self.edge(branch, else_b);
                    self.cur = else_b;
                    self.stmt(*e);
                    let else_end = self.cur;
                    self.edge(else_end, join);
                } else {
                    self.edge(branch, join);
                }
                self.edge(then_end, join);
                self.cur = join;
            }
            StmtKind::For(f) => {
                if let Some(i) = f.init {
                    self.for_init(i);
                }
                let id = self.begin_loop(s, LoopKind::For, f.induction);
                let header = self.new_block();
                self.loops[id].header = header;
                self.enter(header);
                if let Some(c) = f.cond {
                    self.push(NodeKind::Cond, s, vec![c]);
                }
                let step = self.new_block();
                self.end_loop();
                let exit = self.new_block();
                self.loop_stack.push(id);
                if f.cond.is_some() {
                    self.edge(header, exit);
                }
                let body = self.new_block();
                self.enter(body);
                self.jumps.push(JumpTargets {
                    brk: exit,
                    cont: Some(step),
                });
                self.stmt(f.body);
                self.jumps.pop();
                self.enter(step);
                if let Some(st) = f.step {
                    self.push(NodeKind::ForStep, s, vec![st]);
                }
                self.edge(step, header);
                self.end_loop();
                self.cur = exit;
            }
            StmtKind::RangeFor { var, range, body } => {
                self.push(NodeKind::ForInit, s, vec![*range]);
                let id = self.begin_loop(s, LoopKind::RangeFor, Some(*var));
                let header = self.new_block();
                self.loops[id].header = header;
                self.enter(header);
                let elem = access::Access {
                    root: access::Root::Var(*var),
                    path: Vec::new(),
                    kind: access::AccessKind::Write,
                    expr: *range,
                    escape: None,
                };
                self.push_with(NodeKind::Cond, s, vec![], vec![elem]);
                self.end_loop();
                let exit = self.new_block();
                self.loop_stack.push(id);
                self.edge(header, exit);
                let body_b = self.new_block();
                self.enter(body_b);
                self.jumps.push(JumpTargets {
                    brk: exit,
                    cont: Some(header),
                });
                self.stmt(*body);
                self.jumps.pop();
                let cur = self.cur;
                self.edge(cur, header);
                self.end_loop();
                self.cur = exit;
            }
            StmtKind::While { cond, body } => {
                let id = self.begin_loop(s, LoopKind::While, None);
                let header = self.new_block();
                self.loops[id].header = header;
                self.enter(header);
                self.push(NodeKind::Cond, s, vec![*cond]);
                self.end_loop();
                let exit = self.new_block();
                self.loop_stack.push(id);
                self.edge(header, exit);
                let body_b = self.new_block();
                self.enter(body_b);
                self.jumps.push(JumpTargets {
                    brk: exit,
                    cont: Some(header),
                });
                self.stmt(*body);
                self.jumps.pop();
                let cur = self.cur;
                self.edge(cur, header);
                self.end_loop();
                self.cur = exit;
            }
            StmtKind::Do { body, cond } => {
                let id = self.begin_loop(s, LoopKind::Do, None);
                let body_b = self.new_block();
                let cond_b = self.new_block();
                self.loops[id].header = cond_b;
                self.end_loop();
                let exit = self.new_block();
                self.loop_stack.push(id);
                self.enter(body_b);
                self.jumps.push(JumpTargets {
                    brk: exit,
                    cont: Some(cond_b),
                });
                self.stmt(*body);
                self.jumps.pop();
                self.enter(cond_b);
                self.push(NodeKind::Cond, s, vec![*cond]);
                self.edge(cond_b, body_b);
                self.edge(cond_b, exit);
                self.end_loop();
                self.cur = exit;
            }
            StmtKind::Switch { init, cond, body } => {
                if let Some(i) = init {
                    self.stmt(*i);
                }
                self.push(NodeKind::Cond, s, vec![*cond]);
                let dispatch = self.cur;
                let exit = self.new_block();
                self.switches.push(SwitchCtx {
                    dispatch,
                    has_default: false,
                });
                self.jumps.push(JumpTargets {
                    brk: exit,
                    cont: None,
                });
                // Code before the first label is unreachable.
                self.cur = self.new_block();
                self.stmt(*body);
                self.jumps.pop();
                let sw = self.switches.pop();
                self.enter(exit);
                if sw.is_some_and(|sw| !sw.has_default) {
                    self.edge(dispatch, exit);
                }
            }
            StmtKind::Case { value: _, body } | StmtKind::Default { body } => {
                let is_default = matches!(stmt.kind, StmtKind::Default { .. });
                let b = self.new_block();
                self.enter(b);
                if let Some(sw) = self.switches.last_mut() {
                    sw.has_default |= is_default;
                    let d = sw.dispatch;
                    self.edge(d, b);
                }
                if let Some(body) = body {
                    self.stmt(*body);
                }
            }
            StmtKind::Break => {
                if let Some(t) = self.jumps.last().map(|j| j.brk) {
                    self.jump(t);
                }
            }
            StmtKind::Continue => {
                if let Some(t) = self.jumps.iter().rev().find_map(|j| j.cont) {
                    self.jump(t);
                }
            }
            StmtKind::Return(e) => {
                self.push(NodeKind::Return, s, e.iter().copied().collect());
                self.jump(BlockId(1));
            }
            StmtKind::Goto(label) => {
                let t = self.label_block(label);
                self.jump(t);
            }
            StmtKind::Label { name, body } => {
                let b = self.label_block(name);
                self.enter(b);
                if let Some(body) = body {
                    self.stmt(*body);
                }
            }
            StmtKind::Omp { directive, body } => self.directive(s, *directive, *body),
            StmtKind::Null => {}
            StmtKind::Opaque {
                exprs, children, ..
            } => {
                if !exprs.is_empty() {
                    self.push(NodeKind::Stmt, s, exprs.clone());
                }
                for &c in children {
                    self.stmt(c);
                }
            }
        }
    }

    fn label_block(&mut self, name: &str) -> BlockId {
        if let Some(&b) = self.labels.get(name) {
            return b;
        }
        let b = self.new_block();
        self.labels.insert(name.to_string(), b);
        b
    }

    fn decl(&mut self, kind: NodeKind, s: StmtId, decls: &[(VarId, Option<ExprId>)]) {
        let mut accesses = Vec::new();
        let mut exprs = Vec::new();
        for &(v, init) in decls {
            if let Some(i) = init {
                exprs.push(i);
                accesses.extend(access::decl_accesses(self.module, self.func, v, init, i));
            }
        }
        self.push_with(kind, s, exprs, accesses);
    }

    fn for_init(&mut self, init: StmtId) {
        match &self.func.stmt(init).kind {
            StmtKind::Decl(decls) => self.decl(NodeKind::ForInit, init, decls),
            StmtKind::Expr(e) => self.push(NodeKind::ForInit, init, vec![*e]),
            _ => self.stmt(init),
        }
    }

    fn directive(&mut self, s: StmtId, dir: DirId, body: Option<StmtId>) {
        let kind = self.module.directive(dir).directive.kind;
        match body {
            None => self.push(NodeKind::Standalone(dir), s, Vec::new()),
            Some(body) => {
                self.push(NodeKind::Enter(dir), s, Vec::new());
                let outer = self.exec;
                if kind.is_offload_kernel() {
                    self.exec = Exec::Device;
                }
                self.stmt(body);
                self.exec = outer;
                self.push(NodeKind::Exit(dir), s, Vec::new());
            }
        }
    }
}

/// Drops blocks that are unreachable from the entry and hold no nodes (left behind after
/// `break`, `return`, ...), renumbering the rest. Entry and exit keep ids 0 and 1.
fn prune(
    blocks: IndexVec<BlockId, Block>,
    mut loops: IndexVec<LoopId, Loop>,
) -> (IndexVec<BlockId, Block>, IndexVec<LoopId, Loop>) {
    let mut reachable: IndexVec<BlockId, bool> = blocks.iter().map(|_| false).collect();
    let mut stack = vec![BlockId(0)];
    while let Some(b) = stack.pop() {
        if std::mem::replace(&mut reachable[b], true) {
            continue;
        }
        stack.extend(blocks[b].succs.iter().copied());
    }
    let mut keep: IndexVec<BlockId, bool> = blocks
        .iter_enumerated()
        .map(|(i, b)| i.0 < 2 || reachable[i] || !b.nodes.is_empty())
        .collect();
    for l in &loops {
        keep[l.header] = true;
    }
    let mut new_id: IndexVec<BlockId, BlockId> = blocks.iter().map(|_| BlockId(u32::MAX)).collect();
    let mut next = 0;
    for i in blocks.indices() {
        if keep[i] {
            new_id[i] = BlockId(next);
            next += 1;
        }
    }
    let remap = |ids: &[BlockId]| -> Vec<BlockId> {
        ids.iter()
            .filter(|&&b| keep[b])
            .map(|&b| new_id[b])
            .collect()
    };
    let out = blocks
        .iter_enumerated()
        .filter(|(i, _)| keep[*i])
        .map(|(_, b)| Block {
            nodes: b.nodes.clone(),
            succs: remap(&b.succs),
            preds: remap(&b.preds),
            loop_id: b.loop_id,
        })
        .collect();
    for l in &mut loops {
        l.header = new_id[l.header];
    }
    (out, loops)
}
