#!/usr/bin/env python3
"""The whole step's table (benchmarks/taylor_green_steps.py --summarize)
of raw.jsonl (15 rounds), or of raw-7.jsonl (`table.py 7`: the 7-round
run made just before it)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
raw = "raw-7.jsonl" if sys.argv[1:] == ["7"] else "raw.jsonl"
script = os.path.join(HERE, "..", "..", "..", "taylor_green_steps.py")
finished = subprocess.run([sys.executable, script, "--summarize", os.path.join(HERE, raw)],
                          capture_output=True, text=True, check=True)
print("\n".join(line for line in finished.stdout.splitlines() if line.startswith("|")))
