"""
layout.py -- Layout and Reshape: layouts as values (the C distfft_layout
and distfft_reshape).

A Layout is a global shape and, for every rank of a communicator, one box
(start and shape per axis; empty boxes allowed) -- heFFTe's box3d and
mpi4py-fft's Pencil for any number of axes. It is checked once, collectively,
when made: the boxes must tile the global array (no gap, no overlap, inside
bounds), otherwise every rank raises the same DistfftError naming the first
offending rank and box. Every rank knows every rank's box, so the queries
are local.

A Reshape moves an array from one layout to another of the same global
array: one MPI_Alltoallw over subarray datatypes built once (or, with
method "isend-waitall", messages with the overlapping ranks only; "auto"
times both).

    layout = distfft.Layout.from_box(comm, (8, 8, 8), start, shape)
    slabs = distfft.Layout.from_grid(comm, (8, 8, 8), (comm.size,), (0, -1, -1))
    with distfft.Reshape(layout, slabs, numpy.complex128) as reshape:
        b = reshape.forward(a)          # a: this rank's box of `layout`
"""
import ctypes

import numpy

from . import _blocks, _device, _lib, _lifetime
from ._arrays import check_array, empty_aligned, pointer, zeros_aligned
from ._collective import Agreement
from .distarray import DistArray


def _ints(values, what, ndim=None):
    try:
        result = tuple(_lib.c_integer(v, what, 64) for v in values)
    except TypeError:
        raise TypeError(f"distfft: {what} must be a sequence of integers, not {values!r}")
    if ndim is not None and len(result) != ndim:
        raise ValueError(f"distfft: {what} has {len(result)} entries, the array {ndim} axes")
    return result


