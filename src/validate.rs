//! The pipeline for one document: YAML, kind gates, schema, then the kind's
//! rules and the producer-side checks. Each stage runs only when the ones
//! before it passed.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity, Stage};
use crate::kinds::{self, Kind, Role};
use crate::schema;
use crate::strict;
use crate::yaml::{self, Document, KeyIndex, Limits, Positions, parse_pointer};

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
    /// `metadata.name`, when the document has one.
    pub name: Option<String>,
    /// Every problem of the first stage that failed, in the stage's order;
    /// for the schema stage, at most `schema::MAX_LISTED_VIOLATIONS`; once
    /// the schema passed, the rule failures, then the producer-side warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// Problems found past that cap: counted, not listed.
    pub unlisted: usize,
}

impl Checked {
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

/// Validates the bytes of one file. The file is loaded without positions;
/// only when a finding needs one is it loaded again, recording them.
pub fn validate_bytes(bytes: &[u8], mode: Mode, limits: &Limits) -> Checked {
    match yaml::load_bytes_with(bytes, limits, Positions::Skip) {
        Ok(document) => {
            let checked = check_document(&document, mode);
            drop(document);
            if !checked.diagnostics.iter().any(needs_position) {
                return checked;
            }
            match yaml::load_bytes(bytes, limits) {
                Ok(document) => locate_all(&document, checked),
                // Loading the same bytes cannot fail the second time; if it
                // did, the findings still stand without positions.
                Err(_) => checked,
            }
        }
        Err(error) => {
            let mut diagnostic = Diagnostic::new(Stage::Yaml, error.rule, error.message);
            diagnostic.position = error.position;
            Checked {
                diagnostics: vec![diagnostic],
                ..Checked::default()
            }
        }
    }
}

/// Every stage on a document's value; diagnostics carry pointers, and
/// positions only where a stage knew them.
fn check_document(document: &Document, mode: Mode) -> Checked {
    let value = &document.value;
    let kind = match identify(value, mode) {
        Ok(kind) => kind,
        Err(diagnostic) => {
            return Checked {
                kind: known_kind_name(value),
                name: metadata_name(value),
                diagnostics: vec![diagnostic],
                unlisted: 0,
            };
        }
    };
    let name = if kind.has_metadata {
        metadata_name(value)
    } else {
        None
    };
    let violations = schema::check(kind, value);
    let unlisted = violations.unlisted;
    let mut diagnostics = violations.listed;
    if diagnostics.is_empty() {
        diagnostics = (kind.rules)(value);
        diagnostics.extend(strict::check(kind, value, document.text));
    }
    Checked {
        kind: Some(kind.name),
        name,
        unlisted,
        diagnostics,
    }
}

fn needs_position(diagnostic: &Diagnostic) -> bool {
    diagnostic.position.is_none() && diagnostic.pointer.is_some()
}

fn locate_all(document: &Document, mut checked: Checked) -> Checked {
    let mut keys = KeyIndex::default();
    checked.diagnostics = std::mem::take(&mut checked.diagnostics)
        .into_iter()
        .map(|d| locate(document, d, &mut keys))
        .collect();
    checked
}

/// The kind stage: a known kind, its gates, its apiVersion.
fn identify(value: &Value, mode: Mode) -> Result<&'static Kind, Diagnostic> {
    let kind_at =
        |rule, message: String| Diagnostic::new(Stage::Kind, rule, message).at_pointer("/kind");
    let kind = match value.get("kind") {
        None => {
            return Err(
                Diagnostic::new(Stage::Kind, "kind/unknown", "the document has no kind")
                    .at_pointer("/kind"),
            );
        }
        Some(Value::String(name)) => kinds::find(name).ok_or_else(|| {
            let known: Vec<&str> = kinds::names().collect();
            kind_at(
                "kind/unknown",
                format!(
                    "unknown kind: {} (this build knows {})",
                    crate::report::quote(&crate::report::shorten(name)),
                    known.join(", ")
                ),
            )
        })?,
        Some(other) => {
            return Err(kind_at(
                "kind/unknown",
                format!("kind is {}, not a string", yaml::json_type_name(other)),
            ));
        }
    };
    if let Mode::Repository { enable_alpha } = mode {
        if kind.role == Role::Produced {
            return Err(kind_at(
                "kind/produced",
                format!("produced kind: {} is not configuration", kind.name),
            ));
        }
        if kind.role == Role::Alpha && !enable_alpha {
            return Err(kind_at(
                "kind/alpha-disabled",
                format!("alpha kind is not enabled: {}", kind.name),
            ));
        }
    }
    if value.get("apiVersion").and_then(Value::as_str) != Some(kind.api_version) {
        return Err(Diagnostic::new(
            Stage::Kind,
            "kind/api-version",
            format!("invalid: apiVersion is not {}", kind.api_version),
        )
        .at_pointer("/apiVersion"));
    }
    Ok(kind)
}

fn known_kind_name(value: &Value) -> Option<&'static str> {
    value
        .get("kind")
        .and_then(Value::as_str)
        .and_then(kinds::find)
        .map(|kind| kind.name)
}

fn metadata_name(value: &Value) -> Option<String> {
    value
        .get("metadata")
        .and_then(|metadata| metadata.get("name"))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// Fills in the source position of a diagnostic's pointer: for an unexpected
/// property, its key; for a missing one, the mapping that lacks it.
fn locate<'v>(
    document: &'v Document,
    mut diagnostic: Diagnostic,
    keys: &mut KeyIndex<'v>,
) -> Diagnostic {
    if diagnostic.position.is_some() {
        return diagnostic;
    }
    if let Some(pointer) = &diagnostic.pointer {
        let located = document.locate_with(&parse_pointer(&document.value, pointer), keys);
        let at_key = diagnostic.rule == "schema/additionalProperties";
        diagnostic.position = Some(match located.key {
            Some(key) if at_key => key,
            _ => located.node,
        });
    }
    diagnostic
}
