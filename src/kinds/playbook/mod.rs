//! Playbook (`numinance.dev/v1`, configuration): how one change type is
//! worked, and the evidence that qualifies it for more autonomy.
//!
//! The reference checks a Playbook against its schema only: a rate above
//! 10000 basis points passes `numi validate --files` (a verified run).

mod catalogue;
mod producer;

use super::{Kind, Role};

pub(super) const KIND: Kind = Kind {
    name: "Playbook",
    api_version: Some("numinance.dev/v1"),
    role: Role::Configuration,
    inferred: false,
    schema: include_str!("../../../schemas/Playbook.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/Playbook.schema.json"),
    display_name: super::metadata_name,
    rules: super::no_rules,
    producer_checks: |subject| producer::check(subject.value),
    catalogue: catalogue::RULES,
    fixes: &[],
};
