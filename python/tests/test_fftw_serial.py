"""
test_fftw_serial.py -- distfft.mpi4py_fft.fftw in long double and with
FFTW's halfcomplex and Hartley kinds (FFTW_R2HC, FFTW_HC2R, FFTW_DHT), all
on distfft's serial C API; and that the package opens no FFTW library
itself.

References: numpy and scipy where they have the transform (in double), and
direct sums in long double (numpy's longdouble cos/sin) where they do not
(scipy has no Hartley transform) or where double would hide the error of a
long-double transform computed in double.
"""
import ast
import os

import numpy
import pytest
import scipy.fft

from helpers import apply_along, direct_matrix, random_global

from distfft.mpi4py_fft import fftw
from distfft.mpi4py_fft.fftw import _fftw

LONG = numpy.longdouble
LONG_IS_WIDER = numpy.finfo(LONG).eps < numpy.finfo(numpy.float64).eps


_NAMES = {fftw.FFTW_R2HC: "r2hc", fftw.FFTW_HC2R: "hc2r", fftw.FFTW_DHT: "dht", "dft": "dft"}


def _matrix(kind, n):
    """The forward matrix of an FFTW r2r kind (or "dft") in long double."""
    return direct_matrix(_NAMES[kind], n)


_apply = apply_along


def _error(actual, expected):
    """max |actual - expected| / max |expected|, in long double."""
    actual = numpy.asarray(actual).astype(numpy.clongdouble)
    expected = numpy.asarray(expected).astype(numpy.clongdouble)
    return numpy.max(numpy.abs(actual - expected)) / numpy.max(numpy.abs(expected))


def _tolerance(dtype):
    """Loose in eps (FFTW's error is eps log n), and for long double a
    thousand times below double's eps: a plan computed in double fails."""
    return 200 * numpy.finfo(numpy.dtype(dtype)).eps


# ---- long double ---------------------------------------------------------------

@pytest.mark.skipif(not LONG_IS_WIDER, reason="long double is double on this platform")
def test_long_double_planners_against_long_double_sums():
    assert isinstance(fftw.get_fftw_lib("g"), _fftw.Precision) and "G" in fftw.fftlib
    x = random_global((6, 7), numpy.float64, seed=11).astype(LONG)
    x += x ** 2 / 3   # digits beyond double's
    z = (x + 1j * x[::-1]).astype(numpy.clongdouble)
    dft = [_matrix("dft", n) for n in z.shape]

    plan = fftw.fftn(fftw.aligned(z.shape, dtype=numpy.clongdouble), axes=(0, 1),
                     flags=fftw.FFTW_ESTIMATE)
    assert isinstance(plan._plan, _fftw._SerialPlan)
    expected = _apply(dft[0], _apply(dft[1], z, 1), 0)
    assert _error(plan(z).copy(), expected) <= _tolerance(LONG)
    back = fftw.ifftn(fftw.aligned(z.shape, dtype=numpy.clongdouble), axes=(0, 1),
                      flags=fftw.FFTW_ESTIMATE)
    # (normalize=True multiplies by get_normalization's double 1/N: divide here)
    assert _error(back(expected).copy() / LONG(42), z) <= _tolerance(LONG)

    real = fftw.rfftn(fftw.aligned(x.shape, dtype=LONG), axes=(0, 1), flags=fftw.FFTW_ESTIMATE)
    spectrum = real(x).copy()
    half = _apply(dft[0], _apply(dft[1], x, 1), 0)[:, :4]
    assert spectrum.dtype == numpy.clongdouble and _error(spectrum, half) <= _tolerance(LONG)
    inverse = fftw.irfftn(fftw.aligned((6, 4), dtype=numpy.clongdouble), s=(6, 7), axes=(0, 1),
                          flags=fftw.FFTW_ESTIMATE)
    assert _error(inverse(half).copy() / LONG(42), x) <= _tolerance(LONG)

    # DCT-II and DST-I against scipy's (double) and the round trip in long double
    dct = fftw.dctn(fftw.aligned(x.shape, dtype=LONG), axes=(0, 1), type=2,
                    flags=fftw.FFTW_ESTIMATE)
    c = dct(x).copy()
    assert _error(c, scipy.fft.dctn(x.astype(numpy.float64), type=2, axes=(0, 1))) <= 1e-13
    idct = fftw.idctn(fftw.aligned(x.shape, dtype=LONG), axes=(0, 1), type=2,
                      flags=fftw.FFTW_ESTIMATE)
    assert _error(idct(c).copy() / LONG(4 * 42), x) <= _tolerance(LONG)
    dst = fftw.dstn(fftw.aligned((5,), dtype=LONG), type=1, flags=fftw.FFTW_ESTIMATE)
    assert _error(dst(x[:5, 0]).copy(), scipy.fft.dst(x[:5, 0].astype(numpy.float64), type=1)) \
        <= 1e-13
    for p in (plan, back, real, inverse, dct, idct, dst):
        p.destroy()


