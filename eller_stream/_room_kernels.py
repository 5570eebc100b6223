"""Numba kernels of the banded maze's rooms.

Rooms: open rectangles in a band's rows 0 .. K-3, placed from (seed, band)
alone (band_rooms), and the band's Eller rows around them
(_band_with_rooms).  A room is one set: its top row's cells come from
different sets (the row above opens each set into the columns of a room's
top row at most once, as the penultimate row does for doors), so joining
them closes no loop; its rows below join it through its open south walls.
Contract each room to one node and the maze is a tree.

Speed: the rule above is about the row's sets once all its east walls are
drawn, which takes two sweeps (:func:`_room_row`).  A row is first made in
one sweep, like :func:`eller_rows`, with the sets as they are at each cell
(:func:`_room_row_once`); that gives the same walls unless two sets that
have both opened into a room's top row join later in the row, which the
sweep notices (then the row is made again in two sweeps).
"""

from __future__ import annotations

import numpy as np

from ._band_kernels import (
    ROOM_SALT,
    TH_JOIN,
    TH_JOIN_FIRST,
    TH_OPEN,
    TH_OPEN_FIRST,
    TH_ROOM,
    band_key,
    band_span,
)
from ._eller_kernels import LR_PAD, _after_join, _after_leave, _join, _leave, eller_rows
from ._format import EAST
from ._numba import _U64, Int64, _mul_high, _njit, _sel
from ._rng import _GOLDEN, _LOW32, _S32, mix64, random_bits

# A band's rooms as planes of bits (:func:`_room_planes`), 32 cells a word, two bits a cell:
ROOM_PLANE = 0  # bit 2i: cell i and its east neighbour lie in one room; bit 2i + 1: ... its south neighbour
ABOVE_PLANE = 1  # bit 2i: cell i (in no room) lies above a room's top row
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
def _span_bits(x0: Int64, n: Int64) -> tuple[Int64, np.uint64, np.uint64]:
    """Columns ``x0 .. x0 + n - 1`` (n <= 63) as bits of words: the first
    word's index, its mask and the next word's mask."""
    m = (_U64(1) << _U64(n)) - _U64(1)
    shift = _U64(x0 & 63)
    return x0 >> 6, m << shift, (m >> _U64(1)) >> (_U64(63) - shift)


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
    them, a bit a cell); placing stops once the rooms hold ``T`` cells."""
    rows = height - 2  # rooms stay off the band's last two rows
    target = room_target(height, width, th)
    if rows < 2 or width < 2 or target == 0:
        return 0
    if rects.shape[0] < 16 + target // 5:
        raise ValueError("band_rooms: rects has fewer rows than room_capacity")
    taken = np.zeros((rows + ROOM_MAX_HEIGHT, (width >> 6) + 2), np.uint64)  # rows past the band: free
    rkey = room_key(key, band)
    hmax = min(rows, ROOM_MAX_HEIGHT)
    wmax = min(width, ROOM_MAX_WIDTH)
    total: Int64 = 0
    n = 0
    for i in range(16 + target // 5):
        size = random_bits(rkey, _U64(2 * i))
        place = random_bits(rkey, _U64(2 * i + 1))
        h = 2 + np.int64(((size & _LOW32) * _U64(hmax - 1)) >> _S32)
        w = 2 + np.int64(((size >> _S32) * _U64(wmax - 1)) >> _S32)
        top = np.int64(((place & _LOW32) * _U64(rows - h + 1)) >> _S32)
        left = np.int64(((place >> _S32) * _U64(width - w + 1)) >> _S32)
        word, lo, hi = _span_bits(left, w)
        hit = _U64(0)
        for k in range(ROOM_MAX_HEIGHT):  # a fixed count of rows: no branch on the height
            hit |= ((taken[top + k, word] & lo) | (taken[top + k, word + 1] & hi)) & (_U64(0) - _U64(k < h))
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
        word, lo, hi = _span_bits(x0, x1 - x0)
        for y in range(top - np.int64(top > 0), top + h + np.int64(top + h < rows)):
            taken[y, word] |= lo
            taken[y, word + 1] |= hi
    return n


_EVEN = _U64(0x5555555555555555)  # bit 2i of every cell i
_ODD = _U64(0xAAAAAAAAAAAAAAAA)  # bit 2i + 1


@_njit(inline="always")
def _or_cells(plane_row: np.ndarray, x0: Int64, bits: np.uint64) -> None:
    """OR ``bits`` (two a cell, from cell ``x0``, at most 16 cells) into a
    row of a plane."""
    shift = _U64(2 * (x0 & 31))
    plane_row[x0 >> 5] |= bits << shift
    plane_row[(x0 >> 5) + 1] |= (bits >> _U64(1)) >> (_U64(63) - shift)


@_njit
def _room_planes(height: int, width: int, rects: np.ndarray, n: int) -> np.ndarray:
    """The ``(2, height, words)`` planes (``ROOM_PLANE``, ``ABOVE_PLANE``)
    of a band's ``n`` rooms ``rects``, a word a row of each room."""
    planes = np.zeros((2, height, (width >> 5) + 2), np.uint64)
    for j in range(n):
        top, left, h, w = rects[j, 0], rects[j, 1], rects[j, 2], rects[j, 3]
        cells = (_U64(1) << _U64(2 * w)) - _U64(1)
        east = _EVEN & (cells >> _U64(2))  # no wall east of the room's last column
        for y in range(top, top + h - 1):
            _or_cells(planes[ROOM_PLANE, y], left, east | (_ODD & cells))
        _or_cells(planes[ROOM_PLANE, top + h - 1], left, east)
        if top > 0:
            _or_cells(planes[ABOVE_PLANE, top - 1], left, _EVEN & cells)
    return planes


