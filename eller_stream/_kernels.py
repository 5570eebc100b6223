"""Numba kernels: every per-cell loop of the package lives here.

The public modules validate their arguments, then call these functions.
Nothing here checks its inputs; callers must pass arrays of the right
dtype, shape and contents.

Random numbers come from a counter-based generator (the SplitMix64
finaliser applied to ``key + counter * GOLDEN``): cell ``i`` of a stream
always sees the same 64 random bits, whichever way the rows are chunked,
and no generator state other than the counter needs to be saved.

The kernels also run as plain Python (``NUMBA_DISABLE_JIT=1``); they then
use numpy scalars and must be called inside :func:`kernel_errstate`, which
silences numpy's warnings about the (intended) uint64 wrap-around.
"""

from __future__ import annotations

import contextlib
import sys
import types

import numba
import numpy as np

EAST = 1
SOUTH = 2

_U64 = np.uint64
_GOLDEN = _U64(0x9E3779B97F4A7C15)
_MIX1 = _U64(0xBF58476D1CE4E5B9)
_MIX2 = _U64(0x94D049BB133111EB)
_LOW32 = _U64(0xFFFFFFFF)
_S30 = _U64(30)
_S27 = _U64(27)
_S31 = _U64(31)
_S32 = _U64(32)


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


def kernel_errstate() -> contextlib.AbstractContextManager[object]:
    """Context for calling kernels: silences uint64 overflow warnings when
    the kernels run as plain Python; does nothing when they are compiled."""
    if numba.config.DISABLE_JIT:
        return np.errstate(over="ignore")
    return contextlib.nullcontext()


def threshold(p: float) -> np.uint64:
    """A probability as a threshold on 32 random bits (1.0 -> 2**32: always)."""
    return np.uint64(round(p * 2**32))


@_njit
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64 finaliser: a bijective 64-bit hash."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


def _mix64_int(z: int) -> int:
    """mix64 on Python ints (for the few calls made outside kernels)."""
    mask = 2**64 - 1
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def seed_key(seed: int) -> np.uint64:
    """Turn a user seed into the generator key.  Plain Python, so that a new
    stream does not have to load a compiled function before its first row."""
    return np.uint64(_mix64_int(_mix64_int((int(seed) + 0x9E3779B97F4A7C15) & (2**64 - 1)) ^ 0x656C6C6572))


@_njit(inline="always")
def random_bits(key: np.uint64, counter: np.uint64) -> np.uint64:
    """The 64 random bits of cell number ``counter`` of the stream ``key``."""
    return mix64(_U64(key) + _U64(counter) * _GOLDEN)


# ---------------------------------------------------------------------------
# Eller's algorithm
#
# The sets of the current row are kept as circular doubly linked lists of
# their cells in left-to-right order (``left[x]``/``right[x]``: previous/next
# cell of x's set, wrapping around), as in Eller's own L/R arrays.  Sets never
# cross, so
#   * x and x+1 share a set exactly when left[x+1] == x, and
#   * joining them is a constant-time splice that keeps every list sorted.
# A cell whose south wall closes leaves its set's list (the cell below it
# starts a set of its own); the last cell of a set cannot close.
#
# Speed: coin flips are unpredictable, so the kernel has no branch on them.
# Every conditional store goes either to its cell or to the scratch slot
# ``width`` (``_sel`` picks the index without a branch).  The lists are also
# followed in registers for the cells x, x+1 (left and right) and x+2 (left):
# the stores of one step often hit exactly those cells, and reading them back
# from memory would put a store-to-load round trip on the critical path.
# ``left``/``right`` therefore have ``width + 3`` slots: the scratch slot and
# two slots that the look-ahead loads may touch at the end of a row.
# ---------------------------------------------------------------------------

LR_PAD = 3


@_njit(inline="always")
def _sel(c: int, a: int, b: int) -> int:
    """``a if c else b`` for c in {0, 1}, without a branch."""
    return b ^ ((a ^ b) & -c)


@_njit(inline="always")
def _join(left: np.ndarray, right: np.ndarray, x: int, a: int, b: int, join: int, scratch: int) -> None:
    """If ``join``, splice the list of x+1's set (``a``: its cell before
    x+1) into that of x's set (``b``: its cell after x), keeping it sorted;
    else write only to scratch."""
    right[np.uint64(_sel(join, a, scratch))] = b
    left[np.uint64(_sel(join, b, scratch))] = a
    right[np.uint64(_sel(join, x, scratch))] = x + 1
    left[np.uint64(_sel(join, x + 1, scratch))] = x


@_njit(inline="always")
def _leave(left: np.ndarray, right: np.ndarray, x: int, lx: int, rx: int, close: int, scratch: int) -> None:
    """If ``close``, take cell x (neighbours lx, rx in its list) out of its
    set's list and make it a set of its own; else write only to scratch."""
    right[np.uint64(_sel(close, lx, scratch))] = rx
    left[np.uint64(_sel(close, rx, scratch))] = lx
    i = np.uint64(_sel(close, x, scratch))
    left[i] = x
    right[i] = x


