//! The rules of the stages every document meets, whichever its kind:
//! reading it, its YAML, its kind, its schema, and numi's own defects.
//! Declared here, below every module that makes their findings.

pub mod errors;
pub mod kind;
pub mod project;
pub mod schema;
pub mod yaml;

use super::RuleDoc;

/// The stages' sections, in the order `numi explain --list` prints them.
pub const STAGES: &[&[RuleDoc]] = &[
    errors::READ,
    errors::INTERNAL,
    yaml::YAML,
    kind::KIND,
    schema::SCHEMA,
];
