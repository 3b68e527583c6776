//! Inline suppression: `# numi: ignore[RULE, ...] reason`, at the end of
//! the line a finding points at or alone on the line above it, silences
//! that finding of those rules. Only findings of the rule stage can be
//! silenced (a document that fails YAML, its kind or its schema is not
//! one), and only with a reason: a suppression without one silences
//! nothing and says so in the finding's note. A silenced finding is kept,
//! with its reason, and counted.

use crate::diagnostic::{Diagnostic, Stage};
use crate::validate::{Checked, Suppressed};

const MARKER: &str = "numi: ignore[";

/// One suppression comment.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Comment {
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
    if !text.contains(MARKER) {
        return;
    }
    let comments = comments(text);
    let mut kept = Vec::with_capacity(checked.diagnostics.len());
    for mut diagnostic in std::mem::take(&mut checked.diagnostics) {
        let covering = diagnostic
            .position
            .filter(|_| diagnostic.stage == Stage::Rule)
            .and_then(|position| {
                comments.iter().find(|comment| {
                    let covers = comment.line == position.line
                        || (comment.alone && comment.line.saturating_add(1) == position.line);
                    covers && comment.rules.iter().any(|rule| rule == diagnostic.rule.id)
                })
            });
        match covering {
            Some(comment) if !comment.reason.is_empty() => {
                checked.suppressed.push(Suppressed {
                    diagnostic,
                    reason: comment.reason.clone(),
                });
            }
            Some(_) => {
                diagnostic.note = Some(format!(
                    "not suppressed: `# numi: ignore[{}]` needs a reason after the bracket",
                    diagnostic.rule
                ));
                kept.push(diagnostic);
            }
            None => kept.push(diagnostic),
        }
    }
    checked.diagnostics = kept;
}

/// The suppression comments of a text. A `#` starts a YAML comment at the
/// start of a line or after white space.
fn comments(text: &str) -> Vec<Comment> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(at) = line.find(MARKER) else {
            continue;
        };
        let before = line.get(..at).unwrap_or_default().trim_end();
        let Some(code) = before.strip_suffix('#') else {
            continue;
        };
        if !(code.is_empty() || code.ends_with([' ', '\t'])) {
            continue;
        }
        let rest = line.get(at + MARKER.len()..).unwrap_or_default();
        let Some((rules, reason)) = rest.split_once(']') else {
            continue;
        };
        found.push(Comment {
            line: u32::try_from(index + 1).unwrap_or(u32::MAX),
            alone: code.trim().is_empty(),
            rules: rules
                .split(',')
                .map(|rule| rule.trim().to_owned())
                .filter(|rule| !rule.is_empty())
                .collect(),
            reason: reason.trim().to_owned(),
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Position, RuleDoc};

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
        let text = "a: 1 # numi: ignore[x/y, x/z] kept on purpose\n  # numi: ignore[x/w] why\nb: '# numi: ignore[x/q] r'\nc: d#numi: ignore[x/v] r\n";
        assert_eq!(
            comments(text),
            vec![
                Comment {
                    line: 1,
                    alone: false,
                    rules: vec!["x/y".to_owned(), "x/z".to_owned()],
                    reason: "kept on purpose".to_owned()
                },
                Comment {
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
}
