"""Numba kernels of whole bands with levels: loops, rooms and per-band
parameters (a schedule).

Bands with parameters of their own (a schedule) and loops: ``ths`` holds a
thresholds row per band (row j: band band0 + j), or one row for them all.

:func:`band_row_sets` gives the sets after a band's rows as they are (loops
and rooms included), for a stream's closing row.
"""

from __future__ import annotations

import numpy as np

from ._band_kernels import SPAN_WORDS, TH_DOOR, TH_DOOR_ABOVE, TH_LOOP, TH_ROOM, band_span, band_span_in
from ._braid_kernels import BRAID_PLANES, braid_bytes, braid_in
from ._format import EAST, SOUTH
from ._numba import _U64, Int64, _njit
from ._room_kernels import _rooms_band_in, place_rooms, room_capacity, rooms_words, taken_bytes
from ._union_find import find


@_njit(inline="ir")
def _th_row(ths: np.ndarray, j: int) -> np.ndarray:
    """The thresholds of the ``j``-th band of ``ths`` (its only row if one)."""
    row: np.ndarray = ths[j if ths.shape[0] > 1 else 0]
    return row


@_njit(inline="ir")
def _above(out: np.ndarray, ths: np.ndarray, j: int, lo: int, first: int, none: np.ndarray) -> np.ndarray:
    """The last row of band ``j - 1`` (made: ``j > first``), whose south
    walls are the doors of band ``j``'s seam when band ``j``'s
    ``TH_DOOR_ABOVE`` is band ``j - 1``'s ``TH_DOOR`` (as every maze's
    thresholds have it); else ``none`` (empty)."""
    if j > first and _th_row(ths, j)[TH_DOOR_ABOVE] == _th_row(ths, j - 1)[TH_DOOR]:
        row: np.ndarray = out[lo - 1]
        return row
    return none


