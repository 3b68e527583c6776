//! A fast path for the plain YAML that policy documents are written in, and
//! for JSON: block mappings and sequences indented with spaces, one-line and
//! multi-line flow collections (a flow mapping may be the whole document, as
//! JSON is), plain scalars on one line, double-quoted scalars on one line
//! with JSON's escapes, and whole-line comments. It feeds the same events,
//! at the same positions, to the same builder as saphyr does, so a document
//! it accepts loads exactly as saphyr would load it, duplicate keys, limits
//! and number forms included.
//!
//! It is deliberately narrow: anything else (anchors, tags, YAML's own
//! escapes, a lone surrogate escape, single quotes, block scalars, folding,
//! trailing comments, empty values, tabs, non-ASCII text, anything
//! malformed) makes it give up, and the caller loads the file with saphyr
//! from the start. So does any error the builder reports, so that every
//! error message comes from the full parser.

use saphyr_parser::{Event, Marker, Span};

use super::{Builder, Document, Limits, Positions, separation, surrogates};

/// The fast path does not apply; load the file with the full parser.
#[derive(Debug)]
pub(super) struct GiveUp;

type Step = Result<(), GiveUp>;

/// Deepest flow nesting the fast path follows; deeper is left to saphyr and
/// the builder's own depth limit.
const MAX_FLOW_DEPTH: usize = 32;

/// Longest key the fast path reads. YAML caps an implicit key at 1024
/// characters, and saphyr counts them in its own way near that length.
const MAX_KEY: usize = 1000;

/// Loads `text` when it is written in the subset this path reads.
pub(super) fn load(text: &str, limits: &Limits, positions: Positions) -> Result<Document, GiveUp> {
    let bytes = text.as_bytes();
    if !is_printable_ascii(bytes) {
        return Err(GiveUp);
    }
    let mut builder = Builder::new(
        text,
        limits,
        positions,
        &surrogates::NO_SHIFTS,
        &separation::NO_SEPARATIONS,
    );
    builder.ascii = true;
    // Printable ASCII without escapes, each scalar on one line: so is every
    // key and string.
    builder.printable_one_line = true;
    let mut reader = Reader {
        text,
        bytes,
        pos: 0,
        line: 1,
        line_start: 0,
        builder,
        json: true,
    };
    reader.document()?;
    reader.builder.json = reader.json;
    reader.builder.finish().map_err(|_| GiveUp)
}

/// Bytes that stand in a plain scalar the fast path reads, wherever they
/// are. A space, `:` and `,` depend on what surrounds them.
// Evaluated when numi is built: an index out of bounds would fail the build,
// never a run.
#[allow(clippy::indexing_slicing)]
const PLAIN_SCALAR_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0u8;
    while byte < 128 {
        table[byte as usize] = byte.is_ascii_alphanumeric()
            || matches!(
                byte,
                b'_' | b'-'
                    | b'.'
                    | b'/'
                    | b'+'
                    | b'='
                    | b'('
                    | b')'
                    | b'~'
                    | b'^'
                    | b'$'
                    | b';'
                    | b'<'
                    | b'>'
                    | b'%'
                    | b'?'
                    | b'@'
            );
        byte += 1;
    }
    table
};

fn in_plain_scalar(byte: u8) -> bool {
    PLAIN_SCALAR_BYTES
        .get(usize::from(byte))
        .copied()
        .unwrap_or(false)
}

/// Whether every byte is a line feed or printable ASCII. Each chunk is
/// decided whole, without an early exit, so that the check runs on vectors.
fn is_printable_ascii(bytes: &[u8]) -> bool {
    let printable = |chunk: &[u8]| {
        chunk.iter().fold(true, |all, &b| {
            all & ((b == b'\n') | (b.wrapping_sub(b' ') < 95))
        })
    };
    let mut chunks = bytes.chunks_exact(64);
    chunks.by_ref().all(printable) && printable(chunks.remainder())
}

struct Reader<'t, 'l> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    /// The current line, counted from 1.
    line: usize,
    line_start: usize,
    builder: Builder<'l>,
    /// Whether what was read so far is JSON: no comment, only
    /// double-quoted keys, only JSON's literals and numbers as plain
    /// scalars, in a flow mapping at the root (see [`TextFacts::json`]).
    ///
    /// [`TextFacts::json`]: super::TextFacts::json
    json: bool,
}

