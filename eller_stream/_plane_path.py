"""The path between two cells of a plane (:meth:`eller_stream.Plane.path`).

With ``perfect``, the plane is a tree, and the one path from ``a`` to ``b``
lies in the smallest block of level >= 1 that holds both. When that is a
block of level ``L >= 2``, the path crosses from ``a``'s block of level
``L - 1`` to ``b``'s through the tree of those blocks (each leaves for its
parent, the neighbour nearer the middle, by its one door): up from ``a``'s
to their common ancestor, then down to ``b``'s. Inside each block it
crosses, it runs between the cells where it enters and leaves, which share
that smaller block: the same again, one level down. So the path is cut into
**legs**, each inside one block of level 1, found by a breadth-first
search of that block alone; each block of level 1 is made once (a tree
path meets a block's cells in one stretch).

Without ``perfect``, a breadth-first search of the smallest block of level
>= 1 holding both: a shortest path inside it.

>>> import eller_stream as es
>>> plane = es.Plane(chunk=2, seed=1)
>>> p = plane.path((0, 0), (40, -50))  # across blocks of level 2
>>> bool((abs(p[1:] - p[:-1]).sum(axis=1) == 1).all())
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _bfs_kernels as bk
from . import _plane_blocks as pb
from ._format import EAST, SOUTH
from ._numba import call
from ._plane_kernels import K

if TYPE_CHECKING:
    from .plane import Plane

__all__ = ["PATH_CELLS", "plane_path"]

PATH_CELLS = 1 << 26  # the cells a path may make and search (the level-1 blocks of its legs)

Cell = tuple[int, int]


def plane_path(plane: Plane, key: np.uint64, a: Cell, b: Cell) -> np.ndarray:
    """:meth:`eller_stream.Plane.path` of checked cells."""
    c = plane.chunk
    level = pb.common_level(c, a, b)
    if not plane.params.perfect:
        return _search(plane, a, b, level)
    legs: list[tuple[Cell, Cell]] = []
    budget = PATH_CELLS // (K * c) ** 2  # the legs (a level-1 block each) it may search
    if budget == 0:
        raise ValueError(
            f"a, b: a path searches blocks of level 1 ({K * c} cells wide), more than {PATH_CELLS} cells"
        )
    _legs(int(key), c, a, b, level, legs, budget)
    return np.concatenate([_search(plane, u, v, 1) for u, v in legs])


def _legs(key: int, c: int, a: Cell, b: Cell, level: int, legs: list[tuple[Cell, Cell]], budget: int) -> None:
    """Append the legs of the path from ``a`` to ``b`` (whose smallest common
    block is of ``level``), in order."""
    if level == 1:
        if len(legs) == budget:
            raise ValueError(
                f"a, b: the path passes through more than {budget} blocks of level 1 "
                f"({K * c} cells wide; at most {PATH_CELLS} cells in all)"
            )
        legs.append((a, b))
        return
    sub = level - 1
    ups = _ancestors(key, c, sub, _index(c, sub, a))
    downs = _ancestors(key, c, sub, _index(c, sub, b))
    common = next(x for x in ups if x in downs)
    here = a
    for child in ups[: ups.index(common)]:  # up: leave each block by its own door
        inside, outside = _door_cells(key, c, sub, child)
        _legs(key, c, here, inside, pb.common_level(c, here, inside), legs, budget)
        here = outside
    for child in reversed(downs[: downs.index(common)]):  # down: enter each by its door
        inside, outside = _door_cells(key, c, sub, child)
        _legs(key, c, here, outside, pb.common_level(c, here, outside), legs, budget)
        here = inside
    _legs(key, c, here, b, pb.common_level(c, here, b), legs, budget)


def _index(c: int, level: int, cell: Cell) -> Cell:
    return pb.index_at(cell[0] // c, level), pb.index_at(cell[1] // c, level)


def _door_cells(key: int, c: int, level: int, block: Cell) -> tuple[Cell, Cell]:
    """The door of ``block`` of ``level``: its cell inside the block, and the
    cell of the parent it leads to."""
    found = pb.door(key, c, level, *block)
    assert found is not None  # only blocks other than the middle one are asked
    y, x, flag = found
    other = (y, x + 1) if flag == EAST else (y + 1, x)
    return ((y, x), other) if _index(c, level, (y, x)) == block else (other, (y, x))


def _ancestors(key: int, c: int, level: int, block: Cell) -> list[Cell]:
    """``block`` of ``level`` and its parents up to the middle block of the
    block above them all (each parent the block its door leads to)."""
    chain = [block]
    while pb.place(block[0]) != 0 or pb.place(block[1]) != 0:
        block = _index(c, level, _door_cells(key, c, level, block)[1])
        chain.append(block)
    return chain


def _search(plane: Plane, a: Cell, b: Cell, level: int) -> np.ndarray:
    """A shortest path from ``a`` to ``b`` inside their block of ``level``."""
    top, left, size = pb.block(plane.chunk, level, *a)
    if min(top, left) < -pb.LIMIT or max(top, left) + size > pb.LIMIT:
        # The plane goes on past its rows and columns; its regions stop there.
        raise ValueError(
            f"a, b: the path from {a} to {b} passes through the block of level {level} at "
            f"({top}, {left}), {size} cells wide, which reaches past [-2**62, 2**62): near the plane's "
            "edge its cells are joined through cells past it, which no region makes"
        )
    if size * size > PATH_CELLS:
        raise ValueError(
            f"a, b: cells {a} and {b} share no block smaller than one of level {level} ({size} cells wide): "
            f"the path would search {size * size} cells, more than {PATH_CELLS}"
        )
    grid = plane.region(top, top + size, left, left + size)
    grid[:, -1] &= SOUTH  # the passages out of the block are not followed
    grid[-1] &= EAST
    source = (a[0] - top) * size + a[1] - left
    target = (b[0] - top) * size + b[1] - left
    dist = np.full(grid.size, -1, np.int64)
    call(bk.bfs, grid, source, target, dist, np.empty(grid.size, np.int32))
    if dist[target] < 0:  # cannot happen: every block of level >= 1 is connected
        raise RuntimeError(f"no path from {a} to {b} inside their block of level {level}")
    out = np.empty((int(dist[target]) + 1, 2), np.int64)
    call(bk.path_back, grid, dist, target, out)
    out[:, 0] += top
    out[:, 1] += left
    return out
