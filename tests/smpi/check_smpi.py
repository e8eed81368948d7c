#!/usr/bin/python3
"""Correctness at scale: distfft-bench --check on simulated ranks (SMPI).

    tests/smpi/check_smpi.py [--build-smpi DIR] [--build DIR] [--only N,...]

Runs the SMPI build's distfft-bench (build-smpi/, scripts/setup --smpi) on
64, 256 and 1,024 simulated ranks, on pencil grids of 3-D arrays and 3-D
grids of 4-D arrays, with --check (round trip and the serial FFTW reference
on the gathered array); then, where Open MPI can run the same rank count
here (16 and 64 ranks, oversubscribed), the same configuration under both
and the forward outputs compared byte for byte (--save, FFTW estimate plans
on both sides). Also that an SMPI build refuses what SMPI lacks (threads,
the shm method) with a message, not a hang, and --check or --save of
folded or sampled results; that the calibration's memory grows little with
the simulated ranks and more than 512 are refused; that a shared sample file
charges what it holds, and the datatype methods' copies as the copying
methods' (the same samples). Prints one line per case with
the wall time the simulation took; exits 1 if any case fails.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SMPI = [sys.executable, os.path.join(ROOT, "benchmarks", "scale", "smpi.py"), "run"]
OPENMPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
               "OMPI_MCA_rmaps_base_oversubscribe": "1", "OMPI_MCA_mpi_yield_when_idle": "1"}

# (ranks, platform, cores per node, distfft-bench arguments)
CHECKS = [
    (64, "nodes", 16, "--shape 48x40x36 --kind r2c --grid pencil --method alltoallw"),
    (64, "fat-tree", 16, "--shape 12x10x9x8 --grid 4x4x4 --method alltoallw"),
    (64, "dragonfly", 16, "--shape 30x28x26 --grid pencil --method auto --precision float"),
    (256, "fat-tree", 32, "--shape 64x64x64 --kind r2c --grid pencil --method alltoallw"),
    (256, "dragonfly", 32, "--shape 16x16x16x16 --grid 8x8x4 --method sendrecv"),
    (1024, "nodes", 32, "--shape 64x64x64 --grid pencil --method sendrecv"),
    (1024, "fat-tree", 32, "--shape 16x16x16x16 --grid 8x8x16 --method alltoallw"),
]
# Same configuration under SMPI and Open MPI: forward outputs byte for byte.
IDENTICAL = [
    (16, "--shape 24x20x18 --kind r2c --grid pencil --method alltoallw"),
    (64, "--shape 20x16x12x10 --grid 4x4x4 --method alltoallw"),
]
# What an SMPI build refuses, and the words its message must contain.
REFUSED = [
    ("--shape 32x32x32 --grid pencil --method shm", "this platform (SimGrid's SMPI) has no shared-memory windows"),
    ("--shape 32x32x32 --grid pencil --threads 2 --method alltoallw", "this platform (SimGrid's SMPI) runs one thread per rank"),
]
COMMON = ["--rigor", "estimate", "--inner", "1", "--outer", "1"]


def run(command, timeout, env=None, cwd=None):
    start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, **(env or {})), cwd=cwd)
        return done.returncode, done.stdout + done.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired as expired:
        output = (expired.stdout or b"").decode(errors="replace") if isinstance(expired.stdout, bytes) \
            else (expired.stdout or "")
        return None, output, time.monotonic() - start


def simulated(bench, ranks, platform, cores, arguments):
    return SMPI + [platform, "--ranks", str(ranks), "--cores-per-node", str(cores), "--", bench] \
        + arguments.split() + COMMON


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-smpi", default=os.path.join(ROOT, "build-smpi"))
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--timeout", type=int, default=600, help="seconds per case")
    args = parser.parse_args()
    bench = os.path.join(os.path.abspath(args.build_smpi), "bin", "distfft-bench")
    if not os.path.exists(bench):
        print(f"check_smpi: {bench} is missing (scripts/setup --smpi builds it)")
        return 1
    failures = 0

    def verdict(name, ok, wall, output):
        nonlocal failures
        print(f"{'ok  ' if ok else 'FAIL'} {name}  ({wall:.1f} s wall)", flush=True)
        if not ok:
            failures += 1
            print("\n".join("    " + line for line in output.strip().splitlines()[-15:]), flush=True)

    for ranks, platform, cores, arguments in CHECKS:
        status, output, wall = run(simulated(bench, ranks, platform, cores, arguments + " --check"),
                                   args.timeout)
        verdict(f"{ranks} ranks, {platform}: {arguments} --check",
                status == 0 and "check                 : passed" in output, wall, output)

    openmpi_bench = os.path.join(args.build, "bin", "distfft-bench")
    for ranks, arguments in IDENTICAL:
        name = f"{ranks} ranks, SMPI and Open MPI byte for byte: {arguments}"
        if not os.path.exists(openmpi_bench):
            verdict(name + f" ({openmpi_bench} missing)", False, 0.0, "")
            continue
        with tempfile.TemporaryDirectory(prefix="distfft-identical-") as directory:
            smpi_prefix, ompi_prefix = os.path.join(directory, "smpi"), os.path.join(directory, "ompi")
            status_s, output_s, wall = run(simulated(bench, ranks, "nodes", 16, arguments)
                                           + ["--save", smpi_prefix], args.timeout)
            status_o, output_o, _ = run(["mpiexec.openmpi", "-n", str(ranks), openmpi_bench]
                                        + arguments.split() + COMMON + ["--save", ompi_prefix],
                                        args.timeout, OPENMPI_ENV)
            same, difference = False, ""
            if status_s == 0 and status_o == 0:
                with open(smpi_prefix + ".output.npy", "rb") as a, open(ompi_prefix + ".output.npy", "rb") as b:
                    first, second = a.read(), b.read()
                same = first == second
                if not same:
                    differing = sum(x != y for x, y in zip(first, second))
                    difference = (f"\n(outputs differ: {len(first)} and {len(second)} bytes, "
                                  f"{differing} bytes differ)")
            verdict(name, same, wall, output_s + output_o + difference)

    for arguments, words in REFUSED:
        status, output, wall = run(simulated(bench, 16, "nodes", 4, arguments), 120)
        verdict(f"refused under SMPI: {arguments}", status not in (0, None) and words in output,
                wall, output)

    # Folded or sampled results cannot be checked: distfft-bench itself
    # refuses --check and --save then, with one message (rank 0's) and exit
    # status 2 on every rank -- here under a plain smpirun, past smpi.py's
    # own refusal (benchmarks/tests/check_scale_refusals.py).
    with tempfile.TemporaryDirectory(prefix="distfft-folded-") as directory:
        xml, hosts = [os.path.join(directory, f"nodes-16.{end}") for end in ("xml", "hosts")]
        subprocess.run([sys.executable, SMPI[1], "platform", "nodes", "--ranks", "16", "--cores-per-node", "4",
                        "--out", directory], check=True, capture_output=True)
        for variable, value, argument in [("DISTFFT_SMPI_FOLD", "1", "--check"),
                                          ("DISTFFT_SMPI_SAMPLE", "3", "--save=" + os.path.join(directory, "x"))]:
            command = ["smpirun", "-np", "16", "-platform", xml, "-hostfile", hosts,
                       "--cfg=smpi/shared-malloc:global", "--log=root.thres:warning", bench,
                       "--shape", "32x32x32", argument] + COMMON
            status, output, wall = run(command, 120, {variable: value}, cwd=directory)
            words = f"{argument.split('=')[0]} needs the transforms' results, but {variable}={value}"
            verdict(f"refused by distfft-bench under smpirun: {variable}={value} {argument.split('=')[0]}",
                    status == 2 and output.count(words) == 1, wall, output)

    # A shared sample file (DISTFFT_SMPI_SAMPLES, src/platform_smpi.c): the first
    # run writes its sampled steps (3 FFTs and the backward output's scaling);
    # a second run is charged what the file says (here 10 ms per local step,
    # set by hand) and samples nothing anew.
    with tempfile.TemporaryDirectory(prefix="distfft-samples-") as directory:
        path = os.path.join(directory, "samples.txt")
        sampled = {"DISTFFT_SMPI_SAMPLE": "3", "DISTFFT_SMPI_SAMPLES": path}
        command = simulated(bench, 16, "nodes", 4, "--shape 32x32x32 --grid pencil --method alltoallw --json")
        status, output, wall = run(command, 120, sampled)
        lines = open(path).read().split("\n")[:-1] if os.path.exists(path) else []
        steps = [line for line in lines if line.split()[2:3] != ["copy"]]  # the exchanges' copies aside
        ok = status == 0 and len(steps) == 4 and all(len(line.split()) >= 3 for line in lines) \
            and any(" scale " in line for line in lines)
        charged = None
        if ok:
            with open(path, "w") as stream:
                stream.write("".join(" ".join([line.split()[0], "1.0e-02"] + line.split()[2:]) + "\n"
                                     for line in lines))
            status, more, wall2 = run(command, 120, sampled)
            wall += wall2
            output += more
            results = [json.loads(line) for line in more.splitlines() if line.startswith("{")]
            charged = results[0]["fft_seconds"] if status == 0 and results else None
            ok = charged is not None and 0.069 < charged < 0.075 and len(open(path).readlines()) == len(lines)
        verdict(f"shared sample file: 3 steps and the scaling written, then charged as the file says "
                f"(7 x 10 ms per pair: {charged})", ok, wall, output)

    # MPI's own copies are charged as distfft's are (platform_hides_mpi_copies,
    # redist/chunks.h): the datatype methods make alltoallv's copies as local
    # work, named by their runs, so one sample file charges both alike.
    # Deterministic: no host time charged but the file's; 16 ranks on a 4x4
    # grid make 4 exchanges per pair of 4 ranks, each 3 packs, 1 own copy and
    # 3 unpacks: 28 copies of 1 ms more than with copies of 0 s.
    with tempfile.TemporaryDirectory(prefix="distfft-priced-") as directory:
        path = os.path.join(directory, "samples.txt")
        sampled = {"DISTFFT_SMPI_SAMPLE": "1", "DISTFFT_SMPI_SAMPLES": path}

        def command(method):
            return SMPI + ["nodes", "--ranks", "16", "--cores-per-node", "4", "--cfg",
                           "smpi/simulate-computation:no", "--", bench, "--shape", "32x32x32", "--grid", "4x4",
                           "--method", method, "--norm", "none", "--json"] + COMMON

        def charge(seconds):
            with open(path) as stream:
                lines = stream.read().splitlines()
            with open(path, "w") as stream:
                stream.write("".join(" ".join([words[0], seconds if words[2] == "copy" else "0"] + words[2:]) + "\n"
                                     for words in (line.split() for line in lines)))

        status, output, wall = run(command("alltoallw"), 120, sampled)
        copies = [line for line in open(path).read().splitlines() if line.split()[2:3] == ["copy"]] \
            if status == 0 and os.path.exists(path) else []
        extra = {}
        for method in ("alltoallw", "vector", "alltoallv") if copies else ():
            pairs = []
            for seconds in ("1.0e-03", "0"):
                charge(seconds)
                status, more, more_wall = run(command(method), 120, sampled)
                output, wall = output + more, wall + more_wall
                results = [json.loads(line) for line in more.splitlines() if line.startswith("{")]
                pairs.append(results[0]["pair_seconds"] if status == 0 and results else None)
            extra[method] = pairs[0] - pairs[1] if None not in pairs else None
        verdict(f"MPI's datatype copies charged as distfft's own: {len(copies)} copies sampled; a pair with copies "
                f"of 1 ms minus one with 0 s (28 ms expected): "
                f"{', '.join(f'{m} {e * 1e3:.1f} ms' if e is not None else f'{m} failed' for m, e in extra.items())}",
                len(extra) == 3 and all(e is not None and 0.027 < e < 0.029 for e in extra.values()), wall, output)

    # auto's choice that mixes methods (each exchange's fastest alone) is
    # checked by its pair against each of its methods on every exchange
    # (src/tune/plan_tuning.c, check_mixed). Deterministic: the FFTs charged
    # from a fixed sample file, no other host time charged; the exchanges'
    # winners differ (several methods tie on the network alone), and the
    # plan keeps the mixed choice or the one of its methods whose pair on
    # every exchange was faster.
    with tempfile.TemporaryDirectory(prefix="distfft-mixed-") as directory:
        path = os.path.join(directory, "samples.txt")
        command = SMPI + ["fat-tree", "--ranks", "16", "--cores-per-node", "4", "--cfg",
                          "smpi/simulate-computation:no", "--", bench, "--shape", "64x64x64", "--kind", "r2c",
                          "--grid", "pencil", "--method", "auto", "--rigor", "measure", "--inner", "1", "--outer", "1"]
        sampled = {"DISTFFT_SMPI_SAMPLE": "1", "DISTFFT_SMPI_SAMPLES": path, "DISTFFT_VERBOSE": "1"}
        status, output, wall = run(command, 120, sampled)
        if status == 0 and os.path.exists(path):
            lines = open(path).read().splitlines()
            with open(path, "w") as stream:
                stream.write("".join(" ".join([line.split()[0], "1.0e-04"] + line.split()[2:]) + "\n"
                                     for line in lines))
            status, output, more = run(command, 120, sampled)
            wall += more
        plan = next((line for line in output.splitlines() if line.startswith("plan ")), "")
        chosen = set(re.findall(r"redist ([a-z-]+) ", plan)) | set(re.findall(r"backward ([a-z-]+), ([a-z-]+)",
                                                                            plan)[0] if "backward" in plan else ())
        uniform = {method: float(ms) for method, ms in re.findall(
            r"tuning grid 1/1 \(4x4\): ([a-z-]+) on every exchange: forward\+backward ([0-9.e+-]+) ms", output)}
        mixed = re.findall(r"tuning grid 1/1 \(4x4\): forward\+backward ([0-9.e+-]+) ms", output)
        # The mixed choice's methods, each checked on every exchange; the plan
        # keeps the mixed choice, or one of them where its pair was faster.
        kept = chosen == set(uniform) or (len(chosen) == 1 and mixed and
                                          uniform.get(min(chosen), 1e9) < float(mixed[-1]))
        verdict(f"auto's mixed choice checked against each of its methods on every exchange "
                f"({', '.join(sorted(uniform)) or 'none'}); kept: {', '.join(sorted(chosen))}",
                status == 0 and len(uniform) > 1 and kept, wall, output)

    # The calibration's sampled FFTs run on buffers of the transform's own size
    # (as a plan's steps do), not on the whole calibration array: each sample's
    # key names its shape and bytes (src/model/calibrate_fft.c).
    with tempfile.TemporaryDirectory(prefix="distfft-calibrate-") as directory:
        path, model = os.path.join(directory, "samples.txt"), os.path.join(directory, "model.txt")
        status, output, wall = run(SMPI + ["nodes", "--ranks", "2", "--cores-per-node", "2", "--", bench,
                                           "--calibrate", model, "--node-size", "2", "--rigor", "estimate"],
                                   120, {"DISTFFT_SMPI_SAMPLE": "1", "DISTFFT_SMPI_SAMPLES": path,
                                         "DISTFFT_CALIBRATE_QUICK": "1"})
        wrong, seen = [], 0
        for line in (open(path).read().splitlines() if os.path.exists(path) else []):
            words = line.split()
            if "calibrate" not in words:
                continue
            seen += 1
            family, precision = int(words[5]), int(words[7])  # 0 c2c, 1 r2c, 2 c2r, 3 r2r; 0 double
            shape = [int(n) for n in words[8].split("x")]
            if family in (1, 2):
                shape[-1 if shape[-1] > 1 else -2] //= 2
                shape[-1 if shape[-1] > 1 else -2] += 1
            elements = 1
            for n in shape:
                elements *= n
            expected = elements * (8 if precision == 0 else 4) * (1 if family == 3 else 2)
            if int(words[-1]) != expected:
                wrong.append(f"{line} (expected {expected} bytes)")
        verdict(f"calibration samples transform-sized buffers ({seen} samples)",
                status == 0 and seen > 20 and not wrong, wall, output + "\n".join(wrong[:5]))

    # The calibration's buffers are one set for all simulated ranks
    # (platform_scratch, and the sampled runs' pair in src/platform_smpi.c):
    # what grows with the ranks is SMPI's packing of the datatype
    # measurement's messages, all pairs' at once, about 17 MB per rank. The
    # quick calibration's peak resident size (the kernel's count; nothing is
    # folded) at 8 and 32 ranks, nodes of 4: 240 and 640 MB; with a set per
    # rank (2 x 32 MiB to copy, 2 x 8 MiB of FFT arrays) 0.76 and 2.9 GB,
    # 90 MB per rank, and 256 ranks of the full calibration were killed at
    # 24 GB. More than 512 simulated ranks are refused, at once.
    peaks, outputs, walls = {}, "", 0.0
    measure = ("import resource, subprocess, sys; status = subprocess.call(sys.argv[1:]); "
               "print('peak_rss_bytes', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024); "
               "sys.exit(status)")
    for ranks in (8, 32):
        with tempfile.TemporaryDirectory(prefix="distfft-calibrate-memory-") as directory:
            model = os.path.join(directory, "model.txt")
            status, output, wall = run([sys.executable, "-c", measure] + SMPI
                                       + ["nodes", "--ranks", str(ranks), "--cores-per-node", "4", "--", bench,
                                          "--calibrate", model, "--rigor", "estimate"], 120,
                                       {"DISTFFT_SMPI_SAMPLE": "1", "DISTFFT_CALIBRATE_QUICK": "1"})
            lines = [line for line in output.splitlines() if line.startswith("peak_rss_bytes")]
            if status == 0 and lines and os.path.exists(model):
                peaks[ranks] = int(lines[-1].split()[1])
            outputs, walls = outputs + output, walls + wall
    growth = (peaks[32] - peaks[8]) / 24 if len(peaks) == 2 else None
    verdict(f"calibration's memory by simulated ranks: {', '.join(f'{r}: {p / 1e6:.0f} MB' for r, p in peaks.items())}"
            f" (below 32 MiB more per rank)", growth is not None and growth < 32 << 20, walls, outputs)
    with tempfile.TemporaryDirectory(prefix="distfft-calibrate-ranks-") as directory:
        model = os.path.join(directory, "model.txt")
        status, output, wall = run(SMPI + ["nodes", "--ranks", "513", "--cores-per-node", "16", "--", bench,
                                           "--calibrate", model], 120)
        verdict("calibration on 513 simulated ranks refused", status not in (0, None) and not os.path.exists(model)
                and "513 ranks in one process: on this platform (SimGrid's SMPI) a calibration takes at most 512" in output
                and "calibrate on two simulated nodes" in output, wall, output)

    # A malformed platform file: refused with a message naming it, nothing run.
    with tempfile.TemporaryDirectory(prefix="distfft-platform-") as directory:
        cases = [("broken.json", "{ not json", "is not valid JSON"),
                 ("partial.json", '{"topology": "flat"}', "lacks cores_per_node"),
                 ("torus.json", '{"topology": "torus", "cores_per_node": 4, "link_bandwidth": "1GBps", '
                  '"link_latency": "1us", "loopback_bandwidth": "1GBps", "loopback_latency": "1us", '
                  '"sources": {}}', "topology 'torus' is not")]
        for name, text, words in cases:
            path = os.path.join(directory, name)
            with open(path, "w") as stream:
                stream.write(text)
            status, output, wall = run(SMPI + [path, "--ranks", "4", "--", bench] + COMMON, 60)
            verdict(f"malformed platform refused: {name}", status not in (0, None) and words in output
                    and path in output, wall, output)

    print(f"check_smpi: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
