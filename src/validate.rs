//! The pipeline for one document: YAML, kind gates, schema, then the kind's
//! rules and the producer-side checks. Each stage runs only when the ones
//! before it passed.

use std::borrow::Cow;
use std::cell::OnceCell;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Position, Severity, Span, address};
use crate::kinds::{self, Kind, Role, Subject};
use crate::location::unit::Kept;
use crate::location::{DEFAULT_MAX_FILE_SIZE, Location};
use crate::schema;
use crate::yaml::{
    self, Document, KeyIndex, Limits, LineIndex, PathSegment, Positions, Root, YamlError,
    document_order_with, strict_json,
};

/// Where a document was found, which decides the gates it meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `numi validate --files`: alpha kinds on, produced kinds checked
    /// against their own schema.
    Files,
    /// `numi validate [DIR]`: the configuration tree. Produced kinds are
    /// refused and alpha kinds need `enable_alpha`.
    Repository { enable_alpha: bool },
}

/// What validating one document found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    /// The kind, once the document named one this build knows.
    pub kind: Option<&'static str>,
    /// `metadata.name`, when the document has one, as written: what tells
    /// two documents of a kind apart. An output shows
    /// [`Checked::shown_name`].
    pub name: Option<String>,
    /// Where `metadata.name` stands, when the document has one there that
    /// is its name: what a later document of the same name points back to.
    pub name_place: Option<Place>,
    /// Every problem of the first stage that failed, in the stage's order;
    /// for the schema stage, at most `schema::MAX_LISTED_VIOLATIONS`; once
    /// the schema passed, the rule failures, then the producer-side warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// Problems found past that cap: counted, not listed.
    pub unlisted: usize,
    /// Findings silenced by a suppression comment in the document, each
    /// with its reason: kept for the reports that carry them, never
    /// deciding the status.
    pub suppressed: Vec<Suppressed>,
}

/// Where a node stands in a file: its bytes, and the positions of their
/// start and end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub span: Span,
    pub start: Position,
    pub end: Position,
}

/// Where the name of a document is written.
const NAME_PATH: [&str; 2] = ["metadata", "name"];

/// A finding silenced by a `# numi: ignore[...]` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub reason: String,
}

impl Checked {
    /// The document's name as every output shows it: a credential the
    /// detector recognises in it masked, as in every other text shown of a
    /// document. Any other name is shown as written.
    pub fn shown_name(&self) -> Option<Cow<'_, str>> {
        let none: [&str; 0] = [];
        self.name
            .as_deref()
            .map(|name| crate::secrets::mask(name, &none))
    }

    /// The diagnostics that decide the status, in report order.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// The diagnostics reported beside the status.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| !d.is_error())
    }

    /// `--strict`: every warning counts as an error. The order stays, so a
    /// failure of an earlier stage or rule is still the first error.
    pub fn promote_warnings(&mut self) {
        for diagnostic in &mut self.diagnostics {
            diagnostic.severity = Severity::Error;
        }
    }
}

/// One file as numi read it, made once and read by every stage: the bytes,
/// the document they load to (or why they do not), and the one line index
/// of their text, built when a stage first asks for it.
pub struct Parsed<'b> {
    bytes: &'b [u8],
    loaded: Result<Kept, YamlError>,
    limits: Limits,
    root: Root,
    /// A file of a unit, loaded as its neighbours load it (without the
    /// place of each node), loaded again with them when a stage needs one.
    placed: OnceCell<Option<Document>>,
    text: OnceCell<Option<&'b str>>,
    lines: OnceCell<Option<LineIndex<'b>>>,
}

