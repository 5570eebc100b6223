"""Numba kernels of the banded maze: Eller's algorithm cut into bands of rows
that meet at doors, so that any band comes from ``(seed, band)`` alone.

Band ``b`` covers rows ``[b*K, b*K + K)``; seam ``b`` is the boundary above
it.  Rows ``0 .. K-3`` of a band are plain Eller rows (:func:`eller_rows`,
started from sets of one cell); the last two rows steer every set to exactly
one door of seam ``b + 1``:

* the penultimate row (in-band row ``K-2``) is an Eller row whose sets may
  open downward in at most one door column (a set still opens at least
  once);
* the last row (``K-1``) joins side-by-side cells of different sets unless
  both sets already hold a door column, then opens SOUTH at exactly the
  doors.  Every set then leaves the band through exactly one door, so the
  cells below different doors are never connected above the seam and the
  next band can start them as sets of their own: no loop can form, and no
  cell needs to climb above its band's first row to go down.

Random bits: band ``b`` draws ``random_bits(band_key(key, b), y*width + x)``
for its cell ``(y, x)`` (low 32 bits: the east wall; high 32 bits: the
south wall), and seam ``s`` draws ``random_bits(seam_key(key, s), x)`` for
column ``x``.  Band and seam numbers are passed as uint64 (two's complement
of the signed index).  ``tests/naive.py`` restates all of this with set
labels; the kernels must match it byte for byte.
"""

from __future__ import annotations

import numpy as np

from ._eller_kernels import (
    _after_join,
    _after_leave,
    _join,
    _leave,
    eller_rows,
    planes_eller,
    row_draws,
)
from ._eller_planes import (
    DEEPEST,
    PLANES_FROM,
    SCRATCH_ROWS,
    lists_of_planes,
    planes_of_lists,
    planes_rows,
    scratch_rows,
)
from ._last_row_kernels import last_row, last_row_of_planes
from ._numba import _U64, Int64, _njit, _sel
from ._planes_io import draw_masks
from ._rng import _GOLDEN, _LOW32, _S32, DRAW_STEP, draw_point, mix64, random_bits

# Indices into the thresholds array ``th`` (probabilities scaled to [0, 2**32]):
TH_JOIN = 0  # east wall, rows 1 .. K-2
TH_OPEN = 1  # optional south opening, rows 1 .. K-2
TH_DOOR = 2  # a column is a door
TH_JOIN_FIRST = 3  # east wall, row 0 (its cells are all sets of one)
TH_OPEN_FIRST = 4  # optional south opening, row 0 (when it is not the penultimate row)
TH_LOOP = 5  # a dead end opens one more wall (band_braid)
TH_DOOR_ABOVE = 6  # a door column of the seam above the band (the band above's doors)
TH_ROOM = 7  # the share of the band's cells in rooms (band_rooms)
N_THRESHOLDS = 8

BAND_SALT = _U64(0x62616E64)  # "band"
SEAM_SALT = _U64(0x7365616D)  # "seam"
LOOP_SALT = _U64(0x6C6F6F70)  # "loop"
ROOM_SALT = _U64(0x726F6F6D)  # "room"


@_njit(inline="always")
def band_key(key: np.uint64, band: np.uint64) -> np.uint64:
    """The generator key of band ``band``."""
    return mix64(_U64(key) ^ mix64(_U64(band) * _GOLDEN + BAND_SALT))


@_njit(inline="always")
def seam_key(key: np.uint64, seam: np.uint64) -> np.uint64:
    """The generator key of the door columns of seam ``seam``."""
    return mix64(_U64(key) ^ mix64(_U64(seam) * _GOLDEN + SEAM_SALT))


