"""Numba kernels for bounded grids: Growing Tree, the backtracker, the
walks behind the solver and the breadth-first sweeps behind the suggested
endpoints and the metrics.

Grids are passed flat (``grid.reshape(-1)``, row-major, ``i = y * width + x``).
The Python layer allocates every scratch array (so that memory is visible to
tracemalloc and bounded by what it asks for) and validates all inputs.

Per-cell state that a walk needs is kept in the spare bits of a byte per
cell, above the two passage flags:

    bit 0  EAST      bit 1  SOUTH     bit 2  VISITED
    bits 3-4  the direction back to the parent cell (N, S, W, E)

so the backtracker's whole stack lives inside the maze it builds (one byte
per cell in all).  Growing Tree works in a copy of the maze framed by a row
and a column of cells on each side, so that no step tests the bounds, and
keeps in each cell which of its neighbours are still unvisited:

    bits 4-7  free sides: north, south, west, east (FREE_SHIFT)

so that picking a cell reads its own byte, not its four neighbours' (three
cache lines, and a far random pick of a cell that cannot grow any more
needs no more than that byte); entering a cell clears the bit pointing at
it in each of its neighbours (:func:`_enter`).  Randomized Prim does so
too (it used to mark cells visited in bit 2 and read the four neighbours:
the free sides measured 0.86-0.91x the time, with the same mazes).

The analysis works on passage masks (one byte per cell, a bit for
each of the four directions): in a tree the only neighbour already seen is
the one a walk came from, so the tree walk and the tree sweep need no
visited marks; they notice a loop, and the caller starts again with marks.

What costs time here is waiting for memory (the cells of a big maze are
read out of order) and mispredicted branches.  Where the cells to come are
known in advance (a queue, the draws of later steps) the kernels ask for
their bytes early with :func:`prefetch`; branch-free selects (``_sel``)
replace branches the processor cannot predict, but only where they do not
lengthen the chain from one step to the next: in the depth-first kernels a
predicted branch lets the processor run ahead, and measured faster.
In a mix, where the branch on the strategy cannot be predicted, the draws
are made a batch at a time, two batches ahead, in a loop of their own
(four at once, SIMD): a step then reads its draw rather than hashing it,
and the branch is settled sooner (newest:50,oldest:50: 0.89x the time).
"""

from __future__ import annotations

import itertools

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ._numba import _U64, _njit, _sel
from ._rng import mix64, random_bits

VISITED = 4
# when a random pick's rank is drawn (part of the stream).  A rank drawn early
# is uniform over the list as it is then plus the most it can grow before the
# pick; at the pick, a rank past the end (or, in a mix, on a tombstone) is drawn
# again, so that every pick is uniform over the cells listed at the pick, as
# in the textbook (tests/test_texture.py checks the textures against it)
RANDOM_AHEAD = 24  # random alone (randomized Prim): this many steps before the pick
ROWS_AHEAD = 4  # random alone: the picked cell's rows are fetched this many steps before (a hint)
BATCH = 32  # mixes draw BATCH steps at a time, two batches ahead; with random picks, a pick's
# rank is drawn at the start of the batch two before its own (see growing_tree)
RING = 128  # the draws waiting for their step: a power of two, at least 3 * BATCH and RANDOM_AHEAD
POP_AHEAD = 8  # a newest pick that reads the list fetches the cell this many places below (a hint)
# Growing Tree's free-side bits: set while the neighbour that way is unvisited
FREE_SHIFT = 4  # bits 4-7: north, south, west, east
# how many free sides a 4-bit mask has, and the k-th of them (north, south, west, east order)
FREE_COUNT = np.array([bin(m).count("1") for m in range(16)], np.int64)
FREE_COUNT_PACKED = sum(int(count) << (4 * m) for m, count in enumerate(FREE_COUNT))  # 4 bits a mask
FREE_DIRS = np.array(
    [([d for d in range(4) if m >> d & 1] + [0] * 4)[:4] for m in range(16)], np.int64
).reshape(-1)
LOOKAHEAD = 16  # how many queue places ahead the breadth-first sweeps prefetch
# the 24 orders of the four directions, each packed 2 bits a direction (first in the lowest bits)
ORDERS = np.array(
    [sum(d << (2 * t) for t, d in enumerate(order)) for order in itertools.permutations(range(4))], np.uint8
)
PARENT_SHIFT = 3
# directions: 0 north, 1 south, 2 west, 3 east; OPPOSITE[d] = d ^ 1


if numba.config.DISABLE_JIT:

    def prefetch(array: np.ndarray, i: int) -> None:
        """A hint only: nothing to do when the kernels run as plain Python."""

else:

    @intrinsic
    def prefetch(typingctx, array, i):  # type: ignore[no-untyped-def]
        """Ask the processor to bring ``array[i]`` into its caches without
        waiting for it (x86 ``prefetcht0``); ``i`` need not be valid."""

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
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


if numba.config.DISABLE_JIT:

    def lowest_bit(bits: int) -> int:
        """The place of the lowest set bit of ``bits`` > 0."""
        return (int(bits) & -int(bits)).bit_length() - 1

else:

    @intrinsic
    def lowest_bit(typingctx, bits):  # type: ignore[no-untyped-def]
        """The place of the lowest set bit of the int64 ``bits`` > 0 (x86 ``tzcnt``)."""

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

        return types.int64(types.int64), codegen


@_njit(inline="always")
def _U(i: int) -> np.uint64:
    """An index known to be >= 0, as unsigned: numba then skips the code
    that wraps negative indices around (a few instructions per access)."""
    return _U64(i)


@_njit(inline="always")
def _below(bits: np.uint64, n: int) -> int:
    """A number in [0, n) from the high 32 bits of ``bits``."""
    return np.int64(((bits >> _U64(32)) * _U64(n)) >> _U64(32))


@_njit(inline="always")
def _step(i: int, d: int, width: int) -> int:
    """The neighbour of cell i towards d (no bounds check)."""
    # d: 0 north, 1 south, 2 west, 3 east (as int64: plain Python would keep uint8)
    d = np.int64(d)
    vertical = np.int64(d < 2)
    sign = (d & 1) * 2 - 1
    return i + sign * (vertical * width + (1 - vertical))


@_njit(inline="always")
def _open_wall(grid: np.ndarray, i: int, n: int, d: int) -> None:
    """Open the wall between cell i and its neighbour n (towards d), without a branch."""
    own = d & 1  # south and east walls belong to cell i, north and west to n
    target = n + (i - n) * own
    grid[_U(target)] |= np.uint8(2 - (d >> 1))  # SOUTH for north/south, EAST for west/east


@_njit(inline="always")
def _carve(grid: np.ndarray, i: int, d: int, width: int) -> int:
    """Open the wall of cell i towards d, without a branch; return the neighbour."""
    n = _step(i, d, width)
    _open_wall(grid, i, n, d)
    return n


