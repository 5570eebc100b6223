"""Eller's algorithm as an endless stream of maze rows.

>>> import eller_stream as es
>>> s = es.EllerStream(width=4, seed=1)
>>> s.take(2).shape
(2, 4)
>>> grid = es.eller(width=5, height=3, seed=7)
>>> es.is_perfect(grid)
True
"""

from __future__ import annotations

import numpy as np

from . import _checkpoint
from . import _engine as engine
from . import _parallel as par
from ._checkpoint import ELLER_MAX_ROWS as MAX_ROWS
from ._eller_kernels import LR_PAD
from ._numba import call
from ._rng import seed_key, threshold
from ._stream_base import RowStream, Sets, closed_rows
from ._validate import check_int, check_probability, check_seed, check_width

__all__ = ["EllerStream", "eller"]

_MASK64 = 2**64 - 1


class EllerStream(RowStream):
    """An endless perfect maze, produced one row at a time by Eller's algorithm.

    Rows are ``numpy.uint8`` arrays of shape ``(width,)`` holding the flags
    ``EAST = 1`` and ``SOUTH = 2``.  The state is O(width) however many rows
    pass; :meth:`finish` emits the closing row that makes every row so far a
    perfect maze.

    Parameters
    ----------
    width:
        Cells per row, at least 1.
    seed:
        An int in ``[0, 2**64)``; ``None`` draws one from OS entropy (see
        :attr:`seed`).  The same width, seed and probabilities always give the
        same rows.
    horizontal:
        Probability of joining two side-by-side cells in different sets.
    vertical:
        Probability that a cell opens downward beyond the one opening each
        set must have.

    A stream may be shared by threads: each call (``next()``, ``take()``,
    ``finish()``, ``checkpoint()``) holds the stream's lock, so every row is
    handed out once.  A call that raises, ``KeyboardInterrupt`` included,
    leaves the stream as it was before the call.  A stream pickles (through
    :meth:`checkpoint`).

    >>> import eller_stream as es
    >>> s = es.EllerStream(width=3, seed=42)
    >>> row = next(s)
    >>> row.dtype, row.shape
    (dtype('uint8'), (3,))
    >>> s.rows_emitted
    1
    >>> int(s.finish()[-1] & es.SOUTH)
    0
    """

    def __init__(
        self,
        width: int,
        seed: int | None = None,
        horizontal: float = 0.5,
        vertical: float = 0.5,
    ) -> None:
        self._width = par.check_width_fits(check_width(width))
        self._seed = check_seed(seed)
        self._horizontal = check_probability("horizontal", horizontal)
        self._vertical = check_probability("vertical", vertical)
        self._key = seed_key(self._seed)
        self._join_below = threshold(self._horizontal)
        self._open_below = threshold(self._vertical)
        ones = np.arange(self._width + LR_PAD, dtype=np.int32)  # sets of one cell
        self._begin(Sets(0, ones, ones.copy()), MAX_ROWS)

    # -- public attributes -------------------------------------------------
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
    def rows_emitted(self) -> int:
        """Rows handed out so far, the closing row included."""
        row, closed = self._committed()
        return row + closed

    def __repr__(self) -> str:
        row, closed = self._committed()
        return (
            f"EllerStream(width={self._width}, seed={self._seed}, horizontal={self._horizontal}, "
            f"vertical={self._vertical}, rows_emitted={row + closed}"
            f"{', closed' if closed else ''})"
        )

    # -- the kernel --------------------------------------------------------
    def _kernel(self, left: np.ndarray, right: np.ndarray, out: np.ndarray, row: int) -> None:
        counter = np.uint64((row * self._width) & _MASK64)  # the cell counter wraps modulo 2**64
        call(engine.eller_rows, left, right, out, self._key, counter, self._join_below, self._open_below)

    def _engines(self) -> list[object]:
        return [engine.eller_rows]

    def _close(self, sets: Sets) -> np.ndarray:
        left, right = sets.left.copy(), sets.right.copy()
        row = np.empty(self._width, np.uint8)
        call(engine.eller_close, left, right, row)
        return row

    def _end_error(self) -> Exception:
        return OverflowError(f"the stream has handed out its {MAX_ROWS} rows; only finish() is left")

    # -- checkpoints -------------------------------------------------------
    def _checkpoint(self) -> bytes:
        sets = self._sets_now()
        state = _checkpoint.EllerState(
            self._width, self._seed, self._horizontal, self._vertical, sets.row, sets.left
        )
        return _checkpoint.pack_eller(state)

    @classmethod
    def resume(cls, data: bytes | bytearray | memoryview) -> EllerStream:
        """A stream that continues from :meth:`checkpoint` bytes.

        Raises ``ValueError`` for truncated, altered or foreign bytes.

        >>> import eller_stream as es
        >>> s = es.EllerStream(width=5, seed=9)
        >>> _ = s.take(3)
        >>> t = es.EllerStream.resume(s.checkpoint())
        >>> bool((t.take(4) == s.take(4)).all())
        True
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"data must be bytes from EllerStream.checkpoint(), got {type(data).__name__}")
        state = _checkpoint.unpack_eller(bytes(data))
        width = state.width
        right = np.empty(width + LR_PAD, np.int32)
        left = np.arange(width + LR_PAD, dtype=np.int32)
        left[:width] = state.left
        right[:width][state.left] = np.arange(width, dtype=np.int32)
        right[width:] = left[width:]
        if not call(engine.is_noncrossing_partition, left[:width], right[:width]):
            raise ValueError("checkpoint data is corrupt (row sets are not a valid Eller state)")
        stream = cls(width, state.seed, state.horizontal, state.vertical)
        stream._gen = Sets(state.rows, left, right)
        return stream


def eller(
    width: int,
    height: int,
    seed: int | None = None,
    horizontal: float = 0.5,
    vertical: float = 0.5,
) -> np.ndarray:
    """A whole ``(height, width)`` maze: ``height - 1`` streamed rows and the
    closing row.

    >>> import eller_stream as es
    >>> grid = es.eller(4, 3, seed=5)
    >>> grid.shape, grid.dtype
    ((3, 4), dtype('uint8'))
    >>> bool((grid[-1] & es.SOUTH == 0).all() and (grid[:, -1] & es.EAST == 0).all())
    True
    """
    stream = EllerStream(width, seed, horizontal, vertical)
    return closed_rows(stream, check_int("height", height, 1))
