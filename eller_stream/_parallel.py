"""Whole bands on every core: when it is worth it, the threads' scratch
rows, one parallel call at a time, and never in a child forked after one.

numba's default thread pool runs one parallel call at a time (a lock), and
its OpenMP pool does not survive ``fork``: a child of a process that made
a parallel call makes its bands on one core (``os.register_at_fork``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ._backend import LEAN, backend
from ._eller_kernels import LR_PAD
from ._engine import lean_first
from ._numba import call, load
from ._stream_base import CALL_CELLS

__all__ = ["alloc", "one_thread", "rows_apart", "run", "scratch"]

PARALLEL_CELLS = 1 << 17  # a range of at least this many cells (and two bands) uses every core
# A band of more cells than this is made on one core, in calls of CALL_CELLS
# cells (a parallel call makes whole bands and could not be interrupted).
PARALLEL_BAND_CELLS = 8 * CALL_CELLS
_lock = threading.Lock()
_used = [False, False]  # [a parallel call in this process, one before a fork]


def _forked_child() -> None:
    _used[1] = _used[1] or _used[0]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked_child)


def _memory_bytes() -> int:
    """The machine's physical memory (an array larger than it is refused)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not on this platform: only numpy's own limit
        return 2**63 - 1


# The scratch a stream or a range holds per cell of the width, whatever the rows
# (the sets' lists, a row's draws, the braid's planes, the rooms' bitmaps, a
# renderer's row): measured 28-42 bytes at width 2**24 (issue 32), rounded up.
SCRATCH_PER_CELL = 64


def check_width_fits(width: int) -> int:
    """``width``, or a ``ValueError`` when the scratch of one row of it
    (:data:`SCRATCH_PER_CELL` bytes a cell) is more than this machine's memory:
    refused when the maze is made, not when the kernel is killed for it."""
    need = SCRATCH_PER_CELL * width
    if need > _memory_bytes():
        raise ValueError(
            f"width {width} needs about {need} bytes of scratch a row ({SCRATCH_PER_CELL} a cell), "
            "more than this machine's memory"
        )
    return width


def alloc(shape: tuple[int, ...], dtype: type, what: str) -> np.ndarray:
    """``np.empty``, or a ``ValueError`` that says what could not be had."""
    size = int(np.prod(shape, dtype=object)) * np.dtype(dtype).itemsize
    if size > _memory_bytes():
        raise ValueError(f"{what} need {size} bytes, more than this machine's memory")
    try:
        return np.empty(shape, dtype)
    except MemoryError:
        raise ValueError(f"{what} need {size} bytes, more than can be had") from None


LINE = 64  # bytes of a cache line


def rows_apart(threads: int, n: int, dtype: type, what: str) -> np.ndarray:
    """``threads`` rows of ``n`` items (``row[t, :n]``), each starting on a
    cache line of its own with a line to spare after it: two threads writing
    near the end of one row and the start of the next (the scratch slot of
    the sets' lists is written for nearly every cell) would otherwise share a
    line, and the speed-up of two cores varied from 1.3x to 1.9x with where
    the allocator put the rows."""
    item = np.dtype(dtype).itemsize
    stride = (-(-n * item // LINE) + 1) * LINE // item
    flat = alloc((threads * stride * item + LINE,), np.uint8, what)
    start = -flat.ctypes.data % LINE
    return flat[start : start + threads * stride * item].view(dtype).reshape(threads, stride)


def scratch(threads: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A row a thread of each array the band kernels need, ``[t, :n]`` of
    :func:`rows_apart`: ``left``, ``right`` (int32, ``n = width + LR_PAD``),
    ``doors`` (uint8, ``width``), ``parent`` (int32, ``width + 1``)."""
    what = "the threads' scratch rows"
    return (
        rows_apart(threads, width + LR_PAD, np.int32, what),
        rows_apart(threads, width + LR_PAD, np.int32, what),
        rows_apart(threads, width, np.uint8, what),
        rows_apart(threads, width + 1, np.int32, what),
    )


def one_thread(width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows :func:`scratch` gives a thread, for one thread: plain arrays
    of those lengths (no line to keep apart; a range of a few bands pays no
    more for them than for its rows)."""
    return (
        np.empty(width + LR_PAD, np.int32),
        np.empty(width + LR_PAD, np.int32),
        np.empty(width, np.uint8),
        np.empty(width + 1, np.int32),
    )


def threads_for(rows: int, band: int, width: int, serial: object = None) -> int:
    """The threads a range of ``rows`` rows of whole bands is made on (1:
    one core, the serial kernels). ``serial``: the kernel a single core would
    call, whose lean twin answers instead while it warms up, in the server
    (``_engine.lean_first``)."""
    if LEAN or lean_first(serial):  # the lean backend has no threads of its own
        return 1
    load()
    if backend() == "lean":  # numba failed to import
        return 1
    import numba

    threads = numba.get_num_threads()
    if (
        rows > band
        and rows * width >= PARALLEL_CELLS
        and threads > 1
        and band * width <= PARALLEL_BAND_CELLS
        and not _used[1]
    ):
        return int(threads)
    return 1


def bands_per_call(threads: int, band: int, width: int) -> int:
    """Bands a call makes: about ``CALL_CELLS`` cells a thread, at least one."""
    return max(threads, threads * CALL_CELLS // (band * width))


def run(kernel: Callable[..., Any], *args: Any) -> None:
    """A parallel kernel call, one at a time."""
    with _lock:
        _used[0] = True
        call(kernel, *args)
