//! Which rules `numi fix` repairs, and how: the data a kind declares in
//! `Kind::fixes`. The engine that makes the repairs is `crate::fix`; these
//! types stand apart from it so that kinds can name their fixes without
//! depending on the engine, which validates documents.

use crate::diagnostic::RuleDoc;

/// A fixable rule of a kind, and the repair that answers its findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleFix {
    pub rule: &'static RuleDoc,
    pub repair: Repair,
}

/// The repairs numi knows. Each has one right answer whatever the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repair {
    /// Sort the sequence that holds the item a finding points at by each
    /// item's string `key`, in byte order. Items with the same key are a
    /// duplicate: not fixable. `noun` names an item in messages.
    SortBy {
        key: &'static str,
        noun: &'static str,
    },
    /// Lower-case the hex digits of the `sha256:` digest a finding points
    /// at. Any other malformed digest is not fixable: numi cannot know the
    /// right one.
    LowercaseDigest,
}

impl Repair {
    /// What `numi explain` says the fix does.
    pub fn describe(&self) -> String {
        match self {
            Repair::SortBy { key, noun } => format!(
                "Fixable: `numi fix` sorts the entries by {key}, each with its comments. A duplicate \
{noun} is not fixable: numi cannot know which one to keep."
            ),
            Repair::LowercaseDigest => "Fixable: `numi fix` writes a digest in upper-case hex in \
lower case. Any other malformed digest is not fixable: numi cannot know the right one."
                .to_owned(),
        }
    }
}
