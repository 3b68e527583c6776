//! One YAML parse per file: the bytes become a JSON value and, beside it, the
//! source position of every node. Aliases are expanded within a node budget,
//! nesting is capped, and duplicate keys are refused at any depth.

pub mod comments;
mod fast;
mod lines;
mod place;
pub mod plain;
mod positions;
mod printable;
mod readable;
mod scalar;
mod separation;
pub mod shown;
pub mod strict_json;
#[cfg(test)]
mod suite;
mod surrogates;

use std::borrow::Cow;
use std::collections::HashMap;

use saphyr_parser::{Event, Marker, Parser, ScalarStyle, ScanError, Tag};
use serde_json::map::Entry;
use serde_json::{Map, Value};

#[cfg(any(test, feature = "counting"))]
pub use lines::take_indexed;
pub use lines::{Column, LineIndex};
pub use place::{Position, Span};
pub use positions::{
    KeyIndex, Located, NodePositions, PathSegment, document_order, document_order_with,
};
#[cfg(test)]
pub(crate) use positions::{format_pointer, parse_pointer};
use scalar::{
    ScalarError, core_suffix, is_non_specific, is_null, resolve_plain, resolve_tagged, tag_name,
};
use separation::Separations;
use surrogates::Shifts;

/// Bounds that keep hostile input cheap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of collections allowed, aliases expanded.
    pub max_depth: usize,
    /// Most nodes a document may hold once its aliases are expanded. Each
    /// node costs about 150 bytes of memory, so this bounds what an alias
    /// bomb (or a huge flow sequence) can make numi hold.
    pub max_nodes: usize,
    /// Most bytes of text (scalars and keys) a document may hold once its
    /// aliases are expanded: an alias of one long string copies the string.
    pub max_text_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_nodes: 100_000,
            max_text_bytes: 64 * 1024 * 1024,
        }
    }
}

/// A loaded document: its JSON value and where each node stands.
#[derive(Debug, Clone)]
pub struct Document {
    pub value: Value,
    /// Where each node stands, when the load recorded it.
    pub positions: NodePositions,
    /// Whether the load recorded positions: without them, `positions` is
    /// empty.
    pub placed: bool,
    pub text: TextFacts,
}

/// What the loader saw of every key and string of a document, so that checks
/// on every text can skip what the loader already knows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextFacts {
    /// Every key and string is printable ASCII on one line. Only the fast
    /// path, which reads nothing else, says so.
    pub printable_one_line: bool,
    /// Bytes in the longest key or string as written.
    pub longest: usize,
    /// The text is one JSON text (RFC 8259): a flow mapping of
    /// double-quoted keys whose every plain scalar is `true`, `false`,
    /// `null` or a JSON number, with no comment. Only the fast path, which
    /// reads JSON's escapes alone, says so.
    pub json: bool,
}

impl Document {
    /// Where the node at `path` (or the nearest existing ancestor) stands.
    pub fn locate(&self, path: &[PathSegment]) -> Located {
        self.locate_with(path, &mut KeyIndex::default())
    }

    /// [`Document::locate`] for many paths, sharing `keys`.
    pub fn locate_with<'v>(&'v self, path: &[PathSegment], keys: &mut KeyIndex<'v>) -> Located {
        self.positions.locate(&self.value, path, keys)
    }
}

/// Why a file is not one YAML document with a mapping at its root.
#[derive(Debug, Clone)]
pub struct YamlError {
    /// Which way the file fails: each maps to one stable rule id.
    pub problem: Problem,
    /// Where the parser stopped, when it knows.
    pub position: Option<Position>,
    /// What went wrong, with the user's text kept apart from the words
    /// around it, so that the caller decides how much of that text to show.
    message: Vec<Part>,
}

/// Two errors are the same when they say the same at the same place, however
/// their messages were put together.
impl PartialEq for YamlError {
    fn eq(&self, other: &Self) -> bool {
        (self.problem, self.position) == (other.problem, other.position)
            && self.message() == other.message()
    }
}

impl Eq for YamlError {}

/// One piece of a [`YamlError`]'s message.
#[derive(Debug, Clone)]
enum Part {
    /// Words of the loader's own.
    Said(String),
    /// The user's text, shown quoted.
    Quoted(String),
    /// The user's text (a tag), shown escaped without quotes.
    Bare(String),
}

/// The ways a text fails to be one YAML document this crate loads. Each has
/// a stable id that callers report it under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Problem {
    Syntax,
    DuplicateKey,
    MultipleDocuments,
    Empty,
    RootNotMapping,
    Encoding,
    Tag,
    NotJson,
    ComplexKey,
    TooDeep,
    TooManyNodes,
    TooMuchText,
    JsonSyntax,
}

impl Problem {
    /// Every problem, in the order their ids are documented.
    pub const ALL: [Problem; 13] = [
        Problem::Syntax,
        Problem::DuplicateKey,
        Problem::MultipleDocuments,
        Problem::Empty,
        Problem::RootNotMapping,
        Problem::Encoding,
        Problem::Tag,
        Problem::NotJson,
        Problem::ComplexKey,
        Problem::TooDeep,
        Problem::TooManyNodes,
        Problem::TooMuchText,
        Problem::JsonSyntax,
    ];

