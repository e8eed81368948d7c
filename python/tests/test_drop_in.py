"""
test_drop_in.py -- distfft.mpi4py_fft against mpi4py-fft itself (2.0.6 from
PyPI in .venv, else Debian's 2.0.4; scripts/common.sh): the same program with either library gives the same
blocks on the same ranks, the same spectral shapes and dtypes, and the same
numbers with every normalize flag, forward and backward; slab and pencil,
real and complex, uneven shapes, collapse, subsets of axes, transforms=,
padding (the halved axis with N//2 + 1 even and odd).
Then a whole mpi4py-fft program whose import line alone is rewritten, the
arrays' methods (get, redistribute, HDF5 files both ways), and the
arguments that are refused, which must raise on every rank (a serial
function that is no planner fails as in mpi4py-fft: TypeError).
"""
import functools

import numpy
import pytest

from helpers import random_global, tolerance

mpi4py_fft = pytest.importorskip("mpi4py_fft")
import mpi4py_fft.fftw as planners   # noqa: E402
import scipy.fft                     # noqa: E402
import scipy.fftpack                 # noqa: E402

import distfft.mpi4py_fft as drop_in  # noqa: E402


def _pairs(module, family, kind_type, axes):
    forward, backward = getattr(module, family + "n"), getattr(module, "i" + family + "n")
    if kind_type is None:
        return {(a,): (forward, backward) for a in axes}
    return {(a,): (functools.partial(forward, type=kind_type),
                   functools.partial(backward, type=kind_type)) for a in axes}


CASES = [
    ((8, 9, 10), numpy.float64, {}),
    ((8, 9, 10), numpy.complex128, {}),
    ((8, 9, 10), numpy.float64, {"grid": (-1,)}),
    ((7, 6, 5, 4), numpy.float64, {}),
    ((7, 6, 5, 4), numpy.complex64, {"grid": (-1,)}),
    ((12, 10), numpy.complex128, {}),
    ((11, 13), numpy.float32, {}),
    ((8, 9, 10), numpy.float64, {"collapse": True}),
    ((8, 9, 10), numpy.complex128, {"collapse": True, "grid": (-1,)}),
    ((6, 5, 4, 7), numpy.float64, {"collapse": True}),
    ((6, 5, 4, 7), numpy.complex128, {"collapse": True, "grid": (-1,)}),
    ((9, 8, 7), numpy.complex128, {"axes": (1, 2)}),
    ((9, 8, 7), numpy.float64, {"axes": (0, 1)}),
    ((8, 9, 10), numpy.float64, {"slab": True}),
    ((8, 9, 10), numpy.float64, {"grid": (1, -1)}),
    ((8, 9, 10), numpy.float64, {"transforms": _pairs(planners, "dct", 2, (0, 1, 2))}),
    ((7, 9, 6), numpy.float64, {"transforms": {**_pairs(planners, "dct", 1, (0,)),
                                               **_pairs(planners, "dst", 1, (1,)),
                                               **_pairs(planners, "dct", 4, (2,))}}),
    ((8, 9, 10), numpy.float64, {"transforms": _pairs(planners, "dst", 3, (0, 1, 2)),
                                 "grid": (-1,)}),
    ((8, 9, 10), numpy.float64, {"backend": "numpy",
                                 "transforms": _pairs(scipy.fft, "dct", 2, (0,))}),
    ((8, 9, 10), numpy.float64, {"backend": "numpy",
                                 "transforms": _pairs(scipy.fft, "dst", 4, (0, 1))}),
    ((8, 9, 10), numpy.float64, {"backend": "scipy",
                                 "transforms": _pairs(scipy.fftpack, "dct", 3, (0, 1, 2))}),
    ((8, 9, 10), numpy.complex128, {"backend": "numpy"}),
    ((8, 9, 10), numpy.complex128, {"backend": "scipy"}),
    # padding: the halved axis with N0 = N//2 + 1 even (10), odd (12: mpi4py-fft
    # keeps the last mode whole) and N odd with N0 even (7: it halves it)
    ((8, 9, 10), numpy.float64, {"padding": [1.5, 1.5, 1.5]}),
    ((8, 9, 12), numpy.float64, {"padding": [1.5, 1.5, 1.5]}),
    ((6, 7, 7), numpy.float64, {"padding": [1.5, 2.0, 1.5], "grid": (-1,)}),
    ((8, 9, 10), numpy.complex128, {"padding": [1.5, 1.5, 1.5]}),
    ((8, 9, 10), numpy.float64, {"padding": [1.0, 1.5, 1.0]}),
    ((12, 10), numpy.complex64, {"padding": [1.5, 1.0], "grid": (-1,)}),
    ((8, 9, 10), numpy.float64, {"padding": [1.5, 1.5, 1.5], "backend": "numpy"}),
    # real-to-complex on an axis before others (issue 23): one plan, which
    # transforms the r2c axis first and the others from the highest down,
    # as mpi4py-fft does for these axes
    ((8, 9, 10), numpy.float64, {"axes": (0, 2, 1)}),
    ((9, 8), numpy.float64, {"axes": (-1, -2)}),
    ((8, 9, 10), numpy.float64, {"axes": (1, 2, 0)}),
    ((7, 9, 5), numpy.float32, {"axes": (1, 2, 0), "slab": True}),
    ((7, 9, 5, 4), numpy.float64, {"axes": (0, 2, 3, 1)}),
    ((8, 9, 7), numpy.float64, {"axes": (0, 2, 1), "padding": [1.5, 1.5, 1.5]}),
    # run as mpi4py-fft's chain (one distfft plan cannot): axes in another
    # order than the plan's, real-to-complex after a real-to-real group
    ((7, 6, 5), numpy.float64, {"axes": (2, 0, 1)}),
    ((7, 6, 5), numpy.float64, {"axes": (1, 0, 2), "grid": (1, -1)}),
    ((8, 9, 10), numpy.float64, {"transforms": _pairs(planners, "dct", 2, (2,))}),
    ((8, 9, 10), numpy.complex128, {"padding": [1.5, 1.0, 1.0],
                                    "transforms": _pairs(planners, "fft", None, (0,))}),
]


