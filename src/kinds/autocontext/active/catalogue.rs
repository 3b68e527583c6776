//! The rule ids of the AutocontextActivePointer kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(crate) const RULES: &[RuleDoc] = &[
    ACTIVE_BUNDLE,
    ACTIVE_PROMOTION,
    ACTIVE_ROLLBACK,
    LIFECYCLE_MIRROR,
];

pub(crate) const ACTIVE_BUNDLE: RuleDoc = RuleDoc {
    id: "autocontext/active-bundle",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "active.json's bundle_digest names a stored bundle that verifies, of the same \
evaluator_epoch.",
    explanation: "The active pointer is the serving commit: what it names is what the next prompt is built \
from. It must name a bundle of `bundles/` whose digests verify and whose evaluator epoch \
is the pointer's.\n\nRestore the bundle, or roll back with `ContextBundleStore.rollback`.",
    failing: "",
    passing: "",
};

pub(crate) const ACTIVE_PROMOTION: RuleDoc = RuleDoc {
    id: "autocontext/active-promotion",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "active.json's promotion_id names promotions/<id>.json, whose candidate, rollback target, \
epoch and manifest diff digest are the pointer's.",
    explanation: "A promoted pointer is backed by the promotion record that gathered its evidence. A \
promotion id that would leave `promotions/` (a separator, `..`) is refused, not read; a \
record that is missing or names another candidate, rollback target, epoch or diff does \
not back this pointer.\n\nRestore the promotion record, or promote again.",
    failing: "",
    passing: "",
};

pub(crate) const ACTIVE_ROLLBACK: RuleDoc = RuleDoc {
    id: "autocontext/active-rollback",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "active.json's rollback_target_digest names a stored bundle.",
    explanation: "A rollback restores the target the pointer records; a target that is not in `bundles/` \
cannot be restored.\n\nRestore the target bundle.",
    failing: "",
    passing: "",
};

pub(crate) const LIFECYCLE_MIRROR: RuleDoc = RuleDoc {
    id: "autocontext/lifecycle-mirror",
    stage: Stage::Rule,
    severity: Severity::Warning,
    summary: "Candidate records agree with active.json: the active bundle's record says active, and no \
other record does.",
    explanation: "autocontext writes the pointer first and repairs the lifecycle mirrors in the records \
after it, best effort: a crash between the two leaves a record that lags. The pointer is \
authoritative, so this is a warning (an error under `--strict`).\n\nReplay the promotion \
(autocontext repairs the mirrors), or set the record's lifecycle to the pointer's.",
    failing: "",
    passing: "",
};
