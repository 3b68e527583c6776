//! `numi explain`: the rule catalogue on the command line.

#![allow(clippy::expect_used)]

mod common;

use common::{fixtures, numi};

fn explain(args: &[&str]) -> common::Run {
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    numi(&fixtures(), &all)
}

#[test]
fn a_rule_with_examples() {
    insta::assert_snapshot!(explain(&["evalset/seeded-category"]).transcript());
}

#[test]
fn a_schema_rule() {
    insta::assert_snapshot!(explain(&["schema/additionalProperties"]).transcript());
}

#[test]
fn a_rule_no_document_can_show() {
    insta::assert_snapshot!(explain(&["read/io"]).transcript());
}

#[test]
fn the_list_names_every_rule_once() {
    let run = explain(&["--list"]);
    assert_eq!(run.code, 0);
    let ids: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    let documented: Vec<&str> = numi::rules::all().map(|doc| doc.id).collect();
    assert_eq!(ids, documented);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn every_documented_rule_explains_itself() {
    for doc in numi::rules::all() {
        let mut stdout = Vec::new();
        let mut stderr = Vec::new();
        let code = numi::cli::main(
            ["numi", "explain", doc.id].map(std::ffi::OsString::from),
            &mut stdout,
            &mut stderr,
        );
        let text = String::from_utf8(stdout).expect("UTF-8");
        assert_eq!(code, 0, "{}", doc.id);
        assert!(stderr.is_empty(), "{}", doc.id);
        assert!(text.starts_with(&format!("{}  (stage: ", doc.id)), "{text}");
        assert_eq!(
            text.contains("\nFails:\n"),
            !doc.failing.is_empty(),
            "{}",
            doc.id
        );
        assert_eq!(
            text.contains("\nPasses:\n"),
            !doc.passing.is_empty(),
            "{}",
            doc.id
        );
    }
}

#[test]
fn an_unknown_rule_is_a_usage_error_with_a_suggestion() {
    let run = explain(&["evalset/case-sorted"]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.is_empty());
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn an_unknown_rule_far_from_any_gets_no_suggestion() {
    let run = explain(&["no-such-rule"]);
    assert_eq!(run.code, 2);
    assert!(!run.stderr.contains("did you mean"), "{}", run.stderr);
    assert!(run.stderr.contains("unknown rule id \"no-such-rule\""));
}

#[test]
fn a_rule_or_the_list_is_required_but_not_both() {
    assert_eq!(explain(&[]).code, 2);
    assert_eq!(explain(&["--list", "read/io"]).code, 2);
}
