#!/usr/bin/env python3
"""Verify an autocontext store, against sha256sum over the same files.

    python3 bench/autocontext_store.py [--bundles N] [--seed S] [--runs K] [--numi PATH]
    python3 bench/autocontext_store.py --autocontext-python PYTHON [--rounds R] [--runs K]

1. The store. By default (seeded, deterministic)
   `bench/autocontext-store-n<N>-s<S>/`: a knowledge folder with one
   scenario whose `context_bundles/` store holds N bundles in one parent
   chain, a candidate record for each and `active.json` naming the last.
   Digests are computed here with the same canonical JSON as autocontext
   (all keys and content are ASCII, so sorted `json.dumps` is RFC 8785 for
   them). With --autocontext-python, a Python that has autocontext 0.18.0
   writes `bench/autocontext-store-evidence-r<R>/` itself
   (`bench/autocontext_write_store.py`): R rounds of three candidates, so
   the store holds what autocontext keeps per candidate (records, manifest
   diffs, evaluator plans, matched trials, causal attributions, promotions
   and negative results). Either store is written once and kept.
2. Times, as medians of --runs runs after one untimed warm-up, alternately:
   `numi validate --files <store>` and `sha256sum` over the same files (one
   process, every file), each writing to a file; wall time and CPU time
   (user + system, of the child and its threads), and numi's own peak RSS
   (read with GNU time, `/usr/bin/time`, when it is there).
3. Prints the figures and the ratios; exits 1 when numi does not report
   every file `ok`.

Standard library only. Build numi first (`cargo build --profile dist`) or pass
--numi.
"""

import argparse
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KINDS = ["playbook", "hints", "prompt_fragment", "tool_guidance", "routing_config"]


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()


def component(kind: str, key: str, content: str) -> dict:
    body = {"kind": kind, "key": key, "content": content, "media_type": "text/markdown"}
    return {**body, "digest": digest(body)}


def bundle(rng: random.Random, parent, index: int) -> dict:
    kinds = sorted(rng.sample(KINDS, rng.randint(1, len(KINDS))))
    components = [
        component(kind, kind, f"{kind} {index}: " + " ".join(rng.choice(["check", "units", "answer", "plan", "tests"]) for _ in range(rng.randint(20, 200))))
        for kind in kinds
    ]
    manifest = {
        "schema_version": 1,
        "scenario": "bench",
        "evaluator_epoch": "epoch-1",
        "parent_digest": parent,
        "components": components,
    }
    return {**manifest, "digest": digest(manifest)}


def write(path: Path, value: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) + "\n")


def generate(root: Path, bundles: int, seed: int) -> list:
    store = root / "bench" / "context_bundles"
    marker = root / "DONE"
    if marker.exists():
        return sorted(str(p) for p in root.rglob("*.json"))
    rng = random.Random(seed)
    parent = None
    for index in range(bundles):
        manifest = bundle(rng, parent, index)
        write(store / "bundles" / f"{manifest['digest']}.json", manifest)
        last = index == bundles - 1
        write(
            store / "candidates" / manifest["digest"] / "record.json",
            {
                "schema_version": 2,
                "bundle_digest": manifest["digest"],
                "parent_digest": parent,
                "evaluator_epoch": "epoch-1",
                "lifecycle": "active" if last else "superseded",
                "source_run_id": "bench",
                "source_generation": index,
                "created_at": "2026-01-01T00:00:00+00:00",
                "updated_at": "2026-01-01T00:00:00+00:00",
                "rationale": "",
                "comparison": None,
                "confirmation_policy": None,
                "confirmation_policy_digest": None,
            },
        )
        parent = manifest["digest"]
    write(
        store / "active.json",
        {
            "schema_version": 1,
            "bundle_digest": parent,
            "evaluator_epoch": "epoch-1",
            "promotion_id": None,
            "rollback_target_digest": None,
            "activated_at": "2026-01-01T00:00:00+00:00",
            "rationale": "bench",
        },
    )
    marker.write_text("")
    return sorted(str(p) for p in root.rglob("*.json"))


