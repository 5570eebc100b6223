"""Numba kernel of :func:`eller_stream.detour`: how far above each row its
cells must climb to reach the next row.

For row ``r`` the kernel grows a window upward from row ``r`` one row at a
time, joining cells with a union-find, and counts the window's components
that hold a cell of row ``r`` but no SOUTH opening of row ``r`` (an exit).
The detour is the number of rows above ``r`` in the window when that count
first reaches 0.  A row costs O(width * (detour + 1)): linear, not
quadratic, in its detour.
"""

from __future__ import annotations

import numpy as np

from ._kernels import EAST, SOUTH, _njit

_ROW_R = np.uint8(1)  # the component holds a cell of row r
_EXIT = np.uint8(2)  # ... and a SOUTH opening of row r


@_njit(inline="always")
def _root(parent: np.ndarray, i: np.int64) -> np.int64:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@_njit(inline="always")
def _stuck(flags: np.ndarray, i: np.int64) -> np.int64:
    return np.int64(flags[i] == _ROW_R)


@_njit(inline="always")
def _union(parent: np.ndarray, flags: np.ndarray, a: np.int64, b: np.int64) -> np.int64:
    """Join the components of a and b; the change in the number of stuck ones."""
    ra = _root(parent, a)
    rb = _root(parent, b)
    if ra == rb:
        return np.int64(0)
    before = _stuck(flags, ra) + _stuck(flags, rb)
    parent[rb] = ra
    flags[ra] |= flags[rb]
    return _stuck(flags, ra) - before


@_njit
def detour_rows(grid: np.ndarray, out: np.ndarray) -> None:
    """``out[r]``: the detour of row ``r`` of ``grid`` (-1 when some cell of
    row ``r`` cannot reach row ``r + 1`` even through every row above)."""
    h, w = grid.shape
    rows_held = 64  # the window's capacity in rows; doubled when a detour needs more
    parent = np.empty(rows_held * w, np.int64)
    flags = np.empty(rows_held * w, np.uint8)
    for r in range(h - 1):
        # window row k (0: row r) holds grid row r - k at k * w .. k * w + w
        stuck = np.int64(0)
        for x in range(w):
            parent[x] = x
            flags[x] = _ROW_R | (_EXIT if grid[r, x] & SOUTH else np.uint8(0))
            stuck += _stuck(flags, np.int64(x))
        for x in range(w - 1):
            if grid[r, x] & EAST:
                stuck += _union(parent, flags, np.int64(x), np.int64(x + 1))
        k = 0
        while stuck > 0 and k < r:
            k += 1
            if k == rows_held:
                rows_held *= 2
                grown = np.empty(rows_held * w, np.int64)
                grown[: k * w] = parent[: k * w]
                parent = grown
                grown_flags = np.empty(rows_held * w, np.uint8)
                grown_flags[: k * w] = flags[: k * w]
                flags = grown_flags
            y = r - k
            base = np.int64(k) * w
            for x in range(w):
                parent[base + x] = base + x
                flags[base + x] = 0
            for x in range(w):
                cell = grid[y, x]
                if cell & SOUTH:
                    stuck += _union(parent, flags, base + x, base - w + x)
                if cell & EAST and x < w - 1:
                    stuck += _union(parent, flags, base + x, base + x + 1)
        out[r] = k if stuck == 0 else -1
