"""
_fftw.py -- mpi4py-fft's serial FFTW plans, per precision, on distfft's
serial C API (distfft_serial_*, include/distfft.h).

mpi4py-fft's serial transforms are FFTW plans over some axes of a strided
array (the other axes a loop). In single and double precision they are
distfft_serial_plan_create's plans, run by distfft_serial_execute (FFTW's
new-array execute), with FFTW's wisdom and time limit through
distfft_serial_wisdom_* and distfft_serial_set_timelimit: the FFTW that
libdistfft links, so wisdom and the planner are shared with distfft's own
plans. One `Precision` object per precision: `plan(...)` returns a plan
object (`execute`, `describe`, `destroy`), or None where the arrays'
strides are no whole number of elements;
and the wisdom and time-limit calls.

What libdistfft has no word for is planned by FFTW opened directly
(`_Direct`, through ctypes, the one place the package calls FFTW): long
double (libfftw3l; distfft has no long double) and the r2r kinds
FFTW_R2HC, FFTW_HC2R and FFTW_DHT (not distfft kinds). Everything
mpi4py-fft's fftn ... ihfftn plan in float and double goes through
distfft.

What a reader must know: fftw_cleanup() would make every existing plan
undefined, distfft's included, so `cleanup` here only forgets wisdom and
resets the time limit (see fftw/__init__.py). And fftw_init_threads runs
before the first fftw_plan_with_nthreads, which otherwise calls
fftw_cleanup in FFTW 3.3.10 (see distfft/_lib.py).
"""
import ctypes

import numpy

from ... import _lib
from ...errors import DistfftError

# What the kind codes mean to the planner (mpi4py-fft's numbering); the
# r2r codes are FFTW's own.
C2C_FORWARD, C2C_BACKWARD, R2C, C2R = -1, 1, -2, 2
FFTW_R2HC, FFTW_HC2R, FFTW_DHT = 0, 1, 2
_R2R_NAMES = {3: "dct1", 4: "dct3", 5: "dct2", 6: "dct4", 7: "dst1", 8: "dst3", 9: "dst2", 10: "dst4"}

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


def _geometry(input_array, output_array, axes, kinds):
    """(logical shape, input strides, output strides, loop axes)."""
    logical = output_array.shape if kinds[0] == C2R else input_array.shape
    others = [a for a in range(input_array.ndim) if a not in axes]
    return logical, _strides(input_array), _strides(output_array), others