impl<'b> Parsed<'b> {
    /// Loads `bytes`, read at `location`, once, with the place of every
    /// node; a file of a unit alone is loaded as its neighbours load it,
    /// without them.
    pub fn load(bytes: &'b [u8], limits: &Limits, location: &Location<'_>) -> Self {
        let root = kinds::root_at(location.path());
        // A file of a unit is loaded the way its neighbours load it, so the
        // document a neighbour loaded before it is the one checked now, and
        // the one loaded now is the one its neighbours after it read.
        let shared = match (location.unit(), location.path()) {
            (Some(unit), Some(path)) if *limits == Limits::default() => {
                unit.document(path, bytes, |bytes| {
                    kinds::load_unplaced(bytes, limits, Some(path))
                })
            }
            _ => None,
        };
        let loaded = shared.unwrap_or_else(|| {
            yaml::load_bytes_rooted(bytes, limits, Positions::Record, root).map(Kept::new)
        });
        Parsed {
            bytes,
            loaded,
            limits: *limits,
            root,
            placed: OnceCell::new(),
            text: OnceCell::new(),
            lines: OnceCell::new(),
        }
    }

    /// `bytes` with no file beside them, loaded as [`Parsed::load`] does.
    pub fn detached(bytes: &'b [u8]) -> Self {
        Parsed::load(
            bytes,
            &Limits::default(),
            &Location::detached(DEFAULT_MAX_FILE_SIZE),
        )
    }

    pub fn bytes(&self) -> &'b [u8] {
        self.bytes
    }

    /// The text of the file, when it is UTF-8.
    pub fn text(&self) -> Option<&'b str> {
        *self
            .text
            .get_or_init(|| std::str::from_utf8(self.bytes).ok())
    }

    /// The one line index of the text, when it is UTF-8.
    pub fn lines(&self) -> Option<&LineIndex<'b>> {
        self.lines
            .get_or_init(|| self.text().map(LineIndex::new))
            .as_ref()
    }

    /// The document as the checks read it, when the file loads.
    fn checked_document(&self) -> Option<&Document> {
        self.loaded.as_ref().ok().map(Kept::document)
    }

    /// The document with the place of every node, when the file loads.
    pub fn document(&self) -> Option<&Document> {
        let checked = self.checked_document()?;
        if checked.placed {
            return Some(checked);
        }
        self.placed
            .get_or_init(|| {
                yaml::load_bytes_rooted(self.bytes, &self.limits, Positions::Record, self.root).ok()
            })
            .as_ref()
    }
}

/// Validates the bytes of one document that has no file beside it.
pub fn validate_bytes(bytes: &[u8], mode: Mode, limits: &Limits) -> Checked {
    validate_at(
        bytes,
        mode,
        limits,
        Location::detached(DEFAULT_MAX_FILE_SIZE),
    )
}

/// Validates the bytes of one file read at `location`.
pub fn validate_at(bytes: &[u8], mode: Mode, limits: &Limits, location: Location<'_>) -> Checked {
    let parsed = Parsed::load(bytes, limits, &location);
    validate_parsed(&parsed, mode, location)
}

/// Every stage on a file loaded once: each finding is placed by the
/// document the checks read.
pub fn validate_parsed(parsed: &Parsed<'_>, mode: Mode, location: Location<'_>) -> Checked {
    let document = match &parsed.loaded {
        Ok(document) => document.document(),
        Err(error) => {
            return Checked {
                diagnostics: vec![loading_finding(error, parsed)],
                ..Checked::default()
            };
        }
    };
    let checked = check_document(document, parsed, mode, location);
    if !checked.diagnostics.iter().any(needs_position) {
        return checked;
    }
    match (parsed.document(), parsed.lines()) {
        (Some(document), Some(lines)) => locate_all(document, lines, checked),
        // Loading the same bytes cannot fail the second time; if it did,
        // the findings still stand without positions.
        _ => checked,
    }
}

