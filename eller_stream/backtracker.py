"""The recursive backtracker, iteratively, in one byte per cell.

A depth-first walk that carves to a random unvisited neighbour and backs up
when there is none.  It never recurses: the stack is the chain of "way back"
directions that it writes into spare bits of the maze's own bytes, so the
whole build needs the ``(height, width)`` output and nothing more.  Give it
``out=`` (a ``numpy.memmap``, or a path for a new ``.npy`` file) to build a
maze larger than memory on disk.

>>> import eller_stream as es
>>> grid = es.backtracker(5, 4, seed=2)
>>> grid.shape, es.count_passages(grid)
((4, 5), 19)
"""

from __future__ import annotations

import os

import numpy as np

from . import _grid_kernels as g
from ._kernels import kernel_errstate, seed_key
from ._validate import check_grid_buffer, check_int, check_seed

__all__ = ["backtracker"]


def backtracker(
    width: int,
    height: int,
    seed: int | None = None,
    out: np.ndarray | str | os.PathLike[str] | None = None,
) -> np.ndarray:
    """A perfect ``(height, width)`` maze by the recursive backtracker.

    ``out`` may be a ``(height, width)`` uint8 array to fill (for example a
    ``numpy.memmap``), or a path: a new ``.npy`` file is created there and
    returned as a memmap (disk-backed: memory use stays small however big
    the maze).  No other memory is used per cell.

    >>> import numpy as np, eller_stream as es
    >>> buf = np.empty((3, 3), np.uint8)
    >>> es.backtracker(3, 3, seed=1, out=buf) is buf
    True
    """
    width = check_int("width", width, 1, 2**31 - 2)
    height = check_int("height", height, 1, 2**31 - 2)
    seed = check_seed(seed)
    if isinstance(out, (str, os.PathLike)):
        out = np.lib.format.open_memmap(os.fspath(out), mode="w+", dtype=np.uint8, shape=(height, width))
    elif out is not None:
        check_grid_buffer("out", out, (height, width))
    else:
        out = np.empty((height, width), np.uint8)
    out[...] = 0
    with kernel_errstate():
        g.backtracker(out.reshape(-1), width, height, seed_key(seed))
    if isinstance(out, np.memmap):
        out.flush()
    return out
