#!/usr/bin/env python3
"""Peak memory of `numi validate` by output format, on many findings.

Generates (once, reused on later runs) a folder of small Playbooks, each
with six findings, and measures the peak RSS of
`numi validate --files DIR --format F` for each format F, its output
written to /dev/null, with GNU time (`/usr/bin/time -f %M`). A format that
streams holds about as much memory as `--format json`; one that builds its
whole output first grows with the number of findings. Exits 1 when a format
peaks above `--max-ratio` times json, or numi reports another number of
findings than the corpus holds.

Usage:
    python3 bench/output_memory.py [--files N] [--formats json,sarif,...]
                                   [--numi PATH] [--max-ratio R]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from bench import build_numi, log  # noqa: E402  (bench.py beside this file)

# A Playbook with six findings, all at the schema stage: five properties the
# kind does not define, and no spec.
DOCUMENT = """\
apiVersion: numinance.dev/v1
kind: Playbook
metadata:
  name: findings-{index}
unknown_a: 1
unknown_b: 2
unknown_c: 3
unknown_d: 4
unknown_e: 5
"""

FINDINGS_PER_FILE = 6


def ensure_corpus(files: int) -> str:
    directory = os.path.join(REPO, "bench", "findings-corpus-n%d" % files)
    marker = os.path.join(directory, "COMPLETE")
    if os.path.exists(marker):
        return directory
    log("corpus: writing %d files to %s" % (files, directory))
    os.makedirs(directory, exist_ok=True)
    for index in range(files):
        path = os.path.join(directory, "doc-%06d.yaml" % index)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(DOCUMENT.format(index=index))
    with open(marker, "w", encoding="utf-8") as handle:
        handle.write("%d\n" % files)
    return directory


def peak_rss_kib(argv: list, output) -> tuple:
    """The command's peak RSS in KiB (GNU time reports the command's own,
    not this Python process's) and its exit code."""
    fd, rss_file = tempfile.mkstemp(prefix="numi-output-memory-")
    os.close(fd)
    try:
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", rss_file, "--"] + argv,
            stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.DEVNULL,
        )
        with open(rss_file, encoding="utf-8") as handle:
            words = handle.read().split()
    finally:
        os.unlink(rss_file)
    if not words or not words[-1].isdigit():
        sys.exit("output_memory: GNU time reported no peak RSS")
    return int(words[-1]), proc.returncode


def count_findings(numi: str, corpus: str) -> int:
    proc = subprocess.run(
        [numi, "validate", "--files", corpus, "--format", "json"],
        stdin=subprocess.DEVNULL, capture_output=True, check=False,
    )
    report = json.loads(proc.stdout)
    return report["summary"]["diagnostics"]["error"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=20000)
    parser.add_argument("--formats", default="json,sarif",
                        help="comma-separated formats to measure; json is always measured")
    parser.add_argument("--numi", help="measure this binary instead of building one")
    parser.add_argument("--max-ratio", type=float, default=3.0,
                        help="the largest peak allowed, in times json's (default 3)")
    args = parser.parse_args()
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit("output_memory: needs GNU time at /usr/bin/time (apt-get install time)")
    numi = args.numi or build_numi()
    corpus = ensure_corpus(args.files)
    expected = args.files * FINDINGS_PER_FILE
    found = count_findings(numi, corpus)
    if found != expected:
        log("LOUD: numi reports %d findings, the corpus holds %d" % (found, expected))
        return 1
    formats = args.formats.split(",")
    if "json" not in formats:
        formats.insert(0, "json")
    peaks = {}
    with open(os.devnull, "wb") as null:
        for format_name in formats:
            argv = [numi, "validate", "--files", corpus, "--format", format_name]
            peaks[format_name], code = peak_rss_kib(argv, null)
            if code != 3:
                log("LOUD: --format %s exited %d, not 3" % (format_name, code))
                return 1
    log("%d files, %d findings; peak RSS, output to /dev/null:" % (args.files, expected))
    failed = False
    for format_name in formats:
        ratio = peaks[format_name] / peaks["json"]
        over = ratio > args.max_ratio
        failed |= over
        log("  %-8s %8.1f MiB  %5.2fx json%s" % (
            format_name, peaks[format_name] / 1024, ratio, "  OVER" if over else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
