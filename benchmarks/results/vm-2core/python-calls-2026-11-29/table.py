#!/usr/bin/env python3
"""This folder's table from its results.jsonl, by the script of ../python-calls-2026-11-28/ (the same experiment)."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "python-calls-2026-11-28", "table.py")
sys.exit(subprocess.run([sys.executable, script, here]).returncode)
