"""The analysis walks on flat grids (see ``_cells``): the solver's
depth-first walks, and the breadth-first sweeps behind the suggested
endpoints and the metrics.

The analysis works on passage masks (one byte per cell, a bit ``1 << d``
for each direction d with a passage, :func:`passage_masks`): in a tree the
only neighbour already seen is the one a walk came from, so the tree walk
and the tree sweep need no visited marks; they notice a loop, and the
caller starts again with marks (:func:`walk`, :func:`bfs_farthest`).

What costs time here is waiting for memory (the cells of a big maze are
read out of order) and mispredicted branches: where the cells to come are
known in advance (a queue) the sweeps ask for their bytes early with
``prefetch``, and branch-free selects (``_sel``) replace branches the
processor cannot predict.
"""

from __future__ import annotations

import numpy as np

from ._cells import PARENT_SHIFT, VISITED, _divider, _row_of, _step
from ._numba import _U, Int64, _njit, _sel, prefetch

LOOKAHEAD = 16  # how many queue places ahead the breadth-first sweeps prefetch


@_njit(inline="always")
def _farther(on_row: Int64, depth: Int64, x: Int64, best: Int64, best_x: Int64) -> tuple[Int64, Int64]:
    """The (depth, x) to keep: the deeper cell of the row, the leftmost of ties."""
    better = on_row & (np.int64(depth > best) | (np.int64(depth == best) & np.int64(x < best_x)))
    return _sel(better, depth, best), _sel(better, x, best_x)


@_njit
def walk(
    cells: np.ndarray, width: Int64, height: Int64, source: Int64, target: Int64, row: Int64
) -> np.ndarray:
    """Depth-first walk through the passages of a maze from ``source``.

    ``cells`` is a flat copy of the grid's passage flags (bits 0-1) with one
    scratch byte after the last cell; the walk writes the visited bit and
    the direction back to the parent into bits 2-4.  Stops at ``target``
    (or explores the whole component when target is -1).  Returns [target
    reached (0/1), x of the deepest cell on ``row`` (the leftmost of ties; -1 if none), its depth,
    cells visited].  In a perfect maze the depth of a cell is its distance
    from the source, and the parent directions lead back to it.

    Each step is branch-free but for the loop's exits: a neighbour outside
    the grid is read as the current cell, which is visited.
    """
    result = np.full(4, -1, np.int64)
    scratch = width * height
    cells[source] |= VISITED
    cur = source
    y = source // width
    x = source - y * width
    depth: Int64 = 0
    best: Int64 = -1
    best_x: Int64 = -1
    visited: Int64 = 1
    reached = 0
    while True:
        best, best_x = _farther(np.int64(y == row), depth, x, best, best_x)
        if cur == target:
            reached = 1
            break
        has_up = np.int64(y > 0)
        has_down = np.int64(y < height - 1)
        has_left = np.int64(x > 0)
        has_right = np.int64(x < width - 1)
        here = np.int64(cells[_U(cur)])
        above = np.int64(cells[_U(cur - width * has_up)])
        below = np.int64(cells[_U(cur + width * has_down)])
        before = np.int64(cells[_U(cur - has_left)])
        after = np.int64(cells[_U(cur + has_right)])
        # open and not visited: (flag bit set) and (visited bit clear)
        up = has_up & (above >> 1) & ~(above >> 2)
        down = has_down & (here >> 1) & ~(below >> 2)
        left = has_left & before & ~(before >> 2)
        right = has_right & here & ~(after >> 2)
        mask = (up & 1) | ((down & 1) << 1) | ((left & 1) << 2) | ((right & 1) << 3)
        forward = np.int64(mask != 0)
        if not forward and cur == source:
            break
        lowest = mask & -mask  # 1, 2, 4 or 8
        d = _sel(forward, (lowest >> 1) - (lowest >> 3), (here >> PARENT_SHIFT) & 3)
        vertical = np.int64(d < 2)
        sign = (d & 1) * 2 - 1
        nxt = cur + sign * (vertical * width + (1 - vertical))
        # a plain store (no read-modify-write chain through the scratch byte);
        # the cell ahead has only its passage flags so far
        ahead = _sel(
            np.int64(d == 0), above, _sel(np.int64(d == 1), below, _sel(np.int64(d == 2), before, after))
        )
        cells[_U(_sel(forward, nxt, scratch))] = ahead | VISITED | ((d ^ 1) << PARENT_SHIFT)
        cur = nxt
        y += sign * vertical
        x += sign * (1 - vertical)
        depth += 2 * forward - 1
        visited += forward
    result[0] = reached
    result[1] = best_x
    result[2] = best
    result[3] = visited
    return result


