"""
test_lifetime.py -- dropping a distfft object on one rank while the others
are inside a collective never hangs (issue 21): garbage collection makes no
MPI call; the released objects are freed together by the next object made
on the same ranks, by destroy(), or by distfft.collect(comm), and only when
every rank has released them. A hang fails through the short watchdog
below (the whole job exits with the stacks).
"""
import faulthandler
import gc

import numpy
import pytest
from mpi4py import MPI

import distfft
from distfft import _lifetime

WATCHDOG = 60   # seconds: a hang here is the bug this file is about
# (staged, nccl and cuda-ipc move device memory only: these objects are the host's)
METHODS = [m for m in distfft.method_names() if m not in ("auto", "staged", "nccl", "cuda-ipc")] + ["auto"]


@pytest.fixture(autouse=True)
def watchdog():
    faulthandler.dump_traceback_later(WATCHDOG, exit=True)
    yield
    faulthandler.dump_traceback_later(120, exit=True)   # conftest's, back


# Handles a released plan files: the plan alone (its layouts,
# plan.input_layout and plan.output_layout, each a distfft.Layout with its
# own communicator, are made only when asked for); a redistribution or a
# halo files one.
PLAN = 1


def handles(what):
    return PLAN if what == "plan" else 1


def make(comm, what, method):
    if what == "plan":
        return distfft.Plan(comm, (12, 12, 4), method=method, rigor="estimate")
    if what == "redistribution":
        return distfft.Redistribution.for_global_shape(comm, (12, 12, 4), 0, 1,
                                                       method=method)
    plan = distfft.Plan(comm, (7, 6, 5), dtype=numpy.float64, method="alltoallw",
                        rigor="estimate")
    with plan:
        return distfft.Halo(comm, (7, 6, 5), plan.input_slice, 1)


@pytest.mark.parametrize("what,method", [("plan", m) for m in METHODS] +
                         [("redistribution", m) for m in METHODS if m != "auto"] +
                         [("halo", None)])
def test_drop_on_one_rank_while_the_others_wait_in_a_barrier(comm, what, method):
    """The issue's scenario: rank 0 drops its object, collects garbage and
    enters a barrier; the others enter the barrier first and drop theirs
    after. The shm method's MPI_Win_free used to deadlock here."""
    gc.collect()          # what earlier tests left (a failed test's frames, say)
    distfft.collect(comm)  # is released now, not counted below
    obj = make(comm, what, method)
    before = _lifetime.pending_count(comm)
    if comm.rank == 0:
        del obj
        gc.collect()
        comm.Barrier()
    else:
        comm.Barrier()
        del obj
        gc.collect()
    assert _lifetime.pending_count(comm) == before + handles(what)
    assert distfft.collect(comm) == before + handles(what)   # every rank released it: freed
    assert _lifetime.pending_count(comm) == 0


def test_a_plan_makes_its_layouts_when_asked_for(comm):
    """A plan's layouts (each with a duplicate communicator) are made on
    first use, by the plan or by one of its arrays, and released with it."""
    before = _lifetime.pending_count(comm)
    plan = make(comm, "plan", "alltoallw")
    u = plan.input_array()                      # local: no layout made
    assert plan._layouts == {}
    assert u.layout is plan.input_layout        # collective, on every rank
    assert set(plan._layouts) == {"input"}
    assert u.layout.local_slice == plan.input_slice
    del u, plan
    gc.collect()
    assert _lifetime.pending_count(comm) == before + 2   # the plan and its input layout
    assert distfft.collect(comm) == before + 2


def test_released_on_some_ranks_only_waits(comm):
    a = make(comm, "plan", "shm")
    b = make(comm, "plan", "shm")
    if comm.rank == 0:
        del a
    gc.collect()
    assert distfft.collect(comm) == (PLAN if comm.size == 1 else 0)
    # released in different orders on different ranks: freed in creation order
    if comm.rank % 2:
        del b
        gc.collect()
    if comm.rank != 0:
        del a
        gc.collect()
    if comm.rank % 2 == 0:
        del b
        gc.collect()
    assert distfft.collect(comm) == (PLAN if comm.size == 1 else 2 * PLAN)
    assert _lifetime.pending_count(comm) == 0


