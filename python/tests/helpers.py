"""
helpers.py -- test data and tolerances shared by the tests.
"""
import numpy


def random_global(shape, dtype, seed=0):
    """The same random global array on every rank."""
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    data = rng.standard_normal(shape)
    if dtype.kind == "c":
        data = data + 1j * rng.standard_normal(shape)
    return data.astype(dtype)


def tolerance(dtype, n):
    """C * eps * log2(N): the error bound of an FFT of N points."""
    eps = numpy.finfo(numpy.dtype(dtype)).eps
    return 16 * eps * max(numpy.log2(max(n, 2)), 1.0)


def relative_error(actual, expected, scale):
    """max |actual - expected| / scale (0 for an empty block); scale is the
    largest magnitude of the whole global reference, the same on every rank."""
    actual = numpy.asarray(actual)
    expected = numpy.asarray(expected)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if expected.size == 0:
        return 0.0
    return float(numpy.max(numpy.abs(actual - expected))) / max(scale, 1e-300)


def check_block(actual, reference, local_slice, dtype, n):
    """actual must equal reference[local_slice] within tolerance(dtype, n)."""
    scale = float(numpy.max(numpy.abs(reference))) if reference.size else 1.0
    error = relative_error(actual, reference[local_slice], scale)
    assert error <= tolerance(dtype, n), f"relative error {error:.3g} > {tolerance(dtype, n):.3g}"

