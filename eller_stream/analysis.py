"""Reading mazes: validation, the solver, suggested endpoints and metrics.

Everything here works on any grid in the row format (from any generator),
in O(cells) time with numba kernels and no recursion.  Passages out of the
grid (``EAST`` in the last column, ``SOUTH`` in the last row, as rows of an
endless maze and a region of a :class:`~eller_stream.Plane` have) are not
followed or counted: a region is read as the maze inside it.

>>> import eller_stream as es
>>> grid = es.eller(6, 5, seed=3)
>>> es.is_perfect(grid)
True
>>> start, end = es.suggest_endpoints(grid)
>>> path = es.solve(grid, start, end)
>>> path[0].tolist() == list(start) and path[-1].tolist() == list(end)
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import NamedTuple

import numpy as np

from . import _detour_kernels as dk
from . import _loops_kernels as lk
from . import _walks as wk
from ._cells import PARENT_SHIFT
from ._format import EAST, SOUTH
from ._numba import call
from ._validate import check_int

_UP, _DOWN = 0, 1  # directions, as the kernels number them (then west, east)
NORTH_SOUTH, WEST_EAST = 0b0011, 0b1100  # passage masks of straight corridors

__all__ = [
    "Metrics",
    "count_passages",
    "detour",
    "distances",
    "is_perfect",
    "metrics",
    "solve",
    "suggest_endpoints",
    "validate",
]


def _check_grid(grid: object) -> np.ndarray:
    if not isinstance(grid, np.ndarray):
        raise TypeError(f"grid must be a numpy uint8 array, got {type(grid).__name__}")
    if grid.dtype != np.uint8:
        raise TypeError(f"grid must have dtype uint8, got {grid.dtype}")
    if grid.ndim != 2 or 0 in grid.shape:
        raise ValueError(f"grid must have shape (height, width) with both >= 1, got {grid.shape}")
    if grid.size >= 2**31:
        raise ValueError("grid must have fewer than 2**31 cells")
    return np.ascontiguousarray(grid)


def _check_cell(name: str, cell: object, shape: tuple[int, int]) -> tuple[int, int]:
    if isinstance(cell, np.ndarray):
        cell = cell.tolist()
    if not isinstance(cell, (tuple, list)) or len(cell) != 2:
        raise TypeError(f"{name} must be a (y, x) pair, got {cell!r}")
    y = check_int(f"{name}[0] (y)", cell[0], 0, shape[0] - 1)
    x = check_int(f"{name}[1] (x)", cell[1], 0, shape[1] - 1)
    return y, x


def _walk_cells(grid: np.ndarray) -> np.ndarray:
    """A flat copy of the passage flags, plus the scratch byte walks need."""
    cells = np.empty(grid.size + 1, np.uint8)
    np.bitwise_and(grid.reshape(-1), EAST | SOUTH, out=cells[:-1])
    return cells


def validate(grid: np.ndarray) -> list[str]:
    """What keeps ``grid`` from being a perfect maze; empty when it is one.

    Parameters
    ----------
    grid:
        A ``(height, width)`` uint8 array in the row format, from any
        generator, with both sides at least 1 and fewer than 2**31 cells.

    >>> import numpy as np, eller_stream as es
    >>> es.validate(np.array([[1, 0], [1, 0]], np.uint8))
    ['2 passages, a spanning tree of 4 cells has 3', 'not connected: 2 of 4 cells reachable from (0, 0)']
    """
    grid = _check_grid(grid)
    h, w = grid.shape
    problems = []
    flat = grid.reshape(-1)
    if (flat > (EAST | SOUTH)).any():
        problems.append("bits other than EAST and SOUTH are set")
    if (grid[:, -1] & EAST).any():
        problems.append("EAST passage out of the grid in the last column")
    if (grid[-1] & SOUTH).any():
        problems.append("SOUTH passage out of the grid in the last row")
    inner = grid.copy()
    inner[:, -1] &= ~np.uint8(EAST)
    inner[-1] &= ~np.uint8(SOUTH)
    inner &= EAST | SOUTH
    passages = int(np.count_nonzero(inner & EAST) + np.count_nonzero(inner & SOUTH))
    if passages != h * w - 1:
        problems.append(f"{passages} passages, a spanning tree of {h * w} cells has {h * w - 1}")
    reached = int(call(wk.bfs_farthest, _walk_cells(inner), np.empty(h * w + 4, np.int32), w, h, 0, 0)[2])
    if reached != h * w:
        problems.append(f"not connected: {reached} of {h * w} cells reachable from (0, 0)")
    return problems


def is_perfect(grid: np.ndarray) -> bool:
    """True when ``grid`` is a perfect maze: connected, without loops.

    Parameters
    ----------
    grid:
        A ``(height, width)`` uint8 array in the row format, from any
        generator, with both sides at least 1 and fewer than 2**31 cells.

    >>> import eller_stream as es
    >>> es.is_perfect(es.growing_tree(9, 4, seed=1))
    True
    """
    return not validate(grid)


def solve(grid: np.ndarray, start: tuple[int, int], end: tuple[int, int]) -> np.ndarray:
    """The path from ``start`` to ``end`` as a ``(k, 2)`` array of ``(y, x)``
    cells, both ends included.

    A depth-first walk: the backtracker's own loop, whose stack, when it
    reaches ``end``, is the path (kept as one byte per cell of "way back"
    directions).  In a perfect maze that path is the only one.  Raises
    ``ValueError`` when the grid does not connect ``start`` and ``end``
    (the one behaviour for any grid, connected or not); passages out of the
    grid are not followed (of a plane region: the path inside it).

    Parameters
    ----------
    grid:
        A ``(height, width)`` uint8 array in the row format, from any
        generator, with both sides at least 1 and fewer than 2**31 cells.
    start, end:
        ``(y, x)`` cells of the grid (tuples, lists or arrays of two ints).

    >>> import eller_stream as es
    >>> es.solve(es.eller(3, 1, seed=0), (0, 0), (0, 2)).tolist()
    [[0, 0], [0, 1], [0, 2]]
    """
    grid = _check_grid(grid)
    h, w = grid.shape
    sy, sx = _check_cell("start", start, grid.shape)
    ey, ex = _check_cell("end", end, grid.shape)
    source, target = sy * w + sx, ey * w + ex
    mark = np.empty(grid.size + 1, np.uint8)  # passage masks, then the walk's marks
    call(wk.passage_masks, grid, mark[:-1], np.zeros(16, np.int64))
    reached = call(wk.tree_walk, mark, w, source, target)
    shift, bias = 4, 1
    if reached < 0:  # a loop: walk again, marking the cells seen
        mark = _walk_cells(grid)
        reached = call(wk.walk, mark, w, h, source, target, 0)[0]
        shift, bias = PARENT_SHIFT, 0
    if not reached:
        raise ValueError(
            f"end {(ey, ex)} cannot be reached from start {(sy, sx)}: the grid does not connect them"
        )
    out = np.empty((call(wk.path_length, mark, w, source, target, shift, bias), 2), np.int64)
    call(wk.path_from_parents, mark, w, source, target, shift, bias, out)
    return out


def bfs_distances(grid: np.ndarray, source: int, target: int = -1) -> np.ndarray:
    """Flat int64 distances from the flat cell ``source`` of a checked grid
    (-1 where it does not reach; the search stops at ``target`` if >= 0)."""
    dist = np.full(grid.size, -1, np.int64)
    call(wk.bfs, grid, source, target, dist, np.empty(grid.size, np.int32))
    return dist


def distances(grid: np.ndarray, cell: tuple[int, int]) -> np.ndarray:
    """The fewest steps from ``cell`` to every cell of ``grid``: an int64
    array of the grid's shape, -1 where the grid does not connect them.

    A breadth-first search (a numba kernel, O(cells)), so the distances are
    true shortest-path lengths in any grid: perfect, with loops or rooms, or
    in parts.  Passages out of the grid (``EAST`` in the last column,
    ``SOUTH`` in the last row, as a block of an endless maze has) are not
    followed.

    Parameters
    ----------
    grid:
        A ``(height, width)`` uint8 array in the row format, from any
        generator, with both sides at least 1 and fewer than 2**31 cells.
    cell:
        The ``(y, x)`` cell to measure from (a tuple, list or array of two ints).

    >>> import numpy as np, eller_stream as es
    >>> es.distances(np.array([[1, 2], [0, 0]], np.uint8), (0, 0)).tolist()
    [[0, 1], [-1, 2]]
    """
    grid = _check_grid(grid)
    y, x = _check_cell("cell", cell, grid.shape)
    return bfs_distances(grid, y * grid.shape[1] + x).reshape(grid.shape)


def _masks(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flat passage masks of ``grid`` (see ``passage_masks``) and the count of
    cells with each of the 16 masks."""
    masks = np.empty(grid.size, np.uint8)
    counts = np.zeros(16, np.int64)
    call(wk.passage_masks, grid, masks, counts)
    return masks, counts


