//! The safe fixes: findings with one obviously right repair, applied as
//! text edits that keep every comment and the layout around them.
//!
//! A kind says which of its rules are fixable with [`RuleFix`] entries
//! (`Kind::fixes`): the rule id and the [`Repair`] that answers it. A fix
//! is data: the rule, a title, and text edits (byte ranges of the original
//! text and their replacements), plus the [`Change`] it means to make to the
//! document's value.
//!
//! The API, for `numi fix` and for editors (code actions):
//!
//! - [`fixes_for`]`(text, mode, location, verdict)`: validates the text,
//!   weighs its findings as the project does (a finding its inline comment
//!   suppresses or its configuration turns off is not fixed), and returns
//!   the fixes the findings left offer, the findings of fixable rules that
//!   have no safe fix (and why), and the validation itself.
//! - [`apply`]`(text, &fixes)`: applies fixes whose edits do not overlap and
//!   checks the result: it must load, and its value must be exactly the
//!   original value with each fix's [`Change`] made; otherwise
//!   [`FixRefused`] and nothing changes.
//! - [`fix_document`]`(text, mode, location, verdict)`: every fix, round after round
//!   (a sort of cases moves text that a fix inside a case edits), until no
//!   fix is offered.
//!
//! Sorting is a permutation of text spans (see `spans`): each item travels
//! with the comment lines directly above it and the comment at the end of
//! its line; what lies between items stays. `docs/fix.md` says how to add a
//! fix.

mod repairs;
mod spans;
mod write;

#[cfg(test)]
mod tests;

use std::fmt;
use std::ops::Range;
use std::path::Path;

use serde_json::Value;

use crate::diagnostic::{Address, Diagnostic, Edit, RuleDoc, Span, Stage, SuggestedFix};
use crate::kinds;
use crate::location::Location;
pub use crate::repair::{Repair, RuleFix};
use crate::validate::{Checked, Mode, Parsed, validate_parsed};
use crate::verdict::Verdict;
use crate::yaml::{self, Limits, LineIndex};
pub use write::{WriteRefused, write_atomically};

/// One replacement of a byte range of the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub range: Range<usize>,
    pub replacement: String,
}

/// What a fix means to do to the document's value: how [`apply`] checks
/// that the edits did exactly that.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The sequence at `path`, stably sorted by each item's string `key`.
    Sort { path: Address, key: &'static str },
    /// The string at `path`, in lower case.
    Lowercase { path: Address },
}

impl Change {
    /// The node the change is made to.
    pub fn path(&self) -> &Address {
        match self {
            Change::Sort { path, .. } | Change::Lowercase { path } => path,
        }
    }
}

/// One safe fix of one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub rule: &'static RuleDoc,
    /// What the fix does, for people: `sort /spec/cases by name`.
    pub title: String,
    pub edits: Vec<TextEdit>,
    pub change: Change,
}

impl Fix {
    /// Whether this fix repairs `diagnostic`: a finding of its rule about
    /// the node it changes or a node inside it.
    pub fn repairs(&self, diagnostic: &Diagnostic) -> bool {
        self.rule.id == diagnostic.rule.id
            && diagnostic
                .address
                .as_ref()
                .is_some_and(|address| address.starts_with(self.change.path()))
    }

    /// The fix as a finding carries it, its edits placed in `lines`.
    fn suggested(&self, lines: &LineIndex<'_>) -> SuggestedFix {
        let mut edits: Vec<Edit> = self
            .edits
            .iter()
            .map(|edit| Edit {
                span: Span::new(edit.range.start, edit.range.end),
                start: lines.position(edit.range.start),
                end: lines.position(edit.range.end),
                content: edit.replacement.clone(),
            })
            .collect();
        edits.sort_by_key(|edit| edit.span.start());
        SuggestedFix {
            message: self.title.clone(),
            edits,
        }
    }
}