    /// The stable id: `yaml/syntax`, `yaml/duplicate-key`, ...
    pub fn id(self) -> &'static str {
        match self {
            Problem::Syntax => "yaml/syntax",
            Problem::DuplicateKey => "yaml/duplicate-key",
            Problem::MultipleDocuments => "yaml/multiple-documents",
            Problem::Empty => "yaml/empty",
            Problem::RootNotMapping => "yaml/root-not-mapping",
            Problem::Encoding => "yaml/encoding",
            Problem::Tag => "yaml/tag",
            Problem::NotJson => "yaml/not-json",
            Problem::ComplexKey => "yaml/complex-key",
            Problem::TooDeep => "yaml/too-deep",
            Problem::TooManyNodes => "yaml/too-many-nodes",
            Problem::TooMuchText => "yaml/too-much-text",
            Problem::JsonSyntax => "yaml/json-syntax",
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl YamlError {
    fn new(problem: Problem, message: impl Into<String>, position: Option<Position>) -> Self {
        YamlError {
            problem,
            position,
            message: vec![Part::Said(message.into())],
        }
    }

    /// A message of the loader's words and the user's texts, in order.
    fn parts(problem: Problem, message: Vec<Part>, position: Option<Position>) -> Self {
        YamlError {
            problem,
            position,
            message,
        }
    }

    /// The message, the user's text in it shown whole.
    pub fn message(&self) -> String {
        self.message_shortening(|text| text.to_owned())
    }

    /// The message, the user's text in it cut by `shorten` (and escaped,
    /// quoted where the message quotes it, after that).
    pub fn message_shortening(&self, shorten: impl Fn(&str) -> String) -> String {
        let mut message = String::new();
        for part in &self.message {
            match part {
                Part::Said(words) => message.push_str(words),
                Part::Quoted(text) => shown::quote_into(&mut message, &shorten(text)),
                Part::Bare(text) => {
                    let quoted = shown::quote(&shorten(text));
                    let inner = quoted
                        .strip_prefix('"')
                        .and_then(|inner| inner.strip_suffix('"'))
                        .unwrap_or(&quoted);
                    message.push_str(inner);
                }
            }
        }
        message
    }
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.problem, self.message())
    }
}

impl std::error::Error for YamlError {}

/// Whether a load records where each node stands beside the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Positions {
    Record,
    /// The value only: most documents need no position, and a caller that
    /// finds it needs one loads the file again recording them. Errors and
    /// their positions are the same either way.
    Skip,
}

/// Which values a document's root may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    Mapping,
    /// A mapping or a sequence, for a format whose root may be a bare
    /// list of records.
    MappingOrSequence,
}

/// [`load_bytes_with`], with a root that may be what `root` allows. A
/// mapping root takes the fast path as anywhere (every store's
/// `matched_trials.json` is one); a sequence root is rare and is loaded by
/// saphyr.
pub fn load_bytes_rooted(
    bytes: &[u8],
    limits: &Limits,
    positions: Positions,
    root: Root,
) -> Result<Document, YamlError> {
    if root == Root::Mapping {
        return load_bytes_with(bytes, limits, positions);
    }
    let text = decode(bytes)?;
    if let Ok(document) = fast::load(text, limits, positions) {
        return Ok(document);
    }
    load_full(text, limits, positions, |builder| {
        builder.finish_rooted(root)
    })
}

/// Decodes `bytes` as UTF-8 and loads the one document they hold.
pub fn load_bytes(bytes: &[u8], limits: &Limits) -> Result<Document, YamlError> {
    load_bytes_with(bytes, limits, Positions::Record)
}

/// [`load_bytes`], recording positions or not; without them the document's
/// positions are empty.
pub fn load_bytes_with(
    bytes: &[u8],
    limits: &Limits,
    positions: Positions,
) -> Result<Document, YamlError> {
    let text = decode(bytes)?;
    load_with(text, limits, positions)
}

fn decode(bytes: &[u8]) -> Result<&str, YamlError> {
    let encoding = match bytes {
        [0x00, 0x00, 0xFE, 0xFF, ..] | [0xFF, 0xFE, 0x00, 0x00, ..] => Some("UTF-32"),
        [0xFE, 0xFF, ..] | [0xFF, 0xFE, ..] => Some("UTF-16"),
        [0x00, 0x00, 0x00, _, ..] | [_, 0x00, 0x00, 0x00, ..] => Some("UTF-32"),
        [0x00, _, ..] | [_, 0x00, ..] => Some("UTF-16"),
        _ => None,
    };
    if let Some(encoding) = encoding {
        return Err(YamlError::new(
            Problem::Encoding,
            format!("the file is {encoding}; numi reads UTF-8 only"),
            Some(START),
        ));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(YamlError::new(
            Problem::Encoding,
            "the file starts with a byte-order mark; save it as UTF-8 without one",
            Some(START),
        ));
    }
    std::str::from_utf8(bytes).map_err(|error| {
        let valid = bytes.get(..error.valid_up_to()).unwrap_or_default();
        YamlError::new(
            Problem::Encoding,
            format!("invalid UTF-8 at byte offset {}", error.valid_up_to()),
            Some(end_of(std::str::from_utf8(valid).unwrap_or_default())),
        )
    })
}

/// The first line and column of a file.
const START: Position = Position { line: 1, column: 1 };

/// The position just after `text`.
fn end_of(text: &str) -> Position {
    LineIndex::new(text).position(text.len())
}

/// The text of the node at `path` as `bytes` write it (`2.0`, `1e2`,
/// `"x"`), for a check that judges how a value is written rather than what
/// it is; `None` when the bytes do not load or the node does not exist.
pub fn written_at<'t>(bytes: &'t [u8], path: &[PathSegment]) -> Option<&'t str> {
    let text = decode(bytes).ok()?;
    let document = load(text, &Limits::default()).ok()?;
    let located = document.locate(path);
    located
        .exists
        .then(|| text.get(located.node.start()..located.node.end()))
        .flatten()
}

/// Loads the one document `text` holds.
pub fn load(text: &str, limits: &Limits) -> Result<Document, YamlError> {
    load_with(text, limits, Positions::Record)
}

fn load_with(text: &str, limits: &Limits, positions: Positions) -> Result<Document, YamlError> {
    if let Ok(document) = fast::load(text, limits, positions) {
        return Ok(document);
    }
    load_full(text, limits, positions, |builder| builder.finish())
}

