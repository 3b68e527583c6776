//! The Playbook producer-side rules on both sides, at the edges of their
//! bounds.

use serde_json::{Value, json};

use super::*;

fn playbook(qualification: Option<Value>) -> Value {
    let mut spec = json!({"change_type": "bugfix", "max_repair_attempts": 2});
    if let Some(qualification) = qualification {
        spec["qualification"] = qualification;
    }
    json!({"apiVersion": "numinance.dev/v1", "kind": "Playbook", "metadata": {"name": "p"}, "spec": spec})
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
fn the_init_template_passes() {
    let qualification = json!({"min_runs": 20, "max_rework_rate": 1000, "max_regression_rate": 0, "max_rollback_rate": 50, "zero_security_escapes": true});
    assert_eq!(findings(&playbook(Some(qualification))), vec![]);
}

#[test]
fn no_qualification_passes() {
    assert_eq!(findings(&playbook(None)), vec![]);
}

#[test]
fn each_rate_is_at_most_10000_basis_points() {
    for field in RATES {
        let at_bound = json!({"min_runs": 1, field: 10_000});
        assert_eq!(findings(&playbook(Some(at_bound))), vec![], "{field}");
        let above = json!({"min_runs": 1, field: 10_001});
        assert_eq!(
            findings(&playbook(Some(above))),
            vec![(
                "playbook/rate-bound",
                format!(
                    "a Playbook qualification rate is at most 10000 basis points: {field} is 10001"
                ),
                format!("/spec/qualification/{field}")
            )],
            "{field}"
        );
    }
}

#[test]
fn the_spec_rate_of_20000_fails() {
    let qualification = json!({"min_runs": 20, "max_rework_rate": 20000, "max_regression_rate": 0, "max_rollback_rate": 50, "zero_security_escapes": true});
    assert_eq!(
        findings(&playbook(Some(qualification))),
        vec![(
            "playbook/rate-bound",
            "a Playbook qualification rate is at most 10000 basis points: max_rework_rate is 20000"
                .to_owned(),
            "/spec/qualification/max_rework_rate".to_owned()
        )]
    );
}

#[test]
fn a_qualification_asks_for_at_least_one_run() {
    let expected = vec![(
        "playbook/min-runs",
        "a Playbook qualification asks for at least one run (min_runs at least 1)".to_owned(),
        "/spec/qualification/min_runs".to_owned(),
    )];
    assert_eq!(findings(&playbook(Some(json!({"min_runs": 0})))), expected);
    assert_eq!(
        findings(&playbook(Some(json!({"max_rework_rate": 1000})))),
        expected
    );
    assert_eq!(findings(&playbook(Some(json!({})))), expected);
    assert_eq!(findings(&playbook(Some(json!({"min_runs": 1})))), vec![]);
}

#[test]
fn numbers_written_as_floats_are_read_by_value() {
    // What the YAML loader makes of `20000.0`, `2e4`, `10.0` and `1e1`.
    for rate in [json!(20000.0), json!(2e4), json!(20000)] {
        let qualification = json!({"min_runs": 1, "max_rework_rate": rate});
        assert_eq!(
            findings(&playbook(Some(qualification))),
            vec![(
                "playbook/rate-bound",
                format!(
                    "a Playbook qualification rate is at most 10000 basis points: max_rework_rate is {rate}"
                ),
                "/spec/qualification/max_rework_rate".to_owned()
            )],
            "{rate}"
        );
    }
    for runs in [json!(10.0), json!(1e1), json!(10)] {
        let qualification = json!({"min_runs": runs, "max_rework_rate": 10_000.0});
        assert_eq!(findings(&playbook(Some(qualification))), vec![], "{runs}");
    }
    for none in [json!(0.0), json!(0)] {
        let qualification = json!({"min_runs": none});
        assert_eq!(
            findings(&playbook(Some(qualification)))
                .iter()
                .map(|(rule, _, _)| *rule)
                .collect::<Vec<_>>(),
            ["playbook/min-runs"],
            "{none}"
        );
    }
}
