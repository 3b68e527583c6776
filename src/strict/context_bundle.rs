//! The ContextBundle constraints the spec leaves to the bundle's producer:
//! authored-constraint trust and origin digest, refs that name a source,
//! unique source refs, conflicts of at least two claims, and a context
//! generation from 1.

use std::collections::HashSet;

use serde_json::Value;

use super::examples::bundle;
use super::items;
use crate::diagnostic::{Diagnostic, Stage};
use crate::kinds::checks::{field_fails, rule_fails};
use crate::rules::RuleDoc;

/// The trust an authored constraint may carry: it comes from signed policy
/// or from the kernel, never from retrieval.
const CONSTRAINT_TRUSTS: [&str; 2] = ["TRUST_CLASS_SIGNED_POLICY", "TRUST_CLASS_KERNEL"];

pub const CONSTRAINT_TRUST: RuleDoc = RuleDoc {
    id: "bundle/constraint-trust",
    stage: Stage::Rule,
    summary: "An authored constraint carries TRUST_CLASS_SIGNED_POLICY or TRUST_CLASS_KERNEL.",
    explanation: "Authored constraints come only from the resolved profile's policy and packs, so \
a prompt may state them as constraints. One without that trust (absent, or \
TRUST_CLASS_UNTRUSTED_RETRIEVED) would pass retrieved text off as policy. Set the trust the \
constraint's origin really has, or move the text to a source.",
    failing: bundle!(
        "  authored_constraints:\n    - {origin: ArchitecturePack/layered-service, id: no-domain-io, statement: The domain layer performs no I/O.,\n       origin_digest: {value: \"sha256:9d1f3b5e7a9c2e4f6b8d0a1c3e5f7b9d2a4c6e8f0b1d3a5c7e9f2b4d6a8c0e1f\"}, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}\n"
    ),
    passing: bundle!(
        "  authored_constraints:\n    - {origin: ArchitecturePack/layered-service, id: no-domain-io, statement: The domain layer performs no I/O.,\n       origin_digest: {value: \"sha256:9d1f3b5e7a9c2e4f6b8d0a1c3e5f7b9d2a4c6e8f0b1d3a5c7e9f2b4d6a8c0e1f\"}, trust: TRUST_CLASS_SIGNED_POLICY}\n"
    ),
};

pub const CONSTRAINT_ORIGIN_DIGEST: RuleDoc = RuleDoc {
    id: "bundle/constraint-origin-digest",
    stage: Stage::Rule,
    summary: "An authored constraint carries the digest of its origin.",
    explanation: "The origin_digest binds a constraint to the exact policy or pack it came from; \
without it the constraint cannot be traced back to signed policy. Its format is checked in every \
mode by bundle/digest; this rule asks for its presence.",
    failing: bundle!(
        "  authored_constraints:\n    - {origin: ArchitecturePack/layered-service, id: no-domain-io, statement: The domain layer performs no I/O., trust: TRUST_CLASS_SIGNED_POLICY}\n"
    ),
    passing: bundle!(
        "  authored_constraints:\n    - {origin: ArchitecturePack/layered-service, id: no-domain-io, statement: The domain layer performs no I/O.,\n       origin_digest: {value: \"sha256:9d1f3b5e7a9c2e4f6b8d0a1c3e5f7b9d2a4c6e8f0b1d3a5c7e9f2b4d6a8c0e1f\"}, trust: TRUST_CLASS_SIGNED_POLICY}\n"
    ),
};

pub const UNIQUE_SOURCE_REFS: RuleDoc = RuleDoc {
    id: "bundle/unique-source-refs",
    stage: Stage::Rule,
    summary: "The sources of a ContextBundle are unique by ref.",
    explanation: "A ref identifies one selected source; a second source with the same ref makes \
every citation of it ambiguous. The later source gets the finding: merge the two, or keep the one \
with the right version and digest.",
    failing: bundle!(
        "    - {ref: confluence-eng/ENG/pages/4211, staleness: SOURCE_STALENESS_STALE, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}\n"
    ),
    passing: bundle!(
        "    - {ref: confluence-eng/ENG/pages/4212, staleness: SOURCE_STALENESS_STALE, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}\n"
    ),
};

pub const GUIDANCE_REF: RuleDoc = RuleDoc {
    id: "bundle/guidance-ref",
    stage: Stage::Rule,
    summary: "Every cited_guidance ref names a source of the bundle.",
    explanation: "Cited guidance points into a section of a selected source. A ref that names no \
source points at content the bundle never recorded, with no digest, version or access basis. \
Cite a source of the bundle, or add the source.",
    failing: bundle!(
        "  cited_guidance:\n    - {ref: confluence-eng/ENG/pages/9999, section: retry-limits}\n"
    ),
    passing: bundle!(
        "  cited_guidance:\n    - {ref: confluence-eng/ENG/pages/4211, section: retry-limits}\n"
    ),
};

pub const CLAIM_REF: RuleDoc = RuleDoc {
    id: "bundle/claim-ref",
    stage: Stage::Rule,
    summary: "Every conflict claim's ref names a source of the bundle.",
    explanation: "A conflict records sources that disagree; a claim whose ref names no source of \
the bundle cannot be checked against anything the bundle recorded. Name a source of the bundle.",
    failing: bundle!(
        "  conflicts:\n    - {topic: refund retry limit, claims: [{ref: confluence-eng/ENG/pages/4211, section: retry-limits}, {ref: wiki/refunds, section: limits}]}\n"
    ),
    passing: bundle!(
        "    - {ref: wiki/refunds, staleness: SOURCE_STALENESS_UNKNOWN, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}\n  conflicts:\n    - {topic: refund retry limit, claims: [{ref: confluence-eng/ENG/pages/4211, section: retry-limits}, {ref: wiki/refunds, section: limits}]}\n"
    ),
};

