"""check_model_median.py -- benchmarks/model_median.py: the median of
several calibrations, number by number and point by point, in a file the
library reads (distfft-bench --model, when its path is given); files of
another machine kind, with other table points or other keys refused with a
message, nothing written.

  python3 check_model_median.py [LAUNCHER... DISTFFT_BENCH]
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import model_median  # noqa: E402


def model(multi, rate, library="Test MPI 1.0", points=(4096, 262144)):
    return ("distfft-model 1\n# a comment\n"
            f"machine = test; nodes of 2 ranks; host test\nmpi_library = {library}\nnode_size = 2\n"
            "latency_intra = 1e-6\nbandwidth_intra = 5e9\nlatency_inter = 2e-6\nbandwidth_inter = 1e9\n"
            "injection_bandwidth = 0\nbisection_bandwidth = 0\nmemcpy_bandwidth = 4e9\n"
            f"datatype_bandwidth = 0\nfft_multi_axis_factor = {multi}\n"
            f"fft_c2c_double = {points[0]}:{rate} {points[1]}:{2 * rate}\n")


problems = []
with tempfile.TemporaryDirectory() as directory:
    def write(name, text):
        path = os.path.join(directory, name)
        with open(path, "w") as stream:
            stream.write(text)
        return path

    files = [write("a.txt", model(0.6, 1e-9)), write("b.txt", model(0.9, 3e-9)), write("c.txt", model(0.7, 2e-9))]
    out = os.path.join(directory, "median.txt")
    if model_median.main([out] + files) != 0:
        problems.append("three calibrations not merged")
    merged = dict(model_median.read(out))
    if float(merged["fft_multi_axis_factor"]) != 0.7:
        problems.append(f"scalar median {merged['fft_multi_axis_factor']}, expected 0.7")
    if merged["fft_c2c_double"] != "4096:2e-09 262144:4e-09":
        problems.append(f"table median '{merged['fft_c2c_double']}', expected '4096:2e-09 262144:4e-09'")
    if merged["mpi_library"] != "Test MPI 1.0" or merged["node_size"] != "2":
        problems.append("the machine kind lines not kept")
    if len(sys.argv) > 1:  # the library reads it
        done = subprocess.run(sys.argv[1:] + ["--model", out, "--model-force", "--predict-only", "--shape",
                                              "16x16x16", "--rigor", "estimate"],
                              capture_output=True, text=True, timeout=100)
        if done.returncode != 0 or "predicted_pair_seconds" not in done.stdout:
            problems.append(f"distfft-bench does not read the median model: {done.stderr[-500:]}")
    refusals = [
        ("another machine kind", [files[0], write("d.txt", model(0.7, 2e-9, library="Other MPI 2.0"))]),
        ("other points", [files[0], write("e.txt", model(0.7, 2e-9, points=(4096, 32768)))]),
        ("keys differ", [files[0], write("f.txt", model(0.7, 2e-9).replace("datatype_bandwidth = 0\n", ""))]),
        ("not a distfft model", [files[0], write("g.txt", "hello\n")]),
    ]
    for words, inputs in refusals:
        refused = os.path.join(directory, "refused.txt")
        try:
            model_median.main([refused] + inputs)
            problems.append(f"{words}: accepted")
        except SystemExit as stop:
            if words not in str(stop) or os.path.exists(refused):
                problems.append(f"{words}: refused with '{stop}', file written: {os.path.exists(refused)}")
if problems:
    sys.exit("check_model_median: " + "; ".join(problems))
print("check_model_median: scalars and table points merged by their medians, read by the library; "
      "other machine kinds, points and keys refused, nothing written")
