"""runs.py -- run the campaign's phases, interleaved, and record every run.

Interleaving: each phase is `rounds` passes over all its (case, system)
pairs in the same order, A B C A B C ..., so slow drift on a shared machine
(other jobs, clocks, caches) hits every system alike instead of the one that
happened to run during a busy minute. Each run is one process (mpiexec) and
prints one JSON line; the line, plus what was run, goes to results.jsonl at
once, so an interrupted campaign keeps what it measured. A run that fails
(exit status, no JSON, failed round-trip check, timeout) is recorded with
its error and the campaign goes on.
"""
import json
import os
import subprocess
import sys
import time

from . import presets, systems

def available_memory_bytes():
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def fits_in_memory(case, preset):
    """Whether about eight complex copies of the global array fit in half
    the available memory (the programs hold input, output, work arrays and,
    for the checks, a reference)."""
    available = available_memory_bytes()
    if available is None:
        return True
    elements = 1
    for extent in case.shape:
        elements *= extent
    complex_bytes = 8 if (case.precision or preset.precision) == "float" else 16
    return 8 * elements * complex_bytes < 0.5 * available


def error_text(stderr):
    """The first two informative lines of a failed run's stderr (mpiexec
    frames its messages in lines of dashes)."""
    lines = [line.strip() for line in stderr.splitlines()
             if line.strip() and set(line.strip()) != {"-"}]
    return " ".join(lines[:2])[:300] or "no output"


def comparison_systems(case, best_method, one_rank_peers=None):
    """distfft (its best method where the methods phase measured one, else
    auto; on one rank there is nothing to redistribute) and every peer (on
    one rank, those in `one_rank_peers` if given)."""
    method = "alltoallw" if case.ranks == 1 else best_method.get(case, "auto")
    peers = systems.PEER_NAMES
    if case.ranks == 1 and one_rank_peers is not None:
        peers = [name for name in peers if name in one_rank_peers]
    return [systems.distfft_name(method)] + peers


