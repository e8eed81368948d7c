"""summary.py -- aggregate results.jsonl and write summary.md.

Per (phase, system, case), over the interleaved rounds:
  fastest   the fastest repetition of any run (each run reports its fastest
            of `outer` repetitions of `inner` pairs, max over ranks: the
            paper's number);
  median    the median over runs of each run's median repetition;
  spread    (slowest - fastest) / fastest of the runs' fastest times, in
            percent: how much the same measurement moved between rounds;
  fft, redistribute   distfft's split of the fastest run (max over ranks).
Parallel efficiency is T_serial / (P * T_P) with T_serial the fastest serial
FFTW time of the same global transform on one core.
"""
import statistics

from . import presets, systems


class Stats:
    def __init__(self):
        self.runs = []
        self.failures = []
        self.not_applicable = None   # why, when the method does not apply to the case

    def add(self, record):
        if "not_applicable" in record:
            self.not_applicable = record["not_applicable"]
        elif "error" in record or record.get("pair_seconds") is None:
            self.failures.append(record.get("error", "no time"))
        else:
            self.runs.append(record)

    @property
    def ok(self):
        return bool(self.runs)

    def fastest_run(self):
        return min(self.runs, key=lambda run: run["pair_seconds"])

    @property
    def fastest(self):
        return self.fastest_run()["pair_seconds"]

    @property
    def median(self):
        return statistics.median(run["pair_seconds_median"] for run in self.runs)

    @property
    def spread(self):
        """None with a single run: nothing to compare."""
        times = [run["pair_seconds"] for run in self.runs]
        return (max(times) - min(times)) / min(times) if len(times) > 1 else None

    @property
    def fft(self):
        return self.fastest_run().get("fft_seconds")

    @property
    def redistribute(self):
        return self.fastest_run().get("redistribute_seconds")


def case_of(record):
    return presets.Case(tuple(record["case_shape"]), record["case_kind"],
                        record["case_ranks"], record.get("case_precision"))


class Results:
    """The aggregated records of one campaign."""

    def __init__(self, records):
        self.records = records
        self.stats = {}
        for record in records:
            key = (record["phase"], record["system"], case_of(record))
            self.stats.setdefault(key, Stats()).add(record)

    def get(self, phase, system, case):
        stats = self.stats.get((phase, system, case))
        return stats if stats is not None and stats.ok else None

    def cases(self, phase):
        found = {case for (p, _, case) in self.stats if p == phase}
        return sorted(found, key=lambda c: (len(c.shape), c.shape, c.kind, c.ranks))

    def comparison_cases(self):
        return [case for case in self.cases("comparison")
                if any(p == "comparison" and system != systems.SERIAL and c == case
                       for (p, system, c) in self.stats)]

    def ours(self, case):
        """(system name, Stats) of distfft in the comparison phase."""
        for (phase, system, c), stats in self.stats.items():
            if phase == "comparison" and c == case and system.startswith("distfft "):
                return system, (stats if stats.ok else None)
        return None, None

    def serial(self, case):
        return self.get("comparison", systems.SERIAL,
                        presets.Case(case.shape, case.kind, 1))

    def efficiency(self, case, stats):
        floor = self.serial(case)
        if floor is None or stats is None:
            return None
        return floor.fastest / (case.ranks * stats.fastest)

    def best_peer(self, case):
        """(name, Stats) of the fastest peer on this case."""
        found = [(name, self.get("comparison", name, case)) for name in systems.PEER_NAMES]
        found = [(name, stats) for name, stats in found if stats is not None]
        return min(found, key=lambda item: item[1].fastest) if found else (None, None)

    def ratio(self, case, peer_name):
        _, ours = self.ours(case)
        peer = self.get("comparison", peer_name, case)
        if ours is None or peer is None:
            return None
        return ours.fastest / peer.fastest

    def failures(self):
        return [(key, stats.failures) for key, stats in self.stats.items()
                if stats.failures]


def milliseconds(seconds):
    """Three significant digits, in milliseconds."""
    if seconds is None:
        return "–"
    value = seconds * 1e3
    return f"{value:.3g}" if value < 100 else f"{value:.0f}"


