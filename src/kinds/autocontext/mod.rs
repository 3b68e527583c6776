//! The autocontext family: context-bundle manifests, recognised by their
//! six top-level keys, and the files of a context-bundle store, recognised
//! by their place in it. numi verifies every digest independently of
//! autocontext's Python and TypeScript runtimes (see docs/autocontext.md).

pub mod false_promotion;
pub mod manifest;
pub mod python;
pub mod store;

mod active;
mod bundle;
mod campaign_state;
mod candidate;
mod catalogue;
mod causal_attribution;
mod comparison;
mod evaluator_plan;
mod evidence;
mod learned;
mod manifest_diff;
mod matched_trials;
mod negative_result;
mod promotion;
mod reservation_artifact;
mod stale_marker;

#[cfg(test)]
mod evidence_tests;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use self::manifest::Listing;
use self::store::{Place, StoreFile, store_file};
use super::{Family, Kind};
use crate::canonical;
use crate::diagnostic::{Address, Diagnostic, RuleDoc};
use crate::location::unit::Kept;
use crate::location::{Location, OUTSIDE_THE_STORE, ReadError};
use crate::text::shorten;
use crate::yaml::strict_json::JsonReader;
use crate::yaml::{Limits, YamlError};

pub static FAMILY: Family = Family {
    name: "autocontext",
    kinds: &[
        &bundle::KIND,
        &active::KIND,
        &candidate::KIND,
        &manifest_diff::KIND,
        &matched_trials::KIND,
        &causal_attribution::KIND,
        &negative_result::KIND,
        &evaluator_plan::KIND,
        &promotion::KIND,
        &campaign_state::KIND,
        &reservation_artifact::KIND,
        &stale_marker::KIND,
    ],
    identify,
    display_name: super::no_name,
    claims_file: store::is_verified_store_file,
    allows_sequence_root: store::allows_sequence_root,
    rules_at_key: &[],
    json_reader: Some(JsonReader {
        name: "autocontext (Python's json.loads, JavaScript's JSON.parse)",
        takes_non_finite: false,
    }),
};

/// The top-level keys of a bundle manifest.
const MANIFEST_KEYS: [&str; 6] = [
    "schema_version",
    "scenario",
    "evaluator_epoch",
    "parent_digest",
    "components",
    "digest",
];

