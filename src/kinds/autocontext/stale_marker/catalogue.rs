//! The rule ids of the AutocontextStaleMarker kind.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(crate) const RULES: &[RuleDoc] = &[STALE_MARKER];

pub(crate) const STALE_MARKER: RuleDoc = RuleDoc {
    id: "autocontext/stale-marker",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A stale marker (candidates/<digest>/stale_terminalization.json) binds its candidate: \
candidate_digest is <digest>, parent_digest the bundle's parent, evaluator_plan_digest the \
plan_digest of evaluator_plan.json beside it, matched_evidence_digest the SHA-256 of the canonical \
JSON of matched_trials.json beside it, the active bundle it saw is neither the candidate nor its \
parent, its reason is the one autocontext writes from the parent and that bundle, and the record \
beside it is confirmed on a confirmed comparison, or rejected with that reason.",
    explanation: "autocontext writes the marker before it ends a confirmed candidate whose \
incumbent is no longer active, and checks every one of these bindings on every resume \
(`_validate_stale_terminalization`, then `finalize_stale_confirmed_candidate_terminalization`): \
a marker that names another candidate, parent, plan or evidence, or whose reason is not the one it \
wrote, ends the candidate on a decision its store does not hold, and autocontext refuses to go on \
from it (\"stale candidate terminalization marker changed\", \"... is not stale\").\n\nRestore the \
marker autocontext wrote.",
    failing: "",
    passing: "",
};
