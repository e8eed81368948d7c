"""
utilities.py -- mpi4py_fft.fftw.utilities: FFTW's constants and aligned arrays.

The numbers are FFTW's own (fftw3.h): the r2r kinds, the planner flags,
the sign of a complex transform; mpi4py-fft adds R2C = -2 and C2R = 2 for
the real-data transforms. `aligned(shape, n, dtype, fill)` allocates an
n-byte-aligned array; `get_alignment(a)` is the largest power of two up to
32 dividing a's data address.
"""
import numpy

FFTW_FORWARD = -1
FFTW_R2HC = 0
FFTW_BACKWARD = 1
FFTW_HC2R = 1
FFTW_DHT = 2
FFTW_REDFT00 = 3
FFTW_REDFT01 = 4
FFTW_REDFT10 = 5
FFTW_REDFT11 = 6
FFTW_RODFT00 = 7
FFTW_RODFT01 = 8
FFTW_RODFT10 = 9
FFTW_RODFT11 = 10

C2C_FORWARD = -1
C2C_BACKWARD = 1
R2C = -2
C2R = 2

FFTW_MEASURE = 0
FFTW_DESTROY_INPUT = 1
FFTW_UNALIGNED = 2
FFTW_CONSERVE_MEMORY = 4
FFTW_EXHAUSTIVE = 8
FFTW_PRESERVE_INPUT = 16
FFTW_PATIENT = 32
FFTW_ESTIMATE = 64
FFTW_WISDOM_ONLY = 2097152


def get_alignment(array):
    """The alignment in bytes (1..32) of array's data."""
    address = array.ctypes.data
    for shift in range(5, -1, -1):
        if address % (1 << shift) == 0:
            return 1 << shift
    return 1


def aligned(shape, n=32, dtype=numpy.dtype("d"), fill=None):
    """A C-contiguous array of `shape` and `dtype` whose data is n-byte
    aligned, filled with the integer `fill` if given."""
    dtype = numpy.dtype(dtype)
    shape = tuple(int(s) for s in numpy.atleast_1d(shape)) if numpy.ndim(shape) else (int(shape),)
    nbytes = int(numpy.prod(shape, dtype=numpy.int64)) * dtype.itemsize
    raw = numpy.empty(nbytes + n, dtype=numpy.uint8)
    offset = (-raw.ctypes.data) % n
    array = numpy.frombuffer(raw[offset:offset + nbytes].data, dtype=dtype).reshape(shape)
    if fill is not None:
        if not isinstance(fill, int):
            raise AssertionError(f"aligned: fill must be an int, not {type(fill).__name__}")
        array[...] = fill
    return array


def aligned_like(z, fill=None):
    """An aligned array of z's shape, dtype and alignment."""
    return aligned(z.shape, n=get_alignment(z), dtype=z.dtype, fill=fill)
