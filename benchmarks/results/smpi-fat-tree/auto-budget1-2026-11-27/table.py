#!/usr/bin/python3
"""auto with tune_budget 1 (the cost model's choice, untimed) against fixed methods, fat tree, 2026-11-27.

One row per point (a subfolder, or this folder): each method's median
simulated pair over the rounds, auto / the best fixed method of each round,
auto's chosen exchange methods and its plan time, tuning included.

    table.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scale"))
import report  # noqa: E402

POINTS = [
    ("fat tree, pencil, 512³", "64"),
    ("fat tree, pencil, 512³", "128"),
    ("fat tree, pencil, 512³", "256"),
    ("fat tree, slab, 512³", "slab-64"),
]

if __name__ == "__main__":
    report.main(sys.argv, {"rounds": lambda: report.rounds_table(HERE, POINTS)}, "rounds")
