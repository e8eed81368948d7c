#!/usr/bin/python3
"""A tuned plan (auto, tune_budget 3) of 512^3 r2c on 1,024 simulated ranks:
the model's ranking and what the tuning timer measured, from run.log.

    table.py
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    lines = open(os.path.join(HERE, "run.log"), encoding="utf-8").read().splitlines()
    ranked, measured = [], {}
    for line in lines:
        rank = re.match(r"distfft: tuning: ranked (\d+): grid (\S+) (\S+), predicted ([\d.]+) ms", line)
        if rank:
            ranked.append((int(rank.group(1)), rank.group(2), rank.group(3), rank.group(4)))
        timed = re.match(r"distfft: tuning: grid \S+ (\S+): (?:predicted [\d.]+ ms, measured ([\d.]+) ms "
                         r"\((\d+) runs\)|(not applicable))", line)
        if timed:
            measured[timed.group(1)] = (f"{timed.group(2)} ({timed.group(3)} runs)" if timed.group(2)
                                        else "not applicable")
    bench = json.loads(next(line for line in lines if line.startswith("{")))
    pair = bench["predicted_pair_seconds"]
    print("| model's rank | grid | method | predicted pair ms | measured by the tuning timer, ms |")
    print("|---|---|---|---|---|")
    for number, grid, method, predicted in sorted(set(ranked)):
        print(f"| {number} | {grid} | {method} | {predicted} | {measured.get(method, 'not timed')} |")
    print(f"| plan, tuning included | {'x'.join(map(str, bench['grid']))} | "
          f"{bench['plan'].split('(redist ')[1].split(' ')[0]} | {1e3 * pair:.2f} | "
          f"{bench['plan_seconds']:.3f} s simulated, {bench['plan_seconds'] / (50 * pair):.2f} x 100 "
          f"predicted transforms ({bench['git_revision']}) |")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        raise SystemExit("table.py: one table only")
    main()
