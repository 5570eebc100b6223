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

import os
import threading

import numba
import numpy as np

from . import _band_kernels as bk
from . import _checkpoint
from . import _eller_kernels as k
from ._eller_kernels import LR_PAD
from ._numba import call
from ._params import DEFAULT_DOORS, BandParams
from ._rng import seed_key
from ._schedule import Schedule
from ._stream_base import CALL_CELLS, RowStream, Sets, fill
from ._validate import (
    MAX_BAND,
    ROW_LIMIT,
    check_band,
    check_grid_buffer,
    check_int,
    check_row,
    check_seed,
    check_width,
)

__all__ = ["DEFAULT_DOORS", "MAX_BAND", "ROW_LIMIT", "BandedStream", "InfiniteMaze"]

_MASK64 = 2**64 - 1
_PARALLEL_CELLS = 1 << 17  # a range of at least this many cells (and two bands) uses every core
# A band of more cells than this is made on one core, in calls of CALL_CELLS
# cells (a parallel call makes whole bands and could not be interrupted).
_PARALLEL_BAND_CELLS = 8 * CALL_CELLS
_parallel_lock = threading.Lock()  # numba's default thread pool takes one parallel call at a time
# numba's OpenMP thread pool does not survive a fork: a child of a process
# that used it runs on one core (os.register_at_fork sets _parallel[1]).
_parallel = [False, False]  # [used in this process, used before a fork]


def _forked_child() -> None:
    _parallel[1] = _parallel[1] or _parallel[0]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked_child)


