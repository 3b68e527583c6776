//! The ContextBundle rules on both sides: the spec's example passes, and each
//! digest place and the source trust pin fail with the exact rule, message
//! and address; several failures come out in document order.

use serde_json::{Value, json};

use super::*;
use crate::diagnostic::{Address, Position, Severity, Stage, address};
use crate::kinds::tests::{documented, starts_only};
use crate::validate::{Mode, validate_bytes};
use crate::yaml::Limits;

/// The spec's valid example, `schemas/examples/ContextBundle/implement-stage.yaml`.
const IMPLEMENT_STAGE: &str = include_str!("../../../examples/implement-stage.yaml");

/// A valid digest that differs from every digest of the example.
const OTHER_DIGEST: &str =
    "sha256:0000000000000000000000000000000000000000000000000000000000000000";

/// Values that are not `sha256:` plus 64 lowercase hex digits.
const BAD_DIGESTS: [&str; 4] = [
    "sha256:5C2E8A1F3B7D9E0C4A6F8B2D1E3C5A7F9B0D2E4C6A8F1B3D5E7C9A0F2B4D6E8C",
    "5c2e8a1f3b7d9e0c4a6f8b2d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0f2b4d6e8c",
    "sha256:5c2e8a1f3b7d9e0c4a6f8b2d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0f2b4d6e8",
    "",
];

fn implement_stage() -> Value {
    crate::yaml::load(IMPLEMENT_STAGE, &Limits::default())
        .expect("the spec's example loads")
        .value
}

/// The finding of `field` at `address`, whose message says it must be
/// `expected` and holds `got`.
fn failure(
    rule: &'static str,
    field: &str,
    address: Address,
    expected: &str,
    got: &str,
) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        rule: documented(rule),
        message: format!(
            "`{}` must be {expected}; got {got}",
            crate::kinds::checks::field_path(&address)
        ),
        reference_words: Some(format!(
            "a value of numinance.kinds.v1.{field} fails its check"
        )),
        address: Some(address),
        position: None,
        end: None,
        span: None,
        note: None,
        secrets: Vec::new(),
        related: Vec::new(),
        fix: None,
    }
}

/// The `bundle/digest` finding at `address` for `value`, with the note that
/// says what is wrong with it.
fn bad_digest(address: Address, value: &str) -> Diagnostic {
    let mut expected = failure(
        "bundle/digest",
        "Digest.value",
        address,
        "`sha256:` followed by 64 lowercase hex digits",
        &crate::kinds::checks::shown(value),
    );
    expected.note = Some(crate::kinds::checks::digest_problem(value));
    expected
}

fn bad_trust(address: Address, trust: &str) -> Diagnostic {
    failure(
        "bundle/source-trust",
        "BundleSource.trust",
        address,
        "`TRUST_CLASS_UNTRUSTED_RETRIEVED`",
        &format!("\"{trust}\""),
    )
}

/// The example with the string at `address` replaced by `value`.
fn with(address: &Address, value: &str) -> Value {
    let mut document = implement_stage();
    let slot = address
        .find_mut(&mut document)
        .unwrap_or_else(|| panic!("the example has {address}"));
    assert!(slot.is_string(), "{address} holds a string in the example");
    *slot = json!(value);
    document
}

/// Both sides of one digest place of the example: another valid digest
/// passes, and each malformed one fails there and nowhere else.
fn assert_digest_place(address: Address) {
    assert_eq!(rules(&with(&address, OTHER_DIGEST)), vec![], "{address}");
    for bad in BAD_DIGESTS {
        assert_eq!(
            rules(&with(&address, bad)),
            vec![bad_digest(address.clone(), bad)],
            "{address} = {bad:?}"
        );
    }
}

#[test]
fn implement_stage_example_passes_every_rule() {
    assert_eq!(rules(&implement_stage()), vec![]);
}

#[test]
fn implement_stage_example_is_valid_through_the_whole_pipeline() {
    let checked = validate_bytes(IMPLEMENT_STAGE.as_bytes(), Mode::Files, &Limits::default());
    assert_eq!(checked.diagnostics, vec![]);
    assert_eq!(checked.kind, Some("ContextBundle"));
    assert_eq!(checked.name, None);
}

// bundle/digest, place by place.

#[test]
fn a_bad_digest_says_what_is_wrong_with_it() {
    let found = rules(&with(
        &address!["spec", "receipts", 0, "value"],
        "sha256:ABC",
    ));
    let notes: Vec<_> = found.iter().map(|d| d.note.as_deref()).collect();
    assert_eq!(
        notes,
        vec![Some(
            "the hex is written in upper case; write it in lower case"
        )]
    );
}

#[test]
fn digest_checked_at_authz_context_digest() {
    assert_digest_place(address!["spec", "authz_context_digest", "value"]);
}

#[test]
fn digest_checked_at_query_plan_args_digest() {
    assert_digest_place(address!["spec", "query_plan", 0, "args_digest", "value"]);
}

