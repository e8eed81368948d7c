#!/usr/bin/python3
"""The scale campaign: distfft on simulated clusters (SimGrid SMPI).

    scripts/benchmark scale [small|medium|full|executed] [--out DIR] [--list]
                            [--model FILE | --no-model] [--timeout S]
                            [--only SERIES,...] [--ranks R,...] [--pairs N]
                            [--cfg NAME:VALUE ...]
    scripts/benchmark scale --summarize DIR
    scripts/benchmark scale --repredict DIR [--out NEW] [--model FILE]

Each point runs build-smpi/bin/distfft-bench (scripts/setup --smpi) under
benchmarks/scale/smpi.py on a platform of benchmarks/scale/platforms/, with
memory folding and sampled computation (src/platform_smpi.c), FFTW measure
plans (the library's default; FFTW's wisdom is process-wide, so the first
rank of a shape measures and the others reuse its plan, as every rank of a
real cluster would measure at the same time), 3 timed forward+backward pairs (--pairs), and records one JSON line: the
simulated pair time (fastest pair, slowest rank), per-step times and bytes,
the plan time (tuning included), and the wall time the simulation took. A
point that runs past --timeout is recorded as timed out. Each timed point
also records the simulation's CPU seconds and the host's load average
before and after it. --cfg passes a SimGrid setting to every simulation
(recorded in each row and in the header): a cheaper network solver for
runs the default cannot finish, stated beside every figure it makes.

The cost model (src/model/model.h) is calibrated on each platform the points
use (distfft-bench --calibrate on two simulated nodes, computation sampled as
in the points; DIR/models/; then the platform's network above the node, its
`network_levels` from smpi.py levels, appended), or taken from --model FILE, or skipped with
--no-model. Every point is then predicted by a --predict-only run of the same
plan (nothing executes, so it is cheap) before any point runs, and the points of the `model`
series -- rank counts the simulation cannot reach here -- are only predicted:
the model carries the curves beyond the simulated range once the simulated
points have checked it. Writes DIR/results.jsonl, DIR/summary.md (the tables
of docs/guide/scale.md) and DIR/strong.png when matplotlib is there;
--summarize DIR writes summary.md again from DIR/results.jsonl.
--repredict DIR predicts a finished campaign's points again with this
checkout's model (calibrated again on each platform, or --model FILE) and
writes NEW (default DIR-repredicted) with the simulated figures kept, each
row's earlier prediction as predicted_pair_seconds_before: seconds per
point instead of a new simulation when only the model changed.

Series: strong (fixed global shape, more ranks), methods (every method of
the table on the smallest rank count), weak (524,288 points per rank, paper
000 Fig. 9), placement (row, Morton and node placement on the Dragonfly,
paper 003), auto (the tuned method beside the fixed ones), model (predicted
only, beyond the simulated range). The `executed` preset is strong and weak
scaling alone, 64 to 1,024 ranks, pencil alltoallw.
"""
import argparse
import dataclasses
import datetime
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import smpi  # noqa: E402


@dataclasses.dataclass(frozen=True)
class Point:
    series: str
    shape: tuple
    ranks: int
    grid: str = "pencil"
    method: str = "alltoallw"
    placement: str = "row"
    platform: str = "fat-tree"
    cores_per_node: int = 16
    kind: str = "r2c"

    def label(self):
        return (f"{self.series}: {'x'.join(map(str, self.shape))} {self.kind} P={self.ranks} "
                f"{self.grid} {self.method} {self.placement} on {self.platform}")


