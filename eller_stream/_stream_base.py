"""What the two streams share: rows handed out one at a time or in blocks,
the closing row, checkpoints, a lock, and one design for exceptions.

A stream's kernel state is a :class:`Sets`: the row counter and the
``left``/``right`` lists of the row sets (see ``_eller_kernels``).  A
subclass supplies only its kernel step (:meth:`RowStream._kernel`), its
closing row and its checkpoint format.

Exceptions (``KeyboardInterrupt`` included): every call works on copies
and changes the stream in one assignment at its end, so a call that raises
leaves the stream as it was.  Long jobs run in kernel calls of at most
:data:`CALL_CELLS` cells, so that Ctrl-C lands between two of them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from . import _engine as engine
from ._validate import check_grid_buffer, check_int

__all__ = ["CALL_CELLS", "RowStream", "Sets", "closed_rows", "fill"]

BLOCK_BYTES = 1 << 16  # rows that next() generates at a time: about this many bytes
CALL_CELLS = 1 << 22  # cells one kernel call makes at most (a few ms): Ctrl-C waits no longer


class Sets(NamedTuple):
    """The kernel state before row ``row`` (the stream's counter)."""

    row: int
    left: np.ndarray
    right: np.ndarray


def fill(kernel: Any, sets: Sets, out: np.ndarray) -> Sets:
    """The state after ``kernel`` wrote ``out``'s rows from ``sets`` (left
    untouched), in calls of at most :data:`CALL_CELLS` cells.

    ``kernel(left, right, out, row)`` writes ``out``'s rows from the state
    before row ``row`` and leaves ``left``/``right`` after them."""
    left, right = sets.left.copy(), sets.right.copy()
    row = sets.row
    n, width = out.shape
    step = max(1, CALL_CELLS // max(width, 1))
    for i in range(0, n, step):
        chunk = out[i : i + step]
        kernel(left, right, chunk, row)
        row += chunk.shape[0]
    return Sets(row, left, right)


class RowStream(Iterator[np.ndarray]):
    """The base of :class:`~eller_stream.EllerStream` and
    :class:`~eller_stream.BandedStream`.

    Subclasses set ``_width`` and call :meth:`_begin` with the first state
    and the counter's end, and implement :meth:`_kernel`, :meth:`_close`,
    :meth:`_checkpoint` and :meth:`_end_error`.
    """

    _width: int

    def _begin(self, sets: Sets, end: int) -> None:
        self._end = end  # the counter never passes it
        self._gen = sets  # the state after every row generated (the block included)
        self._before: Sets | None = None  # the state before the block
        self._block: np.ndarray | None = None  # rows generated ahead for next()
        self._pos = 0  # rows of the block handed out
        self._closed = False
        self._block_rows = max(1, min(4096, BLOCK_BYTES // self._width))
        self._lock = threading.Lock()  # one call at a time (held per call, not per row)

    # -- what a subclass supplies ------------------------------------------
    def _kernel(self, left: np.ndarray, right: np.ndarray, out: np.ndarray, row: int) -> None:
        raise NotImplementedError

    def _close(self, sets: Sets) -> np.ndarray:
        raise NotImplementedError

    def _checkpoint(self) -> bytes:
        raise NotImplementedError

    def _end_error(self) -> Exception:
        """What next() raises when the counter is at its end."""
        raise NotImplementedError

    def _engines(self) -> list[object]:
        """The kernels of :mod:`eller_stream._engine` that :meth:`_kernel` calls."""
        return []

    def _first_rows(self, room: int) -> int:
        """Rows of the next block that next() generates: short ones while numba
        gets a kernel of :meth:`_engines` ready (its lean twin makes them), so
        that the first row comes at once."""
        cold = any(engine.cold(kernel) for kernel in self._engines())
        return min(engine.COLD_ROWS if cold else self._block_rows, room)

    # -- shared ------------------------------------------------------------
    @property
    def width(self) -> int:
        """Cells per row."""
        return self._width

    @property
    def closed(self) -> bool:
        """True once :meth:`finish` has emitted the closing row."""
        return self._closed

    def _committed(self) -> tuple[int, bool]:
        """The counter of the next row and whether the stream is closed, as one
        call left them (read under the lock: a reader never sees a call's
        attributes half assigned)."""
        with self._lock:
            return self._next_row(), self._closed

    def _next_row(self) -> int:
        """The counter of the next row to hand out (the lock held)."""
        if self._block is None:
            return self._gen.row
        return self._gen.row - int(self._block.shape[0]) + self._pos

    def _fill(self, sets: Sets, out: np.ndarray) -> Sets:
        return fill(self._kernel, sets, out)

    def _sets_now(self) -> Sets:
        """The state before the next row to hand out: the block's rows
        handed out, replayed from the state before it (at most a block)."""
        block, before = self._block, self._before
        if block is None or before is None or self._pos == block.shape[0]:
            return self._gen
        return self._fill(before, np.empty((self._pos, self._width), np.uint8))

    def _check_open(self, action: str) -> None:
        if self._closed:
            raise RuntimeError(f"cannot {action}: the stream is closed (finish() was called)")

    def __iter__(self) -> RowStream:
        return self

    def __next__(self) -> np.ndarray:
        with self._lock:
            block, pos = self._block, self._pos
            if self._closed:
                raise StopIteration
            if block is not None and pos < block.shape[0]:
                self._pos = pos + 1
                row: np.ndarray = block[pos].copy()  # a copy: the block's rows ahead stay the stream's own
                return row
            room = self._end - self._gen.row
            if room <= 0:
                raise self._end_error()
            before = self._gen
            new = np.empty((self._first_rows(room), self._width), np.uint8)
            gen = self._fill(before, new)
            self._gen, self._before, self._block, self._pos = gen, before, new, 1
            first: np.ndarray = new[0].copy()
            return first

    def take(self, n: int, out: np.ndarray | None = None) -> np.ndarray:
        """The next ``n`` rows as a C-contiguous ``(n, width)`` uint8 array.

        ``out``, if given, is a C-contiguous, writeable ``(n, width)`` uint8
        array to fill (and return) instead of a new one: streaming through
        one buffer keeps memory flat.

        >>> import eller_stream as es
        >>> es.EllerStream(width=6, seed=3).take(4).shape
        (4, 6)
        """
        n = check_int("n", n, 0)
        buf = None if out is None else check_grid_buffer("out", out, (n, self._width))
        with self._lock:
            self._check_open("take rows")
            if n > self._end - self._next_row():
                raise ValueError(f"n={n} would take the stream past {self._end_text()}")
            if buf is None:
                buf = np.empty((n, self._width), np.uint8)
            block, pos, gen = self._block, self._pos, self._gen
            done = 0
            if block is not None:
                done = min(n, block.shape[0] - pos)
                buf[:done] = block[pos : pos + done]
            if done < n:
                gen = self._fill(gen, buf[done:])
            if block is not None and pos + done < block.shape[0]:
                self._pos = pos + done
            else:
                self._gen, self._before, self._block, self._pos = gen, None, None, 0
            return buf if out is None else out

    def _end_text(self) -> str:
        return f"its {self._end} rows"

    def finish(self) -> np.ndarray:
        """Emit the closing row, which joins every remaining set, and close
        the stream.

        >>> import eller_stream as es
        >>> es.EllerStream(width=4, seed=0).finish().tolist()
        [1, 1, 1, 0]
        """
        with self._lock:
            self._check_open("finish")
            row = self._close(self._sets_now())
            self._closed = True
            return row

    def checkpoint(self) -> bytes:
        """The stream's position as bytes of O(width) size (versioned, with a
        checksum); the class's ``resume`` continues exactly where this stream
        is."""
        with self._lock:
            self._check_open("checkpoint")
            return self._checkpoint()

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        """Pickling goes through :meth:`checkpoint` (a closed stream cannot
        be pickled: there is nothing left to resume)."""
        return (type(self).resume, (self.checkpoint(),))  # type: ignore[attr-defined]  # each subclass has resume


def closed_rows(stream: RowStream, n: int) -> np.ndarray:
    """A whole ``(n, width)`` maze from a stream: its next ``n - 1`` rows,
    then its closing row (the stream is closed after).

    >>> import eller_stream as es
    >>> grid = es.closed_rows(es.InfiniteMaze(5, band=4, seed=1).stream(), 6)
    >>> grid.shape, es.is_perfect(grid)
    ((6, 5), True)
    """
    if not isinstance(stream, RowStream):
        raise TypeError(f"stream must be an EllerStream or a BandedStream, got {type(stream).__name__}")
    n = check_int("n", n, 1)
    grid = np.empty((n, stream.width), np.uint8)
    stream.take(n - 1, out=grid[:-1])
    grid[-1] = stream.finish()
    return grid
