//! `numi slug`: context-report's rule ids, one a line.

#![allow(clippy::unwrap_used)]

use std::process::Command;

fn slug(texts: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_numi"))
        .arg("slug")
        .args(texts)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

#[test]
fn the_spec_example_and_repeat_suffixes() {
    assert_eq!(
        slug(&["Never commit secrets to the repository."]),
        (
            Some(0),
            "never-commit-secrets-to-the-repository\n".to_owned()
        )
    );
    assert_eq!(
        slug(&["Do X.", "do x", "Other", "DO X!", ""]),
        (Some(0), "do-x\ndo-x-2\nother\ndo-x-3\nrule\n".to_owned())
    );
}

#[test]
fn a_text_is_required() {
    assert_eq!(slug(&[]).0, Some(2));
}