def _farthest(
    grid: np.ndarray, masks: np.ndarray, queue: np.ndarray, source: int, row: int, tree: bool
) -> tuple[int, int, bool]:
    """(x, distance) of the cell of ``row`` farthest from ``source`` (a cell
    of the top or bottom row; x = -1 when no cell of the row can be
    reached), and whether the sweep proved the grid a spanning tree.
    ``tree``: the grid is known to be one."""
    h, w = grid.shape
    row_depth = np.full(w + 1, -1, np.int64)
    found = None
    if grid.size < 2**30:
        back = _UP if source < w else _DOWN  # a direction without a passage
        found = call(wk.tree_distances, masks, queue, w, source, back, row, row_depth, tree)
    if found is None or not found[1]:  # a loop (or a huge grid): mark the cells reached
        x, distance, _ = call(wk.bfs_farthest, _walk_cells(grid), queue.view(np.int32), w, h, source, row)
        return int(x), int(distance), False
    x = int(np.argmax(row_depth[:w]))  # the leftmost of the farthest
    return (x if row_depth[x] >= 0 else -1), int(row_depth[x]), int(found[0]) == h * w


def _endpoints(
    grid: np.ndarray, masks: np.ndarray | None = None
) -> tuple[tuple[int, int], tuple[int, int], int]:
    """Suggested endpoints and the length (cells) of the path between them."""
    h, w = grid.shape
    if masks is None:
        masks, _ = _masks(grid)
    queue = np.empty(h * w + 4, np.uint32)
    end_x, _, tree = _farthest(grid, masks, queue, 0, h - 1, False)
    if end_x < 0:
        raise ValueError("grid is not connected: no bottom-row cell can be reached from (0, 0)")
    # a spanning tree: the second sweep may stop once it has reached the whole top row
    start_x, distance, _ = _farthest(grid, masks, queue, (h - 1) * w + end_x, 0, tree)
    return (0, start_x), (h - 1, end_x), distance + 1


