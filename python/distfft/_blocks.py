"""
_blocks.py -- the C layout of an array's blocks, for the calls that take a
layout (gather, scatter, halo) when the caller's array carries none.

Gather, scatter and the halo have one implementation each in C, on a
distfft_layout. A DistArray made by a plan or a Layout carries its layout;
one made from (global_shape, local_slice) alone does not, so a layout of
every rank's block is made for the call (distfft_layout_from_box: one
MPI_Comm_dup and one MPI_Allgather, the boxes checked to tile the array)
and destroyed right after it, by every rank at the same point of the
program -- never by a garbage collector. Leading axes that every rank
holds whole (mpi4py-fft's vector and tensor components) are fields, not
layout axes: a batch. This module imports only _lib, so distarray, halo
and layout can all use it.
"""
import contextlib
import ctypes

import numpy
from mpi4py import MPI

from . import _lib


@contextlib.contextmanager
def layout_of_boxes(comm, global_shape, start, shape):
    """The C handle of a layout whose box on this rank is `shape` at
    `start`, for the with-block; destroyed at its end. Collective on comm;
    boxes that do not tile the array raise DistfftError on every rank."""
    handle = _lib.c_handle()
    _lib.check(_lib.lib.distfft_layout_from_box(
        _lib.comm_handle(comm), len(global_shape), _lib.int64_array(global_shape),
        _lib.int64_array(start), _lib.int64_array(shape), ctypes.byref(handle)))
    try:
        yield handle
    finally:
        _lib.check(_lib.lib.distfft_layout_destroy(ctypes.byref(handle)))


@contextlib.contextmanager
def layout_of_array(array):
    """(C layout handle, fields) of a DistArray: its own layout, or one of
    its blocks made for the with-block (see the module comment); fields is
    the product of the leading axes that are not the layout's. Collective
    on array.comm."""
    layout = array.layout
    ndim = len(array.global_shape)
    if layout is not None:
        whole = ndim - layout.ndim
        yield layout._handle, int(numpy.prod(array.global_shape[:whole], dtype=numpy.int64))
        return
    whole = 0
    while whole < ndim - 1 and array.local_slice[whole] == slice(0, array.global_shape[whole]):
        whole += 1
    if array.comm.Get_size() > 1:
        whole = array.comm.allreduce(whole, op=MPI.MIN)
    with layout_of_boxes(array.comm, array.global_shape[whole:], array.substart[whole:],
                         array.shape[whole:]) as handle:
        yield handle, int(numpy.prod(array.global_shape[:whole], dtype=numpy.int64))
