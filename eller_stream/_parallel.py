"""Whole bands on every core: when it is worth it, the threads' scratch
rows, one parallel call at a time, and never in a child forked after one.

A range's whole bands (and a plane's chunk rows) are shared among threads
of this module (:func:`run_parts`): each calls the serial kernel, which
releases the GIL, on a run of them, so no parallel kernel is compiled or
run (numba's OpenMP threads spin for milliseconds after each parallel call,
and would take a core from these). ``numba.set_num_threads`` still says how
many threads a range uses; where no thread can be started (a pids limit),
the parts run one after another. A child forked after a parallel call (whose
lock another thread may have held) makes its bands on one core
(``os.register_at_fork``).
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._backend import LEAN, backend
from ._eller_kernels import LR_PAD
from ._engine import lean_first
from ._numba import load
from ._stream_base import CALL_CELLS

__all__ = ["alloc", "one_thread", "rows_apart", "run_parts", "scratch", "split", "thread_rows"]

PARALLEL_CELLS = 1 << 17  # a range of at least this many cells (and two bands) uses every core
# A band of more cells than this is made on one core, in calls of CALL_CELLS
# cells (a parallel call makes whole bands and could not be interrupted).
PARALLEL_BAND_CELLS = 8 * CALL_CELLS
_lock = threading.Lock()
Part = Callable[[], object]  # a part of a parallel call (:func:`run_parts`)
_used = [False, False]  # [a parallel call in this process, one before a fork]


_tasks: list[queue.SimpleQueue[Any]] = [queue.SimpleQueue()]  # the parts handed to the threads
_threads: list[threading.Thread] = []


def _forked_child() -> None:
    _used[1] = _used[1] or _used[0]
    _tasks[0] = queue.SimpleQueue()  # the threads did not come along
    _threads.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked_child)


@functools.cache
def _memory_bytes() -> int:
    """The machine's physical memory (an array larger than it is refused),
    read once: every range asks for it, two system calls each time."""
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
    size = math.prod(int(d) for d in shape) * np.dtype(dtype).itemsize  # Python ints: no overflow
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
    if threads == 1:  # no other thread's row to keep apart from
        return alloc((1, n), dtype, what)
    item = np.dtype(dtype).itemsize
    stride = (-(-n * item // LINE) + 1) * LINE // item
    flat = alloc((threads * stride * item + LINE,), np.uint8, what)
    start = -flat.ctypes.data % LINE
    return flat[start : start + threads * stride * item].view(dtype).reshape(threads, stride)


def scratch(threads: int, width: int) -> list[np.ndarray]:
    """A row a thread of each array the band kernels need, ``[t, :n]`` of
    :func:`rows_apart`: ``left``, ``right`` (int32, ``n = width + LR_PAD``),
    ``doors`` (uint8, ``width``), ``parent`` (int32, ``width + 1``)."""
    what = "the threads' scratch rows"
    return [
        rows_apart(threads, width + LR_PAD, np.int32, what),
        rows_apart(threads, width + LR_PAD, np.int32, what),
        rows_apart(threads, width, np.uint8, what),
        rows_apart(threads, width + 1, np.int32, what),
    ]


def thread_rows(scratch: list[np.ndarray], t: int, width: int) -> list[np.ndarray]:
    """Thread ``t``'s rows of :func:`scratch`: ``left``, ``right``, ``doors``, ``parent``."""
    left, right, doors, parent = scratch
    return [left[t, : width + LR_PAD], right[t, : width + LR_PAD], doors[t, :width], parent[t, : width + 1]]


def one_thread(width: int) -> list[np.ndarray]:
    """The rows :func:`thread_rows` gives a thread, for a call on one thread
    (plain arrays: :func:`rows_apart` keeps no line apart for one thread)."""
    return thread_rows(scratch(1, width), 0, width)


def threads_for(rows: int, band: int, width: int, serial: object = None) -> int:
    """The threads a range of ``rows`` rows of whole bands is made on (1:
    one core, the serial kernels). ``serial``: the kernel a single core would
    call, whose lean twin answers instead while it warms up, in the server
    (``_engine.lean_first``)."""
    small = rows <= band or rows * width < PARALLEL_CELLS or band * width > PARALLEL_BAND_CELLS
    if small or _used[1] or LEAN or lean_first(serial):  # (the lean backend has no threads of its own)
        return 1  # decided before numba is asked: a small range's call costs a few microseconds less
    load()
    if backend() == "lean":  # numba failed to import
        return 1
    import numba

    return max(1, int(numba.get_num_threads()))


def bands_per_call(threads: int, band: int, width: int) -> int:
    """Bands a call makes: about ``CALL_CELLS`` cells a thread, at least one."""
    return max(threads, threads * CALL_CELLS // (band * width))


def split(n: int, parts: int) -> list[tuple[int, int]]:
    """``range(n)`` in ``parts`` runs ``(start, stop)`` as even as can be, the empty left out."""
    cuts = [t * n // parts for t in range(parts + 1)]
    return [(a, b) for a, b in itertools.pairwise(cuts) if b > a]


def _serve(tasks: queue.SimpleQueue[Any]) -> None:
    """A thread of the pool: run the parts handed to it, for ever."""
    while True:
        part, done, error = tasks.get()
        try:
            part()
        except BaseException as exc:  # the caller raises it
            error.append(exc)
        finally:
            done.set()


def _new_thread(tasks: queue.SimpleQueue[Any]) -> threading.Thread:
    """A thread of the pool, started (``RuntimeError`` when none can be had)."""
    thread = threading.Thread(target=_serve, args=(tasks,), name="eller-stream-part", daemon=True)
    thread.start()
    return thread


def run_parts(parts: Sequence[Part]) -> None:
    """Each of ``parts`` on a thread of its own, the first in this one, one
    parallel call at a time; each part calls a kernel that releases the GIL.
    Returns once every part is over, raising the first error of the others
    after this thread's own. One part runs here, with no lock."""
    if len(parts) == 1:
        parts[0]()
        return
    with _lock:
        _used[0] = True
        try:
            while len(_threads) < len(parts) - 1:
                _threads.append(_new_thread(_tasks[0]))
        except RuntimeError:  # no thread to be had: the parts one after another, here
            for part in parts:
                part()
            return
        handed: list[tuple[threading.Event, list[BaseException]]] = [
            (threading.Event(), []) for _ in parts[1:]
        ]
        for part, (done, error) in zip(parts[1:], handed, strict=True):
            _tasks[0].put((part, done, error))
        try:
            parts[0]()
        finally:
            for done, _ in handed:
                done.wait()
        for _, error in handed:
            if error:
                raise error[0]
