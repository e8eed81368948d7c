"""
_lib.py -- ctypes bindings to libdistfft.so, the C library underneath.

Everything that knows the C API lives here, in _signatures.py and in
_fast.c (the hot calls, compiled); the rest of the package calls
`lib.distfft_*` and `check(rc)`, or _fast's functions. What the C API
defines, the package asks for or checks rather than copies: the functions'
types are _signatures.py's table, checked against include/distfft.h when
the package was built; the structs' layout was measured then (_layout.json,
see python/setup.py); the names of every enum come from the library's
distfft_<enum>_name functions.

ctypes.CDLL releases the GIL around every foreign call, so transforms and
redistributions run without holding it.

MPI_Comm is a pointer in Open MPI and an int in MPICH: its ctypes type is
chosen from mpi4py's own size of the handle, and the library must be built
against the MPI that mpi4py uses (checked at import, see _check_mpi_vendor).
"""
import ctypes
import json
import os
import types

import numpy
from mpi4py import MPI  # initialises MPI before the library is loaded

from . import _fast, _signatures
from .errors import DistfftError

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
_library = ctypes.CDLL(_library_path())
# The compiled hot calls (plan, redistribution and serial executes) call this
# same library: _fast takes its functions from ctypes' dlopen handle.
_fast.bind(_library._handle)


# FFTW 3.3.10's fftw_plan_with_nthreads calls fftw_cleanup() when the
# threads support is not initialised yet, which frees the planner under
# every existing plan; mpi4py-fft (and other FFTW users in the process)
# call it when they plan. libdistfft initialises the threads support of its
# three precisions when it is loaded (src/serial/serial_fft.c), so loading
# it above made that call harmless: the package opens no FFTW library.

# ---- C types ----------------------------------------------------------------

if MPI._sizeof(MPI.Comm) == ctypes.sizeof(ctypes.c_int):
    MPI_Comm = ctypes.c_int          # MPICH and derivatives
else:
    MPI_Comm = ctypes.c_void_p       # Open MPI: a pointer to a struct

c_int64_p = ctypes.POINTER(ctypes.c_int64)
c_int_p = ctypes.POINTER(ctypes.c_int)
c_handle = ctypes.c_void_p           # every handle of _signatures.HANDLES
c_handle_p = ctypes.POINTER(c_handle)

# ---- the structs, as measured when the package was built ----------------------
#
# python/setup.py compiled a probe of include/distfft.h with the library's
# compiler and flags and stored every public struct's size and every
# field's offset, size and element type in _layout.json (see setup.py).
# The ctypes structures below are built from it -- padding spelled out,
# offsets and size checked after ctypes lays them out -- so no layout is
# written down here. What the package itself relies on is the fields it
# reads or writes, listed here: a header without one of them is refused at
# import, and a misspelt field raises (the structures have no __dict__).

OPTIONS_FIELDS = ("grid_ndims", "grid_dims", "method", "norm", "rigor", "destroy_input",
                  "kinds", "batch", "placement", "node_size", "threads", "overlap",
                  "padding", "complex_data", "in_place", "tune_budget", "memory", "stream")
STEP_FIELDS = ("description", "is_redistribution", "grid_direction", "axis_in", "axis_out",
               "group_size", "method", "bytes_sent", "global_bytes", "seconds", "executions")
TIMINGS_FIELDS = ("fft_seconds", "redistribute_seconds", "executions")
RESHAPE_OPTIONS_FIELDS = ("method", "rigor", "memory", "stream")

_ELEMENTS = {("int", 1): ctypes.c_int8, ("int", 2): ctypes.c_int16,
             ("int", 4): ctypes.c_int32, ("int", 8): ctypes.c_int64,
             ("uint", 1): ctypes.c_uint8, ("uint", 2): ctypes.c_uint16,
             ("uint", 4): ctypes.c_uint32, ("uint", 8): ctypes.c_uint64,
             ("float", 4): ctypes.c_float, ("float", 8): ctypes.c_double,
             ("char", 1): ctypes.c_char,
             ("pointer", ctypes.sizeof(ctypes.c_void_p)): ctypes.c_void_p}


class LayoutError(ImportError):
    """The package's measured layout and the library (or the package's own
    code) disagree: rebuild the package from the header the library has."""