def suggest_endpoints(grid: np.ndarray) -> tuple[tuple[int, int], tuple[int, int]]:
    """A start on the top edge and an end on the bottom edge with a long
    path between them; deterministic.

    The end is the bottom-row cell farthest from the top-left cell, the
    start the top-row cell farthest from that end (the leftmost of ties;
    two breadth-first O(cells) sweeps, so distances are true shortest-path
    distances in any grid).  Raises ``ValueError`` when no bottom-row cell can
    be reached from the top-left cell.

    Parameters
    ----------
    grid:
        A ``(height, width)`` uint8 array in the row format, from any
        generator, with both sides at least 1 and fewer than 2**31 cells.

    >>> import eller_stream as es
    >>> start, end = es.suggest_endpoints(es.eller(10, 8, seed=2))
    >>> start[0], end[0]
    (0, 7)
    """
    start, end, _ = _endpoints(_check_grid(grid))
    return start, end


class _Texture(NamedTuple):
    """Counts of a grid's cells and passages, from the count of cells with
    each passage mask (``passage_masks``' ``counts``)."""

    dead_ends: int  # cells with one passage
    corridors: int  # two
    junctions: int  # three
    crossroads: int  # four
    straight: int  # cells with two passages that go straight on
    turns: int  # ... that turn
    east: int  # EAST passages
    south: int  # SOUTH passages
    runs: int  # maximal straight runs (a run starts where a passage does not continue one)


