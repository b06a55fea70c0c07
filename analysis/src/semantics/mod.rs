//! Analyses over the IR: interprocedural side effects (and, later, symbolic ranges, the data
//! environment and validity).

pub mod allocation;
pub mod bounds;
pub mod constants;
pub mod effects;
pub mod launch;
pub mod member_lengths;
pub mod sections;
pub mod symbolic;
pub mod timing;
pub mod unknowns;
pub mod validity;
