#!/usr/bin/python3
"""The best distfft layout against the best FFTW option of each round, 256³.

Per kind and round: the fastest distfft P × T and the fastest FFTW option
(FFTW's 16-thread transform or FFTW-MPI transposed at any P × T), each the
run's fastest pair; then the median over rounds [range] of their ratio and
of each time. Rounds where either side lacks a run are left out.
"""
import collections
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))


def spread(values, digits):
    return (f"{statistics.median(values):.{digits}f} "
            f"[{min(values):.{digits}f}–{max(values):.{digits}f}]")


def main():
    with open(os.path.join(HERE, "results.jsonl")) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    rounds = collections.defaultdict(lambda: collections.defaultdict(dict))  # kind: round: {side: ms}
    for row in rows:
        side = "distfft" if row["program"] == "distfft-bench" else "fftw"
        cell = rounds[row["kind"]][row["round"]]
        ms = row["pair_seconds"] * 1e3
        label = f"{row['ranks']} × {row['threads']}"
        if side not in cell or ms < cell[side][0]:
            cell[side] = (ms, label if side == "distfft" else row["system"])
    print("| 256³ | best distfft (ms) | best FFTW option (ms) | best distfft / best FFTW | rounds |")
    print("|---|---|---|---|---|")
    for kind in sorted(rounds):
        complete = [c for c in rounds[kind].values() if "distfft" in c and "fftw" in c]
        ratios = [c["distfft"][0] / c["fftw"][0] for c in complete]
        print(f"| {kind} | {spread([c['distfft'][0] for c in complete], 1)} | "
              f"{spread([c['fftw'][0] for c in complete], 1)} | {spread(ratios, 2)} | {len(complete)} |")


if __name__ == "__main__":
    main()
