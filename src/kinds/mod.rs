//! The registry: every family of documents numi reads, and the kinds of
//! each. A kind is one folder here (its registry entry, semantic rules,
//! producer-side checks, rule catalogue and the examples of `numi explain`)
//! plus its schema under `schemas/`; a family is how documents are
//! recognised. Adding a kind touches its folder, its schema file and one
//! line of its family's list; nothing outside the folder names the kind.

pub(crate) mod checks;
pub(crate) mod events;
mod numinance;

pub mod autocontext;

mod autonomy_policy;
pub(crate) mod context_bundle;
pub(crate) mod context_report;
pub(crate) mod evalset;
mod outcome_corrected;
mod outcome_recorded;
mod playbook;
mod promotion_decided;
mod promotion_proposed;
mod qualification_updated;

#[cfg(test)]
mod tests;

use std::path::Path;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, RuleDoc};
use crate::location::{Claim, Location};
use crate::repair::RuleFix;
use crate::schema::CompiledSchema;
use crate::yaml::strict_json::JsonReader;
use crate::yaml::{self, Root, TextFacts};

/// Every family this build reads, in the order they are asked whether a
/// document is theirs. Numinance comes last: it claims every document the
/// others leave, and names what is wrong with one that is no kind at all.
pub static FAMILIES: [&Family; 3] = [
    &context_report::FAMILY,
    &autocontext::FAMILY,
    &numinance::FAMILY,
];

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

/// What the checks of a kind see of one document.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub value: &'a Value,
    /// The bytes the document was loaded from, for a check on how a value
    /// is written ([`crate::yaml::written_at`]).
    pub source: &'a [u8],
    /// What the loader saw of the document's text.
    pub text: TextFacts,
    /// Where the document was read, and the way to its neighbours.
    pub location: Location<'a>,
}

/// Everything numi knows about one kind.
#[derive(Debug)]
pub struct Kind {
    pub name: &'static str,
    /// The `apiVersion` a document of the kind carries, for families that
    /// version their documents that way.
    pub api_version: Option<&'static str>,
    pub role: Role,
    /// Whether the schema is inferred from the spec's prose rather than
    /// taken from a published field table: `--version` and `numi schema`
    /// say so.
    pub inferred: bool,
    /// The kind's JSON Schema, as shipped under `schemas/`.
    pub schema: &'static str,
    /// The same schema, compiled when numi is built.
    pub compiled: CompiledSchema,
    /// The name a document of the kind goes by in reports, if it has one.
    pub display_name: fn(&Value) -> Option<String>,
    /// The semantic rules, run on a document that passed the schema; every
    /// failure, in the kind's fixed order.
    pub rules: fn(&Subject<'_>) -> Vec<Diagnostic>,
    /// What the producer of a document should have ensured: warnings by
    /// default, errors under `--strict`; in any order.
    pub producer_checks: fn(&Subject<'_>) -> Vec<Diagnostic>,
    /// The documentation of the kind's rule ids.
    pub catalogue: &'static [RuleDoc],
    /// The rules whose findings `numi fix` repairs, and how.
    pub fixes: &'static [RuleFix],
}

/// One family of documents: how its documents are recognised, and its
/// kinds.
#[derive(Debug)]
pub struct Family {
    pub name: &'static str,
    pub kinds: &'static [&'static Kind],
    /// Whether a document is of this family: `None` when it is not; the
    /// kind it is; or why it is of the family but of no kind numi knows (a
    /// `kind` stage diagnostic).
    pub identify: fn(&Value, &Location<'_>) -> Option<Result<&'static Kind, Diagnostic>>,
    /// The name a document that is of no known kind goes by in reports.
    pub display_name: fn(&Value) -> Option<String>,
    /// Whether a folder walk reads the file at `path`, which is not named
    /// `*.yaml` or `*.yml`, as one of the family's documents (told by where
    /// it stands; the file itself is not opened).
    pub claims_file: fn(&Path) -> Claim,
    /// Whether the document at `path` may be a sequence at its root rather
    /// than a mapping.
    pub allows_sequence_root: fn(&Path) -> bool,
    /// The family's rules whose findings stand at a mapping's key rather
    /// than at its value.
    pub rules_at_key: &'static [&'static RuleDoc],
    /// The tools that read the family's `.json` files with a strict JSON
    /// parser; such a file must be JSON as they read it
    /// (`yaml/json-syntax`). `None` when the family's tools read YAML.
    pub json_reader: Option<JsonReader>,
}

/// What a document is, by the first family that claims it.
pub fn identify(
    value: &Value,
    location: &Location<'_>,
) -> (&'static Family, Result<&'static Kind, Diagnostic>) {
    for family in FAMILIES {
        if let Some(identified) = (family.identify)(value, location) {
            return (family, identified);
        }
    }
    (&numinance::FAMILY, numinance::by_kind_field(value))
}

/// Whether a family reads the file at `path` in a folder walk, beside the
/// YAML files every walk reads: the first family's claim on it.
pub fn claims_file(path: &Path) -> Claim {
    FAMILIES
        .iter()
        .map(|family| (family.claims_file)(path))
        .find(|claim| *claim != Claim::No)
        .unwrap_or(Claim::No)
}

/// The document in `bytes` read from `path`, loaded as `numi validate`
/// loads it before any finding asks for a position: for a check that reads
/// the file beside the one it checks, and shares what it loaded with the
/// files of its unit (`location::unit`).
pub fn load_unplaced(
    bytes: &[u8],
    limits: &yaml::Limits,
    path: Option<&Path>,
) -> Result<yaml::Document, yaml::YamlError> {
    yaml::load_bytes_rooted(bytes, limits, yaml::Positions::Skip, root_at(path))
}

/// The roots a document read at `path` may have: a mapping, or a sequence
/// too where a family allows one there.
pub fn root_at(path: Option<&Path>) -> Root {
    let sequence = path.is_some_and(|path| {
        FAMILIES
            .iter()
            .any(|family| (family.allows_sequence_root)(path))
    });
    if sequence {
        Root::MappingOrSequence
    } else {
        Root::Mapping
    }
}

/// Whether a finding of `rule` stands at a mapping's key, by its family.
pub fn rule_at_key(rule: &RuleDoc) -> bool {
    FAMILIES
        .iter()
        .any(|family| family.rules_at_key.contains(&rule))
}

/// A family that reads only YAML files, at any place.
pub fn no_other_files(_path: &Path) -> Claim {
    Claim::No
}

/// A family whose documents never hold an array at their root.
pub fn no_sequence_root(_path: &Path) -> bool {
    false
}

/// Every kind, family by family, each family's in its own order.
pub fn all() -> impl Iterator<Item = &'static Kind> {
    FAMILIES
        .iter()
        .flat_map(|family| family.kinds.iter().copied())
}

/// The kind called `name`, if this build knows it.
pub fn find(name: &str) -> Option<&'static Kind> {
    all().find(|kind| kind.name == name)
}

/// The names of all kinds, sorted, for messages and listings.
pub fn names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = all().map(|kind| kind.name).collect();
    names.sort_unstable();
    names
}

/// The rules of a kind that has none beyond its schema.
pub fn no_rules(_subject: &Subject<'_>) -> Vec<Diagnostic> {
    Vec::new()
}

/// `metadata.name`, the name of a document of the kinds that carry one.
pub fn metadata_name(value: &Value) -> Option<String> {
    checks::field(value, "metadata")
        .and_then(|metadata| checks::field(metadata, "name"))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// The display name of a kind whose documents carry none.
pub fn no_name(_value: &Value) -> Option<String> {
    None
}