def weak_shape(ranks, points_per_rank=524288):
    """A 3-D shape of ranks * points_per_rank points, as cubic as powers of 2 allow."""
    total = ranks * points_per_rank
    exponent = total.bit_length() - 1
    assert 1 << exponent == total, "weak scaling needs powers of two"
    parts = [exponent // 3] * 3
    for i in range(exponent % 3):
        parts[2 - i] += 1
    return tuple(1 << p for p in parts)


# distfft-bench --list-methods less shm, which SMPI cannot run (no shared windows).
ALL_METHODS = ("alltoallw", "alltoallv", "isend-waitall", "isend-waitsome", "isend-waitall-blocked",
               "isend-waitsome-blocked", "sendrecv", "vector", "hierarchical")


def preset_points(name):
    points = []
    if name == "executed":
        # Benchmarked pairs from 64 to 1,024 ranks, strong (512^3) and weak
        # (524,288 points per rank), pencil alltoallw: the model's choice at
        # every point of the budget-1 series; predictions made before the runs.
        ranks = (64, 128, 256, 512, 1024)
        return [Point("strong", (512,) * 3, p) for p in ranks] + \
               [Point("weak", weak_shape(p), p) for p in ranks]
    if name == "small":
        ranks, size, methods = (64, 128, 256), 512, ("alltoallw", "sendrecv")
    elif name == "medium":
        ranks, size, methods = (64, 128, 256, 512, 1024), 1024, ("alltoallw", "sendrecv", "alltoallv")
    elif name == "full":  # the whole range: far beyond this machine's hours
        ranks, size, methods = (64, 256, 1024, 4096, 16384), 2048, ("alltoallw", "sendrecv")
    else:
        raise SystemExit(f"campaign: no preset '{name}' (small, medium, full, executed)")
    shape = (size,) * 3
    for p in ranks:
        for grid in ("slab", "pencil"):
            if grid == "slab" and p > size:
                continue  # a slab needs a plane per rank
            for method in methods:
                points.append(Point("strong", shape, p, grid, method))
    # Every method of the library's table (shm: refused under SMPI) on the
    # smallest rank count, pencils.
    for method in ALL_METHODS:
        if method not in methods:
            points.append(Point("methods", shape, min(ranks), "pencil", method))
    for p in ranks:
        points.append(Point("weak", weak_shape(p), p))
    big = max(ranks) if name != "full" else 4096
    for placement in ("row", "morton", "node"):
        points.append(Point("placement", shape, big, placement=placement, platform="dragonfly"))
    for p in (min(ranks), big):
        points.append(Point("auto", shape, p, method="auto"))
    # Beyond the simulated range: the model's figures only (predicted, not
    # run; building a 512^3 plan alone costs about 10 s of wall time at
    # 1,024 ranks, 1-2 min at 4,096 and 9 min at 8,192, docs/guide/scale.md).
    beyond = (4 * max(ranks), 16 * max(ranks)) if name == "small" else (4096, 16384)
    for p in beyond:
        if p > max(ranks):
            points.append(Point("model", shape, p))
    if name != "full":
        points += [Point("model", (2048,) * 3, p) for p in beyond]
    return points


def bench_command(point, bench, model=None, pairs=3):
    """distfft-bench for one point: timed (`pairs` pairs), or with a model file
    only predicted (--predict-only: the same plan, built with FFTW estimate
    plans, nothing executed)."""
    command = [bench, "--shape", "x".join(map(str, point.shape)), "--kind", point.kind,
               "--grid", point.grid, "--method", point.method, "--placement", point.placement,
               "--json", "--quiet"]
    command += ["--rigor", "estimate", "--model", model, "--predict-only"] if model \
        else ["--rigor", "measure", "--inner", "1", "--outer", str(pairs)]
    if point.placement == "node":
        command += ["--node-size", "0"]
    return command


# SimGrid 3.32's max-min network solver stops a simulation with tens of
# thousands of flows of very different sizes in flight ("Cannot saturate
# more a constraint that has no active element! You may want to change the
# maxmin precision", or a segmentation fault inside MaxMin::do_solve):
# found at 64 ranks of a 512^3 slab with isend-waitall (4,032 messages in
# flight per exchange) and 256 ranks with alltoallw. Such a run is retried
# once with a coarser precision: on a 64-rank pencil run that does not
# fail, 1e-4 moved the pair by 0.05 % (docs/guide/scale.md).
COARSE_MAXMIN = "maxmin/precision:1e-4"


def solver_failed(done):
    """Did SimGrid's max-min solver stop this completed run (its abort or
    its segmentation fault: smpirun's "Execution failed with code 134/139")?"""
    if done is None or done.returncode == 0:
        return False
    output = done.stdout + done.stderr
    return ("Cannot saturate more a constraint" in output or "MaxMin::do_solve" in output or
            "Execution failed with code 139" in output or "Execution failed with code 134" in output)


def run_group(command, timeout, **options):
    """subprocess.run's completed process for `command`, or None when it ran
    past `timeout` -- then its whole process group is killed: smpirun is a
    script, and killing it alone (subprocess.run's timeout) left its
    smpimain simulating on, holding its memory (found: a 256-rank slab ran
    on 4 minutes after its 900-s timeout, 7.5 GB, beside the next points)."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True, **options) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return None
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def simulate(platform, ranks, cores_per_node, program, timeout, environment=None, settings=()):
    """Run `program` (a command list) on `ranks` simulated ranks of
    `platform`: (wall seconds, completed process or None if timed out, peak
    memory of the simulation in bytes). `settings`: further SimGrid
    settings (NAME:VALUE, as smpirun's --cfg). A run the network solver stopped
    (solver_failed) runs again with COARSE_MAXMIN; the process then has
    `maxmin_precision` set to it, and the wall time counts both runs."""
    with tempfile.TemporaryDirectory(prefix="distfft-scale-") as directory:
        xml, hosts = smpi.write_platform(platform, ranks, cores_per_node, directory)
        start = time.monotonic()
        peak = 0
        for configuration in (["smpi/display-timing:no", *settings],
                              ["smpi/display-timing:no", *settings, COARSE_MAXMIN]):
            command = smpi.smpirun_command(xml, hosts, ranks, configuration) + program
            with smpi.MemoryWatch() as memory:
                done = run_group(command, timeout, cwd=directory,
                                 env=dict(smpi.scratch_environment(directory), **(environment or {})))
            peak = max(peak, memory.peak or 0)
            if COARSE_MAXMIN in configuration and done is not None:
                done.maxmin_precision = COARSE_MAXMIN.split(":")[1]
            if not solver_failed(done):
                break
        return time.monotonic() - start, done, peak


def children_cpu_seconds():
    """User + system CPU seconds of this process's finished children (and
    theirs: smpirun waits on its smpimain)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_point(point, bench, timeout, model=None, settings=(), pairs=3):
    """One point, timed (model None) or predicted; the record of it, with
    the host's load average before and after (sampled FFT times are host
    times: a busier host inflates them) and the simulation's CPU seconds
    (not counted for a run killed at its timeout)."""
    load_before, cpu_before = os.getloadavg()[0], children_cpu_seconds()
    wall, done, memory = simulate(point.platform, point.ranks, point.cores_per_node,
                                  bench_command(point, bench, model, pairs),
                                  timeout, {"DISTFFT_SMPI_SAMPLE": "3", "DISTFFT_SMPI_FOLD": "1"}, settings)
    host = {"load_before": load_before, "load_after": os.getloadavg()[0]}
    if settings:
        host["simgrid_settings"] = list(settings)
    if done is None:
        return {"timed_out": True, "wall_seconds": wall, **host}
    record = {"timed_out": False, "wall_seconds": wall, "exit_status": done.returncode,
              "peak_memory_bytes": memory, "cpu_seconds": children_cpu_seconds() - cpu_before, **host}
    if getattr(done, "maxmin_precision", None):
        record["maxmin_precision"] = done.maxmin_precision
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            try:
                record["bench"] = json.loads(line)
            except ValueError:
                pass
    if "bench" not in record:
        lines = (done.stdout + done.stderr).strip().splitlines()
        record["error"] = [line for line in lines if line.startswith("distfft-bench:")][:2] + lines[-5:]
    return record


# ---- the cost model, calibrated on each platform ----------------------------------

def calibrate(platform, cores_per_node, bench, directory, timeout, ranks):
    """The cost model of `platform` measured on two of its nodes (both levels
    of its network), computation sampled as in the points, and the network
    above the node (a Dragonfly's routers and groups, a fat tree's leaf
    switches) as SMPI builds it for `ranks`, the most the points use: two
    nodes cannot see it, so it is written from the platform's description,
    its links at the fraction of their bandwidth the calibration measured
    for a node's link (smpi.py levels); its path."""
    path = os.path.join(directory, f"{platform}-{cores_per_node}.model")
    if os.path.exists(path):
        return path
    os.makedirs(directory, exist_ok=True)
    print(f"campaign: calibrating the cost model on {platform} ({cores_per_node} cores per node)", flush=True)
    program = [bench, "--calibrate", path, "--node-size", str(cores_per_node), "--rigor", "measure"]
    wall, done, _ = simulate(platform, 2 * cores_per_node, cores_per_node, program, timeout,
                          {"DISTFFT_SMPI_SAMPLE": "3",
                           "DISTFFT_MODEL_PLATFORM": f"{platform}, {cores_per_node} cores per node"})
    if done is None or done.returncode != 0 or not os.path.exists(path):
        output = "" if done is None else (done.stdout + done.stderr).strip()
        raise SystemExit(f"campaign: calibrating {platform} failed ({wall:.0f} s): {output[-800:]}")
    levels = smpi.network_levels(platform, ranks, cores_per_node, smpi.link_efficiency(platform, path))
    if levels:
        with open(path, "a") as stream:
            stream.write(f"# the network above the node at {ranks} ranks: benchmarks/scale/smpi.py levels "
                         f"{platform} --ranks {ranks} --cores-per-node {cores_per_node} --model THIS\n"
                         f"network_levels = {levels}\n")
    print(f"    {path} in {wall:.0f} s", flush=True)
    return path


def predict(row, point, bench, model, timeout, settings=()):
    """Add the model's prediction of `point` to its row (auto is not
    predicted: its choice is made by measuring)."""
    if not model or point.method == "auto":
        return
    record = run_point(point, bench, timeout, model, settings)
    bench_report = record.get("bench") or {}
    row["predicted_pair_seconds"] = bench_report.get("predicted_pair_seconds")
    row["predicted_steps"] = [step.get("predicted_seconds") for step in bench_report.get("steps", [])]
    row["predict_wall_seconds"] = record["wall_seconds"]
    row["predict_peak_memory_bytes"] = record.get("peak_memory_bytes")
    if point.series == "model":  # predicted only: what building the plan took
        row.update({k: record[k] for k in ("timed_out", "error") if k in record})
        row["plan_seconds"] = bench_report.get("plan_seconds")


# ---- heFFTe, the peer ------------------------------------------------------------
# heFFTe (its speed3d_r2c benchmark, FFTW backend) built with smpicxx from a
# source checkout the campaign is pointed at (--heffte-source or
# HEFFTE_SOURCE; heFFTe is in no package registry reachable here), run on
# the same platforms and points as distfft's strong series. Its local FFTs
# run for real on every rank (no sampling), its arrays are not folded, and
# it reports the mean of its runs where distfft reports the fastest pair.

def build_heffte(source, build_smpi):
    build = os.path.join(build_smpi, "heffte")
    program = os.path.join(build, "benchmarks", "speed3d_r2c")
    if not os.path.exists(os.path.join(build, "build.ninja")):
        subprocess.run(["cmake", "-S", source, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                        "-DCMAKE_CXX_COMPILER=smpicxx", "-DCMAKE_C_COMPILER=smpicc",
                        "-DMPI_CXX_COMPILER=smpicxx", "-DMPI_C_COMPILER=smpicc", "-DHeffte_ENABLE_FFTW=ON",
                        "-DHeffte_ENABLE_TESTING=ON", "-DBUILD_SHARED_LIBS=ON"], check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build, "--target", "speed3d_r2c"], check=True,
                   stdout=subprocess.DEVNULL)
    return program


