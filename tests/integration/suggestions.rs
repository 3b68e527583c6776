//! A near miss carries its suggestion in every format: a misspelt kind, an
//! unknown key near an allowed one, a key written outside the one mapping
//! that takes it and an enum value near an allowed one
//! (tests/fixtures/suggestions/), each made where the finding is.

#![allow(
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used
)]

use serde_json::Value;

use crate::common::{fixtures, numi};

/// Each fixture, its rule and the suggestion it must carry.
const NEAR_MISSES: [(&str, &str, &str); 4] = [
    (
        "enum-typo.yaml",
        "schema/enum",
        "did you mean `SCOPE_REPO`?",
    ),
    (
        "unknown-key.yaml",
        "schema/additionalProperties",
        "did you mean `max_repair_attempts`?",
    ),
    (
        "misspelt-kind.yaml",
        "kind/unknown",
        "did you mean `Playbook`?",
    ),
    (
        "misplaced-key.yaml",
        "schema/additionalProperties",
        "did you mean to put it under `/spec/qualification`?",
    ),
];

fn output(format: &str) -> String {
    let run = numi(
        &fixtures(),
        &["validate", "--format", format, "--files", "suggestions"],
    );
    assert_eq!(run.code, 3, "every document is invalid: {}", run.stderr);
    run.stdout
}

/// The line of `output` that names `file`.
fn line_of<'a>(output: &'a str, file: &str) -> &'a str {
    output
        .lines()
        .find(|line| line.contains(file))
        .unwrap_or_else(|| panic!("no line names {file} in\n{output}"))
}

#[test]
fn json_carries_the_suggestion_as_the_note() {
    let report: Value = serde_json::from_str(&output("json")).unwrap();
    for (file, rule, hint) in NEAR_MISSES {
        let result = report["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|result| result["path"].as_str().unwrap().ends_with(file))
            .unwrap_or_else(|| panic!("no result for {file}"));
        let diagnostic = &result["diagnostics"][0];
        assert_eq!(diagnostic["rule"], rule, "{file}");
        assert_eq!(diagnostic["note"], hint, "{file}");
    }
}

#[test]
fn sarif_carries_the_suggestion_in_the_message() {
    let log: Value = serde_json::from_str(&output("sarif")).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    for (file, rule, hint) in NEAR_MISSES {
        let result = results
            .iter()
            .find(|result| {
                result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .ends_with(file)
            })
            .unwrap_or_else(|| panic!("no result for {file}"));
        assert_eq!(result["ruleId"], rule, "{file}");
        let text = result["message"]["text"].as_str().unwrap();
        assert!(text.ends_with(&format!(" ({hint})")), "{file}: {text}");
    }
}

#[test]
fn concise_and_github_carry_the_suggestion_on_the_line() {
    let concise = output("concise");
    let github = output("github");
    for (file, rule, hint) in NEAR_MISSES {
        let line = line_of(&concise, file);
        assert!(line.contains(&format!("[{rule}]")), "{line}");
        assert!(line.ends_with(&format!(" ({hint})")), "{line}");
        let line = line_of(&github, file);
        assert!(line.contains(&format!("title={rule}::")), "{line}");
        assert!(line.ends_with(&format!(" ({hint})")), "{line}");
    }
}

#[test]
fn pretty_and_junit_carry_the_suggestion() {
    let pretty = output("pretty");
    let junit = output("junit");
    for (file, _, hint) in NEAR_MISSES {
        assert!(
            pretty.contains(&format!("help: {hint}")),
            "{file}: {pretty}"
        );
        assert!(junit.contains(hint), "{file}: {junit}");
    }
}

#[test]
fn text_never_shows_the_suggestion() {
    let text = output("text");
    assert!(!text.contains("did you mean"), "{text}");
}

#[test]
fn a_key_with_no_single_home_keeps_the_advice_of_its_mapping() {
    let temp = tempfile::tempdir().unwrap();
    // `name` is taken by the metadata and by every case: no one place.
    let evalset = "apiVersion: numinance.dev/v1alpha1
kind: EvalSet
metadata: {name: core-replay}
spec:
  version: 1.0.0
  name: replay
  cases: []
";
    std::fs::write(temp.path().join("evalset.yaml"), evalset).unwrap();
    // `kind` outside the top level has one home; `colour` has none.
    let playbook = "apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix, kind: Playbook}
spec: {change_type: bugfix, colour: red}
";
    std::fs::write(temp.path().join("playbook.yaml"), playbook).unwrap();
    let run = numi(
        temp.path(),
        &[
            "validate",
            "--format",
            "concise",
            "--summary",
            "never",
            "--files",
            "evalset.yaml",
            "playbook.yaml",
        ],
    );
    insta::assert_snapshot!(run.stdout, @r#"
    evalset.yaml:6:3: error[schema/additionalProperties] unexpected property "name" (remove it; this mapping takes `version`, `cases`)
    playbook.yaml:3:26: error[schema/additionalProperties] unexpected property "kind" (did you mean to put it at the top level of the document?)
    playbook.yaml:4:29: error[schema/additionalProperties] unexpected property "colour" (remove it; this mapping takes `change_type`, `max_repair_attempts`, `qualification`)
    "#);
}