class Layout(_lifetime.Handle):
    """A global array's boxes on the ranks of a communicator.

    Layout(comm, global_shape, start, shape) -- this rank's box is `shape`
    at `start` (the same as Layout.from_box). Also Layout.from_grid(comm,
    global_shape, grid, distributed_by) and Layout.from_plan(plan, side).
    Collective on comm; bad boxes raise DistfftError on every rank.

    Local attributes: global_shape, ndim, size (ranks), rank, start, shape
    (this rank's box), local_slice (its numpy slices), boxes (every rank's
    (start, shape)), count (elements of this rank's box). `==` compares
    two layouts (same boxes on the same ranks). Free with destroy() or a
    with-block (collective)."""

    _destroy_call = "distfft_layout_destroy"

    def __init__(self, comm, global_shape, start, shape):
        def parse():
            glob = _ints(global_shape, "global_shape")
            if not 1 <= len(glob) <= _lib.MAX_DIMS:
                raise ValueError(f"distfft: global_shape {glob} must have 1 to {_lib.MAX_DIMS} axes")
            return glob, _ints(start, "start", len(glob)), _ints(shape, "shape", len(glob))
        self._make(comm, parse, lambda args, handle: _lib.lib.distfft_layout_from_box(
            _lib.comm_handle(self._comm), len(args[0]), _lib.int64_array(args[0]),
            _lib.int64_array(args[1]), _lib.int64_array(args[2]), handle))

    @classmethod
    def from_box(cls, comm, global_shape, start, shape):
        """This rank's box is `shape` at `start`. Collective on comm."""
        return cls(comm, global_shape, start, shape)

    @classmethod
    def from_grid(cls, comm, global_shape, grid, distributed_by):
        """The blocks of a process grid (extents `grid`, product comm.size,
        ranks row-major) and an alignment: axis a split over grid direction
        distributed_by[a] (balanced blocks, as decompose()), or whole where
        it is -1. Collective on comm."""
        self = cls.__new__(cls)

        def parse():
            glob = _ints(global_shape, "global_shape")
            return (glob, tuple(_lib.c_integer(d, "grid extent") for d in _ints(grid, "grid")),
                    tuple(_lib.c_integer(a, "distributed_by") for a in
                          _ints(distributed_by, "distributed_by", len(glob))))

        def make(args, handle):
            glob, dims, by = args
            return _lib.lib.distfft_layout_from_grid(
                _lib.comm_handle(self._comm), len(glob), _lib.int64_array(glob), len(dims),
                (ctypes.c_int * max(1, len(dims)))(*dims), (ctypes.c_int * max(1, len(by)))(*by),
                handle)
        self._make(comm, parse, make)
        return self

    @classmethod
    def from_plan(cls, plan, side="input"):
        """The layout of a plan's input or output array ("input" / "output"):
        the layout the plan was given, else its own blocks. Collective."""
        if side not in ("input", "output"):
            raise ValueError(f"distfft: side {side!r} is not 'input' or 'output'")
        plan._require_live()
        self = cls.__new__(cls)
        call = _lib.lib.distfft_plan_input_layout if side == "input" else _lib.lib.distfft_plan_output_layout
        self._make(plan.comm, lambda: None, lambda args, handle: call(plan._handle, handle))
        return self

    def _make(self, comm, parse, make):
        self._adopt(comm)
        try:
            args = Agreement(self._comm)(parse)
            handle = _lib.c_handle()
            _lib.check(make(args, ctypes.byref(handle)))
        except BaseException:
            self._comm.Free()
            raise
        self._handle = handle
        lib = _lib.lib
        self.ndim = lib.distfft_layout_ndims(handle)
        self.size = lib.distfft_layout_size(handle)
        self.rank = lib.distfft_layout_rank(handle)
        glob = _lib.int64_array([0] * self.ndim)
        _lib.check(lib.distfft_layout_global_shape(handle, glob))
        self.global_shape = tuple(glob[:self.ndim])
        boxes = []
        for r in range(self.size):
            start, shape = _lib.int64_array([0] * self.ndim), _lib.int64_array([0] * self.ndim)
            _lib.check(lib.distfft_layout_box(handle, r, start, shape))
            boxes.append((tuple(start[:self.ndim]), tuple(shape[:self.ndim])))
        self.boxes = tuple(boxes)
        self.start, self.shape = boxes[self.rank]
        self.local_slice = tuple(slice(s, s + n) for s, n in zip(self.start, self.shape))
        self.count = int(numpy.prod(self.shape, dtype=numpy.int64))
        _lifetime.register(self)   # hashed by value: after the boxes are known

    @property
    def comm(self):
        """The communicator the layout was made on (it works on a duplicate)."""
        return self._user_comm

    def __eq__(self, other):
        if not isinstance(other, Layout):
            return NotImplemented
        if self._handle is None or other._handle is None:
            return self is other
        return bool(_lib.lib.distfft_layout_equal(self._handle, other._handle))

    def __hash__(self):
        return hash((self.global_shape, self.boxes))

    def describe(self):
        """"(layout 8x8x8 ranks=2 [0:4,0:8,0:8] [4:8,0:8,0:8])". Local."""
        self._require_live()
        return _lib.text_of(_lib.lib.distfft_layout_describe, self._handle)

    def __repr__(self):
        return f"<distfft.Layout {self.describe() if self._handle is not None else 'destroyed'}>"

    def _require_live(self):
        if self._handle is None:
            raise ValueError("distfft: the layout has been destroyed")

    # ---- arrays ----------------------------------------------------------------------

    def array(self, dtype=numpy.complex128, batch=None):
        """A zeroed DistArray of this rank's box (with a leading axis of
        `batch` fields when batch is an int), carrying this layout. Local."""
        lead = () if batch is None else (int(batch),)
        lead_slice = () if batch is None else (slice(0, int(batch)),)
        return DistArray(lead + self.global_shape, lead_slice + self.local_slice, dtype, self._user_comm,
                         layout=self)

    def gather(self, a, root=0):
        """The global array (with the batch axis, if `a` has one more axis)
        assembled from every rank's box `a` on rank `root` (None elsewhere).
        Collective."""
        self._require_live()
        a = numpy.ascontiguousarray(a)

        def prepare():
            batch = self._batch_of(a.shape, "gather")
            if not 0 <= root < self.size:
                raise ValueError(f"distfft: root {root} is not a rank of the layout")
            return batch, _lib.element_type(a.dtype)
        batch, ctype = Agreement(self._comm)(prepare)
        lead = () if a.ndim == self.ndim else (batch,)
        result = empty_aligned(lead + self.global_shape, a.dtype) if self.rank == root else None
        _lib.check(_lib.lib.distfft_layout_gather(self._handle, ctype, batch, a.ctypes.data if a.size else None,
                                                  root, result.ctypes.data if result is not None and
                                                  result.size else None))
        return result

    def scatter(self, global_array, root=0, dtype=None, batch=None, out=None):
        """A DistArray of this rank's box filled from `global_array` on rank
        `root` (ignored elsewhere). dtype and batch must be given on every
        rank when they differ from complex128 / None. With `out` (this
        rank's box, with or without a leading batch axis, C-contiguous,
        writable) the box is filled into it instead, and its dtype and batch
        are used. Returns the filled array. Collective."""
        self._require_live()

        def prepare():
            if not 0 <= root < self.size:
                raise ValueError(f"distfft: root {root} is not a rank of the layout")
            if out is None:
                target = self.array(numpy.complex128 if dtype is None else dtype, batch)
                fields = 1 if batch is None else int(batch)
            else:
                if not isinstance(out, numpy.ndarray) or not out.flags.c_contiguous \
                        or not out.flags.writeable:
                    raise ValueError("distfft: scatter's out must be a writable C-contiguous array")
                target, fields = out, self._batch_of(out.shape, "scatter")
            if self.rank != root:
                return target, fields, None
            lead = () if target.ndim == self.ndim else (fields,)
            source = numpy.ascontiguousarray(global_array, dtype=target.dtype)
            if source.shape != lead + self.global_shape:
                raise ValueError(f"distfft: scatter: the global array has shape {source.shape}, "
                                 f"expected {lead + self.global_shape}")
            return target, fields, source
        target, fields, source = Agreement(self._comm)(prepare)
        _lib.check(_lib.lib.distfft_layout_scatter(
            self._handle, _lib.element_type(target.dtype), fields, pointer(source) if source is not None
            else None, root, pointer(target)))
        return target

    def halo(self, widths, dtype=numpy.complex128, periodic=True, batch=None, variant="datatypes",
             widths_high=None):
        """A distfft.Halo (ghost-cell exchange) on this layout's boxes (see
        distfft.Halo; every line of boxes along each axis must tile it, as
        grids and bricks do). Collective."""
        from .halo import Halo
        return Halo(None, None, None, widths, periodic, dtype, batch, variant, widths_high, layout=self)

    def _batch_of(self, shape, what):
        if tuple(shape) == self.shape:
            return 1
        if len(shape) == self.ndim + 1 and tuple(shape[1:]) == self.shape and shape[0] >= 1:
            return int(shape[0])
        raise ValueError(f"distfft: {what}: an array of shape {tuple(shape)} is not this rank's box "
                         f"{self.shape} (with or without a leading batch axis)")


