//! `numi fix` as a user runs it: fixture pairs in `tests/fixtures/fix/`
//! (`NAME.before.yaml` fixed must give `NAME.after.yaml`), the report of
//! each as a snapshot, and the promises about writing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::fs;
use std::path::Path;

use crate::common::{fixtures, numi};

const PAIRS: [&str; 4] = ["block", "flow", "bundle", "duplicate"];

fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(fixtures().join("fix/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings
}

fn copy(name: &str, into: &Path) -> std::path::PathBuf {
    let target = into.join(format!("{name}.yaml"));
    fs::copy(fixtures().join(format!("fix/{name}.before.yaml")), &target).unwrap();
    target
}

fn after(name: &str) -> String {
    fs::read_to_string(fixtures().join(format!("fix/{name}.after.yaml"))).unwrap()
}

#[test]
fn each_fixture_is_fixed_into_its_pair_and_a_second_run_changes_nothing() {
    for name in PAIRS {
        let dir = tempfile::tempdir().unwrap();
        let file = copy(name, dir.path());
        let file_name = format!("{name}.yaml");
        let run = numi(dir.path(), &["fix", "--files", &file_name]);
        settings().bind(|| insta::assert_snapshot!(format!("{name}-report"), run.transcript()));
        assert_eq!(fs::read_to_string(&file).unwrap(), after(name), "{name}");

        let again = numi(dir.path(), &["fix", "--files", &file_name]);
        assert_eq!(fs::read_to_string(&file).unwrap(), after(name), "{name}");
        assert!(again.stdout.contains("0 fixed"), "{name}: {}", again.stdout);
    }
}

#[test]
fn the_fixed_fixtures_validate_except_the_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    for name in PAIRS {
        fs::write(dir.path().join(format!("{name}.yaml")), after(name)).unwrap();
    }
    let run = numi(dir.path(), &["validate", "--files", "."]);
    insta::assert_snapshot!(run.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "files"
    ok       file "block.yaml" EvalSet "core-replay"
    ok       file "bundle.yaml" ContextBundle
    invalid  file "duplicate.yaml": kind: invalid: EvalSet cases are sorted by name without duplicates
    ok       file "flow.yaml" EvalSet "flow-replay"
    --- stderr
    warning: file "bundle.yaml" at line 4 column 3: bundle/context-generation: a ContextBundle's context_generation is at least 1
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    4 documents: 3 ok, 1 invalid, 0 error; 1 warning, 0 suppressed (in [time])
    "#);
}

#[test]
fn check_writes_nothing_and_fails_when_something_would_change() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy("block", dir.path());
    let before = fs::read_to_string(&file).unwrap();
    let run = numi(dir.path(), &["fix", "--check", "--files", "block.yaml"]);
    assert_eq!(run.code, 3);
    assert!(
        run.stdout
            .contains("fixable  file \"block.yaml\": evalset/cases-sorted")
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), before);

    fs::write(&file, after("block")).unwrap();
    let clean = numi(dir.path(), &["fix", "--check", "--files", "block.yaml"]);
    assert_eq!(clean.code, 0, "{}", clean.transcript());
}

#[test]
fn diff_prints_a_unified_diff_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy("flow", dir.path());
    let before = fs::read_to_string(&file).unwrap();
    let run = numi(dir.path(), &["fix", "--diff", "--files", "flow.yaml"]);
    settings().bind(|| insta::assert_snapshot!("flow-diff", run.transcript()));
    assert_eq!(fs::read_to_string(&file).unwrap(), before);
}

#[test]
fn standard_input_is_fixed_to_standard_output() {
    let input = fs::read(fixtures().join("fix/bundle.before.yaml")).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_numi"))
        .args(["fix", "--files", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(&input)?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), after("bundle"));
    assert!(
        String::from_utf8(output.stderr)
            .unwrap()
            .contains("fixed    file \"-\": bundle/digest")
    );
}

