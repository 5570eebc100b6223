"""Numba kernels of the banded maze's rooms.

Rooms: open rectangles in a band's rows 0 .. K-3, placed from (seed, band)
alone (band_rooms), and the band's Eller rows around them
(_rooms_band_in).  A room is one set: its top row's cells come from
different sets (above a room's top row a cell opens only when its set has
no other way down, so a set enters it at most once), so joining them closes
no loop; its rows below join it through its open south walls.  Contract
each room to one node and the maze is a tree.

Speed: every rule of a room is one cell's own, known before the row is
made (:func:`room_planes`, a bit plane a rule), so a row that meets a room
is Eller's row with some draws decided for it: on bit planes with the rest
(``_eller_planes.planes_rows``), or, narrower than ``PLANES_FROM``, Eller's
sweep with each cell's draws decided first (:func:`_room_row`).
"""

from __future__ import annotations

import numpy as np

from ._band_kernels import (
    ROOM_SALT,
    SPAN_WORDS,
    TH_ROOM,
    band_key,
    band_span_in,
    row_thresholds,
)
from ._eller_kernels import LR_PAD, _join, eller_rows, eller_sweep
from ._eller_planes import (
    DEEPEST,
    PLANES_FROM,
    ROOM_CLOSE,
    ROOM_EAST,
    ROOM_JOINS,
    ROOM_OPEN,
    ROOM_PLANES,
    SETS_WORDS,
    lists_of_planes,
    planes_of_lists,
    planes_rows,
    scratch_rows,
)
from ._format import EAST
from ._numba import _U64, Int64, _mul_high, _njit, load_u64, lowest_bit, store_u64
from ._rng import _GOLDEN, _LOW32, _S32, mix64, random_bits

ROOM_MAX_HEIGHT = 6
ROOM_MAX_WIDTH = 8


@_njit(inline="always")
def room_key(key: np.uint64, band: np.uint64) -> np.uint64:
    """The generator key of band ``band``'s rooms."""
    return mix64(_U64(key) ^ mix64(_U64(band) * _GOLDEN + ROOM_SALT))


@_njit(inline="always")
def room_target(height: int, width: int, th: np.ndarray) -> Int64:
    """How many of a band's ``height * width`` cells its rooms aim to hold:
    ``cells * th[TH_ROOM] >> 32`` (exact: the product may need 80 bits)."""
    cells = _U64(height) * _U64(width)
    return np.int64(_mul_high(cells << _U64(16), _U64(th[TH_ROOM]) << _U64(16)))


@_njit(inline="always")
def room_capacity(height: int, width: int, th: np.ndarray) -> Int64:
    """How many rooms a band may get: at most one an attempt (see
    :func:`band_rooms`)."""
    return 16 + room_target(height, width, th) // 5


@_njit(inline="always")
def _no_rooms(height: int, width: int, th: np.ndarray) -> bool:
    """Whether a band gets no rooms at all: too small, or a target of none."""
    empty: bool = height - 2 < 2 or width < 2 or room_target(height, width, th) == 0
    return empty


@_njit(inline="always")
def taken_bytes(height: int, width: int) -> Int64:
    """The bytes of :func:`place_rooms`' map of the cells taken, for a band
    of ``height`` rows of ``width``: a bit a cell, ``width // 8 + 16`` bytes a
    row, and ``ROOM_MAX_HEIGHT`` rows past the rooms' rows."""
    return (height - 2 + ROOM_MAX_HEIGHT) * ((width >> 3) + 16)


