use crate::kinds::events::findings;

const EXAMPLE: &str = include_str!("../../../examples/promotion-decided.yaml");

fn rules(text: &str) -> Vec<&'static str> {
    findings(text).into_iter().map(|(rule, _)| rule).collect()
}

#[test]
fn the_example_is_valid_and_so_is_a_rejection() {
    assert_eq!(findings(EXAMPLE), vec![]);
    let rejected = EXAMPLE.replace("PROMOTION_VERDICT_ACCEPTED", "PROMOTION_VERDICT_REJECTED");
    assert_eq!(findings(&rejected), vec![]);
}

#[test]
fn the_verdict_is_accepted_or_rejected() {
    let text = EXAMPLE.replace("PROMOTION_VERDICT_ACCEPTED", "PROMOTION_VERDICT_DEFERRED");
    assert_eq!(rules(&text), vec!["schema/enum"]);
}

#[test]
fn the_proposal_and_decision_digests_are_checked() {
    let text = EXAMPLE
        .replace("sha256:bc87", "sha256:BC87")
        .replace("sha256:b8b4", "b8b4");
    assert_eq!(rules(&text), vec!["events/digest", "events/digest"]);
}
