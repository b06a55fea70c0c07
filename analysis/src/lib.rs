//! omplens analysis library: everything that knows C, OpenMP and data flow.
//! Knows nothing of LSP or JSON-RPC; exposes plain data in editor terms.
//!
//! No `unsafe` code, except in `frontend/libclang.rs`, the safe cursor API over libclang.
#![deny(unsafe_code)]

pub mod budget;
pub mod check;
pub mod coalesce;
pub mod db;
pub mod frontend;
pub mod ide;
pub mod ir;
pub mod plan;
pub mod pragma;
pub mod project;
pub mod rewrite;
pub mod semantics;
pub mod text;
pub mod view;

/// The test tiers and the missing-tool policy, shared with the `omplens-tests` crate (one
/// file, so one policy).
#[cfg(test)]
#[path = "../../tests/src/tier.rs"]
#[allow(dead_code)]
mod tier;
