//! AutonomyPolicy (`numinance.dev/v1`, configuration): a default level, rules
//! granting a level to a change type at a risk class, and floors capping a
//! risk class. The spec describes it in prose only; its schema is inferred.

use serde_json::Value;

use super::{Kind, Role};
use crate::diagnostic::Diagnostic;

pub const KIND: Kind = Kind {
    name: "AutonomyPolicy",
    api_version: "numinance.dev/v1",
    role: Role::Configuration,
    has_metadata: true,
    schema: include_str!("../../schemas/AutonomyPolicy.schema.json"),
    compiled: super::compiled_schema!("schemas/AutonomyPolicy.schema.json"),
    rules,
};

fn rules(_document: &Value) -> Vec<Diagnostic> {
    Vec::new()
}
