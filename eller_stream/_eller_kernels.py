"""Eller's algorithm: the kernel behind :class:`~eller_stream.EllerStream`
(and, through the banded kernels, :class:`~eller_stream.InfiniteMaze`).

Cell ``i`` of a stream uses the random bits ``random_bits(key, i)`` (see
``_rng``): the low 32 bits decide its east wall, the high 32 bits its south
wall, so the rows are the same whichever way they are chunked.
"""

from __future__ import annotations

import numpy as np

from ._eller_planes import (
    DEEPEST,
    PLANES_FROM,
    SETS_WORDS,
    lists_of_planes,
    planes_of_lists,
    planes_rows,
    scratch_rows,
)
from ._format import EAST
from ._numba import _U64, Int64, _njit, _sel
from ._rng import _LOW32, _S32, random_bits

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
# from memory would put a store-to-load round trip on the critical path;
# x's own entries are stored once, at the end of its step, from them
# (``_own``).  ``left``/``right`` therefore have ``width + 3`` slots: the scratch slot and
# two slots that the look-ahead loads may touch at the end of a row.  A row's
# draws are made first, in a vectorised loop (``row_draws``), and the sweep
# reads them.
# ---------------------------------------------------------------------------

LR_PAD = 3


@_njit(inline="always")
def _link(left: np.ndarray, right: np.ndarray, a: Int64, b: Int64, do: Int64, scratch: Int64) -> None:
    """If ``do``, make ``b`` the cell after ``a`` in their list (and ``a``
    the cell before ``b``); else write only to scratch."""
    right[np.uint64(_sel(do, a, scratch))] = b
    left[np.uint64(_sel(do, b, scratch))] = a


@_njit(inline="always")
def _join(
    left: np.ndarray, right: np.ndarray, x: Int64, a: Int64, b: Int64, join: Int64, scratch: Int64
) -> None:
    """If ``join``, splice the list of x+1's set (``a``: its cell before
    x+1) into that of x's set (``b``: its cell after x), keeping it sorted;
    else write only to scratch."""
    _link(left, right, a, b, join, scratch)
    right[np.uint64(_sel(join, x, scratch))] = x + 1
    left[np.uint64(_sel(join, x + 1, scratch))] = x


@_njit(inline="always")
def _leave(
    left: np.ndarray, right: np.ndarray, x: Int64, lx: Int64, rx: Int64, close: Int64, scratch: Int64
) -> None:
    """If ``close``, take cell x (neighbours lx, rx in its list) out of its
    set's list and make it a set of its own; else write only to scratch."""
    _link(left, right, lx, rx, close, scratch)
    i = np.uint64(_sel(close, x, scratch))
    left[i] = x
    right[i] = x


@_njit(inline="always")
def _after_join(
    join: Int64, x: Int64, a: Int64, b: Int64, lx: Int64, rx: Int64, l1: Int64, r1: Int64, l2: Int64
) -> tuple[Int64, Int64, Int64, Int64, Int64]:
    """The list registers of :func:`eller_rows` (``lx``, ``rx``: left and
    right of x; ``l1``, ``r1``: of x+1; ``l2``: left of x+2) after
    :func:`_join` of x and x+1 (``a``: left of x+1, ``b``: right of x)."""
    x1 = x + 1
    return (
        _sel(join & np.int64(b == x), a, lx),
        _sel(join, x1, rx),
        _sel(join, x, l1),
        _sel(join & np.int64(a == x1), b, r1),
        _sel(join & np.int64(b == x + 2), a, l2),
    )


@_njit(inline="always")
def _after_leave(
    close: Int64, x: Int64, lx: Int64, rx: Int64, l1: Int64, r1: Int64, l2: Int64
) -> tuple[Int64, Int64, Int64]:
    """``l1``, ``r1``, ``l2`` (see :func:`_after_join`) after :func:`_leave`
    of x (its neighbours ``lx``, ``rx``)."""
    x1 = x + 1
    return (
        _sel(close & np.int64(rx == x1), lx, l1),
        _sel(close & np.int64(lx == x1), rx, r1),
        _sel(close & np.int64(rx == x + 2), lx, l2),
    )


