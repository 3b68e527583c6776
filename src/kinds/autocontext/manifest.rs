//! autocontext's content addressing, computed independently: the digest of
//! a component and of a manifest, the order of components, and the manifest
//! diff between two bundles. Every function reads a value that passed its
//! kind's schema, and refuses rather than guesses on anything else.

use std::cmp::Ordering;

use serde_json::{Value, json};

use crate::canonical;
use crate::location::held::{self, Kept};

/// The component kinds a manifest may hold.
pub const COMPONENT_KINDS: [&str; 9] = [
    "playbook",
    "hints",
    "prompt_fragment",
    "context_policy",
    "completion_check",
    "tool_guidance",
    "tool_spec",
    "harness_validator",
    "routing_config",
];

/// The fields whose digest is a component's.
const COMPONENT_FIELDS: [&str; 4] = ["content", "key", "kind", "media_type"];

/// The fields whose digest is a manifest's.
const MANIFEST_FIELDS: [&str; 5] = [
    "schema_version",
    "scenario",
    "evaluator_epoch",
    "parent_digest",
    "components",
];

/// The fields whose digest is a manifest diff's.
const DIFF_FIELDS: [&str; 5] = [
    "schema_version",
    "tested_bundle_digest",
    "comparison_bundle_digest",
    "evaluator_epoch",
    "changes",
];

/// Whether `text` is 64 lowercase hex digits, the only form a digest takes
/// before it is joined to a path.
pub fn is_hex_digest(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The order JCS and autocontext sort strings in: by UTF-16 code units.
pub use crate::canonical::utf16_order;

/// The order of two `(kind, key)` identities.
pub fn identity_order(left: (&str, &str), right: (&str, &str)) -> Ordering {
    utf16_order(left.0, right.0).then_with(|| utf16_order(left.1, right.1))
}

/// The digest of the listed fields of `object`, as autocontext computes it.
fn digest_of(object: &Value, fields: &[&str]) -> Result<String, canonical::Refusal> {
    canonical::sha256_hex_of_fields(object, fields)
}

/// The digest a component should carry.
pub fn component_digest(component: &Value) -> Result<String, canonical::Refusal> {
    digest_of(component, &COMPONENT_FIELDS)
}

/// The digest a manifest should carry (its components as written, digests
/// included).
pub fn manifest_digest(manifest: &Value) -> Result<String, canonical::Refusal> {
    digest_of(manifest, &MANIFEST_FIELDS)
}

/// The digest a manifest diff should carry.
pub fn diff_digest(diff: &Value) -> Result<String, canonical::Refusal> {
    digest_of(diff, &DIFF_FIELDS)
}

/// The components of a manifest.
pub fn components(manifest: &Value) -> &[Value] {
    manifest
        .get("components")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A component's `(kind, key)`.
pub fn identity(component: &Value) -> (&str, &str) {
    let text = |field| component.get(field).and_then(Value::as_str).unwrap_or("");
    (text("kind"), text("key"))
}

/// Whether a manifest verifies: every component digest and the manifest
/// digest are the ones computed, and components are unique and in order.
pub fn verifies(manifest: &Value) -> bool {
    let listed = components(manifest);
    let ordered = listed.windows(2).all(|pair| match pair {
        [left, right] => identity_order(identity(left), identity(right)) == Ordering::Less,
        _ => true,
    });
    let text = |value: &Value, field| value.get(field).and_then(Value::as_str).map(str::to_owned);
    ordered
        && listed
            .iter()
            .all(|component| component_digest(component).ok() == text(component, "digest"))
        && manifest_digest(manifest).ok() == text(manifest, "digest")
}

/// [`manifest_diff`] of two stored bundles a run keeps: a candidate's
/// manifest diff file and its causal attribution (and its promotion, when
/// checked while the bundles are kept) ask for the same one, computed once.
pub fn stored_diff(tested: &Kept, comparison: &Kept) -> Result<Value, canonical::Refusal> {
    held::derived("manifest diff", &[tested, comparison], || {
        manifest_diff(tested, comparison)
    })
}

/// The manifest diff autocontext writes for `tested` against `comparison`:
/// every `(kind, key)` whose digest differs, in identity order.
pub fn manifest_diff(tested: &Value, comparison: &Value) -> Result<Value, canonical::Refusal> {
    let digest_in = |manifest: &Value, wanted: (&str, &str)| {
        components(manifest)
            .iter()
            .find(|component| identity(component) == wanted)
            .and_then(|component| component.get("digest").cloned())
            .unwrap_or(Value::Null)
    };
    let mut identities: Vec<(&str, &str)> = components(tested)
        .iter()
        .chain(components(comparison))
        .map(identity)
        .collect();
    identities.sort_by(|left, right| identity_order(*left, *right));
    identities.dedup();
    let changes: Vec<Value> = identities
        .into_iter()
        .filter_map(|wanted| {
            let tested_digest = digest_in(tested, wanted);
            let comparison_digest = digest_in(comparison, wanted);
            (tested_digest != comparison_digest).then(|| {
                json!({
                    "component_kind": wanted.0,
                    "component_key": wanted.1,
                    "tested_component_digest": tested_digest,
                    "comparison_component_digest": comparison_digest,
                })
            })
        })
        .collect();
    let mut diff = json!({
        "schema_version": 1,
        "tested_bundle_digest": tested.get("digest").cloned().unwrap_or(Value::Null),
        "comparison_bundle_digest": comparison.get("digest").cloned().unwrap_or(Value::Null),
        "evaluator_epoch": tested.get("evaluator_epoch").cloned().unwrap_or(Value::Null),
        "changes": changes,
    });
    let digest = diff_digest(&diff)?;
    if let Value::Object(map) = &mut diff {
        map.insert("digest".to_owned(), Value::String(digest));
    }
    Ok(diff)
}
