"""bench.ab_count: benchmarks/ab_count.py on one build against itself, a
16^3 c2c on one rank and on two: FFTW's instructions per pair and in setup
are the same in both (ratio exactly 1.0000: the counts are deterministic
and the callgrind parser finds the objects), and distfft's own library
executes instructions in each pair.

    python3 check_ab_count.py BUILD_DIR
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
build = sys.argv[1]
finished = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "ab_count.py"), "--base", build,
                           "--new", build, "--cases", "16:c2c:1,16:c2c:2", "--pairs", "1"],
                          capture_output=True, text=True)
print(finished.stdout, finished.stderr)
rows = [line for line in finished.stdout.splitlines() if re.match(r"\| 16\^3", line)]
ok = finished.returncode == 0 and len(rows) == 2
for row in rows:
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    distfft_pair, fftw_pair, fftw_setup, counts = cells[1], cells[2], cells[4], cells[5]
    ok = ok and fftw_pair == "1.0000" and fftw_setup == "1.0000" and distfft_pair == "1.0000"
    ok = ok and float(counts.split(",")[0]) > 0
print("bench.ab_count:", "ok" if ok else "FAILED")
sys.exit(0 if ok else 1)
