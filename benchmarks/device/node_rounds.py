#!/usr/bin/python3
"""node_rounds.py -- distfft against the best FFTW option on one node of C
cores: interleaved rounds under a deadline, every run appended as it ends.

    benchmarks/device/node_rounds.py --cores 16 --stop-at EPOCH --out rounds.jsonl \\
        [--stages double,float,layouts,large,scaling,overlap] [--shape 256x256x256]
        [--large-shape 512x512x512] [--rounds double=9,...] [--launcher "orterun -n {ranks} ..."]
    benchmarks/device/node_rounds.py --cores 16 --list     # the runs, in order; runs nothing

Stages, in the order they run (the deadline cuts the later ones):
  double   256^3 c2c and r2c, double: distfft P x T = 1 x C, sqrt(C)-ish
           (4 x 4 on 16 cores), C x 1, and 1 x C with --destroy-input (r2c:
           the same work as FFTW's c2r, which destroys its input), against
           FFTW-MPI C x 1 (transposed) and FFTW's threaded serial transform
           on C threads
  float    the same in single precision
  layouts  distfft 2 x C/2 and C/2 x 2 beside the same two FFTW options
  large    --large-shape (512^3) with the double stage's contenders
  scaling  1, 2, 4, ... < C cores: distfft k x 1 and 1 x k, FFTW-MPI k x 1,
           FFTW k threads (one round each)
  overlap  batches of 3 and 8 fields at P x T with P x (T + 1) <= C
           (4 x 3 on 16 cores; --overlap-layout), each rank bound to T + 1
           cores: --overlap off, fields,
           progress (a core free for each rank's helper thread), auto
           (with --thread-multiple, so that it may choose progress), and one
           field (--batch 1), whose pair times N is "N separate transforms"
Rounds per stage: --rounds (default double=3, float=3, layouts=2, large=1,
scaling=1, overlap=2): 3 rounds of --outer 5 give 3 per-round and 12
per-repetition ratios (below), the issue's 9 for the first targets. Round 1
plans from scratch (distfft's auto times every grid and method; FFTW
measures), so it costs several times a later round.
Every distfft run uses the defaults a user gets (method and grid auto,
overlap auto unless the stage sets it) with --rigor measure. Before a
configuration is timed it is checked once at --check-shape (distfft-bench
--check; the FFTW peer checks every run); a configuration that fails is
not timed. In a configuration's first timed run distfft-bench writes its
own wisdom and FFTW's (--wisdom-out, --fftw-wisdom-out) and prints its plan
with FFTW's plans (--print-plan 2, kept in the record's plan_print), and
fftw-mpi-bench writes FFTW's wisdom (--wisdom-out); every later run
imports them (--wisdom-in ...), so planning does not eat the rounds. Each
record has plan_seconds (distfft: plan creation with its tuning, slowest
rank; FFTW: both plans): the first round's is the planning from scratch.

Rounds interleave: each round runs every contender of each kind once, the
order reversed every other round. Ratios are taken between runs of the
same round: each run's fastest of --outer (5) repetitions of --inner (2)
pairs gives one ratio per round, and the benches' pair_seconds_each (every
repetition, in order) gives --outer - 1 more per round, repetition j of
one run against repetition j of the other (the first repetition of each
run is left out: it warms caches and pages up). node_rounds_table.py
reports both counts. Before each run the time it will take is
guessed from the same configuration's last run (its first: --first-guess
seconds); a run that would end past --stop-at is not started, and the
script ends there, recording why. Records (one JSON line each): stage,
round, contender, system, ranks, threads, shape, kind, precision, batch,
overlap, check (true for the small-shape check), returncode, wall_seconds,
command, report (the bench's JSON line, or null), plan_print (first runs).
node_rounds_table.py makes the tables.
"""
import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import time

STAGES = ["double", "float", "layouts", "large", "scaling", "overlap"]
ROUNDS = "double=3,float=3,layouts=2,large=1,scaling=1,overlap=2"


