"""check_model_check.py -- benchmarks/model_check.py --calibrate-each:
rounds of a calibration then one run of every configuration, each run
predicted by its own round's model; the table carries each
configuration's median ratio over the rounds. And its usage errors.

  python3 check_model_check.py LAUNCHER_WITH_{ranks} DISTFFT_BENCH
(DISTFFT_CALIBRATE_QUICK=1 in the environment keeps it short.)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "model_check.py")
launcher, bench = sys.argv[1], sys.argv[2]
problems = []


def model_check(*arguments):
    return subprocess.run([sys.executable, SCRIPT, "--launcher", launcher, "--bench", bench] + list(arguments),
                          capture_output=True, text=True, timeout=300)


with tempfile.TemporaryDirectory() as directory:
    rounds = os.path.join(directory, "rounds")
    done = model_check("--calibrate-each", "--calibrate-dir", rounds, "--repeats", "2",
                       "--bench-args", "--rigor estimate --inner 1 --outer 1",
                       "1:16x12x10:slab:alltoallw", "2:16x12x10:slab:alltoallw:r2c")
    if done.returncode != 0:
        problems.append(f"--calibrate-each failed ({done.returncode}): {done.stderr[-1500:]}")
    else:
        made = sorted(os.listdir(rounds))
        if made != ["model-round-1.txt", "model-round-2.txt"]:
            problems.append(f"one model per round expected, found {made}")
        rows = [line for line in done.stdout.splitlines() if "16x12x10" in line]
        medians = [line for line in done.stdout.splitlines() if "over 2 rounds" in line]
        if len(rows) != 2 or len(medians) != 2:
            problems.append(f"two configurations and their median ratios expected:\n{done.stdout}")
        for line in medians:
            median = float(line.split("median")[1].split()[0])
            if not median > 0:
                problems.append(f"a ratio that is not positive: {line}")
    usage = [
        ("give --model FILE or --calibrate-each", ["--model", "m.txt", "--calibrate-each", "--calibrate-dir",
                                                    rounds, "1:8x8x8:slab:alltoallw"]),
        ("give --model FILE or --calibrate-each", ["1:8x8x8:slab:alltoallw"]),
        ("needs --calibrate-dir", ["--calibrate-each", "1:8x8x8:slab:alltoallw"]),
        ("is not RANKS:SHAPE:GRID:METHOD[:KIND]", ["--model", "m.txt", "2:8x8x8"]),
        ("--repeats must be 1 or more", ["--model", "m.txt", "--repeats", "0", "1:8x8x8:slab:alltoallw"]),
    ]
    for words, arguments in usage:
        refused = model_check(*arguments)
        if refused.returncode != 2 or words not in refused.stderr:
            problems.append(f"{arguments}: exit {refused.returncode}, expected 2 and '{words}': "
                            f"{refused.stderr[-500:]}")

if problems:
    print("\n".join(problems))
    sys.exit(1)
print("model_check.py --calibrate-each: rounds calibrated and predicted, usage errors refused")
