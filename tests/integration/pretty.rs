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
    render_at(bytes, numi::report::pretty::WIDTH)
}

/// [`render`], wrapped to `width` columns.
fn render_at(bytes: &[u8], width: usize) -> String {
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
    PrettyReporter::new(false, width)
        .result(&mut out, &result)
        .expect("renders");
    String::from_utf8(out).expect("UTF-8")
}

/// An AutonomyPolicy whose level is none of the ladder's eight: the
/// headline and the label list them all, some 200 columns.
const LONG_ENUM: &[u8] = b"apiVersion: numinance.dev/v1
kind: AutonomyPolicy
metadata: {name: org-default, scope: SCOPE_ORG}
spec:
  defaults: {level: AUTONOMY_LEVEL_PULL_REQUEST}
  rules:
    - {change_type: dependency-upgrade, risk_class: RISK_CLASS_LOW, level: AUTONOMY_LEVEL_MERGE}
";

/// The lines of the reports in `report` wider than `width` that are not a
/// line of the source (which is shown as written) and could have been
/// broken: more than one token after the gutter. The document's heading
/// and the rule ids, unindented, are not the report's.
fn overlong(report: &str, width: usize) -> Vec<&str> {
    report
        .lines()
        .filter(|line| line.starts_with(' ') && numi::text::columns(line) > width)
        .filter(|line| {
            let is_source = line
                .split_once('│')
                .is_some_and(|(gutter, _)| gutter.trim().parse::<usize>().is_ok());
            let text = line
                .rsplit(['│', '┤', '─', '·'])
                .next()
                .unwrap_or_default()
                .trim();
            !is_source && text.contains(' ')
        })
        .collect()
}

#[test]
fn long_enum_lists_and_labels_wrap_between_values_at_either_width() {
    for (width, name) in [(80, "long_enum_at_80"), (64, "long_enum_at_64")] {
        let report = render_at(LONG_ENUM, width);
        assert_eq!(overlong(&report, width), Vec::<&str>::new(), "{report}");
        // Every value of the list is whole on one line.
        for rung in ["OBSERVE", "IMPLEMENT", "RELEASE", "OPERATE"] {
            let value = format!("\"AUTONOMY_LEVEL_{rung}\"");
            assert!(report.lines().any(|line| line.contains(&value)), "{report}");
        }
        insta::assert_snapshot!(name, report);
    }
    // At the width they fit in, the same lines stay as they are.
    let wide = render_at(LONG_ENUM, 400);
    assert!(
        wide.lines().any(|line| line
            .ends_with("\"AUTONOMY_LEVEL_RELEASE\",\"AUTONOMY_LEVEL_OPERATE\"]")
            && line.contains("╰── expected one of [")),
        "{wide}"
    );
}

#[test]
fn a_token_wider_than_the_line_stays_whole() {
    let report = render_at(LONG_ENUM, 20);
    assert!(
        report
            .lines()
            .any(|line| line.ends_with("│ \"AUTONOMY_LEVEL_IMPLEMENT\",")),
        "{report}"
    );
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
