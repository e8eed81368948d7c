"""
test_layout.py -- slices, shapes and DistArrays on awkward sizes: the
blocks of all ranks tile the global input and output arrays exactly once,
local shapes agree with the slices, the alignment axis is whole on every
rank, and gather/scatter move whole arrays.
"""
import numpy
import pytest

import distfft
from helpers import random_global

CASES = [((7, 5, 3), numpy.complex128, "slab"), ((2, 3, 5), numpy.float64, None),
         ((13, 11), numpy.float32, None), ((5, 4, 3, 2), numpy.complex64, "pencil"),
         ((3, 2, 2), numpy.float64, "pencil"), ((6, 7, 8), numpy.complex128, (0, 0, 0))]


def coverage(comm, global_shape, local_slice):
    """How many ranks claim each global element (on every rank)."""
    counts = numpy.zeros(global_shape, dtype=numpy.int64)
    for s in comm.allgather(local_slice):
        counts[s] += 1
    return counts


@pytest.mark.parametrize("shape,dtype,grid", CASES, ids=str)
def test_blocks_tile_the_global_arrays(comm, shape, dtype, grid):
    if isinstance(grid, tuple) and len(grid) >= len(shape):
        grid = grid[:len(shape) - 1]
    with distfft.Plan(comm, shape, dtype=dtype, grid=grid, rigor="estimate") as plan:
        counts = {space: coverage(comm, getattr(plan, f"global_{space}_shape"),
                                  getattr(plan, f"{space}_slice"))
                  for space in ("input", "output")}
        arrays = {"input": plan.input_array(), "output": plan.output_array()}
    # Collectives above, checks below: a failed assert cannot strand a rank.
    for space in ("input", "output"):
        global_shape = getattr(plan, f"global_{space}_shape")
        local_slice = getattr(plan, f"{space}_slice")
        local_shape = getattr(plan, f"{space}_shape")
        array = arrays[space]
        assert numpy.all(counts[space] == 1), space
        assert local_shape == tuple(s.stop - s.start for s in local_slice)
        assert array.shape == local_shape and array.local_slice == local_slice
        assert array.global_shape == global_shape and array.space == space
        assert array.flags.c_contiguous and (array.size == 0 or array.ctypes.data % 64 == 0)
        axis = array.alignment
        assert local_shape[axis] == global_shape[axis], (space, axis)
    assert int(numpy.prod(plan.grid)) == comm.Get_size()
    if grid == "slab":
        assert len(plan.grid) == 1
    if grid == "pencil":
        assert len(plan.grid) == 2


def test_r2c_output_shape(comm):
    with distfft.Plan(comm, (6, 5, 9), dtype=numpy.float64, rigor="estimate") as plan:
        assert plan.global_output_shape == (6, 5, 5)
        assert plan.output_dtype == numpy.complex128
    with distfft.Plan(comm, (6, 5, 8), dtype=numpy.float32, rigor="estimate") as plan:
        assert plan.global_output_shape == (6, 5, 5)
        assert plan.output_dtype == numpy.complex64


@pytest.mark.parametrize("space", ["input", "output"])
def test_scatter_then_gather_is_the_identity(comm, space):
    with distfft.Plan(comm, (5, 7, 3), dtype=numpy.float64, grid="pencil",
                      rigor="estimate") as plan:
        array = getattr(plan, f"{space}_array")()
        whole = random_global(array.global_shape, array.dtype, seed=9)
        array.scatter(whole if comm.Get_rank() == 0 else None)
        assert numpy.array_equal(array, whole[array.local_slice])
        gathered = array.gather(root=comm.Get_size() - 1)
        everywhere = array.gather(root=None)
    if comm.Get_rank() == comm.Get_size() - 1:
        assert numpy.array_equal(gathered, whole)
    else:
        assert gathered is None
    assert numpy.array_equal(everywhere, whole)


def test_distarray_metadata_follows_same_shape_views_only(comm):
    with distfft.Plan(comm, (4, 6, 5), rigor="estimate") as plan:
        u = plan.input_array()
        doubled = 2 * u
        assert isinstance(doubled, distfft.DistArray)
        assert doubled.global_shape == u.global_shape and doubled.local_slice == u.local_slice
        assert u.substart == tuple(s.start for s in plan.input_slice)
        flat = u.reshape(-1)
        assert flat.global_shape is None
        with pytest.raises(ValueError, match="lost its distribution"):
            flat.gather()


def test_standalone_distarray_with_decompose(comm):
    size, rank = comm.Get_size(), comm.Get_rank()
    n, start = distfft.decompose(10, size, rank)
    array = distfft.DistArray((10, 3), (slice(start, start + n), slice(0, 3)),
                              numpy.float64, comm)
    array[...] = numpy.arange(start * 3, (start + n) * 3).reshape(n, 3)
    whole = array.gather(root=None)
    assert numpy.array_equal(whole, numpy.arange(30).reshape(10, 3))
    counts = comm.allgather(n)
    assert sum(counts) == 10 and max(counts) - min(counts) <= 1


def test_wavenumbers(comm):
    with distfft.Plan(comm, (6, 4, 8), dtype=numpy.float64, rigor="estimate") as plan:
        kx, ky, kz = plan.wavenumbers(box=(2 * numpy.pi, 2 * numpy.pi, numpy.pi))
        sx, sy, sz = plan.output_slice
        assert numpy.array_equal(kx.ravel(), numpy.fft.fftfreq(6, 1 / 6)[sx])
        assert numpy.array_equal(ky.ravel(), numpy.fft.fftfreq(4, 1 / 4)[sy])
        assert numpy.allclose(kz.ravel(), 2 * numpy.fft.rfftfreq(8, 1 / 8)[sz])
        assert (kx * ky * kz).shape == plan.output_shape
