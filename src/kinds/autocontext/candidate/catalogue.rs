//! The rule ids of the AutocontextCandidateRecord kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};
use crate::kinds::autocontext::catalogue::COMPARISON_REPLAY;

pub(crate) const RULES: &[RuleDoc] =
    &[CANDIDATE_POLICY_DIGEST, CANDIDATE_BUNDLE, COMPARISON_REPLAY];

pub(crate) const CANDIDATE_POLICY_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/candidate-policy-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A candidate record's confirmation_policy_digest is the SHA-256 of the canonical JSON of \
its confirmation_policy; both are set or both null.",
    explanation: "The confirmation policy cannot change while evidence is collected; its digest binds the \
record to the policy the trials were judged by.\n\nRestore the policy the digest names.",
    failing: "",
    passing: "",
};

pub(crate) const CANDIDATE_BUNDLE: RuleDoc = RuleDoc {
    id: "autocontext/candidate-bundle",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "candidates/<digest>/record.json has bundle_digest <digest>, and the parent_digest and \
evaluator_epoch of that stored bundle.",
    explanation: "A candidate record describes the bundle its folder is named after; a record that names \
another bundle, or disagrees with its bundle on parent or epoch, describes a candidate \
that was never proposed.\n\nRestore the record, or propose the bundle again.",
    failing: "",
    passing: "",
};
