//! UTF-16 surrogate pairs in double-quoted scalars: `"\ud83d\ude00"` is how
//! JSON writers (Python's `json.dumps` among them) spell a character beyond
//! the Basic Multilingual Plane, and YAML 1.2 reads the pair as that one
//! character. saphyr refuses each half, so before saphyr reads a text that
//! holds such an escape, each pair inside a double-quoted scalar is written
//! as the one `\UXXXXXXXX` escape it stands for; a half without its partner
//! is reported at its own position.
//!
//! Which escapes stand in double-quoted scalars (elsewhere, in plain or
//! single-quoted scalars, block scalars and comments, `\ud83d` is text) saphyr
//! says itself: it first reads a probe, the text with each surrogate escape
//! made a valid escape of the same length, and names where each double-quoted
//! scalar stands.
//!
//! The rewrite is two characters shorter per pair, so the positions saphyr
//! gives on that line after the pair are two columns short: [`Shifts`] puts
//! them back where the reader sees them.
//!
//! Only a text with a `\u` escape of a surrogate pays for any of this; for
//! any other text [`rewrite`] is one search for `\u`.

use std::borrow::Cow;

use saphyr_parser::{Event, Parser, ScalarStyle};

use crate::Position;
use crate::readable::for_spans;

/// Where a rewritten text's columns fall short of the original's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Shifts {
    /// `(line, column)` in the rewritten text from which each pair's two
    /// missing columns count, in text order.
    after: Vec<(u32, u32)>,
    /// The byte offsets in the rewritten text from which each pair's two
    /// missing bytes count, in text order.
    after_bytes: Vec<usize>,
}

/// Columns one pair's rewrite saves: `\uD83D\uDE00` (12) as `\U0001F600` (10).
const PAIR_SAVING: u32 = 2;

/// Bytes one pair's rewrite saves: the escapes are ASCII.
const PAIR_BYTES: usize = 2;

/// No rewrite: every position stands as saphyr gives it.
pub(super) static NO_SHIFTS: Shifts = Shifts {
    after: Vec::new(),
    after_bytes: Vec::new(),
};

impl Shifts {
    pub(super) fn is_empty(&self) -> bool {
        self.after_bytes.is_empty()
    }

    /// The byte offset in the original text of `offset`, a byte offset in
    /// the rewritten one.
    pub(super) fn original_offset(&self, offset: usize) -> usize {
        let pairs = self.after_bytes.partition_point(|&point| point <= offset);
        offset.saturating_add(pairs.saturating_mul(PAIR_BYTES))
    }

    /// The position in the original text of `at`, a position in the
    /// rewritten one.
    pub(super) fn original(&self, at: Position) -> Position {
        if self.after.is_empty() {
            return at;
        }
        let line_start = self.after.partition_point(|&(line, _)| line < at.line);
        let up_to = self
            .after
            .partition_point(|&point| point <= (at.line, at.column));
        let pairs = u32::try_from(up_to.saturating_sub(line_start)).unwrap_or(u32::MAX);
        Position {
            line: at.line,
            column: at.column.saturating_add(pairs.saturating_mul(PAIR_SAVING)),
        }
    }
}

/// A text saphyr can read, standing for the original.
#[derive(Debug)]
pub(super) struct Rewritten {
    pub(super) text: String,
    pub(super) shifts: Shifts,
    /// The first surrogate escape without its partner, and where it stands in
    /// the original text.
    pub(super) lone: Option<(String, Position)>,
}

/// `None` when `text` holds no `\u` escape of a surrogate, the usual case.
pub(super) fn rewrite(text: &str) -> Option<Rewritten> {
    if !text
        .match_indices("\\u")
        .any(|(offset, _)| surrogate_at(text.as_bytes(), offset).is_some())
    {
        return None;
    }
    let probe = probe(text);
    // saphyr reads the probe with the corrections the loader reads the
    // text with (a tab after a `:` read as a space, a directive line in
    // ASCII), each of which keeps every byte where it stood. Without them
    // saphyr would stop at such a tab, or count a directive's characters
    // wrong, and the scalars after it would keep the probe's escapes.
    let (spans, complete) = double_quoted_spans(&for_spans(Cow::Borrowed(probe.as_str())));
    // Past the first error saphyr reads nothing more, but its scanner may
    // stop there before it has handed over a scalar standing just before;
    // that tail is read as the probe, so the error is the one reported.
    let tail = if complete { text } else { &probe };
    Some(rewrite_in(text, &spans, tail))
}

/// The UTF-16 unit of the `\uXXXX` escape at byte `offset`, when it is one
/// and a surrogate.
fn surrogate_at(bytes: &[u8], offset: usize) -> Option<u16> {
    let escape = bytes.get(offset..offset.checked_add(6)?)?;
    let (prefix, digits) = escape.split_at_checked(2)?;
    if prefix != b"\\u" {
        return None;
    }
    let digits = std::str::from_utf8(digits).ok()?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let unit = u16::from_str_radix(digits, 16).ok()?;
    (0xD800..=0xDFFF).contains(&unit).then_some(unit)
}

