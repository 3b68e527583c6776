//! Code actions: the fixes offered for the findings under the cursor, and
//! one action that applies every fix of the file. The fixes themselves come
//! from a [`Fixer`]; this module only turns byte edits into LSP edits.

use std::collections::HashMap;
use std::ops::Range;

use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, TextEdit, Uri, WorkspaceEdit};

use super::diagnostics::{Finding, lsp_range, to_lsp};
use super::encoding::Encoding;
use crate::diagnostic::Diagnostic;
use crate::location::{DEFAULT_MAX_FILE_SIZE, Location};
use crate::validate::Mode;
use crate::verdict::Verdict;
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

/// Where fixes come from: for a finding of a document's text, the fixes
/// `numi fix` would make.
pub trait Fixer: Send + Sync {
    fn fixes(&self, text: &str, diagnostic: &Diagnostic) -> Vec<Fix>;
}

/// The fixes of `numi fix` (`crate::fix`), each offered for the finding it
/// repairs: the one fix of its rule in the document, or the one whose edit
/// stands on the finding's line.
#[derive(Debug, Default)]
pub struct FixEngine;

impl Fixer for FixEngine {
    fn fixes(&self, text: &str, diagnostic: &Diagnostic) -> Vec<Fix> {
        // The finding was weighed when it was shown; its inline
        // suppressions still decide which fixes of its rule are offered.
        let offered = crate::fix::fixes_for(
            text,
            Mode::Files,
            Location::detached(DEFAULT_MAX_FILE_SIZE),
            Verdict::unconfigured(),
        );
        let of_rule: Vec<crate::fix::Fix> = offered
            .fixes
            .into_iter()
            .filter(|fix| fix.rule == diagnostic.rule.id)
            .collect();
        let only_one = of_rule.len() == 1;
        let lines = LineIndex::new(text);
        of_rule
            .into_iter()
            .filter(|fix| {
                only_one
                    || diagnostic.position.is_some_and(|position| {
                        fix.edits
                            .iter()
                            .any(|edit| lines.position(edit.range.start).line == position.line)
                    })
            })
            .map(|fix| Fix {
                title: fix.title,
                edits: fix
                    .edits
                    .into_iter()
                    .map(|edit| ByteEdit {
                        range: edit.range,
                        replacement: edit.replacement,
                    })
                    .collect(),
            })
            .collect()
    }
}

/// A fixer that knows no fix: the server offers no action.
#[derive(Debug, Default)]
pub struct NoFixes;

impl Fixer for NoFixes {
    fn fixes(&self, _text: &str, _diagnostic: &Diagnostic) -> Vec<Fix> {
        Vec::new()
    }
}

/// The title of the action that applies every fix of the file at once.
pub const FIX_ALL_TITLE: &str = "numi: fix all in file";

