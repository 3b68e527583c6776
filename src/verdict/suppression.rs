//! Inline suppression: `# numi: ignore[RULE, ...] reason`, at the end of
//! the line a finding points at or alone on the line above it, silences
//! that finding of those rules. It is a YAML comment, as the parser reads
//! one ([`crate::yaml::comments`]): a `#` inside a scalar, of any style, is
//! the scalar's text and suppresses nothing, and a text that is not YAML
//! has no suppressions. Only findings of the rule stage can be silenced (a
//! document that fails YAML, its kind or its schema is not one), and only
//! with a reason: a suppression without one silences nothing and says so in
//! the finding's note. A silenced finding is kept, with its reason, and
//! counted.
//!
//! A produced document (a kind whose role is [`Role::Produced`]) cannot
//! silence its own findings: a runtime writes it from what it retrieved or
//! a model wrote, so its comments may be that input's words. A finding such
//! a comment names stays, with a note pointing at `numi.toml`, where the
//! repository (not the document) can accept it.

use crate::diagnostic::{Diagnostic, Stage};
use crate::kinds::{self, Role};
use crate::validate::{Checked, Suppressed};
use crate::yaml::comments::{self, Comment};

const MARKER: &str = "numi: ignore[";

/// One suppression comment.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Suppression {
    /// The line it stands on, from 1.
    line: u32,
    /// Whether the comment is the whole line (it then covers the next line).
    alone: bool,
    rules: Vec<String>,
    reason: String,
}

/// Moves the findings `text` suppresses from the diagnostics of `checked`
/// to its suppressed ones.
pub fn apply(checked: &mut Checked, text: &[u8]) {
    let suppressible = |d: &Diagnostic| d.stage == Stage::Rule && d.position.is_some();
    if !checked.diagnostics.iter().any(suppressible) {
        return;
    }
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    // The marker is rare: only a text that holds it is parsed for comments.
    if !text.contains(MARKER) {
        return;
    }
    let suppressions = suppressions(text);
    if suppressions.is_empty() {
        return;
    }
    let produced = checked
        .kind
        .and_then(kinds::find)
        .is_some_and(|kind| kind.role == Role::Produced);
    let mut kept = Vec::with_capacity(checked.diagnostics.len());
    for mut diagnostic in std::mem::take(&mut checked.diagnostics) {
        let covering = diagnostic
            .position
            .filter(|_| diagnostic.stage == Stage::Rule)
            .and_then(|position| {
                suppressions.iter().find(|suppression| {
                    let covers = suppression.line == position.line
                        || (suppression.alone
                            && suppression.line.saturating_add(1) == position.line);
                    covers
                        && suppression
                            .rules
                            .iter()
                            .any(|rule| rule == diagnostic.rule.id)
                })
            });
        match covering {
            Some(_) if produced => {
                let note = format!(
                    "not suppressed: {} is a produced kind, whose own comments cannot \
                     silence its findings; accept this one in numi.toml, with a level \
                     for `{}` in [rules] or in an [[overrides]] entry for this file",
                    checked.kind.unwrap_or_default(),
                    diagnostic.rule
                );
                add_note(&mut diagnostic, &note);
                kept.push(diagnostic);
            }
            Some(suppression) if !suppression.reason.is_empty() => {
                checked.suppressed.push(Suppressed {
                    diagnostic,
                    reason: suppression.reason.clone(),
                });
            }
            Some(_) => {
                let note = format!(
                    "not suppressed: `# numi: ignore[{}]` needs a reason after the bracket",
                    diagnostic.rule
                );
                add_note(&mut diagnostic, &note);
                kept.push(diagnostic);
            }
            None => kept.push(diagnostic),
        }
    }
    checked.diagnostics = kept;
}

/// Adds `note` after the note the finding already has, if any.
fn add_note(diagnostic: &mut Diagnostic, note: &str) {
    diagnostic.note = Some(match diagnostic.note.take() {
        Some(earlier) => format!("{earlier}; {note}"),
        None => note.to_owned(),
    });
}

