//! Producer-side findings through the whole pipeline: warnings in document
//! order after the rule failures, none on a document failing its schema.

use crate::diagnostic::Severity;
use crate::validate::{Mode, validate_bytes};
use crate::yaml::Limits;

/// The smallest bundle, its `sources` list left open at the end.
const BUNDLE: &str = include_str!("examples/base.yaml");

#[test]
fn findings_are_warnings_in_document_order_whatever_the_check() {
    let text = [BUNDLE, "    - {ref: \"https://wiki.example.com/a?sig=1\", title: \"a\\u202Eb\", staleness: SOURCE_STALENESS_FRESH, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}\n    - {ref: \"https://wiki.example.com/a?sig=1\", staleness: SOURCE_STALENESS_FRESH, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}\n"].concat();
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let pointers: Vec<String> = checked
        .diagnostics
        .iter()
        .map(|d| {
            d.address
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        })
        .collect();
    let found: Vec<(&str, &str, Severity)> = checked
        .diagnostics
        .iter()
        .zip(&pointers)
        .map(|(d, pointer)| (d.rule.id, pointer.as_str(), d.severity))
        .collect();
    assert_eq!(
        found,
        vec![
            (
                "bundle/credential-in-ref",
                "/spec/sources/1/ref",
                Severity::Warning
            ),
            (
                "bundle/untrusted-text",
                "/spec/sources/1/title",
                Severity::Warning
            ),
            (
                "bundle/unique-source-refs",
                "/spec/sources/2/ref",
                Severity::Warning
            ),
            (
                "bundle/credential-in-ref",
                "/spec/sources/2/ref",
                Severity::Warning
            ),
        ]
    );
    assert!(checked.diagnostics.iter().all(|d| d.position.is_some()));
}

#[test]
fn a_rule_failure_comes_before_the_warnings_and_stays_first_once_promoted() {
    let text = [BUNDLE, "    - {ref: wiki/a, staleness: SOURCE_STALENESS_FRESH, trust: TRUST_CLASS_KERNEL}\n  cited_guidance:\n    - {ref: wiki/b}\n"].concat();
    let mut checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let found = |checked: &crate::validate::Checked| -> Vec<(&str, Severity)> {
        checked
            .diagnostics
            .iter()
            .map(|d| (d.rule.id, d.severity))
            .collect()
    };
    assert_eq!(
        found(&checked),
        vec![
            ("bundle/source-trust", Severity::Error),
            ("bundle/guidance-ref", Severity::Warning),
        ]
    );
    checked.promote_warnings();
    assert_eq!(
        found(&checked),
        vec![
            ("bundle/source-trust", Severity::Error),
            ("bundle/guidance-ref", Severity::Error),
        ]
    );
}

#[test]
fn a_document_failing_its_schema_gets_no_producer_side_findings() {
    let text = [
        BUNDLE,
        "  extra: 1\n  context_generation_typo: 0\n  cited_guidance:\n    - {ref: wiki/b}\n",
    ]
    .concat();
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    assert!(
        checked
            .diagnostics
            .iter()
            .all(|d| d.stage() == crate::diagnostic::Stage::Schema),
        "{checked:?}"
    );
}
