//! Every verified run of the spec texts (000 and 002), reproduced byte for
//! byte: the same command in a folder laid out as the spec describes, the
//! same output line, the same exit status.

use crate::common::{fixtures, is_summary_line, numi};

struct VerifiedRun {
    /// Folder under tests/fixtures/verified the command runs in.
    folder: &'static str,
    args: &'static [&'static str],
    /// The spec's output line (000 shows the document line alone; with it
    /// numi prints the revision line first, as 002 shows).
    line: &'static str,
    code: i32,
}

const RUNS: &[VerifiedRun] = &[
    // 000: EvalSet with apiVersion numinance.dev/v1
    VerifiedRun {
        folder: "evalset-api-version",
        args: &["validate", "--files", "bad/doc.yaml"],
        line: r#"invalid  file "doc.yaml": kind: invalid: apiVersion is not numinance.dev/v1alpha1"#,
        code: 3,
    },
    // 000: EvalSet first case renamed so cases are not sorted
    VerifiedRun {
        folder: "evalset-first-case-renamed",
        args: &["validate", "--files", "bad/doc.yaml"],
        line: r#"invalid  file "doc.yaml": kind: invalid: EvalSet cases are sorted by name without duplicates"#,
        code: 3,
    },
    // 000: seeded case with its category removed
    VerifiedRun {
        folder: "evalset-seeded-without-category",
        args: &["validate", "--files", "bad/doc.yaml"],
        line: r#"invalid  file "doc.yaml": kind: invalid: an EvalSet case that plants a defect names a category"#,
        code: 3,
    },
    // 000: ContextBundle with a metadata block added
    VerifiedRun {
        folder: "bundle-with-metadata",
        args: &["validate", "--files", "bad/doc.yaml"],
        line: r#"invalid  file "doc.yaml": kind: does not match the kind schema: schema: value does not match (violations: 1): \"/metadata\": additionalProperties"#,
        code: 3,
    },
    // 000: a source with trust: TRUST_CLASS_SIGNED_POLICY
    VerifiedRun {
        folder: "bundle-source-signed-policy",
        args: &["validate", "--files", "bad/doc.yaml"],
        line: r#"invalid  file "doc.yaml": kind: invalid: a value of numinance.kinds.v1.BundleSource.trust fails its check"#,
        code: 3,
    },
    // 000: ContextBundle copied to .numinance/policy/ in a repository
    VerifiedRun {
        folder: "repo-with-bundle",
        args: &["validate", "."],
        line: r#"invalid  repo ".numinance/policy/implement-stage.yaml": kind: produced kind: ContextBundle is not configuration"#,
        code: 3,
    },
    // 000: EvalSet copied to .numinance/policy/ in a repository
    VerifiedRun {
        folder: "repo-with-evalset",
        args: &["validate", "."],
        line: r#"invalid  repo ".numinance/policy/core-replay.yaml": kind: alpha kind is not enabled: EvalSet"#,
        code: 3,
    },
    // 002: a copy of the playbook with max_rework_rate: 20000
    VerifiedRun {
        folder: "playbook-rate-20000",
        args: &["validate", "--files", "pb.yaml"],
        line: r#"ok       file "pb.yaml" Playbook "bugfix-bounded""#,
        code: 0,
    },
    // 002: numi validate --files schemas/examples/EvalSet
    VerifiedRun {
        folder: "evalset-example",
        args: &["validate", "--files", "schemas/examples/EvalSet"],
        line: r#"ok       file "core-replay.yaml" EvalSet "core-replay""#,
        code: 0,
    },
    // 002: an EvalSet whose cases are out of order
    VerifiedRun {
        folder: "evalset-cases-out-of-order",
        args: &["validate", "--files", "ev.yaml"],
        line: r#"invalid  file "ev.yaml": kind: invalid: EvalSet cases are sorted by name without duplicates"#,
        code: 3,
    },
];

#[test]
fn every_verified_run_reproduces_byte_for_byte() {
    let mut failures = Vec::new();
    for run in RUNS {
        let cwd = fixtures().join("verified").join(run.folder);
        let result = numi(&cwd, run.args);
        let revision = if run.args.contains(&"--files") {
            "files"
        } else {
            "worktree"
        };
        let expected = format!("revision: \"{revision}\"\n{}\n", run.line);
        // Warnings (numi's producer-side checks) and the summary line may
        // follow on standard error; standard output and the exit status are
        // the reference's.
        let mut stderr: Vec<&str> = result.stderr.lines().collect();
        let summary = stderr.pop().filter(|line| is_summary_line(line));
        let only_warnings = stderr
            .iter()
            .all(|l| l.starts_with("warning: ") || l.starts_with("numi: hint: "));
        if result.stdout != expected
            || result.code != run.code
            || summary.is_none()
            || !only_warnings
        {
            failures.push(format!(
                "{} ({:?}):\nexpected exit {} and\n{expected}got exit {} and\n{}stderr: {}",
                run.folder, run.args, run.code, result.code, result.stdout, result.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_spec_examples_validate() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let result = numi(root, &["validate", "--files", "examples"]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "files"
    ok       file "autonomy-policy-org-default.yaml" AutonomyPolicy "org-default"
    ok       file "core-replay.yaml" EvalSet "core-replay"
    ok       file "implement-stage.yaml" ContextBundle
    ok       file "outcome-corrected.yaml" OutcomeCorrected
    ok       file "outcome-recorded.yaml" OutcomeRecorded
    ok       file "playbook-bugfix-bounded.yaml" Playbook "bugfix-bounded"
    ok       file "promotion-decided.yaml" PromotionDecided
    ok       file "promotion-proposed.yaml" PromotionProposed
    ok       file "qualification-updated.yaml" QualificationUpdated
    --- stderr
    9 documents: 9 ok, 0 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn summary_lines_are_told_from_other_lines() {
    assert!(is_summary_line(
        "1 document: 0 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in 0.00s)"
    ));
    assert!(is_summary_line(
        "12 documents: 3 ok, 8 invalid, 1 error; 1 warning, 2 suppressed (in [time])"
    ));
    assert!(!is_summary_line("warning: a producer finding"));
    assert!(!is_summary_line(
        "1 document: 0 ok, 1 invalid, 0 error; 0 warnings (in 0.00s)"
    ));
}
