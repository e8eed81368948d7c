"""
test_mpi4py_fft_io.py -- distfft.mpi4py_fft.io against mpi4py-fft's own io
(the mpi4py_fft this environment imports: 2.0.6 from PyPI, which
scripts/setup builds into .venv, else Debian's 2.0.4), for NCFile
(netCDF4) and HDF5File (h5py with MPI-IO), on any number of ranks:

 - the same snapshots (several fields, a tensor, float32 and float64,
   steps out of order, planes and lines as global slices, tensors as
   scalars) written by distfft from distributed arrays and by mpi4py-fft
   give the same file: every dimension, variable or dataset, attribute,
   dtype and value;
 - mpi4py-fft reads distfft's file into its own distributed arrays, and
   distfft reads mpi4py-fft's, exactly; a step distfft appends to
   mpi4py-fft's file reads back in mpi4py-fft;
 - what neither accepts raises mpi4py-fft's exception type on every rank.

Debian 12's netCDF4 module is built on a serial netCDF-C: mpi4py-fft's
NCFile, which always opens files with parallel=True, refuses it ("parallel
mode requires MPI enabled netcdf-c"). Its code runs here unchanged on a
netCDF4.Dataset that drops parallel= and comm= (only while mpi4py-fft's
calls run), one rank at a time: it writes its reference file on rank 0
from whole arrays (on MPI.COMM_SELF), and reads distfft's files into
distributed arrays with the ranks taking turns. distfft's NCFile writes in
turns itself with a serial netCDF4 (python/distfft/mpi4py_fft/io/nc_file.py).
With a netCDF4 built on a parallel netCDF-C (scripts/netcdf-parallel-check)
distfft's NCFile and mpi4py-fft's reads run in parallel, unchanged; the
reference file is still written on rank 0 (mpi4py-fft's parallel write
hangs on slices that miss a rank's block).
"""
import contextlib

import numpy
import pytest
from mpi4py import MPI

from helpers import random_global

mpi4py_fft = pytest.importorskip("mpi4py_fft")
import distfft.mpi4py_fft as ours   # noqa: E402

SHAPES = {3: (8, 7, 6), 2: (9, 10)}   # mpi4py-fft needs >= 4 points per axis on 4 ranks
DOMAINS = {3: ((0, 1), (0, 2), (0, 3)), 2: None}
STEPS = (0, 5, 2)   # out of order: the NetCDF time index is the order written


def _parallel(netCDF4):
    """Whether this netCDF4 module opens files on several ranks at once."""
    return bool(getattr(netCDF4, "__has_parallel4_support__", False)
                or getattr(netCDF4, "__has_pnetcdf_support__", False))


def _slices(dimensions):
    """Global slices of a scalar field: planes (3-D) and lines."""
    if dimensions == 3:
        return [[slice(None), 3, slice(None)], [2, slice(None), 4], [slice(None), 6, 5]]
    return [[slice(None), 3], [4, slice(None)]]


def _data(shape, step):
    return {"u": random_global(shape, numpy.float64, seed=100 + step),
            "w": random_global((len(shape),) + shape, numpy.float64, seed=200 + step),
            "p": random_global(shape, numpy.float32, seed=300 + step)}


def _arrays(module, comm, shape, data):
    """module's DistArrays (mpi4py_fft or distfft.mpi4py_fft) on comm
    holding this rank's block of each global array in data."""
    f64 = module.PFFT(comm, shape, dtype=numpy.float64)
    f32 = module.PFFT(comm, shape, dtype=numpy.float32)
    arrays = {"u": module.newDistArray(f64, False), "w": module.newDistArray(f64, False, rank=1),
              "p": module.newDistArray(f32, False)}
    for name, array in arrays.items():
        array[...] = data[name][array.local_slice()]
    return arrays, (f64, f32)


def _snapshots(arrays, step, dimensions):
    """The write() calls of one step: (fields, keywords)."""
    u, w, p = arrays["u"], arrays["w"], arrays["p"]
    if step == 2:   # tensors as scalars: w0, w1, ...
        return [({"w": [w]}, {"as_scalar": True})]
    planes = _slices(dimensions)
    return [({"u": [u] + [(u, s) for s in planes], "w": [w, (w, planes[0])],
              "p": [p, (p, planes[-1])]}, {})]


