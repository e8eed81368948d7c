"""
_lib.py -- ctypes bindings to libdistfft.so, the C library underneath.

Everything that knows the C API's names, types and struct layout lives here;
the rest of the package calls `lib.distfft_*` and `check(rc)`.

ctypes.CDLL releases the GIL around every foreign call, so transforms and
redistributions run without holding it.

MPI_Comm is a pointer in Open MPI and an int in MPICH: its ctypes type is
chosen from mpi4py's own size of the handle, and the library must be built
against the MPI that mpi4py uses (checked at import, see _check_mpi_vendor).
"""
import ctypes
import json
import os

from mpi4py import MPI  # initialises MPI before the library is loaded

from .errors import DistfftError

MAX_DIMS = 16

_HERE = os.path.dirname(os.path.abspath(__file__))

# ---- loading ----------------------------------------------------------------


def _library_path():
    """DISTFFT_LIBRARY (a development build) or the copy installed with us."""
    path = os.environ.get("DISTFFT_LIBRARY") or os.path.join(_HERE, "libdistfft.so")
    if not os.path.exists(path):
        raise ImportError(
            f"distfft: the C library {path} is missing; install the package with "
            "'python3 -m pip install ./python' (it builds libdistfft with CMake) "
            "or point DISTFFT_LIBRARY at a libdistfft.so")
    return path


def _check_mpi_vendor():
    """The library and mpi4py must share one MPI: a mismatch crashes in MPI."""
    config = os.path.join(_HERE, "_build_config.json")
    if os.environ.get("DISTFFT_LIBRARY") or not os.path.exists(config):
        return
    with open(config) as f:
        built_with = json.load(f).get("mpi_vendor")
    running = MPI.get_vendor()[0]
    if built_with and built_with != running:
        raise ImportError(
            f"distfft: libdistfft was built against {built_with} but mpi4py uses "
            f"{running}; reinstall with DISTFFT_MPICC set to {running}'s mpicc")


_check_mpi_vendor()
lib = ctypes.CDLL(_library_path())


def _init_fftw_threads():
    """FFTW 3.3.10's fftw_plan_with_nthreads calls fftw_cleanup() when the
    threads support is not initialised yet, which frees the planner under
    every existing plan. mpi4py-fft (and other FFTW users in the process)
    call it when they plan, so distfft's plans would crash afterwards.
    Initialising the threads support first makes that call harmless; our
    plans keep using one thread."""
    for name, function in (("libfftw3_threads.so.3", "fftw_init_threads"),
                           ("libfftw3f_threads.so.3", "fftwf_init_threads")):
        try:
            getattr(ctypes.CDLL(name), function)()
        except (OSError, AttributeError):
            pass   # no threads library: nobody can call plan_with_nthreads


_init_fftw_threads()

# ---- C types ----------------------------------------------------------------

if MPI._sizeof(MPI.Comm) == ctypes.sizeof(ctypes.c_int):
    MPI_Comm = ctypes.c_int          # MPICH and derivatives
else:
    MPI_Comm = ctypes.c_void_p       # Open MPI: a pointer to a struct

c_int64_p = ctypes.POINTER(ctypes.c_int64)
c_int_p = ctypes.POINTER(ctypes.c_int)
c_handle = ctypes.c_void_p           # distfft_plan, distfft_redist
c_handle_p = ctypes.POINTER(c_handle)

# distfft_type
COMPLEX_DOUBLE, COMPLEX_FLOAT, REAL_DOUBLE, REAL_FLOAT = range(4)
# distfft_precision
DOUBLE, FLOAT = range(2)
# distfft_norm
NORMS = {"backward": 0, "ortho": 1, "forward": 2}
# distfft_rigor
RIGORS = {"estimate": 0, "measure": 1, "patient": 2, "exhaustive": 3}


