"""check_scale_refusals.py -- benchmarks/scale/smpi.py refuses, before
anything runs, a run that reads the transforms' results (distfft-bench
--check or --save) with memory folding or sampled computation switched on
(--fold, --sample, DISTFFT_SMPI_FOLD, DISTFFT_SMPI_SAMPLE): their results
are garbage (a folded 256-rank --check reported a serial error of 1.0).
smpirun is replaced by a stand-in on PATH that leaves a mark when called:
nothing is simulated, and a refusal must leave no mark."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SMPI = os.path.join(HERE, "..", "scale", "smpi.py")

# (smpi.py options, environment, distfft-bench options, refused, words of the message)
CASES = [
    (["--fold"], {}, ["--check"], True, ["--check", "--fold", "garbage", "without folding"]),
    ([], {"DISTFFT_SMPI_FOLD": "1"}, ["--shape", "96x80x72", "--check"], True, ["DISTFFT_SMPI_FOLD=1"]),
    (["--sample", "3"], {}, ["--check"], True, ["--sample 3", "without sampling"]),
    ([], {"DISTFFT_SMPI_SAMPLE": "2"}, ["--save=out"], True, ["--save", "DISTFFT_SMPI_SAMPLE=2"]),
    (["--fold"], {}, ["--save", "out"], True, ["--save", "--fold"]),
    # folding and sampling without reading results, or switched off: run
    (["--fold", "--sample", "3"], {}, ["--shape", "64x64x64"], False, []),
    ([], {"DISTFFT_SMPI_FOLD": "0", "DISTFFT_SMPI_SAMPLE": "no"}, ["--check"], False, []),
    ([], {}, ["--check"], False, []),
]


def main():
    failures = 0
    with tempfile.TemporaryDirectory(prefix="distfft-refusals-") as directory:
        mark = os.path.join(directory, "smpirun-called")
        stand_in = os.path.join(directory, "smpirun")
        with open(stand_in, "w") as stream:
            stream.write(f"#!/bin/sh\necho called >> {mark}\nexit 0\n")
        os.chmod(stand_in, 0o755)
        for options, variables, bench, refused, words in CASES:
            if os.path.exists(mark):
                os.remove(mark)
            environment = {key: value for key, value in os.environ.items()
                           if key not in ("DISTFFT_SMPI_FOLD", "DISTFFT_SMPI_SAMPLE")}
            environment.update(variables, PATH=directory + os.pathsep + environment.get("PATH", ""))
            command = [sys.executable, SMPI, "run", "nodes", "--ranks", "4", "--cores-per-node", "4"] + options \
                + ["--", "distfft-bench"] + bench
            done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=60)
            called = os.path.exists(mark)
            output = done.stdout + done.stderr
            if refused:
                ok = done.returncode != 0 and not called and all(word in output for word in words)
            else:
                ok = done.returncode == 0 and called
            name = f"{' '.join(options)} {variables} -- {' '.join(bench)}"
            print(f"{'ok  ' if ok else 'FAIL'} {'refused' if refused else 'runs'}: {name}")
            if not ok:
                failures += 1
                print(f"    exit {done.returncode}, smpirun {'called' if called else 'not called'}: "
                      f"{output.strip()[-600:]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