def _file(module, kind, path, dimensions, mode="w"):
    cls = module.NCFile if kind == "nc" else module.HDF5File
    return cls(path, domain=DOMAINS[dimensions], mode=mode)


@contextlib.contextmanager
def _their_netcdf(kind, serial=False):
    """mpi4py-fft's NCFile opening files on this rank alone (serial=True,
    or a serial netCDF4) while mpi4py-fft's calls run (callers take turns):
    Dataset without parallel= and comm= (a serial netCDF4), or on
    MPI.COMM_SELF (a parallel one, whose variables' set_collective needs a
    parallel open)."""
    if kind != "nc":
        yield
        return
    import netCDF4
    parallel = _parallel(netCDF4)
    if parallel and not serial:
        yield
        return
    dataset = netCDF4.Dataset

    def alone(*args, parallel=False, comm=None, info=None, **kw):
        if parallel and _parallel(netCDF4):
            return dataset(*args, parallel=True, comm=MPI.COMM_SELF, **kw)
        return dataset(*args, **kw)

    netCDF4.Dataset = alone
    try:
        yield
    finally:
        netCDF4.Dataset = dataset


def _in_turns(comm, work):
    """work() on rank 0, then 1, ...; an error is raised after the turns."""
    error = None
    for turn in range(comm.Get_size()):
        if comm.Get_rank() == turn:
            try:
                work()
            except Exception as e:   # raised below, after the last turn
                error = e
        comm.Barrier()
    if error is not None:
        raise error


def _their_reads_serial(kind):
    """mpi4py-fft reads on one rank at a time with a serial netCDF4."""
    if kind != "nc":
        return False
    import netCDF4
    return not _parallel(netCDF4)


def _write_theirs(comm, kind, path, shape):
    """mpi4py-fft writes the reference file: HDF5 on all ranks together;
    NetCDF on rank 0 alone from whole arrays (a serial netCDF4 cannot do
    more; with a parallel one mpi4py-fft's NCFile hangs on a slice that
    misses a rank's block: netCDF-C makes its independent write collective,
    test_netcdf_empty_blocks_and_slices_that_miss_ranks)."""
    serial = kind == "nc"
    if serial and comm.Get_rank() != 0:
        comm.Barrier()
        return
    where = MPI.COMM_SELF if serial else comm
    with _their_netcdf(kind, serial=serial):
        f = _file(mpi4py_fft, kind, path, len(shape))
        for step in STEPS:
            arrays, plans = _arrays(mpi4py_fft, where, shape, _data(shape, step))
            for fields, kw in _snapshots(arrays, step, len(shape)):
                f.write(step, fields, **kw)
            for plan in plans:
                plan.destroy()
    if serial:
        comm.Barrier()


def _write_ours(comm, kind, path, shape):
    f = _file(ours, kind, path, len(shape))
    for step in STEPS:
        arrays, plans = _arrays(ours, comm, shape, _data(shape, step))
        for fields, kw in _snapshots(arrays, step, len(shape)):
            f.write(step, fields, **kw)
        for plan in plans:
            plan.destroy()


def _netcdf_contents(path):
    import netCDF4
    with netCDF4.Dataset(path, "r") as d:
        d.set_auto_mask(False)
        dimensions = {name: (len(dim), dim.isunlimited()) for name, dim in d.dimensions.items()}
        variables = {name: (v.dimensions, v.dtype, v[...].copy()) for name, v in d.variables.items()}
        attributes = {name: d.getncattr(name) for name in d.ncattrs()}
    return dimensions, variables, attributes


def _hdf5_contents(path):
    import h5py
    contents = {}
    with h5py.File(path, "r", driver=None) as f:
        def visit(name, node):
            attrs = {k: (numpy.asarray(v).dtype.str, numpy.asarray(v).tolist())
                     for k, v in node.attrs.items()}
            data = (node.dtype, node[...]) if isinstance(node, h5py.Dataset) else None
            contents[name] = (attrs, data)
        f.visititems(visit)
    return contents


