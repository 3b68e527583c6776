//! The workflows `numi init --ci github-actions` writes, audited by zizmor
//! (offline, pedantic persona) as `.ci/run` audits this repository's own:
//! no finding, for a release's (numi's action pinned to the tag's commit)
//! and a build from source's (numi built by the job). The release's with
//! numi's action named by its tag alone is a finding, so the audit can
//! fail. `.ci/run` installs zizmor into target/ci-tools; `NUMI_ZIZMOR`
//! names another one.

use std::path::{Path, PathBuf};

use ::numi::init::{self, Origin};

use crate::common::numi;
use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
    name: "zizmor",
    install: ".ci/run installs zizmor==1.32.0 with pip into target/ci-tools",
    locate,
    tests: &[(
        "zizmor::the_workflows_numi_init_writes_have_no_finding",
        the_workflows_numi_init_writes_have_no_finding,
    )],
};

/// `NUMI_ZIZMOR`, else `zizmor` on the PATH, else the one `.ci/run`
/// installs.
fn locate() -> Option<Program> {
    let candidates = match std::env::var_os("NUMI_ZIZMOR") {
        Some(named) => vec![PathBuf::from(named)],
        None => vec![
            PathBuf::from("zizmor"),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/ci-tools/bin/zizmor"),
        ],
    };
    candidates
        .into_iter()
        .map(Program::new)
        .find(|program| program.answers(&["--version"]))
}

/// zizmor's exit status and report on `workflow`.
fn audit(tool: &Program, workflow: &Path) -> (i32, String) {
    let output = tool
        .command()
        .args(["--offline", "--persona", "pedantic", "--no-progress"])
        .arg(workflow)
        .output()
        .expect("zizmor runs");
    let said = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.code().expect("an exit status"), said)
}

fn the_workflows_numi_init_writes_have_no_finding(tool: &Program) {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = numi(dir.path(), &["init", "repo", "--ci", "github-actions"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let workflow = dir.path().join("repo/.github/workflows/numi.yml");
    let (status, said) = audit(tool, &workflow);
    assert_eq!(status, 0, "{said}");

    let release = Origin::Release {
        commit: "0123456789abcdef0123456789abcdef01234567",
    };
    let mut written = String::new();
    for (name, origin) in [("release.yml", release), ("source.yml", Origin::Source)] {
        let file = dir.path().join(name);
        let text = init::github_actions_workflow(origin);
        std::fs::write(&file, &text).expect("write");
        let (status, said) = audit(tool, &file);
        assert_eq!(status, 0, "{name}: {said}");
        if origin == release {
            written = text;
        }
    }

    // The action named by its tag alone, with no reason given: a finding.
    let action = format!(
        "      - uses: {}@",
        init::REPOSITORY.trim_start_matches("https://github.com/")
    );
    let tag_only: String = written
        .lines()
        .map(|line| {
            if line.starts_with(&action) {
                format!("{action}{}\n", init::release_tag())
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    assert_ne!(tag_only, written, "no step uses numi's action:\n{written}");
    let tag_only_file = dir.path().join("tag-only.yml");
    std::fs::write(&tag_only_file, &tag_only).expect("write");
    let (status, said) = audit(tool, &tag_only_file);
    assert_ne!(status, 0, "a tag-pinned action passed: {said}");
    assert!(said.contains("unpinned-uses"), "{said}");
}
