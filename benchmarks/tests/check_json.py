"""check_json.py -- validate the --json line of one distfft-bench run.

Usage: python3 check_json.py OUTPUT_FILE

OUTPUT_FILE is the stdout of a successful run with --json: it must hold
exactly one line, one JSON object with every documented key, consistent
values (grid product == ranks, non-negative times, one known kind per axis,
element types that follow from the kinds, the check passed if one ran).
Exit status 0 if so, 1 with a message otherwise.
"""
import json
import math
import sys


def fail(message):
    print("check_json.py: " + message, file=sys.stderr)
    sys.exit(1)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def main():
    if len(sys.argv) != 2:
        fail("usage: check_json.py OUTPUT_FILE")
    with open(sys.argv[1], encoding="utf-8") as stream:
        lines = [line for line in stream.read().splitlines() if line.strip()]
    if len(lines) != 1:
        fail("expected exactly one line of output, got %d" % len(lines))
    try:
        report = json.loads(lines[0])
    except ValueError as error:
        fail("not JSON: %s" % error)
    if not isinstance(report, dict):
        fail("not a JSON object")

    expected_types = {
        "shape": list, "ranks": int, "grid": list, "precision": str,
        "kind": str, "kinds": list, "batch": int, "input_type": str,
        "output_type": str, "method": str, "rigor": str, "norm": str, "inner": int,
        "outer": int, "pair_seconds": "number",
        "pair_seconds_median": "number", "fft_seconds": "number",
        "redistribute_seconds": "number", "work_bytes": int,
        "roundtrip_error": "number or null", "serial_error": "number or null",
        "mpi_library": str, "plan": str,
    }
    for key, expected in expected_types.items():
        if key not in report:
            fail("missing key %r" % key)
        value = report[key]
        if expected == "number":
            ok = is_number(value)
        elif expected == "number or null":
            ok = value is None or is_number(value)
        else:
            ok = isinstance(value, expected) and not isinstance(value, bool)
        if not ok:
            fail("key %r has %r, expected %s" % (key, value, expected))

    shape, grid = report["shape"], report["grid"]
    if not 2 <= len(shape) <= 16 or not all(
            isinstance(n, int) and n > 0 for n in shape):
        fail("bad shape %r" % shape)
    if not 1 <= len(grid) < len(shape) or not all(
            isinstance(n, int) and n > 0 for n in grid):
        fail("bad grid %r for shape %r" % (grid, shape))
    if math.prod(grid) != report["ranks"]:
        fail("grid %r does not multiply to ranks %d" % (grid, report["ranks"]))
    if report["precision"] not in ("double", "float"):
        fail("bad precision %r" % report["precision"])
    kinds = report["kinds"]
    known = {"c2c", "r2c", "dct1", "dct2", "dct3", "dct4", "dst1", "dst2",
             "dst3", "dst4", "cheb", "none"}
    if len(kinds) != len(shape) or not set(kinds) <= known:
        fail("bad kinds %r for shape %r" % (kinds, shape))
    if report["batch"] < 1:
        fail("bad batch %r" % report["batch"])
    size = report["precision"]
    real_input = "r2c" in kinds or "c2c" not in kinds
    complex_output = "r2c" in kinds or "c2c" in kinds
    types = (("real-" if real_input else "complex-") + size,
             ("complex-" if complex_output else "real-") + size)
    if (report["input_type"], report["output_type"]) != types:
        fail("types %s -> %s, expected %s -> %s for kinds %r"
             % (report["input_type"], report["output_type"], types[0],
                types[1], kinds))
    if report["rigor"] not in ("estimate", "measure", "patient", "exhaustive"):
        fail("bad rigor %r" % report["rigor"])
    if report["norm"] not in ("backward", "ortho", "forward"):
        fail("bad norm %r" % report["norm"])
    if report["inner"] < 1 or report["outer"] < 1:
        fail("bad inner/outer")

    fastest, median = report["pair_seconds"], report["pair_seconds_median"]
    if not 0 < fastest <= median:
        fail("need 0 < pair_seconds (%g) <= pair_seconds_median (%g)"
             % (fastest, median))
    each = report.get("pair_seconds_each")
    if each is None or len(each) != min(report["outer"], 64) or min(each) != fastest:
        fail("pair_seconds_each %r: not every repetition in order with the fastest %g" % (each, fastest))
    # Each part is max over ranks of one rank's share of the fastest
    # repetition, so neither exceeds that repetition's (max) time.
    slack = 1e-6
    for key in ("fft_seconds", "redistribute_seconds"):
        if not 0 <= report[key] <= fastest * 1.01 + slack:
            fail("%s = %g outside [0, pair_seconds = %g]"
                 % (key, report[key], fastest))

    if not report["mpi_library"] or "\n" in report["mpi_library"]:
        fail("mpi_library should be one non-empty line")
    if not report["plan"].startswith("("):
        fail("plan description %r does not look like a tree" % report["plan"])

    # Every exchange step carries its copy floor (one memcpy of a rank's
    # share): positive where the step moves bytes, 0 for transforms.
    for step in report.get("steps", []):
        copy = step.get("copy_seconds")
        if not is_number(copy) or copy < 0:
            fail("step %r has copy_seconds %r" % (step.get("step"), copy))
        if step["step"].startswith("redist") and step["bytes_theory"] > 0 and copy <= 0:
            fail("exchange step %r has no copy floor" % step["step"])
    if report.get("check_passed") is False:
        fail("check_passed is false but the run exited 0")
    if report.get("check_passed") is True and report["roundtrip_error"] is None:
        fail("check ran but roundtrip_error is null")
    print("check_json.py: ok (%s on %d ranks, grid %s, pair %.3g s)"
          % ("x".join(map(str, shape)), report["ranks"],
             "x".join(map(str, grid)), fastest))


if __name__ == "__main__":
    main()
