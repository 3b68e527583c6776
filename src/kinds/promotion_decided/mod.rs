//! PromotionDecided (`numinance.dev/v1`, produced): a human approver's
//! verdict on a promotion proposal, with the digest of the decision record.
//! A notification: it changes no level by itself. Fields inferred from spec
//! 002 (see `super::events`).

use super::events::{self, NamedFields};
use super::{Kind, Role};

static FIELDS: NamedFields = NamedFields::new(include_str!(
    "../../../schemas/PromotionDecided.schema.json"
));

pub(super) const KIND: Kind = Kind {
    name: "PromotionDecided",
    api_version: Some("numinance.dev/v1"),
    role: Role::Produced,
    inferred: true,
    schema: include_str!("../../../schemas/PromotionDecided.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/PromotionDecided.schema.json"),
    display_name: super::no_name,
    rules: |subject| {
        events::digest_findings(subject.value, &["proposal_digest", "decision_digest"])
    },
    producer_checks: |subject| FIELDS.unnamed(KIND.name, subject.value),
    catalogue: &[],
    fixes: &[],
};

#[cfg(test)]
mod tests;
