#!/usr/bin/python3
"""The methods' simulated ranking before and after MPI's copies are priced.

    python3 table.py            one row per point and method
    python3 table.py rounds     how often each method was its round's fastest

From results.jsonl (run.py). Three builds: "before" (8b74c03: the datatype
methods' copies not charged), "fixed" (987a940: every method's copies
priced, sampled, the sampling's bookkeeping off the clock) and "after"
(3a85557: priced, but the bookkeeping of every sampled copy charged too).
Each run's pair is distfft-bench's fastest of 3 pairs (slowest rank); a
method's figure is the median over the rounds complete for "before" and
"fixed" [fastest-slowest round] (for "after", over those of them it
completed); the rank orders the methods by that median within a build.
The runs of one round share one sample file, so their FFT steps and their
copies are charged the same seconds. Stdlib only.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
POINTS = {"fat-128c-64": "fat tree, 64 ranks, 128³ c2c pencil",
          "fat-64c-256": "fat tree, 256 ranks, 64³ c2c pencil"}
BUILDS = ("before", "fixed")


def load():
    pairs = {}  # (point, build, method) -> {round: ms}
    with open(os.path.join(HERE, "results.jsonl")) as stream:
        for line in stream:
            run = json.loads(line)
            pair = (run.get("bench") or {}).get("pair_seconds")
            if pair is not None:
                pairs.setdefault((run["point"], run["build"], run["method"]), {})[run["round"]] = 1e3 * pair
    return pairs


def complete_rounds(pairs, point, methods):
    keys = [(point, build, method) for build in BUILDS for method in methods]
    return sorted(set.intersection(*(set(pairs.get(k, {})) for k in keys))) if keys else []


def summary(values):
    if not values:
        return "–"
    return f"{statistics.median(values):.3f} [{min(values):.3f}–{max(values):.3f}]"


def main():
    pairs = load()
    mode = sys.argv[1] if len(sys.argv) > 1 else "methods"
    if mode == "rounds":
        print("| point | build | complete rounds | fastest fixed method of each round |")
        print("|---|---|---|---|")
    else:
        print("| point | method | before (8b74c03): pair ms | rank | priced (987a940): pair ms | rank "
              "| priced / before | priced, bookkeeping charged (3a85557): pair ms, rounds |")
        print("|---|---|---|---|---|---|---|---|")
    for point, title in POINTS.items():
        methods = sorted({k[2] for k in pairs if k[0] == point})
        rounds = complete_rounds(pairs, point, methods)
        if not rounds:
            continue
        medians = {(b, m): statistics.median(pairs[(point, b, m)][r] for r in rounds)
                   for b in BUILDS for m in methods}
        rank = {(b, m): 1 + sorted(medians[(b, x)] for x in methods).index(medians[(b, m)])
                for b in BUILDS for m in methods}
        if mode == "rounds":
            for build in BUILDS:
                winners = [min(methods, key=lambda m: pairs[(point, build, m)][r]) for r in rounds]
                counts = ", ".join(f"{m} {winners.count(m)}" for m in sorted(set(winners), key=winners.index))
                name = {"before": "before (8b74c03)", "fixed": "priced (987a940)"}[build]
                print(f"| {title} | {name} | {len(rounds)} | {counts} |")
            continue
        for method in sorted(methods, key=lambda m: medians[("fixed", m)]):
            before = [pairs[(point, "before", method)][r] for r in rounds]
            fixed = [pairs[(point, "fixed", method)][r] for r in rounds]
            after = [pairs[(point, "after", method)][r] for r in rounds if r in pairs.get((point, "after", method), {})]
            ratio = [a / b for a, b in zip(fixed, before)]
            print(f"| {title} | {method} | {summary(before)} | {rank[('before', method)]} | {summary(fixed)} | "
                  f"{rank[('fixed', method)]} | {statistics.median(ratio):.2f} [{min(ratio):.2f}–{max(ratio):.2f}] | "
                  f"{summary(after)}, {len(after)} |")
        print(f"| {title} | (rounds: {', '.join(map(str, rounds))}) | | | | | | |")


if __name__ == "__main__":
    main()