def _texture_counts(by_mask: np.ndarray) -> _Texture:
    """The texture counts of the cells counted by passage mask in ``by_mask``.

    >>> by_mask = np.zeros(16, np.int64)
    >>> by_mask[[0b1000, 0b1100, 0b0100]] = 1  # three cells in a row: -> <-> <-
    >>> t = _texture_counts(by_mask)
    >>> t.dead_ends, t.corridors, t.straight, t.turns, t.east, t.south, t.runs
    (2, 1, 1, 0, 2, 0, 1)
    """
    m = np.arange(16)
    north, south, west, east = m & 1, (m >> 1) & 1, (m >> 2) & 1, (m >> 3) & 1
    degree = north + south + west + east
    straight = (m == NORTH_SOUTH) | (m == WEST_EAST)

    def count(per_mask: np.ndarray) -> int:
        return int(np.dot(by_mask, per_mask))

    return _Texture(
        dead_ends=count(degree == 1),
        corridors=count(degree == 2),
        junctions=count(degree == 3),
        crossroads=count(degree == 4),
        straight=count(straight),
        turns=count((degree == 2) & ~straight),
        east=count(east),
        south=count(south),
        runs=count((east & (1 - west)) + (south & (1 - north))),
    )


@dataclass(frozen=True)
class Metrics(Mapping[str, float]):
    """What :func:`metrics` returns: typed fields, and a read-only mapping of
    the same names (``m.dead_end_fraction`` is ``m["dead_end_fraction"]``;
    ``m.as_dict()`` is a plain dict).

    >>> import eller_stream as es
    >>> m = es.metrics(es.eller(8, 6, seed=2))
    >>> m.cells, m.passages, m.dead_ends == m["dead_ends"]
    (48, 47, True)
    >>> list(m)[:3], len(m) == len(m.as_dict())
    (['cells', 'passages', 'dead_ends'], True)
    >>> m["width"]
    Traceback (most recent call last):
    ...
    KeyError: 'width'
    >>> m.cells = 0
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'cells'
    """

    cells: int
    passages: int
    dead_ends: int
    junctions: int
    crossroads: int
    dead_end_fraction: float
    junction_fraction: float
    crossroads_fraction: float
    straight_fraction: float
    turn_fraction: float
    mean_straight_run: float
    horizontal_vertical_ratio: float
    solution_length: int
    solution_ratio: float
    loops: int

    def __getitem__(self, key: str) -> float:
        if key not in _METRIC_NAMES:
            raise KeyError(key)
        value: float = getattr(self, key)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(_METRIC_NAMES)

    def __len__(self) -> int:
        return len(_METRIC_NAMES)

    def as_dict(self) -> dict[str, float]:
        """The metrics as a plain dict, in field order."""
        return dict(self.items())


_METRIC_NAMES = tuple(f.name for f in fields(Metrics))


