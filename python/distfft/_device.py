"""
_device.py -- device arrays for plans of device memory (memory="cuda").

A device plan takes arrays in the memory of the device current at its
creation: any object with ``__cuda_array_interface__`` (version 2 or
later: CuPy, Numba, PyTorch's tensors through it), C-contiguous, of the
block's exact shape and dtype. Only their address reaches the library,
which checks it is device memory (a host pointer is DISTFFT_ERR_ARGUMENT
on every rank). CuPy is optional: it is imported only to allocate an
output the caller did not pass. The one thing to know: a device plan's
work is ordered on its stream (Plan's ``stream``) and may not be finished
when ``forward`` returns; synchronise the stream before reading the
output elsewhere.
"""
import numpy


def interface(a):
    """The array's ``__cuda_array_interface__``, or None for objects
    without one (numpy arrays among them)."""
    return getattr(a, "__cuda_array_interface__", None)


def stream_pointer(stream):
    """The cudaStream_t of `stream` as an integer (None: the default
    stream): an int, or an object with ``ptr`` (cupy.cuda.Stream)."""
    if stream is None:
        return None
    pointer = getattr(stream, "ptr", stream)
    if isinstance(pointer, bool) or not isinstance(pointer, int) or pointer < 0:
        raise TypeError(f"distfft: stream must be None, an integer cudaStream_t or an object "
                        f"with .ptr (cupy.cuda.Stream), not {stream!r}")
    return pointer or None


def pointer(a, shape, dtype, what, writable=False):
    """The device address of `a`, checked against the block (local):
    TypeError for an object that is no device array or has the wrong
    dtype, ValueError for the wrong shape, strides or a read-only
    output. None for an empty block."""
    face = interface(a)
    if face is None:
        raise TypeError(f"distfft: {what}: the plan's memory is cuda, so it takes a device array "
                        f"(__cuda_array_interface__: CuPy, Numba, ...), not {type(a).__name__}")
    if numpy.dtype(face["typestr"]) != dtype:
        raise TypeError(f"distfft: {what} has dtype {numpy.dtype(face['typestr'])}, the plan "
                        f"needs {dtype}")
    if tuple(face["shape"]) != tuple(shape):
        raise ValueError(f"distfft: {what} has shape {tuple(face['shape'])}, this rank's block "
                         f"is {tuple(shape)}")
    strides = face.get("strides")
    if strides is not None and tuple(strides) != _c_strides(shape, dtype.itemsize):
        raise ValueError(f"distfft: {what} must be C-contiguous (strides {tuple(strides)})")
    address, read_only = face["data"]
    if writable and read_only:
        raise ValueError(f"distfft: {what} is read-only")
    return address or None


def _c_strides(shape, itemsize):
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def _cupy():
    try:
        import cupy
    except ImportError:
        raise TypeError("distfft: a device plan (memory='cuda') allocates its arrays with CuPy, "
                        "which is not installed: pass device arrays (out= too)") from None
    return cupy


def empty(shape, dtype):
    """A new device array of the block (CuPy's), for an output not passed."""
    return _cupy().empty(shape, dtype)


def zeros(shape, dtype):
    """A zeroed device array of the block (CuPy's)."""
    return _cupy().zeros(shape, dtype)
