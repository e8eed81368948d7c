"""
test_mpi4py_fft.py -- interoperability with mpi4py-fft (2.0.6 from
PyPI in .venv, else Debian's 2.0.4; scripts/common.sh): the same global array transformed by mpi4py_fft.PFFT
and by distfft on the same process grid gives the same local blocks at the
same global slices on every rank, forward and backward. mpi4py-fft's
forward divides by N by default: that is distfft's norm="forward".
"""
import ctypes

import numpy
import pytest

import distfft
from helpers import random_global, tolerance

mpi4py_fft = pytest.importorskip("mpi4py_fft")


@pytest.mark.parametrize("dtype", [numpy.complex128, numpy.float64, numpy.float32],
                         ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("shape,pfft_grid", [((8, 9, 10), (-1,)), ((8, 9, 10), None),
                                             ((7, 6, 5, 4), None), ((12, 10), None)], ids=str)
def test_same_blocks_as_pfft(comm, shape, pfft_grid, dtype):
    pfft = mpi4py_fft.PFFT(comm, shape, axes=tuple(range(len(shape))), dtype=dtype,
                           grid=pfft_grid)
    grid = tuple(s.Get_size() for s in pfft.subcomm)[:len(shape) - 1]
    u_global = random_global(shape, dtype, seed=31)

    u = mpi4py_fft.newDistArray(pfft, False)
    u[...] = u_global[pfft.local_slice(False)]
    theirs = pfft.forward(u).copy()
    theirs_back = pfft.backward(theirs).copy()

    with distfft.Plan(comm, shape, dtype=dtype, grid=grid, norm="forward") as plan:
        ours = plan.forward(u_global[plan.input_slice])
        ours_back = plan.backward(ours)
    pfft.destroy()

    assert plan.input_slice == pfft.local_slice(False)
    assert plan.output_slice == pfft.local_slice(True)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    scale = float(numpy.max(numpy.abs(u_global)))
    bound = tolerance(dtype, int(numpy.prod(shape))) * scale
    assert ours.size == 0 or numpy.max(numpy.abs(ours - theirs)) <= bound
    assert ours.size == 0 or numpy.max(numpy.abs(ours_back - theirs_back)) <= bound


def test_fftw_planner_survives_another_library_asking_for_threads(comm):
    """FFTW 3.3.10's fftw_plan_with_nthreads, which mpi4py-fft calls when it
    plans, runs fftw_cleanup() if FFTW's threads support is not initialised
    -- freeing the planner under existing distfft plans (a crash at 128^3).
    `import distfft` initialises it; fftw_cleanup would also drop FFTW's
    wisdom, which is what this test watches."""
    fftw = ctypes.CDLL("libfftw3.so.3")
    fftw.fftw_export_wisdom_to_string.restype = ctypes.c_void_p
    libc = ctypes.CDLL(None)
    libc.free.argtypes = [ctypes.c_void_p]

    def wisdom():
        pointer = fftw.fftw_export_wisdom_to_string()
        text = ctypes.string_at(pointer).decode()
        libc.free(pointer)
        return text

    with distfft.Plan(comm, (8, 8, 8), grid="slab", method="alltoallw") as plan:
        before = wisdom()
        ctypes.CDLL("libfftw3_threads.so.3").fftw_plan_with_nthreads(1)
        after = wisdom()
        plan.forward(plan.input_array())
    assert "fftw_codelet" in before or len(before) > 40
    assert after == before