#[test]
fn digest_checked_at_source_digest() {
    assert_digest_place(address!["spec", "sources", 0, "digest", "value"]);
}

#[test]
fn digest_checked_at_authored_constraint_origin_digest() {
    assert_digest_place(address![
        "spec",
        "authored_constraints",
        0,
        "origin_digest",
        "value"
    ]);
}

#[test]
fn digest_checked_at_pinned_toolset() {
    assert_digest_place(address![
        "spec",
        "pinned_toolsets",
        "confluence-eng",
        "value"
    ]);
}

#[test]
fn digest_checked_at_receipt() {
    assert_digest_place(address!["spec", "receipts", 0, "value"]);
}

#[test]
fn digest_of_a_later_receipt_points_at_its_own_index() {
    let mut document = implement_stage();
    document["spec"]["receipts"] = json!([
        {"value": OTHER_DIGEST},
        {"value": OTHER_DIGEST},
        {"value": "sha256:short"},
    ]);
    assert_eq!(
        rules(&document),
        vec![bad_digest(
            address!["spec", "receipts", 2, "value"],
            "sha256:short"
        )]
    );
}

#[test]
fn digest_pointer_of_a_pinned_toolset_escapes_slash_and_tilde() {
    let mut document = implement_stage();
    document["spec"]["pinned_toolsets"] = json!({"team/a~b": {"value": "sha256:short"}});
    let expected = bad_digest(
        address!["spec", "pinned_toolsets", "team/a~b", "value"],
        "sha256:short",
    );
    assert_eq!(
        expected
            .address
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("/spec/pinned_toolsets/team~1a~0b/value")
    );
    assert_eq!(rules(&document), vec![expected]);
}

#[test]
fn digest_places_that_are_optional_pass_when_absent() {
    let mut document = implement_stage();
    let spec = &mut document["spec"];
    for (list, field) in [
        ("query_plan", "args_digest"),
        ("sources", "digest"),
        ("authored_constraints", "origin_digest"),
    ] {
        spec[list][0]
            .as_object_mut()
            .expect("an entry is a mapping")
            .remove(field);
    }
    let object = spec.as_object_mut().expect("spec is a mapping");
    object.remove("pinned_toolsets");
    object.remove("receipts");
    assert_eq!(rules(&document), vec![]);
}

// bundle/source-trust

#[test]
fn source_trust_passes_for_untrusted_retrieved_in_every_source() {
    let mut document = implement_stage();
    let source = document["spec"]["sources"][0].clone();
    let mut second = source.clone();
    second["ref"] = json!("confluence-eng/ENG/pages/4212");
    document["spec"]["sources"] = json!([source, second]);
    assert_eq!(rules(&document), vec![]);
}

#[test]
fn source_trust_fails_for_signed_policy_and_kernel() {
    for trust in ["TRUST_CLASS_SIGNED_POLICY", "TRUST_CLASS_KERNEL"] {
        assert_eq!(
            rules(&with(&address!["spec", "sources", 0, "trust"], trust)),
            vec![bad_trust(address!["spec", "sources", 0, "trust"], trust)],
            "{trust}"
        );
    }
}

#[test]
fn source_trust_fails_at_the_index_of_the_source_that_claims_it() {
    let mut document = implement_stage();
    let source = document["spec"]["sources"][0].clone();
    let mut second = source.clone();
    second["trust"] = json!("TRUST_CLASS_SIGNED_POLICY");
    document["spec"]["sources"] = json!([source, second]);
    assert_eq!(
        rules(&document),
        vec![bad_trust(
            address!["spec", "sources", 1, "trust"],
            "TRUST_CLASS_SIGNED_POLICY"
        )]
    );
}

#[test]
fn source_trust_is_not_required_of_authored_constraints() {
    // Signed policy is the expected trust of a constraint, not a failure.
    assert_eq!(
        rules(&with(
            &address!["spec", "authored_constraints", 0, "trust"],
            "TRUST_CLASS_KERNEL"
        )),
        vec![]
    );
}

#[test]
fn source_trust_signed_policy_fails_through_the_pipeline_with_the_spec_message() {
    // The spec's verified run: a source with trust: TRUST_CLASS_SIGNED_POLICY.
    let text = IMPLEMENT_STAGE.replace(
        "trust: TRUST_CLASS_UNTRUSTED_RETRIEVED",
        "trust: TRUST_CLASS_SIGNED_POLICY",
    );
    assert_ne!(text, IMPLEMENT_STAGE);
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let mut expected = bad_trust(
        address!["spec", "sources", 0, "trust"],
        "TRUST_CLASS_SIGNED_POLICY",
    );
    expected.position = Some(Position {
        line: 15,
        column: 136,
    });
    assert_eq!(starts_only(checked.diagnostics.clone()), vec![expected]);
    assert_eq!(
        checked.diagnostics.first().map(Diagnostic::text_message),
        Some("a value of numinance.kinds.v1.BundleSource.trust fails its check")
    );
}