def test_long_double_wisdom_and_time_limit(tmp_path):
    lib = fftw.get_fftw_lib(LONG)
    lib.forget_wisdom()
    lib.set_timelimit(0.5)
    lib.set_timelimit(-1.0)
    plan = fftw.fftn(fftw.aligned((8, 6), dtype=numpy.clongdouble), axes=(0, 1),
                     flags=fftw.FFTW_PATIENT)
    path = str(tmp_path / "long.wisdom")
    assert lib.export_wisdom(path) == 1
    assert open(path).read().startswith("(fftw") and "fftwl_wisdom" in open(path).read()
    lib.forget_wisdom()
    with pytest.raises(RuntimeError, match="wisdom"):
        fftw.fftn(fftw.aligned((8, 6), dtype=numpy.clongdouble), axes=(0, 1),
                  flags=(fftw.FFTW_PATIENT, fftw.FFTW_WISDOM_ONLY))
    assert lib.import_wisdom(path) == 1
    again = fftw.fftn(fftw.aligned((8, 6), dtype=numpy.clongdouble), axes=(0, 1),
                      flags=(fftw.FFTW_PATIENT, fftw.FFTW_WISDOM_ONLY))
    assert lib.import_wisdom(str(tmp_path / "missing")) == 0
    plan.destroy()
    again.destroy()
    lib.forget_wisdom()


# ---- FFTW_R2HC, FFTW_HC2R, FFTW_DHT ----------------------------------------------

def _halfcomplex(spectrum, n):
    """numpy.fft.rfft's output in FFTW's halfcomplex order r_0 .. r_{n/2},
    i_{(n+1)/2-1} .. i_1."""
    return numpy.concatenate([spectrum.real[:n // 2 + 1], spectrum.imag[1:(n + 1) // 2][::-1]])


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, LONG])
@pytest.mark.parametrize("n", [1, 7, 8])
def test_halfcomplex_and_hartley_in_one_dimension(dtype, n):
    x = random_global((n,), numpy.float64, seed=n).astype(dtype)
    x += x ** 2 / 3   # in long double, digits beyond double's
    tolerance = _tolerance(dtype)

    def planned(kind):
        return fftw.get_planned_FFT(fftw.aligned((n,), dtype=dtype), fftw.aligned((n,), dtype=dtype),
                                    axes=(0,), kind=kind, flags=fftw.FFTW_ESTIMATE)

    r2hc, hc2r, dht = planned(fftw.FFTW_R2HC), planned([fftw.FFTW_HC2R]), planned(fftw.FFTW_DHT)
    halfcomplex = r2hc(x).copy()
    assert halfcomplex.dtype == dtype
    assert _error(halfcomplex, _halfcomplex(numpy.fft.rfft(x.astype(numpy.float64)), n)) <= \
        max(tolerance, 1e-14)
    assert _error(halfcomplex, _apply(_matrix(fftw.FFTW_R2HC, n), x, 0)) <= tolerance
    # HC2R inverts it (times n), and is numpy's irfft times n
    assert _error(hc2r(halfcomplex).copy(), n * x.astype(LONG)) <= tolerance
    spectrum = numpy.fft.rfft(x.astype(numpy.float64))
    assert _error(hc2r(_halfcomplex(spectrum, n).astype(dtype)).copy(),
                  n * numpy.fft.irfft(spectrum, n)) <= max(tolerance, 1e-14)
    # DHT: sum x_j (cos + sin)(2 pi j k / n), its own inverse times n
    hartley = dht(x).copy()
    assert _error(hartley, _apply(_matrix(fftw.FFTW_DHT, n), x, 0)) <= tolerance
    assert _error(dht(hartley).copy(), n * x.astype(LONG)) <= tolerance
    assert fftw.get_normalization([fftw.FFTW_R2HC], (n,), (0,)) == 1.0 / n
    for p in (r2hc, hc2r, dht):
        assert isinstance(p._plan, _fftw._SerialPlan)
        p.destroy()


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, LONG])
def test_halfcomplex_and_hartley_mixed_with_dct_on_strided_arrays(dtype):
    shape = (6, 5, 4)
    x = random_global(shape, numpy.float64, seed=3).astype(dtype)
    # input every other element of a longer axis, output in Fortran order
    big = fftw.aligned((6, 5, 8), dtype=dtype)
    view = big[:, :, ::2]
    out = fftw.aligned(shape[::-1], dtype=dtype).T
    plan = fftw.FFT(view, out, axes=(0, 2, 1),
                    kind=[fftw.FFTW_R2HC, fftw.FFTW_DHT, fftw.FFTW_REDFT10],
                    flags=fftw.FFTW_ESTIMATE)
    view[...] = x
    result = plan(implicit=False).copy()
    dct2 = scipy.fft.dct(numpy.eye(5), type=2, axis=0).astype(LONG)   # rows k, columns j
    expected = _apply(_matrix(fftw.FFTW_R2HC, 6), _apply(_matrix(fftw.FFTW_DHT, 4),
                                                         _apply(dct2, x, 1), 2), 0)
    assert _error(result, expected) <= max(_tolerance(dtype), 1e-14)
    # the inverse kinds in mpi4py-fft's order: HC2R first (between real arrays: r2r)
    inverse = fftw.FFT(fftw.aligned(shape, dtype=dtype), fftw.aligned(shape, dtype=dtype),
                       axes=(0, 2, 1), kind=[fftw.FFTW_HC2R, fftw.FFTW_DHT, fftw.FFTW_REDFT01],
                       flags=fftw.FFTW_ESTIMATE)
    norm = fftw.get_normalization([fftw.FFTW_HC2R, fftw.FFTW_DHT, fftw.FFTW_REDFT01], shape,
                                  (0, 2, 1))
    assert norm == 1.0 / (6 * 4 * 10)
    assert _error(inverse(result).copy() * LONG(norm), x) <= max(_tolerance(dtype), 1e-14)
    plan.destroy()
    inverse.destroy()