@_njit
def level_scratch(
    band_height: int, width: int, ths: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_band_in`'s scratch for bands of ``band_height`` rows of
    ``width`` with any thresholds row of ``ths``: the rooms' rectangles
    (int64), the words (rooms, the last rows' planes, the braid's planes,
    the rooms' draws), ``nw + 1`` int64s, and the bytes (the braid's, the
    rooms' map)."""
    nw = (width + 63) // 64
    most: Int64 = 16
    for j in range(ths.shape[0]):
        most = max(most, room_capacity(band_height, width, ths[j]))
    n_words = rooms_words(band_height, width) + (nw + 1) * BRAID_PLANES + 2 * most
    n_bytes = braid_bytes(band_height, width) + taken_bytes(band_height, width)
    return (
        np.empty((most, 4), np.int64),
        np.empty(n_words, np.uint64),
        np.empty(nw + 1, np.int64),
        np.empty(n_bytes, np.uint8),
    )


@_njit(refcounts=False)
def _band_in(
    out: np.ndarray, key: np.uint64, band: np.uint64, band_height: int, th: np.ndarray, left: np.ndarray,
    right: np.ndarray, doors: np.ndarray, parent: np.ndarray, above: np.ndarray, rects: np.ndarray,
    words: np.ndarray, base: np.ndarray, raw: np.ndarray,
) -> None:  # fmt: skip
    """The first ``len(out)`` rows of band ``band`` into ``out``, braided
    (:func:`~eller_stream._braid_kernels.band_braid`) when they are the whole
    band; ``above``: the band above's last row if it is at hand (else
    empty); ``left``, ``right``, ``doors``, ``parent``: scratch, and the rest
    that of :func:`level_scratch` (made once for many bands), without
    reference counts."""
    height, width = out.shape
    nw = (width + 63) // 64
    for x in range(left.shape[0]):
        left[x] = x
        right[x] = x
    whole = height == band_height
    in_rooms = rooms_words(band_height, width)
    n_braid = braid_bytes(band_height, width)
    n_rooms = 0
    if whole and th[TH_ROOM] > 0:
        taken = raw[n_braid:]
        draws = words[in_rooms + (nw + 1) * BRAID_PLANES :]
        n_rooms = place_rooms(band_height, width, key, band, th, rects, taken, draws)
    if n_rooms > 0:
        _rooms_band_in(left, right, out, key, band, th, doors, parent, rects, n_rooms, words[:in_rooms], base)
    else:
        span = words[: SPAN_WORDS * (nw + 1)].reshape((SPAN_WORDS, nw + 1))
        given = np.bool_(False)  # a bool, not the literal False: one signature (tests/test_signatures.py)
        band_span_in(
            left, right, out, key, band, np.int64(0), band_height, th, doors, parent, span, base, given
        )
    if whole and _U64(th[TH_LOOP]) != _U64(0):
        planes = words[in_rooms : in_rooms + (nw + 1) * BRAID_PLANES].reshape((nw + 1, BRAID_PLANES))
        planes[:] = _U64(0)
        braid_in(out, key, band, th, doors, above, planes, raw[:n_braid])


@_njit
def bands_rows(
    out: np.ndarray,
    key: np.uint64,
    band0: np.uint64,
    band_height: int,
    ths: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """Bands from band ``band0`` into ``out`` (the last may be cut short,
    then not braided), band ``band0 + j`` with the thresholds ``_th_row(ths, j)``;
    their scratch made once (:func:`level_scratch`)."""
    n_bands = (out.shape[0] + band_height - 1) // band_height
    none = np.empty(0, np.uint8)
    rects, words, base, raw = level_scratch(band_height, out.shape[1], ths)
    for j in range(n_bands):
        lo = j * band_height
        stop = min(lo + band_height, out.shape[0])
        band = _U64(band0) + _U64(j)
        above = _above(out, ths, j, lo, 0, none)
        th = _th_row(ths, j)
        _band_in(
            out[lo:stop],
            key,
            band,
            band_height,
            th,
            left,
            right,
            doors,
            parent,
            above,
            rects,
            words,
            base,
            raw,
        )


@_njit(refcounts=False)
def bands_stream_rows(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    band: np.uint64,
    y0: int,
    band_height: int,
    ths: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """:func:`band_stream_rows` with a thresholds row per band (row j: the
    ``j``-th band from band ``band``); the rows are not braided (a stream
    overlays its bands' braided rows)."""
    n_rows = out.shape[0]
    i = 0
    y = y0
    j = 0
    while i < n_rows:
        m = min(n_rows - i, band_height - y)
        band_span(left, right, out[i : i + m], key, band, y, band_height, _th_row(ths, j), doors, parent)
        i += m
        y += m
        if y == band_height:
            band = _U64(band) + _U64(1)
            y = 0
            j += 1


@_njit
def band_row_sets(rows: np.ndarray, left: np.ndarray, right: np.ndarray) -> None:
    """The sets of the row after ``rows`` (a band's rows from its first
    row) as Eller's ``left``/``right`` lists (their first ``width``
    entries): a cell opened from above is in the set of that cell's
    component through ``rows``, any other is a set of its own."""
    h, w = rows.shape
    n = (h + 1) * w
    parent = np.empty(n, np.int64)
    for i in range(n):
        parent[i] = i
    for y in range(h):
        for x in range(w):
            i = y * w + x
            v = rows[y, x]
            if (v & EAST) and x + 1 < w:
                a, b = find(parent, i), find(parent, i + 1)
                parent[max(a, b)] = min(a, b)
            if v & SOUTH:
                a, b = find(parent, i), find(parent, i + w)
                parent[max(a, b)] = min(a, b)
    first = np.full(n, -1, np.int64)
    last = np.full(n, -1, np.int64)
    for x in range(w):
        r = find(parent, h * w + x)
        if first[r] < 0:
            first[r] = x
        else:
            right[last[r]] = x
            left[x] = last[r]
        last[r] = x
    for x in range(w):
        r = find(parent, h * w + x)
        if first[r] == x:
            left[x] = last[r]
            right[last[r]] = x
