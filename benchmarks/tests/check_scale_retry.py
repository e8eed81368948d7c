"""check_scale_retry.py -- the scale lab retries a simulation that SimGrid's
max-min solver stopped (benchmarks/scale/campaign.py: solver_failed,
simulate) once with a coarser precision, and records it; other failures
and successes run once. smpirun is replaced by a stand-in: nothing is
simulated."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scale"))

import campaign  # noqa: E402

calls = []


def fake_run(behaviour):
    def run(command, timeout, **_):
        calls.append(command)
        coarse = any(campaign.COARSE_MAXMIN in part for part in command)
        if behaviour == "crash" and not coarse:
            return subprocess.CompletedProcess(command, 1, "", "Segmentation fault.\n"
                                               "Execution failed with code 139.\n")
        if behaviour == "abort" and not coarse:
            return subprocess.CompletedProcess(command, 1, "", "[0.15] ./src/kernel/lmm/maxmin.cpp:217: "
                                               "[root/CRITICAL] Cannot saturate more a constraint that has "
                                               "no active element!\n")
        if behaviour == "bad input":
            return subprocess.CompletedProcess(command, 1, "", "distfft-bench: unknown method\n")
        return subprocess.CompletedProcess(command, 0, '{"pair_seconds": 1.0}\n', "")
    return run


def check(behaviour, runs, precision):
    calls.clear()
    campaign.run_group = fake_run(behaviour)
    wall, done, _ = campaign.simulate("fat-tree", 4, 2, ["distfft-bench"], 60)
    got = getattr(done, "maxmin_precision", None)
    if len(calls) != runs or got != precision:
        sys.exit(f"check_scale_retry: {behaviour}: {len(calls)} runs, precision {got}; "
                 f"expected {runs} and {precision}")
    if precision and not any(campaign.COARSE_MAXMIN in part for part in calls[-1]):
        sys.exit(f"check_scale_retry: {behaviour}: the retry lacks {campaign.COARSE_MAXMIN}")
    point = campaign.Point("strong", (8, 8, 8), 4, cores_per_node=2)
    record = campaign.run_point(point, "distfft-bench", 60)
    if record.get("maxmin_precision") != precision:
        sys.exit(f"check_scale_retry: {behaviour}: the record says {record.get('maxmin_precision')}")


def check_timeout_kills_the_group():
    """A run past its timeout is stopped with everything it started (smpirun
    is a script; its smpimain must not simulate on)."""
    import tempfile
    import time
    with tempfile.TemporaryDirectory() as directory:
        pid_file = os.path.join(directory, "pid")
        started = time.monotonic()
        done = campaign.run_group(["bash", "-c", f"sleep 60 & echo $! > {pid_file}; wait"], 1)
        took = time.monotonic() - started
        if done is not None or took > 30:
            sys.exit(f"check_scale_retry: the timed-out run returned {done} after {took:.0f} s "
                     "(a child left running holds its output open)")
        with open(pid_file) as stream:
            child = int(stream.read())
        time.sleep(0.2)
        try:
            with open(f"/proc/{child}/stat") as stream:
                state = stream.read().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            state = "gone"
        if state not in ("gone", "Z", "X"):
            sys.exit(f"check_scale_retry: the timed-out run's child {child} is still running ({state})")


def check_heffte_timeout():
    """The peer's runs go through run_group too (found: a heFFTe slab past
    its timeout simulated on at 14 GB beside the campaign's next point)."""
    calls.clear()
    campaign.run_group = lambda command, timeout, **_: calls.append(command)  # None: timed out
    point = campaign.Point("heffte", (8, 8, 8), 4, grid="slab", cores_per_node=2)
    record = campaign.run_heffte(point, "speed3d_r2c", 1)
    if len(calls) != 1 or not record.get("timed_out"):
        sys.exit(f"check_scale_retry: heFFTe's run not through run_group ({len(calls)} calls), {record}")


check_timeout_kills_the_group()
check_heffte_timeout()
check("fine", 1, None)
check("crash", 2, "1e-4")
check("abort", 2, "1e-4")
check("bad input", 1, None)
print("check_scale_retry: a solver failure is retried once with the coarser precision and recorded; "
      "other runs run once; a run past its timeout is killed with its children")
