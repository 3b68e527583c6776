//! numi's pre-commit hooks, driven by the real `pre-commit` the way a user
//! installs them: the shipped `.pre-commit-hooks.yaml`, from a repository
//! whose `.pre-commit-config.yaml` names this checkout, so pre-commit
//! builds numi with `language: rust` (cargo, offline) and runs both hooks,
//! with `args`, on each commit; and the hook `numi init` writes from a
//! build from source, which runs the numi on PATH and needs nothing else.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use ::numi::init::{self, Origin};

use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
    name: "pre-commit",
    install: ".ci/run installs pre-commit==4.7.0 with pip into target/ci-tools",
    locate,
    tests: &[
        (
            "pre_commit::the_hooks_guard_commits_with_their_args",
            the_hooks_guard_commits_with_their_args,
        ),
        (
            "pre_commit::the_hook_numi_init_writes_runs_the_numi_on_path_alone",
            the_hook_numi_init_writes_runs_the_numi_on_path_alone,
        ),
    ],
};

const VALID_PLAYBOOK: &str = "apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: NAME}
spec: {change_type: bugfix}
";

/// Valid, with a producer-side finding: a warning, an error under `--strict`.
pub(crate) const RATE_PLAYBOOK: &str = "apiVersion: numinance.dev/v1
kind: Playbook
metadata: {name: rates}
spec:
  change_type: bugfix
  qualification: {min_runs: 20, max_rework_rate: 20000}
";

/// A valid EvalSet: an alpha kind, refused in the configuration tree
/// unless alpha is enabled, as `numi validate .` refuses it.
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

fn playbook(name: &str) -> String {
    VALID_PLAYBOOK.replace("NAME", name)
}

