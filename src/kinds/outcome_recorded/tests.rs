use crate::kinds::events::findings;

const EXAMPLE: &str = include_str!("../../../examples/outcome-recorded.yaml");

#[test]
fn the_example_is_valid() {
    assert_eq!(findings(EXAMPLE), vec![]);
}

#[test]
fn an_unbound_replay_outcome_with_no_flags_is_valid() {
    let text = "apiVersion: numinance.dev/v1\nkind: OutcomeRecorded\nspec: {playbook: p, component: c, origin: OUTCOME_ORIGIN_REPLAY}\n";
    assert_eq!(findings(text), vec![]);
}

#[test]
fn each_digest_is_checked() {
    let text = EXAMPLE
        .replace("sha256:9072", "sha256:X072")
        .replace("sha256:b7ec", "sha512:b7ec");
    let found: Vec<&str> = findings(&text).into_iter().map(|(rule, _)| rule).collect();
    assert_eq!(found, vec!["events/digest", "events/digest"]);
}

#[test]
fn the_schema_requires_the_stratum_and_origin_and_types_the_origin() {
    let missing = "apiVersion: numinance.dev/v1\nkind: OutcomeRecorded\nspec: {severe: true}\n";
    let messages: Vec<(&str, String)> = findings(missing);
    assert_eq!(
        messages,
        ["playbook", "component", "origin"]
            .map(|field| (
                "schema/required",
                format!("missing required property \"{field}\"")
            ))
            .to_vec()
    );

    let other_origin = EXAMPLE.replace("OUTCOME_ORIGIN_PRODUCTION", "OUTCOME_ORIGIN_STAGING");
    let found: Vec<&str> = findings(&other_origin)
        .into_iter()
        .map(|(rule, _)| rule)
        .collect();
    assert_eq!(found, vec!["schema/enum"]);

    let not_a_flag = EXAMPLE.replace("severe: false", "severe: sometimes");
    let found: Vec<&str> = findings(&not_a_flag)
        .into_iter()
        .map(|(rule, _)| rule)
        .collect();
    assert_eq!(found, vec!["schema/type"]);
}
