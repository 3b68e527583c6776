//! Whole-program behaviour of the command line: both modes, every exit status.

use crate::common::{fixtures, numi};

#[test]
fn enable_alpha_reads_an_evalset_in_the_configuration_tree() {
    let cwd = fixtures().join("verified/repo-with-evalset");
    let result = numi(&cwd, &["validate", "--enable-alpha", "."]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "worktree"
    ok       repo ".numinance/policy/core-replay.yaml" EvalSet "core-replay"
    --- stderr
    1 document: 1 ok, 0 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn enable_alpha_still_refuses_produced_kinds() {
    let cwd = fixtures().join("verified/repo-with-bundle");
    let result = numi(&cwd, &["validate", "--enable-alpha"]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "worktree"
    invalid  repo ".numinance/policy/implement-stage.yaml": kind: produced kind: ContextBundle is not configuration
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 0 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn a_usage_error_exits_2() {
    let result = numi(&fixtures(), &["validate", "--no-such-flag"]);
    assert_eq!(result.code, 2);
    assert!(result.stdout.is_empty());
    assert!(
        result.stderr.contains("--no-such-flag"),
        "{}",
        result.stderr
    );
}

#[test]
fn files_and_only_together_are_a_usage_error() {
    let result = numi(&fixtures(), &["validate", "--only", "--files", "x.yaml"]);
    assert_eq!(result.code, 2, "{}", result.stderr);
    assert!(result.stderr.contains("--only"), "{}", result.stderr);
}

#[test]
fn a_repository_run_takes_one_dir() {
    let result = numi(&fixtures(), &["validate", "verified", "formats"]);
    assert_eq!(result.code, 2);
    assert!(result.stdout.is_empty());
    assert!(
        result.stderr.contains("numi validate reads one DIR"),
        "{}",
        result.stderr
    );
}

#[test]
fn files_without_a_path_is_a_usage_error() {
    let result = numi(&fixtures(), &["validate", "--files"]);
    assert_eq!(result.code, 2);
    assert!(
        result.stderr.contains("--files needs at least one PATH"),
        "{}",
        result.stderr
    );
}

/// pre-commit appends the staged files after the hook's `args`, so options
/// may stand between `--files` and the paths.
#[test]
fn options_may_stand_between_files_and_its_paths() {
    let cwd = fixtures().join("verified/playbook-rate-20000");
    let lenient = numi(&cwd, &["validate", "--files", "pb.yaml"]);
    assert_eq!(lenient.code, 0, "{}", lenient.transcript());
    let strict = numi(&cwd, &["validate", "--files", "--strict", "pb.yaml"]);
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
fn paths_around_files_keep_their_command_line_order() {
    let cwd = fixtures().join("formats");
    let result = numi(
        &cwd,
        &[
            "validate",
            "ok.yaml",
            "--files",
            "broken.yaml",
            "--strict",
            "ok.yaml",
        ],
    );
    let names: Vec<&str> = result
        .stdout
        .lines()
        .skip(1)
        .map(|line| line.split('"').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(
        names,
        ["ok.yaml", "broken.yaml", "ok.yaml"],
        "{}",
        result.stdout
    );
}

#[test]
fn a_repository_without_a_configuration_tree_exits_1() {
    let temp = tempfile::tempdir().expect("tempdir");
    let result = numi(temp.path(), &["validate"]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 1
    --- stdout
    revision: "worktree"
    error    repo ".numinance": read: no such file or directory
    --- stderr
    numi: hint: "." has no .numinance/ folder; `numi init .` starts one
    1 document: 0 ok, 0 invalid, 1 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn a_folder_with_nothing_to_validate_exits_1() {
    let temp = tempfile::tempdir().expect("tempdir");
    std::fs::write(temp.path().join("notes.txt"), "not yaml").expect("write");
    let result = numi(temp.path(), &["validate", "--files", "."]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 1
    --- stdout
    revision: "files"
    --- stderr
    numi: nothing found to validate (skipped 1 file not named *.yaml or *.yml: "notes.txt")
    "#);
}

#[test]
fn an_unreadable_path_exits_1_even_beside_an_invalid_document() {
    let cwd = fixtures().join("verified");
    let result = numi(
        &cwd,
        &[
            "validate",
            "--files",
            "evalset-cases-out-of-order/ev.yaml",
            "missing.yaml",
            "playbook-rate-20000",
        ],
    );
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 1
    --- stdout
    revision: "files"
    invalid  file "ev.yaml": kind: invalid: EvalSet cases are sorted by name without duplicates
    error    file "missing.yaml": read: no such file or directory
    ok       file "pb.yaml" Playbook "bugfix-bounded"
    --- stderr
    warning: file "pb.yaml" at line 7 column 50: playbook/rate-bound: a Playbook qualification rate is at most 10000 basis points: max_rework_rate is 20000
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    3 documents: 1 ok, 1 invalid, 1 error; 1 warning, 0 suppressed (in [time])
    "#);
}

#[test]
fn schema_violations_are_listed_in_document_order() {
    let temp = tempfile::tempdir().expect("tempdir");
    let text = "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {scope: SCOPE_REPO, owner: me}\nspec:\n  max_repair_attempts: -1\n  qualification: {min_runs: x, extra: 1}\n";
    std::fs::write(temp.path().join("pb.yaml"), text).expect("write");
    let result = numi(temp.path(), &["validate", "--files", "pb.yaml"]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    invalid  file "pb.yaml": kind: does not match the kind schema: schema: value does not match (violations: 6): \"/metadata/owner\": additionalProperties; \"/metadata/name\": required; \"/spec/max_repair_attempts\": minimum; \"/spec/qualification/min_runs\": type; \"/spec/qualification/extra\": additionalProperties; \"/spec/change_type\": required
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    1 document: 0 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn exit_zero_passes_invalid_documents_but_not_an_incomplete_run() {
    let cwd = fixtures().join("verified/repo-with-bundle");
    let result = numi(&cwd, &["validate", "--exit-zero"]);
    assert_eq!(result.code, 0, "{}", result.transcript());
    assert!(result.stdout.contains("invalid  repo"), "{}", result.stdout);
    let result = numi(
        &fixtures(),
        &["validate", "--exit-zero", "--files", "no-such-file.yaml"],
    );
    assert_eq!(result.code, 1, "{}", result.transcript());
}

#[test]
fn output_file_takes_the_report_and_standard_error_keeps_the_rest() {
    let temp = tempfile::tempdir().unwrap();
    let report = temp.path().join("report.json");
    let cwd = fixtures().join("verified/repo-with-bundle");
    let result = numi(
        &cwd,
        &[
            "validate",
            "--format",
            "json",
            "--output-file",
            report.to_str().unwrap(),
        ],
    );
    assert_eq!(result.code, 3, "{}", result.transcript());
    assert!(result.stdout.is_empty(), "{}", result.stdout);
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(written["summary"]["documents"]["invalid"], 1, "{written}");
    let result = numi(
        &cwd,
        &[
            "validate",
            "-o",
            temp.path().join("no/such/folder/r.txt").to_str().unwrap(),
        ],
    );
    assert_eq!(result.code, 1, "{}", result.transcript());
    assert!(
        result.stderr.contains("cannot write the report to"),
        "{}",
        result.stderr
    );
}

#[test]
fn statistics_count_the_findings_of_each_rule() {
    let result = numi(
        &fixtures().join("formats"),
        &[
            "validate",
            "--statistics",
            "--summary",
            "never",
            "--files",
            ".",
        ],
    );
    assert_eq!(result.code, 3, "{}", result.transcript());
    let lines: Vec<&str> = result.stdout.lines().collect();
    assert!(lines.len() >= 2, "{}", result.stdout);
    let counts: Vec<usize> = lines
        .iter()
        .map(|line| line.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(
        counts.windows(2).all(|pair| pair[0] >= pair[1]),
        "{}",
        result.stdout
    );
    assert!(
        lines
            .iter()
            .all(|line| line.contains("  error  ") || line.contains("  warning  ")),
        "{}",
        result.stdout
    );
    let result = numi(
        &fixtures(),
        &["validate", "--statistics", "--format", "json"],
    );
    assert_eq!(result.code, 2, "{}", result.transcript());
}

#[test]
fn a_text_run_with_findings_points_to_the_formats_with_positions() {
    let hint = "numi: hint: --format concise shows where each finding stands, --format pretty its source and fix";
    let cwd = fixtures().join("verified/repo-with-bundle");
    let result = numi(&cwd, &["validate"]);
    assert!(result.stderr.contains(hint), "{}", result.stderr);
    let result = numi(&cwd, &["validate", "--format", "concise"]);
    assert!(!result.stderr.contains(hint), "{}", result.stderr);
    let cwd = fixtures().join("verified/repo-with-evalset");
    let result = numi(&cwd, &["validate", "--enable-alpha"]);
    assert!(!result.stderr.contains(hint), "{}", result.stderr);
}

#[test]
fn the_repository_is_found_from_a_subfolder_and_from_its_tree() {
    let temp = tempfile::tempdir().unwrap();
    let repo = temp.path().join("repo");
    std::fs::create_dir_all(repo.join(".numinance/policy")).unwrap();
    std::fs::create_dir_all(repo.join("docs/deep")).unwrap();
    std::fs::create_dir(repo.join(".git")).unwrap();
    std::fs::copy(
        fixtures().join("../../examples/playbook-bugfix-bounded.yaml"),
        repo.join(".numinance/policy/playbook.yaml"),
    )
    .unwrap();
    let expected = "revision: \"worktree\"\nok       repo \".numinance/policy/playbook.yaml\" Playbook \"bugfix-bounded\"\n";
    for (cwd, args) in [
        (repo.clone(), vec!["validate"]),
        (repo.join("docs/deep"), vec!["validate"]),
        (repo.join(".numinance/policy"), vec!["validate"]),
        (repo.clone(), vec!["validate", ".numinance"]),
        (repo.join("docs"), vec!["validate", "../.numinance"]),
    ] {
        let result = numi(&cwd, &args);
        assert_eq!(result.code, 0, "{cwd:?} {args:?}: {}", result.transcript());
        assert_eq!(result.stdout, expected, "{cwd:?} {args:?}");
    }
    // A DIR named on the command line is the repository, and the top of a
    // git repository ends the search.
    let result = numi(&repo.join("docs"), &["validate", "."]);
    assert_eq!(result.code, 1, "{}", result.transcript());
    std::fs::create_dir(repo.join("docs/.git")).unwrap();
    let result = numi(&repo.join("docs/deep"), &["validate"]);
    assert_eq!(result.code, 1, "{}", result.transcript());
    // Outside a git repository, no folder above counts.
    std::fs::remove_dir(repo.join("docs/.git")).unwrap();
    std::fs::remove_dir(repo.join(".git")).unwrap();
    let result = numi(&repo.join("docs/deep"), &["validate"]);
    assert_eq!(result.code, 1, "{}", result.transcript());
    assert!(
        result
            .stdout
            .contains("repo \".numinance\": read: no such file"),
        "{}",
        result.transcript()
    );
}

#[test]
fn a_numi_toml_planted_above_a_folder_outside_git_decides_nothing() {
    let shared = tempfile::tempdir().unwrap();
    // Someone else's file in a shared parent turns every rule off.
    std::fs::write(shared.path().join("numi.toml"), "select = []\n").unwrap();
    let project = shared.path().join("project");
    std::fs::create_dir(&project).unwrap();
    std::fs::write(
        project.join("rate.yaml"),
        std::fs::read_to_string(fixtures().join("../../examples/playbook-bugfix-bounded.yaml"))
            .unwrap()
            .replace("max_rework_rate: 1000", "max_rework_rate: 20000"),
    )
    .unwrap();
    let run = numi(
        &project,
        &[
            "validate",
            "--strict",
            "--format",
            "concise",
            "--files",
            "rate.yaml",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.transcript());
    assert!(
        run.stdout.contains("playbook/rate-bound"),
        "{}",
        run.transcript()
    );
    // The same file in a git repository's top is the repository's own.
    std::fs::create_dir(shared.path().join(".git")).unwrap();
    let run = numi(
        &project,
        &[
            "validate",
            "--strict",
            "--format",
            "concise",
            "--files",
            "rate.yaml",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
}

/// Each subcommand's help opens with what it does, as `numi --help` lists
/// it: the arguments built only when a subcommand is invoked do not bring
/// another description with them.
#[test]
fn each_subcommands_help_opens_with_what_it_does() {
    let top = numi(&fixtures(), &["--help"]);
    assert_eq!(top.code, 0);
    let listed: Vec<(String, String)> = top
        .stdout
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| {
            let (name, about) = line.trim_start().split_once(' ')?;
            Some((name.to_owned(), about.trim_start().to_owned()))
        })
        .filter(|(name, _)| name != "help")
        .collect();
    assert_eq!(listed.len(), 10, "{}", top.stdout);
    for (name, about) in listed {
        let help = numi(&fixtures(), &[&name, "--help"]);
        assert_eq!(help.code, 0, "{name}");
        assert_eq!(help.stdout.lines().next(), Some(about.as_str()), "{name}");
    }
}
