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
from collections.abc import Iterator

import numba
import numpy as np

from . import _band_kernels as bk
from . import _checkpoint
from . import _eller_kernels as k
from ._eller_kernels import LR_PAD
from ._numba import call
from ._rng import seed_key, threshold
from ._validate import (
    MAX_WIDTH,
    SEED_LIMIT,
    check_grid_buffer,
    check_int,
    check_probability,
    check_seed,
    check_width,
)

__all__ = ["DEFAULT_DOORS", "ROW_LIMIT", "BandedStream", "InfiniteMaze"]

DEFAULT_DOORS = 0.45  # closest seams to the interior rows (benchmarks/seams.py)
ROW_LIMIT = 2**63  # rows are numbered in [-ROW_LIMIT, ROW_LIMIT)
MAX_BAND = 2**62
_MASK64 = 2**64 - 1
_PARALLEL_CELLS = 1 << 17  # a range of at least this many cells (and two bands) uses every core
_BLOCK_BYTES = 1 << 16  # rows that next() generates at a time: about this many bytes
_parallel_lock = threading.Lock()  # numba's default thread pool takes one parallel call at a time



# A band's first row starts with every cell a set of its own, so with the
# user's probabilities it would join and open more than the rows below it
# (EAST 0.50 against 0.40 at the defaults): it takes these factors of them,
# measured with benchmarks/seams.py to make it look like the others.
FIRST_JOIN = 0.8
FIRST_OPEN = 0.6


def _thresholds(horizontal: float, vertical: float, doors: float) -> np.ndarray:
    """The kernels' thresholds array (``_band_kernels.TH_*``)."""
    th = np.empty(bk.N_THRESHOLDS, np.uint64)
    th[bk.TH_JOIN] = threshold(horizontal)
    th[bk.TH_OPEN] = threshold(vertical)
    th[bk.TH_DOOR] = threshold(doors)
    th[bk.TH_JOIN_FIRST] = threshold(horizontal * FIRST_JOIN)
    th[bk.TH_OPEN_FIRST] = threshold(vertical * FIRST_OPEN)
    return th


def _check_doors(doors: object) -> float:
    if doors is None:
        return DEFAULT_DOORS
    result = check_probability("doors", doors)
    if result == 0.0:
        raise ValueError("doors must be in (0, 1], got 0.0")
    return result


def _check_row(name: str, value: object) -> int:
    return check_int(name, value, -ROW_LIMIT, ROW_LIMIT)


