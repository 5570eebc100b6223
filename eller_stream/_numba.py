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
from typing import Any, Literal, ParamSpec, TypeVar, cast, overload

import numpy as np

from ._backend import LEAN

if LEAN:  # no numba: every kernel is its plain-Python function (eller_stream._lean replaces the hot ones)
    prange = range
else:
    import numba
    from llvmlite import ir
    from numba import prange, types  # noqa: F401  # prange: the kernels' parallel loops
    from numba.core import cgutils
    from numba.extending import intrinsic

_U64 = np.uint64

# An int64 of a kernel as mypy sees it: numba types it int64 when compiled;
# run as plain Python it is a Python int or, after numpy arithmetic, a numpy
# int64.  For locals that start as a literal and take numpy results later.
Int64 = int | np.int64

_NO_CACHE_NOTE = (
    "eller_stream: note: numba cannot write its cache of compiled kernels here (no writable "
    "__pycache__ beside the package, user cache folder or NUMBA_CACHE_DIR): the kernels are "
    "compiled without it, in each process; set NUMBA_CACHE_DIR to a writable folder to keep them"
)
_no_cache_noted = [False]


F = TypeVar("F", bound=Callable[..., object])
Inline = Literal["never", "always"]


@overload
def _njit(func: F, /) -> F: ...


@overload
def _njit(*, parallel: bool = ..., inline: Inline = ...) -> Callable[[F], F]: ...


def _njit(
    func: F | None = None, /, *, parallel: bool = False, inline: Inline = "never"
) -> F | Callable[[F], F]:
    """numba.njit with the package's settings (cache, nogil, no bounds checks);
    other numba options (``parallel=True``, ``inline=...``) pass through.

    ``@_njit`` and ``@_njit(...)`` return the function's own type, so that
    mypy checks every call of a kernel against its annotations (run as plain
    Python under ``NUMBA_DISABLE_JIT=1``, a kernel is the function itself).

    Where numba finds nowhere to write its cache (a read-only install with
    an unwritable home), ``cache=True`` fails at decoration time ("no
    locator available"): the kernel is then compiled without the cache, and
    a note says so on stderr, once per process."""

    def decorate(func: F) -> F:
        if LEAN:
            return func

        def jit(cache: bool) -> object:
            return numba.njit(
                func, cache=cache, nogil=True, boundscheck=False, parallel=parallel, inline=inline
            )

        try:
            jitted = jit(cache=True)
        except RuntimeError as exc:
            if "no locator available" not in str(exc):
                raise
            if not _no_cache_noted[0]:
                _no_cache_noted[0] = True
                print(_NO_CACHE_NOTE, file=sys.stderr)
            jitted = jit(cache=False)
        return cast(F, jitted)  # a Dispatcher, called as the function it compiles

    if func is not None:
        return decorate(func)
    return decorate


def jit_disabled() -> bool:
    """True when the kernels run as plain Python (``NUMBA_DISABLE_JIT=1``, or
    the lean backend)."""
    return LEAN or bool(numba.config.DISABLE_JIT)  # type: ignore[attr-defined]  # set at run time from the environment


def kernel_errstate() -> contextlib.AbstractContextManager[object]:
    """Context for calling kernels: silences uint64 overflow warnings when
    the kernels run as plain Python; does nothing when they are compiled."""
    if jit_disabled():
        return np.errstate(over="ignore")
    return contextlib.nullcontext()


@_njit(inline="always")
def _sel(c: Int64, a: Int64, b: Int64) -> Int64:
    """``a if c else b`` for c in {0, 1}, without a branch."""
    return b ^ ((a ^ b) & -c)


P = ParamSpec("P")
R = TypeVar("R")


def call(kernel: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Call a kernel: the one way the package does (inside
    :func:`kernel_errstate`, so that it runs as plain Python too)."""
    with kernel_errstate():
        return kernel(*args, **kwargs)


# Intrinsics: single instructions numba does not offer, each with its plain-Python
# twin.  The twin runs under NUMBA_DISABLE_JIT=1 and gives mypy the intrinsic's type.

# numba's view of an intrinsic's typing and lowering (numba.core.typing and
# llvmlite objects, which carry no types of their own)
_Codegen = Callable[[Any, Any, Any, Any], Any]


def _intrinsic(typer: Callable[..., tuple[Any, _Codegen]], twin: F) -> F:
    """``typer`` as a numba intrinsic when the kernels are compiled, else
    ``twin``; either way typed as ``twin``."""
    if jit_disabled():
        return twin
    return cast(F, intrinsic(typer))


def _prefetch_twin(array: np.ndarray, i: Int64) -> None:
    """A hint only: nothing to do when the kernels run as plain Python."""


def _prefetch_typer(typingctx: Any, array: Any, i: Any) -> tuple[Any, _Codegen]:
    """Ask the processor to bring ``array[i]`` into its caches without
    waiting for it (x86 ``prefetcht0``); ``i`` need not be valid."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        arraytype = signature.args[0]
        data = context.make_array(arraytype)(context, builder, args[0]).data
        pointer = builder.gep(data, [args[1]])  # no bounds check, no wrap-around: a hint only
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0"
        )
        builder.call(fn, [builder.bitcast(pointer, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, i), codegen


prefetch = _intrinsic(_prefetch_typer, _prefetch_twin)


def _lowest_bit_twin(bits: Int64) -> int:
    """The place of the lowest set bit of ``bits`` > 0."""
    return (int(bits) & -int(bits)).bit_length() - 1


def _lowest_bit_typer(typingctx: Any, bits: Any) -> tuple[Any, _Codegen]:
    """The place of the lowest set bit of the int64 ``bits`` > 0 (x86 ``tzcnt``)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


lowest_bit = _intrinsic(_lowest_bit_typer, _lowest_bit_twin)


def _mul_high_twin(a: np.uint64, b: np.uint64) -> np.uint64:
    """The high 64 bits of the 128-bit product ``a * b``."""
    return _U64((int(a) * int(b)) >> 64)


def _mul_high_typer(typingctx: Any, a: Any, b: Any) -> tuple[Any, _Codegen]:
    """The high 64 bits of the 128-bit product of the uint64s ``a * b``
    (one x86 ``mul``)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i128 = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        return builder.trunc(builder.lshr(product, ir.Constant(i128, 64)), ir.IntType(64))

    return types.uint64(types.uint64, types.uint64), codegen


_mul_high = _intrinsic(_mul_high_typer, _mul_high_twin)


@_njit(inline="always")
def _U(i: Int64) -> np.uint64:
    """An index known to be >= 0, as unsigned: numba then skips the code
    that wraps negative indices around (a few instructions per access)."""
    return _U64(i)
