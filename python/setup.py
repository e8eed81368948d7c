"""
setup.py -- builds libdistfft with the repository's CMake and installs it
inside the distfft package (distfft/libdistfft.so, loaded with ctypes), then
the extension module distfft._fast (distfft/_fast.c: the hot calls on numpy
arrays, compiled against include/distfft.h and numpy's C API by the same
MPI C compiler; it needs Python's headers, Debian's python3-dev).

The library must use the same MPI as mpi4py. The MPI C compiler is, in
order: $DISTFFT_MPICC; the one matching mpi4py's MPI vendor when mpi4py is
importable here (mpicc.openmpi / mpicc.mpich on Debian); mpicc.openmpi (what
Debian's python3-mpi4py uses); mpicc. The vendor is recorded in
distfft/_build_config.json and checked when the package is imported.

The C structs the package hands to the library (distfft_options,
distfft_step, distfft_timings: every `typedef struct {...} name;` of
include/distfft.h) are measured, not mirrored by hand: after the library,
the build compiles a small C program from the header's field lists with the
library's compiler and flags, runs it, and writes every struct's size and
every field's offset, size and element type to distfft/_layout.json (with a
few constants, and the header's SHA-256). distfft/_lib.py builds its ctypes
structures from that file. A field the probe cannot measure, or fields
that do not cover their struct, fail the build.

The C functions the package calls are one table, distfft/_signatures.py,
in the header's C types. After the library, the build compiles the table's
check_source() against include/distfft.h with the same compiler and flags:
one _Static_assert per function that its type is the table's, so a row that
disagrees with the header fails the build (with the row named). The calls
of distfft/_fast.c need no table: it calls through pointers of the header's
own types, so the compiler checks them.

Environment: DISTFFT_MPICC (the MPI C compiler), DISTFFT_SOURCE_DIR (the
repository root, default: this file's parent directory), DISTFFT_CMAKE_ARGS
(extra CMake arguments, e.g. "-DFFTW_ROOT=/opt/fftw"), DISTFFT_BUILD_TYPE
(default RelWithDebInfo, the repository's default).
"""
import hashlib
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


def source_dir():
    root = os.environ.get("DISTFFT_SOURCE_DIR") or os.path.dirname(HERE)
    if not os.path.exists(os.path.join(root, "include", "distfft.h")):
        raise RuntimeError(f"distfft: no C sources in {root} (build from the repository, or "
                           "set DISTFFT_SOURCE_DIR to it)")
    return root


def mpi4py_vendor():
    try:
        from mpi4py import MPI
        return MPI.get_vendor()[0]
    except Exception:   # not installed, or hidden by pip's build isolation
        return None


def mpi_vendor_of(compiler):
    """'Open MPI', 'MPICH' or None, from the wrapper's self-description."""
    try:
        out = subprocess.run([compiler, "--showme:version"], capture_output=True, text=True)
        if out.returncode == 0 and "Open MPI" in out.stdout + out.stderr:
            return "Open MPI"
        out = subprocess.run([compiler, "-show"], capture_output=True, text=True)
        if out.returncode == 0 and "mpich" in out.stdout.lower():
            return "MPICH"
    except OSError:
        pass
    return None


def mpi_compiler():
    if os.environ.get("DISTFFT_MPICC"):
        return os.environ["DISTFFT_MPICC"]
    preferred = {"Open MPI": "mpicc.openmpi", "MPICH": "mpicc.mpich"}
    vendor = mpi4py_vendor()
    for name in ([preferred[vendor]] if vendor in preferred else []) + \
            ["mpicc.openmpi", "mpicc"]:
        if shutil.which(name):
            return name
    raise RuntimeError("distfft: no MPI C compiler found (install libopenmpi-dev, or set "
                       "DISTFFT_MPICC)")


# ---- the layout of the public structs ----------------------------------------

