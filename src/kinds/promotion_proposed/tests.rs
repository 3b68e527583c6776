use crate::kinds::events::findings;

const EXAMPLE: &str = include_str!("../../../examples/promotion-proposed.yaml");

fn with_levels(from: &str, to: &str) -> String {
    EXAMPLE
        .replace(
            "from_level: AUTONOMY_LEVEL_PR",
            &format!("from_level: {from}"),
        )
        .replace("to_level: AUTONOMY_LEVEL_MERGE", &format!("to_level: {to}"))
}

#[test]
fn a_proposal_up_the_ladder_is_valid() {
    assert_eq!(findings(EXAMPLE), vec![]);
    let found = findings(&with_levels(
        "AUTONOMY_LEVEL_OBSERVE",
        "AUTONOMY_LEVEL_OPERATE",
    ));
    assert_eq!(found, vec![]);
}

#[test]
fn a_proposal_to_the_same_or_a_lower_level_fails() {
    assert_eq!(
        findings(&with_levels("AUTONOMY_LEVEL_MERGE", "AUTONOMY_LEVEL_PR")),
        vec![(
            "events/level-order",
            "a PromotionProposed to_level is above its from_level: AUTONOMY_LEVEL_PR is not above AUTONOMY_LEVEL_MERGE"
                .to_owned()
        )]
    );
    let same: Vec<&str> = findings(&with_levels("AUTONOMY_LEVEL_PR", "AUTONOMY_LEVEL_PR"))
        .into_iter()
        .map(|(rule, _)| rule)
        .collect();
    assert_eq!(same, vec!["events/level-order"]);
}

#[test]
fn levels_come_from_the_ladder() {
    let found: Vec<&str> = findings(&with_levels("PR", "AUTONOMY_LEVEL_MERGE"))
        .into_iter()
        .map(|(rule, _)| rule)
        .collect();
    assert_eq!(found, vec!["schema/enum"]);
}

#[test]
fn findings_come_in_document_order() {
    let text =
        with_levels("AUTONOMY_LEVEL_MERGE", "AUTONOMY_LEVEL_PR").replace("sha256:d379", "d379");
    let found: Vec<&str> = findings(&text).into_iter().map(|(rule, _)| rule).collect();
    assert_eq!(found, vec!["events/level-order", "events/digest"]);
}
