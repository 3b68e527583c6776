//! The rule ids of the OutcomeCorrected kind.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[SELF_CORRECTION];

pub(super) const SELF_CORRECTION: RuleDoc = RuleDoc {
    id: "events/self-correction",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "An OutcomeCorrected does not name the original outcome as its own new record.",
    explanation: "A correction stores a new record beside the original, and the original keeps its digest \
and content (spec 002). A correction whose new record has the original's digest corrects \
nothing: it names the same record twice, and a reader could take the original for the \
correction.\n\nSet corrected_digest to the digest of the new outcome record.",
    failing: include_str!("examples/self-correction.failing.yaml"),
    passing: include_str!("examples/self-correction.passing.yaml"),
};
