"""
redistribution.py -- Redistribution: the C redistribution API on its own.

Moves a distributed array within a group of ranks from alignment along
axis_in (complete along it) to alignment along axis_out, with one
MPI_Alltoallw over subarray datatypes (or another method), planned once
(paper Sec. 3.3.2, Alg. 2 and 3). The group is any mpi4py communicator:
often one direction of a Cartesian grid (comm.Create_cart(...).Sub(...)).
"""
import ctypes

import numpy

from . import _lib, _lifetime
from ._arrays import check_array, empty_aligned, pointer, zeros_aligned
from ._collective import Agreement
from .distarray import DistArray


def decompose(n, parts, part):
    """(local_n, start) of part `part` of n elements in `parts` balanced
    blocks (paper Alg. 1; parts beyond n are empty). Local."""
    if parts < 1 or not 0 <= part < parts or n < 0:
        raise ValueError(f"distfft: decompose({n}, {parts}, {part}): need n >= 0 and "
                         "0 <= part < parts")
    local_n, start = ctypes.c_int64(), ctypes.c_int64()
    _lib.lib.distfft_decompose(int(n), int(parts), int(part), ctypes.byref(local_n),
                               ctypes.byref(start))
    return local_n.value, start.value


class Redistribution(_lifetime.Handle):
    """Redistribution(comm, in_shape, axis_in, out_shape, axis_out,
                      dtype=numpy.complex128, batch=None, method="alltoallw")

    On each rank p of comm (M ranks): `in_shape` is the local shape of the
    input block, complete along axis_in and holding block p (of M) of the
    global extent out_shape[axis_out] along axis_out; `out_shape` is the
    local output block, complete along axis_out and holding block p of
    in_shape[axis_in] along axis_in; other axes equal in both. Blocks are
    those of decompose(). With `batch` (an int), arrays have a leading axis
    of that many fields, all moved in one exchange.

    Redistribution.for_global_shape(comm, global_shape, axis_in, axis_out,
    ...) computes both local shapes for an array distributed along one axis
    only. Collective on comm; free with destroy() or a with-block.
    """

    _destroy_call = "distfft_redist_destroy"

    def __init__(self, comm, in_shape, axis_in, out_shape, axis_out,
                 dtype=numpy.complex128, batch=None, method="alltoallw"):
        self._adopt(comm)
        self._agree = Agreement(self._comm)
        self._global = None
        try:
            ctype = self._agree(self._parse, in_shape, axis_in, out_shape, axis_out, dtype,
                                batch, method)
            ndim = len(self._in)
            handle = _lib.c_handle()
            _lib.check(_lib.lib.distfft_redist_create(
                _lib.comm_handle(self._comm), ctype, ndim, _lib.int64_array(self._in),
                self.axis_in, _lib.int64_array(self._out), self.axis_out,
                1 if self.batch is None else self.batch, _lib.code_of("method", self.method),
                ctypes.byref(handle)))
        except BaseException:
            self._comm.Free()
            raise
        self._handle = handle
        _lifetime.register(self)
        self._scratch = None

    @classmethod
    def for_global_shape(cls, comm, global_shape, axis_in, axis_out,
                         dtype=numpy.complex128, batch=None, method="alltoallw"):
        """A redistribution of a global array distributed over comm along
        axis_out (input) and then along axis_in (output), all other axes
        whole. Sets input_slice/output_slice and the DistArray factories."""
        global_shape = tuple(int(n) for n in global_shape)
        size, rank = comm.Get_size(), comm.Get_rank()
        in_shape, out_shape = list(global_shape), list(global_shape)
        in_start, out_start = [0] * len(global_shape), [0] * len(global_shape)
        try:
            in_shape[axis_out], in_start[axis_out] = decompose(global_shape[axis_out], size, rank)
            out_shape[axis_in], out_start[axis_in] = decompose(global_shape[axis_in], size, rank)
        except (IndexError, TypeError):
            pass   # bad axes: the constructor reports them on every rank
        redist = cls(comm, in_shape, axis_in, out_shape, axis_out, dtype, batch, method)
        lead = () if batch is None else (slice(0, batch),)
        redist._global = ((() if batch is None else (batch,)) + global_shape)
        redist.input_slice = lead + tuple(slice(s, s + n) for s, n in zip(in_start, in_shape))
        redist.output_slice = lead + tuple(slice(s, s + n) for s, n in zip(out_start, out_shape))
        return redist

    def _parse(self, in_shape, axis_in, out_shape, axis_out, dtype, batch, method):
        try:
            self._in = tuple(_lib.c_integer(n, "in_shape extent", 64) for n in in_shape)
            self._out = tuple(_lib.c_integer(n, "out_shape extent", 64) for n in out_shape)
        except TypeError as error:
            raise TypeError(f"distfft: in_shape and out_shape must be sequences of integers ({error})") from None
        ndim = len(self._in)
        if len(self._out) != ndim:
            raise ValueError(f"distfft: in_shape {self._in} and out_shape {self._out} "
                             "differ in length")
        for name, axis in (("axis_in", axis_in), ("axis_out", axis_out)):
            if not isinstance(axis, (int, numpy.integer)) or not 0 <= axis < ndim:
                raise ValueError(f"distfft: {name} = {axis!r} is not an axis of {ndim}")
        self.axis_in, self.axis_out = int(axis_in), int(axis_out)
        self.dtype = _lib.numpy_dtype(dtype)
        ctype = _lib.element_type(self.dtype)
        self.batch = None if batch is None else _lib.c_integer(batch, "batch", 64)
        if self.batch is not None and self.batch < 1:
            raise ValueError(f"distfft: batch {batch!r} must be None or an integer >= 1")
        self.method = str(method)
        _lib.code_of("method", self.method)
        lead = () if self.batch is None else (self.batch,)
        self.input_shape, self.output_shape = lead + self._in, lead + self._out
        return ctype

    def input_array(self):
        """A zeroed input block (a DistArray when made by for_global_shape)."""
        return self._array(self.input_shape, getattr(self, "input_slice", None), self.axis_in)

    def output_array(self):
        return self._array(self.output_shape, getattr(self, "output_slice", None),
                           self.axis_out)

    def _array(self, shape, local_slice, axis):
        if self._global is None:
            return zeros_aligned(shape, self.dtype)
        lead = 0 if self.batch is None else 1
        return DistArray(self._global, local_slice, self.dtype, self._user_comm,
                         alignment=lead + axis)

    def execute(self, a, out=None):
        """Move input block `a` into `out` (a new output_array() if None);
        returns out. `a` is not modified. Collective."""
        if self._handle is None:   # destroy() is collective: the same everywhere
            raise ValueError("distfft: the redistribution has been destroyed")
        a, out = self._agree(self._prepare, a, out)
        _lib.check(_lib.lib.distfft_redist_execute(self._handle, pointer(a), pointer(out)))
        return out

    __call__ = execute

    @property
    def handle(self):
        """The C distfft_redist handle (None once destroyed), for layers that
        check their arrays themselves and call distfft_redist_execute with
        the pointers (distfft.mpi4py_fft's Transfer). It stays this object's:
        never destroy it. Local."""
        return self._handle

    def describe(self):
        """One line: method, alignments, local shapes, what this rank sends
        (the C distfft_redist_describe). Local."""
        if self._handle is None:
            raise ValueError("distfft: the redistribution has been destroyed")
        return _lib.text_of(_lib.lib.distfft_redist_describe, self._handle)

    def _prepare(self, a, out):
        if not isinstance(a, numpy.ndarray):
            raise TypeError(f"distfft: the input must be a numpy.ndarray, not {type(a).__name__}")
        if a.dtype != self.dtype or a.shape != self.input_shape:
            raise ValueError(f"distfft: the input is {a.dtype} {a.shape}, this rank's block is "
                             f"{self.dtype} {self.input_shape}")
        if not a.flags.c_contiguous:   # the one documented copy
            if self._scratch is None:
                self._scratch = empty_aligned(a.shape, a.dtype)
            self._scratch[...] = a
            a = self._scratch
        if out is None:
            out = self.output_array()
        else:
            check_array(out, self.output_shape, self.dtype, "the output array", writable=True)
        return a, out
