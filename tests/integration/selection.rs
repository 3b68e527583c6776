//! What a run leaves out: rules deselected with `--select`/`--ignore` or
//! numi.toml's `select`/`ignore`, and the findings a baseline holds. Each
//! on both sides, the flags and the file agreeing, their precedence, and the
//! refusals.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::indexing_slicing)]

use std::fs;
use std::path::Path;

use crate::common::numi;

/// A Playbook whose `min_runs` is 0: a `playbook/min-runs` finding on line 7.
const WITHOUT_RUNS: &str = include_str!("../../src/kinds/playbook/examples/min-runs.failing.yaml");
/// A Playbook whose rework rate is out of bounds: `playbook/rate-bound`.
const RATE_OUT_OF_BOUNDS: &str =
    include_str!("../../src/kinds/playbook/examples/rate-bound.failing.yaml");
/// An EvalSet whose cases are out of order, which `numi fix` sorts.
const UNSORTED_EVALSET: &str =
    include_str!("../../src/kinds/evalset/examples/cases-sorted.failing.yaml");

/// A folder holding `numi.toml` (if any) and the given files; the runs
/// read it with `--files docs`.
fn folder(config: Option<&str>, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir(dir.path().join(".git")).expect("mkdir");
    if let Some(config) = config {
        fs::write(dir.path().join("numi.toml"), config).expect("write");
    }
    for (path, text) in files {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
        fs::write(path, text).expect("write");
    }
    dir
}

/// A repository whose configuration tree holds the two Playbooks of
/// [`two_playbooks`], and `more` files.
fn tree_of_two_playbooks(more: &[(&str, &str)]) -> tempfile::TempDir {
    let runs = WITHOUT_RUNS.replace("bugfix-bounded", "runs");
    let rate = RATE_OUT_OF_BOUNDS.replace("bugfix-bounded", "rate");
    let mut files = vec![
        (".numinance/runs.yaml", runs.as_str()),
        (".numinance/rate.yaml", rate.as_str()),
    ];
    files.extend_from_slice(more);
    folder(None, &files)
}

/// Two Playbooks with one finding each, errors under `--strict`.
fn two_playbooks(config: Option<&str>) -> tempfile::TempDir {
    folder(
        config,
        &[
            (
                "docs/runs.yaml",
                &WITHOUT_RUNS.replace("bugfix-bounded", "runs"),
            ),
            (
                "docs/rate.yaml",
                &RATE_OUT_OF_BOUNDS.replace("bugfix-bounded", "rate"),
            ),
        ],
    )
}