#[test]
fn bad_receipt_digest_fails_through_the_pipeline_at_its_position() {
    let text = IMPLEMENT_STAGE.replace(
        "sha256:6b8d0f2a4c6e8b1d3f5a7c9e0b2d4f6a8c1e3b5d7f9a0c2e4b6d8f1a3c5e7b9d",
        "sha256:6B8D",
    );
    assert_ne!(text, IMPLEMENT_STAGE);
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let mut expected = bad_digest(address!["spec", "receipts", 0, "value"], "sha256:6B8D");
    expected.position = Some(Position {
        line: 27,
        column: 15,
    });
    assert_eq!(starts_only(checked.diagnostics.clone()), vec![expected]);
}

// The order of several failures.

#[test]
fn several_failures_in_the_example_come_out_in_document_order() {
    // The rules meet the source trust before the digests, but report what
    // stands first in the file first.
    let mut document = with(&address!["spec", "receipts", 0, "value"], "sha256:short");
    for (address, value) in [
        (
            address!["spec", "sources", 0, "trust"],
            "TRUST_CLASS_KERNEL",
        ),
        (
            address!["spec", "authz_context_digest", "value"],
            "sha256:short",
        ),
        (
            address!["spec", "sources", 0, "digest", "value"],
            "sha256:short",
        ),
        (
            address!["spec", "pinned_toolsets", "confluence-eng", "value"],
            "sha256:short",
        ),
    ] {
        *address.find_mut(&mut document).expect("in the example") = json!(value);
    }
    assert_eq!(
        rules(&document),
        vec![
            bad_digest(
                address!["spec", "authz_context_digest", "value"],
                "sha256:short"
            ),
            bad_digest(
                address!["spec", "sources", 0, "digest", "value"],
                "sha256:short"
            ),
            bad_trust(
                address!["spec", "sources", 0, "trust"],
                "TRUST_CLASS_KERNEL"
            ),
            bad_digest(
                address!["spec", "pinned_toolsets", "confluence-eng", "value"],
                "sha256:short"
            ),
            bad_digest(address!["spec", "receipts", 0, "value"], "sha256:short"),
        ]
    );
}

#[test]
fn several_failures_follow_the_file_whatever_the_order_of_its_keys() {
    let text = r#"
apiVersion: numinance.dev/v1
kind: ContextBundle
spec:
  receipts:
    - {value: "sha256:bad-receipt"}
  sources:
    - {trust: TRUST_CLASS_KERNEL, digest: {value: "bad-0"}}
    - {digest: {value: "bad-1"}, trust: TRUST_CLASS_SIGNED_POLICY}
  pinned_toolsets:
    zeta: {value: "bad-zeta"}
    alpha: {value: "bad-alpha"}
  authz_context_digest: {value: "bad-authz"}
  query_plan:
    - {tool: t, args_digest: {value: "bad-args"}}
  authored_constraints:
    - {origin: o, id: i, statement: s, origin_digest: {value: "bad-origin"}}
"#;
    let document = crate::yaml::load(text, &Limits::default()).expect("loads");
    assert_eq!(
        rules(&document.value),
        vec![
            bad_digest(
                address!["spec", "receipts", 0, "value"],
                "sha256:bad-receipt"
            ),
            bad_trust(
                address!["spec", "sources", 0, "trust"],
                "TRUST_CLASS_KERNEL"
            ),
            bad_digest(address!["spec", "sources", 0, "digest", "value"], "bad-0"),
            bad_digest(address!["spec", "sources", 1, "digest", "value"], "bad-1"),
            bad_trust(
                address!["spec", "sources", 1, "trust"],
                "TRUST_CLASS_SIGNED_POLICY"
            ),
            bad_digest(
                address!["spec", "pinned_toolsets", "zeta", "value"],
                "bad-zeta"
            ),
            bad_digest(
                address!["spec", "pinned_toolsets", "alpha", "value"],
                "bad-alpha"
            ),
            bad_digest(
                address!["spec", "authz_context_digest", "value"],
                "bad-authz"
            ),
            bad_digest(
                address!["spec", "query_plan", 0, "args_digest", "value"],
                "bad-args"
            ),
            bad_digest(
                address!["spec", "authored_constraints", 0, "origin_digest", "value"],
                "bad-origin"
            ),
        ]
    );
}

#[test]
fn a_document_without_a_spec_is_an_internal_shape_error_not_a_panic() {
    let found = rules(&json!({"apiVersion": "numinance.dev/v1", "kind": "ContextBundle"}));
    assert_eq!(found.len(), 1);
    let only = found.first().expect("one diagnostic");
    assert_eq!(
        (only.stage(), only.rule.id),
        (Stage::Internal, "internal/shape")
    );
    assert!(
        only.message
            .starts_with("the ContextBundle rules cannot read a document its schema accepts ("),
        "{}",
        only.message
    );
}
