"""Writes a context-bundle store with autocontext's own ContextBundleStore.

Usage: write_store.py KNOWLEDGE_DIR [--non-ascii] [--legacy-trials] [--campaign] [--integer-scores]
       write_store.py KNOWLEDGE_DIR --held
       write_store.py KNOWLEDGE_DIR --check-campaign
       write_store.py KNOWLEDGE_DIR --check-artifacts
       write_store.py KNOWLEDGE_DIR --resume CANDIDATE_DIGEST [--integer-scores]

Bootstraps a baseline; has autocontext's ContextBundlePromotionCoordinator
evaluate two candidates (one adds a component and is confirmed and promoted,
which writes its evaluator plan, matched trials, causal attribution and
promotion record; one fails the screen and is rejected, which writes its
negative result); proposes and rejects a third; and rolls back. Every kind
of file numi verifies is written by the real producer. Content is ASCII
only unless --non-ascii is given: then the baseline playbook holds an
emoji, which json.dumps writes as a surrogate pair escape. With
--legacy-trials the candidate rejected without evaluation is then given a
matched_trials.json in its schema-1 form, a bare array of autocontext's
MatchedTrial rows keyed by their legacy pair identity, as releases before
the schema-2 envelope wrote it (0.18.0 reads that form but no longer writes
it). With --campaign the coordinator runs under a campaign's
false-promotion controller rooted, as autocontext's live runtime roots it,
at the store's promotion-risk/, and stops after the promoted candidate,
whose authorization the controller seals in a reservation artifact
(promotion-risk/<campaign>/reservation-artifacts/<candidate>.json);
--check-campaign then loads that campaign's state with autocontext's own
controller, and --check-artifacts reads each reservation artifact as
autocontext does: its fixture reservation with
CandidateFixtureReservation.from_dict, and the whole artifact compared with
the one the controller rebuilds from the campaign state
(reservation_evidence_binding, through persist_reservation_artifact).
--resume has the coordinator (this script's, so its evaluator has the
identity the plan bound) evaluate the candidate again, as a retried run
does, and prints what it refuses, if anything, on standard output: on every
resume it checks the persisted trials against the bound evaluator plan.
With --held the coordinator runs under the campaign with a pre-promotion
audit that asks for review: the candidate it confirms is held (confirmed,
its reservation still reserved, nothing promoted); a second candidate's
evaluation stops when its evaluator fails on a unit, leaving it pending
with part of its trials.
With --integer-scores the evaluator scores with the integers 1 and 0, as
a pass/fail evaluator does: autocontext keeps them as written in the
matched trials (`1`), and its causal attribution, a pydantic model of
floats, writes them as `1.0`.
"""

import json

import sys
from pathlib import Path

from autocontext.context_bundles import ContextBundleStore
from autocontext.context_bundles.models import (
    BundleComponent,
    ComponentKind,
    ConfirmationPolicy,
    ContextBundle,
    MatchedTrial,
    TrialLane,
)
from autocontext.context_bundles.false_promotion import CampaignFalsePromotionController
from autocontext.context_bundles.fixture_reservations import CandidateFixtureReservation
from autocontext.context_bundles.promotion import (
    ContextBundleEvaluationOutcome,
    ContextBundleEvaluationUnit,
    ContextBundlePromotionCoordinator,
)

SCENARIO = "demo"
CAMPAIGN = "run-1"
EPOCH = "epoch-1"
POLICY = ConfirmationPolicy(
    min_screen_pairs=1,
    min_confirmation_pairs=2,
    max_confirmation_pairs=2,
    min_heldout_pairs=1,
)
UNITS = tuple(
    ContextBundleEvaluationUnit(f"fixture-{seed}", f"sha256:fixture-{seed}", seed, lane)
    for seed, lane in enumerate(
        [TrialLane.SCREEN, TrialLane.CONFIRMATION, TrialLane.CONFIRMATION, TrialLane.HELDOUT]
    )
)


def bundle(playbook: str, parent: str | None, hints: bool = False) -> ContextBundle:
    components = [
        BundleComponent(ComponentKind.PLAYBOOK, "playbook", playbook, "text/markdown"),
        BundleComponent.json(ComponentKind.ROUTING_CONFIG, "roles", {"model_competitor": "small"}),
    ]
    if hints:
        components.append(BundleComponent(ComponentKind.HINTS, "hints", "Check the units.", "text/markdown"))
    return ContextBundle.create(
        scenario=SCENARIO, evaluator_epoch=EPOCH, components=components, parent_digest=parent
    )


