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
fn help_shows_the_note_the_finding_carries() {
    let enum_at = diagnostic("schema/enum", "/spec/cases/0/expect/acceptance")
        .with_note("did you mean `EVAL_ACCEPTANCE_ACCEPTED`?");
    // The note is the fix: the rule's general advice gives way to it.
    assert_eq!(
        help(&enum_at),
        "did you mean `EVAL_ACCEPTANCE_ACCEPTED`?\n\
         `numi explain schema/enum` shows a failing and a passing example"
    );
    let missing = diagnostic("schema/required", "/spec/cases/0/outcome").with_note("add `outcome`");
    assert!(help(&missing).starts_with("add `outcome`\n`numi explain"));
    let unexpected = diagnostic("schema/additionalProperties", "/spec/colour");
    let advice = how_to_fix(unexpected.rule.explanation).unwrap();
    assert!(help(&unexpected).starts_with(&format!("{advice}\n")));
    let rule = diagnostic("evalset/cases-sorted", "/spec/cases/1");
    assert_eq!(
        help(&rule),
        "Move the case to its place, or rename or remove the duplicate.\n\
         `numi explain evalset/cases-sorted` shows a failing and a passing example"
    );
    let noted = rule.with_note("case \"b\" should follow case \"c\"");
    assert!(
        help(&noted).starts_with("case \"b\" should follow case \"c\"\nMove the case to its place")
    );
    let read = Diagnostic::new(
        Stage::Read,
        &crate::diagnostic::stages::errors::IO,
        "permission denied",
    );
    assert!(help(&read).ends_with("\n`numi explain read/io` tells more"));
    let kind = Diagnostic::new(
        Stage::Kind,
        &crate::diagnostic::stages::kind::UNKNOWN,
        "unknown kind",
    )
    .with_note("did you mean `EvalSet`?");
    assert!(help(&kind).starts_with("did you mean `EvalSet`?\n"));
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
