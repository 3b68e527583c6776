//! What the cursor stands on: a key, or a scalar value, and the path to it.
//! Read from the loaded document where the text loads, so a key of a flow
//! mapping (`metadata: {name: a, scope: SCOPE_REPO}`) is found as one of a
//! block mapping is; while the text does not load (it is being typed), or
//! past [`LOADED_UP_TO`], read from the indentation of the lines above
//! (block style only).

use serde_json::Value;

use super::outline::{self, Step};
use crate::yaml::{self, Limits, NodePositions};

/// What stands at the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Place {
    /// A key: the path from the root to it, the key last.
    Key(Vec<Step>),
    /// A string value: the path to it (its key last) and the string.
    Value(Vec<Step>, String),
}

/// The largest text loaded to answer a hover. The main loop answers
/// hovers itself, never waiting for a check; loading a larger document on
/// each hover would hold it, and its lines answer for block style.
pub(super) const LOADED_UP_TO: usize = 1024 * 1024;

/// What stands at byte `offset` of `text`, and the kind the document names.
pub(super) fn at(text: &str, offset: usize) -> (Option<String>, Option<Place>) {
    let loaded = if text.len() <= LOADED_UP_TO {
        yaml::load(text, &Limits::default()).ok()
    } else {
        None
    };
    match loaded {
        Some(document) => {
            let kind = document
                .value
                .get("kind")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let mut path = Vec::new();
            let place = in_node(&document.value, &document.positions, offset, &mut path);
            (kind, place)
        }
        None => (
            outline::kind_name(text).map(str::to_owned),
            from_lines(text, offset),
        ),
    }
}

/// Whether `offset` is within `span`, its end included: a cursor just after
/// a word still stands on it.
fn covers(span: crate::diagnostic::Span, offset: usize) -> bool {
    span.start() <= offset && offset <= span.end()
}

fn in_node(
    value: &Value,
    positions: &NodePositions,
    offset: usize,
    path: &mut Vec<Step>,
) -> Option<Place> {
    match value {
        Value::Object(map) => {
            for (index, (key, child)) in map.iter().enumerate() {
                let key_span = positions.keys().get(index)?;
                let child_positions = positions.children().get(index)?;
                if covers(*key_span, offset) {
                    path.push(Step::Key(key.clone()));
                    return Some(Place::Key(std::mem::take(path)));
                }
                if covers(child_positions.span(), offset) {
                    path.push(Step::Key(key.clone()));
                    return in_node(child, child_positions, offset, path);
                }
            }
            None
        }
        Value::Array(items) => {
            for (item, item_positions) in items.iter().zip(positions.children()) {
                if covers(item_positions.span(), offset) {
                    path.push(Step::Item);
                    return in_node(item, item_positions, offset, path);
                }
            }
            None
        }
        Value::String(text) => Some(Place::Value(std::mem::take(path), text.clone())),
        _ => None,
    }
}

/// The place read from the indentation, for a text that does not load.
fn from_lines(text: &str, offset: usize) -> Option<Place> {
    let cursor = outline::cursor(text, offset);
    let mut path = cursor.mapping;
    path.push(Step::Key(cursor.key?));
    if !cursor.in_value {
        return Some(Place::Key(path));
    }
    cursor.value.map(|value| Place::Value(path, value))
}

