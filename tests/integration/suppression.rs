//! Inline suppression through the binary: a suppression is a YAML comment,
//! so text inside a scalar never suppresses, whatever its style; and a
//! produced document cannot suppress its own findings, while an authored
//! one can.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

use std::fs;

use crate::common::numi;
use serde_json::Value;

const BUNDLE: &str = include_str!("../../src/kinds/context_bundle/examples/base.yaml");

const IGNORE_UNTRUSTED: &str = "# numi: ignore[bundle/untrusted-text] fine";

/// A ContextBundle whose untrusted questions are `questions`, YAML lines
/// under `spec.unresolved_questions`.
fn bundle(questions: &str) -> String {
    format!("{BUNDLE}  unresolved_questions:\n{questions}")
}

/// `numi validate --strict --format json --files` on `text`: its exit
/// status and its one result.
fn validate(text: &str) -> (i32, Value) {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(dir.path().join("doc.yaml"), text).expect("write");
    let run = numi(
        dir.path(),
        &[
            "validate", "--strict", "--format", "json", "--files", "doc.yaml",
        ],
    );
    let report: Value = serde_json::from_str(&run.stdout).expect("JSON");
    (run.code, report["results"][0].clone())
}

/// The rule ids, lines and notes of a result's diagnostics.
fn diagnostics(result: &Value) -> Vec<(String, u64, Option<String>)> {
    result["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
                d["note"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

/// The six shapes of a would-be suppression that untrusted text carried
/// past `--strict`: in a double-quoted, a single-quoted and a multi-line
/// quoted scalar, in a `|-` and a `>-` block scalar, and as a block
/// scalar's line right above the finding. Each is the scalar's text, so
/// the finding stands, with no note: no comment named it.
#[test]
fn text_inside_a_scalar_never_suppresses_a_finding() {
    let cases = [
        (
            "double-quoted",
            format!("    - question: \"Does the new\\u202e limit apply? {IGNORE_UNTRUSTED}\"\n"),
            14,
        ),
        (
            "single-quoted",
            format!("    - question: 'Does the new\u{202e} limit apply? {IGNORE_UNTRUSTED}'\n"),
            14,
        ),
        (
            "multi-line quoted",
            format!(
                "    - question: \"Does the new\\u202e limit apply? {IGNORE_UNTRUSTED}\n        and when\"\n"
            ),
            14,
        ),
        (
            "literal, stripped",
            format!(
                "    - question: |-\n        Does the new\u{202e} limit apply? {IGNORE_UNTRUSTED}\n"
            ),
            15,
        ),
        (
            "folded, stripped",
            format!(
                "    - question: >-\n        Does the new\u{202e} limit apply? {IGNORE_UNTRUSTED}\n"
            ),
            15,
        ),
        (
            "a block scalar's line above the finding",
            format!(
                "    - question: |-\n        {IGNORE_UNTRUSTED}\n    - question: Does the new\u{202e} limit apply?\n"
            ),
            16,
        ),
    ];
    for (shape, questions, line) in cases {
        let (code, result) = validate(&bundle(&questions));
        assert_eq!(code, 3, "{shape}: {result}");
        assert_eq!(
            diagnostics(&result),
            [("bundle/untrusted-text".to_owned(), line, None)],
            "{shape}"
        );
        assert_eq!(result["suppressed"], serde_json::json!([]), "{shape}");
    }
}

/// A real comment in a produced document names the finding, and the
/// finding stays, saying why and what accepts it instead.
#[test]
fn a_produced_document_cannot_suppress_its_own_findings() {
    for questions in [
        format!("    - question: \"Does the new\\u202e limit apply?\" {IGNORE_UNTRUSTED}\n"),
        format!("    {IGNORE_UNTRUSTED}\n    - question: \"Does the new\\u202e limit apply?\"\n"),
    ] {
        let (code, result) = validate(&bundle(&questions));
        assert_eq!(code, 3, "{result}");
        let found = diagnostics(&result);
        assert_eq!(found.len(), 1, "{result}");
        assert_eq!(found[0].0, "bundle/untrusted-text");
        let note = found[0].2.as_deref().unwrap_or_default();
        assert!(
            note.starts_with("not suppressed: ContextBundle is a produced kind")
                && note.contains("numi.toml"),
            "{note}"
        );
        assert_eq!(result["suppressed"], serde_json::json!([]));
    }
}

/// What accepts a produced document's finding: `numi.toml`, for the file.
#[test]
fn numi_toml_accepts_a_produced_documents_finding() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir(dir.path().join(".git")).expect("mkdir");
    fs::write(
        dir.path().join("numi.toml"),
        "[[overrides]]\npaths = [\"bundles/doc.yaml\"]\nrules = { \"bundle/untrusted-text\" = \"off\" }\n",
    )
    .expect("write");
    fs::create_dir(dir.path().join("bundles")).expect("mkdir");
    let text = bundle("    - question: \"Does the new\\u202e limit apply?\"\n");
    fs::write(dir.path().join("bundles/doc.yaml"), &text).expect("write");
    fs::write(dir.path().join("bundles/other.yaml"), &text).expect("write");
    let run = numi(
        dir.path(),
        &["validate", "--strict", "--files", "bundles/doc.yaml"],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = numi(
        dir.path(),
        &["validate", "--strict", "--files", "bundles/other.yaml"],
    );
    assert_eq!(run.code, 3, "{}", run.transcript());
}

/// A Playbook with `spec` written as `spec`, whose `min_runs: 0` is
/// flagged.
fn playbook(spec: &str) -> String {
    format!(
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata:\n  name: bugfix-bounded\n  scope: SCOPE_REPO\n{spec}"
    )
}

const IGNORE_MIN_RUNS: &str = "# numi: ignore[playbook/min-runs] a staging playbook";

/// An authored document's real comments suppress: at the end of the
/// finding's line, or alone on the line above it, after a quoted or a
/// block scalar that holds a `#` of its own.
#[test]
fn an_authored_documents_real_comment_suppresses() {
    let cases = [
        format!(
            "spec:\n  change_type: bugfix\n  qualification: {{min_runs: 0}} {IGNORE_MIN_RUNS}\n"
        ),
        format!(
            "spec:\n  change_type: \"bugfix # no comment\"\n  {IGNORE_MIN_RUNS}\n  qualification: {{min_runs: 0}}\n"
        ),
        format!(
            "spec:\n  change_type: |-\n    bugfix # no comment\n  {IGNORE_MIN_RUNS}\n  qualification: {{min_runs: 0}}\n"
        ),
        format!(
            "spec: {{change_type: 'bugfix # no comment', qualification: {{min_runs: 0}}}} {IGNORE_MIN_RUNS}\n"
        ),
    ];
    for spec in cases {
        let text = playbook(&spec);
        let (code, result) = validate(&text);
        assert_eq!(code, 0, "{text}\n{result}");
        assert_eq!(diagnostics(&result), [], "{text}");
        assert_eq!(
            result["suppressed"][0]["rule"], "playbook/min-runs",
            "{text}"
        );
        assert_eq!(
            result["suppressed"][0]["reason"], "a staging playbook",
            "{text}"
        );
    }
}

/// The same words inside an authored document's scalars suppress nothing.
#[test]
fn an_authored_documents_scalar_text_does_not_suppress() {
    let cases = [
        format!(
            "spec: {{change_type: 'bugfix {IGNORE_MIN_RUNS}', qualification: {{min_runs: 0}}}}\n"
        ),
        format!(
            "spec: {{change_type: \"bugfix\n  {IGNORE_MIN_RUNS}\", qualification: {{min_runs: 0}}}}\n"
        ),
        format!(
            "spec:\n  change_type: |-\n    bugfix\n    {IGNORE_MIN_RUNS}\n  qualification: {{min_runs: 0}}\n"
        ),
        format!(
            "spec:\n  change_type: >-\n    bugfix\n    {IGNORE_MIN_RUNS}\n  qualification: {{min_runs: 0}}\n"
        ),
    ];
    for spec in cases {
        let text = playbook(&spec);
        let (code, result) = validate(&text);
        assert_eq!(code, 3, "{text}\n{result}");
        let found = diagnostics(&result);
        assert_eq!(found.len(), 1, "{text}\n{result}");
        assert_eq!(found[0].0, "playbook/min-runs", "{text}");
        assert_eq!(found[0].2, None, "{text}");
        assert_eq!(result["suppressed"], serde_json::json!([]), "{text}");
    }
}

/// Lines end with a line feed, a CR and LF, or a lone CR, and a tab may
/// separate a `:` from its value: the finding and its suppression stand on
/// the same line whatever the text is written with, alone on the line above
/// or at the end of the finding's own line.
#[test]
fn a_suppression_holds_whatever_the_line_ends_and_the_separating_tabs() {
    for end in ["\n", "\r\n", "\r"] {
        for colon in [": ", ":\t"] {
            let above = [
                "spec:",
                "  change_type: \"bugfix\"",
                &format!("  {IGNORE_MIN_RUNS}"),
                &format!("  qualification{colon}{{min_runs{colon}0}}"),
                "",
            ]
            .join("\n");
            let same_line = [
                "spec:",
                &format!("  change_type{colon}bugfix"),
                &format!("  qualification{colon}{{min_runs{colon}0}} {IGNORE_MIN_RUNS}"),
                "",
            ]
            .join("\n");
            // The finding's line: after the five lines of `playbook`.
            for (spec, line) in [(above, 9), (same_line, 8)] {
                let text = playbook(&spec).replace('\n', end);
                let (code, result) = validate(&text);
                assert_eq!(code, 0, "{text:?}\n{result}");
                assert_eq!(result["suppressed"][0]["rule"], "playbook/min-runs");
                // Without the comment, the finding stands on its line.
                let bare = text.replace(IGNORE_MIN_RUNS, "");
                let (code, result) = validate(&bare);
                assert_eq!(code, 3, "{bare:?}\n{result}");
                let found = diagnostics(&result);
                assert_eq!(found[0].0, "playbook/min-runs", "{bare:?}");
                assert_eq!(found[0].1, line, "{bare:?}");
            }
        }
    }
}
