"""check_scale_repredict.py -- `scripts/benchmark scale --repredict DIR`
(benchmarks/scale/campaign.py: repredict) predicts a finished campaign's
points again: every distfft point that is not `auto` gets this checkout's
prediction and keeps its earlier one as predicted_pair_seconds_before;
the simulated figures, auto and the peer's rows stay as they were.
smpirun is replaced by a stand-in: nothing is simulated."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scale"))

import campaign  # noqa: E402

calls = []


def fake_git(command, **_):
    return subprocess.CompletedProcess(command, 0, "abc1234\n" if command[0] == "git" else "", "")


def fake_run(command, timeout, **_):
    calls.append(command)
    report = {"pair_seconds": None, "plan_seconds": 0.1, "predicted_pair_seconds": 0.002,
              "steps": [{"step": "fft", "seconds": 0, "predicted_seconds": 0.001},
                        {"step": "redist", "seconds": 0, "predicted_seconds": 0.001}]}
    return subprocess.CompletedProcess(command, 0, json.dumps(report) + "\n", "")


def row(series, method, pair, predicted):
    point = campaign.Point(series, (64, 64, 64), 32, method=method)
    return {"label": point.label(), "point": {**campaign.dataclasses.asdict(point), "shape": [64, 64, 64]},
            "header": "Preset `test`.", "timed_out": False, "wall_seconds": 1.0,
            "bench": {"pair_seconds": pair}, "predicted_pair_seconds": predicted}


campaign.subprocess.run = fake_git
campaign.run_group = fake_run
with tempfile.TemporaryDirectory() as directory:
    before = os.path.join(directory, "before")
    os.makedirs(os.path.join(directory, "build-smpi", "bin"))
    open(os.path.join(directory, "build-smpi", "bin", "distfft-bench"), "w").close()
    model = os.path.join(directory, "m.model")
    open(model, "w").close()
    os.makedirs(before)
    rows = [row("strong", "alltoallw", 0.003, 0.004), row("auto", "auto", 0.0031, None),
            row("heffte", "alltoallv", 0.009, None)]
    with open(os.path.join(before, "results.jsonl"), "w") as stream:
        stream.writelines(json.dumps(r) + "\n" for r in rows)
    status = campaign.main(["--repredict", before, "--model", model,
                            "--build-smpi", os.path.join(directory, "build-smpi")])
    with open(os.path.join(before + "-repredicted", "results.jsonl")) as stream:
        again = [json.loads(line) for line in stream]
    summary_written = os.path.exists(os.path.join(before + "-repredicted", "summary.md"))
problems = []
if status != 0 or len(again) != 3 or not summary_written:
    problems.append(f"status {status}, {len(again)} rows, summary {summary_written}")
else:
    strong, auto, peer = again
    if strong["predicted_pair_seconds"] != 0.002 or strong.get("predicted_pair_seconds_before") != 0.004:
        problems.append(f"the strong point: {strong.get('predicted_pair_seconds')} "
                        f"(before {strong.get('predicted_pair_seconds_before')})")
    if strong["bench"]["pair_seconds"] != 0.003:
        problems.append("the simulated pair changed")
    if "predicted_pair_seconds_before" in auto or "predicted_pair_seconds_before" in peer:
        problems.append("auto or the peer was predicted")
    if len(calls) != 1 or not any("--predict-only" in part for part in calls[0]):
        problems.append(f"{len(calls)} runs, expected one --predict-only run: {calls}")
    if "Predicted again by revision abc1234" not in strong["header"]:
        problems.append(f"header: {strong['header']}")
if problems:
    sys.exit("check_scale_repredict: " + "; ".join(problems))
print("check_scale_repredict: the campaign's points predicted again, earlier predictions and simulated "
      "figures kept, auto and the peer untouched")
