#!/usr/bin/env python3
"""The tables of this experiment: with no argument, the whole step's
(benchmarks/taylor_green_steps.py --summarize raw.jsonl); with
`arithmetic`, the work outside the transforms alone (arithmetic.jsonl:
CPU ms of the fastest of 15 steps, per package, median [range] over the
interleaved pairs of runs)."""
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def spread(values, digits):
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}-{max(values):.{digits}f}]"


def arithmetic():
    with open(os.path.join(HERE, "arithmetic.jsonl")) as f:
        records = [json.loads(line) for line in f if line.strip()]
    print("| package | batched, plain arrays (CPU ms) | distarray (CPU ms) | distarray / batched | pairs |")
    print("|---|---|---|---|---|")
    for package in ("before", "after"):
        runs = {v: [r for r in records if r["package"] == package and r["variant"] == v]
                for v in ("batched", "distarray")}
        print(f"| {package} | {spread([r['cpu_ms_min'] for r in runs['batched']], 1)} | "
              f"{spread([r['cpu_ms_min'] for r in runs['distarray']], 1)} | "
              f"{spread([r['ratio_to_first'] for r in runs['distarray']], 3)} | "
              f"{len(runs['batched'])} |")


def step():
    script = os.path.join(HERE, "..", "..", "..", "taylor_green_steps.py")
    finished = subprocess.run([sys.executable, script, "--summarize", os.path.join(HERE, "raw.jsonl")],
                              capture_output=True, text=True, check=True)
    print("\n".join(line for line in finished.stdout.splitlines() if line.startswith("|")))


if __name__ == "__main__":
    arithmetic() if sys.argv[1:] == ["arithmetic"] else step()
