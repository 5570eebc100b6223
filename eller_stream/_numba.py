"""The package's numba settings, and the small branch-free helpers the
kernels share.

Every kernel of the package is compiled by :func:`_njit`: cached, without
the GIL, without bounds checks.  Nothing a kernel is given is checked: the
public modules validate their arguments first, and pass arrays of the right
dtype, shape and contents.

The kernels also run as plain Python (``NUMBA_DISABLE_JIT=1``); they then
use numpy scalars and must be called inside :func:`kernel_errstate`, which
silences numpy's warnings about the (intended) uint64 wrap-around.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import numba
import numpy as np

_U64 = np.uint64

_NO_CACHE_NOTE = (
    "eller_stream: note: numba cannot write its cache of compiled kernels here (no writable "
    "__pycache__ beside the package, user cache folder or NUMBA_CACHE_DIR): the kernels are "
    "compiled without it, in each process; set NUMBA_CACHE_DIR to a writable folder to keep them"
)
_no_cache_noted = [False]


def _njit(*args, **kwargs):
    """numba.njit with the package's settings (cache, nogil, no bounds checks);
    other numba options (``parallel=True``, ``inline=...``) pass through.

    Where numba finds nowhere to write its cache (a read-only install with
    an unwritable home), ``cache=True`` fails at decoration time ("no
    locator available"): the kernel is then compiled without the cache, and
    a note says so on stderr, once per process."""
    options = {"cache": True, "nogil": True, "boundscheck": False, **kwargs}

    def decorate(func):  # type: ignore[no-untyped-def]
        if options["cache"]:
            try:
                return numba.njit(**options)(func)
            except RuntimeError as exc:
                if "no locator available" not in str(exc):
                    raise
            if not _no_cache_noted[0]:
                _no_cache_noted[0] = True
                print(_NO_CACHE_NOTE, file=sys.stderr)
        return numba.njit(**{**options, "cache": False})(func)

    if args and callable(args[0]):
        return decorate(args[0])
    return decorate


def jit_disabled() -> bool:
    """True when the kernels run as plain Python (``NUMBA_DISABLE_JIT=1``)."""
    return bool(numba.config.DISABLE_JIT)  # type: ignore[attr-defined]  # set at run time from the environment


def kernel_errstate() -> contextlib.AbstractContextManager[object]:
    """Context for calling kernels: silences uint64 overflow warnings when
    the kernels run as plain Python; does nothing when they are compiled."""
    if jit_disabled():
        return np.errstate(over="ignore")
    return contextlib.nullcontext()


@_njit(inline="always")
def _sel(c: int, a: int, b: int) -> int:
    """``a if c else b`` for c in {0, 1}, without a branch."""
    return b ^ ((a ^ b) & -c)


P = ParamSpec("P")
R = TypeVar("R")


def call(kernel: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Call a kernel: the one way the package does (inside
    :func:`kernel_errstate`, so that it runs as plain Python too)."""
    with kernel_errstate():
        return kernel(*args, **kwargs)
