"""check_methods.py -- validate distfft-bench --methods all --json --check.

Usage: DISTFFT_BENCH_METHODS=LIST_FILE python3 check_methods.py OUTPUT_FILE

One JSON line per method, every method present once (each one the library
lists -- LIST_FILE holds distfft-bench --list-methods, the CTest fixture
bench.list_methods -- and auto, but those that move device memory only,
which the bench reports not applicable to these host-memory runs), every
check passed, and the same
round-trip and serial errors for every method (the exchanges are exact, so
the methods differ only in speed). Each line carries the per-step
breakdown, and the measured communication volume equals the theory when
the shape divides evenly among the ranks.
"""
import json
import os
import sys


def fail(message):
    print("check_methods.py: " + message, file=sys.stderr)
    sys.exit(1)


DEVICE_ONLY = {"staged", "nccl", "cuda-ipc"}  # device memory only


def library_methods():
    """The library's concrete methods for host memory (distfft-bench
    --list-methods), and auto."""
    path = os.environ.get("DISTFFT_BENCH_METHODS")
    if not path or not os.path.exists(path):
        fail("DISTFFT_BENCH_METHODS must name the output of distfft-bench "
             "--list-methods (got %r)" % path)
    with open(path, encoding="utf-8") as stream:
        names = [line for line in stream.read().splitlines() if line]
    if not names:
        fail("%s lists no methods" % path)
    return (set(names) - DEVICE_ONLY) | {"auto"}


def main():
    methods = library_methods()
    with open(sys.argv[1], encoding="utf-8") as stream:
        reports = [json.loads(line) for line in stream.read().splitlines() if line.strip()]
    names = [report["method"] for report in reports]
    if sorted(names) != sorted(methods):
        fail("methods %s, expected each of %s once" % (names, sorted(methods)))
    errors = {(report["roundtrip_error"], report["serial_error"]) for report in reports}
    if any(report["check_passed"] is not True for report in reports):
        fail("a check failed: %s" % [(r["method"], r["check_passed"]) for r in reports])
    if len(errors) != 1:
        fail("the methods' errors differ: %s" % errors)
    for report in reports:
        steps = report.get("steps")
        if not steps or "volume_bytes" not in report:
            fail("%s: no per-step breakdown" % report["method"])
        exchanges = [step for step in steps if step["step"].startswith("redist ")]
        if report["method"] != "auto" and any(report["method"] not in step["step"] for step in exchanges):
            fail("%s: exchanges %s use another method" % (report["method"], exchanges))
        divisible = all(n % report["ranks"] == 0 for n in report["shape"])
        if divisible and report["volume_bytes"] != report["volume_theory_bytes"]:
            fail("%s: volume %d bytes, theory %d" % (report["method"], report["volume_bytes"],
                                                     report["volume_theory_bytes"]))
    print("check_methods.py: %d methods, identical errors %s" % (len(reports), errors.pop()))


if __name__ == "__main__":
    main()
