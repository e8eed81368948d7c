"""
test_redistribution.py -- distfft.Redistribution on its own: a global array
distributed along one axis moves to being distributed along another, and
every element lands where the global array says (exact equality: a
redistribution only moves data), for all element types, batches and
methods; also on the sub-communicators of a Cartesian grid.
"""
import numpy
import pytest
from mpi4py import MPI

import distfft
from helpers import random_global


@pytest.mark.parametrize("dtype", [numpy.complex128, numpy.complex64, numpy.float64,
                                   numpy.float32], ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("shape,axis_in,axis_out", [((7, 5, 3), 1, 0), ((5, 9), 0, 1),
                                                    ((3, 4, 6), 2, 0), ((2, 3, 2), 0, 2)])
def test_moves_every_element(comm, shape, axis_in, axis_out, dtype):
    whole = random_global(shape, dtype, seed=11)
    with distfft.Redistribution.for_global_shape(comm, shape, axis_in, axis_out,
                                                 dtype=dtype) as redist:
        a = redist.input_array()
        a[...] = whole[redist.input_slice]
        b = redist.execute(a)
        assert a.shape[axis_in] == shape[axis_in] and b.shape[axis_out] == shape[axis_out]
        assert numpy.array_equal(b, whole[redist.output_slice])
        assert numpy.array_equal(b.gather(root=None), whole)
        assert numpy.array_equal(a, whole[redist.input_slice])   # input untouched


@pytest.mark.parametrize("method", ["alltoallw", "alltoallv", "isend-waitsome", "sendrecv"])
def test_batch_and_methods(comm, method):
    shape = (6, 5, 4)
    whole = random_global((2,) + shape, numpy.complex128, seed=12)
    with distfft.Redistribution.for_global_shape(comm, shape, 2, 1, batch=2,
                                                 method=method) as redist:
        out = redist.output_array()
        result = redist(whole[redist.input_slice], out)   # a non-contiguous view: one copy
        assert result is out
        assert numpy.array_equal(out, whole[redist.output_slice])
        line = redist.describe()
        assert line.startswith(f"(redist {method} 2->1 ") and f" ranks={comm.size} " in line


def test_on_a_cartesian_sub_communicator(comm):
    """Local shapes given by hand, on one direction of a 2D grid."""
    size = comm.Get_size()
    dims = MPI.Compute_dims(size, 2)
    cart = comm.Create_cart(dims)
    row = cart.Sub([False, True])          # the ranks along direction 1
    m, p = row.Get_size(), row.Get_rank()
    shape = (3, 7, 6)                      # global extents of axes 1 and 2 are moved
    n1, s1 = distfft.decompose(shape[1], m, p)
    n2, s2 = distfft.decompose(shape[2], m, p)
    whole = random_global(shape, numpy.float64, seed=13)
    with distfft.Redistribution(row, (3, shape[1], n2), 1, (3, n1, shape[2]), 2,
                                dtype=numpy.float64) as redist:
        out = redist.execute(numpy.ascontiguousarray(whole[:, :, s2:s2 + n2]))
    assert numpy.array_equal(out, whole[:, s1:s1 + n1, :])
    row.Free()
    cart.Free()