def written_by_autocontext(root: Path, python: str, rounds: int) -> list:
    """The store files autocontext wrote in `root` (written now if need be)."""
    knowledge = root / "knowledge"
    marker = root / "DONE"
    if not marker.exists():
        shutil.rmtree(root, ignore_errors=True)
        writer = Path(__file__).resolve().parent / "autocontext_write_store.py"
        subprocess.run([python, str(writer), str(knowledge), str(rounds)], check=True)
        marker.write_text("")
    return sorted(str(p) for p in knowledge.glob("*/context_bundles/**/*.json"))


def timed(command, stdin_path=None):
    """Wall time, CPU time (user + system), exit code and output of one child."""
    with tempfile.TemporaryFile() as out:
        actions = [
            (os.POSIX_SPAWN_DUP2, out.fileno(), 1),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
        ]
        if stdin_path is not None:
            actions.append((os.POSIX_SPAWN_OPEN, 0, stdin_path, os.O_RDONLY, 0))
        start = time.perf_counter()
        pid = os.posix_spawnp(command[0], command, os.environ, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status), text


def peak_rss_kib(command):
    """numi's own peak RSS, read by GNU time: a child of this Python process
    would count Python's pages (shared until exec) in its peak."""
    gnu_time = shutil.which("time", path="/usr/bin:/bin")
    if gnu_time is None:
        return None
    with tempfile.NamedTemporaryFile(mode="r") as report:
        subprocess.run([gnu_time, "-f", "%M", "-o", report.name, *command],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        text = report.read().strip().splitlines()
    return int(text[-1]) if text and text[-1].isdigit() else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bundles", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--autocontext-python", help="a Python with autocontext 0.18.0: it writes the store")
    parser.add_argument("--rounds", type=int, default=120, help="with --autocontext-python: rounds of three candidates")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--numi", default="target/dist/numi")
    args = parser.parse_args()

    here = Path(__file__).resolve().parent
    if args.autocontext_python:
        root = here / f"autocontext-store-evidence-r{args.rounds}"
        files = written_by_autocontext(root, args.autocontext_python, args.rounds)
        store = next((root / "knowledge").glob("*/context_bundles"))
    else:
        root = here / f"autocontext-store-n{args.bundles}-s{args.seed}"
        files = generate(root, args.bundles, args.seed)
        store = root
    size = sum(os.path.getsize(f) for f in files)
    print(f"store: {store} ({len(files)} files, {size / 1e6:.1f} MB)")

    numi = [args.numi, "validate", "--files", str(store)]
    sha = ["xargs", "-0", "sha256sum"]
    listing = root.parent / f"{root.name}.files"
    listing.write_text("\0".join(files))
    timed(numi)
    timed(sha, str(listing))
    numi_runs, sha_runs = [], []
    for _ in range(args.runs):
        wall, cpu, code, stdout = timed(numi)
        numi_runs.append((wall, cpu))
        lines = [line for line in stdout.splitlines() if line.startswith(("ok ", "invalid ", "error "))]
        if code != 0 or len(lines) != len(files) or not all(line.startswith("ok ") for line in lines):
            print(f"numi did not verify every file: exit {code}, {len(lines)} lines", file=sys.stderr)
            return 1
        wall, cpu, _, _ = timed(sha, str(listing))
        sha_runs.append((wall, cpu))
    for name, index in [("wall", 0), ("CPU", 1)]:
        numi_median = statistics.median(run[index] for run in numi_runs)
        sha_median = statistics.median(run[index] for run in sha_runs)
        print(f"{name} time: numi validate --files median {numi_median:.3f} s, "
              f"sha256sum (same files) {sha_median:.3f} s over {args.runs} runs: "
              f"ratio {numi_median / sha_median:.2f} (target: at most 2.5)")
    rss = peak_rss_kib(numi)
    if rss is None:
        print("peak RSS of numi: not measured (needs GNU time, /usr/bin/time)")
    else:
        print(f"peak RSS of numi: {rss / 1024:.1f} MiB (GNU time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