/// saphyr's load of `text`; `finish` makes the builder's result. A
/// character YAML does not allow where it stands is the text's first
/// problem unless another stands before it.
fn load_full<T>(
    text: &str,
    limits: &Limits,
    positions: Positions,
    finish: impl FnOnce(Builder<'_>) -> Result<T, YamlError>,
) -> Result<T, YamlError> {
    let Some((offset, character)) = first_disallowed(text) else {
        return load_printable(text, limits, positions, finish);
    };
    let at = LineIndex::new(text).position(offset);
    match load_printable(text, limits, positions, finish) {
        Err(error) if error.position.is_some_and(|earlier| earlier < at) => Err(error),
        _ => Err(unprintable(character, at)),
    }
}

/// The first character outside `c-printable` that YAML does not allow where
/// it stands (see [`printable`]): a C0 control anywhere, any other outside
/// a quoted scalar.
fn first_disallowed(text: &str) -> Option<(usize, char)> {
    let mut found = printable::unprintable(text).peekable();
    found.peek()?;
    let mut quoted: Option<Vec<(usize, usize)>> = None;
    found.find(|&(offset, character)| {
        if !printable::allowed_quoted(character) {
            return true;
        }
        let quoted = quoted.get_or_insert_with(|| comments::quoted_extents(text));
        let at = quoted.partition_point(|&(_, end)| end <= offset);
        quoted.get(at).is_none_or(|&(start, _)| start > offset)
    })
}

/// [`load_full`] of a text of printable characters. A text with a
/// surrogate pair escape is read as rewritten by [`surrogates`], and a lone
/// surrogate is its first problem unless another stands before it.
fn load_printable<T>(
    text: &str,
    limits: &Limits,
    positions: Positions,
    finish: impl FnOnce(Builder<'_>) -> Result<T, YamlError>,
) -> Result<T, YamlError> {
    let Some(rewritten) = surrogates::rewrite(text) else {
        return parse(text, limits, positions, &surrogates::NO_SHIFTS, finish);
    };
    let loaded = parse(
        &rewritten.text,
        limits,
        positions,
        &rewritten.shifts,
        finish,
    );
    let Some((escape, at)) = rewritten.lone else {
        return loaded;
    };
    match loaded {
        Err(error) if error.position.is_some_and(|earlier| earlier < at) => Err(error),
        _ => Err(YamlError::new(
            Problem::Syntax,
            format!(
                "found a lone surrogate escape {escape} (half of a UTF-16 pair, not a character) at {at}"
            ),
            Some(at),
        )),
    }
}

/// A character outside YAML's `c-printable` where YAML does not allow it.
fn unprintable(character: char, at: Position) -> YamlError {
    let code = u32::from(character);
    let what = if character.is_control() {
        "a control character"
    } else {
        "a noncharacter"
    };
    let (allowed, fix) = if printable::allowed_quoted(character) {
        ("allows only in a quoted string", "quote the text, or ")
    } else {
        ("does not allow in a document", "")
    };
    let escape = if code <= 0xFF {
        format!("\\x{code:02X}")
    } else {
        format!("\\u{code:04X}")
    };
    YamlError::new(
        Problem::Syntax,
        format!(
            "found U+{code:04X}, {what} YAML {allowed}, at {at}; \
             {fix}write it as the escape {escape} in a double-quoted string"
        ),
        Some(at),
    )
}

/// saphyr's load of `text`, with the tabs [`separation`] finds after a
/// `:` written as spaces.
fn parse<T>(
    text: &str,
    limits: &Limits,
    positions: Positions,
    shifts: &Shifts,
    finish: impl FnOnce(Builder<'_>) -> Result<T, YamlError>,
) -> Result<T, YamlError> {
    let separations = match separation::rewrite(text) {
        // A `:` and a tab inside a quoted or block scalar are its text: a
        // first read says which scalars hold one, and those are left as
        // they are. The scalars stand where they stood in that read, since
        // a space and a tab separate alike.
        Some(found) if found.rewrites() => {
            found.without(&comments::held_by_scalars(&found.apply(text)))
        }
        // Nothing to rewrite: a collection never starts inside a scalar.
        Some(found) => found,
        None => Separations::default(),
    };
    let read = separations.apply(text);
    let builder = Builder::new(&read, limits, positions, shifts, &separations);
    match feed(&read, builder).and_then(|builder| finish(builder).map_err(Failure::Yaml)) {
        Ok(loaded) => Ok(loaded),
        Err(Failure::Yaml(error)) => Err(error),
        Err(Failure::Scan(error)) if error.info() == SCANNER_FLOW_LIMIT => {
            Err(flow_too_deep(&read, &separations, &error, limits, shifts))
        }
        Err(Failure::Scan(error)) => Err(syntax_error(text, &error, shifts)),
    }
}

/// The value of `text`'s root whatever it is, for the YAML test suite, whose
/// documents are not all mappings.
#[cfg(test)]
fn load_any_root(text: &str, limits: &Limits) -> Result<Value, YamlError> {
    load_full(text, limits, Positions::Skip, |builder| {
        builder.finish_any_root()
    })
}

/// What saphyr's scanner says past 255 nested flow collections. The scanner
/// reads a flow collection ahead of the parser, so it can stop there before
/// the parser has handed numi the collection that passes `max_depth`.
const SCANNER_FLOW_LIMIT: &str = "recursion limit exceeded";

enum Failure {
    Scan(ScanError),
    Yaml(YamlError),
}

/// saphyr's events of `text` into `builder`, up to the end of the stream.
fn feed<'a>(text: &str, mut builder: Builder<'a>) -> Result<Builder<'a>, Failure> {
    let mut parser = Parser::new_from_str(text);
    while let Some(next) = parser.next_event() {
        let (event, span) = next.map_err(Failure::Scan)?;
        if builder.on_event(event, &span).map_err(Failure::Yaml)? {
            break;
        }
    }
    Ok(builder)
}

/// How the fast path's load of `text` differs from saphyr's, when the fast
/// path takes it: for the fast path's tests and the `fast_path` fuzz target.
#[cfg(any(test, fuzzing))]
#[doc(hidden)]
pub fn fast_path_disagreement(text: &str) -> Option<String> {
    let limits = Limits::default();
    let recording = fast::load(text, &limits, Positions::Record);
    let skipping = fast::load(text, &limits, Positions::Skip);
    let (fast, skipping) = match (recording, skipping) {
        (Err(_), Err(_)) => return None,
        (Ok(fast), Ok(skipping)) => (fast, skipping),
        (Ok(_), Err(_)) => return Some("only the load with positions took it".to_owned()),
        (Err(_), Ok(_)) => return Some("only the load without positions took it".to_owned()),
    };
    let Ok(full) = load_full(text, &limits, Positions::Record, |builder| builder.finish()) else {
        return Some("saphyr refuses it".to_owned());
    };
    if fast.value != full.value || skipping.value != full.value {
        return Some(format!(
            "values differ: fast {:?}, saphyr {:?}",
            fast.value, full.value
        ));
    }
    if fast.positions != full.positions {
        return Some("node ranges differ".to_owned());
    }
    (fast.text.longest != full.text.longest).then(|| "text facts differ".to_owned())
}

/// How numi's load of `text` differs from JSON's reading of it, when
/// `text` is a JSON object: every one is YAML 1.2 and must load as itself.
/// JSON keeps the last of a key written twice, which numi refuses, and
/// the loader's limits are its own; numbers compare as JSON numbers
/// (`-0` is `0`). A text the loader says is JSON must be one, since a
/// `.json` file said to be is not read again as strict JSON. For the
/// compatibility tests and the `fast_path` fuzz target.
#[cfg(any(test, fuzzing))]
#[doc(hidden)]
pub fn json_disagreement(text: &str) -> Option<String> {
    let said_json = load(text, &Limits::default()).is_ok_and(|document| document.text.json);
    if said_json
        && strict_json::problem_for(
            text,
            strict_json::JsonReader {
                name: "",
                takes_non_finite: false,
            },
        )
        .is_some()
    {
        return Some("said to be JSON, which strict JSON refuses".to_owned());
    }
    let Ok(expected @ Value::Object(_)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    match load(text, &Limits::default()) {
        Ok(document) if same_json(&document.value, &expected) => None,
        Ok(document) => Some(format!(
            "loads {} where JSON reads {expected}",
            document.value
        )),
        Err(error)
            if matches!(
                error.problem,
                Problem::DuplicateKey
                    | Problem::TooDeep
                    | Problem::TooManyNodes
                    | Problem::TooMuchText
            ) =>
        {
            None
        }
        Err(error) => Some(format!("refuses it: {error}")),
    }
}

/// JSON's equality, numbers compared by their value.
#[cfg(any(test, fuzzing))]
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_json(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, a)| b.get(key).is_some_and(|b| same_json(a, b)))
        }
        (a, b) => a == b,
    }
}

