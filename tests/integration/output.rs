//! What people read: `--format concise`, the summary line, `--quiet`, and
//! what numi says when the paths find nothing to check. Whole runs, as
//! snapshots; the summary's time is replaced (see `common::without_times`).

#![allow(clippy::expect_used)]

use crate::common;

use std::path::Path;
use std::process::Command;

use crate::common::{Run, fixtures, numi, without_times};

const FIXTURES: &[&str] = &["--files", "formats", "missing.yaml"];

fn validate(cwd: &Path, args: &[&str]) -> Run {
    numi(cwd, &[&["validate"], args].concat())
}

#[test]
fn concise_is_one_line_per_diagnostic_then_the_summary() {
    let run = validate(&fixtures(), &[&["--format", "concise"], FIXTURES].concat());
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("concise", run.transcript());
}

#[test]
fn text_keeps_its_standard_output_and_writes_the_summary_on_standard_error() {
    let plain = validate(&fixtures(), FIXTURES);
    let without = validate(&fixtures(), &[&["--summary", "never"], FIXTURES].concat());
    assert_eq!(plain.stdout, without.stdout);
    let last = plain.stderr.lines().last().unwrap_or_default();
    assert!(common::is_summary_line(last), "{}", plain.stderr);
    assert!(!without.stderr.contains("documents:"), "{}", without.stderr);
    insta::assert_snapshot!("text_with_summary", plain.transcript());
}

#[test]
fn the_summary_can_be_turned_off() {
    let run = validate(
        &fixtures(),
        &[&["--format", "concise", "--summary", "never"], FIXTURES].concat(),
    );
    assert!(!run.stdout.contains("documents:"), "{}", run.stdout);
    assert!(run.stdout.contains("error[read/io]"));
}

#[test]
fn quiet_leaves_out_the_documents_with_nothing_to_report() {
    for format in ["text", "pretty", "concise"] {
        let run = validate(
            &fixtures(),
            &[
                &[
                    "--quiet",
                    "--summary",
                    "always",
                    "--color",
                    "never",
                    "--format",
                    format,
                ],
                FIXTURES,
            ]
            .concat(),
        );
        assert!(
            !run.stdout.contains("\"ok.yaml\""),
            "{format}: {}",
            run.stdout
        );
        assert!(
            run.stdout.contains("broken.yaml"),
            "{format}: {}",
            run.stdout
        );
        let summary = format!("{}{}", run.stdout, run.stderr);
        assert!(
            summary.contains(" 1 ok, "),
            "{format}: the summary still counts it"
        );
    }
    let run = validate(&fixtures(), &[&["--quiet"], FIXTURES].concat());
    insta::assert_snapshot!("quiet_text", run.transcript());
}

/// Each way the paths can miss, in text (hint on standard error) and in
/// concise (hint as the read error's note).
#[test]
fn every_path_case_says_what_to_do() {
    let temp = tempfile::tempdir().expect("tempdir");
    let root = temp.path();
    std::fs::create_dir_all(root.join("docs")).expect("mkdir");
    std::fs::write(root.join("docs/playbook.yaml"), "kind: Playbook\n").expect("write");
    std::fs::create_dir_all(root.join("empty")).expect("mkdir");
    std::fs::create_dir_all(root.join("jsononly/.numinance/policy")).expect("mkdir");
    for name in ["a.json", "policy/b.json"] {
        std::fs::write(root.join("jsononly/.numinance").join(name), "{}").expect("write");
    }
    let cases: &[(&str, &[&str])] = &[
        ("a missing DIR", &["nope-dir"]),
        ("a folder of documents", &["docs"]),
        ("an empty folder", &["empty"]),
        ("a file", &["docs/playbook.yaml"]),
        ("a tree of JSON files", &["jsononly"]),
        (
            "a folder of JSON files with --files",
            &["--files", "jsononly/.numinance"],
        ),
    ];
    let mut transcript = String::new();
    for (case, args) in cases {
        for format in ["text", "concise"] {
            let run = validate(
                root,
                &[&["--format", format, "--summary", "never"], *args].concat(),
            );
            transcript.push_str(&format!(
                "=== {case}: numi validate --format {format} {}\n{}\n",
                args.join(" "),
                run.transcript()
            ));
        }
    }
    insta::assert_snapshot!("path_cases", transcript);
}

#[test]
fn numi_threads_that_is_not_a_number_is_refused() {
    let output = Command::new(env!("CARGO_BIN_EXE_numi"))
        .args(["validate", "--files", "formats/ok.yaml"])
        .current_dir(fixtures())
        .env("NUMI_THREADS", "four")
        .output()
        .expect("numi runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        without_times(&String::from_utf8_lossy(&output.stderr)),
        "numi: NUMI_THREADS must be a positive whole number of threads, not \"four\"\n"
    );
}

#[test]
fn pretty_points_at_a_tab_and_shows_it() {
    let temp = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        temp.path().join("tab.yaml"),
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata:\n  name: x\n  scope: SCOPE_ORG\n\tspec: 1\n",
    )
    .expect("write");
    let run = validate(
        temp.path(),
        &[
            "--files", "tab.yaml", "--format", "pretty", "--color", "never",
        ],
    );
    insta::assert_snapshot!("pretty_tab", run.transcript());
}

/// The notes that say what and where: the nearest enum value, a YAML 1.1
/// boolean, why a digest is malformed, how many cases an EvalSet has.
#[test]
fn messages_say_what_and_where() {
    let temp = tempfile::tempdir().expect("tempdir");
    let hex = "0".repeat(64);
    let files = [
        (
            "playbook.yaml",
            "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: x, scope: SCOPE_REPOSITORY}\nspec:\n  max_repair_attempts: 2\n  change_type: bugfix\n  qualification: {min_runs: 20, zero_security_escapes: yes, max_rework_rate: 1, max_regression_rate: 0, max_rollback_rate: 0}\n".to_owned(),
        ),
        (
            "evalset.yaml",
            format!(
                "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {{name: e}}\nspec:\n  version: 1.0.0\n  cases:\n    - {{name: b, outcome: {{value: \"sha256:{}\"}}, expect: {{acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}}}}\n    - {{name: a, outcome: {{value: \"sha256:{}\"}}, expect: {{acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}}}}\n",
                hex.to_uppercase().replace('0', "A"),
                &hex[1..]
            ),
        ),
        (
            "empty-evalset.yaml",
            "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {name: e}\nspec:\n  version: 1.0.0\n  cases: []\n".to_owned(),
        ),
    ];
    for (name, text) in &files {
        std::fs::write(temp.path().join(name), text).expect("write");
    }
    let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    let run = validate(
        temp.path(),
        &[
            &["--format", "concise", "--summary", "never", "--files"],
            &names[..],
        ]
        .concat(),
    );
    insta::assert_snapshot!("messages", run.transcript());
}