def _run(library, comm, shape, dtype, kw):
    """One program: plan, fill from the same global array, transform with
    every normalize flag. Returns the metadata and the four results."""
    fft = library.PFFT(comm, shape, dtype=dtype, **kw)
    u = library.newDistArray(fft, False)
    u[...] = random_global(fft.global_shape(False), dtype, seed=7)[u.local_slice()]
    results = [fft.forward(u).copy(), fft.forward(u, normalize=False).copy()]
    u_hat = library.newDistArray(fft, True)
    u_hat[...] = results[0]
    results += [fft.backward(u_hat).copy(), fft.backward(u_hat, normalize=True).copy()]
    meta = {"slices": (fft.local_slice(False), fft.local_slice(True)),
            "shapes": (fft.shape(False), fft.shape(True)),
            "global": (fft.global_shape(False), fft.global_shape(True)),
            "dtypes": (fft.dtype(False), fft.dtype(True)), "axes": fft.axes,
            "arrays": (u.global_shape, u.substart, u.alignment, u_hat.global_shape,
                       u_hat.substart, u_hat.alignment, u_hat.dtype)}
    fft.destroy()
    return meta, results


def _assert_close(theirs, ours, dtype, n):
    for a, b in zip(theirs, ours):
        assert a.shape == b.shape and a.dtype == b.dtype
        if a.size:
            scale = max(float(numpy.max(numpy.abs(a))), 1e-300)
            error = float(numpy.max(numpy.abs(a - b))) / scale
            assert error <= tolerance(dtype, n), error


@pytest.mark.parametrize("shape,dtype,kw", CASES,
                         ids=[f"{s}-{numpy.dtype(d).name}-{sorted(k)}" for s, d, k in CASES])
def test_same_as_mpi4py_fft(comm, shape, dtype, kw):
    theirs_meta, theirs = _run(mpi4py_fft, comm, shape, dtype, kw)
    ours_meta, ours = _run(drop_in, comm, shape, dtype, kw)
    assert ours_meta == theirs_meta
    _assert_close(theirs, ours, dtype, int(numpy.prod(shape)))


@pytest.mark.parametrize("axes,plan", [((1, 2, 0), True), ((0, 2, 1), True), ((1, 0), True),
                                       ((2, 0, 1), False), ((1, 0, 2), False)], ids=str)
