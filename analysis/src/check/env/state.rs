//! The abstract state of one object at a program point: which reference counts it may have
//! in the device's present table, whether its host and device copies are valid, and the
//! bookkeeping the waste rules need.

use super::{CopyKey, Why};
use crate::ir::{DirId, Span};
use std::collections::BTreeSet;
use std::rc::Rc;

/// May-valid / may-stale bits of one copy.
pub const VALID: u8 = 1;
pub const STALE: u8 = 2;

/// Possible reference counts as a bit set: bit k for count k (k < 4), bit 4 for "4 or more".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts(pub u8);

impl Counts {
    pub const ZERO: Counts = Counts(1);
    /// Mapped exactly once.
    pub const ONE: Counts = Counts(0b10);
    /// Present with an unknown count (data a caller mapped).
    pub const SOME: Counts = Counts(0b11110);

    pub fn may_be_zero(self) -> bool {
        self.0 & 1 != 0
    }
    pub fn must_be_zero(self) -> bool {
        self.0 == 1
    }
    pub fn may_be_present(self) -> bool {
        self.0 & !1 != 0
    }
    pub fn must_be_present(self) -> bool {
        self.0 != 0 && !self.may_be_zero()
    }
    pub fn inc(self) -> Counts {
        let many = self.0 & 0b11000 != 0;
        Counts(((self.0 << 1) & 0b11110) | if many { 0b10000 } else { 0 })
    }
    /// One release; a count already zero stays zero.
    pub fn dec(self) -> Counts {
        let mut c = (self.0 >> 1) | (self.0 & 1);
        if self.0 & 0b10000 != 0 {
            c |= 0b11000;
        }
        Counts(c)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ObjState {
    pub counts: Counts,
    pub host: u8,
    pub dev: u8,
    /// Why the host copy may be stale (the first reason seen).
    pub host_why: Option<Why>,
    pub dev_why: Option<Why>,
    /// A `target enter data` that mapped it and no exit has released it yet.
    pub entered: Option<DirId>,
    /// Copies to the device that no device read has used yet.
    pub pending_in: BTreeSet<CopyKey>,
    /// The last copy to the host, on every path, with no host access since.
    pub last_out: Option<CopyKey>,
    /// A call whose body omplens does not analyse received the data (on some path): what it
    /// does to the copies is unknown, so a finding about them is not certain.
    pub opaque: Option<Opaque>,
    /// Whether the presence (`counts`) is known where the state came from: set in the states
    /// a call passes to its callee when the caller owns the data or knew its presence from its
    /// own callers; a callee judges its parameters' presence only then.
    pub presence_known: bool,
    /// The last copy between the two sides may have moved only part of the data (an update
    /// of a section other than the one the data is mapped with): where both copies are
    /// valid, they agree on that part only as far as omplens knows, so another copy is not
    /// redundant.
    pub partial_sync: bool,
}

/// A call omplens cannot see into, and where it is called. `what` says why, as a clause:
/// "`fill` has no body in this file", "`run` passes it on to a call omplens cannot see into".
#[derive(Clone, Debug, PartialEq)]
pub struct Opaque {
    pub what: String,
    pub at: Span,
    /// The call receives the data (an argument); else it may only reach it (a global of
    /// external linkage that a function out of sight can name).
    pub passed: bool,
}

impl ObjState {
    /// Nothing on the device; the host copy valid.
    pub fn unmapped() -> ObjState {
        ObjState {
            counts: Counts::ZERO,
            host: VALID,
            dev: STALE,
            host_why: None,
            dev_why: None,
            entered: None,
            pending_in: BTreeSet::new(),
            last_out: None,
            opaque: None,
            presence_known: false,
            partial_sync: false,
        }
    }

    /// Joins the state of another path into this one.
    pub fn join(&mut self, o: &ObjState) {
        self.counts = Counts(self.counts.0 | o.counts.0);
        self.host |= o.host;
        self.dev |= o.dev;
        if self.host_why.is_none() {
            self.host_why = o.host_why.clone();
        }
        if self.dev_why.is_none() || host_write_over_alloc(&self.dev_why, &o.dev_why, self.dev) {
            self.dev_why = o.dev_why.clone();
        }
        if self.entered.is_none() {
            self.entered = o.entered;
        }
        self.pending_in.extend(o.pending_in.iter().copied());
        if self.last_out != o.last_out {
            self.last_out = None;
        }
        if self.opaque.is_none() {
            self.opaque = o.opaque.clone();
        }
        self.presence_known &= o.presence_known;
        self.partial_sync |= o.partial_sync;
    }

    /// Whether joining `o` into this state would change nothing.
    fn covers(&self, o: &ObjState) -> bool {
        self.counts.0 | o.counts.0 == self.counts.0
            && self.host | o.host == self.host
            && self.dev | o.dev == self.dev
            && (self.host_why.is_some() || o.host_why.is_none())
            && (self.dev_why.is_some() || o.dev_why.is_none())
            && !host_write_over_alloc(&self.dev_why, &o.dev_why, self.dev | o.dev)
            && (self.entered.is_some() || o.entered.is_none())
            && o.pending_in.is_subset(&self.pending_in)
            && (self.last_out.is_none() || self.last_out == o.last_out)
            && (self.opaque.is_some() || o.opaque.is_none())
            && (!self.presence_known || o.presence_known)
            && (self.partial_sync || !o.partial_sync)
    }
}

/// Whether the reason `b` for a stale device copy explains a join (whose device validity is
/// `dev`) better than `a`: a host write (a device copy the host made stale) over
/// uninitialized memory from `map(alloc:)` when the device copy may also be valid. Such
/// uninitialized memory is reported only when certain (loops that may run zero times leave it
/// on paths programs rarely mean), so keeping it over the host's write hid a kernel reading
/// what the host filled in a loop and never sent. Stale on every path, the uninitialized
/// memory stays the reason (a certain OMP105).
fn host_write_over_alloc(a: &Option<Why>, b: &Option<Why>, dev: u8) -> bool {
    dev != STALE
        && matches!(a, Some(Why::Alloc { .. }))
        && matches!(
            b,
            Some(Why::Write {
                on_device: false,
                ..
            })
        )
}

/// One state per tracked object, indexed by the object's number. The objects' states are
/// shared between copies until one is written: the fixed point copies a block's state for
/// each block it visits, and a block changes few of its objects (on LULESH's `main`, copying
/// every object's state was most of the analysis). `Rc`, not `Arc`: a state never leaves the
/// thread interpreting its function, and the fixed point's copies were then mostly atomic
/// reference counting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State(Vec<Rc<ObjState>>);

impl State {
    pub fn iter(&self) -> impl Iterator<Item = &ObjState> {
        self.0.iter().map(|s| &**s)
    }
    /// Object `i` takes its state from `other`.
    pub fn take_from(&mut self, i: usize, other: &State) {
        self.0[i] = other.0[i].clone();
    }
    /// Objects `i` and `j` exchange what is known of them (two pointers swapped their data).
    pub fn exchange(&mut self, i: usize, j: usize) {
        self.0.swap(i, j);
    }
}

impl FromIterator<ObjState> for State {
    fn from_iter<I: IntoIterator<Item = ObjState>>(iter: I) -> State {
        State(iter.into_iter().map(Rc::new).collect())
    }
}

impl std::ops::Index<usize> for State {
    type Output = ObjState;
    fn index(&self, i: usize) -> &ObjState {
        &self.0[i]
    }
}

impl std::ops::IndexMut<usize> for State {
    /// The object's own copy of its state (made now if it is shared).
    fn index_mut(&mut self, i: usize) -> &mut ObjState {
        Rc::make_mut(&mut self.0[i])
    }
}

/// Joins `from` into `into`; whether anything changed. An object's state is copied only
/// when the join changes it.
pub fn join_into(into: &mut State, from: &State) -> bool {
    let mut changed = false;
    for (a, b) in into.0.iter_mut().zip(&from.0) {
        if Rc::ptr_eq(a, b) || a.covers(b) {
            continue;
        }
        Rc::make_mut(a).join(b);
        changed = true;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_move_up_and_down() {
        let c = Counts::ZERO.inc();
        assert!(c.must_be_present());
        assert!(c.inc().dec().must_be_present());
        assert!(c.dec().must_be_zero());
        let many = c.inc().inc().inc().inc();
        assert!(many.dec().must_be_present());
        let maybe = Counts(Counts::ZERO.0 | c.0);
        assert!(maybe.may_be_zero() && maybe.may_be_present());
        assert!(Counts::ZERO.dec().must_be_zero());
    }
}
