"""
_arrays.py -- aligned allocation and the checks on arrays handed to C.

FFTW's SIMD code (and so distfft_plan_execute) needs buffers
aligned to 16 bytes; we allocate at 64 (a cache line, AVX-512) by
over-allocating a byte buffer and viewing an aligned window of it.
"""
import numpy

from . import _fast

ALIGNMENT = 64          # what we allocate
REQUIRED_ALIGNMENT = 16  # what FFTW's alignment_of checks for SIMD plans


def empty_aligned(shape, dtype, alignment=ALIGNMENT):
    """An uninitialised C-contiguous array whose data is `alignment`-aligned."""
    dtype = numpy.dtype(dtype)
    shape = tuple(int(n) for n in shape)
    nbytes = int(numpy.prod(shape, dtype=numpy.int64)) * dtype.itemsize
    raw = numpy.empty(nbytes + alignment, dtype=numpy.uint8)
    offset = (-raw.ctypes.data) % alignment
    return raw[offset:offset + nbytes].view(dtype).reshape(shape)


def zeros_aligned(shape, dtype, alignment=ALIGNMENT):
    array = empty_aligned(shape, dtype, alignment)
    array[...] = 0
    return array


def is_aligned(data_pointer):
    """For pointer(array): None (an empty block) counts as aligned."""
    return data_pointer is None or data_pointer % REQUIRED_ALIGNMENT == 0


# pointer(array): the data pointer for C, or None (NULL) for an empty block
# (TypeError for what is not a numpy.ndarray).
pointer = _fast.address


def check_array(array, shape, dtype, what, writable=False):
    """The array handed to C must be exactly this: no silent conversion.
    Raises TypeError/ValueError naming what is wrong; returns pointer(array)."""
    if not isinstance(array, numpy.ndarray):
        raise TypeError(f"distfft: {what} must be a numpy.ndarray, not {type(array).__name__}")
    if array.dtype != dtype:
        raise TypeError(f"distfft: {what} has dtype {array.dtype}, the plan needs {dtype} "
                        f"(convert explicitly, e.g. a.astype(numpy.{dtype}))")
    if array.shape != tuple(shape):
        raise ValueError(f"distfft: {what} has shape {array.shape}, this rank's block is "
                         f"{tuple(shape)}")
    if writable and not array.flags.writeable:
        raise ValueError(f"distfft: {what} is read-only")
    if not array.flags.c_contiguous:
        raise ValueError(f"distfft: {what} is not C-contiguous (use the plan's "
                         "input_array()/output_array(), or numpy.ascontiguousarray)")
    data = pointer(array)
    if not is_aligned(data):
        raise ValueError(f"distfft: {what} is not {REQUIRED_ALIGNMENT}-byte aligned as FFTW "
                         "needs (allocate it with the plan's input_array()/output_array())")
    return data