def _memory_bytes() -> int:
    """The machine's physical memory (a range larger than it is refused)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not on this platform: only numpy's own limit
        return 2**63 - 1


def _alloc(shape: tuple[int, ...], dtype: type, what: str) -> np.ndarray:
    """``np.empty``, or a ValueError that says what could not be had."""
    size = int(np.prod(shape, dtype=object)) * np.dtype(dtype).itemsize
    if size > _memory_bytes():
        raise ValueError(f"{what} need {size} bytes, more than this machine's memory")
    try:
        return np.empty(shape, dtype)
    except MemoryError:
        raise ValueError(f"{what} need {size} bytes, more than can be had") from None


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
        self._width = check_width(width)
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
        self._plain = schedule is None and params.loops == 0.0 and params.rooms == 0.0
        # bands with loops or rooms are made whole (and held whole by a stream)
        whole = params.loops > 0.0 or params.rooms > 0.0
        self._whole = whole if schedule is None else schedule.makes_whole(params)

    @classmethod
    def from_params(
        cls, width: int, band: int, seed: int | None, params: BandParams, schedule: Schedule | None = None
    ) -> InfiniteMaze:
        """The maze of these dimensions, seed, parameter value and schedule."""
        maze = cls.__new__(cls)
        maze._set(width, band, seed, params, schedule)
        return maze

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
            call(bk.bands_stream_rows, left, right, out, self._key, band_u64, y, k, ths, doors, parent)
            return
        call(
            bk.band_stream_rows, left, right, out, self._key, band_u64, y, self._band, self._th, doors, parent
        )

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
        every core and gives the same bytes.  ``out``, if given, is a
        C-contiguous writeable uint8 array of that shape to fill instead.
        Ctrl-C interrupts a long range within milliseconds.

        >>> import eller_stream as es
        >>> maze = es.InfiniteMaze(8, band=4, seed=3)
        >>> whole = maze.rows(-5, 9)
        >>> bool((whole[5:] == maze.rows(0, 9)).all())
        True
        """
        start = check_row("start", start)
        stop = check_int("stop", stop, -ROW_LIMIT, ROW_LIMIT)
        if stop <= start:
            raise ValueError(f"stop must be greater than start, got start={start}, stop={stop}")
        n = stop - start
        if out is None:
            out = _alloc((n, self._width), np.uint8, f"stop - start = {n} rows of width {self._width}")
        else:
            check_grid_buffer("out", out, (n, self._width))
        if not self._plain:
            self._level_rows(start, out)
            return out
        head = min(n, -start % self._band)  # the rows before the first whole band
        if head:
            fill(self._kernel, self._seek(start), out[:head])
        if head < n:
            self._bands(start + head, out[head:])
        return out

    def _bands(self, row: int, out: np.ndarray) -> None:
        """``out``'s rows from row ``row``, a band's first row: bands shared
        among numba's threads when they are many, in calls of about
        ``CALL_CELLS`` cells a thread."""
        band_cells = self._band * self._width
        threads = numba.get_num_threads()
        scratch = None
        if (
            out.shape[0] > self._band
            and out.size >= _PARALLEL_CELLS
            and threads > 1
            and band_cells <= _PARALLEL_BAND_CELLS
            and not _parallel[1]
        ):
            w, what = self._width, "the threads' scratch rows"
            try:
                scratch = (
                    _alloc((threads, w + LR_PAD), np.int32, what),
                    _alloc((threads, w + LR_PAD), np.int32, what),
                    _alloc((threads, w), np.uint8, what),
                    _alloc((threads, w + 1), np.int32, what),
                )
            except ValueError:
                scratch = None  # one core, then
        if scratch is None:
            ones = np.arange(self._width + LR_PAD, dtype=np.int32)
            fill(self._kernel, Sets(row, ones, ones.copy()), out)
            return
        per_call = self._band * max(threads, threads * CALL_CELLS // band_cells)
        for lo in range(0, out.shape[0], per_call):
            band = np.uint64(((row + lo) // self._band) & _MASK64)
            with _parallel_lock:
                _parallel[0] = True
                call(
                    bk.band_rows_parallel,
                    out[lo : lo + per_call],
                    self._key,
                    band,
                    self._band,
                    self._th,
                    *scratch,
                )

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
        out = _alloc((self._band, w), np.uint8, f"a band of {self._band} rows of width {w}")
        left = np.empty(w + LR_PAD, np.int32)
        right = np.empty(w + LR_PAD, np.int32)
        doors = np.empty(w, np.uint8)
        parent = np.empty(w + 1, np.int32)
        band_u64 = np.uint64(b & _MASK64)
        call(bk.bands_rows, out, self._key, band_u64, self._band, self._ths(b, 1), left, right, doors, parent)
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
            self._level_bands(start + head, out[head : head + whole])
        if head + whole < n:
            self._band_part((start + head + whole) // k, 0, out[head + whole :])

    def _level_bands(self, row: int, out: np.ndarray) -> None:
        """``out``'s whole bands from row ``row``, a band's first row: as
        :meth:`_bands`, with :func:`bands_rows` / :func:`bands_rows_parallel`
        and the bands' own thresholds."""
        k, w = self._band, self._width
        band_cells = k * w
        threads = numba.get_num_threads()
        scratch = None
        if (
            out.shape[0] > k
            and out.size >= _PARALLEL_CELLS
            and threads > 1
            and band_cells <= _PARALLEL_BAND_CELLS
            and not _parallel[1]
        ):
            what = "the threads' scratch rows"
            try:
                scratch = (
                    _alloc((threads, w + LR_PAD), np.int32, what),
                    _alloc((threads, w + LR_PAD), np.int32, what),
                    _alloc((threads, w), np.uint8, what),
                    _alloc((threads, w + 1), np.int32, what),
                )
            except ValueError:
                scratch = None  # one core, then
        if scratch is None:
            per_call = k * max(1, CALL_CELLS // band_cells)
            left, right = np.empty(w + LR_PAD, np.int32), np.empty(w + LR_PAD, np.int32)
            doors, parent = np.empty(w, np.uint8), np.empty(w + 1, np.int32)
            for lo in range(0, out.shape[0], per_call):
                b = (row + lo) // k
                chunk = out[lo : lo + per_call]
                band = np.uint64(b & _MASK64)
                ths = self._ths(b, chunk.shape[0] // k)
                call(bk.bands_rows, chunk, self._key, band, k, ths, left, right, doors, parent)
            return
        per_call = k * max(threads, threads * CALL_CELLS // band_cells)
        for lo in range(0, out.shape[0], per_call):
            b = (row + lo) // k
            chunk = out[lo : lo + per_call]
            band = np.uint64(b & _MASK64)
            ths = self._ths(b, chunk.shape[0] // k)
            with _parallel_lock:
                _parallel[0] = True
                call(bk.bands_rows_parallel, chunk, self._key, band, k, ths, *scratch)

    def room_rects(self, start: int, stop: int) -> np.ndarray:
        """The rooms that meet rows ``start`` to ``stop - 1``, as an ``(n, 4)``
        int64 array of ``(top_row, left_col, height, width)`` (absolute
        rows), band by band, each band's in the order they were placed.

        >>> import eller_stream as es
        >>> maze = es.InfiniteMaze(30, band=10, seed=1, rooms=0.2)
        >>> rects = maze.room_rects(0, 10)
        >>> bool(len(rects) and (rects[:, 0] + rects[:, 2] <= 8).all())  # off the band's last two rows
        True
        """
        start = check_row("start", start)
        stop = check_int("stop", stop, -ROW_LIMIT, ROW_LIMIT)
        if stop <= start:
            raise ValueError(f"stop must be greater than start, got start={start}, stop={stop}")
        k, w = self._band, self._width
        found = [np.empty((0, 4), np.int64)]
        if self._whole:
            scratch = _alloc((k, w), np.uint8, f"a band of {k} rows of width {w}")
            for b in range(start // k, (stop - 1) // k + 1):
                th = self._ths(b, 1)[0]
                if th[bk.TH_ROOM] == 0:
                    continue
                rects = np.empty((16 + k * w // 5, 4), np.int64)  # at most one room an attempt
                n = call(bk.band_rooms, scratch, self._key, np.uint64(b & _MASK64), th, rects)
                rects = rects[:n]
                rects[:, 0] += b * k
                found.append(rects[(rects[:, 0] < stop) & (rects[:, 0] + rects[:, 2] > start)])
        return np.ascontiguousarray(np.concatenate(found))

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


class BandedStream(RowStream):
    """The rows of an :class:`InfiniteMaze` one at a time, from a start row,
    with O(width) memory (O(band x width) with loops: a braid changes a
    band's rows until the band is done, so the stream holds one band).
    Rows taken from a start at a band's first row, then :meth:`finish`,
    form a perfect maze (connected, with its loops, when ``loops > 0``).

    Every call leaves the stream as it was before the call if it raises
    (or is interrupted), a lock makes it safe to share between threads,
    and it pickles (through :meth:`checkpoint`).

    >>> import eller_stream as es
    >>> s = es.InfiniteMaze(5, band=3, seed=4).stream(start=-2)
    >>> s.row, s.take(4).shape, s.row, s.rows_emitted
    (-2, (4, 5), 2, 4)
    """

    def __init__(self, maze: InfiniteMaze, start: int = 0) -> None:
        if not isinstance(maze, InfiniteMaze):
            raise TypeError(f"maze must be an InfiniteMaze, got {type(maze).__name__}")
        self._at(maze, check_row("start", start), start)

    def _at(self, maze: InfiniteMaze, start: int, row: int) -> None:
        """Begin at row ``row`` (up to ``ROW_LIMIT``: a resumed stream may be
        past the last row), counting from ``start``."""
        self._maze = maze
        self._width = maze.width
        self._start = start
        self._held: tuple[int, np.ndarray] | None = None  # with loops: the last band braided
        self._begin(maze._seek(row), ROW_LIMIT)

    @property
    def maze(self) -> InfiniteMaze:
        """The maze whose rows this stream hands out."""
        return self._maze

    @property
    def seed(self) -> int:
        """The maze's seed."""
        return self._maze.seed

    @property
    def band(self) -> int:
        """The maze's rows per band."""
        return self._maze.band

    @property
    def params(self) -> BandParams:
        """The maze's parameters."""
        return self._maze.params

    @property
    def horizontal(self) -> float:
        """The maze's horizontal probability."""
        return self._maze.horizontal

    @property
    def vertical(self) -> float:
        """The maze's vertical probability."""
        return self._maze.vertical

    @property
    def start(self) -> int:
        """The row the stream started at."""
        return self._start

    @property
    def row(self) -> int:
        """The number of the next row the stream hands out."""
        return self._next_row()

    @property
    def rows_emitted(self) -> int:
        """Rows handed out so far, the closing row included."""
        return self._next_row() - self._start + self._closed

    def __repr__(self) -> str:
        return f"BandedStream({self._maze!r}, start={self._start}, rows_emitted={self.rows_emitted})"

    # -- the kernel --------------------------------------------------------
    def _kernel(self, left: np.ndarray, right: np.ndarray, out: np.ndarray, row: int) -> None:
        maze = self._maze
        maze._kernel(left, right, out, row)  # the sets (for finish()) are those of the plain rows
        if maze._whole:
            # a braid changes a band's rows until the band is done: the stream
            # makes each band with loops whole (it holds one) and hands out its rows
            k, i = maze.band, 0
            while i < out.shape[0]:
                b, y = divmod(row + i, k)
                m = min(out.shape[0] - i, k - y)
                if maze._whole_in(b):
                    if self._held is None or self._held[0] != b:
                        self._held = (b, maze._whole_band(b))
                    out[i : i + m] = self._held[1][y : y + m]
                i += m

    def _close(self, sets: Sets) -> np.ndarray:
        left, right = sets.left.copy(), sets.right.copy()
        maze = self._maze
        b, y = divmod(sets.row, maze.band)
        if y and maze._whole_in(b):  # the sets of the rows with their rooms and loops, not the plain ones
            if self._held is None or self._held[0] != b:
                self._held = (b, maze._whole_band(b))
            call(bk.band_row_sets, self._held[1][:y], left, right)
        row = np.empty(self._width, np.uint8)
        call(k.eller_close, left, right, row)
        return row

    def _end_error(self) -> Exception:
        return ValueError(f"the stream cannot pass row {ROW_LIMIT - 1}")

    def _end_text(self) -> str:
        return f"row {ROW_LIMIT - 1}"

    # -- checkpoints -------------------------------------------------------
    def _checkpoint(self) -> bytes:
        m = self._maze
        state = _checkpoint.BandedState(
            m.width, m.band, m.seed, m.params, self._start, self._next_row() - self._start, m.schedule
        )
        return _checkpoint.pack_banded(state)

    @classmethod
    def resume(cls, data: bytes | bytearray | memoryview) -> BandedStream:
        """A stream that continues from :meth:`checkpoint` bytes.

        Raises ``ValueError`` for truncated, altered or foreign bytes.

        >>> import eller_stream as es
        >>> s = es.InfiniteMaze(5, band=3, seed=9).stream(start=-4)
        >>> _ = s.take(5)
        >>> t = es.BandedStream.resume(s.checkpoint())
        >>> bool((t.take(4) == s.take(4)).all())
        True
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"data must be bytes from BandedStream.checkpoint(), got {type(data).__name__}")
        state = _checkpoint.unpack_banded(bytes(data))
        stream = cls.__new__(cls)
        maze = InfiniteMaze.from_params(state.width, state.band, state.seed, state.params, state.schedule)
        stream._at(maze, state.start, state.start + state.rows)
        return stream
