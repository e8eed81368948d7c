"""
test_fft.py -- the issue's "done when": on every rank,
plan.forward(u[plan.input_slice]) == numpy.fft.fftn(u)[plan.output_slice]
(rfftn for real input) for random global arrays, on awkward shapes (primes,
sizes not divisible by the ranks, more ranks than points), slab, pencil and
explicit grids, in both precisions; and backward brings u back.
"""
import numpy
import pytest
from mpi4py import MPI

import distfft
from helpers import check_block, random_global

SHAPES = [(7, 5, 3), (13, 11), (2, 3, 5), (6, 4, 2, 3), (17, 1, 4)]
DTYPES = [numpy.complex128, numpy.complex64, numpy.float64, numpy.float32]


def grids(shape, size):
    result = [None, "slab"]
    if len(shape) >= 3:
        result.append("pencil")
    result.append((size,))
    if len(shape) >= 3:
        result.append((1, size))   # a "pencil" grid with one direction of extent 1
    return result


def cases():
    """Every shape on every grid; both precisions and both input kinds on
    the automatic grid and slabs, one of each precision on the others."""
    size = MPI.COMM_WORLD.Get_size()
    for shape in SHAPES:
        for grid in grids(shape, size):
            dtypes = DTYPES if grid in (None, "slab") else [numpy.complex128, numpy.float32]
            for dtype in dtypes:
                yield shape, grid, dtype


@pytest.mark.parametrize("shape,grid,dtype", list(cases()),
                         ids=lambda x: numpy.dtype(x).name if isinstance(x, type) else str(x))
def test_forward_matches_numpy(comm, shape, grid, dtype):
    u = random_global(shape, dtype, seed=sum(shape))
    reference = numpy.fft.rfftn(u) if numpy.dtype(dtype).kind == "f" else numpy.fft.fftn(u)
    with distfft.Plan(comm, shape, dtype=dtype, grid=grid, rigor="estimate") as plan:
        assert plan.global_input_shape == shape
        assert plan.global_output_shape == reference.shape
        u_hat = plan.forward(u[plan.input_slice])
        back = plan.backward(u_hat)
        gathered = u_hat.gather(root=0)
    n = int(numpy.prod(shape))
    check_block(u_hat, reference, plan.output_slice, dtype, n)
    check_block(back, u, plan.input_slice, dtype, n)
    assert u_hat.dtype == plan.output_dtype and back.dtype == numpy.dtype(dtype)
    if comm.Get_rank() == 0:
        check_block(gathered, reference, (), dtype, n)


@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_norms_match_numpy(comm, norm):
    shape = (6, 5, 4)
    u = random_global(shape, numpy.complex128, seed=3)
    with distfft.Plan(comm, shape, norm=norm, rigor="estimate") as plan:
        u_hat = plan.forward(u[plan.input_slice])
        back = plan.backward(u_hat)
    check_block(u_hat, numpy.fft.fftn(u, norm=norm), plan.output_slice, numpy.complex128, 120)
    check_block(back, u, plan.input_slice, numpy.complex128, 120)


def test_axes_subset_matches_numpy(comm):
    shape = (5, 6, 7)
    u = random_global(shape, numpy.float64, seed=4)
    with distfft.Plan(comm, shape, dtype=numpy.float64, axes=(0, 2), rigor="estimate") as plan:
        assert plan.kinds == ("c2c", "none", "r2c")
        u_hat = plan.forward(u[plan.input_slice])
    check_block(u_hat, numpy.fft.rfftn(u, axes=(0, 2)), plan.output_slice, numpy.float64, 35)


@pytest.mark.parametrize("axes", [(1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 0)], ids=str)
@pytest.mark.parametrize("grid", [None, "slab", "pencil"])
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32], ids=["double", "float"])
def test_r2c_on_the_last_of_axes_matches_rfftn(comm, axes, grid, dtype):
    """numpy.fft.rfftn(u, axes=axes): r2c on axes[-1], whichever axis that
    is (issue 23), and the output in natural axis order."""
    shape = (7, 6, 5)
    u = random_global(shape, dtype, seed=6)
    with distfft.Plan(comm, shape, dtype=dtype, axes=axes, grid=grid, rigor="estimate") as plan:
        assert plan.kinds[axes[-1]] == "r2c"
        assert plan.global_output_shape == numpy.fft.rfftn(u, axes=axes).shape
        assert plan.input_alignment == axes[-1]
        u_hat = plan.forward(u[plan.input_slice])
        back = plan.backward(u_hat)
    check_block(u_hat, numpy.fft.rfftn(u.astype(numpy.float64), axes=axes), plan.output_slice, dtype, 210)
    check_block(back, u, plan.input_slice, dtype, 210)


