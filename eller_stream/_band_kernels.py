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
from numba import prange

from ._eller_kernels import _join, _leave, eller_rows
from ._format import EAST, SOUTH
from ._numba import _U64, Int64, _mul_high, _njit, _sel
from ._rng import _GOLDEN, _LOW32, _S32, mix64, random_bits
from ._union_find import find

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


@_njit
def seam_doors(doors: np.ndarray, key: np.uint64, seam: np.uint64, door_below: np.uint64) -> None:
    """Mark the door columns of seam ``seam`` in ``doors`` (1: door).

    Column ``x`` is a door when the low 32 bits of its draw are below
    ``door_below``; with no door at all, the draw of number ``width`` picks
    one column (by multiply-shift of its low 32 bits)."""
    width = doors.shape[0]
    skey = seam_key(key, seam)
    count = 0
    for x in range(width):
        d = int((random_bits(skey, _U64(x)) & _LOW32) < door_below)
        doors[x] = d
        count += d
    if count == 0:
        pick = ((random_bits(skey, _U64(width)) & _LOW32) * _U64(width)) >> _S32
        doors[pick] = 1


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
    for x in range(width - 1):
        xx = np.int64(x)
        x1 = xx + 1
        a = np.int64(left[x1])  # previous cell of x+1's set
        b = np.int64(right[xx])  # next cell of x's set
        bits = random_bits(bkey, counter + _U64(x))
        join = np.int64(a != xx) & np.int64((bits & _LOW32) < join_below)
        _join(left, right, xx, a, b, join, scratch)
        row[xx] = np.uint8(join)
    row[width - 1] = 0
    flags[scratch] = 0
    for x in range(width):
        xx = np.int64(x)
        lx = np.int64(left[xx])
        rx = np.int64(right[xx])
        flag = flags[_sel(np.int64(lx < xx), lx, scratch)]
        door = doors[xx]
        draw = random_bits(bkey, counter + _U64(x)) >> _S32
        close = np.int64(lx != xx) & (np.int64(draw >= open_below) | np.int64(door & flag))
        _leave(left, right, xx, lx, rx, close, scratch)
        flags[xx] = flag | door
        row[xx] |= np.uint8((close ^ 1) << 1)


@_njit
def _last_row(
    left: np.ndarray, right: np.ndarray, row: np.ndarray, doors: np.ndarray, parent: np.ndarray
) -> None:
    """The band's last row: join side-by-side cells of different sets unless
    both sets hold a door column; open SOUTH at exactly the doors.  Leaves
    ``left``/``right`` as sets of one cell (the next band's first row).

    ``parent`` is a union-find over the row's cells, each set rooted at its
    first cell; while the row is built, bit 4 of ``row[root]`` marks a set
    that holds a door column."""
    width = row.shape[0]
    held = np.uint8(4)
    for x in range(width):
        row[x] = 0
    for first in range(width):
        if left[first] < first:
            continue
        parent[first] = first
        hold = doors[first]
        c = right[first]
        while c != first:
            parent[c] = first
            hold |= doors[c]
            c = right[c]
        if hold:
            row[first] = held
    for x in range(width - 1):
        a = find(parent, x)
        b = find(parent, x + 1)
        if a != b and not (row[a] & held and row[b] & held):
            parent[b] = a
            row[a] |= row[b] & held
            row[x] |= EAST
    for x in range(width):
        row[x] = (row[x] & EAST) | (SOUTH * doors[x])
        left[x] = x
        right[x] = x


