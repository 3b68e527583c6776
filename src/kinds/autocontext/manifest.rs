//! autocontext's content addressing, computed independently: the digest of
//! a component and of a manifest, the order of components, and the manifest
//! diff between two bundles. Every function reads a value that passed its
//! kind's schema, and refuses rather than guesses on anything else.

use std::cmp::Ordering;

use serde_json::{Value, json};

use crate::canonical;

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

/// What the other files of a store read of a stored bundle: the fields
/// that name and bind it and, for each component in order, its identity and
/// its digest as written. A component's content stays with the bundle's own
/// line, which verifies it; a store's files read these fields alone. A run
/// keeps one for each of a store's bundles (`learned`), so it is held in
/// three allocations, whatever the bundle holds.
#[derive(Debug)]
pub(crate) struct Listing {
    digest: Held,
    scenario: Held,
    parent_digest: Held,
    evaluator_epoch: Held,
    components: Box<[Part]>,
    /// Every text the fields and components hold, one after another.
    text: Box<str>,
}

/// A component as a [`Listing`] holds it: its [`identity`] (where `kind`
/// and `key` stand in the listing's text) and its digest.
#[derive(Debug)]
struct Part {
    kind: Range,
    key: Range,
    digest: Held,
}

/// Where a text stands in a listing's text.
type Range = (u32, u32);

/// A field as a [`Listing`] holds it: text (as nearly every one is) where
/// it stands in the listing's text, anything else as its value.
#[derive(Debug)]
enum Held {
    /// Null, or no field at all.
    Null,
    Text(Range),
    Other(Box<Value>),
}

/// A field of a stored bundle, as its [`Listing`] shows it. Two are equal
/// exactly when the values they stand for are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Written<'l> {
    /// Null, or no field at all.
    Null,
    Text(&'l str),
    Other(&'l Value),
}

impl<'l> Written<'l> {
    /// The value as written (null for no field).
    pub(crate) fn value(self) -> Value {
        match self {
            Written::Null => Value::Null,
            Written::Text(text) => Value::String(text.to_owned()),
            Written::Other(value) => value.clone(),
        }
    }

    /// The text, when the value is text.
    pub(crate) fn text(self) -> Option<&'l str> {
        match self {
            Written::Text(text) => Some(text),
            Written::Null | Written::Other(_) => None,
        }
    }

    /// Whether the value is the text `text`.
    pub(crate) fn is_text(self, text: &str) -> bool {
        self.text() == Some(text)
    }
}

impl Listing {
    /// The listing of `manifest`.
    pub(crate) fn of(manifest: &Value) -> Self {
        let mut text = String::new();
        let mut place = |written: &str| -> Range {
            let start = u32::try_from(text.len()).unwrap_or(u32::MAX);
            text.push_str(written);
            (start, u32::try_from(text.len()).unwrap_or(u32::MAX))
        };
        let held = |value: Option<&Value>, place: &mut dyn FnMut(&str) -> Range| match value {
            None | Some(Value::Null) => Held::Null,
            Some(Value::String(written)) => Held::Text(place(written)),
            Some(other) => Held::Other(Box::new(other.clone())),
        };
        let digest = held(manifest.get("digest"), &mut place);
        let scenario = held(manifest.get("scenario"), &mut place);
        let parent_digest = held(manifest.get("parent_digest"), &mut place);
        let evaluator_epoch = held(manifest.get("evaluator_epoch"), &mut place);
        let components = components(manifest)
            .iter()
            .map(|component| {
                let (kind, key) = identity(component);
                Part {
                    kind: place(kind),
                    key: place(key),
                    digest: held(component.get("digest"), &mut place),
                }
            })
            .collect();
        Listing {
            digest,
            scenario,
            parent_digest,
            evaluator_epoch,
            components,
            text: text.into_boxed_str(),
        }
    }

    /// The text at `range` of the listing's text.
    fn text_at(&self, (start, end): Range) -> &str {
        usize::try_from(start)
            .ok()
            .zip(usize::try_from(end).ok())
            .and_then(|(start, end)| self.text.get(start..end))
            .unwrap_or_default()
    }

    fn written<'l>(&'l self, held: &'l Held) -> Written<'l> {
        match held {
            Held::Null => Written::Null,
            Held::Text(range) => Written::Text(self.text_at(*range)),
            Held::Other(value) => Written::Other(value),
        }
    }

    /// `digest`.
    pub(crate) fn digest(&self) -> Written<'_> {
        self.written(&self.digest)
    }

    /// `scenario`.
    pub(crate) fn scenario(&self) -> Written<'_> {
        self.written(&self.scenario)
    }

    /// `parent_digest`.
    pub(crate) fn parent_digest(&self) -> Written<'_> {
        self.written(&self.parent_digest)
    }

    /// `evaluator_epoch`.
    pub(crate) fn evaluator_epoch(&self) -> Written<'_> {
        self.written(&self.evaluator_epoch)
    }

    /// Each component's identity, in order.
    fn identities(&self) -> impl Iterator<Item = (&str, &str)> {
        self.components
            .iter()
            .map(|part| (self.text_at(part.kind), self.text_at(part.key)))
    }

    /// The digest of the first component of identity `wanted`; null when
    /// none has it.
    fn digest_of(&self, wanted: (&str, &str)) -> Written<'_> {
        self.components
            .iter()
            .find(|part| (self.text_at(part.kind), self.text_at(part.key)) == wanted)
            .map_or(Written::Null, |part| self.written(&part.digest))
    }
}

/// The manifest diff autocontext writes for `tested` against `comparison`:
/// every `(kind, key)` whose digest differs, in identity order.
pub fn manifest_diff(tested: &Value, comparison: &Value) -> Result<Value, canonical::Refusal> {
    stored_diff(&Listing::of(tested), &Listing::of(comparison))
}

/// [`manifest_diff`] of two stored bundles, from their listings.
pub(crate) fn stored_diff(
    tested: &Listing,
    comparison: &Listing,
) -> Result<Value, canonical::Refusal> {
    let mut identities: Vec<(&str, &str)> =
        tested.identities().chain(comparison.identities()).collect();
    identities.sort_by(|left, right| identity_order(*left, *right));
    identities.dedup();
    let changes: Vec<Value> = identities
        .into_iter()
        .filter_map(|wanted| {
            let tested_digest = tested.digest_of(wanted);
            let comparison_digest = comparison.digest_of(wanted);
            (tested_digest != comparison_digest).then(|| {
                json!({
                    "component_kind": wanted.0,
                    "component_key": wanted.1,
                    "tested_component_digest": tested_digest.value(),
                    "comparison_component_digest": comparison_digest.value(),
                })
            })
        })
        .collect();
    let mut diff = json!({
        "schema_version": 1,
        "tested_bundle_digest": tested.digest().value(),
        "comparison_bundle_digest": comparison.digest().value(),
        "evaluator_epoch": tested.evaluator_epoch().value(),
        "changes": changes,
    });
    let digest = diff_digest(&diff)?;
    if let Value::Object(map) = &mut diff {
        map.insert("digest".to_owned(), Value::String(digest));
    }
    Ok(diff)
}
