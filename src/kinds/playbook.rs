//! Playbook (`numinance.dev/v1`, configuration): how one change type is
//! worked, and the evidence that qualifies it for more autonomy.
//!
//! The reference checks a Playbook against its schema only: a rate above
//! 10000 basis points passes `numi validate --files` (a verified run).

use serde_json::Value;

use super::{Kind, Role};
use crate::diagnostic::Diagnostic;

pub const KIND: Kind = Kind {
    name: "Playbook",
    api_version: "numinance.dev/v1",
    role: Role::Configuration,
    has_metadata: true,
    schema: include_str!("../../schemas/Playbook.schema.json"),
    compiled: super::compiled_schema!("schemas/Playbook.schema.json"),
    rules,
};

fn rules(_document: &Value) -> Vec<Diagnostic> {
    Vec::new()
}
