//! The shipped `.pre-commit-hooks.yaml`, driven by the real `pre-commit`
//! the way a user installs it: a repository whose `.pre-commit-config.yaml`
//! names this checkout, so pre-commit builds numi with `language: rust`
//! (cargo, offline) and runs the `numi-validate` hook on each commit.
//!
//! `.ci/run` installs pre-commit and sets `NUMI_REQUIRE_PRECOMMIT`, so CI
//! never skips this test; elsewhere it is skipped, with a message, when
//! pre-commit is not installed.

// Helpers outside #[test] functions build fixtures; a failure there is a test failure.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

const VALID_PLAYBOOK: &str = "apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: bugfix-bounded}
spec: {change_type: bugfix}
";

/// An EvalSet under the wrong apiVersion: a line the spec verifies.
const INVALID_EVALSET: &str = "apiVersion: numinance.dev/v1
kind: EvalSet
metadata: {name: core-replay}
spec: {version: 1.0.0, cases: []}
";

const INVALID_LINE: &str =
    "invalid  file \"core-replay.yaml\": kind: invalid: apiVersion is not numinance.dev/v1alpha1";

/// How to start pre-commit here, if it is installed.
fn pre_commit() -> Option<Vec<String>> {
    let candidates = [
        vec!["pre-commit".to_owned()],
        vec![
            "python3".to_owned(),
            "-m".to_owned(),
            "pre_commit".to_owned(),
        ],
    ];
    candidates.into_iter().find(|candidate| {
        Command::new(&candidate[0])
            .args(&candidate[1..])
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success())
    })
}

struct Sandbox {
    _temp: tempfile::TempDir,
    root: PathBuf,
    cache: PathBuf,
}

impl Sandbox {
    fn new() -> Self {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().to_path_buf();
        let cache = root.join("pre-commit-home");
        Sandbox {
            _temp: temp,
            root,
            cache,
        }
    }

    /// A command with an environment that needs no network and no user
    /// configuration.
    fn command(&self, program: &str, cwd: &Path) -> Command {
        let mut command = Command::new(program);
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
        command
            .current_dir(cwd)
            .env("PRE_COMMIT_HOME", &self.cache)
            .env("PRE_COMMIT_COLOR", "never")
            .env("NO_COLOR", "1")
            .env("CARGO_NET_OFFLINE", "true")
            // One build directory across runs, so only numi itself is
            // rebuilt; a fast, unoptimised release profile for the hook.
            .env("CARGO_TARGET_DIR", checkout.join("target/pre-commit-hook"))
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_STRIP", "false")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "numi test")
            .env("GIT_AUTHOR_EMAIL", "numi@example.invalid")
            .env("GIT_COMMITTER_NAME", "numi test")
            .env("GIT_COMMITTER_EMAIL", "numi@example.invalid");
        command
    }

    fn git(&self, cwd: &Path, args: &[&str]) -> Output {
        let output = self.command("git", cwd).args(args).output().unwrap();
        assert!(
            output.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }
}

/// A git repository holding this checkout's files as they are now, committed
/// or not (what `pre-commit try-repo` does), so the test checks the working
/// tree rather than the last commit.
fn snapshot_of_checkout(sandbox: &Sandbox) -> (PathBuf, String) {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = sandbox.root.join("numi-source");
    fs::create_dir(&source).unwrap();
    let listed = sandbox.git(
        checkout,
        &[
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ],
    );
    for name in listed
        .stdout
        .split(|&b| b == 0)
        .filter(|name| !name.is_empty())
    {
        let name = std::str::from_utf8(name).unwrap();
        let from = checkout.join(name);
        if !from.is_file() {
            continue; // deleted in the working tree
        }
        let to = source.join(name);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(&from, &to).unwrap();
    }
    sandbox.git(&source, &["init", "--quiet"]);
    sandbox.git(&source, &["add", "--all"]);
    sandbox.git(&source, &["commit", "--quiet", "--no-verify", "-m", "numi"]);
    let head = sandbox.git(&source, &["rev-parse", "HEAD"]);
    let head = String::from_utf8(head.stdout).unwrap().trim().to_owned();
    (source, head)
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn the_numi_validate_hook_guards_commits() {
    let Some(pre_commit) = pre_commit() else {
        assert!(
            std::env::var_os("NUMI_REQUIRE_PRECOMMIT").is_none(),
            "pre-commit is not installed, and NUMI_REQUIRE_PRECOMMIT says it must be"
        );
        eprintln!(
            "SKIPPED the_numi_validate_hook_guards_commits: pre-commit is not installed \
             (python3 -m pip install pre-commit; .ci/run does)"
        );
        return;
    };
    let sandbox = Sandbox::new();
    let (source, head) = snapshot_of_checkout(&sandbox);

    let project = sandbox.root.join("project");
    fs::create_dir(&project).unwrap();
    sandbox.git(&project, &["init", "--quiet"]);
    fs::write(
        project.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {head}\n    hooks:\n      - id: numi-validate\n",
            source.display()
        ),
    )
    .unwrap();
    let run_pre_commit = |args: &[&str]| {
        sandbox
            .command(&pre_commit[0], &project)
            .args(&pre_commit[1..])
            .args(args)
            .output()
            .unwrap()
    };
    let installed = run_pre_commit(&["install"]);
    assert!(installed.status.success(), "{}", text(&installed));

    let started = Instant::now();
    let built = run_pre_commit(&["install-hooks"]);
    assert!(built.status.success(), "{}", text(&built));
    eprintln!(
        "pre-commit built the numi-validate hook in {:.0?}",
        started.elapsed()
    );

    // A valid configuration tree: the commit goes through.
    let policy = project.join(".numinance/policy");
    fs::create_dir_all(&policy).unwrap();
    fs::write(policy.join("playbook.yaml"), VALID_PLAYBOOK).unwrap();
    sandbox.git(&project, &["add", "--all"]);
    let valid = sandbox
        .command("git", &project)
        .args(["commit", "-m", "valid"])
        .output()
        .unwrap();
    let valid_text = text(&valid);
    assert!(valid.status.success(), "{valid_text}");
    assert!(valid_text.contains("numi validate"), "{valid_text}");
    assert!(valid_text.contains("Passed"), "{valid_text}");

    // An invalid document: the commit is refused with numi's line.
    fs::write(policy.join("core-replay.yaml"), INVALID_EVALSET).unwrap();
    sandbox.git(&project, &["add", "--all"]);
    let invalid = sandbox
        .command("git", &project)
        .args(["commit", "-m", "invalid"])
        .output()
        .unwrap();
    let invalid_text = text(&invalid);
    assert!(!invalid.status.success(), "{invalid_text}");
    assert!(invalid_text.contains("Failed"), "{invalid_text}");
    assert!(invalid_text.contains("exit code: 3"), "{invalid_text}");
    assert!(invalid_text.contains(INVALID_LINE), "{invalid_text}");
    let log = sandbox.git(&project, &["log", "--format=%s"]);
    assert_eq!(String::from_utf8(log.stdout).unwrap(), "valid\n");

    // Files outside the configuration tree are not the hook's business.
    fs::remove_file(policy.join("core-replay.yaml")).unwrap();
    fs::write(project.join("notes.yaml"), INVALID_EVALSET).unwrap();
    sandbox.git(&project, &["add", "--all"]);
    let outside = sandbox
        .command("git", &project)
        .args(["commit", "-m", "outside"])
        .output()
        .unwrap();
    let outside_text = text(&outside);
    assert!(outside.status.success(), "{outside_text}");
    assert!(
        outside_text.contains("(no files to check)"),
        "{outside_text}"
    );
}
