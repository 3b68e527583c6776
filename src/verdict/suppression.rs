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
//!
//! Suppressions are checked, as ruff checks its `noqa` comments: once a
//! configuration document's rules have run, a suppression naming no rule
//! (`suppression/unknown-rule`) and one that silences nothing on its line
//! (`suppression/unused`) are findings of their own, made after the
//! comments have had their say, so only `numi.toml` can turn them off.

use std::sync::LazyLock;

use memchr::memmem;

use crate::diagnostic::stages::project::{UNKNOWN_RULE, UNUSED};
use crate::diagnostic::{Diagnostic, Position, RuleDoc, Stage};
use crate::kinds::{self, Role};
use crate::rules;
use crate::text::{quote, shorten};
use crate::validate::{Checked, Parsed, Suppressed};
use crate::yaml::LineIndex;
use crate::yaml::comments::{self, Comment};

const MARKER: &str = "numi: ignore[";

/// The search for [`MARKER`], built once: building it costs more than
/// searching a policy document with it, and every document is searched.
static MARKER_FINDER: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(MARKER));

/// One suppression comment.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Suppression {
    /// Where its `#` stands.
    at: Position,
    /// The line it stands on, from 1.
    line: u32,
    /// Whether the comment is the whole line (it then covers the next line).
    alone: bool,
    rules: Vec<String>,
    reason: String,
}