class ScoringByPassing:
    """Scores a bundle 1 when it holds hints and 0 when it does not, as
    integers; a long answer fails."""

    def evaluate(self, bundle: ContextBundle, unit: ContextBundleEvaluationUnit) -> ContextBundleEvaluationOutcome:
        passes = bool(bundle.components_of_kind(ComponentKind.HINTS))
        if any(component.content == "Answer at length." for component in bundle.components):
            passes = False
        return ContextBundleEvaluationOutcome(score=1 if passes else 0)


class ScoringByContent:
    """Scores a bundle by what it holds: hints help, a long answer hurts."""

    def evaluate(self, bundle: ContextBundle, unit: ContextBundleEvaluationUnit) -> ContextBundleEvaluationOutcome:
        score = 0.5
        if bundle.components_of_kind(ComponentKind.HINTS):
            score += 0.2 + 0.01 * unit.seed
        if any(component.content == "Answer at length." for component in bundle.components):
            score -= 0.4
        return ContextBundleEvaluationOutcome(score=score)


def campaign_root(knowledge: Path) -> Path:
    """Where autocontext's live runtime keeps its campaigns: in the store."""
    return knowledge / SCENARIO / "context_bundles" / "promotion-risk"


def check_campaign(knowledge: Path) -> None:
    """Loads the campaign's state with autocontext's own controller, which
    verifies its digest and every allocation; exits 1 if it refuses."""
    try:
        CampaignFalsePromotionController(campaign_root(knowledge)).reservations(CAMPAIGN)
    except ValueError as error:
        print(f"refused: {error}", file=sys.stderr)
        sys.exit(1)


def check_artifacts(knowledge: Path) -> None:
    """Reads every reservation artifact of the campaign as autocontext
    reads it; exits 1 if it refuses one."""
    controller = CampaignFalsePromotionController(campaign_root(knowledge))
    artifacts = sorted((campaign_root(knowledge) / CAMPAIGN / "reservation-artifacts").glob("*.json"))
    if not artifacts:
        print("refused: the campaign has no reservation artifact", file=sys.stderr)
        sys.exit(1)
    for path in artifacts:
        try:
            CandidateFixtureReservation.from_dict(json.loads(path.read_text(encoding="utf-8"))["fixture_reservation"])
            controller.reservation_evidence_binding(CAMPAIGN, path.stem)
        except ValueError as error:
            print(f"refused: {path.name}: {error}", file=sys.stderr)
            sys.exit(1)


def resume(knowledge: Path, digest: str) -> None:
    """Evaluates the candidate again; prints the refusal, if any."""
    evaluator = ScoringByPassing() if "--integer-scores" in sys.argv[2:] else ScoringByContent()
    store = ContextBundleStore(knowledge)
    coordinator = ContextBundlePromotionCoordinator(store, evaluator, UNITS, cohort="cohort-a", policy=POLICY)
    try:
        coordinator.evaluate_candidate(SCENARIO, digest)
    except ValueError as refusal:
        print(refusal)


class AskingForReview:
    def review_pre_promotion(self, candidate, comparison, trials, *, cancellation_event=None):
        return "review_required"


class FailingOnTheSecondConfirmation(ScoringByContent):
    def evaluate(self, bundle: ContextBundle, unit: ContextBundleEvaluationUnit) -> ContextBundleEvaluationOutcome:
        if unit.seed == 2:
            raise RuntimeError("the executor was lost")
        return super().evaluate(bundle, unit)