@_njit
def band_rooms(
    height: int, width: int, key: np.uint64, band: np.uint64, th: np.ndarray, rects: np.ndarray
) -> int:
    """Place band ``band``'s rooms (the band: ``height`` rows of ``width``)
    into ``rects`` (at least :func:`room_capacity` rows) as (top row in the
    band, left column, height, width), in the order placed.  Returns how
    many there are.

    The target is ``T = cells * th[TH_ROOM] >> 32`` cells of the band's
    ``cells``.  Attempt ``i`` (at most ``16 + T // 5``) draws number ``2i``
    of ``room_key(key, band)`` for the size (low 32 bits: height in 2 ..
    min(6, K - 2), high: width in 2 .. min(8, width), by multiply-shift) and
    number ``2i + 1`` for the place (low: top row, high: left column); a
    room that would meet or touch (sides or corners) one placed before is
    left out (``taken``: the cells of the rooms placed and the cells around
    them, a bit a cell, read and written 64 bits at any byte); placing stops
    once the rooms hold ``T`` cells."""
    if _no_rooms(height, width, th):
        return 0
    attempts = room_capacity(height, width, th)  # at most one room an attempt
    if rects.shape[0] < attempts:
        raise ValueError("band_rooms: rects has fewer rows than room_capacity")
    taken = np.empty(taken_bytes(height, width), np.uint8)
    draws = np.empty(2 * attempts, np.uint64)
    return place_rooms(height, width, key, band, th, rects, taken, draws)


@_njit(refcounts=False)
def place_rooms(
    height: int, width: int, key: np.uint64, band: np.uint64, th: np.ndarray, rects: np.ndarray,
    taken: np.ndarray, draws: np.ndarray,
) -> int:  # fmt: skip
    """:func:`band_rooms` in its scratch (``taken``: :func:`taken_bytes`,
    zeroed here; ``draws``: two an attempt; ``rects``: a row an attempt),
    without reference counts."""
    if _no_rooms(height, width, th):
        return 0
    rows = height - 2  # rooms stay off the band's last two rows
    target = room_target(height, width, th)
    attempts = room_capacity(height, width, th)
    stride = (width >> 3) + 16  # taken: a bit a cell, row r's column x at bit x of byte r * stride
    taken[: taken_bytes(height, width)] = 0  # rows past the band: free
    rkey = room_key(key, band)
    hmax = min(rows, ROOM_MAX_HEIGHT)
    wmax = min(width, ROOM_MAX_WIDTH)
    for i in range(2 * attempts):  # vectorised
        draws[i] = random_bits(rkey, _U64(i))
    total: Int64 = 0
    n = 0
    for i in range(attempts):
        size = draws[2 * i]
        place = draws[2 * i + 1]
        h = 2 + np.int64(((size & _LOW32) * _U64(hmax - 1)) >> _S32)
        w = 2 + np.int64(((size >> _S32) * _U64(wmax - 1)) >> _S32)
        top = np.int64(((place & _LOW32) * _U64(rows - h + 1)) >> _S32)
        left = np.int64(((place >> _S32) * _U64(width - w + 1)) >> _S32)
        at = top * stride + (left >> 3)  # the 64 columns from 8 * (left // 8) on: the room's, and more
        span = ((_U64(1) << _U64(w)) - _U64(1)) << _U64(left & 7)
        hit = _U64(0)
        for k in range(ROOM_MAX_HEIGHT):  # a fixed count of rows: no branch on the height
            hit |= load_u64(taken, at + k * stride) & span & (_U64(0) - _U64(k < h))
        if hit:
            continue
        rects[n, 0] = top
        rects[n, 1] = left
        rects[n, 2] = h
        rects[n, 3] = w
        n += 1
        total += h * w
        if total >= target:
            break
        x0 = left - np.int64(left > 0)  # the room and the cells around it, in the band
        x1 = left + w + np.int64(left + w < width)
        y0 = top - np.int64(top > 0)
        rows_around = top + h + np.int64(top + h < rows) - y0
        at = y0 * stride + (x0 >> 3)
        span = ((_U64(1) << _U64(x1 - x0)) - _U64(1)) << _U64(x0 & 7)  # at most 10 + 7 bits
        for k in range(ROOM_MAX_HEIGHT + 2):  # a fixed count of rows again (taken is padded below)
            keep = span & (_U64(0) - _U64(k < rows_around))
            store_u64(taken, at + k * stride, load_u64(taken, at + k * stride) | keep)
    return n


