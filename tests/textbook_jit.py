"""tests/naive.py's textbook Growing Tree (growing_tree_reference), step
for step, compiled with numba: the statistical tests need thousands of
mazes.  numba's np.random is NumPy's legacy Mersenne Twister, so for the
same seed both draw the same numbers and build the same maze (checked in
tests/test_texture.py).  Nothing here imports eller_stream."""

# numba compiles NumPy's legacy np.random functions, not np.random.Generator
# ruff: noqa: NPY002

from __future__ import annotations

import numba
import numpy as np

from naive import EAST, SOUTH, textbook_cumulative


@numba.njit(cache=True)
def _textbook(grid: np.ndarray, cumulative: np.ndarray, seed: int) -> None:
    height, width = grid.shape
    np.random.seed(seed)
    visited = np.zeros((height, width), np.bool_)
    active = np.empty(height * width, np.int32)  # the list of active cells (y * width + x), oldest first
    y0 = int(np.random.random() * height)
    x0 = int(np.random.random() * width)
    active[0] = y0 * width + x0
    visited[y0, x0] = True
    n = 1
    oy = np.empty(4, np.int64)
    ox = np.empty(4, np.int64)
    while n > 0:
        u = np.random.random()
        strategy = 0
        while not u < cumulative[strategy]:
            strategy += 1
        # naive.PICK, strategy by strategy (naive.NAMES order)
        if strategy == 0:  # newest
            i = n - 1
        elif strategy == 1:  # oldest
            i = 0
        elif strategy == 2:  # random
            i = int(np.random.random() * n)
        elif strategy == 3:  # middle: the last of the first (n + 1) // 2
            i = (n + 1) // 2 - 1
        else:
            raise ValueError("not a Growing Tree strategy")
        y, x = divmod(active[i], width)
        k = 0
        for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
            if 0 <= ny < height and 0 <= nx < width and not visited[ny, nx]:
                oy[k] = ny
                ox[k] = nx
                k += 1
        if k == 0:  # list.pop(i): numba moves overlapping slices as numpy does
            active[i : n - 1] = active[i + 1 : n]
            n -= 1
            continue
        o = int(np.random.random() * k)
        ny, nx = oy[o], ox[o]
        if ny == y:
            grid[y, min(x, nx)] |= EAST
        else:
            grid[min(y, ny), x] |= SOUTH
        visited[ny, nx] = True
        active[n] = ny * width + nx
        n += 1


def growing_tree_textbook(width: int, height: int, weights: dict[str, float], seed: int) -> np.ndarray:
    """The maze growing_tree_reference(width, height, weights, seed) builds."""
    grid = np.zeros((height, width), np.uint8)
    _textbook(grid, np.array(textbook_cumulative(weights)), seed)
    return grid
