"""The stream of a banded maze: :class:`BandedStream`, the rows of an
:class:`~eller_stream.InfiniteMaze` one at a time from any row."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _checkpoint
from . import _engine as engine
from ._numba import call
from ._params import BandParams
from ._stream_base import RowStream, Sets
from ._validate import ROW_LIMIT, check_row

if TYPE_CHECKING:
    from .banded import InfiniteMaze

__all__ = ["BandedStream"]


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
        from .banded import InfiniteMaze  # here: banded imports this module

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
        return self._committed()[0]

    @property
    def rows_emitted(self) -> int:
        """Rows handed out so far, the closing row included."""
        row, closed = self._committed()
        return row - self._start + closed

    def __repr__(self) -> str:
        return f"BandedStream({self._maze!r}, start={self._start}, rows_emitted={self.rows_emitted})"

    # -- the kernel --------------------------------------------------------
    def _kernel(self, left: np.ndarray, right: np.ndarray, out: np.ndarray, row: int) -> None:
        maze = self._maze
        if not maze._whole:
            maze._kernel(left, right, out, row)
            return
        # A braid changes a band's rows until the band is done: the stream makes
        # each band with loops or rooms whole (it holds one) and hands out its
        # rows. Their sets are not needed: finish() takes them from the held
        # rows, and a band's end leaves sets of one cell for the next band.
        k, i = maze.band, 0
        while i < out.shape[0]:
            b, y = divmod(row + i, k)
            m = min(out.shape[0] - i, k - y)
            if maze._whole_in(b):
                if self._held is None or self._held[0] != b:
                    self._held = (b, maze._whole_band(b))
                out[i : i + m] = self._held[1][y : y + m]
                if y + m == k:
                    left[:] = right[:] = np.arange(left.shape[0], dtype=left.dtype)
            else:
                maze._kernel(left, right, out[i : i + m], row + i)
            i += m

    def _engines(self) -> list[object]:
        return self._maze._engines()

    def _close(self, sets: Sets) -> np.ndarray:
        left, right = sets.left.copy(), sets.right.copy()
        maze = self._maze
        b, y = divmod(sets.row, maze.band)
        if y and maze._whole_in(b):  # the sets of the rows with their rooms and loops, not the plain ones
            if self._held is None or self._held[0] != b:
                self._held = (b, maze._whole_band(b))
            call(engine.band_row_sets, self._held[1][:y], left, right)
        row = np.empty(self._width, np.uint8)
        call(engine.eller_close, left, right, row)
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
        from .banded import InfiniteMaze  # here: banded imports this module

        state = _checkpoint.unpack_banded(bytes(data))
        stream = cls.__new__(cls)
        maze = InfiniteMaze.from_params(state.width, state.band, state.seed, state.params, state.schedule)
        stream._at(maze, state.start, state.start + state.rows)
        return stream
