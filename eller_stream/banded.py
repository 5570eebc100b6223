"""The banded maze: an infinite perfect maze whose every row can be reached
at once, and in which no cell has to climb more than a band to go down.

Rows are indexed by any integer (negative too).  Band ``b`` covers rows
``[b*band, b*band + band)`` and comes from ``(seed, b)`` alone, so a range
of rows generates only the bands it touches, on every core when it is long.

>>> import eller_stream as es
>>> maze = es.InfiniteMaze(width=6, band=4, seed=1)
>>> maze.rows(-2, 3).shape
(5, 6)
>>> bool((maze[10**12 : 10**12 + 2] == maze.rows(10**12, 10**12 + 2)).all())
True
"""

from __future__ import annotations

import numpy as np

from . import _band_kernels as bk
from . import _content, _cost, _maze_json
from . import _engine as engine
from . import _parallel as par
from . import _room_kernels as rk
from ._banded_stream import BandedStream
from ._eller_kernels import LR_PAD
from ._numba import call
from ._params import DEFAULT_DOORS, BandParams
from ._rng import seed_key
from ._schedule import Schedule
from ._stream_base import Sets, fill
from ._validate import (
    MAX_BAND,
    ROW_LIMIT,
    check_band,
    check_grid_buffer,
    check_int,
    check_row,
    check_row_range,
    check_seed,
    check_width,
)

__all__ = ["DEFAULT_DOORS", "MAX_BAND", "ROW_LIMIT", "BandedStream", "InfiniteMaze"]

_MASK64 = 2**64 - 1
MAX_ROOM_BANDS = 1 << 18  # the bands one room_rects call places rooms in (about 2 s)
MAX_ROOM_CELLS = 1 << 28  # and their cells (placement: about 14 ns a cell of the band, a few s)


