"""
pencil.py -- mpi4py_fft.pencil: Subcomm, Pencil and Transfer, with every
transfer a distfft redistribution.

- Subcomm(comm, dims=None, reorder=True): a tuple of sub-communicators,
  one per direction of a Cartesian grid of comm (MPI_Dims_create fills
  the zero extents; a communicator with a Cartesian topology gives its
  own directions).
- Pencil(subcomm, shape, axis=-1): a global shape split over those
  directions, whole along `axis`; subshape/substart are this rank's block
  (balanced blocks, the first n % p one longer: distfft_decompose).
  pencil(axis) is the same array whole along another axis (the two axes
  swap their sub-communicators); transfer(other, dtype) moves data
  between the two.
- Transfer.forward(A, B) / backward(B, A): one distfft_redist_execute on
  the sub-communicator that splits the new aligned axis. The
  redistribution is planned on the first call (collective on that
  sub-communicator, as the call is), so building a Transfer is local.
  The method is distfft's (`method=`, default DEFAULT_METHOD: Alltoallw
  over subarray types, as mpi4py-fft's exchange; 'auto' measures).

Unlike mpi4py-fft, blocks may be empty (more ranks than points along an
axis). Element types other than distfft's four move as the float type of
their size (int32 as float32, int64 as float64, long double and wider
as 8-byte words): the bytes are copied, never converted.
"""
import numpy
from mpi4py import MPI

from .. import _fast, _lib
from .._arrays import empty_aligned, is_aligned, pointer
from ..redistribution import Redistribution, decompose

DEFAULT_METHOD = "alltoallw"


def _check(condition, message):
    if not condition:
        raise AssertionError(message)


class Subcomm(tuple):
    """Sub-communicators of a Cartesian grid, one per direction (see
    the module text). destroy() frees them (collective)."""

    def __new__(cls, comm, dims=None, reorder=True):
        _check(not comm.Is_inter(), "Subcomm needs an intracommunicator")
        if comm.Get_topology() == MPI.CART:
            _check(comm.Get_dim() > 0 and dims is None,
                   "a Cartesian communicator gives its own dims")
            cart = comm
        else:
            if dims is None:
                dims = [0]
            elif numpy.ndim(dims) > 0:
                _check(len(dims) > 0, "dims is empty")
                dims = [max(0, int(d)) for d in dims]
            else:
                _check(dims > 0, f"dims {dims} must be positive")
                dims = [0] * int(dims)
            dims = MPI.Compute_dims(comm.Get_size(), dims)
            cart = comm.Create_cart(dims, reorder=reorder)
        ndim = cart.Get_dim()
        directions = []
        for i in range(ndim):
            keep = [False] * ndim
            keep[i] = True
            directions.append(cart.Sub(keep))
        if cart != comm:
            cart.Free()
        return super().__new__(cls, directions)

    def destroy(self):
        for comm in self:
            if comm:
                comm.Free()


def _word_type(dtype):
    """(distfft dtype, words per element) that carry dtype's bytes."""
    dtype = numpy.dtype(dtype)
    if dtype.char in "fdFD":
        return dtype, 1
    if dtype.itemsize % 8 == 0:
        return numpy.dtype(numpy.float64), dtype.itemsize // 8
    if dtype.itemsize % 4 == 0:
        return numpy.dtype(numpy.float32), dtype.itemsize // 4
    raise NotImplementedError(f"distfft.mpi4py_fft: Transfer of {dtype} ({dtype.itemsize}-byte "
                              "elements): distfft moves elements of 4 or a multiple of 8 bytes")


