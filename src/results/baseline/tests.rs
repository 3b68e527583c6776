#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;
use crate::diagnostic::stages::yaml::SYNTAX;
use crate::diagnostic::{Diagnostic, Position};
use crate::kinds::evalset::catalogue::VERSION as RULE;
use crate::results::Origin;
use crate::validate::Checked;

fn finding(message: &str, line: u32) -> Diagnostic {
    Diagnostic::new(&RULE, message).at_position(Position { line, column: 1 })
}

fn result(path: &str, diagnostics: Vec<Diagnostic>) -> FileResult {
    FileResult {
        origin: Origin::Repo,
        display_name: path.to_owned(),
        path: path.to_owned(),
        checked: Checked {
            diagnostics,
            ..Checked::default()
        },
        source: None,
        read_from: None,
    }
}

/// The messages left in `result` once `ledger` has had its say.
fn left(ledger: &mut Ledger, mut result: FileResult) -> Vec<String> {
    ledger.apply(&mut result);
    result
        .checked
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect()
}

/// A baseline recorded from `results`, through its text.
fn recorded(results: Vec<FileResult>) -> Baseline {
    let mut ledger = Ledger::record(Baseline::default(), Policy::default());
    for result in results {
        assert_eq!(left(&mut ledger, result), Vec::<String>::new());
    }
    Baseline::parse(ledger.recorded(false).to_json().as_bytes()).unwrap()
}

#[test]
fn a_recorded_baseline_is_sorted_counted_and_one_finding_a_line() {
    let baseline = recorded(vec![
        result("./b.yaml", vec![finding("twice", 3), finding("twice", 9)]),
        result("a.yaml", vec![finding("once", 1)]),
    ]);
    assert_eq!(baseline.findings(), 3);
    let text = baseline.to_json();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert_eq!(lines[1], "  \"version\": 1,");
    assert!(lines[3].starts_with("    {\"path\":\"a.yaml\",\"rule\":\"evalset/version\""));
    assert!(
        lines[4].starts_with("    {\"path\":\"b.yaml\""),
        "no ./ step"
    );
    assert!(lines[4].ends_with("\"count\":2}"), "{text}");
    assert_eq!(
        Baseline::default().to_json(),
        "{\n  \"version\": 1,\n  \"findings\": []\n}\n"
    );
}

#[test]
fn a_baselined_finding_is_left_out_wherever_it_moves_and_a_repeat_beyond_the_count_is_new() {
    let baseline = recorded(vec![result(
        "a.yaml",
        vec![finding("twice", 3), finding("twice", 5)],
    )]);
    let mut ledger = Ledger::compare(baseline, Policy::default());
    let now = result(
        "a.yaml",
        vec![
            finding("twice", 30),
            finding("new", 31),
            finding("twice", 32),
            finding("twice", 33),
        ],
    );
    assert_eq!(left(&mut ledger, now), ["new", "twice"]);
    assert_eq!(ledger.baselined(), 2);
    assert_eq!(ledger.stale(false), 0);
}

#[test]
fn another_file_rule_or_message_is_another_finding() {
    let baseline = recorded(vec![result("a.yaml", vec![finding("m", 3)])]);
    let mut ledger = Ledger::compare(baseline, Policy::default());
    assert_eq!(
        left(&mut ledger, result("b.yaml", vec![finding("m", 3)])),
        ["m"]
    );
    assert_eq!(
        left(&mut ledger, result("a.yaml", vec![finding("other", 3)])),
        ["other"]
    );
    assert_eq!(ledger.baselined(), 0);
}

#[test]
fn findings_gone_from_a_file_read_are_stale_and_files_not_read_only_after_a_whole_tree() {
    let baseline = recorded(vec![
        result(
            "a.yaml",
            vec![finding("m", 3), finding("m", 4), finding("n", 5)],
        ),
        result("b.yaml", vec![finding("m", 3)]),
    ]);
    let mut ledger = Ledger::compare(baseline, Policy::default());
    assert!(left(&mut ledger, result("a.yaml", vec![finding("m", 3)])).is_empty());
    assert_eq!(ledger.baselined(), 1);
    assert_eq!(ledger.stale(false), 2, "one of the two m, and n");
    assert_eq!(ledger.stale(true), 3, "and b.yaml's, gone from the tree");
}

