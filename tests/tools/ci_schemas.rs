//! The CI files `numi init --ci github-actions` and `--ci gitlab` write,
//! and this repository's own workflows and action, checked against the
//! real schemas GitHub's and GitLab's files follow, with
//! `check-jsonschema --builtin-schema` (python-jsonschema's CLI, pinned;
//! its schemas are vendored from SchemaStore and GitLab, so no network).
//! A file the schema refuses is refused here too, so the check can fail.
//! `.ci/run` installs check-jsonschema into target/ci-tools;
//! `NUMI_CHECK_JSONSCHEMA` names another one.

use std::path::{Path, PathBuf};

use ::numi::init::{self, Origin};

use crate::common::numi;
use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
    name: "check-jsonschema",
    install: ".ci/run installs check-jsonschema==0.39.0 with pip into target/ci-tools",
    locate,
    tests: &[
        (
            "ci_schemas::the_ci_files_numi_init_writes_follow_their_schemas",
            the_ci_files_numi_init_writes_follow_their_schemas,
        ),
        (
            "ci_schemas::the_repositorys_workflows_and_action_follow_their_schemas",
            the_repositorys_workflows_and_action_follow_their_schemas,
        ),
    ],
};

/// `NUMI_CHECK_JSONSCHEMA`, else `check-jsonschema` on the PATH, else the
/// one `.ci/run` installs.
fn locate() -> Option<Program> {
    let candidates = match std::env::var_os("NUMI_CHECK_JSONSCHEMA") {
        Some(named) => vec![PathBuf::from(named)],
        None => vec![
            PathBuf::from("check-jsonschema"),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ci-tools/bin/check-jsonschema"),
        ],
    };
    candidates
        .into_iter()
        .map(Program::new)
        .find(|program| program.answers(&["--version"]))
}

/// Whether `file` follows the built-in schema `schema`, and what
/// check-jsonschema said.
fn follows(tool: &Program, schema: &str, file: &Path) -> (bool, String) {
    let output = tool
        .command()
        .args(["--builtin-schema", schema, "--color", "never"])
        .arg(file)
        .output()
        .expect("check-jsonschema runs");
    let said = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), said)
}

fn the_ci_files_numi_init_writes_follow_their_schemas(tool: &Program) {
    let dir = tempfile::tempdir().expect("tempdir");
    for ci in ["github-actions", "gitlab"] {
        let run = numi(dir.path(), &["init", "repo", "--ci", ci]);
        assert_eq!(run.code, 0, "{}", run.transcript());
    }
    let repo = dir.path().join("repo");
    let written = [
        (
            "vendor.github-workflows",
            repo.join(".github/workflows/numi.yml"),
        ),
        ("vendor.gitlab-ci", repo.join(".gitlab-ci.yml")),
    ];
    for (schema, file) in &written {
        let (ok, said) = follows(tool, schema, file);
        assert!(ok, "{}: {said}", file.display());
    }
    // Both origins' files, whichever this build writes.
    let release = Origin::Release {
        commit: "0123456789abcdef0123456789abcdef01234567",
    };
    for (label, origin) in [("release", release), ("source", Origin::Source)] {
        let files = [
            (
                "vendor.github-workflows",
                format!("{label}-numi.yml"),
                init::github_actions_workflow(origin),
            ),
            (
                "vendor.gitlab-ci",
                format!("{label}.gitlab-ci.yml"),
                init::gitlab_ci_job(origin),
            ),
        ];
        for (schema, name, text) in files {
            let file = dir.path().join(name);
            std::fs::write(&file, text).expect("write");
            let (ok, said) = follows(tool, schema, &file);
            assert!(ok, "{}: {said}", file.display());
        }
    }

    // The same files with a mistake each schema knows: the check can fail.
    let broken = dir.path().join("broken");
    std::fs::create_dir_all(&broken).expect("a folder");
    let workflow = std::fs::read_to_string(&written[0].1).expect("the workflow");
    let gitlab = std::fs::read_to_string(&written[1].1).expect("the job");
    let mistakes = [
        (
            "vendor.github-workflows",
            "numi.yml",
            workflow.replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest"),
        ),
        (
            "vendor.gitlab-ci",
            ".gitlab-ci.yml",
            gitlab.replace("codequality:", "code-quality:"),
        ),
    ];
    for (schema, name, text) in mistakes {
        let file = broken.join(name);
        std::fs::write(&file, text).expect("write");
        let (ok, said) = follows(tool, schema, &file);
        assert!(!ok, "{name} with a mistake passed: {said}");
    }
}

fn the_repositorys_workflows_and_action_follow_their_schemas(tool: &Program) {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["ci.yml", "numi.yml", "release.yml"] {
        let file = checkout.join(".github/workflows").join(name);
        let (ok, said) = follows(tool, "vendor.github-workflows", &file);
        assert!(ok, "{name}: {said}");
    }
    let (ok, said) = follows(tool, "vendor.github-actions", &checkout.join("action.yml"));
    assert!(ok, "action.yml: {said}");
}
