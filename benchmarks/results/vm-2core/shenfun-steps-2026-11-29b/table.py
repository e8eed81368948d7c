#!/usr/bin/env python3
"""This folder's table from its raw.jsonl, by the script of ../shenfun-steps-2026-11-29/ (the same experiment)."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "shenfun-steps-2026-11-29", "table.py")
sys.exit(subprocess.run([sys.executable, script, here]).returncode)
