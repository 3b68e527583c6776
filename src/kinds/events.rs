//! What the five evals event payloads of spec 002 share (OutcomeRecorded,
//! QualificationUpdated, PromotionProposed, PromotionDecided,
//! OutcomeCorrected): the autonomy ladder, the digest format, and the
//! finding for a field the spec does not name.
//!
//! Spec 002 names what each payload carries but publishes no field table,
//! so their schemas are lenient: a field they do not name is allowed and
//! reported as a producer-side finding, never refused, so that a real
//! payload is not turned away for a field the spec left out.

use std::sync::OnceLock;

use serde_json::Value;

use super::checks::{self, Expected, digest_problem, field_fails, is_digest, shown};
use crate::diagnostic::{Address, Diagnostic, RuleDoc, Severity, Stage, address};
use crate::text::{quote, shorten};
use crate::yaml::{KeyIndex, document_order_with};

/// The autonomy ladder, lowest first (spec 002).
pub(crate) use super::checks::AUTONOMY_LADDER as LADDER;

/// Where `level` stands on the ladder, 0 for the lowest.
pub(crate) fn level_rank(level: &str) -> Option<usize> {
    LADDER.iter().position(|rung| *rung == level)
}

/// The digest fields `fields` of a payload's `spec` whose value is not
/// `sha256:` and 64 lowercase hex digits; an absent field is no finding.
pub(crate) fn digest_findings(document: &Value, fields: &[&str]) -> Vec<Diagnostic> {
    fields
        .iter()
        .filter_map(|field| {
            let address = address!["spec", *field, "value"];
            let value = address.find(document)?.as_str()?;
            (!is_digest(value)).then(|| {
                field_fails(
                    &DIGEST,
                    "Digest.value",
                    address,
                    Expected::Digest,
                    Some(shown(value)),
                )
                .with_note(digest_problem(value))
            })
        })
        .collect()
}

/// A count or basis-point field of `spec`: absent reads as 0 (proto3 JSON
/// leaves zero values out); `None` for a number that is no whole number
/// numi can read, which the rules then leave alone.
pub(crate) fn whole_number(spec: &Value, field: &str) -> Option<u64> {
    match spec.get(field) {
        None => Some(0),
        Some(value) => checks::whole_number(value),
    }
}

/// `found` in the order their values stand in `document`: one fixed order
/// whatever the rule.
pub(crate) fn in_document_order(document: &Value, mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut keys = KeyIndex::default();
    found.sort_by_cached_key(|diagnostic| {
        let steps = diagnostic.address.as_ref().map(|a| a.steps());
        document_order_with(document, steps.unwrap_or_default(), &mut keys)
    });
    found
}

/// The fields a payload's schema names, read from the schema itself so the
/// finding and the schema cannot disagree.
pub(crate) struct NamedFields {
    schema: &'static str,
    parsed: OnceLock<Option<Value>>,
}

impl NamedFields {
    pub(crate) const fn new(schema: &'static str) -> Self {
        NamedFields {
            schema,
            parsed: OnceLock::new(),
        }
    }

    /// One finding for each field of `document` the schema does not name,
    /// at the field; the fields beneath it are not looked at.
    pub(crate) fn unnamed(&self, kind: &str, document: &Value) -> Vec<Diagnostic> {
        let parsed = self
            .parsed
            .get_or_init(|| serde_json::from_str(self.schema).ok());
        let mut found = Vec::new();
        if let Some(root) = parsed {
            walk(root, root, document, &mut Address::root(), kind, &mut found);
        }
        found
    }
}

/// The schema node `node` stands for, its `$ref` into `$defs` followed.
fn resolve<'s>(root: &'s Value, node: &'s Value) -> &'s Value {
    node.get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix("#/$defs/"))
        .and_then(|name| root.get("$defs")?.get(name))
        .unwrap_or(node)
}

fn walk(
    root: &Value,
    node: &Value,
    value: &Value,
    address: &mut Address,
    kind: &str,
    found: &mut Vec<Diagnostic>,
) {
    let node = resolve(root, node);
    match value {
        Value::Object(fields) => {
            let Some(named) = node.get("properties").and_then(Value::as_object) else {
                return;
            };
            for (key, field) in fields {
                address.push(key);
                match named.get(key) {
                    Some(schema) => walk(root, schema, field, address, kind, found),
                    None => found.push(unnamed_field(kind, address)),
                }
                address.pop();
            }
        }
        Value::Array(items) => {
            let Some(schema) = node.get("items") else {
                return;
            };
            for (i, item) in items.iter().enumerate() {
                address.push(i);
                walk(root, schema, item, address, kind, found);
                address.pop();
            }
        }
        _ => {}
    }
}

fn unnamed_field(kind: &str, address: &Address) -> Diagnostic {
    Diagnostic::new(
        &UNNAMED_FIELD,
        format!(
            "{kind} payloads hold only the fields spec 002 names: {} is not one of them",
            quote(&shorten(&address.to_string()))
        ),
    )
    .at(address.clone())
}

/// The rule ids every payload shares, documented once, with the first
/// payload kind's entries.
pub(crate) const DIGEST: RuleDoc = RuleDoc {
    id: "events/digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Every digest of an evals event payload is `sha256:` followed by 64 lower-case hex digits.",
    explanation: "An event binds what it speaks of by digest: the closed change and evidence record of an \
outcome, the basis of a proposal, the proposal and decision record of a verdict, the \
original and new record of a correction. A digest in any other form cannot be compared \
byte for byte, so the binding holds nothing.\n\nWrite the digest with its `sha256:` \
prefix and in lower case (`numi digest` prints one).",
    failing: include_str!("events/examples/digest.failing.yaml"),
    passing: include_str!("events/examples/digest.passing.yaml"),
};

/// See [`DIGEST`].
pub(crate) const UNNAMED_FIELD: RuleDoc = RuleDoc {
    id: "events/unnamed-field",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "An evals event payload holds only the fields numi infers from spec 002.",
    explanation: "Spec 002 names what each event payload carries but publishes no field table, so numi's \
schemas for them are inferred and lenient: a field they do not name is allowed, never \
refused, and reported here by its pointer, so that a misspelt field (`sever` for \
`severe`) does not pass unseen while a real payload's extra field is not turned away. \
Under `--strict` it is an error.\n\nCheck the field's spelling against `numi schema \
<Kind>`; a field the producer really writes can stay.",
    failing: include_str!("events/examples/unnamed-field.failing.yaml"),
    passing: include_str!("events/examples/unnamed-field.passing.yaml"),
};

#[cfg(test)]
mod tests;

/// The rule id and message of every finding of `text`, checked as `--files`
/// checks it, for the payload kinds' tests.
#[cfg(test)]
pub(crate) fn findings(text: &str) -> Vec<(&'static str, String)> {
    let checked = crate::validate::validate_bytes(
        text.as_bytes(),
        crate::validate::Mode::Files,
        &crate::yaml::Limits::default(),
    );
    checked
        .diagnostics
        .into_iter()
        .map(|diagnostic| (diagnostic.rule.id, diagnostic.message))
        .collect()
}