def contender(name, system, ranks, threads, extra=(), batch=1, overlap=None, kinds=None, cores=None):
    """One system at P x T; kinds: the only kinds it runs (None: all);
    cores: each rank's cores (default T)."""
    return {"contender": name, "system": system, "ranks": ranks, "threads": threads,
            "cores": cores or threads, "extra": list(extra), "batch": batch, "overlap": overlap,
            "kinds": kinds}


def distfft(ranks, threads, *extra, batch=1, overlap=None, label="", kinds=None, cores=None):
    name = f"distfft {ranks}x{threads}" + (f" {label}" if label else "")
    return contender(name, "distfft", ranks, threads, extra, batch, overlap, kinds, cores)


def fftw_options(cores):
    return [contender(f"FFTW-MPI {cores}x1", "fftw-mpi", cores, 1),
            contender(f"FFTW {cores} threads", "fftw-threads", 1, cores)]


def square(cores):
    """The P x T of the cores closest to square, P a power of two <= T."""
    ranks = 1
    while ranks * 2 * ranks * 2 <= cores:
        ranks *= 2
    return ranks, cores // ranks


def main_layouts(cores):
    layouts = [(1, cores), square(cores), (cores, 1)]
    return [layout for index, layout in enumerate(layouts) if layout not in layouts[:index]]


