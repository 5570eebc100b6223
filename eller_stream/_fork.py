"""What a ``fork`` waits for: no thread of the package may be inside numba's
import or compile, or getting a kernel ready, when the process is copied.

Such a thread holds numba's locks and those of the modules it imports; the
child has the locks as they were, held, and no thread to release them, so
its first numba call would wait for ever. So, before a fork, the process
waits (at most :data:`WAIT` seconds) until the threads getting kernels ready
are done (polled: the fork may come from a signal handler whose thread holds
their events' locks), then holds numba's import lock and its compiler lock
across the fork, and releases them on both sides.

At a fork the callables registered last run first: the modules whose own
take locks that numba takes too (logging's, the thread pools') are imported
before :func:`guard` registers, so that those locks are free while a fork
waits. A child forked after the wait ran out keeps its kernels' lean twins
(``_engine.Warming``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

WAIT = 120.0  # seconds a fork waits at most

_busy: list[Callable[[], bool]] = []  # whether threads of the package are getting kernels ready
_locks: list[Any] = []  # held across a fork (numba's import lock, then its compiler lock)
_held: list[Any] = []
_guarded = [False]
_timed_out = [False]  # the last fork went ahead with a thread still busy


def waits_for(busy: Callable[[], bool]) -> None:
    """A fork also waits while ``busy()``."""
    _busy.append(busy)


def holds_across(lock: Any) -> None:
    """A fork takes ``lock`` (a ``threading.RLock``) before, and releases it after."""
    _locks.append(lock)


def guard() -> None:
    """Register the fork's wait (once, before numba is imported)."""
    if _guarded[0] or not hasattr(os, "register_at_fork"):
        return
    _guarded[0] = True
    import concurrent.futures.thread  # noqa: F401 (takes a lock at a fork: registered before ours)
    import logging  # noqa: F401 (the same)

    os.register_at_fork(before=_before, after_in_parent=_after, after_in_child=_after)


def _compiler_lock() -> Any:
    compiler = sys.modules.get("numba.core.compiler_lock")
    return getattr(getattr(compiler, "global_compiler_lock", None), "_lock", None)


def copied_busy() -> bool:
    """In a child: whether the fork went ahead with a thread still busy (the
    wait ran out), so that numba's locks may be held for ever here."""
    return _timed_out[0]


def _import_owners() -> set[int]:
    """The threads inside an import: those holding a module's import lock. A
    child would find another thread's held for ever, the module half made
    and its first import of it waiting (a kernel's first call imports
    numba's modules as it types its arguments, before any lock of numba's)."""
    bootstrap = sys.modules.get("_frozen_importlib") or sys.modules.get("importlib._bootstrap")  # the same
    locks = getattr(bootstrap, "_module_locks", None)
    owners: set[int] = set()
    for ref in list(locks.values()) if isinstance(locks, dict) else []:
        lock: Any = ref() if callable(ref) else None
        if lock is not None and lock.owner is not None and lock.count:  # (count: an int, or a list)
            owners.add(lock.owner)
    return owners


def _others_importing() -> bool:
    return bool(_import_owners() - {threading.get_ident()})


def _before() -> None:
    deadline = time.monotonic() + WAIT
    locks = [lock for lock in [*_locks, _compiler_lock()] if lock is not None]
    # A thread that holds one of the locks (a fork from a signal handler during
    # a compile, or during an import) waits for no one: the others wait for it.
    mine = any(lock._is_owned() for lock in locks) or threading.get_ident() in _import_owners()
    while not mine and any(busy() for busy in _busy) and time.monotonic() < deadline:
        time.sleep(0.002)
    _timed_out[0] = any(busy() for busy in _busy) and not mine
    for lock in locks:
        if lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
            _held.append(lock)
        else:
            _timed_out[0] = True


waits_for(_others_importing)


def _after() -> None:
    while _held:
        _held.pop().release()


__all__ = ["WAIT", "copied_busy", "guard", "holds_across", "waits_for"]
