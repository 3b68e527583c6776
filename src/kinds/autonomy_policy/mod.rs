//! AutonomyPolicy (`numinance.dev/v1`, configuration): a default level, rules
//! granting a level to a change type at a risk class, and floors capping a
//! risk class. The spec describes it in prose only; its schema is inferred.

mod catalogue;
mod producer;

use super::{Kind, Role};

pub(super) const KIND: Kind = Kind {
    name: "AutonomyPolicy",
    api_version: Some("numinance.dev/v1"),
    role: Role::Configuration,
    inferred: true,
    schema: include_str!("../../../schemas/AutonomyPolicy.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutonomyPolicy.schema.json"),
    display_name: super::metadata_name,
    rules: super::no_rules,
    producer_checks: |subject| producer::check(subject.value),
    catalogue: catalogue::RULES,
    fixes: &[],
};