class Reshape(_lifetime.Handle):
    """Reshape(layout_in, layout_out, dtype=numpy.complex128, batch=1,
               method="auto", rigor="measure")

    Moves arrays from layout_in to layout_out (the same global shape, on the
    same ranks): forward(a, out=None) takes this rank's box of layout_in and
    returns its box of layout_out; backward the reverse. With batch > 1 the
    arrays have a leading axis of `batch` fields, moved in the same
    exchange. method: "alltoallw" (one MPI_Alltoallw over subarray
    datatypes), "alltoallv" (the same packed, one MPI_Alltoallv),
    "isend-waitall" (messages with the overlapping ranks only) or "auto"
    (the three timed at create time unless rigor is "estimate").
    memory="cuda" moves device arrays of the device current at creation
    (CuPy's, or any __cuda_array_interface__ object, as Plan takes them;
    outputs not passed are new CuPy arrays) with the methods that apply to
    device memory ("staged"; "auto" times those), its copies ordered on
    `stream` (as Plan's); without the CUDA backend or a device,
    DistfftError on every rank. Collective on the layouts' communicator;
    free with destroy() or a with-block."""

    _destroy_call = "distfft_reshape_destroy"

    def __init__(self, layout_in, layout_out, dtype=numpy.complex128, batch=1, method="auto",
                 rigor="measure", memory="host", stream=None):
        if not isinstance(layout_in, Layout) or not isinstance(layout_out, Layout):
            raise TypeError("distfft: Reshape takes two distfft.Layout objects")
        layout_in._require_live()
        layout_out._require_live()
        self._adopt(layout_in.comm)
        self._agree = Agreement(self._comm)
        self.layout_in, self.layout_out = layout_in, layout_out

        def parse():
            self.dtype = _lib.numpy_dtype(dtype)
            ctype = _lib.element_type(self.dtype)
            self.batch = _lib.c_integer(batch, "batch", 64)
            if self.batch < 1:
                raise ValueError(f"distfft: batch {batch!r} must be an integer >= 1")
            options = _lib.reshape_options_new()
            options.method = _lib.code_of("method", str(method))
            options.rigor = _lib.code_of("rigor", str(rigor))
            self.memory = str(memory)
            options.memory = _lib.code_of("memory", self.memory)
            options.stream = _device.stream_pointer(stream)
            return ctype, options
        try:
            ctype, options = self._agree(parse)
            handle = _lib.c_handle()
            _lib.check(_lib.lib.distfft_reshape_create(layout_in._handle, layout_out._handle, ctype,
                                                       self.batch, ctypes.byref(options),
                                                       ctypes.byref(handle)))
        except BaseException:
            self._comm.Free()
            raise
        self._handle = handle
        _lifetime.register(self)
        lead = () if self.batch == 1 else (self.batch,)
        self.input_shape, self.output_shape = lead + layout_in.shape, lead + layout_out.shape

    @property
    def method(self):
        """The method in use ("alltoallw", "alltoallv" or "isend-waitall")."""
        return _lib.name_of("method", _lib.lib.distfft_reshape_method(self._handle))

    def describe(self):
        self._require_live()
        return _lib.text_of(_lib.lib.distfft_reshape_describe, self._handle)

    def forward(self, a, out=None):
        """This rank's box of layout_in -> its box of layout_out (a new
        DistArray if out is None). Collective."""
        return self.execute(a, out, True)

    def backward(self, a, out=None):
        """This rank's box of layout_out -> its box of layout_in. Collective."""
        return self.execute(a, out, False)

    def execute(self, a, out=None, forward=True):
        """forward(a, out) or backward(a, out), by `forward` (the C call
        distfft_reshape_execute). Collective."""
        self._require_live()
        in_shape, out_shape = (self.input_shape, self.output_shape) if forward else \
            (self.output_shape, self.input_shape)
        target = self.layout_out if forward else self.layout_in
        what = "forward" if forward else "backward"

        def prepare():
            if self.memory != "host":
                return self._prepare_device(a, out, what, in_shape, out_shape)
            if not isinstance(a, numpy.ndarray) or a.dtype != self.dtype or a.shape != in_shape:
                raise ValueError(f"distfft: reshape {what}: the input must be a {self.dtype} array of "
                                 f"shape {in_shape}, not {getattr(a, 'dtype', type(a).__name__)} "
                                 f"{getattr(a, 'shape', '')}")
            source = numpy.ascontiguousarray(a)
            result = out
            if result is None:
                result = target.array(self.dtype, None if self.batch == 1 else self.batch)
            else:
                check_array(result, out_shape, self.dtype, f"reshape {what}: out", writable=True)
            return source, result, pointer(source), pointer(result)
        source, result, pin, pout = self._agree(prepare)   # source: kept alive through the call
        direction = _lib.FORWARD if forward else _lib.BACKWARD
        _lib.check(_lib.lib.distfft_reshape_execute(self._handle, pin, pout, direction))
        return result

    def _prepare_device(self, a, out, what, in_shape, out_shape):
        """A device reshape's arrays, used where they are (no copy): the
        input, the output and both addresses."""
        pin = _device.pointer(a, in_shape, self.dtype, f"reshape {what}: the input")
        if out is None:
            out = _device.empty(out_shape, self.dtype)
        return a, out, pin, _device.pointer(out, out_shape, self.dtype, f"reshape {what}: out", writable=True)

    def _require_live(self):
        if self._handle is None:
            raise ValueError("distfft: the reshape has been destroyed")

    def __repr__(self):
        return f"<distfft.Reshape {self.describe() if self._handle is not None else 'destroyed'}>"
