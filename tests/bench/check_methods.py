"""check_methods.py -- validate distfft-bench --methods all --json --check.

Usage: python3 check_methods.py OUTPUT_FILE

One JSON line per method, every method present once (alltoallw, alltoallv,
the four isend variants, sendrecv, vector, auto; the
bench tests give vector shapes it applies to), every check passed, and the same
round-trip and serial errors for every method (the exchanges are exact, so
the methods differ only in speed). Each line carries the per-step
breakdown, and the measured communication volume equals the theory when
the shape divides evenly among the ranks.
"""
import json
import sys

METHODS = {"alltoallw", "alltoallv", "isend-waitall", "isend-waitsome",
           "isend-waitall-blocked", "isend-waitsome-blocked", "sendrecv", "vector",
           "auto"}


def fail(message):
    print("check_methods.py: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    with open(sys.argv[1], encoding="utf-8") as stream:
        reports = [json.loads(line) for line in stream.read().splitlines() if line.strip()]
    names = [report["method"] for report in reports]
    if sorted(names) != sorted(METHODS):
        fail("methods %s, expected each of %s once" % (names, sorted(METHODS)))
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