if numba.config.DISABLE_JIT:

    def _mul_high(a: np.uint64, b: np.uint64) -> np.uint64:
        """The high 64 bits of the 128-bit product ``a * b``."""
        return _U64((int(a) * int(b)) >> 64)

else:

    @intrinsic
    def _mul_high(typingctx, a, b):  # type: ignore[no-untyped-def]
        """The high 64 bits of the 128-bit product of the uint64s ``a * b``
        (one x86 ``mul``)."""

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            i128 = ir.IntType(128)
            product = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
            return builder.trunc(builder.lshr(product, ir.Constant(i128, 64)), ir.IntType(64))

        return types.uint64(types.uint64, types.uint64), codegen


Divider = tuple[np.uint64, np.uint64, bool]  # (m, s, wide): see _divider


@_njit(inline="always")
def _divider(width: int, cells: int) -> Divider:
    """(m, s, wide): i // width by a multiplication for every 0 <= i < cells,
    for any grid that fits in memory or on disk (see :func:`_row_of`).

    With b the least such that 2**b >= width and k = 31 (a grid of at most
    2**31 cells) or 63, m = ceil(2**(k + b) / width): rounding m up adds less
    than i * width / 2**(k + b) < 1 / width to i / width, so it never
    carries into the quotient, and i // width == (i * m) >> (k + b).  For
    k = 31 the product fits in 64 bits (s = 31 + b); for k = 63 it takes the
    high half of a 128-bit product (s = b, :func:`_mul_high`), worked out
    in 64 bits: 2**(63 + b) = 2**b * (q * width + r), q, r = divmod(2**63, width).
    """
    w = _U64(width)
    bits = _U64(0)
    while (_U64(1) << bits) < w:
        bits += _U64(1)
    if cells <= (1 << 31):
        shift = _U64(31) + bits
        return ((_U64(1) << shift) + w - _U64(1)) // w, shift, False
    top = _U64(1) << _U64(63)
    q = top // w
    r = top - q * w
    spill = r << bits  # < width * 2**31 < 2**62
    return (q << bits) + spill // w + _U64(spill % w != 0), bits, True


@_njit(inline="always")
def _row_of(i: int, divider: Divider) -> int:
    """i // width by a multiplication (see :func:`_divider`; the branch on
    ``wide`` goes the same way in a whole walk)."""
    m, s, wide = divider
    if wide:  # (2 * i * m) >> (64 + b)
        row = _mul_high(_U64(i) << _U64(1), m) >> s
    else:
        row = (_U64(i) * m) >> s
    return np.int64(row)


@_njit(inline="always")
def _below_cells(bits: np.uint64, n: int) -> int:
    """A cell number in [0, n) from ``bits``: :func:`_below` (the high 32 bits
    times n) while that product fits in 64 bits (n < 2**32, every grid the
    generators made before; the same cells), else the high 64 bits of
    ``bits * n``, uniform however many cells there are."""
    if n < (1 << 32):
        return _below(bits, n)
    return np.int64(_mul_high(_U64(bits), _U64(n)))


@_njit(inline="always")
def _free_sides(
    grid: np.ndarray, i: int, width: int, height: int, divider: Divider
) -> tuple[int, int, int, int]:
    """1 for each side of cell i (north, south, west, east) with an unvisited
    neighbour.  No branches: a neighbour outside the grid reads cell i
    itself, which is visited."""
    y = _row_of(i, divider)
    x = i - y * width
    up = np.int64(y > 0)
    down = np.int64(y < height - 1)
    left = np.int64(x > 0)
    right = np.int64(x < width - 1)
    up &= np.int64((grid[_U(i - width * up)] & VISITED) == 0)
    down &= np.int64((grid[_U(i + width * down)] & VISITED) == 0)
    left &= np.int64((grid[_U(i - left)] & VISITED) == 0)
    right &= np.int64((grid[_U(i + right)] & VISITED) == 0)
    return up, down, left, right


@_njit(inline="always")
def _as_dirs(up: int, down: int, left: int, right: int, dirs: np.ndarray) -> int:
    """Write the sides flagged 1 (north, south, west, east) into dirs, in
    that order, and return how many there are: branch-free."""
    k = 0
    dirs[_U(k)] = 0
    k += up
    dirs[_U(k)] = 1
    k += down
    dirs[_U(k)] = 2
    k += left
    dirs[_U(k)] = 3
    k += right
    return k


@_njit(inline="always")
def _unvisited(grid: np.ndarray, i: int, width: int, height: int, divider: Divider, dirs: np.ndarray) -> int:
    """Write the directions from cell i to unvisited neighbours into dirs
    and return how many there are."""
    up, down, left, right = _free_sides(grid, i, width, height, divider)
    return _as_dirs(up, down, left, right, dirs)


@_njit(inline="always")
def _enter(work: np.ndarray, n: int, stride: int) -> None:
    """Mark cell n visited in a framed Growing Tree grid: clear, in each of
    its four neighbours, the free-side bit that points at n.  (On a cell
    already visited it changes nothing, so branch-free callers may call it
    on a cell that does not grow.)"""
    work[_U(n - stride)] &= np.uint8(0xFF ^ (2 << FREE_SHIFT))  # the cell above: its south side
    work[_U(n + stride)] &= np.uint8(0xFF ^ (1 << FREE_SHIFT))  # below: north
    work[_U(n - 1)] &= np.uint8(0xFF ^ (8 << FREE_SHIFT))  # left: east
    work[_U(n + 1)] &= np.uint8(0xFF ^ (4 << FREE_SHIFT))  # right: west


@_njit(inline="always")
def _free_mask(work: np.ndarray, c: int) -> int:
    """The free sides of cell c (bit d set: the neighbour towards d is unvisited)."""
    return np.int64(work[_U(c)]) >> FREE_SHIFT


@_njit(inline="always")
def _free_count(mask: int) -> int:
    """FREE_COUNT[mask] from a constant held in a register, not a table in memory."""
    return np.int64((_U64(FREE_COUNT_PACKED) >> _U64(mask * 4)) & _U64(15))


@_njit(inline="always")
def _free_dir(mask: int, k: int, choice: np.uint64) -> int:
    """One of the k >= 1 free sides in ``mask``, uniformly by ``choice``."""
    return FREE_DIRS[_U(mask * 4 + _below(choice, k))]


@_njit(inline="always")
def _prefetch_rows(work: np.ndarray, cell: int, stride: int) -> None:
    """Fetch the bytes of ``cell`` and of the cells above and below it: all
    that a step on ``cell`` reads or writes."""
    prefetch(work, cell - stride)
    prefetch(work, cell)
    prefetch(work, cell + stride)