@_njit
def bfs_farthest(
    cells: np.ndarray, queue: np.ndarray, width: Int64, height: Int64, source: Int64, row: Int64
) -> np.ndarray:
    """Breadth-first distances from ``source`` through the passages.

    ``cells``: flat passage flags plus one scratch byte (bit 2 is set on the
    cells reached); ``queue``: one int32 per cell.  Returns [x of the
    farthest cell on ``row`` (the leftmost of ties, -1 if none), its
    distance, cells reached].  Unlike a depth-first walk, the next cell to
    expand comes from the queue, not from the step before, so successive
    steps overlap in the processor: this is the fast way to measure a whole
    maze.
    """
    result = np.full(3, -1, np.int64)
    divider = _divider(width, width * height)
    scratch = width * height
    cells[source] |= VISITED
    queue[0] = source
    head = 0
    tail: Int64 = 1
    level_end: Int64 = 1
    depth = 0
    best: Int64 = -1
    best_x: Int64 = -1
    while head < tail:
        if head == level_end:
            depth += 1
            level_end = tail
        cur = np.int64(queue[head])
        head += 1
        y = _row_of(cur, divider)
        x = cur - y * width
        best, best_x = _farther(np.int64(y == row), depth, x, best, best_x)
        here = np.int64(cells[cur])
        has_up = np.int64(y > 0)
        has_left = np.int64(x > 0)
        up_i = cur - width * has_up
        left_i = cur - has_left
        down_i = cur + width * np.int64(y < height - 1)
        right_i = cur + np.int64(x < width - 1)
        above = np.int64(cells[_U(up_i)])
        before = np.int64(cells[_U(left_i)])
        below = np.int64(cells[_U(down_i)])
        after = np.int64(cells[_U(right_i)])
        # A passage leads to each of these; enqueue the ones not reached yet.
        # Plain stores of bytes read above (no read-modify-write): the ones
        # not taken all land in the scratch byte without waiting on each other.
        ok = has_up & (above >> 1) & ~(above >> 2) & 1
        queue[_U(tail)] = up_i
        cells[_U(_sel(ok, up_i, scratch))] = above | VISITED
        tail += ok
        ok = (here >> 1) & ~(below >> 2) & 1
        queue[_U(tail)] = down_i
        cells[_U(_sel(ok, down_i, scratch))] = below | VISITED
        tail += ok
        ok = has_left & before & ~(before >> 2) & 1
        queue[_U(tail)] = left_i
        cells[_U(_sel(ok, left_i, scratch))] = before | VISITED
        tail += ok
        ok = here & ~(after >> 2) & 1
        queue[_U(tail)] = right_i
        cells[_U(_sel(ok, right_i, scratch))] = after | VISITED
        tail += ok
    result[0] = best_x
    result[1] = best
    result[2] = tail
    return result


@_njit
def tree_distances(
    mask: np.ndarray,
    queue: np.ndarray,
    width: Int64,
    source: Int64,
    back: Int64,
    row: Int64,
    row_depth: np.ndarray,
    stop_early: bool,
) -> np.ndarray:
    """Breadth-first distances from ``source`` to the cells of ``row``, in
    a maze that is a tree.

    ``mask``: the flat passage masks of :func:`passage_masks`.  In a tree
    the only neighbour already reached is the parent, so nothing is marked:
    each queue entry is ``cell * 4 + direction back to its parent`` (the
    source's ``back`` is a direction without a passage), and a cell's other
    passages lead to its children.  The only memory read out of order is
    one mask byte per cell, fetched ahead.  ``queue``: one uint32 per cell
    plus 4 (so cells < 2**30).  ``row_depth`` (width + 1 int64, the last a
    scratch slot) receives the distance of each cell of ``row`` reached.
    With ``stop_early`` (for a grid known to be a tree) the sweep ends when
    the whole row is reached.  Returns [cells reached, 1 if the walk stayed
    a tree (else 0: a loop was found, the caller must use
    :func:`bfs_farthest`)].
    """
    result = np.zeros(2, np.int64)
    n_cells = mask.shape[0]
    row_start = row * width
    queue[0] = source * 4 + back
    head = 0
    tail: Int64 = 1
    level_end: Int64 = 1
    depth = 0
    tree = 1
    to_reach = width if stop_early else n_cells + 1
    while head < tail and to_reach > 0:
        if head == level_end:
            depth += 1
            level_end = tail
        if tail > n_cells:  # more cells than the grid has: there is a loop
            tree = 0
            break
        entry = np.int64(queue[_U(head)])
        prefetch(mask, np.int64(queue[_U(min(head + LOOKAHEAD, tail - 1))]) >> 2)
        head += 1
        cur = entry >> 2
        m = np.int64(mask[_U(cur)]) & ~(np.int64(1) << (entry & 3))
        x = cur - row_start
        on_row = np.int64(_U(x) < _U(width))
        row_depth[_U(_sel(on_row, x, width))] = depth
        to_reach -= on_row
        # every child is written; the tail moves past the ones there are
        base = cur * 4
        queue[_U(tail)] = base - 4 * width + 1
        tail += m & 1
        queue[_U(tail)] = base + 4 * width
        tail += (m >> 1) & 1
        queue[_U(tail)] = base - 1
        tail += (m >> 2) & 1
        queue[_U(tail)] = base + 6
        tail += (m >> 3) & 1
    result[0] = head
    result[1] = tree
    return result


