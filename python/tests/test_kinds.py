"""
test_kinds.py -- every transform kind against scipy.fft / numpy.fft on the
gathered global array (docs/guide/kinds.md: DCT/DST types 1-4 are
scipy.fft.dct/dst with norm=None, cheb gives Chebyshev coefficients on the
Gauss-Lobatto points, none leaves an axis alone; r2hc, hc2r and dht are
FFTW's halfcomplex and Hartley kinds, against direct sums), alone and
mixed with r2c, in both precisions, and each backward transform undoes its
forward.
"""
import numpy
import pytest
import scipy.fft

import distfft
from helpers import apply_along, check_block, direct_matrix, random_global

SHAPE = (7, 5, 4)
R2R = ["dct1", "dct2", "dct3", "dct4", "dst1", "dst2", "dst3", "dst4", "cheb", "r2hc", "hc2r",
       "dht"]


def chebyshev(x, axis):
    """Chebyshev coefficients along axis: dct1 / (c_k (n - 1)), c = 2 at the ends."""
    n = x.shape[axis]
    weights = numpy.full(n, 1.0 / (n - 1))
    weights[0] = weights[-1] = 0.5 / (n - 1)
    shape = [1] * x.ndim
    shape[axis] = n
    return scipy.fft.dct(x, type=1, axis=axis) * weights.reshape(shape)


def along(kind, x, axis):
    """The reference transform of one axis (complex x: on real and imaginary parts)."""
    if kind == "c2c":
        return numpy.fft.fft(x, axis=axis)
    if kind == "r2c":
        return numpy.fft.rfft(x, axis=axis)
    if kind == "none":
        return x
    if kind == "cheb":
        return chebyshev(x, axis)
    if kind in ("r2hc", "hc2r", "dht"):   # scipy has no Hartley transform
        return apply_along(direct_matrix(kind, x.shape[axis]), x, axis).astype(x.dtype)
    transform = scipy.fft.dct if kind.startswith("dct") else scipy.fft.dst
    return transform(x, type=int(kind[3]), axis=axis)


def reference(kinds, x):
    """Separable: r2c first (it makes the data complex), then the rest."""
    x = x.astype(numpy.complex128 if x.dtype.kind == "c" else numpy.float64)
    order = sorted(range(len(kinds)), key=lambda a: kinds[a] != "r2c")
    for axis in order:
        x = along(kinds[axis], x, axis)
    return x


def run(comm, kinds, dtype, **options):
    u = random_global(SHAPE, dtype, seed=len(kinds[0]))
    with distfft.Plan(comm, SHAPE, dtype=dtype, kinds=kinds, rigor="estimate",
                      **options) as plan:
        u_hat = plan.forward(u[plan.input_slice])
        back = plan.backward(u_hat)
        out_dtype = plan.output_dtype
    return u, plan, u_hat, back, out_dtype


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32], ids=["double", "float"])
@pytest.mark.parametrize("kind", R2R)
def test_real_to_real_kind_on_every_axis(comm, kind, dtype):
    u, plan, u_hat, back, out_dtype = run(comm, kind, dtype)
    assert out_dtype == numpy.dtype(dtype)   # real in, real out
    expected = reference([kind] * 3, u)
    check_block(u_hat, expected, plan.output_slice, dtype, 140)
    check_block(back, u, plan.input_slice, dtype, 140)


@pytest.mark.parametrize("kinds", [("dst1", "c2c", "r2c"), ("cheb", "c2c", "r2c"),
                                   ("dct2", "dst3", "r2c"), ("dct4", "none", "r2c"),
                                   ("none", "dct3", "dst2"), ("c2c", "c2c", "c2c"),
                                   ("r2c", "c2c", "dct2"), ("dst2", "r2c", "none"),
                                   ("r2hc", "c2c", "r2c"), ("dht", "dct2", "hc2r")],
                         ids=",".join)
@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32], ids=["double", "float"])
def test_mixed_kinds(comm, kinds, dtype):
    if "c2c" in kinds and "r2c" not in kinds:
        dtype = numpy.complex128 if dtype == numpy.float64 else numpy.complex64
    u, plan, u_hat, back, _ = run(comm, list(kinds), dtype)
    assert plan.kinds == kinds
    check_block(u_hat, reference(kinds, u), plan.output_slice, dtype, 140)
    check_block(back, u, plan.input_slice, dtype, 140)


def test_kinds_as_one_string_per_axis(comm):
    u, plan, u_hat, _, _ = run(comm, "dct2,dst2,r2c", numpy.float64)
    assert plan.kinds == ("dct2", "dst2", "r2c")
    check_block(u_hat, reference(plan.kinds, u), plan.output_slice, numpy.float64, 140)


@pytest.mark.parametrize("kind,logical", [("dct2", lambda n: 2 * n),
                                          ("dst1", lambda n: 2 * (n + 1))])
def test_ortho_is_a_symmetric_scaling_by_logical_n(comm, kind, logical):
    u, plan, u_hat, back, _ = run(comm, kind, numpy.float64, norm="ortho")
    scale = numpy.sqrt(float(numpy.prod([logical(n) for n in SHAPE])))
    check_block(u_hat, reference([kind] * 3, u) / scale, plan.output_slice, numpy.float64, 140)
    check_block(back, u, plan.input_slice, numpy.float64, 140)


def test_chebyshev_coefficients_of_a_polynomial(comm):
    """f(x, y) = T_3(x) + 2 T_1(y) T_2(x) sampled on Gauss-Lobatto points."""
    n = 9
    x = numpy.cos(numpy.pi * numpy.arange(n) / (n - 1))
    f = numpy.cos(3 * numpy.arccos(x))[:, None] + \
        2 * numpy.cos(2 * numpy.arccos(x))[:, None] * x[None, :]
    with distfft.Plan(comm, (n, n), dtype=numpy.float64, kinds="cheb", rigor="estimate") as plan:
        a = plan.forward(f[plan.input_slice])
    expected = numpy.zeros((n, n))
    expected[3, 0] = 1.0
    expected[2, 1] = 2.0
    check_block(a, expected, plan.output_slice, numpy.float64, 81)