class Options(ctypes.Structure):
    """Mirror of distfft_options, field for field, as in include/distfft.h.

    The struct is never allocated by Python at this size: options_new()
    hands out a generous zeroed buffer that distfft_options_init fills, and
    this mirror overlays its start. A field the C library appends at the END
    of the struct therefore keeps its C default instead of reading garbage;
    a field inserted in the middle is caught by _check_options_layout."""
    _fields_ = [
        ("grid_ndims", ctypes.c_int),
        ("grid_dims", ctypes.c_int * MAX_DIMS),
        ("method", ctypes.c_int),
        ("norm", ctypes.c_int),
        ("rigor", ctypes.c_int),
        ("destroy_input", ctypes.c_int),
        ("kinds", ctypes.c_int * MAX_DIMS),
        ("batch", ctypes.c_int64),
        ("placement", ctypes.c_int),
        ("node_size", ctypes.c_int),
    ]


_OPTIONS_BUFFER_BYTES = 4096


class Step(ctypes.Structure):
    """Mirror of distfft_step (read from a larger buffer, as Options)."""
    _fields_ = [
        ("description", ctypes.c_char * 96),
        ("is_redistribution", ctypes.c_int),
        ("grid_direction", ctypes.c_int),
        ("axis_in", ctypes.c_int),
        ("axis_out", ctypes.c_int),
        ("group_size", ctypes.c_int),
        ("method", ctypes.c_int),
        ("bytes_sent", ctypes.c_int64),
        ("global_bytes", ctypes.c_int64),
        ("seconds", ctypes.c_double),
        ("executions", ctypes.c_int64),
    ]


class Timings(ctypes.Structure):
    _fields_ = [
        ("fft_seconds", ctypes.c_double),
        ("redistribute_seconds", ctypes.c_double),
        ("executions", ctypes.c_int64),
    ]


def _declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


_int, _void_p, _char_p = ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p
_declare("distfft_error_string", _char_p, _int)
_declare("distfft_last_error", _char_p)
_declare("distfft_type_size", ctypes.c_size_t, _int)
_declare("distfft_decompose", None, ctypes.c_int64, _int, _int, c_int64_p, c_int64_p)
_declare("distfft_method_name", _char_p, _int)
_declare("distfft_method_count", _int)
_declare("distfft_method_from_name", _int, _char_p, c_int_p)
_declare("distfft_kind_name", _char_p, _int)
_declare("distfft_kind_from_name", _int, _char_p, c_int_p)
_declare("distfft_options_init", None, _void_p)
_declare("distfft_plan_create", _int, MPI_Comm, _int, c_int64_p, _int, _void_p, c_handle_p)
_declare("distfft_plan_forward", _int, c_handle, _void_p, _void_p)
_declare("distfft_plan_backward", _int, c_handle, _void_p, _void_p)
_declare("distfft_plan_input_block", _int, c_handle, c_int64_p, c_int64_p)
_declare("distfft_plan_output_block", _int, c_handle, c_int64_p, c_int64_p)
_declare("distfft_plan_types", _int, c_handle, c_int_p, c_int_p)
_declare("distfft_plan_output_shape", _int, c_handle, c_int64_p)
_declare("distfft_plan_ndims", _int, c_handle)
_declare("distfft_plan_grid", _int, c_handle, c_int_p, c_int_p)
_declare("distfft_plan_work_bytes", ctypes.c_size_t, c_handle)
_declare("distfft_plan_describe", _int, c_handle, _char_p, ctypes.c_size_t)
_declare("distfft_plan_timings", _int, c_handle, ctypes.POINTER(Timings))
_declare("distfft_plan_reset_timings", _int, c_handle)
_declare("distfft_plan_step_count", _int, c_handle, _int)
_declare("distfft_plan_step", _int, c_handle, _int, _int, _void_p)
_declare("distfft_plan_destroy", _int, c_handle_p)
_declare("distfft_placement_name", _char_p, _int)
_declare("distfft_placement_from_name", _int, _char_p, c_int_p)
_declare("distfft_wisdom_export", _void_p)   # malloc'ed text: freed with libc free
_declare("distfft_wisdom_import", _int, _char_p)
_declare("distfft_wisdom_export_file", _int, MPI_Comm, _char_p)
_declare("distfft_wisdom_import_file", _int, MPI_Comm, _char_p)
_declare("distfft_wisdom_forget", None)
_declare("distfft_redist_create", _int, MPI_Comm, _int, _int, c_int64_p, _int,
         c_int64_p, _int, ctypes.c_int64, _int, c_handle_p)
