"""
test_distarray_arithmetic.py -- the operators of a large DistArray write
their results into pooled buffers (distarray.py, _arrays.ResultPool): the
results are numpy's (type, dtype, shape, values, metadata), a result still
referred to is never reused, a dropped one is, and the pool stays within
its bounds.
"""
import numpy
import pytest

import distfft
from distfft import distarray
from distfft._arrays import ResultPool


@pytest.fixture
def arrays(comm):
    """A real and a complex batched DistArray, each above the pool's size
    threshold on every rank count the tests run on."""
    with distfft.Plan(comm, (64, 64, 64), dtype=numpy.float64, batch=3, rigor="estimate") as plan:
        u, u_hat = plan.input_array(), plan.output_array()
        u[...] = numpy.arange(u.size).reshape(u.shape) % 7 + 1
        u_hat[...] = 1 + 2j * (numpy.arange(u_hat.size).reshape(u_hat.shape) % 5)
        assert u[0].nbytes >= distarray._results().min_bytes
        yield u, u_hat


def owner(array):
    """The array that owns the memory of `array`."""
    while isinstance(array.base, numpy.ndarray):
        array = array.base
    return array


# name: (expression, the operand whose block the result describes, or None)
EXPRESSIONS = {
    "scalar times": (lambda u, h: 2 * u, "u"),
    "times scalar": (lambda u, h: u * 0.5, "u"),
    "sum": (lambda u, h: u + u, "u"),
    "chain": (lambda u, h: u + 0.5 * u, "u"),
    "difference": (lambda u, h: u - 3, "u"),
    "reflected difference": (lambda u, h: 3 - u, "u"),
    "quotient": (lambda u, h: u / 2, "u"),
    "reflected quotient": (lambda u, h: 1 / u, "u"),
    "integer scalar": (lambda u, h: u * 2, "u"),
    "numpy scalar": (lambda u, h: u * numpy.float32(2), "u"),
    "complex scalar": (lambda u, h: 1j * h, "h"),
    "real times complex": (lambda u, h: h.real * h, "h"),
    "mask": (lambda u, h: (abs(h) > 2) * h, "h"),
    "negative": (lambda u, h: -h, "h"),
    "float32": (lambda u, h: u.astype(numpy.float32) * 0.5, "u"),
    "broadcast": (lambda u, h: numpy.arange(h.shape[1]).reshape(-1, 1, 1) * h[0], None),
    "components": (lambda u, h: u[1] * u[2] - u[2] * u[0], None),
    "small components": (lambda u, h: u[0, :2] * 2 + 1, None),
    "integer components": (lambda u, h: -(u[0].astype(numpy.int64) * 3), None),
}


@pytest.mark.parametrize("name", list(EXPRESSIONS))
def test_results_are_numpys(arrays, name):
    u, h = arrays
    expression, source = EXPRESSIONS[name]
    result = expression(u, h)
    expected = expression(numpy.asarray(u), numpy.asarray(h))
    assert type(expected) is numpy.ndarray
    assert result.dtype == expected.dtype and result.shape == expected.shape
    assert numpy.array_equal(result, expected)
    if source is None:   # a plain array, which numpy may reuse as a temporary
        assert type(result) is numpy.ndarray
        return
    assert type(result) is distfft.DistArray
    assert owner(result).dtype == numpy.uint8   # a pooled buffer
    for field in distarray._METADATA:
        assert getattr(result, field) is getattr(u if source == "u" else h, field)


def test_a_result_in_use_is_never_reused(arrays):
    u, _ = arrays
    kept = [k * u for k in range(1, 2 * distarray._results().per_size + 2)]
    for _ in range(3):
        scratch = u + u
        del scratch
    for k, result in enumerate(kept, start=1):
        assert numpy.array_equal(result, k * numpy.asarray(u))
    addresses = {r.ctypes.data for r in kept}
    assert len(addresses) == len(kept)


def test_a_dropped_result_is_reused(arrays):
    u, _ = arrays
    first = 2 * u
    address = first.ctypes.data
    del first
    assert (3 * u).ctypes.data == address
    view = (2 * u)[0]   # a view keeps its whole buffer in use
    assert (3 * u).ctypes.data != address
    assert numpy.array_equal(view, 2 * numpy.asarray(u[0]))


def test_pool_bounds():
    pool = ResultPool(min_bytes=1024, per_size=2, sizes=2)
    assert pool.output((8,), numpy.dtype(numpy.float64)) is None   # below min_bytes
    shape, dtype = (256,), numpy.dtype(numpy.float64)
    held = [pool.output(shape, dtype), pool.output(shape, dtype)]
    assert all(a is not None for a in held) and held[0].ctypes.data != held[1].ctypes.data
    assert pool.output(shape, dtype) is None   # per_size buffers in use
    address = held[0].ctypes.data
    held.pop(0)
    again = pool.output(shape, dtype)
    assert again.ctypes.data == address and again.ctypes.data % 64 == 0
    again[...] = 1.5
    pool.output((512,), dtype)
    pool.output((1024,), dtype)   # a third size: the oldest is forgotten
    assert len(pool._buffers) == 2 and 256 * 8 not in pool._buffers
    assert numpy.all(again == 1.5)   # what the pool forgot stays valid


def test_integer_arrays_stay_numpys(comm):
    with distfft.Plan(comm, (64, 64, 64), dtype=numpy.float64, rigor="estimate") as plan:
        u = plan.input_array()
        counts = u.astype(numpy.int64)
        counts[...] = 3
        for result in (-counts, counts * 2, counts + counts):
            assert result.dtype == numpy.int64 and numpy.all(abs(result) >= 3)


def test_each_thread_has_its_own_pool(arrays):
    """A buffer one thread's pool hands out is never another thread's: the
    free check and the taking of a buffer cannot interleave across threads."""
    import threading
    u, _ = arrays
    mine = 2 * u
    address = mine.ctypes.data
    del mine
    seen = {}

    def other():
        result = 3 * u
        seen["address"] = result.ctypes.data
        seen["pool"] = distarray._results()

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert seen["pool"] is not distarray._results()
    assert seen["address"] != address
    assert (4 * u).ctypes.data == address