/// [`validate_at`], then `weigh` on what it found (suppressions, levels,
/// fixes) with the file as it was parsed, guarded: a panic inside numi
/// becomes an internal error for this document alone, so one document
/// never ends a run or the language server. The one guarded check of `numi
/// validate` and `numi lsp`.
pub fn validate_guarded(
    bytes: &[u8],
    mode: Mode,
    limits: &Limits,
    location: Location<'_>,
    weigh: impl FnOnce(&mut Checked, &Parsed<'_>),
) -> Checked {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let parsed = Parsed::load(bytes, limits, &location);
        let mut checked = validate_parsed(&parsed, mode, location);
        weigh(&mut checked, &parsed);
        checked
    }))
    .unwrap_or_else(|_| Checked {
        diagnostics: vec![Diagnostic::new(
            &crate::diagnostic::stages::errors::PANIC,
            "numi failed on this file; please report it",
        )],
        ..Checked::default()
    })
}

/// Where `metadata.name` stands in `parsed`, if it is the name `checked`
/// found: placed by the positions the checks' document recorded (a store's
/// file, loaded without them, has none). Asked by a run of a configuration
/// tree, whose checks across documents point back to a name.
pub fn name_place(checked: &Checked, parsed: &Parsed<'_>) -> Option<Place> {
    let name = checked.name.as_deref()?;
    let document = parsed.checked_document()?;
    if !document.placed
        || document
            .value
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            != Some(name)
    {
        return None;
    }
    let path = NAME_PATH.map(|key| PathSegment::Key(key.to_owned()));
    let span = document.locate(&path).node;
    let place = |lines: &LineIndex<'_>| Place {
        span,
        start: lines.position(span.start()),
        end: lines.position(span.end()),
    };
    // The text's index when a finding built it; else the lines up to the
    // name's end alone: a name stands near the top of its document.
    if let Some(Some(lines)) = parsed.lines.get() {
        return Some(place(lines));
    }
    let text = parsed.text()?;
    let through = text
        .get(span.end()..)
        .and_then(|rest| rest.find(['\n', '\r']))
        .map_or(text.len(), |at| span.end() + at);
    Some(place(&LineIndex::new(text.get(..through)?)))
}

/// The finding of a document that could not be read as its tools read it.
fn loading_finding(error: &YamlError, parsed: &Parsed<'_>) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(
        crate::diagnostic::stages::yaml::rule_of(error.problem),
        crate::text::yaml_message(error),
    );
    diagnostic.position = error.position;
    // The parser knows where a problem is, not where its token ends: the
    // finding covers the character it points at.
    if let (Some(position), Some(lines)) = (error.position, parsed.lines()) {
        let span = lines.character_at(position);
        diagnostic.span = Some(span);
        diagnostic.end = Some(lines.position(span.end()));
    }
    diagnostic
}

/// A `.json` file of a family whose tools read JSON strictly: the first
/// way it is not strict JSON, if any.
fn strict_json_finding(
    family: &kinds::Family,
    parsed: &Parsed<'_>,
    location: &Location<'_>,
) -> Option<Diagnostic> {
    let reader = family.json_reader?;
    if !location.path().is_some_and(strict_json::is_json_file) {
        return None;
    }
    // The loader read it as JSON already: nothing to read again.
    if parsed
        .checked_document()
        .is_some_and(|document| document.text.json)
    {
        return None;
    }
    strict_json::check(parsed.text()?, reader)
        .err()
        .map(|error| loading_finding(&error, parsed))
}

/// Every stage on a document's value; diagnostics carry addresses, and
/// positions only where a stage knew them.
fn check_document(
    document: &Document,
    parsed: &Parsed<'_>,
    mode: Mode,
    location: Location<'_>,
) -> Checked {
    let value = &document.value;
    let source = parsed.bytes();
    let (family, identified) = kinds::identify(value, &location);
    if let Some(finding) = strict_json_finding(family, parsed, &location) {
        return Checked {
            kind: identified.as_ref().ok().map(|kind| kind.name),
            diagnostics: vec![finding],
            ..Checked::default()
        };
    }
    let admitted = identified
        .map_err(|diagnostic| (None, diagnostic))
        .and_then(|kind| admit(kind, value, mode));
    let kind = match admitted {
        Ok(kind) => kind,
        Err((kind, diagnostic)) => {
            return Checked {
                kind: kind.map(|kind| kind.name),
                name: (family.display_name)(value),
                diagnostics: vec![diagnostic],
                ..Checked::default()
            };
        }
    };
    let violations = schema::check(&kind.compiled, value);
    let unlisted = violations.unlisted;
    let mut diagnostics = violations.listed;
    if diagnostics.is_empty() {
        let subject = Subject {
            value,
            source,
            text: document.text,
            location,
        };
        diagnostics = (kind.rules)(&subject);
        diagnostics.extend(producer_findings(kind, &subject));
    }
    Checked {
        kind: Some(kind.name),
        name: (kind.display_name)(value),
        unlisted,
        diagnostics,
        ..Checked::default()
    }
}