@_njit(inline="always")
def _room_word(masks: np.ndarray, top: Int64, h: Int64, i: Int64, east: np.uint64, every: np.uint64) -> None:
    """A room's bits in word ``i`` of its rows' planes: ``east`` (its cells
    but the last of a row), ``every`` (all its cells of a row).  A fixed
    count of rows, masked to its height (``masks`` has ``ROOM_MAX_HEIGHT``
    rows more): no loop of a room's own size."""
    for k in range(ROOM_MAX_HEIGHT):
        inside = _U64(0) - _U64(k < h)
        masks[top + k, ROOM_EAST, i] |= east & inside
        masks[top + k, ROOM_OPEN, i] |= every & inside & (_U64(0) - _U64(k < h - 1))
    masks[top, ROOM_JOINS, i] |= east
    if top > 0:
        masks[top - 1, ROOM_CLOSE, i] |= every


@_njit(refcounts=False)
def room_planes(rects: np.ndarray, n: int, masks: np.ndarray) -> None:
    """What a band's ``n`` rooms ``rects`` ask of its rows (``ROOM_*``), as
    bit planes into ``masks`` (zeros, ``(rows + ROOM_MAX_HEIGHT,
    ROOM_PLANES, words + 1)``; the rooms lie in its first ``rows``): the
    east walls inside a room open, its south walls but in its last row, its
    top row's cells join their east neighbours' sets, and the cells above
    its top close when they may."""
    for j in range(n):
        top, left, h, w = rects[j, 0], rects[j, 1], rects[j, 2], rects[j, 3]
        if top + ROOM_MAX_HEIGHT > masks.shape[0] or (left + w + 63) >> 6 >= masks.shape[2]:
            raise ValueError("room_planes: masks has fewer rows or words than the rooms need")
        i = left >> 6
        s = _U64(left & 63)
        east = (_U64(1) << _U64(w - 1)) - _U64(1)  # w <= ROOM_MAX_WIDTH: a byte
        every = (_U64(1) << _U64(w)) - _U64(1)
        _room_word(masks, top, h, i, east << s, every << s)
        if (left & 63) + w > 64:  # the room goes on into the next word (rare)
            _room_word(masks, top, h, i + 1, east >> (_U64(64) - s), every >> (_U64(64) - s))