# Constants of include/distfft.h the package uses (the probe prints them).
CONSTANTS = ("DISTFFT_MAX_DIMS", "DISTFFT_MAX_THREADS", "DISTFFT_FORWARD", "DISTFFT_BACKWARD", "DISTFFT_METHOD_AUTO",
             "DISTFFT_SERIAL_DESTROY_INPUT", "DISTFFT_SERIAL_PRESERVE_INPUT", "DISTFFT_SERIAL_UNALIGNED",
             "DISTFFT_SERIAL_CONSERVE_MEMORY", "DISTFFT_SERIAL_WISDOM_ONLY", "DISTFFT_SERIAL_COMPLEX_DATA")

_STRUCT = re.compile(r"typedef\s+struct\s*\w*\s*\{([^{}]*)\}\s*(\w+)\s*;")
# "int axis_in" (a type, then a declarator), "axis_out" (a further declarator)
_DECLARATOR = r"(\**)\s*(\w+)\s*((?:\[[^\]]*\]\s*)*)$"
_FIRST = re.compile(r"\s*\w+(?:\s+\w+)*?(?:\s+|\s*(?=\*))" + _DECLARATOR)
_MORE = re.compile(r"\s*" + _DECLARATOR)


def header_structs(text):
    """{struct name: [(field, is_array)]} of every `typedef struct {...}`
    with a body in the header text. Declarations it cannot read fail."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    if len(_STRUCT.findall(text)) != len(re.findall(r"typedef\s+struct\s*\w*\s*\{", text)):
        raise RuntimeError("distfft: include/distfft.h has a struct python/setup.py cannot read "
                           "(nested braces?)")
    structs = {}
    for body, name in _STRUCT.findall(text):
        fields = []
        for declaration in filter(str.strip, body.split(";")):
            first, *more = declaration.split(",")
            matches = [_FIRST.match(first)] + [_MORE.match(d) for d in more]
            if None in matches:
                raise RuntimeError(f"distfft: cannot read the declaration {declaration.strip()!r} "
                                   f"of {name} in include/distfft.h (python/setup.py reads "
                                   "plain fields and arrays)")
            fields += [(m.group(2), bool(m.group(3).strip())) for m in matches]
        structs[name] = fields
    return structs


_PROBE_HEAD = r"""
#include <stddef.h>
#include <stdio.h>
#include "distfft.h"

/* "int"/"uint"/"float"/"char" for an arithmetic element, "pointer" for a
 * void * (an opaque handle such as a CUDA stream); enums select their
 * compatible integer type. Anything else cannot be mirrored. */
#define ELEMENT(x) _Generic((x), char: "char", \
    signed char: "int", short: "int", int: "int", long: "int", long long: "int", \
    unsigned char: "uint", unsigned short: "uint", unsigned int: "uint", \
    unsigned long: "uint", unsigned long long: "uint", \
    float: "float", double: "float", void *: "pointer", default: "unknown")
#define FIELD(T, f, e) printf("field %s %s %zu %zu %s %zu\n", #T, #f, offsetof(T, f), \
    sizeof(((T *)0)->f), ELEMENT(((T *)0)->e), sizeof(((T *)0)->e))

