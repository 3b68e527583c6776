//! What a run found: one result per input, the counts of a run, and the
//! exit status that follows from them. Produced by `run`, read by the
//! renderers.

pub mod baseline;

use std::path::PathBuf;

use crate::canonical::hex_sha256;
use crate::diagnostic::{Diagnostic, Stage};
use crate::secrets::mask;
use crate::validate::Checked;

/// How the documents of a run were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Named on the command line (`--files`).
    File,
    /// Found in a repository's configuration tree.
    Repo,
}

impl Origin {
    pub fn name(self) -> &'static str {
        match self {
            Origin::File => "file",
            Origin::Repo => "repo",
        }
    }

    /// What the revision line names.
    pub fn revision(self) -> &'static str {
        match self {
            Origin::File => "files",
            Origin::Repo => "worktree",
        }
    }
}

/// How a document fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    Invalid,
    Error,
}

/// The result for one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileResult {
    pub origin: Origin,
    pub display_name: String,
    /// The path as given; see [`Input::path`].
    pub path: String,
    pub checked: Checked,
    /// The file the document was read from (none for standard input or a
    /// file that could not be read), for a check across documents that
    /// must look at it again.
    pub read_from: Option<PathBuf>,
    /// The bytes read, kept only when [`Options::keep_source`] asks for them
    /// (a renderer that quotes the source), so a run holds no file longer
    /// than it needs to.
    pub source: Option<Vec<u8>>,
}

impl FileResult {
    /// Decided by errors alone: warnings never change a status.
    pub fn status(&self) -> Status {
        let mut errors = self.checked.errors();
        let first = errors.next();
        if first
            .into_iter()
            .chain(errors)
            .any(|d| matches!(d.stage(), Stage::Read | Stage::Internal))
        {
            Status::Error
        } else if first.is_none() {
            Status::Ok
        } else {
            Status::Invalid
        }
    }
}

/// Counts of a run, from which its exit status follows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub ok: usize,
    pub invalid: usize,
    pub error: usize,
    /// Warnings reported, over every document.
    pub warnings: usize,
    /// Findings silenced by suppression comments: reported, never deciding
    /// a status.
    pub suppressed: usize,
}

/// The exit statuses of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Every document read is valid.
    Valid = 0,
    /// The run could not check everything it was asked to.
    Incomplete = 1,
    /// The command line is wrong.
    Usage = 2,
    /// At least one document is invalid.
    Invalid = 3,
}

impl Summary {
    pub fn total(&self) -> usize {
        self.ok + self.invalid + self.error
    }

    pub fn exit(&self) -> Exit {
        if self.error > 0 || self.total() == 0 {
            Exit::Incomplete
        } else if self.invalid > 0 {
            Exit::Invalid
        } else {
            Exit::Valid
        }
    }

    pub fn add(&mut self, status: Status) {
        match status {
            Status::Ok => self.ok += 1,
            Status::Invalid => self.invalid += 1,
            Status::Error => self.error += 1,
        }
    }
}

/// A diagnostic's message with its note, for formats that show one text;
/// its secrets masked.
pub fn message_with_note(diagnostic: &Diagnostic) -> String {
    let text = match &diagnostic.note {
        Some(note) => format!("{} ({note})", diagnostic.message),
        None => diagnostic.message.clone(),
    };
    mask(&text, &diagnostic.secrets).into_owned()
}

/// A path as given, without the leading `./` steps that tools matching
/// repository paths do not expect.
pub fn repository_path(path: &str) -> &str {
    let mut path = path;
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.trim_start_matches('/');
    }
    path
}

/// What tells one finding from another across runs: its file (as
/// [`repository_path`] gives it), its rule and its message with its note,
/// the positions the message names left out ([`without_positions`]), and
/// not its line, so an edit above a finding leaves it the same finding.
/// The baseline counts the findings of one fingerprint; the GitLab report
/// tells their repeats apart with [`repeat_fingerprint`].
pub fn fingerprint(path: &str, diagnostic: &Diagnostic) -> String {
    let key = format!(
        "{}\0{}\0{}",
        repository_path(path),
        diagnostic.rule.id,
        without_positions(&message_with_note(diagnostic))
    );
    hex_sha256(key.as_bytes())
}

/// The words after which a message names where something stands: `at line
/// 3 column 25` (a YAML error), `line 4: ...`, `at byte offset 17`.
const POSITION_WORDS: [&str; 4] = ["line", "column", "byte", "offset"];

/// `message` without the numbers that say where something stands: each
/// number right after one of [`POSITION_WORDS`] and a space (`at line 3
/// column 25` becomes `at line column`), so that a line added above a
/// finding does not change what the finding is. Other numbers (a count, a
/// limit, a value) are kept.
pub fn without_positions(message: &str) -> String {
    let mut kept = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let (before, from_digits) = rest.split_at(at);
        let digits = from_digits.bytes().take_while(u8::is_ascii_digit).count();
        let (number, after) = from_digits.split_at(digits);
        if names_a_position(before) {
            kept.push_str(before.strip_suffix(' ').unwrap_or(before));
        } else {
            kept.push_str(before);
            kept.push_str(number);
        }
        rest = after;
    }
    kept.push_str(rest);
    kept
}

/// Whether `before` ends with one of [`POSITION_WORDS`], a whole word, and
/// a space.
fn names_a_position(before: &str) -> bool {
    let Some(words) = before.strip_suffix(' ') else {
        return false;
    };
    POSITION_WORDS.iter().any(|word| {
        words.strip_suffix(word).is_some_and(|start| {
            !start
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

/// The fingerprint of the `occurrence`th finding (from 1) of one
/// fingerprint in a file.
pub fn repeat_fingerprint(fingerprint: &str, occurrence: usize) -> String {
    hex_sha256(format!("{fingerprint}\0{occurrence}").as_bytes())
}

/// The fingerprint of a finding of a file a run reports more than once
/// (named twice): its `copy`th report (from 2), so that each issue of a
/// report has its own.
pub fn copy_fingerprint(fingerprint: &str, copy: usize) -> String {
    hex_sha256(format!("{fingerprint}\0copy {copy}").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::without_positions;

    #[test]
    fn positions_leave_a_message_and_other_numbers_stay() {
        let cases = [
            (
                "duplicate key \"a\" at line 12 column 3",
                "duplicate key \"a\" at line column",
            ),
            (
                "is not strict JSON, as context-report reads a .json file: line 4: trailing comma",
                "is not strict JSON, as context-report reads a .json file: line: trailing comma",
            ),
            (
                "invalid UTF-8 at byte offset 17",
                "invalid UTF-8 at byte offset",
            ),
            ("the `#` at byte 9 is x", "the `#` at byte is x"),
            (
                "an EvalSet holds 1 to 256 cases (it has 257 cases)",
                "an EvalSet holds 1 to 256 cases (it has 257 cases)",
            ),
            (
                "the pipeline 3 and outline 4",
                "the pipeline 3 and outline 4",
            ),
            ("line 7", "line"),
            ("v1.2.3, line", "v1.2.3, line"),
            ("", ""),
        ];
        for (message, kept) in cases {
            assert_eq!(without_positions(message), kept, "{message}");
        }
    }
}
