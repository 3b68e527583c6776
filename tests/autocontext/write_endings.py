"""Writes a store where autocontext's coordinator ends two confirmed
candidates without promoting them, each with its negative result.

Usage: write_endings.py KNOWLEDGE_DIR [--stale-campaign]
       write_endings.py KNOWLEDGE_DIR --resume CANDIDATE_DIGEST

Bootstraps a baseline and proposes two candidates of it; the first is
confirmed and promoted, so the second, confirmed in turn, finds its
incumbent no longer active and is rejected as stale
(`terminalize_stale_candidate`, which leaves `stale_terminalization.json`).
A third, of the promoted bundle, is evaluated under a false-promotion
campaign rooted at the store's promotion-risk/, as the live runtime roots
it: its matched comparison confirms, but two of its four confirmation
fixtures gain little and two much, so the campaign's block interval does
not clear the minimum effect and the gate blocks it. Prints the digests
as JSON: {"stale": ..., "blocked": ...}.

With --stale-campaign two more candidates of the promoted bundle are
evaluated under a campaign of their own ("run-3"): the first is confirmed
and promoted, so the second, confirmed in turn, is stale, and its
campaign reservation is rejected as stale (`reject_stale_risk_reservation`:
the marker's reason, the trials' digest, their fixtures counted) and
sealed in a reservation artifact; its digest is printed as
"stale_in_campaign".

--resume has the coordinator that evaluated the candidate (this script's,
so its evaluator has the identity the plan bound) evaluate it again, as a
retried run does, and prints what it refuses, if anything: on a stale
candidate, autocontext checks the marker's bindings, the record's
rationale and, under a campaign, the reservation's reason.
"""

import json
import sys
from pathlib import Path

from autocontext.context_bundles import ContextBundleStore
from autocontext.context_bundles.false_promotion import CampaignFalsePromotionController
from autocontext.context_bundles.models import (
    BundleComponent,
    ComponentKind,
    ConfirmationPolicy,
    ContextBundle,
    TrialLane,
)
from autocontext.context_bundles.promotion import (
    ContextBundleEvaluationOutcome,
    ContextBundleEvaluationUnit,
    ContextBundlePromotionCoordinator,
)

SCENARIO = "demo"
POLICY = ConfirmationPolicy(
    min_screen_pairs=1,
    min_confirmation_pairs=2,
    max_confirmation_pairs=8,
    min_heldout_pairs=1,
)


def bundle(playbook: str, parent: str | None) -> ContextBundle:
    return ContextBundle.create(
        scenario=SCENARIO,
        evaluator_epoch="epoch-1",
        components=[BundleComponent(ComponentKind.PLAYBOOK, "playbook", playbook, "text/markdown")],
        parent_digest=parent,
    )


def units(tag: str) -> tuple[ContextBundleEvaluationUnit, ...]:
    """A screen, eight confirmation pairs on four fixtures, a held-out pair."""
    lanes = (
        [(0, "screen", TrialLane.SCREEN)]
        + [(seed, f"block-{(seed - 1) // 2}", TrialLane.CONFIRMATION) for seed in range(1, 9)]
        + [(9, "heldout", TrialLane.HELDOUT)]
    )
    return tuple(
        ContextBundleEvaluationUnit(f"{tag}-{name}", f"sha256:{tag}-{name}", seed, lane)
        for seed, name, lane in lanes
    )


