//! The rule ids of the checks across the documents of a run.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub const RULES: &[RuleDoc] = &[DUPLICATE_NAME];

pub const DUPLICATE_NAME: RuleDoc = RuleDoc {
    id: "repo/duplicate-name",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "Documents of one kind in a configuration tree have distinct names.",
    explanation: "A configuration loader finds a document by kind and metadata.name; two documents of one \
kind with one name leave it to chance which one applies. In repository mode, the later \
document in report order gets the finding and names the first. Rename one, or merge \
them. Documents refused at the kind stage (produced kinds, alpha kinds while alpha is \
off, a wrong apiVersion) are not configuration and do not count.",
    failing: include_str!("examples/duplicate-name.failing.yaml"),
    passing: include_str!("examples/duplicate-name.passing.yaml"),
};