@_njit(inline="always")
def eller_cell(
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    xx: Int64,
    bits: np.uint64,
    lx: Int64,
    rx: Int64,
    l1: Int64,
    join_below: np.uint64,
    open_below: np.uint64,
    scratch: Int64,
) -> tuple[Int64, Int64, Int64]:
    """Cell ``xx`` of an Eller row (not its last) with the random ``bits``:
    its east wall, then its south wall (closed when the high 32 bits are at
    least ``open_below``, unless x is alone).  ``lx``, ``rx``, ``l1``: the
    list registers (``left[x]``, ``right[x]``, ``left[x + 1]``); returns them
    for cell x + 1.

    Cell x's own entries are stored once, at the end of its step, from the
    registers; the join's ``left[x + 1] = x`` stays in ``l1`` until x + 1's
    step stores it (six stores a cell, not eight)."""
    x1 = xx + 1
    x2 = xx + 2
    r1: Int64 = np.int64(right[np.uint64(x1)])  # unsigned: no negative-index wrap code
    l2: Int64 = np.int64(left[np.uint64(x2)])
    # East wall: join x's set A with x+1's set B if they differ.
    a = l1  # previous cell of B
    b = rx  # next cell of A
    join = np.int64(a != xx) & np.int64((bits & _LOW32) < join_below)
    _link(left, right, a, b, join, scratch)  # the join's splice; x's and x + 1's entries come later
    lx, rx, l1, r1, l2 = _after_join(join, xx, a, b, lx, rx, l1, r1, l2)
    # South wall: close it (x leaves its set) unless x is alone.
    close = np.int64(lx != xx) & np.int64((bits >> _S32) >= open_below)
    _own(left, right, xx, lx, rx, close, scratch)
    l1, r1, l2 = _after_leave(close, xx, lx, rx, l1, r1, l2)
    row[np.uint64(xx)] = np.uint8(join | ((close ^ 1) << 1))
    return l1, r1, l2


@_njit(inline="always")
def _own(
    left: np.ndarray, right: np.ndarray, x: Int64, lx: Int64, rx: Int64, close: Int64, scratch: Int64
) -> None:
    """:func:`_leave` that also stores x's own entries when it stays (its
    list neighbours ``lx``, ``rx``): after it, x's entries in memory are
    right whatever ``close`` was."""
    _link(left, right, lx, rx, close, scratch)
    left[np.uint64(x)] = _sel(close, x, lx)
    right[np.uint64(x)] = _sel(close, x, rx)


@_njit(inline="always")
def eller_last_cell(
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    bits: np.uint64,
    lx: Int64,
    rx: Int64,
    open_below: np.uint64,
    scratch: Int64,
) -> None:
    """The last cell of an Eller row (no east passage), with the random
    ``bits`` and its list registers ``lx``, ``rx``."""
    xx = np.int64(row.shape[0] - 1)
    close = np.int64(lx != xx) & np.int64((bits >> _S32) >= open_below)
    _own(left, right, xx, lx, rx, close, scratch)
    row[xx] = np.uint8((close ^ 1) << 1)


@_njit(inline="always")
def row_draws(draws: np.ndarray, key: np.uint64, counter: np.uint64) -> None:
    """The random bits of a row's cells, draws ``counter ..`` into ``draws``
    (vectorised: made before the sweep, they keep the hash off its
    serial chain of list updates, about 10% of an Eller row's time)."""
    for x in range(draws.shape[0]):
        draws[x] = random_bits(key, counter + _U64(x))


