"""Breadth-first search on a grid in the row format: distances from a cell,
and a shortest path read back from them.

The grid is read as it is: an ``EAST`` flag in the last column and a
``SOUTH`` flag in the last row lead out of the grid and are not followed
(the last row of a window of an infinite maze has them), so any grid works,
perfect or with loops, rooms or parts that do not connect.
"""

from __future__ import annotations

import numpy as np

from ._numba import Int64, _njit

EAST, SOUTH = 1, 2


@_njit(inline="always")
def _search(
    flat: np.ndarray, base: Int64, h: Int64, w: Int64, source: Int64, target: Int64, dist: np.ndarray,
    queue: np.ndarray,
) -> Int64:  # fmt: skip
    """:func:`bfs` on the ``h`` rows of ``w`` cells of ``flat`` from ``flat[base]`` on."""
    dist[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        cur = np.int64(queue[head])
        head += 1
        if cur == target:
            break
        d = dist[cur] + 1
        y, x = cur // w, cur % w
        v = flat[base + cur]
        if (v & EAST) and x + 1 < w and dist[cur + 1] < 0:
            dist[cur + 1] = d
            queue[tail] = cur + 1
            tail += 1
        if (v & SOUTH) and y + 1 < h and dist[cur + w] < 0:
            dist[cur + w] = d
            queue[tail] = cur + w
            tail += 1
        if x > 0 and (flat[base + cur - 1] & EAST) and dist[cur - 1] < 0:
            dist[cur - 1] = d
            queue[tail] = cur - 1
            tail += 1
        if y > 0 and (flat[base + cur - w] & SOUTH) and dist[cur - w] < 0:
            dist[cur - w] = d
            queue[tail] = cur - w
            tail += 1
    return tail


@_njit
def bfs(grid: np.ndarray, source: Int64, target: Int64, dist: np.ndarray, queue: np.ndarray) -> Int64:
    """Distances (steps) from the flat cell ``source`` into the flat int64
    array ``dist``, which must hold -1 everywhere; stops once ``target`` (a
    flat cell, or -1 for none) has its distance.  ``queue``: int32 scratch
    of one slot per cell.  Returns the number of cells given a distance."""
    h, w = grid.shape
    return _search(grid.reshape(-1), 0, h, w, source, target, dist, queue)


@_njit
def reached_by_row(
    grid: np.ndarray, y: Int64, x: Int64, within: Int64, first_kept: bool, last_kept: bool, out: np.ndarray,
    dist: np.ndarray, queue: np.ndarray,
) -> None:  # fmt: skip
    """For each row ``j`` of ``grid`` within ``within`` rows of ``(y, x)``:
    into ``out[j]`` (bool, shaped like ``grid``, False elsewhere), the
    cells of row ``j`` that a search from ``(y, x)`` reaches inside rows
    ``j - within .. j + within`` of ``grid``.  Where those rows pass the
    grid's first row and ``first_kept`` is False (or its last row and
    ``last_kept`` is False), row ``j`` is left out; else the rows are cut
    at the grid's ends.  ``dist`` and ``queue``: int64 and int32 scratch of
    ``(2 * within + 1) * width`` slots at least (or the grid's size)."""
    n, w = grid.shape
    flat = grid.reshape(-1)
    for j in range(max(y - within, 0), min(y + within + 1, n)):
        lo, hi = j - within, j + within + 1
        if (lo < 0 and not first_kept) or (hi > n and not last_kept):
            continue  # some row of the span exists but is not in the grid
        lo, hi = max(lo, 0), min(hi, n)
        for c in range((hi - lo) * w):
            dist[c] = -1
        _search(flat, lo * w, hi - lo, w, (y - lo) * w + x, -1, dist, queue)
        at = (j - lo) * w
        for c in range(w):
            out[j, c] = dist[at + c] >= 0


@_njit
def path_back(grid: np.ndarray, dist: np.ndarray, target: Int64, out: np.ndarray) -> None:
    """The cells of a shortest path from the source of :func:`bfs` to the
    flat cell ``target`` (its ``dist`` >= 0), as ``(y, x)`` rows of the int64
    ``out`` of ``dist[target] + 1`` rows, source first: from ``target``,
    each step goes to an open neighbour one step nearer (east, south, west,
    north: the first that is)."""
    h, w = grid.shape
    flat = grid.reshape(-1)
    cur = np.int64(target)
    k = dist[cur]
    while True:
        y, x = cur // w, cur % w
        out[k, 0] = y
        out[k, 1] = x
        if k == 0:
            return
        k -= 1
        if (flat[cur] & EAST) and x + 1 < w and dist[cur + 1] == k:
            cur = cur + 1
        elif (flat[cur] & SOUTH) and y + 1 < h and dist[cur + w] == k:
            cur = cur + w
        elif x > 0 and (flat[cur - 1] & EAST) and dist[cur - 1] == k:
            cur = cur - 1
        else:
            cur = cur - w
