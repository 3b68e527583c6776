//! ContextBundle (`numinance.dev/v1`, produced): the knowledge selected for
//! one stage of one work unit. Never configuration.

pub(crate) mod catalogue;
mod credentials;
mod fixes;
mod producer;
mod untrusted_text;

#[cfg(test)]
mod validate_tests;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::checks::{Expected, digest_problem, field_fails, is_digest, shown};
use super::{Kind, Role, Subject};
use crate::diagnostic::{Address, Diagnostic, address};
use crate::yaml::document_order;

/// The producer-side checks of a bundle: its own constraints, untrusted
/// text, and credentials in source refs.
fn producer_checks(subject: &Subject<'_>) -> Vec<Diagnostic> {
    let mut found = producer::check(subject.value);
    found.extend(untrusted_text::check(subject.value, subject.text));
    found.extend(credentials::check(subject.value));
    found
}

pub(crate) const KIND: Kind = Kind {
    name: "ContextBundle",
    api_version: Some("numinance.dev/v1"),
    role: Role::Produced,
    inferred: false,
    schema: include_str!("../../../schemas/ContextBundle.schema.json"),
    compiled: crate::schema::compiled_schema!("schemas/ContextBundle.schema.json"),
    display_name: super::no_name,
    rules: |subject| rules(subject.value),
    producer_checks,
    catalogue: catalogue::RULES,
    fixes: fixes::FIXES,
};

/// The only trust a retrieved source may carry.
const SOURCE_TRUST: &str = "TRUST_CLASS_UNTRUSTED_RETRIEVED";

#[derive(Deserialize)]
struct Bundle<'a> {
    #[serde(borrow)]
    spec: Spec<'a>,
}

#[derive(Deserialize)]
struct Spec<'a> {
    authz_context_digest: Digest<'a>,
    #[serde(default, borrow)]
    query_plan: Vec<Query<'a>>,
    #[serde(default, borrow)]
    sources: Vec<Source<'a>>,
    #[serde(default, borrow)]
    authored_constraints: Vec<Constraint<'a>>,
    #[serde(default, borrow)]
    pinned_toolsets: BTreeMap<&'a str, Digest<'a>>,
    #[serde(default, borrow)]
    receipts: Vec<Digest<'a>>,
}

#[derive(Deserialize)]
struct Digest<'a> {
    value: &'a str,
}

#[derive(Deserialize)]
struct Query<'a> {
    #[serde(borrow)]
    args_digest: Option<Digest<'a>>,
}

#[derive(Deserialize)]
struct Source<'a> {
    #[serde(borrow)]
    digest: Option<Digest<'a>>,
    trust: &'a str,
}

#[derive(Deserialize)]
struct Constraint<'a> {
    #[serde(borrow)]
    origin_digest: Option<Digest<'a>>,
}

fn rules(document: &Value) -> Vec<Diagnostic> {
    let bundle = match Bundle::deserialize(document) {
        Ok(bundle) => bundle,
        Err(error) => return vec![super::checks::shape_mismatch(&KIND, &error)],
    };
    let spec = &bundle.spec;
    let mut digests: Vec<(&str, Address)> = Vec::new();
    digests.push((
        spec.authz_context_digest.value,
        address!["spec", "authz_context_digest", "value"],
    ));
    for (i, query) in spec.query_plan.iter().enumerate() {
        if let Some(digest) = &query.args_digest {
            digests.push((
                digest.value,
                address!["spec", "query_plan", i, "args_digest", "value"],
            ));
        }
    }
    let mut found = Vec::new();
    for (i, source) in spec.sources.iter().enumerate() {
        if let Some(digest) = &source.digest {
            digests.push((
                digest.value,
                address!["spec", "sources", i, "digest", "value"],
            ));
        }
        if source.trust != SOURCE_TRUST {
            found.push(field_fails(
                &catalogue::SOURCE_TRUST,
                "BundleSource.trust",
                address!["spec", "sources", i, "trust"],
                Expected::OneOf(&[SOURCE_TRUST]),
                Some(shown(source.trust)),
            ));
        }
    }
    for (i, constraint) in spec.authored_constraints.iter().enumerate() {
        if let Some(digest) = &constraint.origin_digest {
            digests.push((
                digest.value,
                address!["spec", "authored_constraints", i, "origin_digest", "value"],
            ));
        }
    }
    for (name, digest) in &spec.pinned_toolsets {
        digests.push((
            digest.value,
            address!["spec", "pinned_toolsets", *name, "value"],
        ));
    }
    for (i, receipt) in spec.receipts.iter().enumerate() {
        digests.push((receipt.value, address!["spec", "receipts", i, "value"]));
    }
    found.extend(
        digests
            .into_iter()
            .filter(|(value, _)| !is_digest(value))
            .map(|(value, address)| {
                field_fails(
                    &catalogue::DIGEST,
                    "Digest.value",
                    address,
                    Expected::Digest,
                    Some(shown(value)),
                )
                .with_note(digest_problem(value))
            }),
    );
    // One fixed order whatever the field: where the values stand.
    found.sort_by_cached_key(|diagnostic| {
        let steps = diagnostic.address.as_ref().map(Address::steps);
        document_order(document, steps.unwrap_or_default())
    });
    found
}

#[cfg(test)]
mod tests;
