use super::*;
use crate::diagnostic::address;
#[test]
fn the_source_shown_cannot_drive_the_terminal() {
    assert_eq!(printable("a\r\nb\rc\td"), "a\nb\nc→d");
    assert_eq!(printable("x\u{1b}[2J\u{7}"), "x\u{fffd}[2J\u{fffd}");
    assert_eq!(printable("a\u{202e}b"), "a\u{fffd}b");
    // One character for one: columns still count true.
    let hostile = "k: \u{1b}\u{202e}é";
    assert_eq!(printable(hostile).chars().count(), hostile.chars().count());
}

fn diagnostic(rule: &'static str, address: Address) -> Diagnostic {
    Diagnostic::new(
        crate::rules::find(rule).expect("a declared rule"),
        "message",
    )
    .at(address)
}

#[test]
fn help_shows_the_note_the_finding_carries() {
    let enum_at = diagnostic(
        "schema/enum",
        address!["spec", "cases", 0, "expect", "acceptance"],
    )
    .with_note("did you mean `EVAL_ACCEPTANCE_ACCEPTED`?");
    // The note is the fix: the rule's general advice gives way to it.
    assert_eq!(
        help(&enum_at),
        "did you mean `EVAL_ACCEPTANCE_ACCEPTED`?\n\
         `numi explain schema/enum` shows a failing and a passing example"
    );
    let missing = diagnostic("schema/required", address!["spec", "cases", 0, "outcome"])
        .with_note("add `outcome`");
    assert!(help(&missing).starts_with("add `outcome`\n`numi explain"));
    let unexpected = diagnostic("schema/additionalProperties", address!["spec", "colour"]);
    let advice = how_to_fix(unexpected.rule.explanation).unwrap();
    assert!(help(&unexpected).starts_with(&format!("{advice}\n")));
    let rule = diagnostic("evalset/cases-sorted", address!["spec", "cases", 1]);
    assert_eq!(
        help(&rule),
        "Move the case to its place, or rename or remove the duplicate.\n\
         `numi explain evalset/cases-sorted` shows a failing and a passing example"
    );
    let noted = rule.with_note("case \"b\" should follow case \"c\"");
    assert!(
        help(&noted).starts_with("case \"b\" should follow case \"c\"\nMove the case to its place")
    );
    let read = Diagnostic::new(&crate::diagnostic::stages::errors::IO, "permission denied");
    assert!(help(&read).ends_with("\n`numi explain read/io` tells more"));
    let kind = Diagnostic::new(&crate::diagnostic::stages::kind::UNKNOWN, "unknown kind")
        .with_note("did you mean `EvalSet`?");
    assert!(help(&kind).starts_with("did you mean `EvalSet`?\n"));
}

#[test]
fn the_help_says_how_to_fix_never_the_passing_state() {
    let two = "Why the rule exists.\n\nFix the text at the\nposition shown.";
    assert_eq!(
        how_to_fix(two).as_deref(),
        Some("Fix the text at the position shown.")
    );
    let one = "A ref leaks. Remove the query string.";
    assert_eq!(how_to_fix(one).as_deref(), Some("Remove the query string."));
    assert_eq!(how_to_fix(""), None);
    for doc in crate::rules::all() {
        if let Some(fix) = how_to_fix(doc.explanation) {
            assert_ne!(fix, doc.summary, "{}", doc.id);
        }
    }
}

/// The excerpt around `start` (`length` bytes) of `text`, and what miette
/// reads of it: the span's text, its line and column (both from 0).
fn excerpt(text: &str, start: usize, length: usize) -> (String, String, usize, usize) {
    let index = LineIndex::new(text);
    let (excerpt, span) = Excerpt::around("doc.yaml", &index, start, length).unwrap();
    let read = excerpt.read_span(&span, 0, 0).unwrap();
    let shown = String::from_utf8(read.data().to_vec()).unwrap();
    (excerpt.text().to_owned(), shown, read.line(), read.column())
}

#[test]
fn an_excerpt_holds_short_lines_whole() {
    let text = "a: 1\nb: 2\nc: 3\nd: 4\n";
    let (shown, span, line, column) = excerpt(text, 13, 1);
    assert_eq!(shown, "b: 2\nc: 3\nd: 4\n");
    assert_eq!((span.as_str(), line, column), ("3", 2, 3));
    // The first line has none before it; the last none after it.
    assert_eq!(excerpt(text, 0, 1).0, "a: 1\nb: 2\n");
    assert_eq!(excerpt("a: 1\nb: 2", 8, 1).0, "a: 1\nb: 2");
}

#[test]
fn an_excerpt_cuts_a_long_line_around_the_finding_and_keeps_its_column() {
    let long = format!("k: {}x{}", "a".repeat(70_000), "b".repeat(70_000));
    let text = format!("first\n{long}\n{long}\n");
    let at = "first\nk: ".len() + 70_000;
    let (shown, span, line, column) = excerpt(&text, at, 1);
    assert_eq!((span.as_str(), line, column), ("x", 1, 70_003));
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 3, "{shown}");
    assert_eq!(lines[0], "first");
    for cut in &lines[1..] {
        assert!(cut.starts_with('…') && cut.ends_with('…'), "{cut}");
        // The mark on either side, and the window between.
        assert_eq!(cut.chars().count(), excerpt::SHOWN_LINE + 2, "{cut}");
        assert!(cut.contains("ax"), "{cut}");
    }
    // A span running past the window ends with it.
    let (_, span, _, _) = excerpt(&text, at, 50_000);
    assert!(span.starts_with("xb") && span.chars().count() < excerpt::SHOWN_LINE);
}

#[test]
fn an_excerpt_cuts_on_character_boundaries() {
    let text = format!("k: {}x{}\n", "é".repeat(30_000), "€".repeat(30_000));
    let at = "k: ".len() + "é".len() * 30_000;
    let (shown, span, line, column) = excerpt(&text, at, 1);
    assert_eq!((span.as_str(), line, column), ("x", 0, at));
    assert!(
        shown.starts_with("…é") && shown.ends_with("€…\n"),
        "{shown}"
    );
}

#[test]
fn a_label_is_wrapped_from_the_column_miette_writes_it_at() {
    let wide = format!("{}key: ünï value\n", "x: 1\n".repeat(11));
    let cases = [
        ("a: 1\nkey: ünï value\nc: 3\n", "value", 5),
        ("a: 1\nkey: ünï value\nc: 3\n", "value", 0),
        ("k: 日本語 here\n", "here", 4),
        // Line numbers of two digits widen the gutter.
        (wide.as_str(), "value", 5),
    ];
    for (text, node, length) in cases {
        let index = LineIndex::new(text);
        let start = text.find(node).unwrap();
        let (excerpt, span) = Excerpt::around("doc.yaml", &index, start, length).unwrap();
        let column = excerpt.label_column(&span);
        let report = Report {
            message: "m".to_owned(),
            code: "x/y",
            severity: miette::Severity::Error,
            help: String::new(),
            source: Some(excerpt),
            label: Some(LabeledSpan::new_primary_with_span(
                Some("LABEL".to_owned()),
                span,
            )),
        };
        let mut rendered = String::new();
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
            .with_wrap_lines(false)
            .render_report(&mut rendered, &report)
            .unwrap();
        let line = rendered
            .lines()
            .find(|line| line.ends_with("LABEL"))
            .unwrap();
        let written_at = crate::text::columns(line) - "LABEL".len();
        assert_eq!(column, written_at, "{rendered}");
    }
}
