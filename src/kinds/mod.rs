//! The kind registry. Each kind declares its apiVersion, its role, its JSON
//! Schema and its semantic rules; adding a kind touches one module here and
//! one schema file under `schemas/`.

mod autonomy_policy;
pub(crate) mod checks;
mod context_bundle;
mod evalset;
mod playbook;

use jsonschema::ErrorIterator;
use serde_json::Value;

use crate::diagnostic::Diagnostic;

/// A kind's JSON Schema compiled into the binary: a schema that does not
/// compile fails the build, and a run spends nothing on compiling it.
#[derive(Debug, Clone, Copy)]
pub struct CompiledSchema {
    pub is_valid: fn(&Value) -> bool,
    pub iter_errors: for<'i> fn(&'i Value) -> ErrorIterator<'i>,
}

/// The [`CompiledSchema`] of the schema file at `$path`, relative to the
/// crate root. Formats are annotations only, as in the reference.
// rustfmt shifts the attribute further on every run; keep it as written.
#[rustfmt::skip]
macro_rules! compiled_schema {
    ($path:literal) => {{
        #[jsonschema::validator(
            path = $path,
            draft = Draft202012,
            validate_formats = false,
            methods = { is_valid = true, validate = false, iter_errors = true }
        )]
        struct Compiled;
        $crate::kinds::CompiledSchema {
            is_valid: Compiled::is_valid,
            iter_errors: Compiled::iter_errors,
        }
    }};
}
use compiled_schema;

/// How the configuration loader treats a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Authored configuration, read everywhere.
    Configuration,
    /// Authored configuration whose shape may still change: read only when
    /// alpha kinds are enabled (always with `--files`).
    Alpha,
    /// Written by the runtime, never configuration: checked with `--files`,
    /// refused in the configuration tree.
    Produced,
}

/// Everything numi knows about one kind.
#[derive(Debug)]
pub struct Kind {
    pub name: &'static str,
    pub api_version: &'static str,
    pub role: Role,
    /// Whether documents of the kind carry `metadata` (and so a name).
    pub has_metadata: bool,
    /// The kind's JSON Schema, as shipped under `schemas/`.
    pub schema: &'static str,
    /// The same schema, compiled when numi is built.
    pub compiled: CompiledSchema,
    /// The kind's semantic rules, run on a document that passed the schema.
    /// They return every failure, in the kind's fixed order.
    pub rules: fn(&Value) -> Vec<Diagnostic>,
}

/// Every kind this build knows, by name.
pub static KINDS: [Kind; 4] = [
    autonomy_policy::KIND,
    context_bundle::KIND,
    evalset::KIND,
    playbook::KIND,
];

/// The kind called `name`, if this build knows it.
pub fn find(name: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|kind| kind.name == name)
}

/// The names of all kinds, sorted, for messages.
pub fn names() -> impl Iterator<Item = &'static str> {
    KINDS.iter().map(|kind| kind.name)
}
