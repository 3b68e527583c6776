"""Writes a context-bundle store with autocontext's own ContextBundleStore.

Usage: write_store.py KNOWLEDGE_DIR [--non-ascii]

Bootstraps a baseline, proposes candidates, records matched trials,
promotes one, rejects one and rolls back, so that every kind of file numi
verifies is written by the real producer. Content is ASCII only unless
--non-ascii is given: then the baseline playbook holds an emoji, which
json.dumps writes as a surrogate pair escape.
"""

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

SCENARIO = "demo"
EPOCH = "epoch-1"
POLICY = ConfirmationPolicy(
    min_screen_pairs=1,
    min_confirmation_pairs=2,
    max_confirmation_pairs=2,
    min_heldout_pairs=1,
)


def bundle(playbook: str, parent: str | None, extra: bool = False) -> ContextBundle:
    components = [
        BundleComponent(ComponentKind.PLAYBOOK, "playbook", playbook, "text/markdown"),
        BundleComponent.json(ComponentKind.ROUTING_CONFIG, "roles", {"model_competitor": "small"}),
    ]
    if extra:
        components.append(BundleComponent(ComponentKind.HINTS, "hints", "Check the units.", "text/markdown"))
    return ContextBundle.create(
        scenario=SCENARIO, evaluator_epoch=EPOCH, components=components, parent_digest=parent
    )


def trials(candidate: ContextBundle, incumbent: ContextBundle, better: bool) -> list[MatchedTrial]:
    rows = []
    lanes = [TrialLane.SCREEN, TrialLane.CONFIRMATION, TrialLane.CONFIRMATION, TrialLane.HELDOUT]
    for seed, lane in enumerate(lanes):
        delta = (0.2 + 0.01 * seed) if better else -0.2
        rows.append(
            MatchedTrial(
                candidate_digest=candidate.digest,
                incumbent_digest=incumbent.digest,
                evaluator_epoch=EPOCH,
                cohort="cohort-a",
                fixture=f"fixture-{seed}",
                fixture_digest=f"sha256:fixture-{seed}",
                seed=seed,
                lane=lane,
                candidate_score=0.5 + delta,
                incumbent_score=0.5,
            )
        )
    return rows


def main() -> None:
    store = ContextBundleStore(Path(sys.argv[1]))
    first = "Answer in one line \U0001f600." if "--non-ascii" in sys.argv[2:] else "Answer in one line."
    baseline = store.bootstrap(bundle(first, None))

    better = bundle("Answer in one line, then check it.", baseline.digest)
    store.propose(better, source_run_id="run-1", source_generation=1)
    store.record_matched_trials(SCENARIO, better.digest, trials(better, baseline, True), policy=POLICY)

    worse = bundle("Answer at length.", baseline.digest, extra=True)
    store.propose(worse, source_run_id="run-1", source_generation=2)
    store.record_matched_trials(SCENARIO, worse.digest, trials(worse, baseline, False), policy=POLICY)

    store.promote(SCENARIO, better.digest, cohort="cohort-a", rationale="confirmed")

    rejected = bundle("Answer twice.", better.digest)
    store.propose(rejected, source_run_id="run-2", source_generation=1)
    store.reject(SCENARIO, rejected.digest, rationale="not wanted")

    store.rollback(SCENARIO, rationale="regression seen in production")


if __name__ == "__main__":
    main()
