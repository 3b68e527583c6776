#!/usr/bin/env python3
"""Benchmark `numi validate` on the reference corpus, with one command.

    python3 bench/bench.py                 # 10,000 files, 5 runs, everything installed
    python3 bench/bench.py --quick         # 1,000 files, 3 runs: a smoke test
    python3 bench/bench.py --scaling       # also 40,000 files, for the 40k/10k ratio

What it does, in order:

1. Generates the corpus with bench/gen_corpus.py (a byte-identical copy of the
   shared reference generator) into bench/corpus-n<FILES>-f<FRACTION>-s<SEED>/,
   or reuses that directory when its MANIFEST.json was made with the same
   arguments by the same generator.
2. Builds numi with `cargo build --profile dist` (what is shipped).
3. Times, as medians of --runs runs after one untimed warm-up run:
   - `numi validate --files <corpus>` (wall, user+sys CPU, peak RSS);
   - `cat` of every corpus file (the floor: reading the bytes, nothing else);
   - numi on one small file against /bin/true (the pre-commit case), with
     hyperfine when installed, else with a loop here;
   - ajv-cli, jsonschema-cli and check-jsonschema, when installed, on the
     same files with the same schemas: JSON Schema checks only, one
     invocation per kind; jsonschema-cli also on the one small file;
   - with --scaling, numi on a 40,000-file corpus and on the default one,
     one run of each in turn, for the 40k/10k ratio.
4. Checks numi's output against MANIFEST.json while timing it: exit code,
   number of `invalid` lines, the status of every file, the order of the lines,
   and that every run prints the same bytes. A mismatch is printed loudly and
   makes this script exit with 1.
5. Prints a table and writes every figure to bench/last-results.json.

Python 3.9 or later, standard library only. Linux (it reads rusage per child
with os.wait4, peak RSS through /usr/bin/time, and /proc for the machine).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH_DIR)
GENERATOR = os.path.join(BENCH_DIR, "gen_corpus.py")
SCHEMA_DIR = os.path.join(REPO, "schemas")
DEFAULT_OUTPUT = os.path.join(BENCH_DIR, "last-results.json")

# The generator's default kind mix; the corpus directory is reused only if
# its manifest was made with it.
DEFAULT_MIX = {"Playbook": 0.2, "EvalSet": 0.3, "ContextBundle": 0.5}
# Written into the corpus directory: the SHA-256 of the generator that made
# it, so that a changed generator regenerates the corpus. numi only reads
# *.yaml and *.yml, and the other tools get explicit file lists, so this file
# is invisible to every command timed.
STAMP = ".generator.sha256"

INSTALL_HINTS = {
    "ajv": "npm install -g ajv-cli ajv-formats",
    "check-jsonschema": "pip install check-jsonschema",
    "jsonschema-cli": "cargo install --locked jsonschema-cli --version 0.60.2 --root DIR, "
                      "then --jsonschema-cli DIR/bin/jsonschema-cli or DIR/bin on PATH",
    "hyperfine": "apt-get install hyperfine (or cargo install hyperfine)",
}


def log(message: str = "") -> None:
    print(message, file=sys.stderr, flush=True)


# --- running and measuring ---------------------------------------------------------


# GNU time, to read each child's peak RSS (see run_measured).
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_measured(argv: list, cwd: str, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                 rss: bool = True) -> dict:
    """Run argv once; return its wall time, CPU time, peak RSS and exit code.

    Wall time is measured here and CPU time comes from os.wait4, which gives
    the usage of this one child (getrusage(RUSAGE_CHILDREN) would add up all
    children so far). Peak RSS cannot come from the same place: Linux keeps a
    process's high-water mark across exec, so a child forked from this Python
    process reports at least Python's own RSS (about 20 MiB). GNU time forks
    the command from its own small process and reports the command's peak
    (`%M`, within about 1.5 MiB of it); it costs about a millisecond of wall
    time per run, so `rss=False` leaves it out where a millisecond matters.
    Without it the RSS is marked as an upper bound.
    """
    rss_file = None
    if GNU_TIME and rss:
        fd, rss_file = tempfile.mkstemp(prefix="numi-bench-rss-")
        os.close(fd)
        argv = [GNU_TIME, "-f", "%M", "-o", rss_file, "--"] + list(argv)
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, so Popen must not wait again
        max_rss, rss_exact = usage.ru_maxrss, False  # kilobytes on Linux
        if rss_file:
            with open(rss_file, encoding="utf-8") as handle:
                # The last line; a line before it says "Command exited with non-zero status N".
                lines = handle.read().split()
            if lines and lines[-1].isdigit():
                max_rss, rss_exact = int(lines[-1]), True
    finally:
        if rss_file:
            os.unlink(rss_file)
    return {
        "wall_s": wall,
        "user_s": usage.ru_utime,
        "sys_s": usage.ru_stime,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "max_rss_kib": max_rss,
        "max_rss_exact": rss_exact,
        "exit": proc.returncode,
    }


def run_batches(batches: list, cwd: str, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) -> dict:
    """Run several command lines one after the other; count their time together."""
    total = {"wall_s": 0.0, "user_s": 0.0, "sys_s": 0.0, "cpu_s": 0.0, "max_rss_kib": 0,
             "max_rss_exact": True, "exits": []}
    for argv in batches:
        m = run_measured(argv, cwd, stdout, stderr)
        for key in ("wall_s", "user_s", "sys_s", "cpu_s"):
            total[key] += m[key]
        total["max_rss_kib"] = max(total["max_rss_kib"], m["max_rss_kib"])
        total["max_rss_exact"] = total["max_rss_exact"] and m["max_rss_exact"]
        total["exits"].append(m["exit"])
    total["processes"] = len(batches)
    return total


def arg_budget() -> int:
    """Bytes of arguments one exec may take: ARG_MAX less the environment and a margin."""
    try:
        arg_max = os.sysconf("SC_ARG_MAX")
    except (ValueError, OSError):
        arg_max = 131072
    env_bytes = sum(len(k) + len(v) + 2 + 8 for k, v in os.environ.items())
    return max(16384, min(arg_max, 2 * 1024 * 1024) - env_bytes - 65536)


def batch_command(prefix: list, items: list, flag: str | None = None) -> list:
    """Split `prefix + items` into command lines that each fit in one exec.

    With `flag`, every item is preceded by it (ajv's repeated `-d FILE`).
    Each argument costs its bytes, a NUL and a pointer.
    """
    budget = arg_budget()
    base = sum(len(a.encode()) + 9 for a in prefix)
    batches, current, size = [], [], base
    for item in items:
        cost = len(item.encode()) + 9 + (len(flag.encode()) + 9 if flag else 0)
        if current and size + cost > budget:
            batches.append(prefix + current)
            current, size = [], base
        current += [flag, item] if flag else [item]
        size += cost
    if current:
        batches.append(prefix + current)
    return batches


def summarize(samples: list, load_before=None) -> dict:
    """Medians (and the spread of wall time) of a list of measurements."""
    walls = [s["wall_s"] for s in samples]
    out = {
        "runs": len(samples),
        # The 1-minute load average before the runs: a hint of how noisy they were.
        "load_before": load_before,
        "wall_s": statistics.median(walls),
        "wall_min_s": min(walls),
        "wall_max_s": max(walls),
        "user_s": statistics.median(s["user_s"] for s in samples),
        "sys_s": statistics.median(s["sys_s"] for s in samples),
        "cpu_s": statistics.median(s["cpu_s"] for s in samples),
        "max_rss_kib": statistics.median(s["max_rss_kib"] for s in samples),
        "max_rss_kib_max": max(s["max_rss_kib"] for s in samples),
        "max_rss_exact": all(s["max_rss_exact"] for s in samples),
        "samples": samples,
    }
    out["cpu_per_wall"] = out["cpu_s"] / out["wall_s"] if out["wall_s"] else None
    return out


# --- the corpus --------------------------------------------------------------------


def sha256_file(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def corpus_dir(files: int, fraction: float, seed: int) -> str:
    # Matches `/bench/corpus*` in .gitignore.
    return os.path.join(BENCH_DIR, "corpus-n%d-f%g-s%d" % (files, fraction, seed))


def load_reusable_manifest(directory: str, files: int, fraction: float, seed: int):
    """The directory's manifest if it was made with these arguments and is whole, else None."""
    try:
        with open(os.path.join(directory, "MANIFEST.json"), encoding="utf-8") as handle:
            manifest = json.load(handle)
        with open(os.path.join(directory, STAMP), encoding="ascii") as handle:
            stamp = handle.read().strip()
    except (OSError, ValueError):
        return None
    same = (
        manifest.get("files") == files
        and manifest.get("seed") == seed
        and manifest.get("invalid_fraction") == fraction
        and manifest.get("mix") == DEFAULT_MIX
        and stamp == sha256_file(GENERATOR)
        and len(manifest.get("documents", ())) == files
    )
    if not same:
        return None
    # The manifest is written last, so a whole manifest means a whole corpus,
    # unless someone deleted files since: a cheap stat of each one settles it.
    for doc in manifest["documents"]:
        try:
            if os.path.getsize(os.path.join(directory, doc["path"])) != doc["bytes"]:
                return None
        except OSError:
            return None
    return manifest


def ensure_corpus(files: int, fraction: float, seed: int) -> tuple:
    directory = corpus_dir(files, fraction, seed)
    manifest = load_reusable_manifest(directory, files, fraction, seed)
    if manifest is not None:
        log("corpus: reusing %s" % os.path.relpath(directory, REPO))
        return directory, manifest
    log("corpus: generating %d files into %s" % (files, os.path.relpath(directory, REPO)))
    # Generate beside the final place and rename, so an interrupted run never
    # leaves a half corpus that looks whole.
    scratch = directory + ".partial"
    for path in (scratch, directory):
        if os.path.exists(path):
            shutil.rmtree(path)
    subprocess.run(
        [sys.executable, GENERATOR, "--out", scratch, "--files", str(files),
         "--invalid-fraction", repr(fraction), "--seed", str(seed)],
        check=True, stdout=sys.stderr,
    )
    with open(os.path.join(scratch, STAMP), "w", encoding="ascii") as handle:
        handle.write(sha256_file(GENERATOR) + "\n")
    os.rename(scratch, directory)
    manifest = load_reusable_manifest(directory, files, fraction, seed)
    if manifest is None:
        sys.exit("bench: the generated corpus in %s does not match its arguments" % directory)
    return directory, manifest


# --- numi --------------------------------------------------------------------------


def build_numi() -> str:
    log("build: cargo build --profile dist")
    subprocess.run(["cargo", "build", "--profile", "dist"], cwd=REPO, check=True, stdout=sys.stderr)
    # Ask cargo where the binary is, so CARGO_TARGET_DIR and config are honoured.
    meta = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=REPO, check=True, capture_output=True, text=True,
    )
    binary = os.path.join(json.loads(meta.stdout)["target_directory"], "dist", "numi")
    if not os.access(binary, os.X_OK):
        sys.exit("bench: no numi binary at %s after the build" % binary)
    return binary


