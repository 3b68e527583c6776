use crate::kinds::events::findings;

const EXAMPLE: &str = include_str!("../../../examples/qualification-updated.yaml");

fn payload(spec: &str) -> String {
    format!(
        "apiVersion: numinance.dev/v1\nkind: QualificationUpdated\nspec: {{playbook: p, component: c, {spec}}}\n"
    )
}

fn rules(spec: &str) -> Vec<&'static str> {
    findings(&payload(spec))
        .into_iter()
        .map(|(rule, _)| rule)
        .collect()
}

#[test]
fn the_example_is_valid() {
    assert_eq!(findings(EXAMPLE), vec![]);
}

#[test]
fn rates_are_at_most_10000_basis_points() {
    assert_eq!(
        rules("runs: 2, rework_rate_basis_points: 10000, upper_bound_basis_points: 10000"),
        Vec::<&str>::new()
    );
    assert_eq!(
        findings(&payload(
            "runs: 2, rollback_rate_basis_points: 10001, upper_bound_basis_points: 10000"
        )),
        vec![(
            "events/rate-bound",
            "a QualificationUpdated rate is at most 10000 basis points: rollback_rate_basis_points is 10001"
                .to_owned()
        )]
    );
    assert_eq!(
        rules("runs: 0, upper_bound_basis_points: 20000"),
        vec!["events/rate-bound"]
    );
    assert_eq!(
        rules("runs: 2, regression_rate_basis_points: 1.5e4, upper_bound_basis_points: 10000"),
        vec!["events/rate-bound"]
    );
}

#[test]
fn negative_counts_and_rates_are_refused_by_the_schema() {
    assert_eq!(
        rules("runs: -1, upper_bound_basis_points: 10000"),
        vec!["schema/minimum"]
    );
}

#[test]
fn with_no_run_the_bound_is_10000() {
    assert_eq!(rules("upper_bound_basis_points: 10000"), Vec::<&str>::new());
    assert_eq!(
        rules("runs: 0, replay_runs: 30, upper_bound_basis_points: 10000"),
        Vec::<&str>::new()
    );
    assert_eq!(
        findings(&payload(
            "runs: 0, replay_runs: 30, upper_bound_basis_points: 1000"
        )),
        vec![(
            "events/upper-bound",
            "a QualificationUpdated upper_bound_basis_points is 10000 when runs is 0: it is 1000"
                .to_owned()
        )]
    );
}

#[test]
fn with_no_failure_the_bound_is_never_below_the_rule_of_three() {
    // ceil(30000 / 7) = 4286
    assert_eq!(
        rules("runs: 7, upper_bound_basis_points: 4286"),
        Vec::<&str>::new()
    );
    assert_eq!(
        rules("runs: 7, upper_bound_basis_points: 9000"),
        Vec::<&str>::new()
    );
    assert_eq!(
        findings(&payload("runs: 7, upper_bound_basis_points: 4285")),
        vec![(
            "events/upper-bound",
            "a QualificationUpdated upper_bound_basis_points is never below the rule-of-three bound \
             min(10000, ceil(30000 / runs)) when no failure was counted: 7 runs bound it at 4286, not 4285"
                .to_owned()
        )]
    );
    // Up to 3 runs the bound is capped at 10000.
    assert_eq!(
        rules("runs: 2, upper_bound_basis_points: 10000"),
        Vec::<&str>::new()
    );
    assert_eq!(
        rules("runs: 2, upper_bound_basis_points: 9999"),
        vec!["events/upper-bound"]
    );
    // 30000 runs and more: 1 basis point.
    assert_eq!(
        rules("runs: 60000, upper_bound_basis_points: 1"),
        Vec::<&str>::new()
    );
    assert_eq!(
        rules("runs: 60000, upper_bound_basis_points: 0"),
        vec!["events/upper-bound"]
    );
}

#[test]
fn once_a_failure_was_counted_the_rule_of_three_does_not_apply() {
    for failure in [
        "rework_rate_basis_points: 500",
        "regression_rate_basis_points: 500",
        "rollback_rate_basis_points: 500",
        "security_escapes: 1",
    ] {
        assert_eq!(
            rules(&format!(
                "runs: 20, {failure}, upper_bound_basis_points: 100"
            )),
            Vec::<&str>::new(),
            "{failure}"
        );
    }
    assert_eq!(
        rules(
            "runs: 20, rework_rate_basis_points: 0, security_escapes: 0, upper_bound_basis_points: 100"
        ),
        vec!["events/upper-bound"]
    );
}

#[test]
fn replay_runs_and_unbound_outcomes_do_not_count_as_runs() {
    assert_eq!(
        rules("replay_runs: 100, unbound_outcomes: 100, upper_bound_basis_points: 300"),
        vec!["events/upper-bound"]
    );
}

#[test]
fn the_bound_is_required() {
    assert_eq!(rules("runs: 3"), vec!["schema/required"]);
}
