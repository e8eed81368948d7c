#!/usr/bin/python3
"""The speed guard of the seams refactoring: benchmarks/ab.py's table of
ab.jsonl (A: the library before, B: after; same-round ratios B/A)."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", ".."))
import ab  # noqa: E402  (benchmarks/ab.py)

if __name__ == "__main__":
    with open(os.path.join(HERE, "ab.jsonl")) as raw:
        lines, _ = ab.summarize([json.loads(line) for line in raw if line.strip()])
    print("\n".join(lines))
