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


@_njit(inline="always")
def _lower(
    flat: np.ndarray, top: Int64, w: Int64, lo: Int64, bottom: Int64, high: np.ndarray, queue: np.ndarray,
    queued: np.ndarray, head: Int64, tail: Int64,
) -> None:  # fmt: skip
    """Lower ``high`` (see :func:`reached_by_row`; its cells from row ``top`` of the grid
    ``flat``) from the cells ``queue[head:tail]`` (a ring of ``len(queue)`` slots, a cell in
    it at most once: ``queued``) until nothing lowers: each step through an open wall inside
    rows ``lo .. bottom - 1`` keeps a way's highest row, or raises it to the row it enters."""
    size = queue.shape[0]
    base = top * w
    first = (lo - top) * w  # high's cells of the rows searched: first .. last - 1
    last = (bottom - top) * w
    while head != tail:
        cur = np.int64(queue[head % size])
        head += 1
        queued[cur] = False
        h = high[cur]
        x = cur % w
        v = flat[base + cur]
        for step in range(4):
            if step == 0:
                nxt = cur + 1 if (v & EAST) and x + 1 < w else -1
            elif step == 1:
                nxt = cur + w if (v & SOUTH) and cur + w < last else -1
            elif step == 2:
                nxt = cur - 1 if x > 0 and (flat[base + cur - 1] & EAST) else -1
            else:
                nxt = cur - w if cur - w >= first and (flat[base + cur - w] & SOUTH) else -1
            if nxt < 0:
                continue
            row = top + nxt // w
            got = h if h > row else row
            if got < high[nxt]:
                high[nxt] = got
                if not queued[nxt]:
                    queued[nxt] = True
                    queue[tail % size] = nxt
                    tail += 1


@_njit
def reached_by_row(
    grid: np.ndarray, y: Int64, x: Int64, within: Int64, first_kept: bool, last_kept: bool, out: np.ndarray,
    high: np.ndarray, queue: np.ndarray,
) -> None:  # fmt: skip
    """For each row ``j`` of ``grid`` within ``within`` rows of ``(y, x)``:
    into ``out[j]`` (bool, shaped like ``grid``, False elsewhere), the
    cells of row ``j`` that a search from ``(y, x)`` reaches inside rows
    ``j - within .. j + within`` of ``grid``.  Where those rows pass the
    grid's first row and ``first_kept`` is False (or its last row and
    ``last_kept`` is False), row ``j`` is left out; else the rows are cut
    at the grid's ends.  ``high`` and ``queue``: int64 and int32 scratch of
    ``(4 * within + 1) * width`` slots at least (or the grid's size).

    One search, not one a row: with the rows from ``lo`` down open, ``high[c]``
    is the least highest row (the largest index) of a way from ``(y, x)`` to
    ``c``; a cell of row ``j`` is reached inside its rows when, for ``lo = j -
    within``, that is at most ``j + within``. ``lo`` goes up from ``y``, a row
    at a time, and each row opened only lowers ``high`` (from the cells it
    lowers, until nothing does)."""
    n, w = grid.shape
    flat = grid.reshape(-1)
    top, bottom = max(y - 2 * within, 0), min(y + 2 * within + 1, n)  # the rows any window holds
    j_lo, j_hi = max(y - within, 0), min(y + within + 1, n)
    base = top * w
    cells = (bottom - top) * w
    none = np.int64(9223372036854775807)  # no way: past every row and every row + within
    for c in range(cells):
        high[c] = none
    queued = np.zeros(cells, np.bool_)
    source = (y - top) * w + x
    high[source] = y
    queued[source] = True
    queue[0] = source
    _lower(flat, top, w, y, bottom, high, queue, queued, 0, 1)
    for lo in range(y, top - 1, -1):
        if lo < y:  # row lo opens: each cell of it with an open way down starts where that leads
            tail = 0
            for c in range((lo - top) * w, (lo - top + 1) * w):
                if (flat[base + c] & SOUTH) and high[c + w] < none:
                    high[c] = high[c + w]
                    queued[c] = True
                    queue[tail] = c
                    tail += 1
            _lower(flat, top, w, lo, bottom, high, queue, queued, 0, tail)
        first_j = lo + within
        if lo == 0 and first_kept:
            first_j = j_lo  # the rows whose span passes the first row: cut there
        for j in range(max(first_j, j_lo), min(lo + within + 1, j_hi)):
            if j + within + 1 > n and not last_kept:
                continue  # some row of the span exists but is not in the grid
            at = (j - top) * w
            for c in range(w):
                out[j, c] = high[at + c] <= j + within


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
