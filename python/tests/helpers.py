"""
helpers.py -- test data and tolerances shared by the tests.
"""
import importlib.util
import os

import numpy
import pytest

BENCHMARKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks")


def benchmark_module(name):
    """benchmarks/NAME.py as a module (the test skips where the package is
    tested without the repository around it)."""
    path = os.path.join(BENCHMARKS, f"{name}.py")
    if not os.path.exists(path):
        pytest.skip(f"no benchmarks/{name}.py next to the tests")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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



# ---- direct sums in long double: FFTW's halfcomplex and Hartley kinds --------

_PI = numpy.longdouble("3.141592653589793238462643383279502884")


def _angle(n, j, k):
    """2 pi j k / n in long double, j k reduced mod n (rows k, columns j)."""
    return 2 * _PI * (numpy.multiply.outer(k, j) % n).astype(numpy.longdouble) / n


def direct_matrix(kind, n):
    """The forward matrix (rows k, columns j) of `kind` on n points in long
    double: "r2hc" (r_k for k <= n/2, then i_{n-k}, FFTW's halfcomplex
    order), "hc2r" (its inverse times n), "dht" (cos + sin), "dft"."""
    j = k = numpy.arange(n)
    if kind == "r2hc":
        return numpy.where((2 * k <= n)[:, None], numpy.cos(_angle(n, j, k)),
                           -numpy.sin(_angle(n, j, (n - k) % n)))
    if kind == "hc2r":   # r_0, 2 r_j, the even r_{n/2} once, then -2 i_{n-j}
        weight = numpy.where((j == 0) | (2 * j == n), 1, 2).astype(numpy.longdouble)
        return numpy.where((2 * j <= n)[None, :], weight * numpy.cos(_angle(n, j, k)),
                           -2 * numpy.sin(_angle(n, (n - j) % n, k)))
    if kind == "dht":
        return numpy.cos(_angle(n, j, k)) + numpy.sin(_angle(n, j, k))
    if kind == "dft":
        return numpy.exp(-1j * _angle(n, j, k))
    raise ValueError(kind)


def apply_along(matrix, x, axis):
    """matrix applied along `axis` of x, in long double (complex if either is)."""
    wide = x.astype(numpy.clongdouble if numpy.iscomplexobj(x) or numpy.iscomplexobj(matrix)
                    else numpy.longdouble)
    return numpy.moveaxis(numpy.tensordot(matrix, wide, axes=([1], [axis])), 0, axis)
