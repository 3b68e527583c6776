"""Has autocontext 0.18.0 write a context-bundle store for the benchmark.

    PYTHON_WITH_AUTOCONTEXT bench/autocontext_write_store.py KNOWLEDGE_DIR ROUNDS

Run by `bench/autocontext_store.py --autocontext-python PYTHON`. Each round
has autocontext's ContextBundlePromotionCoordinator evaluate three
candidates of the active bundle, so the store holds everything autocontext
keeps per candidate: one adds a component and is confirmed, attributed and
promoted; one changes the playbook and is confirmed and promoted; one fails
its screen and is rejected with its negative result. Every candidate has
its record, manifest diff, evaluator plan and matched trials. Bundles keep
their size whatever the number of rounds.
"""

import sys
from pathlib import Path

from autocontext.context_bundles import ContextBundleStore
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

SCENARIO = "bench"
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
WORDS = "Check the units, plan the answer, then write the tests before the code."


def bundle(generation: int, parent, hints: bool = False, long: bool = False) -> ContextBundle:
    playbook = "Answer at length." if long else f"Generation {generation}. {WORDS}"
    components = [
        BundleComponent(ComponentKind.PLAYBOOK, "playbook", playbook, "text/markdown"),
        BundleComponent(ComponentKind.PROMPT_FRAGMENT, "fragment", f"{generation}: {WORDS}", "text/markdown"),
        BundleComponent.json(ComponentKind.ROUTING_CONFIG, "roles", {"model_competitor": "small"}),
    ]
    if hints:
        components.append(BundleComponent(ComponentKind.HINTS, "hints", f"Hint {generation}. {WORDS}", "text/markdown"))
    return ContextBundle.create(scenario=SCENARIO, evaluator_epoch=EPOCH, components=components, parent_digest=parent)


class ScoringByContent:
    """A later generation scores higher, hints help, a long answer hurts;
    the effects vary by seed so the comparisons have a spread."""

    def evaluate(self, candidate: ContextBundle, unit: ContextBundleEvaluationUnit) -> ContextBundleEvaluationOutcome:
        playbook = candidate.components_of_kind(ComponentKind.PLAYBOOK)[0].content
        if playbook == "Answer at length.":
            return ContextBundleEvaluationOutcome(score=-0.4)
        generation = int(playbook.split(".")[0].split()[1])
        score = generation * (0.3 + 0.01 * unit.seed)
        if candidate.components_of_kind(ComponentKind.HINTS):
            score += 0.2 + 0.01 * unit.seed
        return ContextBundleEvaluationOutcome(score=score)


def main() -> None:
    store = ContextBundleStore(Path(sys.argv[1]))
    rounds = int(sys.argv[2])
    active = store.bootstrap(bundle(0, None))
    coordinator = ContextBundlePromotionCoordinator(store, ScoringByContent(), UNITS, cohort="cohort-a", policy=POLICY)
    generation = 0
    for _ in range(rounds):
        for candidate, promoted in [
            (bundle(generation, active.digest, hints=True), True),
            (bundle(generation + 1, None), True),
            (None, False),
        ]:
            if candidate is None:
                candidate = bundle(generation, active.digest, long=True)
            elif candidate.parent_digest is None:
                generation += 1
                candidate = bundle(generation, active.digest)
            store.propose(candidate, source_run_id="bench", source_generation=generation)
            result = coordinator.evaluate_candidate(SCENARIO, candidate.digest)
            assert (result.promotion is not None) == promoted, result.comparison
            if promoted:
                active = candidate


if __name__ == "__main__":
    main()
