//! The pipeline for one document: YAML, kind gates, schema, then the kind's
//! rules and the producer-side checks. Each stage runs only when the ones
//! before it passed.

use std::borrow::Cow;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity, Stage};
use crate::kinds::{self, Kind, Role, Subject};
use crate::location::held::{self, Kept};
use crate::location::{DEFAULT_MAX_FILE_SIZE, Location};
use crate::schema;
use crate::yaml::{
    self, Document, KeyIndex, Limits, LineIndex, Positions, YamlError, document_order_with,
    parse_pointer, strict_json,
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

/// Validates the bytes of one document that has no file beside it.
pub fn validate_bytes(bytes: &[u8], mode: Mode, limits: &Limits) -> Checked {
    validate_at(
        bytes,
        mode,
        limits,
        Location::detached(DEFAULT_MAX_FILE_SIZE),
    )
}

/// Validates the bytes of one file read at `location`. The file is loaded
/// without positions; only when a finding needs one is it loaded again,
/// recording them.
pub fn validate_at(bytes: &[u8], mode: Mode, limits: &Limits, location: Location<'_>) -> Checked {
    let root = kinds::root_at(location.path());
    let load = || kinds::load_unplaced(bytes, limits, location.path());
    // A store's file is loaded the way its neighbours load it, so the
    // document a neighbour loaded before it is the one checked now, and
    // the one loaded now is the one its neighbours after it read.
    let loaded = match location.path() {
        Some(path) if *limits == Limits::default() => held::document_at(path, load),
        _ => load().map(Kept::new),
    };
    match loaded {
        Ok(document) => {
            let checked = check_document(document.document(), bytes, mode, location);
            drop(document);
            if !checked.diagnostics.iter().any(needs_position) {
                return checked;
            }
            match yaml::load_bytes_rooted(bytes, limits, Positions::Record, root) {
                Ok(document) => locate_all(&document, bytes, checked),
                // Loading the same bytes cannot fail the second time; if it
                // did, the findings still stand without positions.
                Err(_) => checked,
            }
        }
        Err(error) => Checked {
            diagnostics: vec![loading_finding(error, bytes)],
            ..Checked::default()
        },
    }
}

/// [`validate_at`], then `weigh` on what it found (suppressions, levels,
/// fixes), guarded: a panic inside numi becomes an internal error for this
/// document alone, so one document never ends a run or the language
/// server. The one guarded check of `numi validate` and `numi lsp`.
pub fn validate_guarded(
    bytes: &[u8],
    mode: Mode,
    limits: &Limits,
    location: Location<'_>,
    weigh: impl FnOnce(&mut Checked),
) -> Checked {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut checked = validate_at(bytes, mode, limits, location);
        weigh(&mut checked);
        checked
    }))
    .unwrap_or_else(|_| Checked {
        diagnostics: vec![Diagnostic::new(
            Stage::Internal,
            &crate::diagnostic::stages::errors::PANIC,
            "numi failed on this file; please report it",
        )],
        ..Checked::default()
    })
}

/// The finding of a document that could not be read as its tools read it.
fn loading_finding(error: YamlError, bytes: &[u8]) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(
        Stage::Yaml,
        crate::diagnostic::stages::yaml::rule_of(error.problem),
        crate::text::yaml_message(&error),
    );
    diagnostic.position = error.position;
    // The parser knows where a problem is, not where its token ends: the
    // finding covers the character it points at.
    if let (Some(position), Ok(text)) = (error.position, std::str::from_utf8(bytes)) {
        let lines = LineIndex::new(text);
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
    source: &[u8],
    location: &Location<'_>,
) -> Option<Diagnostic> {
    let reader = family.json_reader?;
    if !location.path().is_some_and(strict_json::is_json_file) {
        return None;
    }
    let text = std::str::from_utf8(source).ok()?;
    strict_json::check(text, reader)
        .err()
        .map(|error| loading_finding(error, source))
}

/// Every stage on a document's value; diagnostics carry pointers, and
/// positions only where a stage knew them.
fn check_document(
    document: &Document,
    source: &[u8],
    mode: Mode,
    location: Location<'_>,
) -> Checked {
    let value = &document.value;
    let (family, identified) = kinds::identify(value, &location);
    if let Some(finding) = strict_json_finding(family, source, &location) {
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
        suppressed: Vec::new(),
    }
}

/// The producer-side findings of a document that passed its schema, as
/// warnings, in the order their values stand in the document.
fn producer_findings(kind: &Kind, subject: &Subject<'_>) -> Vec<Diagnostic> {
    let mut found = (kind.producer_checks)(subject);
    // One index for every lookup: a mapping of many keys with a finding on
    // each stays linear.
    let mut keys = KeyIndex::default();
    found.sort_by_cached_key(|diagnostic| {
        let pointer = diagnostic.pointer.as_deref().unwrap_or_default();
        document_order_with(
            subject.value,
            &parse_pointer(subject.value, pointer),
            &mut keys,
        )
    });
    found.into_iter().map(Diagnostic::as_warning).collect()
}

fn needs_position(diagnostic: &Diagnostic) -> bool {
    diagnostic.position.is_none() && diagnostic.pointer.is_some()
}

fn locate_all(document: &Document, bytes: &[u8], mut checked: Checked) -> Checked {
    // The document loaded, so its bytes are UTF-8.
    let lines = LineIndex::new(std::str::from_utf8(bytes).unwrap_or_default());
    let mut keys = KeyIndex::default();
    checked.diagnostics = std::mem::take(&mut checked.diagnostics)
        .into_iter()
        .map(|d| locate(document, &lines, d, &mut keys))
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
            Diagnostic::new(Stage::Kind, rule, message).at_pointer("/kind"),
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
                    Stage::Kind,
                    &crate::diagnostic::stages::kind::API_VERSION,
                    format!("invalid: apiVersion is not {api_version}"),
                )
                .at_pointer("/apiVersion"),
            ));
        }
    }
    Ok(kind)
}

/// Fills in the source span of a diagnostic's pointer: for an unexpected
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
    let Some(pointer) = &diagnostic.pointer else {
        return diagnostic;
    };
    let located = document.locate_with(&parse_pointer(&document.value, pointer), keys);
    let at_key = diagnostic.rule == &crate::diagnostic::stages::schema::ADDITIONAL_PROPERTIES
        || kinds::rule_at_key(diagnostic.rule);
    let span = match located.key {
        Some(key) if at_key => key,
        _ => located.node,
    };
    diagnostic.placed(lines, span)
}