/// The producer-side findings of a document that passed its schema (their
/// rules warn), in the order their values stand in the document.
fn producer_findings(kind: &Kind, subject: &Subject<'_>) -> Vec<Diagnostic> {
    let mut found = (kind.producer_checks)(subject);
    // One index for every lookup: a mapping of many keys with a finding on
    // each stays linear.
    let mut keys = KeyIndex::default();
    found.sort_by_cached_key(|diagnostic| {
        let steps = diagnostic.address.as_ref().map(|a| a.steps());
        document_order_with(subject.value, steps.unwrap_or_default(), &mut keys)
    });
    found
}

fn needs_position(diagnostic: &Diagnostic) -> bool {
    diagnostic.position.is_none() && diagnostic.address.is_some()
}

fn locate_all(document: &Document, lines: &LineIndex<'_>, mut checked: Checked) -> Checked {
    let mut keys = KeyIndex::default();
    checked.diagnostics = std::mem::take(&mut checked.diagnostics)
        .into_iter()
        .map(|d| locate(document, lines, d, &mut keys))
        .collect();
    checked
}

/// The gates of the configuration tree, then the kind's apiVersion. A
/// refusal keeps the kind, so reports still name it.
fn admit(
    kind: &'static Kind,
    value: &Value,
    mode: Mode,
) -> Result<&'static Kind, (Option<&'static Kind>, Diagnostic)> {
    let refuse = |rule, message: String| {
        Err((
            Some(kind),
            Diagnostic::new(rule, message).at(address!["kind"]),
        ))
    };
    if let Mode::Repository { enable_alpha } = mode {
        if kind.role == Role::Produced {
            return refuse(
                &crate::diagnostic::stages::kind::PRODUCED,
                format!("produced kind: {} is not configuration", kind.name),
            );
        }
        if kind.role == Role::Alpha && !enable_alpha {
            return refuse(
                &crate::diagnostic::stages::kind::ALPHA_DISABLED,
                format!("alpha kind is not enabled: {}", kind.name),
            );
        }
    }
    if let Some(api_version) = kind.api_version {
        if value.get("apiVersion").and_then(Value::as_str) != Some(api_version) {
            return Err((
                Some(kind),
                Diagnostic::new(
                    &crate::diagnostic::stages::kind::API_VERSION,
                    format!("invalid: apiVersion is not {api_version}"),
                )
                .at(address!["apiVersion"]),
            ));
        }
    }
    Ok(kind)
}

/// Fills in the source span of a diagnostic's address: for an unexpected
/// property, its key; for a missing one, the mapping that lacks it.
fn locate<'v>(
    document: &'v Document,
    lines: &LineIndex<'_>,
    diagnostic: Diagnostic,
    keys: &mut KeyIndex<'v>,
) -> Diagnostic {
    if diagnostic.position.is_some() {
        return diagnostic;
    }
    let Some(address) = &diagnostic.address else {
        return diagnostic;
    };
    let located = document.locate_with(address.steps(), keys);
    let at_key = diagnostic.rule == &crate::diagnostic::stages::schema::ADDITIONAL_PROPERTIES
        || kinds::rule_at_key(diagnostic.rule);
    let span = match located.key {
        Some(key) if at_key => key,
        _ => located.node,
    };
    diagnostic.placed(lines, span)
}
