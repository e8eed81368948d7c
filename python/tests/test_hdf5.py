"""
test_hdf5.py -- parallel HDF5 checkpoints: written by all ranks of one
communicator, read back by a different number of ranks (a sub-communicator
of the first ranks, and the reverse), with the global shape, kinds and
space as attributes; a file whose global shape (or kinds) differs is
refused on every rank and left unchanged.
"""
import numpy
import pytest
from mpi4py import MPI

import distfft
from distfft import hdf5
from helpers import random_global

SHAPE = (7, 6, 5)


def first_ranks(comm, count):
    """A communicator of ranks 0..count-1 (None on the others)."""
    color = 0 if comm.Get_rank() < count else MPI.UNDEFINED
    return comm.Split(color, comm.Get_rank())


def write_checkpoint(comm, path, grid=None):
    whole = random_global(SHAPE, numpy.float64, seed=21)
    with distfft.Plan(comm, SHAPE, dtype=numpy.float64, grid=grid, rigor="estimate") as plan:
        u = plan.input_array()
        u[...] = whole[plan.input_slice]
        u_hat = plan.forward(u)
        hdf5.write(path, "u", u, mode="w")
        u_hat.write(path, "u_hat")
        spectrum = u_hat.gather(root=None)
    return whole, spectrum


def read_checkpoint(comm, path, whole, spectrum, grid=None):
    with distfft.Plan(comm, SHAPE, dtype=numpy.float64, grid=grid, rigor="estimate") as plan:
        u = hdf5.read(path, "u", plan.input_array())
        u_hat = plan.output_array().read(path, "u_hat")
        assert numpy.array_equal(u, whole[plan.input_slice])
        assert numpy.array_equal(u_hat, spectrum[plan.output_slice])
        back = plan.backward(u_hat)
        assert numpy.allclose(back, whole[plan.input_slice], atol=1e-13)
        info = hdf5.attributes(path, "u_hat", plan.comm)
        assert info == {"global_shape": plan.global_output_shape, "kinds": plan.kinds,
                        "space": "output"}


def test_round_trip_on_the_same_ranks(comm, shared_tmp_path):
    path = f"{shared_tmp_path}/same.h5"
    whole, spectrum = write_checkpoint(comm, path, grid="slab")
    read_checkpoint(comm, path, whole, spectrum, grid="pencil")


@pytest.mark.skipif(MPI.COMM_WORLD.Get_size() < 2, reason="needs two rank counts")
def test_written_on_p_ranks_read_on_fewer(comm, shared_tmp_path):
    path = f"{shared_tmp_path}/p_to_q.h5"
    whole, spectrum = write_checkpoint(comm, path)
    fewer = first_ranks(comm, comm.Get_size() - 1)
    if fewer != MPI.COMM_NULL:
        read_checkpoint(fewer, path, whole, spectrum)
        fewer.Free()
    comm.Barrier()


@pytest.mark.skipif(MPI.COMM_WORLD.Get_size() < 2, reason="needs two rank counts")
def test_written_on_fewer_ranks_read_on_p(comm, shared_tmp_path):
    path = f"{shared_tmp_path}/q_to_p.h5"
    fewer = first_ranks(comm, max(1, comm.Get_size() // 2))
    result = None
    if fewer != MPI.COMM_NULL:
        result = write_checkpoint(fewer, path, grid="pencil" if fewer.Get_size() > 1 else None)
        fewer.Free()
    whole, spectrum = comm.bcast(result, root=0)
    read_checkpoint(comm, path, whole, spectrum)


def file_bytes(comm, path):
    comm.Barrier()
    with open(path, "rb") as f:
        return f.read()


def test_different_global_shape_is_refused_everywhere(comm, shared_tmp_path):
    path = f"{shared_tmp_path}/other.h5"
    write_checkpoint(comm, path)
    before = file_bytes(comm, path)
    with distfft.Plan(comm, (7, 6, 4), dtype=numpy.float64, rigor="estimate") as plan:
        u = plan.input_array()
        u[...] = 1.0
        with pytest.raises(ValueError, match="global shape"):
            hdf5.read(path, "u", u)
        assert numpy.all(u == 1.0)                      # nothing read into it
        with pytest.raises(ValueError, match="global shape"):
            hdf5.write(path, "u", u)                    # would overwrite another shape
    assert file_bytes(comm, path) == before             # nothing written


def test_different_kinds_are_refused_everywhere(comm, shared_tmp_path):
    path = f"{shared_tmp_path}/kinds.h5"
    write_checkpoint(comm, path)
    with distfft.Plan(comm, SHAPE, dtype=numpy.float64, kinds="dct2,dct2,r2c",
                      rigor="estimate") as plan:
        with pytest.raises(ValueError, match="kinds"):
            hdf5.read(path, "u_hat", plan.output_array())


def test_missing_dataset_and_plain_arrays_are_refused(comm, shared_tmp_path):
    path = f"{shared_tmp_path}/missing.h5"
    write_checkpoint(comm, path)
    with distfft.Plan(comm, SHAPE, dtype=numpy.float64, rigor="estimate") as plan:
        with pytest.raises(KeyError, match="no dataset"):
            hdf5.read(path, "nothing", plan.input_array())
    with pytest.raises(TypeError, match="DistArray"):
        hdf5.write(path, "plain", numpy.zeros(3))
