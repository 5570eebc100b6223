"""The rows a game keeps around a row of an :class:`InfiniteMaze`.

A :class:`Window` holds rows ``row - above`` to ``row + below`` of a maze
and answers a game's questions about them (can the player step there, how
far is every cell, which way to a cell, what can it reach) with cells given
by their absolute row, so a game never converts.  Moving the window makes
only the rows it did not have, in either direction.

>>> import eller_stream as es
>>> maze = es.InfiniteMaze(width=10, band=8, seed=1)
>>> win = es.Window(maze, row=100)
>>> win.top, win.bottom, win.rows.shape  # band - 1 rows above, 16 below
(93, 117, (24, 10))
>>> win.move_to(101)
>>> bool((win.rows == maze.rows(94, 118)).all())
True
"""

from __future__ import annotations

import numpy as np

from . import _bfs_kernels as bk
from ._format import EAST, SOUTH
from ._numba import call
from ._validate import ROW_LIMIT, check_int, check_row
from .analysis import bfs_distances
from .banded import InfiniteMaze
from .render import tiles

__all__ = ["DIRECTIONS", "Window"]

# The directions a move takes: a name, or the (dy, dx) step it names.
DIRECTIONS: dict[str, tuple[int, int]] = {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}
_STEPS = {step: name for name, step in DIRECTIONS.items()}


def _direction(direction: object) -> tuple[int, int]:
    """``direction`` as a ``(dy, dx)`` step; ValueError naming a bad one."""
    if isinstance(direction, str) and direction in DIRECTIONS:
        return DIRECTIONS[direction]
    if isinstance(direction, (tuple, list)) and len(direction) == 2:
        try:
            step = (check_int("dy", direction[0], -1, 1), check_int("dx", direction[1], -1, 1))
        except (TypeError, ValueError):
            step = (0, 0)
        if step in _STEPS:
            return step
    names = ", ".join(repr(name) for name in DIRECTIONS)
    raise ValueError(
        f"direction must be one of {names} or a step (dy, dx) among {', '.join(map(str, _STEPS))}, "
        f"got {direction!r}"
    )


