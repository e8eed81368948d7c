"""systems.py -- how each measured program is run.

A system is one program in one configuration: distfft-bench with one
--method, fftw-mpi-bench in natural or transposed layout (or serial FFTW on
one rank: the compute floor), mpi4py_fft_bench.py in slab or pencil mode.
Every one gets the same shape, kind, precision, planning rigour and timing
options, runs under the same mpiexec, and prints one JSON line with the same
field names (pair_seconds, pair_seconds_median, fft_seconds, ...).
"""
import dataclasses
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(os.path.dirname(HERE), "peers")

# OpenMPI refuses to run as root and to oversubscribe unless told (as in
# scripts/common.sh); harmless for other MPIs.
MPI_ENVIRONMENT = {"OMPI_ALLOW_RUN_AS_ROOT": "1",
                   "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                   "OMPI_MCA_rmaps_base_oversubscribe": "1",
                   "OMPI_MCA_mpi_yield_when_idle": "1"}

SERIAL = "serial FFTW"
FFTW_TRANSPOSED = "FFTW-MPI transposed"
FFTW_NATURAL = "FFTW-MPI natural"
MPI4PY_SLAB = "mpi4py-fft slab"
MPI4PY_PENCIL = "mpi4py-fft pencil"
PEER_NAMES = [FFTW_TRANSPOSED, FFTW_NATURAL, MPI4PY_SLAB, MPI4PY_PENCIL]
# FFTW's threaded serial transform on one rank (fftw-mpi-bench --layout
# serial --threads T): the node phase's baseline.
SERIAL_THREADED = "serial FFTW threaded"
# One halo exchange (examples/halo_timing.c), by distfft_halo variant.
HALO_DATATYPES = "halo datatypes"
HALO_PACK = "halo pack"
HALO_SYSTEMS = [HALO_DATATYPES, HALO_PACK]


def threaded(system, threads):
    """The system run with `threads` threads per rank: "NAME T=threads"."""
    return f"{system} T={threads}"


def split_threads(system):
    """(name, threads) of a system name (threads 1 without " T=")."""
    if " T=" in system:
        name, threads = system.rsplit(" T=", 1)
        return name, int(threads)
    return system, 1


def distfft_name(method):
    return f"distfft {method}"


@dataclasses.dataclass
class Tools:
    build: str        # CMake build folder with bin/distfft-bench
    mpiexec: str
    python: str       # a Python with mpi4py-fft for the same MPI

    def program(self, name):
        return os.path.join(self.build, "bin", name)

    def distfft_methods(self):
        """distfft's redistribution methods for host memory as the library
        lists them (distfft-bench --list-methods; staged, nccl and cuda-ipc,
        which move device memory only, left out), then auto. RuntimeError if
        distfft-bench cannot say."""
        command = [self.mpiexec, "-n", "1", self.program("distfft-bench"), "--list-methods"]
        try:
            finished = subprocess.run(command, capture_output=True, text=True, timeout=120,
                                      env=dict(os.environ, **MPI_ENVIRONMENT))
        except (OSError, subprocess.SubprocessError) as problem:
            raise RuntimeError(f"{' '.join(command)}: {problem}") from problem
        names = finished.stdout.split()
        if finished.returncode != 0 or not names:
            raise RuntimeError(f"{' '.join(command)} failed (exit status "
                               f"{finished.returncode}): {finished.stderr.strip()[:300]}")
        return [name for name in names if name not in ("staged", "nccl", "cuda-ipc")] + ["auto"]

    def missing(self, programs=("distfft-bench", "fftw-mpi-bench")):
        """What cannot run here, as a list of messages."""
        problems = []
        for name in programs:
            if not os.access(self.program(name), os.X_OK):
                problems.append(f"{self.program(name)} is not built")
        if shutil.which(self.mpiexec) is None:
            problems.append(f"no {self.mpiexec}")
        if not os.access(self.python, os.X_OK):
            problems.append(f"no {self.python}")
        return problems


def common_arguments(case, preset):
    """The options every program takes alike; the precision is the case's
    where it has one (the node phase's), else the preset's."""
    shape = "x".join(str(n) for n in case.shape)
    return ["--shape", shape, "--kind", case.kind,
            "--precision", case.precision or preset.precision, "--rigor", preset.rigor,
            "--inner", str(preset.inner), "--outer", str(preset.outer),
            "--json"]


def binding(tools, ranks, threads):
    """mpiexec options giving each of `ranks` ranks `threads` cores.

    Open MPI binds every rank to ONE core when there are at most 2 ranks
    (and to a socket beyond): a rank's threads would then share a core, and
    beyond 2 ranks a rank may move between the socket's cores. Each rank gets
    its own `threads` cores (--map-by slot:PE=T --bind-to core; T = 1: one
    core each), or no binding where the cores do not suffice. MPICH's
    mpiexec binds nothing unless asked. Threads are left to move inside
    their rank's cores: OMP_PROC_BIND or OMP_PLACES would make libgomp pin
    the main thread to one core as it loads, and FFTW's threads (pthreads,
    created by it) would inherit that one core."""
    if "mpich" in os.path.basename(tools.mpiexec):
        return []
    if ranks * threads <= (os.cpu_count() or 1):
        if threads_per_core() > 1:
            # Hyper-threads: Open MPI counts cores, the campaign logical CPUs.
            return ["--use-hwthread-cpus", "--map-by", f"slot:PE={threads}",
                    "--bind-to", "hwthread"]
        return ["--map-by", f"slot:PE={threads}", "--bind-to", "core"]
    return ["--bind-to", "none"]


def threads_per_core():
    """Hardware threads of CPU 0's core (1 where Linux does not say)."""
    try:
        with open("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list") as siblings:
            count = 0
            for part in siblings.read().strip().split(","):
                low, _, high = part.partition("-")
                count += int(high or low) - int(low) + 1
            return max(count, 1)
    except (OSError, ValueError):
        return 1


def command(tools, system, case, preset):
    """The command line running `system` on `case` (ranks included)."""
    threads = split_threads(system)[1] if system not in HALO_SYSTEMS else 1
    launch = [tools.mpiexec, "-n", str(case.ranks)] + binding(tools, case.ranks, threads)
    if system in HALO_SYSTEMS:
        return launch + [tools.program("halo_timing"), "--shape",
                         "x".join(str(n) for n in case.shape), "--grid", "1", "--width", "1",
                         "--repeat", str(10 * preset.outer), "--variant",
                         system.split(" ", 1)[1], "--json"]
    arguments = common_arguments(case, preset)
    system, threads = split_threads(system)
    if threads > 1 or system == SERIAL_THREADED:
        arguments += ["--threads", str(threads)]
    if system.startswith("distfft "):
        method = system.split(" ", 1)[1]
        if preset.model:
            arguments += ["--model", preset.model]
            if method == "auto" and preset.tune_budget:
                arguments += ["--tune-budget", str(preset.tune_budget)]
        return launch + [tools.program("distfft-bench"), "--method", method] + arguments
    layouts = {SERIAL: "serial", SERIAL_THREADED: "serial", FFTW_TRANSPOSED: "transposed",
               FFTW_NATURAL: "natural"}
    if system in layouts:
        return launch + [tools.program("fftw-mpi-bench"), "--layout",
                         layouts[system]] + arguments
    modes = {MPI4PY_SLAB: "slab", MPI4PY_PENCIL: "pencil"}
    if system in modes:
        return launch + [tools.python, os.path.join(PEERS, "mpi4py_fft_bench.py"),
                         "--mode", modes[system]] + arguments
    raise ValueError(f"unknown system '{system}'")
