"""
xfftn.py -- mpi4py_fft.fftw's planned serial transforms.

`fftn(input_array, s, axes, threads, flags, output_array)` and its
siblings (ifftn, rfftn, irfftn, dctn, idctn, dstn, idstn, hfftn, ihfftn)
plan once and return an `FFT`: calling it runs the plan on its own arrays
or on new ones of the same shape, strides, dtype and alignment
(implicit=True, the default; others are copied into the planned input),
and multiplies by the stored factor with normalize=True (1/N of the
logical size N of the transform: n for complex and real-data axes, 2n,
2(n-1) or 2(n+1) for the r2r kinds). mpi4py-fft's numbering of kinds,
flags and the inverse map are kept, so programs that build plans from
them (get_planned_FFT(kind=[...])) run unchanged. Misuse that
mpi4py-fft stops with an assert raises AssertionError (with a message)
here too.
"""
import numpy

from ... import _fast, _lib
from . import _fftw
from .utilities import (C2C_BACKWARD, C2C_FORWARD, C2R, FFTW_BACKWARD, FFTW_CONSERVE_MEMORY,
                        FFTW_DESTROY_INPUT, FFTW_DHT, FFTW_ESTIMATE, FFTW_EXHAUSTIVE,
                        FFTW_FORWARD, FFTW_HC2R, FFTW_MEASURE, FFTW_PATIENT,
                        FFTW_PRESERVE_INPUT, FFTW_R2HC, FFTW_REDFT00, FFTW_REDFT01,
                        FFTW_REDFT10, FFTW_REDFT11, FFTW_RODFT00, FFTW_RODFT01, FFTW_RODFT10,
                        FFTW_RODFT11, FFTW_UNALIGNED, FFTW_WISDOM_ONLY, R2C, aligned,
                        aligned_like, get_alignment)

flag_dict = {name: value for name, value in dict(globals()).items() if name.startswith("FFTW_")}

dct_type = {1: FFTW_REDFT00, 2: FFTW_REDFT10, 3: FFTW_REDFT01, 4: FFTW_REDFT11}
idct_type = {1: FFTW_REDFT00, 2: FFTW_REDFT01, 3: FFTW_REDFT10, 4: FFTW_REDFT11}
dst_type = {1: FFTW_RODFT00, 2: FFTW_RODFT10, 3: FFTW_RODFT01, 4: FFTW_RODFT11}
idst_type = {1: FFTW_RODFT00, 2: FFTW_RODFT01, 3: FFTW_RODFT10, 4: FFTW_RODFT11}


def _check(condition, message):
    if not condition:
        raise AssertionError(message)