def test_batch_transforms_each_field(comm):
    shape = (7, 6, 5)
    u = random_global((3,) + shape, numpy.complex128, seed=5)
    with distfft.Plan(comm, shape, batch=3, grid="pencil", rigor="estimate") as plan:
        assert plan.input_shape[0] == 3 and plan.global_output_shape == (3,) + shape
        u_hat = plan.forward(u[plan.input_slice])
        back = plan.backward(u_hat)
    reference = numpy.fft.fftn(u, axes=(1, 2, 3))
    check_block(u_hat, reference, plan.output_slice, numpy.complex128, 210)
    check_block(back, u, plan.input_slice, numpy.complex128, 210)


@pytest.mark.parametrize("method", ["auto", "alltoallv", "sendrecv"])
def test_methods_give_the_same_result(comm, method):
    shape = (9, 8, 7)
    u = random_global(shape, numpy.complex128, seed=6)
    with distfft.Plan(comm, shape, method=method, grid="pencil") as plan:
        u_hat = plan.forward(u[plan.input_slice])
        assert len(plan.methods) == len([d for d in plan.grid if d > 1])
        if method != "auto":
            assert set(plan.methods) <= {method}
    check_block(u_hat, numpy.fft.fftn(u), plan.output_slice, numpy.complex128, 504)


def test_input_is_preserved_and_arrays_reused(comm):
    shape = (8, 6, 4)
    with distfft.Plan(comm, shape, dtype=numpy.float64, rigor="estimate") as plan:
        u = plan.input_array()
        u[...] = random_global(shape, numpy.float64)[plan.input_slice]
        saved = u.copy()
        u_hat = plan.output_array()
        result = plan.forward(u, u_hat)
        assert result is u_hat
        assert numpy.array_equal(u, saved)
        out = plan.backward(u_hat, u)
        assert out is u
        check_block(u, saved, (), numpy.float64, 192)


def test_norm_none_is_fftw_convention(comm):
    """norm="none": neither direction scales, backward(forward(u)) = N u."""
    shape = (6, 5, 4)
    u = random_global(shape, numpy.complex128, seed=5)
    with distfft.Plan(comm, shape, norm="none", rigor="estimate") as plan:
        assert plan.norm == "none"
        u_hat = plan.forward(u[plan.input_slice])
        back = plan.backward(u_hat)
    check_block(u_hat, numpy.fft.fftn(u), plan.output_slice, numpy.complex128, 120)
    check_block(back, 120 * u, plan.input_slice, numpy.complex128, 120)


@pytest.mark.parametrize("dtype", [numpy.complex128, numpy.float64, numpy.float32])
def test_threads_match_numpy(comm, dtype):
    """threads=2: FFTW's threaded plans and OpenMP passes give numpy's
    result to the same tolerance (not necessarily the same bits as one
    thread)."""
    shape = (24, 20, 18)
    u = random_global(shape, dtype, seed=6)
    reference = numpy.fft.rfftn(u) if numpy.dtype(dtype).kind == "f" else numpy.fft.fftn(u)
    with distfft.Plan(comm, shape, dtype=dtype, threads=2, rigor="estimate") as plan:
        assert plan.threads == 2
        assert "threads=2" in plan.describe()
        u_hat = plan.forward(u[plan.input_slice])
        back = plan.backward(u_hat)
    n = int(numpy.prod(shape))
    check_block(u_hat, reference, plan.output_slice, dtype, n)
    check_block(back, u, plan.input_slice, dtype, n)


@pytest.mark.parametrize("threads", [0, -1, 4097, 1.5])
def test_bad_threads_refused(comm, threads):
    with pytest.raises(ValueError, match="threads"):
        distfft.Plan(comm, (4, 4), threads=threads)


@pytest.mark.parametrize("overlap", ["on", "off", "fields", "progress", "auto"])
def test_overlap_batch_matches_numpy(comm, overlap):
    """A batch of 3 fields, pipelined (with the progress thread or not), one by one or
    not, transforms each field alone (mpi4py initialises MPI_THREAD_MULTIPLE, which
    "progress" needs)."""
    shape = (16, 12, 8)
    u = numpy.stack([random_global(shape, numpy.complex128, seed=10 + k) for k in range(3)])
    with distfft.Plan(comm, shape, batch=3, overlap=overlap, method="alltoallw",
                      rigor="estimate") as plan:
        assert plan.overlap == overlap
        u_hat = plan.forward(u[plan.input_slice])      # the slices lead with the batch axis
        back = plan.backward(u_hat)
    for k in range(3):
        check_block(numpy.asarray(u_hat)[k], numpy.fft.fftn(u[k]), plan.output_slice[1:],
                    numpy.complex128, 1536)
        check_block(numpy.asarray(back)[k], u[k], plan.input_slice[1:], numpy.complex128, 1536)
