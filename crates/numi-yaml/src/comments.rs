//! The comments of a YAML text, as the parser sees them: a `#` starts a
//! comment only at the start of a line or after white space, and never
//! inside a scalar. Which bytes a scalar holds comes from saphyr's events,
//! one pass over the text, so a `#` in a quoted, multi-line or block scalar
//! (text a document's author may not control) is never read as a comment.
//!
//! saphyr gives every scalar a span, but three of its edges are not the
//! scalar's own, and are corrected here from the text the span covers:
//!
//! - a scalar with properties (a tag, an anchor) starts at the first of
//!   them, so white space, line breaks and comments may stand between the
//!   span's start and the scalar;
//! - a single- or double-quoted scalar ends where saphyr stopped reading
//!   after the closing quote: past the white space and any comment that
//!   follow it on its line;
//! - a block scalar's span starts at its first content line, but at its
//!   header (or its first property) when it has no content line, or has
//!   properties.
//!
//! A span whose text does not read as its scalar's style says (a quoted
//! scalar without its quotes) makes the whole text have no comments rather
//! than some wrong ones. saphyr's scanner drops comments
//! (saphyr-rs/saphyr#103 asks for comment events); when it emits them,
//! this pass becomes part of the one load.

use std::borrow::Cow;

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::readable::for_spans;
use super::{LineIndex, surrogates};

/// One comment of a text: from its `#` to the end of its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment<'t> {
    /// The byte offset of the `#` in the text.
    pub offset: usize,
    /// The line the comment stands on, from 1, counted as YAML counts
    /// lines: a line feed, a carriage return, or the two together end one.
    pub line: u32,
    /// Whether only white space stands before it on its line.
    pub alone: bool,
    /// From the `#` to the end of the line, its line break left out.
    pub text: &'t str,
}

/// The comments of `text`, in text order; `None` when `text` is not YAML
/// numi reads: saphyr refuses it, or a double-quoted scalar holds half of
/// a surrogate pair escape.
pub fn comments(text: &str) -> Option<Vec<Comment<'_>>> {
    let scalars = scalar_extents(&readable(text)?)?;
    Some(outside(text, &scalars))
}

/// `text` as saphyr can read it, every scalar where it stands in `text`:
/// saphyr refuses a surrogate escape, so the probe spells each one as
/// another escape of the same length, then the corrections of
/// [`super::readable`].
pub(super) fn readable(text: &str) -> Option<Cow<'_, str>> {
    let probed = match surrogates::rewrite(text) {
        None => Cow::Borrowed(text),
        Some(rewritten) if rewritten.lone.is_some() => return None,
        Some(_) => Cow::Owned(surrogates::probe(text)),
    };
    Some(for_spans(probed))
}

/// The byte ranges of `text` that its scalars hold, in text order, or
/// `None` when saphyr refuses the text or a span does not read as its
/// scalar.
fn scalar_extents(text: &str) -> Option<Vec<(usize, usize)>> {
    let (extents, whole) = styled_extents(text);
    let mut extents: Vec<(usize, usize)> = whole?.then(|| {
        extents
            .iter()
            .map(|&(start, end, _)| (start, end))
            .collect()
    })?;
    // Spans come in text order; sorting keeps the scan below right even if
    // a parser version did otherwise.
    extents.sort_unstable();
    Some(extents)
}

/// The byte ranges of `text` that its single- and double-quoted scalars
/// hold, in text order, up to where saphyr stops reading it: there YAML
/// allows every character but the C0 controls, as JSON does in a string.
pub(super) fn quoted_extents(text: &str) -> Vec<(usize, usize)> {
    let Some(readable) = readable(text) else {
        return Vec::new();
    };
    let (extents, _) = styled_extents(&readable);
    let mut quoted: Vec<(usize, usize)> = extents
        .into_iter()
        .filter(|&(_, _, style)| {
            matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted)
        })
        .map(|(start, end, _)| (start, end))
        .collect();
    quoted.sort_unstable();
    quoted
}

/// The byte ranges of `text` that its quoted and block scalars hold, each
/// with whether it is a block scalar, in text order; `None` when saphyr
/// refuses the text or a span does not read as its scalar.
pub fn quoted_and_block_extents(text: &str) -> Option<Vec<(usize, usize, bool)>> {
    let readable = readable(text)?;
    let (extents, whole) = styled_extents(&readable);
    if whole != Some(true) {
        return None;
    }
    let mut found: Vec<(usize, usize, bool)> = extents
        .into_iter()
        .filter(|&(_, _, style)| style != ScalarStyle::Plain)
        .map(|(start, end, style)| {
            (
                start,
                end,
                matches!(style, ScalarStyle::Literal | ScalarStyle::Folded),
            )
        })
        .collect();
    found.sort_unstable();
    Some(found)
}