/// A path as a reader writes it: `spec.cases[].name`.
pub(super) fn dotted(path: &[Step]) -> String {
    let mut shown = String::new();
    for step in path {
        match step {
            Step::Key(key) => {
                if !shown.is_empty() {
                    shown.push('.');
                }
                shown.push_str(key);
            }
            Step::Item => shown.push_str("[]"),
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(path: &[&str]) -> Vec<Step> {
        path.iter()
            .map(|key| match *key {
                "[]" => Step::Item,
                key => Step::Key(key.to_owned()),
            })
            .collect()
    }

    fn place(text: &str, marker: &str) -> Option<Place> {
        let offset = text.find(marker).unwrap_or_default();
        at(text, offset).1
    }

    const POLICY: &str = "apiVersion: numinance.dev/v1\nkind: AutonomyPolicy\nmetadata: {name: org, scope: SCOPE_ORG}\nspec:\n  defaults: {level: AUTONOMY_LEVEL_PR}\n  rules:\n    - {change_type: deps, risk_class: RISK_CLASS_LOW, level: AUTONOMY_LEVEL_MERGE}\n  floors:\n    - risk_class: RISK_CLASS_HIGH\n      level: AUTONOMY_LEVEL_SUGGEST\n";

    #[test]
    fn keys_and_values_of_flow_and_block_mappings_are_found() {
        assert_eq!(
            at(POLICY, 0).0.as_deref(),
            Some("AutonomyPolicy"),
            "the kind"
        );
        assert_eq!(
            place(POLICY, "scope"),
            Some(Place::Key(keys(&["metadata", "scope"])))
        );
        assert_eq!(
            place(POLICY, "SCOPE_ORG"),
            Some(Place::Value(
                keys(&["metadata", "scope"]),
                "SCOPE_ORG".to_owned()
            ))
        );
        assert_eq!(
            place(POLICY, "change_type"),
            Some(Place::Key(keys(&["spec", "rules", "[]", "change_type"])))
        );
        assert_eq!(
            place(POLICY, "RISK_CLASS_LOW"),
            Some(Place::Value(
                keys(&["spec", "rules", "[]", "risk_class"]),
                "RISK_CLASS_LOW".to_owned()
            ))
        );
        assert_eq!(
            place(POLICY, "level: AUTONOMY_LEVEL_SUGGEST"),
            Some(Place::Key(keys(&["spec", "floors", "[]", "level"])))
        );
        // The end of a key is still on it; the space after the colon is on nothing.
        let end = POLICY.find("scope:").unwrap_or_default() + "scope".len();
        assert_eq!(
            at(POLICY, end).1,
            Some(Place::Key(keys(&["metadata", "scope"])))
        );
        assert_eq!(at(POLICY, end + 1).1, None);
    }

    #[test]
    fn a_text_that_does_not_load_is_read_from_its_lines() {
        let typing = POLICY.replace("  rules:\n", "  rules: [\n");
        assert!(yaml::load(&typing, &Limits::default()).is_err());
        assert_eq!(at(&typing, 0).0.as_deref(), Some("AutonomyPolicy"));
        assert_eq!(
            place(&typing, "level: AUTONOMY_LEVEL_SUGGEST"),
            Some(Place::Key(keys(&["spec", "floors", "[]", "level"])))
        );
        assert_eq!(
            place(&typing, "UGGEST"),
            Some(Place::Value(
                keys(&["spec", "floors", "[]", "level"]),
                "AUTONOMY_LEVEL_SUGGEST".to_owned()
            ))
        );
        // A flow mapping is no key to the lines.
        assert_eq!(place(&typing, "SCOPE_ORG"), None);
    }

    /// Past the bound, a flow mapping's key is no longer found; a block
    /// mapping's still is.
    #[test]
    fn a_text_past_the_bound_is_read_from_its_lines() {
        let padding = format!("# {}\n", "x".repeat(LOADED_UP_TO));
        let large = format!("{POLICY}{padding}");
        assert!(yaml::load(&large, &Limits::default()).is_ok());
        assert_eq!(place(&large, "scope"), None);
        assert_eq!(
            place(&large, "level: AUTONOMY_LEVEL_SUGGEST"),
            Some(Place::Key(keys(&["spec", "floors", "[]", "level"])))
        );
        let small = format!(
            "{POLICY}# {}\n",
            "x".repeat(LOADED_UP_TO - POLICY.len() - 3)
        );
        assert_eq!(small.len(), LOADED_UP_TO);
        assert_eq!(
            place(&small, "scope"),
            Some(Place::Key(keys(&["metadata", "scope"])))
        );
    }

    #[test]
    fn paths_are_shown_dotted() {
        assert_eq!(
            dotted(&keys(&["spec", "cases", "[]", "name"])),
            "spec.cases[].name"
        );
        assert_eq!(dotted(&keys(&["[]", "a"])), "[].a");
    }
}