def test_the_next_object_frees_what_was_released(comm):
    plans = [make(comm, "plan", "shm") for _ in range(3)]
    del plans
    gc.collect()
    assert _lifetime.pending_count(comm) == 3 * PLAN
    with make(comm, "plan", "alltoallw"):          # creation drains
        assert _lifetime.pending_count(comm) == 0
    keep = make(comm, "redistribution", "shm")
    dropped = make(comm, "redistribution", "shm")
    del dropped
    gc.collect()
    keep.destroy()                                  # destroy() drains too
    assert _lifetime.pending_count(comm) == 0


def test_groups_are_keyed_by_ranks_not_by_communicator(comm):
    """A plan on a reordered duplicate of comm is freed by the next object
    made on comm itself (the same ranks); a sub-group's objects only by
    that sub-group's calls."""
    reordered = comm.Split(0, comm.size - comm.rank)
    half = comm.Split(comm.rank % 2, comm.rank)
    try:
        a = make(reordered, "plan", "shm")
        b = make(half, "plan", "shm")
        del a, b
        gc.collect()
        one_group = comm.size == 1      # then comm, reordered and half are one group
        assert _lifetime.pending_count(comm) == (2 * PLAN if one_group else PLAN)
        assert _lifetime.pending_count(half) == (2 * PLAN if one_group else PLAN)
        assert distfft.collect(comm) >= 1
        assert distfft.collect(half) >= 0
        assert _lifetime.pending_count(comm) == 0 and _lifetime.pending_count(half) == 0
    finally:
        reordered.Free()
        half.Free()


def test_garbage_collection_in_a_thread_makes_no_mpi_call(comm):
    """__del__ may run in any thread (here: a thread that never calls MPI
    collectives); it only files the object."""
    import threading
    box = [make(comm, "plan", "shm")]
    thread = threading.Thread(target=lambda: (box.clear(), gc.collect()))
    thread.start()
    thread.join(WATCHDOG / 2)
    assert not thread.is_alive()
    assert distfft.collect(comm) == PLAN


def test_collect_checks_its_communicator():
    with pytest.raises(TypeError, match="mpi4py communicator"):
        distfft.collect(None)
    with pytest.raises(ValueError, match="intracommunicator"):
        distfft.collect(MPI.COMM_NULL)


def test_garbage_collection_never_enters_the_library(comm, monkeypatch):
    """Why the package defers frees itself rather than calling the C
    library's local release (distfft_plan_release, _redist_release) from
    __del__: a collector runs on whichever thread happens to allocate,
    possibly while another thread is inside a distfft call (ctypes lets go
    of the GIL there), and the C release calls share their queues with
    creation and distfft_collect -- one thread at a time per process, and
    without MPI_THREAD_MULTIPLE every distfft call from the thread that
    calls MPI (include/distfft.h, "Threads"). Layouts, reshapes and halos,
    and the package's own duplicate of each object's communicator, have no
    release at all. So __del__ calls nothing of the library, for every
    kind of object: shown by recording each library call with its thread
    while a second thread drops them all and collects garbage."""
    import threading
    import types
    from distfft import _lib

    calls = []

    def recorded(name, function):
        def call(*args):
            calls.append((threading.get_ident(), name))
            return function(*args)
        return call

    plan = make(comm, "plan", "shm")
    objects = [plan, make(comm, "redistribution", "shm"), make(comm, "halo", None),
               plan.input_layout, plan.output_layout,
               distfft.Reshape(plan.input_layout, plan.output_layout)]
    kinds, count = sorted({type(obj).__name__ for obj in objects}), len(objects)
    del plan
    monkeypatch.setattr(_lib, "lib", types.SimpleNamespace(
        **{name: recorded(name, function) for name, function in vars(_lib.lib).items()}))
    before = _lifetime.pending_count(comm)
    collector = threading.Thread(target=lambda: (objects.clear(), gc.collect()))
    collector.start()
    collector.join(WATCHDOG / 2)
    assert not collector.is_alive()
    assert kinds == ["Halo", "Layout", "Plan", "Redistribution", "Reshape"]
    assert [name for thread, name in calls if thread == collector.ident] == []
    assert _lifetime.pending_count(comm) == before + count
    assert distfft.collect(comm) == before + count
    assert {name for thread, name in calls if thread == threading.get_ident()} >= {
        "distfft_plan_destroy", "distfft_redist_destroy", "distfft_halo_destroy",
        "distfft_layout_destroy", "distfft_reshape_destroy"}