/// `text` with every surrogate escape made a valid escape of the same length
/// (its first digit `D` becomes `0`): the same structure and positions, so
/// saphyr can say where the double-quoted scalars are, escapes written in
/// other scalars or comments included.
pub(super) fn probe(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for (offset, _) in text.match_indices("\\u") {
        if surrogate_at(text.as_bytes(), offset).is_none() {
            continue;
        }
        if let Some(digit) = bytes.get_mut(offset + 2) {
            *digit = b'0';
        }
    }
    // Only an ASCII hex digit changed into another ASCII digit.
    String::from_utf8(bytes).unwrap_or_default()
}

/// The byte ranges of the double-quoted scalars of `text`, up to the first
/// error if there is one, and whether there is none.
fn double_quoted_spans(text: &str) -> (Vec<(usize, usize)>, bool) {
    let mut spans = Vec::new();
    let mut complete = true;
    for next in Parser::new_from_str(text) {
        match next {
            Ok((Event::Scalar(_, ScalarStyle::DoubleQuoted, _, _), span)) => {
                spans.push((span.start.index(), span.end.index()));
            }
            Ok((Event::StreamEnd, _)) => break,
            Err(_) => {
                complete = false;
                break;
            }
            Ok(_) => {}
        }
    }
    (in_bytes(text, spans), complete)
}

/// `spans`, character ranges of `text` in text order (saphyr's indices),
/// as byte ranges.
fn in_bytes(text: &str, spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut offsets = text
        .char_indices()
        .map(|(offset, _)| offset)
        .chain(std::iter::once(text.len()))
        .peekable();
    let mut at = 0;
    let mut byte_of = |index: usize| {
        while at < index && offsets.next().is_some() {
            at += 1;
        }
        offsets.peek().copied().unwrap_or(text.len())
    };
    spans
        .into_iter()
        .map(|(start, end)| (byte_of(start), byte_of(end)))
        .collect()
}

/// Walks the original text a character at a time, counting lines as saphyr
/// does (a line feed, a carriage return, or both together end a line).
struct Cursor<'t> {
    text: &'t str,
    offset: usize,
    line: u32,
    column: u32,
    /// Pairs rewritten so far on this line.
    saved_on_line: u32,
}

impl Cursor<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.offset..).unwrap_or_default()
    }

    fn position(&self) -> Position {
        Position {
            line: self.line,
            column: self.column,
        }
    }

    /// Moves past the next character, copying it to `out`.
    fn copy(&mut self, out: &mut String) -> Option<char> {
        let c = self.rest().chars().next()?;
        out.push(c);
        self.offset += c.len_utf8();
        let line_break = c == '\n' || (c == '\r' && !self.rest().starts_with('\n'));
        if line_break {
            self.line = self.line.saturating_add(1);
            self.column = 1;
            self.saved_on_line = 0;
        } else {
            self.column = self.column.saturating_add(1);
        }
        Some(c)
    }

    /// Moves past `count` ASCII characters of an escape, writing `written`
    /// in their place.
    fn replace(&mut self, count: usize, written: &str, out: &mut String) {
        out.push_str(written);
        self.offset += count;
        self.column = self
            .column
            .saturating_add(u32::try_from(count).unwrap_or(u32::MAX));
    }
}

/// `text` with the surrogate escapes of `spans` rewritten, then, after the
/// last span, `tail` (the same text or its probe, of the same length).
fn rewrite_in(text: &str, spans: &[(usize, usize)], tail: &str) -> Rewritten {
    let mut out = String::with_capacity(text.len());
    let mut shifts = Shifts::default();
    let mut lone = None;
    let mut cursor = Cursor {
        text,
        offset: 0,
        line: 1,
        column: 1,
        saved_on_line: 0,
    };
    for &(start, end) in spans {
        while cursor.offset < start && cursor.copy(&mut out).is_some() {}
        while cursor.offset < end {
            let bytes = text.as_bytes();
            let Some(unit) = surrogate_at(bytes, cursor.offset) else {
                // A backslash escapes the character after it: `\\u...` is a
                // backslash and text, not an escape.
                if cursor.copy(&mut out) == Some('\\') {
                    cursor.copy(&mut out);
                }
                if cursor.offset >= text.len() {
                    break;
                }
                continue;
            };
            let low = surrogate_at(bytes, cursor.offset + 6);
            match (unit, low) {
                (0xD800..=0xDBFF, Some(low @ 0xDC00..=0xDFFF)) => {
                    let scalar =
                        0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                    cursor.replace(12, &format!("\\U{scalar:08X}"), &mut out);
                    shifts.after_bytes.push(out.len());
                    cursor.saved_on_line = cursor.saved_on_line.saturating_add(PAIR_SAVING);
                    shifts.after.push((
                        cursor.line,
                        cursor.column.saturating_sub(cursor.saved_on_line),
                    ));
                }
                _ => {
                    let written = text
                        .get(cursor.offset..cursor.offset + 6)
                        .unwrap_or_default();
                    lone.get_or_insert_with(|| (written.to_owned(), cursor.position()));
                    // Loaded on as a valid escape, so that a problem earlier
                    // in the document is still the one reported.
                    cursor.replace(6, "\\u0000", &mut out);
                }
            }
        }
    }
    out.push_str(tail.get(cursor.offset..).unwrap_or_default());
    Rewritten {
        text: out,
        shifts,
        lone,
    }
}
