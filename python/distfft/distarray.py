"""
distarray.py -- DistArray: one rank's block of a distributed global array.

A numpy.ndarray subclass (as mpi4py-fft's DistArray) that also knows the
global shape, where its block sits in the global array (`local_slice`,
`substart`), the axis along which every rank holds the whole extent
(`alignment`), its communicator and, for transform data, the transform kinds
per axis. `gather` assembles the global array on one rank (or every rank),
`scatter` fills the blocks from one; both go through the array's
distfft.Layout (distfft_layout_gather/scatter: each block one message into a
subarray datatype of the global array).

Views and ufunc results of the same shape keep the metadata; reshaping or
slicing drops it (the block would no longer describe the global array).

The operators + - * / and unary minus differ from numpy's ufuncs in where
their results live, for speed; values and dtypes are numpy's. numpy reuses
a temporary's buffer in `u + c * v` only when every operand is an exact
numpy.ndarray, so on a subclass every operation allocates, and a solver's
large temporaries then cost page faults (glibc hands the freed memory back
to the kernel and the next allocation faults it in again) more than
arithmetic. So an operator's result that describes no block (its DistArray
operand has lost the distribution, or broadcasting changed the shape) is
a plain numpy.ndarray, which numpy can reuse; one that does is a DistArray
whose buffer, when large, comes from a pool (_arrays.ResultPool) and is
reused once the result is dropped.
"""
import threading

import numpy

from . import _blocks, _lib
from ._arrays import ResultPool, empty_aligned, pointer, zeros_aligned
from ._collective import agree


_METADATA = ("global_shape", "local_slice", "alignment", "comm", "kinds", "space", "_layout")

# Where the operators' large results live: one pool per thread, so that
# no other thread can take a buffer between the pool's check that it is
# free and the view that makes it busy.
_THREAD = threading.local()


def _results():
    pool = getattr(_THREAD, "pool", None)
    if pool is None:
        pool = _THREAD.pool = ResultPool()
    return pool


_NUMBERS = (int, float, complex, numpy.generic)
_PYTHON = numpy.dtype(numpy.float64)   # a Python number's kind, for the check below


def _operate(ufunc, array, other, reflected):
    """`array op other` (`other op array` if reflected) for a DistArray
    `array`: numpy's result, or None for the operands left to numpy (other
    than arrays and numbers, shapes that do not broadcast). A result that
    describes no block of the global array (`array` lost its distribution,
    or broadcasting changed the shape) is a plain numpy.ndarray, which
    numpy then reuses as a temporary in the next operation; one that does
    is a DistArray with the metadata of `array` (as numpy copies it), in a
    pooled buffer when it is large and floating-point."""
    if isinstance(other, _NUMBERS):
        shape = array.shape
    elif isinstance(other, numpy.ndarray) and other.ndim > 0:
        try:
            shape = array.shape if other.shape == array.shape else \
                numpy.broadcast_shapes(array.shape, other.shape)
        except ValueError:
            return None
    else:
        return None
    if array.global_shape is None or shape != array.shape:
        plain = numpy.asarray(array)
        other = numpy.asarray(other) if isinstance(other, DistArray) else other
        return ufunc(other, plain) if reflected else ufunc(plain, other)
    if array.dtype.kind not in "biufc" or getattr(other, "dtype", _PYTHON).kind not in "biufc":
        return None
    dtype = numpy.result_type(array, other)
    out = _results().output(shape, dtype) if dtype.kind in "fc" else None
    if out is None:
        return None
    out = out.view(DistArray)
    for name in _METADATA:
        setattr(out, name, getattr(array, name))
    return ufunc(other, array, out=out) if reflected else ufunc(array, other, out=out)


def _binary(name, ufunc, reflected=False):
    """DistArray's operator `name`: numpy's `ufunc` (see _operate)."""
    numpys = getattr(numpy.ndarray, name)

    def operator(self, other):
        result = _operate(ufunc, self, other, reflected)
        return numpys(self, other) if result is None else result
    operator.__name__ = name
    return operator


def _negate(array, _zero, out=None):
    """numpy.negative with _operate's binary signature; the Python int 0 it
    is given leaves the result dtype that of `array`."""
    return numpy.negative(array, out=out)


def _negative(self):
    result = _operate(_negate, self, 0, reflected=False)
    return numpy.ndarray.__neg__(self) if result is None else result


