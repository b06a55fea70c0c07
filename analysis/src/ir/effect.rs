//! What a function does to data visible outside it, per kind of access: the unit of the
//! interprocedural summaries (`semantics::effects`), here so that a summary read from another
//! translation unit ([`super::Function::external`]) can be carried by the IR.

use super::access::AccessKind;
use super::cfg::Exec;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Reads and writes, split by where they run relative to the function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Effect {
    pub here_read: bool,
    pub here_write: bool,
    pub kernel_read: bool,
    pub kernel_write: bool,
    /// Part of the effect is a guess: the data reaches a call omplens cannot see into (a
    /// function without a body here, a call that depends on a template parameter).
    pub opaque: bool,
}

impl Effect {
    pub fn is_empty(&self) -> bool {
        *self == Effect::default()
    }

    /// Adds `other` to `self`; true if anything new was added.
    pub fn merge(&mut self, other: Effect) -> bool {
        let before = *self;
        self.here_read |= other.here_read;
        self.here_write |= other.here_write;
        self.kernel_read |= other.kernel_read;
        self.kernel_write |= other.kernel_write;
        self.opaque |= other.opaque;
        *self != before
    }

    pub(crate) fn access(kind: AccessKind, in_kernel: bool) -> Effect {
        let (r, w) = (kind.reads(), kind.writes());
        if in_kernel {
            Effect {
                kernel_read: r,
                kernel_write: w,
                ..Effect::default()
            }
        } else {
            Effect {
                here_read: r,
                here_write: w,
                ..Effect::default()
            }
        }
    }

    /// The callee's effect seen from a call site that is itself inside a kernel (`in_kernel`)
    /// or not: everything the callee does runs on the device when it is called from a kernel.
    pub fn at_call_site(self, in_kernel: bool) -> Effect {
        if in_kernel {
            Effect {
                kernel_read: self.here_read || self.kernel_read,
                kernel_write: self.here_write || self.kernel_write,
                opaque: self.opaque,
                ..Effect::default()
            }
        } else {
            self
        }
    }

    /// Absolute effect for a function that runs in `exec`.
    pub fn spaces(self, exec: Exec) -> SpaceEffect {
        SpaceEffect {
            host_read: self.here_read && exec.on_host(),
            host_write: self.here_write && exec.on_host(),
            device_read: self.kernel_read || (self.here_read && exec.on_device()),
            device_write: self.kernel_write || (self.here_write && exec.on_device()),
        }
    }
}

/// Reads and writes by memory space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpaceEffect {
    pub host_read: bool,
    pub host_write: bool,
    pub device_read: bool,
    pub device_write: bool,
}

impl std::fmt::Display for SpaceEffect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let part = |r: bool, w: bool| match (r, w) {
            (true, true) => Some("read-write"),
            (true, false) => Some("read"),
            (false, true) => Some("write"),
            (false, false) => None,
        };
        let mut parts = Vec::new();
        if let Some(p) = part(self.host_read, self.host_write) {
            parts.push(format!("host {p}"));
        }
        if let Some(p) = part(self.device_read, self.device_write) {
            parts.push(format!("device {p}"));
        }
        write!(f, "{}", parts.join(", "))
    }
}

/// A polynomial as it travels in a summary: (factors, coefficient) per term.
pub type EncodedPoly = Vec<(Vec<String>, i64)>;

/// What a function defined in another translation unit of the project does (its summary
/// there, with its globals by name): what a call of it here does, for a function with no
/// body in this file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalSummary {
    /// The file that defines it.
    pub file: String,
    /// Per parameter: the data it points or refers to.
    pub params: Vec<Effect>,
    /// The object of a C++ member function.
    pub this: Effect,
    /// The data inside members, by member name.
    pub members: BTreeMap<String, Effect>,
    /// Globals with external linkage, by name.
    pub globals: BTreeMap<String, Effect>,
    /// The bytes of the allocation it returns, in its parameters' names
    /// (`semantics::member_lengths::returned_bytes`).
    #[serde(default)]
    pub returns_bytes: Option<EncodedPoly>,
    /// It maps data or launches kernels there (or calls a function that does): the effects
    /// above say what its kernels and its host code touch, not how it maps them.
    #[serde(default)]
    pub launches: bool,
    /// For a function that `launches`, per parameter: what it leaves of the data the
    /// parameter points to when that data is mapped at its entry with both copies valid
    /// (None: not a pointer, or not known).
    #[serde(default)]
    pub present_exits: Vec<Option<PresentExit>>,
    /// Per parameter: its data's first access in the body's text, on the host, writes it
    /// without reading it (a host reference filling its scratch buffer before using it).
    /// The summary's effects have no order: a caller cannot be sure such a function reads
    /// the data the caller gave it.
    #[serde(default)]
    pub writes_first: Vec<bool>,
}

/// Which copies of data mapped at a function's entry (both valid then) are certainly valid
/// at its exit: a copy still valid after the function wrote the other one was refreshed by
/// it (`target update`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresentExit {
    pub host_valid: bool,
    pub dev_valid: bool,
}
