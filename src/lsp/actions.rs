//! Code actions: the fixes offered for the findings under the cursor, and
//! one action that applies every fix of the file. The fixes themselves come
//! from a [`Fixer`]; this module only turns byte edits into LSP edits.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, TextEdit, Uri, WorkspaceEdit};

use super::diagnostics::{Finding, Weighing, lsp_range, to_lsp};
use super::encoding::Encoding;
use crate::diagnostic::Diagnostic;
use crate::project::Flags;
use crate::yaml::LineIndex;

/// One replacement of a byte range of the document's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteEdit {
    pub range: Range<usize>,
    pub replacement: String,
}

/// One way to fix one finding: what the action is called and the edits it
/// makes, which never overlap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<ByteEdit>,
}

/// The document a fix is asked for: where it is open (none for an unsaved
/// buffer) and the server's flags, which with the `numi.toml` that holds
/// there decide its findings.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    pub path: Option<&'a Path>,
    pub flags: Flags,
}

/// Where fixes come from: for a finding of a document's text, the fixes
/// it offers; for the whole text, the text `numi fix` would write.
pub trait Fixer: Send + Sync {
    fn fixes(&self, text: &str, scope: Scope<'_>, diagnostic: &Diagnostic) -> Vec<Fix>;

    /// `text` with every fix made, round after round; `None` when nothing
    /// would change.
    fn fix_all(&self, text: &str, scope: Scope<'_>) -> Option<String>;
}

/// The fixes of `numi fix` (`crate::fix`). A finding's quick fix is the fix
/// it carries: attached when the server checked the document, under the
/// settings that made the finding, so nothing is validated again. Fix-all
/// is the fix loop of `numi fix`, weighed as the server's checks weigh the
/// document ([`Weighing`]): a rule `numi.toml` turns off, or leaves out of
/// `select`, is not fixed.
#[derive(Debug, Default)]
pub struct FixEngine;

impl Fixer for FixEngine {
    fn fixes(&self, _text: &str, _scope: Scope<'_>, diagnostic: &Diagnostic) -> Vec<Fix> {
        diagnostic
            .fix
            .iter()
            .map(|fix| Fix {
                title: fix.message.clone(),
                edits: fix
                    .edits
                    .iter()
                    .map(|edit| ByteEdit {
                        range: edit.span.range(),
                        replacement: edit.content.clone(),
                    })
                    .collect(),
            })
            .collect()
    }

    fn fix_all(&self, text: &str, scope: Scope<'_>) -> Option<String> {
        let weighing = Weighing::of(scope.path, scope.flags)?;
        let fixed = crate::fix::fix_document(
            text,
            weighing.mode,
            weighing.location,
            weighing.settings.verdict(),
        )
        .ok()?;
        (fixed.text != text).then_some(fixed.text)
    }
}

/// A fixer that knows no fix: the server offers no action.
#[derive(Debug, Default)]
pub struct NoFixes;

impl Fixer for NoFixes {
    fn fixes(&self, _text: &str, _scope: Scope<'_>, _diagnostic: &Diagnostic) -> Vec<Fix> {
        Vec::new()
    }

    fn fix_all(&self, _text: &str, _scope: Scope<'_>) -> Option<String> {
        None
    }
}

/// The title of the action that applies every fix of the file at once.
pub const FIX_ALL_TITLE: &str = "numi: fix all in file";

/// The actions for the findings whose node meets `wanted`, each fix as a
/// quick fix, then "fix all in file" when fixing the file changes it.
pub(super) fn actions(
    fixer: &dyn Fixer,
    scope: Scope<'_>,
    uri: &Uri,
    text: &str,
    findings: &[Finding],
    wanted: Range<usize>,
    encoding: Encoding,
) -> Vec<CodeActionOrCommand> {
    let lines = LineIndex::new(text);
    let mut actions = Vec::new();
    for finding in findings {
        if !meets(&finding.span, &wanted) {
            continue;
        }
        for fix in fixer.fixes(text, scope, &finding.diagnostic) {
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: fix.title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![to_lsp(finding, &lines, encoding, uri)]),
                edit: Some(workspace_edit(uri, &lines, &fix.edits, encoding)),
                is_preferred: Some(true),
                ..CodeAction::default()
            }));
        }
    }
    if let Some(fixed) = fixer.fix_all(text, scope) {
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: FIX_ALL_TITLE.to_owned(),
            kind: Some(CodeActionKind::SOURCE_FIX_ALL),
            edit: Some(workspace_edit(
                uri,
                &lines,
                &[one_edit(text, &fixed)],
                encoding,
            )),
            ..CodeAction::default()
        }));
    }
    actions
}

