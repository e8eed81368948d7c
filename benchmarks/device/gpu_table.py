#!/usr/bin/env python3
"""gpu_table.py -- the tables of gpu.sh's JSON lines.

    python3 benchmarks/device/gpu_table.py timings.jsonl [ranks.jsonl exchanges.jsonl steps.jsonl ...]

One row per configuration (ranks, shape, kind, precision, the exchanges'
method on several ranks) of distfft-cuda-bench: the median over
rounds of each variant's pair time, and the medians of same-round ratios --
distfft / cuFFT (the 1-rank target: <= 1.05), distfft with its input
destroyed / cuFFT, and the pair in passes over memory: a pair divided by
one device-to-device copy of the rank's block (the `copy` variant times
two copies, one per direction). Then one row per exchange of
distfft-cuda-exchange-bench (ranks, shape, precision): the median time of a
device copy of the rank's share and of each method's exchange, and the
medians of same-round ratios method / copy (the cuda-ipc target: <= 2).
Lines without a variant (versions, the plan) are skipped; a missing file
is skipped.

Then, from distfft-bench's lines (steps.jsonl), each step of each device
plan: its device time per execution (the library's, from CUDA events on
the plan's stream; the slowest rank's) and its share of the direction.
"""
import json
import statistics
import sys
from collections import defaultdict


def records(paths):
    """The JSON objects of the files' lines (a missing file: none; a line
    that is not JSON, one cut short by the deadline say: skipped, and
    named on stderr)."""
    for path in paths:
        try:
            lines = open(path).read().splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, 1):
            if not line.startswith("{"):
                continue
            try:
                yield json.loads(line)
            except ValueError:
                print(f"gpu_table.py: {path}:{number}: not JSON, skipped", file=sys.stderr)


def load(paths, bench="distfft-cuda-bench"):
    rounds = defaultdict(lambda: defaultdict(dict))
    for record in records(paths):
        if "variant" not in record or record.get("bench") != bench:
            continue
        key = (record["ranks"], "x".join(map(str, record["shape"])), record["kind"], record["precision"])
        if bench == "distfft-cuda-bench":
            key += (record.get("method", "staged" if record["ranks"] > 1 else "none"),)
        seconds = record["pair_seconds"] if "pair_seconds" in record else record["seconds"]
        rounds[key][record["round"]][record["variant"]] = seconds
    return rounds


def median_ratio(by_round, top, bottom, scale=1.0):
    ratios = [r[top] / (r[bottom] * scale) for r in by_round.values() if top in r and bottom in r and r[bottom] > 0]
    return f"{statistics.median(ratios):.3f}" if ratios else "-"


def median_ms(by_round, variant):
    values = [r[variant] for r in by_round.values() if variant in r]
    return f"{1e3 * statistics.median(values):.3f}" if values else "-"


def aligned(rows):
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in rows)


def table(rounds):
    rows = [("ranks", "shape", "kind", "prec", "method", "rounds", "distfft ms", "cufft ms", "copy ms",
             "distfft/cufft", "destroy/cufft", "passes/pair")]
    for key in sorted(rounds):
        by_round = rounds[key]
        rows.append(tuple(map(str, key)) + (
            str(len(by_round)), median_ms(by_round, "distfft"), median_ms(by_round, "cufft"),
            median_ms(by_round, "copy"), median_ratio(by_round, "distfft", "cufft"),
            median_ratio(by_round, "distfft-destroy", "cufft"), median_ratio(by_round, "distfft", "copy", 0.5)))
    return aligned(rows)


def exchange_table(rounds):
    methods = sorted({v for by_round in rounds.values() for r in by_round.values() for v in r} - {"copy"})
    rows = [("ranks", "shape", "prec", "rounds", "copy ms") + tuple(f"{m} ms" for m in methods) +
            tuple(f"{m}/copy" for m in methods)]
    for key in sorted(rounds):
        by_round = rounds[key]
        rows.append((str(key[0]), key[1], key[3], str(len(by_round)), median_ms(by_round, "copy")) +
                    tuple(median_ms(by_round, m) for m in methods) +
                    tuple(median_ratio(by_round, m, "copy") for m in methods))
    return aligned(rows)


def step_rows(paths):
    """Each step of each distfft-bench line: configuration (its exchanges'
    method too), direction, step, milliseconds per execution, share of its
    direction."""
    rows = [("ranks", "shape", "kind", "method", "direction", "step", "ms", "share")]
    for record in records(paths):
        if record.get("program") != "distfft-bench":
            continue
        totals = defaultdict(float)
        for step in record.get("steps", []):
            totals[step["direction"]] += step["seconds"] or 0.0
        for step in record.get("steps", []):
            seconds, total = step["seconds"] or 0.0, totals[step["direction"]]
            rows.append((str(record["ranks"]), "x".join(map(str, record["shape"])), str(record["kind"]),
                         str(record.get("method")), step["direction"], step["step"], f"{1e3 * seconds:.3f}",
                         f"{seconds / total:.2f}" if total > 0 else "-"))
    return aligned(rows) if len(rows) > 1 else ""


if __name__ == "__main__":
    print(table(load(sys.argv[1:])))
    exchanges = load(sys.argv[1:], "distfft-cuda-exchange-bench")
    if exchanges:
        print()
        print("exchanges alone, against a device copy of the rank's share:")
        print(exchange_table(exchanges))
    steps = step_rows(sys.argv[1:])
    if steps:
        print()
        print(steps)
