//! The rules of the autocontext family that no one kind reports alone:
//! each is declared here once, and the family's code and every kind that
//! checks it name it from here. A kind reports its own catalogue's rules
//! and these, never another kind's.
//!
//! The rule listing (`numi explain --list`, docs/rules.md) shows each in
//! the catalogue of the kind whose files it is chiefly about, after that
//! kind's own rules.

use crate::diagnostic::{RuleDoc, Severity, Stage};

/// The family's rules, each listed in one kind's catalogue.
#[cfg(test)]
pub(crate) const RULES: &[RuleDoc] = &[
    STORE_LINK,
    LIFECYCLE_MIRROR,
    COMPARISON_REPLAY,
    CAMPAIGN_ALLOCATION,
    CAMPAIGN_GATE,
];

pub(crate) const STORE_LINK: RuleDoc = RuleDoc {
    id: "autocontext/store-link",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A file of a store (a bundle, the pointer, a promotion, a candidate's file) stays in \
the store: it is not, and its candidate folder is not, a link that leads outside it.",
    explanation: "Every file that reads a neighbour refuses one that leads outside its store, so a \
bundle linked in from elsewhere is no stored bundle to its records, children or pointer. The \
linked file is refused on its own line too, for the same reason, and not verified as the \
store's: one verdict for the file and everything that reads it.\n\nCopy the file into the \
store, or let autocontext's `ContextBundleStore` write it.",
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

pub(crate) const COMPARISON_REPLAY: RuleDoc = RuleDoc {
    id: "autocontext/comparison-replay",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "The comparison a candidate record or a promotion record holds is the one autocontext's \
evaluate_matched_trials computes from the candidate's matched trials under the bound confirmation \
policy: decision, reason, counts and statistics.",
    explanation: "A promotion rests on a replay of the persisted raw trials under the exact persisted \
confirmation policy; autocontext refuses a candidate whose trials do not reproduce its recorded \
comparison. numi replays them the same way, with Python's arithmetic, so a recorded statistic must \
be the very double the replay gives. The finding stands on the file holding the recorded value \
(record.json or the promotion record) and on matched_trials.json, since either may be the one \
that changed; it names the field, the recorded and the replayed value.\n\nRestore the trials or \
the comparison autocontext wrote; a comparison is never edited by hand.",
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