def percent(fraction):
    return "–" if fraction is None else f"{fraction * 100:.0f} %"


def number(value, digits=2):
    return "–" if value is None else f"{value:.{digits}f}"


def case_cell(case):
    return f"{'×'.join(map(str, case.shape))} {case.kind} | {case.ranks}"


def comparison_table(results):
    head = ["shape kind", "P", "distfft (method)"] + systems.PEER_NAMES + [
        "ours / FFTW-MPI transposed", "ours / mpi4py-fft slab", "ours / best peer"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for case in results.comparison_cases():
        name, ours = results.ours(case)
        method = name.split(" ", 1)[1] if name else "?"
        cells = [case_cell(case), f"{milliseconds(ours.fastest if ours else None)} ({method})"]
        for peer in systems.PEER_NAMES:
            stats = results.get("comparison", peer, case)
            cells.append(milliseconds(stats.fastest if stats else None))
        best_name, best = results.best_peer(case)
        cells.append(number(results.ratio(case, systems.FFTW_TRANSPOSED)))
        cells.append(number(results.ratio(case, systems.MPI4PY_SLAB)))
        cells.append(f"{number(results.ratio(case, best_name))} (vs {best_name})"
                     if best_name else "–")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def efficiency_table(results):
    head = ["shape kind", "P", "serial FFTW (ms)", "distfft"] + systems.PEER_NAMES
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for case in results.comparison_cases():
        floor = results.serial(case)
        cells = [case_cell(case), milliseconds(floor.fastest if floor else None)]
        _, ours = results.ours(case)
        cells.append(number(results.efficiency(case, ours)))
        for peer in systems.PEER_NAMES:
            cells.append(number(results.efficiency(case, results.get("comparison", peer, case))))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def noise_table(results):
    head = ["shape kind", "P", "system", "fastest (ms)", "median (ms)",
            "spread between rounds", "runs"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for case in results.cases("comparison"):
        names = [name for (phase, name, c) in results.stats
                 if phase == "comparison" and c == case]
        for name in sorted(names):
            stats = results.get("comparison", name, case)
            if stats is None:
                continue
            lines.append(f"| {case_cell(case)} | {name} | {milliseconds(stats.fastest)} | "
                         f"{milliseconds(stats.median)} | {percent(stats.spread)} | "
                         f"{len(stats.runs)} |")
    return lines


def methods_table(results):
    head = ["shape kind", "P", "method", "pair (ms)", "/ alltoallw", "serial FFT (ms)",
            "redistribution (ms)", "redistribution / alltoallw's", "median pair (ms)", "spread"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for case in results.cases("methods"):
        rows, skipped = [], []
        for (phase, name, c), stats in results.stats.items():
            if phase == "methods" and c == case and stats.ok:
                rows.append((stats.fastest, name, stats))
            elif phase == "methods" and c == case and stats.not_applicable:
                skipped.append(name.split(" ", 1)[1])
        base = results.get("methods", systems.distfft_name("alltoallw"), case)

        def ratio(value, reference):
            return f"{value / reference:.3g}" if value and reference else "–"
        for _, name, stats in sorted(rows):
            lines.append(f"| {case_cell(case)} | {name.split(' ', 1)[1]} | "
                         f"{milliseconds(stats.fastest)} | "
                         f"{ratio(stats.fastest, base.fastest if base else None)} | "
                         f"{milliseconds(stats.fft)} | {milliseconds(stats.redistribute)} | "
                         f"{ratio(stats.redistribute, base.redistribute if base else None)} | "
                         f"{milliseconds(stats.median)} | {percent(stats.spread)} |")
        for name in sorted(skipped):
            lines.append(f"| {case_cell(case)} | {name} | not applicable (unequal blocks) |"
                         + " |" * (len(head) - 4))
    return lines


def halo_table(results):
    """The halo phase: zero-copy datatypes against pack/unpack."""
    head = ["shape", "P", "datatypes (µs)", "pack (µs)", "datatypes / pack",
            "median datatypes / pack (µs)", "spread datatypes / pack"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for case in results.cases("halo"):
        zero_copy = results.get("halo", systems.HALO_DATATYPES, case)
        packed = results.get("halo", systems.HALO_PACK, case)

        def micro(stats, median=False):
            return "–" if stats is None else f"{(stats.median if median else stats.fastest) * 1e6:.1f}"
        ratio = number(zero_copy.fastest / packed.fastest) if zero_copy and packed else "–"
        lines.append(f"| {'×'.join(map(str, case.shape))} | {case.ranks} | {micro(zero_copy)} | "
                     f"{micro(packed)} | {ratio} | {micro(zero_copy, True)} / "
                     f"{micro(packed, True)} | {percent(zero_copy.spread if zero_copy else None)}"
                     f" / {percent(packed.spread if packed else None)} |")
    return lines


def target_lines(results):
    """The issue's targets at 2 ranks for 128^3 and 256^3, as measured."""
    lines = []
    for case in results.comparison_cases():
        if case.ranks != 2 or case.shape not in ((128,) * 3, (256,) * 3):
            continue
        _, ours = results.ours(case)
        checks = [("≤ 1.0 × FFTW-MPI transposed", results.ratio(case, systems.FFTW_TRANSPOSED), 1.0, "le"),
                  ("≤ 0.85 × mpi4py-fft slab", results.ratio(case, systems.MPI4PY_SLAB), 0.85, "le"),
                  ("parallel efficiency ≥ 0.8", results.efficiency(case, ours), 0.8, "ge")]
        parts = []
        for text, value, bound, sense in checks:
            if value is None:
                parts.append(f"{text}: not measured")
                continue
            met = value <= bound if sense == "le" else value >= bound
            parts.append(f"{text}: {value:.2f} — {'met' if met else '**not met**'}")
        lines.append(f"- {'×'.join(map(str, case.shape))} {case.kind}: " + "; ".join(parts))
    return lines or ["- (no 128³ or 256³ case on 2 ranks in this campaign)"]


def same_round_ratios(a, b):
    """a's fastest pair over b's, round by round (only rounds both ran)."""
    times_b = {run["round"]: run["pair_seconds"] for run in b.runs}
    return [run["pair_seconds"] / times_b[run["round"]] for run in a.runs
            if run["round"] in times_b]


def median_range(values, digits=2, scale=1.0):
    """'median [min–max]' of values (each times scale), '–' if none."""
    if not values:
        return "–"
    values = [value * scale for value in values]
    if len(values) == 1:
        return number(values[0], digits)
    return (f"{number(statistics.median(values), digits)} "
            f"[{number(min(values), digits)}–{number(max(values), digits)}]")


def node_table(results):
    """The node phase: every P x T layout of C cores beside FFTW's threaded
    serial transform on one rank with C threads. Times: median over rounds
    of each run's fastest pair, with the range; ratios: median over rounds
    of the same-round ratio, with the range (the machine drifts between
    rounds; a ratio within one round compares like with like). One row per
    shape, kind, precision and layout; the precision is the case's, or
    (results of campaigns before cases carried one) what the programs
    printed."""
    rows = {}
    for (phase, name, case), stats in results.stats.items():
        if phase == "node" and stats.ok:
            base, threads = systems.split_threads(name)
            precision = case.precision or stats.runs[0].get("precision", "?")
            rows.setdefault((case.shape, case.kind, precision), {})[(base, case.ranks, threads)] = stats
    head = ["shape kind", "precision", "C = P × T", "rounds", "distfft (ms)", "FFTW-MPI transposed (ms)",
            "serial FFTW threaded (ms)", "distfft / serial threaded",
            "distfft / FFTW-MPI", "FFTW-MPI / serial threaded"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def ms(stats):
        return median_range([run["pair_seconds"] for run in stats.runs], 3 if stats.fastest < 0.01
                            else 1, 1e3) if stats else "–"

    def ratio(a, b):
        return median_range(same_round_ratios(a, b)) if a and b else "–"
    for (shape, kind, precision), found in sorted(rows.items(),
                                                  key=lambda item: (len(item[0][0]), item[0])):
        layouts = sorted({(p * t, p, t) for (base, p, t) in found if base != systems.SERIAL_THREADED})
        for cores, ranks, threads in layouts:
            floor = found.get((systems.SERIAL_THREADED, 1, cores))
            ours = next((s for (base, p, t), s in found.items()
                         if base.startswith("distfft ") and (p, t) == (ranks, threads)), None)
            fftw = found.get((systems.FFTW_TRANSPOSED, ranks, threads))
            count = len(ours.runs) if ours else 0
            lines.append(f"| {'×'.join(map(str, shape))} {kind} | {precision} | "
                         f"{cores} = {ranks} × {threads} | "
                         f"{count} | {ms(ours)} | {ms(fftw)} | {ms(floor)} | "
                         f"{ratio(ours, floor)} | {ratio(ours, fftw)} | {ratio(fftw, floor)} |")
    return lines


def write(path, results, header_lines, preset, skipped):
    lines = list(header_lines)
    if results.cases("comparison"):
        lines += ["", "## distfft against the peers", "",
                  "Fastest forward+backward pair in milliseconds (the paper's number: "
                  f"fastest of {preset.outer} repetitions × {preset.rounds} interleaved rounds, "
                  f"each repetition {preset.inner} pairs timed together, max over ranks). "
                  "Ratios below 1 mean distfft is faster.", ""]
        lines += comparison_table(results)
        lines += ["", "## Targets of issue 7 (benchmarks, not tests)", ""]
        lines += target_lines(results)
        lines += ["", "## Parallel efficiency", "",
                  "T_serial / (P · T_P); T_serial is serial FFTW (fftw-mpi-bench "
                  "--layout serial: plain fftw_plan_dft / r2c on one core) for the same "
                  "global transform. Values above 1 on one rank mean the system's plan "
                  "beat the plain serial plan (planner noise, or a different algorithm).", ""]
        lines += efficiency_table(results)
        lines += ["", "## Median and spread (how noisy the machine was)", ""]
        lines += noise_table(results)
    if results.cases("methods"):
        lines += ["", "## distfft's redistribution methods", "",
                  "Fastest pair per method, with its split into serial FFTs and "
                  "redistribution (distfft's own timers, max over ranks), and each over "
                  "alltoallw's (the paper's subarray MPI_Alltoallw)"
                  + ("; the fastest method was then measured against the peers."
                     if results.cases("comparison") else "."), ""]
        lines += methods_table(results)
    if any(phase == "node" for (phase, _, _) in results.stats):
        lines += ["", "## One node: P ranks × T threads", "",
                  "C cores used as P ranks × T threads "
                  "(distfft-bench and fftw-mpi-bench --threads T), beside FFTW's threaded "
                  "serial transform on one rank with all of them as threads (fftw-mpi-bench "
                  "--layout serial --threads C), each rank given T cores (Open MPI: "
                  "--map-by slot:PE=T --bind-to core). Times in milliseconds: the median over "
                  "rounds of each run's fastest pair, [fastest–slowest round]; ratios: the "
                  "median over rounds of the same-round ratio, [range]; below 1 the first "
                  "is faster.", ""]
        lines += node_table(results)
    if results.cases("halo"):
        lines += ["", "## Halo exchange: zero-copy datatypes against pack/unpack", "",
                  "One exchange of a real double array, width 1 on every side, periodic, "
                  "slab blocks (examples/halo_timing.c --variant V --json): fastest of "
                  f"{10 * preset.outer} exchanges per run (each the slowest rank's, a "
                  f"barrier before each) over {preset.rounds} interleaved rounds.", ""]
        lines += halo_table(results)
    if skipped:
        lines += ["", "## Skipped", ""]
        lines += [f"- {case.label()}: does not fit in memory here" for case in skipped]
    failures = results.failures()
    if failures:
        lines += ["", "## Failed runs", ""]
        for (phase, system, case), errors in failures:
            lines.append(f"- {phase} {system} {case.label()}: {len(errors)} × {errors[0]}")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
