"""Flat grids, the form every bounded-grid kernel works on.

A grid is passed flat (``grid.reshape(-1)``, row-major, ``i = y * width +
x``).  The Python layer allocates every scratch array (so that memory is
visible to tracemalloc and bounded by what it asks for) and validates all
inputs.  Directions are numbered as in ``_format`` (0 north, 1 south,
2 west, 3 east).

Per-cell state that a walk needs is kept in the spare bits of a byte per
cell, above the two passage flags:

    bit 0  EAST      bit 1  SOUTH     bit 2  VISITED
    bits 3-4  the direction back to the parent cell (PARENT_SHIFT)

Cell indices are 64-bit: a grid may have 2**31 cells or more, and the row
of a cell is worked out exactly for any of them (:func:`_divider`).
"""

from __future__ import annotations

import numpy as np

from ._numba import _U, _U64, Int64, _mul_high, _njit

VISITED = 4
PARENT_SHIFT = 3


Divider = tuple[np.uint64, np.uint64, bool]  # (m, s, wide): see _divider


@_njit(inline="always")
def _step(i: Int64, d: Int64, width: Int64) -> np.int64:
    """The neighbour of cell i towards d (no bounds check)."""
    # d: 0 north, 1 south, 2 west, 3 east (as int64: plain Python would keep uint8)
    d = np.int64(d)
    vertical = np.int64(d < 2)
    sign = (d & 1) * 2 - 1
    return i + sign * (vertical * width + (1 - vertical))


@_njit(inline="always")
def _open_wall(grid: np.ndarray, i: Int64, n: Int64, d: Int64) -> None:
    """Open the wall between cell i and its neighbour n (towards d), without a branch."""
    own = d & 1  # south and east walls belong to cell i, north and west to n
    target = n + (i - n) * own
    grid[_U(target)] |= np.uint8(2 - (d >> 1))  # SOUTH for north/south, EAST for west/east


@_njit(inline="always")
def _carve(grid: np.ndarray, i: Int64, d: Int64, width: Int64) -> Int64:
    """Open the wall of cell i towards d, without a branch; return the neighbour."""
    n = _step(i, d, width)
    _open_wall(grid, i, n, d)
    return n


@_njit(inline="always")
def _divider(width: Int64, cells: Int64) -> Divider:
    """(m, s, wide): i // width by a multiplication for every 0 <= i < cells,
    for any grid that fits in memory or on disk (see :func:`_row_of`).

    With b the least such that 2**b >= width and k = 31 (a grid of at most
    2**31 cells) or 63, m = ceil(2**(k + b) / width): rounding m up adds less
    than i * width / 2**(k + b) < 1 / width to i / width, so it never
    carries into the quotient, and i // width == (i * m) >> (k + b).  For
    k = 31 the product fits in 64 bits (s = 31 + b); for k = 63 it takes the
    high half of a 128-bit product (s = b, :func:`_mul_high`), worked out
    in 64 bits: 2**(63 + b) = 2**b * (q * width + r), q, r = divmod(2**63, width).
    """
    w = _U64(width)
    bits = _U64(0)
    while (_U64(1) << bits) < w:
        bits += _U64(1)
    if cells <= (1 << 31):
        shift = _U64(31) + bits
        return ((_U64(1) << shift) + w - _U64(1)) // w, shift, False
    top = _U64(1) << _U64(63)
    q = top // w
    r = top - q * w
    spill = r << bits  # < width * 2**31 < 2**62
    return (q << bits) + spill // w + _U64(spill % w != 0), bits, True


@_njit(inline="always")
def _row_of(i: Int64, divider: Divider) -> np.int64:
    """i // width by a multiplication (see :func:`_divider`; the branch on
    ``wide`` goes the same way in a whole walk)."""
    m, s, wide = divider
    if wide:  # (2 * i * m) >> (64 + b)
        row = _mul_high(_U64(i) << _U64(1), m) >> s
    else:
        row = (_U64(i) * m) >> s
    return np.int64(row)