def heffte_points(points):
    seen, chosen = set(), []
    for point in points:
        key = (point.shape, point.ranks, point.grid)
        if point.series == "strong" and key not in seen:
            seen.add(key)
            chosen.append(dataclasses.replace(point, series="heffte", method="heffte"))
    return chosen


def run_heffte(point, program, timeout):
    arguments = [program, "fftw", "double"] + [str(n) for n in point.shape]
    arguments += ["-pencils", "-io_pencils"] if point.grid == "pencil" else ["-slabs"]
    arguments += ["-nruns3", "-no-error"]
    with tempfile.TemporaryDirectory(prefix="distfft-scale-") as directory:
        xml, hosts = smpi.write_platform(point.platform, point.ranks, point.cores_per_node, directory)
        command = smpi.smpirun_command(xml, hosts, point.ranks, []) + arguments
        start = time.monotonic()
        done = run_group(command, timeout, cwd=directory, env=smpi.scratch_environment(directory))
        if done is None:  # killed with its smpimain, which would simulate on
            return {"timed_out": True, "wall_seconds": time.monotonic() - start}
    record = {"timed_out": False, "wall_seconds": time.monotonic() - start, "exit_status": done.returncode,
              "command": " ".join(arguments[1:])}
    for line in done.stdout.splitlines():
        if line.startswith("Time per run:"):  # one transform, mean of forward and backward runs
            record["bench"] = {"pair_seconds": 2.0 * float(line.split()[3])}
    if "bench" not in record:
        record["error"] = (done.stdout + done.stderr).strip().splitlines()[-5:]
    return record