/// The scanner gave up on flow nesting: load the text before the point where
/// it did, so the first problem in document order is reported (normally the
/// collection that passes `max_depth`) rather than the scanner's own words.
fn flow_too_deep(
    text: &str,
    separations: &Separations,
    error: &ScanError,
    limits: &Limits,
    shifts: &Shifts,
) -> YamlError {
    let at = shifts.original(position(error.marker()));
    let cut = text
        .char_indices()
        .nth(error.marker().index())
        .map_or(text.len(), |(offset, _)| offset);
    let earlier = match text.get(..cut).map(|prefix| {
        let builder = Builder::new(prefix, limits, Positions::Skip, shifts, separations);
        feed(prefix, builder).and_then(|builder| builder.finish().map_err(Failure::Yaml))
    }) {
        Some(Err(Failure::Yaml(found))) => Some(found),
        Some(Err(Failure::Scan(found))) if shifts.original(position(found.marker())) < at => {
            Some(syntax_error(text, &found, shifts))
        }
        _ => None,
    };
    earlier.unwrap_or_else(|| {
        YamlError::new(
            Problem::TooDeep,
            format!("flow collections nest deeper than 255 levels at {at}"),
            Some(at),
        )
    })
}

fn syntax_error(text: &str, error: &ScanError, shifts: &Shifts) -> YamlError {
    let mut at = position(error.marker());
    if error.info().contains("tab") {
        // saphyr marks where the scalar holding the tab started, or just
        // after indenting tabs; point at the tab itself.
        at = at_leading_tabs(text, error.marker())
            .or_else(|| first_tab_from(text, at))
            .unwrap_or(at);
    }
    let at = shifts.original(at);
    YamlError::new(
        Problem::Syntax,
        format!("{} at {at}", error.info()),
        Some(at),
    )
}

/// saphyr marks a tab used as indentation just after the tabs: point at the
/// first of the tabs right before the marker, when there are any.
fn at_leading_tabs(text: &str, marker: &Marker) -> Option<Position> {
    let line_number = u32::try_from(marker.line()).ok()?;
    let line = LineIndex::new(text).line(line_number)?;
    let before: Vec<char> = line.chars().take(marker.col()).collect();
    if line.chars().nth(marker.col()) == Some('\t') {
        return None;
    }
    let tabs = before.iter().rev().take_while(|&&c| c == '\t').count();
    if tabs == 0 {
        return None;
    }
    let column = before.len() - tabs + 1;
    Some(Position {
        line: line_number,
        column: u32::try_from(column).ok()?,
    })
}

/// The first tab at or after `from` (a line and a column in characters).
fn first_tab_from(text: &str, from: Position) -> Option<Position> {
    let first_line = usize::try_from(from.line.checked_sub(1)?).ok()?;
    let skip = usize::try_from(from.column.saturating_sub(1)).ok()?;
    let lines = LineIndex::new(text);
    for (index, line) in lines.lines().enumerate().skip(first_line) {
        let start = if index == first_line { skip } else { 0 };
        if let Some(column) = line.chars().skip(start).position(|c| c == '\t') {
            return Some(Position {
                line: u32::try_from(index + 1).ok()?,
                column: u32::try_from(start + column + 1).ok()?,
            });
        }
    }
    None
}

fn position(marker: &Marker) -> Position {
    Position {
        line: u32::try_from(marker.line()).unwrap_or(u32::MAX),
        column: u32::try_from(marker.col().saturating_add(1)).unwrap_or(u32::MAX),
    }
}

/// The keys a mapping has room for when it opens: as many as a table of
/// eight slots holds, so the small mappings documents are made of (most
/// have two to seven keys) are allocated once and never grown, which would
/// allocate again and move every entry.
const MAPPING_CAPACITY: usize = 7;

/// A finished node on its way into its parent.
struct Node {
    value: Value,
    /// Where the node starts, for messages.
    at: Position,
    positions: NodePositions,
    /// Nodes in this subtree, aliases expanded.
    size: usize,
    /// Bytes of text in this subtree, aliases expanded.
    text_bytes: usize,
    /// Collections nested in this subtree (0 for a scalar).
    height: usize,
}

/// An anchored node, kept for its aliases.
struct Anchored {
    node: Node,
    /// The source text of a scalar: an alias of it used as a key is that text,
    /// as the scalar written out as a key would be.
    key_text: Option<String>,
}

enum Collection {
    Sequence(Vec<Value>),
    Mapping {
        map: Map<String, Value>,
        /// The last key of `map` holds a placeholder until its value
        /// arrives: inserting the key when it is read hashes it once for both
        /// the duplicate check and the insertion.
        awaiting_value: bool,
    },
}

