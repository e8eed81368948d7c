"""
_fftw.py -- mpi4py-fft's serial FFTW plans, per precision, on distfft's
serial C API (distfft_serial_*, include/distfft.h).

mpi4py-fft's serial transforms are FFTW plans over some axes of a strided
array (the other axes a loop). In single, double and long double
precision, and for every kind mpi4py-fft names (c2c, r2c/c2r and FFTW's
eleven r2r kinds: the DCTs and DSTs, R2HC, HC2R and DHT), they are
distfft_serial_plan_create's plans, run by distfft_serial_plan_execute (FFTW's
new-array execute), with FFTW's wisdom and time limit through
distfft_serial_wisdom_* and distfft_serial_set_timelimit: the FFTW that
libdistfft links, so wisdom and the planner are shared with distfft's own
plans. The package never opens an FFTW library itself here. One
`Precision` object per precision: `plan(...)` returns a plan object
(`execute`, `describe`, `destroy`), or None where the arrays' strides are
no whole number of elements; and the wisdom and time-limit calls.

What a reader must know: fftw_cleanup() would make every existing plan
undefined, distfft's included, so `cleanup` here only forgets wisdom and
resets the time limit (see fftw/__init__.py). And fftw_init_threads runs
before the first fftw_plan_with_nthreads, which otherwise calls
fftw_cleanup in FFTW 3.3.10 (see distfft/_lib.py).
"""
import ctypes

import numpy

from ... import _lib

# What the kind codes mean to the planner (mpi4py-fft's numbering); the
# r2r codes are FFTW's own (fftw_r2r_kind), named as distfft's kinds.
C2C_FORWARD, C2C_BACKWARD, R2C, C2R = -1, 1, -2, 2
_R2R_NAMES = {0: "r2hc", 1: "hc2r", 2: "dht", 3: "dct1", 4: "dct3", 5: "dct2", 6: "dct4",
              7: "dst1", 8: "dst3", 9: "dst2", 10: "dst4"}

# FFTW's planner flags (utilities.py) and distfft's serial flags for them.
FFTW_DESTROY_INPUT, FFTW_UNALIGNED, FFTW_CONSERVE_MEMORY = 1, 2, 4
FFTW_EXHAUSTIVE, FFTW_PRESERVE_INPUT, FFTW_PATIENT, FFTW_ESTIMATE = 8, 16, 32, 64
FFTW_WISDOM_ONLY = 2097152
_SERIAL_FLAGS = {FFTW_DESTROY_INPUT: "DISTFFT_SERIAL_DESTROY_INPUT",
                 FFTW_PRESERVE_INPUT: "DISTFFT_SERIAL_PRESERVE_INPUT",
                 FFTW_UNALIGNED: "DISTFFT_SERIAL_UNALIGNED",
                 FFTW_CONSERVE_MEMORY: "DISTFFT_SERIAL_CONSERVE_MEMORY",
                 FFTW_WISDOM_ONLY: "DISTFFT_SERIAL_WISDOM_ONLY"}


def _rigor(flags):
    """distfft's rigor of FFTW flags (ESTIMATE wins, as in FFTW)."""
    name = "estimate" if flags & FFTW_ESTIMATE else "exhaustive" if flags & FFTW_EXHAUSTIVE \
        else "patient" if flags & FFTW_PATIENT else "measure"
    return _lib.code_of("rigor", name)


def _serial_flags(flags):
    value = 0
    for fftw_flag, name in _SERIAL_FLAGS.items():
        if flags & fftw_flag:
            value |= _lib.LAYOUT["constants"][name]
    return value


