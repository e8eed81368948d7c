"""presets.py -- what a campaign measures.

A campaign is a list of cases (global shape, kind, rank count) and two
phases over them:
  methods     distfft with every redistribution method (and auto) on the
              parallel cases chosen for the breakdown -- the methods are
              the library's, asked of distfft-bench --list-methods when
              the campaign starts (Preset.methods None) -- fft vs redistribute
              time per method, and distfft's best method per case;
  comparison  distfft (its best method from the first phase) beside
              FFTW-MPI (natural, transposed) and mpi4py-fft (slab, pencil),
              plus the serial FFTW floor once per shape and kind;
  node        one node's cores C used every way: distfft and FFTW-MPI
              (transposed) at every P ranks x T threads with P T = C, beside
              FFTW's threaded serial transform with C threads on one rank
              (the single-node baseline); in each of node_precisions (double,
              and float with --precisions double,float: fftwf, fftwf_mpi);
  halo        one halo exchange of a distributed real array (width 1,
              periodic, slab blocks), zero-copy datatypes against
              pack/unpack (paper 004; examples/halo_timing.c).
The `methods` preset runs the methods and halo phases only, on shapes where
every method applies (the vector method needs equal blocks): the campaign
of issue 14, also under MPICH (--mpi mpich), where the peers are not built.
Nothing here assumes a core count: `full` goes up to the machine's cores,
`scaling` takes the rank counts and sizes it is given.
"""
import dataclasses
import os


@dataclasses.dataclass(frozen=True)
class Case:
    shape: tuple
    kind: str
    ranks: int
    precision: str = None   # None: the preset's (every phase but node)

    def label(self):
        precision = f" {self.precision}" if self.precision else ""
        return f"{'x'.join(map(str, self.shape))} {self.kind}{precision} P={self.ranks}"


@dataclasses.dataclass
class Preset:
    name: str
    shapes: list           # list of (shape tuple, kind)
    ranks: list            # rank counts
    rounds: int            # interleaved rounds (A B A B ...)
    outer: int             # repetitions per run (fastest reported)
    inner: int = 3         # forward+backward pairs per repetition
    precision: str = "double"
    rigor: str = "measure"
    methods: list = None   # distfft methods (None: every one the library has, and auto)
    method_shapes: list = None  # shapes for the methods phase (None: all)
    method_rounds: int = None   # rounds of the methods phase (None: rounds)
    one_rank_peers: list = None  # peers also run on 1 rank (None: all)
    node_cores: int = None      # cores of the node phase (None: the machine's; 0: no phase)
    node_shapes: list = None    # shapes of the node phase (None: all)
    node_precisions: list = None  # precisions of the node phase (None: [precision])
    halo_shapes: list = dataclasses.field(default_factory=list)  # shapes of the halo phase
    phases: tuple = ("methods", "comparison", "node", "halo")
    model: str = None           # cost model file given to distfft-bench (--model)
    tune_budget: int = None     # with a model: auto times only the B best candidates


def machine_cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def ranks_up_to(cores):
    """1, 2, 4, ... up to `cores`, and `cores` itself."""
    ranks, count = [], 1
    while count <= cores:
        ranks.append(count)
        count *= 2
    if ranks[-1] != cores:
        ranks.append(cores)
    return ranks


def cube(size, ndims=3):
    return tuple([size] * ndims)


def make(name, ranks=None, sizes=None, kinds=None):
    """The preset `name`; `ranks`, `sizes` and `kinds` override its lists."""
    cores = machine_cores()
    if name == "smoke":
        preset = Preset("smoke", [(cube(16), "c2c")], [1, 2], rounds=1,
                        outer=2, inner=1, rigor="estimate",
                        methods=["alltoallw", "alltoallv"], node_cores=2,
                        halo_shapes=[cube(16)])
    elif name == "quick":
        preset = Preset("quick",
                        [(cube(n), kind) for n in (64, 128) for kind in ("c2c", "r2c")],
                        [1, 2], rounds=3, outer=4, method_rounds=1)
        preset.method_shapes = [(cube(128), "c2c"), (cube(128), "r2c")]
        # On one rank FFTW-MPI's layouts and mpi4py-fft's modes differ only
        # in serial work; the minutes go to the parallel cases instead.
        preset.one_rank_peers = ["FFTW-MPI transposed", "mpi4py-fft slab"]
        preset.halo_shapes = [cube(128)]
    elif name == "methods":
        # 64^3 and 128^3 c2c split evenly on 2 and 4 ranks, so the vector
        # method applies; r2c's halved axis (65) splits evenly on no rank
        # count: there vector is not applicable and says so.
        preset = Preset("methods", [(cube(n), kind) for n in (64, 128) for kind in ("c2c", "r2c")],
                        [2], rounds=3, outer=4, phases=("methods", "halo"),
                        halo_shapes=[cube(64), cube(128)])
    elif name == "full":
        shapes = [(cube(n), kind) for n in (64, 128, 256) for kind in ("c2c", "r2c")]
        shapes += [(cube(512), "c2c"), (cube(64, 4), "r2c")]
        preset = Preset("full", shapes, ranks_up_to(cores), rounds=3, outer=10,
                        halo_shapes=[cube(128), cube(256)])
    elif name == "scaling":
        preset = Preset("scaling",
                        [(cube(n), kind) for n in (128, 256) for kind in ("c2c", "r2c")],
                        ranks_up_to(cores), rounds=3, outer=10)
        preset.method_shapes = []
    else:
        raise ValueError(f"unknown preset '{name}'")
    kinds_wanted = kinds or sorted({kind for _, kind in preset.shapes})
    if sizes:
        preset.shapes = [(cube(n), kind) for n in sizes for kind in kinds_wanted]
        preset.method_shapes = None if name != "scaling" else []
        preset.halo_shapes = [cube(n) for n in sizes] if preset.halo_shapes else []
    elif kinds:
        preset.shapes = [(shape, kind) for shape, kind in preset.shapes if kind in kinds]
    if ranks:
        preset.ranks = sorted(set(ranks))
    if preset.node_cores is None:
        preset.node_cores = cores
    return preset


def layouts(cores):
    """Every (ranks, threads) with ranks * threads == cores, ranks rising."""
    return [(p, cores // p) for p in range(1, cores + 1) if cores % p == 0]