class Transfer:
    """Moves an array between two alignments within `comm` (the group of
    ranks sharing every other coordinate): arrays of local shape subshapeA
    (whole along axisA) and subshapeB (whole along axisB), of a global
    `shape` on that group. forward(A, B), backward(B, A)."""

    def __init__(self, comm, shape, dtype, subshapeA, axisA, subshapeB, axisB, method=None):
        self.comm = comm
        self.shape = tuple(int(n) for n in shape)
        self.dtype = numpy.dtype(dtype)
        self.subshapeA, self.axisA = tuple(int(n) for n in subshapeA), int(axisA)
        self.subshapeB, self.axisB = tuple(int(n) for n in subshapeB), int(axisB)
        self.method = DEFAULT_METHOD if method is None else method
        self._word, self._words = _word_type(self.dtype)
        self._plans = {}
        self._fast = {}   # direction -> what _fast.redist_execute checks the arrays against
        self._scratch = {}

    def _plan(self, direction):
        """The redistribution for direction 'forward' (A to B) or
        'backward', planned on first use (collective on comm)."""
        if direction not in self._plans:
            tail = () if self._words == 1 else (self._words,)
            a, b = self.subshapeA + tail, self.subshapeB + tail
            if direction == "forward":
                args = (a, self.axisA, b, self.axisB)
            else:
                args = (b, self.axisB, a, self.axisA)
            self._plans[direction] = Redistribution(self.comm, *args, dtype=self._word,
                                                    method=self.method)
        return self._plans[direction]

    def _words_of(self, array, shape, name, writable):
        """(array as the word array C gets, its pointer, whether it is a
        scratch copy): a copy if it is not contiguous and aligned. Called
        twice per transfer: the messages are formatted only on failure."""
        if not (isinstance(array, numpy.ndarray) and array.shape == shape):
            _check(False, f"{name} has shape {getattr(array, 'shape', None)}, not {shape}")
        if array.dtype != self.dtype:
            _check(False, f"{name} has dtype {array.dtype}, not {self.dtype}")
        address = pointer(array)
        if array.flags.c_contiguous and is_aligned(address) and \
                (not writable or array.flags.writeable):
            return array, address, False
        key = (name, shape)
        if key not in self._scratch:
            self._scratch[key] = empty_aligned(shape, self.dtype)
        scratch = self._scratch[key]
        if not writable:
            scratch[...] = array
        return scratch, pointer(scratch), True

    def _run(self, direction, source, source_shape, target, target_shape):
        fast = self._fast.get(direction)
        if fast is None:
            plan = self._plan(direction)
            fast = self._fast[direction] = (plan.handle.value, self.dtype, source_shape,
                                            target_shape)
        rc = _fast.redist_execute(fast, source, target)   # None: arrays checked below
        if rc is not None:
            _lib.check(rc)
            return
        plan = self._plans[direction]
        _, src, _ = self._words_of(source, source_shape, "input array", False)
        dst, address, copied = self._words_of(target, target_shape, "output array", True)
        _lib.check(_lib.lib.distfft_redist_execute(plan.handle, src, address))
        if copied:
            target[...] = dst

    def forward(self, arrayA, arrayB):
        """arrayA (aligned axisA) into arrayB (aligned axisB). Collective."""
        self._run("forward", arrayA, self.subshapeA, arrayB, self.subshapeB)

    def backward(self, arrayB, arrayA):
        """arrayB (aligned axisB) into arrayA (aligned axisA). Collective."""
        self._run("backward", arrayB, self.subshapeB, arrayA, self.subshapeA)

    def destroy(self):
        """Free the redistributions (collective on comm if any was made)."""
        for plan in self._plans.values():
            plan.destroy()
        self._plans, self._fast = {}, {}


class Pencil:
    """A global `shape` split over `subcomm`, whole along `axis` (see the
    module text)."""

    def __init__(self, subcomm, shape, axis=-1):
        _check(len(shape) >= 2, f"shape {tuple(shape)} needs at least 2 axes")
        _check(min(shape) >= 1, f"shape {tuple(shape)} needs positive lengths")
        _check(-len(shape) <= axis < len(shape), f"axis {axis} of {len(shape)}")
        _check(1 <= len(subcomm) <= len(shape), "one sub-communicator per axis at most")
        if axis < 0:
            axis += len(shape)
        if len(subcomm) < len(shape):
            subcomm = list(subcomm)
            while len(subcomm) < len(shape) - 1:
                subcomm.append(MPI.COMM_SELF)
            subcomm.insert(axis, MPI.COMM_SELF)
        _check(len(subcomm) == len(shape), "one sub-communicator per axis")
        _check(subcomm[axis].Get_size() == 1,
               f"the aligned axis {axis} is split over {subcomm[axis].Get_size()} ranks")
        blocks = [decompose(int(n), comm.Get_size(), comm.Get_rank())
                  for n, comm in zip(shape, subcomm)]
        self.shape = tuple(int(n) for n in shape)
        self.axis = axis
        self.subcomm = tuple(subcomm)
        self.subshape = tuple(b[0] for b in blocks)
        self.substart = tuple(b[1] for b in blocks)

    def pencil(self, axis):
        """This array whole along `axis` instead."""
        _check(-len(self.shape) <= axis < len(self.shape), f"axis {axis} of {len(self.shape)}")
        if axis < 0:
            axis += len(self.shape)
        subcomm = list(self.subcomm)
        subcomm[axis], subcomm[self.axis] = subcomm[self.axis], subcomm[axis]
        return Pencil(subcomm, self.shape, axis)

    def transfer(self, pencil, dtype):
        """The Transfer from this pencil to `pencil` for `dtype`."""
        a, b = self, pencil
        _check(a.shape == b.shape, f"pencils of shapes {a.shape} and {b.shape}")
        _check(a.axis != b.axis, "both pencils are aligned in the same axis")
        for i in range(len(a.shape)):
            if i not in (a.axis, b.axis):
                _check(a.subcomm[i] == b.subcomm[i] and a.subshape[i] == b.subshape[i],
                       f"the pencils split axis {i} differently")
        _check(a.subcomm[b.axis] == b.subcomm[a.axis],
               "the pencils do not swap one sub-communicator")
        shape = list(a.subshape)
        shape[b.axis] = a.shape[b.axis]
        return Transfer(a.subcomm[b.axis], shape, dtype, a.subshape, a.axis, b.subshape, b.axis)
