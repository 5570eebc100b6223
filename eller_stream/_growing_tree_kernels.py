"""Growing Tree's kernel for every strategy and mix: the reference.

``eller_stream._growing_tree`` runs three cases on kernels of their own, the
fast paths in ``_growing_tree_fast`` (random alone, oldest alone, mixes of
newest and random); they build the same mazes as :func:`_growing_tree`,
step for step, and the tests check that they do.

Growing Tree works in a copy of the maze framed by a row and a column of
cells on each side, so that no step tests the bounds, and keeps in each
cell which of its neighbours are still unvisited:

    bits 4-7  free sides: north, south, west, east (FREE_SHIFT)

so that picking a cell reads its own byte, not its four neighbours' (three
cache lines, and a far random pick of a cell that cannot grow any more
needs no more than that byte); entering a cell clears the bit pointing at
it in each of its neighbours (:func:`_enter`).

What costs time is waiting for memory (a random pick lands anywhere in the
list, and its cell anywhere in the maze) and mispredicted branches.  So a
random pick's rank is drawn ahead of the pick and its slot and cell are
fetched meanwhile (``prefetch``); in a mix, where the branch on the
strategy cannot be predicted, the draws are made a batch at a time, two
batches ahead, in a loop of their own (four at once, SIMD): a step then
reads its draw rather than hashing it, and the branch is settled sooner.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._cells import _carve
from ._numba import _U, _U64, Int64, _njit, lowest_bit, prefetch
from ._rng import _below, _below_cells, mix64, random_bits

# The strategies: a constant each, its index in STRATEGIES and in the kernel's
# ``cumulative`` thresholds, and its slot rule in :func:`_pick_rank`.  (A new
# strategy: a constant, a name, a rule; and the same in tests/naive.py.)
NEWEST = 0
OLDEST = 1
RANDOM = 2
MIDDLE = 3
STRATEGIES = ("newest", "oldest", "random", "middle")  # by index

# when a random pick's rank is drawn (part of the stream).  A rank drawn early
# is uniform over the list as it is then plus the most it can grow before the
# pick; at the pick, a rank past the end (or, in a mix, on a tombstone) is drawn
# again, so that every pick is uniform over the cells listed at the pick, as
# in the textbook (tests/test_texture.py checks the textures against it)
BATCH = 32  # mixes draw BATCH steps at a time, two batches ahead; with random picks, a pick's
# rank is drawn at the start of the batch two before its own (see _growing_tree)
RING = 128  # the draws waiting for their step: a power of two, at least 3 * BATCH and RANDOM_AHEAD
# Growing Tree's free-side bits: set while the neighbour that way is unvisited
FREE_SHIFT = 4  # bits 4-7: north, south, west, east
# how many free sides a 4-bit mask has, and the k-th of them (north, south, west, east order)
FREE_COUNT = np.array([bin(m).count("1") for m in range(16)], np.int64)
FREE_COUNT_PACKED = sum(int(count) << (4 * m) for m, count in enumerate(FREE_COUNT))  # 4 bits a mask
FREE_DIRS = np.array(
    [([d for d in range(4) if m >> d & 1] + [0] * 4)[:4] for m in range(16)], np.int64
).reshape(-1)


@_njit(inline="ir")
def _enter(work: np.ndarray, n: Int64, stride: Int64) -> None:
    """Mark cell n visited in a framed Growing Tree grid: clear, in each of
    its four neighbours, the free-side bit that points at n.  (On a cell
    already visited it changes nothing, so branch-free callers may call it
    on a cell that does not grow.)"""
    work[_U(n - stride)] &= np.uint8(0xFF ^ (2 << FREE_SHIFT))  # the cell above: its south side
    work[_U(n + stride)] &= np.uint8(0xFF ^ (1 << FREE_SHIFT))  # below: north
    work[_U(n - 1)] &= np.uint8(0xFF ^ (8 << FREE_SHIFT))  # left: east
    work[_U(n + 1)] &= np.uint8(0xFF ^ (4 << FREE_SHIFT))  # right: west


@_njit(inline="ir")
def _free_mask(work: np.ndarray, c: Int64) -> np.int64:
    """The free sides of cell c (bit d set: the neighbour towards d is unvisited)."""
    return np.int64(work[_U(c)]) >> FREE_SHIFT


@_njit(inline="ir")
def _free_count(mask: Int64) -> np.int64:
    """FREE_COUNT[mask] from a constant held in a register, not a table in memory."""
    return np.int64((_U64(FREE_COUNT_PACKED) >> _U64(mask * 4)) & _U64(15))


@_njit(inline="ir")
def _free_dir(mask: Int64, k: Int64, choice: np.uint64) -> np.int64:
    """One of the k >= 1 free sides in ``mask``, uniformly by ``choice``."""
    return np.int64(FREE_DIRS[_U(mask * 4 + _below(choice, k))])


@_njit(inline="ir")
def _prefetch_rows(work: np.ndarray, cell: Int64, stride: Int64) -> None:
    """Fetch the bytes of ``cell`` and of the cells above and below it: all
    that a step on ``cell`` reads or writes."""
    prefetch(work, cell - stride)
    prefetch(work, cell)
    prefetch(work, cell + stride)


@_njit(inline="ir")
def _start(key: np.uint64, width: Int64, height: Int64) -> Int64:
    """The first cell of a Growing Tree (draw 0), in framed coordinates."""
    s = _below_cells(random_bits(key, _U64(0)), width * height)
    return (s // width + 1) * (width + 2) + s % width + 1


@_njit(inline="ir")
def _first_cell(work: np.ndarray, active: np.ndarray, key: np.uint64, width: Int64, height: Int64) -> Int64:
    """Place the first cell of a Growing Tree (see :func:`_start`) in a
    framed grid of free sides: enter it and make it the first of the list."""
    start = _start(key, width, height)
    _enter(work, start, width + 2)
    active[0] = start
    return start


@_njit(inline="ir")
def _rank_of(bits: np.uint64, size: Int64) -> tuple[np.int64, np.uint64]:
    """The rank, among ``size`` cells, of a random pick drawn ``bits`` (from
    its high 32 bits), and the bits left for the direction."""
    product = (bits >> _U64(32)) * _U64(size)
    return np.int64(product >> _U64(32)), product << _U64(32)


@_njit(inline="ir")
def _slot(rank: Int64, head: Int64, g0: Int64, g1: Int64, tail: Int64) -> np.int64:
    """The slot of the cell of the given rank (below the list's length) in
    ``active[head:g0]`` then ``active[g1:tail]``."""
    j = head + rank
    return j + (g1 - g0) * np.int64(j >= g0)


@_njit(inline="ir")
def _near_slot(rank: Int64, head: Int64, g0: Int64, g1: Int64, tail: Int64) -> Int64:
    """:func:`_slot`, or the last slot for a rank past the list's end: a
    slot to fetch ahead of a pick, which the list may yet grow to reach."""
    return _slot(min(rank, (g0 - head) + (tail - g1) - 1), head, g0, g1, tail)


@_njit(inline="ir")
def _drop_end(
    j: Int64, head: Int64, g0: Int64, g1: Int64, tail: Int64
) -> tuple[Int64, Int64, Int64, Int64, Int64]:
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


@_njit(inline="ir")
def _close_gap(active: np.ndarray, g0: Int64, g1: Int64, tail: Int64) -> Int64:
    """Move the right part of the gap buffer down against the left one, to
    make room at the end: the new tail (the gap is then empty, g1 = g0)."""
    for t in range(g1, tail):
        active[g0 + t - g1] = active[t]
    return g0 + tail - g1


@_njit(inline="ir")
def _sweep(active: np.ndarray, head: Int64, g0: Int64, g1: Int64, tail: Int64) -> Int64:
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


@_njit(inline="ir")
def _balance_live(
    active: np.ndarray, head: Int64, g0: Int64, g1: Int64, tail: Int64, live: Int64, live_left: Int64
) -> tuple[Int64, Int64, Int64]:
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


@_njit(inline="ir")
def _strategy_of(r: np.uint64, cumulative: np.ndarray) -> Int64:
    """The strategy (its index) that a step whose draw has low 32 bits ``r``
    takes: the first whose cumulative threshold is above ``r`` (the last
    threshold is 2**32, so it is always one of them)."""
    strategy: Int64 = 0
    for t in range(len(STRATEGIES) - 1):
        strategy += np.int64(r >= cumulative[t])
    return strategy


@_njit(inline="ir")
def _weight_range(cumulative: np.ndarray, strategy: Int64) -> tuple[np.uint64, np.uint64]:
    """The low 32 bits of the draws that pick ``strategy``: ``[start, start +
    share)``, as cumulative thresholds."""
    start = _U64(0) if strategy == 0 else _U64(cumulative[strategy - 1])
    return start, _U64(cumulative[strategy]) - start


@_njit(inline="ir")
def _pick_rank(strategy: Int64, size: Int64, left: Int64, drawn: Int64) -> Int64:
    """Each strategy's slot rule: the rank of its pick among the ``size``
    slots of the list, tombstones included, of which the first ``left`` are
    the left part (whose last live cell is the middle one when the mix has
    ``middle``: see :func:`_growing_tree`); ``drawn`` is a random pick's rank,
    below ``size``.  A rule other than random's must pick a slot that ends a
    part, so that a tombstone found there is dropped and the rule, applied
    again, moves on."""
    if strategy == NEWEST:
        return size - 1
    if strategy == OLDEST:
        return 0
    if strategy == RANDOM:
        return drawn
    if strategy == MIDDLE:
        return left - 1
    raise ValueError("not a Growing Tree strategy")


@_njit
def _growing_tree(
    work: np.ndarray,
    active: np.ndarray,
    width: Int64,
    height: Int64,
    key: np.uint64,
    cumulative: np.ndarray,
    draws_ahead: bool | None,
    ranks_ahead: bool | None,
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
    active.  ``cumulative`` holds the weights of the strategies, in the order
    of STRATEGIES (NEWEST, OLDEST, RANDOM, MIDDLE), as cumulative thresholds
    on 32 bits.

    Call it through :func:`general_kernel`, which picks the compiled variant
    for the mix.  ``draws_ahead`` and ``ranks_ahead`` are compile-time
    switches: True compiles the code they guard in, None compiles it out
    (numba prunes the branches on an argument typed None).  ``draws_ahead``:
    the draws are made a batch at a time, two batches ahead (SIMD), and a
    step reads its draw from the ring, so the branch on the strategy, which
    the processor cannot predict in a mix, is settled sooner; for one
    strategy alone that branch is always predicted and each step hashes its
    own draw.  ``ranks_ahead``: the ranks of random picks are drawn ahead and
    their cells fetched; a version without them is faster for the mixes that
    make no random pick.  ``ranks_ahead=True`` needs ``draws_ahead=True``.
    Each pick goes by its strategy's slot rule (:func:`_pick_rank`).
    """
    key = _U64(key)
    stride = width + 2
    capacity = active.shape[0]
    low = _U64(0xFFFFFFFF)
    use_middle = _weight_range(cumulative, MIDDLE)[1] > 0
    random_start, random_share = _weight_range(cumulative, RANDOM)
    if ranks_ahead is None and random_share > 0:
        raise ValueError("a mix with random picks needs ranks_ahead=True")
    if ranks_ahead is not None and draws_ahead is None:
        raise ValueError("ranks_ahead=True needs draws_ahead=True")
    draws = np.empty(RING, np.uint64)
    ranks = np.empty(RING, np.int64)
    choices = np.empty(RING, np.uint64)
    if draws_ahead is not None:  # batches 0 and 1 (their ranks are drawn at the pick)
        for later in range(2 * BATCH):
            draws[later] = random_bits(key, _U64(later + 1))  # draw 0 placed the first cell
    waiting: Int64 = 0  # a bit for each random pick of the next batch
    step = 0
    _first_cell(work, active, key, width, height)
    head: Int64 = 0
    g0: Int64 = 1
    g1: Int64 = 1
    tail: Int64 = 1
    live = 1
    live_left: Int64 = 1  # live cells in the left part (kept for the middle of a mix with tombstones)
    dead: Int64 = 0
    while live > 0:
        if draws_ahead is not None and (step & (BATCH - 1)) == 0:
            # batch k = step // BATCH starts: draw batch k + 2 (in a loop of
            # its own, so that it runs 4 draws at a time, SIMD; its first
            # step is a multiple of BATCH, so its ring slots follow on)
            later = step + 2 * BATCH
            first = _U(later & (RING - 1))
            for i in range(BATCH):
                draws[first + _U(i)] = random_bits(key, _U64(later + i + 1))
            if ranks_ahead is not None:
                # give each random pick of batch k + 2 its rank among the cells
                # listed now, and fetch its slot; fetch the cells of batch k + 1's
                # random picks (``waiting``: a bit for each, by its place in the
                # batch).  The same code is in growing_tree_newest_random, not in
                # a helper: a helper taking the arrays costs numba reference
                # counts at every batch (docs/internals.md)
                size = (g0 - head) + (tail - g1)
                picks: Int64 = 0
                for i in range(BATCH):
                    picks |= np.int64((draws[first + _U(i)] & low) - random_start < random_share) << i
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
        if draws_ahead is not None:
            bits = draws[at]
        else:
            bits = random_bits(key, _U64(step + 1))
        step += 1
        strategy = _strategy_of(bits & low, cumulative)
        # pick: j is the slot of the chosen cell, choice the bits left for the
        # direction; a pick that finds a tombstone removes it if it ends its
        # part and picks again, by the same strategy, in the same step
        choice = bits
        is_random = strategy == RANDOM
        rank: Int64 = 0
        redraw = bits
        if is_random:
            if step <= 2 * BATCH:  # the first two batches: the rank is drawn at the pick
                ranks[at], choices[at] = _rank_of(bits, (g0 - head) + (tail - g1))
            rank = ranks[at]
            choice = choices[at]
        while True:
            size = (g0 - head) + (tail - g1)
            if is_random and rank >= size:  # past the end (drawn for a longer list): draw again
                redraw = mix64(redraw)
                rank, choice = _rank_of(redraw, size)
            j = _slot(_pick_rank(strategy, size, g0 - head, rank), head, g0, g1, tail)
            c = np.int64(active[_U(j)])
            if c >= 0:
                break
            head, g0, g1, tail, dropped = _drop_end(j, head, g0, g1, tail)
            if dropped == 0 and not is_random:
                raise ValueError("a Growing Tree slot rule picked inside a part")
            dead -= dropped
            if ranks_ahead is not None:
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
        if ranks_ahead is not None:  # with tombstones: balance the live cells
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


# The compiled variants of the general kernel, and the factory that names them.
GeneralKernel = Callable[[np.ndarray, np.ndarray, int, int, np.uint64, np.ndarray], None]


@_njit
def growing_tree_alone(
    work: np.ndarray, active: np.ndarray, width: Int64, height: Int64, key: np.uint64, cumulative: np.ndarray
) -> None:
    """:func:`_growing_tree` for one strategy alone (``newest`` or ``middle``):
    each step hashes its own draw, no batches."""
    _growing_tree(work, active, width, height, key, cumulative, None, None)


@_njit
def growing_tree_mix(
    work: np.ndarray, active: np.ndarray, width: Int64, height: Int64, key: np.uint64, cumulative: np.ndarray
) -> None:
    """:func:`_growing_tree` for a mix without random picks: the draws a
    batch at a time, two batches ahead."""
    _growing_tree(work, active, width, height, key, cumulative, True, None)


@_njit
def growing_tree_mix_random(
    work: np.ndarray, active: np.ndarray, width: Int64, height: Int64, key: np.uint64, cumulative: np.ndarray
) -> None:
    """:func:`_growing_tree` for a mix with random picks: the draws and the
    random picks' ranks ahead, the picked cells fetched meanwhile."""
    _growing_tree(work, active, width, height, key, cumulative, True, True)


def general_kernel(*, mix: bool, random_picks: bool) -> GeneralKernel:
    """The compiled variant of the general kernel for a strategy: ``mix``
    when it has two strategies or more, ``random_picks`` when one of them is
    ``random``.  (Random alone has a kernel of its own in
    ``_growing_tree_fast``; this one needs random picks in a mix.)"""
    if random_picks and not mix:
        raise ValueError(
            "random picks' ranks drawn ahead need the draws drawn ahead (a mix): random alone has "
            "growing_tree_random"
        )
    if random_picks:
        return growing_tree_mix_random
    return growing_tree_mix if mix else growing_tree_alone
