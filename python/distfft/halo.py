"""
halo.py -- Halo: the ghost-cell exchange of a distributed array (the C API's
distfft_halo_*; paper 004 Sec. 3, datatypes instead of packing).

This rank's block (global_shape, local_slice) is kept in a PADDED array:
widths_low[a] ghost layers before it and widths_high[a] after it along each
axis a. exchange(padded) fills every ghost entry that lies in the array
(wrapped along periodic axes) with its owner's value -- faces, edges and
corners -- and leaves entries beyond an open boundary alone.

    halo = distarray.halo(1)                  # width 1, every axis periodic
    p = halo.padded_array(distarray)          # a copy of the block, padded
    halo.exchange(p)                          # ghosts filled
    laplacian = p[2:, 1:-1] + p[:-2, 1:-1] + ... - 4 * halo.interior(p)
"""
import ctypes

import numpy

from . import _blocks, _lib, _lifetime
from ._arrays import check_array, zeros_aligned
from ._collective import Agreement


VARIANTS = ("datatypes", "pack")


def _per_axis(value, ndim, what):
    """An int for every axis, or one per axis."""
    values = [value] * ndim if numpy.isscalar(value) else list(value)
    if len(values) != ndim:
        raise ValueError(f"distfft: {what} needs one entry per axis ({ndim}), got {values}")
    return [_lib.c_integer(v, what, 64) for v in values]


class Halo(_lifetime.Handle):
    """Halo(comm, global_shape, local_slice, widths, periodic=True,
            dtype=numpy.float64, batch=None, variant="datatypes", widths_high=None,
            layout=None)

    The ghost-cell exchange of a global array of `global_shape` whose block
    on this rank is `local_slice` (one slice per axis, e.g. a DistArray's or
    a Plan's input_slice; the blocks must tile the array as a Cartesian
    product). `widths` (int or one per axis) are the ghost layers below the
    block, `widths_high` those above it (default: the same); they may exceed
    the neighbours' blocks. `periodic`: a bool or one per axis. With `batch`
    (an int) arrays have a leading axis of that many fields. `variant`:
    "datatypes" (zero-copy MPI datatypes) or "pack" (buffers).
    With `layout` (a distfft.Layout; Layout.halo() passes it) the blocks
    are the layout's and comm, global_shape, local_slice may be None; else
    a layout of the blocks is made for distfft_layout_halo_create and
    destroyed once the halo is made (see _blocks.py).
    Collective on comm; free with destroy() or a with-block.
    """

    _destroy_call = "distfft_halo_destroy"

    def __init__(self, comm, global_shape, local_slice, widths, periodic=True,
                 dtype=numpy.float64, batch=None, variant="datatypes", widths_high=None,
                 layout=None):
        if layout is not None:
            layout._require_live()
            comm, global_shape, local_slice = layout.comm, layout.global_shape, layout.local_slice
        self._adopt(comm)
        self._agree = Agreement(self._comm)
        try:
            args = self._agree(self._parse, global_shape, local_slice, widths, widths_high,
                               periodic, dtype, batch, variant)
            handle = _lib.c_handle()
            if layout is not None:
                _lib.check(_lib.lib.distfft_layout_halo_create(layout._handle, *args,
                                                               ctypes.byref(handle)))
            else:
                with _blocks.layout_of_boxes(self._comm, self.global_shape,
                                             [s.start for s in self.local_slice],
                                             [s.stop - s.start for s in self.local_slice]) as boxes:
                    _lib.check(_lib.lib.distfft_layout_halo_create(boxes, *args,
                                                                   ctypes.byref(handle)))
        except BaseException:
            self._comm.Free()
            raise
        self._handle = handle
        _lifetime.register(self)
        ndim = len(self.global_shape)
        shape, start = (ctypes.c_int64 * ndim)(), (ctypes.c_int64 * ndim)()
        _lib.lib.distfft_halo_padded_block(handle, shape, start)
        lead = () if self.batch is None else (self.batch,)
        self.padded_shape = lead + tuple(shape)
        self.padded_start = tuple(start)

    def _parse(self, global_shape, local_slice, widths, widths_high, periodic, dtype,
               batch, variant):
        self.global_shape = tuple(_lib.c_integer(n, "global_shape extent", 64) for n in global_shape)
        ndim = len(self.global_shape)
        self.local_slice = tuple(slice(_lib.c_integer(s.start, "local_slice start", 64),
                                       _lib.c_integer(s.stop, "local_slice stop", 64)) for s in local_slice)
        if len(self.local_slice) != ndim:
            raise ValueError("distfft: local_slice needs one slice per axis of global_shape")
        self.widths_low = _per_axis(widths, ndim, "widths")
        self.widths_high = _per_axis(widths if widths_high is None else widths_high, ndim,
                                     "widths_high")
        self.periodic = [bool(p) for p in (_per_axis(periodic, ndim, "periodic"))]
        self.dtype = numpy.dtype(dtype)
        if batch is not None and (int(batch) != batch or batch < 1):
            raise ValueError(f"distfft: batch {batch!r} must be None or an integer >= 1")
        self.batch = None if batch is None else _lib.c_integer(batch, "batch", 64)
        code = ctypes.c_int()
        _lib.check(_lib.lib.distfft_halo_variant_from_name(_lib.c_string(variant, "halo variant"),
                                                           ctypes.byref(code)))
        self.variant = str(variant)
        return (_lib.element_type(self.dtype), _lib.int64_array(self.widths_low),
                _lib.int64_array(self.widths_high), (ctypes.c_int * ndim)(*self.periodic),
                1 if self.batch is None else self.batch, code.value)

    @property
    def interior_slice(self):
        """Index of the owned block inside a padded array."""
        lead = () if self.batch is None else (slice(None),)
        return lead + tuple(slice(w, w + s.stop - s.start)
                            for w, s in zip(self.widths_low, self.local_slice))

    def interior(self, padded):
        """The owned block of a padded array (a view)."""
        return padded[self.interior_slice]

    def padded_array(self, block=None):
        """A zeroed, aligned padded array; with `block`, its interior holds a
        copy of it."""
        padded = zeros_aligned(self.padded_shape, self.dtype)
        if block is not None:
            padded[self.interior_slice] = block
        return padded

    def exchange(self, padded):
        """Fill the ghost entries of `padded` (shape padded_shape, C-contiguous,
        aligned: use padded_array()) in place; returns it. Collective."""
        if self._handle is None:
            raise ValueError("distfft: the halo has been destroyed")
        data = self._agree(check_array, padded, self.padded_shape, self.dtype,
                           "padded array", True)
        _lib.check(_lib.lib.distfft_halo_execute(self._handle, data))
        return padded

    execute = __call__ = exchange   # the C call's name: distfft_halo_execute

    def describe(self):
        """One line: variant, array, widths, what this rank sends (the C
        distfft_halo_describe). Local."""
        if self._handle is None:
            raise ValueError("distfft: the halo has been destroyed")
        return _lib.text_of(_lib.lib.distfft_halo_describe, self._handle)


def halo_for(array, widths, periodic=True, variant="datatypes", widths_high=None):
    """A Halo for a DistArray's block (all of its axes; no batch), on its
    layout when it carries one of all its axes."""
    array._require_metadata()
    layout = array.layout
    if layout is not None and layout.ndim != len(array.global_shape):
        layout = None
    return Halo(array.comm, array.global_shape, array.local_slice, widths, periodic,
                array.dtype, None, variant, widths_high, layout=layout)
