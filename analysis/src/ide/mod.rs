//! The front door of the analysis, in rust-analyzer's manner: an [`AnalysisHost`] owns the
//! incremental database and takes [`Change`]s (file texts, compile flags, closed files); an
//! [`Analysis`] is a snapshot of it that answers questions in editor terms (findings after
//! suppressions and configuration, the mapping plan, the editor view, the lowered module).
//! `omplens check`, `fix`, `plan`, `ir`, the language server and the tests all go through
//! it; nothing above this module touches the database.
//!
//! Snapshots are cheap clones of the database sharing its storage. A change applied to the
//! host cancels the queries running on snapshots (they return [`Cancelled`]) and waits until
//! every snapshot is dropped: never hold one across a change.

mod dump;
pub mod gate;
mod host;
mod snapshot;

pub use dump::render_ir;
pub use host::{AnalysisHost, Change};
pub use snapshot::{Analysis, Diagnostics};

pub use crate::view::{
    var_at, AccessState, DirectiveView, Entered, FileView, Implicit, Traffic, Transfer, Validity,
    VarInfo, When,
};

/// A query stopped because the host took a change while it ran.
pub use salsa::Cancelled;

/// The result of a question asked of a snapshot: `Err(Cancelled)` when a change arrived
/// meanwhile (ask a new snapshot).
pub type Cancellable<T> = Result<T, Cancelled>;
