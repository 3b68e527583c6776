//! The producer-side rule catalogue: ids unique and frozen, every rule in
//! `numi::rules` and the README, and every rule's failing example failing it
//! (as a warning, and as an error once promoted) while its passing example
//! passes the whole pipeline.

use super::*;
use crate::diagnostic::Severity;
use crate::validate::{Mode, validate_bytes};
use crate::yaml::Limits;

#[test]
fn rule_ids_are_unique_and_frozen() {
    let ids: Vec<&str> = RULES.iter().map(|rule| rule.id).collect();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    insta::assert_snapshot!(ids.join("\n"), @r"
    bundle/constraint-trust
    bundle/constraint-origin-digest
    bundle/unique-source-refs
    bundle/guidance-ref
    bundle/claim-ref
    bundle/conflict-claims
    bundle/context-generation
    bundle/untrusted-text
    bundle/credential-in-ref
    playbook/rate-bound
    playbook/min-runs
    policy/rule-above-floor
    policy/duplicate-rule
    policy/duplicate-floor
    repo/duplicate-name
    ");
}

#[test]
fn every_rule_is_in_the_catalogue_and_the_readme() {
    let readme = include_str!("../../README.md");
    for rule in RULES {
        assert_eq!(crate::rules::find(rule.id), Some(rule), "{}", rule.id);
        assert!(
            readme.contains(&format!("| [`{}`](docs/rules.md#", rule.id)),
            "README.md lists {}",
            rule.id
        );
        assert!(!rule.summary.is_empty() && !rule.explanation.is_empty());
    }
}

#[test]
fn the_kinds_with_producer_side_rules_are_registered() {
    for name in ["ContextBundle", "Playbook", "AutonomyPolicy"] {
        assert!(crate::kinds::find(name).is_some(), "{name}");
    }
}

#[test]
fn every_failing_example_fails_its_rule_and_every_passing_example_passes() {
    for rule in RULES.iter().filter(|rule| rule.id != "repo/duplicate-name") {
        let failing = validate_bytes(rule.failing.as_bytes(), Mode::Files, &Limits::default());
        let rules: Vec<&str> = failing.diagnostics.iter().map(|d| d.rule).collect();
        assert_eq!(rules, vec![rule.id], "{}:\n{}", rule.id, rule.failing);
        assert!(
            failing
                .diagnostics
                .iter()
                .all(|d| d.severity == Severity::Warning),
            "{}",
            rule.id
        );
        let mut promoted = failing.clone();
        promoted.promote_warnings();
        assert_eq!(promoted.errors().count(), 1, "{}", rule.id);

        let passing = validate_bytes(rule.passing.as_bytes(), Mode::Files, &Limits::default());
        assert_eq!(
            passing.diagnostics,
            vec![],
            "{}:\n{}",
            rule.id,
            rule.passing
        );
    }
}

#[test]
fn the_duplicate_name_examples_fail_and_pass() {
    use crate::run::{FileResult, Origin};
    let found = |text: &str| {
        let mut names = duplicate_names::DuplicateNames::default();
        text.split("---\n")
            .map(|part| {
                let (name, body) = part.split_once('\n').expect("a file name line");
                let result = FileResult {
                    origin: Origin::Repo,
                    display_name: name.trim_start_matches("# ").to_owned(),
                    path: name.trim_start_matches("# ").to_owned(),
                    source: None,
                    checked: validate_bytes(
                        body.as_bytes(),
                        Mode::Repository {
                            enable_alpha: false,
                        },
                        &Limits::default(),
                    ),
                };
                assert_eq!(result.checked.diagnostics, vec![], "{part}");
                names.check(&result).map(|d| d.rule)
            })
            .collect::<Vec<_>>()
    };
    let rule = &duplicate_names::DUPLICATE_NAME;
    assert_eq!(found(rule.failing), vec![None, Some(rule.id)]);
    assert_eq!(found(rule.passing), vec![None, None]);
}

#[test]
fn findings_are_warnings_in_document_order_whatever_the_check() {
    let text = crate::strict::examples::bundle!(
        "    - {ref: \"https://wiki.example.com/a?sig=1\", title: \"a\\u202Eb\", staleness: SOURCE_STALENESS_FRESH, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}\n    - {ref: \"https://wiki.example.com/a?sig=1\", staleness: SOURCE_STALENESS_FRESH, trust: TRUST_CLASS_UNTRUSTED_RETRIEVED}\n"
    );
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let found: Vec<(&str, &str, Severity)> = checked
        .diagnostics
        .iter()
        .map(|d| (d.rule, d.pointer.as_deref().unwrap_or_default(), d.severity))
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
    let text = crate::strict::examples::bundle!(
        "    - {ref: wiki/a, staleness: SOURCE_STALENESS_FRESH, trust: TRUST_CLASS_KERNEL}\n  cited_guidance:\n    - {ref: wiki/b}\n"
    );
    let mut checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    let found = |checked: &crate::validate::Checked| -> Vec<(&str, Severity)> {
        checked
            .diagnostics
            .iter()
            .map(|d| (d.rule, d.severity))
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
    let text = crate::strict::examples::bundle!(
        "  extra: 1\n  context_generation_typo: 0\n  cited_guidance:\n    - {ref: wiki/b}\n"
    );
    let checked = validate_bytes(text.as_bytes(), Mode::Files, &Limits::default());
    assert!(
        checked
            .diagnostics
            .iter()
            .all(|d| d.stage == crate::diagnostic::Stage::Schema),
        "{checked:?}"
    );
}
