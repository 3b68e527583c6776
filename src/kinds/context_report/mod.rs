//! The context-report family: documents of the open-coder-ai context-report
//! project. A document belongs to it when its top level holds the version
//! key of one of its formats; `contextReportRun` is the run manifest's.

pub(crate) mod run;
pub(crate) mod slug;

use serde_json::Value;

use super::{Family, Kind};
use crate::diagnostic::Diagnostic;
use crate::location::Location;
use crate::yaml::strict_json::JsonReader;

/// context-report reads its manifests and task files with Python's
/// `json.loads`, which takes `NaN`, `Infinity` and `-Infinity`.
pub(crate) const JSON_READER: JsonReader = JsonReader {
    name: "context-report (Python's json.loads)",
    takes_non_finite: true,
};

pub(crate) static FAMILY: Family = Family {
    name: "context-report",
    kinds: &[&run::KIND],
    identify,
    display_name: super::no_name,
    claims_file: super::no_other_files,
    allows_sequence_root: super::no_sequence_root,
    rules_at_key: &[],
    json_reader: Some(JSON_READER),
};

fn identify(value: &Value, _location: &Location<'_>) -> Option<Result<&'static Kind, Diagnostic>> {
    if value.get("contextReportRun").is_some() {
        Some(Ok(&run::KIND))
    } else {
        None
    }
}