@_njit(inline="always")
def _plane_bit(plane: np.ndarray, x: int, which: int) -> Int64:
    """Bit ``which`` (0 or 1) of cell ``x`` in a row's plane."""
    return np.int64((plane[x >> 5] >> _U64(2 * (x & 31) + which)) & _U64(1))


@_njit
def _join_room_top(left: np.ndarray, right: np.ndarray, x0: int, x1: int) -> None:
    """Join the sets of cells ``x0 .. x1 - 1``, a room's top row (each of
    them comes from a different set)."""
    scratch = np.int64(left.shape[0] - LR_PAD)
    for x in range(x0, x1 - 1):
        xx = np.int64(x)
        _join(left, right, xx, np.int64(left[x + 1]), np.int64(right[x]), np.int64(1), scratch)


@_njit
def _room_row(
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    planes: np.ndarray,
    y: int,
    bkey: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
    flags: np.ndarray,
) -> None:
    """Row ``y`` of a band, which meets a room, its room tops joined
    (:func:`_join_room_top`), as an Eller row with the draws of
    :func:`eller_rows`, in two sweeps (``planes``: the band's rooms,
    :func:`_room_planes`):

    * east walls, left to right: a wall inside a room is open (one set
      already), any other joins as Eller's;
    * south walls, left to right: a room cell above a cell of its room
      opens; a cell above a room's top row closes when its set already
      opened above one (``flags``, ``width + 1`` entries, as in
      :func:`_penultimate_row`); any other as Eller's."""
    width = row.shape[0]
    scratch = np.int64(width)
    room, above = planes[ROOM_PLANE, y], planes[ABOVE_PLANE, y]
    for x in range(width - 1):
        if _plane_bit(room, x, 0):
            row[x] = EAST
            continue
        xx = np.int64(x)
        a = np.int64(left[x + 1])
        b = np.int64(right[x])
        bits = random_bits(bkey, counter + _U64(x))
        join = np.int64(a != xx) & np.int64((bits & _LOW32) < join_below)
        _join(left, right, xx, a, b, join, scratch)
        row[x] = np.uint8(join)
    row[width - 1] = 0
    flags[scratch] = 0
    for x in range(width):
        xx = np.int64(x)
        lx = np.int64(left[x])
        rx = np.int64(right[x])
        flag = flags[_sel(np.int64(lx < xx), lx, scratch)]
        top_next = _plane_bit(above, x, 0)
        forced = _plane_bit(room, x, 1)
        draw = random_bits(bkey, counter + _U64(x)) >> _S32
        close = np.int64(lx != xx) & (forced ^ 1) & (np.int64(draw >= open_below) | (top_next & flag))
        _leave(left, right, xx, lx, rx, close, scratch)
        flags[x] = flag | top_next
        row[x] |= np.uint8((close ^ 1) << 1)


