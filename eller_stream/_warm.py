"""The warm start: a stream's first small block as plain Python.

Before the first compiled call in a process, numba spends ~0.3-0.45 s
setting itself up (its typing and lowering registries), even to load a
cached kernel.  A stream's first small block does not need to wait for
that: the same kernels run as plain Python (the code the tests check
against the compiled one with NUMBA_DISABLE_JIT) give the same rows.

This is the one special way of calling a kernel, used only by
:class:`~eller_stream.EllerStream`; everything else calls kernels with
:func:`eller_stream._numba.call`.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import numpy as np

from ._numba import call, jit_disabled

P = ParamSpec("P")
R = TypeVar("R")

INTERPRET_CELLS = 1024  # cells run as plain Python at most, per process (~25 us a cell)
_interpret_budget = [INTERPRET_CELLS]
_twins: dict[object, Callable[..., Any]] = {}


def _twin(kernel: Any) -> Callable[..., Any]:
    """The plain-Python twin of a compiled kernel: its Python function, with
    every compiled function it calls (in whatever module) replaced by that
    function's twin, so that nothing of it waits for numba."""
    func = kernel.py_func
    twin = _twins.get(func)
    if twin is None:
        env = dict(func.__globals__)
        twin = types.FunctionType(func.__code__, env, func.__name__, func.__defaults__, func.__closure__)
        _twins[func] = twin
        for name in func.__code__.co_names:
            if hasattr(env.get(name), "py_func"):
                env[name] = _twin(env[name])
    return twin


def interpretable(kernel: Callable[..., object], cells: int) -> bool:
    """Would :func:`run` do a job of ``cells`` cells as plain Python?  Only
    while numba has not loaded ``kernel`` in this process, and only for the
    first :data:`INTERPRET_CELLS` cells of the process: after that, numba
    sets itself up once and the compiled kernels take over."""
    if jit_disabled():
        return False
    return not kernel.signatures and cells <= _interpret_budget[0]  # type: ignore[attr-defined]  # a numba dispatcher: Callable has no .signatures


def run(kernel: Callable[P, R], cells: int, *args: P.args, **kwargs: P.kwargs) -> R:
    """Call ``kernel`` on a job of ``cells`` cells, as plain Python while
    :func:`interpretable` says so, else compiled (as :func:`call` does)."""
    if interpretable(kernel, cells):
        _interpret_budget[0] -= cells
        with np.errstate(over="ignore"):
            result: R = _twin(kernel)(*args, **kwargs)
            return result
    return call(kernel, *args, **kwargs)
