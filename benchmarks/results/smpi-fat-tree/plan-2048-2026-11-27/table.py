#!/usr/bin/python3
"""Plans of 2048^3 r2c built on 4,096-16,384 simulated ranks and predicted by
the cost model (--predict-only: no transform executes). From the bench's
JSON (estimate-R.json, measure-R.json) and smpi.py's lines in commands.txt.

    table.py
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def walls():
    """(ranks, rigor) -> 'wall s, peak memory GB' from commands.txt."""
    found = {}
    for line in open(os.path.join(HERE, "commands.txt"), encoding="utf-8"):
        match = re.match(r"\s+(\d+)(, --rigor measure)?:\s+(?:smpi.py: )?wall ([\d.]+) s, peak memory ([\d.]+) GB",
                         line)
        if match:
            rigor = "measure" if match.group(2) else "estimate"
            found[(int(match.group(1)), rigor)] = f"{float(match.group(3)):.0f} s, {match.group(4)} GB"
    return found


def main():
    cost = walls()
    rows = []
    for name in sorted(os.listdir(HERE)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(HERE, name), encoding="utf-8") as stream:
            b = json.load(stream)
        pair = b["predicted_pair_seconds"]
        rows.append((b["ranks"], b["rigor"], "x".join(map(str, b["grid"])), b["method"],
                     f"{1e3 * pair:.1f}", f"{b['plan_seconds']:.3f}", f"{b['plan_seconds'] / (50 * pair):.2f}",
                     cost.get((b["ranks"], b["rigor"]), "–"), b["git_revision"]))
    rows.sort()
    print("| ranks | FFTW rigor | grid | method | predicted pair ms | plan s simulated (no tuning) | "
          "plan / 100 predicted transforms | wall, peak memory | revision |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(f"{row[0]:,}" if i == 0 else str(c) for i, c in enumerate(row)) + " |")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        raise SystemExit("table.py: one table only")
    main()
