//! What each rule id means: the catalogue behind `numi explain` and the
//! rule descriptions of the machine formats. Every id a diagnostic can carry
//! has exactly one entry, with a failing and a passing example (files beside
//! the entry) that the tests run through the validator. The stages' entries
//! are in `diagnostic::stages`; each kind's are in its folder under `kinds/`.

use std::sync::LazyLock;

pub use crate::diagnostic::RuleDoc;
use crate::diagnostic::Stage;
use crate::diagnostic::stages::STAGES;
use crate::diagnostic::stages::project::PROJECT;
use crate::kinds;
use crate::suggest::Candidates;

/// Every documented rule: the stages', then each kind's in the order its
/// family lists it, then the project's (names across documents, the
/// suppression comments).
pub fn all() -> impl Iterator<Item = &'static RuleDoc> {
    STAGES
        .iter()
        .copied()
        .chain(kinds::all().map(|kind| kind.catalogue))
        .chain(std::iter::once(PROJECT))
        .flat_map(|section| section.iter())
}

/// The documentation of `id`, if it is a rule id.
pub fn find(id: &str) -> Option<&'static RuleDoc> {
    all().find(|doc| doc.id == id)
}

/// The rules `text` names by id (`rule playbook/rate-bound`), each once, in
/// the order it first names them: how a schema's description says which
/// rule checks a field.
pub fn mentioned(text: &str) -> Vec<&'static RuleDoc> {
    let mut named: Vec<&'static RuleDoc> = Vec::new();
    let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_')));
    for doc in words.filter(|word| word.contains('/')).filter_map(find) {
        if !named.iter().any(|seen| seen.id == doc.id) {
            named.push(doc);
        }
    }
    named
}

/// What `numi fix` does about a finding of `id`, if the rule is fixable.
pub fn fix_of(id: &str) -> Option<crate::repair::Repair> {
    kinds::all()
        .flat_map(|kind| kind.fixes)
        .find(|fix| fix.rule == id)
        .map(|fix| fix.repair)
}

/// Where numi is published: the package's `repository`, the one address
/// every output that links to numi uses.
pub const REPOSITORY_URL: &str = env!("CARGO_PKG_REPOSITORY");

/// The rule pages, `docs/rules.md` on the main branch, whose headings are
/// the rule ids.
pub const RULES_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/rules.md");

/// The address of `id`'s entry in the rule pages. GitHub's anchor of a
/// heading that is the id in backticks keeps letters, digits, `-` and `_`,
/// in lower case.
pub fn link(id: &str) -> String {
    let anchor: String = id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    format!("{RULES_URL}#{anchor}")
}

/// Every rule id, prepared once for "did you mean" hints.
static IDS: LazyLock<Candidates<'static>> =
    LazyLock::new(|| Candidates::new(all().map(|doc| doc.id)));

/// Every rule's name, its id after the `/` (several stages or families may
/// share one), each kept once, prepared for hints.
static NAMES: LazyLock<Candidates<'static>> = LazyLock::new(|| {
    Candidates::new(all().filter_map(|doc| doc.id.split_once('/').map(|(_, name)| name)))
});

/// The families of the rules of the rule stage, those a selection can
/// name, each kept once, prepared for hints.
static RULE_FAMILIES: LazyLock<Candidates<'static>> = LazyLock::new(|| {
    Candidates::new(
        all()
            .filter(|doc| doc.stage == Stage::Rule)
            .filter_map(|doc| doc.id.split_once('/').map(|(family, _)| family)),
    )
});

/// The documented id nearest to `id`, for a "did you mean" hint. A bare
/// name (`cases-sorted`) stands for the one id that ends with it
/// (`evalset/cases-sorted`), or for the nearest of the ids whose name is
/// nearest when several stages or families share it. Its cost is bounded
/// by the catalogue, whatever `id` is (see [`crate::suggest`]).
pub fn nearest(id: &str) -> Option<&'static str> {
    if !id.contains('/') {
        let named = |doc: &&RuleDoc| doc.id.split_once('/').is_some_and(|(_, name)| name == id);
        if let Some(doc) = all().find(named) {
            return Some(doc.id);
        }
        if let Some(name) = NAMES.nearest(id) {
            return all()
                .find(|doc| doc.id.split_once('/').is_some_and(|(_, own)| own == name))
                .map(|doc| doc.id);
        }
    }
    IDS.nearest(id)
}

/// The family of rules of the rule stage nearest to `family`, for a "did
/// you mean" hint to a selector.
pub fn nearest_family(family: &str) -> Option<&'static str> {
    RULE_FAMILIES.nearest(family)
}

#[cfg(test)]
mod tests;
