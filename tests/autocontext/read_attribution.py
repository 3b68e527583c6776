"""Replays a causal attribution with autocontext's own reader.

Usage: read_attribution.py KNOWLEDGE_DIR CANDIDATE_DIGEST

Reads demo/context_bundles/candidates/CANDIDATE_DIGEST/causal_attribution.json
as autocontext's models read it and hands each attribution, its source
trials and the two bundle manifests to
reconstruct_manifest_verified_causal_credit, which recomputes the effect,
confidence, token cost, disposition and every binding from the trials.
Exits 0 when every attribution verifies; 1, with autocontext's reason on
standard error, when one is refused.
"""

import json
import sys
from pathlib import Path

from autocontext.analytics.context_attribution import ControlledAttributionTrial
from autocontext.analytics.manifest_attribution import (
    ManifestVerifiedComponentAttribution,
    reconstruct_manifest_verified_causal_credit,
)
from autocontext.context_bundles import ContextBundleStore

SCENARIO = "demo"


def main() -> int:
    knowledge = Path(sys.argv[1])
    digest = sys.argv[2]
    store = ContextBundleStore(knowledge)
    path = knowledge / SCENARIO / "context_bundles" / "candidates" / digest / "causal_attribution.json"
    artifact = json.loads(path.read_text(encoding="utf-8"))
    try:
        trials = [ControlledAttributionTrial.model_validate(item) for item in artifact["source_trials"]]
        manifests = {
            artifact["candidate_digest"]: store.load_bundle(SCENARIO, artifact["candidate_digest"]),
            artifact["comparison_digest"]: store.load_bundle(SCENARIO, artifact["comparison_digest"]),
        }
        for item in artifact["attributions"]:
            record = ManifestVerifiedComponentAttribution.model_validate(item)
            reconstruct_manifest_verified_causal_credit(record, trials, bundle_manifests=manifests)
    except (ValueError, KeyError) as error:
        print(f"refused: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
