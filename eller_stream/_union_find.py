"""The union-find of the row kernels: one find, shared by
:func:`eller_stream.detour` (``_detour_kernels``) and the levels' checks
(``_level_kernels``).

A forest is an integer array ``parent`` over the cells of a row, each root
its own parent; the kernels link roots themselves (``parent[b] = a``), as
each needs its own rule for which root stays.
"""

from __future__ import annotations

import numpy as np

from ._numba import Int64, _njit


@_njit(inline="always")
def find(parent: np.ndarray, i: Int64) -> Int64:
    """The root of cell i's tree in ``parent``, halving the path on the way
    (each cell passed is linked to its grandparent), so that later finds
    are short."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i