impl<'t> Reader<'t, '_> {
    fn document(&mut self) -> Step {
        self.emit(Event::StreamStart, self.marker())?;
        if self.next_content_line() != Some(0) {
            return Err(GiveUp);
        }
        if self.peek() == Some(b'{') {
            // JSON, and YAML written as one flow mapping: at the top level
            // its lines may stand at any column.
            self.emit(Event::DocumentStart(false), self.marker())?;
            self.flow_collection(TOP_LEVEL, 1)?;
            self.end_of_line()?;
        } else if self.key_length().is_some() {
            self.json = false;
            self.emit(Event::DocumentStart(false), self.marker())?;
            self.block_mapping(0)?;
        } else {
            return Err(GiveUp);
        }
        if self.next_content_line().is_some() {
            return Err(GiveUp);
        }
        self.emit(Event::DocumentEnd, self.marker())?;
        self.emit(Event::StreamEnd, self.marker())
    }

    /// An event whose token starts at `at` and ends under the cursor, as
    /// saphyr spans it.
    fn emit(&mut self, event: Event<'t>, at: Marker) -> Step {
        let span = Span::new(at, self.marker());
        self.builder
            .on_event(event, &span)
            .map(drop)
            .map_err(|_| GiveUp)
    }

    /// A plain or double-quoted scalar that starts at `at` and ends under the
    /// cursor, straight to the builder.
    fn scalar(&mut self, text: &str, plain: bool, at: Marker) -> Step {
        let bytes = if self.builder.record {
            super::Span::new(at.index(), self.pos)
        } else {
            super::Span::default()
        };
        self.builder
            .untagged_scalar(text, plain, super::position(&at), bytes)
            .map_err(|_| GiveUp)
    }

    fn marker(&self) -> Marker {
        Marker::new(self.pos, self.line, self.column())
    }

    fn column(&self) -> usize {
        self.pos - self.line_start
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek() == Some(b' ') {
            self.pos += 1;
        }
    }

    /// Steps over the line break under the cursor.
    fn new_line(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.line_start = self.pos;
    }

    /// Skips blank and comment lines from the start of a line and stops at
    /// the start of the next line with content: its indentation, or `None`
    /// at the end of the text. Calling it again there changes nothing.
    fn next_content_line(&mut self) -> Option<usize> {
        loop {
            self.skip_spaces();
            match self.peek() {
                None => return None,
                Some(b'\n') => self.new_line(),
                Some(b'#') => {
                    self.json = false;
                    while !matches!(self.peek(), None | Some(b'\n')) {
                        self.pos += 1;
                    }
                }
                Some(_) => {
                    let indent = self.column();
                    self.pos = self.line_start;
                    return Some(indent);
                }
            }
        }
    }

    /// The rest of the line holds nothing but spaces; steps past its break.
    fn end_of_line(&mut self) -> Step {
        self.skip_spaces();
        match self.peek() {
            None => Ok(()),
            Some(b'\n') => {
                self.new_line();
                Ok(())
            }
            Some(_) => Err(GiveUp),
        }
    }

    /// The length of a block mapping key at the cursor, up to its colon,
    /// when the cursor stands on `key:` followed by a space or a line end.
    fn key_length(&self) -> Option<usize> {
        let rest = self.bytes.get(self.pos..)?;
        let first = *rest.first()?;
        if !(first.is_ascii_alphanumeric() || first == b'_') {
            return None;
        }
        let length = rest.iter().position(|&b| {
            !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/'))
        })?;
        let after = rest.get(length + 1).copied();
        (length <= MAX_KEY
            && rest.get(length) == Some(&b':')
            && matches!(after, None | Some(b' ' | b'\n')))
        .then_some(length)
    }

    fn is_sequence_entry(&self) -> bool {
        self.peek() == Some(b'-') && self.peek_at(1) == Some(b' ')
    }

    /// A block mapping whose first key is under the cursor, at column
    /// `indent`. Returns at the start of the line after its last entry.
    fn block_mapping(&mut self, indent: usize) -> Step {
        self.emit(Event::MappingStart(0, None), self.marker())?;
        loop {
            let at = self.marker();
            let length = self.key_length().ok_or(GiveUp)?;
            let key = self.slice(self.pos, self.pos + length)?;
            self.pos += length;
            self.scalar(key, true, at)?;
            self.pos += 1;
            self.skip_spaces();
            if matches!(self.peek(), None | Some(b'\n')) {
                self.end_of_line()?;
                self.nested_value(indent)?;
            } else {
                self.inline_value(indent)?;
                self.end_of_line()?;
            }
            match self.next_content_line() {
                Some(next) if next == indent => self.pos += next,
                Some(next) if next < indent => break,
                None => break,
                Some(_) => return Err(GiveUp),
            }
        }
        self.emit(Event::MappingEnd, self.marker())
    }

    /// The value of a key that ends its line: a block collection below it.
    fn nested_value(&mut self, indent: usize) -> Step {
        let next = self.next_content_line().ok_or(GiveUp)?;
        self.pos += next;
        if self.is_sequence_entry() && next >= indent {
            self.block_sequence(next, next == indent)
        } else if next > indent && self.key_length().is_some() {
            self.block_mapping(next)
        } else {
            Err(GiveUp)
        }
    }

    /// A block sequence whose first `- ` is under the cursor, at column
    /// `indent`. Returns at the start of the line after its last entry.
    fn block_sequence(&mut self, indent: usize, indentless: bool) -> Step {
        // saphyr places a sequence indented under its key at its first dash,
        // and one level with its key at its first entry's content.
        let start = if indentless {
            let dash = self.pos;
            self.pos += 1;
            self.skip_spaces();
            let content = self.marker();
            self.pos = dash;
            content
        } else {
            self.marker()
        };
        self.emit(Event::SequenceStart(0, None), start)?;
        loop {
            self.pos += 1;
            self.skip_spaces();
            let column = self.column();
            match self.peek() {
                None | Some(b'\n' | b'-') => return Err(GiveUp),
                Some(_) if self.key_length().is_some() => self.block_mapping(column)?,
                Some(_) => {
                    self.inline_value(indent)?;
                    self.end_of_line()?;
                }
            }
            match self.next_content_line() {
                Some(next) if next == indent => {
                    self.pos += next;
                    if !self.is_sequence_entry() {
                        // An indentless sequence ends where its mapping goes on.
                        self.pos = self.line_start;
                        break;
                    }
                }
                Some(next) if next < indent => break,
                None => break,
                Some(_) => return Err(GiveUp),
            }
        }
        self.emit(Event::SequenceEnd, self.marker())
    }

    /// A value that starts on its key's line (or its `- ` line) and ends on
    /// it, unless it is a flow collection.
    fn inline_value(&mut self, indent: usize) -> Step {
        match self.peek() {
            Some(b'{' | b'[') => self.flow_collection(indent, 1),
            Some(b'"') => self.double_quoted(),
            _ => self.plain_scalar(false),
        }
    }

    fn double_quoted(&mut self) -> Step {
        let at = self.marker();
        let start = self.pos + 1;
        let length = self
            .bytes
            .get(start..)
            .and_then(|rest| memchr::memchr3(b'"', b'\\', b'\n', rest))
            .ok_or(GiveUp)?;
        match self.bytes.get(start + length) {
            Some(b'"') => {
                let content = self.slice(start, start + length)?;
                self.pos = start + length + 1;
                self.scalar(content, false, at)
            }
            Some(b'\\') => {
                let (content, end) = unescape(self.bytes, start, start + length)?;
                self.pos = end + 1;
                if !content.bytes().all(|b| b.wrapping_sub(b' ') < 95) {
                    self.builder.printable_one_line = false;
                }
                self.scalar(&content, false, at)
            }
            _ => Err(GiveUp),
        }
    }

    /// A plain scalar on one line. In a flow collection it ends before `,`,
    /// a closing bracket or `: `; in a block, at the end of the line.
    fn plain_scalar(&mut self, in_flow: bool) -> Step {
        let at = self.marker();
        let start = self.pos;
        let first = self.peek().ok_or(GiveUp)?;
        let starts_plain = first.is_ascii_alphanumeric()
            || matches!(first, b'_' | b'.' | b'/' | b'(' | b'$' | b'+' | b'~')
            || (first == b'-'
                && self
                    .peek_at(1)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'.'));
        if !starts_plain {
            return Err(GiveUp);
        }
        let mut end = start;
        loop {
            let run = self.pos;
            while self.peek().is_some_and(in_plain_scalar) {
                self.pos += 1;
            }
            if self.pos > run {
                end = self.pos;
            }
            let Some(b) = self.peek() else { break };
            match b {
                b'\n' => break,
                b',' | b']' | b'}' if in_flow => break,
                b':' if matches!(self.peek_at(1), None | Some(b' ' | b'\n')) => break,
                b':' if in_flow && !self.peek_at(1).is_some_and(|b| b.is_ascii_alphanumeric()) => {
                    return Err(GiveUp);
                }
                // saphyr refuses a word of a flow scalar that is a `-`
                // followed by a flow indicator.
                b' ' if in_flow
                    && self.peek_at(1) == Some(b'-')
                    && matches!(self.peek_at(2), Some(b',' | b'[' | b']' | b'{' | b'}')) =>
                {
                    return Err(GiveUp);
                }
                b' ' => {}
                b':' | b',' => end = self.pos + 1,
                _ => return Err(GiveUp),
            }
            self.pos += 1;
        }
        // Where a scalar stops, its trailing spaces are not part of it.
        self.pos = end;
        let content = self.slice(start, end)?;
        self.scalar(content, true, at)
    }

    /// A flow collection under the cursor, inside a block collection at
    /// column `indent`: its lines past the first must be indented deeper.
    fn flow_collection(&mut self, indent: usize, depth: usize) -> Step {
        if depth > MAX_FLOW_DEPTH {
            return Err(GiveUp);
        }
        let is_mapping = self.peek() == Some(b'{');
        let close = if is_mapping { b'}' } else { b']' };
        let start = if is_mapping {
            Event::MappingStart(0, None)
        } else {
            Event::SequenceStart(0, None)
        };
        self.emit(start, self.marker())?;
        self.pos += 1;
        self.flow_space(indent)?;
        if self.peek() == Some(close) {
            let bracket = self.marker();
            self.pos += 1;
            return self.emit(flow_end(is_mapping), bracket);
        }
        loop {
            if is_mapping {
                let key_start = self.pos;
                if self.peek() == Some(b'"') {
                    // A JSON-like key: its value may follow the colon
                    // straight away, as in compact JSON.
                    self.double_quoted()?;
                    if self.pos - key_start > MAX_KEY || self.peek() != Some(b':') {
                        return Err(GiveUp);
                    }
                } else {
                    self.json = false;
                    self.plain_scalar(true)?;
                    if self.pos - key_start > MAX_KEY
                        || self.peek() != Some(b':')
                        || self.peek_at(1) != Some(b' ')
                    {
                        return Err(GiveUp);
                    }
                }
                self.pos += 1;
                self.flow_space(indent)?;
            }
            match self.peek() {
                Some(b'{' | b'[') => self.flow_collection(indent, depth + 1)?,
                Some(b'"') => self.double_quoted()?,
                _ => {
                    let start = self.pos;
                    self.plain_scalar(true)?;
                    if self.json {
                        self.json = is_json_literal(self.bytes.get(start..self.pos));
                    }
                }
            }
            self.flow_space(indent)?;
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.flow_space(indent)?;
                    if matches!(self.peek(), Some(b']' | b'}')) {
                        return Err(GiveUp);
                    }
                }
                Some(b) if b == close => {
                    let bracket = self.marker();
                    self.pos += 1;
                    return self.emit(flow_end(is_mapping), bracket);
                }
                _ => return Err(GiveUp),
            }
        }
    }

    /// Spaces and single line breaks between flow tokens; the next line
    /// must go on the collection, indented past its block.
    fn flow_space(&mut self, indent: usize) -> Step {
        loop {
            self.skip_spaces();
            if self.peek() != Some(b'\n') {
                return Ok(());
            }
            self.new_line();
            self.skip_spaces();
            // At the top level a line may start at column 0, but not with
            // what could be a document marker there.
            let too_shallow = match indent {
                TOP_LEVEL => self.column() == 0 && !matches!(self.peek(), Some(b'}' | b']' | b'"')),
                _ => self.column() < indent + 2,
            };
            if matches!(self.peek(), None | Some(b'\n' | b'#')) || too_shallow {
                return Err(GiveUp);
            }
        }
    }

    fn slice(&self, start: usize, end: usize) -> Result<&'t str, GiveUp> {
        self.text.get(start..end).ok_or(GiveUp)
    }
}

