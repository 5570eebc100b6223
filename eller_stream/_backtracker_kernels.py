"""The recursive backtracker's kernel, on a flat grid (see ``_cells``).

The stack is the chain of parent directions stored in the grid bytes
themselves (bits 3-4, above the VISITED bit), so the whole walk takes one
byte per cell: the maze it builds.
"""

from __future__ import annotations

import numpy as np

from ._cells import PARENT_SHIFT, VISITED, Divider, _carve, _divider, _row_of, _step
from ._numba import _U, _U64, Int64, _njit
from ._rng import _below, _below_cells, random_bits


@_njit(inline="always")
def _free_sides(
    grid: np.ndarray, i: Int64, width: Int64, height: Int64, divider: Divider
) -> tuple[np.int64, np.int64, np.int64, np.int64]:
    """1 for each side of cell i (north, south, west, east) with an unvisited
    neighbour.  No branches: a neighbour outside the grid reads cell i
    itself, which is visited."""
    y = _row_of(i, divider)
    x = i - y * width
    up = np.int64(y > 0)
    down = np.int64(y < height - 1)
    left = np.int64(x > 0)
    right = np.int64(x < width - 1)
    up &= np.int64((grid[_U(i - width * up)] & VISITED) == 0)
    down &= np.int64((grid[_U(i + width * down)] & VISITED) == 0)
    left &= np.int64((grid[_U(i - left)] & VISITED) == 0)
    right &= np.int64((grid[_U(i + right)] & VISITED) == 0)
    return up, down, left, right


@_njit(inline="always")
def _as_dirs(up: Int64, down: Int64, left: Int64, right: Int64, dirs: np.ndarray) -> Int64:
    """Write the sides flagged 1 (north, south, west, east) into dirs, in
    that order, and return how many there are: branch-free."""
    k: Int64 = 0
    dirs[_U(k)] = 0
    k += up
    dirs[_U(k)] = 1
    k += down
    dirs[_U(k)] = 2
    k += left
    dirs[_U(k)] = 3
    k += right
    return k


@_njit(inline="always")
def _unvisited(
    grid: np.ndarray, i: Int64, width: Int64, height: Int64, divider: Divider, dirs: np.ndarray
) -> Int64:
    """Write the directions from cell i to unvisited neighbours into dirs
    and return how many there are."""
    up, down, left, right = _free_sides(grid, i, width, height, divider)
    return _as_dirs(up, down, left, right, dirs)


@_njit
def clear_state(grid: np.ndarray) -> None:
    for i in range(grid.shape[0]):
        grid[i] &= 3


@_njit
def backtracker(grid: np.ndarray, width: Int64, height: Int64, key: np.uint64) -> None:
    """Recursive backtracker, iteratively: the stack is the chain of parent
    directions stored in the grid bytes themselves."""
    key = _U64(key)
    counter = _U64(0)
    divider = _divider(width, width * height)
    dirs = np.empty(5, np.int64)
    start = _below_cells(random_bits(key, counter), width * height)
    counter += _U64(1)
    grid[_U(start)] |= VISITED
    cur: Int64 = start
    while True:
        k = _unvisited(grid, cur, width, height, divider, dirs)
        if k > 0:
            d = dirs[_below(random_bits(key, counter), k)]
            counter += _U64(1)
            n = _carve(grid, cur, d, width)
            grid[_U(n)] |= VISITED | ((d ^ 1) << PARENT_SHIFT)
            cur = n
        elif cur == start:
            break
        else:
            cur = _step(cur, (grid[_U(cur)] >> PARENT_SHIFT) & 3, width)
    clear_state(grid)
