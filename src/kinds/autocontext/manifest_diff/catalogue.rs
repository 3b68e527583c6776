//! The rule ids of the AutocontextManifestDiff kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[DIFF_DIGEST, DIFF_RECOMPUTED];

pub(super) const DIFF_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/diff-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A manifest diff's digest is the SHA-256 of the canonical JSON of its schema_version, \
tested and comparison bundle digests, evaluator_epoch and changes.",
    explanation: "The promotion record refers to the diff by this digest.\n\nRestore the diff, or let \
autocontext recompute it.",
    failing: "",
    passing: "",
};

pub(super) const DIFF_RECOMPUTED: RuleDoc = RuleDoc {
    id: "autocontext/diff-recomputed",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "candidates/<digest>/manifest_diff.json equals the diff recomputed from the candidate's \
manifest and its parent's.",
    explanation: "Promotion recomputes the diff from the two immutable manifests; a persisted diff that \
differs would attribute the experiment to components it did not change.\n\nRestore the \
diff, or let autocontext recompute it.",
    failing: "",
    passing: "",
};
