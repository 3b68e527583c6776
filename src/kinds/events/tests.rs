use serde_json::json;

use super::*;

const RECORDED: &str = include_str!("../../../examples/outcome-recorded.yaml");

fn rules(found: &[(&'static str, String)]) -> Vec<&'static str> {
    found.iter().map(|(rule, _)| *rule).collect()
}

#[test]
fn the_ladder_ranks_levels_lowest_first() {
    assert_eq!(level_rank("AUTONOMY_LEVEL_OBSERVE"), Some(0));
    assert_eq!(level_rank("AUTONOMY_LEVEL_PR"), Some(3));
    assert_eq!(level_rank("AUTONOMY_LEVEL_OPERATE"), Some(7));
    assert_eq!(level_rank("PR"), None);
    assert_eq!(level_rank("AUTONOMY_LEVEL_UNSPECIFIED"), None);
}

#[test]
fn whole_numbers_read_absent_as_zero_and_leave_fractions_alone() {
    let spec = json!({"runs": 24, "float": 24.0, "half": 2.5, "negative": -1, "text": "24"});
    assert_eq!(whole_number(&spec, "runs"), Some(24));
    assert_eq!(whole_number(&spec, "float"), Some(24));
    assert_eq!(whole_number(&spec, "absent"), Some(0));
    assert_eq!(whole_number(&spec, "half"), None);
    assert_eq!(whole_number(&spec, "negative"), None);
    assert_eq!(whole_number(&spec, "text"), None);
}

#[test]
fn a_digest_in_another_form_fails_and_a_wellformed_one_passes() {
    let document = json!({"spec": {
        "change_digest": {"value": "sha256:ABC"},
        "evidence_digest": {"value": format!("sha256:{}", "a".repeat(64))},
    }});
    let found = digest_findings(&document, &["change_digest", "evidence_digest", "absent"]);
    let addresses: Vec<_> = found.iter().map(|d| d.address.clone()).collect();
    assert_eq!(
        addresses,
        vec![Some(address!["spec", "change_digest", "value"])]
    );
    assert_eq!(
        found.first().map(|d| d.message.as_str()),
        Some(
            "`spec.change_digest.value` must be `sha256:` followed by 64 lowercase hex digits; got \"sha256:ABC\""
        )
    );
    assert_eq!(
        found.first().and_then(|d| d.note.as_deref()),
        Some("the hex is written in upper case; write it in lower case")
    );
    assert_eq!(
        found.first().map(Diagnostic::text_message),
        Some("a value of numinance.kinds.v1.Digest.value fails its check")
    );
}

#[test]
fn the_example_payload_names_only_named_fields() {
    assert_eq!(findings(RECORDED), vec![]);
}

#[test]
fn each_unnamed_field_is_one_warning_at_its_pointer() {
    let text = RECORDED
        .replace(
            "kind: OutcomeRecorded\n",
            "kind: OutcomeRecorded\nmetadata: {name: x}\n",
        )
        .replace(
            "  severe: false\n",
            "  sever: false\n  reviewer/id~1: {deep: [1]}\n",
        )
        .replace(
            "change_digest: {value:",
            "change_digest: {algorithm: sha256, value:",
        );
    let checked = crate::validate::validate_bytes(
        text.as_bytes(),
        crate::validate::Mode::Files,
        &crate::yaml::Limits::default(),
    );
    let seen: Vec<(&str, Option<String>, bool)> = checked
        .diagnostics
        .iter()
        .map(|d| {
            let pointer = d.address.as_ref().map(ToString::to_string);
            (d.rule.id, pointer, d.is_error())
        })
        .collect();
    let at = |pointer: &str| Some(pointer.to_owned());
    assert_eq!(
        seen,
        vec![
            ("events/unnamed-field", at("/metadata"), false),
            (
                "events/unnamed-field",
                at("/spec/change_digest/algorithm"),
                false
            ),
            ("events/unnamed-field", at("/spec/sever"), false),
            ("events/unnamed-field", at("/spec/reviewer~1id~01"), false),
        ]
    );
    assert_eq!(
        checked.diagnostics.get(3).and_then(|d| d.address.clone()),
        Some(address!["spec", "reviewer/id~1"])
    );
    assert_eq!(
        checked.diagnostics.get(2).map(|d| d.message.as_str()),
        Some(
            "OutcomeRecorded payloads hold only the fields spec 002 names: \"/spec/sever\" is not one of them"
        )
    );
}

#[test]
fn fields_of_an_unnamed_field_and_of_unwalked_values_are_not_looked_at() {
    let schema = r##"{"properties": {"spec": {"properties": {"list": {"items": {"$ref": "#/$defs/Item"}}, "open": {}}}},
        "$defs": {"Item": {"properties": {"a": {}}}}}"##;
    let fields = NamedFields::new(schema);
    let document =
        json!({"spec": {"list": [{"a": 1}, {"a": 1, "b": 2}], "open": {"x": 1}, "new": {"y": 1}}});
    let addresses: Vec<Option<Address>> = fields
        .unnamed("K", &document)
        .into_iter()
        .map(|d| d.address)
        .collect();
    assert_eq!(
        addresses,
        vec![
            Some(address!["spec", "list", 1, "b"]),
            Some(address!["spec", "new"])
        ]
    );
}

#[test]
fn an_unreadable_schema_names_no_finding() {
    assert!(
        NamedFields::new("{")
            .unnamed("K", &json!({"x": 1}))
            .is_empty()
    );
}

#[test]
fn the_shared_examples_fail_their_rule_only() {
    assert_eq!(rules(&findings(DIGEST.failing)), vec!["events/digest"]);
    assert_eq!(
        rules(&findings(UNNAMED_FIELD.failing)),
        vec!["events/unnamed-field"]
    );
    assert_eq!(findings(DIGEST.passing), vec![]);
    assert_eq!(findings(UNNAMED_FIELD.passing), vec![]);
}