def _strides(array):
    """array's strides in elements (None: not a whole number of them)."""
    if any(s % array.itemsize for s in array.strides):
        return None
    return [s // array.itemsize for s in array.strides]


def _geometry(input_array, output_array, c2r):
    """(logical shape, input strides, output strides); a c2r's logical
    shape is its real output's."""
    logical = output_array.shape if c2r else input_array.shape
    return logical, _strides(input_array), _strides(output_array)


class _SerialPlan:
    """A distfft_serial_plan (freed by destroy)."""

    def __init__(self, handle):
        self._handle = handle

    @property
    def handle(self):
        """The C handle as an integer (for distfft._fast.serial_execute)."""
        return self._handle.value

    def execute(self, input_array, output_array):
        _lib.check(_lib.lib.distfft_serial_plan_execute(self._handle, input_array.ctypes.data,
                                                   output_array.ctypes.data))

    def describe(self):
        size = _lib.lib.distfft_serial_plan_describe(self._handle, None, 0) + 1
        text = ctypes.create_string_buffer(size)
        _lib.lib.distfft_serial_plan_describe(self._handle, text, size)
        return text.value.decode()

    def destroy(self):
        if self._handle:
            _lib.lib.distfft_serial_plan_destroy(ctypes.byref(self._handle))
            self._handle = _lib.c_handle()


# distfft's precision of each dtype char of mpi4py-fft's ('f', 'd', 'g').
_PRECISION_NAMES = {"f": "float", "d": "double", "g": "long-double"}


class Precision:
    """Single ('f'), double ('d') or long double ('g') precision, on
    distfft's serial API."""

    def __init__(self, char):
        self.char = char
        self._code = _lib.code_of("precision", _PRECISION_NAMES[char])

    def plan(self, input_array, output_array, axes, kinds, threads, flags, real_to_real=None):
        """The plan (DistfftError if FFTW made none) of the transform `kinds` (one
        code for c2c/r2c/c2r, one FFTW r2r kind per axis) along `axes` (the
        last one is the halved axis of r2c/c2r), looping over the other
        axes. real_to_real: kinds are r2r kinds (default: unless the first
        is a c2c/r2c/c2r code). ValueError for an r2r code that is no FFTW
        kind."""
        if real_to_real is None:
            real_to_real = kinds[0] not in (C2C_FORWARD, C2C_BACKWARD, R2C, C2R)
        if real_to_real and any(k not in _R2R_NAMES for k in kinds):
            raise ValueError(f"distfft: r2r kinds {list(kinds)}: FFTW's r2r kinds are 0..10 "
                             "(FFTW_R2HC ... FFTW_RODFT11)")
        logical, in_strides, out_strides = _geometry(input_array, output_array,
                                                     not real_to_real and kinds[0] == C2R)
        if in_strides is None or out_strides is None:
            return None
        c2c, r2c = _lib.code_of("kind", "c2c"), _lib.code_of("kind", "r2c")
        if real_to_real:   # each kind as named: forward
            codes = [_lib.code_of("kind", _R2R_NAMES[int(k)]) for k in kinds]
        elif kinds[0] in (C2C_FORWARD, C2C_BACKWARD):
            codes = [c2c] * len(axes)
        else:
            codes = [c2c] * (len(axes) - 1) + [r2c]
        direction = _lib.BACKWARD if not real_to_real and kinds[0] in (C2C_BACKWARD, C2R) \
            else _lib.FORWARD
        handle = _lib.c_handle()
        rc = _lib.lib.distfft_serial_plan_create(
            len(logical), _lib.int64_array(logical), len(axes), _lib.int_array(axes, "axis"),
            _lib.int_array(codes, "kind"), direction, self._code, input_array.ctypes.data,
            _lib.int64_array(in_strides, "stride"), output_array.ctypes.data,
            _lib.int64_array(out_strides, "stride"), _rigor(flags), _serial_flags(flags),
            int(threads), ctypes.byref(handle))
        _lib.check(rc)   # DistfftError, a RuntimeError as FFT's own "Failure creating FFTW plan"
        return _SerialPlan(handle)

    def export_wisdom(self, filename):
        return _ok(_lib.lib.distfft_serial_wisdom_export_file(self._code, _path(filename)))

    def import_wisdom(self, filename):
        return _ok(_lib.lib.distfft_serial_wisdom_import_file(self._code, _path(filename)))

    def forget_wisdom(self):
        _lib.check(_lib.lib.distfft_serial_wisdom_forget(self._code))

    def set_timelimit(self, seconds):
        _lib.check(_lib.lib.distfft_serial_set_timelimit(self._code, float(seconds)))


def _path(filename):
    return filename if isinstance(filename, bytes) else _lib.c_string(filename, "wisdom file")


def _ok(rc):
    """FFTW's 1 (done) or 0 (the file could not be written or read)."""
    return 1 if rc == 0 else 0


_precisions = {}


def precision(char):
    """The Precision for dtype char ('f', 'd', 'g' or upper case), or None
    for a dtype of no FFTW precision."""
    char = numpy.dtype(char).char.lower()
    if char not in _PRECISION_NAMES:
        return None
    if char not in _precisions:
        _precisions[char] = Precision(char)
    return _precisions[char]
