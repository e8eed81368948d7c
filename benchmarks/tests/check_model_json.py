"""check_model_json.py -- the cost model's predictions in a distfft-bench
--model --json line: predicted_pair_seconds and every step's
predicted_seconds present, finite and positive, and the pair the sum of
the steps. With a second file (a run of the same plan with --predict-only
first): no pair time was measured in it, and its predictions are the
other run's.

Usage: python3 check_model_json.py OUTPUT_FILE [MEASURED_OUTPUT_FILE]
"""
import json
import math
import sys


def fail(message):
    print("check_model_json.py: " + message, file=sys.stderr)
    sys.exit(1)


def positive(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value) and value > 0


def read(path):
    with open(path, encoding="utf-8") as stream:
        lines = [line for line in stream.read().splitlines() if line.strip()]
    if len(lines) != 1:
        fail("%s: expected one JSON line, got %d" % (path, len(lines)))
    return json.loads(lines[0])


def main():
    if len(sys.argv) not in (2, 3):
        fail("usage: check_model_json.py OUTPUT_FILE [MEASURED_OUTPUT_FILE]")
    report = read(sys.argv[1])
    pair = report.get("predicted_pair_seconds")
    if not positive(pair):
        fail("predicted_pair_seconds is %r, not a positive number" % (pair,))
    steps = report.get("steps") or []
    if not steps:
        fail("no steps")
    for step in steps:
        if not positive(step.get("predicted_seconds")):
            fail("step %r: predicted_seconds is %r" % (step.get("step"), step.get("predicted_seconds")))
    sweep = report.get("predicted_sweep_seconds")
    if not isinstance(sweep, (int, float)) or sweep < 0:
        fail("predicted_sweep_seconds is %r, not a number >= 0" % (sweep,))
    total = sum(step["predicted_seconds"] for step in steps)
    if abs(total + sweep - pair) > 1e-6 * pair:
        fail("predicted_pair_seconds %g is not the steps' %g and the sweeps' %g" % (pair, total, sweep))
    if len(sys.argv) == 3:
        measured = read(sys.argv[2])
        if report.get("pair_seconds") is not None:
            fail("--predict-only measured a pair: %r" % (report.get("pair_seconds"),))
        if measured["plan"] != report["plan"]:
            fail("not the same plan: %r and %r" % (report["plan"], measured["plan"]))
        if abs(measured["predicted_pair_seconds"] - pair) > 1e-9 * pair:
            fail("--predict-only predicted %g, the timed run %g" % (pair, measured["predicted_pair_seconds"]))
        print("check_model_json.py: --predict-only: %d steps, pair %.3g s predicted, as the timed run"
              % (len(steps), pair))
        return
    print("check_model_json.py: %d steps predicted, pair %.3g s predicted, %.3g s measured"
          % (len(steps), pair, report["pair_seconds"]))


if __name__ == "__main__":
    main()
