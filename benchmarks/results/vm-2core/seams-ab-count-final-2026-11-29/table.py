#!/usr/bin/env python3
"""The instruction-count A/B's table from counts.jsonl (benchmarks/ab_count.py --summarize)."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "..", "..", "ab_count.py")
sys.exit(subprocess.run([sys.executable, script, "--base", "-", "--new", "-", "--summarize",
                         os.path.join(here, "counts.jsonl")]).returncode)
