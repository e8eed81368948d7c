"""check_npy_writer.py -- load the files npy_writer wrote, with NumPy.

Usage: python3 check_npy_writer.py OUTPUT_FILE

OUTPUT_FILE holds npy_writer's JSON line listing path, dtype and shape of
each file. Each must pass the format checks of compare_npy.py and hold
element i = i + 0.5i*i (complex) or i (real). Exit status 0 or 1.
"""
import json
import math
import os
import sys

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_npy import check_file_format, fail  # noqa: E402


def main():
    if len(sys.argv) != 2:
        fail("usage: check_npy_writer.py OUTPUT_FILE")
    with open(sys.argv[1], encoding="utf-8") as stream:
        listing = json.loads(stream.read())
    for entry in listing["files"]:
        path, descr, shape = entry["path"], entry["descr"], entry["shape"]
        check_file_format(path, descr, shape)
        data = numpy.load(path, allow_pickle=False)
        index = numpy.arange(math.prod(shape), dtype=numpy.float64)
        expected = index + 0.5j * index if descr[1] == "c" else index
        expected = expected.astype(descr).reshape(shape)
        if data.dtype != numpy.dtype(descr) or data.shape != tuple(shape):
            fail("%s: loaded %s %s" % (path, data.dtype, data.shape))
        if not numpy.array_equal(data, expected):
            fail("%s: wrong values" % path)
        print("check_npy_writer.py: ok %s %s %s" % (path, descr, tuple(shape)))


if __name__ == "__main__":
    main()
