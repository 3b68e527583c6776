//! The rule ids of the AutocontextCampaignState kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(crate) const RULES: &[RuleDoc] = &[CAMPAIGN_STATE_DIGEST, CAMPAIGN_ALLOCATION, CAMPAIGN_GATE];

pub(crate) const CAMPAIGN_STATE_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/campaign-state-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A campaign's false-promotion.json stands in the folder autocontext names for its \
campaign_id, and its state_digest is the SHA-256 of the canonical JSON of everything else it holds \
(schema 2; schema 1 without the fixture reservations).",
    explanation: "autocontext refuses to load a campaign state whose digest does not verify, and with \
it every later reservation and gate decision of the campaign; a state edited by hand, or written by \
another campaign, is found here first.\n\nRestore the state autocontext wrote; a campaign that has \
lost it must start under a new campaign id.",
    failing: "",
    passing: "",
};

pub(crate) const CAMPAIGN_ALLOCATION: RuleDoc = RuleDoc {
    id: "autocontext/campaign-allocation",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A campaign's policy is one autocontext accepts, its reservations are numbered 0, 1, 2, \
... in order, each belongs to the campaign, and each reservation's allocated_alpha and \
required_confidence_z are what the policy allots its candidate_index (alpha times (1 - decay) times \
decay to the index; the two-sided normal threshold of that alpha, rounded up to twelve decimals).",
    explanation: "The campaign's false-promotion budget holds only if every candidate spends exactly \
its share: a larger alpha, or a lower threshold, promotes on weaker evidence than the campaign \
reserved. numi recomputes both as autocontext does, to the bit, in the state and in each \
reservation artifact beside it (under the state's policy).\n\nRestore the state autocontext \
wrote.",
    failing: "",
    passing: "",
};

pub(crate) const CAMPAIGN_GATE: RuleDoc = RuleDoc {
    id: "autocontext/campaign-gate",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A decided reservation is what autocontext writes for the ending that decided it, told \
from the comparison in its candidate's record.json: a rejected or inconclusive comparison's \
reservation (record_terminal_decision) holds that decision and reason, no evidence digest and no \
blocks; on a confirmed comparison, a reservation the gate decided (authorized or blocked) is bound \
to the candidate's matched_trials.json (evidence_digest, confirmation_policy_digest) and its status, \
reason and independent confirmation and held-out blocks are what the gate gives on those trials, \
and a stale candidate's rejection holds its stale marker's reason, the digest of those trials and \
the count of their fixtures in each lane.",
    explanation: "autocontext ends a reservation three ways: the candidate's own comparison rejects \
it or leaves it inconclusive, the gate clusters the trials by fixture into independent blocks and \
authorizes promotion only when a campaign-adjusted interval over the confirmation blocks clears the \
minimum effect, or a confirmed candidate whose incumbent went stale is rejected. A decision the \
store does not give promoted, or blocked, a candidate on evidence it does not hold, and \
autocontext's own resume refuses a terminal reservation whose status or reason is not the one it \
would record again. A reservation artifact's risk reservation is replayed the same way.\n\n\
Restore the state and the matched trials autocontext wrote.",
    failing: "",
    passing: "",
};
