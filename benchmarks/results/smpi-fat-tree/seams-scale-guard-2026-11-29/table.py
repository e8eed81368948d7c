#!/usr/bin/env python3
"""The scale guard's table from raw.jsonl: per build, the median and range
of the simulated plan time and of the peak memory over the rounds, and the
after/before ratios of the same round (medians with range)."""
import json
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))
rows = [json.loads(line) for line in open(os.path.join(here, "raw.jsonl")) if line.strip()]
by = {}
for row in rows:
    by.setdefault(row["round"], {})[row["build"]] = row


def cell(values, digits=3):
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


print("| quantity | before | after | after/before, same round |")
print("|---|---|---|---|")
for key, name in (("plan_seconds", "plan time, simulated s"), ("peak_gb", "peak memory, GB"),
                  ("wall_seconds", "wall time, s")):
    pairs = [(r["before"][key], r["after"][key]) for r in by.values() if "before" in r and "after" in r]
    before = [b for b, _ in pairs]
    after = [a for _, a in pairs]
    print(f"| {name} | {cell(before)} | {cell(after)} | {cell([a / b for b, a in pairs])} |")
print(f"\n{len(by)} rounds; revisions: " +
      ", ".join(sorted({f'{r["build"]} {r["git_revision"]}' for r in rows})))
