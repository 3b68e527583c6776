//! PromotionProposed (`numinance.dev/v1`, produced): a proposal to raise a
//! stratum's level, resting on evidence named by digest. Data only: a human
//! approver decides it. Fields inferred from spec 002 (see `super::events`).

mod catalogue;

use serde_json::Value;

use super::checks::rule_fails;
use super::events::{self, NamedFields, level_rank};
use super::{Kind, Role};
use crate::diagnostic::{Diagnostic, address};

static FIELDS: NamedFields = NamedFields::new(include_str!(
    "../../../schemas/PromotionProposed.schema.json"
));

pub(super) const KIND: Kind = Kind {
    name: "PromotionProposed",
    api_version: Some("numinance.dev/v1"),
    role: Role::Produced,
    inferred: true,
    schema: include_str!("../../../schemas/PromotionProposed.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/PromotionProposed.schema.json"),
    display_name: super::no_name,
    rules: |subject| rules(subject.value),
    producer_checks: |subject| FIELDS.unnamed(KIND.name, subject.value),
    catalogue: catalogue::RULES,
    fixes: &[],
};

fn rules(document: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let level = |field: &str| {
        address!["spec", field]
            .find(document)
            .and_then(Value::as_str)
    };
    if let (Some(from), Some(to)) = (level("from_level"), level("to_level")) {
        if let (Some(from_rank), Some(to_rank)) = (level_rank(from), level_rank(to)) {
            if to_rank <= from_rank {
                found.push(rule_fails(
                    &catalogue::LEVEL_ORDER,
                    &format!(
                        "a PromotionProposed to_level is above its from_level: {to} is not above {from}"
                    ),
                    address!["spec", "to_level"],
                ));
            }
        }
    }
    found.extend(events::digest_findings(document, &["basis_digest"]));
    events::in_document_order(document, found)
}

#[cfg(test)]
mod tests;
