"""Numba kernels of the banded maze's rooms.

Rooms: open rectangles in a band's rows 0 .. K-3, placed from (seed, band)
alone (band_rooms), and the band's Eller rows around them
(_band_with_rooms).  A room is one set: its top row's cells come from
different sets (the row above opens each set into the columns of a room's
top row at most once, as the penultimate row does for doors), so joining
them closes no loop; its rows below join it through its open south walls.
Contract each room to one node and the maze is a tree.
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
from ._eller_kernels import _join, _leave, eller_rows
from ._format import EAST
from ._numba import _U64, Int64, _mul_high, _njit, _sel
from ._rng import _GOLDEN, _LOW32, _S32, mix64, random_bits

ROOM_CELL = 1  # marks, in a band's rows before they are made: the cell is in a room
ROOM_EAST = 2  # ... and so is its east neighbour
ROOM_SOUTH = 4  # ... and so is its south neighbour
ROOM_TOP = 8  # ... in the room's top row
ROOM_MAX_HEIGHT = 6
ROOM_MAX_WIDTH = 8


@_njit(inline="always")
def room_key(key: np.uint64, band: np.uint64) -> np.uint64:
    """The generator key of band ``band``'s rooms."""
    return mix64(_U64(key) ^ mix64(_U64(band) * _GOLDEN + ROOM_SALT))


@_njit
def band_rooms(out: np.ndarray, key: np.uint64, band: np.uint64, th: np.ndarray, rects: np.ndarray) -> int:
    """Place band ``band``'s rooms: mark them in ``out`` (the band's
    ``(K, width)`` rows, its rows 0 .. K-3 cleared first; ``ROOM_*`` bits)
    and write the first ``len(rects)`` of them to ``rects`` as (top row in
    the band, left column, height, width).  Returns how many there are.

    The target is ``T = cells * th[TH_ROOM] >> 32`` cells of the band's
    ``cells``.  Attempt ``i`` (at most ``16 + T // 5``) draws number ``2i``
    of ``room_key(key, band)`` for the size (low 32 bits: height in 2 ..
    min(6, K - 2), high: width in 2 .. min(8, width), by multiply-shift) and
    number ``2i + 1`` for the place (low: top row, high: left column); a
    room that would meet or touch (sides or corners) one placed before is
    left out; placing stops once the rooms hold ``T`` cells."""
    height, width = out.shape
    rows = height - 2  # rooms stay off the band's last two rows
    cells = _U64(height) * _U64(width)
    target = np.int64(_mul_high(cells << _U64(16), _U64(th[TH_ROOM]) << _U64(16)))
    if rows < 2 or width < 2 or target == 0:
        return 0
    for y in range(rows):
        for x in range(width):
            out[y, x] = 0
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
        free = True
        y0 = top - 1 if top > 0 else top  # the room and the cells around it
        y1 = top + h + 1 if top + h < rows else top + h
        x0 = left - 1 if left > 0 else left
        x1 = left + w + 1 if left + w < width else left + w
        for y in range(y0, y1):
            for x in range(x0, x1):
                if out[y, x] & ROOM_CELL:
                    free = False
                    break
            if not free:
                break
        if not free:
            continue
        for y in range(top, top + h):
            for x in range(left, left + w):
                m = ROOM_CELL
                if x < left + w - 1:
                    m |= ROOM_EAST
                if y < top + h - 1:
                    m |= ROOM_SOUTH
                if y == top:
                    m |= ROOM_TOP
                out[y, x] = m
        if n < rects.shape[0]:
            rects[n, 0] = top
            rects[n, 1] = left
            rects[n, 2] = h
            rects[n, 3] = w
        n += 1
        total += h * w
        if total >= target:
            break
    return n


@_njit(inline="always")
def _row_meets_rooms(out: np.ndarray, y: int, plain: int) -> bool:
    """Row ``y`` (not made yet: still marks) holds room cells, or the next
    row holds a room's top row."""
    width = out.shape[1]
    for x in range(width):
        if out[y, x] & ROOM_CELL:
            return True
    if y + 1 < plain:
        for x in range(width):
            if out[y + 1, x] & ROOM_TOP:
                return True
    return False


@_njit
def _room_row(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    y: int,
    bkey: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
    marks: np.ndarray,
    flags: np.ndarray,
) -> None:
    """Row ``y`` of ``out`` (its marks, and the next row's, still there) as
    an Eller row with the draws of :func:`eller_rows` around its rooms:

    * east walls: first every wall inside a room's top row is opened,
      joining its (different) sets; then, left to right, a wall inside a
      room's lower row is open (one set already), any other joins as Eller's;
    * south walls, left to right: a room cell above a cell of its room
      opens; a cell above a room's top row closes when its set already
      opened above one (``flags``, as in :func:`_penultimate_row`); any
      other as Eller's.

    ``marks`` (``width``) and ``flags`` (``width + 1``) are scratch."""
    width = out.shape[1]
    row = out[y]
    scratch = np.int64(width)
    has_next = y + 1 < out.shape[0] - 2  # rows K-2 and K-1 hold no marks (nor rooms)
    for x in range(width):
        marks[x] = row[x]
    for x in range(width - 1):
        if (marks[x] & ROOM_EAST) and (marks[x] & ROOM_TOP):
            xx = np.int64(x)
            _join(left, right, xx, np.int64(left[x + 1]), np.int64(right[x]), np.int64(1), scratch)
    for x in range(width - 1):
        if marks[x] & ROOM_EAST:
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
        top_next = np.int64((out[y + 1, x] >> 3) & 1) if has_next else np.int64(0)
        forced = np.int64((marks[x] >> 2) & 1)
        draw = random_bits(bkey, counter + _U64(x)) >> _S32
        close = np.int64(lx != xx) & (forced ^ 1) & (np.int64(draw >= open_below) | (top_next & flag))
        _leave(left, right, xx, lx, rx, close, scratch)
        flags[x] = flag | top_next
        row[x] |= np.uint8((close ^ 1) << 1)


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
) -> None:
    """The whole band ``band`` into ``out``, whose rows hold the marks of
    its rooms (:func:`band_rooms`), from sets of one cell: rows that meet a
    room by :func:`_room_row`, the others by :func:`eller_rows` (the same
    draws), the last two by :func:`band_span`."""
    band_height, width = out.shape
    bkey = band_key(key, band)
    plain = band_height - 2
    y = 0
    while y < plain:
        join = th[TH_JOIN_FIRST] if y == 0 else th[TH_JOIN]
        opens = th[TH_OPEN_FIRST] if y == 0 else th[TH_OPEN]
        counter = _U64(y) * _U64(width)
        if _row_meets_rooms(out, y, plain):
            _room_row(left, right, out, y, bkey, counter, _U64(join), _U64(opens), doors, parent)
            y += 1
            continue
        stop = y + 1
        while y > 0 and stop < plain and not _row_meets_rooms(out, stop, plain):
            stop += 1
        eller_rows(left, right, out[y:stop], bkey, counter, join, opens)
        y = stop
    band_span(left, right, out[plain:], key, band, plain, band_height, th, doors, parent)