fn identify(value: &Value, location: &Location<'_>) -> Option<Result<&'static Kind, Diagnostic>> {
    if let Some((path, file)) = location
        .path()
        .and_then(|path| Some((path, store_file(path)?)))
    {
        if !location.stays_within(&file.root, path) {
            // Its neighbours refuse to read it as the store's; so does its own line.
            return Some(Err(Diagnostic::new(
                &catalogue::STORE_LINK,
                format!("{OUTSIDE_THE_STORE}: a link, refused here as by every file that reads it"),
            )));
        }
        return Some(Ok(match file.place {
            Place::Bundle { .. } => &bundle::KIND,
            Place::Active => &active::KIND,
            Place::Promotion { .. } => &promotion::KIND,
            Place::Campaign { .. } => &campaign_state::KIND,
            Place::ReservationArtifact { .. } => &reservation_artifact::KIND,
            Place::Candidate { file, .. } => match file.as_str() {
                "manifest_diff.json" => &manifest_diff::KIND,
                "matched_trials.json" => &matched_trials::KIND,
                "causal_attribution.json" => &causal_attribution::KIND,
                "negative_result.json" => &negative_result::KIND,
                "evaluator_plan.json" => &evaluator_plan::KIND,
                "stale_terminalization.json" => &stale_marker::KIND,
                _ => &candidate::KIND,
            },
        }));
    }
    let object = value.as_object()?;
    MANIFEST_KEYS
        .iter()
        .all(|key| object.contains_key(*key))
        .then_some(Ok(&bundle::KIND))
}

/// The store a document stands in, when it was read from one.
fn store_of(location: &Location<'_>) -> Option<StoreFile> {
    location.path().and_then(store_file)
}

/// Why a file of the store cannot be read as a neighbour.
#[derive(Debug, thiserror::Error)]
enum NeighbourError {
    /// It cannot be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// It is read, but does not load: not JSON (or YAML).
    #[error("{}", crate::text::yaml_message(.0))]
    Load(YamlError),
}

/// A file of the store loaded as JSON (or YAML), or why it cannot be;
/// confined to the store. A file checked in the same unit is read and
/// loaded once, for its own check and every neighbour's. `path` must be
/// built from checked digests or ids.
fn load_neighbour(
    location: &Location<'_>,
    root: &Path,
    path: PathBuf,
) -> Result<Kept, NeighbourError> {
    let bytes = location.read_within(root, &path)?;
    let load = |bytes: &[u8]| super::load_unplaced(bytes, &Limits::default(), Some(&path));
    match location
        .unit()
        .and_then(|unit| unit.document(&path, &bytes, load))
    {
        Some(loaded) => loaded,
        None => load(&bytes).map(Kept::new),
    }
    .map_err(NeighbourError::Load)
}

/// The stored bundle `digest` (64 lowercase hex, checked by the caller).
fn stored_bundle_document(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
) -> Result<Kept, NeighbourError> {
    load_neighbour(location, root, bundle_path(root, digest))
}

/// What the files of a store read of the stored bundle `digest` (64
/// lowercase hex, checked by the caller): its [`Listing`], made once per run
/// (`learned`) from the bundle loaded as any neighbour is, whichever file
/// asks first. A store's bundles are what its every other file reads.
fn stored_bundle(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
) -> Result<Arc<Listing>, NeighbourError> {
    if let Some(known) = learned::listing(location, root, digest) {
        return Ok(known);
    }
    let bundle = load_neighbour(location, root, bundle_path(root, digest))?;
    let listing = Arc::new(Listing::of(&bundle));
    learned::keep_listing(location, root, digest, &listing);
    Ok(listing)
}

/// Learns the listing of the stored bundle `digest` from `bundle`, the
/// document the run read for it, unless it was learned before.
fn learn_listing(location: &Location<'_>, root: &Path, digest: &str, bundle: &Value) {
    learned::learn_listing(location, root, digest, || Listing::of(bundle));
}

/// The manifest diff of the stored bundle `digest` (`tested`) against the
/// stored bundle `against` (`comparison`, its parent); its digest is
/// learned for the run (`learned`), where a promotion of the candidate asks
/// for it again.
fn stored_diff(
    location: &Location<'_>,
    root: &Path,
    (digest, tested): (&str, &Listing),
    (against, comparison): (&str, &Listing),
) -> Result<Value, canonical::Refusal> {
    let diff = manifest::stored_diff(tested, comparison);
    let diff_digest = diff
        .as_ref()
        .map(|diff| text(diff, "digest").unwrap_or_default().to_owned())
        .map_err(Clone::clone);
    learned::keep_diff_digest(location, root, digest, against, &diff_digest);
    diff
}

/// The digest of [`stored_diff`], as learned or computed now.
fn stored_diff_digest(
    location: &Location<'_>,
    root: &Path,
    tested: (&str, &Listing),
    comparison: (&str, &Listing),
) -> Result<String, canonical::Refusal> {
    if let Some(known) = learned::diff_digest(location, root, tested.0, comparison.0) {
        return known;
    }
    stored_diff(location, root, tested, comparison)
        .map(|diff| text(&diff, "digest").unwrap_or_default().to_owned())
}

/// Where the stored bundle `digest` stands in the store at `root`.
fn bundle_path(root: &Path, digest: &str) -> PathBuf {
    root.join("bundles").join(format!("{digest}.json"))
}

/// The file `name` of the folder of candidate `digest` (64 lowercase hex,
/// checked by the caller).
fn candidate_file(
    location: &Location<'_>,
    root: &Path,
    digest: &str,
    name: &str,
) -> Result<Kept, NeighbourError> {
    load_neighbour(location, root, candidate_path(root, digest, name))
}

/// Where the file `name` of the folder of candidate `digest` stands in the
/// store at `root`.
fn candidate_path(root: &Path, digest: &str, name: &str) -> PathBuf {
    root.join("candidates").join(digest).join(name)
}

/// A rule failure stated as one sentence, at `address`.
fn fails(rule: &'static RuleDoc, message: String, address: Address) -> Diagnostic {
    Diagnostic::new(rule, message).at(address)
}

fn text<'v>(value: &'v Value, field: &str) -> Option<&'v str> {
    value.get(field).and_then(Value::as_str)
}

/// How many bytes of two long texts are shown before the first that
/// differs.
const CONTEXT: usize = 16;

/// Two long texts that differ, each shown from a little before where they
/// part (after a `…`); `None` when they part within the first `CONTEXT`
/// characters, where showing them whole says as much.
fn parted_tails(written: &str, expected: &str) -> Option<(String, String)> {
    let common = written
        .char_indices()
        .zip(expected.chars())
        .find(|((_, ours), theirs)| ours != theirs)
        .map_or(written.len().min(expected.len()), |((at, _), _)| at);
    let from = written
        .char_indices()
        .map(|(at, _)| at)
        .take_while(|at| *at + CONTEXT <= common)
        .last()
        .unwrap_or(0);
    let tail = |text: &str| {
        shown(&Value::from(format!(
            "…{}",
            text.get(from..).unwrap_or(text)
        )))
    };
    (from > 0).then(|| (tail(written), tail(expected)))
}

/// A value as a message shows it: each digest in it (64 lowercase hex)
/// cut to its first 12 digits, so a result id still shows how it ends.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let run = rest
            .bytes()
            .take_while(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(byte))
            .count();
        let (head, tail) = rest.split_at(run);
        if run == 64 {
            out.push_str(head.get(..12).unwrap_or(head));
            out.push('…');
        } else {
            out.push_str(head);
        }
        let mut characters = tail.chars();
        if let Some(character) = characters.next() {
            out.push(character);
        }
        rest = characters.as_str();
    }
    shorten(&out)
}
