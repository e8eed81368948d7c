"""
hdf5.py -- distributed arrays in one HDF5 file, written and read by all ranks.

Every rank opens the file together (h5py's "mpio" driver; Debian's
python3-h5py-mpi) and writes or reads only its own block, so a checkpoint
written on P ranks reads back on Q ranks with any distribution. Each
dataset carries attributes: `global_shape`, and for a plan's arrays `kinds`
(one name per axis) and `space` ("input": real space, "output": spectral).

All checks come before anything is written, and are agreed over the
communicator: a wrong global shape, dtype, kinds or space raises the same
exception on every rank and leaves the file as it was.

This module reads a DistArray's distribution from its attributes and does
not import distarray.py: DistArray.write and .read call this module, and
the package's modules import each other without circles
(python/tests/test_imports.py).
"""
import os
import sys

import numpy

from ._collective import agree

ATTRIBUTES = ("global_shape", "kinds", "space")


def _h5py():
    """h5py with MPI. Debian's h5py picks its MPI build only under mpiexec
    unless H5PY_ALWAYS_USE_MPI is set, so set it before the first import."""
    if "h5py" not in sys.modules:
        os.environ.setdefault("H5PY_ALWAYS_USE_MPI", "1")
    import h5py
    return h5py


def _open(path, mode, comm):
    h5py = _h5py()
    if h5py.get_config().mpi:
        return h5py.File(path, mode, driver="mpio", comm=comm)
    if comm.Get_size() == 1:
        return h5py.File(path, mode)   # serial h5py is enough for one rank
    raise RuntimeError("distfft.hdf5: parallel I/O needs h5py built with MPI "
                       "(Debian: python3-h5py-mpi)")


def _check_distarray(array, what):
    """A numpy array that knows its place in a global array (a DistArray)."""
    if not isinstance(array, numpy.ndarray) or any(
            getattr(array, name, None) is None for name in ("global_shape", "local_slice", "comm")):
        raise TypeError(f"distfft.hdf5: {what} must be a DistArray (from Plan.input_array(), "
                        "Plan.output_array() or DistArray(...))")


def _check_dataset(dataset, array, path, name):
    """The dataset must hold exactly this global array."""
    if dataset is None:
        return
    if tuple(dataset.shape) != tuple(array.global_shape):
        raise ValueError(f"distfft.hdf5: {path}:{name} has global shape {tuple(dataset.shape)}, "
                         f"the array's is {tuple(array.global_shape)}")
    if dataset.dtype != array.dtype:
        raise ValueError(f"distfft.hdf5: {path}:{name} holds {dataset.dtype}, the array is "
                         f"{array.dtype}")
    stored = _stored_attributes(dataset)
    for key in ("kinds", "space"):
        mine = getattr(array, key)
        if stored.get(key) is not None and mine is not None and tuple(
                numpy.atleast_1d(stored[key])) != tuple(numpy.atleast_1d(mine)):
            raise ValueError(f"distfft.hdf5: {path}:{name} has {key} {stored[key]}, "
                             f"the array's are {mine}")


def _stored_attributes(dataset):
    result = {}
    for key in ATTRIBUTES:
        if key in dataset.attrs:
            value = dataset.attrs[key]
            if key == "global_shape":
                value = tuple(int(n) for n in value)
            elif key == "kinds":
                value = tuple(v.decode() if isinstance(v, bytes) else str(v) for v in value)
            else:
                value = value.decode() if isinstance(value, bytes) else str(value)
            result[key] = value
    return result


def _collective_open(path, mode, comm):
    """Open on every rank or on none (closing where it did open)."""
    handle = {}

    def open_file():
        handle["file"] = _open(path, mode, comm)

    try:
        agree(comm, open_file)
    except Exception:
        if "file" in handle:
            handle["file"].close()
        raise
    return handle["file"]


def write(path, name, array, mode="a"):
    """Write DistArray `array` as dataset `name` of HDF5 file `path` (created
    if needed; mode "a" keeps other datasets, "w" truncates). An existing
    dataset is overwritten only if it has the same global shape, dtype,
    kinds and space. Collective on array.comm."""
    comm = getattr(array, "comm", None)
    if comm is None:
        _check_distarray(array, "array")   # local: nothing to agree with
    agree(comm, _check_distarray, array, "array")
    if mode not in ("a", "w", "r+", "w-", "x"):
        raise ValueError(f"distfft.hdf5: mode {mode!r} does not write")
    f = _collective_open(path, mode, comm)
    try:
        existing = f.get(name)
        agree(comm, _check_dataset, existing, array, path, name)
        dataset = existing if existing is not None else \
            f.create_dataset(name, shape=array.global_shape, dtype=array.dtype)
        dataset.attrs["global_shape"] = numpy.asarray(array.global_shape, dtype=numpy.int64)
        if array.kinds is not None:
            dataset.attrs["kinds"] = numpy.array([k.encode() for k in array.kinds])
        if array.space is not None:
            dataset.attrs["space"] = array.space.encode()
        if array.size:
            dataset[array.local_slice] = numpy.asarray(array)
    finally:
        f.close()


def read(path, name, out):
    """Fill DistArray `out` with its block of dataset `name` of `path`. The
    dataset's global shape (and kinds and space, when both sides have them)
    must match out's. Returns out. Collective on out.comm."""
    comm = getattr(out, "comm", None)
    if comm is None:
        _check_distarray(out, "out")
    agree(comm, _check_distarray, out, "out")

    def writable():
        if not out.flags.writeable:
            raise ValueError("distfft.hdf5: out is read-only")

    agree(comm, writable)
    f = _collective_open(path, "r", comm)
    try:
        def find():
            if name not in f:
                raise KeyError(f"distfft.hdf5: {path} has no dataset {name!r}")
            _check_dataset(f[name], out, path, name)
            return f[name]

        dataset = agree(comm, find)
        if out.size:
            out[...] = dataset[out.local_slice]
    finally:
        f.close()
    return out


def attributes(path, name, comm):
    """The distfft attributes of dataset `name` (global_shape, kinds, space),
    e.g. to build a matching plan before reading. Collective on comm."""
    f = _collective_open(path, "r", comm)
    try:
        def find():
            if name not in f:
                raise KeyError(f"distfft.hdf5: {path} has no dataset {name!r}")
            return _stored_attributes(f[name])
        return agree(comm, find)
    finally:
        f.close()