/// The `indent` of a flow collection at the top of a document, outside
/// any block collection.
const TOP_LEVEL: usize = usize::MAX;

/// Whether a plain scalar is one JSON writes: `true`, `false`, `null`, or a
/// number as RFC 8259 spells it (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
fn is_json_literal(scalar: Option<&[u8]>) -> bool {
    let Some(scalar) = scalar else {
        return false;
    };
    if matches!(scalar, b"true" | b"false" | b"null") {
        return true;
    }
    let digits = |from: usize| {
        scalar.get(from..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        })
    };
    let mut at = usize::from(scalar.first() == Some(&b'-'));
    let whole = digits(at);
    if whole == 0 || (whole > 1 && scalar.get(at) == Some(&b'0')) {
        return false;
    }
    at += whole;
    if scalar.get(at) == Some(&b'.') {
        let fraction = digits(at + 1);
        if fraction == 0 {
            return false;
        }
        at += 1 + fraction;
    }
    if matches!(scalar.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(scalar.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent = digits(at);
        if exponent == 0 {
            return false;
        }
        at += exponent;
    }
    at == scalar.len()
}

/// A double-quoted scalar whose text starts at `start` and whose first
/// escape is at `escape`, read up to its closing quote: the text, and the
/// offset of that quote. Only JSON's escapes are read; a surrogate escape
/// must be half of a pair (a lone one is the full parser's to report).
fn unescape(bytes: &[u8], start: usize, mut escape: usize) -> Result<(String, usize), GiveUp> {
    let mut text = Vec::with_capacity(escape - start + 16);
    text.extend_from_slice(bytes.get(start..escape).ok_or(GiveUp)?);
    loop {
        let decoded = match bytes.get(escape + 1).ok_or(GiveUp)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = hex4(bytes, escape + 2)?;
                let code = if (0xD800..0xDC00).contains(&high) {
                    if bytes.get(escape + 6..escape + 8) != Some(b"\\u") {
                        return Err(GiveUp);
                    }
                    let low = hex4(bytes, escape + 8)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(GiveUp);
                    }
                    escape += 6;
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                escape += 4;
                char::from_u32(code).ok_or(GiveUp)?
            }
            _ => return Err(GiveUp),
        };
        let mut utf8 = [0; 4];
        text.extend_from_slice(decoded.encode_utf8(&mut utf8).as_bytes());
        let from = escape + 2;
        let run = bytes
            .get(from..)
            .and_then(|rest| memchr::memchr3(b'"', b'\\', b'\n', rest))
            .ok_or(GiveUp)?;
        text.extend_from_slice(bytes.get(from..from + run).ok_or(GiveUp)?);
        escape = from + run;
        match bytes.get(escape) {
            Some(b'"') => {
                return String::from_utf8(text)
                    .map(|text| (text, escape))
                    .map_err(|_| GiveUp);
            }
            Some(b'\\') => {}
            _ => return Err(GiveUp),
        }
    }
}

