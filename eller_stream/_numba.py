"""The package's numba settings, and the small branch-free helpers the
kernels share.

Every kernel of the package is compiled by :func:`_njit`: cached, without
the GIL, without bounds checks.  Nothing a kernel is given is checked: the
public modules validate their arguments first, and pass arrays of the right
dtype, shape and contents.

numba itself is imported when a kernel is first called (:func:`load`), not
with the package: until then each kernel is a stand-in. On the lean backend
(:mod:`eller_stream._backend`) it never is, and each kernel is its plain
Python function.

The kernels also run as plain Python (``NUMBA_DISABLE_JIT=1``); they then
use numpy scalars and must be called inside :func:`kernel_errstate`, which
silences numpy's warnings about the (intended) uint64 wrap-around.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, Literal, ParamSpec, TypeVar, cast, overload

import numpy as np

from . import _fork
from . import _kernel_cache as kernel_cache
from . import _plain as plain
from ._backend import LEAN

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
Inline = Literal["never", "always", "ir"]
_HOW: dict[str, Any] = {"always": {"forceinline": True, "_nrt": False}, "ir": {"inline": "always"}}


@overload
def _njit(func: F, /) -> F: ...


@overload
def _njit(*, inline: Inline = ..., refcounts: bool = ...) -> Callable[[F], F]: ...


def _njit(
    func: F | None = None, /, *, inline: Inline = "never", refcounts: bool = True
) -> F | Callable[[F], F]:
    """numba.njit with the package's settings (cache, nogil, no bounds checks).
    ``refcounts=False``: no reference counts (numba's ``_nrt``), no atomic
    operation each time a view is made or a helper takes an array
    (``docs/internals.md``); such a kernel must not allocate or return arrays.
    ``inline="always"``: LLVM inlines it in its callers (typed and lowered
    once a signature), without reference counts, so the same rule holds;
    ``inline="ir"``: numba copies it into each caller, to be typed there.

    ``@_njit`` and ``@_njit(...)`` return the function's own type, so that
    mypy checks every call of a kernel against its annotations (run as plain
    Python under ``NUMBA_DISABLE_JIT=1``, a kernel is the function itself).

    Until numba is imported (:func:`load`) the kernel is a stand-in. Where
    numba finds nowhere to write its cache (a read-only install with an
    unwritable home), ``cache=True`` fails when the dispatcher is made ("no
    locator available"): the kernel is then compiled without the cache, and
    a note says so on stderr, once per process."""

    def decorate(func: F) -> F:
        if LEAN:
            return func
        kernel_cache.defined(func)  # the files numba's cache is keyed on, as imported
        return cast(F, _stand_in(lambda: _jit(func, inline, refcounts), func))

    if func is not None:
        return decorate(func)
    return decorate


def _jit(func: Callable[..., object], inline: Inline, refcounts: bool) -> object:
    import numba

    def jit(cache: bool) -> object:
        options: dict[str, Any] = {"cache": cache, "_nrt": refcounts, **_HOW.get(inline, {})}  # _nrt: no stub
        return numba.njit(func, nogil=True, boundscheck=False, **options)

    try:
        dispatcher = jit(cache=True)
    except RuntimeError as exc:
        if "no locator available" not in str(exc):
            raise
        if not _no_cache_noted[0]:
            _no_cache_noted[0] = True
            print(_NO_CACHE_NOTE, file=sys.stderr)
        return jit(cache=False)
    kernel_cache.restamp(dispatcher)  # keyed on every module: a kernel holds the code of those it calls
    return dispatcher


# -- numba is imported when a kernel is first needed --------------------------------
#
# Importing numba takes a fifth of a second and 60 MB: a stream's first rows, which the lean twins
# make (eller_stream._engine), need not wait for it. Until then each kernel is a _Lazy stand-in; the
# first call of any of them (often in the thread that gets the kernels ready) imports numba, makes every
# kernel's dispatcher and puts the dispatchers where the stand-ins were, in every module of the
# package, so that numba finds dispatchers when it compiles a kernel that calls another.


class _Prange:  # numba.prange's stand-in (the kernels' parallel loops) until numba is imported
    def __call__(self, *args: int) -> range:
        return range(*args)


_lazies: list[_Lazy] = []
_loaded: list[bool] = [False]
_broken: list[bool] = [False]  # numba was found but failed to import
_load_lock = threading.RLock()
_fork.holds_across(_load_lock)  # a fork never copies numba half imported
_PRANGE = _Prange()
prange: Any = range if LEAN else _PRANGE


class _Lazy:
    """A kernel before numba is imported; called, it loads numba (:func:`load`)."""

    def __init__(self, make: Callable[[], object], py_func: Callable[..., object]) -> None:
        self.make = make
        self.py_func = py_func
        self.compiled: Any = None
        if _loaded[0]:  # a module imported after numba was: at once
            self.compiled = py_func if _broken[0] else make()
        if self.compiled is None:
            _lazies.append(self)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        first = self.compiled is None
        if first:
            load()
        if first and _broken[0]:  # the caller chose its errstate before it knew: plain Python now
            with np.errstate(over="ignore"):
                return self.compiled(*args, **kwargs)
        return self.compiled(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:  # a dispatcher's attributes (signatures, ...)
        if name.startswith("__") or name in ("make", "py_func", "compiled"):
            raise AttributeError(name)
        if self.compiled is None:
            load()
        return getattr(self.compiled, name)


def _stand_in(make: Callable[[], object], py_func: Callable[..., object]) -> object:
    """A kernel: its dispatcher (``make()``) once numba is loaded, else a :class:`_Lazy`."""
    lazy = _Lazy(make, py_func)
    return plain.remember(lazy.compiled if lazy.compiled is not None else lazy, py_func)


def load() -> None:
    """Import numba, make every kernel's dispatcher and put it in the place of
    its stand-in in the package's modules (once). The import runs in a thread
    other than the main one (called there, this waits for a new thread): a
    signal, always handled in the main thread, then never lands inside
    numba's import, whose code could catch or print what it raises."""
    if _loaded[0] or LEAN:
        return
    if threading.current_thread() is not threading.main_thread():
        _load()
        return
    failed: list[BaseException] = []

    def work() -> None:
        try:
            _load()
        except BaseException as exc:  # raised again here, in the caller's thread
            failed.append(exc)

    worker = threading.Thread(target=work, name="numba-import", daemon=True)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]


def _load() -> None:
    _fork.guard()
    with _load_lock:
        if _loaded[0] or LEAN:
            return
        try:
            import numba
        except Exception as exc:  # installed but broken: the kernels run as plain Python, the engine lean
            from ._backend import numba_failed

            numba_failed(f"{type(exc).__name__}: {exc}")
            note = f"eller_stream: note: numba failed to import ({exc}): the lean backend goes on"
            print(note, file=sys.stderr)
            _broken[0] = True
        else:
            globals().update(numba=numba)
        for lazy in _lazies:
            lazy.compiled = plain.remember(lazy.py_func if _broken[0] else lazy.make(), lazy.py_func)
        found: dict[int, object] = {id(lazy): lazy.compiled for lazy in _lazies}
        placeholder = _PRANGE  # a local: the scan below replaces the module's own names too
        found[id(placeholder)] = range if _broken[0] else numba.prange
        for name, module in list(sys.modules.items()):
            if module is None or not (name == "eller_stream" or name.startswith("eller_stream.")):
                continue
            space = vars(module)
            for key, value in list(space.items()):
                if (isinstance(value, _Lazy) or value is placeholder) and id(value) in found:
                    space[key] = found[id(value)]
        _lazies.clear()
        _loaded[0] = True


def jit_disabled() -> bool:
    """True when the kernels run as plain Python (``NUMBA_DISABLE_JIT=1``, or
    the lean backend); it does not import numba."""
    if LEAN or _broken[0]:
        return True
    if _loaded[0]:  # not while another thread imports numba: its module is then only partly there
        return bool(sys.modules["numba"].config.DISABLE_JIT)
    return os.environ.get("NUMBA_DISABLE_JIT", "0").strip() not in ("", "0")


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


# Intrinsics: single instructions numba does not offer, each with its plain-Python twin. The twin
# runs under NUMBA_DISABLE_JIT=1 and gives mypy the intrinsic's type. _Codegen: numba's view of an
# intrinsic's typing and lowering (numba.core.typing and llvmlite objects, which carry no types).
_Codegen = Callable[[Any, Any, Any, Any], Any]


def _intrinsic(typer: Callable[..., tuple[Any, _Codegen]], twin: F) -> F:
    """``typer`` as a numba intrinsic when the kernels are compiled, else
    ``twin``; either way typed as ``twin``."""
    if jit_disabled():
        return twin

    def make() -> object:
        from numba.extending import intrinsic

        return intrinsic(typer)

    return cast(F, _stand_in(make, twin))


def _is_bytes(array: Any) -> bool:
    """Whether numba's type ``array`` is a C-contiguous uint8 array (what the
    byte intrinsics below take)."""
    from numba import types

    return isinstance(array, types.Array) and array.dtype == types.uint8 and array.layout == "C"


def _at(context: Any, builder: Any, signature: Any, args: Any, pointee: Any) -> Any:
    """An intrinsic's pointer to element ``args[1]`` of its array ``args[0]``,
    as a pointer to the llvmlite type ``pointee`` (no bounds check)."""
    data = context.make_array(signature.args[0])(context, builder, args[0]).data
    return builder.bitcast(builder.gep(data, [args[1]]), pointee.as_pointer())


def _splat(builder: Any, value: Any, lanes: int) -> Any:
    """The llvmlite integer ``value`` in each of the ``lanes`` lanes of a vector."""
    from llvmlite import ir

    vector = ir.VectorType(value.type, lanes)
    one = builder.insert_element(ir.Constant(vector, ir.Undefined), value, ir.Constant(ir.IntType(32), 0))
    picks = ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes)
    return builder.shuffle_vector(one, ir.Constant(vector, ir.Undefined), picks)


