//! What the evidence files beside a candidate record share: the candidate
//! they belong to (its folder, its stored bundle and its parent), the
//! digest of a confirmation policy, and fields that must agree.

use std::sync::Arc;

use serde_json::Value;

use super::manifest::{Listing, is_hex_digest};
use super::{NeighbourError, candidate_file, stored_bundle};
use crate::canonical;
use crate::kinds::autocontext::store::{Place, StoreFile};
use crate::location::Location;
use crate::location::unit::Kept;
use crate::text::{quote, shorten};

/// A candidate of the store, told by the folder a file stands in.
pub(super) struct Candidate {
    pub store: StoreFile,
    /// The folder's name, checked to be 64 lowercase hex.
    pub digest: String,
    /// What `bundles/<digest>.json` says, as stored.
    pub bundle: Arc<Listing>,
    /// The bundle's `parent_digest` (null for a baseline).
    parent: Value,
    /// The bundle's `evaluator_epoch`.
    epoch: Value,
}

impl Candidate {
    /// The bundle's `parent_digest` (null for a baseline).
    pub(super) fn parent(&self) -> &Value {
        &self.parent
    }

    /// The file `name` beside the file read at `location`, in this
    /// candidate's folder.
    pub(super) fn file(&self, location: &Location<'_>, name: &str) -> Result<Kept, NeighbourError> {
        candidate_file(location, &self.store.root, &self.digest, name)
    }

    /// The bundle's `evaluator_epoch`.
    pub(super) fn epoch(&self) -> &Value {
        &self.epoch
    }

    /// What a file that compares this candidate with its parent must say
    /// of them: each field, the value it must hold, and whose value that is.
    pub(super) fn binding(&self) -> Vec<(&'static str, Value, &'static str)> {
        vec![
            (
                "candidate_digest",
                Value::String(self.digest.clone()),
                "the candidate folder's digest",
            ),
            (
                "incumbent_digest",
                self.parent().clone(),
                "the bundle's parent_digest",
            ),
            (
                "evaluator_epoch",
                self.epoch().clone(),
                "the bundle's evaluator_epoch",
            ),
        ]
    }
}

/// Why the folder a file stands in is no candidate of its store.
#[derive(Debug, thiserror::Error)]
pub(super) enum NoCandidate {
    /// The folder is not named by a digest.
    #[error(
        "the candidate folder {} is not named by a digest (64 lowercase hex)",
        quote(&shorten(.0))
    )]
    NotADigest(String),
    /// The folder's digest names no bundle the store holds.
    #[error("the candidate has no stored bundle: bundles/{digest}.json: {reason}")]
    NoBundle {
        digest: String,
        reason: NeighbourError,
    },
}

/// The candidate whose folder holds the file read at `location`: `None`
/// outside a store's `candidates/<digest>/`, an error when the folder is not
/// named by a digest or names no stored bundle.
pub(super) fn candidate_of(location: &Location<'_>) -> Option<Result<Candidate, NoCandidate>> {
    let store = location
        .path()
        .and_then(crate::kinds::autocontext::store::store_file)?;
    let Place::Candidate { digest, .. } = &store.place else {
        return None;
    };
    let digest = digest.clone();
    if !is_hex_digest(&digest) {
        return Some(Err(NoCandidate::NotADigest(digest)));
    }
    Some(match stored_bundle(location, &store.root, &digest) {
        Ok(bundle) => Ok(Candidate {
            parent: bundle.parent_digest().value(),
            epoch: bundle.evaluator_epoch().value(),
            store,
            digest,
            bundle,
        }),
        Err(reason) => Err(NoCandidate::NoBundle { digest, reason }),
    })
}

/// Why `written` is not the digest of `policy`, if it is not: both must be
/// set, and the digest is the SHA-256 of the policy's canonical JSON.
pub(super) fn policy_digest_problem(
    policy: Option<&Value>,
    written: Option<&str>,
) -> Option<String> {
    match (policy.filter(|policy| !policy.is_null()), written) {
        (None, None) => None,
        (None, Some(_)) => Some(
            "confirmation_policy_digest is set, but there is no confirmation_policy".to_owned(),
        ),
        (Some(_), None) => {
            Some("confirmation_policy is set, but confirmation_policy_digest is not".to_owned())
        }
        (Some(policy), Some(written)) => match canonical::sha256_hex(policy) {
            Ok(computed) if computed == written => None,
            Ok(computed) => Some(format!(
                "confirmation_policy_digest is {written}, computed {computed}"
            )),
            Err(refusal) => Some(format!("confirmation_policy has no digest: {refusal}")),
        },
    }
}

/// The message for a field of `value` that is not `expected`, if it is not.
pub(super) fn disagreement(
    value: &Value,
    field: &str,
    expected: &Value,
    whose: &str,
) -> Option<String> {
    let found = value.get(field).unwrap_or(&Value::Null);
    (found != expected).then(|| {
        format!(
            "{field} is {}, but {whose} is {}",
            shorten(&found.to_string()),
            shorten(&expected.to_string())
        )
    })
}
