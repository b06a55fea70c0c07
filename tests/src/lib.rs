//! Shared helpers for the end-to-end tests. The corpus tests live in the integration tests;
//! the oracle (real host offloading with clang-19 and libomptarget) lives here.

#![deny(unsafe_code)]

pub mod fix_programs;
pub mod omplens_bin;
pub mod oracle;
pub mod oracle_log;
pub mod snapshot;
pub mod tier;

pub use oracle::{
    available as oracle_available, check, run_offload, run_reference, OracleError, OracleRun,
    Verdict,
};
pub use oracle_log::{
    parse_info_log, DataOp, DataOpKind, InfoLog, KernelArg, KernelLaunch, Transfer, UnmappedUse,
};
