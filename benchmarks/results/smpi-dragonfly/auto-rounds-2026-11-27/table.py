#!/usr/bin/python3
"""auto against fixed methods in rounds sharing their sampled FFTs, Dragonfly, 2026-11-27.

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
    ("Dragonfly, row, 512³", "row-64"),
    ("Dragonfly, node, 512³", "node-64"),
    ("Dragonfly, Morton, 512³", "morton-64"),
    ("Dragonfly, row, 512³", "row-256"),
    ("Dragonfly, node, 512³", "node-256"),
    ("Dragonfly, Morton, 512³", "morton-256"),
]

if __name__ == "__main__":
    report.main(sys.argv, {"rounds": lambda: report.rounds_table(HERE, POINTS)}, "rounds")
