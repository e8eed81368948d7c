#!/usr/bin/python3
"""The methods' simulated ranking before and after MPI's copies are priced.

    python3 table.py            one row per point and method
    python3 table.py rounds     how often each method was its round's fastest
    python3 table.py fixed      the bookkeeping fix (987a940) against 3a85557, same samples

From results.jsonl (run.py): each run's pair is distfft-bench's fastest of
3 pairs (slowest rank); a method's figure is the median over the complete
rounds [fastest-slowest round]; the rank orders the methods by that median
within one build and point. Stdlib only.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
POINTS = {"fat-128c-64": "fat tree, 64 ranks, 128³ c2c pencil",
          "fat-64c-256": "fat tree, 256 ranks, 64³ c2c pencil"}


def load():
    pairs = {}  # (point, build, method) -> {round: ms}
    with open(os.path.join(HERE, "results.jsonl")) as stream:
        for line in stream:
            run = json.loads(line)
            pair = (run.get("bench") or {}).get("pair_seconds")
            if pair is not None and (run["build"] != "fixed" or len(sys.argv) > 1 and sys.argv[1] == "fixed"):
                pairs.setdefault((run["point"], run["build"], run["method"]), {})[run["round"]] = 1e3 * pair
    return pairs


def complete_rounds(pairs, point):
    methods = {k[2] for k in pairs if k[0] == point}
    keys = [(point, build, method) for build in ("before", "after") for method in methods]
    rounds = set.intersection(*(set(pairs.get(k, {})) for k in keys)) if keys else set()
    return sorted(rounds)


def summary(values):
    return f"{statistics.median(values):.3f} [{min(values):.3f}–{max(values):.3f}]"


def main():
    pairs = load()
    mode = sys.argv[1] if len(sys.argv) > 1 else "methods"
    if mode == "fixed":
        print("| point | round | method | 3a85557: pair ms | 987a940: pair ms | 987a940 / 3a85557 |")
        print("|---|---|---|---|---|---|")
        for (point, build, method), runs in sorted(pairs.items()):
            for round_, fixed in sorted(runs.items()) if build == "fixed" else ():
                after = pairs.get((point, "after", method), {}).get(round_)
                if after:
                    print(f"| {POINTS[point]} | {round_} | {method} | {after:.3f} | {fixed:.3f} | {fixed / after:.2f} |")
        return
    if mode == "rounds":
        print("| point | build | complete rounds | fastest fixed method of each round |")
        print("|---|---|---|---|")
    else:
        print("| point | method | before: pair ms | rank | after: pair ms | rank | after / before (rounds) |")
        print("|---|---|---|---|---|---|---|")
    for point, title in POINTS.items():
        rounds = complete_rounds(pairs, point)
        if not rounds:
            continue
        methods = sorted({k[2] for k in pairs if k[0] == point})
        medians = {(b, m): statistics.median(pairs[(point, b, m)][r] for r in rounds)
                   for b in ("before", "after") for m in methods}
        rank = {(b, m): 1 + sorted(medians[(b, x)] for x in methods).index(medians[(b, m)])
                for b in ("before", "after") for m in methods}
        if mode == "rounds":
            for build in ("before", "after"):
                winners = [min(methods, key=lambda m: pairs[(point, build, m)][r]) for r in rounds]
                counts = ", ".join(f"{m} {winners.count(m)}" for m in sorted(set(winners), key=winners.index))
                print(f"| {title} | {build} | {len(rounds)} | {counts} |")
            continue
        for method in sorted(methods, key=lambda m: medians[("after", m)]):
            before = [pairs[(point, "before", method)][r] for r in rounds]
            after = [pairs[(point, "after", method)][r] for r in rounds]
            ratio = [a / b for a, b in zip(after, before)]
            print(f"| {title} | {method} | {summary(before)} | {rank[('before', method)]} | {summary(after)} | "
                  f"{rank[('after', method)]} | {statistics.median(ratio):.2f} [{min(ratio):.2f}–{max(ratio):.2f}] "
                  f"({len(rounds)}) |")


if __name__ == "__main__":
    main()
