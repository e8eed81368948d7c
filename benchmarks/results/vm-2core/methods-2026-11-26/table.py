#!/usr/bin/python3
"""auto against the best fixed method per case, from results.jsonl (benchmarks/node_table.py methods)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", ".."))
import node_table  # noqa: E402  (benchmarks/node_table.py)

if __name__ == "__main__":
    node_table.methods(node_table.load([HERE]))
