"""
_lifetime.py -- objects holding C handles are freed without ever hanging.

The C destroy calls are collective, and some synchronise the ranks: a plan
or redistribution with the shm method frees an MPI shared-memory window
(MPI_Win_free waits for every rank of the window), and MPI_Comm_free is
collective by the standard. Garbage collection runs at different moments
on different ranks, so a destroy from __del__ on rank 0 while rank 1 waits
in comm.Barrier() deadlocks the job. Hence:

  - destroy() and `with` blocks free at once (collective, the recommended
    way: every rank frees at the same point of its program);
  - __del__ (garbage collection) makes NO MPI call: it moves the C handle
    and the object's communicator to the pending list of its group's
    registry, and nothing more;
  - a registry belongs to a group of ranks (the sorted COMM_WORLD ranks of
    the object's communicator, the same key on every member, whatever the
    communicator object); its pending objects are freed by drain(), which
    every member runs at the same point: when an object is created on, or
    destroy()ed from, a communicator of that group, at collect(comm), and
    at exit. drain() agrees (one MPI_Allreduce, two when something is
    pending everywhere) on the objects released on EVERY member -- serial
    numbers, which count the objects made on the group and are therefore
    the same on every rank -- and frees those, in creation order. An object
    released on some ranks only waits for the next drain;
  - at exit (before mpi4py finalizes MPI: atexit runs handlers
    last-registered first, and this module is imported after mpi4py) every
    object still alive or pending is freed in reverse creation order, the
    same order on every rank.

Why this module keeps its own deferral instead of calling the C library's
local release (distfft_plan_release, distfft_redist_release, with
distfft_collect as the drain) from __del__: __del__ runs on whichever
thread happens to trigger garbage collection, possibly while another thread
is inside a distfft call (ctypes lets go of the GIL around each one). The
C release calls share their queues with creation, destruction and
distfft_collect, one thread at a time per process, and without
MPI_THREAD_MULTIPLE every distfft call must come from the thread that calls
MPI (include/distfft.h, "Threads"); the release also frees FFTW plans,
which FFTW's planner does not allow from a second thread. So __del__ must
not enter the library at all. Besides, each object's communicator here is
the package's own duplicate, whose MPI_Comm_free is collective. At a drain, every rank is at
the same point of its program on the calling thread, so plain destroy calls
do what release and collect would (test_lifetime.py,
test_garbage_collection_never_enters_the_library).
"""
import atexit
import ctypes
import itertools
import warnings
import weakref

import numpy
from mpi4py import MPI

from . import _lib

_live = weakref.WeakValueDictionary()  # creation order -> object not yet destroyed nor
                                       # released (by order, not by hash: some objects
                                       # compare by value)
_registries = {}                   # group key -> _Registry
_order = itertools.count()         # creation order on this rank (all groups)
_WINDOW = 1 << 16                  # most serials compared in one drain


def register(obj):
    """obj (a Handle whose C object was just created on every rank) gets its
    serial in its group's registry; destroyed at exit unless freed before."""
    obj._serial = obj._registry.next_serial()
    obj._order = next(_order)
    _live[obj._order] = obj


def forget(obj):
    _live.pop(getattr(obj, "_order", None), None)


def _group_key(comm):
    """The same value on every rank of comm: its members' sorted COMM_WORLD
    ranks (a communicator outside COMM_WORLD: its handle, on its own)."""
    group, world = comm.Get_group(), MPI.COMM_WORLD.Get_group()
    try:
        ranks = MPI.Group.Translate_ranks(group, list(range(group.Get_size())), world)
    finally:
        group.Free()
        world.Free()
    if any(r == MPI.UNDEFINED for r in ranks):
        return ("handle", MPI._handleof(comm))
    return tuple(sorted(ranks))


class _Pending:
    """What a released object leaves behind: enough to free it later."""
    __slots__ = ("order", "destroy_call", "handle", "comm")

    def __init__(self, order, destroy_call, handle, comm):
        self.order, self.destroy_call, self.handle, self.comm = order, destroy_call, handle, comm

    def free(self):
        """The collective frees (every member of the group calls this)."""
        rc = getattr(_lib.lib, self.destroy_call)(ctypes.byref(self.handle))
        self.comm.Free()
        return rc


