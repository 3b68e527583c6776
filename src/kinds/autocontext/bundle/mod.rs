//! AutocontextBundle (produced): one immutable, content-addressed
//! context-bundle manifest. Alone, its digests and component order are
//! verified; in a store, also its file name, scenario folder and parent.

mod catalogue;

use std::cmp::Ordering;
use std::collections::BTreeSet;

use serde_json::Value;

use super::manifest::{
    self, component_digest, components, identity, identity_order, is_hex_digest,
};
use super::{fails, store_of, stored_bundle, text};
use crate::diagnostic::{Diagnostic, address};
use crate::kinds::autocontext::store::Place;
use crate::kinds::{Kind, Role, Subject};
use crate::text::{quote, shorten};

pub(super) const KIND: Kind = Kind {
    name: "AutocontextBundle",
    api_version: None,
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../../schemas/AutocontextBundle.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/AutocontextBundle.schema.json"),
    display_name: |value| text(value, "scenario").map(str::to_owned),
    rules,
    producer_checks: crate::kinds::no_rules,
    catalogue: catalogue::RULES,
    fixes: &[],
};

fn rules(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let value = subject.value;
    let mut found = order_checks(value);
    found.extend(digest_checks(value));
    found.extend(store_checks(subject));
    found
}

fn component_name(component: &Value) -> String {
    let (kind, key) = identity(component);
    format!("{kind}/{}", shorten(key))
}

/// `(kind, key)` pairs are unique and sorted by UTF-16 code units.
fn order_checks(value: &Value) -> Vec<Diagnostic> {
    let listed = components(value);
    let mut found = Vec::new();
    let mut seen = BTreeSet::new();
    for (index, component) in listed.iter().enumerate() {
        let (kind, key) = identity(component);
        if !seen.insert((kind, key)) {
            found.push(fails(
                &catalogue::COMPONENT_ORDER,
                format!(
                    "component {} is listed twice: (kind, key) pairs are unique",
                    quote(&component_name(component))
                ),
                address!["components", index],
            ));
            continue;
        }
        let previous = index.checked_sub(1).and_then(|before| listed.get(before));
        if let Some(previous) = previous {
            if identity_order(identity(previous), (kind, key)) == Ordering::Greater {
                found.push(fails(
                    &catalogue::COMPONENT_ORDER,
                    format!(
                        "component {} comes after {}: components are sorted by kind, then key, \
                         in UTF-16 code units",
                        quote(&component_name(component)),
                        quote(&component_name(previous))
                    ),
                    address!["components", index],
                ));
            }
        }
    }
    found
}

/// Each component digest, then the manifest digest, recomputed.
fn digest_checks(value: &Value) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for (index, component) in components(value).iter().enumerate() {
        let address = address!["components", index, "digest"];
        match component_digest(component) {
            Ok(computed) => {
                let written = text(component, "digest").unwrap_or_default();
                if written != computed {
                    found.push(fails(
                        &catalogue::COMPONENT_DIGEST,
                        format!(
                            "component {}: digest is {written}, computed {computed}",
                            quote(&component_name(component))
                        ),
                        address.clone(),
                    ));
                }
            }
            Err(refusal) => found.push(fails(
                &catalogue::COMPONENT_DIGEST,
                format!("component {}: {refusal}", quote(&component_name(component))),
                address,
            )),
        }
    }
    match manifest::manifest_digest(value) {
        Ok(computed) => {
            let written = text(value, "digest").unwrap_or_default();
            if written != computed {
                found.push(fails(
                    &catalogue::MANIFEST_DIGEST,
                    format!("manifest digest is {written}, computed {computed}"),
                    address!["digest"],
                ));
            }
        }
        Err(refusal) => found.push(fails(
            &catalogue::MANIFEST_DIGEST,
            format!("the manifest has no digest: {refusal}"),
            address!["digest"],
        )),
    }
    found
}

/// In a store: the file is named by its digest, the scenario is the
/// store's, and the parent is the stored bundle of that digest.
fn store_checks(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let Some(store) = store_of(&subject.location) else {
        return Vec::new();
    };
    let Place::Bundle { name } = &store.place else {
        return Vec::new();
    };
    let value = subject.value;
    // What its children and its candidate's files read of it is learned
    // from the document the run read, rather than read again.
    if subject.location.is_loaded(value) {
        super::learn_listing(&subject.location, &store.root, name, value);
    }
    let mut found = Vec::new();
    let digest = text(value, "digest").unwrap_or_default();
    if name != digest {
        found.push(fails(
            &catalogue::STORE_ADDRESS,
            format!(
                "the file is named {}, but the manifest's digest is {digest}",
                quote(&shorten(&format!("{name}.json")))
            ),
            address!["digest"],
        ));
    }
    let scenario = text(value, "scenario").unwrap_or_default();
    if scenario != store.scenario {
        found.push(fails(
            &catalogue::STORE_SCENARIO,
            format!(
                "scenario is {}, but the store is the scenario folder {}",
                quote(&shorten(scenario)),
                quote(&shorten(&store.scenario))
            ),
            address!["scenario"],
        ));
    }
    if let Some(parent) = text(value, "parent_digest") {
        let problem = if !is_hex_digest(parent) {
            Some("is not 64 lowercase hex".to_owned())
        } else {
            match stored_bundle(&subject.location, &store.root, parent) {
                Err(reason) => Some(format!(
                    "names no stored bundle: bundles/{parent}.json: {reason}"
                )),
                // The parent's own digests are verified on its own line;
                // here it must be the bundle it is named after.
                Ok(stored) if !stored.digest().is_text(parent) => Some(format!(
                    "names bundles/{parent}.json, whose digest is another"
                )),
                Ok(stored) if !stored.scenario().is_text(scenario) => {
                    Some(format!("names bundles/{parent}.json, of another scenario"))
                }
                Ok(_) => None,
            }
        };
        if let Some(problem) = problem {
            found.push(fails(
                &catalogue::PARENT,
                format!("parent_digest {problem}"),
                address!["parent_digest"],
            ));
        }
    }
    found
}