/// Whether a finding's node and the requested range meet; an empty node
/// (a mapping that lacks a property) meets a range that touches it.
fn meets(node: &Range<usize>, wanted: &Range<usize>) -> bool {
    node.start <= wanted.end && wanted.start <= node.end
}

/// The one edit that turns `before` into `after`: the text between their
/// common start and their common end. Its ends fall on character
/// boundaries and never between the two halves of a CRLF, so an editor
/// places them on a line and column of both texts.
fn one_edit(before: &str, after: &str) -> ByteEdit {
    let cuts_badly = |text: &str, at: usize| {
        !text.is_char_boundary(at)
            || (text.as_bytes().get(at.wrapping_sub(1)) == Some(&b'\r')
                && text.as_bytes().get(at) == Some(&b'\n'))
    };
    let mut start = before
        .bytes()
        .zip(after.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while start > 0 && (cuts_badly(before, start) || cuts_badly(after, start)) {
        start -= 1;
    }
    let room = before.len().min(after.len()) - start;
    let mut common_end = before
        .bytes()
        .rev()
        .zip(after.bytes().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    while common_end > 0
        && (cuts_badly(before, before.len() - common_end)
            || cuts_badly(after, after.len() - common_end))
    {
        common_end -= 1;
    }
    ByteEdit {
        range: start..before.len() - common_end,
        replacement: after
            .get(start..after.len() - common_end)
            .unwrap_or_default()
            .to_owned(),
    }
}

/// Byte edits of the text `lines` indexes as the client applies them, in
/// its position encoding.
pub(super) fn workspace_edit(
    uri: &Uri,
    lines: &LineIndex<'_>,
    edits: &[ByteEdit],
    encoding: Encoding,
) -> WorkspaceEdit {
    let edits = edits
        .iter()
        .map(|edit| TextEdit {
            range: lsp_range(lines, &edit.range, encoding),
            new_text: edit.replacement.clone(),
        })
        .collect();
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    #[test]
    fn the_fix_engine_offers_the_fix_a_finding_carries() {
        let text = include_str!("../kinds/evalset/examples/cases-sorted.failing.yaml");
        let findings = super::super::diagnostics::check(text, None, UNSAVED.flags);
        let Some(finding) = findings.first() else {
            panic!("the example fails");
        };
        assert!(finding.diagnostic.fix.is_some(), "{finding:?}");
        let fixes = super::FixEngine.fixes(text, super::tests::UNSAVED, &finding.diagnostic);
        assert_eq!(fixes.len(), 1, "{fixes:?}");
        let mut fixed = text.to_owned();
        let mut edits = fixes[0].edits.clone();
        edits.sort_by_key(|edit| std::cmp::Reverse(edit.range.start));
        for edit in edits {
            fixed.replace_range(edit.range, &edit.replacement);
        }
        let again = crate::validate_bytes(
            fixed.as_bytes(),
            crate::Mode::Files,
            &crate::yaml::Limits::default(),
        );
        assert_eq!(again.diagnostics, vec![], "{fixed}");
        // A finding that carries no fix gets no action.
        let other = crate::Diagnostic::new(&crate::kinds::evalset::catalogue::CASE_NAME, "m");
        assert!(super::FixEngine.fixes(text, UNSAVED, &other).is_empty());
    }

    use std::str::FromStr;

    use super::*;

    use crate::validate::Mode;
    use crate::verdict::Verdict;

    /// An unsaved buffer, no flag set.
    pub(super) const UNSAVED: Scope<'static> = Scope {
        path: None,
        flags: Flags {
            enable_alpha: false,
            strict: false,
        },
    };

    /// Replaces the token of every finding of one rule with a fixed text.
    struct Replace(&'static str, &'static str);

    impl Fixer for Replace {
        fn fixes(&self, text: &str, _scope: Scope<'_>, diagnostic: &Diagnostic) -> Vec<Fix> {
            if diagnostic.rule.id != self.0 {
                return Vec::new();
            }
            let span = diagnostic.span.unwrap_or_default();
            let (start, end) = (span.start(), span.end().min(text.len()));
            vec![Fix {
                title: format!("replace with {}", self.1),
                edits: vec![ByteEdit {
                    range: start..end,
                    replacement: self.1.to_owned(),
                }],
            }]
        }

        fn fix_all(&self, text: &str, _scope: Scope<'_>) -> Option<String> {
            let fixed = text
                .replace("é1", self.1)
                .replace(": 2", &format!(": {}", self.1));
            (fixed != text).then_some(fixed)
        }
    }

    fn finding(line: u32, column: u32, span: Range<usize>) -> Finding {
        let mut diagnostic = Diagnostic::new(&crate::kinds::evalset::catalogue::VERSION, "bad")
            .at_position(crate::Position { line, column });
        diagnostic.span = Some(crate::diagnostic::Span::new(span.start, span.end));
        Finding { diagnostic, span }
    }

    fn titles(actions: &[CodeActionOrCommand]) -> Vec<String> {
        actions
            .iter()
            .map(|action| match action {
                CodeActionOrCommand::CodeAction(action) => action.title.clone(),
                CodeActionOrCommand::Command(command) => command.title.clone(),
            })
            .collect()
    }

    #[test]
    fn the_fix_under_the_cursor_and_fix_all_are_offered() {
        let text = "a: é1\nb: 2\n";
        let uri = Uri::from_str("file:///x.yaml").unwrap();
        let findings = [finding(1, 4, 3..6), finding(2, 4, 10..11)];
        let fixer = Replace("evalset/version", "0");
        let found = actions(
            &fixer,
            UNSAVED,
            &uri,
            text,
            &findings,
            10..10,
            Encoding::Utf16,
        );
        assert_eq!(titles(&found), ["replace with 0", FIX_ALL_TITLE]);
        let CodeActionOrCommand::CodeAction(all) = &found[1] else {
            panic!("an action")
        };
        let edits = &all.edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri];
        assert_eq!(edits.len(), 1);
        // One edit from "é1" to the "2" of the next line.
        assert_eq!(edits[0].range.start.character, 3);
        assert_eq!(edits[0].range.end.line, 1);
        assert_eq!(applied(text, &found[1], &uri), "a: 0\nb: 0\n");
    }

    #[test]
    fn no_action_where_no_fix_exists() {
        let uri = Uri::from_str("file:///x.yaml").unwrap();
        let findings = [finding(1, 4, 3..4)];
        let found = actions(
            &NoFixes,
            UNSAVED,
            &uri,
            "a: 1\n",
            &findings,
            0..5,
            Encoding::Utf16,
        );
        assert!(found.is_empty());
        let elsewhere = Replace("evalset/case-name", "0");
        let found = actions(
            &elsewhere,
            UNSAVED,
            &uri,
            "a: 1\n",
            &findings,
            0..5,
            Encoding::Utf16,
        );
        assert!(found.is_empty());
    }

    /// Every edit of one file of a workspace edit applied to `text`, as a
    /// client does.
    fn applied(text: &str, action: &CodeActionOrCommand, uri: &Uri) -> String {
        let CodeActionOrCommand::CodeAction(action) = action else {
            panic!("an action")
        };
        let edits = &action.edit.as_ref().unwrap().changes.as_ref().unwrap()[uri];
        let index = crate::yaml::LineIndex::new(text);
        let mut edits: Vec<(Range<usize>, &str)> = edits
            .iter()
            .map(|edit| {
                let at = |p: lsp_types::Position| {
                    index.offset_at(p.line, p.character, crate::yaml::Column::Utf16)
                };
                (
                    at(edit.range.start)..at(edit.range.end),
                    edit.new_text.as_str(),
                )
            })
            .collect();
        edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        let mut result = text.to_owned();
        for (range, new_text) in edits {
            result.replace_range(range, new_text);
        }
        result
    }

    const HEX: &str = "0b2958497ee0c936c59fa8dfb74b43077ad626e5dafd62df6521c4dd1e581242";

    fn case(name: &str, hex: &str, failures: &str) -> String {
        format!(
            "    - name: {name}\n      outcome: {{value: \"sha256:{hex}\"}}\n      expect:\n        acceptance: EVAL_ACCEPTANCE_REJECTED\n        merged: false\n        severe: false\n        verification_failures: [{failures}]\n"
        )
    }

    fn evalset(cases: &[String]) -> String {
        format!(
            "apiVersion: numinance.dev/v1alpha1\nkind: EvalSet\nmetadata: {{name: core}}\nspec:\n  version: 1.0.0\n  cases:\n{}",
            cases.concat()
        )
    }

    const UNSORTED: &str = "{layer: tests, count: 1}, {layer: lint, count: 1}";

    #[test]
    fn fix_all_writes_what_numi_fix_writes() {
        let uri = Uri::from_str("file:///x.yaml").unwrap();
        // A digest inside a case and the sort of the cases: two rounds. Two
        // unsorted lists: two fixes of one rule in one round.
        let two_rounds = evalset(&[case("b", &HEX.to_uppercase(), ""), case("a", HEX, "")]);
        let two_lists = evalset(&[case("a", HEX, UNSORTED), case("b", HEX, UNSORTED)]);
        for text in [two_rounds, two_lists] {
            let written = crate::fix::fix_document(
                &text,
                Mode::Files,
                crate::location::Location::detached(crate::location::DEFAULT_MAX_FILE_SIZE),
                Verdict::unconfigured(),
            )
            .unwrap()
            .text;
            assert_ne!(written, text);
            let checked = crate::validate_bytes(
                text.as_bytes(),
                Mode::Files,
                &crate::yaml::Limits::default(),
            );
            let findings: Vec<Finding> = checked
                .diagnostics
                .into_iter()
                .map(|diagnostic| Finding {
                    span: diagnostic.span.map_or(0..0, |s| s.start()..s.end()),
                    diagnostic,
                })
                .collect();
            assert!(findings.len() >= 2, "{findings:?}");
            let found = actions(
                &FixEngine,
                UNSAVED,
                &uri,
                &text,
                &findings,
                0..0,
                Encoding::Utf16,
            );
            let all = found
                .iter()
                .find(|action| titles(std::slice::from_ref(action)) == [FIX_ALL_TITLE])
                .expect("fix all is offered");
            assert_eq!(applied(&text, all, &uri), written);
            // Fixed, the file offers no fix-all.
            assert_eq!(FixEngine.fix_all(&written, UNSAVED), None);
        }
    }

    #[test]
    fn each_unsorted_list_offers_its_own_quick_fix() {
        let text = evalset(&[case("a", HEX, UNSORTED), case("b", HEX, UNSORTED)]);
        let findings = super::super::diagnostics::check(&text, None, UNSAVED.flags);
        let titles: Vec<Vec<String>> = findings
            .iter()
            .map(|finding| {
                FixEngine
                    .fixes(&text, UNSAVED, &finding.diagnostic)
                    .into_iter()
                    .map(|fix| fix.title)
                    .collect()
            })
            .collect();
        assert_eq!(
            titles,
            [
                ["sort /spec/cases/0/expect/verification_failures by layer"],
                ["sort /spec/cases/1/expect/verification_failures by layer"],
            ]
        );
    }

    #[test]
    fn one_edit_spans_only_what_changed() {
        let edit = |before: &str, after: &str| {
            let edit = one_edit(before, after);
            let mut result = before.to_owned();
            result.replace_range(edit.range.clone(), &edit.replacement);
            assert_eq!(result, after);
            (edit.range, edit.replacement)
        };
        assert_eq!(edit("a: B1\n", "a: b1\n"), (3..4, "b".to_owned()));
        assert_eq!(edit("x", "x"), (1..1, String::new()));
        assert_eq!(edit("ab", "b"), (0..1, String::new()));
        // "é" and "è" share their first byte: the edit takes the character.
        assert_eq!(edit("é", "è"), (0..2, "è".to_owned()));
        // Never between a carriage return and its line feed.
        assert_eq!(edit("a\r\nb", "a\rb"), (1..3, "\r".to_owned()));
        assert_eq!(edit("a\nb", "a\r\nb"), (1..2, "\r\n".to_owned()));
    }
}