/// The four hex digits at `at`, as a number.
fn hex4(bytes: &[u8], at: usize) -> Result<u32, GiveUp> {
    let digits = bytes.get(at..at + 4).ok_or(GiveUp)?;
    digits.iter().try_fold(0, |code, &digit| {
        let value = char::from(digit).to_digit(16).ok_or(GiveUp)?;
        Ok(code * 16 + value)
    })
}

fn flow_end(is_mapping: bool) -> Event<'static> {
    if is_mapping {
        Event::MappingEnd
    } else {
        Event::SequenceEnd
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use proptest::prelude::*;

    use super::*;

    /// saphyr's answer, the reference for every document the fast path takes.
    /// The fast path either gives up or loads exactly what saphyr loads,
    /// recording positions or not; `true` when it took the document.
    fn agrees(text: &str) -> bool {
        if let Some(difference) = super::super::fast_path_disagreement(text) {
            panic!("{difference} for {text:?}");
        }
        load(text, &Limits::default(), Positions::Skip).is_ok()
    }

    const TAKEN: &[&str] = &[
        "a: 1\n",
        "a: 1",
        "# a comment\n\nkind: Example\nspec:\n  x: y z  \n  n: -7\n  f: 1.5e3\n  t: true\n  u: ~\n",
        "metadata: {name: x-1, scope: SCOPE_REPO}\nlist: [1, two, \"three\", {a: b}, []]\nempty: {}\n",
        "spec:\n  cases:\n    - name: a\n      outcome: {value: \"sha256:00\"}\n    - name: b\n",
        "spec:\n  cases:\n  - name: a\n  - name: b\n  other: 1\n",
        "s:\n  - 1\n  - two words\n  - [a, b]\n  - \"q\"\n",
        "items:\n    - {ref: a/b, title: Some title, v: \"19\",\n      at: \"2026\"}\n    - {ref: c}\n",
        "m: {a: {b: [c, {d: e}]}}\nmodel: eu.v2:0\nurl: a/b.c?d=e%20f\n",
        "deep:\n  a:\n    b:\n      c: 1\n  d: 2\ne: 3\n",
        "a: [a -x, b - c]\nb: e -\n",
        "{}",
        "a: \"q\\n\"\n",
        "{\"a\": 1}\n",
        "{\"a\":1,\"b\":[true,null,-2.5e3,\"x\"],\"c\":{}}",
        "{\n  \"schema_version\": 1,\n  \"parent_digest\": null,\n  \"components\": [\n    {\n      \"content\": \"line\\nnext \\\"q\\\" \\\\ \\/ \\t\",\n      \"key\": \"k\"\n    }\n  ]\n}",
        "{\"e\": \"caf\\u00e9 \\u00E9 \\ud83d\\ude00 \\u2028\"}",
        "{\"\\u0041\": \"\\b\\f\\r\"}",
        "{a: 1, \"b\": two words}\n",
        "{\n\"a\": 1\n}\n",
        "# a comment\n{\"a\": 1}\n\n",
        "{\"a\": 9007199254740993, \"b\": 1e16, \"c\": -0, \"d\": 123456789012345678901234567890}",
    ];

    const REFUSED: &[&str] = &[
        "",
        "--- \na: 1\n",
        "a: 1\n---\nb: 2\n",
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: 'q'\n",
        "a: \"q\\e\"\n",
        "a: |\n  text\n",
        "a: b\n  c\n",
        "a: 1 # note\n",
        "a:\nb: 1\n",
        "a: 1\na: 2\n",
        "a:\n\tb: 1\n",
        "a: café\n",
        "- a\n",
        "a: {b: 1,}\n",
        "a: {b}\n",
        "a: [b: c]\n",
        "a: {b: c\nd: e}\n",
        "a: [b\n  c]\n",
        "a: b: c\n",
        "\"a\": 1\n",
        "a: -\n",
        "a: {a: a -}\n",
        "a: [a  -, b]\n",
        "a: [1, 2\n",
        "[1]\n",
        " {\"a\": 1}\n",
        "{\"a\": 1} # note\n",
        "{\"a\": 1}\n---\n",
        "{\"a\": 1}: b\n",
        "{\"a\": 1,\n...\n}",
        "{\"a\": 1,\n---\n}",
        "{\"a\": 1, \"a\": 2}",
        "{\"a\": \"\\ud800\"}",
        "{\"a\": \"\\udc00\\ud800\"}",
        "{\"a\": \"\\x41\"}",
        "{\"a\": \"\\N\"}",
        "{\"a\" : 1}",
        "{\"a\": \"b\nc\"}",
        "{\"a\": 1}\n{\"b\": 2}",
        "{\"a\": \"q\t\"}",
        // A tab after a colon, a character outside `c-printable`, a block
        // scalar indicator in flow: saphyr's, and the loader's, to judge.
        "{\"a\":\t1}",
        "a:\t1\n",
        "{\u{2}\"a\": 1}",
        "a: b\u{7f}\n",
        "{\"a\": \"\u{80}\"}",
        "{a: |}\n",
        "a: [>x]\n",
    ];

    #[test]
    fn common_documents_take_the_fast_path_and_load_as_saphyr_loads_them() {
        for text in TAKEN {
            assert!(agrees(text), "the fast path gave up on {text:?}");
        }
    }

    #[test]
    fn anything_outside_the_subset_is_left_to_saphyr() {
        for text in REFUSED {
            assert!(!agrees(text), "the fast path took {text:?}");
        }
    }

    #[test]
    fn an_escape_that_writes_an_unprintable_character_clears_the_text_fact() {
        let facts = |text: &str| {
            load(text, &Limits::default(), Positions::Skip)
                .map(|document| document.text.printable_one_line)
                .ok()
        };
        assert_eq!(facts(r#"{"a": "plain", "b": [1]}"#), Some(true));
        assert_eq!(facts(r#"{"a": "\"q\" \\ \/"}"#), Some(true));
        for escape in [
            r"\n",
            r"\t",
            r"\u0000",
            r"\u202e",
            r"\u00e9",
            r"\ud83d\ude00",
        ] {
            let text = format!(r#"{{"a": "x", "b": ["{escape}"]}}"#);
            assert_eq!(facts(&text), Some(false), "{text}");
        }
    }

    /// What the fast path says of `text` being JSON, when it takes it.
    fn says_json(text: &str) -> Option<bool> {
        load(text, &Limits::default(), Positions::Skip)
            .ok()
            .map(|document| document.text.json)
    }

    /// Whether a strict JSON parser reads `text` whole.
    fn is_json(text: &str) -> bool {
        serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
    }

    #[test]
    fn only_json_is_said_to_be_json() {
        for text in TAKEN {
            if says_json(text) == Some(true) {
                assert!(is_json(text), "{text:?} is not JSON");
            }
        }
        for text in [
            "{}",
            "{\"a\": 1}\n",
            "{\n\"a\": 1\n}\n\n",
            "{\"a\":1,\"b\":[true,null,-2.5e3,\"x\"],\"c\":{}}",
            "{\"a\": [0, -0, 0.5, 1E+5, 2e-05, 123456789012345678901234567890]}",
            "{\"e\": \"caf\\u00e9 \\ud83d\\ude00 \\/ \\\" \\\\\"}",
        ] {
            assert_eq!(says_json(text), Some(true), "{text:?}");
            assert!(is_json(text), "{text:?}");
        }
        for text in [
            "a: 1\n",
            "# a comment\n{\"a\": 1}\n",
            "{\"a\": 1}\n# a comment\n",
            "{a: 1}",
            "{\"a\": two words}",
            "{\"a\": True}",
            "{\"a\": ~}",
            "{\"a\": 01}",
            "{\"a\": +1}",
            "{\"a\": .5}",
            "{\"a\": 1.}",
            "{\"a\": 1e}",
            "{\"a\": 0x10}",
            "{\"a\": NaN}",
            "{\"a\": -Infinity}",
            "{\"a\": [1, b]}",
        ] {
            assert_eq!(says_json(text), Some(false), "{text:?}");
        }
    }

    #[test]
    fn keys_near_the_yaml_limit_are_left_to_saphyr() {
        let short = "k".repeat(MAX_KEY);
        let long = "k".repeat(MAX_KEY + 1);
        assert!(agrees(&format!("{short}: 1\n")));
        assert!(agrees(&format!("a: {{{short}: 1}}\n")));
        assert!(!agrees(&format!("{long}: 1\n")));
        assert!(!agrees(&format!("a: {{{long}: 1}}\n")));
        let huge_key = format!("{}: 1\n", "k".repeat(1 << 20));
        assert!(load(&huge_key, &Limits::default(), Positions::Record).is_err());
    }

    /// Every example and verified fixture, and, when NUMI_FAST_PATH_CORPUS
    /// names a folder (such as the benchmark corpus), every YAML and JSON
    /// file in it.
    #[test]
    fn shipped_documents_load_the_same_either_way() {
        // The workspace's shipped documents, two folders up from this crate.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut folders = vec![root.join("examples"), root.join("tests")];
        if let Some(extra) = std::env::var_os("NUMI_FAST_PATH_CORPUS") {
            folders.push(extra.into());
        }
        let (mut taken, mut total) = (0, 0);
        for folder in folders {
            for entry in walkdir::WalkDir::new(folder) {
                let path = entry.expect("walk").into_path();
                if !matches!(
                    path.extension().and_then(|e| e.to_str()),
                    Some("yaml" | "yml" | "json")
                ) {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                total += 1;
                taken += usize::from(agrees(&text));
            }
        }
        eprintln!("fast path took {taken} of {total} documents");
        assert!(taken > 0);
    }

    /// Documents built from the subset's own shapes, with scalars drawn from
    /// characters that matter to YAML, so that many fall just outside it.
    fn document() -> impl Strategy<Value = String> {
        let scalar = prop_oneof![
            "[a-z0-9 ]{1,6}",
            "[-a-z0-9 :,#.\\[\\]{}\"'&*!|>%@?~\t\u{2}\u{7f}]{1,8}",
            Just("\"x, y\"".to_owned()),
            Just("-1".to_owned()),
            Just("null".to_owned()),
        ];
        let key = "[a-z][a-z0-9_.-]{0,4}";
        let flow = prop::collection::vec((key, scalar.clone()), 0..4).prop_map(|pairs| {
            let inner: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            format!("{{{}}}", inner.join(", "))
        });
        let value = prop_oneof![scalar.clone(), flow.clone()];
        let entry = (
            0..3usize,
            key,
            prop_oneof![
                value.clone().prop_map(|v| format!(" {v}")),
                value.clone().prop_map(|v| format!("\n  - {v}")),
                (key, value.clone()).prop_map(|(k, v)| format!("\n  - {k}: {v}\n    {k}x: {v}")),
                value.prop_map(|v| format!("\n  inner: {v}\n  # note\n\n  more: [{v},\n    {v}]")),
            ],
        );
        prop::collection::vec(entry, 1..6).prop_map(|entries| {
            entries
                .iter()
                .map(|(indent, key, rest)| format!("{}{key}:{rest}\n", " ".repeat(*indent % 2)))
                .collect()
        })
    }

    /// How many of 1000 documents drawn from `strategy` the fast path
    /// takes (each agreeing with saphyr). The properties below mean
    /// something only if it takes a good share of them.
    fn taken_of_1000(strategy: impl Strategy<Value = String>) -> usize {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        (0..1000)
            .filter(|_| {
                let text = strategy
                    .new_tree(&mut runner)
                    .expect("a document")
                    .current();
                agrees(&text)
            })
            .count()
    }

    #[test]
    fn the_generated_documents_often_take_the_fast_path() {
        let taken = taken_of_1000(document());
        assert!(taken >= 100, "only {taken} of 1000 took the fast path");
    }

    /// A JSON value as text: compact, spaced or indented like Python's
    /// `json.dumps(indent=2)`, with the escapes JSON writers use, the
    /// numbers YAML reads in its own way, and, now and then, what JSON
    /// allows and the fast path must leave alone (a lone surrogate, a key
    /// twice).
    #[derive(Debug, Clone)]
    enum Json {
        Atom(String),
        Array(Vec<Json>),
        Object(Vec<(String, Json)>),
    }

    fn json_string() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            "[a-z0-9 ]{1,4}",
            Just(r#"\""#.to_owned()),
            Just(r"\\".to_owned()),
            Just(r"\/".to_owned()),
            Just(r"\n".to_owned()),
            Just(r"\t".to_owned()),
            Just(r"\u00e9".to_owned()),
            Just(r"\u00E9".to_owned()),
            Just(r"\ud83d\ude00".to_owned()),
            Just(r"\u0000".to_owned()),
            Just(r"\ud800".to_owned()),
            Just(r"\x41".to_owned()),
            "[-#:,{}\\[\\]'&*!|>%@?~ ]{1,3}",
        ];
        prop::collection::vec(piece, 0..4).prop_map(|pieces| format!("\"{}\"", pieces.concat()))
    }

    fn json() -> impl Strategy<Value = Json> {
        let atom = prop_oneof![
            json_string(),
            prop::sample::select(vec![
                "0",
                "-0",
                "7",
                "-12",
                "1.5",
                "-2.5e3",
                "1E+5",
                "1e16",
                "9007199254740993",
                "123456789012345678901234567890",
                "1e400",
                "true",
                "false",
                "null",
            ])
            .prop_map(str::to_owned),
        ]
        .prop_map(Json::Atom);
        atom.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
                prop::collection::vec(
                    (prop_oneof![json_string(), Just("\"k\"".to_owned())], inner),
                    0..4
                )
                .prop_map(Json::Object),
            ]
        })
    }

    /// `value` written out; `indent` is `Some(depth)` for indented text.
    fn render(value: &Json, spaced: bool, indent: Option<usize>, out: &mut String) {
        let (open, close, items): (char, char, Vec<(Option<&str>, &Json)>) = match value {
            Json::Atom(atom) => return out.push_str(atom),
            Json::Array(items) => ('[', ']', items.iter().map(|item| (None, item)).collect()),
            Json::Object(entries) => (
                '{',
                '}',
                entries
                    .iter()
                    .map(|(key, item)| (Some(key.as_str()), item))
                    .collect(),
            ),
        };
        out.push(open);
        for (index, (key, item)) in items.iter().enumerate() {
            if index > 0 {
                out.push(',');
                if spaced && indent.is_none() {
                    out.push(' ');
                }
            }
            if let Some(depth) = indent {
                out.push('\n');
                out.push_str(&" ".repeat(2 * (depth + 1)));
            }
            if let Some(key) = key {
                out.push_str(key);
                out.push_str(if spaced || indent.is_some() {
                    ": "
                } else {
                    ":"
                });
            }
            render(item, spaced, indent.map(|depth| depth + 1), out);
        }
        if let (Some(depth), false) = (indent, items.is_empty()) {
            out.push('\n');
            out.push_str(&" ".repeat(2 * depth));
        }
        out.push(close);
    }

    fn json_document() -> impl Strategy<Value = String> {
        let root = prop::collection::vec((json_string(), json()), 0..5).prop_map(Json::Object);
        (root, 0..3usize).prop_map(|(root, layout)| {
            let mut text = String::new();
            render(&root, layout == 1, (layout == 2).then_some(0), &mut text);
            text
        })
    }

    #[test]
    fn generated_json_often_takes_the_fast_path() {
        let taken = taken_of_1000(json_document());
        assert!(taken >= 200, "only {taken} of 1000 took the fast path");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn the_fast_path_never_loads_differently(text in document()) {
            agrees(&text);
            if says_json(&text) == Some(true) {
                prop_assert!(is_json(&text));
            }
        }

        #[test]
        fn the_fast_path_never_loads_json_differently(text in json_document()) {
            agrees(&text);
            // Of the JSON it takes, it says so exactly when it is JSON.
            if let Some(json) = says_json(&text) {
                prop_assert_eq!(json, is_json(&text));
            }
        }
    }
}