def _same_contents(kind, mine, theirs):
    if kind == "nc":
        (dims_a, vars_a, attrs_a), (dims_b, vars_b, attrs_b) = mine, theirs
        assert dims_a == dims_b and attrs_a == attrs_b
        assert sorted(vars_a) == sorted(vars_b)
        for name in vars_b:
            assert vars_a[name][:2] == vars_b[name][:2], name
            assert numpy.array_equal(vars_a[name][2], vars_b[name][2], equal_nan=True), name
        return sorted(vars_b)
    assert sorted(mine) == sorted(theirs)
    for name, (attrs, data) in theirs.items():
        assert mine[name][0] == attrs, name
        if data is None:
            assert mine[name][1] is None, name
        else:
            assert mine[name][1][0] == data[0], name
            assert numpy.array_equal(mine[name][1][1], data[1]), name
    return sorted(theirs)


def _contents(kind, path):
    return _netcdf_contents(path) if kind == "nc" else _hdf5_contents(path)


@pytest.fixture(params=["nc", "h5"])
def kind(request):
    if request.param == "nc":
        pytest.importorskip("netCDF4")
    return request.param


def _read_steps(kind):
    """(step to read, the step's data) for whole fields: NetCDF reads by
    time index (the order written), HDF5 by step."""
    return [(i if kind == "nc" else step, step) for i, step in enumerate(STEPS)]


def _on_rank0(comm, check):
    """check() on rank 0 alone; its failure is raised there after the
    other ranks were told (conftest fails the test on every rank), so no
    rank is left waiting in a collective."""
    error = None
    if comm.Get_rank() == 0:
        try:
            check()
        except Exception as e:   # raised below, after the broadcast
            error = e
    comm.bcast(None, root=0)
    if error is not None:
        raise error


def _slice_name(s):
    return "_".join("slice" if isinstance(i, slice) else str(i) for i in s)


@pytest.mark.parametrize("dimensions", [3, 2])
def test_same_file_as_mpi4py_fft(comm, shared_tmp_path, kind, dimensions):
    shape = SHAPES[dimensions]
    path_ours = f"{shared_tmp_path}/ours.{kind}"
    path_theirs = f"{shared_tmp_path}/theirs.{kind}"
    _write_ours(comm, kind, path_ours, shape)
    _write_theirs(comm, kind, path_theirs, shape)

    def check():
        mine = _contents(kind, path_ours)
        names = _same_contents(kind, mine, _contents(kind, path_theirs))
        # the file holds what was written: whole fields, scalar components, slices
        plane = _slices(dimensions)[0]
        kept = sum(isinstance(i, slice) for i in plane)
        expect = {"nc": ["u", "w", "p", "w0", "w1", "u_" + _slice_name(plane)],
                  "h5": [f"u/{dimensions}D/0", f"w0/{dimensions}D/2", f"p/{dimensions}D/5",
                         f"u/{kept}D/{_slice_name(plane)}/5"]}[kind]
        assert set(expect) <= set(names), (expect, names)
        for index, step in enumerate(STEPS):
            if step == 2:
                continue
            want = _data(shape, step)["u"][tuple(plane)]
            if kind == "nc":
                got = mine[1]["u_" + _slice_name(plane)][2][index]
            else:
                got = mine[f"u/{kept}D/{_slice_name(plane)}/{step}"][1][1]
            assert numpy.array_equal(got, want), step

    _on_rank0(comm, check)


def _their_read(comm, kind, path, array, name, step):
    def work():
        _file(mpi4py_fft, kind, path, array.dimensions, mode="r").read(array, name, step=step)
    with _their_netcdf(kind):
        if _their_reads_serial(kind):
            _in_turns(comm, work)   # mpi4py-fft opens the file 'r+': one rank at a time
        else:
            work()