def _load_layout():
    path = os.path.join(_HERE, "_layout.json")
    if not os.path.exists(path):
        raise LayoutError(
            f"distfft: {path} (the C structs' layout, measured when the package is built) "
            "is missing; reinstall with 'python3 -m pip install ./python'")
    with open(path) as f:
        return json.load(f)


LAYOUT = _load_layout()
MAX_DIMS = LAYOUT["constants"]["DISTFFT_MAX_DIMS"]
MAX_THREADS = LAYOUT["constants"]["DISTFFT_MAX_THREADS"]
FORWARD = LAYOUT["constants"]["DISTFFT_FORWARD"]
BACKWARD = LAYOUT["constants"]["DISTFFT_BACKWARD"]
METHOD_AUTO = LAYOUT["constants"]["DISTFFT_METHOD_AUTO"]


def structure(struct, used, layout=LAYOUT):
    """The ctypes.Structure of C struct `struct` from its measured layout;
    LayoutError unless it has every field in `used` and ctypes places each
    field at its C offset in a structure of the C size."""
    measured = layout["structs"].get(struct)
    if measured is None:
        raise LayoutError(f"distfft: include/distfft.h as built has no struct {struct}")
    names = [f["name"] for f in measured["fields"]]
    missing = [name for name in used if name not in names]
    if missing:
        raise LayoutError(f"distfft: {struct} as built has no field {', '.join(missing)} (it has "
                          f"{', '.join(names)}); python/distfft and include/distfft.h disagree")
    fields, end = [], 0
    for f in sorted(measured["fields"], key=lambda f: f["offset"]):
        if f["offset"] > end:
            fields.append((f"_padding_{end}", ctypes.c_char * (f["offset"] - end)))
        element = _ELEMENTS.get((f["element"], f["element_size"]))
        if element is None:
            raise LayoutError(f"distfft: {struct}.{f['name']} is a {f['element_size']}-byte "
                              f"{f['element']}, which python/distfft cannot mirror")
        count = f["size"] // f["element_size"]
        fields.append((f["name"], element * count if f["array"] else element))
        end = f["offset"] + f["size"]
    if measured["size"] > end:
        fields.append((f"_padding_{end}", ctypes.c_char * (measured["size"] - end)))
    cls = type(struct, (ctypes.Structure,), {"__slots__": (), "_fields_": fields})
    wrong = [f["name"] for f in measured["fields"]
             if getattr(cls, f["name"]).offset != f["offset"]
             or getattr(cls, f["name"]).size != f["size"]]
    if wrong or ctypes.sizeof(cls) != measured["size"]:
        raise LayoutError(f"distfft: ctypes cannot lay out {struct} as C does "
                          f"(size {ctypes.sizeof(cls)} vs {measured['size']}, fields "
                          f"{', '.join(wrong) or 'all in place'})")
    return cls


Options = structure("distfft_options", OPTIONS_FIELDS)
ReshapeOptions = structure("distfft_reshape_options", RESHAPE_OPTIONS_FIELDS)
Step = structure("distfft_step", STEP_FIELDS)
Timings = structure("distfft_timings", TIMINGS_FIELDS)

_GUARD = 64     # bytes past a struct that a C call filling it must leave alone


def filled(struct_type, call):
    """(struct, result) of result = call(pointer) filling a struct_type. The
    C call writes into a buffer with a guard zone past the measured size:
    a library whose struct is larger than the package's layout (a
    DISTFFT_LIBRARY from another header, a stale build) writes into it and
    is refused (LayoutError) instead of corrupting memory."""
    size = ctypes.sizeof(struct_type)
    pattern = b"\xa5" * (size + _GUARD)
    buffer = ctypes.create_string_buffer(pattern, len(pattern))
    result = call(buffer)
    if buffer.raw[size:] != pattern[size:]:
        raise LayoutError(f"distfft: libdistfft wrote past the {size} bytes of "
                          f"{struct_type.__name__} measured when the package was built: the "
                          "library and the package come from different headers; rebuild")
    return struct_type.from_buffer_copy(buffer), result


