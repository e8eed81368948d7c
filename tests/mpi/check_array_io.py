"""check_array_io.py DIR -- numpy.load the files test_array_io wrote.

Each file must load with NumPy alone and hold the global C-ordered array:
dtype and shape as written (a leading batch axis when batch > 1) and the
values field * 100000 + global index (+ 1j * (-index - 1/2) when complex).
"""
import os
import sys

import numpy

CASES = [("cube", (5, 7, 6), 1), ("batched", (9, 4), 3), ("line", (11,), 1)]
DTYPES = ["<c16", "<c8", "<f8", "<f4"]


def expected(shape, batch, dtype):
    index = numpy.arange(int(numpy.prod(shape))).reshape(shape)
    fields = [field * 100000 + index - 1j * (index + 0.5) for field in range(batch)]
    values = numpy.stack(fields) if batch > 1 else fields[0]
    if numpy.dtype(dtype).kind == "f":
        values = values.real
    return values.astype(dtype)


def main(directory):
    failures = 0
    for dtype in DTYPES:
        for name, shape, batch in CASES:
            path = os.path.join(directory, "%s_%s.npy" % (name, dtype[1:]))
            array = numpy.load(path)
            want = expected(shape, batch, dtype)
            ok = (array.dtype == numpy.dtype(dtype) and array.shape == want.shape
                  and numpy.array_equal(array, want))
            if not ok:
                print("FAIL %s: dtype %s shape %s" % (path, array.dtype, array.shape))
                failures += 1
    print("check_array_io: %d files, %d failed" % (len(DTYPES) * len(CASES), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
