"""Fast paths of Growing Tree: kernels for three cases that
:func:`eller_stream._growing_tree_kernels._growing_tree` (the reference)
also handles, each the same mazes, step for step, in a loop that carries
less:

- random alone (randomized Prim): :func:`growing_tree_random`, a dense
  list and a branch-free step;
- oldest alone (a breadth-first search): :func:`growing_tree_oldest`, one
  pass per cell;
- mixes of newest and random only: :func:`growing_tree_newest_random`.

They exist for speed only; a change of what a strategy does goes into the
reference kernel first, and then here.  ``tests/test_growing_tree.py`` runs
the reference on the same mixes and compares.
"""

from __future__ import annotations

import itertools

import numpy as np

from ._cells import _open_wall, _step
from ._growing_tree_kernels import (
    BATCH,
    FREE_DIRS,
    RING,
    _close_gap,
    _drop_end,
    _enter,
    _first_cell,
    _free_count,
    _free_mask,
    _near_slot,
    _prefetch_rows,
    _rank_of,
    _slot,
    _sweep,
)
from ._numba import _U, _U64, Int64, _njit, _sel, lowest_bit, prefetch
from ._rng import _below, mix64, random_bits

RANDOM_AHEAD = 24  # random alone (randomized Prim): a pick is drawn this many steps before it
ROWS_AHEAD = 4  # random alone: the picked cell's rows are fetched this many steps before (a hint)
POP_AHEAD = 8  # a newest pick that reads the list fetches the cell this many places below (a hint)
# the 24 orders of the four directions, each packed 2 bits a direction (first in the lowest bits)
ORDERS = np.array(
    [sum(d << (2 * t) for t, d in enumerate(order)) for order in itertools.permutations(range(4))], np.uint8
)


@_njit(inline="always")
def _prim_step(
    work: np.ndarray,
    active: np.ndarray,
    offsets: np.ndarray,
    stride: Int64,
    j: Int64,
    choice: np.uint64,
    tail: Int64,
) -> np.int64:
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
    work: np.ndarray, active: np.ndarray, width: Int64, height: Int64, key: np.uint64
) -> None:
    """Growing Tree picking at random only (randomized Prim), in a framed
    grid of free sides (see :func:`~eller_stream._growing_tree_kernels._growing_tree`).

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
    tail: Int64 = 1
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
    work: np.ndarray, active: np.ndarray, width: Int64, height: Int64, key: np.uint64
) -> None:
    """Growing Tree picking the oldest cell (a queue), a cell at a time, in a
    framed grid (see :func:`~eller_stream._growing_tree_kernels._growing_tree`).

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
        mine: Int64 = 0
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
def _carve_and_push(
    work: np.ndarray,
    active: np.ndarray,
    offsets: np.ndarray,
    stride: Int64,
    c: Int64,
    mask: Int64,
    k: Int64,
    choice: np.uint64,
    g0: Int64,
    g1: Int64,
    tail: Int64,
) -> tuple[Int64, Int64, Int64]:
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
    work: np.ndarray, active: np.ndarray, width: Int64, height: Int64, key: np.uint64, newest: np.uint64
) -> None:
    """:func:`~eller_stream._growing_tree_kernels._growing_tree` for a mix of newest and random picks only (a
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
    - the steps run in batches, as in the reference kernel, each a loop of
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
    waiting: Int64 = 0  # a bit for each random pick of the next batch
    offsets = np.empty(64, np.int64)  # offsets[i]: the neighbour towards FREE_DIRS[i]
    for i in range(64):
        offsets[i] = _step(0, FREE_DIRS[i], stride)
    step = 0
    start = _first_cell(work, active, key, width, height)
    head: Int64 = 0
    g0: Int64 = 1
    g1: Int64 = 1
    tail: Int64 = 1
    dead: Int64 = 0  # tombstones: the other cells listed are live
    # the newest cell and its free sides (cell << 4 | sides), from the step
    # that pushed it until a step takes it off the list (only a step that
    # finds it has no free side can: a tombstone is never the newest); -1
    # meanwhile
    top: Int64 = (start << 4) | _free_mask(work, start)
    while True:
        # batch k = step // BATCH starts: draw batch k + 2 (in a loop of its
        # own, so that it runs 4 draws at a time, SIMD; its first step is a
        # multiple of BATCH, so its ring slots follow on), give each of its
        # random picks its rank among the cells listed now, and fetch its
        # slot; fetch the cells of batch k + 1's random picks (``waiting``:
        # a bit for each, by its place in the batch).  The same code is in
        # _growing_tree, not in a helper: a helper taking the arrays costs
        # numba reference counts at every batch (docs/internals.md)
        size = (g0 - head) + (tail - g1)
        later = step + 2 * BATCH
        first = _U(later & (RING - 1))
        for i in range(BATCH):
            draws[first + _U(i)] = random_bits(key, _U64(later + i + 1))
        picks: Int64 = 0
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
