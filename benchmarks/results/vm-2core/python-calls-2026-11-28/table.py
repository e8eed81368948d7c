#!/usr/bin/python3
"""Per-call cost of the Python layer, distfft against mpi4py-fft
(benchmarks/python_calls.py's JSON lines in results.jsonl): per call and
rank count, each library's median over rounds [range] in microseconds and
the median of the same-round ratio distfft / mpi4py-fft [range]."""
import collections
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CALLS = ("serial_execute", "transfer", "plan_forward")


def spread(values, digits):
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def main(folder=HERE):
    runs = collections.defaultdict(dict)  # (call, ranks, round) -> {library: us}
    with open(os.path.join(folder, "results.jsonl")) as raw:
        for line in raw:
            if line.strip():
                record = json.loads(line)
                runs[(record["call"], record["ranks"], record["round"])][record["library"]] = record["us_per_call"]
    print("| call | ranks | distfft (µs) | mpi4py-fft (µs) | distfft / mpi4py-fft | rounds |")
    print("|---|---|---|---|---|---|")
    for call in CALLS:
        for ranks in sorted({key[1] for key in runs}):
            pairs = [r for key, r in sorted(runs.items()) if key[:2] == (call, ranks) and len(r) == 2]
            if not pairs:
                continue
            ours = [r["distfft"] for r in pairs]
            theirs = [r["mpi4py-fft"] for r in pairs]
            ratios = [r["distfft"] / r["mpi4py-fft"] for r in pairs]
            print(f"| {call} | {ranks} | {spread(ours, 1)} | {spread(theirs, 1)} | {spread(ratios, 2)} | "
                  f"{len(pairs)} |")


if __name__ == "__main__":
    main(*sys.argv[1:])   # another folder's results.jsonl: its table
