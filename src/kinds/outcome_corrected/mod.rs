//! OutcomeCorrected (`numinance.dev/v1`, produced): a late signal correcting
//! a recorded outcome. The new record stands beside the original, which
//! keeps its digest and content. Fields inferred from spec 002 (see
//! `super::events`).

mod catalogue;

use serde_json::Value;

use super::checks::rule_fails;
use super::events::{self, NamedFields};
use super::{Kind, Role};
use crate::diagnostic::{Diagnostic, address};

static FIELDS: NamedFields = NamedFields::new(include_str!(
    "../../../schemas/OutcomeCorrected.schema.json"
));

pub(super) const KIND: Kind = Kind {
    name: "OutcomeCorrected",
    api_version: Some("numinance.dev/v1"),
    role: Role::Produced,
    inferred: true,
    schema: include_str!("../../../schemas/OutcomeCorrected.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/OutcomeCorrected.schema.json"),
    display_name: super::no_name,
    rules: |subject| rules(subject.value),
    producer_checks: |subject| FIELDS.unnamed(KIND.name, subject.value),
    catalogue: catalogue::RULES,
    fixes: &[],
};

fn rules(document: &Value) -> Vec<Diagnostic> {
    let mut found = events::digest_findings(document, &["original_digest", "corrected_digest"]);
    let digest = |field: &str| {
        address!["spec", field, "value"]
            .find(document)
            .and_then(Value::as_str)
    };
    if let (Some(original), Some(corrected)) =
        (digest("original_digest"), digest("corrected_digest"))
    {
        if original == corrected {
            found.push(rule_fails(
                &catalogue::SELF_CORRECTION,
                "an OutcomeCorrected names another record than the original: corrected_digest is original_digest",
                address!["spec", "corrected_digest", "value"],
            ));
        }
    }
    events::in_document_order(document, found)
}

#[cfg(test)]
mod tests;