struct Frame {
    collection: Collection,
    /// Where the collection starts, for messages.
    at: Position,
    positions: NodePositions,
    /// Where the mapping's latest key stands.
    last_key: Position,
    anchor: usize,
    size: usize,
    text_bytes: usize,
    height: usize,
}

struct Builder<'a> {
    text: &'a str,
    limits: &'a Limits,
    /// Where `text`, rewritten for its surrogate pairs, stands from the
    /// original: saphyr's positions are translated back as they arrive.
    shifts: &'a Shifts,
    /// The tabs after a `:` that saphyr read as spaces: no block collection
    /// may start right after one.
    separations: &'a Separations,
    record: bool,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Anchored>,
    documents: usize,
    root: Option<Node>,
    nodes: usize,
    text_bytes: usize,
    /// Whether the text is ASCII, so that a marker's index (in characters)
    /// is also its byte offset.
    ascii: bool,
    /// See [`TextFacts::printable_one_line`].
    printable_one_line: bool,
    /// See [`TextFacts::json`].
    json: bool,
    longest_text: usize,
    /// Byte offset of the start of each line, built on first use when the
    /// text is not ASCII.
    line_starts: Option<LineIndex<'a>>,
    /// The last marker index turned into a byte offset, and that offset:
    /// markers count characters and mostly move forward, so a text that is
    /// not ASCII is walked from there.
    last_offset: (usize, usize),
}

impl<'a> Builder<'a> {
    fn new(
        text: &'a str,
        limits: &'a Limits,
        positions: Positions,
        shifts: &'a Shifts,
        separations: &'a Separations,
    ) -> Self {
        Builder {
            text,
            limits,
            shifts,
            separations,
            record: positions == Positions::Record,
            stack: Vec::new(),
            anchors: HashMap::new(),
            documents: 0,
            root: None,
            nodes: 0,
            text_bytes: 0,
            // With positions, the saphyr path needs byte offsets: on ASCII
            // a marker's index is one.
            ascii: positions == Positions::Record && text.is_ascii(),
            printable_one_line: false,
            json: false,
            longest_text: 0,
            line_starts: None,
            last_offset: (0, 0),
        }
    }

    /// The bytes of the original text that saphyr's `span` of the text it
    /// read covers; nothing unless positions are recorded.
    fn bytes_of(&mut self, span: &saphyr_parser::Span) -> Span {
        if !self.record {
            return Span::default();
        }
        let start = self.offset_of(span.start.index());
        let end = self.offset_of(span.end.index());
        self.original(start, end)
    }

    /// [`Builder::bytes_of`] a node's text, without the line breaks and
    /// spaces saphyr counts after it: in a block scalar after its last line
    /// of content, and in the end of a flow collection followed by spaces
    /// on its line (`{}  ` ends at its `}`).
    fn content_bytes_of(&mut self, span: &saphyr_parser::Span) -> Span {
        if !self.record {
            return Span::default();
        }
        let start = self.offset_of(span.start.index());
        let end = self.offset_of(span.end.index());
        let inside = self.text.get(start..end).unwrap_or_default();
        let content = inside.trim_end_matches([' ', '\t', '\r', '\n']);
        self.original(start, start + content.len())
    }

    /// The original text's bytes of `start..end`, bytes of the text saphyr
    /// read.
    fn original(&self, start: usize, end: usize) -> Span {
        Span::new(
            self.shifts.original_offset(start),
            self.shifts.original_offset(end),
        )
    }

    /// The byte offset of a marker's index, which counts characters.
    fn offset_of(&mut self, index: usize) -> usize {
        if self.ascii {
            return index;
        }
        let (mut at, mut offset) = self.last_offset;
        if index < at {
            let before = self.text.get(..offset).unwrap_or_default();
            for c in before.chars().rev() {
                if at == index {
                    break;
                }
                at -= 1;
                offset -= c.len_utf8();
            }
        } else {
            let after = self.text.get(offset..).unwrap_or_default();
            for c in after.chars() {
                if at == index {
                    break;
                }
                at += 1;
                offset += c.len_utf8();
            }
        }
        self.last_offset = (at, offset);
        offset
    }

