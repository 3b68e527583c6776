//! OutcomeRecorded (`numinance.dev/v1`, produced): the outcome of one closed
//! change in a stratum (a playbook and a component), with its origin, whether
//! it was a severity event, and the flags the qualification counts. Fields
//! inferred from spec 002 (see `super::events`).

mod catalogue;

use super::events::{self, NamedFields};
use super::{Kind, Role};

static FIELDS: NamedFields =
    NamedFields::new(include_str!("../../../schemas/OutcomeRecorded.schema.json"));

pub(super) const KIND: Kind = Kind {
    name: "OutcomeRecorded",
    api_version: Some("numinance.dev/v1"),
    role: Role::Produced,
    inferred: true,
    schema: include_str!("../../../schemas/OutcomeRecorded.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/OutcomeRecorded.schema.json"),
    display_name: super::no_name,
    rules: |subject| events::digest_findings(subject.value, &["change_digest", "evidence_digest"]),
    producer_checks: |subject| FIELDS.unnamed(KIND.name, subject.value),
    catalogue: catalogue::RULES,
    fixes: &[],
};

#[cfg(test)]
mod tests;