/// The byte ranges of `text` that its scalars hold, in text order, up to
/// where saphyr stops reading it.
pub(super) fn held_by_scalars(text: &str) -> Vec<(usize, usize)> {
    let (extents, _) = styled_extents(text);
    let mut held: Vec<(usize, usize)> = extents
        .into_iter()
        .map(|(start, end, _)| (start, end))
        .collect();
    held.sort_unstable();
    held
}

/// The byte range and style of each scalar of `text` up to saphyr's first
/// error, and whether saphyr read the whole text: `None` when a span does
/// not read as its scalar.
fn styled_extents(text: &str) -> (Vec<(usize, usize, ScalarStyle)>, Option<bool>) {
    let mut cursor = Cursor::default();
    let mut extents = Vec::new();
    for next in Parser::new_from_str(text) {
        let Ok((event, span)) = next else {
            return (extents, Some(false));
        };
        let Event::Scalar(value, style, anchor, tag) = event else {
            continue;
        };
        let Some(found) = styled_extent(
            text,
            &mut cursor,
            &span,
            style,
            &value,
            anchor != 0 || tag.is_some(),
        ) else {
            return (extents, None);
        };
        extents.extend(found);
    }
    (extents, Some(true))
}

/// The byte range of one scalar, from its span: `Some(None)` for a scalar
/// that holds no text of the document.
fn styled_extent(
    text: &str,
    cursor: &mut Cursor,
    span: &saphyr_parser::Span,
    style: ScalarStyle,
    value: &str,
    has_properties: bool,
) -> Option<Option<(usize, usize, ScalarStyle)>> {
    // An empty plain scalar holds no text, whatever its span says: after a
    // directive of characters wider than a byte, saphyr spans the empty
    // scalar of the document that follows past the end of the text.
    if style == ScalarStyle::Plain && value.is_empty() {
        return Some(None);
    }
    let start = cursor.byte_of(text, span.start.index())?;
    let end = cursor.byte_of(text, span.end.index())?;
    let spanned = text.get(start..end)?;
    let node = if has_properties {
        after_properties(spanned)
    } else {
        0
    };
    let Some((from, to)) = extent(spanned, node, style, value, has_properties)? else {
        return Some(None);
    };
    Some(Some((
        start.checked_add(from)?,
        start.checked_add(to)?,
        style,
    )))
}

/// Where the scalar of a span stands within `spanned`, the text of its
/// span, given that its node starts at byte `node` (after its
/// properties): `Some(None)` for a scalar that holds no text of the
/// document, `None` when the span does not read as a scalar of `style`.
fn extent(
    spanned: &str,
    node: usize,
    style: ScalarStyle,
    value: &str,
    has_properties: bool,
) -> Option<Option<(usize, usize)>> {
    let end = spanned.len();
    match style {
        // An empty plain scalar (a key's missing value) holds no text,
        // whatever its span covers: saphyr spans the value of a key
        // written alone in a flow mapping over what follows it.
        ScalarStyle::Plain if value.is_empty() => Some(None),
        ScalarStyle::Plain => Some((node < end).then_some((node, end))),
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
            let quoted = spanned.get(node..)?;
            let length = quoted_length(quoted, style == ScalarStyle::SingleQuoted)?;
            Some(Some((node, node.checked_add(length)?)))
        }
        ScalarStyle::Literal | ScalarStyle::Folded => {
            // Without a content line the value is line breaks only, and
            // the span holds at most the header, its comment and blank
            // lines: nothing of it is the scalar's text.
            if value.chars().all(|c| c == '\n') {
                return Some(None);
            }
            if !has_properties {
                return Some(Some((0, end)));
            }
            let header = spanned.get(node..)?;
            if !header.starts_with(['|', '>']) {
                return None;
            }
            let header_end = header.find(['\n', '\r'])?;
            let content = node.checked_add(header_end)?.checked_add(1)?;
            Some(Some((content.min(end), end)))
        }
    }
}

/// The bytes a node's properties take at the start of `spanned`, with the
/// white space, line breaks and comments around them. A property is a run
/// of characters without white space, so a `#` within one (`!a#b`) is not
/// a comment's.
fn after_properties(spanned: &str) -> usize {
    let mut at = 0;
    while let Some(rest) = spanned.get(at..) {
        let Some(first) = rest.chars().next() else {
            break;
        };
        let taken = match first {
            ' ' | '\t' | '\n' | '\r' => 1,
            '#' => rest.find(['\n', '\r']).unwrap_or(rest.len()),
            '!' | '&' => rest.find([' ', '\t', '\n', '\r']).unwrap_or(rest.len()),
            _ => break,
        };
        at += taken;
    }
    at
}