    /// Handles one event; `Ok(true)` once the stream has ended.
    fn on_event(
        &mut self,
        event: Event<'_>,
        span: &saphyr_parser::Span,
    ) -> Result<bool, YamlError> {
        let start = &span.start;
        let at = self.shifts.original(position(start));
        match event {
            Event::StreamEnd => return Ok(true),
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(YamlError::new(
                        Problem::MultipleDocuments,
                        format!("a file holds one YAML document; a second one starts at {at}"),
                        Some(at),
                    ));
                }
            }
            Event::Nothing | Event::StreamStart | Event::DocumentEnd => {}
            Event::Alias(id) => {
                let bytes = self.bytes_of(span);
                self.on_alias(id, at, bytes)?;
            }
            Event::Scalar(text, style, anchor, tag) => {
                let bytes = self.content_bytes_of(span);
                self.on_scalar(text, style, anchor, tag.as_deref(), at, bytes)?;
            }
            Event::SequenceStart(anchor, tag) => {
                self.check_separation(start, at)?;
                self.check_collection_tag(tag.as_deref(), "seq", at)?;
                let bytes = self.bytes_of(span);
                let (at, bytes) = match self.indentless_dash(at, start.index()) {
                    Some(dash) => {
                        // Spaces stand between the dash and the item.
                        let back = usize::try_from(at.column.saturating_sub(dash.column))
                            .unwrap_or_default();
                        (dash, Span::at(bytes.start().saturating_sub(back)))
                    }
                    None => (at, bytes),
                };
                self.open(Collection::Sequence(Vec::new()), anchor, at, bytes)?;
            }
            Event::MappingStart(anchor, tag) => {
                self.check_separation(start, at)?;
                self.check_collection_tag(tag.as_deref(), "map", at)?;
                let bytes = self.bytes_of(span);
                self.open(
                    Collection::Mapping {
                        map: Map::with_capacity(MAPPING_CAPACITY),
                        awaiting_value: false,
                    },
                    anchor,
                    at,
                    bytes,
                )?;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let bytes = self.content_bytes_of(span);
                self.close(bytes)?;
            }
        }
        Ok(false)
    }

    /// A collection that starts right after a tab that follows a `:` is a
    /// block collection on the line of its `:`, which the tab would indent:
    /// YAML indents with spaces only. (A flow collection starts with a
    /// bracket, which [`separation`] never finds after a tab.)
    fn check_separation(&self, start: &Marker, at: Position) -> Result<(), YamlError> {
        let Some(separation) = self.separations.value_at(start.index()) else {
            return Ok(());
        };
        let back = separation.value_index - separation.tab_index;
        let tab = Position {
            line: at.line,
            column: at
                .column
                .saturating_sub(u32::try_from(back).unwrap_or(u32::MAX)),
        };
        Err(YamlError::new(
            Problem::Syntax,
            format!(
                "a tab separates ':' from the block collection after it at {tab}; \
                 only spaces may indent a block collection"
            ),
            Some(tab),
        ))
    }

    fn check_collection_tag(
        &self,
        tag: Option<&Tag>,
        expected: &str,
        at: Position,
    ) -> Result<(), YamlError> {
        match tag {
            None => Ok(()),
            Some(tag) if core_suffix(&tag.handle, &tag.suffix) == Some(expected) => Ok(()),
            Some(tag) if is_non_specific(&tag.handle, &tag.suffix) => Ok(()),
            Some(tag) => Err(YamlError::parts(
                Problem::Tag,
                vec![
                    Part::Said("unsupported tag ".to_owned()),
                    Part::Bare(tag_name(&tag.handle, &tag.suffix)),
                    Part::Said(format!(" at {at}")),
                ],
                Some(at),
            )),
        }
    }

    /// saphyr starts a block sequence written at the indentation of its key
    /// (`items:\n- a`) at its first item, after the `- `; an indented one
    /// starts at its `-`. The reader sees both at the `-`.
    fn indentless_dash(&mut self, at: Position, index: usize) -> Option<Position> {
        let key_line = match self.stack.last() {
            Some(Frame {
                collection:
                    Collection::Mapping {
                        awaiting_value: true,
                        ..
                    },
                last_key,
                ..
            }) => last_key.line,
            _ => return None,
        };
        // A value on its key's line is never an indentless sequence; this also
        // keeps the scan below to one per line.
        if at.line <= key_line {
            return None;
        }
        let text = self.text;
        let start = if self.ascii && self.shifts.is_empty() {
            index.checked_sub(usize::try_from(at.column).ok()?.checked_sub(1)?)?
        } else {
            let lines = self.line_starts.get_or_insert_with(|| LineIndex::new(text));
            lines.offset(Position {
                line: at.line,
                column: 1,
            })
        };
        let line = text.get(start..)?;
        let indent = line.chars().take_while(|&c| c == ' ').count();
        let mut rest = line.get(indent..)?.chars();
        let after_dash = rest.next() == Some('-') && matches!(rest.next(), Some(' ' | '\t'));
        let item_column = u32::try_from(indent).ok()?.checked_add(1)?;
        (after_dash && at.column > item_column).then_some(Position {
            line: at.line,
            column: item_column,
        })
    }

    fn expecting_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame {
                collection: Collection::Mapping {
                    awaiting_value: false,
                    ..
                },
                ..
            })
        )
    }

    fn on_scalar(
        &mut self,
        text: Cow<'_, str>,
        style: ScalarStyle,
        anchor: usize,
        tag: Option<&Tag>,
        at: Position,
        bytes: Span,
    ) -> Result<(), YamlError> {
        if style == ScalarStyle::Plain {
            if let Some(indicator) = text.chars().next().filter(|c| matches!(c, '|' | '>')) {
                // saphyr takes `|` and `>` for text in a flow collection;
                // YAML 1.2 never lets an indicator start a plain scalar.
                return Err(YamlError::new(
                    Problem::Syntax,
                    format!(
                        "a plain scalar cannot start with '{indicator}', a block scalar \
                         indicator, at {at}; quote the text"
                    ),
                    Some(at),
                ));
            }
        }
        self.spend(1, text.len(), at)?;
        let text_bytes = text.len();
        self.longest_text = self.longest_text.max(text_bytes);
        let key_text = (anchor != 0).then(|| text.clone().into_owned());
        let value = if self.expecting_key() {
            // A key is its text; a tag on it must still be one numi knows
            // and fit the text, as on a value.
            let resolved = match tag {
                Some(tag) => Some(
                    resolve_tagged(&text, &tag.handle, &tag.suffix)
                        .map_err(|error| scalar_error(error, &text, at))?,
                ),
                None => None,
            };
            let null = match resolved {
                Some(resolved) => resolved.is_null(),
                None => style == ScalarStyle::Plain && is_null(&text),
            };
            if null {
                return Err(null_key(at));
            }
            Value::String(text.into_owned())
        } else {
            match (tag, style) {
                (Some(tag), _) => resolve_tagged(&text, &tag.handle, &tag.suffix)
                    .map_err(|error| scalar_error(error, &text, at))?,
                (None, ScalarStyle::Plain) => match resolve_plain(text) {
                    Ok(value) => value,
                    Err((error, text)) => return Err(scalar_error(error, &text, at)),
                },
                (None, _) => Value::String(text.into_owned()),
            }
        };
        let node = Node {
            value,
            at,
            positions: NodePositions::leaf(bytes),
            size: 1,
            text_bytes,
            height: 0,
        };
        self.accept_anchored(node, anchor, key_text)
    }

    /// An untagged, unanchored scalar, plain or double-quoted, handed
    /// straight to its collection: what [`Builder::on_scalar`] and
    /// [`Builder::accept`] do for one, without building a node. The fast
    /// path reads no other scalar, and gives up on any error, so the error
    /// itself need not match.
    fn untagged_scalar(
        &mut self,
        text: &str,
        plain: bool,
        at: Position,
        bytes: Span,
    ) -> Result<(), YamlError> {
        self.spend(1, text.len(), at)?;
        self.longest_text = self.longest_text.max(text.len());
        let record = self.record;
        // Never shown: the caller gives up and the full parser words the error.
        let give_up = || YamlError::new(Problem::Syntax, "left to the full parser", Some(at));
        let Some(parent) = self.stack.last_mut() else {
            return Err(give_up());
        };
        let value = |text: &str| match plain {
            true => resolve_plain(Cow::Borrowed(text)).map_err(|_| give_up()),
            false => Ok(Value::String(text.to_owned())),
        };
        parent.size = parent.size.saturating_add(1);
        parent.text_bytes = parent.text_bytes.saturating_add(text.len());
        parent.height = parent.height.max(1);
        match &mut parent.collection {
            Collection::Sequence(items) => {
                items.push(value(text)?);
                if record {
                    parent.positions.children.push(NodePositions::leaf(bytes));
                }
            }
            Collection::Mapping {
                map,
                awaiting_value,
            } => {
                if std::mem::take(awaiting_value) {
                    if let Some(slot) = map.values_mut().next_back() {
                        *slot = value(text)?;
                    }
                    if record {
                        parent.positions.children.push(NodePositions::leaf(bytes));
                    }
                } else {
                    if plain && is_null(text) {
                        return Err(give_up());
                    }
                    match map.entry(text) {
                        Entry::Occupied(_) => return Err(give_up()),
                        Entry::Vacant(entry) => {
                            entry.insert(Value::Null);
                        }
                    }
                    parent.last_key = at;
                    if record {
                        parent.positions.keys.push(bytes);
                    }
                    *awaiting_value = true;
                }
            }
        }
        Ok(())
    }

    fn on_alias(&mut self, id: usize, at: Position, bytes: Span) -> Result<(), YamlError> {
        let Some(Anchored {
            node: anchored,
            key_text,
        }) = self.anchors.get(&id)
        else {
            return Err(YamlError::new(
                Problem::Syntax,
                format!("unknown alias at {at}"),
                Some(at),
            ));
        };
        if self.stack.len() + anchored.height > self.limits.max_depth {
            return Err(too_deep(self.limits, at));
        }
        let value = if self.expecting_key() {
            match key_text {
                Some(_) if anchored.value.is_null() => return Err(null_key(at)),
                Some(text) => Value::String(text.clone()),
                None => {
                    return Err(YamlError::new(
                        Problem::ComplexKey,
                        format!("a mapping key is not a plain scalar at {at}"),
                        Some(at),
                    ));
                }
            }
        } else {
            // Refuse an expansion before paying for the copy.
            self.affordable(anchored, at)?;
            anchored.value.clone()
        };
        let positions = if self.record {
            relocated(&anchored.positions, bytes)
        } else {
            NodePositions::leaf(bytes)
        };
        let node = Node {
            value,
            at,
            positions,
            size: anchored.size,
            text_bytes: anchored.text_bytes,
            height: anchored.height,
        };
        self.spend(node.size, node.text_bytes, at)?;
        self.accept(node)
    }

    /// Whether the budget can pay for another copy of `node`.
    fn affordable(&self, node: &Node, at: Position) -> Result<(), YamlError> {
        if self.nodes.saturating_add(node.size) > self.limits.max_nodes {
            return Err(too_many_nodes(self.limits, at));
        }
        if self.text_bytes.saturating_add(node.text_bytes) > self.limits.max_text_bytes {
            return Err(too_much_text(self.limits, at));
        }
        Ok(())
    }

    fn open(
        &mut self,
        collection: Collection,
        anchor: usize,
        at: Position,
        bytes: Span,
    ) -> Result<(), YamlError> {
        if self.expecting_key() {
            return Err(YamlError::new(
                Problem::ComplexKey,
                format!("a mapping key is not a plain scalar at {at}"),
                Some(at),
            ));
        }
        if self.stack.len() >= self.limits.max_depth {
            return Err(too_deep(self.limits, at));
        }
        self.spend(1, 0, at)?;
        self.stack.push(Frame {
            collection,
            at,
            positions: NodePositions::leaf(bytes),
            last_key: at,
            anchor,
            size: 1,
            text_bytes: 0,
            height: 1,
        });
        Ok(())
    }

    /// Ends the innermost collection; `bytes` is its closing bracket, or
    /// nothing for a block collection, which ends with its last node.
    fn close(&mut self, bytes: Span) -> Result<(), YamlError> {
        let Some(mut frame) = self.stack.pop() else {
            return Ok(());
        };
        let value = match frame.collection {
            Collection::Sequence(items) => Value::Array(items),
            Collection::Mapping { map, .. } => Value::Object(map),
        };
        if self.record {
            let at = frame.positions.at;
            let end = if bytes.is_empty() {
                let last = |spans: &mut dyn Iterator<Item = Span>| spans.last().map(Span::end);
                let child = last(&mut frame.positions.children.iter().map(|c| c.at));
                let key = last(&mut frame.positions.keys.iter().copied());
                child.max(key).unwrap_or(at.end())
            } else {
                bytes.end()
            };
            frame.positions.at = Span::new(at.start(), end);
        }
        let node = Node {
            value,
            at: frame.at,
            positions: frame.positions,
            size: frame.size,
            text_bytes: frame.text_bytes,
            height: frame.height,
        };
        self.accept_anchored(node, frame.anchor, None)
    }

    fn spend(&mut self, nodes: usize, text_bytes: usize, at: Position) -> Result<(), YamlError> {
        self.nodes = self.nodes.saturating_add(nodes);
        if self.nodes > self.limits.max_nodes {
            return Err(too_many_nodes(self.limits, at));
        }
        self.text_bytes = self.text_bytes.saturating_add(text_bytes);
        if self.text_bytes > self.limits.max_text_bytes {
            return Err(too_much_text(self.limits, at));
        }
        Ok(())
    }

    /// [`Builder::accept`], keeping a copy of the node (paid for from the
    /// budget) when it carries an anchor.
    fn accept_anchored(
        &mut self,
        node: Node,
        anchor: usize,
        key_text: Option<String>,
    ) -> Result<(), YamlError> {
        if anchor != 0 {
            self.spend(node.size, node.text_bytes, node.at)?;
            let positions = if self.record {
                node.positions.clone()
            } else {
                NodePositions::leaf(node.positions.at)
            };
            let copy = Node {
                value: node.value.clone(),
                at: node.at,
                positions,
                size: node.size,
                text_bytes: node.text_bytes,
                height: node.height,
            };
            self.anchors.insert(
                anchor,
                Anchored {
                    node: copy,
                    key_text,
                },
            );
        }
        self.accept(node)
    }

    /// Hands a finished node to its parent, or makes it the root.
    fn accept(&mut self, node: Node) -> Result<(), YamlError> {
        let record = self.record;
        let Some(parent) = self.stack.last_mut() else {
            self.root = Some(node);
            return Ok(());
        };
        parent.size = parent.size.saturating_add(node.size);
        parent.text_bytes = parent.text_bytes.saturating_add(node.text_bytes);
        parent.height = parent.height.max(node.height + 1);
        match &mut parent.collection {
            Collection::Sequence(items) => {
                items.push(node.value);
                if record {
                    parent.positions.children.push(node.positions);
                }
            }
            Collection::Mapping {
                map,
                awaiting_value,
            } => match std::mem::take(awaiting_value) {
                false => {
                    let Value::String(key) = node.value else {
                        return Err(YamlError::new(
                            Problem::ComplexKey,
                            format!("a mapping key is not a plain scalar at {}", node.at),
                            Some(node.at),
                        ));
                    };
                    match map.entry(key) {
                        Entry::Occupied(entry) => {
                            let at = node.at;
                            return Err(YamlError::parts(
                                Problem::DuplicateKey,
                                vec![
                                    Part::Said("duplicate key ".to_owned()),
                                    Part::Quoted(entry.key().clone()),
                                    Part::Said(format!(" at {at}")),
                                ],
                                Some(at),
                            ));
                        }
                        Entry::Vacant(entry) => {
                            entry.insert(Value::Null);
                        }
                    }
                    parent.last_key = node.at;
                    if record {
                        parent.positions.keys.push(node.positions.at);
                    }
                    *awaiting_value = true;
                }
                true => {
                    // The map keeps insertion order (serde_json's
                    // `preserve_order`), so its last value is the placeholder.
                    if let Some(slot) = map.values_mut().next_back() {
                        *slot = node.value;
                    }
                    if record {
                        parent.positions.children.push(node.positions);
                    }
                }
            },
        }
        Ok(())
    }

    /// The root's value, a mapping or not.
    #[cfg(test)]
    fn finish_any_root(self) -> Result<Value, YamlError> {
        match self.root {
            Some(root) => Ok(root.value),
            None => Err(YamlError::new(
                Problem::Empty,
                "the file holds no YAML document",
                Some(START),
            )),
        }
    }

    fn finish(self) -> Result<Document, YamlError> {
        self.finish_rooted(Root::Mapping)
    }

    fn finish_rooted(self, allowed: Root) -> Result<Document, YamlError> {
        let Some(root) = self.root else {
            return Err(YamlError::new(
                Problem::Empty,
                "the file holds no YAML document",
                Some(START),
            ));
        };
        match root.value {
            Value::Object(_) => Ok(Document {
                value: root.value,
                positions: root.positions,
                placed: self.record,
                text: TextFacts {
                    printable_one_line: self.printable_one_line,
                    longest: self.longest_text,
                    json: self.json,
                },
            }),
            Value::Array(_) if allowed == Root::MappingOrSequence => Ok(Document {
                value: root.value,
                positions: root.positions,
                placed: self.record,
                text: TextFacts {
                    printable_one_line: self.printable_one_line,
                    longest: self.longest_text,
                    json: self.json,
                },
            }),
            Value::Null => Err(YamlError::new(
                Problem::Empty,
                "the document is empty",
                Some(root.at),
            )),
            _ => Err(YamlError::new(
                Problem::RootNotMapping,
                format!(
                    "the document root is {}, not a mapping",
                    json_type_name(&root.value)
                ),
                Some(root.at),
            )),
        }
    }
}