@_njit
def tree_walk(mask: np.ndarray, width: Int64, source: Int64, target: Int64) -> Int64:
    """Depth-first walk from ``source`` to ``target`` in a maze that is a tree.

    ``mask``: the flat passage masks of :func:`passage_masks` plus one
    scratch byte.  In a tree the only neighbour already seen is the parent,
    so the walk needs no marks to choose its way: entering a cell it writes
    the direction back (plus 1; 5 for the source) into bits 4-6, and back
    in a cell from a child in direction d it goes on with the next passage
    after d, or back up.  The chain of directions back from ``target`` is
    then the path.  Branch-free but for the loop's exits; the steps read
    only the byte of the cell entered.  Returns 1 when ``target`` was
    reached, 0 when it cannot be reached, -1 when the walk entered a cell it
    had seen (a loop: the caller must use :func:`walk`).
    """
    scratch = mask.shape[0] - 1
    byte = np.int64(mask[source]) | (5 << 4)
    mask[source] = byte
    cur = source
    after: Int64 = 0  # the first direction still to try in cur
    while cur != target:
        back = (byte >> 4) - 1  # 4 in the source: no way back
        ahead = byte & 15 & ~(1 << back) & (-1 << after)
        forward = np.int64(ahead != 0)
        if not forward and back == 4:
            return 0
        lowest = ahead & -ahead  # 1, 2, 4 or 8
        d = _sel(forward, (lowest >> 1) - (lowest >> 3), back)
        nxt = _step(cur, d, width)
        seen = np.int64(mask[_U(nxt)])
        if forward and seen >> 4:
            return -1
        byte = seen | ((forward * ((d ^ 1) + 1)) << 4)
        mask[_U(_sel(forward, nxt, scratch))] = byte
        after = (1 - forward) * ((d ^ 1) + 1)  # back in the parent: the passages after the one just done
        cur = nxt
    return 1


@_njit(inline="always")
def _way_back(byte: Int64, shift: Int64, bias: Int64) -> np.int64:
    return ((np.int64(byte) >> shift) - bias) & 3


@_njit
def path_from_parents(
    mark: np.ndarray, width: Int64, source: Int64, target: Int64, shift: Int64, bias: Int64, out: np.ndarray
) -> None:
    """Fill ``out`` (k, 2) with the (y, x) cells from source to target,
    following the directions back that a walk left in ``mark`` (at bit
    ``shift``, plus ``bias``)."""
    k = out.shape[0]
    cur = target
    for i in range(k - 1, -1, -1):
        out[i, 0] = cur // width
        out[i, 1] = cur % width
        if cur == source:
            break
        cur = _step(cur, _way_back(mark[cur], shift, bias), width)


@_njit
def path_length(
    mark: np.ndarray, width: Int64, source: Int64, target: Int64, shift: Int64, bias: Int64
) -> Int64:
    cur = target
    k = 1
    while cur != source:
        cur = _step(cur, _way_back(mark[cur], shift, bias), width)
        k += 1
    return k


@_njit
def passage_masks(grid: np.ndarray, out: np.ndarray, counts: np.ndarray) -> None:
    """For each cell of the 2-d ``grid``, the passages that leave it as a
    4-bit mask (1 north, 2 south, 4 west, 8 east: bit ``1 << d`` for the
    direction d), into the flat ``out``; flags that would leave the grid and
    unknown bits are ignored.  ``counts[m]`` (16 zeroed int64) receives the
    number of cells with mask m: every per-cell count of a maze's texture
    is a sum over these 16."""
    height, width = grid.shape
    for y in range(height):
        above = _U(y - 1) if y > 0 else _U(0)
        has_up = np.uint8(y > 0)
        has_down = np.uint8(y < height - 1)
        for x in range(width):
            v = grid[y, x]
            north = (grid[above, x] >> 1) & has_up
            south = (v >> 1) & has_down
            west = grid[y, _U(x - 1)] & 1 if x > 0 else np.uint8(0)
            east = v & np.uint8(x < width - 1)
            m = (north & 1) | ((south & 1) << 1) | (west << 2) | ((east & 1) << 3)
            out[_U(y * width + x)] = m
            counts[m] += 1