def metrics(grid: np.ndarray) -> Metrics:
    """Numbers that tell maze textures apart.

    - ``dead_end_fraction``: cells with one passage;
    - ``junction_fraction`` (3 passages) and ``crossroads_fraction`` (4);
    - ``straight_fraction`` / ``turn_fraction``: of the cells with two
      passages, those that go straight on / turn;
    - ``mean_straight_run``: mean length, in passages, of the maximal straight
      horizontal and vertical runs;
    - ``horizontal_vertical_ratio``: EAST passages per SOUTH passage;
    - ``solution_length`` (cells) between the suggested endpoints and
      ``solution_ratio``, that length over ``width + height``; both 0 when
      no bottom-row cell can be reached from the top-left cell (a region of
      a :class:`~eller_stream.Plane` may be cut in parts inside it);
    - counts: ``cells``, ``dead_ends``, ``junctions``, ``crossroads``,
      ``passages``;
    - ``loops``: independent loops, ``passages - cells + components`` (0 in
      a perfect maze; an :class:`InfiniteMaze` with ``loops > 0`` has some).

    Parameters
    ----------
    grid:
        A ``(height, width)`` uint8 array in the row format, from any
        generator, with both sides at least 1 and fewer than 2**31 cells.

    >>> import eller_stream as es
    >>> m = es.metrics(es.backtracker(30, 30, seed=1))
    >>> 0 < m.dead_end_fraction < 0.2 and m["passages"] == 899
    True
    >>> m = es.metrics(es.Plane(chunk=4, seed=1).region(12, 16, -16, -4))  # in parts inside
    >>> m.cells, m.passages, m.loops, m.solution_length
    (48, 36, 0, 0)
    """
    grid = _check_grid(grid)
    h, w = grid.shape
    masks, by_mask = _masks(grid)
    t = _texture_counts(by_mask)
    cells = h * w
    passages = t.east + t.south
    solution = _solution_length(grid, masks)
    return Metrics(
        cells=cells,
        passages=passages,
        dead_ends=t.dead_ends,
        junctions=t.junctions,
        crossroads=t.crossroads,
        dead_end_fraction=t.dead_ends / cells,
        junction_fraction=t.junctions / cells,
        crossroads_fraction=t.crossroads / cells,
        straight_fraction=t.straight / t.corridors if t.corridors else 0.0,
        turn_fraction=t.turns / t.corridors if t.corridors else 0.0,
        mean_straight_run=passages / t.runs if t.runs else 0.0,
        horizontal_vertical_ratio=t.east / t.south if t.south else float("inf"),
        solution_length=solution,
        solution_ratio=solution / (w + h),
        loops=int(call(lk.count_loops, grid, np.empty(grid.size, np.int32))),
    )


def _solution_length(grid: np.ndarray, masks: np.ndarray) -> int:
    """The cells between the suggested endpoints, 0 when there are none."""
    try:
        return _endpoints(grid, masks)[2]
    except ValueError:  # no bottom-row cell reached from (0, 0)
        return 0


def detour(grid: np.ndarray) -> np.ndarray:
    """For every row ``r`` but the last, the fewest rows above ``r`` that every
    cell of row ``r`` needs in order to reach row ``r + 1`` (an int64 array of
    ``height - 1`` values; -1 where some cell cannot reach row ``r + 1`` at
    all, as in a grid that is not connected).

    A game that keeps ``detour(grid).max()`` rows above the player never
    strands it.  In an :class:`InfiniteMaze` no value exceeds ``band - 1``;
    in an Eller stream the values have no bound.

    Parameters
    ----------
    grid:
        A ``(height, width)`` uint8 array in the row format, from any
        generator, with both sides at least 1 and fewer than 2**31 cells.

    >>> import numpy as np, eller_stream as es
    >>> es.detour(np.array([[3, 2], [2, 0], [1, 0]], np.uint8)).tolist()  # (1, 1) climbs to row 0
    [0, 1]
    >>> int(es.detour(es.InfiniteMaze(30, band=4, seed=1).rows(0, 400)).max()) <= 3
    True
    """
    grid = _check_grid(grid)
    out = np.empty(grid.shape[0] - 1, np.int64)
    if out.size:
        call(dk.detour_rows, grid, out)
    return out


def count_passages(grid: np.ndarray) -> int:
    """Number of open passages (EAST and SOUTH flags) in a grid or row.

    Parameters
    ----------
    grid:
        Cells in the row format, of any shape: a grid, a row or a stack of
        rows (anything ``numpy.asarray`` takes); passages out of the grid
        count too.

    >>> import numpy as np, eller_stream as es
    >>> es.count_passages(np.array([[3, 0], [1, 0]], np.uint8))
    3
    """
    grid = np.asarray(grid)
    return int(np.count_nonzero(grid & EAST) + np.count_nonzero(grid & SOUTH))
