//! The rule ids of the AutocontextPromotion kind, in the order numi checks
//! them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[PROMOTION_POLICY_DIGEST, PROMOTION_BUNDLES, PROMOTION_DIFF];

pub(super) const PROMOTION_POLICY_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/promotion-policy-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A promotion record's confirmation_policy_digest is the SHA-256 of the canonical JSON of \
its confirmation_policy.",
    explanation: "autocontext refuses to read a promotion whose policy digest does not verify: the \
record no longer says which policy confirmed the candidate.\n\nRestore the policy the digest names.",
    failing: "",
    passing: "",
};

pub(super) const PROMOTION_BUNDLES: RuleDoc = RuleDoc {
    id: "autocontext/promotion-bundles",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "promotions/<id>.json has promotion_id <id>; its candidate, incumbent and rollback \
target are stored bundles, the incumbent is the candidate's parent, and its evaluator_epoch is the \
candidate bundle's.",
    explanation: "A rollback restores the target this record names, and an audit replays the \
candidate against the incumbent: a record that names a missing bundle, another parent or another \
epoch cannot be replayed.\n\nRestore the record, or the bundles it names.",
    failing: "",
    passing: "",
};

pub(super) const PROMOTION_DIFF: RuleDoc = RuleDoc {
    id: "autocontext/promotion-diff",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A promotion record's manifest_diff_digest is the digest of the diff recomputed from \
the candidate's and the incumbent's stored manifests.",
    explanation: "Promotion recomputes the manifest diff and records its digest; a record whose \
digest differs attributes the promotion to changes the candidate did not make.\n\nRestore the \
record.",
    failing: "",
    passing: "",
};
