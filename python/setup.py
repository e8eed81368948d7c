"""
setup.py -- builds libdistfft with the repository's CMake and installs it
inside the distfft package (distfft/libdistfft.so, loaded with ctypes).

The library must use the same MPI as mpi4py. The MPI C compiler is, in
order: $DISTFFT_MPICC; the one matching mpi4py's MPI vendor when mpi4py is
importable here (mpicc.openmpi / mpicc.mpich on Debian); mpicc.openmpi (what
Debian's python3-mpi4py uses); mpicc. The vendor is recorded in
distfft/_build_config.json and checked when the package is imported.

Environment: DISTFFT_MPICC (the MPI C compiler), DISTFFT_SOURCE_DIR (the
repository root, default: this file's parent directory), DISTFFT_CMAKE_ARGS
(extra CMake arguments, e.g. "-DFFTW_ROOT=/opt/fftw"), DISTFFT_BUILD_TYPE
(default RelWithDebInfo, the repository's default).
"""
import json
import os
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


class CMakeBuild(build_ext):
    """Builds the `distfft` shared library target with CMake."""

    def get_ext_filename(self, ext_name):
        return os.path.join(*ext_name.split(".")[:-1], "libdistfft.so")

    def build_extension(self, ext):
        compiler = mpi_compiler()
        vendor = mpi_vendor_of(compiler)
        wanted = mpi4py_vendor()
        if wanted and vendor and wanted != vendor:
            raise RuntimeError(f"distfft: {compiler} is {vendor} but mpi4py uses {wanted}; "
                               "set DISTFFT_MPICC to the matching compiler")
        build_dir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
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
        with open(os.path.join(os.path.dirname(target), "_build_config.json"), "w") as f:
            json.dump({"mpi_compiler": compiler, "mpi_vendor": vendor}, f)
            f.write("\n")

    def get_outputs(self):
        outputs = super().get_outputs()
        return outputs + [os.path.join(os.path.dirname(p), "_build_config.json")
                          for p in outputs]


setup(
    ext_modules=[Extension("distfft.libdistfft", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
