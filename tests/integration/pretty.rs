//! `numi validate --format pretty`: miette's report of every problem of
//! every document, snapshotted with colour off, on fixtures with several
//! problems per file in block and flow style.

#![allow(clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use std::process::Command;

use crate::common::{fixtures, numi};
use numi::report::Reporter;
use numi::report::pretty::PrettyReporter;
use numi::results::{FileResult, Origin};
use numi::yaml::Limits;
use numi::{Mode, validate_bytes};
use proptest::prelude::*;

fn pretty(args: &[&str]) -> common::Run {
    let mut all = vec!["validate", "--format", "pretty"];
    all.extend_from_slice(args);
    numi(&fixtures().join("pretty"), &all)
}

#[test]
fn every_problem_of_every_document_in_block_and_flow_style() {
    let run = pretty(&["--color", "never", "--files", "."]);
    assert_eq!(run.code, 3);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn a_file_that_cannot_be_read_has_no_snippet() {
    let run = pretty(&["--files", "missing.yaml", "ok.yaml"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn the_configuration_tree_gates() {
    let run = numi(
        &fixtures().join("verified/repo-with-bundle"),
        &["validate", "--format", "pretty", "."],
    );
    assert_eq!(run.code, 3);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn the_text_format_stays_the_default() {
    let text = numi(&fixtures().join("pretty"), &["validate", "--files", "."]);
    let explicit = numi(
        &fixtures().join("pretty"),
        &["validate", "--format", "text", "--files", "."],
    );
    assert_eq!(text.stdout, explicit.stdout);
    assert!(text.stdout.starts_with("revision: \"files\"\n"));
    assert!(!text.stdout.contains('×'));
}

fn coloured(run: &common::Run) -> bool {
    run.stdout.contains('\u{1b}')
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let file = ["--files", "unknown-kind.yaml"];
    let always = pretty(&[&["--color", "always"][..], &file[..]].concat());
    assert!(coloured(&always), "{}", always.stdout);
    assert_eq!(always.code, 3);
    let never = pretty(&[&["--color", "never"][..], &file[..]].concat());
    assert!(!coloured(&never));
    // Standard output is a pipe here, so auto means no colour.
    assert!(!coloured(&pretty(&file)));
    let no_color = Command::new(env!("CARGO_BIN_EXE_numi"))
        .args(["validate", "--format", "pretty", "--color", "auto"])
        .args(file)
        .current_dir(fixtures().join("pretty"))
        .env("NO_COLOR", "1")
        .output()
        .expect("numi runs");
    assert!(!no_color.stdout.contains(&0x1b));
    assert_eq!(
        pretty(&["--color", "sometimes", "--files", "ok.yaml"]).code,
        2
    );
}

/// Renders `bytes` as one document in the pretty format, colour off.
fn render(bytes: &[u8]) -> String {
    let checked = validate_bytes(bytes, Mode::Files, &Limits::default());
    let result = FileResult {
        origin: Origin::File,
        display_name: "doc.yaml".to_owned(),
        path: "doc.yaml".to_owned(),
        read_from: None,
        checked,
        source: Some(bytes.to_vec()),
    };
    let mut out = Vec::new();
    PrettyReporter::new(false)
        .result(&mut out, &result)
        .expect("renders");
    String::from_utf8(out).expect("UTF-8")
}

/// Nothing a file holds reaches the terminal as a control character.
fn assert_printable(report: &str) {
    assert!(
        !report
            .chars()
            .any(|c| (c.is_control() && c != '\n') || numi::text::is_invisible_format(c)),
        "{report}"
    );
}

#[test]
fn hostile_files_render_without_control_characters() {
    for entry in
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile"))
            .expect("corpus")
    {
        let bytes = std::fs::read(entry.expect("entry").path()).expect("read");
        assert_printable(&render(&bytes));
    }
}

const FIXTURES: [&str; 4] = [
    include_str!("../fixtures/pretty/playbook-block.yaml"),
    include_str!("../fixtures/pretty/evalset-flow.yaml"),
    include_str!("../fixtures/pretty/evalset-rules.yaml"),
    include_str!("../fixtures/pretty/bundle-flow.yaml"),
];

proptest! {
    #[test]
    fn any_bytes_render(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        assert_printable(&render(&bytes));
    }

    #[test]
    fn mutated_fixtures_render(
        fixture in 0..FIXTURES.len(),
        cuts in proptest::collection::vec((any::<prop::sample::Index>(), any::<char>()), 1..6),
    ) {
        let mut chars: Vec<char> = FIXTURES[fixture].chars().collect();
        for (at, c) in cuts {
            let i = at.index(chars.len());
            chars[i] = c;
        }
        let text: String = chars.into_iter().collect();
        assert_printable(&render(text.as_bytes()));
    }
}

#[test]
fn a_tab_is_shown_and_underlined_alone_at_its_own_line_and_column() {
    let report = render(
        b"apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata:\n  name: p\nspec:\n\tchange_type: bugfix\n",
    );
    assert!(report.contains("[doc.yaml:6:1]"), "{report}");
    let shown = report
        .lines()
        .position(|line| line.ends_with("│ →change_type: bugfix"))
        .unwrap_or_else(|| panic!("the tab is shown as →:\n{report}"));
    let underline = report.lines().nth(shown + 1).unwrap_or_default();
    assert_eq!(underline.trim_start(), "· ┬", "{report}");
}

/// A flow-style Playbook whose `spec` is one line with a scalar of
/// `filler` characters between two unknown keys.
fn one_long_line(filler: usize) -> String {
    format!(
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {{name: long}}\n\
         spec: {{notes: \"{}\", change_type: bugfx, bogus_key: 1}}\n",
        "a".repeat(filler)
    )
}

#[test]
fn a_finding_past_column_65535_is_reported_with_the_other_files() {
    let temp = tempfile::tempdir().expect("tempdir");
    std::fs::write(temp.path().join("a-long.yaml"), one_long_line(70_000)).expect("write");
    std::fs::write(
        temp.path().join("b-short.yaml"),
        "apiVersion: numinance.dev/v1\nkind: Playbook\nmetadata: {name: short}\nspec: {bogus: 1}\n",
    )
    .expect("write");
    let run = numi(
        temp.path(),
        &[
            "validate", "--format", "pretty", "--color", "never", "--files", ".",
        ],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stdout.contains("invalid  file \"a-long.yaml\""),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("invalid  file \"b-short.yaml\""),
        "{}",
        run.stdout
    );
    // The title's column past the filler is the document's own (in bytes,
    // from 1, as miette counts).
    let column = 1 + "spec: {notes: \"".len() + 70_000 + "\", change_type: bugfx, ".len();
    assert!(
        run.stdout.contains(&format!("[a-long.yaml:4:{column}]")),
        "{}",
        run.stdout
    );
    // The long line is shown cut to a window around each finding, marked.
    assert!(run.stdout.contains("│ …aaaa"), "{}", run.stdout);
    assert!(
        run.stdout.lines().all(|line| line.chars().count() < 200),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("2 documents: 0 ok, 2 invalid"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_two_megabyte_line_renders_a_report_of_a_few_lines() {
    let report = render(one_long_line(2_000_000).as_bytes());
    assert!(report.contains("[doc.yaml:4:2000039]"), "{report}");
    // Two findings, each shown with at most `SHOWN_LINE` characters of the line.
    assert!(report.len() < 4096, "{} bytes", report.len());
}