@_njit
def band_span(
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
    while y < plain and i < n_rows:  # one call site: the row loop is compiled once
        m = 1 if y == 0 else min(n_rows - i, plain - y)
        join = th[TH_JOIN_FIRST] if y == 0 else th[TH_JOIN]
        opens = th[TH_OPEN_FIRST] if y == 0 else th[TH_OPEN]
        eller_rows(left, right, out[i : i + m], bkey, _U64(y) * _U64(width), join, opens)
        i += m
        y += m
    if i < n_rows and y == plain:
        seam_doors(doors, key, _U64(band) + _U64(1), th[TH_DOOR])
        join = th[TH_JOIN_FIRST] if y == 0 else th[TH_JOIN]
        opens = th[TH_OPEN_FIRST] if y == 0 else th[TH_OPEN]
        _penultimate_row(left, right, out[i], bkey, _U64(y) * _U64(width), join, opens, doors, parent)
        i += 1
        y += 1
    if i < n_rows:  # the last row
        if y0 == band_height - 1:
            seam_doors(doors, key, _U64(band) + _U64(1), th[TH_DOOR])
        _last_row(left, right, out[i], doors, parent)


@_njit
def _band_into(
    out: np.ndarray,
    key: np.uint64,
    band0: np.uint64,
    j: int,
    band_height: int,
    th: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """The rows of band ``band0 + j`` into ``out``, whose row 0 is the first
    row of band ``band0`` (the last band may end with ``out``); the other
    arrays are scratch."""
    for x in range(left.shape[0]):
        left[x] = x
        right[x] = x
    lo = j * band_height
    stop = min(lo + band_height, out.shape[0])
    band_span(left, right, out[lo:stop], key, _U64(band0) + _U64(j), 0, band_height, th, doors, parent)


@_njit(parallel=True)
def band_rows_parallel(
    out: np.ndarray,
    key: np.uint64,
    band0: np.uint64,
    band_height: int,
    th: np.ndarray,
    lefts: np.ndarray,
    rights: np.ndarray,
    doors: np.ndarray,
    parents: np.ndarray,
) -> None:
    """Whole bands from band ``band0`` into ``out`` (the last may be cut
    short), shared among numba's threads: thread ``t`` makes bands ``t``,
    ``t + T``, ... with row ``t`` of the scratch arrays (``T`` rows each), so
    the kernel allocates nothing and the bytes are those of one thread."""
    n_bands = (out.shape[0] + band_height - 1) // band_height
    threads = lefts.shape[0]
    for t in prange(threads):
        for j in range(t, n_bands, threads):
            _band_into(out, key, band0, j, band_height, th, lefts[t], rights[t], doors[t], parents[t])


@_njit
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


# ---------------------------------------------------------------------------
# Loops (the braid): a band's rows post-processed in place, once the whole
# band is made.  Cell (y, x) of band b draws ``random_bits(loop_key(key, b),
# y*width + x)``: if it is a dead end when the row-major scan reaches it and
# the low 32 bits are below ``th[TH_LOOP]``, it opens one more wall to a
# neighbour inside the band, a dead end itself if one is (Jamis Buck's braid
# rule), chosen by the high 32 bits among the candidates in the order north,
# south, west, east.  The seams are never touched, so every band still
# leaves through its doors and the detour stays within the band.
# ---------------------------------------------------------------------------


@_njit(inline="always")
def loop_key(key: np.uint64, band: np.uint64) -> np.uint64:
    """The generator key of band ``band``'s loops."""
    return mix64(_U64(key) ^ mix64(_U64(band) * _GOLDEN + LOOP_SALT))


@_njit(inline="always")
def _open_sides(rows: np.ndarray, y: int, x: int, doors_above: np.ndarray) -> int:
    """How many sides of cell (y, x) of a band's rows are open (north of
    the band's first row: the doors of the seam above)."""
    v = rows[y, x]
    n = int(v & EAST) + int((v >> 1) & 1)
    if x > 0:
        n += int(rows[y, x - 1] & EAST)
    if y > 0:
        n += int((rows[y - 1, x] >> 1) & 1)
    else:
        n += int(doors_above[x])
    return n


@_njit
def _braid_cell(rows: np.ndarray, y: int, x: int, bits: np.uint64, doors: np.ndarray) -> None:
    """Open the wall of dead end (y, x) that its draw ``bits`` picks among
    the closed ones to neighbours inside the band, dead ends first."""
    height, width = rows.shape
    n_all = 0
    n_dead = 0
    dirs = 0  # candidates, two bits each (N S W E = 0 1 2 3)
    dead = 0  # candidates that are dead ends, two bits each
    for d in range(4):
        ny = y - 1 if d == 0 else (y + 1 if d == 1 else y)
        nx = x - 1 if d == 2 else (x + 1 if d == 3 else x)
        if ny < 0 or ny >= height or nx < 0 or nx >= width:
            continue
        if d == 0:
            closed = (rows[ny, x] & SOUTH) == 0
        elif d == 1:
            closed = (rows[y, x] & SOUTH) == 0
        elif d == 2:
            closed = (rows[y, nx] & EAST) == 0
        else:
            closed = (rows[y, x] & EAST) == 0
        if not closed:
            continue
        dirs |= d << (2 * n_all)
        n_all += 1
        if _open_sides(rows, ny, nx, doors) == 1:
            dead |= d << (2 * n_dead)
            n_dead += 1
    if n_all == 0:
        return
    pool = dead if n_dead > 0 else dirs
    n = n_dead if n_dead > 0 else n_all
    k = int(((bits >> _S32) * _U64(n)) >> _S32)
    d = (pool >> (2 * k)) & 3
    if d == 0:
        rows[y - 1, x] |= SOUTH
    elif d == 1:
        rows[y, x] |= SOUTH
    elif d == 2:
        rows[y, x - 1] |= EAST
    else:
        rows[y, x] |= EAST


@_njit
def band_braid(rows: np.ndarray, key: np.uint64, band: np.uint64, th: np.ndarray, doors: np.ndarray) -> None:
    """Open loops in the whole band ``rows`` (``(band_height, width)``) of
    band ``band``, in place; nothing when ``th[TH_LOOP]`` is 0.  ``doors``
    (``width`` entries) is scratch: it takes the doors of seam ``band``.

    One pass, row-major, reading each cell's sides as the pass has left
    them: its own flags, its west neighbour's EAST (carried along the row)
    and the SOUTH of the cell above (the doors above the first row)."""
    loop_below = _U64(th[TH_LOOP])
    if loop_below == _U64(0):
        return
    height, width = rows.shape
    seam_doors(doors, key, _U64(band), th[TH_DOOR_ABOVE])
    lkey = loop_key(key, band)
    for y in range(height):
        row = rows[y]
        above = rows[y - 1] if y > 0 else doors  # doors are 0/1: the north side is bit 0 there
        shift = 1 if y > 0 else 0
        west = np.int64(0)
        for x in range(width):
            v = np.int64(row[x])
            sides = (v & 1) + ((v >> 1) & 1) + west + ((np.int64(above[x]) >> shift) & 1)
            if sides == 1:
                bits = random_bits(lkey, _U64(y) * _U64(width) + _U64(x))
                if (bits & _LOW32) < loop_below:
                    _braid_cell(rows, y, x, bits, doors)
            west = np.int64(row[x]) & 1


# ---------------------------------------------------------------------------
# Bands with parameters of their own (a schedule) and loops: ``ths`` holds a
# thresholds row per band (row j: band band0 + j), or one row for them all.
# ---------------------------------------------------------------------------


@_njit(inline="always")
def _th_row(ths: np.ndarray, j: int) -> np.ndarray:
    """The thresholds of the ``j``-th band of ``ths`` (its only row if one)."""
    return ths[j if ths.shape[0] > 1 else 0]


@_njit
def band_make(
    out: np.ndarray,
    key: np.uint64,
    band: np.uint64,
    band_height: int,
    th: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """The first ``len(out)`` rows of band ``band`` into ``out``, braided
    (:func:`band_braid`) when they are the whole band; the other arrays are
    scratch."""
    for x in range(left.shape[0]):
        left[x] = x
        right[x] = x
    whole = out.shape[0] == band_height
    if whole and th[TH_ROOM] > 0 and band_rooms(out, key, band, th, np.empty((0, 4), np.int64)) > 0:
        _band_with_rooms(left, right, out, key, band, th, doors, parent)
    else:
        band_span(left, right, out, key, band, 0, band_height, th, doors, parent)
    if whole:
        band_braid(out, key, band, th, doors)


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
    then not braided), band ``band0 + j`` with the thresholds ``_th_row(ths, j)``."""
    n_bands = (out.shape[0] + band_height - 1) // band_height
    for j in range(n_bands):
        lo = j * band_height
        stop = min(lo + band_height, out.shape[0])
        band = _U64(band0) + _U64(j)
        band_make(out[lo:stop], key, band, band_height, _th_row(ths, j), left, right, doors, parent)


@_njit(parallel=True)
def bands_rows_parallel(
    out: np.ndarray,
    key: np.uint64,
    band0: np.uint64,
    band_height: int,
    ths: np.ndarray,
    lefts: np.ndarray,
    rights: np.ndarray,
    doors: np.ndarray,
    parents: np.ndarray,
) -> None:
    """:func:`bands_rows` shared among numba's threads as
    :func:`band_rows_parallel` shares its bands: each band is braided by the
    thread that made it, the bytes are those of one thread."""
    n_bands = (out.shape[0] + band_height - 1) // band_height
    threads = lefts.shape[0]
    for t in prange(threads):
        for j in range(t, n_bands, threads):
            lo = j * band_height
            stop = min(lo + band_height, out.shape[0])
            band = _U64(band0) + _U64(j)
            th = _th_row(ths, j)
            band_make(out[lo:stop], key, band, band_height, th, lefts[t], rights[t], doors[t], parents[t])


@_njit
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


# ---------------------------------------------------------------------------
# Rooms: open rectangles in a band's rows 0 .. K-3, placed from (seed, band)
# alone (band_rooms), and the band's Eller rows around them
# (_band_with_rooms).  A room is one set: its top row's cells come from
# different sets (the row above opens each set into the columns of a room's
# top row at most once, as the penultimate row does for doors), so joining
# them closes no loop; its rows below join it through its open south walls.
# Contract each room to one node and the maze is a tree.
# ---------------------------------------------------------------------------

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


@_njit(inline="always")
def _uf_root(parent: np.ndarray, i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


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
                a, b = _uf_root(parent, i), _uf_root(parent, i + 1)
                parent[max(a, b)] = min(a, b)
            if v & SOUTH:
                a, b = _uf_root(parent, i), _uf_root(parent, i + w)
                parent[max(a, b)] = min(a, b)
    first = np.full(n, -1, np.int64)
    last = np.full(n, -1, np.int64)
    for x in range(w):
        r = _uf_root(parent, h * w + x)
        if first[r] < 0:
            first[r] = x
        else:
            right[last[r]] = x
            left[x] = last[r]
        last[r] = x
    for x in range(w):
        r = _uf_root(parent, h * w + x)
        if first[r] == x:
            left[x] = last[r]
            right[last[r]] = x