@pytest.mark.parametrize("dimensions", [3, 2])
def test_files_go_both_ways(comm, shared_tmp_path, kind, dimensions):
    shape = SHAPES[dimensions]
    path_ours = f"{shared_tmp_path}/ours.{kind}"
    path_theirs = f"{shared_tmp_path}/theirs.{kind}"
    _write_ours(comm, kind, path_ours, shape)
    _write_theirs(comm, kind, path_theirs, shape)
    for read_as, step in _read_steps(kind):
        data = _data(shape, step)
        names = ["w0", "w1"] if step == 2 else ["u", "w", "p"]
        for name in names:
            whole = data["w"][int(name[1])] if name.startswith("w") and len(name) > 1 \
                else data[name]
            # mpi4py-fft reads distfft's file into its distributed arrays
            theirs, plans = _arrays(mpi4py_fft, comm, shape, _data(shape, step))
            target = theirs["p" if name == "p" else "w" if name == "w" else "u"]
            target[...] = 0
            _their_read(comm, kind, path_ours, target, name, read_as)
            assert numpy.array_equal(target, whole[target.local_slice()]), (name, step)
            for plan in plans:
                plan.destroy()
            # distfft reads mpi4py-fft's
            mine, plans = _arrays(ours, comm, shape, _data(shape, step))
            target = mine["p" if name == "p" else "w" if name == "w" else "u"]
            target[...] = 0
            _file(ours, kind, path_theirs, dimensions, mode="r").read(target, name, step=read_as)
            assert numpy.array_equal(target, whole[target.local_slice()]), (name, step)
            for plan in plans:
                plan.destroy()

    # distfft appends a step to mpi4py-fft's file (DistArray.write, the file
    # name's extension choosing the format); mpi4py-fft reads it
    data = _data(shape, 7)
    mine, plans = _arrays(ours, comm, shape, data)
    mine["u"].write(path_theirs, "u", 7, domain=DOMAINS[dimensions])
    for plan in plans:
        plan.destroy()
    theirs, plans = _arrays(mpi4py_fft, comm, shape, data)
    theirs["u"][...] = 0
    _their_read(comm, kind, path_theirs, theirs["u"], "u", len(STEPS) if kind == "nc" else 7)
    assert numpy.array_equal(theirs["u"], data["u"][theirs["u"].local_slice()])
    mine, more = _arrays(ours, comm, shape, data)
    mine["u"][...] = 0
    mine["u"].read(path_theirs, "u", len(STEPS) if kind == "nc" else 7)
    assert numpy.array_equal(mine["u"], data["u"][mine["u"].local_slice()])
    for plan in plans + more:
        plan.destroy()


def test_netcdf_refusals_as_mpi4py_fft(comm, shared_tmp_path):
    """A field named as a dimension (mpi4py-fft: AssertionError) and a
    complex field (netCDF4 1.6 has no complex type: TypeError) raise the
    same type on every rank, as mpi4py-fft's NCFile does."""
    pytest.importorskip("netCDF4")
    shape = SHAPES[3]
    mine, plans = _arrays(ours, comm, shape, _data(shape, 0))
    f = ours.NCFile(f"{shared_tmp_path}/bad.nc", mode="w")
    with pytest.raises(AssertionError, match="'x'"):
        f.write(0, {"x": [mine["u"]]})
    complex_plan = ours.PFFT(comm, shape, dtype=numpy.complex128)
    c = ours.newDistArray(complex_plan, False, val=1)
    with pytest.raises(TypeError):
        f.write(0, {"c": [c]})
    # the file is still usable after both
    f.write(0, {"u": [mine["u"]]})
    back = ours.newDistArray(plans[0], False)
    f.read(back, "u", step=0)
    assert numpy.array_equal(back, mine["u"])
    for plan in list(plans) + [complex_plan]:
        plan.destroy()

    def theirs():   # the same types from mpi4py-fft's NCFile
        reference = mpi4py_fft.PFFT(MPI.COMM_SELF, shape, dtype=numpy.complex128)
        with _their_netcdf("nc", serial=True):
            f = mpi4py_fft.NCFile(f"{shared_tmp_path}/bad_theirs.nc", mode="w")
            with pytest.raises(AssertionError):
                f.write(0, {"x": [mpi4py_fft.newDistArray(reference, False)]})
            f.close()   # mpi4py-fft leaves the file open when write raises
            with pytest.raises(TypeError):
                f.write(0, {"c": [mpi4py_fft.newDistArray(reference, False)]})
            f.close()
        reference.destroy()

    _on_rank0(comm, theirs)