#[test]
fn the_configuration_tree_is_fixed_with_its_gates() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join(".numinance/evals");
    fs::create_dir_all(&tree).unwrap();
    let file = copy("block", &tree);
    let gated = numi(dir.path(), &["fix"]);
    assert_eq!(gated.code, 3, "{}", gated.transcript());
    assert!(gated.stdout.contains("alpha kind is not enabled"));
    assert_ne!(fs::read_to_string(&file).unwrap(), after("block"));

    let run = numi(dir.path(), &["fix", "--enable-alpha"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(fs::read_to_string(&file).unwrap(), after("block"));
}

#[cfg(unix)]
#[test]
fn a_fixed_file_keeps_its_permissions_and_a_clean_one_is_not_touched() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = copy("block", dir.path());
    fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
    let clean = dir.path().join("clean.yaml");
    fs::write(&clean, after("block")).unwrap();
    let clean_before = fs::metadata(&clean).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let run = numi(dir.path(), &["fix", "--files", "."]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let mode = fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(
        fs::metadata(&clean).unwrap().modified().unwrap(),
        clean_before
    );
    let names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_repository_is_never_written_through() {
    let outside = tempfile::tempdir().unwrap();
    let target = copy("block", outside.path());
    let before = fs::read_to_string(&target).unwrap();
    let repo = tempfile::tempdir().unwrap();
    let tree = repo.path().join(".numinance");
    fs::create_dir_all(&tree).unwrap();
    std::os::unix::fs::symlink(&target, tree.join("linked.yaml")).unwrap();
    let run = numi(repo.path(), &["fix", "--enable-alpha"]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(run.stdout.contains("the link leads outside the repository"));
    assert_eq!(fs::read_to_string(&target).unwrap(), before);
    assert!(tree.join("linked.yaml").is_symlink());

    // With --files the tree is the folder the path names.
    let named = numi(repo.path(), &["fix", "--files", ".numinance/linked.yaml"]);
    assert_eq!(named.code, 1, "{}", named.transcript());
    assert!(named.stdout.contains("lies outside the tree being fixed"));
    // What was not written is not reported fixed.
    assert!(!named.stdout.contains("fixed    "), "{}", named.stdout);
    assert!(
        named
            .stdout
            .ends_with("1 document: 0 fixed, 0 with findings left, 1 not fixed\n"),
        "{}",
        named.stdout
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), before);
    assert!(tree.join("linked.yaml").is_symlink());
}

#[test]
fn explain_says_which_rules_are_fixable() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sorted = numi(here, &["explain", "evalset/cases-sorted"]);
    assert!(
        sorted
            .stdout
            .contains("Fixable: `numi fix` sorts the entries by name")
    );
    let version = numi(here, &["explain", "evalset/version"]);
    assert!(!version.stdout.contains("Fixable"));
}

/// The diff is one `git apply` takes: applied to the original, it gives
/// the fixed file. git is needed here as by the checkout itself.
#[test]
fn git_applies_the_diff() {
    for name in ["block", "flow"] {
        let dir = tempfile::tempdir().unwrap();
        let file = copy(name, dir.path());
        let file_name = format!("{name}.yaml");
        let run = numi(dir.path(), &["fix", "--diff", "--files", &file_name]);
        let patch = dir.path().join("fix.patch");
        fs::write(&patch, &run.stdout).unwrap();
        let applied = std::process::Command::new("git")
            .args(["apply", "--unsafe-paths", "fix.patch"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            applied.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&applied.stderr)
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), after(name), "{name}");
    }
}