/// The bytes of the quoted scalar `quoted` starts with, both quotes
/// included: a single-quoted scalar escapes its quote by doubling it, a
/// double-quoted one with a backslash.
fn quoted_length(quoted: &str, single: bool) -> Option<usize> {
    let quote = if single { '\'' } else { '"' };
    let mut chars = quoted.char_indices();
    if chars.next()?.1 != quote {
        return None;
    }
    while let Some((at, c)) = chars.next() {
        if c == quote {
            if single && quoted.get(at + 1..)?.starts_with('\'') {
                chars.next();
                continue;
            }
            return Some(at + 1);
        }
        if c == '\\' && !single {
            chars.next();
        }
    }
    None
}

/// Every comment of `text` outside `scalars` (sorted byte ranges).
fn outside<'t>(text: &'t str, scalars: &[(usize, usize)]) -> Vec<Comment<'t>> {
    let bytes = text.as_bytes();
    let lines = LineIndex::new(text);
    let mut found = Vec::new();
    let mut scalars = scalars.iter().peekable();
    let mut after_blank = true;
    let mut line_has_content = false;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        while scalars.next_if(|&&(_, end)| end <= at).is_some() {}
        let in_scalar = scalars.peek().is_some_and(|&&(start, _)| start <= at);
        match byte {
            b'\r' | b'\n' => {
                after_blank = true;
                line_has_content = false;
            }
            b'#' if after_blank && !in_scalar => {
                let end = text
                    .get(at..)
                    .and_then(|rest| rest.find(['\n', '\r']))
                    .map_or(text.len(), |length| at + length);
                found.push(Comment {
                    offset: at,
                    line: lines.position(at).line,
                    alone: !line_has_content,
                    text: text.get(at..end).unwrap_or_default(),
                });
                at = end;
                continue;
            }
            b' ' | b'\t' => after_blank = true,
            _ => {
                after_blank = false;
                line_has_content = true;
            }
        }
        at += 1;
    }
    found
}

/// Turns saphyr's character indices into byte offsets, walking forward
/// from the last one asked for: spans come in text order.
#[derive(Debug, Default)]
struct Cursor {
    char_index: usize,
    byte: usize,
}

impl Cursor {
    fn byte_of(&mut self, text: &str, char_index: usize) -> Option<usize> {
        if char_index < self.char_index {
            *self = Cursor::default();
        }
        let rest = text.get(self.byte..)?;
        let offset = rest
            .char_indices()
            .map(|(offset, _)| offset)
            .chain(std::iter::once(rest.len()))
            .nth(char_index - self.char_index)?;
        let byte = self.byte.checked_add(offset)?;
        self.char_index = char_index;
        self.byte = byte;
        Some(byte)
    }
}

/// How [`comments`] misreads `text`, if it does: for the tests and the
/// `comments` fuzz target. Its oracle is saphyr's value of each scalar: a
/// character written into a comment, right after its `#`, changes no event
/// of the text, and one written after any other `#` that follows white
/// space or starts a line (one a scalar holds) changes some. A text saphyr
/// refuses has no comments.
#[cfg(any(test, fuzzing))]
#[doc(hidden)]
pub fn disagreement(text: &str) -> Option<String> {
    misread(text, comments(text))
}

/// How `found` misreads the comments of `text`, if it does.
#[cfg(any(test, fuzzing))]
fn misread(text: &str, found: Option<Vec<Comment<'_>>>) -> Option<String> {
    let Some(original) = events(text) else {
        return found.map(|found| format!("saphyr refuses it, yet {found:?}"));
    };
    let Some(found) = found else {
        return Some("saphyr reads it, yet no comments".to_owned());
    };
    let mut in_comment = found.iter().map(|c| c.offset..c.offset + c.text.len());
    let mut current = in_comment.next();
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices('#') {
        while current.as_ref().is_some_and(|range| range.end <= at) {
            current = in_comment.next();
        }
        let starts_comment = current.as_ref().is_some_and(|range| range.start == at);
        let within_comment = current.as_ref().is_some_and(|range| range.contains(&at));
        if within_comment && !starts_comment {
            continue;
        }
        let after_blank =
            at == 0 || matches!(bytes.get(at - 1), Some(b' ' | b'\t' | b'\n' | b'\r'));
        if !after_blank {
            continue;
        }
        let (before, after) = (text.get(..at)?, text.get(at + 1..)?);
        let unchanged = events(&format!("{before}#!{after}")).as_ref() == Some(&original);
        if unchanged != starts_comment {
            let what = if starts_comment {
                "taken for a comment, but a scalar holds it"
            } else {
                "a comment, but not found"
            };
            return Some(format!("the `#` at byte {at} is {what}"));
        }
    }
    None
}

/// saphyr's events of `text`, spans left out, or `None` when it refuses it.
#[cfg(any(test, fuzzing))]
fn events(text: &str) -> Option<Vec<String>> {
    Parser::new_from_str(&readable(text)?)
        .map(|next| next.ok().map(|(event, _)| format!("{event:?}")))
        .collect()
}

#[cfg(test)]
#[path = "comments_tests.rs"]
mod tests;