def test_r2c_axis_order_picks_the_engine(comm, axes, plan):
    """One plan where its transform order (r2c axis first, then the others
    from the highest down) is mpi4py-fft's, reverse `axes`; else the chain."""
    shape = (7, 6, 5)[:len(axes)]
    fft = drop_in.PFFT(comm, shape, axes=axes, dtype=numpy.float64)
    try:
        assert (fft.distfft_plan is not None) == plan
        if plan:
            assert fft.distfft_plan.kinds[axes[-1]] == "r2c"
    finally:
        fft.destroy()


PROGRAM = """
import numpy as np
from mpi4py import MPI
from mpi4py_fft import PFFT, newDistArray

N = np.array([12, 10, 9], dtype=int)
fft = PFFT(MPI.COMM_WORLD, N, axes=(0, 1, 2), dtype=np.float64, grid=GRID)
u = newDistArray(fft, False)
x = [np.arange(n)[s] * 2 * np.pi / n for n, s in zip(N, u.local_slice())]
u[:] = np.sin(x[0])[:, None, None] * np.cos(2 * x[1])[None, :, None] + x[2][None, None, :]
u_hat = fft.forward(u)
K = [np.fft.fftfreq(n, 1.0 / n) for n in N[:-1]] + [np.fft.rfftfreq(N[-1], 1.0 / N[-1])]
k2 = sum(np.asarray(k[s]).reshape([-1 if i == j else 1 for j in range(3)]) ** 2
         for i, (k, s) in enumerate(zip(K, fft.local_slice(True))))
u_hat *= -k2
lap = np.zeros_like(u)
lap = fft.backward(u_hat, lap)
total = MPI.COMM_WORLD.allreduce(float(np.sum(lap ** 2)))
vector = newDistArray(fft, True, rank=1)
vector[0] = u_hat
result = (u.local_slice(), fft.local_slice(True), lap.copy(), total, vector.shape,
          vector.global_shape, type(vector[0]).__name__)
fft.destroy()
"""


@pytest.mark.parametrize("grid", ["None", "(-1,)"])
def test_program_with_its_import_line_rewritten(comm, grid):
    text = PROGRAM.replace("GRID", grid)
    ours = text.replace("from mpi4py_fft import PFFT, newDistArray",
                        "from distfft.mpi4py_fft import PFFT, newDistArray")
    assert ours != text and ours.replace("distfft.mpi4py_fft", "mpi4py_fft") == text
    theirs_space, ours_space = {}, {}
    exec(compile(text, "mpi4py_fft_program", "exec"), theirs_space)
    exec(compile(ours, "distfft_program", "exec"), ours_space)
    theirs, mine = theirs_space["result"], ours_space["result"]
    assert mine[:2] == theirs[:2] and mine[4:] == theirs[4:]
    _assert_close([theirs[2]], [mine[2]], numpy.float64, 1080)
    assert abs(mine[3] - theirs[3]) <= 1e-10 * abs(theirs[3])


def test_transform_objects_keep_mpi4py_fft_semantics(comm):
    fft = drop_in.PFFT(comm, (8, 6, 5), dtype=numpy.complex128)
    reference = mpi4py_fft.PFFT(comm, (8, 6, 5), dtype=numpy.complex128)
    data = random_global((8, 6, 5), numpy.complex128, seed=3)
    for f in (fft, reference):
        f.forward.input_array[...] = data[f.local_slice(False)]
    ours, theirs = fft.forward(), reference.forward()
    assert ours is fft.forward.output_array          # its own array, every call
    _assert_close([theirs], [ours], numpy.complex128, 240)
    out = numpy.zeros(fft.shape(True), dtype=numpy.complex128)
    assert fft.forward(fft.forward.input_array, out) is out
    back = fft.backward(out.astype(numpy.complex128))
    assert numpy.allclose(back, data[fft.local_slice(False)])
    # an input of another dtype is converted, as mpi4py-fft's copy does
    real_input = data.real[fft.local_slice(False)]
    assert numpy.allclose(fft.forward(real_input),
                          reference.forward(real_input.astype(numpy.complex128)))
    fft.destroy()
    reference.destroy()


