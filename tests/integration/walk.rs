//! Which files a run reads: folder walks with the ignore rules and
//! `--exclude`, and `--only`, the named files of a repository read with the
//! gates of `numi validate .`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::Path;

use crate::common::numi;

const PLAYBOOK: &str = "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: NAME}\nspec: {change_type: bugfix}\n";

const EVALSET: &str = "apiVersion: numinance.dev/v1alpha1
kind: EvalSet
metadata: {name: core-replay}
spec:
  version: 1.0.0
  cases:
    - name: a-case
      outcome: {value: \"sha256:0000000000000000000000000000000000000000000000000000000000000000\"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false, verification_failures: []}
";

const BUNDLE: &str = "apiVersion: numinance.dev/v1\nkind: ContextBundle\nspec: {}\n";

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn playbook(name: &str) -> String {
    PLAYBOOK.replace("NAME", name)
}

/// The display names of a text report, in report order.
fn names(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip(1)
        .filter_map(|line| line.split('"').nth(1))
        .map(str::to_owned)
        .collect()
}

/// A folder with a document in each place a walk may or may not read.
fn mixed_folder(root: &Path) {
    write(root, "kept.yaml", &playbook("kept"));
    write(root, "sub/kept.yml", &playbook("sub-kept"));
    write(root, ".gitignore", "generated/\n*.draft.yaml\n");
    write(root, "generated/out.yaml", &playbook("generated"));
    write(root, "sub/wip.draft.yaml", &playbook("draft"));
    write(root, ".ignore", "vendor/\n");
    write(root, "vendor/theirs.yaml", &playbook("vendor"));
    write(root, ".github/workflows/ci.yml", "on: push\n");
    write(root, ".hidden.yaml", &playbook("hidden"));
}

#[test]
fn a_walk_honours_gitignore_ignore_files_and_hidden_paths() {
    let temp = tempfile::tempdir().unwrap();
    fs::create_dir(temp.path().join(".git")).unwrap();
    mixed_folder(temp.path());
    let result = numi(temp.path(), &["validate", "--files", "."]);
    assert_eq!(result.code, 0, "{}", result.transcript());
    assert_eq!(names(&result.stdout), ["kept.yaml", "sub/kept.yml"]);
}

#[test]
fn outside_a_git_repository_gitignore_is_not_read_but_ignore_files_are() {
    let temp = tempfile::tempdir().unwrap();
    mixed_folder(temp.path());
    let result = numi(temp.path(), &["validate", "--files", "."]);
    assert_eq!(
        names(&result.stdout),
        [
            "generated/out.yaml",
            "kept.yaml",
            "sub/kept.yml",
            "sub/wip.draft.yaml"
        ]
    );
}

#[test]
fn a_file_named_on_the_command_line_is_always_read() {
    let temp = tempfile::tempdir().unwrap();
    fs::create_dir(temp.path().join(".git")).unwrap();
    mixed_folder(temp.path());
    let result = numi(
        temp.path(),
        &[
            "validate",
            "--exclude",
            "*.yaml",
            "--files",
            "generated/out.yaml",
            ".hidden.yaml",
            "vendor/theirs.yaml",
        ],
    );
    assert_eq!(result.code, 0, "{}", result.transcript());
    assert_eq!(
        names(&result.stdout),
        ["out.yaml", ".hidden.yaml", "theirs.yaml"]
    );
}

#[test]
fn exclude_passes_over_what_its_glob_matches_in_a_folder() {
    let temp = tempfile::tempdir().unwrap();
    write(temp.path(), "conf/a.yaml", &playbook("a"));
    write(temp.path(), "conf/drafts/b.yaml", &playbook("b"));
    write(temp.path(), "conf/c.yml", &playbook("c"));
    let all = numi(temp.path(), &["validate", "--files", "conf"]);
    assert_eq!(names(&all.stdout), ["a.yaml", "c.yml", "drafts/b.yaml"]);
    let result = numi(
        temp.path(),
        &[
            "validate",
            "--files",
            "conf",
            "--exclude",
            "drafts/",
            "--exclude",
            "*.yml",
        ],
    );
    assert_eq!(names(&result.stdout), ["a.yaml"]);
}

#[test]
fn exclude_in_a_repository_is_relative_to_it() {
    let temp = tempfile::tempdir().unwrap();
    write(temp.path(), ".numinance/policy/a.yaml", &playbook("a"));
    write(temp.path(), ".numinance/drafts/b.yaml", "not: [valid");
    let all = numi(temp.path(), &["validate"]);
    assert_eq!(all.code, 3, "{}", all.transcript());
    let result = numi(
        temp.path(),
        &["validate", "--exclude", ".numinance/drafts/"],
    );
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "worktree"
    ok       repo ".numinance/policy/a.yaml" Playbook "a"
    --- stderr
    1 document: 1 ok, 0 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn a_bad_exclude_glob_is_a_usage_error() {
    let temp = tempfile::tempdir().unwrap();
    let result = numi(
        temp.path(),
        &["validate", "--exclude", "a[", "--files", "."],
    );
    assert_eq!(result.code, 2, "{}", result.transcript());
    assert!(
        result.stderr.contains("--exclude \"a[\""),
        "{}",
        result.stderr
    );
}

/// A repository with two documents of one file name and each gated kind.
fn repository(root: &Path) {
    write(root, ".numinance/team-b/playbook.yaml", &playbook("b"));
    write(root, ".numinance/team-a/playbook.yaml", &playbook("a"));
    write(root, ".numinance/evals/replay.yaml", EVALSET);
    write(root, ".numinance/records/bundle.yaml", BUNDLE);
    write(root, "notes.yaml", "not: [valid");
}

#[test]
fn only_reads_the_named_files_with_the_gates_of_the_repository_run() {
    let temp = tempfile::tempdir().unwrap();
    repository(temp.path());
    let whole = numi(temp.path(), &["validate", "."]);
    let named = numi(
        temp.path(),
        &[
            "validate",
            "--only",
            "./.numinance/team-b/playbook.yaml",
            "notes.yaml",
            ".numinance/records/bundle.yaml",
            ".numinance/evals/replay.yaml",
            ".numinance/team-a/playbook.yaml",
        ],
    );
    insta::assert_snapshot!(named.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "worktree"
    invalid  repo ".numinance/evals/replay.yaml": kind: alpha kind is not enabled: EvalSet
    invalid  repo ".numinance/records/bundle.yaml": kind: produced kind: ContextBundle is not configuration
    ok       repo ".numinance/team-a/playbook.yaml" Playbook "a"
    ok       repo ".numinance/team-b/playbook.yaml" Playbook "b"
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    4 documents: 2 ok, 2 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
    assert_eq!(named.transcript(), whole.transcript());
}

#[test]
fn only_takes_the_options_of_a_repository_run() {
    let temp = tempfile::tempdir().unwrap();
    repository(temp.path());
    let result = numi(
        temp.path(),
        &[
            "validate",
            "--only",
            "--enable-alpha",
            ".numinance/evals/replay.yaml",
        ],
    );
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "worktree"
    ok       repo ".numinance/evals/replay.yaml" EvalSet "core-replay"
    --- stderr
    1 document: 1 ok, 0 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn only_checks_duplicate_names_among_the_named_files() {
    let temp = tempfile::tempdir().unwrap();
    write(temp.path(), ".numinance/a.yaml", &playbook("same"));
    write(temp.path(), ".numinance/b.yaml", &playbook("same"));
    let one = numi(temp.path(), &["validate", "--only", ".numinance/b.yaml"]);
    assert_eq!(one.code, 0, "{}", one.transcript());
    let both = numi(
        temp.path(),
        &[
            "validate",
            "--only",
            "--strict",
            ".numinance/b.yaml",
            ".numinance/a.yaml",
            ".numinance/b.yaml",
        ],
    );
    insta::assert_snapshot!(both.transcript(), @r#"
    exit: 3
    --- stdout
    revision: "worktree"
    ok       repo ".numinance/a.yaml" Playbook "same"
    invalid  repo ".numinance/b.yaml": kind: invalid: documents of one kind have distinct names: Playbook "same" is already defined in ".numinance/a.yaml"
    --- stderr
    numi: hint: --format concise shows where each finding stands, --format pretty its source and fix
    2 documents: 1 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn only_passes_over_paths_outside_the_configuration_tree() {
    let temp = tempfile::tempdir().unwrap();
    repository(temp.path());
    let result = numi(
        temp.path(),
        &[
            "validate",
            "--only",
            "notes.yaml",
            ".numinance/../notes.yaml",
        ],
    );
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "worktree"
    "#);
    let missing = numi(temp.path(), &["validate", "--only", ".numinance/gone.yaml"]);
    insta::assert_snapshot!(missing.transcript(), @r#"
    exit: 1
    --- stdout
    revision: "worktree"
    error    repo ".numinance/gone.yaml": read: no such file or directory
    --- stderr
    1 document: 0 ok, 0 invalid, 1 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[cfg(unix)]
#[test]
fn only_refuses_a_link_that_leads_outside_the_repository() {
    let temp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "secret.yaml", &playbook("secret"));
    fs::create_dir(temp.path().join(".numinance")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.yaml"),
        temp.path().join(".numinance/link.yaml"),
    )
    .unwrap();
    let result = numi(temp.path(), &["validate", "--only", ".numinance/link.yaml"]);
    insta::assert_snapshot!(result.transcript(), @r#"
    exit: 1
    --- stdout
    revision: "worktree"
    error    repo ".numinance/link.yaml": read: the link leads outside the repository
    --- stderr
    1 document: 0 ok, 0 invalid, 1 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn full_paths_tells_apart_files_of_one_name_in_different_folders() {
    let temp = tempfile::tempdir().unwrap();
    repository(temp.path());
    write(temp.path(), "docs/playbook.yaml", &playbook("docs"));
    let staged = [
        ".numinance/team-a/playbook.yaml",
        ".numinance/team-b/playbook.yaml",
    ];
    // The reference's display name: a file argument shows its file name.
    let mut reference = vec!["validate", "--files"];
    reference.extend(staged);
    let reference = numi(temp.path(), &reference);
    assert_eq!(reference.code, 0, "{}", reference.transcript());
    assert_eq!(names(&reference.stdout), ["playbook.yaml", "playbook.yaml"]);
    // As the hook asks: each path as given, a folder's files under it.
    let mut full = vec!["validate", "--full-paths", "--files"];
    full.extend(staged);
    full.push("docs");
    let full = numi(temp.path(), &full);
    insta::assert_snapshot!(full.transcript(), @r#"
    exit: 0
    --- stdout
    revision: "files"
    ok       file ".numinance/team-a/playbook.yaml" Playbook "a"
    ok       file ".numinance/team-b/playbook.yaml" Playbook "b"
    ok       file "docs/playbook.yaml" Playbook "docs"
    --- stderr
    3 documents: 3 ok, 0 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
    // Pretty names the file in its header and its source label.
    write(temp.path(), "docs/bad/playbook.yaml", "kind: Playbook\n");
    let pretty = numi(
        temp.path(),
        &[
            "validate",
            "--full-paths",
            "--quiet",
            "--format",
            "pretty",
            "--color",
            "never",
            "--files",
            "docs",
        ],
    );
    insta::assert_snapshot!(pretty.transcript(), @r#"
    exit: 3
    --- stdout
    invalid  file "docs/bad/playbook.yaml" Playbook: 1 problem
    kind/api-version

      × invalid: apiVersion is not numinance.dev/v1
       ╭─[docs/bad/playbook.yaml:1:1]
     1 │ kind: Playbook
       · ───────┬──────
       ·        ╰── "/apiVersion"
       ╰────
      help: Set `apiVersion` to the kind's version.
            `numi explain kind/api-version` shows a failing and a passing example

    2 documents: 1 ok, 1 invalid, 0 error; 0 warnings, 0 suppressed (in [time])
    "#);
}

#[test]
fn full_paths_needs_files() {
    let temp = tempfile::tempdir().unwrap();
    repository(temp.path());
    let result = numi(temp.path(), &["validate", "--full-paths", "."]);
    assert_eq!(result.code, 2, "{}", result.transcript());
    assert!(result.stderr.contains("--files"), "{}", result.stderr);
}

/// A file name no UTF-8 text holds: byte 0xff.
#[cfg(target_os = "linux")]
fn non_utf8(prefix: &str) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStringExt;
    let mut bytes = prefix.as_bytes().to_vec();
    bytes.extend_from_slice(b"\xff.yaml");
    std::ffi::OsString::from_vec(bytes)
}

/// Runs numi with arguments that need not be UTF-8; its output is.
#[cfg(target_os = "linux")]
fn numi_os(cwd: &Path, args: &[&std::ffi::OsStr]) -> crate::common::Run {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_numi"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("numi runs");
    crate::common::Run {
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
        code: output.status.code().expect("an exit status"),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_name_that_is_not_utf8_is_read_when_named_as_a_walk_reads_it() {
    use std::ffi::OsStr;
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    fs::create_dir(root.join(".git")).unwrap();
    let odd = non_utf8("a");
    let broken = non_utf8("b");
    fs::create_dir_all(root.join(".numinance")).unwrap();
    fs::write(root.join(".numinance").join(&odd), playbook("odd")).unwrap();
    fs::write(root.join(".numinance").join(&broken), "kind: [\n").unwrap();
    fs::write(root.join(".numinance/ok.yaml"), playbook("plain")).unwrap();
    let in_tree = |name: &OsStr| Path::new(".numinance").join(name).into_os_string();
    let (odd_path, broken_path) = (in_tree(&odd), in_tree(&broken));
    let os = |word: &'static str| OsStr::new(word);

    // The folder walk reads both files and names them lossily.
    let walked = numi(root, &["validate", "--files", ".numinance"]);
    assert_eq!(walked.code, 3, "{}", walked.stderr);
    assert!(
        walked
            .stdout
            .contains("ok       file \"a\u{fffd}.yaml\" Playbook \"odd\"\n"),
        "{}",
        walked.stdout
    );
    // Named, each is read and named as the walk names it; the others too.
    let named = numi_os(
        root,
        &[
            os("validate"),
            os("--files"),
            &odd_path,
            os(".numinance/ok.yaml"),
            &broken_path,
        ],
    );
    assert_eq!(named.code, 3, "{}", named.stderr);
    assert_eq!(
        names(&named.stdout),
        ["a\u{fffd}.yaml", "ok.yaml", "b\u{fffd}.yaml"]
    );
    assert!(
        named
            .stdout
            .contains("invalid  file \"b\u{fffd}.yaml\": yaml: ")
    );
    // So do both pre-commit hooks: the broken file fails the commit.
    let hook = numi_os(
        root,
        &[
            os("validate"),
            os("--only"),
            &odd_path,
            &broken_path,
            os("README.md"),
        ],
    );
    assert_eq!(hook.code, 3, "{}", hook.stderr);
    assert_eq!(
        names(&hook.stdout),
        [".numinance/a\u{fffd}.yaml", ".numinance/b\u{fffd}.yaml"]
    );
    let hook = numi_os(
        root,
        &[os("validate"), os("--full-paths"), os("--files"), &odd_path],
    );
    assert_eq!(hook.code, 0, "{}", hook.stderr);
    assert_eq!(names(&hook.stdout), [".numinance/a\u{fffd}.yaml"]);
    // Two names shown alike are two files; one name given twice is one.
    let twin = {
        use std::os::unix::ffi::OsStringExt;
        std::ffi::OsString::from_vec(b".numinance/a\xfe.yaml".to_vec())
    };
    fs::write(root.join(&twin), "kind: [\n").unwrap();
    let hook = numi_os(
        root,
        &[os("validate"), os("--only"), &odd_path, &twin, &odd_path],
    );
    assert_eq!(hook.code, 3, "{}", hook.stderr);
    assert_eq!(
        names(&hook.stdout),
        [".numinance/a\u{fffd}.yaml", ".numinance/a\u{fffd}.yaml"]
    );
    // `numi fix` and `numi digest` take such a name too.
    let fix = numi_os(root, &[os("fix"), os("--check"), os("--files"), &odd_path]);
    assert_eq!(fix.code, 0, "{}", fix.stderr);
    let digest = numi_os(root, &[os("digest"), &odd_path]);
    assert_eq!(digest.code, 0, "{}", digest.stderr);
    assert!(
        digest.stdout.ends_with("  .numinance/a\u{fffd}.yaml\n"),
        "{}",
        digest.stdout
    );
}
