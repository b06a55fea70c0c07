//! The AST-CFG flattened to single nodes, for the per-object path questions synthesis asks
//! ("can the device copy still be read after this point?").
//!
//! A loop inside a kernel is taken to run at least once, as the validity analysis does: its
//! header does not lead straight to the loop exit; its latches do.

use crate::ir::cfg::{BlockId, Cfg, Exec, LoopId, Node};
use crate::ir::IndexVec;

pub struct NodeGraph<'g> {
    pub cfg: &'g Cfg,
    /// (block, index in block); None for the stand-in of an empty block.
    pub at: Vec<(BlockId, Option<usize>)>,
    pub succs: Vec<Vec<usize>>,
    pub preds: Vec<Vec<usize>>,
}

impl<'g> NodeGraph<'g> {
    pub fn new(cfg: &'g Cfg) -> NodeGraph<'g> {
        let mut at = Vec::new();
        let mut first: IndexVec<BlockId, usize> = IndexVec::new();
        for (b, block) in cfg.blocks.iter_enumerated() {
            first.push(at.len());
            if block.nodes.is_empty() {
                at.push((b, None));
            } else {
                at.extend((0..block.nodes.len()).map(|i| (b, Some(i))));
            }
        }
        let last = |b: BlockId| first[b] + cfg.blocks[b].nodes.len().max(1) - 1;
        let mut block_succs: IndexVec<BlockId, Vec<BlockId>> =
            cfg.blocks.iter().map(|bl| bl.succs.clone()).collect();
        let in_loop = |b: BlockId, l: LoopId| {
            cfg.blocks[b]
                .loop_id
                .is_some_and(|x| cfg.loop_chain(x).any(|c| c == l))
        };
        for (l, lp) in cfg.loops.iter_enumerated() {
            if lp.exec != Exec::Device {
                continue;
            }
            let h = lp.header;
            let exits: Vec<BlockId> = block_succs[h]
                .iter()
                .copied()
                .filter(|&s| !in_loop(s, l))
                .collect();
            let latches: Vec<BlockId> = cfg.blocks[h]
                .preds
                .iter()
                .copied()
                .filter(|&p| in_loop(p, l))
                .collect();
            if latches.is_empty() || exits.is_empty() {
                continue;
            }
            block_succs[h].retain(|s| !exits.contains(s));
            for latch in latches {
                for &e in &exits {
                    if !block_succs[latch].contains(&e) {
                        block_succs[latch].push(e);
                    }
                }
            }
        }
        let mut succs = vec![Vec::new(); at.len()];
        for (b, bs) in block_succs.iter_enumerated() {
            for (i, s) in succs.iter_mut().enumerate().take(last(b)).skip(first[b]) {
                s.push(i + 1);
            }
            succs[last(b)] = bs.iter().map(|&s| first[s]).collect();
        }
        let mut preds = vec![Vec::new(); at.len()];
        for (i, ss) in succs.iter().enumerate() {
            for &s in ss {
                preds[s].push(i);
            }
        }
        NodeGraph {
            cfg,
            at,
            succs,
            preds,
        }
    }

    pub fn node(&self, i: usize) -> Option<&'g Node> {
        let (b, k) = self.at[i];
        k.map(|k| &self.cfg.blocks[b].nodes[k])
    }

    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.at.len()
    }
}