class _Registry:
    """The objects of one group of ranks (see the module text)."""

    def __init__(self, comm):
        self.comm = comm.Dup()    # collective: every member makes it at the same point
        self.order = next(_order)
        self.serials = itertools.count()
        self.pending = {}         # serial -> _Pending (filled by __del__ only)
        self.freed = 0            # objects freed by drain(), for tests

    def next_serial(self):
        return next(self.serials)

    def release(self, serial, pending):
        """From __del__: no MPI call, one dict store (atomic under the GIL)."""
        self.pending[serial] = pending

    def drain(self):
        """Collective on the group: free the objects released on every
        member. Returns how many were freed here."""
        mine = sorted(self.pending)
        if self.comm.Get_size() == 1:
            common = mine
        else:
            bounds = numpy.array([len(mine), -mine[0] if mine else 0,
                                  mine[-1] if mine else 0], dtype=numpy.int64)
            self.comm.Allreduce(MPI.IN_PLACE, bounds, op=MPI.MIN)
            count, low, high = int(bounds[0]), -int(bounds[1]), int(bounds[2])
            if count == 0 or low > high:
                return 0
            high = min(high, low + _WINDOW - 1)
            flags = numpy.zeros(high - low + 1, dtype=numpy.uint8)
            for serial in mine:
                if low <= serial <= high:
                    flags[serial - low] = 1
            self.comm.Allreduce(MPI.IN_PLACE, flags, op=MPI.MIN)
            common = [low + int(i) for i in numpy.flatnonzero(flags)]
        failed = 0
        for serial in common:
            pending = self.pending.pop(serial)
            if pending.free() != 0:
                failed += 1
        self.freed += len(common)
        if failed:
            warnings.warn(f"distfft: {failed} released object(s) failed to free: "
                          f"{_lib.lib.distfft_last_error().decode(errors='replace')}",
                          RuntimeWarning, stacklevel=3)
        return len(common)


def registry_of(comm):
    """The registry of comm's group (made now if new: collective on comm)."""
    key = _group_key(comm)
    registry = _registries.get(key)
    if registry is None:
        registry = _registries[key] = _Registry(comm)
    return registry


def collect(comm):
    """Free every distfft object of comm's group that garbage collection has
    released on every rank of it. Collective on comm; returns how many."""
    _lib.comm_handle(comm)
    if comm == MPI.COMM_NULL or comm.Is_inter():
        raise ValueError("distfft: comm must be a valid intracommunicator")
    return registry_of(comm).drain()


def pending_count(comm=None):
    """Objects released by garbage collection and not yet freed on this rank
    (of comm's group, or of every group). Local."""
    if comm is None:
        return sum(len(r.pending) for r in _registries.values())
    registry = _registries.get(_group_key(comm))
    return 0 if registry is None else len(registry.pending)


@atexit.register
def _destroy_all():
    """Every object alive or released, newest first, then the registries:
    the same objects in the same order on every rank."""
    if MPI.Is_finalized():
        return
    alive = list(_live.values())
    entries = [(obj._order, obj._pending()) for obj in alive if obj._handle is not None]
    for registry in _registries.values():
        entries += [(p.order, p) for p in registry.pending.values()]
        registry.pending.clear()
    for obj in alive:
        obj._handle = None
        forget(obj)
    for _, pending in sorted(entries, key=lambda e: e[0], reverse=True):
        try:
            pending.free()
        except Exception:
            pass
    for registry in sorted(_registries.values(), key=lambda r: r.order, reverse=True):
        try:
            registry.comm.Free()
        except Exception:
            pass
    _registries.clear()


class Handle:
    """A C object (self._handle) on a duplicated communicator (self._comm),
    freed by the C call named by _destroy_call (e.g. "distfft_plan_destroy")."""

    _destroy_call = None

    def _adopt(self, comm):
        """Check comm, free what its group released, work on a duplicate of
        it (self._comm)."""
        self._handle = None
        _lib.comm_handle(comm)   # TypeError for anything but an mpi4py communicator
        if comm == MPI.COMM_NULL or comm.Is_inter():
            raise ValueError("distfft: comm must be a valid intracommunicator")
        self._user_comm = comm    # for DistArrays: they outlive the plan
        self._registry = registry_of(comm)
        self._registry.drain()
        self._comm = comm.Dup()

    def _pending(self):
        return _Pending(self._order, self._destroy_call, self._handle, self._comm)

    def destroy(self):
        """Free the C object and the communicator now, and whatever garbage
        collection released on every rank of the group. Collective;
        idempotent."""
        if self._handle is None or MPI.Is_finalized():
            self._handle = None
            return
        pending = self._pending()
        self._handle = None
        forget(self)
        rc = pending.free()
        self._registry.drain()
        _lib.check(rc)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()

    def __del__(self):
        # No MPI call here: garbage collection runs at different moments on
        # different ranks, and the frees are collective (MPI_Win_free of
        # the shm method waits for every rank). The object goes to its
        # group's registry, freed by the next drain on every rank.
        try:
            if self._handle is None:
                return
            pending = self._pending()
            self._handle = None
            self._registry.release(self._serial, pending)
        except Exception:
            pass
