"""bench.ab: benchmarks/ab.py's verdict on made-up runs (nothing is run).

A case passes when its median same-round pair ratio B/A is within 3 % and
no step's B median leaves A's range over rounds; each way of failing is
checked, and the --summarize exit status follows the verdict.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import ab  # noqa: E402


def result(pair, steps, plan=1.0):
    return {"pair_seconds": pair, "plan_seconds": plan,
            "steps": [{"direction": "forward", "step": f"step {s}", "seconds": t} for s, t in enumerate(steps)]}


def runs(case, rounds):
    """rounds: [(A pair, A steps, B pair, B steps)]"""
    out = []
    for index, (a_pair, a_steps, b_pair, b_steps) in enumerate(rounds, 1):
        out.append({"round": index, "case": case, "build": "A", "result": result(a_pair, a_steps)})
        out.append({"round": index, "case": case, "build": "B", "result": result(b_pair, b_steps)})
    return out


def verdict(lines, case):
    row = next(line for line in lines if line.startswith(f"| {case} |"))
    return row.rstrip(" |").rsplit("| ", 1)[1]


same = runs("same", [(1.0, [0.5, 0.5], 1.01, [0.5, 0.51]), (1.1, [0.55, 0.55], 1.1, [0.55, 0.55]),
                     (0.9, [0.45, 0.45], 0.9, [0.45, 0.46])])
slower = runs("slower", [(1.0, [0.5, 0.5], 1.05, [0.5, 0.5]), (1.0, [0.5, 0.5], 1.05, [0.5, 0.5]),
                         (1.0, [0.5, 0.5], 1.04, [0.5, 0.5])])
step = runs("step", [(1.0, [0.5, 0.50], 1.0, [0.5, 0.60]), (1.0, [0.5, 0.52], 1.0, [0.5, 0.60]),
                     (1.0, [0.5, 0.51], 1.0, [0.5, 0.60])])
lines, every = ab.summarize(same + slower + step)
checks = [(verdict(lines, "same"), "ok"), (verdict(lines, "slower"), "CHECK"), (verdict(lines, "step"), "CHECK"),
          (every, False), (ab.summarize(same)[1], True)]
failed = [(got, want) for got, want in checks if got != want]
with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as raw:
    raw.write("".join(json.dumps(run) + "\n" for run in same))
status = subprocess.run([sys.executable, os.path.join(os.path.dirname(HERE), "ab.py"), "--summarize", raw.name],
                        capture_output=True, text=True).returncode
os.unlink(raw.name)
if status != 0:
    failed.append(("--summarize exit", status))
print("\n".join(lines))
if failed:
    print(f"bench.ab FAILED: {failed}")
    sys.exit(1)
print("bench.ab: verdicts as expected")