class ScoringByPlaybook:
    """The baseline scores 0.5 and its two children 0.7. "uneven" gains 0.2
    over them, but on alternate confirmation fixtures 0.4."""

    def evaluate(self, candidate: ContextBundle, unit: ContextBundleEvaluationUnit) -> ContextBundleEvaluationOutcome:
        playbook = candidate.components[0].content
        if playbook == "baseline":
            return ContextBundleEvaluationOutcome(score=0.5)
        if playbook != "uneven":
            return ContextBundleEvaluationOutcome(score=0.7)
        gain = 0.2
        if unit.lane == TrialLane.CONFIRMATION and ((unit.seed - 1) // 2) % 2 == 1:
            gain = 0.4
        return ContextBundleEvaluationOutcome(score=0.7 + gain)


class ScoringSteadily:
    """Scores "steady again" and "steady once more" 0.2 above their parent,
    on every unit alike, so that the campaign's gate authorizes either."""

    def evaluate(self, candidate: ContextBundle, unit: ContextBundleEvaluationUnit) -> ContextBundleEvaluationOutcome:
        steady = candidate.components[0].content in {"steady again", "steady once more"}
        return ContextBundleEvaluationOutcome(score=0.9 if steady else 0.7)


def campaign_coordinator(store: ContextBundleStore, knowledge: Path, tag: str, campaign_id: str) -> ContextBundlePromotionCoordinator:
    return ContextBundlePromotionCoordinator(
        store,
        ScoringSteadily() if campaign_id == "run-3" else ScoringByPlaybook(),
        units(tag),
        cohort="cohort-a",
        policy=POLICY,
        false_promotion_controller=CampaignFalsePromotionController(
            knowledge / SCENARIO / "context_bundles" / "promotion-risk"
        ),
        campaign_id=campaign_id,
    )


# The coordinator that evaluates each candidate, by its playbook.
COORDINATORS = {
    "steady": ("plain", None),
    "steady too": ("plain", None),
    "uneven": ("campaign", "run-2"),
    "steady again": ("third", "run-3"),
    "steady once more": ("fourth", "run-3"),
}


def resume(knowledge: Path, digest: str) -> None:
    store = ContextBundleStore(knowledge)
    tag, campaign_id = COORDINATORS[store.load_bundle(SCENARIO, digest).components[0].content]
    if campaign_id is None:
        coordinator = ContextBundlePromotionCoordinator(
            store, ScoringByPlaybook(), units(tag), cohort="cohort-a", policy=POLICY
        )
    else:
        coordinator = campaign_coordinator(store, knowledge, tag, campaign_id)
    try:
        coordinator.evaluate_candidate(SCENARIO, digest)
    except ValueError as refusal:
        print(refusal)


def main() -> None:
    knowledge = Path(sys.argv[1])
    if "--resume" in sys.argv[2:]:
        resume(knowledge, sys.argv[sys.argv.index("--resume") + 1])
        return
    store = ContextBundleStore(knowledge)
    baseline = store.bootstrap(bundle("baseline", None))
    coordinator = ContextBundlePromotionCoordinator(
        store, ScoringByPlaybook(), units("plain"), cohort="cohort-a", policy=POLICY
    )
    promoted = bundle("steady", baseline.digest)
    stale = bundle("steady too", baseline.digest)
    store.propose(promoted, source_run_id="run-1", source_generation=1)
    store.propose(stale, source_run_id="run-1", source_generation=2)
    assert coordinator.evaluate_candidate(SCENARIO, promoted.digest).promotion is not None
    result = coordinator.evaluate_candidate(SCENARIO, stale.digest)
    assert result.promotion is None and result.comparison.decision.value == "confirmed", result

    blocked = bundle("uneven", promoted.digest)
    store.propose(blocked, source_run_id="run-2", source_generation=1)
    campaign = ContextBundlePromotionCoordinator(
        store,
        ScoringByPlaybook(),
        units("campaign"),
        cohort="cohort-a",
        policy=POLICY,
        false_promotion_controller=CampaignFalsePromotionController(
            knowledge / SCENARIO / "context_bundles" / "promotion-risk"
        ),
        campaign_id="run-2",
    )
    result = campaign.evaluate_candidate(SCENARIO, blocked.digest)
    assert result.promotion is None and result.false_promotion_result is not None, result
    assert not result.false_promotion_result.authorized, result
    digests = {"stale": stale.digest, "blocked": blocked.digest}

    if "--stale-campaign" in sys.argv[2:]:
        again = bundle("steady again", promoted.digest)
        once_more = bundle("steady once more", promoted.digest)
        store.propose(again, source_run_id="run-3", source_generation=1)
        store.propose(once_more, source_run_id="run-3", source_generation=2)
        first = campaign_coordinator(store, knowledge, "third", "run-3").evaluate_candidate(SCENARIO, again.digest)
        assert first.promotion is not None, first
        second = campaign_coordinator(store, knowledge, "fourth", "run-3").evaluate_candidate(SCENARIO, once_more.digest)
        assert second.promotion is None and second.false_promotion_result is not None, second
        assert second.false_promotion_result.reservation.status == "rejected", second
        digests["stale_in_campaign"] = once_more.digest
    print(json.dumps(digests))


if __name__ == "__main__":
    main()