def _memory_bytes() -> int:
    """The machine's physical memory (a range larger than it is refused)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not on this platform: only numpy's own limit
        return 2**63 - 1


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
        Rows per band, at least 2 (default 32): the bound on the detour.
    seed:
        An int in ``[0, 2**64)``; ``None`` draws one from OS entropy.
    horizontal, vertical:
        Eller's probabilities, as for :class:`EllerStream`.
    doors:
        Probability that a column is a door between two bands, in ``(0, 1]``
        (every seam has at least one door); ``None``: :data:`DEFAULT_DOORS`,
        chosen so that the rows at the seams look like the others.

    >>> import eller_stream as es
    >>> maze = es.InfiniteMaze(width=5, band=3, seed=7)
    >>> grid = maze.rows(0, 6)
    >>> bool((grid[2::3] & es.SOUTH).any(axis=1).all())  # each band's last row opens at its doors
    True
    >>> maze.band, maze.width
    (3, 5)
    """

    def __init__(
        self,
        width: int,
        band: int = 32,
        seed: int | None = None,
        horizontal: float = 0.5,
        vertical: float = 0.5,
        doors: float | None = None,
    ) -> None:
        self._width = check_width(width)
        self._band = check_int("band", band, 2, MAX_BAND)
        self._seed = check_seed(seed)
        self._horizontal = check_probability("horizontal", horizontal)
        self._vertical = check_probability("vertical", vertical)
        self._doors = _check_doors(doors)
        self._key = seed_key(self._seed)
        self._th = _thresholds(self._horizontal, self._vertical, self._doors)

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
    def horizontal(self) -> float:
        """Probability of joining side-by-side cells of different sets."""
        return self._horizontal

    @property
    def vertical(self) -> float:
        """Probability of an optional downward opening."""
        return self._vertical

    @property
    def doors(self) -> float:
        """Probability that a column is a door between two bands."""
        return self._doors

    def __repr__(self) -> str:
        return (
            f"InfiniteMaze(width={self._width}, band={self._band}, seed={self._seed}, "
            f"horizontal={self._horizontal}, vertical={self._vertical}, doors={self._doors})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InfiniteMaze):
            return NotImplemented
        return self._params() == other._params()

    def __hash__(self) -> int:
        return hash(self._params())

    def _params(self) -> tuple[int, int, int, float, float, float]:
        return (self._width, self._band, self._seed, self._horizontal, self._vertical, self._doors)

    # -- rows --------------------------------------------------------------
    def _kernel_args(self) -> tuple[np.uint64, np.ndarray]:
        return self._key, self._th

    def rows(self, start: int, stop: int, out: np.ndarray | None = None) -> np.ndarray:
        """Rows ``start`` to ``stop - 1`` as a C-contiguous ``(stop - start,
        width)`` uint8 array; any ints with ``start < stop`` (negative too).

        Only the bands the range touches are generated; a long range uses
        every core and gives the same bytes.  ``out``, if given, is a
        C-contiguous writeable uint8 array of that shape to fill instead.

        >>> import eller_stream as es
        >>> maze = es.InfiniteMaze(8, band=4, seed=3)
        >>> whole = maze.rows(-5, 9)
        >>> bool((whole[5:] == maze.rows(0, 9)).all())
        True
        """
        start = _check_row("start", start)
        stop = _check_row("stop", stop)
        if stop <= start:
            raise ValueError(f"stop must be greater than start, got start={start}, stop={stop}")
        n = stop - start
        if out is None:
            size = n * self._width
            if size > _memory_bytes():
                raise ValueError(
                    f"stop - start = {n} rows of width {self._width} need {size} bytes, "
                    "more than this machine's memory"
                )
            try:
                out = np.empty((n, self._width), np.uint8)
            except MemoryError:
                raise ValueError(
                    f"stop - start = {n} rows of width {self._width} need {size} bytes, more than can be had"
                ) from None
        else:
            check_grid_buffer("out", out, (n, self._width))
        band0, first = divmod(start, self._band)
        band0_u64 = np.uint64(band0 & _MASK64)
        n_bands = (first + n + self._band - 1) // self._band
        if n_bands > 1 and out.size >= _PARALLEL_CELLS and numba.get_num_threads() > 1:
            with _parallel_lock:
                call(bk.band_rows_parallel, out, self._key, band0_u64, first, self._band, self._th)
        else:
            call(bk.band_rows, out, self._key, band0_u64, first, self._band, self._th)
        return out

    def __getitem__(self, index: int | slice) -> np.ndarray:
        """``maze[a:b]`` is ``maze.rows(a, b)``; ``maze[r]`` is row ``r`` (a
        negative ``r`` is a row above row 0, not one counted from an end)."""
        if isinstance(index, slice):
            if index.step not in (None, 1):
                raise ValueError(f"a slice of rows takes no step, got step {index.step!r}")
            if index.start is None or index.stop is None:
                raise ValueError("the maze is infinite: a slice of rows needs both start and stop")
            return self.rows(index.start, index.stop)
        row = _check_row("index", index)
        return self.rows(row, row + 1)[0]

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


class BandedStream(Iterator[np.ndarray]):
    """The rows of an :class:`InfiniteMaze` one at a time, from a start row,
    with O(width) memory.  Rows taken from a start at a band's first row,
    then :meth:`finish`, form a perfect maze.

    Every call leaves the stream as it was before the call if it raises
    (or is interrupted), and a lock makes it safe to share between threads.
    """

    def __init__(self, maze: InfiniteMaze, start: int = 0) -> None:
        if not isinstance(maze, InfiniteMaze):
            raise TypeError(f"maze must be an InfiniteMaze, got {type(maze).__name__}")
        self._maze = maze
        self._start = _check_row("start", start)
        if self._start >= ROW_LIMIT:
            raise ValueError(f"start must be below {ROW_LIMIT}, got {self._start}")
        width = maze.width
        self._lock = threading.RLock()
        self._scratch = (np.empty(width, np.uint8), np.empty(width + 1, np.int32))  # doors, parent
        # (row, left, right): the sets before row ``row``, the next to generate
        self._block_rows = max(1, min(4096, _BLOCK_BYTES // width))
        self._gen = self._state_at(self._start)
        self._block: np.ndarray | None = None  # rows generated ahead for next()
        self._pos = 0  # rows of the block handed out
        self._closed = False

    @property
    def maze(self) -> InfiniteMaze:
        """The maze whose rows this stream hands out."""
        return self._maze

    @property
    def width(self) -> int:
        """Cells per row."""
        return self._maze.width

    @property
    def seed(self) -> int:
        """The maze's seed."""
        return self._maze.seed

    @property
    def horizontal(self) -> float:
        """The maze's horizontal probability."""
        return self._maze.horizontal

    @property
    def vertical(self) -> float:
        """The maze's vertical probability."""
        return self._maze.vertical

    @property
    def band(self) -> int:
        """The maze's rows per band."""
        return self._maze.band

    @property
    def doors(self) -> float:
        """The maze's share of door columns."""
        return self._maze.doors

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

    @property
    def closed(self) -> bool:
        """True once :meth:`finish` has emitted the closing row."""
        return self._closed

    def __repr__(self) -> str:
        return f"BandedStream({self._maze!r}, start={self._start}, rows_emitted={self.rows_emitted})"

    # -- generation --------------------------------------------------------
    def _next_row(self) -> int:
        if self._block is None:
            return self._gen[0]
        return self._gen[0] - self._block.shape[0] + self._pos

    def _identity(self) -> np.ndarray:
        return np.arange(self.width + LR_PAD, dtype=np.int32)

    def _run(
        self, state: tuple[int, np.ndarray, np.ndarray], out: np.ndarray
    ) -> tuple[int, np.ndarray, np.ndarray]:
        """The state after generating ``out``'s rows from ``state`` (which is
        left untouched: the kernel works on copies)."""
        row, left, right = state
        end = row + out.shape[0]
        if end > ROW_LIMIT:
            raise ValueError(f"the stream cannot pass row {ROW_LIMIT - 1}")
        left, right = left.copy(), right.copy()
        band, y = divmod(row, self._maze.band)
        key, th = self._maze._kernel_args()
        doors, parent = self._scratch
        band_u64 = np.uint64(band & _MASK64)
        call(bk.band_stream_rows, left, right, out, key, band_u64, y, self._maze.band, th, doors, parent)
        return end, left, right

    def _state_at(self, row: int) -> tuple[int, np.ndarray, np.ndarray]:
        """The sets before row ``row``: its band's rows above it, replayed
        through one scratch block of at most ``_BLOCK_BYTES`` (a band can be
        far taller than the memory a stream may take)."""
        first = row - row % self._maze.band
        state = (first, self._identity(), self._identity())
        if row > first:
            scratch = np.empty((min(row - first, self._block_rows), self.width), np.uint8)
            while state[0] < row:
                state = self._run(state, scratch[: min(len(scratch), row - state[0])])
        return state

    def _state_now(self) -> tuple[int, np.ndarray, np.ndarray]:
        """The sets before the next row to hand out."""
        if self._block is None:
            return self._gen
        return self._state_at(self._next_row())

    def _check_open(self, action: str) -> None:
        if self._closed:
            raise RuntimeError(f"cannot {action}: the stream is closed (finish() was called)")

    def __iter__(self) -> BandedStream:
        return self

    def __next__(self) -> np.ndarray:
        with self._lock:
            if self._closed:
                raise StopIteration
            block = self._block
            if block is not None and self._pos < block.shape[0]:
                self._pos += 1
                return block[self._pos - 1]
            n = min(self._block_rows, ROW_LIMIT - self._gen[0])
            if n <= 0:
                raise ValueError(f"the stream cannot pass row {ROW_LIMIT - 1}")
            new_block = np.empty((n, self.width), np.uint8)
            gen = self._run(self._gen, new_block)
            self._gen, self._block, self._pos = gen, new_block, 1
            return new_block[0]

    def take(self, n: int, out: np.ndarray | None = None) -> np.ndarray:
        """The next ``n`` rows as a C-contiguous ``(n, width)`` uint8 array
        (``out``, if given, is filled and returned instead).

        >>> import eller_stream as es
        >>> es.InfiniteMaze(6, band=4, seed=3).stream(start=-1).take(3).shape
        (3, 6)
        """
        n = check_int("n", n, 0)
        with self._lock:
            self._check_open("take rows")
            if out is None:
                out = np.empty((n, self.width), np.uint8)
            else:
                check_grid_buffer("out", out, (n, self.width))
            block, pos, gen = self._block, self._pos, self._gen
            done = 0
            if block is not None:
                done = min(n, block.shape[0] - pos)
                out[:done] = block[pos : pos + done]
            if done < n:
                gen = self._run(gen, out[done:])
            if block is not None and pos + done < block.shape[0]:
                self._pos = pos + done
            else:
                self._gen, self._block, self._pos = gen, None, 0
            return out

    def finish(self) -> np.ndarray:
        """Emit the closing row, which joins every remaining set, and close
        the stream.

        >>> import eller_stream as es
        >>> s = es.InfiniteMaze(4, band=2, seed=0).stream()
        >>> int(s.finish()[-1])
        0
        """
        with self._lock:
            self._check_open("finish")
            _row, left, right = self._state_now()
            left, right = left.copy(), right.copy()
            row = np.empty(self.width, np.uint8)
            call(k.eller_close, left, right, row)
            self._closed = True
            return row

    # -- checkpoints -------------------------------------------------------
    def checkpoint(self) -> bytes:
        """The stream's position as a few bytes (versioned, with a checksum):
        the maze's parameters, the start row and the rows handed out.

        >>> import eller_stream as es
        >>> s = es.InfiniteMaze(5, band=3, seed=9).stream(start=-4)
        >>> _ = s.take(5)
        >>> t = es.BandedStream.resume(s.checkpoint())
        >>> bool((t.take(4) == s.take(4)).all())
        True
        """
        with self._lock:
            self._check_open("checkpoint")
            m = self._maze
            body = _checkpoint.BANDED_HEADER.pack(
                _checkpoint.BANDED_MAGIC,
                _checkpoint.BANDED_VERSION,
                0,
                m.width,
                m.band,
                m.seed,
                m.horizontal,
                m.vertical,
                m.doors,
                self._start,
                self._next_row() - self._start,
            )
            return _checkpoint.seal(body)

    @classmethod
    def resume(cls, data: bytes | bytearray | memoryview) -> BandedStream:
        """A stream that continues from :meth:`checkpoint` bytes.

        Raises ``ValueError`` for truncated, altered or foreign bytes.
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"data must be bytes from BandedStream.checkpoint(), got {type(data).__name__}")
        header = _checkpoint.BANDED_HEADER
        data = bytes(data)
        if len(data) != header.size + _checkpoint.DIGEST:
            raise ValueError("data is not a banded-stream checkpoint")
        body = _checkpoint.unseal(
            data, _checkpoint.BANDED_MAGIC, header.size, "a banded-stream checkpoint", "checkpoint data"
        )
        _magic, version, flags, width, band, seed, h, v, doors, start, rows = header.unpack(body)
        if version != _checkpoint.BANDED_VERSION or flags != 0:
            raise ValueError(f"checkpoint version {version} (flags {flags}) is not supported")
        if (
            not 1 <= width <= MAX_WIDTH
            or not 2 <= band <= MAX_BAND
            or seed >= SEED_LIMIT
            or not (0.0 <= h <= 1.0 and 0.0 <= v <= 1.0 and 0.0 < doors <= 1.0)
            or start + rows >= ROW_LIMIT
        ):
            raise ValueError("checkpoint data is corrupt (parameters out of range)")
        return InfiniteMaze(width, band, seed, h, v, doors).stream(start + rows)._rebased(start)

    def _rebased(self, start: int) -> BandedStream:
        """This stream, counting its rows from ``start`` (for resume)."""
        self._start = start
        return self