/// Moves the findings the file's comments suppress from the diagnostics of
/// `checked` to its suppressed ones.
pub fn apply(checked: &mut Checked, parsed: &Parsed<'_>) {
    // The marker is rare: only a text that holds it is parsed for comments.
    if MARKER_FINDER.find(parsed.bytes()).is_none() {
        return;
    }
    let (Some(text), Some(lines)) = (parsed.text(), parsed.lines()) else {
        return;
    };
    let suppressions = suppressions(text, lines);
    if suppressions.is_empty() {
        return;
    }
    let produced = checked
        .kind
        .and_then(kinds::find)
        .is_some_and(|kind| kind.role == Role::Produced);
    // Every rule a document's rules could report had its chance only when
    // the document reached them: a known kind, no finding of an earlier
    // stage.
    let rules_ran = checked.kind.is_some()
        && checked
            .diagnostics
            .iter()
            .all(|diagnostic| diagnostic.stage() == Stage::Rule);
    let mut kept = Vec::with_capacity(checked.diagnostics.len());
    for mut diagnostic in std::mem::take(&mut checked.diagnostics) {
        let covering = diagnostic
            .position
            .filter(|_| diagnostic.stage() == Stage::Rule)
            .and_then(|position| {
                suppressions.iter().find(|suppression| {
                    suppression.covers(position.line)
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
    if rules_ran && !produced {
        let findings = kept
            .iter()
            .chain(checked.suppressed.iter().map(|kept| &kept.diagnostic));
        let about_suppressions = checked_suppressions(&suppressions, findings);
        kept.extend(about_suppressions);
    }
    checked.diagnostics = kept;
}

impl Suppression {
    /// Whether it covers a finding on `line`: its own line, and the next
    /// when it is alone on its line.
    fn covers(&self, line: u32) -> bool {
        self.line == line || (self.alone && self.line.saturating_add(1) == line)
    }
}

/// The findings about the suppressions themselves, given the document's
/// `findings` (silenced or not): a rule id that names no rule, and a rule a
/// suppression names with no finding where it stands.
fn checked_suppressions<'d>(
    suppressions: &[Suppression],
    findings: impl Iterator<Item = &'d Diagnostic> + Clone,
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for suppression in suppressions {
        for rule in &suppression.rules {
            let covered = findings.clone().any(|finding| {
                finding.rule.id == rule
                    && finding
                        .position
                        .is_some_and(|position| suppression.covers(position.line))
            });
            if covered {
                continue;
            }
            let finding = match rules::find(rule) {
                None => {
                    let hint = rules::nearest(rule)
                        .map(|near| format!(" (did you mean {}?)", quote(near)))
                        .unwrap_or_default();
                    about(
                        &UNKNOWN_RULE,
                        format!(
                            "a suppression names a rule: {} is no rule id{hint}",
                            quote(&shorten(rule))
                        ),
                        suppression,
                    )
                }
                Some(doc) => about(
                    &UNUSED,
                    format!(
                        "a suppression silences a finding: nothing of {} is reported {}",
                        doc.id,
                        if suppression.alone {
                            "on its line or the next"
                        } else {
                            "on its line"
                        }
                    ),
                    suppression,
                ),
            };
            found.push(finding);
        }
    }
    found
}

fn about(rule: &'static RuleDoc, message: String, suppression: &Suppression) -> Diagnostic {
    Diagnostic::new(rule, message).at_position(suppression.at)
}

/// Adds `note` after the note the finding already has, if any.
fn add_note(diagnostic: &mut Diagnostic, note: &str) {
    diagnostic.note = Some(match diagnostic.note.take() {
        Some(earlier) => format!("{earlier}; {note}"),
        None => note.to_owned(),
    });
}

/// The suppressions of a text, none when it is not YAML.
fn suppressions(text: &str, lines: &LineIndex<'_>) -> Vec<Suppression> {
    comments::comments(text)
        .unwrap_or_default()
        .iter()
        .filter_map(|comment| suppression(comment, lines.position(comment.offset)))
        .collect()
}

/// The suppression a comment holds: the marker right after its `#`, or
/// after a later `#` in it that follows white space
/// (`# kept # numi: ignore[...] reason`).
fn suppression(comment: &Comment<'_>, position: Position) -> Option<Suppression> {
    let text = comment.text;
    let at = text.find(MARKER)?;
    let code = text.get(..at)?.trim_end().strip_suffix('#')?;
    if !(code.is_empty() || code.ends_with([' ', '\t'])) {
        return None;
    }
    let rest = text.get(at + MARKER.len()..)?;
    let (rules, reason) = rest.split_once(']')?;
    Some(Suppression {
        at: position,
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

    /// [`super::apply`] on `text` as numi parses it.
    fn apply(found: &mut Checked, text: &[u8]) {
        super::apply(found, &Parsed::detached(text));
    }

    /// A rule no kind declares, so that these tests name it freely.
    const XY: RuleDoc = RuleDoc {
        id: "x/y",
        ..crate::kinds::evalset::catalogue::CASE_NAME
    };

    fn finding(rule: &'static RuleDoc, line: u32) -> Diagnostic {
        Diagnostic::new(rule, "m").at_position(Position { line, column: 3 })
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
            suppressions(text, &LineIndex::new(text)),
            vec![
                Suppression {
                    at: Position { line: 1, column: 6 },
                    line: 1,
                    alone: false,
                    rules: vec!["x/y".to_owned(), "x/z".to_owned()],
                    reason: "kept on purpose".to_owned()
                },
                Suppression {
                    at: Position { line: 2, column: 3 },
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
        let schema = Diagnostic::new(&crate::diagnostic::stages::schema::TYPE, "m")
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

    #[test]
    fn the_examples_of_the_suppression_rules_fail_and_pass() {
        use crate::diagnostic::stages::project::{UNKNOWN_RULE, UNUSED};
        use crate::validate::{Mode, validate_bytes};
        use crate::yaml::Limits;
        for rule in [&UNKNOWN_RULE, &UNUSED] {
            let weighed = |example: &str| {
                let mut checked =
                    validate_bytes(example.as_bytes(), Mode::Files, &Limits::default());
                apply(&mut checked, example.as_bytes());
                checked
            };
            let failing = weighed(rule.failing);
            let found: Vec<&str> = failing.diagnostics.iter().map(|d| d.rule.id).collect();
            assert_eq!(found, [rule.id], "{}", rule.id);
            assert!(failing.errors().next().is_none(), "{}: a warning", rule.id);
            let passing = weighed(rule.passing);
            assert!(
                passing.diagnostics.is_empty(),
                "{}: {:?}",
                rule.id,
                passing.diagnostics
            );
            assert_eq!(passing.suppressed.len(), 1, "{}", rule.id);
        }
    }

    #[test]
    fn an_unknown_rule_is_named_with_the_one_meant() {
        let mut found = checked(Vec::new());
        found.kind = Some("EvalSet");
        apply(
            &mut found,
            b"a: 1 # numi: ignore[evalset/case-sorted, x/none] why\n",
        );
        let messages: Vec<(String, Option<Position>)> = found
            .diagnostics
            .iter()
            .map(|d| (d.message.clone(), d.position))
            .collect();
        assert_eq!(
            messages,
            [
                (
                    "a suppression names a rule: \"evalset/case-sorted\" is no rule id (did you mean \"evalset/cases-sorted\"?)".to_owned(),
                    Some(Position { line: 1, column: 6 })
                ),
                (
                    "a suppression names a rule: \"x/none\" is no rule id".to_owned(),
                    Some(Position { line: 1, column: 6 })
                ),
            ]
        );
    }

    #[test]
    fn a_document_its_rules_did_not_reach_is_not_judged() {
        let text = b"a: 1 # numi: ignore[evalset/cases-sorted] why\n";
        // No kind, or a finding of an earlier stage: the rules never ran.
        let mut unknown = checked(Vec::new());
        apply(&mut unknown, text);
        assert!(unknown.diagnostics.is_empty());
        let mut schema = checked(vec![Diagnostic::new(
            &crate::diagnostic::stages::schema::REQUIRED,
            "m",
        )]);
        schema.kind = Some("EvalSet");
        apply(&mut schema, text);
        assert_eq!(schema.diagnostics.len(), 1);
        // A produced kind's comments are not the repository's.
        let mut produced = checked(Vec::new());
        produced.kind = Some("ContextBundle");
        apply(&mut produced, text);
        assert!(produced.diagnostics.is_empty());
        let mut configuration = checked(Vec::new());
        configuration.kind = Some("EvalSet");
        apply(&mut configuration, text);
        assert_eq!(
            configuration
                .diagnostics
                .iter()
                .map(|d| d.rule.id)
                .collect::<Vec<_>>(),
            ["suppression/unused"]
        );
        // Each rule of a suppression is judged on its own.
        let mut both = checked(vec![finding(
            &crate::kinds::evalset::catalogue::CASES_SORTED,
            1,
        )]);
        both.kind = Some("EvalSet");
        apply(
            &mut both,
            b"a: 1 # numi: ignore[evalset/cases-sorted, evalset/case-name] why\n",
        );
        assert_eq!(both.suppressed.len(), 1);
        assert_eq!(
            both.diagnostics
                .iter()
                .map(|d| d.message.as_str())
                .collect::<Vec<_>>(),
            [
                "a suppression silences a finding: nothing of evalset/case-name is reported on its line"
            ]
        );
    }
}
