//! AutocontextCandidateRecord (produced): `candidates/<digest>/record.json`,
//! a candidate's lifecycle and the policy its evidence is judged by.

mod catalogue;

use serde_json::Value;

use super::comparison;
use super::learned;
use super::manifest::is_hex_digest;
use super::{fails, load_neighbour, store_of, stored_bundle, text};
use crate::canonical;
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::autocontext::store::Place;
use crate::kinds::{Kind, Role, Subject};
use crate::text::{quote, shorten};

pub(super) const KIND: Kind = Kind {
    name: "AutocontextCandidateRecord",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextCandidateRecord.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextCandidateRecord.schema.json"),
    display_name: |value| text(value, "lifecycle").map(str::to_owned),
    rules,
    producer_checks,
    catalogue: catalogue::RULES,
    fixes: &[],
};

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let mut found = policy_checks(subject.value);
    found.extend(store_checks(subject));
    found.extend(comparison_checks(subject));
    found
}

/// The recorded comparison is the one the candidate's matched trials
/// replay to under the policy they are bound to.
fn comparison_checks(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let Some(recorded) = value
        .get("comparison")
        .filter(|comparison| !comparison.is_null())
    else {
        return Vec::new();
    };
    let Some(store) = store_of(&subject.location) else {
        return Vec::new();
    };
    let Place::Candidate { digest: folder, .. } = &store.place else {
        return Vec::new();
    };
    if !is_hex_digest(folder) {
        return Vec::new();
    }
    let Ok(evidence) = super::candidate_file(
        &subject.location,
        &store.root,
        folder,
        "matched_trials.json",
    ) else {
        return Vec::new();
    };
    let Some(policy) = comparison::bound_policy(&evidence, value) else {
        return Vec::new();
    };
    recorded_comparison_findings(
        recorded,
        learned::replayed(
            &subject.location,
            &evidence,
            policy,
            Some((&store.root, folder)),
        ),
        "matched_trials.json",
        "the bound confirmation policy",
    )
}

/// The findings on a recorded `comparison` (a candidate record's or a
/// promotion's) against what the trials file named `source` replays to
/// under a policy (`under` says which): one per field that disagrees, or
/// one saying why the trials cannot be replayed.
pub(super) fn recorded_comparison_findings(
    recorded: &Value,
    replayed: comparison::Replay,
    source: &str,
    under: &str,
) -> Vec<Diagnostic> {
    let rule = &super::catalogue::COMPARISON_REPLAY;
    match comparison::replayed_disagreements(recorded, replayed) {
        Ok(disagreements) => disagreements
            .into_iter()
            .map(|(field, recorded, replayed)| {
                fails(
                    rule,
                    format!(
                        "comparison.{field} is {recorded}, but {source} replays to {replayed} \
                         under {under}"
                    ),
                    address!["comparison", field],
                )
            })
            .collect(),
        Err(reason) => vec![fails(
            rule,
            format!("the comparison cannot be replayed from {source}: {reason}"),
            address!["comparison"],
        )],
    }
}

/// `confirmation_policy_digest` is the digest of `confirmation_policy`.
fn policy_checks(value: &Value) -> Vec<Diagnostic> {
    let policy = value.get("confirmation_policy").unwrap_or(&Value::Null);
    let written = text(value, "confirmation_policy_digest");
    let rule = &catalogue::CANDIDATE_POLICY_DIGEST;
    let at = address!["confirmation_policy_digest"];
    match (policy, written) {
        (Value::Null, None) => Vec::new(),
        (Value::Null, Some(_)) => vec![fails(
            rule,
            "confirmation_policy_digest is set, but there is no confirmation_policy".to_owned(),
            at,
        )],
        (_, None) => vec![fails(
            rule,
            "confirmation_policy is set, but confirmation_policy_digest is null".to_owned(),
            at,
        )],
        (policy, Some(written)) => match canonical::sha256_hex(policy) {
            Ok(computed) if computed == written => Vec::new(),
            Ok(computed) => vec![fails(
                rule,
                format!("confirmation_policy_digest is {written}, computed {computed}"),
                at,
            )],
            Err(refusal) => vec![fails(
                rule,
                format!("confirmation_policy has no digest: {refusal}"),
                address!["confirmation_policy"],
            )],
        },
    }
}

/// In a store: the record is its folder's, and agrees with its bundle.
fn store_checks(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let Some(store) = store_of(&subject.location) else {
        return Vec::new();
    };
    let Place::Candidate { digest: folder, .. } = &store.place else {
        return Vec::new();
    };
    let value = subject.value;
    let rule = &catalogue::CANDIDATE_BUNDLE;
    let digest = text(value, "bundle_digest").unwrap_or_default();
    if digest != folder {
        return vec![fails(
            rule,
            format!(
                "bundle_digest is {digest}, but the record is in candidates/{}/",
                shorten(folder)
            ),
            address!["bundle_digest"],
        )];
    }
    let bundle = match stored_bundle(&subject.location, &store.root, digest) {
        Ok(bundle) => bundle,
        Err(reason) => {
            return vec![fails(
                rule,
                format!("bundle_digest names no stored bundle: bundles/{digest}.json: {reason}"),
                address!["bundle_digest"],
            )];
        }
    };
    let mut found = Vec::new();
    for (field, in_bundle) in [
        ("parent_digest", bundle.parent_digest().value()),
        ("evaluator_epoch", bundle.evaluator_epoch().value()),
    ] {
        let in_record = value.get(field).unwrap_or(&Value::Null);
        if *in_record != in_bundle {
            found.push(fails(
                rule,
                format!("{field} is {in_record}, but bundles/{digest}.json has {in_bundle}"),
                address![field],
            ));
        }
    }
    found
}

/// A record that says `active` while `active.json` names another bundle
/// lags the pointer, which is authoritative.
fn producer_checks(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let Some(store) = store_of(&subject.location) else {
        return Vec::new();
    };
    let value = subject.value;
    let digest = text(value, "bundle_digest").unwrap_or_default();
    if text(value, "lifecycle") != Some("active") || !is_hex_digest(digest) {
        return Vec::new();
    }
    match load_neighbour(
        &subject.location,
        &store.root,
        store.root.join("active.json"),
    ) {
        Ok(pointer) if text(&pointer, "bundle_digest") != Some(digest) => vec![fails(
            &super::catalogue::LIFECYCLE_MIRROR,
            format!(
                "the record says active, but active.json names {}: the mirror lags the pointer",
                quote(&shorten(
                    text(&pointer, "bundle_digest").unwrap_or_default()
                ))
            ),
            address!["lifecycle"],
        )],
        _ => Vec::new(),
    }
}
