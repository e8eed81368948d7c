"""
padding.py -- mpi4py-fft's `padding=` (dealiasing) as a padded distfft plan.

mpi4py-fft pads an axis that is a group of its own (`axes` as single axes,
the default): the physical array has M = floor(factor * N) points along it,
backward zero-pads the N retained modes to M, forward truncates back to N;
the normalisation counts M. distfft's padded plans (options.padding) do the
same inside the serial steps, so the padded zeros never travel, and with the
same conventions for complex axes (an even N splits its Nyquist mode in
half when padding and sums the two halves when truncating).

One convention differs, on the real-to-complex (halved) axis: mpi4py-fft
halves the last retained mode when padding, and takes twice its real part
when truncating, when the count of retained modes N0 = N//2 + 1 is even --
not when N is. distfft treats the last mode so exactly when its own N is
even. So the plan is made with a length L on that axis that keeps the same
N0 and has the parity that gives mpi4py-fft's treatment: L = 2 N0 - 2 when
N0 is even, 2 N0 - 1 when odd (N = 64: L = 65, nothing special, as in
mpi4py-fft). The physical length M and the normalisation do not change.
"""
import numpy

_PADS = 1.0 + 1e-6      # mpi4py-fft pads the shape when factor > this
_TRUNCATES = 1.0 + 1e-8  # ... and truncates when |factor' - 1| > this


def _factors(shape, padding):
    if padding is None or padding is False or (numpy.ndim(padding) == 0 and padding == 0):
        return [1.0] * len(shape)
    if numpy.ndim(padding) == 0:
        return [float(padding)] * len(shape)
    factors = [float(f) for f in padding]
    if len(factors) != len(shape):
        raise ValueError(f"distfft.mpi4py_fft: padding {tuple(padding)} needs one factor per "
                         f"axis ({len(shape)}), as mpi4py-fft's")
    return factors


def padding_lengths(shape, groups, padding, from_darray):
    """The physical (padded) global shape mpi4py-fft gives for `padding`,
    with the checks of what it cannot do. Local; raises alike on every rank."""
    factors = _factors(shape, padding)
    padded = list(shape)
    for axis, factor in enumerate(factors):
        if factor != 1.0 and (factor <= _PADS) != (factor <= _TRUNCATES):
            raise ValueError(f"distfft.mpi4py_fft: padding factor {factor} on axis {axis} is "
                             "within 1e-6 of 1: mpi4py-fft would truncate without padding")
    for group in groups:
        if len(group) == 1 and factors[group[0]] > _PADS:
            padded[group[0]] = int(numpy.floor(shape[group[0]] * factors[group[0]]))
        elif len(group) > 1 and factors[group[-1]] > _TRUNCATES:
            raise ValueError(f"distfft.mpi4py_fft: padding on axis {group[-1]} of the group of "
                             f"axes {tuple(group)}: mpi4py-fft pads single axes only (and fails "
                             "on this); give the padded axes as groups of their own")
    if from_darray and padded != list(shape):
        raise NotImplementedError("distfft.mpi4py_fft: padding with darray= is not available "
                                  "(give shape= and dtype=)")
    return padded


def check_padded_groups(shape, padded, groups, kinds):
    """After collapse=True has merged groups: every padded axis still a group
    of its own, and a Fourier axis. Local."""
    for group in groups:
        for axis in group:
            if padded[axis] == shape[axis]:
                continue
            if len(group) > 1:
                raise ValueError(f"distfft.mpi4py_fft: collapse=True puts the padded axis {axis} "
                                 f"in the group {tuple(group)}; mpi4py-fft pads single axes only "
                                 "(and fails on this): use collapse=False with padding")
            if kinds[axis] not in ("c2c", "r2c"):
                raise NotImplementedError(
                    f"distfft.mpi4py_fft: padding on axis {axis} with transforms= ({kinds[axis]}): "
                    "mpi4py-fft truncates such an axis as if it were a Fourier axis; distfft "
                    "does not mimic that (pad Fourier axes only)")


def plan_padding(shape, padded, kinds):
    """distfft's spectral shape and padding factors for the plan that gives
    mpi4py-fft's numbers (the module text)."""
    plan_shape, factors = list(shape), [1.0] * len(shape)
    for axis, (n, m) in enumerate(zip(shape, padded)):
        if m == n:
            continue
        if kinds[axis] == "r2c":
            retained = n // 2 + 1
            n = 2 * retained - 2 if retained % 2 == 0 else 2 * retained - 1
        plan_shape[axis] = n
        factors[axis] = (m + 0.5) / n   # floor(factor * n) == m, away from rounding
    return tuple(plan_shape), tuple(factors)
