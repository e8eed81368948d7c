"""
_lifetime.py -- objects holding C handles are freed before MPI_Finalize.

mpi4py finalizes MPI from an atexit handler registered when it was imported;
atexit runs handlers last-registered first, and this module is imported
after mpi4py, so the handler below runs first and destroys every plan and
redistribution still alive.
"""
import atexit
import weakref

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
