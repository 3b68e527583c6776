//! The configuration file and inline suppression, through the binary: each
//! setting on both sides, its refusals, and where it is found.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

use std::fs;
use std::path::Path;

use crate::common::numi;

const PLAYBOOK_WITHOUT_RUNS: &str =
    include_str!("../../src/kinds/playbook/examples/min-runs.failing.yaml");
const UNSORTED_EVALSET: &str =
    include_str!("../../src/kinds/evalset/examples/cases-sorted.failing.yaml");
const EVALSET: &str = include_str!("../../examples/core-replay.yaml");

/// A repository with a `.git` folder, the given `numi.toml` (if any) and
/// documents under `.numinance/`.
fn repository(config: Option<&str>, documents: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir(dir.path().join(".git")).expect("mkdir");
    if let Some(config) = config {
        fs::write(dir.path().join("numi.toml"), config).expect("write");
    }
    for (path, text) in documents {
        let path = dir.path().join(".numinance").join(path);
        fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        fs::write(path, text).expect("write");
    }
    dir
}

#[test]
fn enable_alpha_in_the_file_reads_alpha_kinds_in_the_tree() {
    let without = repository(None, &[("evals/core.yaml", EVALSET)]);
    let run = numi(without.path(), &["validate"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    assert!(run.stdout.contains("alpha kind is not enabled: EvalSet"));

    let with = repository(
        Some("enable-alpha = true\n"),
        &[("evals/core.yaml", EVALSET)],
    );
    let run = numi(with.path(), &["validate"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("ok       repo \".numinance/evals/core.yaml\" EvalSet")
    );
    // --no-config reads no file.
    let run = numi(with.path(), &["validate", "--no-config"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
}

#[test]
fn strict_in_the_file_fails_producer_side_findings() {
    let documents = [("policy/playbook.yaml", PLAYBOOK_WITHOUT_RUNS)];
    let default = repository(None, &documents);
    let run = numi(default.path(), &["validate"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr.contains("playbook/min-runs"),
        "{}",
        run.transcript()
    );

    let strict = repository(Some("strict = true\n"), &documents);
    let run = numi(strict.path(), &["validate"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
}

#[test]
fn a_rule_can_be_turned_off_made_an_error_or_overridden_by_path() {
    let legacy = PLAYBOOK_WITHOUT_RUNS.replace("bugfix-bounded", "old");
    let documents = [
        ("policy/playbook.yaml", PLAYBOOK_WITHOUT_RUNS),
        ("legacy/playbook.yaml", legacy.as_str()),
    ];
    let config = "[rules]\n\"playbook/min-runs\" = \"error\"\n\n[[overrides]]\npaths = [\".numinance/legacy/**\"]\nrules = { \"playbook/min-runs\" = \"off\" }\n";
    let dir = repository(Some(config), &documents);
    let run = numi(dir.path(), &["validate"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("ok       repo \".numinance/legacy/playbook.yaml\" Playbook \"old\""),
        "{}",
        run.transcript()
    );
    assert!(
        run.stdout
            .contains("invalid  repo \".numinance/policy/playbook.yaml\": kind: invalid:"),
        "{}",
        run.transcript()
    );
    assert_eq!(
        run.stderr_without_summary(),
        "",
        "the rule is off in legacy/ and an error elsewhere"
    );
}

#[test]
fn a_configured_level_beats_strict() {
    let config = "strict = true\n[rules]\n\"playbook/min-runs\" = \"warning\"\n";
    let dir = repository(
        Some(config),
        &[("policy/playbook.yaml", PLAYBOOK_WITHOUT_RUNS)],
    );
    let run = numi(dir.path(), &["validate"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stderr.contains("playbook/min-runs"));
}

#[test]
fn unknown_keys_and_rule_ids_are_refused_as_usage_errors() {
    let typo = repository(Some("enable_alpha = true\n"), &[]);
    let run = numi(typo.path(), &["validate"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("unknown key \"enable_alpha\" (did you mean \"enable-alpha\"?)"),
        "{}",
        run.transcript()
    );

    let rule = repository(Some("[rules]\n\"evalset/case-sorted\" = \"off\"\n"), &[]);
    let run = numi(rule.path(), &["validate"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            "unknown rule id \"evalset/case-sorted\" (did you mean \"evalset/cases-sorted\"?)"
        ),
        "{}",
        run.transcript()
    );

    let stage = repository(Some("[rules]\n\"schema/type\" = \"off\"\n"), &[]);
    let run = numi(stage.path(), &["validate"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("is not a rule of the rule stage"),
        "{}",
        run.transcript()
    );
}

#[test]
fn the_file_is_found_from_a_subfolder_and_named_with_config() {
    let dir = repository(
        Some("enable-alpha = true\n"),
        &[("evals/core.yaml", EVALSET)],
    );
    let sub = dir.path().join("docs/deep");
    fs::create_dir_all(&sub).expect("mkdir");
    let run = numi(&sub, &["validate", "../.."]);
    assert_eq!(run.code, 0, "{}", run.transcript());

    // With --files, from the current folder upward.
    let other = tempfile::tempdir().expect("temp dir");
    let config = other.path().join("strict.toml");
    fs::write(&config, "strict = true\n").expect("write");
    fs::write(other.path().join("p.yaml"), PLAYBOOK_WITHOUT_RUNS).expect("write");
    let run = numi(other.path(), &["validate", "--files", "p.yaml"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = numi(
        other.path(),
        &["validate", "--config", "strict.toml", "--files", "p.yaml"],
    );
    assert_eq!(run.code, 3, "{}", run.transcript());
    let run = numi(
        other.path(),
        &["validate", "--config", "missing.toml", "--files", "p.yaml"],
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("missing.toml: no such file or directory")
    );
}

#[test]
fn excluded_paths_leave_the_walk_but_a_named_file_is_read() {
    let dir = repository(
        Some("exclude = [\".numinance/drafts/**\"]\n"),
        &[
            ("drafts/broken.yaml", "kind: [\n"),
            ("policy/playbook.yaml", PLAYBOOK_WITHOUT_RUNS),
        ],
    );
    let run = numi(dir.path(), &["validate"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(!run.stdout.contains("broken"), "{}", run.transcript());
    let run = numi(
        dir.path(),
        &["validate", "--files", ".numinance/drafts/broken.yaml"],
    );
    assert_eq!(run.code, 3, "{}", run.transcript());
    let run = numi(dir.path(), &["validate", "--files", ".numinance"]);
    assert!(!run.stdout.contains("broken"), "{}", run.transcript());
}

fn suppressed_evalset(reason: &str) -> String {
    UNSORTED_EVALSET.replace(
        "    - name: bugfix-clean\n",
        &format!("    # numi: ignore[evalset/cases-sorted]{reason}\n    - name: bugfix-clean\n"),
    )
}

#[test]
fn an_inline_suppression_silences_a_finding_and_is_counted_and_carried() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("replay.yaml");
    fs::write(&file, suppressed_evalset(" historic replay order")).expect("write");
    let run = numi(dir.path(), &["validate", "--files", "replay.yaml"]);
    assert_eq!(run.code, 0, "{}", run.transcript());

    let run = numi(
        dir.path(),
        &["validate", "--format", "json", "--files", "replay.yaml"],
    );
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let suppressed = &report["results"][0]["suppressed"];
    assert_eq!(suppressed[0]["rule"], "evalset/cases-sorted");
    assert_eq!(suppressed[0]["reason"], "historic replay order");
    assert_eq!(report["summary"]["diagnostics"]["suppressed"], 1);

    let run = numi(
        dir.path(),
        &["validate", "--format", "sarif", "--files", "replay.yaml"],
    );
    let log: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "evalset/cases-sorted");
    assert_eq!(result["suppressions"][0]["kind"], "inSource");
    assert_eq!(
        result["suppressions"][0]["justification"],
        "historic replay order"
    );
}

#[test]
fn a_suppressed_finding_of_a_rule_that_does_not_run_is_neither_shown_nor_counted() {
    let playbook = PLAYBOOK_WITHOUT_RUNS.replace(
        "  qualification:",
        "  # numi: ignore[playbook/min-runs] a staging playbook\n  qualification:",
    );
    let json = |config: Option<&str>, flags: &[&str]| {
        let dir = repository(config, &[("policy/playbook.yaml", &playbook)]);
        let mut args = vec!["validate", "--format", "json"];
        args.extend_from_slice(flags);
        let run = numi(dir.path(), &args);
        assert_eq!(run.code, 0, "{config:?} {flags:?}: {}", run.transcript());
        let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
        let result = &report["results"][0];
        assert_eq!(
            result["diagnostics"],
            serde_json::json!([]),
            "{config:?} {flags:?}"
        );
        (
            result["suppressed"].as_array().expect("a list").len(),
            report["summary"]["diagnostics"]["suppressed"].clone(),
        )
    };
    // The rule runs: its finding is silenced, listed and counted, under a
    // level of its own too.
    assert_eq!(json(None, &[]), (1, 1.into()));
    let warning = "[rules]\n\"playbook/min-runs\" = \"warning\"\n";
    assert_eq!(json(Some(warning), &[]), (1, 1.into()));
    // The rule does not run: there is nothing to silence, list or count.
    assert_eq!(
        json(None, &["--ignore", "playbook/min-runs"]),
        (0, 0.into())
    );
    assert_eq!(json(None, &["--select", "evalset"]), (0, 0.into()));
    for config in [
        "ignore = [\"playbook\"]\n",
        "select = [\"playbook/rate-bound\"]\n",
        "[rules]\n\"playbook/min-runs\" = \"off\"\n",
        "[[overrides]]\npaths = [\".numinance/policy/**\"]\nrules = { \"playbook/min-runs\" = \"off\" }\n",
    ] {
        assert_eq!(json(Some(config), &[]), (0, 0.into()), "{config}");
    }
    // The summary of the text format counts as json does.
    let dir = repository(
        Some("ignore = [\"playbook\"]\n"),
        &[("policy/playbook.yaml", &playbook)],
    );
    let run = numi(dir.path(), &["validate"]);
    assert!(
        run.stderr.contains("0 warnings, 0 suppressed"),
        "{}",
        run.stderr
    );
    let run = numi(dir.path(), &["validate", "--no-config"]);
    assert!(
        run.stderr.contains("0 warnings, 1 suppressed"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_suppression_without_a_reason_silences_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(dir.path().join("replay.yaml"), suppressed_evalset("")).expect("write");
    let run = numi(
        dir.path(),
        &["validate", "--format", "json", "--files", "replay.yaml"],
    );
    assert_eq!(run.code, 3, "{}", run.transcript());
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let note = report["results"][0]["diagnostics"][0]["note"]
        .as_str()
        .unwrap_or_default();
    assert!(note.contains("needs a reason"), "{note}");
}

#[test]
fn the_schema_of_the_file_ships() {
    let run = numi(Path::new("."), &["schema", "--config"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let schema: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(schema["title"], "numi.toml");
    assert_eq!(run.stdout, numi::config::SCHEMA);
}

/// The committed schema is written from the types that read the file:
/// `UPDATE_DOCS=1 cargo test --test integration config::` rewrites it.
#[test]
fn the_committed_schema_is_generated_from_the_reader() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/numi.toml.schema.json");
    let generated = numi::config::schema();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        fs::write(&path, &generated).expect("the schema is writable");
    }
    let committed = fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "schemas/numi.toml.schema.json is stale: run UPDATE_DOCS=1 cargo test --test integration config::"
    );
    let schema: serde_json::Value = serde_json::from_str(&generated).expect("JSON");
    assert_eq!(schema["additionalProperties"], false);
    let overrides = &schema["$defs"]["FileOverride"];
    assert_eq!(overrides["additionalProperties"], false, "{schema}");
}

#[test]
fn a_configuration_past_its_limits_is_refused_naming_the_file_and_key() {
    let many: Vec<String> = (0..=numi::config::MAX_PATTERNS)
        .map(|i| format!("\"p{i}/\""))
        .collect();
    let dir = repository(Some(&format!("exclude = [{}]\n", many.join(", "))), &[]);
    let run = numi(dir.path(), &["validate"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("numi.toml: exclude[1000]: more than 1000 patterns"),
        "{}",
        run.transcript()
    );

    let long = "a".repeat(numi::config::MAX_PATTERN_LENGTH + 1);
    let config = format!("[[overrides]]\npaths = [\"x\", \"{long}\"]\n");
    let dir = repository(Some(&config), &[]);
    let run = numi(dir.path(), &["validate"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("numi.toml: overrides[0].paths[1]: a pattern of 1025 bytes"),
        "{}",
        run.transcript()
    );

    let dir = repository(Some("[[overrides]]\npaths = [\"a/{b\"]\n"), &[]);
    let run = numi(dir.path(), &["validate"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("numi.toml: overrides[0].paths[0]: \"a/{b\": unclosed alternate group"),
        "{}",
        run.transcript()
    );

    let dir = repository(Some(&format!("# {}\n", "x".repeat(1024 * 1024))), &[]);
    let run = numi(dir.path(), &["validate"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("numi.toml: the file is larger than 1 MiB"),
        "{}",
        run.transcript()
    );

    // At the limits, the file is read.
    let most: Vec<String> = (0..numi::config::MAX_PATTERNS)
        .map(|i| format!("\"p{i}/\""))
        .collect();
    let dir = repository(
        Some(&format!("exclude = [{}]\n", most.join(", "))),
        &[("policy/playbook.yaml", PLAYBOOK_WITHOUT_RUNS)],
    );
    let run = numi(dir.path(), &["validate"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

/// One pattern, `exclude` in the file or `--exclude` on the command line,
/// leaves out the same files, in repository mode as with `--files`.
#[test]
fn the_file_and_the_flag_exclude_the_same_paths_of_the_configuration_tree() {
    let documents = [
        ("evals/replay.yaml", "kind: [\n"),
        ("policy/replay.yaml", "kind: [\n"),
        ("policy/playbook.yaml", PLAYBOOK_WITHOUT_RUNS),
    ];
    for (in_file, on_the_line, left) in [
        ("evals/", "evals/", "policy/replay.yaml"),
        ("replay.yaml", "replay.yaml", "policy/playbook.yaml"),
        (".numinance/evals", ".numinance/evals", "policy/replay.yaml"),
    ] {
        let configured = repository(Some(&format!("exclude = [\"{in_file}\"]\n")), &documents);
        let by_file = numi(configured.path(), &["validate"]);
        assert!(
            !by_file.stdout.contains("evals/replay.yaml"),
            "{in_file}: {}",
            by_file.transcript()
        );
        assert!(by_file.stdout.contains(left), "{}", by_file.transcript());
        let flagged = repository(None, &documents);
        let by_flag = numi(flagged.path(), &["validate", "--exclude", on_the_line]);
        assert_eq!(by_file.stdout, by_flag.stdout, "{in_file}");
        assert_eq!(by_file.code, by_flag.code, "{in_file}");
    }
    let none = repository(None, &documents);
    let run = numi(none.path(), &["validate"]);
    assert!(
        run.stdout.contains("evals/replay.yaml"),
        "{}",
        run.transcript()
    );
}

#[test]
fn numi_fix_reads_the_same_configuration() {
    let unsorted = UNSORTED_EVALSET;
    let dir = repository(
        Some("enable-alpha = true\nexclude = [\".numinance/drafts/**\"]\n"),
        &[
            ("drafts/replay.yaml", unsorted),
            ("evals/replay.yaml", unsorted),
        ],
    );
    let run = numi(dir.path(), &["fix", "--check"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    let all = run.transcript();
    assert!(all.contains("evals/replay.yaml"), "{all}");
    assert!(!all.contains("drafts/replay.yaml"), "{all}");

    let broken = repository(
        Some("enable_alpha = true\n"),
        &[("evals/replay.yaml", unsorted)],
    );
    let run = numi(broken.path(), &["fix", "--check"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("did you mean \"enable-alpha\""),
        "{}",
        run.transcript()
    );
}

#[test]
fn exclude_in_the_file_leaves_out_what_the_same_pattern_on_the_command_line_does() {
    let documents = [
        ("evals/broken.yaml", "kind: [\n"),
        ("deep/evals/broken.yaml", "kind: [\n"),
        ("evals.yaml", PLAYBOOK_WITHOUT_RUNS),
        ("policy/playbook.yaml", PLAYBOOK_WITHOUT_RUNS),
    ];
    let configured = repository(Some("exclude = [\"evals/\"]\n"), &documents);
    let by_file = numi(configured.path(), &["validate", "--files", "."]);
    let flagged = repository(None, &documents);
    let by_flag = numi(
        flagged.path(),
        &["validate", "--files", ".", "--exclude", "evals/"],
    );
    assert_eq!(by_file.code, 0, "{}", by_file.transcript());
    assert_eq!(by_file.stdout, by_flag.stdout);
    assert!(
        !by_file.stdout.contains("broken"),
        "{}",
        by_file.transcript()
    );
    assert!(
        by_file.stdout.contains("evals.yaml"),
        "{}",
        by_file.transcript()
    );
    let unexcluded = numi(flagged.path(), &["validate", "--files", "."]);
    assert_eq!(unexcluded.code, 3, "{}", unexcluded.transcript());
}
