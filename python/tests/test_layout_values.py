"""
test_layout_values.py -- distfft.Layout and distfft.Reshape (issue 22):
layouts from boxes, from a grid and from a plan; reshapes between bricks,
irregular boxes that form no grid and slabs, in 3-D and 5-D, equal to the
numpy array they came from; plans with input_layout / output_layout equal
to numpy.fft on the gathered arrays; DistArrays carry their layout; bad
boxes raise the same DistfftError on every rank.
"""
import numpy
import pytest
from mpi4py import MPI

import distfft
from helpers import random_global


def bisect(shape, ranks, rank, depth=0, start=None):
    """Recursive bisection with uneven cuts: no grid (this rank's box)."""
    start = [0] * len(shape) if start is None else start
    if ranks == 1:
        return start, list(shape)
    half, axis = ranks // 2, depth % len(shape)
    cut = min(max(shape[axis] * half // ranks + (1 if depth % 2 else -1), 0), shape[axis])
    if rank < half:
        left = list(shape)
        left[axis] = cut
        return bisect(left, half, rank, depth + 1, list(start))
    right, rstart = list(shape), list(start)
    right[axis] -= cut
    rstart[axis] += cut
    return bisect(right, ranks - half, rank - half, depth + 3, rstart)


def irregular(comm, shape):
    """Irregular boxes; the last of 4+ ranks holds none."""
    ranks = comm.size - 1 if comm.size >= 4 else comm.size
    if comm.rank < ranks:
        start, box = bisect(shape, ranks, comm.rank)
    else:
        start, box = [0] * len(shape), [0] * len(shape)
    return distfft.Layout.from_box(comm, shape, start, box)


def bricks(comm, shape):
    return distfft.Layout.from_grid(comm, shape, MPI.Compute_dims(comm.size, 3), (0, 1, 2))


def test_values(comm):
    shape = (6, 5, 4)
    grid = MPI.Compute_dims(comm.size, 3)
    with bricks(comm, shape) as a:
        coords = numpy.unravel_index(comm.rank, grid)
        start, box = [], []
        for n, parts, part in zip(shape, grid, coords):
            local, first = distfft.decompose(n, parts, part)
            start.append(first)
            box.append(local)
        with distfft.Layout(comm, shape, start, box) as b:
            assert a == b and hash(a) == hash(b)
            assert a.global_shape == shape and a.size == comm.size and a.rank == comm.rank
            assert sum(int(numpy.prod(s)) for _, s in a.boxes) == 120
            assert a.describe().startswith("(layout 6x5x4 ranks=")
            assert a.array(numpy.float32).shape == a.shape


# The methods that exchange aligned pencils of one grid only, and staged,
# nccl and cuda-ipc, which move device memory only; every other row of the
# method table applies to the boxes of any two layouts in host memory.
PENCIL_ONLY = ("vector", "shm", "hierarchical")
DEVICE_ONLY = ("staged", "nccl", "cuda-ipc")
BOX_METHODS = [m for m in distfft.method_names() if m not in PENCIL_ONLY + DEVICE_ONLY]


@pytest.mark.parametrize("method", BOX_METHODS)
@pytest.mark.parametrize("dtype", [numpy.complex128, numpy.float32], ids=str)
def test_reshape_3d(comm, method, dtype):
    shape = (7, 6, 5)
    whole = random_global(shape, dtype, seed=3)
    slabs = distfft.Layout.from_grid(comm, shape, (comm.size,), (-1, 0, -1))
    layouts = [bricks(comm, shape), irregular(comm, shape), slabs]
    for first, second in ((0, 1), (1, 2), (2, 0)):
        a, b = layouts[first], layouts[second]
        with distfft.Reshape(a, b, dtype, method=method) as reshape:
            moved = reshape.forward(numpy.ascontiguousarray(whole[a.local_slice]))
            assert numpy.array_equal(moved, whole[b.local_slice]) and moved.layout is b
            back = reshape.backward(moved)
            assert numpy.array_equal(back, whole[a.local_slice])
            again = reshape.execute(back, forward=True)
            assert numpy.array_equal(again, moved)
            assert reshape.method == method if method != "auto" else reshape.method in BOX_METHODS
    for layout in layouts:
        layout.destroy()


def test_reshape_5d_batch(comm):
    shape = (3, 4, 2, 5, 3)
    whole = random_global((2,) + shape, numpy.complex64, seed=4)
    with irregular(comm, shape) as a, \
            distfft.Layout.from_grid(comm, shape, (comm.size,), (-1, -1, -1, 0, -1)) as b, \
            distfft.Reshape(a, b, numpy.complex64, batch=2) as reshape:
        moved = reshape.forward(numpy.ascontiguousarray(whole[(slice(None),) + a.local_slice]))
        assert numpy.array_equal(moved, whole[(slice(None),) + b.local_slice])
        gathered = b.gather(moved)
        if comm.rank == 0:
            assert numpy.array_equal(gathered, whole)
        scattered = a.scatter(whole if comm.rank == 0 else None, dtype=numpy.complex64, batch=2)
        assert numpy.array_equal(scattered, whole[(slice(None),) + a.local_slice])


@pytest.mark.parametrize("shape", [(8, 6, 4), (3, 4, 2, 5, 3)], ids=["3d", "5d"])
def test_plan_with_layouts(comm, shape):
    whole = random_global(shape, numpy.complex128, seed=7)
    first = bricks(comm, shape) if len(shape) == 3 else irregular(comm, shape)
    second = irregular(comm, shape) if len(shape) == 3 else \
        distfft.Layout.from_grid(comm, shape, (comm.size,), (0,) + (-1,) * (len(shape) - 1))
    plan = distfft.Plan(comm, shape, input_layout=first, output_layout=second, rigor="estimate")
    assert plan.input_layout == first and plan.output_layout == second
    assert plan.input_slice == first.local_slice and plan.output_slice == second.local_slice
    u = plan.input_array()
    assert u.layout == first
    u[...] = whole[first.local_slice]
    u_hat = plan.forward(u)
    expected = numpy.fft.fftn(whole)
    assert numpy.allclose(u_hat, expected[second.local_slice], atol=1e-10 * abs(expected).max())
    gathered = second.gather(u_hat)
    if comm.rank == 0:
        assert numpy.allclose(gathered, expected, atol=1e-10 * abs(expected).max())
    assert numpy.allclose(plan.backward(u_hat), u)
    reshapes = [s for s in plan.steps() if s["description"].startswith("reshape")]
    assert len(reshapes) == plan.describe().count("(reshape ")
    plan.destroy()
    first.destroy()
    second.destroy()


def expect_everywhere(comm, needle, make):
    with pytest.raises(distfft.DistfftError) as info:
        make()
    assert needle in str(info.value)
    messages = comm.allgather(str(info.value))
    assert len(set(messages)) == 1, messages


def test_bad_boxes(comm):
    size, rank = comm.size, comm.rank
    if size > 1:   # overlap: rows rank..rank+1 of size+1
        expect_everywhere(comm, "overlap", lambda: distfft.Layout(comm, (size + 1, 3), (rank, 0), (2, 3)))
    expect_everywhere(comm, "gap", lambda: distfft.Layout(comm, (size + 1, 3), (rank, 0), (1, 3)))
    start, n = distfft.decompose(4, size, rank)[1], distfft.decompose(4, size, rank)[0]
    expect_everywhere(comm, "is not inside the global array",
                      lambda: distfft.Layout(comm, (4, 3), (start, 1 if rank == size - 1 else 0), (n, 3)))


def test_bad_pairs(comm):
    shape = (4, 3)
    with distfft.Layout.from_grid(comm, shape, (comm.size,), (0, -1)) as a, \
            distfft.Layout.from_grid(comm, (4, 4), (comm.size,), (0, -1)) as other:
        with pytest.raises(distfft.DistfftError, match="global_shape"):
            distfft.Reshape(a, other)
        reversed_comm = comm.Split(0, comm.size - comm.rank)
        try:
            if comm.size > 1:
                with distfft.Layout.from_grid(reversed_comm, shape, (comm.size,), (0, -1)) as b:
                    with pytest.raises(distfft.DistfftError, match="different communicators"):
                        distfft.Reshape(a, b)
        finally:
            reversed_comm.Free()
        with pytest.raises(distfft.DistfftError, match="layout_in"):
            distfft.Plan(comm, (4, 5), input_layout=a, rigor="estimate")


@pytest.mark.parametrize("overlap", ["off", "on", "fields"])
def test_plan_r2c_batch_with_layouts(comm, overlap):
    """Real input in irregular boxes, the halved spectrum in slabs, two
    fields, whichever way the plan runs its fields."""
    shape = (6, 5, 8)
    spectral = (6, 5, 5)
    whole = random_global((2,) + shape, numpy.float64, seed=9)
    with irregular(comm, shape) as first, \
            distfft.Layout.from_grid(comm, spectral, (comm.size,), (0, -1, -1)) as second:
        plan = distfft.Plan(comm, shape, dtype=numpy.float64, batch=2, input_layout=first,
                            output_layout=second, rigor="estimate", overlap=overlap)
        u = plan.input_array()
        u[...] = whole[(slice(None),) + first.local_slice]
        u_hat = plan.forward(u)
        expected = numpy.fft.rfftn(whole, axes=(1, 2, 3))[(slice(None),) + second.local_slice]
        assert numpy.allclose(u_hat, expected, atol=1e-12 * len(whole.ravel()))
        assert numpy.allclose(plan.backward(u_hat), u)
        for step in plan.steps("forward") + plan.steps("backward"):
            if step["description"].startswith("reshape"):
                assert step["is_redistribution"] and step["grid_direction"] == -1
                assert step["executions"] == 1 and step["seconds"] >= 0
        plan.destroy()


@pytest.mark.parametrize("overlap", ["off", "on"])
def test_plan_r2c_on_axis_0_with_layouts(comm, overlap):
    """r2c on axis 0 (issue 23): real input in irregular boxes, the halved
    axis 0 (7 -> 4) split in the output; the plan's own output gathers and
    takes a halo like any other."""
    shape, spectral = (7, 5, 6), (4, 5, 6)
    whole = random_global((2,) + shape, numpy.float64, seed=10)
    expected = numpy.fft.rfftn(whole, axes=(2, 3, 1))
    with irregular(comm, shape) as first, \
            distfft.Layout.from_grid(comm, spectral, (comm.size,), (0, -1, -1)) as second:
        plan = distfft.Plan(comm, shape, dtype=numpy.float64, kinds="r2c,c2c,c2c", batch=2,
                            input_layout=first, output_layout=second, rigor="estimate",
                            overlap=overlap)
        u = plan.input_array()
        u[...] = whole[(slice(None),) + first.local_slice]
        u_hat = plan.forward(u)
        assert numpy.allclose(u_hat, expected[(slice(None),) + second.local_slice],
                              atol=1e-12 * whole.size)
        assert numpy.allclose(plan.backward(u_hat), u)
        plan.destroy()
    with distfft.Plan(comm, shape, dtype=numpy.float64, kinds="r2c,c2c,c2c", grid="pencil",
                      rigor="estimate") as plan:
        assert plan.global_output_shape == spectral and plan.input_alignment == 0
        u_hat = plan.forward(whole[0][plan.input_slice])
        gathered = u_hat.gather(root=None)
        assert numpy.allclose(gathered, expected[0], atol=1e-12 * whole.size)
        with u_hat.halo(1) as halo:   # periodic: ghosts are the wrapped neighbours
            padded = halo.exchange(halo.padded_array(u_hat))
            index = [(s + numpy.arange(m)) % n for s, m, n in
                     zip(halo.padded_start, padded.shape, spectral)]
            assert all(halo.periodic) and numpy.array_equal(padded, gathered[numpy.ix_(*index)])


def test_ndims_differ(comm):
    if comm.size == 1:
        pytest.skip("needs two ranks")
    shape = (4, 3) if comm.rank else (4, 3, 1)
    start, n = [0] * len(shape), list(shape)
    if comm.rank:
        n[0] = 0
    with pytest.raises(distfft.DistfftError, match="ndims"):
        distfft.Layout(comm, shape, start, n)


def test_halo_on_bricks(comm):
    """Ghost cells of a brick layout: every padded entry is the global
    array at its wrapped index."""
    shape = (7, 6, 5)
    whole = random_global(shape, numpy.float64, seed=11)
    with bricks(comm, shape) as layout, layout.halo(1, dtype=numpy.float64) as halo:
        padded = halo.padded_array(numpy.ascontiguousarray(whole[layout.local_slice]))
        halo.exchange(padded)
        index = numpy.ix_(*[(start + numpy.arange(n)) % g for start, n, g in
                            zip(halo.padded_start, halo.padded_shape, shape)])
        assert numpy.array_equal(padded, whole[index])


@pytest.mark.parametrize("fields", [None, 3])
def test_distarray_without_layout(comm, fields):
    """A DistArray made from (global_shape, local_slice) alone gathers,
    scatters and makes a halo through a layout of its blocks made for the
    call (leading axes every rank holds whole are fields: mpi4py-fft's
    vector components)."""
    shape = (7, 5, 3)
    lead = () if fields is None else (fields,)
    n, start = distfft.decompose(shape[0], comm.size, comm.rank)
    local_slice = tuple(slice(0, f) for f in lead) + (slice(start, start + n), slice(0, 5), slice(0, 3))
    whole = random_global(lead + shape, numpy.complex128, seed=5)
    a = distfft.DistArray(lead + shape, local_slice, numpy.complex128, comm)
    assert a.layout is None
    a[...] = whole[local_slice]
    assert numpy.array_equal(a.gather(root=None), whole)
    gathered = a.gather(root=comm.size - 1)
    assert (gathered is None) == (comm.rank != comm.size - 1)
    b = distfft.DistArray(lead + shape, local_slice, numpy.complex128, comm)
    b.scatter(whole if comm.rank == 0 else None)
    assert numpy.array_equal(b, whole[local_slice])
    if fields is None:
        with a.halo(1) as halo:
            padded = halo.padded_array(a)
            halo.exchange(padded)
            index = numpy.ix_(*[(s + numpy.arange(m)) % g for s, m, g in
                                zip(halo.padded_start, halo.padded_shape, shape)])
            assert numpy.array_equal(padded, whole[index])
    if comm.size > 1:   # every rank holding all rows: the boxes overlap
        c = distfft.DistArray(shape, (slice(0, 7), slice(0, 5), slice(0, 3)), numpy.complex128, comm)
        c[...] = whole[(0,) * len(lead)] if lead else whole
        expect_everywhere(comm, "overlap", lambda: c.gather())
