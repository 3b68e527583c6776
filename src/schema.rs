//! The schema stage: each kind's JSON Schema, compiled once per run and only
//! for the kinds seen, and its violations as diagnostics in document order.

use std::sync::OnceLock;

use jsonschema::error::ValidationErrorKind;
use jsonschema::paths::LocationSegment;
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Stage};
use crate::kinds::{KINDS, Kind};
use crate::yaml::{PathSegment, document_order, format_pointer, json_type_name};

static VALIDATORS: [OnceLock<Result<Validator, String>>; KINDS.len()] =
    [const { OnceLock::new() }; KINDS.len()];

fn validator(kind: &'static Kind) -> Result<&'static Validator, Diagnostic> {
    let slot = KINDS
        .iter()
        .position(|known| std::ptr::eq(known, kind))
        .and_then(|index| VALIDATORS.get(index));
    let compiled = slot.map(|slot| slot.get_or_init(|| compile(kind)));
    match compiled {
        Some(Ok(validator)) => Ok(validator),
        Some(Err(reason)) => Err(internal(kind, reason)),
        None => Err(internal(kind, "the kind is not registered")),
    }
}

fn compile(kind: &Kind) -> Result<Validator, String> {
    let schema: Value = serde_json::from_str(kind.schema).map_err(|error| error.to_string())?;
    // Every schema declares draft 2020-12. Naming the draft here spares the
    // compiler from loading every other draft's meta-schema on each run.
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(false)
        .build(&schema)
        .map_err(|error| error.to_string())
}

fn internal(kind: &Kind, reason: &str) -> Diagnostic {
    Diagnostic::new(
        Stage::Internal,
        "internal/schema",
        format!("the {} schema does not compile: {reason}", kind.name),
    )
}

/// Every violation of the kind's schema, ordered by where the offending value
/// stands in the document, then by keyword.
pub fn check(kind: &'static Kind, document: &Value) -> Vec<Diagnostic> {
    let validator = match validator(kind) {
        Ok(validator) => validator,
        Err(diagnostic) => return vec![diagnostic],
    };
    if validator.is_valid(document) {
        return Vec::new();
    }
    let mut violations: Vec<(Vec<usize>, Diagnostic)> = validator
        .iter_errors(document)
        .flat_map(|error| violations_of(&error))
        .map(|(path, diagnostic)| (document_order(document, &path), diagnostic))
        .collect();
    violations.sort_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.rule.cmp(y.rule)));
    violations.dedup_by(|(_, x), (_, y)| x.rule == y.rule && x.pointer == y.pointer);
    violations
        .into_iter()
        .map(|(_, diagnostic)| diagnostic)
        .collect()
}

/// The keyword a schema diagnostic reports, from its rule id.
pub fn keyword(diagnostic: &Diagnostic) -> &str {
    diagnostic
        .rule
        .strip_prefix("schema/")
        .unwrap_or(diagnostic.rule)
}

/// One jsonschema error as violations: an unexpected property points at
/// itself, a missing one at where it would be.
fn violations_of(error: &ValidationError<'_>) -> Vec<(Vec<PathSegment>, Diagnostic)> {
    let base: Vec<PathSegment> = error
        .instance_path()
        .iter()
        .map(|segment| match segment {
            LocationSegment::Property(name) => PathSegment::Key(name.into_owned()),
            LocationSegment::Index(index) => PathSegment::Index(index),
        })
        .collect();
    let at = |name: &str| {
        let mut path = base.clone();
        path.push(PathSegment::Key(name.to_owned()));
        path
    };
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => unexpected
            .iter()
            .map(|name| {
                let message = format!("unexpected property {}", crate::report::quote(name));
                (at(name), "schema/additionalProperties", message)
            })
            .map(|(path, rule, message)| violation(path, rule, message))
            .collect(),
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let message = format!("missing required property {}", crate::report::quote(name));
            vec![violation(at(name), "schema/required", message)]
        }
        kind => {
            let message = describe(kind, error.instance());
            vec![violation(base, rule_id(kind.keyword()), message)]
        }
    }
}

fn violation(
    path: Vec<PathSegment>,
    rule: &'static str,
    message: String,
) -> (Vec<PathSegment>, Diagnostic) {
    let diagnostic =
        Diagnostic::new(Stage::Schema, rule, message).at_pointer(format_pointer(&path));
    (path, diagnostic)
}

/// A short message for a violation, never echoing a long input value.
fn describe(kind: &ValidationErrorKind, instance: &Value) -> String {
    let found = json_type_name(instance);
    match kind {
        ValidationErrorKind::Type { kind } => {
            format!("expected {}, found {found}", type_names(kind))
        }
        ValidationErrorKind::Enum { options } => format!("expected one of {}", short_json(options)),
        ValidationErrorKind::Constant { expected_value } => {
            format!("expected {}", short_json(expected_value))
        }
        ValidationErrorKind::Minimum { limit } => format!("expected at least {limit}"),
        ValidationErrorKind::Maximum { limit } => format!("expected at most {limit}"),
        ValidationErrorKind::MinLength { limit } => format!("expected at least {limit} characters"),
        ValidationErrorKind::Pattern { pattern } => format!("expected a string matching {pattern}"),
        other => format!("fails the {} keyword", other.keyword()),
    }
}

fn type_names(kind: &jsonschema::error::TypeKind) -> String {
    match kind {
        jsonschema::error::TypeKind::Single(ty) => ty.to_string(),
        jsonschema::error::TypeKind::Multiple(types) => {
            let names: Vec<String> = types.iter().map(|ty| ty.to_string()).collect();
            names.join(" or ")
        }
    }
}

fn short_json(value: &Value) -> String {
    const MAX: usize = 200;
    let text = value.to_string();
    if text.len() <= MAX {
        return text;
    }
    let mut cut = MAX;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}…", text.get(..cut).unwrap_or_default())
}

/// Rule ids of the schema stage: `schema/<keyword>`.
fn rule_id(keyword: &str) -> &'static str {
    SCHEMA_RULES
        .iter()
        .find(|rule| rule.strip_prefix("schema/") == Some(keyword))
        .copied()
        .unwrap_or("schema/other")
}

/// The schema keywords numi's schemas use, as rule ids.
pub const SCHEMA_RULES: &[&str] = &[
    "schema/additionalProperties",
    "schema/const",
    "schema/enum",
    "schema/maximum",
    "schema/minLength",
    "schema/minimum",
    "schema/pattern",
    "schema/required",
    "schema/type",
    "schema/other",
];
