//! The rules about a project rather than one document's content: the
//! names of the documents of a run, and the suppression comments. Declared
//! here, below the run and the verdict that make their findings.

use crate::diagnostic::{RuleDoc, Severity, Stage};

/// In the order `numi explain --list` prints them, after every kind's.
pub const PROJECT: &[RuleDoc] = &[DUPLICATE_NAME, UNKNOWN_RULE, UNUSED];

pub const DUPLICATE_NAME: RuleDoc = RuleDoc {
    id: "repo/duplicate-name",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "Documents of one kind in a configuration tree have distinct names.",
    explanation: "A configuration loader finds a document by kind and metadata.name; two documents of one \
kind with one name leave it to chance which one applies. In repository mode, the later \
document in report order gets the finding, at its `metadata.name`, and names the first \
and where its name stands (SARIF `relatedLocations`, json `related`, the help of \
pretty). Documents refused at the kind stage (produced kinds, alpha kinds while alpha is \
off, a wrong apiVersion) are not configuration and do not count.\n\nRename one of the \
two (the finding names a free name, `<name>-2` or the next number no document of the \
kind before it has), or merge them.",
    failing: include_str!("examples/project/duplicate-name.failing.yaml"),
    passing: include_str!("examples/project/duplicate-name.passing.yaml"),
};

pub const UNKNOWN_RULE: RuleDoc = RuleDoc {
    id: "suppression/unknown-rule",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "A `# numi: ignore[...]` comment names rule ids numi has.",
    explanation: "A suppression whose id is misspelt silences nothing, and its finding \
still stands; numi names the id and, when one is near, the rule meant. Like every finding \
about a suppression, it cannot be silenced by another comment: `numi.toml` can turn it \
off.\n\nWrite the rule id as the finding shows it (`numi explain --list` lists them).",
    failing: include_str!("examples/project/unknown-rule.failing.yaml"),
    passing: include_str!("examples/project/unknown-rule.passing.yaml"),
};

pub const UNUSED: RuleDoc = RuleDoc {
    id: "suppression/unused",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "A `# numi: ignore[...]` comment silences a finding on its line (or the next, alone on its line).",
    explanation: "A suppression outlives the finding it was written for when the document \
is fixed or the rule changes, and then hides the next finding of that rule that comes \
to stand there. numi reports a suppression of a rule with no finding where it stands, \
as ruff reports an unused `noqa`. A document that fails before its rules run (YAML, its \
kind, its schema) is not judged, nor is a produced document, whose comments silence \
nothing.\n\nRemove the suppression, or the rule id that no longer applies.",
    failing: include_str!("examples/project/unused.failing.yaml"),
    passing: include_str!("examples/project/unused.passing.yaml"),
};