/// `pre-commit` on the PATH, else Python's `pre_commit` module, else the
/// one `.ci/run` installs.
fn locate() -> Option<Program> {
    let module = Program {
        path: PathBuf::from("python3"),
        leading: ["-m", "pre_commit"].map(OsString::from).to_vec(),
    };
    [
        Program::new("pre-commit"),
        module,
        Program::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ci-tools/bin/pre-commit")),
    ]
    .into_iter()
    .find(|program| program.answers(&["--version"]))
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
    fn command(&self, program: impl AsRef<std::ffi::OsStr>, cwd: &Path) -> Command {
        let mut command = Command::new(program);
        command
            .current_dir(cwd)
            .env("PRE_COMMIT_HOME", &self.cache)
            .env("PRE_COMMIT_COLOR", "never")
            .env("NO_COLOR", "1")
            .env("CARGO_NET_OFFLINE", "true")
            // One build directory across runs, so only numi itself is
            // rebuilt, where cargo puts this test's own build (a
            // CARGO_TARGET_DIR set elsewhere included); a fast, unoptimised
            // release profile for the hook.
            .env(
                "CARGO_TARGET_DIR",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit-hook"),
            )
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

/// The hook configuration of the test repository: both hooks, with `args`
/// as a user writes them; the files hook is verbose so its output shows.
fn pre_commit_config(source: &Path, head: &str) -> String {
    format!(
        "repos:
  - repo: {}
    rev: {head}
    hooks:
      - id: numi-validate
        args: [--strict]
      - id: numi-validate-files
        args: [--format, pretty, --color, never]
        verbose: true
",
        source.display()
    )
}

fn the_hooks_guard_commits_with_their_args(pre_commit: &Program) {
    let sandbox = Sandbox::new();
    let (source, head) = snapshot_of_checkout(&sandbox);

    let project = sandbox.root.join("project");
    fs::create_dir(&project).unwrap();
    sandbox.git(&project, &["init", "--quiet"]);
    fs::write(
        project.join(".pre-commit-config.yaml"),
        pre_commit_config(&source, &head),
    )
    .unwrap();
    let run_pre_commit = |args: &[&str]| {
        sandbox
            .command(&pre_commit.path, &project)
            .args(&pre_commit.leading)
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
        "pre-commit built the numi hooks in {:.0?}",
        started.elapsed()
    );
    let commit = |message: &str| {
        sandbox.git(&project, &["add", "--all"]);
        let output = sandbox
            .command("git", &project)
            .args(["commit", "-m", message])
            .output()
            .unwrap();
        (output.status.success(), text(&output))
    };

    // Valid documents, two of one file name: both hooks pass, and the
    // repository hook names them relative to the repository, in byte order.
    let policy = project.join(".numinance/policy");
    for team in ["team-b", "team-a"] {
        fs::create_dir_all(policy.join(team)).unwrap();
        fs::write(policy.join(team).join("playbook.yaml"), playbook(team)).unwrap();
    }
    let (passed, output) = commit("valid");
    assert!(passed, "{output}");
    assert_eq!(output.matches("Passed").count(), 2, "{output}");
    // `--format pretty` reached the files hook: its count line.
    assert!(
        output.contains("2 documents: 2 ok, 0 invalid, 0 error"),
        "{output}"
    );
    // The files hook names each by its path in the repository, not by
    // the file name the two share.
    for team in ["team-a", "team-b"] {
        assert!(
            output.contains(&format!(
                "ok       file \".numinance/policy/{team}/playbook.yaml\""
            )),
            "{output}"
        );
    }

    // A producer-side finding: `args: [--strict]` makes it an error in the
    // repository hook; the files hook (no --strict) lets it through.
    fs::write(policy.join("rates.yaml"), RATE_PLAYBOOK).unwrap();
    let (passed, output) = commit("rates");
    assert!(!passed, "{output}");
    assert!(output.contains("exit code: 3"), "{output}");
    assert!(
        output.contains(
            "invalid  repo \".numinance/policy/rates.yaml\": kind: invalid: a Playbook qualification rate is at most 10000 basis points: max_rework_rate is 20000"
        ),
        "{output}"
    );
    assert_eq!(output.matches("Passed").count(), 1, "{output}");
    fs::remove_file(policy.join("rates.yaml")).unwrap();

    // An alpha kind: the repository hook refuses it as `numi validate .`
    // does; the files hook reads alpha kinds.
    fs::write(policy.join("core-replay.yaml"), EVALSET).unwrap();
    let (passed, output) = commit("evalset");
    assert!(!passed, "{output}");
    let refused = "invalid  repo \".numinance/policy/core-replay.yaml\": kind: alpha kind is not enabled: EvalSet";
    assert!(output.contains(refused), "{output}");
    let ci = sandbox
        .command(env!("CARGO_BIN_EXE_numi"), &project)
        .args(["validate", "."])
        .output()
        .unwrap();
    assert!(text(&ci).contains(refused), "{}", text(&ci));
    let log = sandbox.git(&project, &["log", "--format=%s"]);
    assert_eq!(String::from_utf8(log.stdout).unwrap(), "valid\n");

    // Files outside the configuration tree are not the hooks' business.
    fs::remove_file(policy.join("core-replay.yaml")).unwrap();
    fs::write(project.join("notes.yaml"), EVALSET).unwrap();
    let (passed, output) = commit("outside");
    assert!(passed, "{output}");
    assert_eq!(output.matches("(no files to check)").count(), 2, "{output}");
}

/// `program` as a path that does not depend on the PATH: a bare name is
/// looked up on this process's PATH, so the tool still starts under a
/// PATH that holds numi and the system's folders alone.
fn absolute(program: &Path) -> PathBuf {
    if program.components().count() > 1 {
        return program.to_path_buf();
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|folder| folder.join(program))
        .find(|candidate| candidate.is_file())
        .unwrap_or_else(|| program.to_path_buf())
}

/// What a user who built numi from source gets from `numi init`: in a
/// fresh git repository, with that numi the only one on the PATH (beside
/// the system's folders, for git), the hook init writes runs it, with no
/// package to install and no index to reach. init's tree passes; a typo
/// of an enum value in its Playbook fails, and the output names the
/// finding; the installed hook refuses the commit.
fn the_hook_numi_init_writes_runs_the_numi_on_path_alone(pre_commit: &Program) {
    const SYSTEM: [&str; 2] = ["/usr/bin", "/bin"];
    for folder in SYSTEM {
        let other = Path::new(folder).join("numi");
        assert!(!other.exists(), "{} is on the PATH too", other.display());
    }
    assert!(
        SYSTEM
            .iter()
            .any(|folder| Path::new(folder).join("git").is_file()),
        "git is in neither of {SYSTEM:?}"
    );
    let temp = tempfile::tempdir().unwrap();
    let bin = temp.path().join("bin");
    fs::create_dir(&bin).unwrap();
    fs::copy(env!("CARGO_BIN_EXE_numi"), bin.join("numi")).unwrap();
    let path =
        std::env::join_paths(std::iter::once(bin.clone()).chain(SYSTEM.iter().map(PathBuf::from)))
            .unwrap();
    let home = temp.path().join("home");
    let project = temp.path().join("project");
    fs::create_dir(&project).unwrap();
    let command = |program: &Path| {
        let mut command = Command::new(program);
        command
            .current_dir(&project)
            .env_clear()
            .env("PATH", &path)
            .env("HOME", &home)
            .env("PRE_COMMIT_HOME", home.join("pre-commit"))
            .env("PRE_COMMIT_COLOR", "never")
            .env("NO_COLOR", "1")
            // Were a package wanted, pip would find no index to get it from.
            .env("PIP_CONFIG_FILE", "/dev/null")
            .env("PIP_NO_INDEX", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "numi test")
            .env("GIT_AUTHOR_EMAIL", "numi@example.invalid")
            .env("GIT_COMMITTER_NAME", "numi test")
            .env("GIT_COMMITTER_EMAIL", "numi@example.invalid");
        command
    };
    let run =
        |program: &str, args: &[&str]| command(Path::new(program)).args(args).output().unwrap();
    let git = |args: &[&str]| {
        let output = run("git", args);
        assert!(output.status.success(), "git {args:?}: {}", text(&output));
    };
    let pre_commit_path = absolute(&pre_commit.path);
    let run_pre_commit = |args: &[&str]| {
        git(&["add", "--all"]);
        let output = command(&pre_commit_path)
            .args(&pre_commit.leading)
            .args(args)
            .output()
            .unwrap();
        (output.status.success(), text(&output))
    };

    git(&["init", "--quiet"]);
    // `numi` by name: the one on the PATH.
    let init = run("numi", &["init"]);
    assert!(init.status.success(), "numi init: {}", text(&init));
    let config_path = project.join(".pre-commit-config.yaml");
    let config = fs::read_to_string(&config_path).unwrap();
    let origin = init::origin_of_this_build();
    assert_eq!(config, init::pre_commit_config(origin));
    if origin != Origin::Source {
        // A numi built by the release workflow for its tag writes the
        // wheel's hook, which needs the wheel from PyPI (tests/tools/wheel.rs
        // installs it): here the hook of a build from source is checked.
        fs::write(&config_path, init::pre_commit_config(Origin::Source)).unwrap();
    } else {
        assert!(
            text(&init).contains(".pre-commit-config.yaml (the hook runs the numi on PATH)"),
            "{}",
            text(&init)
        );
    }

    let (passed, output) = run_pre_commit(&["run", "--all-files"]);
    assert!(passed, "{output}");
    assert!(output.contains("numi validate"), "{output}");
    assert_eq!(output.matches("Passed").count(), 1, "{output}");

    let playbook = project.join(init::PLAYBOOK_PATH);
    let valid = fs::read_to_string(&playbook).unwrap();
    let typo = valid.replace("scope: SCOPE_REPO", "scope: SCOPE_REOP");
    assert_ne!(typo, valid);
    fs::write(&playbook, &typo).unwrap();
    let (passed, output) = run_pre_commit(&["run", "--all-files"]);
    assert!(!passed, "{output}");
    assert!(output.contains("Failed"), "{output}");
    let finding = format!(
        "invalid  repo \"{}\": kind: does not match the kind schema: ",
        init::PLAYBOOK_PATH
    );
    assert!(output.contains(&finding), "{output}");
    assert!(output.contains("/metadata/scope\\\": enum"), "{output}");

    // Installed, the hook refuses the commit.
    let (installed, output) = run_pre_commit(&["install"]);
    assert!(installed, "{output}");
    let commit = run("git", &["commit", "--quiet", "-m", "typo"]);
    assert!(!commit.status.success(), "{}", text(&commit));
    assert!(
        text(&commit).contains("/metadata/scope"),
        "{}",
        text(&commit)
    );
    fs::write(&playbook, &valid).unwrap();
    git(&["add", "--all"]);
    let commit = run("git", &["commit", "--quiet", "-m", "starter"]);
    assert!(commit.status.success(), "{}", text(&commit));
}
