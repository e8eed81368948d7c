"""
test_spectral.py -- what a spectral solver needs: padded transforms
(dealiasing) against numpy/scipy on the gathered arrays, the exchange volume
padding saves, real-to-real kinds on complex data against scipy, and
in-place plans bit-identical to out-of-place ones.

The padded reference: backward = zero-pad the spectrum (Fourier axes: the
even Nyquist mode split in half between +N/2 and -N/2; r2c's axis: halved;
real-to-real axes: the first N coefficients) and then the plain inverse
transform of the padded length M; forward = the plain transform of length M,
then truncation (Nyquist: the +N/2 and -N/2 modes summed).
"""
import numpy
import pytest
import scipy.fft

import distfft
from mpi4py import MPI
from helpers import random_global

GRIDS = ["slab", "pencil"]


def maxabs(a):
    """max |a|, 0 for an empty block."""
    return float(numpy.abs(a).max()) if numpy.size(a) else 0.0


def _along(a, axis):
    return numpy.moveaxis(a, axis, 0)


def pad_axis(x, axis, n, m, mode):
    x = _along(x, axis)
    if mode == "half":
        out = numpy.zeros((m // 2 + 1,) + x.shape[1:], x.dtype)
        out[:n // 2 + 1] = x
        if n % 2 == 0 and m > n:
            out[n // 2] *= 0.5
    elif mode == "prefix":
        out = numpy.zeros((m,) + x.shape[1:], x.dtype)
        out[:n] = x
    else:
        out = numpy.zeros((m,) + x.shape[1:], x.dtype)
        for k in range(n):
            if n % 2 == 0 and k == n // 2 and m > n:
                out[k] += x[k] / 2
                out[m - k] += x[k] / 2
            elif k > n // 2:
                out[k + m - n] = x[k]
            else:
                out[k] = x[k]
    return numpy.moveaxis(out, 0, axis)


def truncate_axis(y, axis, n, m, mode):
    y = _along(y, axis)
    if mode == "half":
        out = y[:n // 2 + 1].copy()
        if n % 2 == 0 and m > n:
            out[n // 2] = 2 * out[n // 2].real
    elif mode == "prefix":
        out = y[:n].copy()
    else:
        out = numpy.zeros((n,) + y.shape[1:], y.dtype)
        for k in range(n):
            if n % 2 == 0 and k == n // 2 and m > n:
                out[k] = y[k] + y[m - k]
            elif k > n // 2:
                out[k] = y[k + m - n]
            else:
                out[k] = y[k]
    return numpy.moveaxis(out, 0, axis)


def mode_of(kind):
    return {"c2c": "wrap", "r2c": "half"}.get(kind, "prefix")


def physical_transform(u, kinds, norm, inverse):
    """The plain (unpadded) transform of the whole array, axis by axis: r2c
    first forward, last backward."""
    order = sorted(range(u.ndim), key=lambda a: kinds[a] != "r2c")
    if inverse:
        order = order[::-1]
    for a in order:
        kind = kinds[a]
        if kind == "c2c":
            u = (numpy.fft.ifft if inverse else numpy.fft.fft)(u, axis=a, norm=norm)
        elif kind == "r2c":   # forward only (backward: irfft with the padded n)
            u = numpy.fft.rfft(u, axis=a, norm=norm)
        elif kind.startswith("dct"):
            f = scipy.fft.idct if inverse else scipy.fft.dct
            u = f(u, type=int(kind[3]), axis=a, norm=norm)
    return u


def reference(kinds, shape, padded, x, forward, norm):
    """Forward: x physical (padded shape) -> retained modes. Backward: x the
    retained modes -> physical field on the padded grid."""
    if forward:
        y = x
        # Each axis is truncated right after its transform: for r2c's axis
        # the fold of +N/2 with -N/2 = conj(+N/2) is then 2 Re per line.
        for a in sorted(range(len(kinds)), key=lambda a: kinds[a] != "r2c"):
            y = physical_transform(y, {b: (kinds[b] if b == a else "none")
                                       for b in range(len(kinds))}, norm, False)
            if padded[a] != shape[a]:
                y = truncate_axis(y, a, shape[a], padded[a], mode_of(kinds[a]))
        return y
    y = x
    for a, kind in enumerate(kinds):
        if padded[a] != shape[a]:
            y = pad_axis(y, a, shape[a], padded[a], mode_of(kind))
    r2c = [a for a, k in enumerate(kinds) if k == "r2c"]
    for a in range(len(kinds)):
        if kinds[a] not in ("r2c", "none"):
            y = physical_transform(y, {b: (kinds[b] if b == a else "none")
                                       for b in range(len(kinds))}, norm, True)
    for a in r2c:
        y = numpy.fft.irfft(y, n=padded[a], axis=a, norm=norm)
    return y


CASES = [
    # kinds, spectral shape, padding, input dtype
    (("c2c", "c2c", "c2c"), (8, 6, 10), 1.5, numpy.complex128),
    (("c2c", "c2c", "c2c"), (7, 5, 9), (1.5, 1.0, 4 / 3), numpy.complex128),
    (("c2c", "c2c", "r2c"), (6, 7, 8), 1.5, numpy.float64),
    (("c2c", "c2c", "r2c"), (5, 4, 7), 1.5, numpy.float32),
    (("c2c", "r2c"), (9, 12), 1.5, numpy.float64),
    (("dct2", "c2c", "c2c"), (6, 5, 8), (1.5, 1.5, 1.0), numpy.complex128),
    (("dct2", "c2c", "r2c"), (7, 6, 8), 1.5, numpy.float64),
    (("c2c", "c2c", "c2c", "c2c"), (4, 3, 4, 6), 1.5, numpy.complex64),
]


@pytest.mark.parametrize("grid", GRIDS)
@pytest.mark.parametrize("kinds,shape,padding,dtype", CASES)
def test_padded_transforms_match_numpy(comm, grid, kinds, shape, padding, dtype):
    if grid == "pencil" and comm.size < 4 and len(shape) == 2:
        pytest.skip("a 2-D array has only slabs")
    grid = grid if len(shape) > 2 else "slab"
    norm = "forward" if len(shape) % 2 else "backward"
    method = "alltoallv" if len(shape) == 4 else "alltoallw"
    with distfft.Plan(comm, shape, dtype=dtype, kinds=kinds, grid=grid, padding=padding,
                      norm=norm, method=method, rigor="estimate") as plan:
        padded = plan.global_input_shape
        factors = padding if isinstance(padding, tuple) else (padding,) * len(shape)
        assert padded == tuple(int(numpy.floor(f * n)) for f, n in zip(factors, shape))
        single = numpy.dtype(dtype) in (numpy.dtype(numpy.float32), numpy.dtype(numpy.complex64))
        tol = 2e-5 if single else 1e-12

        # backward: random retained modes (of a real field for r2c: take the
        # spectrum of a real unpadded field so Hermitian symmetry holds)
        if "r2c" in kinds:
            field = random_global(shape, numpy.float64, seed=3)
            modes = reference(kinds, shape, shape, field, True, norm)
        else:
            modes = random_global(plan.global_output_shape, numpy.complex128, seed=3)
        expected = reference(kinds, shape, padded, modes, False, norm)
        u_hat = plan.output_array()
        u_hat[...] = modes[plan.output_slice]
        u = plan.backward(u_hat)
        scale = maxabs(expected)
        assert maxabs(u - expected[plan.input_slice]) <= tol * scale

        # forward(backward(u_hat)) == u_hat for the retained modes
        again = plan.forward(u)
        assert maxabs(again - modes[plan.output_slice]) <= tol * maxabs(modes)

        # forward of an arbitrary padded field against truncation
        field = random_global(padded, plan.dtype, seed=5)
        expected = reference(kinds, shape, padded, field.astype(numpy.complex128
                             if plan.dtype.kind == "c" else numpy.float64), True, norm)
        u = plan.input_array()
        u[...] = field[plan.input_slice]
        u_hat = plan.forward(u)
        assert maxabs(u_hat - expected[plan.output_slice]) <= \
            tol * maxabs(expected)


def test_padding_prunes_the_exchanges(comm):
    """A 3-D pencil plan padded 3/2 on every axis exchanges N modes, not M
    points, of every axis already transformed: (M^2 N + M N^2) / (2 M^3) of
    the bytes an unpadded plan on the M-point grid moves, about 56 %."""
    if comm.size != 4:
        pytest.skip("the pencil of 2x2 ranks")
    n = 16
    with distfft.Plan(comm, (n, n, n), grid=(2, 2), padding=1.5, method="alltoallw",
                      rigor="estimate") as padded, \
            distfft.Plan(comm, (24, 24, 24), grid=(2, 2), method="alltoallw",
                         rigor="estimate") as full:
        def volume(plan):
            return sum(s["global_bytes"] for s in plan.steps("forward") if s["is_redistribution"])
        ratio = volume(padded) / volume(full)
        assert ratio == pytest.approx((24 * 24 * 16 + 24 * 16 * 16) / (2 * 24 ** 3))
        sent = comm.allreduce(sum(s["bytes_sent"] for s in padded.steps("forward")))
        sent_full = comm.allreduce(sum(s["bytes_sent"] for s in full.steps("forward")))
        assert sent / sent_full == pytest.approx(ratio, rel=0.05)


@pytest.mark.parametrize("kinds", [("dct2", "dst3", "cheb"), ("dct1", "c2c", "dst2"),
                                   ("c2c", "dct4", "none")])
def test_real_to_real_on_complex_data_matches_scipy(comm, kinds):
    shape = (6, 7, 5)
    with distfft.Plan(comm, shape, dtype=numpy.complex128, kinds=kinds, rigor="estimate") as plan:
        assert plan.dtype == numpy.complex128 and plan.output_dtype == numpy.complex128
        x = random_global(shape, numpy.complex128, seed=7)
        u = plan.input_array()
        u[...] = x[plan.input_slice]
        expected = x
        for a, kind in enumerate(kinds):
            if kind.startswith("dct"):
                expected = scipy.fft.dct(expected, type=int(kind[3]), axis=a)
            elif kind.startswith("dst"):
                expected = scipy.fft.dst(expected, type=int(kind[3]), axis=a)
            elif kind == "cheb":
                n = shape[a]
                c = numpy.ones(n)
                c[0] = c[-1] = 2
                w = (1.0 / (c * (n - 1))).reshape([-1 if b == a else 1 for b in range(3)])
                expected = scipy.fft.dct(expected, type=1, axis=a) * w
            elif kind == "c2c":
                expected = numpy.fft.fft(expected, axis=a)
        u_hat = plan.forward(u)
        scale = maxabs(expected)
        assert maxabs(u_hat - expected[plan.output_slice]) <= 1e-12 * scale
        back = plan.backward(u_hat)
        assert maxabs(back - u) <= 1e-12 * maxabs(x)


@pytest.mark.parametrize("kinds,dtype,padding", [
    ("c2c", numpy.complex128, None), ("r2c", numpy.float64, None),
    ("r2c", numpy.float64, 1.5), (("cheb", "c2c", "r2c"), numpy.float64, None),
    ("c2c", numpy.complex64, 1.5)])
@pytest.mark.parametrize("grid", GRIDS)
def test_in_place_matches_out_of_place(comm, kinds, dtype, padding, grid):
    """Same steps, same FFTW kinds: equal to within a few rounding errors.
    Not bit-identical in general: where the in-place chain runs an FFT between
    other buffers (alignment, in place or not), FFTW may pick another
    algorithm (seen on 1 rank for r2c: 1 ulp)."""
    shape = (8, 6, 10)
    args = dict(dtype=dtype, kinds=kinds, grid=grid, padding=padding, rigor="estimate",
                method="alltoallw", batch=2)
    with distfft.Plan(comm, shape, **args) as out_of_place, \
            distfft.Plan(comm, shape, inplace=True, **args) as in_place:
        assert in_place.input_shape == out_of_place.input_shape
        eps = numpy.finfo(in_place.output_dtype).eps
        bound = 4 * eps * numpy.log2(numpy.prod(shape))
        u, u_hat = in_place.inplace_arrays()
        x = random_global(out_of_place.global_input_shape, dtype, seed=9)
        u[...] = x[out_of_place.input_slice]
        expected = out_of_place.forward(u.copy())
        in_place.forward(u, u_hat)
        scale = comm.allreduce(maxabs(expected), op=MPI.MAX)
        assert maxabs(numpy.asarray(u_hat) - numpy.asarray(expected)) <= bound * scale
        back = out_of_place.backward(expected)
        in_place.backward(u_hat, u)
        scale = comm.allreduce(maxabs(back), op=MPI.MAX)
        assert maxabs(numpy.asarray(u) - numpy.asarray(back)) <= bound * scale
        nbytes = in_place.local_size * in_place.output_dtype.itemsize
        assert nbytes >= max(u.nbytes, u_hat.nbytes)


def test_bad_spectral_arguments_raise_everywhere(comm):
    with pytest.raises(distfft.DistfftError, match="padding"):
        distfft.Plan(comm, (8, 8, 8), padding=0.5, rigor="estimate")
    with pytest.raises(distfft.DistfftError, match="kind is none"):
        distfft.Plan(comm, (8, 8, 8), axes=(1, 2), padding=(1.5, 1.0, 1.0), rigor="estimate")
    with distfft.Plan(comm, (8, 8, 8), inplace=True, rigor="estimate") as plan:
        u, u_hat = plan.inplace_arrays()
        with pytest.raises(ValueError, match="in place"):
            plan.forward(u, plan.output_array())
