//! `--strict` through the binary: every producer-side check is a warning by
//! default (standard output and exit status unchanged, one line on standard
//! error) and makes the document invalid under `--strict`.

// Test helpers may fail loudly: clippy allows this inside #[test] functions
// but not in the helpers beside them.
#![allow(clippy::expect_used)]

use std::path::Path;

use crate::common::{Run, fixtures, numi};

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

/// Runs `numi validate --files doc.yaml` on `text`, without and with `--strict`.
fn both_modes(text: &str) -> (Run, Run) {
    let temp = tempfile::tempdir().expect("tempdir");
    write(temp.path(), "doc.yaml", text);
    (
        numi(temp.path(), &["validate", "--files", "doc.yaml"]),
        numi(
            temp.path(),
            &["validate", "--strict", "--files", "doc.yaml"],
        ),
    )
}

#[test]
fn the_verified_playbook_run_passes_unchanged_and_fails_under_strict() {
    let cwd = fixtures().join("verified/playbook-rate-20000");
    let default = numi(&cwd, &["validate", "--files", "pb.yaml"]);
    assert_eq!(
        default.stdout,
        "revision: \"files\"\nok       file \"pb.yaml\" Playbook \"bugfix-bounded\"\n"
    );
    insta::assert_snapshot!(default.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "files"
    ok       file "pb.yaml" Playbook "bugfix-bounded"
    --- stderr
    warning: file "pb.yaml" at line 7 column 50: playbook/rate-bound: a Playbook qualification rate is at most 10000 basis points: max_rework_rate is 20000
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 1 ok, 0 invalid, 0 error; 1 warning, 0 suppressed (in [time])
    "#);
    let strict = numi(&cwd, &["validate", "--strict", "--files", "pb.yaml"]);
    insta::assert_snapshot!(strict.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    invalid  file "pb.yaml": kind: invalid: a Playbook qualification rate is at most 10000 basis points: max_rework_rate is 20000
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 0 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn the_spec_examples_pass_under_strict() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let result = numi(root, &["validate", "--strict", "--files", "examples"]);
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

/// Each rule's documented examples, through the binary in both modes: the
/// failing one warns by default and is invalid under `--strict`; the passing
/// one is silent in both.
#[test]
fn every_check_warns_by_default_and_fails_under_strict() {
    let producer_side: Vec<&numi::rules::RuleDoc> = numi::rules::all()
        .filter(|rule| rule.severity == numi::Severity::Warning)
        .collect();
    let mut checked = 0;
    for rule in producer_side.iter().copied() {
        // A run manifest's examples need the folder they stand in
        // (`kinds::context_report` tests them there); findings across
        // documents or store files have no one-file example (the
        // autocontext mirror is tested in tests/tools/autocontext.rs).
        if rule.id == "repo/duplicate-name"
            || rule.id.starts_with("contextreport/")
            || rule.failing.is_empty()
        {
            continue;
        }
        let (default, strict) = both_modes(rule.failing);
        assert_eq!(default.code, 0, "{}: {}", rule.id, default.transcript());
        assert!(
            default
                .stdout
                .starts_with("revision: \"files\"\nok       file \"doc.yaml\" "),
            "{}: {}",
            rule.id,
            default.transcript()
        );
        let stderr = default.stderr_without_summary();
        let warnings: Vec<&str> = stderr.lines().collect();
        assert_eq!(warnings.len(), 1, "{}: {}", rule.id, default.transcript());
        let warning = warnings.first().copied().unwrap_or_default();
        assert!(
            warning.starts_with("warning: file \"doc.yaml\" at line ")
                && warning.contains(&format!(": {}: ", rule.id)),
            "{}: {warning}",
            rule.id
        );
        let message = warning
            .split_once(&format!(": {}: ", rule.id))
            .map(|(_, message)| message)
            .unwrap_or_default();

        assert_eq!(strict.code, 3, "{}: {}", rule.id, strict.transcript());
        assert_eq!(
            strict.stdout,
            format!("revision: \"files\"\ninvalid  file \"doc.yaml\": kind: invalid: {message}\n"),
            "{}",
            rule.id
        );
        assert_eq!(strict.stderr_without_summary(), "", "{}", rule.id);

        let (default, strict) = both_modes(rule.passing);
        for run in [&default, &strict] {
            assert_eq!(run.code, 0, "{}: {}", rule.id, run.transcript());
            assert_eq!(run.stderr_without_summary(), "", "{}", rule.id);
        }
        assert_eq!(default.stdout, strict.stdout, "{}", rule.id);
        checked += 1;
    }
    let elsewhere = producer_side
        .iter()
        .filter(|rule| {
            rule.id == "repo/duplicate-name"
                || rule.id.starts_with("contextreport/")
                || rule.failing.is_empty()
        })
        .count();
    assert_eq!(checked, producer_side.len() - elsewhere);
}

const BUNDLE: &str = include_str!("../../examples/implement-stage.yaml");

#[test]
fn warnings_of_one_document_come_in_document_order_and_strict_shows_the_first() {
    let text = BUNDLE
        .replace("context_generation: 1", "context_generation: 0")
        .replace(
            "title: Payments retry policy",
            "title: \"Payments \\u202Eretry policy\"",
        )
        .replace(
            "ref: confluence-eng/ENG/pages/4211, system",
            "ref: \"https://bot:hunter2@wiki.example.com/p?token=1\", system",
        );
    let (default, strict) = both_modes(&text);
    insta::assert_snapshot!(default.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "files"
    ok       file "doc.yaml" ContextBundle
    --- stderr
    warning: file "doc.yaml" at line 7 column 23: bundle/context-generation: a ContextBundle's context_generation is at least 1
    warning: file "doc.yaml" at line 13 column 13: bundle/credential-in-ref: a ref is redacted: "/spec/sources/0/ref" holds URL userinfo (user:pass@)
    warning: file "doc.yaml" at line 13 column 13: bundle/credential-in-ref: a ref is redacted: "/spec/sources/0/ref" holds a secret in a query string
    warning: file "doc.yaml" at line 13 column 94: bundle/untrusted-text: untrusted text holds no bidirectional formatting characters: "/spec/sources/0/title" holds U+202E
    warning: file "doc.yaml" at line 20 column 13: bundle/guidance-ref: a cited_guidance ref names a source of the bundle
    warning: file "doc.yaml" at line 29 column 50: bundle/claim-ref: a conflict claim's ref names a source of the bundle
    warning: file "doc.yaml" at line 29 column 111: bundle/claim-ref: a conflict claim's ref names a source of the bundle
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 1 ok, 0 invalid, 0 error; 7 warnings, 0 suppressed (in [time])
    "#);
    assert!(!default.stderr.contains("hunter2"));
    insta::assert_snapshot!(strict.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    invalid  file "doc.yaml": kind: invalid: a ContextBundle's context_generation is at least 1
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 0 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn a_document_invalid_by_its_rules_keeps_its_line_and_still_warns() {
    let text = BUNDLE
        .replace(
            "trust: TRUST_CLASS_UNTRUSTED_RETRIEVED",
            "trust: TRUST_CLASS_KERNEL",
        )
        .replace("context_generation: 1", "context_generation: 0");
    let (default, strict) = both_modes(&text);
    insta::assert_snapshot!(default.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    invalid  file "doc.yaml": kind: invalid: a value of numinance.kinds.v1.BundleSource.trust fails its check
    --- stderr
    warning: file "doc.yaml" at line 7 column 23: bundle/context-generation: a ContextBundle's context_generation is at least 1
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 0 ok, 1 invalid, 0 error; 1 warning, 0 suppressed (in [time])
    "#);
    insta::assert_snapshot!(strict.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    invalid  file "doc.yaml": kind: invalid: a value of numinance.kinds.v1.BundleSource.trust fails its check
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 0 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn warnings_follow_report_order_across_documents() {
    let temp = tempfile::tempdir().expect("tempdir");
    let playbook = |name: &str, rate: u32| {
        format!(
            "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {{name: {name}}}\nspec:\n  change_type: bugfix\n  qualification: {{min_runs: 1, max_rollback_rate: {rate}}}\n"
        )
    };
    // Written in an order other than the report's.
    write(temp.path(), "c.yaml", &playbook("c", 30000));
    write(temp.path(), "a.yaml", &playbook("a", 10001));
    write(temp.path(), "b.yaml", &playbook("b", 50));
    let result = numi(temp.path(), &["validate", "--files", "."]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "files"
    ok       file "a.yaml" Playbook "a"
    ok       file "b.yaml" Playbook "b"
    ok       file "c.yaml" Playbook "c"
    --- stderr
    warning: file "a.yaml" at line 6 column 51: playbook/rate-bound: a Playbook qualification rate is at most 10000 basis points: max_rollback_rate is 10001
    warning: file "c.yaml" at line 6 column 51: playbook/rate-bound: a Playbook qualification rate is at most 10000 basis points: max_rollback_rate is 30000
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    3 documents: 3 ok, 0 invalid, 0 error; 2 warnings, 0 suppressed (in [time])
    "#);
}

fn repository_with_duplicates() -> tempfile::TempDir {
    let temp = tempfile::tempdir().expect("tempdir");
    let playbook = |change_type: &str| {
        format!(
            "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {{name: bugfix-bounded}}\nspec: {{change_type: {change_type}}}\n"
        )
    };
    let policy = "apiVersion: numinance.dev/v1\nkind: AutonomyPolicy\nmetadata: {name: bugfix-bounded}\nspec: {defaults: {level: AUTONOMY_LEVEL_PR}}\n";
    write(temp.path(), ".numinance/policy/a.yaml", &playbook("bugfix"));
    write(temp.path(), ".numinance/policy/b.yaml", policy);
    write(temp.path(), ".numinance/team/c.yaml", &playbook("hotfix"));
    write(temp.path(), ".numinance/team/d.yml", &playbook("chore"));
    temp
}

#[test]
fn duplicate_names_in_the_configuration_tree_warn_by_default() {
    let temp = repository_with_duplicates();
    let result = numi(temp.path(), &["validate"]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "worktree"
    ok       repo ".numinance/policy/a.yaml" Playbook "bugfix-bounded"
    ok       repo ".numinance/policy/b.yaml" AutonomyPolicy "bugfix-bounded"
    ok       repo ".numinance/team/c.yaml" Playbook "bugfix-bounded"
    ok       repo ".numinance/team/d.yml" Playbook "bugfix-bounded"
    --- stderr
    warning: repo ".numinance/team/c.yaml" at line 3 column 18: repo/duplicate-name: documents of one kind have distinct names: Playbook "bugfix-bounded" is already defined in ".numinance/policy/a.yaml"
    warning: repo ".numinance/team/d.yml" at line 3 column 18: repo/duplicate-name: documents of one kind have distinct names: Playbook "bugfix-bounded" is already defined in ".numinance/policy/a.yaml"
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    4 documents: 4 ok, 0 invalid, 0 error; 2 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn duplicate_names_in_the_configuration_tree_fail_under_strict() {
    let temp = repository_with_duplicates();
    let result = numi(temp.path(), &["validate", "--strict"]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "worktree"
    ok       repo ".numinance/policy/a.yaml" Playbook "bugfix-bounded"
    ok       repo ".numinance/policy/b.yaml" AutonomyPolicy "bugfix-bounded"
    invalid  repo ".numinance/team/c.yaml": kind: invalid: documents of one kind have distinct names: Playbook "bugfix-bounded" is already defined in ".numinance/policy/a.yaml"
    invalid  repo ".numinance/team/d.yml": kind: invalid: documents of one kind have distinct names: Playbook "bugfix-bounded" is already defined in ".numinance/policy/a.yaml"
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    4 documents: 2 ok, 2 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn distinct_names_in_the_configuration_tree_pass_under_strict() {
    let temp = tempfile::tempdir().expect("tempdir");
    for (file, name) in [("a.yaml", "bugfix-bounded"), ("b.yaml", "hotfix-bounded")] {
        write(
            temp.path(),
            &format!(".numinance/{file}"),
            &format!(
                "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {{name: {name}}}\nspec: {{change_type: bugfix}}\n"
            ),
        );
    }
    for args in [&["validate"][..], &["validate", "--strict"][..]] {
        let result = numi(temp.path(), args);
        assert_eq!(result.code, 0, "{}", result.transcript());
        assert_eq!(result.stderr_without_summary(), "");
    }
}

#[test]
fn duplicate_names_are_not_checked_across_files_arguments() {
    let temp = repository_with_duplicates();
    let result = numi(
        temp.path(),
        &[
            "validate",
            "--strict",
            "--files",
            ".numinance/policy/a.yaml",
            ".numinance/team",
        ],
    );
    assert_eq!(result.code, 0, "{}", result.transcript());
    assert_eq!(result.stderr_without_summary(), "");
}

#[test]
fn a_warning_is_one_line_whatever_the_document_holds() {
    let text = BUNDLE
        .replace(
            "confluence-eng: {value",
            "\"team\\n\\u202Eforged\\rline\": {value",
        )
        .replace(
            "title: Payments retry policy",
            "title: \"x\\nwarning: file \\\"forged.yaml\\\"\"",
        );
    let (default, strict) = both_modes(&text);
    insta::assert_snapshot!(default.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "files"
    ok       file "doc.yaml" ContextBundle
    --- stderr
    warning: file "doc.yaml" at line 13 column 75: bundle/untrusted-text: untrusted text is one line: "/spec/sources/0/title" holds a line break (U+000A)
    warning: file "doc.yaml" at line 25 column 33: bundle/untrusted-text: untrusted text is one line: the key "/spec/pinned_toolsets/team\n\u{202e}forged\rline" holds a line break (U+000A)
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 1 ok, 0 invalid, 0 error; 2 warnings, 0 suppressed (in [time])
    "#);
    insta::assert_snapshot!(strict.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    invalid  file "doc.yaml": kind: invalid: untrusted text is one line: "/spec/sources/0/title" holds a line break (U+000A)
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 0 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn a_number_written_as_a_float_is_read_by_value_by_every_playbook_rule() {
    let example = include_str!("../../examples/playbook-bugfix-bounded.yaml");
    for rate in ["20000", "20000.0", "2e4"] {
        let (plain, strict) = both_modes(
            &example.replace("max_rework_rate: 1000", &format!("max_rework_rate: {rate}")),
        );
        assert_eq!(plain.code, 0, "{rate}: {}", plain.transcript());
        assert!(
            plain.stderr.contains("playbook/rate-bound"),
            "{rate}: {}",
            plain.transcript()
        );
        assert_eq!(strict.code, 3, "{rate}: {}", strict.transcript());
    }
    for runs in ["10.0", "1e1"] {
        let (plain, strict) =
            both_modes(&example.replace("min_runs: 20", &format!("min_runs: {runs}")));
        assert_eq!(
            plain.stderr_without_summary(),
            "",
            "{runs}: {}",
            plain.transcript()
        );
        assert_eq!(strict.code, 0, "{runs}: {}", strict.transcript());
    }
}

#[test]
fn a_repository_numi_init_starts_is_strict() {
    let temp = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(temp.path().join(".git")).expect("mkdir");
    let init = numi(temp.path(), &["init"]);
    assert_eq!(init.code, 0, "{}", init.transcript());
    assert!(
        init.stdout
            .contains("created      numi.toml (strict = true"),
        "{}",
        init.stdout
    );
    let example = include_str!("../../examples/playbook-bugfix-bounded.yaml");
    write(
        temp.path(),
        ".numinance/policy/rate.yaml",
        &example
            .replace("bugfix-bounded", "rate")
            .replace("max_rework_rate: 1000", "max_rework_rate: 20000"),
    );
    let run = numi(temp.path(), &["validate"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    // Without the file numi init wrote, the reference's default holds.
    std::fs::remove_file(temp.path().join("numi.toml")).expect("rm");
    let run = numi(temp.path(), &["validate"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}
