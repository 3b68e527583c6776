//! AutocontextManifestDiff (produced): `candidates/<digest>/manifest_diff.json`,
//! the components a candidate changes against its parent. Its digest is
//! verified, and in a store it must equal the diff recomputed from the two
//! immutable manifests.

mod catalogue;

use super::manifest::{self, is_hex_digest};
use super::{fails, store_of, stored_bundle, text};
use crate::diagnostic::{Address, Diagnostic, address};
use crate::kinds::autocontext::store::Place;
use crate::kinds::{Kind, Role, Subject};

pub(super) const KIND: Kind = Kind {
    name: "AutocontextManifestDiff",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextManifestDiff.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextManifestDiff.schema.json"),
    display_name: crate::kinds::no_name,
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let written = text(value, "digest").unwrap_or_default();
    match manifest::diff_digest(value) {
        Ok(computed) if computed == written => store_checks(subject),
        Ok(computed) => vec![fails(
            &catalogue::DIFF_DIGEST,
            format!("manifest diff digest is {written}, computed {computed}"),
            address!["digest"],
        )],
        Err(refusal) => vec![fails(
            &catalogue::DIFF_DIGEST,
            format!("the manifest diff has no digest: {refusal}"),
            address!["digest"],
        )],
    }
}

/// In a store: the diff is the one recomputed from the candidate's manifest
/// and its parent's.
fn store_checks(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let Some(store) = store_of(&subject.location) else {
        return Vec::new();
    };
    let Place::Candidate { digest: folder, .. } = &store.place else {
        return Vec::new();
    };
    let rule = &catalogue::DIFF_RECOMPUTED;
    let failing = |message: String, address: Address| vec![fails(rule, message, address)];
    if !is_hex_digest(folder) {
        return failing(
            "the candidate folder's name is not 64 lowercase hex".to_owned(),
            address!["tested_bundle_digest"],
        );
    }
    let tested = match stored_bundle(&subject.location, &store.root, folder) {
        Ok(tested) => tested,
        Err(reason) => {
            return failing(
                format!("no stored bundle for the candidate: bundles/{folder}.json: {reason}"),
                address!["tested_bundle_digest"],
            );
        }
    };
    let Some(parent) = tested
        .parent_digest()
        .text()
        .filter(|parent| is_hex_digest(parent))
    else {
        return failing(
            format!("bundles/{folder}.json has no parent to compare with"),
            address!["comparison_bundle_digest"],
        );
    };
    let comparison = match stored_bundle(&subject.location, &store.root, parent) {
        Ok(comparison) => comparison,
        Err(reason) => {
            return failing(
                format!("no stored bundle for the parent: bundles/{parent}.json: {reason}"),
                address!["comparison_bundle_digest"],
            );
        }
    };
    match super::stored_diff(
        &subject.location,
        &store.root,
        (folder, &tested),
        (parent, &comparison),
    ) {
        Ok(expected) if &expected == subject.value => Vec::new(),
        Ok(expected) => failing(
            format!(
                "the diff differs from the one recomputed from bundles/{folder}.json and \
                 bundles/{parent}.json (digest {})",
                text(&expected, "digest").unwrap_or_default()
            ),
            address!["changes"],
        ),
        Err(refusal) => failing(
            format!("the manifests have no diff: {refusal}"),
            address!["changes"],
        ),
    }
}
