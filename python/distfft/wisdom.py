"""
wisdom.py -- what method="auto" plans measured, kept for later runs.

A plan tuned at creation (method "auto", rigor "measure" or above) records
its choices -- the grid when it measured grids, the method of every
exchange -- in this process's wisdom (the C library's, as FFTW's). A later
plan of the same configuration (MPI library, ranks, shape, kinds,
precision, batch, requested grid, placement) takes them without measuring
when every rank holds the same entry. Save it once, load it in production:

    distfft.wisdom.export_file(comm, "distfft.wisdom")   # rank 0 writes
    distfft.wisdom.import_file(comm, "distfft.wisdom")   # rank 0 reads, all import
"""
import ctypes

from . import _lib

_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None


def export_text():
    """This process's wisdom as text. Local."""
    pointer = _lib.lib.distfft_wisdom_export()
    if not pointer:
        raise MemoryError("distfft: distfft_wisdom_export ran out of memory")
    try:
        return ctypes.string_at(pointer).decode()
    finally:
        _libc.free(pointer)


def import_text(text):
    """Add the choices of an exported text; a text that is not wisdom is
    refused whole (DistfftError). Local: import the same text on every rank."""
    _lib.check(_lib.lib.distfft_wisdom_import(_lib.c_string(text, "wisdom text")))


def export_file(comm, path):
    """Rank 0 writes the wisdom to path. Collective on comm."""
    _lib.check(_lib.lib.distfft_wisdom_export_file(_lib.comm_handle(comm), _lib.c_string(path, "path")))


def import_file(comm, path):
    """Rank 0 reads path and every rank imports it; errors on every rank.
    Collective on comm."""
    _lib.check(_lib.lib.distfft_wisdom_import_file(_lib.comm_handle(comm), _lib.c_string(path, "path")))


def forget():
    """Forget all wisdom. Local."""
    _lib.lib.distfft_wisdom_forget()