LINE = re.compile(r'^(ok|invalid|error) +(file|repo) "((?:[^"\\]|\\.)*)"(.*)$')

# What the message of each defect should name, from the contract's patterns.
# Checked softly: a miss here is reported as a note, not a conformance failure,
# since these patterns are inferred rather than verified by the spec.
EXPECTED_MESSAGE = {
    "unsorted-cases": lambda d: "EvalSet cases are sorted by name without duplicates",
    "bad-digest": lambda d: "Digest.value fails its check",
    "trust-not-pinned": lambda d: "numinance.kinds.v1.BundleSource.trust fails its check",
    "missing-required-field": lambda d: '\\"%s\\": required' % d["pointer"],
    "extra-property": lambda d: '\\"%s\\": additionalProperties' % d["pointer"],
}


def check_numi_output(stdout: bytes, exit_code: int, manifest: dict) -> dict:
    """Compare one run of `numi validate --files <corpus>` with the manifest."""
    problems = []  # each: a short title and up to five examples
    documents = {d["path"]: d for d in manifest["documents"]}
    expected_invalid = sum(1 for d in manifest["documents"] if not d["valid"])
    expected_exit = 3 if expected_invalid else 0

    def problem(title: str, examples: list) -> None:
        problems.append({"what": title, "count": len(examples), "examples": examples[:5]})

    if exit_code != expected_exit:
        problem("exit code %d, expected %d" % (exit_code, expected_exit), ["exit %d" % exit_code])

    text = stdout.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != 'revision: "files"':
        problem('first line is not revision: "files"', [lines[0] if lines else "(no output)"])
    reported, order, malformed, unknown, repeated = {}, [], [], [], []
    for line in lines[1:]:
        match = LINE.match(line)
        if not match or len(line) < 9 or line[8] != " " or line[:9].rstrip() != match.group(1):
            malformed.append(line)
            continue
        status, _, name, rest = match.groups()
        if name not in documents:
            unknown.append(line)
        elif name in reported:
            repeated.append(line)
        else:
            reported[name] = (status, line, rest)
            order.append(name)
    if malformed:
        problem("lines not in the contract's format", malformed)
    if unknown:
        problem("lines naming a file the manifest does not list", unknown)
    if repeated:
        problem("files reported twice", repeated)

    missing = [p for p in documents if p not in reported]
    if missing:
        problem("files the manifest lists but numi did not report", missing)
    errors = [v[1] for v in reported.values() if v[0] == "error"]
    if errors:
        problem("error lines", errors)
    invalid_lines = sum(1 for v in reported.values() if v[0] == "invalid")
    if invalid_lines != expected_invalid:
        problem("%d invalid lines, the manifest has %d invalid documents" % (invalid_lines, expected_invalid),
                ["invalid lines: %d, expected %d" % (invalid_lines, expected_invalid)])
    missed = [
        "%s (%s at %s: %s) -> %s" % (p, d["defect"], d.get("pointer"), d.get("detail"), reported[p][1])
        for p, d in documents.items() if not d["valid"] and p in reported and reported[p][0] != "invalid"
    ]
    if missed:
        problem("invalid documents not reported invalid", missed)
    false_alarms = [
        "%s -> %s" % (p, reported[p][1])
        for p, d in documents.items() if d["valid"] and p in reported and reported[p][0] != "ok"
    ]
    if false_alarms:
        problem("valid documents not reported ok", false_alarms)
    expected_order = [p for p in sorted(documents, key=lambda p: p.encode()) if p in reported]
    if order != expected_order:
        first = next(i for i, (a, b) in enumerate(zip(order, expected_order)) if a != b)
        problem("lines not in byte order of display name",
                ["line %d is %s, expected %s" % (first + 2, order[first], expected_order[first])])

    # Soft check: does each invalid line name its defect?
    notes = []
    by_defect = {}
    for path, doc in documents.items():
        if doc["valid"] or path not in reported or reported[path][0] != "invalid":
            continue
        expected = EXPECTED_MESSAGE.get(doc["defect"])
        fragment = expected(doc) if expected else None
        if fragment and fragment not in reported[path][2]:
            by_defect.setdefault(doc["defect"], []).append(
                "%s (%s at %s; expected to contain %s) -> %s"
                % (path, doc["defect"], doc.get("pointer"), fragment, reported[path][1]))
    for defect, examples in sorted(by_defect.items()):
        notes.append({"what": "%s: message does not name the defect" % defect,
                      "count": len(examples), "examples": examples[:5]})

    return {
        "ok": not problems,
        "exit": exit_code,
        "expected_exit": expected_exit,
        "lines": len(lines) - 1,
        "invalid_lines": invalid_lines,
        "expected_invalid": expected_invalid,
        "problems": problems,
        "message_notes": notes,
    }