class FFT:
    """A planned serial FFTW transform (mpi4py-fft's fftw_xfftn.FFT).

    FFT(input_array, output_array, axes=(-1,), kind=FFTW_FORWARD,
    threads=1, flags=FFTW_MEASURE, normalization=1.0): `kind` is one code
    (c2c, R2C, C2R) or one r2r kind per axis (FFTW's eleven, FFTW_R2HC ...
    FFTW_RODFT11; a first code of 1 or 2, C2C_BACKWARD or C2R, is
    FFTW_HC2R or FFTW_DHT where both arrays are real); flags an int or a
    sequence of ints or-ed together. Planning with FFTW_MEASURE or slower
    overwrites the arrays, as FFTW does."""

    def __init__(self, input_array, output_array, axes=(-1,), kind=FFTW_FORWARD, threads=1,
                 flags=FFTW_MEASURE, normalization=1.0):
        ndim = input_array.ndim
        flags = [flags] if isinstance(flags, (int, numpy.integer)) else list(flags)
        kinds = [int(kind)] if isinstance(kind, (int, numpy.integer)) else [int(k) for k in kind]
        allflags = 0
        for flag in flags:
            allflags |= int(flag)
        axes = [int(a) + ndim if a < 0 else int(a) for a in axes]
        # r2r: one kind per axis. FFTW_HC2R and FFTW_DHT share their codes
        # with C2C_BACKWARD and C2R: between two real arrays they are r2r.
        real_to_real = kinds[0] not in (C2C_FORWARD, C2C_BACKWARD, R2C, C2R) or \
            (input_array.dtype.kind == "f" and output_array.dtype.kind == "f")
        if real_to_real:
            kinds = kinds * len(axes) if len(kinds) == 1 else kinds
            _check(len(kinds) == len(axes), f"{len(kinds)} r2r kinds for {len(axes)} axes")
        self._precision = _fftw.precision(input_array.dtype.char)
        _check(self._precision is not None, f"no FFTW library for dtype {input_array.dtype}")
        self._plan = self._fast = None
        self._input_array, self._output_array = input_array, output_array
        self._M = normalization
        self._axes = tuple(axes)
        self._plan = self._precision.plan(input_array, output_array, axes, kinds, threads,
                                          allflags, real_to_real)
        if not self._plan:
            self._plan = None
            raise RuntimeError("Failure creating FFTW plan")
        self._set_fast()

    def _set_fast(self):
        """What _fast.serial_execute checks new arrays against (None once
        destroyed): the planned arrays and their alignments."""
        self._fast = None if self._plan is None else (
            self._plan.handle, self._input_array, self._output_array,
            get_alignment(self._input_array), get_alignment(self._output_array))

    def __del__(self):
        self.destroy()

    def destroy(self):
        """Free the FFTW plan (local)."""
        if getattr(self, "_plan", None) is not None:
            self._plan.destroy()
            self._plan = None
            self._set_fast()

    @property
    def input_array(self):
        return self._input_array

    @property
    def output_array(self):
        return self._output_array

    def print_plan(self):
        _check(self._plan is not None, "the plan was destroyed")
        print(self._plan.describe())

    def get_normalization(self):
        """The factor normalize=True multiplies by."""
        return self._M

    @staticmethod
    def _same(planned, array):
        return planned.shape == array.shape and planned.strides == array.strides and \
            planned.dtype == array.dtype and \
            array.ctypes.data % get_alignment(planned) == 0

    def update_arrays(self, input_array, output_array):
        """Plan's arrays replaced by these (same shape, strides, dtype,
        alignment)."""
        _check(self._same(self._input_array, input_array), "input_array differs from the plan's")
        _check(self._same(self._output_array, output_array),
               "output_array differs from the plan's")
        self._input_array, self._output_array = input_array, output_array
        self._set_fast()

    def __call__(self, input_array=None, output_array=None, implicit=True, normalize=False,
                 **kw):
        """Run the transform and return the output array (see the module)."""
        if implicit:   # arrays the plan can run on: checked and run in C
            rc = _fast.serial_execute(self._fast, input_array, output_array)
            if rc is not None:
                if rc:
                    _lib.check(rc)
                if output_array is None:
                    output_array = self._output_array
                if normalize:
                    output_array *= self._M
                return output_array
        _check(self._plan is not None, "the plan was destroyed")
        if not implicit:
            if input_array is not None:
                self._input_array[...] = input_array
            self._plan.execute(self._input_array, self._output_array)
            if normalize:
                self._output_array *= self._M
            if output_array is not None:
                output_array[...] = self._output_array
                return output_array
            return self._output_array
        if input_array is None:
            input_array = self._input_array
        elif not (isinstance(input_array, numpy.ndarray) and
                  self._same(self._input_array, input_array)):
            self._input_array[...] = input_array
            input_array = self._input_array
        if output_array is None:
            output_array = self._output_array
        else:
            _check(isinstance(output_array, numpy.ndarray) and
                   self._same(self._output_array, output_array) and
                   output_array.flags.writeable,
                   "output_array has the wrong shape, strides, dtype or alignment, or is "
                   "read-only")
        self._plan.execute(input_array, output_array)
        if normalize:
            output_array *= self._M
        return output_array


def get_planned_FFT(input_array, output_array, axes=(-1,), kind=FFTW_FORWARD, threads=1,
                    flags=(FFTW_MEASURE,), normalization=1.0):
    """A planned FFT of `kind` (see FFT) from input_array to output_array."""
    _check(input_array.dtype.char.upper() in "FDG" and
           _fftw.precision(input_array.dtype.char) is not None,
           f"no FFTW library for dtype {input_array.dtype}")
    return FFT(input_array, output_array, axes, kind, threads, flags, normalization)