@_njit
def eller_rows(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
) -> np.uint64:
    """Write ``out.shape[0]`` rows of Eller's algorithm into ``out``.

    ``join_below``/``open_below`` are the horizontal/vertical probabilities
    scaled to [0, 2**32].  Cell ``i`` of the stream uses the random bits
    ``random_bits(key, i)``: the low 32 bits decide its east wall, the high
    32 bits its south wall.  Returns the counter after the last cell.
    """
    # Python ints below 2**63 would be typed int64, and int64 mixed with
    # uint64 is float64 in numba: fix every generator input's type here.
    key = _U64(key)
    counter = _U64(counter)
    join_below = _U64(join_below)
    open_below = _U64(open_below)
    n_rows, width = out.shape
    scratch = np.int64(width)
    last = width - 1
    for y in range(n_rows):
        row = out[y]
        # lx, rx: left[x], right[x]; l1: left[x + 1] (current values)
        lx = np.int64(left[0])
        rx = np.int64(right[0])
        l1 = np.int64(left[1])
        for x in range(last):
            bits = random_bits(key, counter)
            counter += _U64(1)
            xx = np.int64(x)
            x1 = xx + 1
            x2 = xx + 2
            r1 = np.int64(right[np.uint64(x1)])  # unsigned: no negative-index wrap code
            l2 = np.int64(left[np.uint64(x2)])
            # East wall: join x's set A with x+1's set B if they differ.
            a = l1  # previous cell of B
            b = rx  # next cell of A
            join = np.int64(a != xx) & np.int64((bits & _LOW32) < join_below)
            _join(left, right, xx, a, b, join, scratch)
            rx = _sel(join, x1, rx)
            lx = _sel(join & np.int64(b == xx), a, lx)
            l1 = _sel(join, xx, l1)
            r1 = _sel(join & np.int64(a == x1), b, r1)
            l2 = _sel(join & np.int64(b == x2), a, l2)
            # South wall: close it (x leaves its set) unless x is alone.
            close = np.int64(lx != xx) & np.int64((bits >> _S32) >= open_below)
            _leave(left, right, xx, lx, rx, close, scratch)
            r1 = _sel(close & np.int64(lx == x1), rx, r1)
            l1 = _sel(close & np.int64(rx == x1), lx, l1)
            l2 = _sel(close & np.int64(rx == x2), lx, l2)
            row[np.uint64(xx)] = np.uint8(join | ((close ^ 1) << 1))
            lx = l1
            rx = r1
            l1 = l2
        # Last column: no east passage.
        bits = random_bits(key, counter)
        counter += _U64(1)
        xx = np.int64(last)
        close = np.int64(lx != xx) & np.int64((bits >> _S32) >= open_below)
        _leave(left, right, xx, lx, rx, close, scratch)
        row[last] = np.uint8((close ^ 1) << 1)
    return counter


@_njit
def eller_close(left: np.ndarray, right: np.ndarray, row: np.ndarray) -> None:
    """The closing row: join every pair of neighbours in different sets."""
    width = row.shape[0]
    for x in range(width - 1):
        a = left[x + 1]
        if a != x:
            b = right[x]
            right[a] = b
            left[b] = a
            right[x] = x + 1
            left[x + 1] = x
            row[x] = EAST
        else:
            row[x] = 0
    row[width - 1] = 0


@_njit
def is_noncrossing_partition(left: np.ndarray, right: np.ndarray) -> bool:
    """True when ``left``/``right`` (length = width) are inverse permutations
    whose cycles are sorted circular lists of non-crossing sets."""
    width = left.shape[0]
    seen = np.zeros(width, np.bool_)
    for x in range(width):
        lx = left[x]
        if lx < 0 or lx >= width or seen[lx] or right[lx] != x:
            return False
        seen[lx] = True
    # Each cycle must wrap around (step to a cell not to its right) once.
    seen[:] = False
    for x in range(width):
        if not seen[x]:
            wraps = 0
            y = x
            while not seen[y]:
                seen[y] = True
                if right[y] <= y:
                    wraps += 1
                y = right[y]
            if wraps != 1:
                return False
    # Walk left to right with a stack of the cells the open sets expect next.
    stack = np.empty(width, np.int64)
    depth = 0
    for x in range(width):
        if left[x] < x:  # not the first cell of its set: must be awaited
            if depth == 0 or stack[depth - 1] != x:
                return False
            depth -= 1
        if right[x] > x:
            stack[depth] = right[x]
            depth += 1
    return depth == 0


# ---------------------------------------------------------------------------
# Before the first compiled call in a process, numba spends ~0.3-0.45 s
# setting itself up (its typing and lowering registries), even to load a
# cached kernel.  A stream's first small block does not need to wait for
# that: the same kernels run as plain Python (the code the tests check
# against the compiled one with NUMBA_DISABLE_JIT) give the same rows.
# ---------------------------------------------------------------------------

INTERPRET_CELLS = 1024  # cells run as plain Python at most, per process (~25 us a cell)
_interpret_budget = [INTERPRET_CELLS]


def _interpreted_kernels() -> dict[str, object]:
    """Plain-Python twins of this module's kernels, calling each other."""
    env = dict(globals())
    for name, value in globals().items():
        func = getattr(value, "py_func", None)
        if func is not None:
            env[name] = types.FunctionType(
                func.__code__, env, func.__name__, func.__defaults__, func.__closure__
            )
    return env


_INTERPRETED = _interpreted_kernels()


def interpretable(name: str, cells: int) -> bool:
    """Would :func:`run` do a job of ``cells`` cells as plain Python?  Only
    while numba has not loaded kernel ``name`` in this process, and only for
    the first :data:`INTERPRET_CELLS` cells of the process: after that, numba
    sets itself up once and the compiled kernels take over."""
    return not numba.config.DISABLE_JIT and not globals()[name].signatures and cells <= _interpret_budget[0]


def run(name: str, cells: int, *args: object) -> object:
    """Call kernel ``name`` on a job of ``cells`` cells (see :func:`interpretable`)."""
    if interpretable(name, cells):
        _interpret_budget[0] -= cells
        with np.errstate(over="ignore"):
            return _INTERPRETED[name](*args)
    with kernel_errstate():
        return globals()[name](*args)