@_njit(inline="always")
def seam_door_words(
    words: np.ndarray, width: Int64, key: np.uint64, seam: np.uint64, door_below: np.uint64
) -> None:
    """The door columns of seam ``seam`` as bits (bit ``x % 64`` of word ``x
    // 64``; ``words``: ``(width + 63) // 64`` or more), 64 draws a vector.

    Column ``x`` is a door when the low 32 bits of its draw are below
    ``door_below``; with no door at all, the draw of number ``width`` picks
    one column (by multiply-shift of its low 32 bits)."""
    skey = seam_key(key, seam)
    point = draw_point(skey, _U64(0))
    nw = (width + 63) // 64
    count = _U64(0)
    for i in range(nw):
        cells = min(64, width - i * 64)
        words[i], _ = draw_masks(point, cells, door_below, _U64(0))
        count |= words[i]
        point += _U64(cells) * DRAW_STEP
    if count == _U64(0):
        pick = ((random_bits(skey, _U64(width)) & _LOW32) * _U64(width)) >> _S32
        words[pick >> _U64(6)] = _U64(1) << (pick & _U64(63))


@_njit(inline="always")
def door_bytes(words: np.ndarray, doors: np.ndarray) -> None:
    """``doors`` (a byte a column) from the doors as bits."""
    for x in range(doors.shape[0]):
        doors[x] = np.uint8((words[x >> 6] >> _U64(x & 63)) & _U64(1))


