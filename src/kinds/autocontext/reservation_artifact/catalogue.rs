//! The rule ids of the AutocontextReservationArtifact kind, in the order
//! numi checks them. Its risk reservation's alpha, threshold and gate
//! decision are the campaign state's rules (`autocontext/campaign-allocation`,
//! `autocontext/campaign-gate`), recomputed the same way.

use crate::diagnostic::{RuleDoc, Severity, Stage};

pub(super) const RULES: &[RuleDoc] = &[
    RESERVATION_ARTIFACT_DIGEST,
    RESERVATION_FIXTURE_PLAN,
    RESERVATION_ARTIFACT_BINDING,
];

pub(super) const RESERVATION_ARTIFACT_DIGEST: RuleDoc = RuleDoc {
    id: "autocontext/reservation-artifact-digest",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A reservation artifact's artifact_digest is the SHA-256 of the canonical JSON of \
everything else it holds (schema_version, campaign_id, risk_reservation, fixture_reservation).",
    explanation: "autocontext writes the artifact once, when a reservation becomes terminal, and \
hands its path and digest out as the evidence of that decision; a digest that does not verify \
means the artifact was edited after it was written, or written by something else.\n\nRestore the \
artifact autocontext wrote; autocontext rewrites none (it refuses a reservation artifact that \
differs from the campaign state as immutable).",
    failing: "",
    passing: "",
};

pub(super) const RESERVATION_FIXTURE_PLAN: RuleDoc = RuleDoc {
    id: "autocontext/reservation-fixture-plan",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A reservation artifact's fixture_reservation is one autocontext reads: campaign_id, \
candidate_digest, evaluator_epoch and cohort are not empty, its units are not empty, each has a \
non-empty fixture_digest and an integer seed, no two share a (fixture_digest, seed), \
plan_digest is the SHA-256 of the canonical JSON of the reservation's other fields, and the \
candidate's matched trials were gathered under the plan (each the planned candidate's, of its \
epoch and cohort, on a planned fixture and seed in the lane planned for it).",
    explanation: "The fixture reservation is the test plan the campaign bound the candidate to \
before any evaluation, so that no later candidate reuses fixtures earlier evidence exposed. \
autocontext's `CandidateFixtureReservation.from_dict` refuses a plan whose digest does not verify, \
an empty or duplicated plan and a seed that is not an integer (`1.0` included, which JSON \
Schema's `integer` takes); its controller refuses to seal a decision on trials outside the \
plan (`_validate_trials_match_fixture_reservation`).\n\nRestore the plan and the matched trials \
autocontext wrote.",
    failing: "",
    passing: "",
};

pub(super) const RESERVATION_ARTIFACT_BINDING: RuleDoc = RuleDoc {
    id: "autocontext/reservation-artifact-binding",
    stage: Stage::Rule,
    severity: Severity::Error,
    summary: "A reservation artifact is named by its risk reservation's candidate_digest, which its \
fixture reservation shares; its campaign_id, and both reservations', name the campaign folder it \
stands in; and its risk and fixture reservations are the ones the campaign's false-promotion.json \
beside it holds for that candidate, a terminal reservation (authorized, blocked or rejected, with \
its evidence digest).",
    explanation: "autocontext writes the artifact from the campaign state when a reservation \
becomes terminal, and compares the two whenever it hands the artifact out: an artifact of another \
candidate or campaign, or one the state does not hold, is evidence of a decision the campaign \
never made.\n\nRestore the artifact autocontext wrote, or the campaign state beside it.",
    failing: "",
    passing: "",
};