NO_FLAGS = 0  # _room_sweep: no set has opened into a room's top row yet
FLAGS = 1  # ... sets may have: their flags are kept, and decide above a room's top row


@_njit(inline="always")
def _room_sweep(
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    planes: np.ndarray,
    y: int,
    x0: int,
    x1: int,
    bkey: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
    flags: np.ndarray,
    mode: int,
) -> Int64:
    """Cells ``x0 .. x1 - 1`` of row ``y`` of a band, which meets a room, in
    one sweep as :func:`eller_rows`, the sets as they are at each cell;
    ``mode`` (a constant at each call, so each sweep compiles to only what it
    needs) says whether the sets' flags (:func:`_room_row_once`) are kept.
    Returns 1 if two flagged sets joined.

    The room bits come from words of the planes read once every 32 cells,
    shifted along: a load for each cell costs more (the compiler then turns
    the selects it feeds into branches)."""
    width = row.shape[0]
    scratch = np.int64(width)
    last = width - 1
    twice = np.int64(0)
    plane = planes[ROOM_PLANE, y]
    above_plane = planes[ABOVE_PLANE, y]
    word = plane[x0 >> 5] >> _U64(2 * (x0 & 31))
    above_word = above_plane[x0 >> 5] >> _U64(2 * (x0 & 31))
    lx: Int64 = np.int64(left[x0])
    rx: Int64 = np.int64(right[x0])
    l1: Int64 = np.int64(left[x0 + 1])
    for x in range(x0, x1):
        if x & 31 == 0:
            word = plane[x >> 5]
            if mode == FLAGS:
                above_word = above_plane[x >> 5]
        in_room = word & _U64(3)  # bit 0: east, bit 1: south
        word >>= _U64(2)
        top_next = np.int64(above_word & _U64(1))  # the cell lies above a room's top row
        above_word >>= _U64(2)
        xx = np.int64(x)
        bits = random_bits(bkey, counter + _U64(x))
        x1_ = xx + 1
        x2 = xx + 2
        r1: Int64 = np.int64(right[np.uint64(x1_)])
        l2: Int64 = np.int64(left[np.uint64(x2)])
        a = l1
        b = rx
        # East wall (none from the last column): as Eller's, and open inside a room.
        join = np.int64(a != xx) & np.int64((bits & _LOW32) < join_below) & np.int64(x < last)
        flag = np.int64(0)
        if mode == FLAGS:
            own = np.int64(flags[np.uint64(_sel(np.int64(lx < xx), lx, scratch))])
            other = np.int64(flags[np.uint64(_sel(np.int64(a < xx), a, scratch))])
            twice |= join & own & other
            flags[np.uint64(_sel(join & np.int64(lx < xx), lx, xx))] = own | other  # the joined set's latest
            flag = own | (join & other)
        _join(left, right, xx, a, b, join, scratch)
        lx, rx, l1, r1, l2 = _after_join(join, xx, a, b, lx, rx, l1, r1, l2)
        # South wall: open inside a room (a threshold no draw reaches: a select on the
        # room bit would be compiled to a branch), closed above a room's top row once
        # the set opened into one.
        keep = np.int64((bits >> _S32) >= (open_below | ((in_room >> _U64(1)) << _U64(33))))
        if mode == FLAGS:
            keep |= flag & top_next
        close = np.int64(lx != xx) & keep
        _leave(left, right, xx, lx, rx, close, scratch)
        l1, r1, l2 = _after_leave(close, xx, lx, rx, l1, r1, l2)
        if mode == FLAGS:
            flags[np.uint64(xx)] = flag | top_next
        row[np.uint64(xx)] = np.uint8(join | np.int64(in_room & _U64(1)) | ((close ^ 1) << 1))
        lx = l1
        rx = r1
        l1 = l2
    return twice


