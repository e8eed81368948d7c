"""
_arrays.py -- aligned allocation and the checks on arrays handed to C.

FFTW's SIMD code (and so distfft_plan_execute) needs buffers
aligned to 16 bytes; we allocate at 64 (a cache line, AVX-512) by
over-allocating a byte buffer and viewing an aligned window of it.

ResultPool keeps the buffers of large arithmetic results for reuse (see
distarray.py for why DistArrays need it).
"""
import math
import sys

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


class ResultPool:
    """Aligned buffers of large temporaries, each reused once no array
    refers to it any more.

    numpy reuses the buffer of a temporary in `u + c * v` only when every
    operand is an exact numpy.ndarray; with a subclass each operation
    allocates. Two large temporaries alive at once make glibc hand the
    freed heap top back to the kernel, and the next allocation faults every
    page in again -- the cost, not the arithmetic. A buffer here is free
    when only the pool refers to its memory: every view of it holds a
    reference to the array that owns the memory (numpy's `base`), so its
    reference count tells. At most `per_size` buffers of one byte size and
    `sizes` different sizes are kept (the oldest size is dropped first);
    beyond that output() returns None and numpy allocates as usual. The
    pool holds on to as many buffers as were ever in use at once: the
    memory of the largest expression's temporaries stays allocated."""

    def __init__(self, min_bytes=1 << 18, per_size=8, sizes=16):   # numpy elides from 256 KiB
        self.min_bytes, self.per_size, self.sizes = min_bytes, per_size, sizes
        self._buffers = {}   # byte size -> [(owner, aligned byte view), ...]
        # The reference count of a buffer nobody else holds, as _counts sees it.
        self._idle = next(self._counts([self._new_buffer(ALIGNMENT)]))[0]

    @staticmethod
    def _new_buffer(nbytes):
        view = empty_aligned((nbytes,), numpy.uint8)
        return view.base, view

    @staticmethod
    def _counts(entries):
        for owner, view in entries:
            yield sys.getrefcount(owner), view

    def output(self, shape, dtype):
        """An uninitialised aligned array of this shape and dtype on a free
        pooled buffer, or None (too small to pool, or none free)."""
        nbytes = math.prod(shape) * dtype.itemsize
        if nbytes < self.min_bytes:
            return None
        entries = self._buffers.get(nbytes)
        if entries is None:
            if len(self._buffers) >= self.sizes:
                del self._buffers[next(iter(self._buffers))]
            entries = self._buffers[nbytes] = []
        for count, view in self._counts(entries):
            if count == self._idle:
                return view.view(dtype).reshape(shape)
        if len(entries) >= self.per_size:
            return None
        entries.append(self._new_buffer(nbytes))
        return entries[-1][1].view(dtype).reshape(shape)
