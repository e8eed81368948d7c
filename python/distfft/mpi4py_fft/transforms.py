"""
transforms.py -- mpi4py-fft's serial transforms as distfft kinds, and the
scale factors that make distfft's numbers mpi4py-fft's.

mpi4py-fft runs one serial transform per group of axes, the last group
first: rfftn while the data are still real (real dtype), fftn afterwards,
unless `transforms={axes: (forward, backward)}` names others. Which
functions it can call depends on the backend: the "fftw" backend calls
planners (mpi4py_fft.fftw.dctn, ...: FFTW's r2r kinds, normalised by the
logical size N of each kind, e.g. 2n for REDFT10), the "numpy", "scipy"
and "mkl_fft" backends call functions that return arrays (scipy.fft.dctn,
...), normalise by the physical size n, and multiply the backward result
by n. `Kinds` works out distfft's kind per axis and the factors per
direction and normalize flag; a transform distfft cannot do raises.
"""
import functools

import numpy

from .. import _lib

BACKENDS = ("fftw", "pyfftw", "numpy", "scipy", "mkl_fft")
CALLING_BACKENDS = ("numpy", "scipy", "mkl_fft")   # call functions that return arrays

# name -> (family, inverse?) of the serial functions mpi4py-fft programs pass
_FUNCTIONS = {
    "dctn": ("dct", False), "idctn": ("dct", True),
    "dstn": ("dst", False), "idstn": ("dst", True),
    "fftn": ("c2c", False), "ifftn": ("c2c", True),
    "rfftn": ("r2c", False), "irfftn": ("r2c", True),
}


def _origin(function):
    """'planner' (mpi4py_fft.fftw or distfft.mpi4py_fft.fftw), 'scipy.fft',
    'scipy.fftpack' or 'numpy.fft'; None if unknown."""
    module = getattr(function, "__module__", "") or ""
    if module.startswith("mpi4py_fft.fftw") or module.startswith("distfft.mpi4py_fft.fftw"):
        return "planner"
    for prefix in ("scipy.fftpack", "scipy.fft", "numpy.fft"):
        if module.startswith(prefix):
            return prefix
    return None


def describe(function):
    """(origin, family, inverse, type) of a serial function (possibly a
    functools.partial with `type=`), or raise NotImplementedError."""
    keywords = {}
    inner = function
    while isinstance(inner, functools.partial):
        if inner.args:
            raise NotImplementedError(f"distfft.mpi4py_fft: transforms: {function!r} binds "
                                      "positional arguments; only type= (and norm=None) can be bound")
        keywords = {**inner.keywords, **keywords}
        inner = inner.func
    name = getattr(inner, "__name__", None)
    origin = _origin(inner)
    if name not in _FUNCTIONS or origin is None:
        raise NotImplementedError(
            f"distfft.mpi4py_fft: transforms: {function!r} is not a serial transform distfft "
            "knows; it maps dctn/idctn/dstn/idstn (types 1-4), fftn/ifftn and rfftn/irfftn of "
            "mpi4py_fft.fftw (backend 'fftw'), or of scipy.fft, scipy.fftpack, numpy.fft "
            "(backends 'numpy', 'scipy', 'mkl_fft')")
    family, inverse = _FUNCTIONS[name]
    kind_type = int(keywords.pop("type", 2))
    norm = keywords.pop("norm", None)
    for ignored in ("threads", "flags", "overwrite_x", "workers"):
        keywords.pop(ignored, None)
    if norm not in (None, "backward") or keywords:
        raise NotImplementedError(f"distfft.mpi4py_fft: transforms: {function!r} binds "
                                  f"{dict(keywords, norm=norm) if norm else keywords}; distfft "
                                  "maps type= and norm=None only")
    if family in ("dct", "dst") and kind_type not in (1, 2, 3, 4):
        raise ValueError(f"distfft.mpi4py_fft: transforms: {function!r}: type {kind_type} "
                         "is not 1-4")
    return origin, family, inverse, kind_type


