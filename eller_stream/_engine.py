"""The kernels the streams and the banded maze call, from the backend in use
(:mod:`eller_stream._backend`).

On the lean backend they are its drop-ins (same arguments, same rows). On
numba's, each is a :class:`Warming` kernel: until numba has it ready (compiled,
or loaded from its cache), its lean twin answers while one background thread
gets it ready, so that the first rows on a new machine come at once; then the
kernel answers. Both give the same rows and leave the same sets, so a stream
switches between them anywhere.

>>> from eller_stream import _engine
>>> callable(_engine.eller_rows)
True
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, ClassVar, Generic, ParamSpec, TypeVar

import numpy as np

from . import _fork, _lean_bands, _lean_eller
from ._backend import LEAN, backend
from ._plain import python_of, twin

__all__ = ["Warming", "band_row_sets", "band_stream_rows", "bands_rows", "bands_stream_rows", "cold"]
__all__ += ["eller_close", "eller_rows", "is_noncrossing_partition", "lean_first", "lean_up_to"]
__all__ += ["plain_first", "settle"]

COLD_ROWS = 16  # a stream's blocks while its kernel is not ready: the first rows come at once
LEAN_CELLS = 1 << 16  # a larger job waits for the kernel (the lean twin: ~15 ms at 230 ns a cell)
# a larger job of plain_first's kernels waits for the kernel: plain Python takes 25-40 us a cell, so
# 8192 cells take 0.2-0.33 s, about what numba's import and a warm cache's load take (0.4 s)
PLAIN_CELLS = 1 << 13
_lean_cells = [LEAN_CELLS]  # the limit in force (:func:`lean_up_to`)

P = ParamSpec("P")
R = TypeVar("R")


def lean_up_to(cells: int) -> None:
    """Let the lean twins answer jobs of up to ``cells`` cells while their
    kernels are not ready (:data:`LEAN_CELLS` by default). The server, whose
    requests are bounded, sets it to its largest: a request that waited for
    numba's compile waited half a minute on an empty cache, and the lean
    twins make even the largest in seconds."""
    _lean_cells[0] = max(LEAN_CELLS, cells)


class Warming(Generic[P, R]):
    """A numba kernel that hands its calls to ``lean`` until it is ready.

    After the first call, a thread calls ``kernel`` on copies of that call's
    arguments (so with the same types: numba compiles the one signature the
    real calls need, or loads it from its cache), a 2-d array cut to its
    first row (the rows' kernels: little work) unless ``whole`` (a kernel that
    reaches a grid's cells by indices it is given); from the call after it is
    done, ``kernel`` answers. A job of more than ``most`` cells (by default
    the limit in force, :func:`lean_up_to`) waits for ``kernel`` instead.
    Should numba fail, ``lean`` goes on answering.
    A fork waits for the threads under way (:mod:`eller_stream._fork`); a
    child forked while one still runs (after the wait ran out) keeps to
    ``lean``."""

    _all: ClassVar[list[Warming[Any, Any]]] = []

    def __init__(
        self, kernel: Callable[P, R], lean: Callable[P, R], most: int | None = None, whole: bool = False
    ) -> None:
        self.kernel = kernel
        self.lean = lean
        self.most = most  # the largest job (cells) the lean twin takes; None: the limit in force
        self.whole = whole  # the first call's copies whole, not cut to a row
        self.ready = threading.Event()  # the kernel answers
        self.done = threading.Event()  # ready, or failed (``error``): the lean twin answers for good
        self.error: BaseException | None = None
        self._started = False
        self.over = False  # done, as a plain flag (a fork polls it, taking no lock)
        self._lock = threading.Lock()
        Warming._all.append(self)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        if self.ready.is_set():
            return self.kernel(*args, **kwargs)
        if self.error is None and _cells(args) > (_lean_cells[0] if self.most is None else self.most):
            # a big job: waiting for numba (a compile, a cache load) costs less than the lean twin
            from ._numba import load

            load()
            if backend() == "numba":
                result = self.kernel(*args, **kwargs)
                self._finish(None)
                return result
            self._finish(RuntimeError("numba failed to import"))
        copies = None if self._started else _copies(args, self.whole)  # before the lean twin writes them
        result = self.lean(*args, **kwargs)
        if copies is not None:  # after it: the first rows need not share the process with numba
            self._start(copies, kwargs)
        return result

    def _start(self, copies: list[Any], kwargs: dict[str, Any]) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        _fork.guard()
        thread = threading.Thread(target=self._get_ready, args=(copies, kwargs), name="warming", daemon=True)
        try:
            thread.start()
        except RuntimeError as exc:  # no thread to be had (a pids limit): the lean twin answers on
            self._finish(exc)

    def _get_ready(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        from ._numba import kernel_errstate

        try:
            with kernel_errstate():
                self.kernel(*args, **kwargs)
        except BaseException as exc:  # numba could not: the lean twin answers on
            self._finish(exc)
            return
        # numba failed to import: the kernel is plain Python now, the lean twin answers on
        self._finish(RuntimeError("numba failed to import") if backend() == "lean" else None)

    def _finish(self, error: BaseException | None) -> None:
        self.over = True
        if error is None:
            self.ready.set()
        else:
            self.error = error
        self.done.set()

    @classmethod
    def _forked(cls) -> None:
        copied = _fork.copied_busy()  # numba's locks may be held by a thread that did not come along
        for w in cls._all:
            if copied or (w._started and not w.done.is_set()):
                w.ready = threading.Event()  # numba is not to be called here: the lean twin answers
                w._finish(RuntimeError("forked while numba was busy: the lean twin answers"))


def _cells(args: tuple[Any, ...]) -> int:
    """The cells of a call's job: its largest array (the rows it writes, or a row's sets)."""
    return max((a.size for a in args if isinstance(a, np.ndarray)), default=0)


def _copies(args: tuple[Any, ...], whole: bool) -> list[Any]:
    """The arguments' copies, a 2-d array cut to its first row unless
    ``whole``: the same types (the same order, read-only where it was)."""
    copies: list[Any] = []
    for a in args:
        if isinstance(a, np.ndarray):
            copy = np.array(a if whole or a.ndim != 2 else a[:1], order="K")
            copy.flags.writeable = a.flags.writeable
            a = copy
        copies.append(a)
    return copies


def settle(timeout: float | None = None) -> bool:
    """Wait until every kernel that has started getting ready is ready (or
    failed); whether all are. A server calls it after its warm-up."""
    return all(w.done.wait(timeout) for w in Warming._all if w._started)


def lean_first(kernel: object) -> bool:
    """Whether a job for ``kernel`` goes to its lean twin, however large,
    rather than to the kernel, which would compile first: ``kernel`` is
    cold and :func:`lean_up_to` raised the limit (the server)."""
    return _lean_cells[0] > LEAN_CELLS and cold(kernel)


_plain_first: dict[object, Warming[Any, Any]] = {}
_plain_first_lock = threading.RLock()
_fork.holds_across(_plain_first_lock)  # a child never finds it taken by a thread that did not come along


def plain_first(kernel: Callable[P, R]) -> Callable[P, R]:
    """``kernel`` as a :class:`Warming` kernel whose lean twin is its own
    plain Python (:func:`eller_stream._plain.twin`: tens of microseconds a
    cell, so for jobs of up to :data:`PLAIN_CELLS` cells), made ready on whole
    copies (for a kernel that reaches an array at any index); one per kernel.
    On the lean backend, the kernel itself (plain Python already)."""
    if LEAN:
        return kernel
    key = python_of(kernel) or kernel  # the same before and after numba replaces the stand-ins
    with _plain_first_lock:
        if key not in _plain_first:
            _fork.guard()
            _plain_first[key] = Warming(kernel, twin(kernel), most=PLAIN_CELLS, whole=True)
        found: Callable[P, R] = _plain_first[key]
    return found


def cold(kernel: object) -> bool:
    """Whether ``kernel`` is a :class:`Warming` kernel whose lean twin still answers."""
    return isinstance(kernel, Warming) and not kernel.done.is_set()


_fork.waits_for(lambda: any(w._started and not w.over for w in Warming._all))

if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=Warming._forked)

if LEAN:
    from ._eller_kernels import eller_close, is_noncrossing_partition  # plain Python: one row

    band_row_sets = _lean_bands.band_row_sets
    eller_rows = _lean_eller.eller_rows
    band_stream_rows = _lean_bands.band_stream_rows
    bands_rows = _lean_bands.bands_rows
    bands_stream_rows = _lean_bands.bands_stream_rows
else:
    from . import _band_kernels, _eller_kernels, _level_kernels

    eller_rows = Warming(_eller_kernels.eller_rows, _lean_eller.eller_rows)
    eller_close = Warming(_eller_kernels.eller_close, twin(_eller_kernels.eller_close))
    is_noncrossing_partition = Warming(
        _eller_kernels.is_noncrossing_partition, twin(_eller_kernels.is_noncrossing_partition)
    )
    band_row_sets = Warming(_level_kernels.band_row_sets, _lean_bands.band_row_sets)
    band_stream_rows = Warming(_band_kernels.band_stream_rows, _lean_bands.band_stream_rows)
    bands_rows = Warming(_level_kernels.bands_rows, _lean_bands.bands_rows)
    bands_stream_rows = Warming(_level_kernels.bands_stream_rows, _lean_bands.bands_stream_rows)
