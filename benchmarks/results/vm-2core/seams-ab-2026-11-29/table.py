#!/usr/bin/env python3
"""The wall-clock A/B's table from ab.jsonl (benchmarks/ab.py --summarize)."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
finished = subprocess.run([sys.executable, os.path.join(here, "..", "..", "..", "ab.py"), "--summarize",
                           os.path.join(here, "ab.jsonl")], capture_output=True, text=True)
print(finished.stdout, end="")