def _kind_of(pair, backend, group):
    """distfft kind (for every axis of the group but the r2c one) of a
    (forward, backward) pair, and its origin."""
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
        raise ValueError(f"distfft.mpi4py_fft: transforms[{tuple(group)}] must be a "
                         "(forward, backward) pair")
    forward, backward = describe(pair[0]), describe(pair[1])
    same_type = forward[1] not in ("dct", "dst") or forward[3] == backward[3]
    if forward[2] or not backward[2] or forward[1] != backward[1] or \
            forward[0] != backward[0] or not same_type:
        raise NotImplementedError(
            f"distfft.mpi4py_fft: transforms[{tuple(group)}] = {pair!r}: the backward function "
            "must be the inverse of the forward one, from the same module (e.g. dctn and "
            "idctn of the same type)")
    origin = forward[0]
    if backend == "fftw" and origin != "planner":
        raise ValueError(f"distfft.mpi4py_fft: transforms[{tuple(group)}]: backend 'fftw' "
                         "calls FFTW planners (mpi4py_fft.fftw.dctn, ...); mpi4py-fft cannot "
                         f"call {pair[0]!r} with it (use backend='numpy' for scipy/numpy "
                         "functions)")
    wanted = {"scipy": ("scipy.fftpack",), "numpy": ("scipy.fft", "numpy.fft"),
              "mkl_fft": ("scipy.fft", "numpy.fft")}.get(backend)
    if wanted and origin not in wanted:
        raise ValueError(f"distfft.mpi4py_fft: transforms[{tuple(group)}]: backend {backend!r} "
                         f"calls its functions with {'shape=' if backend == 'scipy' else 's='}, "
                         f"as {' and '.join(wanted)} take it; mpi4py-fft cannot call "
                         f"{pair[0]!r} so")
    if backend == "pyfftw":
        raise NotImplementedError("distfft.mpi4py_fft: transforms= with backend 'pyfftw' "
                                  "(pyfftw builders) is not mapped; use backend 'fftw'")
    family, kind_type = forward[1], forward[3]
    kind = f"{family}{kind_type}" if family in ("dct", "dst") else family
    return kind, origin


def _logical(kind, n):
    """FFTW's logical size of a kind on n points (the 1/N of normalisation),
    from the library's kind table."""
    return _lib.lib.distfft_kind_logical_length(_lib.code_of("kind", kind), n)


class Kinds:
    """distfft kinds per axis for mpi4py-fft's groups, and the factors that
    turn distfft's norm="forward" results into mpi4py-fft's:
    forward_scale[normalize], backward_scale[normalize]."""

    def __init__(self, shape, groups, dtype, backend, transforms):
        if backend not in BACKENDS:
            raise ValueError(f"distfft.mpi4py_fft: backend {backend!r} is not one of "
                             f"mpi4py-fft's {BACKENDS}")
        real = numpy.dtype(dtype).kind == "f"
        transforms = dict(transforms or {})
        self.kinds = ["none"] * len(shape)
        logical, physical, inverse_factor = 1.0, 1.0, 1.0
        for group in reversed(groups):
            pair = transforms.get(tuple(group))
            kind, origin = ("r2c" if real else "c2c", None) if pair is None else \
                _kind_of(pair, backend, group)
            _check_real_data(backend, kind, real, pair is None)
            if kind == "r2c" and not real or kind == "c2c" and real or \
                    kind[:3] in ("dct", "dst") and not real and "r2c" not in self.kinds:
                raise NotImplementedError(
                    f"distfft.mpi4py_fft: transforms[{tuple(group)}] is {kind} on "
                    f"{'real' if real else 'complex'} data, which mpi4py-fft cannot run either")
            for axis in group:
                self.kinds[axis] = "c2c" if kind == "r2c" and axis != group[-1] else kind
                n = shape[axis]
                logical *= _logical(self.kinds[axis], n)
                physical *= n
                inverse_factor *= _inverse_factor(origin, self.kinds[axis], n)
            real = real and kind != "r2c"
        calling = backend in CALLING_BACKENDS or backend == "pyfftw"
        norm = physical if calling else logical
        # distfft's plan has norm="forward": forward x 1/logical, backward unscaled.
        self.forward_scale = {True: logical / norm, False: logical}
        backward_raw = inverse_factor * physical if backend in CALLING_BACKENDS else 1.0
        self.backward_scale = {False: backward_raw, True: backward_raw / norm}


def _check_real_data(backend, kind, real, default):
    """What mpi4py-fft's calling backends do to real data that distfft does
    not mimic."""
    if backend == "scipy" and real and default:
        raise NotImplementedError(
            "distfft.mpi4py_fft: backend 'scipy' runs scipy.fftpack.fftn (complex, full length) "
            "on real data where the other backends run rfftn; distfft does not mimic that: use "
            "backend 'fftw' (real-to-complex) or a complex dtype")
    if backend == "numpy" and real and kind[:3] in ("dct", "dst"):
        raise NotImplementedError(
            f"distfft.mpi4py_fft: backend 'numpy' casts the output of {kind} on real data to "
            "complex; distfft keeps it real: use backend 'fftw' with mpi4py_fft.fftw's "
            "dctn/dstn, or 'scipy' with scipy.fftpack's")


def _inverse_factor(origin, kind, n):
    """What the backward function returns relative to FFTW's unnormalised
    inverse kind, on one axis (used by the calling backends only)."""
    if origin in ("numpy.fft", "scipy.fft") or origin is None or \
            origin == "scipy.fftpack" and kind in ("c2c", "r2c"):
        return 1.0 / _logical(kind, n)   # normalised inverses
    return 1.0                           # scipy.fftpack's idct/idst: unnormalised
