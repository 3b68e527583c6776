use serde_json::json;

use super::*;
#[test]
fn the_source_shown_cannot_drive_the_terminal() {
    assert_eq!(printable("a\r\nb\rc\td"), "a\nb\nc→d");
    assert_eq!(printable("x\u{1b}[2J\u{7}"), "x\u{fffd}[2J\u{fffd}");
    assert_eq!(printable("a\u{202e}b"), "a\u{fffd}b");
    // One character for one: columns still count true.
    let hostile = "k: \u{1b}\u{202e}é";
    assert_eq!(printable(hostile).chars().count(), hostile.chars().count());
}

#[test]
fn the_schema_at_a_pointer_follows_refs_properties_and_items() {
    let schema = json!({
        "properties": {
            "spec": {"properties": {"cases": {"items": {"$ref": "#/$defs/Case"}}}},
            "tools": {"additionalProperties": {"$ref": "#/$defs/Case"}}
        },
        "$defs": {"Case": {"properties": {"acceptance": {"enum": ["A", "B"]}}}}
    });
    let acceptance = schema_at(&schema, &schema, "/spec/cases/3/acceptance");
    assert_eq!(acceptance, Some(&json!({"enum": ["A", "B"]})));
    let case = schema_at(&schema, &schema, "/tools/any~1name").map(property_names);
    assert_eq!(case, Some(vec!["acceptance"]));
    assert_eq!(schema_at(&schema, &schema, "/nope"), None);
    let cyclic = json!({"$ref": "#"});
    assert_eq!(schema_at(&cyclic, &cyclic, ""), None);
}

fn diagnostic(rule: &'static str, pointer: &str) -> Diagnostic {
    let stage = if rule.starts_with("schema/") {
        Stage::Schema
    } else {
        Stage::Rule
    };
    Diagnostic::new(
        stage,
        crate::rules::find(rule).expect("a declared rule"),
        "message",
    )
    .at_pointer(pointer)
}

#[test]
fn help_suggests_the_nearest_allowed_value_or_property() {
    let schema: Value =
        serde_json::from_str(include_str!("../../../schemas/EvalSet.schema.json")).unwrap();
    let enum_at = diagnostic("schema/enum", "/spec/cases/0/expect/acceptance");
    let help_of = |d: &Diagnostic, token| help(d, token, Some(&schema));
    assert!(
        help_of(&enum_at, Some("EVAL_ACCEPTANCE_ACCEPTD"))
            .starts_with("did you mean `EVAL_ACCEPTANCE_ACCEPTED`?\n")
    );
    assert!(help_of(&enum_at, Some("nothing-like-it")).starts_with(
        "use one of `EVAL_ACCEPTANCE_ACCEPTED`, `EVAL_ACCEPTANCE_REJECTED`, `EVAL_ACCEPTANCE_ABANDONED`\n"
    ));
    let category = diagnostic("schema/enum", "/spec/cases/0/category");
    assert!(help_of(&category, Some("x")).contains(" and 3 more\n"));
    let unexpected = diagnostic(
        "schema/additionalProperties",
        "/spec/cases/0/expect/severity",
    );
    assert!(help_of(&unexpected, None).starts_with("did you mean `severe`?\n"));
    let far = diagnostic("schema/additionalProperties", "/spec/colour");
    assert!(help_of(&far, None).starts_with("remove it; this mapping takes `version`, `cases`\n"));
    let missing = diagnostic("schema/required", "/spec/cases/0/outcome");
    assert!(help_of(&missing, None).starts_with("add `outcome`\n"));
    let rule = diagnostic("evalset/cases-sorted", "/spec/cases/1");
    assert_eq!(
        help_of(&rule, None),
        "Move the case to its place, or rename or remove the duplicate.\n\
         `numi explain evalset/cases-sorted` shows a failing and a passing example"
    );
    let read = Diagnostic::new(
        Stage::Read,
        &crate::diagnostic::stages::errors::IO,
        "permission denied",
    );
    assert!(help(&read, None, None).ends_with("\n`numi explain read/io` tells more"));
    let kind = Diagnostic::new(
        Stage::Kind,
        &crate::diagnostic::stages::kind::UNKNOWN,
        "unknown kind",
    )
    .with_note("did you mean `EvalSet`?");
    // The suggestion is the finding's: the renderer shows it, never computes it.
    assert!(noted_help(&kind, Some("evalset"), None).starts_with("did you mean `EvalSet`?\n"));
}

#[test]
fn the_help_says_how_to_fix_never_the_passing_state() {
    let two = "Why the rule exists.\n\nFix the text at the\nposition shown.";
    assert_eq!(
        how_to_fix(two).as_deref(),
        Some("Fix the text at the position shown.")
    );
    let one = "A ref leaks. Remove the query string.";
    assert_eq!(how_to_fix(one).as_deref(), Some("Remove the query string."));
    assert_eq!(how_to_fix(""), None);
    for doc in crate::rules::all() {
        if let Some(fix) = how_to_fix(doc.explanation) {
            assert_ne!(fix, doc.summary, "{}", doc.id);
        }
    }
}
