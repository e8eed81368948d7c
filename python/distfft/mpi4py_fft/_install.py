"""
_install.py -- serve the module name `mpi4py_fft` (and every submodule) from
distfft.mpi4py_fft, so a program or package that imports mpi4py_fft runs on
distfft unchanged.

install() imports each module of distfft.mpi4py_fft and enters it in
sys.modules under the mpi4py_fft name too (mpi4py_fft.fftw.utilities is
distfft.mpi4py_fft.fftw.utilities, the same object). Modules of a real
mpi4py-fft imported before are replaced; objects already made from them
stay theirs. Local, idempotent.
"""
import importlib
import pkgutil
import sys

_OURS = __name__.rsplit(".", 1)[0]   # distfft.mpi4py_fft
ALIAS = "mpi4py_fft"


def _our_modules():
    package = importlib.import_module(_OURS)
    names = [_OURS] + [info.name for info in
                       pkgutil.walk_packages(package.__path__, _OURS + ".")]
    return {name: importlib.import_module(name) for name in names
            if not name.rsplit(".", 1)[-1].startswith("__")}


def install():
    """Make `import mpi4py_fft[.X]` give distfft.mpi4py_fft[.X]; returns
    the package."""
    for name in [n for n in sys.modules if n == ALIAS or n.startswith(ALIAS + ".")]:
        if not getattr(sys.modules[name], "__name__", "").startswith(_OURS):
            del sys.modules[name]
    modules = _our_modules()
    for name, module in modules.items():
        sys.modules[ALIAS + name[len(_OURS):]] = module
    return modules[_OURS]


def installed():
    """True when mpi4py_fft is served by distfft."""
    module = sys.modules.get(ALIAS)
    return module is not None and module.__name__ == _OURS