def _product(shape, axes):
    return int(numpy.prod(numpy.take(shape, axes)))


def fftn(input_array, s=None, axes=(-1,), threads=1, flags=(FFTW_MEASURE,),
         output_array=None):
    """Planned complex forward FFT over axes; normalization 1/N."""
    _check(input_array.dtype.char in "FDG", "fftn needs complex input")
    if output_array is None:
        output_array = aligned(input_array.shape, get_alignment(input_array),
                               input_array.dtype.char.upper())
    else:
        _check(input_array.shape == output_array.shape, "output shape differs from input")
        _check(output_array.dtype.char == input_array.dtype.char.upper(), "output dtype")
    return get_planned_FFT(input_array, output_array, axes, FFTW_FORWARD, threads, flags,
                           1.0 / _product(input_array.shape, axes))


def ifftn(input_array, s=None, axes=(-1,), threads=1, flags=(FFTW_MEASURE,),
          output_array=None):
    """Planned complex backward FFT over axes (unnormalised; 1/N stored)."""
    _check(input_array.dtype.char in "FDG", "ifftn needs complex input")
    if output_array is None:
        output_array = aligned_like(input_array)
    else:
        _check(input_array.shape == output_array.shape, "output shape differs from input")
    return get_planned_FFT(input_array, output_array, axes, FFTW_BACKWARD, threads, flags,
                           1.0 / _product(input_array.shape, axes))


def _halved_output(input_array, axes, output_array):
    if output_array is None:
        shape = list(input_array.shape)
        shape[axes[-1]] = input_array.shape[axes[-1]] // 2 + 1
        return aligned(shape, n=get_alignment(input_array),
                       dtype=numpy.dtype(input_array.dtype.char.upper()))
    _check(input_array.shape[axes[-1]] // 2 + 1 == output_array.shape[axes[-1]],
           "output_array's last transformed axis must have n//2+1 entries")
    return output_array


def _full_shape(input_array, s, axes, output_array, flags, name):
    shape = list(input_array.shape)
    if s is not None:
        _check(len(axes) == len(s), f"{name}: s and axes differ in length")
        for length, axis in zip(s, axes):
            shape[axis] = int(length)
    else:
        shape[axes[-1]] = 2 * shape[axes[-1]] - 2
    if output_array is None:
        output_array = aligned(shape, n=get_alignment(input_array),
                               dtype=numpy.dtype(input_array.dtype.char.lower()))
    else:
        _check(list(output_array.shape) == shape, f"{name}: output_array shape {shape} expected")
    _check(shape[axes[-1]] // 2 + 1 == input_array.shape[axes[-1]],
           f"{name}: the last axis of s does not match the input's")
    return output_array


def rfftn(input_array, s=None, axes=(-1,), threads=1, flags=(FFTW_MEASURE,),
          output_array=None):
    """Planned real-to-complex FFT; the last of axes is halved."""
    _check(input_array.dtype.char in "fdg", "rfftn needs real input")
    output_array = _halved_output(input_array, axes, output_array)
    return get_planned_FFT(input_array, output_array, axes, R2C, threads, flags,
                           1.0 / _product(input_array.shape, axes))


def irfftn(input_array, s=None, axes=(-1,), threads=1, flags=(FFTW_MEASURE,),
           output_array=None):
    """Planned complex-to-real FFT (inverse of rfftn, unnormalised)."""
    _check(input_array.dtype.char in "FDG", "irfftn needs complex input")
    flags = [flags] if isinstance(flags, int) else flags
    _check(FFTW_PRESERVE_INPUT not in flags, "irfftn cannot preserve its input")
    output_array = _full_shape(input_array, s, axes, output_array, flags, "irfftn")
    return get_planned_FFT(input_array, output_array, axes, C2R, threads, flags,
                           1.0 / _product(output_array.shape, axes))