/// Gives every node of an alias's copy the alias's own position: that is
/// where the reader sees it.
fn relocated(positions: &NodePositions, at: Span) -> NodePositions {
    NodePositions {
        at,
        keys: vec![at; positions.keys.len()],
        children: positions
            .children
            .iter()
            .map(|c| relocated(c, at))
            .collect(),
    }
}

/// A null key would read as the string key `""` or `"~"` and could collide
/// with it; JSON has no null key.
fn null_key(at: Position) -> YamlError {
    YamlError::new(
        Problem::ComplexKey,
        format!("a mapping key is null at {at}; quote it if a string is meant"),
        Some(at),
    )
}

fn too_many_nodes(limits: &Limits, at: Position) -> YamlError {
    YamlError::new(
        Problem::TooManyNodes,
        format!(
            "the document expands to more than {} nodes (aliases included) at {at}",
            limits.max_nodes
        ),
        Some(at),
    )
}

fn too_much_text(limits: &Limits, at: Position) -> YamlError {
    YamlError::new(
        Problem::TooMuchText,
        format!(
            "the document expands to more than {} of text (aliases included) at {at}",
            shown::human_size(u64::try_from(limits.max_text_bytes).unwrap_or(u64::MAX))
        ),
        Some(at),
    )
}

fn too_deep(limits: &Limits, at: Position) -> YamlError {
    YamlError::new(
        Problem::TooDeep,
        format!(
            "collections nest deeper than {} levels at {at}",
            limits.max_depth
        ),
        Some(at),
    )
}

