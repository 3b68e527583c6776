//! The AutonomyPolicy producer-side rules on both sides: the spec's example
//! passes; a rule above its floor, a repeated rule and a repeated floor fail.

use serde_json::{Value, json};

use super::*;

fn policy(rules: Value, floors: Value) -> Value {
    json!({"apiVersion": "numinance.dev/v1", "kind": "AutonomyPolicy",
           "metadata": {"name": "org-default"},
           "spec": {"defaults": {"level": "AUTONOMY_LEVEL_PR"}, "rules": rules, "floors": floors}})
}

fn rule(change_type: &str, risk_class: &str, level: &str) -> Value {
    json!({"change_type": change_type, "risk_class": risk_class, "level": level})
}

fn floor(risk_class: &str, level: &str) -> Value {
    json!({"risk_class": risk_class, "level": level})
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

#[test]
fn the_spec_example_passes() {
    let example = crate::yaml::load(
        include_str!("../../../../examples/autonomy-policy-org-default.yaml"),
        &crate::yaml::Limits::default(),
    )
    .expect("the example loads")
    .value;
    assert_eq!(findings(&example), vec![]);
}

#[test]
fn a_policy_without_rules_or_floors_passes() {
    let document = json!({"spec": {"defaults": {"level": "AUTONOMY_LEVEL_OPERATE"}}});
    assert_eq!(findings(&document), vec![]);
}

#[test]
fn a_rule_at_or_below_its_floor_passes() {
    for level in ["AUTONOMY_LEVEL_OBSERVE", "AUTONOMY_LEVEL_SUGGEST"] {
        let document = policy(
            json!([rule("dependency-upgrade", "RISK_CLASS_HIGH", level)]),
            json!([floor("RISK_CLASS_HIGH", "AUTONOMY_LEVEL_SUGGEST")]),
        );
        assert_eq!(findings(&document), vec![], "{level}");
    }
}

#[test]
fn a_rule_above_the_floor_of_its_risk_class_fails() {
    let document = policy(
        json!([
            rule(
                "dependency-upgrade",
                "RISK_CLASS_LOW",
                "AUTONOMY_LEVEL_OPERATE"
            ),
            rule(
                "dependency-upgrade",
                "RISK_CLASS_HIGH",
                "AUTONOMY_LEVEL_IMPLEMENT"
            ),
        ]),
        json!([floor("RISK_CLASS_HIGH", "AUTONOMY_LEVEL_SUGGEST")]),
    );
    assert_eq!(
        findings(&document),
        vec![(
            "policy/rule-above-floor",
            "an AutonomyPolicy rule grants no more than the floor of its risk class: AUTONOMY_LEVEL_IMPLEMENT is above the RISK_CLASS_HIGH floor AUTONOMY_LEVEL_SUGGEST".to_owned(),
            "/spec/rules/1/level".to_owned()
        )]
    );
}

#[test]
fn a_floor_named_twice_fails_and_the_lower_one_caps() {
    let document = policy(
        json!([rule("hotfix", "RISK_CLASS_HIGH", "AUTONOMY_LEVEL_PR")]),
        json!([
            floor("RISK_CLASS_HIGH", "AUTONOMY_LEVEL_MERGE"),
            floor("RISK_CLASS_LOW", "AUTONOMY_LEVEL_OPERATE"),
            floor("RISK_CLASS_HIGH", "AUTONOMY_LEVEL_SUGGEST"),
        ]),
    );
    let mut found = findings(&document);
    found.sort_by(|a, b| a.2.cmp(&b.2));
    assert_eq!(
        found,
        vec![
            (
                "policy/duplicate-floor",
                "AutonomyPolicy floors name each risk class once: RISK_CLASS_HIGH is named again"
                    .to_owned(),
                "/spec/floors/2/risk_class".to_owned()
            ),
            (
                "policy/rule-above-floor",
                "an AutonomyPolicy rule grants no more than the floor of its risk class: AUTONOMY_LEVEL_PR is above the RISK_CLASS_HIGH floor AUTONOMY_LEVEL_SUGGEST".to_owned(),
                "/spec/rules/0/level".to_owned()
            ),
        ]
    );
}

#[test]
fn a_change_type_at_a_risk_class_named_twice_fails_whatever_the_levels() {
    for second in ["AUTONOMY_LEVEL_MERGE", "AUTONOMY_LEVEL_PR"] {
        let document = policy(
            json!([
                rule(
                    "dependency-upgrade",
                    "RISK_CLASS_LOW",
                    "AUTONOMY_LEVEL_MERGE"
                ),
                rule(
                    "dependency-upgrade",
                    "RISK_CLASS_MEDIUM",
                    "AUTONOMY_LEVEL_MERGE"
                ),
                rule("docs", "RISK_CLASS_LOW", "AUTONOMY_LEVEL_MERGE"),
                rule("dependency-upgrade", "RISK_CLASS_LOW", second),
            ]),
            json!([]),
        );
        assert_eq!(
            findings(&document),
            vec![(
                "policy/duplicate-rule",
                "AutonomyPolicy rules name each change type at each risk class once: \"dependency-upgrade\" at RISK_CLASS_LOW is named again".to_owned(),
                "/spec/rules/3/change_type".to_owned()
            )],
            "{second}"
        );
    }
}

#[test]
fn a_change_type_in_a_message_is_quoted_and_shortened() {
    let change_type = format!("{}\u{202E}", "x".repeat(80));
    let document = policy(
        json!([
            rule(&change_type, "RISK_CLASS_LOW", "AUTONOMY_LEVEL_PR"),
            rule(&change_type, "RISK_CLASS_LOW", "AUTONOMY_LEVEL_PR"),
        ]),
        json!([]),
    );
    let found = findings(&document);
    let message = &found.first().expect("a finding").1;
    assert!(
        message.contains(&format!("\"{}…\" at", "x".repeat(64))),
        "{message}"
    );
    assert!(!message.contains('\u{202E}'), "{message}");
}