def test_distarray_methods(comm, shared_tmp_path):
    shape = (9, 8, 7)
    fft = drop_in.PFFT(comm, shape, dtype=numpy.float64)
    u = drop_in.newDistArray(fft, False, val=2.5)
    assert numpy.all(u == 2.5)
    data = random_global(shape, numpy.float64, seed=5)
    u[...] = data[u.local_slice()]
    got = u.get((slice(None), 3, slice(None)))
    if comm.Get_rank() == 0:
        assert numpy.array_equal(got, data[:, 3, :])
    else:
        assert got is None
    moved = u.redistribute(0)
    assert moved.alignment == 0 and moved.global_shape == shape
    assert numpy.array_equal(moved, data[moved.local_slice()])
    back = moved.redistribute(out=drop_in.newDistArray(fft, False))
    assert numpy.array_equal(back, data[back.local_slice()])
    vector = drop_in.newDistArray(fft, False, rank=1)
    assert vector.rank == 1 and vector.global_shape == (3,) + shape
    assert isinstance(vector[0], drop_in.DistArray) and vector[0].rank == 0
    assert isinstance(drop_in.newDistArray(fft, False, view=True), numpy.ndarray)

    # files: ours read by mpi4py-fft and theirs by ours
    path = f"{shared_tmp_path}/drop_in.h5"
    u.write(path, "u", 0)
    reference = mpi4py_fft.PFFT(comm, shape, dtype=numpy.float64)
    theirs = mpi4py_fft.newDistArray(reference, False)
    theirs.read(path, "u", 0)
    assert numpy.array_equal(theirs, data[theirs.local_slice()])
    theirs[:] *= 2
    theirs.write(path, "v", 1)
    mine = drop_in.newDistArray(fft, False)
    mine.read(path, "v", 1)
    assert numpy.array_equal(mine, 2 * data[mine.local_slice()])
    snapshots = drop_in.HDF5File(f"{shared_tmp_path}/snapshots.h5", mode="w")
    snapshots.write(3, {"w": [mine], "vec": [vector]})
    theirs.read(f"{shared_tmp_path}/snapshots.h5", "w", 3)
    assert numpy.array_equal(theirs, 2 * data[theirs.local_slice()])
    snapshots.write(4, {"w": [(mine, (slice(None), 2, slice(None)))]})
    plane = mpi4py_fft.HDF5File(f"{shared_tmp_path}/snapshots.h5", mode="r")
    plane.open()
    assert numpy.array_equal(plane.f["w/2D/slice_2_slice/4"][...], 2 * data[:, 2, :])
    plane.close()
    assert drop_in.Function(fft, False, tensor=True).rank == 1
    reference.destroy()
    fft.destroy()


REFUSED = [
    ({"padding": [1.5, 1.5]}, ValueError),
    ({"padding": [1.0, 1.5, 1.0], "axes": ((0, 1), (2,))}, ValueError),
    ({"backend": "cufft"}, ValueError),
    ({"transforms": _pairs(scipy.fft, "dct", 2, (0,))}, ValueError),   # scipy with 'fftw'
    ({"threads": 2, "planner_effort": "FFTW_SOMETIMES"}, ValueError),
    ({"unknown_option": 1}, TypeError),
    ({"grid": (1, 1, 2)}, ValueError),
]


@pytest.mark.parametrize("kw,error", REFUSED, ids=[str(sorted(k)) for k, _ in REFUSED])
def test_refused_on_every_rank(comm, kw, error):
    with pytest.raises(error, match="distfft.mpi4py_fft"):
        drop_in.PFFT(comm, (8, 9, 10), dtype=numpy.float64, **kw)


def test_what_mpi4py_fft_cannot_run_fails_as_there(comm):
    with pytest.raises(TypeError):   # not a planner
        drop_in.PFFT(comm, (8, 9, 10), dtype=numpy.float64,
                     transforms={(0,): (lambda x: x, lambda x: x)})
    with pytest.raises(AssertionError):   # a DCT of the complex data after rfftn
        drop_in.PFFT(comm, (8, 9, 10), dtype=numpy.float64, padding=[1.5, 1.0, 1.0],
                     transforms=_pairs(planners, "dct", 2, (0,)))


def test_bad_calls_raise_on_every_rank(comm):
    fft = drop_in.PFFT(comm, (8, 9, 10), dtype=numpy.float64)
    u = drop_in.newDistArray(fft, False)
    with pytest.raises(TypeError, match="normalize"):
        fft.forward(u, scale=2)
    # one rank passing an array of the wrong shape: every rank raises
    bad = u if comm.Get_rank() else numpy.zeros((1, 2, 3))
    with pytest.raises(ValueError):
        fft.forward(bad)
    fft.forward(u)   # and the plan still works
    fft.destroy()
