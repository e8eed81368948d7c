#!/usr/bin/python3
"""Plans of 2048^3 r2c with tune_budget 1 (the cost model's choice, kept
untimed) on 4,096-16,384 simulated ranks, --predict-only: the plan time is
simulated, the pair is the model's prediction (nothing executes).

    table.py [runs|before]   (default: runs)
runs: the runs of this folder (0db1fed) and repeats/ (a65139f), median
[range]; before: at-57aa229/, before the model's topology was computed
group by group.
"""
import json
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def runs(folder):
    """ranks -> list of (bench JSON, wall s, peak GB, the model's choice)."""
    found = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as stream:
            b = json.load(stream)
        err = open(os.path.join(folder, name[:-5] + ".err"), encoding="utf-8").read()
        wall = re.search(r"wall ([\d.]+) s, peak memory ([\d.]+) GB", err)
        choice = re.search(r"tuning: grid (\S+) (\S+): predicted [\d.]+ ms, kept untimed", err)
        found.setdefault(b["ranks"], []).append(
            (b, float(wall.group(1)), float(wall.group(2)), f"{choice.group(1)} {choice.group(2)}"))
    return found


def spread(values, digits):
    values = sorted(values)
    if len(values) == 1:
        return f"{values[0]:.{digits}f}"
    return f"{statistics.median(values):.{digits}f} [{values[0]:.{digits}f}–{values[-1]:.{digits}f}]"


def table(found):
    print("| ranks | the model's choice | predicted pair ms | runs | plan s simulated, tuning included | "
          "plan / 100 predicted transforms | wall s | peak memory GB | revisions |")
    print("|---|---|---|---|---|---|---|---|---|")
    for ranks in sorted(found):
        items = found[ranks]
        pairs = {round(b["predicted_pair_seconds"], 6) for b, *_ in items}
        choices = sorted({c for *_, c in items})
        pair = items[0][0]["predicted_pair_seconds"]
        plans = [b["plan_seconds"] for b, *_ in items]
        walls = sorted(w for _, w, _, _ in items)
        print(f"| {ranks:,} | {', '.join(choices)} | {1e3 * pair:.1f}{'' if len(pairs) == 1 else ' (varies)'} | "
              f"{len(items)} | {spread(plans, 2)} | {spread([p / (50 * pair) for p in plans], 2)} | "
              f"{walls[0]:.0f}–{walls[-1]:.0f} | {max(m for _, _, m, _ in items):.2f} | "
              f"{', '.join(sorted({b['git_revision'] for b, *_ in items}))} |")


def main(argv):
    name = argv[1] if len(argv) > 1 else "runs"
    if name == "runs":
        found = runs(HERE)
        for ranks, items in runs(os.path.join(HERE, "repeats")).items():
            found.setdefault(ranks, []).extend(items)
        table(found)
    elif name == "before":
        table(runs(os.path.join(HERE, "at-57aa229")))
    else:
        raise SystemExit(f"table.py: no table {name!r} (known: before, runs)")


if __name__ == "__main__":
    main(sys.argv)