@_njit(inline="always")
def _room_row_once(
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    planes: np.ndarray,
    y: int,
    first_above: int,
    bkey: np.uint64,
    counter: np.uint64,
    join: np.uint64,
    opens: np.uint64,
    flags: np.ndarray,
) -> bool:
    """:func:`_room_row` in one sweep, the sets as they are at each cell;
    ``first_above`` is the first column above a room's top row (``width``
    if none).  Returns False when the walls may differ from
    :func:`_room_row`'s (``left``/``right`` and the row are then spoilt: the
    caller makes the row again).

    From that column on, a set's flag (it opened into a room's top row) is
    kept at its latest cell that opened: ``flags[c]`` for a cell ``c`` left
    of the sweep still in its set's list (``flags[width]`` stays 0), passed
    on when two sets join.  The walls differ from :func:`_room_row`'s only
    if a set opens into a room's top row while another set it joins later
    in the row already had (the two-sweep rule sees that coming): then two
    flagged sets join, which the sweep tells."""
    width = row.shape[0]
    if first_above >= width:
        _room_sweep(left, right, row, planes, y, 0, width, bkey, counter, join, opens, flags, NO_FLAGS)
        return True
    flags[:] = 0
    _room_sweep(left, right, row, planes, y, 0, first_above, bkey, counter, join, opens, flags, NO_FLAGS)
    return (
        _room_sweep(left, right, row, planes, y, first_above, width, bkey, counter, join, opens, flags, FLAGS)
        == 0
    )


@_njit
def _by_place(rects: np.ndarray, n: int, height: int) -> np.ndarray:
    """The order of the ``n`` rooms ``rects`` by top row, then left column
    (a counting sort by row; a row holds a few rooms)."""
    start = np.zeros(height + 1, np.int64)
    for j in range(n):
        start[rects[j, 0] + 1] += 1
    for y in range(height):
        start[y + 1] += start[y]
    begin = start.copy()
    order = np.empty(n, np.int64)
    for j in range(n):
        y = rects[j, 0]
        i = start[y]
        start[y] += 1
        while i > begin[y] and rects[order[i - 1], 1] > rects[j, 1]:
            order[i] = order[i - 1]
            i -= 1
        order[i] = j
    return order


@_njit
def _band_with_rooms(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    band: np.uint64,
    th: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
    rects: np.ndarray,
    n_rooms: int,
) -> int:
    """The whole band ``band`` into ``out`` with its ``n_rooms`` rooms
    ``rects`` (:func:`band_rooms`), from sets of one cell: rows that meet a
    room by :func:`_room_row_once` (or :func:`_room_row` when it says so),
    the others by :func:`eller_rows` (the same draws), the last two by
    :func:`band_span`.  Returns how many rows :func:`_room_row` made."""
    band_height, width = out.shape
    bkey = band_key(key, band)
    plain = band_height - 2
    planes = _room_planes(band_height, width, rects, n_rooms)
    meets = np.zeros(band_height + 1, np.uint8)  # the row holds room cells, or the next row a room's top
    for j in range(n_rooms):
        meets[max(rects[j, 0] - 1, 0) : rects[j, 0] + rects[j, 2]] = 1
    order = _by_place(rects, n_rooms, band_height)  # the rooms by top row, then left column
    saved_left = np.empty_like(left)
    saved_right = np.empty_like(right)
    first = 0  # the first room (in order) whose top row is y or below
    again = 0
    y = 0
    while y < plain:
        join = _U64(th[TH_JOIN_FIRST] if y == 0 else th[TH_JOIN])
        opens = _U64(th[TH_OPEN_FIRST] if y == 0 else th[TH_OPEN])
        counter = _U64(y) * _U64(width)
        if meets[y] == 0:
            stop = y + 1
            while y > 0 and stop < plain and meets[stop] == 0:
                stop += 1
            eller_rows(left, right, out[y:stop], bkey, counter, join, opens)
            y = stop
            continue
        while first < n_rooms and rects[order[first], 0] == y:
            x0 = rects[order[first], 1]
            _join_room_top(left, right, x0, x0 + rects[order[first], 3])
            first += 1
        below = first  # the rooms whose top row is the next one
        while below < n_rooms and rects[order[below], 0] == y + 1:
            below += 1
        row = out[y]
        first_above = rects[order[first], 1] if below > first else width
        if below > first:  # a set might open into two room tops: keep what a second try needs
            for j in range(left.shape[0]):  # a loop: a slice assignment costs four times more here
                saved_left[j] = left[j]
                saved_right[j] = right[j]
        once = _room_row_once(left, right, row, planes, y, first_above, bkey, counter, join, opens, parent)
        if not once:
            left[:] = saved_left
            right[:] = saved_right
            _room_row(left, right, row, planes, y, bkey, counter, join, opens, parent)
            again += 1
        y += 1
    band_span(left, right, out[plain:], key, band, plain, band_height, th, doors, parent)
    return again
