//! The rule ids of the AutocontextNegativeResult kind, in the order numi
//! checks them.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[
    NEGATIVE_RESULT_ENTRIES,
    NEGATIVE_RESULT_LIFECYCLE,
    NEGATIVE_RESULT_BINDING,
    NEGATIVE_RESULT_RECOMPUTED,
];

pub(super) const NEGATIVE_RESULT_ENTRIES: RuleDoc = RuleDoc {
    id: "autocontext/negative-result-entries",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A negative result's entries have unique result_ids, and its whole numbers \
(generation_index, a summary's count) are written without a fraction.",
    explanation: "autocontext reads a ledger with its strict NegativeResultLedger model, which \
refuses a result_id listed twice and a whole number written as 1.0; a ledger it refuses is \
dropped, and the lessons it holds are lost.\n\nRemove the repeated entry, or write the number \
as an integer.",
    failing: "",
    passing: "",
};

pub(super) const NEGATIVE_RESULT_LIFECYCLE: RuleDoc = RuleDoc {
    id: "autocontext/negative-result-lifecycle",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "candidates/<digest>/negative_result.json stands only beside a candidate whose record \
says rejected, or whose comparison ended inconclusive.",
    explanation: "autocontext writes a negative result when an evaluation ends without a promotion; \
beside a candidate that is proposed, confirmed or active it records a failure that did not \
happen.\n\nRemove the negative result, or restore the candidate's record.",
    failing: "",
    passing: "",
};

pub(super) const NEGATIVE_RESULT_BINDING: RuleDoc = RuleDoc {
    id: "autocontext/negative-result-binding",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A candidate's negative result names it (run_id context-bundle:<digest>, each entry's \
branch_id and context_bundle_digest), its evaluator_epoch and scenario, and its references to the \
candidate's matched_trials.json and evaluator_plan.json carry their digests.",
    explanation: "A negative result is looked up by the exact bundle it rejected, and replayed from \
the evidence it references by digest; a ledger of another candidate, or whose references no longer \
verify, warns against a bundle on evidence it does not hold.\n\nRestore the ledger autocontext \
wrote, or the evidence it references.",
    failing: "",
    passing: "",
};

pub(super) const NEGATIVE_RESULT_RECOMPUTED: RuleDoc = RuleDoc {
    id: "autocontext/negative-result-recomputed",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A candidate's negative result is the ledger autocontext writes from the store: its \
one entry's result_id, failure_kind, reason, score_delta, evaluated seeds and probes, cohort, \
times and evidence references recomputed from the record's comparison, the matched trials, the \
evaluator plan and what ended the evaluation (a stale marker, a campaign's reservation), and its \
failure_mode_summary from its entries.",
    explanation: "autocontext writes one immutable ledger for a candidate whose evaluation ended \
without a promotion, every field derived from evidence the store keeps: a lesson whose reason, \
score delta or evaluated seeds no longer restate that evidence warns future runs against a \
bundle for what did not happen.\n\nRestore the ledger autocontext wrote, or the evidence it was \
written from.",
    failing: "",
    passing: "",
};