@_njit
def seam_doors(doors: np.ndarray, key: np.uint64, seam: np.uint64, door_below: np.uint64) -> None:
    """Mark the door columns of seam ``seam`` in ``doors`` (1: door), those
    of :func:`seam_door_words`."""
    width = doors.shape[0]
    words = np.zeros((width + 63) // 64 + 1, np.uint64)
    seam_door_words(words, width, key, seam, door_below)
    door_bytes(words, doors)


@_njit(inline="always")
def row_thresholds(th: np.ndarray, y: Int64) -> tuple[np.uint64, np.uint64]:
    """The east and south thresholds of in-band row ``y``: row 0's own
    (``TH_JOIN_FIRST``, ``TH_OPEN_FIRST``: its cells are all sets of one),
    else ``TH_JOIN``, ``TH_OPEN``."""
    if y == 0:
        return _U64(th[TH_JOIN_FIRST]), _U64(th[TH_OPEN_FIRST])
    return _U64(th[TH_JOIN]), _U64(th[TH_OPEN])


@_njit
def _penultimate_row(
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    bkey: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
    doors: np.ndarray,
    flags: np.ndarray,
) -> None:
    """An Eller row in which no set opens downward in two door columns: a
    cell in a door column closes when its set already opened in one.

    Two sweeps with the draws of :func:`eller_rows`: every east wall first
    (a later join can bring a set that opened in a door further left), then
    the south walls.  In the second, ``left[x]`` is the nearest cell left of
    x that opened in x's set (or the set's last cell), and ``flags`` (``width
    + 1`` entries, the last one kept 0) tells whether the set had opened in
    a door column by that cell."""
    width = row.shape[0]
    scratch = np.int64(width)
    draws = np.empty(width, np.uint64)
    row_draws(draws, bkey, counter)  # once for both sweeps, vectorised
    # Both sweeps follow the lists in registers, as eller_sweep does (lx, rx:
    # left and right of x; l1, r1 of x + 1; l2: left of x + 2), so that no
    # store of one cell is loaded back on the next one's critical path.
    lx: Int64 = np.int64(left[0])
    rx: Int64 = np.int64(right[0])
    l1: Int64 = np.int64(left[1])
    for x in range(width - 1):
        xx = np.int64(x)
        r1: Int64 = np.int64(right[np.uint64(xx + 1)])
        l2: Int64 = np.int64(left[np.uint64(xx + 2)])
        a = l1  # previous cell of x+1's set
        b = rx  # next cell of x's set
        join = np.int64(a != xx) & np.int64((draws[x] & _LOW32) < join_below)
        _join(left, right, xx, a, b, join, scratch)
        lx, rx, l1, r1, l2 = _after_join(join, xx, a, b, lx, rx, l1, r1, l2)
        row[xx] = np.uint8(join)
        lx, rx, l1 = l1, r1, l2
    row[width - 1] = 0
    flags[scratch] = 0
    lx = np.int64(left[0])
    rx = np.int64(right[0])
    l1 = np.int64(left[1])
    for x in range(width):
        xx = np.int64(x)
        r1 = np.int64(right[np.uint64(xx + 1)])
        l2 = np.int64(left[np.uint64(xx + 2)])
        flag = flags[_sel(np.int64(lx < xx), lx, scratch)]
        door = doors[xx]
        draw = draws[x] >> _S32
        close = np.int64(lx != xx) & (np.int64(draw >= open_below) | np.int64(door & flag))
        _leave(left, right, xx, lx, rx, close, scratch)
        l1, r1, l2 = _after_leave(close, xx, lx, rx, l1, r1, l2)
        flags[xx] = flag | door
        row[xx] |= np.uint8((close ^ 1) << 1)
        lx, rx, l1 = l1, r1, l2


@_njit(refcounts=False)
def band_span(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    band: np.uint64,
    y0: Int64,
    band_height: int,
    th: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """Rows ``y0 .. y0 + len(out)`` of band ``band`` (in-band row numbers, at
    most to the band's end) into ``out``, continuing ``left``/``right``: the
    sets after row ``y0 - 1`` (sets of one cell when ``y0 == 0``).  ``th``
    holds the thresholds (``TH_*``); ``doors`` (``width`` entries) and
    ``parent`` (``width + 1``) are scratch."""
    n_rows, width = out.shape
    bkey = band_key(key, band)
    plain = band_height - 2  # rows [0, plain) are plain Eller
    i = 0
    y = y0
    if width >= PLANES_FROM and 0 < plain and y <= plain:  # (row 0 as the penultimate: the lists)
        i, y = _span_on_planes(left, right, out, key, band, y0, plain, th, doors, parent)
    while y < plain and i < n_rows:  # one call site: the row loop is compiled once
        m = 1 if y == 0 else min(n_rows - i, plain - y)
        join, opens = row_thresholds(th, y)
        eller_rows(left, right, out[i : i + m], bkey, _U64(y) * _U64(width), join, opens)
        i += m
        y += m
    if i < n_rows and y == plain:
        seam_doors(doors, key, _U64(band) + _U64(1), th[TH_DOOR])
        join, opens = row_thresholds(th, y)
        _penultimate_row(left, right, out[i], bkey, _U64(y) * _U64(width), join, opens, doors, parent)
        i += 1
        y += 1
    if i < n_rows:  # the last row
        if y0 == band_height - 1:
            seam_doors(doors, key, _U64(band) + _U64(1), th[TH_DOOR])
        last_row(left, right, out[i], doors, parent)


@_njit(refcounts=False)
def band_span_in(
    left: np.ndarray, right: np.ndarray, out: np.ndarray, key: np.uint64, band: np.uint64, y0: Int64,
    band_height: int, th: np.ndarray, doors: np.ndarray, parent: np.ndarray, work: np.ndarray,
    base: np.ndarray, given: bool | np.bool_,
) -> None:  # fmt: skip
    """:func:`band_span` with the planes' scratch given (``work``:
    ``SPAN_WORDS`` rows of ``nw + 1`` words, zeroed here; ``base``: ``nw +
    1`` int64s): a band made whole with levels allocates nothing a band.
    ``given``: the sets before row ``y0`` are ``work``'s first two rows
    (``P``, ``N``, kept), not the lists (:func:`_span_in`)."""
    n_rows, width = out.shape
    plain = band_height - 2
    i = 0
    y = y0
    if width >= PLANES_FROM and 0 < plain and y <= plain:
        work[2 if given else 0 :] = _U64(0)
        i, y = _span_in(left, right, out, key, band, y0, plain, th, doors, parent, work, base, given)
    if i < n_rows:  # the lists' rows, or what the planes left to them
        band_span(left, right, out[i:], key, band, y, band_height, th, doors, parent)


SPAN_WORDS = 5 + SCRATCH_ROWS  # _span_on_planes' scratch: P, N, door words, held, joined; planes_rows'


@_njit
def _span_on_planes(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    band: np.uint64,
    y0: Int64,
    plain: int,
    th: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> tuple[int, Int64]:
    """:func:`band_span`'s plain rows from row ``y0`` and its penultimate
    row, as far as ``out`` goes, on bit planes (``_eller_planes``): the sets
    converted from the lists once (none before row 0) and back once.
    Returns how many rows were made and the in-band row after them. Makes
    the span's scratch, all of it in one array, for :func:`_span_in`."""
    nw = (out.shape[1] + 63) // 64
    work = np.zeros((SPAN_WORDS, nw + 1), np.uint64)
    base = np.empty(nw + 1, np.int64)
    return _span_in(left, right, out, key, band, y0, plain, th, doors, parent, work, base, np.bool_(False))


@_njit(refcounts=False)
def _span_in(
    left: np.ndarray, right: np.ndarray, out: np.ndarray, key: np.uint64, band: np.uint64, y0: Int64,
    plain: int, th: np.ndarray, doors: np.ndarray, parent: np.ndarray, work: np.ndarray, base: np.ndarray,
    given: bool | np.bool_,
) -> tuple[int, Int64]:  # fmt: skip
    """:func:`_span_on_planes` in its scratch (``work``: ``SPAN_WORDS``
    rows of ``nw + 1`` zero words; ``base``: ``nw + 1`` int64s). ``given``:
    the sets before row ``y0`` are in ``work``'s first two rows already
    (``P``, ``N``), not to be read off the lists."""
    n_rows, width = out.shape
    bkey = band_key(key, band)
    nw = (width + 63) // 64
    deepest = np.int64(DEEPEST)  # typed int64, as every caller of the planes passes it: one compile
    P, N, door_words, held, joined = work[0], work[1], work[2], work[3], work[4]
    rest = work[5:]  # planes_rows' scratch (scratch_rows), planes_eller's too
    if y0 > 0 and not given:  # row 0 starts from sets of one cell: no bits
        planes_of_lists(left, right, P, N, width)
    i = 0
    y = y0
    while y < plain and i < n_rows:
        m = 1 if y == 0 else min(n_rows - i, plain - y)
        join, opens = row_thresholds(th, y)
        at = _U64(y) * _U64(width)
        planes_eller(P, N, left, right, out[i : i + m], bkey, at, join, opens, deepest, rest, base)
        i += m
        y += m
    if i < n_rows:  # the penultimate row: a door column closes once its set opened in one
        seam_door_words(door_words, width, key, _U64(band) + _U64(1), th[TH_DOOR])
        counter = _U64(y) * _U64(width)
        join, opens = row_thresholds(th, y)
        _, no_rooms, words, depths = scratch_rows(rest, nw)
        made = planes_rows(
            P, N, out[i : i + 1], bkey, counter, join, opens, deepest, door_words, held, no_rooms,
            words, depths, base,
        )  # fmt: skip
        if made == 0:
            lists_of_planes(P, N, left, right, width)  # nested too deep for the planes
            door_bytes(door_words, doors)
            _penultimate_row(left, right, out[i], bkey, counter, join, opens, doors, parent)
            return i + 1, y + 1
        i += 1
        y += 1
        if i < n_rows:  # the last row, from the planes: no lists needed
            last_row_of_planes(P, held, left, right, out[i], door_words, joined)
            return i + 1, y + 1
    lists_of_planes(P, N, left, right, width)
    return i, y


@_njit(refcounts=False)
def band_stream_rows(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    band: np.uint64,
    y0: int,
    band_height: int,
    th: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """Continue a stream: the rows from row ``y0`` of band ``band`` into
    ``out``, across as many bands as it takes, ``left``/``right`` holding the
    sets before row ``y0`` and after the last row on return."""
    n_rows = out.shape[0]
    i = 0
    y = y0
    while i < n_rows:
        m = min(n_rows - i, band_height - y)
        band_span(left, right, out[i : i + m], key, band, y, band_height, th, doors, parent)
        i += m
        y += m
        if y == band_height:
            band = _U64(band) + _U64(1)
            y = 0
