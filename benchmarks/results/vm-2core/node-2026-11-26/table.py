#!/usr/bin/python3
"""This experiment's tables from its raw data (benchmarks/node_table.py's layout).

    table.py [node]      two cores every way, double: s64-128/ and s256/
    table.py comparison  against the peers at 64³ and 128³: cmp/
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", ".."))
import node_table  # noqa: E402  (benchmarks/node_table.py)

MODES = {"node": (node_table.node, ["s64-128", "s256"]),
         "comparison": (node_table.comparison, ["cmp"])}

if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "node"
    if mode not in MODES:
        sys.exit(__doc__)
    make, folders = MODES[mode]
    make(node_table.load([os.path.join(HERE, f) for f in folders]))
