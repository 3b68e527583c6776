//! The ContextBundle constraints the spec leaves to the bundle's producer:
//! authored-constraint trust and origin digest, refs that name a source,
//! unique source refs, conflicts of at least two claims, and a context
//! generation from 1.

use std::collections::HashSet;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, address};
use crate::kinds::checks::items;
use crate::kinds::checks::{Expected, field_fails, rule_fails, shown_value, whole_number};

/// The trust an authored constraint may carry: it comes from signed policy
/// or from the kernel, never from retrieval.
const CONSTRAINT_TRUSTS: [&str; 2] = ["TRUST_CLASS_SIGNED_POLICY", "TRUST_CLASS_KERNEL"];

/// The structural findings of a bundle, each where its value stands.
pub(super) fn check(document: &Value) -> Vec<Diagnostic> {
    let Some(spec) = document.get("spec") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if spec.get("context_generation").map_or(Some(0), whole_number) == Some(0) {
        found.push(rule_fails(
            &super::catalogue::CONTEXT_GENERATION,
            "a ContextBundle's context_generation is at least 1",
            address!["spec", "context_generation"],
        ));
    }
    let mut source_refs = HashSet::new();
    for (i, source) in items(spec, "sources") {
        let Some(reference) = source.get("ref").and_then(Value::as_str) else {
            continue;
        };
        if !source_refs.insert(reference) {
            found.push(rule_fails(
                &super::catalogue::UNIQUE_SOURCE_REFS,
                "the sources of a ContextBundle are unique by ref",
                address!["spec", "sources", i, "ref"],
            ));
        }
    }
    for (i, constraint) in items(spec, "authored_constraints") {
        let written = constraint.get("trust");
        let trust = written.and_then(Value::as_str);
        if !trust.is_some_and(|trust| CONSTRAINT_TRUSTS.contains(&trust)) {
            found.push(field_fails(
                &super::catalogue::CONSTRAINT_TRUST,
                "AuthoredConstraint.trust",
                address!["spec", "authored_constraints", i, "trust"],
                Expected::OneOf(&CONSTRAINT_TRUSTS),
                written.map(shown_value),
            ));
        }
        if constraint.get("origin_digest").is_none() {
            found.push(rule_fails(
                &super::catalogue::CONSTRAINT_ORIGIN_DIGEST,
                "an authored constraint carries the digest of its origin (origin_digest)",
                address!["spec", "authored_constraints", i, "origin_digest"],
            ));
        }
    }
    let names_no_source = |item: &Value| {
        item.get("ref")
            .and_then(Value::as_str)
            .is_some_and(|reference| !source_refs.contains(reference))
    };
    for (i, guidance) in items(spec, "cited_guidance") {
        if names_no_source(guidance) {
            found.push(rule_fails(
                &super::catalogue::GUIDANCE_REF,
                "a cited_guidance ref names a source of the bundle",
                address!["spec", "cited_guidance", i, "ref"],
            ));
        }
    }
    for (i, conflict) in items(spec, "conflicts") {
        let claims: Vec<(usize, &Value)> = items(conflict, "claims").collect();
        if claims.len() < 2 {
            found.push(rule_fails(
                &super::catalogue::CONFLICT_CLAIMS,
                "a ContextBundle conflict has at least two claims",
                address!["spec", "conflicts", i, "claims"],
            ));
        }
        for (j, claim) in claims {
            if names_no_source(claim) {
                found.push(rule_fails(
                    &super::catalogue::CLAIM_REF,
                    "a conflict claim's ref names a source of the bundle",
                    address!["spec", "conflicts", i, "claims", j, "ref"],
                ));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests;
