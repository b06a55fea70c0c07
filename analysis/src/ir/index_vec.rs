//! `IndexVec<I, T>`: a vector indexed by a typed id (`module.directives[dir]`), so an id of
//! one space cannot silently index another space's arena.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// An id that indexes an [`IndexVec`].
pub trait Idx: Copy {
    fn from_usize(i: usize) -> Self;
    fn index(self) -> usize;
}

/// Implements [`Idx`] for `u32` newtypes (`struct DirId(pub u32)`).
macro_rules! impl_idx {
    ($($t:ty),*) => {$(
        impl $crate::ir::index_vec::Idx for $t {
            fn from_usize(i: usize) -> Self {
                Self(u32::try_from(i).expect("arena index fits in u32"))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}
pub(crate) use impl_idx;

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IndexVec<I, T> {
    raw: Vec<T>,
    _id: PhantomData<fn(I) -> I>,
}

impl<I: Idx, T> IndexVec<I, T> {
    pub fn new() -> Self {
        IndexVec {
            raw: Vec::new(),
            _id: PhantomData,
        }
    }
    /// Appends `value` and returns its id.
    pub fn push(&mut self, value: T) -> I {
        let id = I::from_usize(self.raw.len());
        self.raw.push(value);
        id
    }
    /// The id the next `push` returns.
    pub fn next_id(&self) -> I {
        I::from_usize(self.raw.len())
    }
    pub fn len(&self) -> usize {
        self.raw.len()
    }
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }
    pub fn get(&self, id: I) -> Option<&T> {
        self.raw.get(id.index())
    }
    pub fn get_mut(&mut self, id: I) -> Option<&mut T> {
        self.raw.get_mut(id.index())
    }
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }
    /// Every id, in order.
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + use<I, T> {
        (0..self.raw.len()).map(I::from_usize)
    }
    /// `(id, value)` pairs in id order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + '_ {
        self.raw
            .iter()
            .enumerate()
            .map(|(i, t)| (I::from_usize(i), t))
    }
    pub fn as_slice(&self) -> &[T] {
        &self.raw
    }
}

impl<I: Idx, T> Default for IndexVec<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I, T: fmt::Debug> fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.raw.fmt(f)
    }
}

impl<I: Idx, T> Index<I> for IndexVec<I, T> {
    type Output = T;
    fn index(&self, id: I) -> &T {
        &self.raw[id.index()]
    }
}

impl<I: Idx, T> IndexMut<I> for IndexVec<I, T> {
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.raw[id.index()]
    }
}

impl<I, T> From<Vec<T>> for IndexVec<I, T> {
    fn from(raw: Vec<T>) -> Self {
        IndexVec {
            raw,
            _id: PhantomData,
        }
    }
}

impl<I, T> FromIterator<T> for IndexVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        Vec::from_iter(iter).into()
    }
}

impl<I, T> IntoIterator for IndexVec<I, T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.into_iter()
    }
}

impl<'a, I, T> IntoIterator for &'a IndexVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

impl<'a, I, T> IntoIterator for &'a mut IndexVec<I, T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter_mut()
    }
}
