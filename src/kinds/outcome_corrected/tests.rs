use crate::kinds::events::findings;

const EXAMPLE: &str = include_str!("../../../examples/outcome-corrected.yaml");
const ORIGINAL: &str = "06572a5ca5cb097478b59a799ea8805f775b12295a5bc96729967f4c08cc0fd5";
const CORRECTED: &str = "4c9d7a68c25e017d86f614d1f080b3cc054aebd0456ce4aa244248dadae8f987";

#[test]
fn a_correction_naming_another_record_is_valid() {
    assert_eq!(findings(EXAMPLE), vec![]);
}

#[test]
fn a_correction_naming_the_original_as_its_new_record_fails() {
    let text = EXAMPLE.replace(CORRECTED, ORIGINAL);
    assert_eq!(
        findings(&text),
        vec![(
            "events/self-correction",
            "an OutcomeCorrected names another record than the original: corrected_digest is original_digest"
                .to_owned()
        )]
    );
}

#[test]
fn a_malformed_digest_is_a_digest_finding_first() {
    let text = EXAMPLE.replace(ORIGINAL, "nope");
    let found: Vec<&str> = findings(&text).into_iter().map(|(rule, _)| rule).collect();
    assert_eq!(found, vec!["events/digest"]);
    let both = EXAMPLE.replace(ORIGINAL, "same").replace(CORRECTED, "same");
    let found: Vec<&str> = findings(&both).into_iter().map(|(rule, _)| rule).collect();
    assert_eq!(
        found,
        vec!["events/digest", "events/digest", "events/self-correction"]
    );
}

#[test]
fn both_records_are_required() {
    let text = "apiVersion: numinance.dev/v1\nkind: OutcomeCorrected\nspec: {original_digest: {value: x}}\n";
    assert_eq!(
        findings(text),
        vec![(
            "schema/required",
            "missing required property \"corrected_digest\"".to_owned()
        )]
    );
}