#[test]
fn standard_input_gets_the_document_back_when_nothing_can_be_fixed() {
    let input: &[u8] = b"\xff\xfekind: EvalSet\n";
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_numi"))
        .args(["fix", "--files", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input)?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(output.stdout, input);
    assert!(String::from_utf8_lossy(&output.stderr).contains("left     file \"-\": yaml/encoding"));
}

#[test]
fn a_rule_the_configuration_turns_off_is_not_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy("block", dir.path());
    let before = fs::read_to_string(&file).unwrap();
    fs::write(
        dir.path().join("numi.toml"),
        "[rules]\n\"evalset/cases-sorted\" = \"off\"\n\"evalset/outcome-digest\" = \"off\"\n",
    )
    .unwrap();
    let run = numi(dir.path(), &["fix", "--files", "block.yaml"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(
        run.stdout,
        "fixed    file \"block.yaml\": evalset/failures-sorted: sort /spec/cases/1/expect/verification_failures by layer\n\
         1 document: 1 fixed, 0 with findings left, 0 not fixed\n"
    );
    let fixed = fs::read_to_string(&file).unwrap();
    assert!(
        fixed.contains("sha256:70FD102E81FE"),
        "the digest is left alone"
    );
    assert_ne!(fixed, before);

    // Without the configuration, every fix is made.
    fs::write(&file, &before).unwrap();
    let unconfigured = numi(dir.path(), &["fix", "--no-config", "--files", "block.yaml"]);
    assert_eq!(unconfigured.code, 0, "{}", unconfigured.transcript());
    assert_eq!(fs::read_to_string(&file).unwrap(), after("block"));
}

#[test]
fn fix_reads_the_configuration_named_by_config() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy("block", dir.path());
    let before = fs::read_to_string(&file).unwrap();
    fs::write(
        dir.path().join("elsewhere.toml"),
        "[rules]\n\"evalset/cases-sorted\" = \"off\"\n",
    )
    .unwrap();
    let run = numi(
        dir.path(),
        &[
            "fix",
            "--check",
            "--config",
            "elsewhere.toml",
            "--files",
            "block.yaml",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.transcript());
    assert!(
        !run.stdout.contains("evalset/cases-sorted"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("evalset/outcome-digest"),
        "{}",
        run.stdout
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), before);

    let broken = numi(
        dir.path(),
        &["fix", "--config", "missing.toml", "--files", "block.yaml"],
    );
    assert_eq!(broken.code, 2, "{}", broken.transcript());
    assert_eq!(fs::read_to_string(&file).unwrap(), before);
}

#[test]
fn a_finding_its_comment_suppresses_is_not_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy("block", dir.path());
    let before = fs::read_to_string(&file).unwrap();
    let suppressed = before.replacen(
        "    - name: bugfix-lint-retry\n",
        "    - name: bugfix-lint-retry  # numi: ignore[evalset/cases-sorted] in the order added\n",
        1,
    );
    assert_ne!(suppressed, before);
    fs::write(&file, &suppressed).unwrap();
    let run = numi(dir.path(), &["fix", "--files", "block.yaml"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        !run.stdout.contains("evalset/cases-sorted"),
        "{}",
        run.stdout
    );
    let fixed = fs::read_to_string(&file).unwrap();
    let first = fixed.find("planted-sql-injection").unwrap();
    let second = fixed.find("bugfix-lint-retry").unwrap();
    assert!(first < second, "the cases keep their order:\n{fixed}");

    // numi validate agrees: the finding is suppressed, the file is valid.
    let validated = numi(dir.path(), &["validate", "--files", "block.yaml"]);
    assert_eq!(validated.code, 0, "{}", validated.transcript());
}

#[test]
fn strict_in_the_configuration_makes_producer_findings_left() {
    let dir = tempfile::tempdir().unwrap();
    copy("bundle", dir.path());
    let lenient = numi(dir.path(), &["fix", "--files", "bundle.yaml"]);
    assert_eq!(lenient.code, 0, "{}", lenient.transcript());
    fs::write(dir.path().join("numi.toml"), "strict = true\n").unwrap();
    let strict = numi(dir.path(), &["fix", "--files", "bundle.yaml"]);
    assert_eq!(strict.code, 3, "{}", strict.transcript());
    assert!(
        strict
            .stdout
            .contains("left     file \"bundle.yaml\": bundle/context-generation:"),
        "{}",
        strict.stdout
    );
}

#[cfg(unix)]
#[test]
fn a_private_file_stays_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = copy("block", dir.path());
    fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
    let run = numi(dir.path(), &["fix", "--files", "block.yaml"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(fs::read_to_string(&file).unwrap(), after("block"));
    let mode = fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

/// An EvalSet whose last case sorts first, with the line ends `eol`, and
/// with or without a line end after its last line.
fn last_case_first(eol: &str, final_line_end: bool) -> (String, String) {
    let digest = "sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242";
    let case = |name: &str| {
        format!(
            "    - name: {name}\n      outcome: {{value: \"{digest}\"}}\n      expect: {{acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}}\n"
        )
    };
    let head = "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {name: core}\nspec:\n  version: 1.0.0\n  cases:\n";
    let written = |first: &str, second: &str| {
        let text = format!("{head}{}{}", case(first), case(second)).replace('\n', eol);
        if final_line_end {
            text
        } else {
            text.trim_end().to_owned()
        }
    };
    (written("b", "a"), written("a", "b"))
}

/// Whatever a file's line ends, the fixed file keeps them, and the diff,
/// applied by `patch` (or `git apply` where `patch` is missing), builds the
/// file `numi fix` writes.
#[test]
fn line_ends_are_kept_and_the_diff_builds_the_written_file() {
    let patch_installed = std::process::Command::new("patch")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    for eol in ["\n", "\r\n", "\r"] {
        for final_line_end in [true, false] {
            let case = format!("{eol:?}, final line end {final_line_end}");
            let (before, sorted) = last_case_first(eol, final_line_end);
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("x.yaml");
            fs::write(&file, &before).unwrap();
            let diff = numi(dir.path(), &["fix", "--diff", "--files", "x.yaml"]);
            assert_eq!(diff.code, 3, "{case}: {}", diff.transcript());
            let run = numi(dir.path(), &["fix", "--files", "x.yaml"]);
            assert_eq!(run.code, 0, "{case}: {}", run.transcript());
            let written = fs::read_to_string(&file).unwrap();
            assert_eq!(written, sorted, "{case}");

            fs::write(&file, &before).unwrap();
            fs::write(dir.path().join("fix.patch"), &diff.stdout).unwrap();
            let applied = if patch_installed {
                std::process::Command::new("patch")
                    .args(["-p1", "--binary", "-i", "fix.patch"])
                    .current_dir(dir.path())
                    .output()
                    .unwrap()
            } else {
                std::process::Command::new("git")
                    .args(["apply", "--unsafe-paths", "fix.patch"])
                    .current_dir(dir.path())
                    .output()
                    .unwrap()
            };
            assert!(
                applied.status.success(),
                "{case}: {}{}\n{}",
                String::from_utf8_lossy(&applied.stdout),
                String::from_utf8_lossy(&applied.stderr),
                diff.stdout
            );
            assert_eq!(fs::read_to_string(&file).unwrap(), written, "{case}");
        }
    }
}

/// `text` with the edits of a json finding's fix applied: lines and columns
/// (characters, from 1) turned into byte offsets, the last edit first.
fn with_json_edits(text: &str, fix: &serde_json::Value) -> String {
    let offset = |line: &serde_json::Value, column: &serde_json::Value| {
        let (line, column) = (
            line.as_u64().unwrap() as usize,
            column.as_u64().unwrap() as usize,
        );
        let start: usize = text
            .split_inclusive('\n')
            .take(line - 1)
            .map(str::len)
            .sum();
        let rest = &text[start..];
        start
            + rest
                .char_indices()
                .nth(column - 1)
                .map_or(rest.len(), |(at, _)| at)
    };
    let mut edits: Vec<(usize, usize, &str)> = fix["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|edit| {
            (
                offset(&edit["line"], &edit["column"]),
                offset(&edit["end"]["line"], &edit["end"]["column"]),
                edit["content"].as_str().unwrap(),
            )
        })
        .collect();
    edits.sort_by_key(|(start, _, _)| std::cmp::Reverse(*start));
    let mut fixed = text.to_owned();
    for (start, end, content) in edits {
        fixed.replace_range(start..end, content);
    }
    fixed
}

#[test]
fn a_findings_fix_in_json_and_sarif_makes_what_numi_fix_writes() {
    let sorted =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/core-replay.yaml"))
            .unwrap();
    // The planted case moved first: the cases are out of order.
    let at = sorted.find("    - name: planted-sql-injection").unwrap();
    let cases = sorted.find("    - name: bugfix-clean").unwrap();
    let unsorted = format!(
        "{}{}{}",
        &sorted[..cases],
        &sorted[at..],
        &sorted[cases..at]
    );
    assert_ne!(unsorted, sorted);
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("x.yaml"), &unsorted).unwrap();

    let report = numi(
        dir.path(),
        &["validate", "--format", "json", "--files", "x.yaml"],
    );
    assert_eq!(report.code, 3, "{}", report.transcript());
    let report: serde_json::Value = serde_json::from_str(&report.stdout).unwrap();
    let finding = &report["results"][0]["diagnostics"][0];
    assert_eq!(finding["rule"], "evalset/cases-sorted", "{finding}");
    assert_eq!(finding["fix"]["message"], "sort /spec/cases by name");
    let from_json = with_json_edits(&unsorted, &finding["fix"]);

    let sarif = numi(
        dir.path(),
        &["validate", "--format", "sarif", "--files", "x.yaml"],
    );
    let sarif: serde_json::Value = serde_json::from_str(&sarif.stdout).unwrap();
    let fixes = &sarif["runs"][0]["results"][0]["fixes"];
    assert_eq!(
        fixes[0]["description"]["text"], "sort /spec/cases by name",
        "{sarif}"
    );
    let replacement = &fixes[0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(
        replacement["deletedRegion"]["startLine"],
        finding["fix"]["edits"][0]["line"]
    );
    assert_eq!(
        replacement["insertedContent"]["text"],
        finding["fix"]["edits"][0]["content"]
    );

    let run = numi(dir.path(), &["fix", "--files", "x.yaml"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let written = fs::read_to_string(dir.path().join("x.yaml")).unwrap();
    assert_eq!(from_json, written);
    assert_eq!(written, sorted);
    // A valid document's findings carry no fix, and json says nothing of one.
    let report = numi(
        dir.path(),
        &["validate", "--format", "json", "--files", "x.yaml"],
    );
    assert!(!report.stdout.contains("\"fix\""), "{}", report.stdout);
}
