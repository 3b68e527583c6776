//! The rule ids of the AutocontextEvaluatorPlan kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[PLAN_DIGEST, PLAN_BINDING];

pub(super) const PLAN_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/plan-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "An evaluator_plan.json's plan_digest is the SHA-256 of the canonical JSON of its plan.",
    explanation: "Every evidence action names the plan by this digest, and autocontext refuses to go \
on when the persisted plan no longer has it: a plan changed after evaluation began.\n\nRestore the \
plan the digest names.",
    failing: "",
    passing: "",
};

pub(super) const PLAN_BINDING: RuleDoc = RuleDoc {
    id: "autocontext/plan-binding",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "candidates/<digest>/evaluator_plan.json plans candidate <digest> against its parent, \
under that bundle's evaluator_epoch and the store's scenario, with a confirmation_policy_digest that \
verifies.",
    explanation: "A plan of another candidate, parent, epoch or policy does not describe the \
evaluation whose evidence sits beside it.\n\nRestore the plan, or evaluate the candidate again.",
    failing: "",
    passing: "",
};
