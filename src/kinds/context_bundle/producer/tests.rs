//! The structural producer-side rules of a ContextBundle on both sides: the
//! spec's example passes, and each edit fails with the exact rule, message
//! and pointer.

use serde_json::{Value, json};

use super::*;
use crate::yaml::Limits;

const IMPLEMENT_STAGE: &str = include_str!("../../../../examples/implement-stage.yaml");

const ORIGIN_DIGEST: &str =
    "sha256:9d1f3b5e7a9c2e4f6b8d0a1c3e5f7b9d2a4c6e8f0b1d3a5c7e9f2b4d6a8c0e1f";

fn implement_stage() -> Value {
    crate::yaml::load(IMPLEMENT_STAGE, &Limits::default())
        .expect("the spec's example loads")
        .value
}

/// The example with `value` at `pointer` (which must exist).
fn with(pointer: &str, value: Value) -> Value {
    let mut document = implement_stage();
    *document
        .pointer_mut(pointer)
        .unwrap_or_else(|| panic!("the example has {pointer}")) = value;
    document
}

/// The example without the field at `pointer`.
fn without(pointer: &str) -> Value {
    let mut document = implement_stage();
    let (parent, field) = pointer.rsplit_once('/').expect("a pointer with a parent");
    let removed = document
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .and_then(|map| map.shift_remove(field));
    assert!(removed.is_some(), "the example has {pointer}");
    document
}

fn findings(document: &Value) -> Vec<(&'static str, String, String)> {
    check(document)
        .into_iter()
        .map(|d| {
            (
                d.rule.id,
                d.message,
                d.address.map(|a| a.to_string()).unwrap_or_default(),
            )
        })
        .collect()
}

fn finding(rule: &'static str, message: &str, pointer: &str) -> (&'static str, String, String) {
    (rule, message.to_owned(), pointer.to_owned())
}

const SECOND_SOURCE: &str = "confluence-eng/ENG/pages/4212";

fn source(reference: &str) -> Value {
    json!({"ref": reference, "staleness": "SOURCE_STALENESS_FRESH", "trust": "TRUST_CLASS_UNTRUSTED_RETRIEVED"})
}

#[test]
fn the_spec_example_passes() {
    assert_eq!(findings(&implement_stage()), vec![]);
}

#[test]
fn constraint_trust_signed_policy_and_kernel_pass() {
    for trust in ["TRUST_CLASS_SIGNED_POLICY", "TRUST_CLASS_KERNEL"] {
        let document = with("/spec/authored_constraints/0/trust", json!(trust));
        assert_eq!(findings(&document), vec![], "{trust}");
    }
}

#[test]
fn constraint_trust_untrusted_or_absent_fails() {
    let expected = |got: &str| {
        vec![finding(
            "bundle/constraint-trust",
            &format!(
                "`spec.authored_constraints[0].trust` must be `TRUST_CLASS_SIGNED_POLICY` or `TRUST_CLASS_KERNEL`; {got}"
            ),
            "/spec/authored_constraints/0/trust",
        )]
    };
    let untrusted = with(
        "/spec/authored_constraints/0/trust",
        json!("TRUST_CLASS_UNTRUSTED_RETRIEVED"),
    );
    assert_eq!(
        findings(&untrusted),
        expected("got \"TRUST_CLASS_UNTRUSTED_RETRIEVED\"")
    );
    assert_eq!(
        findings(&without("/spec/authored_constraints/0/trust")),
        expected("it is absent")
    );
    let number = with("/spec/authored_constraints/0/trust", json!(3));
    assert_eq!(findings(&number), expected("got 3"));
    // The text format keeps the reference's words.
    let found = check(&untrusted);
    assert_eq!(
        found
            .first()
            .map(crate::diagnostic::Diagnostic::text_message),
        Some("a value of numinance.kinds.v1.AuthoredConstraint.trust fails its check")
    );
}