int main(void)
{
"""


def probe_source(structs):
    lines = [_PROBE_HEAD]
    for name in CONSTANTS:
        lines.append(f'    printf("constant {name} %lld\\n", (long long)({name}));')
    for struct, fields in structs.items():
        lines.append(f'    printf("size {struct} %zu\\n", sizeof({struct}));')
        for field, is_array in fields:
            lines.append(f"    FIELD({struct}, {field}, {field}{'[0]' if is_array else ''});")
    lines.append("    return 0;\n}\n")
    return "\n".join(lines)


def cmake_cache(build_dir):
    entries = {}
    with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
        for line in f:
            match = re.match(r"([A-Za-z_][\w-]*):\w+=(.*)$", line.rstrip("\n"))
            if match:
                entries[match.group(1)] = match.group(2)
    return entries


def probe_compile_command(build_dir, include_dir):
    """The library's C compiler and flags (from the CMake cache), its MPI
    headers, C11 as the library is built."""
    cache = cmake_cache(build_dir)
    build_type = cache.get("CMAKE_BUILD_TYPE", "").upper()
    command = [cache["CMAKE_C_COMPILER"], "-std=c11"]
    command += shlex.split(cache.get("CMAKE_C_FLAGS", ""))
    command += shlex.split(cache.get(f"CMAKE_C_FLAGS_{build_type}", "")) if build_type else []
    command += ["-I", include_dir]
    for key in ("MPI_C_ADDITIONAL_INCLUDE_DIRS", "MPI_C_COMPILER_INCLUDE_DIRS", "MPI_C_HEADER_DIR"):
        command += [f"-I{d}" for d in cache.get(key, "").split(";") if d]
    return command


def check_layout(struct, layout):
    """Fields in offset order must cover the struct: a gap is only padding
    (smaller than the next element), the tail smaller than the largest."""
    end, widest = 0, 1
    for field in sorted(layout["fields"], key=lambda f: f["offset"]):
        if field["element"] == "unknown":
            raise RuntimeError(f"distfft: {struct}.{field['name']} has a type python/distfft "
                               "cannot mirror (only integers, enums, floating point, chars, void * and "
                               "arrays of them)")
        if not 0 <= field["offset"] - end < field["element_size"]:
            raise RuntimeError(f"distfft: {struct}.{field['name']} at byte {field['offset']} "
                               f"does not follow the previous field (ending at {end}): "
                               "python/setup.py misread include/distfft.h")
        end, widest = field["offset"] + field["size"], max(widest, field["element_size"])
    if not 0 <= layout["size"] - end < widest:
        raise RuntimeError(f"distfft: the fields read of {struct} end at byte {end} but it has "
                           f"{layout['size']}: python/setup.py misread include/distfft.h")


def measure_layout(build_dir, include_dir):
    """Compile and run the probe; the layout as stored in _layout.json."""
    header = os.path.join(include_dir, "distfft.h")
    with open(header, "rb") as f:
        raw = f.read()
    structs = header_structs(raw.decode())
    source = os.path.join(build_dir, "layout_probe.c")
    program = os.path.join(build_dir, "layout_probe")
    with open(source, "w") as f:
        f.write(probe_source(structs))
    subprocess.run(probe_compile_command(build_dir, include_dir) + [source, "-o", program],
                   check=True)
    output = subprocess.run([program], check=True, capture_output=True, text=True).stdout
    layout = {"header_sha256": hashlib.sha256(raw).hexdigest(), "constants": {},
              "structs": {name: {"size": None, "fields": []} for name in structs}}
    for line in output.splitlines():
        word, *values = line.split()
        if word == "constant":
            layout["constants"][values[0]] = int(values[1])
        elif word == "size":
            layout["structs"][values[0]]["size"] = int(values[1])
        else:
            struct, name, offset, size, element, element_size = values
            arrays = dict(structs[struct])
            layout["structs"][struct]["fields"].append({
                "name": name, "offset": int(offset), "size": int(size), "element": element,
                "element_size": int(element_size), "array": arrays[name]})
    for struct, entry in layout["structs"].items():
        check_layout(struct, entry)
    return layout


# ---- the functions' signatures -------------------------------------------------


def load_signatures():
    """distfft/_signatures.py as a module, loaded on its own: the package
    cannot be imported before its library is built."""
    spec = importlib.util.spec_from_file_location(
        "distfft_signatures", os.path.join(HERE, "distfft", "_signatures.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_signatures(build_dir, include_dir):
    """Compile the table's check against the header: a row that is not the
    header's declaration fails the build, naming the function."""
    source = os.path.join(build_dir, "signature_check.c")
    with open(source, "w") as f:
        f.write(load_signatures().check_source())
    result = subprocess.run(probe_compile_command(build_dir, include_dir) + ["-fsyntax-only", source],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("distfft: python/distfft/_signatures.py disagrees with "
                           f"include/distfft.h:\n{result.stderr}")


class CMakeBuild(build_ext):
    """Builds the `distfft` shared library target with CMake, then the
    distfft._fast extension module with the same MPI C compiler."""

    def get_ext_filename(self, ext_name):
        if ext_name.split(".")[-1] == LIBRARY.split(".")[-1]:   # a full or a last name
            return os.path.join(*ext_name.split(".")[:-1], "libdistfft.so")
        return super().get_ext_filename(ext_name)

    def build_extension(self, ext):
        if ext.name == LIBRARY:
            self.build_library(ext)
        else:
            self.build_fast(ext)

    def build_fast(self, ext):
        """_fast.c against include/distfft.h and numpy's C API, compiled and
        linked by the library's MPI C compiler (distfft.h includes mpi.h).
        It links no libdistfft: it takes the functions from the library
        ctypes loaded (see _fast.c)."""
        import numpy
        compiler = mpi_compiler()
        for executable in ("compiler_so", "linker_so"):
            command = getattr(self.compiler, executable)
            self.compiler.set_executable(executable, [compiler] + command[1:])
        ext.include_dirs += [os.path.join(source_dir(), "include"), numpy.get_include()]
        super().build_extension(ext)

    def build_library(self, ext):
        compiler = mpi_compiler()
        vendor = mpi_vendor_of(compiler)
        wanted = mpi4py_vendor()
        if wanted and vendor and wanted != vendor:
            raise RuntimeError(f"distfft: {compiler} is {vendor} but mpi4py uses {wanted}; "
                               "set DISTFFT_MPICC to the matching compiler")
        # one CMake tree per MPI compiler: a tree configured for another MPI
        # (an Open MPI and an MPICH install from one checkout) is never reused
        build_dir = os.path.abspath(os.path.join(self.build_temp, "cmake-" + os.path.basename(compiler)))
        configure = ["cmake", "-S", source_dir(), "-B", build_dir,
                     f"-DCMAKE_BUILD_TYPE={os.environ.get('DISTFFT_BUILD_TYPE', 'RelWithDebInfo')}",
                     f"-DMPI_C_COMPILER={shutil.which(compiler) or compiler}",
                     "-DDISTFFT_BUILD_TESTS=OFF", "-DDISTFFT_BUILD_EXAMPLES=OFF"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("DISTFFT_CMAKE_ARGS", ""))
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", build_dir, "--target", "distfft",
                        "--parallel", str(os.cpu_count() or 2)], check=True)

        target = os.path.abspath(self.get_ext_fullpath(ext.name))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        built = os.path.realpath(os.path.join(build_dir, "lib", "libdistfft.so"))
        shutil.copyfile(built, target)
        package = os.path.dirname(target)
        with open(os.path.join(package, "_build_config.json"), "w") as f:
            json.dump({"mpi_compiler": compiler, "mpi_vendor": vendor}, f)
            f.write("\n")
        check_signatures(build_dir, os.path.join(source_dir(), "include"))
        layout = measure_layout(build_dir, os.path.join(source_dir(), "include"))
        with open(os.path.join(package, "_layout.json"), "w") as f:
            json.dump(layout, f, indent=1)
            f.write("\n")

    def get_outputs(self):
        outputs = super().get_outputs()
        package = os.path.dirname(self.get_ext_fullpath(LIBRARY))
        return outputs + [os.path.join(package, generated)
                          for generated in ("_build_config.json", "_layout.json")]


LIBRARY = "distfft.libdistfft"

setup(
    # the library first: the probes above and _fast need its build
    ext_modules=[Extension(LIBRARY, sources=[]),
                 Extension("distfft._fast", sources=["distfft/_fast.c"], libraries=["dl"])],
    cmdclass={"build_ext": CMakeBuild},
)
