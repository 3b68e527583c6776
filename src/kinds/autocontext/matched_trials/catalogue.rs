//! The rule ids of the AutocontextMatchedTrials kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[
    TRIALS_POLICY_DIGEST,
    TRIAL_PAIR_KEY,
    TRIAL_BINDING,
    TRIALS_PLAN,
];

pub(super) const TRIALS_POLICY_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/trials-policy-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A schema-2 matched_trials.json's confirmation_policy_digest is the SHA-256 of the \
canonical JSON of its confirmation_policy, and the candidate record, when it binds a policy, binds \
the same one.",
    explanation: "The policy that judges the evidence cannot change while the evidence is collected; \
autocontext refuses evidence whose policy digest does not verify, or that disagrees with the \
record's.\n\nRestore the policy the digest names.",
    failing: "",
    passing: "",
};

pub(super) const TRIAL_PAIR_KEY: RuleDoc = RuleDoc {
    id: "autocontext/trial-pair-key",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Each matched trial's pair_key is the SHA-256 of the canonical JSON of its \
evaluator_epoch, cohort, fixture_digest and seed (or, on rows written before schema 2, of those \
with fixture and lane), and no two trials are the same evaluation unit.",
    explanation: "A pair key names one evaluation unit; a relabelled or repeated unit would count \
one observation twice.\n\nRestore the trials autocontext recorded.",
    failing: "",
    passing: "",
};

pub(super) const TRIAL_BINDING: RuleDoc = RuleDoc {
    id: "autocontext/trial-binding",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Every trial in candidates/<digest>/matched_trials.json has candidate_digest <digest>, \
and the incumbent_digest (parent) and evaluator_epoch of that stored bundle.",
    explanation: "Matched evidence compares one candidate with the bundle it was proposed against, \
under one evaluator epoch; a trial of another pair is not evidence for this candidate.\n\nRestore \
the trials, or evaluate the candidate again.",
    failing: "",
    passing: "",
};

pub(super) const TRIALS_PLAN: RuleDoc = RuleDoc {
    id: "autocontext/trials-plan",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Beside the candidate's evaluator_plan.json, every trial in matched_trials.json is a \
unit the plan binds: its (fixture_digest, seed) is a planned unit's, with that unit's fixture and \
lane, and its cohort is the plan's.",
    explanation: "The evaluator plan is bound before any trial is gathered, and autocontext's \
coordinator refuses, on every resume, persisted evidence that does not match it (\"persisted \
matched evidence does not match the configured evaluation plan\"): a seed moved, or a pair on a \
fixture the plan never named, is evidence the candidate was not evaluated on.\n\nRestore the \
trials autocontext recorded.",
    failing: "",
    passing: "",
};