class Campaign:
    def __init__(self, preset, tools, out_dir, run_timeout=900, log=sys.stdout):
        self.preset = preset
        self.tools = tools
        self.out_dir = out_dir
        self.run_timeout = run_timeout
        self.log = log
        self.records = []
        self.skipped = []
        self.results_path = os.path.join(out_dir, "results.jsonl")
        self.started = None

    def cases(self, shapes):
        chosen = []
        for shape, kind in shapes:
            for ranks in self.preset.ranks:
                case = presets.Case(tuple(shape), kind, ranks)
                if fits_in_memory(case, self.preset):
                    chosen.append(case)
                elif case not in self.skipped:
                    self.skipped.append(case)
        return chosen

    def run_one(self, phase, round_index, case, system):
        command = systems.command(self.tools, system, case, self.preset)
        environment = dict(os.environ)
        environment.update(systems.MPI_ENVIRONMENT)
        start = time.time()
        record = {}
        try:
            finished = subprocess.run(command, capture_output=True, text=True,
                                      timeout=self.run_timeout, env=environment)
            lines = [line for line in finished.stdout.splitlines()
                     if line.startswith("{")]
            if lines:
                record = json.loads(lines[-1])
            if finished.returncode == 0 and not lines and "not applicable" in finished.stderr:
                record["not_applicable"] = error_text(finished.stderr)
            elif finished.returncode != 0 or not lines:
                record["error"] = f"exit status {finished.returncode}: " + error_text(finished.stderr)
        except subprocess.TimeoutExpired:
            record["error"] = f"timed out after {self.run_timeout} s"
        except (OSError, ValueError) as problem:
            record["error"] = str(problem)
        record.update({"system": system, "phase": phase, "round": round_index,
                       "case_shape": list(case.shape), "case_kind": case.kind,
                       "case_ranks": case.ranks, "command": " ".join(command),
                       **({"case_precision": case.precision} if case.precision else {}),
                       "wall_seconds": round(time.time() - start, 3),
                       "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                    time.gmtime(start))})
        self.records.append(record)
        with open(self.results_path, "a") as results:
            results.write(json.dumps(record) + "\n")
        return record

    def run_phase(self, phase, plan, rounds):
        """plan: list of (case, system), run `rounds` times in that order."""
        total = len(plan) * rounds
        done = 0
        for round_index in range(rounds):
            for case, system in plan:
                record = self.run_one(phase, round_index, case, system)
                done += 1
                elapsed = time.time() - self.started
                outcome = (f"not applicable" if "not_applicable" in record else
                           f"{record['pair_seconds'] * 1e3:9.3f} ms"
                           if "error" not in record else f"FAILED ({record['error']})")
                print(f"[{phase} {done}/{total} r{round_index}] {case.label():22} "
                      f"{system:26} {outcome}  ({elapsed:.0f} s)",
                      file=self.log, flush=True)

    def best_methods(self):
        """distfft's fastest method per case in the methods phase."""
        best = {}
        for record in self.records:
            if record["phase"] != "methods" or "error" in record or "not_applicable" in record:
                continue
            case = presets.Case(tuple(record["case_shape"]), record["case_kind"],
                                record["case_ranks"])
            seconds = record["pair_seconds"]
            if case not in best or seconds < best[case][1]:
                best[case] = (record["system"].split(" ", 1)[1], seconds)
        return {case: method for case, (method, _) in best.items()}

    def method_plan(self):
        shapes = (self.preset.shapes if self.preset.method_shapes is None
                  else self.preset.method_shapes)
        return [(case, systems.distfft_name(method))
                for case in self.cases(shapes) if case.ranks > 1
                for method in self.preset.methods]

    def comparison_plan(self, best):
        plan = []
        floor_done = set()
        for case in self.cases(self.preset.shapes):
            for system in comparison_systems(case, best, self.preset.one_rank_peers):
                plan.append((case, system))
            if (case.shape, case.kind) not in floor_done:
                floor_done.add((case.shape, case.kind))
                plan.append((presets.Case(case.shape, case.kind, 1), systems.SERIAL))
        return plan

    def node_plan(self):
        """The node phase: the threaded serial FFTW baseline on one rank,
        then distfft (auto; alltoallw on one rank, which has nothing to
        exchange) and FFTW-MPI transposed at every P x T of node_cores; per
        shape, in each of the preset's node precisions (the cases carry
        theirs)."""
        cores = self.preset.node_cores
        if not cores:
            return []
        shapes = self.preset.shapes if self.preset.node_shapes is None else self.preset.node_shapes
        precisions = self.preset.node_precisions or [self.preset.precision]
        plan = []
        for shape, kind in shapes:
            for precision in precisions:
                one = presets.Case(tuple(shape), kind, 1, precision)
                if not fits_in_memory(one, self.preset):
                    continue
                plan.append((one, systems.threaded(systems.SERIAL_THREADED, cores)))
                for ranks, threads in presets.layouts(cores):
                    case = presets.Case(tuple(shape), kind, ranks, precision)
                    method = "alltoallw" if ranks == 1 else "auto"
                    plan.append((case, systems.threaded(systems.distfft_name(method), threads)))
                    plan.append((case, systems.threaded(systems.FFTW_TRANSPOSED, threads)))
        return plan

    def halo_plan(self):
        """The halo phase: both variants of one exchange, on every rank
        count above one."""
        return [(presets.Case(tuple(shape), "halo", ranks), system)
                for shape in self.preset.halo_shapes for ranks in self.preset.ranks
                if ranks > 1 for system in systems.HALO_SYSTEMS]

    def plans(self):
        """(phase, plan, rounds) of every phase the preset runs, in order;
        the comparison's plan waits for the methods phase (its best method)."""
        rounds = self.preset.rounds
        return [(phase, plan, count) for phase, plan, count in (
            ("methods", self.method_plan, self.preset.method_rounds or rounds),
            ("comparison", lambda: self.comparison_plan(self.best_methods()), rounds),
            ("node", self.node_plan, rounds),
            ("halo", self.halo_plan, rounds)) if phase in self.preset.phases]

    def run(self):
        self.started = time.time()
        os.makedirs(self.out_dir, exist_ok=True)
        open(self.results_path, "w").close()
        for phase, plan, rounds in self.plans():
            self.run_phase(phase, plan(), rounds)
        return time.time() - self.started
