//! The Numinance family: documents that name their kind in `kind` and
//! their version in `apiVersion`. It claims every document the other
//! families leave, so that a document of no family is told what it lacks.

use serde_json::Value;

use super::{
    Family, Kind, autonomy_policy, context_bundle, evalset, events, outcome_corrected,
    outcome_recorded, playbook, promotion_decided, promotion_proposed, qualification_updated,
};
use crate::diagnostic::{Diagnostic, address};
use crate::location::Location;
use crate::text::{quote, shorten};
use crate::yaml::json_type_name;

/// The kinds, in the order `numi explain --list` documents their rules.
pub(super) static FAMILY: Family = Family {
    name: "Numinance",
    kinds: &[
        &evalset::KIND,
        &context_bundle::KIND,
        &playbook::KIND,
        &autonomy_policy::KIND,
        &outcome_recorded::KIND,
        &qualification_updated::KIND,
        &promotion_proposed::KIND,
        &promotion_decided::KIND,
        &outcome_corrected::KIND,
    ],
    identify,
    display_name: super::metadata_name,
    claims_file: super::no_other_files,
    allows_sequence_root: super::no_sequence_root,
    rules_at_key: &[&events::UNNAMED_FIELD],
    json_reader: None,
};

fn identify(value: &Value, _location: &Location<'_>) -> Option<Result<&'static Kind, Diagnostic>> {
    Some(by_kind_field(value))
}

/// The kind `value` names, or why it names none of the family's.
pub(super) fn by_kind_field(value: &Value) -> Result<&'static Kind, Diagnostic> {
    let refused = |message: String| {
        Diagnostic::new(&crate::diagnostic::stages::kind::UNKNOWN, message).at(address!["kind"])
    };
    match super::checks::field(value, "kind") {
        None => Err(refused("the document has no kind".to_owned())),
        Some(Value::String(name)) => FAMILY
            .kinds
            .iter()
            .copied()
            .find(|kind| kind.name == name)
            .ok_or_else(|| {
                let mut known: Vec<&str> = FAMILY.kinds.iter().map(|kind| kind.name).collect();
                known.sort_unstable();
                let refusal = refused(format!(
                    "unknown kind: {} (this build knows {})",
                    quote(&shorten(name)),
                    known.join(", ")
                ));
                // The help travels with the finding, so every format shows it.
                match crate::suggest::nearest(name, known.iter().copied()) {
                    Some(near) => refusal.with_note(format!("did you mean `{near}`?")),
                    None => refusal,
                }
            }),
        Some(other) => Err(refused(format!(
            "kind is {}, not a string",
            json_type_name(other)
        ))),
    }
}
