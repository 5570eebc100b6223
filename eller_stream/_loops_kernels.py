"""The loops of a grid, for :func:`~eller_stream.metrics`: how many of its
passages close a cycle (``passages - cells + components``), by union-find
over its cells (passages that leave the grid are not counted)."""

from __future__ import annotations

import numpy as np

from ._format import EAST, SOUTH
from ._numba import _njit


@_njit(inline="always")
def _root(parent: np.ndarray, i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]  # path halving
        i = parent[i]
    return i


@_njit(refcounts=False)
def count_loops(grid: np.ndarray, parent: np.ndarray) -> int:
    """The passages of ``grid`` that join two cells already connected by
    the passages before them (row-major, EAST then SOUTH): the number of
    independent loops.  ``parent`` (``grid.size`` int32) is scratch."""
    h, w = grid.shape
    for i in range(h * w):
        parent[i] = i
    loops = 0
    for y in range(h):
        for x in range(w):
            v = grid[y, x]
            i = y * w + x
            for j in (i + 1 if (v & EAST) and x + 1 < w else -1, i + w if (v & SOUTH) and y + 1 < h else -1):
                if j < 0:
                    continue
                a = _root(parent, i)
                b = _root(parent, j)
                if a == b:
                    loops += 1
                else:
                    parent[max(a, b)] = min(a, b)
    return loops
