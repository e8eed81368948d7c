#!/usr/bin/env python3
"""gpu_table.py -- the table of distfft-cuda-bench's JSON lines (gpu.sh).

    python3 benchmarks/device/gpu_table.py timings.jsonl [ranks.jsonl ...]

One row per configuration (ranks and, on several, the exchanges' method;
shape, kind, precision): the median over
rounds of each variant's pair time, and the medians of same-round ratios --
distfft / cuFFT (the 1-rank target: <= 1.05), distfft with its input
destroyed / cuFFT, and the pair in passes over memory: a pair divided by
one device-to-device copy of the rank's block (the `copy` variant times
two copies, one per direction). Lines without a variant (versions, the
plan) are skipped; a missing file is skipped.
"""
import json
import statistics
import sys
from collections import defaultdict


def load(paths):
    rounds = defaultdict(lambda: defaultdict(dict))
    for path in paths:
        try:
            lines = open(path).read().splitlines()
        except OSError:
            continue
        for line in lines:
            if not line.startswith("{"):
                continue
            record = json.loads(line)
            if "variant" not in record:
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


if __name__ == "__main__":
    print(table(load(sys.argv[1:])))