fn scalar_error(error: ScalarError, text: &str, at: Position) -> YamlError {
    let said = |words: &str| Part::Said(words.to_owned());
    let (problem, message) = match error {
        ScalarError::NotFinite => (
            Problem::NotJson,
            vec![
                Part::Quoted(text.to_owned()),
                Part::Said(format!(
                    " at {at} is not a finite number, which JSON cannot hold"
                )),
            ],
        ),
        ScalarError::TooLarge => (
            Problem::NotJson,
            vec![
                Part::Quoted(text.to_owned()),
                Part::Said(format!(
                    " at {at} is a number too large to represent (beyond ±1.8e308)"
                )),
            ],
        ),
        ScalarError::UnsupportedTag(tag) => (
            Problem::Tag,
            vec![
                said("unsupported tag "),
                Part::Bare(tag),
                Part::Said(format!(" at {at}")),
            ],
        ),
        ScalarError::TagMismatch(tag) => (
            Problem::Tag,
            vec![
                Part::Quoted(text.to_owned()),
                Part::Said(format!(" at {at} is not a valid ")),
                Part::Bare(tag),
            ],
        ),
    };
    YamlError::parts(problem, message, Some(at))
}

/// How a message names the type of a JSON value: `a string`, `null`.
pub fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a sequence",
        Value::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod compat_tests;
#[cfg(test)]
mod tests;