class _SerialPlan:
    """A distfft_serial_plan (freed by destroy)."""

    def __init__(self, handle):
        self._handle = handle

    def execute(self, input_array, output_array):
        _lib.check(_lib.lib.distfft_serial_execute(self._handle, input_array.ctypes.data,
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


class Precision:
    """Single ('f') or double ('d') precision, on distfft's serial API."""

    def __init__(self, char):
        self.char = char
        self._code = _lib.precision(numpy.dtype(char))
        self._direct = None   # FFTW itself, for the kinds distfft lacks (_Direct)

    def plan(self, input_array, output_array, axes, kinds, threads, flags):
        """The plan (DistfftError if FFTW made none) of the transform `kinds` (one
        code for c2c/r2c/c2r, one FFTW r2r kind per axis) along `axes` (the
        last one is the halved axis of r2c/c2r), looping over the other
        axes."""
        if kinds[0] not in (C2C_FORWARD, C2C_BACKWARD, R2C, C2R) and \
                any(k not in _R2R_NAMES for k in kinds):
            if self._direct is None:
                self._direct = _Direct(self.char)
            return self._direct.plan(input_array, output_array, axes, kinds, threads, flags)
        logical, in_strides, out_strides, _ = _geometry(input_array, output_array, axes, kinds)
        if in_strides is None or out_strides is None:
            return None
        c2c, r2c = _lib.code_of("kind", "c2c"), _lib.code_of("kind", "r2c")
        if kinds[0] in (C2C_FORWARD, C2C_BACKWARD):
            codes = [c2c] * len(axes)
        elif kinds[0] in (R2C, C2R):
            codes = [c2c] * (len(axes) - 1) + [r2c]
        else:
            codes = [_lib.code_of("kind", _R2R_NAMES[k]) for k in kinds]
        direction = _lib.BACKWARD if kinds[0] in (C2C_BACKWARD, C2R) else _lib.FORWARD
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


# ---- FFTW opened directly: long double, and FFTW_R2HC, _HC2R, _DHT -------------

class IoDim64(ctypes.Structure):
    """fftw_iodim64: length and input/output strides in elements."""
    _fields_ = [("n", ctypes.c_ssize_t), ("is_", ctypes.c_ssize_t), ("os", ctypes.c_ssize_t)]


_PREFIX = {"f": "fftwf_", "d": "fftw_", "g": "fftwl_"}
_LIBRARY = {"f": "libfftw3f.so.3", "d": "libfftw3.so.3", "g": "libfftw3l.so.3"}
_THREADS = {"f": "libfftw3f_threads.so.3", "d": "libfftw3_threads.so.3",
            "g": "libfftw3l_threads.so.3"}


class _DirectPlan:
    """An FFTW plan of _Direct (freed by destroy)."""

    def __init__(self, direct, pointer, kind):
        self._direct, self._pointer, self._kind = direct, pointer, kind

    def execute(self, input_array, output_array):
        direct = self._direct
        function = direct.execute_dft if self._kind in (C2C_FORWARD, C2C_BACKWARD) else \
            direct.execute_r2c if self._kind == R2C else \
            direct.execute_c2r if self._kind == C2R else direct.execute_r2r
        function(self._pointer, input_array.ctypes.data, output_array.ctypes.data)

    def describe(self):
        text = self._direct.sprint_plan(self._pointer)
        try:
            return ctypes.string_at(text).decode()
        finally:
            self._direct.free(text)

    def destroy(self):
        if self._pointer:
            self._direct.destroy_plan(self._pointer)
            self._pointer = None


class _Direct:
    """FFTW of one precision ('f', 'd' or 'g') through ctypes; raises
    OSError if the library is absent."""

    def __init__(self, char):
        self.char = char
        self.lib = ctypes.CDLL(_LIBRARY[char], mode=ctypes.RTLD_GLOBAL)
        try:
            threads = ctypes.CDLL(_THREADS[char], mode=ctypes.RTLD_GLOBAL)
            threads[_PREFIX[char] + "init_threads"]()
            self._nthreads = threads[_PREFIX[char] + "plan_with_nthreads"]
            self._nthreads.argtypes = [ctypes.c_int]
        except (OSError, AttributeError):
            self._nthreads = None
        vp, dims, f = ctypes.c_void_p, ctypes.POINTER(IoDim64), self._function
        guru = [ctypes.c_int, dims, ctypes.c_int, dims, vp, vp]
        self._dft = f("plan_guru64_dft", vp, guru + [ctypes.c_int, ctypes.c_uint])
        self._r2c = f("plan_guru64_dft_r2c", vp, guru + [ctypes.c_uint])
        self._c2r = f("plan_guru64_dft_c2r", vp, guru + [ctypes.c_uint])
        self._r2r = f("plan_guru64_r2r", vp, guru + [ctypes.POINTER(ctypes.c_int), ctypes.c_uint])
        self.execute_dft = f("execute_dft", None, [vp, vp, vp])
        self.execute_r2c = f("execute_dft_r2c", None, [vp, vp, vp])
        self.execute_c2r = f("execute_dft_c2r", None, [vp, vp, vp])
        self.execute_r2r = f("execute_r2r", None, [vp, vp, vp])
        self.destroy_plan = f("destroy_plan", None, [vp])
        self.sprint_plan = f("sprint_plan", vp, [vp])
        self.free = f("free", None, [vp])
        self._export = f("export_wisdom_to_filename", ctypes.c_int, [ctypes.c_char_p])
        self._import = f("import_wisdom_from_filename", ctypes.c_int, [ctypes.c_char_p])
        self.forget_wisdom = f("forget_wisdom", None, [])
        self._timelimit = f("set_timelimit", None, [ctypes.c_double])

    def _function(self, name, restype, argtypes):
        function = self.lib[_PREFIX[self.char] + name]
        function.restype, function.argtypes = restype, argtypes
        return function

    def plan(self, input_array, output_array, axes, kinds, threads, flags):
        """As Precision.plan, by FFTW's guru64 planner."""
        logical, in_strides, out_strides, others = _geometry(input_array, output_array, axes,
                                                             kinds)
        if in_strides is None or out_strides is None:
            return None

        def dims(which):
            array = (IoDim64 * max(1, len(which)))()
            for i, axis in enumerate(which):
                array[i] = IoDim64(logical[axis], in_strides[axis], out_strides[axis])
            return len(which), array

        rank, loop = dims(axes), dims(others)
        inp, out, kind = input_array.ctypes.data, output_array.ctypes.data, kinds[0]
        if self._nthreads is not None:
            self._nthreads(int(threads))
        if kind in (C2C_FORWARD, C2C_BACKWARD):
            plan = self._dft(*rank, *loop, inp, out, kind, flags)
        elif kind == R2C:
            plan = self._r2c(*rank, *loop, inp, out, flags)
        elif kind == C2R:
            plan = self._c2r(*rank, *loop, inp, out, flags)
        else:
            codes = (ctypes.c_int * len(kinds))(*kinds)
            plan = self._r2r(*rank, *loop, inp, out, codes, flags)
        if self._nthreads is not None:
            self._nthreads(1)
        return _DirectPlan(self, plan, kind) if plan else None

    def export_wisdom(self, filename):
        return self._export(_path(filename))

    def import_wisdom(self, filename):
        return self._import(_path(filename))

    def set_timelimit(self, seconds):
        self._timelimit(float(seconds))


_precisions = {}


def precision(char):
    """The Precision for dtype char ('f', 'd', 'g' or upper case), or None
    where there is none (long double: where libfftw3l is not installed)."""
    char = numpy.dtype(char).char.lower()
    if char not in _PREFIX:
        return None
    if char not in _precisions:
        try:
            _precisions[char] = _Direct(char) if char == "g" else Precision(char)
        except (OSError, AttributeError, DistfftError):
            _precisions[char] = None
    return _precisions[char]
