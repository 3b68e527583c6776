//! numi as the operating system starts it: with a standard stream closed,
//! and writing into a pipe whose reader has gone.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::fs;
use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::fixtures;

/// Runs `numi ARGS` in `cwd` through `sh`, with `redirections` (such as
/// `>&-`) applied to it; its exit status.
fn numi_with(cwd: &Path, redirections: &str, args: &[&str]) -> i32 {
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirections}"))
        .arg(env!("CARGO_BIN_EXE_numi"))
        .args(args)
        .current_dir(cwd)
        .status()
        .expect("sh runs");
    status
        .code()
        .expect("numi exits with a status, not a signal")
}

#[test]
fn with_its_standard_streams_closed_numi_fix_writes_only_the_fixed_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("flow.yaml");
    fs::copy(fixtures().join("fix/flow.before.yaml"), &file).unwrap();
    let code = numi_with(dir.path(), "<&- >&- 2>&-", &["fix", "--files", "flow.yaml"]);
    assert_eq!(code, 0);
    // Had the file numi writes taken the place of standard output, the
    // report would be in it.
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        fs::read_to_string(fixtures().join("fix/flow.after.yaml")).unwrap()
    );
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(names, ["flow.yaml"]);
}

#[test]
fn with_standard_output_closed_a_run_still_validates_and_exits_by_its_findings() {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/playbook-bugfix-bounded.yaml"),
        dir.path().join("playbook.yaml"),
    )
    .unwrap();
    fs::write(dir.path().join("broken.yaml"), "kind: Playbook\nspec: [\n").unwrap();
    assert_eq!(
        numi_with(dir.path(), ">&-", &["validate", "--files", "playbook.yaml"]),
        0
    );
    assert_eq!(
        numi_with(dir.path(), ">&-", &["validate", "--files", "broken.yaml"]),
        3
    );
}

#[test]
fn a_pipe_closed_by_its_reader_ends_the_run_as_incomplete_not_by_a_signal() {
    // More output than a pipe holds, so that a write fails once the reader
    // has gone, whenever it goes.
    let dir = tempfile::tempdir().unwrap();
    let playbook = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/playbook-bugfix-bounded.yaml"),
    )
    .unwrap();
    for index in 0..2000 {
        fs::write(dir.path().join(format!("p{index:04}.yaml")), &playbook).unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_numi"))
        .args(["validate", "--files", "."])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "a closed pipe is an incomplete run: {status:?}"
    );
}