# ---- the summary --------------------------------------------------------------

def milliseconds(value):
    return f"{1e3 * value:.3g}" if isinstance(value, (int, float)) else "–"


def pair_of(row):
    bench = row.get("bench") or {}
    return bench.get("pair_seconds")


def cell(row):
    if row is None:
        return "–"
    if row.get("timed_out"):
        return f"timed out ({row['wall_seconds']:.0f} s)"
    pair = pair_of(row)
    if pair is None:
        # e.g. vector needs equal blocks: r2c's n/2 + 1 points rarely divide
        return "not applicable" if "not applicable" in " ".join(row.get("error", [])) else "failed"
    predicted = row.get("predicted_pair_seconds")
    text = milliseconds(pair)
    if isinstance(predicted, (int, float)) and predicted > 0:
        text += f" (model {milliseconds(predicted)}, {pair / predicted:.2f})"
    return text


def summarize(rows, header):
    lines = [f"# Scale campaign", "", header, "",
             "Simulated forward+backward pair time in ms (fastest of 3 pairs, slowest rank);",
             "with a model file, the prediction and measured/predicted beside it.", ""]
    strong = [r for r in rows if r["point"]["series"] in ("strong", "heffte")]
    if strong:
        columns = sorted({(r["point"]["grid"], r["point"]["method"]) for r in strong})
        ranks = sorted({r["point"]["ranks"] for r in strong})
        shape = "x".join(map(str, strong[0]["point"]["shape"]))
        lines += [f"## Strong scaling, {shape} r2c, fat tree", "",
                  "| ranks | " + " | ".join(f"{g} {m}" for g, m in columns) + " | best distfft efficiency |",
                  "|---" * (len(columns) + 2) + "|"]
        best_first = None
        for p in ranks:
            cells, best = [], None
            for g, m in columns:
                row = next((r for r in strong if r["point"]["ranks"] == p and r["point"]["grid"] == g
                            and r["point"]["method"] == m), None)
                cells.append(cell(row))
                pair = pair_of(row) if row and m != "heffte" else None
                if pair and (best is None or pair < best):
                    best = pair
            if best_first is None and best:
                best_first = (p, best)
            efficiency = f"{best_first[1] * best_first[0] / (best * p):.2f}" if best and best_first else "–"
            lines.append(f"| {p} | " + " | ".join(cells) + f" | {efficiency} |")
        lines.append("")
    weak = [r for r in rows if r["point"]["series"] == "weak"]
    if weak:
        lines += ["## Weak scaling, 524,288 points per rank, r2c, pencil, alltoallw, fat tree", "",
                  "| ranks | shape | pair ms | efficiency |", "|---|---|---|---|"]
        first = None
        for r in sorted(weak, key=lambda r: r["point"]["ranks"]):
            pair = pair_of(r)
            first = first or pair
            efficiency = f"{first / pair:.2f}" if pair and first else "–"
            lines.append(f"| {r['point']['ranks']} | {'x'.join(map(str, r['point']['shape']))} | "
                         f"{cell(r)} | {efficiency} |")
        lines.append("")
    autos = [r for r in rows if r["point"]["series"] == "auto" and pair_of(r)]
    if autos:
        lines += ["## auto against the best fixed method, and what tuning costs", "",
                  "| ranks | auto pair ms | best fixed (pencil) | auto / best | plan s (tuning) | "
                  "plan / 100 transforms |", "|---|---|---|---|---|---|"]
        for r in autos:
            p = r["point"]
            fixed = [f for f in strong if f["point"]["ranks"] == p["ranks"] and f["point"]["grid"] == p["grid"]
                     and f["point"]["series"] == "strong" and pair_of(f)]
            best = min(fixed, key=pair_of) if fixed else None
            plan = (r.get("bench") or {}).get("plan_seconds")
            ratio = f"{pair_of(r) / pair_of(best):.2f}" if best else "–"
            cost = f"{plan / (50 * pair_of(r)):.2f}" if plan else "–"
            lines.append(f"| {p['ranks']} | {milliseconds(pair_of(r))} | "
                         f"{(milliseconds(pair_of(best)) + ' ' + best['point']['method']) if best else '–'} | "
                         f"{ratio} | {plan if plan is None else f'{plan:.3g}'} | {cost} |")
        lines.append("")
    for series, title in (("methods", "Every method (pencil, fat tree)"),
                          ("placement", "Placement on the Dragonfly (pencil, alltoallw)"),
                          ("auto", "auto (measured at plan time) beside the fixed methods")):
        chosen = [r for r in rows if r["point"]["series"] == series]
        if not chosen:
            continue
        lines += [f"## {title}", "", "| ranks | placement | method | pair ms | chosen plan | plan s |",
                  "|---|---|---|---|---|---|"]
        for r in chosen:
            bench = r.get("bench") or {}
            plan = bench.get("plan", "")
            plan = plan[plan.find("grid="):].split(" ")[0] if "grid=" in plan else ""
            methods = bench.get("plan", "")
            used = sorted(set(part.split(" ")[0] for part in methods.split("(redist ")[1:]))
            lines.append(f"| {r['point']['ranks']} | {r['point']['placement']} | {r['point']['method']} "
                         f"({', '.join(used)}) | {cell(r)} | {plan} | "
                         f"{bench.get('plan_seconds', float('nan')):.3g} |")
        lines.append("")
    lines += model_tables(rows)
    lines += ["## What each point cost to simulate", "",
              "| point | wall s | peak memory GB | plan s (simulated) | wall s of its prediction |",
              "|---|---|---|---|---|"]
    for r in rows:
        plan = (r.get("bench") or {}).get("plan_seconds", r.get("plan_seconds"))
        predicted = r.get("predict_wall_seconds")
        memory = r.get("peak_memory_bytes") or r.get("predict_peak_memory_bytes")
        lines.append(f"| {r['label']} | {r['wall_seconds']:.1f} | "
                     f"{'–' if memory is None else f'{memory / 1e9:.2f}'} | "
                     f"{plan if plan is None else f'{plan:.3g}'} | "
                     f"{'–' if predicted is None else f'{predicted:.1f}'} |")
    return "\n".join(lines) + "\n"


