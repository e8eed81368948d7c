"""
_lifetime.py -- objects holding C handles are freed before MPI_Finalize.

mpi4py finalizes MPI from an atexit handler registered when it was imported;
atexit runs handlers last-registered first, and this module is imported
after mpi4py, so the handler below runs first and destroys every plan and
redistribution still alive.

Handle is the base of those objects: destroy(), `with` blocks and garbage
collection all free the C object once.
"""
import atexit
import ctypes
import weakref

from mpi4py import MPI

from . import _lib

_live = weakref.WeakSet()


def register(obj):
    """Destroy obj (its destroy() method) at exit unless freed before."""
    _live.add(obj)


def forget(obj):
    _live.discard(obj)


@atexit.register
def _destroy_all():
    for obj in list(_live):
        try:
            obj.destroy()
        except Exception:
            pass


class Handle:
    """A C object (self._handle) on a duplicated communicator (self._comm),
    freed by the C call named by _destroy_call (e.g. "distfft_plan_destroy")."""

    _destroy_call = None

    def _adopt(self, comm):
        """Check comm and work on a duplicate of it (self._comm)."""
        self._handle = None
        _lib.comm_handle(comm)   # TypeError for anything but an mpi4py communicator
        if comm == MPI.COMM_NULL or comm.Is_inter():
            raise ValueError("distfft: comm must be a valid intracommunicator")
        self._user_comm = comm    # for DistArrays: they outlive the plan
        self._comm = comm.Dup()

    def destroy(self):
        """Free the C object and the communicator. Collective; idempotent."""
        if self._handle is None or MPI.Is_finalized():
            self._handle = None
            return
        handle, self._handle = self._handle, None
        _lib.check(getattr(_lib.lib, self._destroy_call)(ctypes.byref(handle)))
        self._comm.Free()
        forget(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()

    def __del__(self):
        # MPI_Comm_free and the library's frees do not synchronise the
        # ranks in practice, so garbage collection at different moments on
        # different ranks is safe; explicit destroy() is still preferred.
        try:
            self.destroy()
        except Exception:
            pass
