"""check_peer_json.py FILE -- the JSON line of a peer benchmark driver
(fftw-mpi-bench, mpi4py_fft_bench.py) is well formed: one object with the
timing fields distfft-bench --json uses, positive times, median >= fastest,
and a round-trip error within tolerance."""
import json
import math
import sys

REQUIRED = ["program", "shape", "ranks", "precision", "kind", "rigor",
            "inner", "outer", "pair_seconds", "pair_seconds_median",
            "fft_seconds", "redistribute_seconds", "roundtrip_error",
            "tolerance", "check_passed"]


def main(path):
    lines = [line for line in open(path) if line.strip()]
    if len(lines) != 1:
        sys.exit(f"expected one JSON line, got {len(lines)}")
    record = json.loads(lines[0])
    missing = [key for key in REQUIRED if key not in record]
    if missing:
        sys.exit(f"missing fields: {missing}")
    fastest, median = record["pair_seconds"], record["pair_seconds_median"]
    if not (fastest > 0 and median >= fastest):
        sys.exit(f"bad times: fastest {fastest}, median {median}")
    error = record["roundtrip_error"]
    if not (math.isfinite(error) and error <= record["tolerance"]):
        sys.exit(f"round-trip error {error} above {record['tolerance']}")
    if record["check_passed"] is not True:
        sys.exit("check_passed is not true")
    print(f"ok: {record['program']} {record['kind']} {record['precision']} "
          f"error {error:.2e}, {fastest:.3e} s per pair")


if __name__ == "__main__":
    main(sys.argv[1])
