#!/usr/bin/env python3
"""Benchmark `numi lsp`: time from a one-character didChange to the
publishDiagnostics of that version, on a 256-case EvalSet.

    python3 bench/lsp.py                      # builds nothing: times target/dist/numi
    python3 bench/lsp.py --numi PATH --changes 200

Standard library only. Prints the median, the 90th percentile and the
extremes in milliseconds. Each change flips one digit of the spec's version
(`1.0.0` <-> `1.0.1`), so every check runs the whole pipeline on all cases
and publishes the same findings.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def evalset(cases: int, version: str) -> str:
    lines = [
        "apiVersion: numinance.dev/v1alpha1",
        "kind: EvalSet",
        "metadata: {name: bench-replay}",
        "spec:",
        f"  version: {version}",
        "  cases:",
    ]
    for i in range(cases):
        digest = f"{i:064x}"
        lines += [
            f"    - name: case-{i:04d}",
            f'      outcome: {{value: "sha256:{digest}"}}',
            "      expect:",
            "        acceptance: EVAL_ACCEPTANCE_ACCEPTED",
            "        merged: true",
            "        severe: false",
            "        verification_failures:",
            "          - {layer: lint, count: 1}",
        ]
    return "\n".join(lines) + "\n"


class Server:
    def __init__(self, numi: Path):
        self.process = subprocess.Popen(
            [str(numi), "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict:
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def published(self, version: int) -> dict:
        while True:
            message = self.receive()
            if (
                message.get("method") == "textDocument/publishDiagnostics"
                and message["params"].get("version") == version
            ):
                return message


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numi", type=Path, default=ROOT / "target/dist/numi")
    parser.add_argument("--cases", type=int, default=256)
    parser.add_argument("--changes", type=int, default=100)
    args = parser.parse_args()
    if not args.numi.is_file():
        print(f"{args.numi} not found: run `cargo build --profile dist` first", file=sys.stderr)
        return 1

    uri = "file:///numi-bench/evals/replay.yaml"
    server = Server(args.numi)
    server.send({"id": 1, "method": "initialize", "params": {"capabilities": {}}})
    server.receive()
    server.send({"method": "initialized", "params": {}})
    text = evalset(args.cases, "1.0.0")
    server.send({
        "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
    })
    server.published(1)

    timings = []
    for version in range(2, args.changes + 2):
        changed = evalset(args.cases, "1.0.1" if version % 2 else "1.0.0")
        started = time.perf_counter()
        server.send({
            "method": "textDocument/didChange",
            "params": {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": changed}],
            },
        })
        server.published(version)
        timings.append((time.perf_counter() - started) * 1000)

    server.send({"id": 2, "method": "shutdown"})
    server.receive()
    server.send({"method": "exit"})
    server.process.wait(timeout=10)

    timings.sort()
    p90 = timings[min(len(timings) - 1, int(len(timings) * 0.9))]
    print(f"{args.cases} cases ({len(text)} bytes), {len(timings)} one-character changes")
    print(
        f"didChange -> publishDiagnostics: median {statistics.median(timings):.2f} ms, "
        f"p90 {p90:.2f} ms, min {timings[0]:.2f} ms, max {timings[-1]:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