@_njit(inline="always")
def eller_sweep(
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    draws: np.ndarray,
    join_below: np.uint64,
    open_below: np.uint64,
) -> None:
    """One Eller row into ``row`` from the sets ``left``/``right``, cell x
    with the random bits ``draws[x]`` (:func:`eller_cell`, then
    :func:`eller_last_cell`)."""
    width = row.shape[0]
    scratch = np.int64(width)
    last = width - 1
    # lx, rx: left[x], right[x]; l1: left[x + 1] (current values)
    lx: Int64 = np.int64(left[0])
    rx: Int64 = np.int64(right[0])
    l1: Int64 = np.int64(left[1])
    for x in range(last):
        bits = draws[x]
        lx, rx, l1 = eller_cell(
            left, right, row, np.int64(x), bits, lx, rx, l1, join_below, open_below, scratch
        )
    eller_last_cell(left, right, row, draws[last], lx, rx, open_below, scratch)


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

    Rows of ``PLANES_FROM`` cells or more, several at a time, are made on
    bit planes (:mod:`._eller_planes`): the same rows, faster.
    """
    # Python ints below 2**63 would be typed int64, and int64 mixed with
    # uint64 is float64 in numba: fix every generator input's type here.
    key = _U64(key)
    counter = _U64(counter)
    join_below = _U64(join_below)
    open_below = _U64(open_below)
    n_rows, width = out.shape
    if width >= PLANES_FROM and n_rows > 1:
        # typed int64, not a literal: the tests' calls share the compiled kernel
        return rows_by_planes(left, right, out, key, counter, join_below, open_below, np.int64(DEEPEST))
    draws = np.empty(width, np.uint64)
    for y in range(n_rows):
        row_draws(draws, key, counter)
        counter += _U64(width)
        eller_sweep(left, right, out[y], draws, join_below, open_below)
    return counter


@_njit
def rows_by_planes(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
    deepest: Int64,
) -> np.uint64:
    """:func:`eller_rows` on bit planes (:func:`planes_eller`), the sets
    converted from the lists and back."""
    width = out.shape[1]
    nw = (width + 63) // 64
    work = np.zeros((SETS_WORDS, nw + 1), np.uint64)
    base = np.empty(nw + 1, np.int64)
    P, N = work[0], work[1]
    planes_of_lists(left, right, P, N, width)
    counter = planes_eller(
        P, N, left, right, out, key, counter, join_below, open_below, deepest, work[2:], base
    )
    lists_of_planes(P, N, left, right, width)
    return counter


@_njit(refcounts=False)
def planes_eller(
    P: np.ndarray,
    N: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
    deepest: Int64,
    work: np.ndarray,
    base: np.ndarray,
) -> np.uint64:
    """Eller's rows into ``out`` on bit planes from the sets ``P``, ``N``
    (:func:`planes_rows`, left as the sets after them); a row whose sets
    nest deeper than ``deepest`` by the lists (``left``, ``right``: scratch
    of ``width + LR_PAD``).  Returns the counter after the last cell.
    ``work`` (``SCRATCH_ROWS`` rows of ``nw + 1`` words, its first zero:
    :func:`scratch_rows`) and ``base`` (``nw + 1`` int64s): scratch, made by
    the caller (no reference counts here)."""
    n_rows, width = out.shape
    no_doors, no_rooms, words, depths = scratch_rows(work, (width + 63) // 64)
    y: Int64 = 0
    while y < n_rows:
        at = counter + _U64(y) * _U64(width)
        y += planes_rows(
            P, N, out[y:], key, at, join_below, open_below, deepest, no_doors, no_doors, no_rooms,
            words, depths, base,
        )  # fmt: skip
        if y < n_rows:
            at = counter + _U64(y) * _U64(width)
            _row_off_planes(P, N, left, right, out[y], key, at, join_below, open_below)
            y += 1
    return counter + _U64(n_rows) * _U64(width)


@_njit
def _row_off_planes(
    P: np.ndarray,
    N: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    key: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
) -> None:
    """A row whose sets nest too deep for the planes, by the lists, the
    sets ``P``, ``N`` converted to them and back (a kernel of its own: it
    allocates its draws)."""
    width = row.shape[0]
    lists_of_planes(P, N, left, right, width)
    draws = np.empty(width, np.uint64)
    row_draws(draws, key, counter)
    eller_sweep(left, right, row, draws, join_below, open_below)
    planes_of_lists(left, right, P, N, width)


@_njit(refcounts=False)
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
