"""
factory.py -- mpi4py_fft.fftw.factory: the FFTW libraries of each
precision and the process-wide FFTW state (wisdom, time limit).

Wisdom goes to one file per precision and rank, '<F|D|G><rank>_<filename>',
as mpi4py-fft names them. cleanup() forgets wisdom and resets the time
limit: FFTW's fftw_cleanup would make every plan in the process undefined,
distfft's parallel plans included.
"""
from mpi4py import MPI

from . import _fftw
from .xfftn import get_planned_FFT   # noqa: F401 -- mpi4py-fft's factory has it

__all__ = ["get_planned_FFT", "export_wisdom", "import_wisdom", "forget_wisdom", "cleanup",
           "set_timelimit", "get_fftw_lib", "fftlib"]


def get_fftw_lib(dtype):
    """The FFTW library of dtype's precision ('f', 'd', 'g'), or None."""
    return _fftw.precision(dtype)


fftlib = {char.upper(): lib for char in "fdg" for lib in [get_fftw_lib(char)] if lib}


def _wisdom_file(key, filename):
    return f"{key}{MPI.COMM_WORLD.Get_rank()}_{filename}"


def export_wisdom(filename):
    """FFTW's wisdom of every precision to '<key><rank>_<filename>'."""
    results = [lib.export_wisdom(_wisdom_file(key, filename)) for key, lib in fftlib.items()]
    if not all(r == 1 for r in results):
        raise AssertionError(f"Not able to export wisdom {filename}")


def import_wisdom(filename):
    """FFTW's wisdom of every precision from '<key><rank>_<filename>'."""
    results = [lib.import_wisdom(_wisdom_file(key, filename)) for key, lib in fftlib.items()]
    if not all(r == 1 for r in results):
        raise AssertionError(f"Not able to import wisdom {filename}")


def forget_wisdom():
    for lib in fftlib.values():
        lib.forget_wisdom()


def set_timelimit(limit):
    """FFTW's planning time limit in seconds (negative: none)."""
    for lib in fftlib.values():
        lib.set_timelimit(limit)


def cleanup():
    """Forget wisdom and the time limit (see the module text)."""
    for lib in fftlib.values():
        lib.forget_wisdom()
        lib.set_timelimit(-1.0)
