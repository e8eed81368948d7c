"""
generate_xdmf.py -- XDMF side files for the 2D and 3D real scalar data of
an HDF5 file written by HDF5File, so ParaView or VisIt can open it.

One XDMF file per kind of data: <file>.xdmf for whole arrays,
<file>_<slice name>.xdmf for each kind of global slice (a 2D slice of a 3D
array is placed in 3D at its plane). Each is a temporal collection with a
grid per step holding every group written at that step. The geometry is
the group's domain (origin and length per axis: a co-rectilinear mesh
with spacing length / (N - 1 + periodic)) or its mesh (coordinate arrays
in the HDF5 file). order='visit' swaps the two axes of 2D data. Local:
run it on one rank after the file is written.
"""
import numpy

from ...hdf5 import _h5py

__all__ = ["generate_xdmf"]

_TOP = """<?xml version="1.0" encoding="utf-8"?>
<Xdmf xmlns:xi="http://www.w3.org/2001/XInclude" Version="2.1">
  <Domain>
    <Grid Name="Structured Grid" GridType="Collection" CollectionType="Temporal">
      <Time TimeType="List"><DataItem Format="XML" Dimensions="{count}"> {steps} </DataItem></Time>
{grids}
    </Grid>
  </Domain>
</Xdmf>
"""


def _item(text, dims, precision=None, fmt="XML"):
    extra = f' Precision="{precision}"' if precision else ""
    return (f'          <DataItem Format="{fmt}" NumberType="Float"{extra} Dimensions="{dims}">\n'
            f"            {text}\n          </DataItem>\n")


def _uniform(origin, spacing):
    kind = "ORIGIN_DXDYDZ" if len(origin) == 3 else "ORIGIN_DXDY"
    n = len(origin)
    return (f'        <Geometry Type="{kind}">\n' +
            _item(" ".join(repr(float(x)) for x in origin), n) +
            _item(" ".join(repr(float(x)) for x in spacing), n) + "        </Geometry>\n")


def _vectors(entries, precision):
    """VXVYVZ from (text, dims, format) per coordinate, X first."""
    body = "".join(_item(text, dims, precision, fmt) for text, dims, fmt in entries)
    return f'        <Geometry Type="VXVYVZ">\n{body}        </Geometry>\n'


def _check(condition, message):
    if not condition:
        raise AssertionError(message)


def generate_xdmf(h5filename, periodic=True, order="paraview"):
    """Write the XDMF files of `h5filename` (see the module text).
    periodic: True, False or one bool per axis."""
    h5py = _h5py()
    _check(order.lower() in ("paraview", "visit"), f"order {order!r}")
    visit = order.lower() == "visit"
    with h5py.File(h5filename, "r") as f:
        names = []
        f.visit(names.append)
        # kind ('whole' or a slice name) -> step -> dataset paths
        found = {}
        for name in names:
            parts = name.split("/")
            group = parts[0]
            if f[group].attrs.get("rank", 0) > 0 or not isinstance(f[name], h5py.Dataset) or \
                    len(parts) < 3 or parts[1] in ("mesh", "domain"):
                continue
            ndim = int(parts[1][:-1])
            if ndim not in (2, 3):
                continue
            kind = parts[2] if len(parts) == 4 else "whole"
            found.setdefault(kind, {}).setdefault(int(parts[-1]), []).append(name)
        for kind, steps in found.items():
            order_steps = sorted(steps)
            first = steps[order_steps[0]][0]
            dtype = f[first].dtype
            _check(dtype.char not in "FDG", "generate_xdmf cannot show complex data")
            geometry, topology, dims = _grid(f, h5filename, first, kind, periodic, visit,
                                             _precision(f[first].dtype))
            grids = []
            for step in order_steps:
                # each dataset's own precision: mpi4py-fft writes the first
                # dataset's (always 8: it compares dtypes with `is`)
                attributes = "".join(
                    f'        <Attribute Name="{path.split("/")[0]}" Center="Node">\n' +
                    _item(f"{h5filename}:/{path}", dims, _precision(f[path].dtype), "HDF") +
                    "        </Attribute>\n" for path in steps[step])
                grids.append(f'      <Grid GridType="Uniform">\n{geometry}{topology}'
                             f'{attributes}      </Grid>')
            out = h5filename[:-3] + (".xdmf" if kind == "whole" else f"_{kind}.xdmf")
            with open(out, "w") as xdmf:
                xdmf.write(_TOP.format(count=len(order_steps),
                                       steps=" ".join(str(s) for s in order_steps),
                                       grids="\n".join(grids)))


def _precision(dtype):
    """XDMF's Precision of real data of this dtype (bytes)."""
    return 4 if dtype == numpy.float32 else 8


def _grid(f, h5filename, path, kind, periodic, visit, precision):
    """(geometry, topology, data dimensions) of the datasets like `path`."""
    group = path.split("/")[0]
    full = list(f[group].attrs["shape"])
    shape = list(f[path].shape)
    if kind == "whole":
        axes, plane = list(range(len(shape))), None
    else:
        entries = kind.split("_")
        axes = [i for i, e in enumerate(entries) if e == "slice"]
        fixed = [(i, int(e)) for i, e in enumerate(entries) if e != "slice"]
        plane = fixed[0] if len(full) == 3 and len(axes) == 2 else None
    if periodic is True or periodic is False:
        open_end = [0 if periodic else 1] * len(full)
    else:
        open_end = [0 if p else 1 for p in periodic] + [1] * len(full)
    dims = " ".join(str(n) for n in ([1] + shape if len(shape) == 2 else shape))
    if "domain" in f[group]:
        origin = [f[f"{group}/domain/x{i}"][0] for i in range(len(full))]
        length = [f[f"{group}/domain/x{i}"][1] for i in range(len(full))]
        spacing = [length[i] / (full[i] - open_end[i]) for i in range(len(full))]
        if plane is not None:
            axis, index = plane
            position = origin[axis] + spacing[axis] * index
            o = [origin[i] if i != axis else position for i in range(3)]
            d = [spacing[i] if i != axis else position for i in range(3)]
            geometry = _uniform(o, d)
            dims = " ".join(str(n) for n in [1 if i == axis else full[i] for i in range(3)])
        elif len(axes) == 2:
            pair = axes[::-1] if visit else axes
            geometry = _uniform([origin[a] for a in pair], [spacing[a] for a in pair])
        else:
            geometry = _uniform([origin[a] for a in axes], [spacing[a] for a in axes])
        topology = f'        <Topology Dimensions="{dims}" Type="3DCoRectMesh"/>\n'
        return geometry, topology, dims
    mesh = [(f"{h5filename}:{group}/mesh/x{a}", f[f"{group}/mesh/x{a}"].shape[0], "HDF")
            for a in range(len(full))]
    if plane is not None:
        axis, index = plane
        coordinate = f[f"{group}/mesh/x{axis}"][index]
        mesh[axis] = (repr(float(coordinate)), 1, "XML")
        entries = mesh[::-1]
        dims = " ".join(str(n) for n in [1 if i == axis else full[i] for i in range(3)])
    elif len(axes) == 2:
        pair = [mesh[a] for a in (axes[::-1] if visit else axes)]
        entries = pair + [("0", 1, "XML")]
    else:
        entries = [mesh[a] for a in axes][::-1]
    geometry = _vectors(entries, _precision(f[f"{group}/mesh/x0"].dtype))
    topology = f'        <Topology Dimensions="{dims}" Type="3DRectMesh"/>\n'
    return geometry, topology, dims