#[test]
fn constraint_origin_digest_absent_fails() {
    assert_eq!(
        findings(&without("/spec/authored_constraints/0/origin_digest")),
        vec![finding(
            "bundle/constraint-origin-digest",
            "an authored constraint carries the digest of its origin (origin_digest)",
            "/spec/authored_constraints/0/origin_digest",
        )]
    );
    let other = with(
        "/spec/authored_constraints/0/origin_digest",
        json!({"value": ORIGIN_DIGEST}),
    );
    assert_eq!(findings(&other), vec![]);
}

#[test]
fn source_refs_are_unique_the_later_one_fails() {
    let mut document = implement_stage();
    let first = document["spec"]["sources"][0].clone();
    document["spec"]["sources"] = json!([first, source(SECOND_SOURCE), first]);
    assert_eq!(
        findings(&document),
        vec![finding(
            "bundle/unique-source-refs",
            "the sources of a ContextBundle are unique by ref",
            "/spec/sources/2/ref",
        )]
    );
    document["spec"]["sources"][2] = source("confluence-eng/ENG/pages/4213");
    assert_eq!(findings(&document), vec![]);
}

#[test]
fn cited_guidance_ref_names_a_source() {
    let dangling = with("/spec/cited_guidance/0/ref", json!(SECOND_SOURCE));
    assert_eq!(
        findings(&dangling),
        vec![finding(
            "bundle/guidance-ref",
            "a cited_guidance ref names a source of the bundle",
            "/spec/cited_guidance/0/ref",
        )]
    );
    let mut cited = dangling;
    cited["spec"]["sources"]
        .as_array_mut()
        .expect("sources")
        .push(source(SECOND_SOURCE));
    assert_eq!(findings(&cited), vec![]);
}

#[test]
fn conflict_claim_ref_names_a_source() {
    let dangling = with("/spec/conflicts/0/claims/1/ref", json!(SECOND_SOURCE));
    assert_eq!(
        findings(&dangling),
        vec![finding(
            "bundle/claim-ref",
            "a conflict claim's ref names a source of the bundle",
            "/spec/conflicts/0/claims/1/ref",
        )]
    );
    let mut claimed = dangling;
    claimed["spec"]["sources"]
        .as_array_mut()
        .expect("sources")
        .push(source(SECOND_SOURCE));
    assert_eq!(findings(&claimed), vec![]);
}

#[test]
fn a_conflict_has_at_least_two_claims() {
    let expected = vec![finding(
        "bundle/conflict-claims",
        "a ContextBundle conflict has at least two claims",
        "/spec/conflicts/0/claims",
    )];
    let mut document = implement_stage();
    let claim = document["spec"]["conflicts"][0]["claims"][0].clone();
    for claims in [json!([]), json!([claim.clone()])] {
        document["spec"]["conflicts"][0]["claims"] = claims;
        assert_eq!(findings(&document), expected);
    }
    document["spec"]["conflicts"][0]["claims"] = json!([claim.clone(), claim.clone(), claim]);
    assert_eq!(findings(&document), vec![]);
}

#[test]
fn context_generation_is_at_least_1() {
    let expected = vec![finding(
        "bundle/context-generation",
        "a ContextBundle's context_generation is at least 1",
        "/spec/context_generation",
    )];
    assert_eq!(
        findings(&with("/spec/context_generation", json!(0))),
        expected
    );
    assert_eq!(findings(&without("/spec/context_generation")), expected);
    for generation in [1, 2, 4_294_967_295_u64] {
        assert_eq!(
            findings(&with("/spec/context_generation", json!(generation))),
            vec![]
        );
    }
}

#[test]
fn a_bundle_without_the_optional_lists_passes() {
    let mut document = implement_stage();
    let spec = document["spec"].as_object_mut().expect("spec");
    for field in [
        "sources",
        "authored_constraints",
        "cited_guidance",
        "conflicts",
    ] {
        spec.shift_remove(field);
    }
    assert_eq!(findings(&document), vec![]);
}
