"""
test_halo.py -- distfft.Halo: every ghost entry of the padded block equals
the global array at its (wrapped) global index, entries beyond an open
boundary stay untouched, both variants agree bit for bit; on a Plan's input
block (DistArray.halo) and on blocks of a Cartesian grid; bad input fails
on every rank.
"""
import numpy
import pytest

import distfft
from helpers import random_global


def expected_padded(whole, halo, fill):
    """What exchange() must leave: the global array at the padded entries'
    global indices (wrapped where periodic), `fill` beyond open boundaries."""
    lead = whole.ndim - len(halo.global_shape)
    index, valid = [], numpy.ones(halo.padded_shape[lead:], dtype=bool)
    for axis, (start, n) in enumerate(zip(halo.padded_start, halo.global_shape)):
        g = start + numpy.arange(halo.padded_shape[lead + axis])
        inside = (g >= 0) & (g < n)
        g = g % n if halo.periodic[axis] else numpy.clip(g, 0, n - 1)
        shape = [1] * len(halo.global_shape)
        shape[axis] = -1
        valid &= (halo.periodic[axis] | inside).reshape(shape)
        index.append(g.reshape(shape))
    values = whole[(Ellipsis,) + tuple(index)]
    return numpy.where(valid, values, fill)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64], ids=str)
@pytest.mark.parametrize("periodic", [True, (True, False, True)], ids=["periodic", "mixed"])
def test_plan_block(comm, dtype, periodic):
    shape = (9, 7, 6)
    plan = distfft.Plan(comm, shape, dtype=numpy.float64, rigor="estimate")
    whole = random_global(shape, dtype, seed=5)
    block = whole[plan.input_slice]
    results = []
    for variant in distfft.halo.VARIANTS:
        with distfft.Halo(comm, shape, plan.input_slice, (1, 2, 1), periodic, dtype,
                          variant=variant, widths_high=(2, 1, 1)) as halo:
            padded = halo.padded_array(block)
            padded[...] = -7
            halo.interior(padded)[...] = block
            halo.exchange(padded)
            assert numpy.array_equal(padded, expected_padded(whole, halo, -7))
            results.append(padded.copy())
    assert numpy.array_equal(results[0], results[1])


def test_distarray_method_and_batch(comm):
    shape = (5, 8)
    whole = random_global((2,) + shape, numpy.float32, seed=6)
    size, rank = comm.Get_size(), comm.Get_rank()
    n, start = distfft.decompose(shape[1], size, rank)
    local_slice = (slice(0, 5), slice(start, start + n))
    array = distfft.DistArray(shape, local_slice, numpy.float32, comm)
    array[...] = whole[0][local_slice]
    with array.halo(3) as halo:      # wider than most blocks: several pieces
        p = halo.exchange(halo.padded_array(array))
        assert numpy.array_equal(p, expected_padded(whole[0], halo, 0))
    with distfft.Halo(comm, shape, local_slice, 2, batch=2, dtype=numpy.float32,
                      variant="pack") as halo:
        p = halo.padded_array(whole[(slice(None),) + local_slice])
        assert numpy.array_equal(halo(p), expected_padded(whole, halo, 0))
        assert numpy.array_equal(halo.execute(p), expected_padded(whole, halo, 0))
        assert halo.describe().startswith("(halo pack 5x8 real-float batch=2 widths=2:2p,2:2p sends ")


def test_bad_input(comm):
    rank = comm.Get_rank()
    n, start = distfft.decompose(6, comm.Get_size(), rank)
    with pytest.raises(distfft.DistfftError):      # a negative width on rank 0 only
        distfft.Halo(comm, (6,), (slice(start, start + n),), -1 if rank == 0 else 1)
    with pytest.raises(distfft.DistfftError):
        distfft.Halo(comm, (6,), (slice(0, 6),), 1, variant="carrier-pigeon")
    with distfft.Halo(comm, (4,), (slice(0, 4),) if rank == 0 else (slice(4, 4),), 1) as halo:
        with pytest.raises(ValueError):
            halo.exchange(numpy.zeros(3) if rank == 0 else halo.padded_array())
