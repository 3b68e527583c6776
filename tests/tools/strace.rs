//! `numi fix` never loses an edit that lands while it puts a fix in place:
//! strace holds numi's rename for two seconds (`inject=...:delay_enter`),
//! the test edits the file meanwhile, and the edit is what the file holds
//! afterwards. Before, numi compared the file and then renamed over it,
//! and the edit made between the two was lost.

use std::fs;
use std::time::Duration;

use crate::{Program, Tool};

pub(crate) const TOOL: Tool = Tool {
    name: "strace",
    install: ".ci/run installs Debian's strace with apt-get",
    locate,
    tests: &[(
        "strace::an_edit_made_while_fix_renames_is_kept",
        an_edit_made_while_fix_renames_is_kept,
    )],
};

fn locate() -> Option<Program> {
    let strace = Program::new("strace");
    strace.answers(&["-V"]).then_some(strace)
}

const UNSORTED: &str = "\
apiVersion: numinance.dev/v1alpha1
kind: EvalSet
metadata: {name: core, scope: SCOPE_REPO}
spec:
  version: 1.0.0
  cases:
    - name: b
      outcome: {value: \"sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242\"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
    - name: a
      outcome: {value: \"sha256:0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242\"}
      expect: {acceptance: EVAL_ACCEPTANCE_ACCEPTED, merged: true, severe: false}
";

fn an_edit_made_while_fix_renames_is_kept(strace: &Program) {
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("x.yaml");
    fs::write(&path, UNSORTED).expect("written");
    let fix = strace
        .command()
        .args([
            "-f",
            "-qq",
            "-o",
            "/dev/null",
            "-e",
            "trace=rename,renameat,renameat2",
            "-e",
            "inject=rename,renameat,renameat2:delay_enter=2000000",
        ])
        .arg(env!("CARGO_BIN_EXE_numi"))
        .args(["fix", "--files", "x.yaml"])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("strace runs numi");
    // numi reads, fixes and writes the new file within a second; its
    // rename is then held for two.
    std::thread::sleep(Duration::from_millis(1000));
    let edited = UNSORTED.replace("version: 1.0.0", "version: 1.0.1");
    fs::write(&path, &edited).expect("edited");
    let output = fix.wait_with_output().expect("numi ends");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        fs::read_to_string(&path).expect("read"),
        edited,
        "the edit is kept; numi said: {said}"
    );
    assert!(
        said.contains("changed since numi read it; nothing written"),
        "numi says why it wrote nothing: {said}"
    );
    assert_ne!(output.status.code(), Some(0), "{said}");
    let left: Vec<_> = fs::read_dir(dir.path())
        .expect("listed")
        .map(|entry| entry.expect("an entry").file_name())
        .collect();
    assert_eq!(left, ["x.yaml"], "no file is left beside it");
}