@_njit(inline="always")
def _start(key: np.uint64, width: int, height: int) -> int:
    """The first cell of a Growing Tree (draw 0), in framed coordinates."""
    s = _below_cells(random_bits(key, _U64(0)), width * height)
    return (s // width + 1) * (width + 2) + s % width + 1


@_njit(inline="always")
def _first_cell(work: np.ndarray, active: np.ndarray, key: np.uint64, width: int, height: int) -> int:
    """Place the first cell of a Growing Tree (see :func:`_start`) in a
    framed grid of free sides: enter it and make it the first of the list."""
    start = _start(key, width, height)
    _enter(work, start, width + 2)
    active[0] = start
    return start


@_njit
def clear_state(grid: np.ndarray) -> None:
    for i in range(grid.shape[0]):
        grid[i] &= 3


@_njit(inline="always")
def _rank_of(bits: np.uint64, size: int) -> tuple[int, np.uint64]:
    """The rank, among ``size`` cells, of a random pick drawn ``bits`` (from
    its high 32 bits), and the bits left for the direction."""
    product = (bits >> _U64(32)) * _U64(size)
    return np.int64(product >> _U64(32)), product << _U64(32)


@_njit(inline="always")
def _prim_step(
    work: np.ndarray,
    active: np.ndarray,
    offsets: np.ndarray,
    stride: int,
    j: int,
    choice: np.uint64,
    tail: int,
) -> int:
    """A step of :func:`growing_tree_random` on the cell in slot j of
    ``active[:tail]``, without a branch: it carves to the free side
    ``choice`` picks and lists the new cell, or, having none, gives its
    slot to the last cell (it "carves" to itself: no wall opens, and
    entering it again changes nothing).  The new tail is returned."""
    c = np.int64(active[_U(j)])
    mask = _free_mask(work, c)
    k = _free_count(mask)
    grow = np.int64(k > 0)
    at4 = _U(mask * 4 + _below(choice, k + 1 - grow))  # k == 0: any side, unused
    d = FREE_DIRS[at4]
    n = c + offsets[at4] * grow
    own = d & 1  # the south and east walls belong to c, north and west to n
    work[_U(n + (c - n) * own)] |= np.uint8((2 - (d >> 1)) * grow)
    _enter(work, n, stride)
    last = active[_U(tail - 1)]
    active[_U(_sel(grow, tail, j))] = _sel(grow, n, last)
    return tail + 2 * grow - 1


@_njit
def growing_tree_random(
    work: np.ndarray, active: np.ndarray, width: int, height: int, key: np.uint64
) -> None:
    """Growing Tree picking at random only (randomized Prim), in a framed
    grid of free sides (see :func:`growing_tree`).

    The active cells form a dense list (order does not matter): a dead end
    swaps the last cell into its slot.  Whether the picked cell can still
    carve is a coin flip to the processor, so both outcomes are computed and
    selected without a branch (:func:`_prim_step`).  Each pick is drawn
    RANDOM_AHEAD steps early (the first RANDOM_AHEAD at the pick), a rank
    uniform over the list's length then plus RANDOM_AHEAD: its slot is
    fetched at once, and its cell's rows ROWS_AHEAD steps before the pick.
    At the pick, a rank past the end of the list is drawn again from the low
    32 bits of the step's own draw, over the list as it is (rarely, in a big
    maze, whose list is long): so the pick is uniform over the list at the
    pick, whatever happened meanwhile.  ``active``: one int32 per cell, plus one.
    """
    key = _U64(key)
    stride = width + 2
    offsets = np.empty(64, np.int64)  # offsets[i]: the neighbour towards FREE_DIRS[i]
    for i in range(64):
        offsets[i] = _step(0, FREE_DIRS[i], stride)
    ranks = np.empty(RING, np.int64)  # the rank of the pick of step s, at s % RING
    choices = np.empty(RING, np.uint64)  # the bits left for the direction
    last_slot = active.shape[0] - 1
    _first_cell(work, active, key, width, height)
    tail = 1
    step = 0
    while tail > 0 and step < RANDOM_AHEAD:  # the first picks: drawn at the pick
        far = _U((step + RANDOM_AHEAD) & (RING - 1))
        ranks[far], choices[far] = _rank_of(
            random_bits(key, _U64(step + RANDOM_AHEAD + 1)), tail + RANDOM_AHEAD
        )
        rank, choice = _rank_of(random_bits(key, _U64(step + 1)), tail)
        tail = _prim_step(work, active, offsets, stride, rank, choice, tail)
        step += 1
    while tail > 0:
        # the pick of step + RANDOM_AHEAD: a rank among the cells listed now
        # plus RANDOM_AHEAD (the most the list can grow meanwhile); fetch its
        # slot now, its cell ROWS_AHEAD steps before the pick
        far = _U((step + RANDOM_AHEAD) & (RING - 1))
        ranks[far], choices[far] = _rank_of(
            random_bits(key, _U64(step + RANDOM_AHEAD + 1)), tail + RANDOM_AHEAD
        )
        prefetch(active, ranks[far])
        # (a rank past the end reads a slot no longer listed: a wasted hint;
        # bounded by the array, not by tail, so as not to wait for the step before)
        soon = min(ranks[_U((step + ROWS_AHEAD) & (RING - 1))], last_slot)
        _prefetch_rows(work, np.int64(active[_U(soon)]), stride)
        at = _U(step & (RING - 1))
        j = ranks[at]
        choice = choices[at]
        if j >= tail:  # past the end: drawn again, over the list as it is (from the low 32 bits)
            j, choice = _rank_of(random_bits(key, _U64(step + 1)) << _U64(32), tail)
        tail = _prim_step(work, active, offsets, stride, j, choice, tail)
        step += 1


@_njit
def growing_tree_oldest(
    work: np.ndarray, active: np.ndarray, width: int, height: int, key: np.uint64
) -> None:
    """Growing Tree picking the oldest cell (a queue), a cell at a time, in a
    framed grid (see :func:`growing_tree`).

    The oldest cell stays picked until it has no unvisited neighbour left,
    and nothing else moves meanwhile: so it carves to all of them, in an
    order drawn uniformly at random, each carve adding the neighbour to the
    queue; then it leaves.  That is a breadth-first search that visits the
    neighbours in random order, done here in one pass per cell: one draw
    picks one of the 24 orders of the four directions, and the unvisited
    ones are carved in that order.  (Carving with a branch is faster than
    without: a store whose address waits on the loads would hold up the
    next cell's loads.)  The cells further down the queue are known: their
    bytes are fetched a few places ahead.  ``active``: one int32 per cell.
    """
    key = _U64(key)
    stride = width + 2
    _first_cell(work, active, key, width, height)
    counter = _U64(1)
    head = 0
    tail = 1
    while head < tail:
        soon = np.int64(active[_U(min(head + 8, tail - 1))])
        _prefetch_rows(work, soon, stride)
        c = np.int64(active[_U(head)])
        head += 1
        free = _free_mask(work, c)
        order = np.int64(ORDERS[_below(random_bits(key, counter), 24)])
        counter += _U64(1)
        mine = 0
        for t in range(4):
            d = (order >> (2 * t)) & 3
            carve = (free >> d) & 1
            n = _step(c, d, stride)
            own = d & 1  # the south and east walls belong to c, north and west to n
            flag = 2 - (d >> 1)
            mine |= flag * own * carve
            if carve:
                work[_U(n)] |= flag * (1 - own)
                _enter(work, n, stride)
                active[_U(tail)] = n
                tail += 1
        work[_U(c)] |= mine


@_njit(inline="always")
def _slot(rank: int, head: int, g0: int, g1: int, tail: int) -> int:
    """The slot of the cell of the given rank (below the list's length) in
    ``active[head:g0]`` then ``active[g1:tail]``."""
    j = head + rank
    return j + (g1 - g0) * np.int64(j >= g0)


@_njit(inline="always")
def _near_slot(rank: int, head: int, g0: int, g1: int, tail: int) -> int:
    """:func:`_slot`, or the last slot for a rank past the list's end: a
    slot to fetch ahead of a pick, which the list may yet grow to reach."""
    return _slot(min(rank, (g0 - head) + (tail - g1) - 1), head, g0, g1, tail)


@_njit(inline="always")
def _drop_end(j: int, head: int, g0: int, g1: int, tail: int) -> tuple[int, int, int, int, int]:
    """Remove slot j of the gap buffer if it ends one of the two parts:
    the new (head, g0, g1, tail) and 1 if it did, else the same and 0."""
    if j == g0 - 1:
        return head, g0 - 1, g1, tail, 1
    if j == g1:
        return head, g0, g1 + 1, tail, 1
    if j == head:
        return head + 1, g0, g1, tail, 1
    if j == tail - 1:
        return head, g0, g1, tail - 1, 1
    return head, g0, g1, tail, 0


@_njit(inline="always")
def _close_gap(active: np.ndarray, g0: int, g1: int, tail: int) -> int:
    """Move the right part of the gap buffer down against the left one, to
    make room at the end: the new tail (the gap is then empty, g1 = g0)."""
    for t in range(g1, tail):
        active[g0 + t - g1] = active[t]
    return g0 + tail - g1


@_njit(inline="always")
def _sweep(active: np.ndarray, head: int, g0: int, g1: int, tail: int) -> int:
    """Drop the tombstones of both parts, keeping the order: the cells left
    fill ``active[head:w]``; w is returned (the new g0 = g1 = tail)."""
    w = head
    for t in range(head, g0):
        if active[t] >= 0:
            active[w] = active[t]
            w += 1
    for t in range(g1, tail):
        if active[t] >= 0:
            active[w] = active[t]
            w += 1
    return w


@_njit
def growing_tree(
    work: np.ndarray,
    active: np.ndarray,
    width: int,
    height: int,
    key: np.uint64,
    cumulative: np.ndarray,
    batches: bool | None,
    blocks: bool | None,
) -> None:
    """Growing Tree in a framed grid: ``work`` is the flat ``(height + 2,
    width + 2)`` array of a zeroed maze inside a frame of one cell, each
    cell with its free sides set (see the module's notes), so that no step
    has to test the bounds (the Python layer copies the maze out of the
    frame).

    The active cells are kept in the order they were added, in ``active``
    (one int32 per cell) used as a gap buffer: ``active[head:g0]`` and
    ``active[g1:tail]`` with the gap kept at the middle, so that the newest
    (``tail - 1``), oldest (``head``) and middle (``g0 - 1``) cells are each
    one step away and removing them costs O(1).  The steps run in batches
    of BATCH: a random pick's rank is drawn when the batch two before its
    own starts (in the first two batches: at the pick), uniform over both
    parts as they are then plus the number of steps until the pick (the
    most the list can grow meanwhile), so that its slot (64 to 95 steps
    before the pick) and then its cell (a batch later) are fetched from
    memory while the steps in between run, in short loops at the start of a
    batch rather than in branches of every step.  A cell a random pick
    removes from inside a part becomes a tombstone (-1), swept out when
    tombstones outnumber an eighth of the live cells (plus 64), so that
    few random picks land on one.  A rank past the end of the list at the
    pick, or one that lands on a tombstone, is drawn again (``mix64`` of the
    previous bits) over the list as it is; a newest, oldest or middle pick
    that finds a tombstone removes it and picks again; with tombstones, the
    middle is that of the live cells (the parts are balanced by their live
    cells).  So each step picks as the textbook does, among the cells still
    active.  (Random alone has its own kernel,
    :func:`growing_tree_random`, and so have mixes of newest and random,
    :func:`growing_tree_newest_random`.)  ``cumulative`` holds the weights [newest,
    oldest, random, middle] as cumulative thresholds on 32 bits.  ``batches``
    is True for a mix with random picks, None for one without: numba then
    compiles a version with no batches at all, which measured 1.1-1.2x
    faster for newest alone than one that skips them at run time.
    ``blocks`` is True for a mix: the draws are made a batch at a time, two
    batches ahead (SIMD), and a step reads its draw from the ring, so the
    branch on the strategy, which the processor cannot predict in a mix,
    is settled sooner (newest:50,oldest:50 measured 0.89x the time); None
    for one strategy alone (``newest`` or ``middle``), where that branch is
    always predicted and each step hashes its own draw (with blocks those
    measured 1.03-1.04x the time).  ``batches=True`` needs ``blocks=True``.
    """
    key = _U64(key)
    stride = width + 2
    capacity = active.shape[0]
    low = _U64(0xFFFFFFFF)
    use_middle = cumulative[3] > cumulative[2]
    pick_newest, pick_oldest, pick_random = cumulative[0], cumulative[1], cumulative[2]
    random_share = pick_random - pick_oldest
    if batches is None and random_share > 0:
        raise ValueError("a mix with random picks needs batches=True")
    if batches is not None and blocks is None:
        raise ValueError("batches=True needs blocks=True")
    draws = np.empty(RING, np.uint64)
    ranks = np.empty(RING, np.int64)
    choices = np.empty(RING, np.uint64)
    if blocks is not None:  # batches 0 and 1 (their ranks are drawn at the pick)
        for later in range(2 * BATCH):
            draws[later] = random_bits(key, _U64(later + 1))  # draw 0 placed the first cell
    waiting = 0  # a bit for each random pick of the next batch
    step = 0
    _first_cell(work, active, key, width, height)
    head = 0
    g0 = 1
    g1 = 1
    tail = 1
    live = 1
    live_left = 1  # live cells in the left part (kept for the middle of a mix with tombstones)
    dead = 0
    while live > 0:
        if blocks is not None and (step & (BATCH - 1)) == 0:
            # batch k = step // BATCH starts: draw batch k + 2 (in a loop of
            # its own, so that it runs 4 draws at a time, SIMD; its first
            # step is a multiple of BATCH, so its ring slots follow on)
            later = step + 2 * BATCH
            first = _U(later & (RING - 1))
            for i in range(BATCH):
                draws[first + _U(i)] = random_bits(key, _U64(later + i + 1))
            if batches is not None:
                # give each random pick of batch k + 2 its rank among the cells
                # listed now, and fetch its slot; fetch the cells of batch k + 1's
                # random picks (``waiting``: a bit for each, by its place in the
                # batch).  The same code is in growing_tree_newest_random: an
                # inline helper taking the arrays costs numba reference counts
                # at every batch (measured 1.10x the time there; a plain call, 1.13x)
                size = (g0 - head) + (tail - g1)
                picks = 0
                for i in range(BATCH):
                    picks |= np.int64((draws[first + _U(i)] & low) - pick_oldest < random_share) << i
                left = picks
                while left:
                    i = lowest_bit(left)
                    at = first + _U(i)
                    left &= left - 1
                    ranks[at], choices[at] = _rank_of(draws[at], size + 2 * BATCH + i)
                    prefetch(active, _near_slot(ranks[at], head, g0, g1, tail))
                left = waiting
                while left:
                    at = _U((step + BATCH + lowest_bit(left)) & (RING - 1))
                    left &= left - 1
                    _prefetch_rows(
                        work, np.int64(active[_U(_near_slot(ranks[at], head, g0, g1, tail))]), stride
                    )
                waiting = picks
        at = _U(step & (RING - 1))
        if blocks is not None:
            bits = draws[at]
        else:
            bits = random_bits(key, _U64(step + 1))
        step += 1
        r = bits & low
        # pick: j is the slot of the chosen cell, choice the bits left for the
        # direction; a pick that finds a tombstone removes it if it ends its
        # part and picks again, by the same strategy, in the same step
        choice = bits
        is_random = np.int64(r >= pick_oldest) & np.int64(r < pick_random)
        rank = 0
        redraw = bits
        if is_random:
            if step <= 2 * BATCH:  # the first two batches: the rank is drawn at the pick
                ranks[at], choices[at] = _rank_of(bits, (g0 - head) + (tail - g1))
            rank = ranks[at]
            choice = choices[at]
        while True:
            if r < pick_newest:
                if tail == g1:  # right part empty: the newest cell ends the left part
                    tail = g0
                    g1 = g0
                j = tail - 1
            elif r < pick_oldest:
                if head == g0:  # left part empty
                    head = g1
                    g0 = g1
                j = head
            elif r < pick_random:
                size = (g0 - head) + (tail - g1)
                if rank >= size:  # past the end (drawn for a longer list): draw again
                    redraw = mix64(redraw)
                    rank, choice = _rank_of(redraw, size)
                j = _slot(rank, head, g0, g1, tail)
            else:
                j = g0 - 1
            c = np.int64(active[_U(j)])
            if c >= 0:
                break
            head, g0, g1, tail, dropped = _drop_end(j, head, g0, g1, tail)
            dead -= dropped
            if batches is not None:
                if use_middle:
                    g0, g1, live_left = _balance_live(active, head, g0, g1, tail, live, live_left)
                if is_random:  # a tombstone: draw again, over the list as it is
                    redraw = mix64(redraw)
                    rank, choice = _rank_of(redraw, (g0 - head) + (tail - g1))
        if random_share > 0:  # c may be far from the last cell: fetch what carving from it touches
            prefetch(work, c - 2 * stride)
            prefetch(work, c + 2 * stride)
        mask = _free_mask(work, c)
        k = _free_count(mask)
        if k > 0:
            n = _carve(work, c, _free_dir(mask, k, choice), stride)
            _enter(work, n, stride)
            if tail == capacity:  # close the gap to make room
                tail = _close_gap(active, g0, g1, tail)
                g1 = g0
            active[tail] = n
            tail += 1
            live += 1
        else:
            live -= 1
            live_left -= np.int64(j < g0)
            head, g0, g1, tail, dropped = _drop_end(j, head, g0, g1, tail)
            if not dropped:  # a random pick inside a part: leave a tombstone
                active[j] = -1
                dead += 1
                if dead > (live >> 3) + 64:  # sweep the tombstones out (all into the left part)
                    g0 = g1 = tail = _sweep(active, head, g0, g1, tail)
                    dead = 0
                    live_left = live
        if not use_middle:
            continue
        # the middle moves by about a cell a step: fetch its neighbours in the list
        for near in (max(g0 - 2, head), min(g1, tail - 1)):
            _prefetch_rows(work, np.int64(active[_U(near)]), stride)
        if batches is not None:  # with tombstones: balance the live cells
            g0, g1, live_left = _balance_live(active, head, g0, g1, tail, live, live_left)
            continue
        # keep the gap in the middle: len(left) - len(right) in {0, 1}
        left = g0 - head
        right = tail - g1
        if left > right + 1:
            g0 -= 1
            g1 -= 1
            active[g1] = active[g0]
        elif right > left:
            active[g0] = active[g1]
            g0 += 1
            g1 += 1


@_njit(inline="always")
def _balance_live(
    active: np.ndarray, head: int, g0: int, g1: int, tail: int, live: int, live_left: int
) -> tuple[int, int, int]:
    """Move cells across the gap until the left part holds as many live
    cells as the right, or one more (``live_left`` of the ``live`` cells are
    in the left part), so that the last live cell of the left part is the
    middle one of the live cells: (the new g0, g1, live_left)."""
    while True:
        if live_left > live - live_left + 1:
            g0 -= 1
            g1 -= 1
            active[g1] = active[g0]
            live_left -= np.int64(active[g1] >= 0)
        elif live - live_left > live_left:
            active[g0] = active[g1]
            live_left += np.int64(active[g0] >= 0)
            g0 += 1
            g1 += 1
        else:
            return g0, g1, live_left


@_njit(inline="always")
def _carve_and_push(
    work: np.ndarray,
    active: np.ndarray,
    offsets: np.ndarray,
    stride: int,
    c: int,
    mask: int,
    k: int,
    choice: np.uint64,
    g0: int,
    g1: int,
    tail: int,
) -> tuple[int, int, int]:
    """Carve from cell c (free sides ``mask``, k of them) to the neighbour
    ``choice`` picks, enter it, fetch the rows it will need, and push it:
    (the new ``top`` (see :func:`growing_tree_newest_random`), g1, tail).

    The rows fetched: 2 above and below the new cell (where entering its
    neighbours writes), and the cells 3 to 8 places on in the direction it
    came (a corridor that goes on that way enters them next; without it, a
    corridor into a part of the maze not seen for a while waits for memory
    at each row)."""
    at4 = _U(mask * 4 + _below(choice, k))
    n = c + offsets[at4]
    top = (n << 4) | _free_mask(work, n)  # read before the carve, which may write n
    _open_wall(work, c, n, FREE_DIRS[at4])
    _enter(work, n, stride)
    prefetch(work, n - 2 * stride)
    prefetch(work, n + 2 * stride)
    way = n - c
    for ahead in range(3, 9):
        prefetch(work, n + ahead * way)
    if tail == active.shape[0]:  # close the gap to make room
        tail = _close_gap(active, g0, g1, tail)
        g1 = g0
    active[_U(tail)] = n
    return top, g1, tail + 1


@_njit
def growing_tree_newest_random(
    work: np.ndarray, active: np.ndarray, width: int, height: int, key: np.uint64, newest: np.uint64
) -> None:
    """:func:`growing_tree` for a mix of newest and random picks only (a
    step picks the newest cell when the low 32 bits of its draw are below
    ``newest``): the same mazes, step for step, in a loop that carries
    less.  What it does differently:

    - after a step that pushed a cell, the next newest pick takes that cell
      and its free sides from one variable (``top``), read as soon as the
      cell is chosen (before the carve writes its byte), not read back from
      the list and the grid at the next step;
    - the number of cells listed is the count of live cells plus
      tombstones, so the live count is worked out on the rare steps that
      need it, not kept up on every step;
    - newest and random picks each have their own copy of what follows the
      pick, so that the branches of one do not disturb the predictions of
      the other (a newest cell always ends its part: it never leaves a
      tombstone);
    - the steps run in batches, as in :func:`growing_tree`, each a loop of
      BATCH steps with no work for later steps in it;
    - a pushed cell fetches the rows ahead of it (:func:`_carve_and_push`),
      and a newest pick that reads the list fetches the rows of the cell
      POP_AHEAD places below (when the newest cell is dead, the picks that
      follow go down the list: a part of the maze left long ago, since a
      random pick sent the newest picks elsewhere).
    """
    key = _U64(key)
    stride = width + 2
    low = _U64(0xFFFFFFFF)
    share = _U64(0x100000000) - newest
    draws = np.empty(RING, np.uint64)
    ranks = np.empty(RING, np.int64)
    choices = np.empty(RING, np.uint64)
    for later in range(2 * BATCH):  # batches 0 and 1 (their ranks are drawn at the pick)
        draws[later] = random_bits(key, _U64(later + 1))  # draw 0 placed the first cell
    waiting = 0  # a bit for each random pick of the next batch
    offsets = np.empty(64, np.int64)  # offsets[i]: the neighbour towards FREE_DIRS[i]
    for i in range(64):
        offsets[i] = _step(0, FREE_DIRS[i], stride)
    step = 0
    start = _first_cell(work, active, key, width, height)
    head = 0
    g0 = 1
    g1 = 1
    tail = 1
    dead = 0  # tombstones: the other cells listed are live
    # the newest cell and its free sides (cell << 4 | sides), from the step
    # that pushed it until a step takes it off the list (only a step that
    # finds it has no free side can: a tombstone is never the newest); -1
    # meanwhile
    top = (start << 4) | _free_mask(work, start)
    while True:
        # batch k = step // BATCH starts: draw batch k + 2 (in a loop of its
        # own, so that it runs 4 draws at a time, SIMD; its first step is a
        # multiple of BATCH, so its ring slots follow on), give each of its
        # random picks its rank among the cells listed now, and fetch its
        # slot; fetch the cells of batch k + 1's random picks (``waiting``:
        # a bit for each, by its place in the batch).  The same code is in
        # growing_tree: an inline helper taking the arrays costs numba
        # reference counts at every batch (measured 1.10x the time; a plain
        # call, 1.13x)
        size = (g0 - head) + (tail - g1)
        later = step + 2 * BATCH
        first = _U(later & (RING - 1))
        for i in range(BATCH):
            draws[first + _U(i)] = random_bits(key, _U64(later + i + 1))
        picks = 0
        for i in range(BATCH):
            picks |= np.int64((draws[first + _U(i)] & low) - newest < share) << i
        left = picks
        while left:
            i = lowest_bit(left)
            at = first + _U(i)
            left &= left - 1
            ranks[at], choices[at] = _rank_of(draws[at], size + 2 * BATCH + i)
            prefetch(active, _near_slot(ranks[at], head, g0, g1, tail))
        left = waiting
        while left:
            at = _U((step + BATCH + lowest_bit(left)) & (RING - 1))
            left &= left - 1
            _prefetch_rows(work, np.int64(active[_U(_near_slot(ranks[at], head, g0, g1, tail))]), stride)
        waiting = picks
        for _ in range(BATCH):
            at = _U(step & (RING - 1))
            bits = draws[at]
            step += 1
            if (bits & low) < newest:
                if tail == g1:  # right part empty: the newest cell ends the left part
                    tail = g0
                    g1 = g0
                j = tail - 1
                choice = bits
                if top >= 0:
                    c = top >> 4
                    mask = top & 15
                else:
                    while True:
                        c = np.int64(active[_U(j)])
                        _prefetch_rows(work, np.int64(active[_U(max(j - POP_AHEAD, 0))]), stride)
                        if c >= 0:
                            break
                        # a tombstone: the newest always ends its part, so it goes,
                        # and the cell before it is the newest
                        head, g0, g1, tail, _ = _drop_end(j, head, g0, g1, tail)
                        dead -= 1
                        if tail == g1:
                            tail = g0
                            g1 = g0
                        j = tail - 1
                    mask = _free_mask(work, c)
                k = _free_count(mask)
                if k > 0:
                    top, g1, tail = _carve_and_push(
                        work, active, offsets, stride, c, mask, k, choice, g0, g1, tail
                    )
                    continue
                top = -1  # the newest cell always ends its part: it goes
                head, g0, g1, tail, _ = _drop_end(j, head, g0, g1, tail)
                if (g0 - head) + (tail - g1) == dead:  # no live cell left
                    return
                continue
            size = (g0 - head) + (tail - g1)
            if step <= 2 * BATCH:  # the first two batches: the rank is drawn at the pick
                ranks[at], choices[at] = _rank_of(bits, size)
            rank = ranks[at]
            choice = choices[at]
            redraw = bits
            if rank >= size:  # past the end (drawn for a longer list): draw again
                redraw = mix64(redraw)
                rank, choice = _rank_of(redraw, size)
            j = _slot(rank, head, g0, g1, tail)
            c = np.int64(active[_U(j)])
            while c < 0:  # a tombstone: it goes if it ends a part; draw again
                head, g0, g1, tail, dropped = _drop_end(j, head, g0, g1, tail)
                dead -= dropped
                redraw = mix64(redraw)
                rank, choice = _rank_of(redraw, (g0 - head) + (tail - g1))
                j = _slot(rank, head, g0, g1, tail)
                c = np.int64(active[_U(j)])
            prefetch(work, c - 2 * stride)  # c may be far from the last cell
            prefetch(work, c + 2 * stride)
            mask = _free_mask(work, c)
            k = _free_count(mask)
            if k > 0:
                top, g1, tail = _carve_and_push(
                    work, active, offsets, stride, c, mask, k, choice, g0, g1, tail
                )
                continue
            # top is kept unless this was the newest cell: while top is set, the
            # newest is the cell a push put last in the list (a removal from the
            # end of a part that empties the right part takes it, and a sweep
            # leaves the parts joined), so it is at tail - 1
            top = _sel(np.int64(j == tail - 1), -1, top)
            head, g0, g1, tail, dropped = _drop_end(j, head, g0, g1, tail)
            live = (g0 - head) + (tail - g1) - dead - (1 - dropped)
            if live == 0:
                return
            if not dropped:  # inside a part: leave a tombstone
                active[j] = -1
                dead += 1
                if dead > (live >> 3) + 64:  # sweep the tombstones out
                    g0 = g1 = tail = _sweep(active, head, g0, g1, tail)
                    dead = 0


@_njit
def backtracker(grid: np.ndarray, width: int, height: int, key: np.uint64) -> None:
    """Recursive backtracker, iteratively: the stack is the chain of parent
    directions stored in the grid bytes themselves."""
    key = _U64(key)
    counter = _U64(0)
    divider = _divider(width, width * height)
    dirs = np.empty(5, np.int64)
    start = _below_cells(random_bits(key, counter), width * height)
    counter += _U64(1)
    grid[_U(start)] |= VISITED
    cur = start
    while True:
        k = _unvisited(grid, cur, width, height, divider, dirs)
        if k > 0:
            d = dirs[_below(random_bits(key, counter), k)]
            counter += _U64(1)
            n = _carve(grid, cur, d, width)
            grid[_U(n)] |= VISITED | ((d ^ 1) << PARENT_SHIFT)
            cur = n
        elif cur == start:
            break
        else:
            cur = _step(cur, (grid[_U(cur)] >> PARENT_SHIFT) & 3, width)
    clear_state(grid)


@_njit(inline="always")
def _farther(on_row: int, depth: int, x: int, best: int, best_x: int) -> tuple[int, int]:
    """The (depth, x) to keep: the deeper cell of the row, the leftmost of ties."""
    better = on_row & (np.int64(depth > best) | (np.int64(depth == best) & np.int64(x < best_x)))
    return _sel(better, depth, best), _sel(better, x, best_x)


@_njit
def walk(cells: np.ndarray, width: int, height: int, source: int, target: int, row: int) -> np.ndarray:
    """Depth-first walk through the passages of a maze from ``source``.

    ``cells`` is a flat copy of the grid's passage flags (bits 0-1) with one
    scratch byte after the last cell; the walk writes the visited bit and
    the direction back to the parent into bits 2-4.  Stops at ``target``
    (or explores the whole component when target is -1).  Returns [target
    reached (0/1), x of the deepest cell on ``row`` (the leftmost of ties; -1 if none), its depth,
    cells visited].  In a perfect maze the depth of a cell is its distance
    from the source, and the parent directions lead back to it.

    Each step is branch-free but for the loop's exits: a neighbour outside
    the grid is read as the current cell, which is visited.
    """
    result = np.full(4, -1, np.int64)
    scratch = width * height
    cells[source] |= VISITED
    cur = source
    y = source // width
    x = source - y * width
    depth = 0
    best = -1
    best_x = -1
    visited = 1
    reached = 0
    while True:
        best, best_x = _farther(np.int64(y == row), depth, x, best, best_x)
        if cur == target:
            reached = 1
            break
        has_up = np.int64(y > 0)
        has_down = np.int64(y < height - 1)
        has_left = np.int64(x > 0)
        has_right = np.int64(x < width - 1)
        here = np.int64(cells[_U(cur)])
        above = np.int64(cells[_U(cur - width * has_up)])
        below = np.int64(cells[_U(cur + width * has_down)])
        before = np.int64(cells[_U(cur - has_left)])
        after = np.int64(cells[_U(cur + has_right)])
        # open and not visited: (flag bit set) and (visited bit clear)
        up = has_up & (above >> 1) & ~(above >> 2)
        down = has_down & (here >> 1) & ~(below >> 2)
        left = has_left & before & ~(before >> 2)
        right = has_right & here & ~(after >> 2)
        mask = (up & 1) | ((down & 1) << 1) | ((left & 1) << 2) | ((right & 1) << 3)
        forward = np.int64(mask != 0)
        if not forward and cur == source:
            break
        lowest = mask & -mask  # 1, 2, 4 or 8
        d = _sel(forward, (lowest >> 1) - (lowest >> 3), (here >> PARENT_SHIFT) & 3)
        vertical = np.int64(d < 2)
        sign = (d & 1) * 2 - 1
        nxt = cur + sign * (vertical * width + (1 - vertical))
        # a plain store (no read-modify-write chain through the scratch byte);
        # the cell ahead has only its passage flags so far
        ahead = _sel(
            np.int64(d == 0), above, _sel(np.int64(d == 1), below, _sel(np.int64(d == 2), before, after))
        )
        cells[_U(_sel(forward, nxt, scratch))] = ahead | VISITED | ((d ^ 1) << PARENT_SHIFT)
        cur = nxt
        y += sign * vertical
        x += sign * (1 - vertical)
        depth += 2 * forward - 1
        visited += forward
    result[0] = reached
    result[1] = best_x
    result[2] = best
    result[3] = visited
    return result


@_njit
def bfs_farthest(
    cells: np.ndarray, queue: np.ndarray, width: int, height: int, source: int, row: int
) -> np.ndarray:
    """Breadth-first distances from ``source`` through the passages.

    ``cells``: flat passage flags plus one scratch byte (bit 2 is set on the
    cells reached); ``queue``: one int32 per cell.  Returns [x of the
    farthest cell on ``row`` (the leftmost of ties, -1 if none), its
    distance, cells reached].  Unlike a depth-first walk, the next cell to
    expand comes from the queue, not from the step before, so successive
    steps overlap in the processor: this is the fast way to measure a whole
    maze.
    """
    result = np.full(3, -1, np.int64)
    divider = _divider(width, width * height)
    scratch = width * height
    cells[source] |= VISITED
    queue[0] = source
    head = 0
    tail = 1
    level_end = 1
    depth = 0
    best = -1
    best_x = -1
    while head < tail:
        if head == level_end:
            depth += 1
            level_end = tail
        cur = np.int64(queue[head])
        head += 1
        y = _row_of(cur, divider)
        x = cur - y * width
        best, best_x = _farther(np.int64(y == row), depth, x, best, best_x)
        here = np.int64(cells[cur])
        has_up = np.int64(y > 0)
        has_left = np.int64(x > 0)
        up_i = cur - width * has_up
        left_i = cur - has_left
        down_i = cur + width * np.int64(y < height - 1)
        right_i = cur + np.int64(x < width - 1)
        above = np.int64(cells[_U(up_i)])
        before = np.int64(cells[_U(left_i)])
        below = np.int64(cells[_U(down_i)])
        after = np.int64(cells[_U(right_i)])
        # A passage leads to each of these; enqueue the ones not reached yet.
        # Plain stores of bytes read above (no read-modify-write): the ones
        # not taken all land in the scratch byte without waiting on each other.
        ok = has_up & (above >> 1) & ~(above >> 2) & 1
        queue[_U(tail)] = up_i
        cells[_U(_sel(ok, up_i, scratch))] = above | VISITED
        tail += ok
        ok = (here >> 1) & ~(below >> 2) & 1
        queue[_U(tail)] = down_i
        cells[_U(_sel(ok, down_i, scratch))] = below | VISITED
        tail += ok
        ok = has_left & before & ~(before >> 2) & 1
        queue[_U(tail)] = left_i
        cells[_U(_sel(ok, left_i, scratch))] = before | VISITED
        tail += ok
        ok = here & ~(after >> 2) & 1
        queue[_U(tail)] = right_i
        cells[_U(_sel(ok, right_i, scratch))] = after | VISITED
        tail += ok
    result[0] = best_x
    result[1] = best
    result[2] = tail
    return result


@_njit
def tree_distances(
    mask: np.ndarray,
    queue: np.ndarray,
    width: int,
    source: int,
    back: int,
    row: int,
    row_depth: np.ndarray,
    stop_early: bool,
) -> np.ndarray:
    """Breadth-first distances from ``source`` to the cells of ``row``, in
    a maze that is a tree.

    ``mask``: the flat passage masks of :func:`passage_masks`.  In a tree
    the only neighbour already reached is the parent, so nothing is marked:
    each queue entry is ``cell * 4 + direction back to its parent`` (the
    source's ``back`` is a direction without a passage), and a cell's other
    passages lead to its children.  The only memory read out of order is
    one mask byte per cell, fetched ahead.  ``queue``: one uint32 per cell
    plus 4 (so cells < 2**30).  ``row_depth`` (width + 1 int64, the last a
    scratch slot) receives the distance of each cell of ``row`` reached.
    With ``stop_early`` (for a grid known to be a tree) the sweep ends when
    the whole row is reached.  Returns [cells reached, 1 if the walk stayed
    a tree (else 0: a loop was found, the caller must use
    :func:`bfs_farthest`)].
    """
    result = np.zeros(2, np.int64)
    n_cells = mask.shape[0]
    row_start = row * width
    queue[0] = source * 4 + back
    head = 0
    tail = 1
    level_end = 1
    depth = 0
    tree = 1
    to_reach = width if stop_early else n_cells + 1
    while head < tail and to_reach > 0:
        if head == level_end:
            depth += 1
            level_end = tail
        if tail > n_cells:  # more cells than the grid has: there is a loop
            tree = 0
            break
        entry = np.int64(queue[_U(head)])
        prefetch(mask, np.int64(queue[_U(min(head + LOOKAHEAD, tail - 1))]) >> 2)
        head += 1
        cur = entry >> 2
        m = np.int64(mask[_U(cur)]) & ~(np.int64(1) << (entry & 3))
        x = cur - row_start
        on_row = np.int64(_U(x) < _U(width))
        row_depth[_U(_sel(on_row, x, width))] = depth
        to_reach -= on_row
        # every child is written; the tail moves past the ones there are
        base = cur * 4
        queue[_U(tail)] = base - 4 * width + 1
        tail += m & 1
        queue[_U(tail)] = base + 4 * width
        tail += (m >> 1) & 1
        queue[_U(tail)] = base - 1
        tail += (m >> 2) & 1
        queue[_U(tail)] = base + 6
        tail += (m >> 3) & 1
    result[0] = head
    result[1] = tree
    return result


@_njit
def tree_walk(mask: np.ndarray, width: int, source: int, target: int) -> int:
    """Depth-first walk from ``source`` to ``target`` in a maze that is a tree.

    ``mask``: the flat passage masks of :func:`passage_masks` plus one
    scratch byte.  In a tree the only neighbour already seen is the parent,
    so the walk needs no marks to choose its way: entering a cell it writes
    the direction back (plus 1; 5 for the source) into bits 4-6, and back
    in a cell from a child in direction d it goes on with the next passage
    after d, or back up.  The chain of directions back from ``target`` is
    then the path.  Branch-free but for the loop's exits; the steps read
    only the byte of the cell entered.  Returns 1 when ``target`` was
    reached, 0 when it cannot be reached, -1 when the walk entered a cell it
    had seen (a loop: the caller must use :func:`walk`).
    """
    scratch = mask.shape[0] - 1
    byte = np.int64(mask[source]) | (5 << 4)
    mask[source] = byte
    cur = source
    after = 0  # the first direction still to try in cur
    while cur != target:
        back = (byte >> 4) - 1  # 4 in the source: no way back
        ahead = byte & 15 & ~(1 << back) & (-1 << after)
        forward = np.int64(ahead != 0)
        if not forward and back == 4:
            return 0
        lowest = ahead & -ahead  # 1, 2, 4 or 8
        d = _sel(forward, (lowest >> 1) - (lowest >> 3), back)
        nxt = _step(cur, d, width)
        seen = np.int64(mask[_U(nxt)])
        if forward and seen >> 4:
            return -1
        byte = seen | ((forward * ((d ^ 1) + 1)) << 4)
        mask[_U(_sel(forward, nxt, scratch))] = byte
        after = (1 - forward) * ((d ^ 1) + 1)  # back in the parent: the passages after the one just done
        cur = nxt
    return 1


@_njit(inline="always")
def _way_back(byte: int, shift: int, bias: int) -> int:
    return ((np.int64(byte) >> shift) - bias) & 3


@_njit
def path_from_parents(
    mark: np.ndarray, width: int, source: int, target: int, shift: int, bias: int, out: np.ndarray
) -> None:
    """Fill ``out`` (k, 2) with the (y, x) cells from source to target,
    following the directions back that a walk left in ``mark`` (at bit
    ``shift``, plus ``bias``)."""
    k = out.shape[0]
    cur = target
    for i in range(k - 1, -1, -1):
        out[i, 0] = cur // width
        out[i, 1] = cur % width
        if cur == source:
            break
        cur = _step(cur, _way_back(mark[cur], shift, bias), width)


@_njit
def path_length(mark: np.ndarray, width: int, source: int, target: int, shift: int, bias: int) -> int:
    cur = target
    k = 1
    while cur != source:
        cur = _step(cur, _way_back(mark[cur], shift, bias), width)
        k += 1
    return k


@_njit
def passage_masks(grid: np.ndarray, out: np.ndarray, counts: np.ndarray) -> None:
    """For each cell of the 2-d ``grid``, the passages that leave it as a
    4-bit mask (1 north, 2 south, 4 west, 8 east: bit ``1 << d`` for the
    direction d), into the flat ``out``; flags that would leave the grid and
    unknown bits are ignored.  ``counts[m]`` (16 zeroed int64) receives the
    number of cells with mask m: every per-cell count of a maze's texture
    is a sum over these 16."""
    height, width = grid.shape
    for y in range(height):
        above = _U(y - 1) if y > 0 else _U(0)
        has_up = np.uint8(y > 0)
        has_down = np.uint8(y < height - 1)
        for x in range(width):
            v = grid[y, x]
            north = (grid[above, x] >> 1) & has_up
            south = (v >> 1) & has_down
            west = grid[y, _U(x - 1)] & 1 if x > 0 else np.uint8(0)
            east = v & np.uint8(x < width - 1)
            m = (north & 1) | ((south & 1) << 1) | (west << 2) | ((east & 1) << 3)
            out[_U(y * width + x)] = m
            counts[m] += 1
