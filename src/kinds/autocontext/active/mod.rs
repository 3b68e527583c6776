//! AutocontextActivePointer (produced): a store's `active.json`, the one
//! atomic pointer that says which bundle serves. It is authoritative: a
//! candidate record that disagrees with it is a lagging mirror.

mod catalogue;

use serde_json::Value;

use super::manifest::{self, is_hex_digest};
use super::{candidate_file, fails, load_neighbour, store_of, stored_bundle_document, text};
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::autocontext::store::StoreFile;
use crate::kinds::{Kind, Role, Subject};
use crate::text::{quote, shorten};

pub(super) const KIND: Kind = Kind {
    name: "AutocontextActivePointer",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextActivePointer.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextActivePointer.schema.json"),
    display_name: crate::kinds::no_name,
    rules,
    producer_checks,
    catalogue: catalogue::RULES,
    fixes: &[],
};

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let Some(store) = store_of(&subject.location) else {
        return Vec::new();
    };
    let value = subject.value;
    let mut found = Vec::new();
    let digest = text(value, "bundle_digest").unwrap_or_default();
    let epoch = text(value, "evaluator_epoch").unwrap_or_default();
    let problem = match stored_bundle_document(&subject.location, &store.root, digest) {
        Err(reason) => Some(format!(
            "names no stored bundle: bundles/{digest}.json: {reason}"
        )),
        Ok(bundle) if !manifest::verifies(&bundle) => Some(format!(
            "names bundles/{digest}.json, which does not verify"
        )),
        Ok(bundle) if text(&bundle, "evaluator_epoch") != Some(epoch) => Some(format!(
            "names a bundle of evaluator_epoch {}, not {}",
            quote(&shorten(
                text(&bundle, "evaluator_epoch").unwrap_or_default()
            )),
            quote(&shorten(epoch))
        )),
        Ok(_) => None,
    };
    if let Some(problem) = problem {
        found.push(fails(
            &catalogue::ACTIVE_BUNDLE,
            format!("bundle_digest {problem}"),
            address!["bundle_digest"],
        ));
    }
    if let Some(id) = text(value, "promotion_id") {
        found.extend(promotion_checks(subject, &store, id));
    }
    if let Some(target) = text(value, "rollback_target_digest") {
        if let Err(reason) = stored_bundle_document(&subject.location, &store.root, target) {
            found.push(fails(
                &catalogue::ACTIVE_ROLLBACK,
                format!(
                    "rollback_target_digest names no stored bundle: bundles/{target}.json: {reason}"
                ),
                address!["rollback_target_digest"],
            ));
        }
    }
    found
}

/// Whether a promotion id can be a file name in `promotions/`: no
/// separator, no `..`, nothing that leaves the folder.
fn is_safe_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn promotion_checks(subject: &Subject<'_>, store: &StoreFile, id: &str) -> Vec<Diagnostic> {
    let failing = |message: String| {
        vec![fails(
            &catalogue::ACTIVE_PROMOTION,
            message,
            address!["promotion_id"],
        )]
    };
    if !is_safe_id(id) {
        return failing(format!(
            "promotion_id {} is not a file name in promotions/: it is refused, not read",
            quote(&shorten(id))
        ));
    }
    let path = store.root.join("promotions").join(format!("{id}.json"));
    let promotion = match load_neighbour(&subject.location, &store.root, path) {
        Ok(promotion) => promotion,
        Err(reason) => return failing(format!("promotions/{id}.json: {reason}")),
    };
    let pointer = subject.value;
    let pairs = [
        ("candidate_digest", "bundle_digest"),
        ("rollback_target_digest", "rollback_target_digest"),
        ("evaluator_epoch", "evaluator_epoch"),
        ("manifest_diff_digest", "manifest_diff_digest"),
    ];
    let disagreeing: Vec<String> = pairs
        .iter()
        .filter(|(in_promotion, in_pointer)| {
            promotion.get(*in_promotion).unwrap_or(&Value::Null)
                != pointer.get(*in_pointer).unwrap_or(&Value::Null)
        })
        .map(|(in_promotion, in_pointer)| format!("{in_promotion} (pointer: {in_pointer})"))
        .collect();
    if disagreeing.is_empty() {
        Vec::new()
    } else {
        failing(format!(
            "promotions/{id}.json disagrees with the pointer on {}",
            disagreeing.join(", ")
        ))
    }
}

/// The active bundle's candidate record says so: a record that lags is the
/// trace of a crash between the pointer write and the mirror's.
fn producer_checks(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let Some(store) = store_of(&subject.location) else {
        return Vec::new();
    };
    let digest = text(subject.value, "bundle_digest").unwrap_or_default();
    if !is_hex_digest(digest) {
        return Vec::new();
    }
    match candidate_file(&subject.location, &store.root, digest, "record.json") {
        Ok(record) if text(&record, "lifecycle") == Some("active") => Vec::new(),
        Ok(record) => vec![fails(
            &super::catalogue::LIFECYCLE_MIRROR,
            format!(
                "the active bundle's record candidates/{digest}/record.json says {}, not active: \
                 the mirror lags the pointer",
                quote(&shorten(text(&record, "lifecycle").unwrap_or_default()))
            ),
            address!["bundle_digest"],
        )],
        Err(_) => Vec::new(),
    }
}