def held(knowledge: Path) -> None:
    """A held candidate and a pending one, under the campaign."""
    store = ContextBundleStore(knowledge)
    baseline = store.bootstrap(bundle("Answer in one line.", None))
    controller = CampaignFalsePromotionController(campaign_root(knowledge))
    audited = ContextBundlePromotionCoordinator(
        store, ScoringByContent(), UNITS, cohort="cohort-a", policy=POLICY,
        audit_checkpoint=AskingForReview(), false_promotion_controller=controller, campaign_id=CAMPAIGN,
    )
    candidate = bundle("Answer in one line.", baseline.digest, hints=True)
    store.propose(candidate, source_run_id="run-1", source_generation=1)
    result = audited.evaluate_candidate(SCENARIO, candidate.digest)
    assert result.promotion is None and result.audit_policy_outcome == "review_required", result
    # Fixtures of its own: the campaign reserves each candidate's for good.
    units = tuple(
        ContextBundleEvaluationUnit(f"pending-{unit.seed}", f"sha256:pending-{unit.seed}", unit.seed, unit.lane)
        for unit in UNITS
    )
    failing = ContextBundlePromotionCoordinator(
        store, FailingOnTheSecondConfirmation(), units, cohort="cohort-a", policy=POLICY,
        false_promotion_controller=controller, campaign_id=CAMPAIGN,
    )
    pending = bundle("Answer briefly.", baseline.digest, hints=True)
    store.propose(pending, source_run_id="run-1", source_generation=2)
    try:
        failing.evaluate_candidate(SCENARIO, pending.digest)
    except RuntimeError:
        pass
    else:
        raise AssertionError("the pending candidate's evaluation went through")
    print(json.dumps({"held": candidate.digest, "pending": pending.digest}))


def main() -> None:
    if "--held" in sys.argv[2:]:
        held(Path(sys.argv[1]))
        return
    if "--resume" in sys.argv[2:]:
        resume(Path(sys.argv[1]), sys.argv[sys.argv.index("--resume") + 1])
        return
    if "--check-campaign" in sys.argv[2:]:
        check_campaign(Path(sys.argv[1]))
        return
    if "--check-artifacts" in sys.argv[2:]:
        check_artifacts(Path(sys.argv[1]))
        return
    store = ContextBundleStore(Path(sys.argv[1]))
    first = "Answer in one line \U0001f600." if "--non-ascii" in sys.argv[2:] else "Answer in one line."
    baseline = store.bootstrap(bundle(first, None))
    campaign = {}
    if "--campaign" in sys.argv[2:]:
        campaign = {
            "false_promotion_controller": CampaignFalsePromotionController(campaign_root(Path(sys.argv[1]))),
            "campaign_id": CAMPAIGN,
        }
    evaluator = ScoringByPassing() if "--integer-scores" in sys.argv[2:] else ScoringByContent()
    coordinator = ContextBundlePromotionCoordinator(
        store, evaluator, UNITS, cohort="cohort-a", policy=POLICY, **campaign
    )

    # One pure addition: confirmed, attributed and promoted.
    better = bundle(first, baseline.digest, hints=True)
    store.propose(better, source_run_id="run-1", source_generation=1)
    promoted = coordinator.evaluate_candidate(SCENARIO, better.digest)
    assert promoted.promotion is not None, promoted.comparison
    if campaign:
        # The campaign reserves each candidate's fixtures for good: the
        # next candidate would need fixtures of its own.
        return

    # Fails the screen: rejected, with its negative result.
    worse = bundle("Answer at length.", better.digest, hints=True)
    store.propose(worse, source_run_id="run-1", source_generation=2)
    failed = coordinator.evaluate_candidate(SCENARIO, worse.digest)
    assert failed.promotion is None, failed.comparison

    rejected = bundle("Answer twice.", better.digest, hints=True)
    store.propose(rejected, source_run_id="run-2", source_generation=1)
    store.reject(SCENARIO, rejected.digest, rationale="not wanted")

    store.rollback(SCENARIO, rationale="regression seen in production")

    if "--legacy-trials" in sys.argv[2:]:
        rows = [
            {**trial.to_dict(), "pair_key": trial.legacy_pair_key}
            for trial in (
                MatchedTrial(
                    candidate_digest=rejected.digest,
                    incumbent_digest=better.digest,
                    evaluator_epoch=EPOCH,
                    cohort="cohort-a",
                    fixture=unit.fixture,
                    fixture_digest=unit.fixture_digest,
                    seed=unit.seed,
                    lane=unit.lane,
                    candidate_score=0.3,
                    incumbent_score=0.5,
                )
                for unit in UNITS
            )
        ]
        path = store._trials_path(SCENARIO, rejected.digest)  # noqa: SLF001 - the file it reads
        path.write_text(json.dumps(rows, indent=2, sort_keys=True), encoding="utf-8")

if __name__ == "__main__":
    main()