def stage_plan(name, options):
    """(contenders, shapes, kinds, precision, rounds) of one stage."""
    cores, kinds = options.cores, ["c2c", "r2c"]
    rounds = options.rounds[name] if name in options.rounds else 1
    main = [distfft(p, t) for p, t in main_layouts(cores)]
    # c2r is the one FFTW transform that destroys its input by default.
    destroy = [distfft(1, cores, "--destroy-input", label="destroy", kinds=["r2c"])]
    if name in ("double", "float", "large"):
        shape = options.large_shape if name == "large" else options.shape
        return (main + destroy + fftw_options(cores), [shape], kinds,
                "float" if name == "float" else "double", rounds)
    if name == "layouts":
        more = [(2, cores // 2), (cores // 2, 2)] if cores >= 4 else []
        more = [distfft(p, t) for p, t in more if (p, t) not in main_layouts(cores)]
        return more + fftw_options(cores) if more else [], [options.shape], kinds, "double", rounds
    if name == "scaling":
        found = []
        for k in (2 ** e for e in range(cores.bit_length())):
            if k >= cores:
                break
            found += [distfft(k, 1)] + ([distfft(1, k)] if k > 1 else [])
            found += [contender(f"FFTW-MPI {k}x1", "fftw-mpi", k, 1),
                      contender(f"FFTW {k} threads", "fftw-threads", 1, k)]
        return found, [options.shape], kinds, "double", rounds
    if name == "overlap":
        ranks, threads = (int(v) for v in options.overlap_layout.split("x"))
        found = []
        # Every variant gets T + 1 cores per rank, progress's helper thread its own.
        for fields in (3, 8):
            found.append(distfft(ranks, threads, batch=1, label=f"batch 1 (x{fields})", cores=threads + 1))
            for overlap in ("off", "fields", "progress", "auto"):
                extra = ["--thread-multiple"] if overlap == "auto" else []
                found.append(distfft(ranks, threads, *extra, batch=fields, overlap=overlap,
                                     label=f"batch {fields} {overlap}", cores=threads + 1))
        # The same one-field configuration serves both batch sizes: time it once.
        unique = []
        for item in found:
            if item["batch"] == 1 and any(u["batch"] == 1 for u in unique):
                continue
            unique.append(dict(item, contender=item["contender"].split(" (")[0]))
        return unique, [options.shape], ["c2c"], "double", rounds
    raise SystemExit(f"node_rounds.py: unknown stage {name} (stages: {', '.join(STAGES)})")


def default_overlap_layout(cores):
    """P x T with P x (T + 1) <= cores: a free core per rank's helper thread."""
    ranks = max(1, cores // 4)
    return f"{ranks}x{max(1, cores // ranks - 1)}"


def wisdom_paths(options, item, shape, kind, precision):
    key = "-".join([item["contender"].replace(" ", "_"), precision, kind, shape])
    return (os.path.join(options.wisdom_dir, key + ".distfft"),
            os.path.join(options.wisdom_dir, key + ".fftw"))


def command_of(options, item, shape, kind, precision, check, first):
    """The command line of one run, and whether it prints plans on stderr."""
    launcher = shlex.split(options.launcher.format(ranks=item["ranks"], cores=item["cores"]))
    timing = ["--inner", "1", "--outer", "1"] if check else \
             ["--inner", str(options.inner), "--outer", str(options.outer)]
    common = ["--shape", shape, "--kind", kind, "--precision", precision,
              "--threads", str(item["threads"]), "--rigor", options.rigor, "--json"] + timing
    distfft_wisdom, fftw_wisdom = wisdom_paths(options, item, shape, kind, precision)
    if item["system"] != "distfft":
        layout = "serial" if item["system"] == "fftw-threads" else "transposed"
        wisdom = [] if check else ["--wisdom-out" if first else "--wisdom-in", fftw_wisdom]
        return launcher + [options.fftw_bench, "--layout", layout] + common + wisdom, False
    command = launcher + [options.bench, "--quiet"] + common + item["extra"]
    if item["batch"] > 1:
        command += ["--batch", str(item["batch"])]
    if item["overlap"]:
        command += ["--overlap", item["overlap"]]
    if check:
        return command + ["--check"], False
    if first:
        return command + ["--wisdom-out", distfft_wisdom, "--fftw-wisdom-out", fftw_wisdom,
                          "--print-plan", "2"], True
    return command + ["--wisdom-in", distfft_wisdom, "--fftw-wisdom-in", fftw_wisdom], False


def run_cut(command, seconds):
    """Runs command for at most seconds: its return code ("timeout" when
    cut), stdout and stderr. The command runs in a process group of its own,
    and a cut ends the whole group: the launcher's ranks too, which would
    otherwise run on, orphaned, beside the runs that follow."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=seconds)
        return process.returncode, stdout, stderr
    except subprocess.TimeoutExpired:
        pass
    stderr = ""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            _, stderr = process.communicate(timeout=5)
            break
        except subprocess.TimeoutExpired:
            continue
    return "timeout", "", stderr or ""


class Runner:
    """Runs commands until the deadline, appending one record per run."""

    def __init__(self, options):
        self.options = options
        self.last_seconds = {}
        self.out = open(options.out, "a")
        self.stopped = None

    def run(self, record, command, prints_plan):
        options = self.options
        key = (record["contender"], record["shape"], record["kind"], record["precision"], record["check"])
        guess = self.last_seconds.get(key, options.first_guess / 2 if record["check"] else options.first_guess)
        left = options.stop_at - time.time()
        if guess > left:
            self.stopped = (f"deadline: {left:.0f} s left, {guess:.0f} s needed before "
                            f"{record['stage']} round {record['round']} {record['contender']} "
                            f"{record['kind']}{' check' if record['check'] else ''}")
            return None
        start = time.time()
        returncode, stdout, stderr = run_cut(command, max(left, 1.0))
        wall = time.time() - start
        self.last_seconds[key] = wall
        lines = [line for line in stdout.splitlines() if line.startswith("{")]
        report = json.loads(lines[-1]) if lines else None
        record.update(returncode=returncode, wall_seconds=round(wall, 3), command=" ".join(command),
                      report=report)
        if prints_plan:
            record["plan_print"] = stderr[-20000:]
        elif returncode != 0:
            record["stderr"] = stderr[-4000:]
        self.out.write(json.dumps(record) + "\n")
        self.out.flush()
        return record


def fields_of(item):
    return {key: value for key, value in item.items() if key not in ("extra", "kinds")}


def run_stage(runner, options, name):
    contenders, shapes, kinds, precision, rounds = stage_plan(name, options)
    failed = set()
    base = {"stage": name, "precision": precision}
    for kind in kinds:  # each configuration checked at a small size first
        for item in contenders:
            record = dict(base, round=0, kind=kind, shape=options.check_shape, check=True,
                          **fields_of(item))
            if item["kinds"] and kind not in item["kinds"]:
                continue
            command, _ = command_of(options, item, options.check_shape, kind, precision, True, False)
            done = runner.run(record, command, False)
            if done is None:
                return False
            if done["returncode"] != 0:
                failed.add((item["contender"], kind))
    for round_index in range(1, rounds + 1):
        for shape in shapes:
            for kind in kinds:
                order = contenders if round_index % 2 else contenders[::-1]
                for item in order:
                    if (item["contender"], kind) in failed or (item["kinds"] and kind not in item["kinds"]):
                        continue
                    record = dict(base, round=round_index, kind=kind, shape=shape, check=False,
                                  **fields_of(item))
                    command, prints = command_of(options, item, shape, kind, precision, False,
                                                 round_index == 1)
                    if runner.run(record, command, prints) is None:
                        return False
        print(f"node_rounds.py: {name} round {round_index}/{rounds} done", file=sys.stderr, flush=True)
    return True


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=os.cpu_count())
    parser.add_argument("--stages", default=",".join(STAGES))
    parser.add_argument("--shape", default="256x256x256")
    parser.add_argument("--large-shape", default="512x512x512")
    parser.add_argument("--check-shape", default="32x32x32")
    parser.add_argument("--rounds", default=ROUNDS, help=f"rounds per stage (default {ROUNDS}; "
                        "a stage not named: 1)")
    parser.add_argument("--inner", type=int, default=2)
    parser.add_argument("--outer", type=int, default=5)
    parser.add_argument("--rigor", default="measure")
    parser.add_argument("--overlap-layout", help="P x T of the overlap stage (default: P = C/4, "
                        "T = C/P - 1)")
    parser.add_argument("--launcher", default="orterun -n {ranks} --map-by slot:PE={cores} --bind-to core",
                        help="{ranks} and {cores} (each rank's cores: its threads, or threads + 1 in "
                        "the overlap stage) are replaced")
    parser.add_argument("--bench", default="build/bin/distfft-bench")
    parser.add_argument("--fftw-bench", default="build/bin/fftw-mpi-bench")
    parser.add_argument("--wisdom-dir", default="node-wisdom")
    parser.add_argument("--stop-at", type=float, help="seconds since the epoch: start nothing that "
                        "would end later (default: 300 s from now)")
    parser.add_argument("--first-guess", type=float, default=5.0,
                        help="seconds a configuration's first run is guessed to take (its check: half)")
    parser.add_argument("--out", default="rounds.jsonl")
    parser.add_argument("--list", action="store_true", help="print the runs, in order, and exit")
    options = parser.parse_args(argv)
    options.rounds = {name: int(count) for name, _, count in
                      (item.partition("=") for item in options.rounds.split(",") if item)}
    options.overlap_layout = options.overlap_layout or default_overlap_layout(options.cores)
    options.stop_at = options.stop_at or time.time() + 300
    options.bench, options.fftw_bench = os.path.abspath(options.bench), os.path.abspath(options.fftw_bench)
    return options


def main(argv):
    options = parse(argv)
    stages = [s for s in options.stages.split(",") if s]
    if options.list:
        for name in stages:
            contenders, shapes, kinds, precision, rounds = stage_plan(name, options)
            print(f"{name}: {precision} {','.join(shapes)} {','.join(kinds)}, {rounds} round(s): "
                  + "; ".join(c["contender"] for c in contenders))
        return 0
    os.makedirs(options.wisdom_dir, exist_ok=True)
    runner = Runner(options)
    for name in stages:
        if not run_stage(runner, options, name):
            break
    print(f"node_rounds.py: {runner.stopped or 'every stage ran'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
