"""check_peer_json.py FILE -- the JSON line of a peer benchmark driver
(fftw-mpi-bench, mpi4py_fft_bench.py) is well formed: one object with the
timing fields distfft-bench --json uses, positive times, median >= fastest,
and a round-trip error within tolerance. A line of mpi4py_fft_bench.py
--with-distfft (it has seconds_per_pair) must instead time every contender
and show distfft and mpi4py-fft computing the same spectrum."""
import json
import math
import sys

SIDE_BY_SIDE = ["shape", "kind", "precision", "ranks", "method", "inner", "outer",
                "seconds_per_pair", "python_work_seconds_per_pair",
                "python_over_c_median_paired", "relative_difference_vs_mpi4py_fft",
                "plan"]
CONTENDERS = {"distfft C", "distfft Python", "mpi4py-fft"}


def check_side_by_side(record):
    missing = [key for key in SIDE_BY_SIDE if key not in record]
    if missing:
        sys.exit(f"missing fields: {missing}")
    times = record["seconds_per_pair"]
    if set(times) != CONTENDERS or not all(t > 0 for t in times.values()):
        sys.exit(f"expected a positive time for each of {sorted(CONTENDERS)}: {times}")
    if not record["python_work_seconds_per_pair"] > 0:
        sys.exit("no time for the Python work")
    elements = math.prod(int(n) for n in record["shape"].split("x"))
    epsilon = 2.0 ** -23 if record["precision"] == "float" else 2.0 ** -52
    tolerance = 8 * epsilon * math.log2(max(elements, 2))
    difference = record["relative_difference_vs_mpi4py_fft"]
    if not (difference is not None and difference <= tolerance):
        sys.exit(f"distfft and mpi4py-fft differ by {difference} (tolerance {tolerance:.2e})")
    print(f"ok: side by side {record['kind']} {record['precision']}: "
          + ", ".join(f"{name} {t:.3e} s" for name, t in times.items())
          + f"; spectra differ by {difference:.1e}")

REQUIRED = ["program", "shape", "ranks", "precision", "kind", "rigor",
            "inner", "outer", "pair_seconds", "pair_seconds_median",
            "fft_seconds", "redistribute_seconds", "roundtrip_error",
            "tolerance", "check_passed"]


def main(path):
    lines = [line for line in open(path) if line.strip()]
    if len(lines) != 1:
        sys.exit(f"expected one JSON line, got {len(lines)}")
    record = json.loads(lines[0])
    if "seconds_per_pair" in record:
        return check_side_by_side(record)
    missing = [key for key in REQUIRED if key not in record]
    if missing:
        sys.exit(f"missing fields: {missing}")
    fastest, median = record["pair_seconds"], record["pair_seconds_median"]
    if not (fastest > 0 and median >= fastest):
        sys.exit(f"bad times: fastest {fastest}, median {median}")
    each = record.get("pair_seconds_each", [fastest] * record["outer"])  # mpi4py_fft_bench.py has none
    if len(each) != min(record["outer"], 64) or min(each) != fastest:
        sys.exit(f"pair_seconds_each {each}: not every repetition with the fastest {fastest}")
    error = record["roundtrip_error"]
    if not (math.isfinite(error) and error <= record["tolerance"]):
        sys.exit(f"round-trip error {error} above {record['tolerance']}")
    if record["check_passed"] is not True:
        sys.exit("check_passed is not true")
    print(f"ok: {record['program']} {record['kind']} {record['precision']} "
          f"error {error:.2e}, {fastest:.3e} s per pair")


if __name__ == "__main__":
    main(sys.argv[1])
