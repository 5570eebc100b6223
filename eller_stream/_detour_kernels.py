"""Numba kernel of :func:`eller_stream.detour`: how far above each row its
cells must climb to reach the next row, in O(cells) time whatever the
detours are.

Two cells of row ``r`` are *joined at level t* when a path links them inside
rows ``t .. r``.  For each row the kernel keeps the list of its *merges*: the
pairs of cells (a, b, t) that a union-find over the row joins when the
levels are taken from ``r`` down, each one joining two components (at most
``width - 1``).  Row ``r``'s merges are:

* its own east passages, at level ``r``;
* then the previous row's merges in their order, replayed over a
  union-find of row ``r - 1`` that remembers a cell of each component open
  to row ``r``: when two components that both have one are joined at level
  ``t``, the cells below them are joined at level ``t`` too (a path may go
  up through the one door and come down through the other).

Replaying the merges in order of decreasing level is Kruskal's algorithm on
the levels, so each row is a single sweep.  The detour of row ``r`` is
``r - t`` for the level ``t`` at which the last component of row ``r`` with
no opening to row ``r + 1`` is joined to one that has.
"""

from __future__ import annotations

import numpy as np

from ._format import EAST, SOUTH
from ._numba import _njit
from ._union_find import find


@_njit
def detour_rows(grid: np.ndarray, out: np.ndarray) -> None:
    """``out[r]``: the detour of row ``r`` of ``grid`` (-1 when some cell of
    row ``r`` cannot reach row ``r + 1`` even through every row above)."""
    h, w = grid.shape
    # merges of the previous row (level, a, b) and of the current one
    levels = np.empty(w, np.int64)
    first = np.empty(w, np.int64)
    second = np.empty(w, np.int64)
    new_levels = np.empty(w, np.int64)
    new_first = np.empty(w, np.int64)
    new_second = np.empty(w, np.int64)
    above = np.empty(w, np.int64)  # union-find over the previous row
    door = np.empty(w, np.int64)  # per root of `above`: a cell open to this row, or -1
    here = np.empty(w, np.int64)  # union-find over this row
    exits = np.empty(w, np.uint8)  # per root of `here`: the component opens to the next row
    n_prev = 0
    for r in range(h):
        stuck = 0
        for x in range(w):
            here[x] = x
            exits[x] = 1 if r < h - 1 and grid[r, x] & SOUTH else 0
            stuck += 1 - exits[x]
        top = r if stuck == 0 else -1  # the level at which no component is stuck
        n = 0
        for x in range(w - 1):
            if grid[r, x] & EAST:
                a = find(here, np.int64(x))
                b = find(here, np.int64(x + 1))
                stuck -= 1 - exits[a] + 1 - exits[b] - (1 - (exits[a] | exits[b]))
                here[b] = a
                exits[a] |= exits[b]
                new_levels[n] = r
                new_first[n] = x
                new_second[n] = x + 1
                n += 1
                if stuck == 0 and top < 0:
                    top = r
        if r > 0:
            for x in range(w):
                above[x] = x
                door[x] = x if grid[r - 1, x] & SOUTH else -1
            for i in range(n_prev):
                ra = find(above, first[i])
                rb = find(above, second[i])
                da = door[ra]
                db = door[rb]
                above[rb] = ra
                door[ra] = da if da >= 0 else db
                if da >= 0 and db >= 0:
                    a = find(here, da)
                    b = find(here, db)
                    if a != b:
                        stuck -= 1 - exits[a] + 1 - exits[b] - (1 - (exits[a] | exits[b]))
                        here[b] = a
                        exits[a] |= exits[b]
                        new_levels[n] = levels[i]
                        new_first[n] = da
                        new_second[n] = db
                        n += 1
                        if stuck == 0 and top < 0:
                            top = levels[i]
        if r < h - 1:
            out[r] = r - top if top >= 0 else -1
        levels, new_levels = new_levels, levels
        first, new_first = new_first, first
        second, new_second = new_second, second
        n_prev = n