pub const CONFLICT_CLAIMS: RuleDoc = RuleDoc {
    id: "bundle/conflict-claims",
    stage: Stage::Rule,
    summary: "A ContextBundle conflict has at least two claims.",
    explanation: "A conflict is sources that disagree: it takes two claims to disagree. A conflict \
with one claim (or none) records nothing to resolve; list every claim, or drop the conflict.",
    failing: bundle!(
        "  conflicts:\n    - {topic: refund retry limit, claims: [{ref: confluence-eng/ENG/pages/4211, section: retry-limits}]}\n"
    ),
    passing: bundle!(
        "  conflicts:\n    - {topic: refund retry limit, claims: [{ref: confluence-eng/ENG/pages/4211, section: retry-limits}, {ref: confluence-eng/ENG/pages/4211, section: refunds}]}\n"
    ),
};

pub const CONTEXT_GENERATION: RuleDoc = RuleDoc {
    id: "bundle/context-generation",
    stage: Stage::Rule,
    summary: "A ContextBundle's context_generation is at least 1.",
    explanation: "Generations count from 1: a refresh opens a new one and never changes an earlier \
bundle. A generation of 0, or none (which a decoder reads as 0), names no resolution. Write the \
generation the bundle was resolved in.",
    failing: concat!(
        "apiVersion: numinance.dev/v1\nkind: ContextBundle\nspec:\n  change_id: chg_01JB2Q8W3N5M7K9P1R3T5V7X9Z\n  work_unit_id: wu_01JB2Q8Z4P6R8T0V2X4Z6B8D0F\n  stage: implement\n",
        "  context_generation: 0\n",
        "  authz_context_digest: {value: \"sha256:5c2e8a1f3b7d9e0c4a6f8b2d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0f2b4d6e8c\"}\n  resolver: {model_id: eu.anthropic.claude-haiku-v1:0, prompt_version: resolver-3}\n  budget_used: {tokens: 5400, calls: 4, ms: 8200}\n"
    ),
    passing: concat!(
        "apiVersion: numinance.dev/v1\nkind: ContextBundle\nspec:\n  change_id: chg_01JB2Q8W3N5M7K9P1R3T5V7X9Z\n  work_unit_id: wu_01JB2Q8Z4P6R8T0V2X4Z6B8D0F\n  stage: implement\n",
        "  context_generation: 1\n",
        "  authz_context_digest: {value: \"sha256:5c2e8a1f3b7d9e0c4a6f8b2d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0f2b4d6e8c\"}\n  resolver: {model_id: eu.anthropic.claude-haiku-v1:0, prompt_version: resolver-3}\n  budget_used: {tokens: 5400, calls: 4, ms: 8200}\n"
    ),
};

/// The structural findings of a bundle, each where its value stands.
pub fn check(document: &Value) -> Vec<Diagnostic> {
    let Some(spec) = document.get("spec") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if spec
        .get("context_generation")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        == 0
    {
        found.push(rule_fails(
            CONTEXT_GENERATION.id,
            "a ContextBundle's context_generation is at least 1",
            "/spec/context_generation".to_owned(),
        ));
    }
    let mut source_refs = HashSet::new();
    for (i, source) in items(spec, "sources") {
        let Some(reference) = source.get("ref").and_then(Value::as_str) else {
            continue;
        };
        if !source_refs.insert(reference) {
            found.push(rule_fails(
                UNIQUE_SOURCE_REFS.id,
                "the sources of a ContextBundle are unique by ref",
                format!("/spec/sources/{i}/ref"),
            ));
        }
    }
    for (i, constraint) in items(spec, "authored_constraints") {
        let trust = constraint.get("trust").and_then(Value::as_str);
        if !trust.is_some_and(|trust| CONSTRAINT_TRUSTS.contains(&trust)) {
            found.push(field_fails(
                CONSTRAINT_TRUST.id,
                "AuthoredConstraint.trust",
                format!("/spec/authored_constraints/{i}/trust"),
            ));
        }
        if constraint.get("origin_digest").is_none() {
            found.push(rule_fails(
                CONSTRAINT_ORIGIN_DIGEST.id,
                "an authored constraint carries the digest of its origin (origin_digest)",
                format!("/spec/authored_constraints/{i}/origin_digest"),
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
                GUIDANCE_REF.id,
                "a cited_guidance ref names a source of the bundle",
                format!("/spec/cited_guidance/{i}/ref"),
            ));
        }
    }
    for (i, conflict) in items(spec, "conflicts") {
        let claims: Vec<(usize, &Value)> = items(conflict, "claims").collect();
        if claims.len() < 2 {
            found.push(rule_fails(
                CONFLICT_CLAIMS.id,
                "a ContextBundle conflict has at least two claims",
                format!("/spec/conflicts/{i}/claims"),
            ));
        }
        for (j, claim) in claims {
            if names_no_source(claim) {
                found.push(rule_fails(
                    CLAIM_REF.id,
                    "a conflict claim's ref names a source of the bundle",
                    format!("/spec/conflicts/{i}/claims/{j}/ref"),
                ));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests;
