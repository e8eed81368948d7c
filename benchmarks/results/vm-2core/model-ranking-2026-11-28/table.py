#!/usr/bin/python3
"""The model's ranking of each decision's candidates against the runs
(benchmarks/model_ranking.py report, from predictions.jsonl and runs.jsonl)."""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", ".."))
import model_ranking  # noqa: E402  (benchmarks/model_ranking.py)

if __name__ == "__main__":
    model_ranking.report(argparse.Namespace(out=HERE))