class DistArray(numpy.ndarray):
    """This rank's block of a global array of shape `global_shape`.

    DistArray(global_shape, local_slice, dtype, comm, alignment=None,
              kinds=None, space=None, layout=None) allocates a zeroed, 64-byte aligned block of shape
    given by `local_slice` (a tuple of slices with explicit start and stop,
    one per axis). `space` is "input" (real space) or "output" (spectral)
    for a plan's arrays, None otherwise. `layout` is the distfft.Layout the
    block belongs to (every rank's box; without a batch axis), when known;
    a plan's arrays ask the plan for it when it is first read (collective
    then, as the plan's layouts are made when first asked for).
    Plans hand them out: Plan.input_array(), Plan.output_array(), and
    layouts: Layout.array()."""

    def __new__(cls, global_shape, local_slice, dtype, comm, alignment=None,
                kinds=None, space=None, buffer=None, layout=None):
        global_shape = tuple(int(n) for n in global_shape)
        local_slice = tuple(slice(int(s.start), int(s.stop)) for s in local_slice)
        if len(local_slice) != len(global_shape):
            raise ValueError("distfft: local_slice needs one slice per axis of global_shape")
        shape = tuple(s.stop - s.start for s in local_slice)
        if buffer is None:
            buffer = zeros_aligned(shape, dtype)
        elif buffer.shape != shape or buffer.dtype != numpy.dtype(dtype):
            raise ValueError("distfft: buffer does not match local_slice and dtype")
        array = buffer.view(cls)
        array.global_shape = global_shape
        array.local_slice = local_slice
        array.alignment = alignment
        array.comm = comm
        array.kinds = tuple(kinds) if kinds is not None else None
        array.space = space
        array._layout = layout
        return array

    @property
    def layout(self):
        """The distfft.Layout of the block (None when not known)."""
        layout = getattr(self, "_layout", None)
        if callable(layout):   # a plan's, made when first asked for
            layout = self._layout = layout()
        return layout

    @layout.setter
    def layout(self, value):
        self._layout = value

    def __array_finalize__(self, obj):
        same = obj is not None and getattr(obj, "shape", None) == self.shape
        for name in _METADATA:
            setattr(self, name, getattr(obj, name, None) if same else None)

    __add__ = _binary("__add__", numpy.add)
    __radd__ = _binary("__radd__", numpy.add, reflected=True)
    __sub__ = _binary("__sub__", numpy.subtract)
    __rsub__ = _binary("__rsub__", numpy.subtract, reflected=True)
    __mul__ = _binary("__mul__", numpy.multiply)
    __rmul__ = _binary("__rmul__", numpy.multiply, reflected=True)
    __truediv__ = _binary("__truediv__", numpy.true_divide)
    __rtruediv__ = _binary("__rtruediv__", numpy.true_divide, reflected=True)
    __neg__ = _negative

    # ---- where the block is ----------------------------------------------------

    @property
    def substart(self):
        """Global index of this block's first element, per axis."""
        return tuple(s.start for s in self.local_slice)

    @property
    def global_size(self):
        return int(numpy.prod(self.global_shape, dtype=numpy.int64))

    def _require_metadata(self):
        if self.global_shape is None or self.comm is None:
            raise ValueError("distfft: this array has lost its distribution (a reshaped or "
                             "sliced view of a DistArray); use the original array")

    # ---- whole arrays ------------------------------------------------------------

    def gather(self, root=0):
        """The global array on rank `root` (None on the others); root=None:
        on every rank. Collective on the array's communicator."""
        self._require_metadata()
        comm = self.comm
        everyone = root is None
        root = 0 if everyone else root

        def prepare():
            if not 0 <= root < comm.Get_size():
                raise ValueError(f"distfft: root {root} is not a rank of the communicator")
            return _lib.element_type(self.dtype)
        ctype = agree(comm, prepare)
        local = numpy.ascontiguousarray(self)
        result = empty_aligned(self.global_shape, self.dtype) \
            if everyone or comm.Get_rank() == root else None
        with _blocks.layout_of_array(self) as (layout, fields):
            _lib.check(_lib.lib.distfft_layout_gather(layout, ctype, fields, pointer(local), root,
                                                      pointer(result) if comm.Get_rank() == root
                                                      else None))
        if everyone and comm.Get_size() > 1:
            comm.Bcast(result, root=0)
        return result

    def scatter(self, global_array, root=0):
        """Fill this block from `global_array` on rank `root` (ignored on the
        others; may be None there). Returns self. Collective."""
        self._require_metadata()
        comm = self.comm

        def prepare():
            if not 0 <= root < comm.Get_size():
                raise ValueError(f"distfft: root {root} is not a rank of the communicator")
            if not self.flags.c_contiguous or not self.flags.writeable:
                raise ValueError("distfft: scatter needs a writable C-contiguous DistArray")
            if comm.Get_rank() != root:
                return None
            source = numpy.asarray(global_array)
            if source.shape != self.global_shape:
                raise ValueError(f"distfft: scatter: global array has shape {source.shape}, "
                                 f"expected {self.global_shape}")
            return numpy.ascontiguousarray(source, dtype=self.dtype)

        source = agree(comm, prepare)
        with _blocks.layout_of_array(self) as (layout, fields):
            _lib.check(_lib.lib.distfft_layout_scatter(
                layout, _lib.element_type(self.dtype), fields,
                pointer(source) if source is not None else None, root, pointer(self)))
        return self

    # ---- files ------------------------------------------------------------------------

    def halo(self, widths, periodic=True, variant="datatypes", widths_high=None):
        """A distfft.Halo for this block's ghost-cell exchange (see halo.py).
        Collective on the array's communicator."""
        from .halo import halo_for
        return halo_for(self, widths, periodic, variant, widths_high)

    def write(self, path, name, mode="a"):
        """Write into dataset `name` of the HDF5 file `path` (see distfft.hdf5)."""
        from . import hdf5
        hdf5.write(path, name, self, mode=mode)

    def read(self, path, name):
        """Fill from dataset `name` of the HDF5 file `path` (see distfft.hdf5)."""
        from . import hdf5
        return hdf5.read(path, name, self)

    def __repr__(self):
        body = numpy.asarray(self).__repr__()
        return f"DistArray(global_shape={self.global_shape}, local_slice={self.local_slice}, " \
               f"{body})"
