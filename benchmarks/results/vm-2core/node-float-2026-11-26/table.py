#!/usr/bin/python3
"""This experiment's tables from its raw data (benchmarks/node_table.py's layout).

    table.py [node]      two cores every way, double and float: s64-128/ and s256/
    table.py comparison  against the peers: ../node-2026-11-26/cmp/ (64³-128³) and cmp256/
    table.py headline    the README's short node rows: 128³ and 256³, double
"""
import contextlib
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", ".."))
import node_table  # noqa: E402  (benchmarks/node_table.py)


def headline():
    """The node table's double rows at 128³ and 256³, the two ratio columns only."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        node_table.node(node_table.load([os.path.join(HERE, "s64-128"), os.path.join(HERE, "s256")]))
    lines = out.getvalue().splitlines()
    print("| 2-core VM, 5 rounds | best distfft layout / FFTW 2 threads | distfft 2 ranks / FFTW-MPI 2 ranks |")
    print("|---|---|---|")
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[1] == "double" and not cells[0].startswith("64"):
            print(f"| {cells[0]} double | {cells[6]} | {cells[7]} |")


def main(mode):
    if mode == "node":
        node_table.node(node_table.load([os.path.join(HERE, "s64-128"), os.path.join(HERE, "s256")]))
    elif mode == "comparison":
        node_table.comparison(node_table.load([os.path.join(HERE, "..", "node-2026-11-26", "cmp"),
                                               os.path.join(HERE, "cmp256")]))
    elif mode == "headline":
        headline()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "node")