/// Puts on each finding of `checked` (the validation of `parsed`) that a
/// safe fix repairs the fix `numi fix` would make for it, so that json,
/// SARIF and the language server carry it. A document offers fixes only
/// when it reached the rule stage; one with no finding of a fixable rule
/// costs nothing more.
pub fn attach(checked: &mut Checked, parsed: &Parsed<'_>) {
    let Some(kind) = checked.kind.and_then(kinds::find) else {
        return;
    };
    let fixable = |diagnostic: &Diagnostic| {
        kind.fixes
            .iter()
            .any(|fix| fix.rule.id == diagnostic.rule.id)
    };
    if !checked.diagnostics.iter().any(fixable)
        || !checked.diagnostics.iter().all(|d| d.stage() == Stage::Rule)
    {
        return;
    }
    let (Some(text), Some(document), Some(lines)) =
        (parsed.text(), parsed.document(), parsed.lines())
    else {
        return;
    };
    let (fixes, _) = repairs::offer(text, document, kind.fixes, checked);
    if fixes.is_empty() {
        return;
    }
    for diagnostic in &mut checked.diagnostics {
        let Some(fix) = fixes.iter().find(|fix| fix.repairs(diagnostic)) else {
            continue;
        };
        // A fix's edits quote the document whole, unmasked (masked, they
        // would write the mask into the file): one that would show a
        // credential is carried by no report; `numi fix` still makes it.
        let shows_a_secret = fix.edits.iter().any(|edit| {
            !crate::secrets::credentials(&edit.replacement).is_empty()
                || diagnostic
                    .secrets
                    .iter()
                    .any(|secret| edit.replacement.contains(secret.as_str()))
        });
        if !shows_a_secret {
            diagnostic.fix = Some(Box::new(fix.suggested(lines)));
        }
    }
}

/// A finding of a fixable rule that numi will not fix, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfixable {
    pub rule: &'static RuleDoc,
    pub address: Address,
    pub reason: String,
}

/// What a document offers to fix.
#[derive(Debug, Clone, Default)]
pub struct Offered {
    pub fixes: Vec<Fix>,
    pub unfixable: Vec<Unfixable>,
    /// The validation the offer is based on.
    pub checked: Checked,
}

/// Why fixes were not applied; the text is left as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixRefused {
    pub reason: String,
}

impl fmt::Display for FixRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

fn refused(reason: impl Into<String>) -> FixRefused {
    FixRefused {
        reason: reason.into(),
    }
}

/// The fixes the findings of `text` offer. Only a document that reached the
/// rule stage (it loads, is of a known kind, passes its gates and schema)
/// offers any: the repairs rely on the shape the schema guarantees.
pub fn fixes_for(text: &str, mode: Mode, location: Location<'_>, verdict: Verdict<'_>) -> Offered {
    let path = location.path().unwrap_or(Path::new("")).to_path_buf();
    let parsed = Parsed::load(text.as_bytes(), &Limits::default(), &location);
    let mut checked = validate_parsed(&parsed, mode, location);
    verdict.apply(&mut checked, &parsed, &path);
    let mut offered = Offered::default();
    let kind = checked.kind.and_then(kinds::find);
    let reached_rules = checked.diagnostics.iter().all(|d| d.stage() == Stage::Rule);
    if let (Some(kind), true, Some(document)) = (kind, reached_rules, parsed.document()) {
        if !kind.fixes.is_empty() {
            let (fixes, unfixable) = repairs::offer(text, document, kind.fixes, &checked);
            offered.fixes = fixes;
            offered.unfixable = unfixable;
        }
    }
    offered.checked = checked;
    offered
}

