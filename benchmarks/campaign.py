"""campaign.py -- distfft's benchmark campaign, side by side with FFTW-MPI
and mpi4py-fft (issue 7). Usually run through scripts/benchmark, which
installs the packages and builds first:

    scripts/benchmark quick [--out DIR]
    /usr/bin/python3 benchmarks/campaign.py quick --build build [--out DIR]
    ... scaling --ranks 1,2,4,8 --sizes 128,256 [--kinds c2c]
    ... --report DIR     (summary and plots again from DIR/results.jsonl)
    scripts/benchmark methods [--mpi mpich]
    scripts/benchmark quick --phases node      (one phase of a preset)
    scripts/benchmark quick --phases node --precisions double,float
                                               (the node phase in both precisions)

Presets (benchmarks/suite/presets.py): smoke (seconds, for the test),
quick (64^3 and 128^3, 1-2 ranks, c2c and r2c), full (up to 256^3, 512^3
c2c and 64^4 r2c, up to the machine's cores), scaling (--ranks, --sizes),
methods (every redistribution method and the halo exchange's two variants,
no peers; with --mpi mpich under MPICH, where only distfft is built).
Writes DIR/results.jsonl (one line per run), DIR/summary.md and PNG plots.
The machine is assumed shared and noisy: read ratios within one campaign.
Runs with T > 1 threads per rank get T cores each (Open MPI otherwise
binds a rank to one core: systems.binding).
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from suite import plots, presets, runs, summary, systems  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def integer_list(text):
    return [int(part) for part in text.split(",") if part]


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("preset", nargs="?", default="quick",
                        choices=["smoke", "quick", "full", "scaling", "methods"])
    parser.add_argument("--mpi", choices=["openmpi", "mpich"], default="openmpi",
                        help="the MPI of the build (mpich: the methods and halo "
                             "phases only; Debian's FFTW-MPI and mpi4py-fft are "
                             "OpenMPI's)")
    parser.add_argument("--out", help="results folder (default "
                        "benchmark-results/<preset>-<UTC time>)")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="CMake build folder with bin/distfft-bench and "
                             "bin/fftw-mpi-bench (default build/)")
    parser.add_argument("--mpiexec", help="default mpiexec.openmpi, or mpiexec.mpich")
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="Python with mpi4py-fft for the same MPI")
    parser.add_argument("--ranks", type=integer_list, help="rank counts, e.g. 1,2,4")
    parser.add_argument("--sizes", type=integer_list, help="cube edges, e.g. 128,256")
    parser.add_argument("--kinds", type=lambda t: t.split(","), help="c2c,r2c")
    parser.add_argument("--phases", type=lambda t: tuple(t.split(",")),
                        help="run only these of the preset's phases: methods, "
                             "comparison, node, halo (comparison without methods "
                             "runs distfft with method auto)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds")
    parser.add_argument("--outer", type=int, help="repetitions per run")
    parser.add_argument("--precision", choices=["double", "float"])
    parser.add_argument("--precisions", type=lambda t: [p for p in t.split(",") if p],
                        help="precisions of the node phase, e.g. double,float: distfft "
                             "(--precision) and its peers (FFTW threads, FFTW-MPI: fftwf, "
                             "fftwf_mpi) in each (default: --precision's, double)")
    parser.add_argument("--rigor", choices=["estimate", "measure", "patient", "exhaustive"])
    parser.add_argument("--methods", type=lambda t: t.split(","),
                        help="distfft methods of the methods phase (default: "
                             "every one distfft-bench --list-methods gives, and auto)")
    parser.add_argument("--model", help="cost model file (distfft-bench --calibrate) "
                        "given to every distfft run: its predictions go into results.jsonl")
    parser.add_argument("--tune-budget", type=int, metavar="B",
                        help="with --model: distfft's auto times only the model's B best "
                             "grid x method candidates (distfft-bench --tune-budget)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per run")
    parser.add_argument("--list", action="store_true",
                        help="print the runs of one round of each phase and exit "
                             "(distfft's comparison method shows as 'auto': it "
                             "comes from the methods phase)")
    parser.add_argument("--report", metavar="DIR",
                        help="only rewrite summary.md and plots from DIR/results.jsonl")
    return parser.parse_args(argv)


def command_output(command):
    try:
        return subprocess.run(command, capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def cpu_model():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def header(preset, records, command_line, seconds, loads):
    versions = {}
    for record in records:
        for key in ("git_revision", "fftw_version", "mpi4py_fft_version", "mpi_library"):
            if record.get(key) and key not in versions:
                versions[key] = record[key]
    return [
        f"# Benchmark campaign `{preset.name}`",
        "",
        f"- command: `{command_line}`",
        f"- finished {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"took {seconds / 60:.1f} min" if seconds else "- (summary rewritten from results.jsonl)",
        f"- machine: {cpu_model()}, {presets.machine_cores()} cores, "
        f"load average at start / end: {loads[0]} / {loads[1]}"
        + (" (other jobs were running at the start)"
           if isinstance(loads[0], float) and loads[0] >= 0.5 else ""),
        "- " + "; ".join(label + versions[key] for label, key in (
            ("distfft revision ", "git_revision"), ("FFTW ", "fftw_version"),
            ("mpi4py-fft ", "mpi4py_fft_version"), ("", "mpi_library"))
            if key in versions),
        f"- every system: precision {preset.precision}"
        + (f" (node phase: {', '.join(preset.node_precisions)})"
           if preset.node_precisions and "node" in preset.phases else "")
        + ", FFTW planning "
        f"{preset.rigor}, {preset.inner} forward+backward pairs per repetition, "
        f"{preset.outer} repetitions per run, {preset.rounds} rounds interleaved "
        f"A B C … A B C ({preset.method_rounds or preset.rounds} in the methods phase); one MPI_Barrier before each repetition, time max over "
        "ranks; the backward output scaled by 1/N inside the timed pair by all",
    ] + ([f"- distfft given the cost model `{os.path.basename(preset.model)}`"
          + (f"; its auto timed only the model's {preset.tune_budget} best candidates"
             if preset.tune_budget else "")] if preset.model else [])


def load_average():
    try:
        return os.getloadavg()[0].__round__(1)
    except OSError:
        return "?"


def report(out_dir, preset, records, command_line, seconds, loads, skipped):
    results = summary.Results(records)
    summary.write(os.path.join(out_dir, "summary.md"), results,
                  header(preset, records, command_line, seconds, loads), preset, skipped)
    subtitle = (f"preset {preset.name}, {preset.precision}, {presets.machine_cores()}-core "
                f"{cpu_model()}, {time.strftime('%Y-%m-%d', time.gmtime())}")
    return plots.write_all(results, out_dir, subtitle)


def ask_methods(preset, tools):
    """Without --methods, the methods phase runs every method the library
    has (distfft-bench --list-methods) and auto. False if it cannot say."""
    if preset.methods is None:
        try:
            preset.methods = tools.distfft_methods()
        except RuntimeError as problem:
            print(f"campaign.py: cannot list distfft's methods: {problem}", file=sys.stderr)
            return False
    return True


def main(argv):
    options = parse(argv)
    preset = presets.make(options.preset, options.ranks, options.sizes, options.kinds)
    if options.tune_budget is not None and (options.tune_budget < 1 or not options.model):
        print("campaign: --tune-budget needs --model and a budget >= 1", file=sys.stderr)
        return 2
    if options.model:
        options.model = os.path.abspath(options.model)
    for name in ("rounds", "outer", "precision", "rigor", "methods", "model", "tune_budget"):
        if getattr(options, name):
            setattr(preset, name, getattr(options, name))
    if options.rounds:
        preset.method_rounds = options.rounds
    if options.precisions:
        unknown = set(options.precisions) - {"double", "float"}
        if unknown:
            print(f"campaign: unknown precision(s) {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        preset.node_precisions = list(dict.fromkeys(options.precisions))
    if options.phases:
        unknown = set(options.phases) - {"methods", "comparison", "node", "halo"}
        if unknown:
            print(f"campaign: unknown phase(s) {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        preset.phases = tuple(p for p in preset.phases if p in options.phases)
    if options.mpi == "mpich":
        preset.phases = tuple(p for p in preset.phases if p in ("methods", "halo"))
    options.mpiexec = options.mpiexec or f"mpiexec.{options.mpi}"
    shown = list(argv)  # as typed: scripts/benchmark adds --build
    if "--build" in shown[:-1] and os.environ.get("DISTFFT_BENCHMARK_WRAPPER"):
        index = shown.index("--build")
        del shown[index:index + 2]
    command_line = "scripts/benchmark " + " ".join(shown)

    if options.report:
        with open(os.path.join(options.report, "results.jsonl")) as results_file:
            records = [json.loads(line) for line in results_file if line.strip()]
        made = report(options.report, preset, records, command_line, None, ("?", "?"), [])
        print("\n".join([os.path.join(options.report, "summary.md")] + made))
        return 0

    tools = systems.Tools(os.path.abspath(options.build), options.mpiexec, options.python)
    if not ask_methods(preset, tools):
        return 2
    if options.list:
        campaign = runs.Campaign(preset, tools, ".")
        for phase, plan, rounds in campaign.plans():
            plan = plan()
            print(f"{phase}: {len(plan)} runs x {rounds} rounds")
            for case, system in plan:
                print(f"  {case.label():24} {system}")
        for case in campaign.skipped:
            print(f"skipped (memory): {case.label()}")
        return 0
    programs = ["distfft-bench"]
    programs += ["fftw-mpi-bench"] if {"comparison", "node"} & set(preset.phases) else []
    programs += ["halo_timing"] if "halo" in preset.phases and preset.halo_shapes else []
    problems = tools.missing(programs)
    if problems:
        print("campaign.py: cannot run:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    out_dir = options.out or os.path.join(
        ROOT, "benchmark-results", f"{preset.name}-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")
    print(f"campaign {preset.name}: ranks {preset.ranks}, shapes "
          f"{[presets.Case(s, k, 0).label().rsplit(' ', 1)[0] for s, k in preset.shapes]}, "
          f"{preset.rounds} rounds of {preset.outer} x {preset.inner} pairs -> {out_dir}",
          flush=True)
    start_load = load_average()
    campaign = runs.Campaign(preset, tools, out_dir, run_timeout=options.timeout)
    seconds = campaign.run()
    made = report(out_dir, preset, campaign.records, command_line, seconds,
                  (start_load, load_average()), campaign.skipped)
    print(f"campaign {preset.name} took {seconds:.0f} s; wrote")
    for path in [campaign.results_path, os.path.join(out_dir, "summary.md")] + made:
        print("  " + path)
    failed = sum(1 for record in campaign.records if "error" in record)
    if failed:
        print(f"{failed} run(s) failed: see summary.md", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
