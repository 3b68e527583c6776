//! The one line index: where the lines of a text start, counted as YAML 1.2
//! and the Language Server Protocol count them (a line feed, a carriage
//! return, or both together end a line), and the conversions between byte
//! offsets, the loader's positions (lines and character columns from 1) and
//! the columns an editor counts (UTF-8 or UTF-16 code units from 0).
//!
//! Findings carry byte ranges; every format turns them into lines and
//! columns here, so they all agree whatever the line ends.

use crate::{Position, Span};

/// The units a column counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// Characters (Unicode scalar values): numi's own positions.
    Chars,
    /// UTF-8 code units, that is bytes.
    Utf8,
    /// UTF-16 code units: the protocol's default.
    Utf16,
}

impl Column {
    fn width(self, c: char) -> u32 {
        let units = match self {
            Column::Chars => 1,
            Column::Utf8 => c.len_utf8(),
            Column::Utf16 => c.len_utf16(),
        };
        u32::try_from(units).unwrap_or(u32::MAX)
    }
}

// The bytes of text this thread's indexes were built over, counted in
// tests only (this crate's, and its callers' through the `counting`
// feature): the tests bound how often a text is indexed.
#[cfg(any(test, feature = "counting"))]
thread_local! {
    static INDEXED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The bytes this thread has indexed since the last call.
#[cfg(any(test, feature = "counting"))]
pub fn take_indexed() -> usize {
    INDEXED.with(|indexed| indexed.replace(0))
}

/// A text and the byte offset where each of its lines starts.
#[derive(Debug, Clone)]
pub struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    pub fn new(text: &'t str) -> Self {
        #[cfg(any(test, feature = "counting"))]
        INDEXED.with(|indexed| indexed.set(indexed.get().saturating_add(text.len())));
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (offset, &byte) in bytes.iter().enumerate() {
            let ends_line = match byte {
                b'\n' => true,
                b'\r' => bytes.get(offset + 1) != Some(&b'\n'),
                _ => false,
            };
            if ends_line {
                starts.push(offset + 1);
            }
        }
        LineIndex { text, starts }
    }

    pub fn text(&self) -> &'t str {
        self.text
    }

    /// The line (from 0) that holds `offset`; an offset past the text is on
    /// the last line.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1)
    }

    /// Where the line `line` (from 0) starts, and where its content ends,
    /// before its line break.
    pub fn line_bounds(&self, line: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(line)?;
        let end = match self.starts.get(line + 1) {
            Some(&next) => {
                let content = self.text.get(start..next).unwrap_or_default();
                let content = content.strip_suffix('\n').unwrap_or(content);
                start + content.strip_suffix('\r').unwrap_or(content).len()
            }
            None => self.text.len(),
        };
        Some((start, end))
    }

    /// How many lines the text has: one more than its line ends.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The text of line `line` (from 1, as numi's positions count lines),
    /// its line break left out.
    pub fn line(&self, line: u32) -> Option<&'t str> {
        let index = usize::try_from(line.checked_sub(1)?).ok()?;
        let (start, end) = self.line_bounds(index)?;
        self.text.get(start..end)
    }

    /// Every line of the text, from the first, their line breaks left out.
    pub fn lines(&self) -> impl Iterator<Item = &'t str> + '_ {
        (0..self.starts.len()).map(|index| {
            self.line_bounds(index)
                .and_then(|(start, end)| self.text.get(start..end))
                .unwrap_or_default()
        })
    }

    /// Where the line that holds `offset` starts.
    pub fn line_start(&self, offset: usize) -> usize {
        self.starts.get(self.line_of(offset)).copied().unwrap_or(0)
    }

    /// Where the content of the line that holds `offset` ends, before its
    /// line break.
    pub fn line_end(&self, offset: usize) -> usize {
        self.line_bounds(self.line_of(offset))
            .map_or(self.text.len(), |(_, end)| end)
    }

    /// The content of the line that holds `offset`, without its line break.
    pub fn line_text(&self, offset: usize) -> &'t str {
        let line = self.line_of(offset);
        self.line_bounds(line)
            .and_then(|(start, end)| self.text.get(start..end))
            .unwrap_or_default()
    }

    /// Where the line after the one that holds `offset` starts; `None` on
    /// the last line.
    pub fn next_line(&self, offset: usize) -> Option<usize> {
        self.starts.get(self.line_of(offset) + 1).copied()
    }

    /// Where the line before the one that holds `offset` starts; `None` on
    /// the first line.
    pub fn previous_line(&self, offset: usize) -> Option<usize> {
        let line = self.line_of(offset).checked_sub(1)?;
        self.starts.get(line).copied()
    }

    /// `offset` moved back onto a character boundary and into the text.
    fn floor(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while offset > 0 && !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// The line (from 0) and column (from 0, in `units`) of a byte offset.
    /// An offset inside a character counts as the character's start, one
    /// past the text as its end.
    pub fn line_column(&self, offset: usize, units: Column) -> (u32, u32) {
        let offset = self.floor(offset);
        let line = self.line_of(offset);
        let start = self.starts.get(line).copied().unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .unwrap_or_default()
            .chars()
            .fold(0u32, |sum, c| sum.saturating_add(units.width(c)));
        (u32::try_from(line).unwrap_or(u32::MAX), column)
    }

    /// The byte offset of a line (from 0) and column (from 0, in `units`).
    /// A column past its line's end (or inside a character) lands on the
    /// nearest character boundary before it; a line past the text is its end.
    pub fn offset_at(&self, line: u32, column: u32, units: Column) -> usize {
        let line = usize::try_from(line).unwrap_or(usize::MAX);
        let Some((start, end)) = self.line_bounds(line) else {
            return self.text.len();
        };
        let mut counted = 0u32;
        for (at, c) in self.text.get(start..end).unwrap_or_default().char_indices() {
            let next = counted.saturating_add(units.width(c));
            if next > column {
                return start + at;
            }
            counted = next;
        }
        end
    }

    /// numi's position (line and character column, both from 1) of a byte
    /// offset.
    pub fn position(&self, offset: usize) -> Position {
        let (line, column) = self.line_column(offset, Column::Chars);
        Position {
            line: line.saturating_add(1),
            column: column.saturating_add(1),
        }
    }

    /// The byte offset of one of numi's positions.
    pub fn offset(&self, position: Position) -> usize {
        self.offset_at(
            position.line.saturating_sub(1),
            position.column.saturating_sub(1),
            Column::Chars,
        )
    }

    /// The character at `position`, as a span: where a finding known only by
    /// its position (a syntax error) points. Empty at the end of a line.
    pub fn character_at(&self, position: Position) -> Span {
        let start = self.offset(position);
        let line = self.line_of(start);
        let end = self.line_bounds(line).map_or(start, |(_, end)| end);
        let length = match self
            .text
            .get(start..end)
            .and_then(|rest| rest.chars().next())
        {
            Some(c) => c.len_utf8(),
            None => 0,
        };
        Span::new(start, start + length)
    }

    /// `span` cut at the end of the line it starts on: one line to underline.
    pub fn first_line(&self, span: Span) -> Span {
        let start = self.floor(span.start());
        let end = self
            .line_bounds(self.line_of(start))
            .map_or(start, |(_, end)| end);
        Span::new(start, self.floor(span.end()).clamp(start, end.max(start)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, column: u32) -> Position {
        Position { line, column }
    }

    #[test]
    fn each_line_end_starts_a_line() {
        for (text, b) in [("a\nb", 2), ("a\r\nb", 3), ("a\rb", 2)] {
            let index = LineIndex::new(text);
            assert_eq!(index.position(b), at(2, 1), "{text:?}");
            assert_eq!(index.offset(at(2, 1)), b, "{text:?}");
            // The line break belongs to the first line, never to a column of
            // the second.
            assert_eq!(index.position(1), at(1, 2), "{text:?}");
            assert_eq!(index.offset(at(1, 9)), 1, "{text:?}");
        }
        // A CRLF is one line end, a CR before a CR is one too.
        let index = LineIndex::new("a\r\n\r\rb\n");
        assert_eq!(index.position(5), at(4, 1));
        assert_eq!(index.position(7), at(5, 1));
        // A text without line ends is one line; an empty text too.
        assert_eq!(LineIndex::new("abc").position(3), at(1, 4));
        assert_eq!(LineIndex::new("").position(0), at(1, 1));
    }

    #[test]
    fn lines_are_cut_at_every_line_end_and_leave_it_out() {
        for end in ["\n", "\r\n", "\r"] {
            let text = ["a: 1", "", "  b", ""].join(end);
            let index = LineIndex::new(&text);
            assert_eq!(index.line_count(), 4, "{text:?}");
            let lines: Vec<&str> = index.lines().collect();
            assert_eq!(lines, ["a: 1", "", "  b", ""], "{text:?}");
            assert_eq!(index.line(3), Some("  b"), "{text:?}");
            assert_eq!((index.line(0), index.line(5)), (None, None), "{text:?}");
        }
    }

    #[test]
    fn multi_byte_characters_count_once_in_numi_columns() {
        let text = "k: é€𝄞 x\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap_or_default();
        assert_eq!(x, 13);
        assert_eq!(index.position(x), at(1, 8));
        assert_eq!(index.offset(at(1, 8)), x);
        // Inside "é": the character's start.
        assert_eq!(index.position(4), at(1, 4));
    }

    #[test]
    fn editor_columns_count_utf8_or_utf16_units() {
        // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" 4 bytes and a surrogate pair.
        let text = "a: é𝄞 x\r\nb: 1\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap_or_default();
        assert_eq!(index.line_column(x, Column::Utf16), (0, 7));
        assert_eq!(index.line_column(x, Column::Utf8), (0, 10));
        assert_eq!(index.offset_at(0, 7, Column::Utf16), x);
        assert_eq!(index.offset_at(0, 10, Column::Utf8), x);
        // Between the two halves of the pair: the character's start.
        assert_eq!(index.offset_at(0, 5, Column::Utf16), 5);
        let b = text.find('b').unwrap_or_default();
        assert_eq!(index.line_column(b, Column::Utf16), (1, 0));
        assert_eq!(index.offset_at(1, 0, Column::Utf16), b);
    }

    #[test]
    fn offsets_at_or_past_the_end_stay_in_the_text() {
        let text = "a: 1\rb";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text.len()), at(2, 2));
        assert_eq!(index.position(999), at(2, 2));
        assert_eq!(index.line_column(999, Column::Utf16), (1, 1));
        // A column past its line ends there, before the line break.
        assert_eq!(index.offset_at(0, 99, Column::Utf16), 4);
        // A line past the text is its end.
        assert_eq!(index.offset_at(9, 0, Column::Utf16), text.len());
        assert_eq!(index.offset(at(0, 0)), 0);
        // A text ending in a line break has an empty last line.
        let index = LineIndex::new("a\n");
        assert_eq!(index.position(2), at(2, 1));
    }

    #[test]
    fn lines_are_walked_the_same_whatever_their_line_ends() {
        for eol in ["\n", "\r\n", "\r"] {
            let text = format!("ab{eol}{eol}cd");
            let index = LineIndex::new(&text);
            let second = 2 + eol.len();
            let third = second + eol.len();
            assert_eq!(index.line_start(1), 0, "{eol:?}");
            assert_eq!(index.line_end(0), 2, "{eol:?}");
            // The line break belongs to the line it ends.
            assert_eq!(index.line_end(2), 2, "{eol:?}");
            assert_eq!(index.line_start(third - 1), second, "{eol:?}");
            assert_eq!(index.line_text(0), "ab", "{eol:?}");
            assert_eq!(index.line_text(second), "", "{eol:?}");
            assert_eq!(index.line_text(third), "cd", "{eol:?}");
            assert_eq!(index.next_line(0), Some(second), "{eol:?}");
            assert_eq!(index.next_line(third), None, "{eol:?}");
            assert_eq!(index.previous_line(third + 1), Some(second), "{eol:?}");
            assert_eq!(index.previous_line(1), None, "{eol:?}");
            assert_eq!(index.line_end(third), text.len(), "{eol:?}");
        }
    }

    #[test]
    fn a_character_and_a_first_line_stay_on_their_line() {
        let text = "ké: v\r\n  w\n";
        let index = LineIndex::new(text);
        assert_eq!(index.character_at(at(1, 2)), Span::new(1, 3));
        assert_eq!(index.character_at(at(1, 9)), Span::new(6, 6));
        assert_eq!(index.first_line(Span::new(0, 10)), Span::new(0, 6));
        assert_eq!(index.first_line(Span::new(4, 5)), Span::new(4, 5));
        assert_eq!(index.first_line(Span::new(99, 120)), Span::new(12, 12));
    }
}