def _prefetch_twin(array: np.ndarray, i: Int64) -> None:
    """A hint only: nothing to do when the kernels run as plain Python."""


def _prefetch_typer(typingctx: Any, array: Any, i: Any) -> tuple[Any, _Codegen]:
    """Ask the processor to bring ``array[i]`` into its caches without
    waiting for it (x86 ``prefetcht0``); ``i`` need not be valid."""
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pointer = _at(context, builder, signature, args, ir.IntType(8))  # no wrap-around: a hint only
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0"
        )
        builder.call(fn, [pointer, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, i), codegen


prefetch = _intrinsic(_prefetch_typer, _prefetch_twin)


def _lowest_bit_twin(bits: Int64) -> int:
    """The place of the lowest set bit of ``bits`` > 0."""
    return (int(bits) & -int(bits)).bit_length() - 1


def _lowest_bit_typer(typingctx: Any, bits: Any) -> tuple[Any, _Codegen]:
    """The place of the lowest set bit of the int64 ``bits`` > 0 (x86 ``tzcnt``)."""
    from llvmlite import ir
    from numba import types

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
    from llvmlite import ir
    from numba import types

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i128 = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        return builder.trunc(builder.lshr(product, ir.Constant(i128, 64)), ir.IntType(64))

    return types.uint64(types.uint64, types.uint64), codegen


_mul_high = _intrinsic(_mul_high_typer, _mul_high_twin)


def _bits_of_twin(bytes_: np.ndarray, start: Int64, flag: Int64) -> np.uint64:
    """Bit ``i`` set where ``bytes_[start + i] & flag``, for i in 0 .. 63."""
    word = 0
    for i, v in enumerate(bytes_[start : start + 64]):
        word |= int(bool(int(v) & int(flag))) << i
    return _U64(word)


def _bits_of_typer(typingctx: Any, bytes_: Any, start: Any, flag: Any) -> tuple[Any, _Codegen]:
    """Bit ``i`` of the uint64 set where ``bytes_[start + i] & flag``, for i
    in 0 .. 63 (``bytes_``: C-contiguous uint8 with 64 entries from
    ``start``): one vector load and an AVX-512 ``vptestmb``."""
    from llvmlite import ir
    from numba import types

    if not _is_bytes(bytes_):
        return None  # type: ignore[return-value]  # numba: no such signature

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        vector = ir.VectorType(ir.IntType(8), 64)
        loaded = builder.load(_at(context, builder, signature, args, vector), align=1)
        flag = _splat(builder, builder.trunc(args[2], ir.IntType(8)), 64)
        set_ = builder.icmp_unsigned("!=", builder.and_(loaded, flag), ir.Constant(vector, [0] * 64))
        return builder.bitcast(set_, ir.IntType(64))

    return types.uint64(bytes_, types.int64, types.int64), codegen


bits_of = _intrinsic(_bits_of_typer, _bits_of_twin)


def _or_at_bits_twin(bytes_: np.ndarray, start: Int64, bits: np.uint64, flag: Int64) -> None:
    """``bytes_[start + i] |= flag`` where bit ``i`` of ``bits`` is set, for i in 0 .. 63."""
    for i in range(64):
        if int(bits) >> i & 1:
            bytes_[start + i] |= flag


def _or_at_bits_typer(typingctx: Any, bytes_: Any, start: Any, bits: Any, flag: Any) -> tuple[Any, _Codegen]:
    """``bytes_[start + i] |= flag`` where bit ``i`` of the uint64 ``bits``
    is set, for i in 0 .. 63 (``bytes_``: C-contiguous uint8 with 64 entries
    from ``start``, all read and written back): one vector load, a masked
    ``vpord`` and one store."""
    from llvmlite import ir
    from numba import types

    if not _is_bytes(bytes_):
        return None  # type: ignore[return-value]  # numba: no such signature

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        vector = ir.VectorType(ir.IntType(8), 64)
        pointer = _at(context, builder, signature, args, vector)
        where = builder.bitcast(args[2], ir.VectorType(ir.IntType(1), 64))
        flag = _splat(builder, builder.trunc(args[3], ir.IntType(8)), 64)
        added = builder.select(where, flag, ir.Constant(vector, [0] * 64))
        builder.store(builder.or_(builder.load(pointer, align=1), added), pointer, align=1)
        return context.get_dummy_value()

    return types.void(bytes_, types.int64, types.uint64, types.int64), codegen


or_at_bits = _intrinsic(_or_at_bits_typer, _or_at_bits_twin)


def _load_u64_twin(bytes_: np.ndarray, start: Int64) -> np.uint64:
    """The little-endian uint64 of ``bytes_[start : start + 8]``."""
    return _U64(int.from_bytes(bytes(bytes_[start : start + 8]), "little"))


def _load_u64_typer(typingctx: Any, bytes_: Any, start: Any) -> tuple[Any, _Codegen]:
    """The uint64 of the 8 bytes of ``bytes_`` (C-contiguous uint8) from
    ``start``, at any alignment (little-endian: x86)."""
    from llvmlite import ir
    from numba import types

    if not _is_bytes(bytes_):
        return None  # type: ignore[return-value]  # numba: no such signature

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.load(_at(context, builder, signature, args, ir.IntType(64)), align=1)

    return types.uint64(bytes_, types.int64), codegen


load_u64 = _intrinsic(_load_u64_typer, _load_u64_twin)


def _store_u64_twin(bytes_: np.ndarray, start: Int64, value: np.uint64) -> None:
    """``bytes_[start : start + 8]`` = the little-endian bytes of ``value``."""
    bytes_[start : start + 8] = np.frombuffer(int(value).to_bytes(8, "little"), np.uint8)


def _store_u64_typer(typingctx: Any, bytes_: Any, start: Any, value: Any) -> tuple[Any, _Codegen]:
    """Write the uint64 ``value`` into the 8 bytes of ``bytes_`` (C-contiguous
    uint8) from ``start``, at any alignment (little-endian: x86)."""
    from llvmlite import ir
    from numba import types

    if not _is_bytes(bytes_):
        return None  # type: ignore[return-value]  # numba: no such signature

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        builder.store(args[2], _at(context, builder, signature, args, ir.IntType(64)), align=1)
        return context.get_dummy_value()

    return types.void(bytes_, types.int64, types.uint64), codegen


store_u64 = _intrinsic(_store_u64_typer, _store_u64_twin)


@_njit(inline="always")
def _U(i: Int64) -> np.uint64:
    """An index known to be >= 0, as unsigned: numba then skips the code
    that wraps negative indices around (a few instructions per access)."""
    return _U64(i)


@_njit(inline="always")
def low_bits(n: Int64) -> np.uint64:
    """A uint64 with its ``n`` low bits set, 1 <= n <= 64 (no shift by 64)."""
    return _U64(0xFFFFFFFFFFFFFFFF) >> _U64(64 - n)