# ---- the functions, from _signatures.py ----------------------------------------
#
# Every C function the package calls is one row of _signatures.SIGNATURES,
# in the header's C types; the build checked each row against
# include/distfft.h (python/setup.py). The rows become ctypes declarations
# here, and `lib` holds only those: calling a function the table lacks is
# an AttributeError, not an unchecked call with ctypes' guessed types.

_SCALARS = {"int": ctypes.c_int, "int64_t": ctypes.c_int64, "size_t": ctypes.c_size_t,
            "double": ctypes.c_double, "MPI_Comm": MPI_Comm}
_POINTERS = {"char": ctypes.c_char_p, "int": c_int_p, "int64_t": c_int64_p,
             "void": ctypes.c_void_p}


def ctype_of(c_type, result=False):
    """The ctypes type that passes (or, as a result, returns) C type
    `c_type` of a _signatures row; LayoutError for a type it cannot."""
    base = c_type.replace("const ", "").strip()
    pointer = base.endswith("*")
    base = base.rstrip("* ")
    if base == "void" and not pointer:
        return None
    if result and c_type == "char *":
        return ctypes.c_void_p            # text the caller frees: keep the pointer
    if base.startswith("struct distfft_") and base[len("struct "):-2] in _signatures.HANDLES:
        base = base[len("struct "):-2]    # const struct distfft_plan_s *: a handle
        pointer = False
    if base in _signatures.HANDLES:
        return c_handle_p if pointer else c_handle
    if base in _signatures.ENUMS:
        return c_int_p if pointer else ctypes.c_int
    if base in _signatures.STRUCTS and pointer:
        return ctypes.c_void_p            # a buffer of the measured size (filled)
    known = _POINTERS if pointer else _SCALARS
    if base not in known:
        raise LayoutError(f"distfft: _signatures.py uses the C type {c_type!r}, which _lib.py "
                          "cannot pass through ctypes")
    return known[base]


def _declared(name, result, *parameters):
    function = getattr(_library, name)
    function.restype = ctype_of(result, result=True)
    function.argtypes = [ctype_of(p) for p in parameters]
    return function


lib = types.SimpleNamespace(**{name: _declared(name, *row)
                               for name, row in _signatures.SIGNATURES.items()})

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


def c_integer(value, what, bits=32):
    """value as a C int (bits 32) or int64_t (64): an integer (4.0 is one,
    2.5 and "4" are not), TypeError / ValueError naming `what` otherwise.
    ctypes stores an integer that does not fit modulo 2**bits, without a
    word -- a shape extent of 2**64 + 4 became 4 -- so a value out of range
    is a ValueError here."""
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError) as error:   # None, "x", nan, inf
        kind = TypeError if isinstance(error, TypeError) else ValueError
        raise kind(f"distfft: {what} must be an integer, not {value!r}") from None
    if isinstance(value, (str, bytes)):
        raise TypeError(f"distfft: {what} must be an integer, not {value!r}")
    if number != value:
        raise ValueError(f"distfft: {what} must be an integer, not {value!r}")
    value = number
    if not -2**(bits - 1) <= value < 2**(bits - 1):
        raise ValueError(f"distfft: {what} {value} does not fit in a C "
                         f"{'int' if bits == 32 else 'int64_t'}")
    return value


def int64_array(values, what="extent"):
    values = [c_integer(v, what, 64) for v in values]
    return (ctypes.c_int64 * max(len(values), 1))(*values)


def int_array(values, what):
    values = [c_integer(v, what) for v in values]
    return (ctypes.c_int * max(len(values), 1))(*values)


def c_string(text, what):
    """str(text) as the bytes of a C string. C reads a string up to its
    first NUL, so a name or path holding one would be taken cut short
    ('c2c\\0junk' as c2c): ValueError."""
    text = str(text)
    if "\0" in text:
        raise ValueError(f"distfft: {what} {text!r} holds a NUL character")
    try:
        return text.encode()
    except UnicodeEncodeError:   # lone surrogates
        raise ValueError(f"distfft: {what} {text!r} is not valid Unicode text") from None


def text_of(call, handle):
    """The text a describe call (call(handle, buffer, size) -> length) writes."""
    size = call(handle, None, 0)
    buffer = ctypes.create_string_buffer(size + 1)
    call(handle, buffer, size + 1)
    return buffer.value.decode()