class Window:
    """The rows of ``maze`` kept around row ``row``: ``above`` rows above it
    and ``below`` below it (fewer only at the maze's ends, ±2**63).

    Parameters
    ----------
    maze : InfiniteMaze
        The maze, with or without loops, rooms or a schedule.
    row : int
        The row to keep in view (the player's), any row of the maze.
    above : int or None
        Rows kept above ``row``; ``None``: ``maze.band - 1``, the number the
        maze's guarantee needs (every cell reaches the next row within
        ``band - 1`` rows above it), so a player inside never gets stranded.
    below : int
        Rows kept below ``row`` (16).

    Cells are ``(row, column)`` pairs with the absolute row of the maze.  A
    cell outside the window is a ``ValueError`` naming the argument.  The
    searches see the kept rows alone: a passage that leaves the window is
    not followed, so ``distances`` is -1 for what the window alone does not
    connect, and ``can_move`` is False out of it.

    >>> import eller_stream as es
    >>> win = es.Window(es.InfiniteMaze(8, band=4, seed=2, loops=0.5), row=-(10**15))
    >>> d = win.distances((-(10**15), 3))
    >>> d.shape == win.rows.shape and int(d[3, 3])
    0
    """

    def __init__(self, maze: InfiniteMaze, row: int = 0, above: int | None = None, below: int = 16) -> None:
        if not isinstance(maze, InfiniteMaze):
            raise TypeError(f"maze must be an InfiniteMaze, got {type(maze).__name__}")
        self._maze = maze
        self._above = maze.band - 1 if above is None else check_int("above", above, 0, 2**20)
        self._below = check_int("below", below, 0, 2**20)
        self._row = check_row("row", row)
        self._top, self._bottom = self._span(self._row)
        self._buf = maze.rows(self._top, self._bottom)
        self._made = self._bottom - self._top

    def _span(self, row: int) -> tuple[int, int]:
        return max(row - self._above, -ROW_LIMIT), min(row + self._below + 1, ROW_LIMIT)

    # -- the rows ----------------------------------------------------------
    @property
    def maze(self) -> InfiniteMaze:
        """The maze the rows come from."""
        return self._maze

    @property
    def row(self) -> int:
        """The row kept in view (the last given to :meth:`move_to`)."""
        return self._row

    @property
    def top(self) -> int:
        """The first row kept (absolute)."""
        return self._top

    @property
    def bottom(self) -> int:
        """One past the last row kept (absolute)."""
        return self._bottom

    @property
    def above(self) -> int:
        """Rows kept above :attr:`row`."""
        return self._above

    @property
    def below(self) -> int:
        """Rows kept below :attr:`row`."""
        return self._below

    @property
    def rows(self) -> np.ndarray:
        """The rows kept, ``top`` to ``bottom - 1``: a read-only ``(bottom -
        top, width)`` uint8 view (one taken before a move keeps the rows of
        then: a move puts the rows in a new array)."""
        view = self._buf.view()
        view.flags.writeable = False
        return view

    @property
    def rows_made(self) -> int:
        """How many rows the window has asked the maze for, in all."""
        return self._made

    def move_to(self, row: int) -> None:
        """Keep row ``row`` in view: rows ``row - above`` to ``row + below``.
        Rows the window already holds are kept (moved in place), and only
        the new ones are made, by ``maze.rows``, in either direction.

        Parameters
        ----------
        row : int
            The new row to keep in view (the player's), any row of the maze.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(6, band=4, seed=3), row=0, below=4)
        >>> made = win.rows_made
        >>> win.move_to(-2)
        >>> win.top, win.bottom, win.rows_made - made  # two new rows above
        (-5, 3, 2)
        """
        row = check_row("row", row)
        top, bottom = self._span(row)
        old_top, old_bottom = self._top, self._bottom
        lo, hi = max(top, old_top), min(bottom, old_bottom)
        buf = np.empty((bottom - top, self._maze.width), np.uint8)
        if lo < hi:
            buf[lo - top : hi - top] = self._buf[lo - old_top : hi - old_top]
            if top < lo:
                self._maze.rows(top, lo, out=buf[: lo - top])
            if hi < bottom:
                self._maze.rows(hi, bottom, out=buf[hi - top :])
            self._made += (lo - top) + (bottom - hi)
        else:
            self._maze.rows(top, bottom, out=buf)
            self._made += bottom - top
        self._buf, self._row, self._top, self._bottom = buf, row, top, bottom

    def tiles(self) -> np.ndarray:
        """The kept rows as a bool tile map of walls, the top edge open
        (``es.tiles(win.rows, top=False)``: shape ``(2n, 2w+1)``, cell
        ``(row, col)`` is tile ``(2*(row - top), 2*col + 1)``).

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(5, band=4, seed=1), row=9, above=2, below=1)
        >>> win.tiles().shape
        (8, 11)
        """
        return tiles(self._buf, top=False)

    # -- cells -------------------------------------------------------------
    def _cell(self, name: str, cell: object) -> tuple[int, int]:
        """``cell`` as (index in the kept rows, column)."""
        if isinstance(cell, np.ndarray):
            cell = cell.tolist()
        if not isinstance(cell, (tuple, list)) or len(cell) != 2:
            raise TypeError(f"{name} must be a (row, column) pair, got {cell!r}")
        row = check_int(f"{name}[0] (row)", cell[0], -ROW_LIMIT)
        col = check_int(f"{name}[1] (column)", cell[1], -ROW_LIMIT)
        if not self._top <= row < self._bottom:
            raise ValueError(
                f"{name} row {row} is outside the window: rows {self._top} to {self._bottom - 1} are kept"
            )
        if not 0 <= col < self._maze.width:
            raise ValueError(f"{name} column {col} is outside the maze: columns 0 to {self._maze.width - 1}")
        return row - self._top, col

    def can_move(self, cell: tuple[int, int], direction: str | tuple[int, int]) -> bool:
        """Whether a player on ``cell`` can step in ``direction``: the wall
        there is open and the cell behind it is kept (a passage out of the
        window is not a move the window can make; move it first).

        Parameters
        ----------
        cell : (int, int)
            ``(row, column)``, the row absolute, inside the window.
        direction : str or (int, int)
            ``"north"``, ``"south"``, ``"east"``, ``"west"``, or the step
            ``(dy, dx)``: ``(-1, 0)``, ``(1, 0)``, ``(0, 1)``, ``(0, -1)``.

        >>> import numpy as np, eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(6, band=4, seed=1), row=5)
        >>> win.can_move((5, 0), "south") == bool(win.rows[5 - win.top, 0] & es.SOUTH)
        True
        >>> win.can_move((5, 0), "west"), win.can_move((5, 0), (0, -1))
        (False, False)
        """
        y, x = self._cell("cell", cell)
        dy, dx = _direction(direction)
        ny, nx = y + dy, x + dx
        if not (0 <= ny < self._buf.shape[0] and 0 <= nx < self._maze.width):
            return False
        if dy:
            return bool(self._buf[min(y, ny), x] & SOUTH)
        return bool(self._buf[y, min(x, nx)] & EAST)

    def distances(self, cell: tuple[int, int]) -> np.ndarray:
        """Breadth-first steps from ``cell`` to every kept cell: an int64
        array shaped like :attr:`rows`, -1 where the window alone does not
        connect them (``es.distances(win.rows, ...)`` in absolute rows).

        Parameters
        ----------
        cell : (int, int)
            ``(row, column)``, the row absolute, inside the window.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(6, band=4, seed=1), row=5)
        >>> d = win.distances((5, 2))
        >>> int(d[5 - win.top, 2]), bool((d[6 - win.top] >= 0).any())  # the next row is in reach
        (0, True)
        """
        y, x = self._cell("cell", cell)
        w = self._maze.width
        return bfs_distances(self._buf, y * w + x).reshape(self._buf.shape)

    def reachable(self, cell: tuple[int, int]) -> np.ndarray:
        """The kept cells a player on ``cell`` can walk to without leaving the
        window: a bool mask shaped like :attr:`rows`.

        Parameters
        ----------
        cell : (int, int)
            ``(row, column)``, the row absolute, inside the window.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(6, band=4, seed=1), row=5)
        >>> mask = win.reachable((5, 2))
        >>> mask.dtype, bool(mask[5 - win.top, 2])
        (dtype('bool'), True)
        """
        return self.distances(cell) >= 0

    def path(self, a: tuple[int, int], b: tuple[int, int]) -> np.ndarray | None:
        """A shortest path from ``a`` to ``b`` inside the window: a ``(k, 2)``
        int64 array of absolute ``(row, column)`` cells, both ends included
        (as ``es.solve`` gives them), or ``None`` when the window alone does
        not connect them.

        Parameters
        ----------
        a, b : (int, int)
            ``(row, column)`` cells, the rows absolute, inside the window.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(6, band=4, seed=1), row=2**62)
        >>> p = win.path((2**62, 0), (2**62 + 3, 5))
        >>> p[0].tolist(), p[-1].tolist()
        ([4611686018427387904, 0], [4611686018427387907, 5])
        """
        ay, ax = self._cell("a", a)
        by, bx = self._cell("b", b)
        w = self._maze.width
        source, target = ay * w + ax, by * w + bx
        dist = bfs_distances(self._buf, source, target)
        if dist[target] < 0:
            return None
        out = np.empty((int(dist[target]) + 1, 2), np.int64)
        call(bk.path_back, self._buf, dist, target, out)
        out[:, 0] += self._top
        return out

    def __repr__(self) -> str:
        return f"Window({self._maze!r}, row={self._row}, above={self._above}, below={self._below})"
