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

import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

import numpy as np

from . import _checkpoint, _warm
from ._eller_kernels import LR_PAD, eller_close, eller_rows, is_noncrossing_partition
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

__all__ = ["EllerStream", "eller"]

_MASK64 = 2**64 - 1
_BLOCK_BYTES = 1 << 16  # rows that next() generates at a time: about this many bytes
# The most rows a stream hands out before its closing row.  A checkpoint
# stores the count in 128 bits; staying far below that keeps every state a
# stream can reach one that checkpoint() can write and resume() reads back.
MAX_ROWS = 2**127 - 1

_T = TypeVar("_T")


class EllerStream(Iterator[np.ndarray]):
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
    leaves the stream as it was before the call.

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
        self._width = check_width(width)
        self._seed = check_seed(seed)
        self._horizontal = check_probability("horizontal", horizontal)
        self._vertical = check_probability("vertical", vertical)
        self._key = seed_key(self._seed)
        self._join_below = threshold(self._horizontal)
        self._open_below = threshold(self._vertical)
        self._left = np.empty(self._width + LR_PAD, np.int32)
        self._right = np.empty(self._width + LR_PAD, np.int32)
        self._left[:] = self._right[:] = np.arange(self._width + LR_PAD, dtype=np.int32)  # sets of one
        self._generated = 0  # rows the kernel state has produced
        self._rows_emitted = 0  # rows handed out, but for the _pos of the current block
        self._closed = False
        # Rows generated ahead for next(), and the state before them.
        self._block: np.ndarray | None = None
        self._block_len = 0  # rows in the block (0: no block)
        self._pos = 0  # rows of the block handed out
        self._block_rows = max(1, min(4096, _BLOCK_BYTES // self._width))
        self._snapshot: tuple[np.ndarray, np.ndarray] | None = None
        self._lock = threading.Lock()  # one call at a time (held per call, not per row)
        self._broken = False  # see _atomic

    # -- public attributes -------------------------------------------------
    @property
    def width(self) -> int:
        """Cells per row."""
        return self._width

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
        return self._rows_emitted + self._pos

    @property
    def closed(self) -> bool:
        """True once :meth:`finish` has emitted the closing row."""
        return self._closed

    def __repr__(self) -> str:
        return (
            f"EllerStream(width={self._width}, seed={self._seed}, horizontal={self._horizontal}, "
            f"vertical={self._vertical}, rows_emitted={self.rows_emitted}"
            f"{', closed' if self._closed else ''})"
        )

    # -- generation --------------------------------------------------------
    def _generate(self, out: np.ndarray) -> None:
        """Run the kernel from its current state into ``out`` (rows, width)."""
        counter = np.uint64((self._generated * self._width) & _MASK64)
        _warm.run(
            eller_rows,
            out.size,
            self._left, self._right, out, self._key, counter, self._join_below, self._open_below,
        )  # fmt: skip
        self._generated += out.shape[0]

    def _sync(self) -> None:
        """Bring the kernel state back to the last emitted row, dropping the
        rows generated ahead for next()."""
        if self._block is None:
            return
        if self._pos == self._block_len:  # every row of the block was handed out
            self._drop_block()
            return
        assert self._snapshot is not None
        self._left[:], self._right[:] = self._snapshot
        self._generated -= self._block.shape[0]
        if self._pos:
            self._generate(np.empty((self._pos, self._width), np.uint8))
        self._drop_block()

    def _check_usable(self, action: str) -> None:
        if self._broken:
            raise RuntimeError(
                f"cannot {action}: an exception interrupted the stream while it was undoing "
                "a failed call, so its state is lost; resume from a checkpoint"
            )

    def _check_open(self, action: str) -> None:
        self._check_usable(action)
        if self._closed:
            raise RuntimeError(f"cannot {action}: the stream is closed (finish() was called)")

    def _atomic(self, call: Callable[..., _T], *args: object) -> _T:
        """Run ``call`` (which changes the stream); if anything raises in it,
        put the stream back as it was before.  Costs two copies of the row
        state, O(width), whatever the number of rows.

        While the call runs or is undone, ``_broken`` is set: should a second
        exception interrupt the undoing (or land between the end of the call
        and the line that clears it), the stream refuses to go on instead of
        going on from a half-changed state."""
        self._check_usable("go on")
        saved = (
            self._left.copy(),
            self._right.copy(),
            self._generated,
            self._rows_emitted,
            self._closed,
            self._block,
            self._block_len,
            self._pos,
            self._snapshot,
        )
        try:
            self._broken = True
            result = call(*args)
        except BaseException:
            (
                self._left,
                self._right,
                self._generated,
                self._rows_emitted,
                self._closed,
                self._block,
                self._block_len,
                self._pos,
                self._snapshot,
            ) = saved
            self._broken = False
            raise
        self._broken = False
        return result

    def __iter__(self) -> EllerStream:
        return self

    def __next__(self) -> np.ndarray:
        with self._lock:
            pos = self._pos
            if pos == self._block_len or self._broken:  # _atomic refuses a broken stream
                return self._atomic(self._next_block)
            self._pos = pos + 1  # the one change a row of the block makes
            return self._block[pos]  # type: ignore[index]  # a block is held while _pos < _block_len

    def _next_block(self) -> np.ndarray:
        """Generate the rows ahead that next() hands out, and the first one.

        Each block is new and never written again once handed out, so the
        rows next() returns (views of it) belong to the caller."""
        if self._closed:
            raise StopIteration
        self._drop_block()
        left = MAX_ROWS - self._rows_emitted
        if left <= 0:
            raise OverflowError(f"the stream has handed out its {MAX_ROWS} rows; only finish() is left")
        self._snapshot = (self._left.copy(), self._right.copy())
        # the first row of a process comes without waiting for numba's set-up
        rows = 1 if _warm.interpretable(eller_rows, self._width) else min(self._block_rows, left)
        block = np.empty((rows, self._width), np.uint8)
        self._generate(block)
        self._block = block
        self._block_len = rows
        self._pos = 1
        return block[0]

    def _drop_block(self) -> None:
        self._rows_emitted += self._pos
        self._block = None
        self._snapshot = None
        self._block_len = self._pos = 0

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
        if out is not None:
            check_grid_buffer("out", out, (n, self._width))
        with self._lock:
            self._check_open("take rows")
            if n > MAX_ROWS - self.rows_emitted:
                raise ValueError(f"n={n} would take the stream past its {MAX_ROWS} rows")
            if out is None:
                out = np.empty((n, self._width), np.uint8)
            return self._atomic(self._take, n, out)

    def _take(self, n: int, out: np.ndarray) -> np.ndarray:
        done = min(n, self._block_len - self._pos)
        if done:
            out[:done] = self._block[self._pos : self._pos + done]  # type: ignore[index]  # done > 0: a block is held
            self._pos += done
        if self._pos == self._block_len:
            self._drop_block()
        if done < n:
            self._generate(out[done:])
            self._rows_emitted += n - done
        return out

    def finish(self) -> np.ndarray:
        """Emit the closing row, which joins every remaining set, and close
        the stream.  With no row emitted before, it is a one-row maze.

        >>> import eller_stream as es
        >>> es.EllerStream(width=4, seed=0).finish().tolist()
        [1, 1, 1, 0]
        """
        with self._lock:
            self._check_open("finish")
            return self._atomic(self._finish)

    def _finish(self) -> np.ndarray:
        self._sync()
        row = np.empty(self._width, np.uint8)
        _warm.run(eller_close, self._width, self._left, self._right, row)
        self._closed = True
        self._rows_emitted += 1
        return row

    # -- checkpoints -------------------------------------------------------
    def checkpoint(self) -> bytes:
        """The stream's state as bytes of O(width) size (versioned, with a
        checksum); :meth:`resume` continues exactly where this stream is.

        >>> import eller_stream as es
        >>> s = es.EllerStream(width=5, seed=9)
        >>> _ = s.take(3)
        >>> t = es.EllerStream.resume(s.checkpoint())
        >>> bool((t.take(4) == s.take(4)).all())
        True
        """
        with self._lock:
            self._check_open("checkpoint")
            return self._atomic(self._checkpoint)

    def _checkpoint(self) -> bytes:
        self._sync()
        rows = self._rows_emitted
        header = _checkpoint.ELLER_HEADER.pack(
            _checkpoint.ELLER_MAGIC,
            _checkpoint.ELLER_VERSION,
            0,
            self._width,
            self._seed,
            self._horizontal,
            self._vertical,
            rows & _MASK64,
            rows >> 64,
        )
        return _checkpoint.seal(header + self._left[: self._width].astype("<i4").tobytes())

    @classmethod
    def resume(cls, data: bytes | bytearray | memoryview) -> EllerStream:
        """A stream that continues from :meth:`checkpoint` bytes.

        Raises ``ValueError`` for truncated, altered or foreign bytes.
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"data must be bytes from EllerStream.checkpoint(), got {type(data).__name__}")
        header = _checkpoint.ELLER_HEADER
        body = _checkpoint.unseal(
            bytes(data), _checkpoint.ELLER_MAGIC, header.size, "an eller_stream checkpoint", "checkpoint data"
        )
        _magic, version, flags, width, seed, h, v, lo, hi = header.unpack_from(body)
        if version != _checkpoint.ELLER_VERSION or flags != 0:
            raise ValueError(f"checkpoint version {version} (flags {flags}) is not supported")
        if not 1 <= width <= MAX_WIDTH or len(body) != header.size + 4 * width:
            raise ValueError("checkpoint data is corrupt (width does not match its length)")
        if seed >= SEED_LIMIT or not (0.0 <= h <= 1.0 and 0.0 <= v <= 1.0):
            raise ValueError("checkpoint data is corrupt (parameters out of range)")
        left = np.frombuffer(body, "<i4", width, header.size).astype(np.int32)
        if left.min() < 0 or left.max() >= width:
            raise ValueError("checkpoint data is corrupt (row sets out of range)")
        right = np.empty(width, np.int32)
        right[left] = np.arange(width, dtype=np.int32)
        if not call(is_noncrossing_partition, left, right):
            raise ValueError("checkpoint data is corrupt (row sets are not a valid Eller state)")
        rows = lo | (hi << 64)
        if rows > MAX_ROWS:
            raise ValueError(f"checkpoint data is corrupt (row count {rows} is beyond {MAX_ROWS})")
        stream = cls(width, seed, h, v)
        stream._left[:width] = left
        stream._right[:width] = right
        stream._generated = stream._rows_emitted = rows
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
    height = check_int("height", height, 1)
    grid = np.empty((height, stream.width), np.uint8)
    stream._generate(grid[:-1])
    grid[-1] = stream.finish()
    return grid
