"""Numba kernels of the banded maze's rooms.

Rooms: open rectangles in a band's rows 0 .. K-3, placed from (seed, band)
alone (band_rooms), and the band's Eller rows around them
(_band_with_rooms).  A room is one set: its top row's cells come from
different sets (above a room's top row a cell opens only when its set has
no other way down, so a set enters it at most once), so joining them closes
no loop; its rows below join it through its open south walls.  Contract
each room to one node and the maze is a tree.

Speed: every rule of a room is one cell's own, known before the row is
made (:func:`_room_cells`), so a row that meets a room is Eller's sweep,
each cell's draws decided first (:func:`_room_row`).
"""

from __future__ import annotations

import numpy as np

from ._band_kernels import ROOM_SALT, TH_ROOM, band_key, band_span, row_thresholds
from ._eller_kernels import LR_PAD, _join, eller_rows, eller_sweep
from ._format import EAST, SOUTH
from ._numba import _U64, Int64, _mul_high, _njit, bits_of, load_u64, low_bits, lowest_bit, store_u64
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
    rows = height - 2  # rooms stay off the band's last two rows
    target = room_target(height, width, th)
    if rows < 2 or width < 2 or target == 0:
        return 0
    attempts = room_capacity(height, width, th)  # at most one room an attempt
    if rects.shape[0] < attempts:
        raise ValueError("band_rooms: rects has fewer rows than room_capacity")
    stride = (width >> 3) + 16  # taken: a bit a cell, row r's column x at bit x of byte r * stride
    taken = np.zeros((rows + ROOM_MAX_HEIGHT) * stride, np.uint8)  # rows past the band: free
    rkey = room_key(key, band)
    hmax = min(rows, ROOM_MAX_HEIGHT)
    wmax = min(width, ROOM_MAX_WIDTH)
    draws = np.empty(2 * attempts, np.uint64)
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


# What a cell's rooms ask of it (:func:`_room_cells`), a bit each:
IN_EAST = EAST  # its east wall lies inside a room: open
IN_SOUTH = SOUTH  # its south wall lies inside a room: open
ABOVE_TOP = 4  # it lies above a room's top row: its south wall opens only if it must
TOP_EAST = 8  # it lies in a room's top row, its east wall inside the room: its set joins the next cell's


_BYTES = _U64(0x0101010101010101)  # bit 0 of each of a word's 8 bytes


@_njit(inline="always")
def _or_bytes(flat: np.ndarray, at: Int64, bits: np.uint64) -> None:
    """OR the 8 bytes ``bits`` (little-endian) into ``flat[at : at + 8]``."""
    store_u64(flat, at, load_u64(flat, at) | bits)


@_njit
def _room_cells(height: int, width: int, rects: np.ndarray, n: int, meets: np.ndarray) -> np.ndarray:
    """The bits (``IN_EAST``, ``IN_SOUTH``, ``ABOVE_TOP``, ``TOP_EAST``) of
    a band's ``n`` rooms ``rects``, a byte a cell (row y: ``[y, :width]``;
    64 bytes more a row), and 1 in ``meets[y]`` (``height + ROOM_MAX_HEIGHT``
    entries, zeros) for a row that holds room cells or lies above a room's
    top.  A room's row is at most 8 cells: 8 bytes, ORed in at its column
    as one word, and a room writes a fixed ``ROOM_MAX_HEIGHT`` rows, masked
    to its height: no loop of a room's own size."""
    stride = width + 64
    cells = np.zeros((height + ROOM_MAX_HEIGHT, stride), np.uint8)
    flat = cells.reshape(-1)
    for j in range(n):
        top, left, h, w = rects[j, 0], rects[j, 1], rects[j, 2], rects[j, 3]
        east = _BYTES >> _U64(8 * (9 - w))  # the room's row but its last cell (w >= 2)
        every = _BYTES >> _U64(8 * (8 - w))
        for k in range(ROOM_MAX_HEIGHT):
            inside = _U64(k < h)
            south = every * _U64(IN_SOUTH) * _U64(k < h - 1)
            joins = east * _U64(TOP_EAST) * _U64(k == 0)
            _or_bytes(flat, (top + k) * stride + left, (east * _U64(IN_EAST) | south | joins) * inside)
            meets[top + k] |= np.uint8(inside)
        if top > 0:
            _or_bytes(flat, (top - 1) * stride + left, every * _U64(ABOVE_TOP))
            meets[top - 1] = 1
    return cells


