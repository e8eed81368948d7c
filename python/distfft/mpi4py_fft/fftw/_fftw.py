"""
_fftw.py -- FFTW's guru64 planner, per precision, through ctypes.

mpi4py-fft's serial transforms are FFTW plans over some axes of a strided
array (the other axes a loop: FFTW's "howmany" dimensions). This module
plans them in the FFTW that libdistfft itself links (libfftw3, libfftw3f,
libfftw3l: the process has one of each, so wisdom and the planner are
shared with distfft's own plans). One `Precision` object per library:
`plan(...)` returns an opaque plan pointer, `execute(...)` runs it on new
arrays (FFTW's new-array execute), and the wisdom and time-limit calls.

What a reader must know: fftw_cleanup() would make every existing plan
undefined, distfft's included, so `cleanup` here only forgets wisdom and
resets the time limit (see fftw/__init__.py). And fftw_init_threads runs
before the first fftw_plan_with_nthreads, which otherwise calls
fftw_cleanup in FFTW 3.3.10 (see distfft/_lib.py).
"""
import ctypes

import numpy

from ... import _lib   # noqa: F401 -- loads libdistfft and initialises FFTW's threads first


class IoDim64(ctypes.Structure):
    """fftw_iodim64: length and input/output strides in elements."""
    _fields_ = [("n", ctypes.c_ssize_t), ("is_", ctypes.c_ssize_t), ("os", ctypes.c_ssize_t)]


_PREFIX = {"f": "fftwf_", "d": "fftw_", "g": "fftwl_"}
_LIBRARY = {"f": "libfftw3f.so.3", "d": "libfftw3.so.3", "g": "libfftw3l.so.3"}
_THREADS = {"f": "libfftw3f_threads.so.3", "d": "libfftw3_threads.so.3",
            "g": "libfftw3l_threads.so.3"}
_REAL = {"f": ctypes.c_float, "d": ctypes.c_double, "g": ctypes.c_longdouble}

# What the kind codes mean to the planner (mpi4py-fft's numbering).
C2C_FORWARD, C2C_BACKWARD, R2C, C2R = -1, 1, -2, 2