def test_unknown_r2r_kind_and_complex_codes_still_complex():
    with pytest.raises(ValueError, match="r2r kinds"):
        fftw.FFT(fftw.aligned((4,)), fftw.aligned((4,)), axes=(0,), kind=[11])
    # between complex arrays 1 is still C2C_BACKWARD (mpi4py-fft's numbering)
    z = random_global((5,), numpy.complex128, seed=2)
    backward = fftw.FFT(fftw.aligned((5,), dtype=complex), fftw.aligned((5,), dtype=complex),
                        axes=(0,), kind=fftw.FFTW_BACKWARD, flags=fftw.FFTW_ESTIMATE)
    assert _error(backward(z).copy(), 5 * numpy.fft.ifft(z)) <= 1e-14
    backward.destroy()


# ---- the package opens no FFTW library -------------------------------------------

def _package_sources():
    import distfft
    root = os.path.dirname(distfft.__file__)
    for directory, _, files in os.walk(root):
        for name in files:
            if name.endswith(".py"):
                yield os.path.join(directory, name)


def test_package_opens_no_fftw_library():
    """Every library call goes through libdistfft: no module of the package
    loads a library but libdistfft and the process's libc (ctypes.CDLL /
    LoadLibrary), and none names an FFTW library or function."""
    sources = list(_package_sources())
    assert any(path.endswith(os.path.join("fftw", "_fftw.py")) for path in sources)
    loads = []
    for path in sources:
        text = open(path).read()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert "libfftw" not in node.value, f"{path} names an FFTW library: {node.value!r}"
                assert not node.value.startswith(("fftw_", "fftwf_", "fftwl_")), \
                    f"{path} names an FFTW function: {node.value!r}"
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if name.endswith(("CDLL", "LoadLibrary", "PyDLL")):
                    loads.append((os.path.basename(path), ast.unparse(node)))
    # libdistfft, and the C library's own symbols (wisdom.py: libc's free)
    assert ("_lib.py", "ctypes.CDLL(_library_path())") in loads
    assert set(loads) <= {("_lib.py", "ctypes.CDLL(_library_path())"),
                          ("wisdom.py", "ctypes.CDLL(None)")}, loads
    assert not any(hasattr(_fftw, name) for name in ("_Direct", "_DirectPlan", "IoDim64"))