class NumiRunner:
    """Runs `numi validate --files <corpus>` and checks every run's output.

    The first run (the warm-up) is checked in full against the manifest;
    every later run must exit the same way and print the same bytes.
    """

    def __init__(self, numi: str, corpus: str, manifest: dict, label: str):
        self.argv = [numi, "validate", "--files", corpus]
        self.manifest, self.label = manifest, label
        self.samples, self.digests, self.conformance = [], set(), None
        self.load = None

    def run(self) -> dict:
        with tempfile.TemporaryDirectory(prefix="numi-bench-") as tmp:
            out_path, err_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                m = run_measured(self.argv, BENCH_DIR, out, err)
            with open(out_path, "rb") as handle:
                stdout = handle.read()
            with open(err_path, "rb") as handle:
                stderr_head = handle.read(2000).decode("utf-8", "replace")
        self.digests.add(hashlib.sha256(stdout).hexdigest())
        if self.conformance is None:  # the warm-up run
            self.conformance = check_numi_output(stdout, m["exit"], self.manifest)
            self.conformance["stderr_head"] = stderr_head
            self.load = os.getloadavg()[0]
            return m
        self.samples.append(m)
        log("  %s run %d: %.3f s wall, %.3f s CPU, %d MiB"
            % (self.label, len(self.samples), m["wall_s"], m["cpu_s"], m["max_rss_kib"] // 1024))
        if m["exit"] != self.conformance["exit"]:
            self.conformance["problems"].append({"what": "exit code changed between runs", "count": 1,
                                                 "examples": ["run %d: exit %d" % (len(self.samples), m["exit"])]})
        return m

    def result(self) -> dict:
        conformance = self.conformance
        if len(self.digests) > 1:
            conformance["problems"].append({"what": "output differs between runs", "count": len(self.digests),
                                            "examples": sorted(self.digests)})
        conformance["ok"] = not conformance["problems"]
        result = summarize(self.samples, self.load)
        result["command"] = self.argv
        result["conformance"] = conformance
        return result


def bench_numi_and_cat(numi: str, corpus: str, manifest: dict, runs: int) -> tuple:
    """numi over the whole corpus and `cat` of the same files, one run of each in turn.

    As with the scaling pairs, interleaving makes a change of load during
    the runs hit both alike; the ratio is the median of the per-pair ratios.
    """
    runner = NumiRunner(numi, corpus, manifest, "numi")
    paths = [d["path"] for d in manifest["documents"]]
    batches = batch_command(["cat"], paths)
    log("numi and cat in turn: %s; cat of %d files in %d process(es) (1 warm-up + %d runs each)"
        % (" ".join(runner.argv), len(paths), len(batches), runs))
    load = os.getloadavg()[0]
    cat_samples, ratios = [], []
    for i in range(runs + 1):
        numi_run = runner.run()
        cat_run = run_batches(batches, corpus)
        if i:
            cat_samples.append(cat_run)
            ratios.append(numi_run["wall_s"] / cat_run["wall_s"])
    cat = summarize(cat_samples, load)
    cat["processes"] = len(batches)
    return runner.result(), cat, ratios


def bench_scaling(numi: str, small: tuple, big: tuple, runs: int) -> dict:
    """numi on the small and the big corpus, one run of each in turn.

    Interleaving makes a change of load during the runs (others compiling)
    hit both sizes alike; the ratio is the median of the per-pair ratios.
    """
    (small_dir, small_manifest), (big_dir, big_manifest) = small, big
    pair = [NumiRunner(numi, small_dir, small_manifest, "%d files" % small_manifest["files"]),
            NumiRunner(numi, big_dir, big_manifest, "%d files" % big_manifest["files"])]
    log("scaling: %d and %d files in turn (1 warm-up + %d runs each)"
        % (small_manifest["files"], big_manifest["files"], runs))
    walls, cpus = [], []
    for i in range(runs + 1):
        m_small, m_big = pair[0].run(), pair[1].run()
        if i:
            walls.append(m_big["wall_s"] / m_small["wall_s"])
            cpus.append(m_big["cpu_s"] / m_small["cpu_s"])
    return {
        "dir": os.path.relpath(big_dir, REPO),
        "files": big_manifest["files"],
        "bytes": big_manifest["total_bytes"],
        "small_files": small_manifest["files"],
        "small_bytes": small_manifest["total_bytes"],
        "numi": pair[1].result(),
        "numi_small": pair[0].result(),
        "pair_ratios_wall": walls,
        "pair_ratios_cpu": cpus,
        "ratio_wall": statistics.median(walls),
        "ratio_cpu": statistics.median(cpus),
    }


# --- baselines ---------------------------------------------------------------------


def smallest_valid_document(manifest: dict) -> dict:
    return min((d for d in manifest["documents"] if d["valid"]), key=lambda d: (d["bytes"], d["path"]))


# Rounds the one-file timings are taken in, each command in turn.
ONE_FILE_ROUNDS = 10


def bench_one_file(numi: str, path: str, runs: int, peer=None) -> dict:
    """numi on one small valid file against /bin/true: the cost a pre-commit hook pays.

    `peer`, when given, is the argv of jsonschema-cli on the same file with
    the same schema, timed alongside.
    """
    numi_argv = [numi, "validate", "--files", path]
    true_argv = ["/bin/true"]
    timed = [("numi", numi_argv), ("true", true_argv)] + ([("jsonschema-cli", peer)] if peer else [])
    check = subprocess.run(numi_argv, capture_output=True)
    if check.returncode != 0:
        log("LOUD: numi on the small valid file %s exited %d:\n%s"
            % (path, check.returncode, check.stdout.decode(errors="replace")))
    result = {"file": path, "bytes": os.path.getsize(path), "exit": check.returncode,
              "output": check.stdout.decode(errors="replace")}
    load = os.getloadavg()[0]
    hyperfine = shutil.which("hyperfine")
    if hyperfine:
        # In rounds, each command in turn, so that a load that drifts during
        # the runs hits each command alike, as the loop below does.
        rounds = min(ONE_FILE_ROUNDS, runs)
        log("one file: hyperfine, %d runs each, in %d rounds" % (runs, rounds))
        pooled = {key: {"times": [], "user": 0.0, "system": 0.0} for key, _ in timed}
        with tempfile.TemporaryDirectory(prefix="numi-bench-") as tmp:
            for round_index in range(rounds):
                per_round = runs // rounds + (1 if round_index < runs % rounds else 0)
                export = os.path.join(tmp, "hyperfine-%d.json" % round_index)
                # -N: no intermediate shell; -i: a failing numi is reported above, not fatal here.
                subprocess.run(
                    [hyperfine, "-N", "-i", "--style", "none", "--warmup", "20" if round_index == 0 else "5",
                     "--runs", str(per_round), "--export-json", export] + [shlex.join(argv) for _, argv in timed],
                    check=True, stdout=subprocess.DEVNULL, stderr=sys.stderr,
                )
                with open(export, encoding="utf-8") as handle:
                    found = json.load(handle)["results"]
                for (key, _), r in zip(timed, found):
                    pooled[key]["times"].extend(r["times"])
                    pooled[key]["user"] += r["user"] * len(r["times"])
                    pooled[key]["system"] += r["system"] * len(r["times"])
        result["method"] = "hyperfine, %d interleaved rounds" % rounds
        for key, _ in timed:
            times = pooled[key]["times"]
            result[key] = {"wall_s": statistics.median(times), "wall_mean_s": statistics.mean(times),
                           "wall_stddev_s": statistics.pstdev(times), "wall_min_s": min(times),
                           "user_s": pooled[key]["user"] / len(times), "sys_s": pooled[key]["system"] / len(times),
                           "runs": len(times)}
    else:
        log("one file: a loop of %d runs each (install hyperfine for sharper figures: %s)"
            % (runs, INSTALL_HINTS["hyperfine"]))
        for _ in range(20):  # warm-up
            for _, argv in timed:
                run_measured(argv, BENCH_DIR, rss=False)
        samples = {key: [] for key, _ in timed}
        for _ in range(runs):  # interleaved, so drifting load hits each alike
            for key, argv in timed:
                samples[key].append(run_measured(argv, BENCH_DIR, rss=False))
        result["method"] = "python loop (fork+exec from python, included in each)"
        for key, _ in timed:
            s = summarize(samples[key])
            del s["samples"]
            result[key] = s
    for key, _ in timed:
        result[key]["load_before"] = load
    result["numi_minus_true_s"] = result["numi"]["wall_s"] - result["true"]["wall_s"]
    return result


# --- other validators --------------------------------------------------------------


def files_by_kind(manifest: dict) -> dict:
    kinds = {}
    for doc in manifest["documents"]:
        kinds.setdefault(doc["kind"], []).append(doc["path"])
    return kinds


def kind_globs(manifest: dict) -> dict:
    """For each kind, `dir/*.yaml` globs that match exactly its files, or None.

    A glob keeps ajv's command line short; it is used only when every .yaml
    file in the directory is of that kind (and there are no others).
    """
    by_dir = {}
    for doc in manifest["documents"]:
        by_dir.setdefault(os.path.dirname(doc["path"]), set()).add(doc["kind"])
    globs = {}
    for kind, paths in files_by_kind(manifest).items():
        dirs = sorted({os.path.dirname(p) for p in paths})
        clean = all(by_dir[d] == {kind} and all(p.endswith(".yaml") for p in paths) for d in dirs)
        globs[kind] = [d + "/*.yaml" for d in dirs] if clean else None
    return globs


def schema_path(kind: str) -> str:
    return os.path.join(SCHEMA_DIR, kind + ".schema.json")


def schemas_use_format() -> bool:
    for name in os.listdir(SCHEMA_DIR):
        with open(os.path.join(SCHEMA_DIR, name), encoding="utf-8") as handle:
            if '"format"' in handle.read():
                return True
    return False


def package_version(binary: str, package: str):
    """The version of an npm package from its package.json, found above its binary."""
    directory = os.path.dirname(os.path.realpath(binary))
    while directory != os.path.dirname(directory):
        candidate = os.path.join(directory, "package.json")
        if os.path.exists(candidate):
            try:
                with open(candidate, encoding="utf-8") as handle:
                    data = json.load(handle)
                if data.get("name") == package:
                    return data.get("version")
            except (OSError, ValueError):
                pass
        directory = os.path.dirname(directory)
    return None


def ajv_commands(ajv: str, manifest: dict) -> list:
    globs = kind_globs(manifest)
    commands = []
    for kind, paths in sorted(files_by_kind(manifest).items()):
        # Draft 2020-12 needs --spec=draft2020; --all-errors because numi
        # reports every schema violation, not the first one.
        prefix = [ajv, "validate", "--spec=draft2020", "--all-errors", "--errors=line", "-s", schema_path(kind)]
        if schemas_use_format():
            prefix += ["-c", "ajv-formats"]
        if globs[kind]:
            # Quoted glob: ajv expands it itself, so no command-line limit applies.
            commands.append(prefix + [a for g in globs[kind] for a in ("-d", g)])
        else:
            commands += batch_command(prefix, paths, flag="-d")
    return commands


def check_jsonschema_commands(tool: str, manifest: dict) -> list:
    commands = []
    for kind, paths in sorted(files_by_kind(manifest).items()):
        # JSON output only to count the files flagged; the work is the same.
        commands += batch_command([tool, "-o", "json", "--schemafile", schema_path(kind)], paths)
    return commands


def jsonschema_cli_commands(tool: str, manifest: dict) -> list:
    commands = []
    for kind, paths in sorted(files_by_kind(manifest).items()):
        # Formats are annotations, as numi reads them; --errors-only prints a
        # line per invalid file and nothing for a valid one.
        prefix = [tool, "validate", "--no-assert-format", "--errors-only", schema_path(kind), "-i"]
        commands += batch_command(prefix, paths)
    return commands


def jsonschema_cli_one_file(tool: str, path: str, kind: str) -> list:
    return [tool, "validate", "--no-assert-format", "--errors-only", schema_path(kind), "-i", path]


def count_jsonschema_cli_invalid(stdout: str) -> int:
    return sum(1 for line in stdout.splitlines() if line.endswith(" - INVALID. Errors:"))


def find_jsonschema_cli(flag):
    """jsonschema-cli from --jsonschema-cli, else from PATH; None when neither has it."""
    if flag:
        return os.path.abspath(flag) if os.access(flag, os.X_OK) else None
    return shutil.which("jsonschema-cli")


def count_ajv_invalid(stderr: str) -> int:
    return sum(1 for line in stderr.splitlines() if line.endswith(" invalid"))


def count_check_jsonschema_invalid(stdout: str) -> int:
    """check-jsonschema -o json prints one JSON object per invocation."""
    flagged, decoder, at = set(), json.JSONDecoder(), 0
    while at < len(stdout):
        while at < len(stdout) and stdout[at].isspace():
            at += 1
        if at >= len(stdout):
            break
        try:
            obj, at = decoder.raw_decode(stdout, at)
        except ValueError:
            break
        for err in obj.get("errors", []) + obj.get("parse_errors", []):
            name = err.get("filename") or err.get("path")
            if name:
                flagged.add(name)
    return len(flagged)


def bench_tool(name: str, commands: list, corpus: str, runs: int, warmup: bool, counter) -> dict:
    log("%s: %d process(es) per run (%s%d runs)" % (name, len(commands), "1 warm-up + " if warmup else "", runs))
    samples, flagged, exits = [], None, None
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="numi-bench-") as tmp:
        out_path, err_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
        for i in range(runs + (1 if warmup else 0)):
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                m = run_batches(commands, corpus, out, err)
            if flagged is None:
                with open(out_path, encoding="utf-8", errors="replace") as o, \
                        open(err_path, encoding="utf-8", errors="replace") as e:
                    flagged = counter(o.read(), e.read())
                    e.seek(0)
                    stderr_head = e.read(1500)
                exits = m["exits"]
            if warmup and i == 0:
                continue
            samples.append(m)
            log("  run %d: %.2f s wall, %.2f s CPU, %d MiB" % (len(samples), m["wall_s"], m["cpu_s"], m["max_rss_kib"] // 1024))
    result = summarize(samples, load)
    result["processes"] = len(commands)
    result["files_flagged_invalid"] = flagged
    result["exit_codes"] = exits
    # Exit 0 or 1 (invalid files found) is a normal run; anything else means
    # the tool failed, and its time means little.
    result["failed"] = any(code not in (0, 1) for code in exits)
    if result["failed"]:
        log("LOUD: %s exited %s; its figures are suspect. stderr begins:\n%s" % (name, exits, stderr_head))
        result["stderr_head"] = stderr_head
    result["first_command"] = [os.path.relpath(a, REPO) if a.startswith(REPO) else a for a in commands[0][:12]]
    return result


# --- the machine -------------------------------------------------------------------


def machine_info() -> dict:
    info = {"nproc": len(os.sched_getaffinity(0)), "cpu_count": os.cpu_count(),
            "kernel": platform.release(), "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    info["cpu_model"] = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    info["memory_gib"] = round(int(line.split()[1]) / 1024 / 1024, 1)
                    break
    except OSError:
        pass
    return info


def command_output(argv: list, cwd: str = REPO):
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout or done.stderr).strip() or None if done.returncode == 0 else None


# --- report ------------------------------------------------------------------------


def fmt_time(seconds) -> str:
    if seconds is None:
        return "-"
    if seconds < 0.01:
        return "%.2f ms" % (seconds * 1000)
    if seconds < 100:
        return "%.3f s" % seconds
    return "%.0f s" % seconds


def fmt_rss(kib, exact=True) -> str:
    if kib is None:
        return "-"
    return ("" if exact else "<= ") + "%.1f MiB" % (kib / 1024)


def ratio(a, b):
    return a / b if a is not None and b else None


def print_report(results: dict) -> None:
    m, c = results["machine"], results["corpus"]
    print()
    print("numi benchmark, %s" % results["started"])
    print("machine: %d CPUs, %s, %s GiB; load average %s at start, %s at end"
          % (m["nproc"], m.get("cpu_model", "?"), m.get("memory_gib", "?"),
             "/".join("%.1f" % x for x in results["load_start"]),
             "/".join("%.1f" % x for x in results["load_end"])))
    print("%s (commit %s%s); corpus: %d files (%d invalid), %.1f MB, %s"
          % (results["numi_version"] or "?", results["commit"] or "?", " + local changes" if results["dirty"] else "",
             c["files"], c["invalid"], c["bytes"] / 1e6, c["dir"]))
    print()
    rows = [("what", "wall (median)", "min..max", "CPU u+s", "peak RSS", "runs", "load")]

    def row(label, r, runs=None):
        if r is None:
            return
        spread = "%s..%s" % (fmt_time(r["wall_min_s"]), fmt_time(r["wall_max_s"])) if "wall_max_s" in r else ""
        rows.append((label, fmt_time(r["wall_s"]), spread, fmt_time(r.get("cpu_s")),
                     fmt_rss(r.get("max_rss_kib"), r.get("max_rss_exact", True)), str(runs or r.get("runs", "")),
                     "-" if r.get("load_before") is None else "%.1f" % r["load_before"]))

    row("numi validate --files corpus", results["numi"])
    row("cat all files (floor)", results["cat"])
    for name in ("ajv", "jsonschema-cli", "check-jsonschema"):
        t = results["tools"].get(name)
        if t and not t.get("skipped"):
            row("%s, schemas only (%d proc.)" % (name, t["processes"]), t)
    one = results.get("one_file")
    if one:
        for key, label in (("numi", "numi, one small file"), ("true", "/bin/true"),
                           ("jsonschema-cli", "jsonschema-cli, one small file")):
            if key not in one:
                continue
            r = dict(one[key])
            r["cpu_s"] = r.get("cpu_s", (r.get("user_s") or 0) + (r.get("sys_s") or 0))
            r.pop("wall_max_s", None)
            row(label, r)
    if results.get("scaling"):
        s = results["scaling"]
        row("numi, %d files (scaling pairs)" % s["small_files"], s["numi_small"])
        row("numi, %d files (scaling pairs)" % s["files"], s["numi"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, r in enumerate(rows):
        print("  " + "  ".join(cell.ljust(w) if j == 0 else cell.rjust(w) for j, (cell, w) in enumerate(zip(r, widths))))
        if i == 0:
            print("  " + "  ".join("-" * w for w in widths))
    print("  (load: the 1-minute load average before the runs, on %d CPUs; above about %d, others compete)"
          % (m["nproc"], max(1, m["nproc"] - 1)))
    if one:
        print("  (one file: %s, %d bytes, via %s)" % (os.path.relpath(one["file"], REPO), one["bytes"], one["method"]))
    numi = results["numi"]
    print("  numi throughput: %.0f files/s, %.1f MB/s"
          % (c["files"] / numi["wall_s"], c["bytes"] / 1e6 / numi["wall_s"]))

    print()
    print("ratios")
    labels = {
        "ajv_over_numi": "ajv / numi (wall)",
        "check_jsonschema_over_numi": "check-jsonschema / numi (wall)",
        "jsonschema_cli_over_numi": "jsonschema-cli / numi (wall)",
        "ajv_over_numi_cpu": "ajv / numi (CPU)",
        "check_jsonschema_over_numi_cpu": "check-jsonschema / numi (CPU)",
        "jsonschema_cli_over_numi_cpu": "jsonschema-cli / numi (CPU)",
        "numi_over_cat": "numi / cat (wall)",
        "numi_one_file_over_true": "numi one file / true (wall)",
        "jsonschema_cli_one_file_over_numi": "jsonschema-cli / numi, one file",
        "numi_cpu_over_wall": "numi CPU / wall (of %d CPUs)" % m["nproc"],
        "scaling_40k_over_10k": "numi %s / %s files (wall)" % (
            results["scaling"]["files"] if results.get("scaling") else "40000", c["files"]),
        "scaling_40k_over_10k_cpu": "numi %s / %s files (CPU)" % (
            results["scaling"]["files"] if results.get("scaling") else "40000", c["files"]),
    }
    for key, label in labels.items():
        value = results["ratios"].get(key)
        text = "-" if value is None else "%.2f" % value
        if key.startswith("scaling_") and value is not None:
            s = results["scaling"]
            text += "  (median of %d interleaved pairs; files x%.2f, bytes x%.2f)" % (
                len(s["pair_ratios_wall"]), s["files"] / s["small_files"], s["bytes"] / s["small_bytes"])
        if key == "numi_over_cat" and value is not None:
            text += "  (median of %d interleaved pairs)" % len(results["numi_cat_pair_ratios"])
        if key == "numi_one_file_over_true" and one:
            text += "  (numi costs %s more than true)" % fmt_time(one["numi_minus_true_s"])
        print("  %-34s %s" % (label, text))

    for name, t in results["tools"].items():
        if t.get("skipped"):
            print("  %s not installed: %s" % (name, t["install"]))
        elif t.get("files_flagged_invalid") is not None:
            print("  %s flagged %d files invalid (schema checks only; numi also runs the semantic rules)"
                  % (name, t["files_flagged_invalid"]))

    print()
    for label, conf in conformance_sets(results):
        if conf["ok"]:
            print("conformance (%s): OK: exit %d, %d invalid lines = %d invalid in MANIFEST.json, every file's "
                  "status as the manifest says, lines in byte order, same output every run"
                  % (label, conf["exit"], conf["invalid_lines"], conf["expected_invalid"]))
        else:
            print("!" * 78)
            print("CONFORMANCE MISMATCH (%s): numi's output disagrees with MANIFEST.json" % label)
            for p in conf["problems"]:
                print("  - %s (%d)" % (p["what"], p["count"]))
                for example in p["examples"]:
                    print("      %s" % example)
            print("!" * 78)
        for note in conf.get("message_notes", []):
            print("  note (%s): %s (%d), e.g." % (label, note["what"], note["count"]))
            for example in note["examples"][:2]:
                print("      %s" % example)
    if one and one["exit"] != 0:
        print("CONFORMANCE MISMATCH: numi exited %d on the small valid file %s" % (one["exit"], one["file"]))
    print()
    print("figures written to %s" % results["output"])


def conformance_sets(results: dict) -> list:
    sets = [("%d files" % results["corpus"]["files"], results["numi"]["conformance"])]
    if results.get("scaling"):
        sets.append(("%d files" % results["scaling"]["files"], results["scaling"]["numi"]["conformance"]))
        sets.append(("%d files, scaling pairs" % results["scaling"]["small_files"],
                     results["scaling"]["numi_small"]["conformance"]))
    return sets


# --- main --------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark numi validate on the reference corpus (see bench/README.md).")
    parser.add_argument("--files", type=int, help="corpus size (default 10000; 1000 with --quick)")
    parser.add_argument("--invalid-fraction", type=float, default=0.1, help="default 0.1")
    parser.add_argument("--seed", type=int, default=1, help="default 1")
    parser.add_argument("--runs", type=int, help="timed runs of numi, cat and ajv (default 5; 3 with --quick)")
    parser.add_argument("--cj-runs", type=int, default=1,
                        help="timed runs of check-jsonschema, minutes each on 10,000 files (default 1)")
    parser.add_argument("--one-file-runs", type=int, help="runs of numi on one file, and of /bin/true (default 200)")
    parser.add_argument("--quick", action="store_true", help="a smoke test: 1000 files, 3 runs, 50 one-file runs")
    parser.add_argument("--scaling", action="store_true", help="also time numi on a larger corpus (--scaling-files)")
    parser.add_argument("--scaling-files", type=int, default=40000, help="default 40000")
    parser.add_argument("--no-ajv", action="store_true", help="skip ajv-cli")
    parser.add_argument("--no-check-jsonschema", action="store_true", help="skip check-jsonschema (the slow one)")
    parser.add_argument("--jsonschema-cli", metavar="PATH",
                        help="the jsonschema-cli binary (default: jsonschema-cli on PATH)")
    parser.add_argument("--no-jsonschema-cli", action="store_true", help="skip jsonschema-cli")
    parser.add_argument("--numi", help="time this numi binary instead of building one")
    parser.add_argument("--output", default=DEFAULT_OUTPUT, help="JSON results (default bench/last-results.json)")
    args = parser.parse_args(argv)

    files = args.files or (1000 if args.quick else 10000)
    runs = args.runs or (3 if args.quick else 5)
    one_file_runs = args.one_file_runs or (50 if args.quick else 200)
    if files < 1 or runs < 1 or one_file_runs < 1 or args.cj_runs < 1:
        parser.error("--files and the run counts must be at least 1")

    results = {
        "format": 1,
        "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine_info(),
        "load_start": list(os.getloadavg()),
        "output": os.path.abspath(args.output),
        "arguments": {"files": files, "invalid_fraction": args.invalid_fraction, "seed": args.seed,
                      "runs": runs, "cj_runs": args.cj_runs, "one_file_runs": one_file_runs,
                      "scaling": args.scaling, "scaling_files": args.scaling_files},
        "commit": command_output(["git", "rev-parse", "--short", "HEAD"]),
    }
    # Read-only: does the work tree differ from HEAD in what builds numi?
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "src", "Cargo.toml", "Cargo.lock", "schemas"],
                           cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results["dirty"] = dirty.returncode == 1

    corpus, manifest = ensure_corpus(files, args.invalid_fraction, args.seed)
    results["corpus"] = {
        "dir": os.path.relpath(corpus, REPO), "files": manifest["files"], "bytes": manifest["total_bytes"],
        "invalid": sum(k["invalid"] for k in manifest["kinds"].values()), "kinds": manifest["kinds"],
    }
    numi = os.path.abspath(args.numi) if args.numi else build_numi()
    results["numi_binary"] = numi
    # The first line: the long version goes on with the kinds it knows.
    results["numi_version"] = (command_output([numi, "--version"]) or "").split("\n")[0] or None

    results["numi"], results["cat"], results["numi_cat_pair_ratios"] = bench_numi_and_cat(
        numi, corpus, manifest, runs)
    jsonschema_cli = None if args.no_jsonschema_cli else find_jsonschema_cli(args.jsonschema_cli)
    small = smallest_valid_document(manifest)
    small_path = os.path.join(corpus, small["path"])
    results["one_file"] = bench_one_file(
        numi, small_path, one_file_runs,
        jsonschema_cli_one_file(jsonschema_cli, small_path, small["kind"]) if jsonschema_cli else None)

    results["tools"] = {}
    ajv = None if args.no_ajv else shutil.which("ajv")
    if ajv:
        results["tools"]["ajv"] = bench_tool("ajv", ajv_commands(ajv, manifest), corpus, runs, True,
                                             lambda out, err: count_ajv_invalid(err))
        results["tools"]["ajv"]["version"] = "ajv-cli %s" % package_version(ajv, "ajv-cli")
    elif not args.no_ajv:
        log("ajv: not installed, skipped. Install: %s" % INSTALL_HINTS["ajv"])
        results["tools"]["ajv"] = {"skipped": True, "install": INSTALL_HINTS["ajv"]}
    if jsonschema_cli:
        results["tools"]["jsonschema-cli"] = bench_tool(
            "jsonschema-cli", jsonschema_cli_commands(jsonschema_cli, manifest), corpus, runs, True,
            lambda out, err: count_jsonschema_cli_invalid(out))
        results["tools"]["jsonschema-cli"]["version"] = command_output([jsonschema_cli, "--version"])
    elif not args.no_jsonschema_cli:
        where = args.jsonschema_cli or "PATH"
        log("LOUD: jsonschema-cli: not found (looked at %s), skipped. Install: %s"
            % (where, INSTALL_HINTS["jsonschema-cli"]))
        results["tools"]["jsonschema-cli"] = {"skipped": True, "install": INSTALL_HINTS["jsonschema-cli"]}
    cj = None if args.no_check_jsonschema else shutil.which("check-jsonschema")
    if cj:
        # No warm-up: it takes minutes, and numi's runs already warmed the page cache.
        results["tools"]["check-jsonschema"] = bench_tool(
            "check-jsonschema", check_jsonschema_commands(cj, manifest), corpus, args.cj_runs, False,
            lambda out, err: count_check_jsonschema_invalid(out))
        results["tools"]["check-jsonschema"]["version"] = command_output([cj, "--version"])
    elif not args.no_check_jsonschema:
        log("check-jsonschema: not installed, skipped. Install: %s" % INSTALL_HINTS["check-jsonschema"])
        results["tools"]["check-jsonschema"] = {"skipped": True, "install": INSTALL_HINTS["check-jsonschema"]}

    if args.scaling:
        big = ensure_corpus(args.scaling_files, args.invalid_fraction, args.seed)
        results["scaling"] = bench_scaling(numi, (corpus, manifest), big, runs)

    numi_wall = results["numi"]["wall_s"]
    usable = {name: t for name, t in results["tools"].items() if not (t.get("skipped") or t.get("failed"))}
    tool_wall = {name: t["wall_s"] for name, t in usable.items()}
    tool_cpu = {name: t["cpu_s"] for name, t in usable.items()}
    numi_cpu = results["numi"]["cpu_s"]
    one = results["one_file"]
    results["ratios"] = {
        "ajv_over_numi": ratio(tool_wall.get("ajv"), numi_wall),
        "check_jsonschema_over_numi": ratio(tool_wall.get("check-jsonschema"), numi_wall),
        "jsonschema_cli_over_numi": ratio(tool_wall.get("jsonschema-cli"), numi_wall),
        # CPU ratios: steadier than wall time on a loaded machine, and blind to
        # how many cores each tool uses.
        "ajv_over_numi_cpu": ratio(tool_cpu.get("ajv"), numi_cpu),
        "check_jsonschema_over_numi_cpu": ratio(tool_cpu.get("check-jsonschema"), numi_cpu),
        "jsonschema_cli_over_numi_cpu": ratio(tool_cpu.get("jsonschema-cli"), numi_cpu),
        # From the interleaved pairs of runs: the median of the pairs' ratios.
        "numi_over_cat": statistics.median(results["numi_cat_pair_ratios"]),
        "numi_one_file_over_true": ratio(one["numi"]["wall_s"], one["true"]["wall_s"]),
        "jsonschema_cli_one_file_over_numi": ratio(one["jsonschema-cli"]["wall_s"], one["numi"]["wall_s"])
        if "jsonschema-cli" in one else None,
        "numi_cpu_over_wall": results["numi"]["cpu_per_wall"],
        # From the interleaved pairs of runs, not from the runs above.
        "scaling_40k_over_10k": results["scaling"]["ratio_wall"] if args.scaling else None,
        # CPU time is less disturbed by other load on the machine than wall time.
        "scaling_40k_over_10k_cpu": results["scaling"]["ratio_cpu"] if args.scaling else None,
    }
    results["load_end"] = list(os.getloadavg())
    results["finished"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    conformant = all(conf["ok"] for _, conf in conformance_sets(results)) and one["exit"] == 0
    results["conformance_ok"] = conformant

    with open(args.output, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1)
        handle.write("\n")
    print_report(results)
    return 0 if conformant else 1


if __name__ == "__main__":
    sys.exit(main())