/// `text` with `fixes` applied, checked: it loads, and its value is the
/// original value with every fix's change made. Fixes whose edits overlap
/// are refused: apply one, then ask [`fixes_for`] again.
pub fn apply(text: &str, fixes: &[Fix]) -> Result<String, FixRefused> {
    let limits = Limits::default();
    let original = yaml::load(text, &limits).map_err(|error| {
        refused(format!(
            "the document does not load: {}",
            crate::text::yaml_message(&error)
        ))
    })?;
    let mut edits: Vec<&TextEdit> = fixes.iter().flat_map(|fix| &fix.edits).collect();
    edits.sort_by_key(|edit| (edit.range.start, edit.range.end));
    for pair in edits.windows(2) {
        if let [before, after] = pair {
            if before.range.end > after.range.start {
                return Err(refused("two fixes edit the same text"));
            }
        }
    }
    let mut fixed = text.to_owned();
    for edit in edits.iter().rev() {
        if fixed.get(edit.range.clone()).is_none() {
            return Err(refused("a fix edits text the document does not hold"));
        }
        fixed.replace_range(edit.range.clone(), &edit.replacement);
    }
    let mut expected = original.value;
    for fix in fixes {
        if !change(&mut expected, &fix.change) {
            return Err(refused(format!("{} no longer applies", fix.title)));
        }
    }
    let loaded = yaml::load(&fixed, &limits).map_err(|error| {
        refused(format!(
            "the fixed document would not load ({}); nothing written",
            crate::text::yaml_message(&error)
        ))
    })?;
    if loaded.value != expected {
        return Err(refused(
            "the fixed document would not hold exactly the intended values; nothing written",
        ));
    }
    Ok(fixed)
}

/// Makes `change` to `value`; false when its path does not lead to what it
/// changes.
fn change(value: &mut Value, change: &Change) -> bool {
    match change {
        Change::Sort { path, key } => match path.find_mut(value) {
            Some(Value::Array(items)) => {
                items.sort_by(|a, b| {
                    let name = |item: &Value| {
                        item.get(*key)
                            .and_then(Value::as_str)
                            .map(|name| name.as_bytes().to_vec())
                    };
                    name(a).cmp(&name(b))
                });
                true
            }
            _ => false,
        },
        Change::Lowercase { path } => match path.find_mut(value) {
            Some(Value::String(text)) => {
                *text = text.to_lowercase();
                true
            }
            _ => false,
        },
    }
}

/// A document after [`fix_document`].
#[derive(Debug, Clone)]
pub struct Fixed {
    /// The fixed text; the original when nothing was fixed.
    pub text: String,
    /// Each fix applied, in the order applied: its rule and title.
    pub applied: Vec<(&'static RuleDoc, String)>,
    /// Findings of fixable rules left unfixed, and why.
    pub unfixable: Vec<Unfixable>,
    /// The validation of the fixed text.
    pub checked: Checked,
}

/// More rounds than any document needs: fixes inside items, then the sort
/// of the items, then nothing.
const MAX_ROUNDS: usize = 8;

/// Every safe fix of `text`, round after round until none is offered.
/// Each round applies the fixes whose edits do not overlap, smallest
/// first, and is checked by [`apply`].
pub fn fix_document(
    text: &str,
    mode: Mode,
    location: Location<'_>,
    verdict: Verdict<'_>,
) -> Result<Fixed, FixRefused> {
    let mut current = text.to_owned();
    let mut applied = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let offered = fixes_for(&current, mode, location, verdict);
        if offered.fixes.is_empty() {
            return Ok(Fixed {
                text: current,
                applied,
                unfixable: offered.unfixable,
                checked: offered.checked,
            });
        }
        let chosen = disjoint(offered.fixes);
        current = apply(&current, &chosen)?;
        applied.extend(chosen.into_iter().map(|fix| (fix.rule, fix.title)));
    }
    Err(refused(
        "the fixes did not settle: a fixable finding remains after every round; nothing written",
    ))
}

/// The fixes whose edits overlap no smaller fix's.
fn disjoint(mut fixes: Vec<Fix>) -> Vec<Fix> {
    let size = |fix: &Fix| fix.edits.iter().map(|edit| edit.range.len()).sum::<usize>();
    fixes.sort_by_key(size);
    let mut taken: Vec<Range<usize>> = Vec::new();
    let mut chosen = Vec::new();
    for fix in fixes {
        let overlaps = fix.edits.iter().any(|edit| {
            taken
                .iter()
                .any(|range| edit.range.start < range.end && range.start < edit.range.end)
        });
        if !overlaps {
            taken.extend(fix.edits.iter().map(|edit| edit.range.clone()));
            chosen.push(fix);
        }
    }
    chosen.sort_by_key(|fix| fix.edits.first().map(|edit| edit.range.start));
    chosen
}