fn validate(dir: &Path, extra: &[&str]) -> crate::common::Run {
    let mut args = vec!["validate", "--strict", "--summary", "never"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--files", "docs"]);
    numi(dir, &args)
}

#[test]
fn ignore_leaves_out_the_rules_it_names_and_their_documents_pass() {
    let dir = two_playbooks(None);
    let all = validate(dir.path(), &[]);
    assert_eq!(all.code, 3, "{}", all.transcript());
    insta::assert_snapshot!(validate(dir.path(), &["--ignore", "playbook/rate-bound"]).transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    ok       file "rate.yaml" Playbook "rate"
    invalid  file "runs.yaml": kind: invalid: a Playbook qualification asks for at least one run (min_runs at least 1)
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    "#);
    // A family, with or without its slash, or two ids with a comma.
    for ignore in [
        "playbook",
        "playbook/",
        "playbook/rate-bound,playbook/min-runs",
    ] {
        let run = validate(dir.path(), &["--ignore", ignore]);
        assert_eq!(run.code, 0, "{ignore}: {}", run.transcript());
        assert_eq!(run.stderr, "", "{ignore}");
        assert_eq!(run.stdout.matches("\nok ").count(), 2, "{}", run.stdout);
    }
    // Another family leaves both findings.
    let run = validate(dir.path(), &["--ignore", "evalset"]);
    assert_eq!(run.stdout, all.stdout);
    assert_eq!(run.code, 3);
}

#[test]
fn select_runs_only_the_rules_it_names() {
    let dir = two_playbooks(None);
    let run = validate(dir.path(), &["--select", "playbook/min-runs"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    assert!(run.stdout.contains("ok       file \"rate.yaml\""));
    assert!(run.stdout.contains("invalid  file \"runs.yaml\""));
    let run = validate(dir.path(), &["--select", "evalset"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    // The most specific selector wins: the family selected, one id ignored.
    let run = validate(
        dir.path(),
        &["--select", "playbook", "--ignore", "playbook/rate-bound"],
    );
    assert!(run.stdout.contains("ok       file \"rate.yaml\""));
    assert!(run.stdout.contains("invalid  file \"runs.yaml\""));
}

#[test]
fn the_file_says_what_the_flags_say() {
    for (key, flag) in [
        ("ignore = [\"playbook/rate-bound\"]", "--ignore"),
        ("select = [\"playbook/rate-bound\"]", "--select"),
        ("ignore = [\"playbook\"]", "--ignore"),
    ] {
        let value = key.split('"').nth(1).unwrap();
        let flags = validate(two_playbooks(None).path(), &[flag, value]);
        let file = validate(two_playbooks(Some(&format!("{key}\n"))).path(), &[]);
        assert_eq!(file.transcript(), flags.transcript(), "{key}");
        let all = validate(two_playbooks(None).path(), &[]);
        assert_ne!(file.stdout, all.stdout, "{key} changes the run");
    }
}

#[test]
fn select_on_the_command_line_replaces_the_files_selection_and_ignore_refines_it() {
    let shown = |run: &crate::common::Run| -> Vec<String> {
        run.stdout
            .lines()
            .filter(|line| line.starts_with("invalid"))
            .map(|line| line.split('"').nth(1).unwrap().to_owned())
            .collect()
    };
    // The file's select gives way to the flag's.
    let dir = two_playbooks(Some("select = [\"playbook/min-runs\"]\n"));
    assert_eq!(shown(&validate(dir.path(), &[])), ["runs.yaml"]);
    let run = validate(dir.path(), &["--select", "playbook/rate-bound"]);
    assert_eq!(shown(&run), ["rate.yaml"]);
    // And so does the file's ignore: --select names the whole set.
    let dir = two_playbooks(Some("ignore = [\"playbook\"]\n"));
    assert!(shown(&validate(dir.path(), &[])).is_empty());
    let run = validate(dir.path(), &["--select", "playbook/min-runs"]);
    assert_eq!(shown(&run), ["runs.yaml"]);
    // --ignore takes out of what the file selected.
    let dir = two_playbooks(Some("select = [\"playbook\"]\n"));
    let run = validate(dir.path(), &["--ignore", "playbook/min-runs"]);
    assert_eq!(shown(&run), ["rate.yaml"]);
    // --no-config drops the file's selection with the rest of it.
    let dir = two_playbooks(Some("ignore = [\"playbook\"]\n"));
    let run = validate(dir.path(), &["--no-config"]);
    assert_eq!(shown(&run), ["rate.yaml", "runs.yaml"]);
}

#[test]
fn an_unknown_or_unselectable_rule_is_a_usage_error_with_the_nearest_id() {
    let dir = two_playbooks(None);
    insta::assert_snapshot!(validate(dir.path(), &["--select", "playbok"]).transcript(), @r#"
    exit: 2
    --- stdout
    --- stderr
    error: --select: unknown rule id or family "playbok" (did you mean "playbook"?)

    For more information, try '--help'.
    "#);
    let run = validate(dir.path(), &["--ignore", "playbook/rate-bond"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            "--ignore: unknown rule id or family \"playbook/rate-bond\" (did you mean \"playbook/rate-bound\"?)"
        ),
        "{}",
        run.transcript()
    );
    let run = validate(dir.path(), &["--ignore", "rate-bound"]);
    assert!(
        run.stderr
            .contains("(did you mean \"playbook/rate-bound\"?)"),
        "a bare name: {}",
        run.transcript()
    );
    for stage in ["yaml/syntax", "yaml", "schema", "kind/unknown"] {
        let run = validate(dir.path(), &["--ignore", stage]);
        assert_eq!(run.code, 2, "{stage}: {}", run.transcript());
        assert!(
            run.stderr.contains("is not of the rule stage"),
            "{stage}: {}",
            run.transcript()
        );
    }
    let dir = two_playbooks(Some("ignore = [\"playbok/min-runs\"]\n"));
    let run = validate(dir.path(), &[]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("numi.toml: ignore: unknown rule id or family \"playbok/min-runs\" (did you mean \"playbook/min-runs\"?)"),
        "{}",
        run.transcript()
    );
}

#[test]
fn a_selection_of_90000_entries_holds_for_every_document() {
    // numi.toml near its 1 MiB limit: 90,000 ignore entries, every one but
    // the last naming a family the Playbooks have no finding of, over 2,000
    // Playbooks, half with each finding. What a finding costs under it is
    // counted in src/config/tests.rs: one look in the resolved selection.
    let mut ignore: Vec<&str> = (0..89_999)
        .map(|i| if i % 2 == 0 { "bundle" } else { "policy" })
        .collect();
    ignore.push("playbook/min-runs");
    let config = format!("ignore = [\"{}\"]\n", ignore.join("\",\""));
    assert!(config.len() < 1024 * 1024);
    let files: Vec<(String, String)> = (0..1_000)
        .flat_map(|i| {
            [
                (
                    format!("docs/runs-{i:04}.yaml"),
                    WITHOUT_RUNS.replace("bugfix-bounded", &format!("runs-{i}")),
                ),
                (
                    format!("docs/rate-{i:04}.yaml"),
                    RATE_OUT_OF_BOUNDS.replace("bugfix-bounded", &format!("rate-{i}")),
                ),
            ]
        })
        .collect();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(path, text)| (path.as_str(), text.as_str()))
        .collect();
    let dir = folder(Some(&config), &files);
    let run = numi(
        dir.path(),
        &[
            "validate",
            "--format",
            "concise",
            "--summary",
            "never",
            "--files",
            "docs",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The rule ignored last has no finding left; the other keeps each.
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1_000, "{}", run.stdout);
    assert!(
        lines
            .iter()
            .all(|line| line.starts_with("docs/rate-") && line.contains("[playbook/rate-bound]")),
        "{}",
        run.stdout
    );
    // --ignore over it takes the other rule out too; --select replaces it.
    let run = numi(
        dir.path(),
        &[
            "validate", "--format", "concise", "--ignore", "playbook", "--files", "docs",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("[playbook/"), "{}", run.stdout);
    let run = numi(
        dir.path(),
        &[
            "validate",
            "--format",
            "concise",
            "--summary",
            "never",
            "--select",
            "playbook/min-runs",
            "--files",
            "docs",
        ],
    );
    assert_eq!(run.stdout.lines().count(), 1_000, "{}", run.stdout);
    assert!(
        run.stdout
            .lines()
            .all(|line| line.contains("[playbook/min-runs]"))
    );
}

#[test]
fn findings_before_the_rule_stage_stand_whatever_the_selection() {
    let dir = folder(None, &[("docs/broken.yaml", "kind: [\n")]);
    let run = validate(dir.path(), &["--select", "playbook"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    assert!(run.stdout.contains("invalid  file \"broken.yaml\": yaml"));
}

#[test]
fn fix_leaves_alone_the_rules_not_selected() {
    let dir = folder(None, &[("docs/evals.yaml", UNSORTED_EVALSET)]);
    let run = numi(
        dir.path(),
        &[
            "fix",
            "--check",
            "--ignore",
            "evalset/cases-sorted",
            "--files",
            "docs",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = numi(
        dir.path(),
        &["fix", "--check", "--select", "evalset", "--files", "docs"],
    );
    assert_eq!(run.code, 3, "{}", run.transcript());
    let run = numi(
        dir.path(),
        &["fix", "--ignore", "evalset/cases-sortd", "--files", "docs"],
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(run.stderr.contains("did you mean \"evalset/cases-sorted\""));
}

#[test]
fn a_baseline_leaves_out_what_it_holds_through_moves_and_counts_what_is_gone() {
    let dir = two_playbooks(None);
    let written = validate(dir.path(), &["--write-baseline", "baseline.json"]);
    insta::assert_snapshot!(written.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "files"
    ok       file "rate.yaml" Playbook "rate"
    ok       file "runs.yaml" Playbook "runs"
    --- stderr
    numi: wrote 2 findings to the baseline "baseline.json"
    "#);
    let baseline = fs::read_to_string(dir.path().join("baseline.json")).unwrap();
    insta::assert_snapshot!(baseline, @r#"
    {
      "version": 1,
      "findings": [
        {"path":"docs/rate.yaml","rule":"playbook/rate-bound","fingerprint":"3d81b695cfc04774014572385f7ad4367086ed0b78435b1e3a081796b65d5dfa","count":1},
        {"path":"docs/runs.yaml","rule":"playbook/min-runs","fingerprint":"86e1d3ad795079fa7fb535fb98cce9a2d86d4de864a127ee575719968fab952d","count":1}
      ]
    }
    "#);

    // The min-runs finding moved down two lines (7 to 9): still baselined.
    let moved = WITHOUT_RUNS.replace("bugfix-bounded", "runs");
    let moved = moved.replacen("spec:\n", "spec:\n  # a comment\n  # and another\n", 1);
    fs::write(dir.path().join("docs/runs.yaml"), &moved).unwrap();
    let run = validate(dir.path(), &["--baseline", "baseline.json"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "numi: baseline \"baseline.json\": 2 findings left out\n"
    );

    // A new finding is reported; the baselined ones are not.
    fs::write(
        dir.path().join("docs/new.yaml"),
        WITHOUT_RUNS.replace("bugfix-bounded", "new"),
    )
    .unwrap();
    let run = validate(dir.path(), &["--baseline", "baseline.json"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    assert!(run.stdout.contains("invalid  file \"new.yaml\""));
    assert!(run.stdout.contains("ok       file \"runs.yaml\""));

    // A fixed finding is counted as gone.
    fs::remove_file(dir.path().join("docs/new.yaml")).unwrap();
    fs::write(
        dir.path().join("docs/runs.yaml"),
        moved.replace("min_runs: 0", "min_runs: 20"),
    )
    .unwrap();
    insta::assert_snapshot!(validate(dir.path(), &["--baseline", "baseline.json"]).transcript(), @r#"
    exit: 0
    --- stdout
    revision: "files"
    ok       file "rate.yaml" Playbook "rate"
    ok       file "runs.yaml" Playbook "runs"
    --- stderr
    numi: baseline "baseline.json": 1 finding left out, 1 stale (no longer found: --write-baseline "baseline.json" rewrites it)
    "#);
    // Without the baseline, every finding is back.
    assert_eq!(validate(dir.path(), &[]).code, 3);
}

#[test]
fn a_baseline_in_the_file_holds_until_the_flag_names_another() {
    let dir = two_playbooks(Some("baseline = \"baseline.json\"\n"));
    let written = validate(dir.path(), &["--write-baseline", "baseline.json"]);
    assert_eq!(written.code, 0, "{}", written.transcript());
    let run = validate(dir.path(), &[]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr.contains("2 findings left out"),
        "{}",
        run.transcript()
    );
    fs::write(
        dir.path().join("empty.json"),
        "{\"version\": 1, \"findings\": []}",
    )
    .unwrap();
    let run = validate(dir.path(), &["--baseline", "empty.json"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    // A baseline named in the file that is not there is refused.
    let missing = two_playbooks(Some("baseline = \"missing.json\"\n"));
    let run = validate(missing.path(), &[]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(run.stderr.contains("missing.json"), "{}", run.transcript());
}

#[test]
fn a_malformed_baseline_is_a_usage_error_naming_the_file() {
    let dir = two_playbooks(None);
    for (text, reason) in [
        ("{", "not a numi baseline: EOF while parsing an object"),
        (
            "{\"version\": 2, \"findings\": []}",
            "a baseline of version 2, where numi reads version 1",
        ),
        (
            "{\"version\": 1, \"findings\": [{\"path\": \"a\"}]}",
            "not a numi baseline: missing field `rule`",
        ),
    ] {
        fs::write(dir.path().join("bad.json"), text).unwrap();
        let run = validate(dir.path(), &["--baseline", "bad.json"]);
        assert_eq!(run.code, 2, "{text}: {}", run.transcript());
        assert!(
            run.stderr
                .starts_with(&format!("numi: \"bad.json\": {reason}")),
            "{text}: {}",
            run.transcript()
        );
        assert_eq!(run.stdout, "");
    }
    let run = validate(
        dir.path(),
        &["--baseline", "a.json", "--write-baseline", "b.json"],
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
}

#[test]
fn a_walk_of_the_tree_counts_a_deleted_files_findings_stale_and_named_paths_do_not() {
    let dir = tree_of_two_playbooks(&[]);
    let run = numi(
        dir.path(),
        &["validate", "--strict", "--write-baseline", "baseline.json"],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    fs::remove_file(dir.path().join(".numinance/rate.yaml")).unwrap();
    let run = numi(
        dir.path(),
        &[
            "validate",
            "--strict",
            "--summary",
            "never",
            "--baseline",
            "baseline.json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr
            .starts_with("numi: baseline \"baseline.json\": 1 finding left out, 1 stale"),
        "{}",
        run.transcript()
    );
    let run = numi(
        dir.path(),
        &[
            "validate",
            "--strict",
            "--summary",
            "never",
            "--baseline",
            "baseline.json",
            "--only",
            ".numinance/runs.yaml",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(
        run.stderr, "numi: baseline \"baseline.json\": 1 finding left out\n",
        "the other file was not asked for"
    );
}

#[test]
fn a_baselined_finding_whose_message_names_a_line_survives_a_line_added_above() {
    // A context-report run whose task file is no task list: the finding's
    // message names the line of the task file where it fails.
    let manifest = "contextReportRun: v0.1
subjects: [{id: agents, path: AGENTS.md, kind: instruction-file}]
target: {name: claude-code}
models: []
tasks: tasks.json
arms: {nPerArm: 1}
out: reports
";
    let tasks = "{\"tasks\": [\n  {\"id\": \"t\"}\n]}\n";
    let dir = folder(
        None,
        &[
            ("docs/run.yaml", manifest),
            ("docs/AGENTS.md", "- Never commit secrets.\n"),
            ("docs/tasks.json", tasks),
        ],
    );
    let written = validate(dir.path(), &["--write-baseline", "baseline.json"]);
    assert_eq!(written.code, 0, "{}", written.transcript());
    assert!(
        written.stderr.contains("wrote 1 finding"),
        "{}",
        written.transcript()
    );
    // The task file gains a line above its problem: the message says line 3.
    fs::write(dir.path().join("docs/tasks.json"), format!("\n{tasks}")).unwrap();
    let json = numi(
        dir.path(),
        &[
            "validate",
            "--format",
            "json",
            "--no-config",
            "--files",
            "docs/run.yaml",
        ],
    );
    assert!(
        json.stdout.contains("is no task list: line 3: required"),
        "{}",
        json.stdout
    );
    let run = validate(dir.path(), &["--baseline", "baseline.json"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("baseline \"baseline.json\": 1 finding left out\n"),
        "{}",
        run.transcript()
    );
    // Another problem is another finding.
    fs::write(dir.path().join("docs/tasks.json"), "{\"tasks\": 3}\n").unwrap();
    let run = validate(dir.path(), &["--baseline", "baseline.json"]);
    assert_eq!(run.code, 3, "{}", run.transcript());
    assert!(run.stderr.contains("1 stale"), "{}", run.transcript());
}

#[test]
fn a_baseline_loses_nothing_to_a_run_of_fewer_rules_or_fewer_documents() {
    let dir = tree_of_two_playbooks(&[(".numinance/evals/unsorted.yaml", UNSORTED_EVALSET)]);
    let run = |extra: &[&str]| {
        let mut args = vec!["validate", "--strict", "--summary", "never"];
        args.extend_from_slice(extra);
        numi(dir.path(), &args)
    };
    let entries = || {
        let text = fs::read_to_string(dir.path().join("baseline.json")).unwrap();
        text.lines()
            .filter(|line| line.contains("\"rule\""))
            .count()
    };
    let written = run(&["--enable-alpha", "--write-baseline", "baseline.json"]);
    assert_eq!(written.code, 0, "{}", written.transcript());
    let all = entries();
    assert_eq!(all, 3, "{}", written.transcript());
    let original = fs::read_to_string(dir.path().join("baseline.json")).unwrap();

    // Fewer rules, or the alpha EvalSet left unchecked: nothing is stale.
    for flags in [
        &["--enable-alpha", "--select", "playbook/rate-bound"][..],
        &[][..],
        &["--ignore", "playbook"][..],
    ] {
        let mut args = flags.to_vec();
        args.extend_from_slice(&["--baseline", "baseline.json"]);
        let compared = run(&args);
        // Without --enable-alpha the EvalSet is refused (exit 3).
        assert_ne!(compared.code, 1, "{flags:?}: {}", compared.transcript());
        assert!(
            !compared.stderr.contains("stale"),
            "{flags:?}: {}",
            compared.stderr
        );
        // Written again with the same flags, every entry is kept.
        let mut args = flags.to_vec();
        args.extend_from_slice(&["--write-baseline", "baseline.json"]);
        let rewritten = run(&args);
        assert!(
            rewritten.stderr.contains("numi: wrote "),
            "{flags:?}: {}",
            rewritten.transcript()
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("baseline.json")).unwrap(),
            original,
            "{flags:?}: {}",
            rewritten.transcript()
        );
    }

    // A finding the run checked and did not find again is stale, and a
    // rewrite drops it.
    fs::write(
        dir.path().join(".numinance/rate.yaml"),
        include_str!("../../examples/playbook-bugfix-bounded.yaml")
            .replace("bugfix-bounded", "rate"),
    )
    .unwrap();
    let compared = run(&["--enable-alpha", "--baseline", "baseline.json"]);
    assert!(compared.stderr.contains("1 stale"), "{}", compared.stderr);
    let rewritten = run(&["--enable-alpha", "--write-baseline", "baseline.json"]);
    assert_eq!(rewritten.code, 0, "{}", rewritten.transcript());
    assert_eq!(entries(), 2);
}
