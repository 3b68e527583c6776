//! Where something stands in a source text: a position as people count it,
//! and a range of bytes.

use std::fmt;

/// A place in a source file, both numbers counted from 1; the column counts
/// characters, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} column {}", self.line, self.column)
    }
}

/// A range of bytes of a source text, `start..end`: where the node or key
/// a finding is about stands. Offsets past 4 GiB are held as 4 GiB; the
/// file size limit keeps texts far below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The range `start..end`; an `end` before `start` is taken as `start`.
    pub fn new(start: usize, end: usize) -> Self {
        let start = u32::try_from(start).unwrap_or(u32::MAX);
        let end = u32::try_from(end).unwrap_or(u32::MAX).max(start);
        Span { start, end }
    }

    /// An empty range at `offset`.
    pub fn at(offset: usize) -> Self {
        Span::new(offset, offset)
    }

    pub fn start(self) -> usize {
        usize::try_from(self.start).unwrap_or(usize::MAX)
    }

    pub fn end(self) -> usize {
        usize::try_from(self.end).unwrap_or(usize::MAX)
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start()..self.end()
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}