@_njit(inline="always")
def _room_row(
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    rules: np.ndarray,
    key: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
    decided: np.ndarray,
) -> None:
    """A row of a band that meets a room (its room tops joined first;
    ``rules``: its planes of :func:`room_planes`), with the draws of
    :func:`eller_rows`, and Eller's sweep.  Inside a room a wall is open: a
    south wall never closes, and an east wall joins nothing (the room is one
    set already), so its ``EAST`` is set after the sweep.  Above a room's
    top row a cell closes whenever it may (its set has another cell that
    opened or will open): it opens only when it is its set's last way down.

    The row's draws (those of :func:`~eller_stream._eller_kernels.row_draws`)
    are decided as they are made, in one vectorised loop a word of the
    planes, into ``decided`` (``width`` entries, scratch) as bits
    :func:`eller_sweep` reads with both thresholds 1: the low word 0 when
    its east wall may join, the high word 1 when its south wall may close.
    The sweep then reads one word a cell, as Eller's does."""
    width = row.shape[0]
    for i in range((width + 63) // 64):
        stays_open = rules[ROOM_OPEN, i]
        closes = rules[ROOM_CLOSE, i]
        at = i * 64
        for b in range(min(64, width - at)):  # vectorised: each draw decided as it is made
            x = at + b
            bits = random_bits(key, counter + _U64(x))
            drawn = _U64((bits >> _S32) >= open_below) & ~(stays_open >> _U64(b))
            may_close = (drawn | (closes >> _U64(b))) & _U64(1)
            decided[x] = _U64((bits & _LOW32) >= join_below) | (may_close << _S32)
    eller_sweep(left, right, row, decided, _U64(1), _U64(1))
    for i in range((width + 63) // 64):
        east = rules[ROOM_EAST, i]
        at = i * 64
        for b in range(min(64, width - at)):  # vectorised
            row[at + b] |= np.uint8((east >> _U64(b)) & _U64(1)) * EAST


@_njit(inline="always")
def _meets(masks: np.ndarray, y: Int64) -> bool:
    """Whether row ``y`` holds room cells or lies above a room's top."""
    any_bit = _U64(0)
    for k in range(ROOM_PLANES):
        for i in range(masks.shape[2]):
            any_bit |= masks[y, k, i]
    meets: bool = any_bit != _U64(0)
    return meets


@_njit(inline="always")
def _room_row_by_lists(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    y: Int64,
    bkey: np.uint64,
    th: np.ndarray,
    masks: np.ndarray,
    decided: np.ndarray,
) -> None:
    """Row ``y`` of a band with rooms (``masks``: :func:`room_planes`) on
    the lists: its room tops joined, left to right (each comes from a
    different set, so in any order of the rooms the same lists), then
    :func:`_room_row`."""
    width = out.shape[1]
    scratch = np.int64(left.shape[0] - LR_PAD)
    for i in range((width + 63) // 64):
        joins = masks[y, ROOM_JOINS, i]
        while joins != _U64(0):
            x = i * 64 + lowest_bit(np.int64(joins))
            joins &= joins - _U64(1)
            _join(left, right, x, np.int64(left[x + 1]), np.int64(right[x]), np.int64(1), scratch)
    join, opens_below = row_thresholds(th, y)
    _room_row(left, right, out[y], masks[y], bkey, _U64(y) * _U64(width), join, opens_below, decided)


@_njit(inline="always")
def rooms_by_lists(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    bkey: np.uint64,
    th: np.ndarray,
    masks: np.ndarray,
    decided: np.ndarray,
) -> None:
    """The rows of a band with rooms (``masks``: :func:`room_planes`, a row
    each) on the lists, from ``left``, ``right`` (sets of one cell): the
    rows that meet a room by :func:`_room_row`, runs of the others by
    :func:`eller_rows` (``decided``: scratch)."""
    plain, width = out.shape
    y: Int64 = 0
    while y < plain:
        if not _meets(masks, y):
            stop = y + 1
            while y > 0 and stop < plain and not _meets(masks, stop):
                stop += 1
            join, opens_below = row_thresholds(th, y)
            eller_rows(left, right, out[y:stop], bkey, _U64(y) * _U64(width), join, opens_below)
            y = stop
            continue
        _room_row_by_lists(left, right, out, y, bkey, th, masks, decided)
        y += 1


@_njit
def rooms_by_planes(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    bkey: np.uint64,
    th: np.ndarray,
    masks: np.ndarray,
    deepest: Int64,
    decided: np.ndarray,
) -> None:
    """The rows of :func:`rooms_by_lists` from row 0 (sets of one cell),
    on bit planes (``planes_rows`` with the rooms' planes); a row whose sets
    nest deeper than ``deepest`` by the lists.  ``left``, ``right``: the
    sets after the rows."""
    nw = (out.shape[1] + 63) // 64
    work = np.zeros((SETS_WORDS, nw + 1), np.uint64)  # one allocation for the band's scratch
    base = np.empty(nw + 1, np.int64)
    _rooms_planes_in(left, right, out, bkey, th, masks, deepest, decided, work, base, np.bool_(True))


@_njit(refcounts=False)
def _rooms_planes_in(
    left: np.ndarray, right: np.ndarray, out: np.ndarray, bkey: np.uint64, th: np.ndarray, masks: np.ndarray,
    deepest: Int64, decided: np.ndarray, work: np.ndarray, base: np.ndarray, to_lists: bool | np.bool_,
) -> None:  # fmt: skip
    """:func:`rooms_by_planes` in its scratch (``work``: ``SETS_WORDS`` rows
    of ``nw + 1`` zero words; ``base``: ``nw + 1`` int64s), without reference
    counts; ``to_lists``: the sets after the rows into ``left``, ``right``
    (else only as planes, ``work``'s first two rows)."""
    plain, width = out.shape
    P, N = work[0], work[1]  # row 0 starts from sets of one cell: no bits
    no_doors, _, words, depths = scratch_rows(work[2:], (width + 63) // 64)
    y: Int64 = 0
    while y < plain:
        m = 1 if y == 0 else plain - y  # row 0 has thresholds of its own
        join, opens = row_thresholds(th, y)
        counter = _U64(y) * _U64(width)
        rows, rules = out[y : y + m], masks[y : y + m]
        made = planes_rows(
            P, N, rows, bkey, counter, join, opens, deepest, no_doors, no_doors, rules, words, depths, base
        )
        y += made
        if made < m:  # nested too deep for the planes: a row by the lists
            lists_of_planes(P, N, left, right, width)
            _room_row_by_lists(left, right, out, y, bkey, th, masks, decided)
            planes_of_lists(left, right, P, N, width)
            y += 1
    if to_lists:
        lists_of_planes(P, N, left, right, width)


@_njit(inline="always")
def rooms_words(band_height: int, width: int) -> Int64:
    """The words of :func:`_rooms_band_in`'s scratch: the rows' planes, the
    draws decided, :func:`rooms_by_planes`' words, the last two rows'."""
    nw = (width + 63) // 64
    return (
        (band_height - 2 + ROOM_MAX_HEIGHT) * ROOM_PLANES * (nw + 1)
        + width
        + (SETS_WORDS + SPAN_WORDS) * (nw + 1)
    )


@_njit(refcounts=False)
def _rooms_band_in(
    left: np.ndarray, right: np.ndarray, out: np.ndarray, key: np.uint64, band: np.uint64, th: np.ndarray,
    doors: np.ndarray, parent: np.ndarray, rects: np.ndarray, n_rooms: int, flat: np.ndarray,
    base: np.ndarray,
) -> None:  # fmt: skip
    """The whole band ``band`` into ``out`` with its ``n_rooms`` rooms
    ``rects`` (:func:`band_rooms`), from sets of one cell: the rows that
    meet a room with the same draws as the others, on bit planes from
    ``PLANES_FROM`` cells on (:func:`rooms_by_planes`), narrower on the
    lists (:func:`rooms_by_lists`); the last two by :func:`band_span_in`.
    Its scratch (``flat``: :func:`rooms_words`
    words, zeroed here: the rows' planes, the draws decided,
    :func:`rooms_by_planes`' words and the last two rows'; ``base``: ``nw +
    1`` int64s), without reference counts."""
    band_height, width = out.shape
    bkey = band_key(key, band)
    plain = band_height - 2
    nw = (width + 63) // 64
    size = (plain + ROOM_MAX_HEIGHT) * ROOM_PLANES * (nw + 1)
    flat[: size + SETS_WORDS * (nw + 1) + width] = _U64(0)
    masks = flat[:size].reshape((plain + ROOM_MAX_HEIGHT, ROOM_PLANES, nw + 1))
    room_planes(rects, n_rooms, masks)
    decided = flat[size : size + width]
    at = size + width
    work = flat[at : at + SETS_WORDS * (nw + 1)].reshape((SETS_WORDS, nw + 1))
    at += SETS_WORDS * (nw + 1)
    span = flat[at : at + SPAN_WORDS * (nw + 1)].reshape((SPAN_WORDS, nw + 1))
    planes = width >= PLANES_FROM
    if planes:  # the last two rows from the sets as planes: no lists and back
        _rooms_planes_in(
            left, right, out[:plain], bkey, th, masks, np.int64(DEEPEST), decided, work, base, np.bool_(False)
        )
        for i in range(nw + 1):
            span[0, i] = work[0, i]
            span[1, i] = work[1, i]
    else:
        rooms_by_lists(left, right, out[:plain], bkey, th, masks, decided)
    band_span_in(
        left, right, out[plain:], key, band, plain, band_height, th, doors, parent, span, base, planes
    )