#[test]
fn findings_before_the_rule_stage_are_never_baselined() {
    let syntax = Diagnostic::new(&SYNTAX, "bad");
    let mut recording = Ledger::record(Baseline::default(), Policy::default());
    assert_eq!(
        left(&mut recording, result("a.yaml", vec![syntax.clone()])),
        ["bad"]
    );
    assert_eq!(recording.recorded(false).findings(), 0);
}

#[test]
fn a_malformed_baseline_or_another_version_is_refused_with_the_reason() {
    let refused = |text: &str| Baseline::parse(text.as_bytes()).unwrap_err().to_string();
    assert!(
        refused("[]").starts_with("not a numi baseline: "),
        "{}",
        refused("[]")
    );
    assert!(refused("{\"version\": 1}").contains("missing field `findings`"));
    assert!(refused("{\"version\": 1, \"findings\": [], \"x\": 1}").contains("unknown field `x`"));
    assert_eq!(
        refused("{\"version\": 2, \"findings\": []}"),
        "a baseline of version 2, where numi reads version 1"
    );
}

#[test]
fn a_baseline_too_large_or_unreadable_is_refused_as_before() {
    assert_eq!(
        BaselineError::TooLarge(MAX_BASELINE_SIZE).to_string(),
        "the file is larger than 64 MiB, the most a baseline may hold"
    );
    let folder = tempfile::tempdir().unwrap();
    let BaselineError::Unreadable(reason) = Baseline::load(folder.path()).unwrap_err() else {
        panic!("a folder is not read as a baseline");
    };
    assert_eq!(
        Baseline::load(folder.path()).unwrap_err().to_string(),
        reason
    );
}

/// The policy of a `numi.toml` holding `text`, for paths relative to its folder.
fn policy(text: &str) -> Policy {
    let mut config = crate::config::parse(text).unwrap();
    config.root = std::path::PathBuf::from("/repo");
    config.policy(Path::new("/repo")).unwrap()
}

#[test]
fn only_findings_the_run_checked_are_stale_and_a_rewrite_keeps_the_rest() {
    let base = recorded(vec![
        result("a.yaml", vec![finding("m", 1)]),
        result("b.yaml", vec![finding("m", 1)]),
        result("c.yaml", vec![finding("m", 1)]),
    ]);
    let runs = || {
        [
            // Found again.
            result("a.yaml", vec![finding("m", 1)]),
            // Read, but stopped before its rules (an alpha kind not enabled).
            result(
                "b.yaml",
                vec![Diagnostic::new(&SYNTAX, "alpha kind is not enabled")],
            ),
            // Read, its rules ran, the finding gone.
            result("c.yaml", vec![]),
        ]
    };
    let mut ledger = Ledger::compare(base.clone(), Policy::default());
    for result in runs() {
        ledger.apply(&mut result.clone());
    }
    assert_eq!(ledger.stale(false), 1, "c.yaml's alone");

    // The rule not selected: nothing of it is judged.
    let unselected = policy("select = [\"playbook\"]\n");
    let mut ledger = Ledger::compare(base.clone(), unselected.clone());
    for result in runs() {
        ledger.apply(&mut result.clone());
    }
    assert_eq!(ledger.stale(true), 0);

    // Written again under the same flags: every entry it did not judge is
    // kept, so nothing is lost.
    let mut writing = Ledger::record(base.clone(), unselected);
    for result in runs() {
        ledger_apply(&mut writing, result);
    }
    assert_eq!(writing.recorded(true), base);
    // With the rule running: b.yaml's is kept (its rules did not run),
    // c.yaml's dropped (gone), a.yaml's found again.
    let mut writing = Ledger::record(base.clone(), Policy::default());
    for result in runs() {
        ledger_apply(&mut writing, result);
    }
    let rewritten = writing.recorded(true);
    let paths: Vec<&str> = rewritten
        .entries
        .values()
        .map(|entry| entry.path.as_str())
        .collect();
    assert_eq!(paths.len(), 2);
    assert!(
        paths.contains(&"a.yaml") && paths.contains(&"b.yaml"),
        "{paths:?}"
    );
}

fn ledger_apply(ledger: &mut Ledger, mut result: FileResult) {
    ledger.apply(&mut result);
}