class InfiniteMaze:
    """A two-way infinite perfect maze, cut into bands of ``band`` rows that
    meet at doors; any range of rows comes straight from ``(seed, row)``.

    Every cell of row ``r`` reaches row ``r + 1`` without going above the
    first row of ``r``'s band (at most ``band - 1`` rows up), so a game that
    keeps the ``band - 1`` rows above the player never strands it.

    Parameters
    ----------
    width:
        Cells per row, at least 1.
    band:
        Rows per band, in ``[2, MAX_BAND]`` (default 32): the bound on the
        detour.  Reaching a row replays the rows above it in its band, so
        bands are at most :data:`MAX_BAND` (65536) rows.
    seed:
        An int in ``[0, 2**64)``; ``None`` draws one from OS entropy.
    horizontal, vertical:
        Eller's probabilities, as for :class:`EllerStream`.
    doors:
        Probability that a column is a door between two bands, in ``(0, 1]``
        (every seam has at least one door); ``None``: :data:`DEFAULT_DOORS`,
        chosen so that the rows at the seams look like the others.
    loops:
        Probability that a dead end opens one more wall to a neighbour in
        its band (a braid), in ``[0, 1]``: 0 (the default) keeps the maze
        perfect; the detour stays within ``band - 1`` rows.
    rooms:
        About the share of a band's cells in rooms, in ``[0, 1)``: open
        rectangles placed from ``(seed, band)``, off each band's last two
        rows (:meth:`room_rects`); each room is one place of the maze, which
        stays perfect once every room is taken as one node.
    schedule:
        A :class:`Schedule` of parameters that change from band to band
        (:meth:`band_params`), or ``None``: every band takes the values above.

    The parameters of the rows (all but ``width``, ``band`` and ``seed``)
    are one value, :attr:`params` (a ``BandParams``).  The maze is perfect
    unless ``loops > 0``.

    >>> import eller_stream as es
    >>> maze = es.InfiniteMaze(width=5, band=3, seed=7)
    >>> grid = maze.rows(0, 6)
    >>> bool((grid[2::3] & es.SOUTH).any(axis=1).all())  # each band's last row opens at its doors
    True
    >>> maze.band, maze.width, maze.params.doors
    (3, 5, 0.45)
    """

    def __init__(
        self,
        width: int,
        band: int = 32,
        seed: int | None = None,
        horizontal: float = 0.5,
        vertical: float = 0.5,
        doors: float | None = None,
        loops: float = 0.0,
        rooms: float = 0.0,
        schedule: Schedule | None = None,
    ) -> None:
        knobs = {"horizontal": horizontal, "vertical": vertical, "loops": loops, "rooms": rooms}
        if doors is not None:
            knobs["doors"] = doors
        self._set(width, band, seed, BandParams(**knobs), schedule)

    def _set(
        self, width: int, band: int, seed: int | None, params: BandParams, schedule: Schedule | None = None
    ) -> None:
        self._width = par.check_width_fits(check_width(width))
        self._band = check_band(band)
        self._seed = check_seed(seed)
        if not isinstance(params, BandParams):
            raise TypeError(f"params must be a BandParams, got {type(params).__name__}")
        if schedule is not None and not isinstance(schedule, Schedule):
            raise TypeError(f"schedule must be a Schedule or None, got {type(schedule).__name__}")
        self._params = params
        self._schedule = schedule
        self._key = seed_key(self._seed)
        self._th = params.thresholds()
        # the rows of today's kernels alone (no loops, no schedule): the path that costs nothing extra
        self._plain = schedule is None and not params.needs_whole()
        # bands with loops or rooms are made whole (and held whole by a stream)
        self._whole = params.needs_whole() if schedule is None else schedule.makes_whole(params)

    @classmethod
    def from_params(
        cls, width: int, band: int, seed: int | None, params: BandParams, schedule: Schedule | None = None
    ) -> InfiniteMaze:
        """The maze of these dimensions, seed, parameter value and schedule."""
        maze = cls.__new__(cls)
        maze._set(width, band, seed, params, schedule)
        return maze

    # -- saving ------------------------------------------------------------
    def to_json(self) -> str:
        """The maze as one line of JSON: a version, the width, band, seed (a
        decimal string), every parameter and the schedule
        (:mod:`eller_stream._maze_json`); :meth:`from_json` reads it back
        equal, and the JavaScript module takes it as its params.

        >>> import eller_stream as es
        >>> maze = es.InfiniteMaze(6, band=4, seed=7, loops=0.25, schedule=es.Schedule({9: {"rooms": 0.1}}))
        >>> maze.to_json()[75:]
        '"doors":0.45,"loops":0.25,"rooms":0.0,"schedule":{"9":{"rooms":0.1}}}'
        >>> es.InfiniteMaze.from_json(maze.to_json()) == maze
        True
        """
        return _maze_json.maze_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> InfiniteMaze:
        """The maze of :meth:`to_json`'s text (a parameter left out takes its
        default); text that is not one is a ``ValueError`` naming what is wrong.

        >>> import eller_stream as es
        >>> es.InfiniteMaze.from_json('{"version": 1, "width": 6, "band": 4, "seed": 7}')
        Traceback (most recent call last):
        ...
        ValueError: not an InfiniteMaze's JSON: seed must be a decimal string of an int in [0, 2**64), got 7
        """
        return cls.from_params(*_maze_json.read_maze(text))

    # -- public attributes -------------------------------------------------
    @property
    def width(self) -> int:
        """Cells per row."""
        return self._width

    @property
    def band(self) -> int:
        """Rows per band."""
        return self._band

    @property
    def seed(self) -> int:
        """The seed in use (drawn from OS entropy when none was given)."""
        return self._seed

    @property
    def params(self) -> BandParams:
        """The parameters of the rows, one frozen value."""
        return self._params

    @property
    def schedule(self) -> Schedule | None:
        """The schedule of parameters by band, or ``None``."""
        return self._schedule

    @property
    def loops(self) -> float:
        """Probability that a dead end opens into a loop (without a schedule)."""
        return self._params.loops

    def band_params(self, b: int) -> BandParams:
        """The parameters of band ``b`` (rows ``b*band`` to ``b*band + band - 1``):
        :attr:`params`, or what the schedule makes of them there."""
        b = check_int("b", b, -ROW_LIMIT, ROW_LIMIT - 1)
        if self._schedule is None:
            return self._params
        return self._schedule.params_at(self._params, b)

    def _ths(self, band0: int, n: int) -> np.ndarray:
        """The thresholds of bands ``band0 .. band0 + n - 1``, a row each (one
        row for all of them without a schedule)."""
        if self._schedule is None:
            return self._th[None, :]
        return self._schedule.thresholds(self._params, band0, n)

    @property
    def horizontal(self) -> float:
        """Probability of joining side-by-side cells of different sets."""
        return self._params.horizontal

    @property
    def vertical(self) -> float:
        """Probability of an optional downward opening."""
        return self._params.vertical

    @property
    def doors(self) -> float:
        """Probability that a column is a door between two bands."""
        return self._params.doors

    def __repr__(self) -> str:
        knobs = ", ".join(f"{name}={value!r}" for name, value in self._params.as_dict().items())
        schedule = "" if self._schedule is None else f", schedule={self._schedule!r}"
        return f"InfiniteMaze(width={self._width}, band={self._band}, seed={self._seed}, {knobs}{schedule})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InfiniteMaze):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def _identity(self) -> tuple[int, int, int, BandParams, Schedule | None]:
        return (self._width, self._band, self._seed, self._params, self._schedule)

    # -- rows --------------------------------------------------------------
    def _kernel(self, left: np.ndarray, right: np.ndarray, out: np.ndarray, row: int) -> None:
        """The rows from row ``row`` into ``out``, continuing ``left``/``right``
        (a stream's step: across bands, from anywhere in one)."""
        band, y = divmod(row, self._band)
        doors = np.empty(self._width, np.uint8)
        parent = np.empty(self._width + 1, np.int32)
        band_u64 = np.uint64(band & _MASK64)
        if self._schedule is not None:
            ths = self._ths(band, (y + out.shape[0] - 1) // self._band + 1)
            k = self._band
            call(engine.bands_stream_rows, left, right, out, self._key, band_u64, y, k, ths, doors, parent)
            return
        k = self._band
        call(engine.band_stream_rows, left, right, out, self._key, band_u64, y, k, self._th, doors, parent)

    def _engines(self) -> list[object]:
        """The kernels of :mod:`eller_stream._engine` that a stream of this maze
        calls: :meth:`_kernel`'s, and :meth:`_whole_band`'s for bands with
        loops or rooms."""
        whole: list[object] = [engine.bands_rows] if self._whole else []
        if self._schedule is not None:
            return [*whole, engine.bands_stream_rows]
        return whole or [engine.band_stream_rows]

    def _seek(self, row: int) -> Sets:
        """The sets before row ``row``: its band's rows above it, replayed
        through a scratch block of at most 64 KiB, in short kernel calls."""
        first = row - row % self._band
        ones = np.arange(self._width + LR_PAD, dtype=np.int32)
        sets = Sets(first, ones, ones.copy())
        if row > first:
            scratch = np.empty((max(1, min(row - first, (1 << 16) // self._width)), self._width), np.uint8)
            while sets.row < row:
                sets = fill(self._kernel, sets, scratch[: min(len(scratch), row - sets.row)])
        return sets

    def rows(self, start: int, stop: int, out: np.ndarray | None = None) -> np.ndarray:
        """Rows ``start`` to ``stop - 1`` as a C-contiguous ``(stop - start,
        width)`` uint8 array; any ints with ``start < stop`` (negative too).

        Only the bands the range touches are generated; a long range uses
        every core and gives the same bytes.  Row ``2**63 - 1`` is the last:
        its SOUTH flags are the doors of the seam below it, which no row
        reaches (a :class:`Window` takes them as walls; ``eller-stream``
        writes a closing row there).  ``out``, if given, is a
        C-contiguous writeable uint8 array of that shape to fill instead.
        Ctrl-C interrupts a long range within milliseconds.  What a range
        costs (:mod:`eller_stream._cost`): the rows above ``start`` in its
        band are replayed, and a band with loops or rooms that the range
        cuts is made whole; a range that cannot be held at once (the rows
        and such a band) is refused with a ``ValueError`` before any of it
        is made.

        >>> import eller_stream as es
        >>> maze = es.InfiniteMaze(8, band=4, seed=3)
        >>> whole = maze.rows(-5, 9)
        >>> bool((whole[5:] == maze.rows(0, 9)).all())
        True
        """
        start, stop = check_row_range(start, stop)
        n = stop - start
        _cost.check_fits(self, start, stop, out is None)
        if out is None:
            what = f"stop - start = {n} rows of width {self._width}"
            out = buf = par.alloc((n, self._width), np.uint8, what)
        else:
            buf = check_grid_buffer("out", out, (n, self._width))
        if not self._plain:
            self._level_rows(start, buf)
            return out
        head = min(n, -start % self._band)  # the rows before the first whole band
        if head:
            fill(self._kernel, self._seek(start), buf[:head])
        if head < n:
            self._bands(start + head, buf[head:])
        return out

    def _bands(self, row: int, out: np.ndarray, level: bool = False) -> None:
        """``out``'s whole bands (the last may be cut short) from row ``row``, a band's first: a
        run of them a thread when numba's threads are many, in calls of about ``CALL_CELLS``
        cells a thread.  ``level``: with the bands' own thresholds, loops and rooms."""
        k, w = self._band, self._width
        threads = par.threads_for(out.shape[0], k, w, engine.bands_rows if level else engine.band_stream_rows)
        try:  # the levels' kernels take a thread's scratch rows; a stream's calls make their own
            scratch = par.scratch(threads, w) if level else []
        except ValueError:
            threads, scratch = 1, par.scratch(1, w)  # one core, then
        per_call = k * par.bands_per_call(threads, k, w)
        for lo in range(0, out.shape[0], per_call):
            n = -(-min(per_call, out.shape[0] - lo) // k)  # the bands of this call
            ths = self._ths((row + lo) // k, n) if level else None
            parts = []
            for t, (j0, j1) in enumerate(par.split(n, threads)):
                th, run = ths if ths is None or len(ths) == 1 else ths[j0:j1], out[lo + j0 * k : lo + j1 * k]
                rows = par.thread_rows(scratch, t, w) if level else []
                parts.append(self._part(row + lo + j0 * k, run, th, rows))
            par.run_parts(parts)

    def _part(self, row: int, out: np.ndarray, ths: np.ndarray | None, rows: list[np.ndarray]) -> par.Part:
        """``out``'s bands from row ``row`` (a band's first) by the serial kernels, on any thread:
        ``ths`` the levels' thresholds (``None``: plain), ``rows`` a thread's scratch."""
        if ths is None:  # a stream's calls, of at most CALL_CELLS cells (a band may be longer)
            ones = np.arange(self._width + LR_PAD, dtype=np.int32)
            return lambda: fill(self._kernel, Sets(row, ones, ones.copy()), out)
        band = np.uint64((row // self._band) & _MASK64)
        return lambda: call(engine.bands_rows, out, self._key, band, self._band, ths, *rows)

    # -- rows with loops or a schedule ----------------------------------------
    def _whole_in(self, b: int) -> bool:
        """Whether band ``b`` has loops or rooms (and so is made whole)."""
        if self._schedule is None:
            return self._whole
        if not self._whole:
            return False
        th = self._ths(b, 1)[0]
        return bool(th[bk.TH_LOOP] > 0 or th[bk.TH_ROOM] > 0)

    def _whole_band(self, b: int) -> np.ndarray:
        """The whole band ``b``, with its rooms and loops: a ``(band, width)`` array."""
        w = self._width
        out = par.alloc((self._band, w), np.uint8, f"a band of {self._band} rows of width {w}")
        band_u64 = np.uint64(b & _MASK64)
        ths = self._ths(b, 1)
        call(engine.bands_rows, out, self._key, band_u64, self._band, ths, *par.one_thread(w))
        return out

    def _band_part(self, b: int, y: int, out: np.ndarray) -> None:
        """Rows ``y .. y + len(out)`` of band ``b`` (not all of it) into ``out``:
        a band with loops is made whole and the part copied."""
        if self._whole_in(b):
            out[:] = self._whole_band(b)[y : y + out.shape[0]]
        else:
            fill(self._kernel, self._seek(b * self._band + y), out)

    def _level_rows(self, start: int, out: np.ndarray) -> None:
        """:meth:`rows` of a maze with loops or a schedule: the bands the range
        cuts through by :meth:`_band_part`, the whole ones in between by the
        kernels that make and braid whole bands, on every core when many."""
        n, k = out.shape[0], self._band
        head = min(n, -start % k)
        if head:
            self._band_part(start // k, start % k, out[:head])
        whole = (n - head) // k * k
        if whole:
            self._bands(start + head, out[head : head + whole], level=True)
        if head + whole < n:
            self._band_part((start + head + whole) // k, 0, out[head + whole :])

    def room_rects(self, start: int, stop: int) -> np.ndarray:
        """The rooms that meet rows ``start`` to ``stop - 1``, as an ``(n, 4)``
        int64 array of ``(top_row, left_col, height, width)`` (absolute
        rows), band by band, each band's in the order they were placed.

        A call places the rooms of at most :data:`MAX_ROOM_BANDS` bands and :data:`MAX_ROOM_CELLS`
        cells (a ``ValueError`` past that: ask in parts).  A room of the band holding row
        ``-2**63`` or ``2**63 - 1`` may reach past it: it is cut to the rows that exist.

        >>> import eller_stream as es
        >>> maze = es.InfiniteMaze(30, band=10, seed=1, rooms=0.2)
        >>> rects = maze.room_rects(0, 10)
        >>> bool(len(rects) and (rects[:, 0] + rects[:, 2] <= 8).all())  # off the band's last two rows
        True
        """
        start, stop = check_row_range(start, stop)
        k, w = self._band, self._width
        found = [np.empty((0, 4), np.int64)]
        first, last = start // k, (stop - 1) // k
        if not self._whole or k < 4:  # rooms are 2 rows or more, off a band's last two rows
            return found[0]
        if last - first + 1 > MAX_ROOM_BANDS or (last - first + 1) * k * w > MAX_ROOM_CELLS:
            raise ValueError(
                f"rows {start} to {stop} cross {last - first + 1} bands of {k}: room_rects places "
                f"the rooms of at most {MAX_ROOM_BANDS} bands, {MAX_ROOM_CELLS} cells, a call"
            )
        for b in range(first, last + 1):
            th = self._ths(b, 1)[0]
            if th[bk.TH_ROOM] == 0:
                continue
            rects = np.empty((call(rk.room_capacity, k, w, th), 4), np.int64)
            rects = rects[: call(rk.band_rooms, k, w, self._key, np.uint64(b & _MASK64), th, rects)]
            # in rows of the band (Python ints: the band's first row may lie before -2**63)
            lo, hi = start - b * k, stop - b * k
            rects = rects[(rects[:, 0] < hi) & (rects[:, 0] + rects[:, 2] > lo)]
            # cut to the rows that exist, [-2**63, 2**63)
            bottom = np.minimum(rects[:, 0] + rects[:, 2], min(k, ROW_LIMIT - b * k))
            rects[:, 0] = np.maximum(rects[:, 0], max(0, -ROW_LIMIT - b * k))
            rects[:, 2] = bottom - rects[:, 0]
            half = b * k // 2  # b * k itself may lie below -2**63: added in two halves
            rects[:, 0] += half
            rects[:, 0] += b * k - half
            found.append(rects)
        return np.ascontiguousarray(np.concatenate(found))

    def random(self, start: int, stop: int, salt: int = 0) -> np.ndarray:
        """Seeded numbers in [0, 1) for rows ``start`` to ``stop - 1``: a float64
        ``(stop - start, width)`` array, a pure function of ``(seed, row,
        column, salt)`` (any int salt in ``[0, 2**64)``, one per kind of
        item), independent of the walls; see :mod:`eller_stream._content`.
        Placed on a cell that ``Window.lasting`` marks, an item stays reachable
        while the player stays near it (``Window.reachable``: reachable now).

        Parameters
        ----------
        start, stop : int
            The rows, any ints with ``start < stop`` in ``[-2**63, 2**63]``.
        salt : int
            In ``[0, 2**64)``: another salt gives other numbers, independent
            of these.

        >>> import eller_stream as es
        >>> maze = es.InfiniteMaze(8, band=4, seed=3)
        >>> r = maze.random(-10, 10, salt=1)
        >>> r.shape, bool((r[10:] == maze.random(0, 10, salt=1)).all())
        ((20, 8), True)
        """
        return _content.cell_random(self._key, self._width, start, stop, salt)

    def __getitem__(self, index: int | slice) -> np.ndarray:
        """``maze[a:b]`` is ``maze.rows(a, b)``; ``maze[r]`` is row ``r`` (a
        negative ``r`` is a row above row 0, not one counted from an end)."""
        if isinstance(index, slice):
            if index.step not in (None, 1):
                raise ValueError(f"a slice of rows takes no step, got step {index.step!r}")
            if index.start is None or index.stop is None:
                raise ValueError("the maze is infinite: a slice of rows needs both start and stop")
            return self.rows(index.start, index.stop)
        row = check_row("index", index)
        one: np.ndarray = self.rows(row, row + 1)[0]
        return one

    def stream(self, start: int = 0) -> BandedStream:
        """An :class:`EllerStream`-like stream of this maze's rows from row
        ``start``: ``next``, ``take``, ``finish``, ``checkpoint``/``resume``.

        >>> import eller_stream as es
        >>> maze = es.InfiniteMaze(6, band=4, seed=2)
        >>> s = maze.stream(start=-8)
        >>> bool((s.take(10) == maze.rows(-8, 2)).all())
        True
        """
        return BandedStream(self, start)