def test_netcdf_opens_when_every_rank_has_called(comm, shared_tmp_path):
    """As mpi4py-fft's test_io: every rank removes the file, then opens it
    with mode 'w'. A parallel open waits for every rank; the ranks' turns
    with a serial netCDF4 must too (here the last rank removes late: had
    rank 0 created the file before, it would be gone)."""
    pytest.importorskip("netCDF4")
    import os
    import time
    path = f"{shared_tmp_path}/removed.nc"
    shape = SHAPES[2]
    data = _data(shape, 1)
    mine, plans = _arrays(ours, comm, shape, data)
    for _ in range(2):
        if comm.Get_rank() == comm.Get_size() - 1:
            time.sleep(0.3)
        try:   # as mpi4py-fft's remove_if_exists: another rank may be first
            os.remove(path)
        except FileNotFoundError:
            pass
        f = ours.NCFile(path, mode="w")
        f.write(0, {"u": [mine["u"]]})
        back = ours.newDistArray(plans[0], False)
        f.read(back, "u", step=0)
        assert numpy.array_equal(back, data["u"][back.local_slice()])
        comm.Barrier()
    for plan in plans:
        plan.destroy()


def _xml_tree(path):
    """An XDMF file as nested (tag, attributes, text) tuples; texts that
    are numbers as floats ('0' and '0.0' alike), others with whitespace
    normalised."""
    import xml.etree.ElementTree as ElementTree

    def text(element):
        words = (element.text or "").split()
        try:
            return tuple(float(w) for w in words)
        except ValueError:
            return " ".join(words)

    def node(element):
        return (element.tag, dict(element.attrib), text(element),
                [node(child) for child in element])
    return node(ElementTree.parse(path).getroot())


def _precisions(path):
    """{dataset path: Precision} of an XDMF file's HDF data items."""
    import xml.etree.ElementTree as ElementTree
    return {item.text.strip().split(":/")[-1]: item.get("Precision")
            for item in ElementTree.parse(path).getroot().iter("DataItem")
            if item.get("Format") == "HDF"}


def _moved(tree, axis, position):
    """tree (of _xml_tree) with the plane of every ORIGIN_DXDYDZ geometry
    (its origin's and spacing's component `axis`) at `position`."""
    tag, attributes, text, children = tree
    if tag == "Geometry" and attributes.get("Type") == "ORIGIN_DXDYDZ":
        children = [(t, a, tuple(position if i == axis else v for i, v in enumerate(x)), c)
                    for t, a, x, c in children]
    return (tag, attributes, text, [_moved(child, axis, position) for child in children])


@pytest.mark.parametrize("order", ["paraview", "visit"])
@pytest.mark.parametrize("periodic", [True, False])
@pytest.mark.parametrize("dimensions", [3, 2])
def test_xdmf_as_mpi4py_fft(comm, shared_tmp_path, order, periodic, dimensions):
    """generate_xdmf gives the XDMF files mpi4py-fft's gives (2.0.6 places
    2-D data in 3-D: VXVYVZ, 3DRectMesh), for whole 2-D and 3-D arrays and
    planes, on a domain and on a mesh, several fields and steps; and a
    float32 field gets Precision 4 (mpi4py-fft writes 8, wrongly: its
    dtype test uses `is`), the float64 fields 8."""
    import os
    import shutil
    if dimensions == 2 and mpi4py_fft.__version__ != "2.0.6":
        pytest.skip(f"mpi4py-fft {mpi4py_fft.__version__} writes 2-D XDMF in 2-D, 2.0.6 in 3-D "
                    "(distfft's way): the reference is not 2.0.6 (scripts/setup builds it "
                    "into .venv from PyPI)")
    domain = DOMAINS[3] if dimensions == 3 else (numpy.arange(9.0) / 3, numpy.arange(10.0) ** 2)
    shape = SHAPES[dimensions]
    path = f"{shared_tmp_path}/x{dimensions}_{order}_{periodic}.h5"
    arrays, plans = _arrays(ours, comm, shape, _data(shape, 1))
    f = ours.HDF5File(path, domain=domain, mode="w")
    for step in (0, 3):
        f.write(step, {"u": [arrays["u"]] + [(arrays["u"], s) for s in _slices(dimensions)[:2]],
                       "v": [arrays["w"][1]]})
    single = f"{shared_tmp_path}/single{dimensions}_{order}_{periodic}.h5"
    ours.HDF5File(single, domain=domain, mode="w").write(0, {"p": [arrays["p"]],
                                                              "u": [arrays["u"]]})
    for plan in plans:
        plan.destroy()

    def check():
        stem = os.path.splitext(os.path.basename(path))[0]
        folder = os.path.dirname(path)
        before = set(os.listdir(folder))
        ours.generate_xdmf(path, periodic=periodic, order=order)
        made = sorted(set(os.listdir(folder)) - before)
        assert made and all(name.startswith(stem) and name.endswith(".xdmf") for name in made)
        for name in made:
            shutil.move(f"{folder}/{name}", f"{folder}/ours_{name}")
        mpi4py_fft.generate_xdmf(path, periodic=periodic, order=order)
        theirs = sorted(set(os.listdir(folder)) - before - {f"ours_{n}" for n in made})
        assert theirs == made, (theirs, made)
        for name in made:
            expect = _xml_tree(f"{folder}/{name}")
            if not periodic and name.endswith("_slice_3_slice.xdmf") and stem.startswith("x3"):
                # not periodic, mpi4py-fft still puts plane k at origin +
                # k * length / N; the points are at k * length / (N - 1)
                expect = _moved(expect, 1, 2 * 3 / (SHAPES[3][1] - 1))
            assert _xml_tree(f"{folder}/ours_{name}") == expect, name
        ours.generate_xdmf(single, periodic=periodic, order=order)
        precisions = _precisions(single[:-3] + ".xdmf")
        assert {k.split("/")[0]: v for k, v in precisions.items()
                if "/mesh/" not in k} == {"p": "4", "u": "8"}, precisions

    _on_rank0(comm, check)


