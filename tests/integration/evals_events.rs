//! The evals event payloads of spec 002 through the binary: the shipped
//! examples validate, each is refused in the configuration tree as a
//! produced kind, and a field the spec does not name warns, failing only
//! under `--strict`.

// Test helpers may fail loudly: clippy allows this inside #[test] functions
// but not in the helpers beside them.
#![allow(clippy::expect_used)]

use std::path::Path;

use crate::common::numi;

const PAYLOADS: [(&str, &str); 5] = [
    ("outcome-recorded.yaml", "OutcomeRecorded"),
    ("qualification-updated.yaml", "QualificationUpdated"),
    ("promotion-proposed.yaml", "PromotionProposed"),
    ("promotion-decided.yaml", "PromotionDecided"),
    ("outcome-corrected.yaml", "OutcomeCorrected"),
];

fn example(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(file);
    std::fs::read_to_string(path).expect("example")
}

#[test]
fn each_example_payload_validates_even_under_strict() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for (file, kind) in PAYLOADS {
        for args in [
            vec!["validate", "--files", file],
            vec!["validate", "--strict", "--files", file],
        ] {
            let run = numi(&root, &args);
            assert_eq!(
                (
                    run.code,
                    run.stdout.as_str(),
                    run.stderr_without_summary().as_str()
                ),
                (
                    0,
                    format!("revision: \"files\"\nok       file \"{file}\" {kind}\n").as_str(),
                    ""
                ),
                "{args:?}"
            );
        }
    }
}

#[test]
fn each_payload_is_refused_in_the_configuration_tree_as_produced() {
    let temp = tempfile::tempdir().expect("tempdir");
    let policy = temp.path().join(".numinance/policy");
    std::fs::create_dir_all(&policy).expect("mkdir");
    for (file, _) in PAYLOADS {
        std::fs::write(policy.join(file), example(file)).expect("write");
    }
    let run = numi(temp.path(), &["validate", "--enable-alpha", "."]);
    insta::assert_snapshot!(run.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "worktree"
    invalid  repo ".numinance/policy/outcome-corrected.yaml": kind: produced kind: OutcomeCorrected is not configuration
    invalid  repo ".numinance/policy/outcome-recorded.yaml": kind: produced kind: OutcomeRecorded is not configuration
    invalid  repo ".numinance/policy/promotion-decided.yaml": kind: produced kind: PromotionDecided is not configuration
    invalid  repo ".numinance/policy/promotion-proposed.yaml": kind: produced kind: PromotionProposed is not configuration
    invalid  repo ".numinance/policy/qualification-updated.yaml": kind: produced kind: QualificationUpdated is not configuration
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    5 documents: 0 ok, 5 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn an_unnamed_field_warns_at_its_key_and_fails_under_strict() {
    let temp = tempfile::tempdir().expect("tempdir");
    let text = example("promotion-decided.yaml")
        .replace("  verdict:", "  approver_note: looks good\n  verdict:");
    std::fs::write(temp.path().join("doc.yaml"), text).expect("write");
    let default = numi(temp.path(), &["validate", "--files", "doc.yaml"]);
    insta::assert_snapshot!(default.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "files"
    ok       file "doc.yaml" PromotionDecided
    --- stderr
    warning: file "doc.yaml" at line 5 column 3: events/unnamed-field: PromotionDecided payloads hold only the fields spec 002 names: "/spec/approver_note" is not one of them
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 1 ok, 0 invalid, 0 error; 1 warning, 0 suppressed (in [time])
    "#);
    let strict = numi(
        temp.path(),
        &["validate", "--strict", "--files", "doc.yaml"],
    );
    insta::assert_snapshot!(strict.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    invalid  file "doc.yaml": kind: invalid: PromotionDecided payloads hold only the fields spec 002 names: "/spec/approver_note" is not one of them
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 0 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn a_rule_failure_is_the_text_line() {
    let temp = tempfile::tempdir().expect("tempdir");
    let text = example("qualification-updated.yaml")
        .replace(
            "rework_rate_basis_points: 417",
            "rework_rate_basis_points: 0",
        )
        .replace(
            "upper_bound_basis_points: 1894",
            "upper_bound_basis_points: 1000",
        );
    std::fs::write(temp.path().join("q.yaml"), text).expect("write");
    let run = numi(temp.path(), &["validate", "--files", "q.yaml"]);
    insta::assert_snapshot!(run.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    invalid  file "q.yaml": kind: invalid: a QualificationUpdated upper_bound_basis_points is never below the rule-of-three bound min(10000, ceil(30000 / runs)) when no failure was counted: 24 runs bound it at 1250, not 1000
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 0 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn each_payload_schema_is_printed_and_marked_inferred() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let list = numi(root, &["schema", "--list"]);
    for (_, kind) in PAYLOADS {
        let run = numi(root, &["schema", kind]);
        assert_eq!(run.code, 0, "{kind}");
        let shipped = std::fs::read_to_string(root.join(format!("schemas/{kind}.schema.json")))
            .expect("schema");
        assert_eq!(run.stdout.trim_end(), shipped.trim_end(), "{kind}");
        let row = list
            .stdout
            .lines()
            .find(|line| line.split_whitespace().next() == Some(kind))
            .unwrap_or_default();
        assert_eq!(
            row.split_whitespace().collect::<Vec<_>>(),
            vec![kind, "numinance.dev/v1", "produced", "inferred"]
        );
    }
}

#[test]
fn many_unnamed_fields_are_each_reported_in_document_order() {
    let temp = tempfile::tempdir().expect("tempdir");
    let mut text = example("outcome-corrected.yaml");
    for i in 0..20_000 {
        text.push_str(&format!("  extra{i}: 1\n"));
    }
    std::fs::write(temp.path().join("many.yaml"), text).expect("write");
    let run = numi(temp.path(), &["validate", "--files", "many.yaml"]);
    assert_eq!(run.code, 0);
    let stderr = run.stderr_without_summary();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 20_000);
    assert!(
        lines.last().is_some_and(
            |line| line.starts_with("warning: file \"many.yaml\" at line 20005 column 3:")
        ),
        "{:?}",
        lines.last()
    );
}