/// The actions for the findings whose node meets `wanted`, each fix as a
/// quick fix, then "fix all in file" when the file has a fix at all.
pub fn actions(
    fixer: &dyn Fixer,
    uri: &Uri,
    text: &str,
    findings: &[Finding],
    wanted: Range<usize>,
    encoding: Encoding,
) -> Vec<CodeActionOrCommand> {
    let mut actions = Vec::new();
    let mut every_edit = Vec::new();
    for finding in findings {
        let fixes = fixer.fixes(text, &finding.diagnostic);
        let under_cursor = meets(&finding.span, &wanted);
        for fix in fixes {
            every_edit.push(fix.edits.clone());
            if under_cursor {
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![to_lsp(finding, text, encoding, uri)]),
                    edit: Some(workspace_edit(uri, text, &fix.edits, encoding)),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }));
            }
        }
    }
    let combined = without_overlaps(every_edit);
    if !combined.is_empty() {
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: FIX_ALL_TITLE.to_owned(),
            kind: Some(CodeActionKind::SOURCE_FIX_ALL),
            edit: Some(workspace_edit(uri, text, &combined, encoding)),
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

/// The edits of every fix that overlaps no fix before it, in document
/// order: a later fix of the same text is left for the next round.
fn without_overlaps(fixes: Vec<Vec<ByteEdit>>) -> Vec<ByteEdit> {
    let mut taken: Vec<ByteEdit> = Vec::new();
    for edits in fixes {
        let overlaps = edits.iter().any(|edit| {
            taken.iter().any(|other| {
                edit.range.start < other.range.end && other.range.start < edit.range.end
                    || edit.range == other.range
            })
        });
        if !overlaps {
            taken.extend(edits);
        }
    }
    taken.sort_by_key(|edit| (edit.range.start, edit.range.end));
    taken
}

/// Byte edits as the client applies them, in its position encoding.
pub fn workspace_edit(
    uri: &Uri,
    text: &str,
    edits: &[ByteEdit],
    encoding: Encoding,
) -> WorkspaceEdit {
    let edits = edits
        .iter()
        .map(|edit| TextEdit {
            range: lsp_range(text, &edit.range, encoding),
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
    fn the_fix_engine_offers_the_sort_of_unsorted_cases_and_the_case_of_a_digest() {
        let text = include_str!("../kinds/evalset/examples/cases-sorted.failing.yaml");
        let checked = crate::validate_bytes(
            text.as_bytes(),
            crate::Mode::Files,
            &crate::yaml::Limits::default(),
        );
        let Some(finding) = checked.diagnostics.first() else {
            panic!("the example fails");
        };
        let fixes = super::FixEngine.fixes(text, finding);
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
        // A finding no fix repairs gets no action.
        let other = crate::Diagnostic::new(
            crate::Stage::Rule,
            &crate::kinds::evalset::catalogue::CASE_NAME,
            "m",
        );
        assert!(super::FixEngine.fixes(text, &other).is_empty());
    }

    use std::str::FromStr;

    use super::*;
    use crate::diagnostic::Stage;

    /// Replaces the token of every finding of one rule with a fixed text.
    struct Replace(&'static str, &'static str);

    impl Fixer for Replace {
        fn fixes(&self, text: &str, diagnostic: &Diagnostic) -> Vec<Fix> {
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
    }

    fn finding(line: u32, column: u32, span: Range<usize>) -> Finding {
        let mut diagnostic = Diagnostic::new(
            Stage::Rule,
            &crate::kinds::evalset::catalogue::VERSION,
            "bad",
        )
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
        let found = actions(&fixer, &uri, text, &findings, 10..10, Encoding::Utf16);
        assert_eq!(titles(&found), ["replace with 0", FIX_ALL_TITLE]);
        let CodeActionOrCommand::CodeAction(all) = &found[1] else {
            panic!("an action")
        };
        let edits = &all.edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri];
        assert_eq!(edits.len(), 2);
        // "é1" ends at UTF-16 column 5 though it ends at byte 7.
        assert_eq!(edits[0].range.end.character, 5);
    }

    #[test]
    fn no_action_where_no_fix_exists() {
        let uri = Uri::from_str("file:///x.yaml").unwrap();
        let findings = [finding(1, 4, 3..4)];
        let found = actions(&NoFixes, &uri, "a: 1\n", &findings, 0..5, Encoding::Utf16);
        assert!(found.is_empty());
        let elsewhere = Replace("evalset/case-name", "0");
        let found = actions(&elsewhere, &uri, "a: 1\n", &findings, 0..5, Encoding::Utf16);
        assert!(found.is_empty());
    }

    #[test]
    fn overlapping_fixes_are_applied_one_at_a_time() {
        let edit = |range: Range<usize>| ByteEdit {
            range,
            replacement: String::new(),
        };
        let kept = without_overlaps(vec![vec![edit(5..8)], vec![edit(6..9)], vec![edit(0..2)]]);
        assert_eq!(kept, vec![edit(0..2), edit(5..8)]);
    }
}
