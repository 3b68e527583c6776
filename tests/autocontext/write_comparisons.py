"""Writes a store whose comparisons confirm, reject and come out
inconclusive, with autocontext's own coordinator under a false-promotion
campaign; or replays one candidate's comparison with autocontext's reader;
or resumes one candidate's evaluation with autocontext's coordinator.

Usage: write_comparisons.py write KNOWLEDGE_DIR cluster_t|bounded_hoeffding
       write_comparisons.py replay KNOWLEDGE_DIR CANDIDATE_DIGEST
       write_comparisons.py resume KNOWLEDGE_DIR cluster_t|bounded_hoeffding CANDIDATE_DIGEST

`write` bootstraps a baseline and has the coordinator evaluate three
candidates off it, each scored so that its matched comparison is confirmed,
rejected (its confirmation interval lies below the minimum effect) or
inconclusive (the confirmation budget is spent while the interval still
straddles it). The campaign reserves each candidate a confidence z of its
own, so the intervals are computed at thresholds no one chose by hand.
Prints the digests as JSON: {"confirmed": ..., "rejected": ..., ...}.

`replay` runs autocontext's `replay_matched_trials` for the candidate under
the policy its record binds (and its bound evaluator plan), which refuses trials and a comparison that do
not reproduce each other; exits 1 with the reason when it refuses.
"""

import json
import sys
from pathlib import Path

from autocontext.context_bundles import ContextBundleStore
from autocontext.context_bundles.evaluator_plan import evaluator_plan_binding
from autocontext.context_bundles.false_promotion import (
    CampaignFalsePromotionController,
    CampaignFalsePromotionPolicy,
)
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
EPOCH = "epoch-1"
POLICY = ConfirmationPolicy(
    min_screen_pairs=1,
    min_confirmation_pairs=4,
    max_confirmation_pairs=4,
    min_heldout_pairs=1,
)
LANES = [TrialLane.SCREEN] + [TrialLane.CONFIRMATION] * 4 + [TrialLane.HELDOUT]


def units(candidate_index: int) -> tuple[ContextBundleEvaluationUnit, ...]:
    """Fixtures of the candidate's own: a campaign never reuses one."""
    return tuple(
        ContextBundleEvaluationUnit(
            f"fixture-{candidate_index}-{place}",
            f"sha256:fixture-{candidate_index}-{place}",
            10 * candidate_index + place,
            lane,
        )
        for place, lane in enumerate(LANES)
    )


# The candidate's gain over its parent on each unit, by its place in LANES.
# The confirmed one comes last: its promotion makes it the parent every
# later candidate would need.
GAINS = {
    "rejected": [0.1, -0.3, -0.31, -0.28, -0.33, 0.1],
    "inconclusive": [0.1, 0.3, -0.2, 0.25, -0.15, 0.1],
    "confirmed": [0.2, 0.21, 0.19, 0.23, 0.2, 0.1],
}


def bundle(playbook: str, parent: str | None) -> ContextBundle:
    return ContextBundle.create(
        scenario=SCENARIO,
        evaluator_epoch=EPOCH,
        components=[BundleComponent(ComponentKind.PLAYBOOK, "playbook", playbook, "text/markdown")],
        parent_digest=parent,
    )


class ScoringByPlaybook:
    def evaluate(self, candidate: ContextBundle, unit: ContextBundleEvaluationUnit) -> ContextBundleEvaluationOutcome:
        playbook = candidate.components[0].content
        gains = GAINS.get(playbook)
        return ContextBundleEvaluationOutcome(score=0.5 + (gains[unit.seed % 10] if gains else 0.0))


def coordinator(store: ContextBundleStore, knowledge: Path, method: str, index: int) -> ContextBundlePromotionCoordinator:
    """The coordinator of the campaign, for the candidate at `index`."""
    controller = CampaignFalsePromotionController(
        knowledge / SCENARIO / "context_bundles" / "promotion-risk",
        CampaignFalsePromotionPolicy(robust_method=method),
    )
    return ContextBundlePromotionCoordinator(
        store,
        ScoringByPlaybook(),
        units(index),
        cohort="cohort-a",
        policy=POLICY,
        false_promotion_controller=controller,
        campaign_id=f"campaign-{method}",
    )


def write(knowledge: Path, method: str) -> None:
    store = ContextBundleStore(knowledge)
    baseline = store.bootstrap(bundle("baseline", None))
    digests = {}
    for index, outcome in enumerate(GAINS):
        candidate = bundle(outcome, baseline.digest)
        store.propose(candidate, source_run_id="run-1", source_generation=len(digests) + 1)
        result = coordinator(store, knowledge, method, index).evaluate_candidate(SCENARIO, candidate.digest)
        assert result.comparison is not None and result.comparison.decision.value == outcome, result
        digests[outcome] = candidate.digest
    print(json.dumps(digests))


def replay(knowledge: Path, digest: str) -> None:
    store = ContextBundleStore(knowledge)
    record = store.candidate(SCENARIO, digest)
    policy = ConfirmationPolicy.from_dict(record.confirmation_policy or {})
    try:
        _, plan_digest = evaluator_plan_binding(store, SCENARIO, digest)
        store.replay_matched_trials(SCENARIO, digest, policy=policy, evaluator_plan_digest=plan_digest)
    except (ValueError, TypeError) as refusal:
        print(refusal)
        sys.exit(1)


def resume(knowledge: Path, method: str, digest: str) -> None:
    store = ContextBundleStore(knowledge)
    outcome = store.load_bundle(SCENARIO, digest).components[0].content
    try:
        coordinator(store, knowledge, method, list(GAINS).index(outcome)).evaluate_candidate(SCENARIO, digest)
    except ValueError as refusal:
        print(refusal)
        sys.exit(1)


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(Path(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "resume":
        resume(Path(sys.argv[2]), sys.argv[3], sys.argv[4])
    else:
        replay(Path(sys.argv[2]), sys.argv[3])