def model_tables(rows):
    """The model against every simulated point it predicted, then its
    figures beyond the simulated range."""
    lines = []
    checked = [r for r in rows if r["point"]["series"] != "model" and pair_of(r)
               and r.get("predicted_pair_seconds")]
    if checked:
        ratios = sorted(pair_of(r) / r["predicted_pair_seconds"] for r in checked)
        within = sum(abs(x - 1.0) <= 0.25 for x in ratios)
        middle = ratios[len(ratios) // 2] if len(ratios) % 2 else \
            0.5 * (ratios[len(ratios) // 2 - 1] + ratios[len(ratios) // 2])
        lines += ["## The cost model against the simulation", "",
                  f"{within} of {len(ratios)} points within 25 % (simulated/predicted "
                  f"{ratios[0]:.2f}-{ratios[-1]:.2f}, median {middle:.2f}).", "",
                  "| point | simulated ms | predicted ms | simulated / predicted |", "|---|---|---|---|"]
        for r in checked:
            lines.append(f"| {r['label']} | {milliseconds(pair_of(r))} | "
                         f"{milliseconds(r['predicted_pair_seconds'])} | "
                         f"{pair_of(r) / r['predicted_pair_seconds']:.2f} |")
        lines.append("")
    beyond = [r for r in rows if r["point"]["series"] == "model"]
    if beyond:
        lines += ["## Beyond the simulated range: the model's figures", "",
                  "Predicted, not run: each plan is built on the simulated ranks (FFTW estimate "
                  "plans) and the model predicts its steps; nothing executes.", "",
                  "| shape | ranks | grid, method | predicted pair ms | plan s (simulated) | wall s | "
                  "peak memory GB |",
                  "|---|---|---|---|---|---|---|"]
        for r in beyond:
            p = r["point"]
            plan = r.get("plan_seconds")
            predicted = r.get("predicted_pair_seconds")
            text = milliseconds(predicted) if predicted else \
                ("timed out" if r.get("timed_out") else "failed")
            lines.append(f"| {'x'.join(map(str, p['shape']))} | {p['ranks']} | {p['grid']} {p['method']} | "
                         f"{text} | {'–' if plan is None else f'{plan:.3g}'} | "
                         f"{r.get('predict_wall_seconds', 0):.0f} | "
                         f"{(r.get('predict_peak_memory_bytes') or 0) / 1e9:.2f} |")
        lines.append("")
    return lines


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    strong = [r for r in rows if r["point"]["series"] in ("strong", "heffte") and pair_of(r)]
    if not strong:
        return False
    figure, axes = plt.subplots(figsize=(6, 4))
    for key in sorted({(r["point"]["grid"], r["point"]["method"]) for r in strong}):
        chosen = sorted((r for r in strong if (r["point"]["grid"], r["point"]["method"]) == key),
                        key=lambda r: r["point"]["ranks"])
        axes.loglog([r["point"]["ranks"] for r in chosen], [1e3 * pair_of(r) for r in chosen],
                    marker="o", label=f"{key[0]} {key[1]}")
    axes.set_xlabel("simulated ranks")
    axes.set_ylabel("pair time (ms, simulated)")
    axes.set_title("Strong scaling, " + "x".join(map(str, strong[0]["point"]["shape"])) + " r2c")
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    return True


def models_for(points, args, bench, directory):
    """A model per platform of the points: --model, or calibrated on each."""
    models = {}
    for platform, cores in sorted({(p.platform, p.cores_per_node) for p in points if p.series != "heffte"}):
        ranks = max(p.ranks for p in points if p.platform == platform and p.series != "heffte")
        models[platform] = os.path.abspath(args.model) if args.model else calibrate(platform, cores, bench, directory, args.timeout, ranks)
    return models


def repredict(args):
    """--repredict DIR: the rows of a finished campaign, predicted again."""
    with open(os.path.join(args.repredict, "results.jsonl")) as stream:
        rows = [json.loads(line) for line in stream if line.strip()]
    if not rows:
        raise SystemExit(f"campaign: {args.repredict}/results.jsonl has no rows")
    bench = os.path.join(args.build_smpi, "bin", "distfft-bench")
    if not os.path.exists(bench):
        raise SystemExit(f"campaign: {bench} is missing (scripts/setup --smpi)")
    out = args.out or args.repredict.rstrip("/") + "-repredicted"
    os.makedirs(out, exist_ok=True)
    points = [Point(**{**row["point"], "shape": tuple(row["point"]["shape"])}) for row in rows]
    models = models_for(points, args, bench, os.path.join(out, "models"))
    revision = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
    with open(os.path.join(out, "results.jsonl"), "w") as stream:
        for index, (row, point) in enumerate(zip(rows, points), 1):
            row["header"] = row.get("header", "") + f" Predicted again by revision {revision}."
            if point.series != "heffte" and point.method != "auto":
                row["predicted_pair_seconds_before"] = row.get("predicted_pair_seconds")
                predict(row, point, bench, models.get(point.platform), args.timeout)
                now = (f"predicted {milliseconds(row.get('predicted_pair_seconds'))}" if point.series == "model"
                       else f"pair {cell(row)}")
                print(f"[{index}/{len(rows)}] {point.label()}: {now} ms "
                      f"(before: {milliseconds(row.get('predicted_pair_seconds_before'))})", flush=True)
            stream.write(json.dumps(row) + "\n")
    with open(os.path.join(out, "summary.md"), "w") as stream:
        stream.write(summarize(rows, rows[0].get("header", "")))
    plot(rows, os.path.join(out, "strong.png"))
    print(f"campaign: {out}/summary.md")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preset", nargs="?", default="small")
    parser.add_argument("--out")
    parser.add_argument("--build-smpi", default=os.path.join(ROOT, "build-smpi"))
    parser.add_argument("--model", help="one model file (distfft-bench --calibrate) for every platform, "
                        "instead of calibrating one on each")
    parser.add_argument("--no-model", action="store_true", help="no cost model, no predictions")
    parser.add_argument("--summarize", metavar="DIR", help="write DIR/summary.md again from DIR/results.jsonl")
    parser.add_argument("--repredict", metavar="DIR", help="predict DIR/results.jsonl's points again with "
                        "this checkout's model, into --out (default DIR-repredicted)")
    parser.add_argument("--timeout", type=float, default=900.0, help="wall seconds per point")
    parser.add_argument("--only", help="series to run (strong,methods,weak,placement,auto)")
    parser.add_argument("--pairs", type=int, default=3, help="timed pairs per point (fastest reported; "
                        "with sampled FFTs the pairs of one run differ by little)")
    parser.add_argument("--ranks", help="rank counts to run (e.g. 512,1024), of the preset's")
    parser.add_argument("--cfg", action="append", default=[], metavar="NAME:VALUE",
                        help="a further SimGrid setting for every simulation (smpirun's --cfg; "
                             "one that changes the simulated network belongs beside every figure)")
    parser.add_argument("--list", action="store_true", help="print the points and exit")
    parser.add_argument("--heffte-source", default=os.environ.get("HEFFTE_SOURCE"),
                        help="a heFFTe source checkout to build with smpicxx and run as the peer "
                             "(default: $HEFFTE_SOURCE; skipped when absent)")
    args = parser.parse_args(argv)
    if args.summarize:
        with open(os.path.join(args.summarize, "results.jsonl")) as stream:
            rows = [json.loads(line) for line in stream if line.strip()]
        header = rows[0].get("header", "") if rows else ""
        with open(os.path.join(args.summarize, "summary.md"), "w") as stream:
            stream.write(summarize(rows, header))
        plot(rows, os.path.join(args.summarize, "strong.png"))
        print(f"campaign: {args.summarize}/summary.md")
        return 0
    if args.repredict:
        return repredict(args)
    points = preset_points(args.preset)
    if args.only:
        wanted = set(args.only.split(","))
        points = [p for p in points if p.series in wanted]
    if args.ranks:
        counts = {int(count) for count in args.ranks.split(",")}
        points = [p for p in points if p.ranks in counts]
    if args.list:
        for point in points:
            print(point.label())
        return 0
    bench = os.path.join(args.build_smpi, "bin", "distfft-bench")
    if not os.path.exists(bench):
        raise SystemExit(f"campaign: {bench} is missing (scripts/setup --smpi)")
    if args.model and not os.path.exists(args.model):
        raise SystemExit(f"campaign: no model file {args.model}")
    if args.model and args.no_model:
        raise SystemExit("campaign: --model and --no-model contradict each other")
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out = args.out or os.path.join(ROOT, f"benchmark-results/scale-{args.preset}-{stamp}")
    os.makedirs(out, exist_ok=True)
    revision = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
    header = (f"Preset `{args.preset}`, revision {revision}, {stamp}; SimGrid SMPI "
              f"({smpi.HOST_SPEED} cores = this host's speed), memory folding, 3 samples per local step. "
              f"Reproduce: `scripts/benchmark scale {args.preset}`."
              + (f" SimGrid settings beyond smpi.py's: {', '.join(args.cfg)}." if args.cfg else ""))
    heffte = None
    if args.heffte_source and os.path.exists(os.path.join(args.heffte_source, "benchmarks", "speed3d.h")):
        print(f"campaign: building heFFTe from {args.heffte_source} with smpicxx", flush=True)
        heffte = build_heffte(args.heffte_source, args.build_smpi)
        points = points + heffte_points(points)
    else:
        print("campaign: heFFTe peer skipped: point --heffte-source (or HEFFTE_SOURCE) at a heFFTe "
              "source checkout to run it", flush=True)
    models = {} if args.no_model else models_for(points, args, bench, os.path.join(out, "models"))
    # Every prediction before any run: a prediction made after seeing the
    # simulated figure would not test the model.
    predictions = {}
    for index, point in enumerate(points, 1):
        if point.series != "heffte" and point.platform in models:
            predictions[point] = {}
            predict(predictions[point], point, bench, models[point.platform], args.timeout, args.cfg)
            print(f"[{index}/{len(points)}] predicted before the runs: {point.label()}: "
                  f"{milliseconds(predictions[point].get('predicted_pair_seconds'))} ms", flush=True)
    rows = []
    with open(os.path.join(out, "results.jsonl"), "w") as stream:
        for index, point in enumerate(points, 1):
            print(f"[{index}/{len(points)}] {point.label()}", flush=True)
            if point.series == "model" and point.platform not in models:
                continue  # predicted only: nothing to do without a model
            record = run_heffte(point, heffte, args.timeout) if point.series == "heffte" \
                else {"timed_out": False, "wall_seconds": 0.0} if point.series == "model" \
                else run_point(point, bench, args.timeout, settings=args.cfg, pairs=args.pairs)
            row = {"label": point.label(), "point": dataclasses.asdict(point), "header": header, **record,
                   **predictions.get(point, {})}
            rows.append(row)
            stream.write(json.dumps(row) + "\n")
            stream.flush()
            if point.series == "model":
                print(f"    predicted {milliseconds(row.get('predicted_pair_seconds'))} ms "
                      f"({row.get('predict_wall_seconds', 0):.1f} s)", flush=True)
            else:
                print(f"    pair {cell(row)} ms, simulated in {record['wall_seconds']:.1f} s", flush=True)
    with open(os.path.join(out, "summary.md"), "w") as stream:
        stream.write(summarize(rows, header))
    plot(rows, os.path.join(out, "strong.png"))
    print(f"campaign: {out}/summary.md")
    failed = [r for r in rows if cell(r) == "failed" and r["point"]["series"] != "model"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