/// The suppressions of a text, none when it is not YAML.
fn suppressions(text: &str) -> Vec<Suppression> {
    comments::comments(text)
        .unwrap_or_default()
        .iter()
        .filter_map(suppression)
        .collect()
}

/// The suppression a comment holds: the marker right after its `#`, or
/// after a later `#` in it that follows white space
/// (`# kept # numi: ignore[...] reason`).
fn suppression(comment: &Comment<'_>) -> Option<Suppression> {
    let text = comment.text;
    let at = text.find(MARKER)?;
    let code = text.get(..at)?.trim_end().strip_suffix('#')?;
    if !(code.is_empty() || code.ends_with([' ', '\t'])) {
        return None;
    }
    let rest = text.get(at + MARKER.len()..)?;
    let (rules, reason) = rest.split_once(']')?;
    Some(Suppression {
        line: comment.line,
        alone: comment.alone && code.is_empty(),
        rules: rules
            .split(',')
            .map(|rule| rule.trim().to_owned())
            .filter(|rule| !rule.is_empty())
            .collect(),
        reason: reason.trim().to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Position, RuleDoc};

    /// A rule no kind declares, so that these tests name it freely.
    const XY: RuleDoc = RuleDoc {
        id: "x/y",
        ..crate::kinds::evalset::catalogue::CASE_NAME
    };

    fn finding(rule: &'static RuleDoc, line: u32) -> Diagnostic {
        Diagnostic::new(Stage::Rule, rule, "m").at_position(Position { line, column: 3 })
    }

    fn checked(diagnostics: Vec<Diagnostic>) -> Checked {
        Checked {
            diagnostics,
            ..Checked::default()
        }
    }

    #[test]
    fn comments_are_read_at_the_end_of_a_line_and_alone_on_one() {
        let text = "a: 1 # numi: ignore[x/y, x/z] kept on purpose\n  # numi: ignore[x/w] why\nb: '# numi: ignore[x/q] r'\nc: d # x#numi: ignore[x/v] r\n";
        assert_eq!(
            suppressions(text),
            vec![
                Suppression {
                    line: 1,
                    alone: false,
                    rules: vec!["x/y".to_owned(), "x/z".to_owned()],
                    reason: "kept on purpose".to_owned()
                },
                Suppression {
                    line: 2,
                    alone: true,
                    rules: vec!["x/w".to_owned()],
                    reason: "why".to_owned()
                },
            ]
        );
    }

    #[test]
    fn a_comment_silences_the_named_rule_on_its_line_and_the_next() {
        let text = b"# numi: ignore[evalset/cases-sorted] replay order is historic\ncases:\n  - b # numi: ignore[evalset/case-name] legacy name\n";
        let mut found = checked(vec![
            finding(&crate::kinds::evalset::catalogue::CASES_SORTED, 2),
            finding(&crate::kinds::evalset::catalogue::CASE_NAME, 3),
            finding(&crate::kinds::evalset::catalogue::CASE_COUNT, 3),
            finding(&crate::kinds::evalset::catalogue::CASES_SORTED, 3),
        ]);
        apply(&mut found, text);
        let left: Vec<(&str, u32)> = found
            .diagnostics
            .iter()
            .map(|d| (d.rule.id, d.position.map_or(0, |p| p.line)))
            .collect();
        assert_eq!(
            left,
            [("evalset/case-count", 3), ("evalset/cases-sorted", 3)]
        );
        let silenced: Vec<(&str, &str)> = found
            .suppressed
            .iter()
            .map(|s| (s.diagnostic.rule.id, s.reason.as_str()))
            .collect();
        assert_eq!(
            silenced,
            [
                ("evalset/cases-sorted", "replay order is historic"),
                ("evalset/case-name", "legacy name")
            ]
        );
    }

    #[test]
    fn a_suppression_without_a_reason_silences_nothing_and_says_so() {
        let mut found = checked(vec![finding(
            &crate::kinds::evalset::catalogue::CASE_NAME,
            1,
        )]);
        apply(&mut found, b"name: B # numi: ignore[evalset/case-name]\n");
        assert!(found.suppressed.is_empty());
        assert_eq!(found.diagnostics.len(), 1);
        assert!(
            found.diagnostics[0]
                .note
                .as_deref()
                .is_some_and(|note| note.contains("needs a reason"))
        );
    }

    #[test]
    fn only_rule_findings_can_be_silenced() {
        let schema = Diagnostic::new(Stage::Schema, &crate::diagnostic::stages::schema::TYPE, "m")
            .at_position(Position { line: 1, column: 1 });
        let mut found = checked(vec![schema]);
        apply(&mut found, b"a: 1 # numi: ignore[schema/type] no\n");
        assert!(found.suppressed.is_empty());
        assert_eq!(found.diagnostics.len(), 1);
    }

    /// Whether a finding of `x/y` on `line` of `text` is suppressed.
    fn silenced(text: &str, line: u32) -> bool {
        let mut found = checked(vec![finding(&XY, line)]);
        apply(&mut found, text.as_bytes());
        assert_eq!(found.diagnostics.len() + found.suppressed.len(), 1);
        !found.suppressed.is_empty()
    }

    const IGNORE: &str = "# numi: ignore[x/y] r";

    /// A plain scalar cannot hold the marker: its `: ` ends the scalar,
    /// so such a text is not YAML; a real comment after one suppresses.
    #[test]
    fn plain_scalars_cannot_hold_a_suppression() {
        assert!(silenced(&format!("a: v {IGNORE}\n"), 1));
        assert!(silenced(&format!("a: one\n  two {IGNORE}\n"), 2));
        for would_be in [
            format!("a: v#{IGNORE}\n"),
            format!("a: one\n  two#{IGNORE}\n"),
        ] {
            assert_eq!(comments::comments(&would_be), None);
            assert!(!silenced(&would_be, 1) && !silenced(&would_be, 2));
        }
    }

    /// Each style of scalar, a real comment after it suppressing and the
    /// same words inside it not: (style, real, would-be, finding's line).
    #[test]
    fn every_scalar_style_keeps_its_text_and_leaves_its_comments() {
        let cases = [
            (
                "single-quoted",
                format!("a: 'v' {IGNORE}\n"),
                format!("a: 'v {IGNORE}'\n"),
                1,
            ),
            (
                "double-quoted",
                format!("a: \"v\" {IGNORE}\n"),
                format!("a: \"v {IGNORE}\"\n"),
                1,
            ),
            (
                "multi-line single-quoted",
                format!("a: 'one\n  two' {IGNORE}\n"),
                format!("a: 'one\n  two {IGNORE}'\n"),
                2,
            ),
            (
                "multi-line double-quoted",
                format!("a: \"one\n  two\" {IGNORE}\n"),
                format!("a: \"one\n  {IGNORE}\"\n"),
                2,
            ),
            (
                "literal",
                format!("a: | {IGNORE}\n  v\n"),
                format!("a: |\n  v {IGNORE}\n"),
                2,
            ),
            (
                "literal, stripped",
                format!("a: |- {IGNORE}\n  v\n"),
                format!("a: |-\n  {IGNORE}\n"),
                2,
            ),
            (
                "folded",
                format!("a: > {IGNORE}\n  v\n"),
                format!("a: >\n  v {IGNORE}\n"),
                2,
            ),
            (
                "folded, stripped",
                format!("a: >- {IGNORE}\n  v\n"),
                format!("a: >-\n  {IGNORE}\n"),
                2,
            ),
            (
                "flow sequence",
                format!("a: [v, w] {IGNORE}\n"),
                format!("a: [v, 'w {IGNORE}']\n"),
                1,
            ),
            (
                "flow mapping",
                format!("{{a: v}} {IGNORE}\n"),
                format!("{{a: \"v {IGNORE}\"}}\n"),
                1,
            ),
            (
                "key",
                format!("'k': v {IGNORE}\n"),
                format!("'k {IGNORE}': v\n"),
                1,
            ),
            (
                "block key",
                format!("? |\n  k\n: v {IGNORE}\n"),
                format!("? |\n  k\n  {IGNORE}\n: v\n"),
                3,
            ),
        ];
        for (style, real, would_be, line) in cases {
            let header_line = if style.starts_with("literal") || style.starts_with("folded") {
                1
            } else {
                line
            };
            assert!(silenced(&real, header_line), "{style}: {real:?}");
            assert!(!silenced(&would_be, line), "{style}: {would_be:?}");
        }
    }

    #[test]
    fn a_block_scalars_line_right_above_a_finding_is_text() {
        for header in ["|", "|-", "|+", ">", ">-", ">+"] {
            let would_be = format!("a: {header}\n  v\n  {IGNORE}\nb: 1\n");
            assert!(!silenced(&would_be, 4), "{would_be:?}");
            let real = format!("a: {header}\n  v\n{IGNORE}\nb: 1\n");
            assert!(silenced(&real, 4), "{real:?}");
        }
    }

    #[test]
    fn crlf_and_lone_cr_end_lines() {
        for end in ["\r\n", "\r"] {
            let text = [
                "a: 'one",
                "  two'",
                IGNORE,
                "b: 1",
                "c: |",
                "  # numi: ignore[x/y] r",
                "d: 1",
                "",
            ]
            .join(end);
            assert!(silenced(&text, 3) && silenced(&text, 4), "{text:?}");
            for line in [2, 5, 6, 7] {
                assert!(!silenced(&text, line), "{line}: {text:?}");
            }
        }
    }

    #[test]
    fn a_text_that_is_not_yaml_has_no_suppressions() {
        assert!(silenced(&format!("a: 1 {IGNORE}\n"), 1));
        assert!(!silenced(&format!("a: 1 {IGNORE}\nb: [\n"), 1));
    }

    #[test]
    fn a_suppression_may_follow_other_comment_text() {
        assert!(silenced(&format!("a: 1 # kept {IGNORE}\n"), 1));
        // Not alone on its line: it covers its own line only.
        assert!(!silenced(&format!("# kept {IGNORE}\na: 1\n"), 2));
        assert!(silenced(&format!("{IGNORE}\na: 1\n"), 2));
    }

    #[test]
    fn a_produced_document_does_not_suppress_its_own_findings() {
        let text = format!("a: 1 {IGNORE}\n");
        let mut produced = Checked {
            kind: Some("ContextBundle"),
            ..checked(vec![finding(&XY, 1)])
        };
        apply(&mut produced, text.as_bytes());
        assert!(produced.suppressed.is_empty());
        let note = produced.diagnostics[0].note.as_deref().unwrap_or_default();
        assert!(
            note.starts_with("not suppressed: ContextBundle is a produced kind")
                && note.contains("numi.toml"),
            "{note}"
        );

        let mut authored = Checked {
            kind: Some("Playbook"),
            ..checked(vec![finding(&XY, 1)])
        };
        apply(&mut authored, text.as_bytes());
        assert!(authored.diagnostics.is_empty());
        assert_eq!(authored.suppressed[0].reason, "r");
    }

    #[test]
    fn a_note_already_there_is_kept() {
        let mut found = checked(vec![finding(&XY, 1).with_note("case \"b\" first")]);
        apply(&mut found, b"a: 1 # numi: ignore[x/y]\n");
        assert_eq!(
            found.diagnostics[0].note.as_deref(),
            Some(
                "case \"b\" first; not suppressed: `# numi: ignore[x/y]` needs a reason after the bracket"
            )
        );
    }
}
