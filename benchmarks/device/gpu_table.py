#!/usr/bin/env python3
"""gpu_table.py -- the tables of gpu.sh's JSON lines.

    python3 benchmarks/device/gpu_table.py timings.jsonl [ranks.jsonl steps.jsonl ...]

One row per configuration (ranks and, on several, the exchanges' method;
shape, kind, precision): the median over
rounds of each variant's pair time, and the medians of same-round ratios --
distfft / cuFFT (the 1-rank target: <= 1.05), distfft with its input
destroyed / cuFFT, and the pair in passes over memory: a pair divided by
one device-to-device copy of the rank's block (the `copy` variant times
two copies, one per direction). Lines without a variant (versions, the
plan) are skipped; a missing file is skipped.

Then, from distfft-bench's lines (steps.jsonl), each step of each device
plan: its device time per execution (the library's, from CUDA events on
the plan's stream; the slowest rank's) and its share of the direction.
"""
import json
import statistics
import sys
from collections import defaultdict


def records(paths):
    """The JSON objects of the files' lines (a missing file: none)."""
    for path in paths:
        try:
            lines = open(path).read().splitlines()
        except OSError:
            continue
        for line in lines:
            if line.startswith("{"):
                yield json.loads(line)


def load(paths):
    rounds = defaultdict(lambda: defaultdict(dict))
    for record in records(paths):
        if "variant" not in record or record.get("program") == "distfft-bench":
            continue
        ranks = str(record["ranks"])
        if record["ranks"] > 1:
            ranks += " " + record.get("method", "staged")
        key = (ranks, "x".join(map(str, record["shape"])), record["kind"], record["precision"])
        rounds[key][record["round"]][record["variant"]] = record["pair_seconds"]
    return rounds


def median_ratio(by_round, top, bottom, scale=1.0):
    ratios = [r[top] / (r[bottom] * scale) for r in by_round.values() if top in r and bottom in r and r[bottom] > 0]
    return f"{statistics.median(ratios):.3f}" if ratios else "-"


def table(rounds):
    header = ("ranks", "shape", "kind", "prec", "rounds", "distfft ms", "cufft ms", "copy ms",
              "distfft/cufft", "destroy/cufft", "passes/pair")
    rows = [header]
    for key in sorted(rounds):
        by_round = rounds[key]

        def median_ms(variant):
            values = [r[variant] for r in by_round.values() if variant in r]
            return f"{1e3 * statistics.median(values):.3f}" if values else "-"

        rows.append(tuple(map(str, key)) + (
            str(len(by_round)), median_ms("distfft"), median_ms("cufft"), median_ms("copy"),
            median_ratio(by_round, "distfft", "cufft"), median_ratio(by_round, "distfft-destroy", "cufft"),
            median_ratio(by_round, "distfft", "copy", 0.5)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    return "\n".join("  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in rows)


def step_rows(paths):
    """Each step of each distfft-bench line: configuration, direction,
    step, milliseconds per execution, share of its direction."""
    rows = [("ranks", "shape", "kind", "direction", "step", "ms", "share")]
    for record in records(paths):
        if record.get("program") != "distfft-bench":
            continue
        totals = defaultdict(float)
        for step in record.get("steps", []):
            totals[step["direction"]] += step["seconds"] or 0.0
        for step in record.get("steps", []):
            seconds, total = step["seconds"] or 0.0, totals[step["direction"]]
            rows.append((str(record["ranks"]), "x".join(map(str, record["shape"])), str(record["kind"]),
                         step["direction"], step["step"], f"{1e3 * seconds:.3f}",
                         f"{seconds / total:.2f}" if total > 0 else "-"))
    if len(rows) == 1:
        return ""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) for row in rows)


if __name__ == "__main__":
    print(table(load(sys.argv[1:])))
    steps = step_rows(sys.argv[1:])
    if steps:
        print()
        print(steps)
