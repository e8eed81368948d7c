#!/usr/bin/env python3
"""shenfun's Navier-Stokes step on distfft and on mpi4py-fft: per size, the
median [range] over rounds of each library's time per step and of the
same-round ratio distfft / mpi4py-fft, from raw.jsonl
(benchmarks/shenfun_steps.py --raw)."""
import json
import os
import statistics
import sys

# Another folder of the same experiment as the argument: its table.
here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
runs = [json.loads(line) for line in open(os.path.join(here, "raw.jsonl")) if line.strip()]


def spread(values, digits):
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


print("| n³, ranks | rounds | mpi4py-fft ms/step | distfft ms/step | distfft / mpi4py-fft | rounds ≤ 1.05 |")
print("|---|---|---|---|---|---|")
for n in sorted({r["n"] for r in runs}):
    by_round = {}
    for r in runs:
        if r["n"] == n:
            by_round.setdefault(r["round"], {})[r["library"]] = r["step_seconds"]
    pairs = [(v["mpi4py-fft"], v["distfft"]) for v in by_round.values() if len(v) == 2]
    ratios = [d / m for m, d in pairs]
    ranks = next(r["ranks"] for r in runs if r["n"] == n)
    print(f"| {n}³, {ranks} | {len(pairs)} | {spread([m * 1e3 for m, _ in pairs], 1)} "
          f"| {spread([d * 1e3 for _, d in pairs], 1)} | {spread(ratios, 3)} "
          f"| {sum(x <= 1.05 for x in ratios)} of {len(ratios)} |")
