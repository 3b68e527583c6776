//! The rule ids of the AutocontextCausalAttribution kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] =
    &[ATTRIBUTION_DIFF, ATTRIBUTION_DIGEST, ATTRIBUTION_RECOMPUTED];

pub(super) const ATTRIBUTION_DIFF: RuleDoc = RuleDoc {
    id: "autocontext/attribution-diff",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A causal_attribution.json holds a manifest diff of exactly one pure addition, and in a \
store it stands only beside a candidate whose diff, recomputed from its manifest and its parent's, \
is that diff.",
    explanation: "Causal credit is earned only when the candidate differs from its parent by one added \
component: with more changes, or a changed component, the effect cannot be credited to one of \
them.\n\nRemove the attribution, or restore the candidate it was computed for.",
    failing: "",
    passing: "",
};

pub(super) const ATTRIBUTION_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/attribution-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A causal attribution's digests verify as autocontext computes them (its manifest diff's \
digest, each attribution's manifest_diff_digest, matched_pair_keys, source_trial_digests and \
attribution_id), it names its candidate and the candidate's parent, and each source trial is a \
held-out trial of the candidate's matched_trials.json, with its scores.",
    explanation: "An attribution is replayed from its source trials and bound to one exact manifest \
diff by these digests; one that does not verify credits a component with evidence it does not \
hold.\n\nRestore the attribution autocontext wrote.",
    failing: "",
    passing: "",
};

pub(super) const ATTRIBUTION_RECOMPUTED: RuleDoc = RuleDoc {
    id: "autocontext/attribution-recomputed",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "Each attribution's figures are what autocontext computes from the source trials it \
names: effect (the mean of the rounded with-minus-without scores, rounded to six decimals), \
confidence, token_cost, tested_at, interaction_component_digests and the disposition its \
classification policy gives, with the trials' component, bundles, epoch, cohort and evidence level.",
    explanation: "autocontext's reader replays an attribution from its source trials before it \
credits a component, and refuses one whose figures differ; numi replays it the same way, with \
Python's exactly rounded sum, so a figure edited after the fact is found on the file that holds \
it. The message names the field, the value written and the value recomputed.\n\nRestore the \
attribution autocontext wrote, or recompute it from its trials.",
    failing: "",
    passing: "",
};