@_njit(inline="always")
def _room_row(
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    cells: np.ndarray,
    key: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
    decided: np.ndarray,
) -> None:
    """A row of a band that meets a room (its room tops joined first;
    ``cells``: its row of :func:`_room_cells`),
    with the draws of :func:`eller_rows`, and Eller's sweep.  Inside a room
    a wall is open: a south wall never closes, and an east wall joins
    nothing (the room is one set already), so its ``EAST`` is set after the
    sweep.  Above a room's top row a cell closes whenever it may (its set
    has another cell that opened or will open): it opens only when it is
    its set's last way down.

    The row's draws (those of :func:`~eller_stream._eller_kernels.row_draws`)
    are decided as they are made, in one vectorised loop, into ``decided``
    (``width`` entries, scratch) as bits :func:`eller_sweep` reads with both
    thresholds 1: the low word 0 when its east wall may
    join, the high word 1 when its south wall may close.  The sweep then
    reads one word a cell, as Eller's does."""
    width = row.shape[0]
    for x in range(width):  # vectorised: each draw decided as it is made (the draws of row_draws)
        c = _U64(cells[x])
        bits = random_bits(key, counter + _U64(x))
        may_close = ((_U64((bits >> _S32) >= open_below) & ~(c >> _U64(1))) | (c >> _U64(2))) & _U64(1)
        decided[x] = _U64((bits & _LOW32) >= join_below) | (may_close << _S32)
    eller_sweep(left, right, row, decided, _U64(1), _U64(1))
    for x in range(width):  # vectorised
        row[x] |= cells[x] & IN_EAST


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
) -> None:
    """The whole band ``band`` into ``out`` with its ``n_rooms`` rooms
    ``rects`` (:func:`band_rooms`), from sets of one cell: rows that meet a
    room by :func:`_room_row`, the others by :func:`eller_rows` (the same
    draws), the last two by :func:`band_span`.  Before a row's sweep, the
    cells of its room tops join their east neighbours' sets, left to right
    (each comes from a different set, so in any order of the rooms the same
    lists; found 64 cells a word, ``TOP_EAST``, so no branch on a room's
    size or count)."""
    band_height, width = out.shape
    bkey = band_key(key, band)
    plain = band_height - 2
    meets = np.zeros(band_height + ROOM_MAX_HEIGHT, np.uint8)  # the row holds room cells, or is above a top
    cells = _room_cells(band_height, width, rects, n_rooms, meets)
    flat_cells = cells.reshape(-1)
    row_bytes = cells.shape[1]
    decided = np.empty(width, np.uint64)
    scratch = np.int64(left.shape[0] - LR_PAD)
    y = 0
    while y < plain:
        join, opens_below = row_thresholds(th, y)
        counter = _U64(y) * _U64(width)
        if meets[y] == 0:
            stop = y + 1
            while y > 0 and stop < plain and meets[stop] == 0:
                stop += 1
            eller_rows(left, right, out[y:stop], bkey, counter, join, opens_below)
            y = stop
            continue
        at = y * row_bytes
        for i in range((width + 63) // 64):  # its room tops joined, left to right
            joins = bits_of(flat_cells, at + i * 64, TOP_EAST) & low_bits(min(64, width - i * 64))
            while joins != _U64(0):
                x = i * 64 + lowest_bit(np.int64(joins))
                joins &= joins - _U64(1)
                _join(left, right, x, np.int64(left[x + 1]), np.int64(right[x]), np.int64(1), scratch)
        _room_row(left, right, out[y], cells[y], bkey, counter, join, opens_below, decided)
        y += 1
    band_span(left, right, out[plain:], key, band, plain, band_height, th, doors, parent)
