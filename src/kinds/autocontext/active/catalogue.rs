//! The rule ids of the AutocontextActivePointer kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};
use crate::kinds::autocontext::catalogue::LIFECYCLE_MIRROR;

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