class Precision:
    """FFTW of one precision ('f', 'd' or 'g'); raises OSError if absent."""

    def __init__(self, char):
        self.char = char
        prefix = _PREFIX[char]
        self.lib = ctypes.CDLL(_LIBRARY[char], mode=ctypes.RTLD_GLOBAL)
        try:
            self.threads = ctypes.CDLL(_THREADS[char], mode=ctypes.RTLD_GLOBAL)
            self.threads[prefix + "init_threads"]()
            self._nthreads = self.threads[prefix + "plan_with_nthreads"]
            self._nthreads.argtypes = [ctypes.c_int]
        except (OSError, AttributeError):
            self.threads = self._nthreads = None
        vp, dims = ctypes.c_void_p, ctypes.POINTER(IoDim64)
        f = self._function
        self._dft = f("plan_guru64_dft", vp, [ctypes.c_int, dims, ctypes.c_int, dims, vp, vp,
                                              ctypes.c_int, ctypes.c_uint])
        self._r2c = f("plan_guru64_dft_r2c", vp, [ctypes.c_int, dims, ctypes.c_int, dims, vp, vp,
                                                  ctypes.c_uint])
        self._c2r = f("plan_guru64_dft_c2r", vp, [ctypes.c_int, dims, ctypes.c_int, dims, vp, vp,
                                                  ctypes.c_uint])
        self._r2r = f("plan_guru64_r2r", vp, [ctypes.c_int, dims, ctypes.c_int, dims, vp, vp,
                                              ctypes.POINTER(ctypes.c_int), ctypes.c_uint])
        self._execute_dft = f("execute_dft", None, [vp, vp, vp])
        self._execute_r2c = f("execute_dft_r2c", None, [vp, vp, vp])
        self._execute_c2r = f("execute_dft_c2r", None, [vp, vp, vp])
        self._execute_r2r = f("execute_r2r", None, [vp, vp, vp])
        self.destroy_plan = f("destroy_plan", None, [vp])
        self._print_plan = f("print_plan", None, [vp])
        self._sprint_plan = f("sprint_plan", vp, [vp])
        self._export = f("export_wisdom_to_filename", ctypes.c_int, [ctypes.c_char_p])
        self._import = f("import_wisdom_from_filename", ctypes.c_int, [ctypes.c_char_p])
        self.forget_wisdom = f("forget_wisdom", None, [])
        self._timelimit = f("set_timelimit", None, [ctypes.c_double])
        self._alignment_of = f("alignment_of", ctypes.c_int, [vp])
        self._free = f("free", None, [vp])

    def _function(self, name, restype, argtypes):
        function = self.lib[_PREFIX[self.char] + name]
        function.restype, function.argtypes = restype, argtypes
        return function

    def plan(self, input_array, output_array, axes, kinds, threads, flags):
        """An FFTW plan (pointer, or None if FFTW refused) of the transform
        `kinds` (one code for c2c/r2c/c2r, one per axis for r2r) along
        `axes` (the last one is the halved axis of r2c/c2r), looping over
        the other axes."""
        ndim = input_array.ndim
        logical = output_array.shape if kinds[0] == C2R else input_array.shape
        in_strides = [s // input_array.itemsize for s in input_array.strides]
        out_strides = [s // output_array.itemsize for s in output_array.strides]
        rank = (IoDim64 * max(1, len(axes)))()
        for i, axis in enumerate(axes):
            rank[i] = IoDim64(logical[axis], in_strides[axis], out_strides[axis])
        others = [a for a in range(ndim) if a not in axes]
        loop = (IoDim64 * max(1, len(others)))()
        for i, axis in enumerate(others):
            loop[i] = IoDim64(logical[axis], in_strides[axis], out_strides[axis])
        if self._nthreads is not None:
            self._nthreads(int(threads))
        inp, out = input_array.ctypes.data, output_array.ctypes.data
        kind = kinds[0]
        if kind in (C2C_FORWARD, C2C_BACKWARD):
            plan = self._dft(len(axes), rank, len(others), loop, inp, out, kind, flags)
        elif kind == R2C:
            plan = self._r2c(len(axes), rank, len(others), loop, inp, out, flags)
        elif kind == C2R:
            plan = self._c2r(len(axes), rank, len(others), loop, inp, out, flags)
        else:
            codes = (ctypes.c_int * len(kinds))(*kinds)
            plan = self._r2r(len(axes), rank, len(others), loop, inp, out, codes, flags)
        if self._nthreads is not None:
            self._nthreads(1)
        return plan

    def execute(self, plan, kind, input_array, output_array):
        """FFTW's new-array execute of `plan` (of kind code `kind`)."""
        function = self._execute_dft if kind in (C2C_FORWARD, C2C_BACKWARD) else \
            self._execute_r2c if kind == R2C else \
            self._execute_c2r if kind == C2R else self._execute_r2r
        function(plan, input_array.ctypes.data, output_array.ctypes.data)

    def describe(self, plan):
        """FFTW's text of a plan."""
        text = self._sprint_plan(plan)
        try:
            return ctypes.string_at(text).decode()
        finally:
            self._free(text)

    def print_plan(self, plan):
        print(self.describe(plan))

    def export_wisdom(self, filename):
        return self._export(filename if isinstance(filename, bytes) else filename.encode())

    def import_wisdom(self, filename):
        return self._import(filename if isinstance(filename, bytes) else filename.encode())

    def set_timelimit(self, seconds):
        self._timelimit(float(seconds))

    def alignment_of(self, array):
        return self._alignment_of(array.ctypes.data)


_precisions = {}


def precision(char):
    """The Precision for dtype char ('f', 'd', 'g' or upper case), or None
    where that FFTW library is not installed."""
    char = numpy.dtype(char).char.lower()
    if char not in _PREFIX:
        return None
    if char not in _precisions:
        try:
            _precisions[char] = Precision(char)
        except (OSError, AttributeError):
            _precisions[char] = None
    return _precisions[char]
