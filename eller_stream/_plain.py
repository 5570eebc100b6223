"""A kernel's plain Python, and that of every kernel it calls: a lean twin for any kernel.

A kernel (``_numba._njit``) is a stand-in until numba loads, then numba's
dispatcher; an intrinsic the same, with a plain-Python twin. Each is
remembered here with its plain Python as it is made. :func:`twin` gives the
kernel's own function with its globals rebound, so that each kernel and
intrinsic it names is its plain Python too: the same code as the compiled
kernel (as ``NUMBA_DISABLE_JIT=1`` runs it), ready at once, without numba,
in plain Python's time (tens of microseconds a cell, not nanoseconds).
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import numpy as np

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")

_python: dict[int, tuple[object, Callable[..., Any]]] = {}  # id(kernel) -> (kernel, its plain Python)
_rebound: dict[int, Callable[..., Any]] = {}  # id(a kernel's function) -> the function, rebound


def remember(kernel: T, python: Callable[..., Any]) -> T:
    """Note that ``kernel`` (a stand-in, a dispatcher or an intrinsic) runs ``python`` as plain Python."""
    _python[id(kernel)] = (kernel, python)
    return kernel


def python_of(value: object) -> Callable[..., Any] | None:
    """The plain Python of ``value`` if it is a kernel or an intrinsic (stand-in or compiled), else None."""
    entry = _python.get(id(value))
    return entry[1] if entry is not None and entry[0] is value else None


def twin(kernel: Callable[P, R]) -> Callable[P, R]:
    """``kernel``'s plain Python, calling the plain Python of the kernels it
    calls; numpy's overflow warnings off, as the kernels wrap uint64 on purpose.

    >>> from eller_stream import _eller_kernels
    >>> each_alone = np.arange(4, dtype=np.int32)  # every cell a set of its own
    >>> bool(twin(_eller_kernels.is_noncrossing_partition)(each_alone, each_alone))
    True
    """
    python = python_of(kernel)
    func = _rebind(python if python is not None else getattr(kernel, "py_func", kernel))

    @functools.wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with np.errstate(over="ignore"):
            result: R = func(*args, **kwargs)
        return result

    return run


def _rebind(func: Callable[..., Any]) -> Callable[..., Any]:
    done = _rebound.get(id(func))
    if done is not None:
        return done
    space = dict(func.__globals__)
    new = types.FunctionType(func.__code__, space, func.__name__, func.__defaults__, func.__closure__)
    new.__kwdefaults__ = func.__kwdefaults__
    _rebound[id(func)] = new  # before its callees: a kernel may call itself
    for name in _names(func.__code__):
        python = python_of(space.get(name))
        if python is not None:
            space[name] = _rebind(python)
    return new


def _names(code: types.CodeType) -> set[str]:
    """The global names ``code`` and the code nested in it look up."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names
