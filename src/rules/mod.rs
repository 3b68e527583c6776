//! What each rule id means: the catalogue behind `numi explain` and the
//! rule descriptions of the machine formats. Every id a diagnostic can carry
//! has exactly one entry here, with a failing and a passing example that the
//! tests run through the validator.

mod bundle;
mod errors;
mod evalset;
mod kind;
mod schema;
mod yaml;

use crate::diagnostic::Stage;

/// The documentation of one rule id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleDoc {
    /// The stable id, such as `evalset/cases-sorted`.
    pub id: &'static str,
    pub stage: Stage,
    /// One sentence: what the rule checks.
    pub summary: &'static str,
    /// Why the rule exists and how to fix a failure; plain text, may span lines.
    pub explanation: &'static str,
    /// A document, or part of one, that fails the rule; empty when no
    /// document can show it (a read error, a defect of numi).
    pub failing: &'static str,
    /// The same document made to pass; empty when `failing` is.
    pub passing: &'static str,
}

/// The catalogue, one section per stage or kind, each listed in the order
/// the README lists its rules.
const SECTIONS: &[&[RuleDoc]] = &[
    errors::READ,
    errors::INTERNAL,
    yaml::YAML,
    kind::KIND,
    schema::SCHEMA,
    evalset::EVALSET,
    bundle::BUNDLE,
    crate::strict::RULES,
];

/// Every documented rule.
pub fn all() -> impl Iterator<Item = &'static RuleDoc> {
    SECTIONS.iter().flat_map(|section| section.iter())
}

/// The documentation of `id`, if it is a rule id.
pub fn find(id: &str) -> Option<&'static RuleDoc> {
    all().find(|doc| doc.id == id)
}

/// The documented id nearest to `id`, for a "did you mean" hint.
pub fn nearest(id: &str) -> Option<&'static str> {
    crate::suggest::nearest(id, all().map(|doc| doc.id))
}

#[cfg(test)]
mod tests;
