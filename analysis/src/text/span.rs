//! [`Span`]: a half-open byte range in a file.

/// Byte range in the *file* (base offset added), half-open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end`.
    pub const fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Length in bytes.
    pub fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    /// True for a zero-width span.
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// True when `offset` lies inside the span (half-open).
    pub fn contains(self, offset: u32) -> bool {
        self.start <= offset && offset < self.end
    }
}
