"""The rows a game keeps around a row of an :class:`InfiniteMaze`.

A :class:`Window` holds rows ``row - above`` to ``row + below`` of a maze
and answers a game's questions about them (can the player step there, how
far is every cell, which way to a cell, what can it reach, where does an
item stay reachable, what has the player seen) with cells given by their
absolute row, so a game never converts; it gives a cell's tile in
``tiles()`` and back, and saves in one line of JSON.  Moving the window
makes only the rows it did not have, in either direction.

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
from . import _reach, _window_json
from ._directions import DIRECTIONS, step_of
from ._format import EAST, SOUTH
from ._numba import call
from ._validate import ROW_LIMIT, check_int, check_row
from .analysis import bfs_distances
from .banded import InfiniteMaze
from .render import tiles

__all__ = ["DIRECTIONS", "Window"]


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
        self._explored: np.ndarray = np.zeros(self._buf.shape, bool)
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
        explored: np.ndarray = np.zeros(buf.shape, bool)  # new rows come unexplored
        if lo < hi:
            buf[lo - top : hi - top] = self._buf[lo - old_top : hi - old_top]
            explored[lo - top : hi - top] = self._explored[lo - old_top : hi - old_top]
            if top < lo:
                self._maze.rows(top, lo, out=buf[: lo - top])
            if hi < bottom:
                self._maze.rows(hi, bottom, out=buf[hi - top :])
            self._made += (lo - top) + (bottom - hi)
        else:
            self._maze.rows(top, bottom, out=buf)
            self._made += bottom - top
        self._buf, self._explored, self._row, self._top, self._bottom = buf, explored, row, top, bottom

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

    def tile_of(self, cell: tuple[int, int]) -> tuple[int, int]:
        """The ``(ty, tx)`` of ``cell`` in :meth:`tiles`: ``(2*(row - top), 2*col + 1)``.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(5, band=4, seed=1), row=9)
        >>> win.tile_of((9, 2)), win.cell_of(win.tile_of((9, 2)))
        ((6, 5), (9, 2))
        """
        y, x = self._cell("cell", cell)
        return 2 * y, 2 * x + 1

    def cell_of(self, tile: tuple[int, int]) -> tuple[int, int] | None:
        """The cell of tile ``tile`` = ``(ty, tx)`` of :meth:`tiles`, as an
        absolute ``(row, column)``: a cell's own tile gives that cell, an
        open wall's tile (a floor tile between two cells) the cell above it
        or to its left, whose wall it is; a wall tile gives ``None``.  A tile
        outside the tile map is a ``ValueError``.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(5, band=4, seed=1), row=9, above=0, below=0)
        >>> [win.cell_of((0, tx)) for tx in range(4)]  # the border, (9, 0), the wall east of it, (9, 1)
        [None, (9, 0), None, (9, 1)]
        """
        if isinstance(tile, np.ndarray):
            tile = tile.tolist()
        if not isinstance(tile, (tuple, list)) or len(tile) != 2:
            raise TypeError(f"tile must be a (ty, tx) pair, got {tile!r}")
        n, w = self._buf.shape
        ty = check_int("tile[0] (ty)", tile[0], 0, 2 * n - 1)
        tx = check_int("tile[1] (tx)", tile[1], 0, 2 * w)
        y, x = ty // 2, (tx - 1) // 2
        if ty % 2 == 0 and tx % 2 == 1:  # a cell
            return self._top + y, x
        if ty % 2 == 0 and 0 < tx < 2 * w:  # the wall east of cell (y, x)
            return (self._top + y, x) if self._buf[y, x] & EAST else None
        if ty % 2 == 1 and tx % 2 == 1:  # the wall south of cell (y, x)
            return (self._top + y, x) if self._buf[y, x] & SOUTH else None
        return None  # a corner or the border

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
        dy, dx = step_of(direction)
        ny, nx = y + dy, x + dx
        if not (0 <= ny < self._buf.shape[0] and 0 <= nx < self._maze.width):
            return False
        if dy:
            return bool(self._buf[min(y, ny), x] & SOUTH)
        return bool(self._buf[y, min(x, nx)] & EAST)

    def step(self, cell: tuple[int, int], direction: str | tuple[int, int]) -> tuple[int, int] | None:
        """The cell one step from ``cell`` in ``direction``, or ``None`` where
        :meth:`can_move` is False (a wall, or the edge of the window).

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(6, band=4, seed=1), row=5)
        >>> win.step((5, 0), "west") is None, win.step((5, 0), (0, -1)) is None
        (True, True)
        """
        if not self.can_move(cell, direction):
            return None
        (row, col), (dy, dx) = self._cell("cell", cell), step_of(direction)
        return self._top + row + dy, col + dx

    def index(self, cell: tuple[int, int]) -> tuple[int, int]:
        """``(row - top, column)``: where ``cell`` is in :attr:`rows`,
        :attr:`explored` and the masks and distances the window gives.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(6, band=4, seed=1), row=5)
        >>> win.index((5, 2)), win.top
        ((3, 2), 2)
        """
        return self._cell("cell", cell)

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

    # -- items and the fog of war --------------------------------------------
    def lasting(self, cell: tuple[int, int], within: int | None = None) -> np.ndarray:
        """The kept cells where an item stays reachable from a player on
        ``cell``: a bool mask shaped like :attr:`rows`, true on each cell
        ``c`` within ``within`` rows of the player, whose rows within
        ``within`` of it are kept, that the player reaches without leaving
        those rows (:mod:`eller_stream._reach`).

        The rule a game can rely on: a cell marked stays marked, and so
        reachable from the player inside the window, for as long as the
        player moves through open walls (:meth:`step`) and stays within
        ``within`` rows of it, and the window keeps the rows within ``within``
        of it (``above`` and ``below`` of ``2 * within`` or more keep them
        for every cell within ``within`` of the window's row).  A cell may
        come into the mask as the player finds a way to it; it leaves only
        as the player goes more than ``within`` rows away (or the window
        stops keeping its rows).  It holds with loops, rooms and schedules.

        Parameters
        ----------
        cell : (int, int)
            The player's ``(row, column)``, inside the window.
        within : int or None
            Rows each way (``None``: ``min(above, below) // 2``); keep it the
            same from call to call.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(8, band=4, seed=1), row=50, above=8, below=8)
        >>> mask = win.lasting((50, 3))  # within 4 rows
        >>> bool(mask[win.index((50, 3))]), bool(mask[: 46 - win.top].any() or mask[55 - win.top :].any())
        (True, False)
        >>> bool((mask <= win.reachable((50, 3))).all())
        True
        """
        y, x = self._cell("cell", cell)
        if within is None:
            within = min(self._above, self._below) // 2
        within = check_int("within", within, 0, 2**20)
        return _reach.lasting(self._buf, self._top, y, x, within)

    @property
    def explored(self) -> np.ndarray:
        """The fog of war: a read-only bool array shaped like :attr:`rows`,
        true where :meth:`explore` has marked a cell.  It scrolls with the
        window: kept rows keep their marks, new rows come unmarked (a row
        that scrolls out and back in comes back unmarked)."""
        view = self._explored.view()
        view.flags.writeable = False
        return view

    def explore(self, cell: tuple[int, int], radius: int) -> np.ndarray:
        """Mark in :attr:`explored` what a player on ``cell`` sees: the kept
        cells it can walk to in at most ``radius`` steps through open walls
        (a light that goes round corners, not through walls; ``radius=0``
        is the cell alone).  Returns the bool mask of the cells seen now.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(6, band=4, seed=1), row=5)
        >>> seen = win.explore((5, 2), 3)
        >>> bool((seen == ((win.distances((5, 2)) >= 0) & (win.distances((5, 2)) <= 3))).all())
        True
        >>> bool(win.explored[win.index((5, 2))]), int(win.explored.sum()) == int(seen.sum())
        (True, True)
        """
        y, x = self._cell("cell", cell)
        seen = _reach.seen(self._buf, y, x, check_int("radius", radius, 0))
        self._explored |= seen
        return seen

    # -- saving --------------------------------------------------------------
    def to_json(self) -> str:
        """The window as one line of JSON: its maze (``maze.to_json()``'s),
        ``row``, ``above``, ``below``, ``top``, ``bottom`` and the
        :attr:`explored` mask (:mod:`eller_stream._window_json`); no row is
        saved, :meth:`from_json` makes them again.

        >>> import eller_stream as es
        >>> win = es.Window(es.InfiniteMaze(6, band=4, seed=1, loops=0.5), row=-(2**62), below=5)
        >>> _ = win.explore((-(2**62), 1), 4)
        >>> back = es.Window.from_json(win.to_json())
        >>> back.maze == win.maze, back.top == win.top, bool((back.explored == win.explored).all())
        (True, True, True)
        """
        return _window_json.window_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> Window:
        """The window of :meth:`to_json`'s text, its rows made again and its
        fog of war as saved; text that is not one is a ``ValueError`` naming
        what is wrong.

        >>> import eller_stream as es
        >>> es.Window.from_json('{"version": 1}')
        Traceback (most recent call last):
        ...
        ValueError: not a Window's JSON: the key 'maze' is missing
        """
        parts, row, above, below, explored = _window_json.read_window(text)
        win = cls(InfiniteMaze.from_params(*parts), row, above, below)
        win._explored = explored
        return win

    def __repr__(self) -> str:
        return f"Window({self._maze!r}, row={self._row}, above={self._above}, below={self._below})"