def _r2r(table, name, input_array, axes, type, threads, flags, output_array):
    _check(input_array.dtype.char in "fdg", f"{name} needs real input")
    _check(type in table, f"{name}: type {type} is not 1-4")
    if output_array is None:
        output_array = aligned_like(input_array)
    else:
        _check(input_array.shape == output_array.shape, "output shape differs from input")
    kind = [table[type]] * len(axes)
    return get_planned_FFT(input_array, output_array, axes, kind, threads, flags,
                           get_normalization(kind, input_array.shape, axes))


def dctn(input_array, s=None, axes=(-1,), type=2, threads=1, flags=(FFTW_MEASURE,),
         output_array=None):
    """Planned DCT of `type` (FFTW REDFT) over axes."""
    return _r2r(dct_type, "dctn", input_array, axes, type, threads, flags, output_array)


def idctn(input_array, s=None, axes=(-1,), type=2, threads=1, flags=(FFTW_MEASURE,),
          output_array=None):
    """Planned inverse of dctn of the same type (unnormalised)."""
    return _r2r(idct_type, "idctn", input_array, axes, type, threads, flags, output_array)


def dstn(input_array, s=None, axes=(-1,), type=2, threads=1, flags=(FFTW_MEASURE,),
         output_array=None):
    """Planned DST of `type` (FFTW RODFT) over axes."""
    return _r2r(dst_type, "dstn", input_array, axes, type, threads, flags, output_array)


def idstn(input_array, s=None, axes=(-1,), type=2, threads=1, flags=(FFTW_MEASURE,),
          output_array=None):
    """Planned inverse of dstn of the same type (unnormalised)."""
    return _r2r(idst_type, "idstn", input_array, axes, type, threads, flags, output_array)


def ihfftn(input_array, s=None, axes=(-1,), threads=1, flags=(FFTW_MEASURE,),
           output_array=None):
    """Planned inverse Hermitian FFT (mpi4py-fft's: FFTW r2c, factor 1/N)."""
    _check(input_array.dtype.char in "fdg", "ihfftn needs real input")
    output_array = _halved_output(input_array, axes, output_array)
    return get_planned_FFT(input_array, output_array, axes, R2C, threads, flags,
                           get_normalization(R2C, input_array.shape, axes))


def hfftn(input_array, s=None, axes=(-1,), threads=1, flags=(FFTW_MEASURE,),
          output_array=None):
    """Planned Hermitian FFT (mpi4py-fft's: FFTW c2r, factor 1/N)."""
    _check(input_array.dtype.char in "FDG", "hfftn needs complex input")
    output_array = _full_shape(input_array, s, axes, output_array, flags, "hfftn")
    return get_planned_FFT(input_array, output_array, axes, C2R, threads, flags,
                           get_normalization(C2R, output_array.shape, axes))


def get_normalization(kind, shape, axes):
    """1/N, N the product over axes of each kind's logical length."""
    kind = [kind] * len(axes) if isinstance(kind, (int, numpy.integer)) else list(kind)
    _check(len(kind) == len(axes), "one kind per axis")
    total = 1
    for code, axis in zip(kind, axes):
        n = shape[axis]
        if code == FFTW_RODFT00:
            total *= 2 * (n + 1)
        elif code == FFTW_REDFT00:
            total *= 2 * (n - 1)
        elif code in (FFTW_RODFT01, FFTW_RODFT10, FFTW_RODFT11, FFTW_REDFT01, FFTW_REDFT10,
                      FFTW_REDFT11):
            total *= 2 * n
        else:
            total *= n
    return 1.0 / total


inverse = {
    FFTW_RODFT11: FFTW_RODFT11, FFTW_REDFT11: FFTW_REDFT11,
    FFTW_RODFT01: FFTW_RODFT10, FFTW_RODFT10: FFTW_RODFT01,
    FFTW_REDFT01: FFTW_REDFT10, FFTW_REDFT10: FFTW_REDFT01,
    FFTW_RODFT00: FFTW_RODFT00, FFTW_REDFT00: FFTW_REDFT00,
    rfftn: irfftn, irfftn: rfftn, fftn: ifftn, ifftn: fftn,
    dctn: idctn, idctn: dctn, dstn: idstn, idstn: dstn, hfftn: ihfftn, ihfftn: hfftn,
}

__all__ = [name for name in dict(globals()) if not name.startswith("_") and
           name not in ("numpy",)]