def test_reference_is_mpi4py_fft_2_0_6():
    """The comparisons run against mpi4py-fft 2.0.6 (issue 23's target),
    built from PyPI into this environment by scripts/setup; where it could
    not be, they run against Debian's 2.0.4 and this says so."""
    import os
    if mpi4py_fft.__version__ != "2.0.6":
        pytest.skip(f"the comparisons ran against mpi4py-fft {mpi4py_fft.__version__} "
                    f"({mpi4py_fft.__file__}), not 2.0.6: scripts/setup could not build it "
                    "from PyPI")
    # pip's build (site-packages), not Debian's package (dist-packages)
    assert "dist-packages" not in os.path.realpath(mpi4py_fft.__file__)
    assert hasattr(mpi4py_fft, "fftlib")   # new in 2.0.6's top level


def test_netcdf_empty_blocks_and_slices_that_miss_ranks(comm, shared_tmp_path):
    """Empty blocks (2 points along a distributed axis: on 3 ranks one
    block is empty; distfft allows it, mpi4py-fft asserts) and slices that
    miss most ranks' blocks: the file holds the data and nothing hangs
    (with a parallel netCDF4 every write along 'time' is collective in
    netCDF-C, and netCDF4 skips empty writes: there mpi4py-fft's NCFile
    hangs on such a slice)."""
    pytest.importorskip("netCDF4")
    shape = (2, 3, 5)
    data = random_global(shape, numpy.float64, seed=5)
    fft = ours.PFFT(comm, shape, dtype=numpy.float64)
    u = ours.newDistArray(fft, False)
    u[...] = data[u.local_slice()]
    empty = comm.allreduce(u.size == 0, op=MPI.LOR)
    assert empty == (comm.Get_size() >= 3 and fft.subcomm[0].Get_size() >= 3)
    path = f"{shared_tmp_path}/empty.nc"
    f = ours.NCFile(path, mode="w")
    f.write(0, {"u": [u, (u, [1, slice(None), slice(None)]), (u, [0, 2, slice(None)])]})
    f.write(4, {"u": [2 * u, (2 * u, [1, slice(None), slice(None)])]})
    for index, factor in ((0, 1), (1, 2)):
        back = ours.newDistArray(fft, False)
        f.read(back, "u", step=index)
        assert numpy.array_equal(back, factor * data[back.local_slice()])

    def check():
        import netCDF4
        with netCDF4.Dataset(path, "r") as raw:
            assert numpy.array_equal(raw["u"][:], [data, 2 * data])
            assert numpy.array_equal(raw["u_1_slice_slice"][:], [data[1], 2 * data[1]])
            assert numpy.array_equal(raw["u_0_2_slice"][0], data[0, 2])

    _on_rank0(comm, check)
    fft.destroy()