def options_new():
    """A distfft_options filled with the library's defaults."""
    return filled(Options, lib.distfft_options_init)[0]


def reshape_options_new():
    """A distfft_reshape_options filled with the library's defaults."""
    return filled(ReshapeOptions, lib.distfft_reshape_options_init)[0]


def _check_options():
    """The library's defaults where the layout puts batch and method (a
    library from another header fails here, or in `filled`)."""
    options = options_new()
    if options.batch != 1 or options.method != METHOD_AUTO:
        raise LayoutError("distfft: distfft_options_init's defaults are not where the package's "
                          "layout puts batch and method: libdistfft and the package come from "
                          "different headers; rebuild")


_check_options()

# ---- the vocabulary: every enum's names, asked of the library ------------------
#
# The library names every value of its enums (distfft_<enum>_name and
# _from_name); the package keeps no list of its own. Names are read once,
# here: values 0, 1, ... until the library has no name (methods: the
# distfft_method_count concrete ids, then "auto").

_WHAT = {"type": "element type", "precision": "precision", "kind": "transform kind",
         "norm": "norm", "rigor": "rigor", "placement": "placement", "method": "method",
         "overlap": "overlap", "memory": "memory kind"}


def _values(enum):
    if enum == "method":
        return list(range(lib.distfft_method_count())) + [METHOD_AUTO]
    name_of_value = getattr(lib, f"distfft_{enum}_name")
    if enum == "overlap":   # auto is -1, as the method's; then 0, 1, ... like the others
        return [-1] + _values_from(name_of_value)
    return _values_from(name_of_value)


def _values_from(name_of_value):
    values = []
    while name_of_value(len(values)) is not None:
        values.append(len(values))
    return values


_NAMES = {enum: {value: getattr(lib, f"distfft_{enum}_name")(value).decode()
                 for value in _values(enum)} for enum in _WHAT}


def names_of(enum):
    """The names of enum ("kind", "method", ...) in value order."""
    return tuple(_NAMES[enum].values())


def name_of(enum, value):
    return _NAMES[enum][value]


def code_of(enum, name):
    """The value of `name` in enum (ValueError listing the names if unknown)."""
    value = ctypes.c_int()
    if getattr(lib, f"distfft_{enum}_from_name")(c_string(name, _WHAT[enum]), ctypes.byref(value)) != 0:
        raise ValueError(f"distfft: unknown {_WHAT[enum]} {name!r}; one of "
                         f"{', '.join(names_of(enum))}")
    return value.value


def method_names():
    """The concrete methods, in id order, then "auto"."""
    return list(names_of("method"))


# Element types <-> numpy dtypes: the library names them "<complex|real>-
# <precision>" and gives their size; numpy's dtype follows from both.
def _element_types():
    dtypes = {}
    for value, name in _NAMES["type"].items():
        domain, _, precision = name.partition("-")
        if domain not in ("complex", "real") or precision not in _NAMES["precision"].values():
            raise LayoutError(f"distfft: libdistfft's element type {name!r} is not "
                              "'<complex|real>-<precision>'")
        size = lib.distfft_type_size(value)
        try:
            dtypes[value] = numpy.dtype(("c" if domain == "complex" else "f") + str(size))
        except TypeError:
            pass   # a type numpy has no dtype for: not offered in Python
    return dtypes


DTYPES = _element_types()                    # distfft_type -> numpy dtype
_TYPES = {dtype: value for value, dtype in DTYPES.items()}


def numpy_dtype(dtype):
    """numpy.dtype(dtype), its failures as a TypeError naming the argument."""
    try:
        return numpy.dtype(dtype)
    except (TypeError, ValueError) as error:
        raise TypeError(f"distfft: dtype {dtype!r} is not a numpy dtype ({error})") from None


def element_type(dtype):
    """distfft_type of a numpy dtype (TypeError if there is none)."""
    dtype = numpy_dtype(dtype)
    if dtype not in _TYPES:
        raise TypeError(f"distfft: dtype {dtype} is not supported "
                        f"({', '.join(str(d) for d in _TYPES)})")
    return _TYPES[dtype]


def precision(dtype):
    """distfft_precision of a numpy dtype's element type."""
    return code_of("precision", name_of("type", element_type(dtype)).partition("-")[2])