_declare("distfft_redist_execute", _int, c_handle, _void_p, _void_p)
_declare("distfft_redist_destroy", _int, c_handle_p)
_declare("distfft_gather", _int, MPI_Comm, _int, _int, c_int64_p, c_int64_p,
         c_int64_p, _void_p, _int, _void_p)
_declare("distfft_scatter", _int, MPI_Comm, _int, _int, c_int64_p, c_int64_p,
         c_int64_p, _void_p, _int, _void_p)

# ---- helpers ------------------------------------------------------------------


def check(rc):
    """Raise DistfftError with the library's message unless rc is success."""
    if rc != 0:
        message = lib.distfft_last_error().decode(errors="replace")
        name = lib.distfft_error_string(rc).decode(errors="replace")
        raise DistfftError(rc, message or name)


def comm_handle(comm):
    """The C handle of an mpi4py communicator (TypeError for anything else)."""
    if not isinstance(comm, MPI.Comm):
        raise TypeError(f"distfft: comm must be an mpi4py communicator (mpi4py.MPI.Comm), "
                        f"not {type(comm).__name__}")
    return MPI_Comm(MPI._handleof(comm))


def int64_array(values):
    values = [int(v) for v in values]
    return (ctypes.c_int64 * max(len(values), 1))(*values)


def options_new():
    """A defaults-filled distfft_options in a buffer larger than the struct."""
    buffer = ctypes.create_string_buffer(_OPTIONS_BUFFER_BYTES)
    lib.distfft_options_init(buffer)
    options = Options.from_buffer(buffer)
    options._keepalive = buffer
    return options


def _check_options_layout():
    """Defaults at their expected offsets, or the mirror is out of date."""
    o = options_new()
    if (o.grid_ndims, o.norm, o.rigor, o.destroy_input, o.batch, o.placement,
            o.node_size) != (0, 0, 1, 0, 1, 0, 0) \
            or any(o.kinds[i] != 0 for i in range(MAX_DIMS)):
        raise ImportError("distfft: the distfft_options layout of libdistfft does not "
                          "match distfft/_lib.py's mirror; update Options")


_check_options_layout()


def method_code(name):
    code = ctypes.c_int()
    if lib.distfft_method_from_name(str(name).encode(), ctypes.byref(code)) != 0:
        raise ValueError(f"distfft: unknown method {name!r}; one of {', '.join(method_names())}")
    return code.value


def method_names():
    """The concrete methods, in id order, then "auto"."""
    count = lib.distfft_method_count()
    return [lib.distfft_method_name(code).decode() for code in range(count)] + ["auto"]


def placement_code(name):
    code = ctypes.c_int()
    if lib.distfft_placement_from_name(str(name).encode(), ctypes.byref(code)) != 0:
        raise ValueError(f"distfft: unknown placement {name!r}; one of row, morton, node")
    return code.value


def step_new():
    """A distfft_step in a buffer larger than the struct (see Options)."""
    buffer = ctypes.create_string_buffer(_OPTIONS_BUFFER_BYTES)
    step = Step.from_buffer(buffer)
    step._keepalive = buffer
    return step


def kind_code(name):
    code = ctypes.c_int()
    if lib.distfft_kind_from_name(str(name).encode(), ctypes.byref(code)) != 0:
        raise ValueError(f"distfft: unknown transform kind {name!r}; one of "
                         "c2c, r2c, dct1..dct4, dst1..dst4, cheb, none")
    return code.value


def kind_name(code):
    return lib.distfft_kind_name(code).decode()
