//! AutocontextPromotion (produced): `promotions/<id>.json`, the durable
//! record of one promotion: which candidate replaced which incumbent, on
//! what evidence, under which policy and manifest diff. It is verified on
//! its own line; `active.json` checks only that it agrees with the pointer.

mod catalogue;

use std::sync::Arc;

use serde_json::Value;

use super::evidence::policy_digest_problem;
use super::learned;
use super::manifest::{Listing, is_hex_digest};
use super::{fails, store_of, stored_bundle, text};
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::autocontext::store::{Place, StoreFile};
use crate::kinds::{Kind, Role, Subject};
use crate::location::Location;
use crate::text::{quote, shorten};

pub(super) const KIND: Kind = Kind {
    name: "AutocontextPromotion",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextPromotion.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextPromotion.schema.json"),
    display_name: |value| text(value, "cohort").map(str::to_owned),
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let mut found = Vec::new();
    if let Some(problem) = policy_digest_problem(
        value.get("confirmation_policy"),
        text(value, "confirmation_policy_digest"),
    ) {
        found.push(fails(
            &catalogue::PROMOTION_POLICY_DIGEST,
            problem,
            address!["confirmation_policy_digest"],
        ));
    }
    if let Some(store) = store_of(&subject.location) {
        let policy_verified = found.is_empty();
        found.extend(store_checks(subject, &store));
        if policy_verified {
            found.extend(replay_checks(subject, &store));
        }
    }
    found
}

/// The promotion's comparison is what the candidate's matched trials replay
/// to under the promotion's confirmation policy (its digest verified).
fn replay_checks(subject: &Subject<'_>, store: &StoreFile) -> Vec<Diagnostic> {
    let value = subject.value;
    let (Some(recorded), Some(policy), Some(candidate)) = (
        value
            .get("comparison")
            .filter(|comparison| !comparison.is_null()),
        value
            .get("confirmation_policy")
            .filter(|policy| !policy.is_null()),
        text(value, "candidate_digest").filter(|digest| is_hex_digest(digest)),
    ) else {
        return Vec::new();
    };
    // The candidate's own files replayed its trials before, most often
    // under this very policy: the trials are read again only otherwise.
    let kept = (store.root.as_path(), candidate);
    let replayed = match learned::kept_replay(&subject.location, kept, policy) {
        Some(replayed) => replayed,
        None => {
            let Ok(evidence) = super::candidate_file(
                &subject.location,
                &store.root,
                candidate,
                "matched_trials.json",
            ) else {
                return Vec::new();
            };
            learned::replayed(&subject.location, &evidence, policy, Some(kept))
        }
    };
    let trials = format!("candidates/{}/matched_trials.json", shorten(candidate));
    super::candidate::recorded_comparison_findings(
        recorded,
        replayed,
        &trials,
        "the promotion's confirmation policy",
    )
}

/// A stored bundle named by `field`, or the diagnostic that says why not.
fn named_bundle(
    subject: &Subject<'_>,
    store: &StoreFile,
    field: &str,
) -> Result<Option<Arc<Listing>>, Diagnostic> {
    let rule = &catalogue::PROMOTION_BUNDLES;
    let address = address![field];
    let Some(digest) = text(subject.value, field) else {
        return Ok(None);
    };
    if !is_hex_digest(digest) {
        return Err(fails(
            rule,
            format!("{field} is not a digest (64 lowercase hex): it is refused, not read"),
            address,
        ));
    }
    stored_bundle(&subject.location, &store.root, digest)
        .map(Some)
        .map_err(|reason| {
            fails(
                rule,
                format!("{field} names no stored bundle: bundles/{digest}.json: {reason}"),
                address,
            )
        })
}

fn store_checks(subject: &Subject<'_>, store: &StoreFile) -> Vec<Diagnostic> {
    let value = subject.value;
    let rule = &catalogue::PROMOTION_BUNDLES;
    let mut found = Vec::new();
    if let Place::Promotion { id } = &store.place {
        if text(value, "promotion_id") != Some(id.as_str()) {
            found.push(fails(
                rule,
                format!(
                    "promotion_id is {}, but the record is promotions/{}.json",
                    quote(&shorten(text(value, "promotion_id").unwrap_or_default())),
                    shorten(id)
                ),
                address!["promotion_id"],
            ));
        }
    }
    let mut bundles = Vec::new();
    for field in [
        "candidate_digest",
        "incumbent_digest",
        "rollback_target_digest",
    ] {
        match named_bundle(subject, store, field) {
            Ok(bundle) => bundles.push(bundle),
            Err(diagnostic) => {
                found.push(diagnostic);
                bundles.push(None);
            }
        }
    }
    let (Some(Some(candidate)), Some(incumbent)) = (bundles.first(), bundles.get(1)) else {
        return found;
    };
    if candidate.evaluator_epoch().text() != text(value, "evaluator_epoch") {
        found.push(fails(
            rule,
            format!(
                "evaluator_epoch is {}, but the candidate bundle's is {}",
                quote(&shorten(text(value, "evaluator_epoch").unwrap_or_default())),
                quote(&shorten(
                    candidate.evaluator_epoch().text().unwrap_or_default()
                ))
            ),
            address!["evaluator_epoch"],
        ));
    }
    let parent = candidate.parent_digest().value();
    if value.get("incumbent_digest").unwrap_or(&Value::Null) != &parent {
        found.push(fails(
            rule,
            format!(
                "incumbent_digest is not the candidate bundle's parent_digest ({})",
                shorten(&parent.to_string())
            ),
            address!["incumbent_digest"],
        ));
        return found;
    }
    if let Some(incumbent) = incumbent {
        found.extend(diff_check(
            &subject.location,
            value,
            store,
            candidate,
            incumbent,
        ));
    }
    found
}

/// `manifest_diff_digest` is the digest of the diff recomputed from the
/// candidate's manifest and the incumbent's (both named by checked digests).
fn diff_check(
    location: &Location<'_>,
    value: &Value,
    store: &StoreFile,
    candidate: &Listing,
    incumbent: &Listing,
) -> Vec<Diagnostic> {
    let rule = &catalogue::PROMOTION_DIFF;
    let written = text(value, "manifest_diff_digest").unwrap_or_default();
    let digest = |field| text(value, field).unwrap_or_default();
    match super::stored_diff_digest(
        location,
        &store.root,
        (digest("candidate_digest"), candidate),
        (digest("incumbent_digest"), incumbent),
    ) {
        Ok(computed) if computed == written => Vec::new(),
        Ok(computed) => vec![fails(
            rule,
            format!(
                "manifest_diff_digest is {written}, but the diff recomputed from the candidate and \
                 incumbent bundles has digest {computed}"
            ),
            address!["manifest_diff_digest"],
        )],
        Err(refusal) => vec![fails(
            rule,
            format!("the manifests have no diff: {refusal}"),
            address!["manifest_diff_digest"],
        )],
    }
}
