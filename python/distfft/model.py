"""
model.py -- the cost model: measured once per machine, it predicts each
step of a plan and lets method="auto" time only the candidates it ranks
best (Plan(..., tune_budget=B)). The file is text ("distfft-model 1",
then key = value lines; docs/guide/tuning.md).

    distfft.model.calibrate(comm, "machine.model")   # all ranks measure, rank 0 writes
    distfft.model.import_file(comm, "machine.model") # refused if from another MPI library
    plan = distfft.Plan(comm, (512, 512, 512), tune_budget=3)
"""
from . import _lib


def calibrate(comm, path, node_size=0, rigor="measure"):
    """Measure the model on the ranks of comm (FFT rates at `rigor`,
    memcpy, messages inside and between nodes: MPI_Comm_split_type's, or
    node_size consecutive ranks) and write it to path on rank 0. Takes
    seconds. Collective on comm."""
    _lib.check(_lib.lib.distfft_model_calibrate(_lib.comm_handle(comm), _lib.c_integer(node_size, "node_size"),
                                                _lib.code_of("rigor", rigor), _lib.c_string(path, "path")))


def import_file(comm, path, force=False):
    """Rank 0 reads path; every rank takes the model. A malformed file, or
    one calibrated with another MPI library unless force, raises
    DistfftError on every rank. Collective on comm."""
    _lib.check(_lib.lib.distfft_model_import_file(_lib.comm_handle(comm), _lib.c_string(path, "path"),
                                                  1 if force else 0))


def forget():
    """Forget the process's model. Local."""
    _lib.lib.distfft_model_forget()
