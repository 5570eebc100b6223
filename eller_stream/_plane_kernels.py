"""Numba kernels of the plane (docs/spec.md, section 8): any rectangle of a
maze infinite in rows and columns, from ``(seed, coordinates)`` alone.

The plane is cut into square **chunks** of ``c`` cells; ``K x K`` chunks
make a block of level 1, ``K x K`` blocks of level 1 a block of level 2, and
so on, each block centred on the block of the level below that holds the
origin (so the blocks of one level are those of the level below grouped by
``K`` along each axis, from the middle: :func:`up` and :func:`place`).

* With ``perfect``, a chunk is Eller's rows from its own key, turned so that
  its sets flow towards the middle chunk of its level-1 block: every set
  leaves the chunk exactly once, through an **exit** into a chunk nearer the
  middle (south or north at the chunk's last row, east or west at the end
  of a row). The middle chunk, whose sets have nowhere nearer to go, closes
  them with a closing row. So a level-1 block is a tree; a block of level
  2 and up leaves for its neighbour nearer the middle of the block above by
  exactly one **door** (:func:`plane_doors`), and is a tree too.
* Without ``perfect``, every chunk is a perfect maze of its own (its last
  row closes its sets) and its east and south seams have doors.

A chunk is made **canonical** (rows from the top, exits at its last row and
last column) by :func:`chunk_cells`, then turned into place by
:func:`place_chunk`. Passages are owned by one chunk or door each, so the
kernels OR them into a zeroed region. ``tests/naive_plane.py`` restates all
of it; the lean backend's twin is :mod:`eller_stream._lean_plane`.

Coordinates are int64 (a region lies in ``[-2**62, 2**62]``, the cells
just outside it included); block corners and door cells are worked out
modulo 2**64 (uint64) and compared as differences with the region's
corner, which are exact: a door that matters lies within a block side
(less than ``2**63 + c`` cells, see :func:`plane_doors`) of the region.
"""

from __future__ import annotations

import numpy as np

from ._band_kernels import SEAM_SALT
from ._eller_kernels import LR_PAD, _join, _leave, eller_sweep, row_draws
from ._format import EAST, SOUTH
from ._numba import _U64, Int64, _mul_high, _njit, _sel
from ._rng import _GOLDEN, _LOW32, _S32, mix64, random_bits

__all__ = ["N_THRESHOLDS", "K", "plane_region"]

K = 9  # a block is K x K blocks of the level below (odd: each has a middle one)
HALF = (K - 1) // 2

# Indices into the thresholds array ``th`` (probabilities scaled to [0, 2**32]):
TH_JOIN = 0  # east wall, the chunk's rows 1 .. c - 2
TH_OPEN = 1  # optional south opening, rows 1 .. c - 2; which cell of a set exits south
TH_JOIN_FIRST = 2  # east wall, row 0 (when it is not the last row)
TH_OPEN_FIRST = 3  # optional south opening, row 0 (when it is not the last row)
TH_JOIN_LAST = 4  # east wall, the last row of a chunk whose sets exit south
TH_EXIT = 5  # a row's exit east; without perfect, a door of an east seam
N_THRESHOLDS = 6

PLAN_SALT = _U64(0x706C616E)  # "plan": a level's key
ROW_SALT = _U64(0x726F77)  # "row"
COL_SALT = _U64(0x636F6C)  # "col"
_COIN = _U64(1 << 31)  # a door leaves vertically when the low 32 bits of its draw are below this
_ONE = _U64(1)


@_njit(inline="always")
def salted(key: np.uint64, index: np.uint64, salt: np.uint64) -> np.uint64:
    """The key of part ``index`` of ``key`` (docs/spec.md, section 2.3)."""
    return mix64(_U64(key) ^ mix64(_U64(index) * _GOLDEN + salt))


@_njit(inline="always")
def block_key(key: np.uint64, level: Int64, jy: Int64, jx: Int64) -> np.uint64:
    """The key of block ``(jy, jx)`` of ``level`` (level 0: chunk ``(jy, jx)``);
    negative indices as their two's complement."""
    k = salted(key, _U64(np.int64(level)), PLAN_SALT)
    k = salted(k, _U64(np.int64(jy)), ROW_SALT)
    return salted(k, _U64(np.int64(jx)), COL_SALT)


@_njit(inline="always")
def up(j: Int64) -> Int64:
    """The block of the level above that holds block ``j`` (one axis)."""
    return (j + HALF) // K


@_njit(inline="always")
def place(j: Int64) -> Int64:
    """Where block ``j`` sits in the block above: ``-HALF .. HALF``, 0 the middle."""
    return j - K * up(j)


@_njit(inline="always")
def _joins(
    row: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    draws: np.ndarray,
    join: np.uint64,
    all_: bool | np.bool_,
) -> None:
    """A row's east walls: ``x`` joins ``x + 1`` when their sets differ and
    its draw passes ``join`` (every time, with ``all_``: a closing row).
    Branch-free, as :func:`eller_stream._eller_kernels.eller_cell`: a join
    that does not happen writes to the scratch slot ``c``."""
    c = row.shape[0]
    every = np.int64(all_)
    for x in range(c - 1):
        a = np.int64(left[x + 1])
        b = np.int64(right[x])
        j = np.int64(a != x) & (every | np.int64((draws[x] & _LOW32) < join))
        _join(left, right, x, a, b, j, c)
        row[x] = np.uint8(j)
    row[c - 1] = 0


@_njit(inline="always")
def _mark_last_set(flags: np.ndarray, right: np.ndarray) -> None:
    """Flag 1 on the cells of the set of the row's last cell, 0 elsewhere."""
    c = flags.shape[0]
    flags[:] = 0
    z = c - 1
    while True:
        flags[z] = 1
        z = right[z]
        if z == c - 1:
            return


@_njit(refcounts=False)
def _exit_row(
    row: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    draws: np.ndarray,
    flags: np.ndarray,
    join: np.uint64,
    opens: np.uint64,
) -> None:
    """A row (not the last) whose last cell's set exits east: the east walls,
    the exit, then the south walls by Eller's rule, the exiting set's cells
    all closed (its cells below start sets of their own)."""
    c = row.shape[0]
    _joins(row, left, right, draws, join, np.bool_(False))
    row[c - 1] = EAST
    _mark_last_set(flags, right)
    for x in range(c):
        lx = np.int64(left[x])
        rx = np.int64(right[x])
        close = np.int64(flags[x]) | (np.int64(lx != x) & np.int64((draws[x] >> _S32) >= opens))
        _leave(left, right, x, lx, rx, close, c)
        row[x] |= np.uint8((close ^ 1) << 1)


@_njit(refcounts=False)
def _last_row(
    row: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    draws: np.ndarray,
    flags: np.ndarray,
    heads: np.ndarray,
    south: bool,
    east: bool,
    th: np.ndarray,
) -> None:
    """A chunk's last row. Without exits south it closes every set (joins all
    side-by-side cells of different sets; no SOUTH); with them, each set but
    one that exits east leaves south exactly once, at its first cell whose
    draw opens, or else at its last cell. ``flags``: bit 1 on the exiting
    set's cells, bit 2 on the first cell of a set that has left south;
    ``heads``: each cell's first cell of its set."""
    c = row.shape[0]
    _joins(row, left, right, draws, th[TH_JOIN_LAST], not south)
    fire = east and (not south or (draws[c - 1] & _LOW32) < th[TH_EXIT])
    if fire:
        row[c - 1] = EAST
    if not south:
        return
    if fire:
        _mark_last_set(flags, right)
    else:
        flags[:] = 0
    opens = th[TH_OPEN]
    for x in range(c):
        lx = np.int64(left[x])
        head = _sel(np.int64(lx >= x), x, np.int64(heads[lx]))  # sorted lists: x's predecessor came first
        heads[x] = head
        go = np.int64((flags[x] & 1) == 0) & np.int64((flags[head] & 2) == 0)
        go &= np.int64((draws[x] >> _S32) < opens) | np.int64(right[x] <= x)
        row[x] |= np.uint8(go << 1)
        flags[head] |= np.uint8(go << 1)


@_njit(refcounts=False)
def chunk_cells(
    grid: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    draws: np.ndarray,
    flags: np.ndarray,
    heads: np.ndarray,
    key: np.uint64,
    south: bool,
    east: bool,
    th: np.ndarray,
) -> None:
    """The canonical chunk of ``key`` into the ``(c, c)`` ``grid``: Eller's
    rows from the top, cell ``(y, x)`` drawing ``random_bits(key, y*c + x)``;
    with ``east``, a row's last set exits east (EAST on the last column) when
    the low 32 bits of the last cell's draw pass ``TH_EXIT``; the last row
    as :func:`_last_row`. The other arrays are scratch: ``left``/``right``
    ``c + LR_PAD`` int32, ``draws`` ``c`` uint64, ``flags`` ``c`` uint8,
    ``heads`` ``c`` int64."""
    c = grid.shape[0]
    for x in range(c + LR_PAD):
        left[x] = x
        right[x] = x
    for y in range(c - 1):
        row_draws(draws, key, _U64(y * c))
        join = th[TH_JOIN_FIRST] if y == 0 else th[TH_JOIN]
        opens = th[TH_OPEN_FIRST] if y == 0 else th[TH_OPEN]
        if east and (draws[c - 1] & _LOW32) < th[TH_EXIT]:
            _exit_row(grid[y], left, right, draws, flags, join, opens)
        else:
            eller_sweep(left, right, grid[y], draws, join, opens)
    row_draws(draws, key, _U64((c - 1) * c))
    _last_row(grid[c - 1], left, right, draws, flags, heads, south, east, th)


@_njit(refcounts=False)
def seam_doors(grid: np.ndarray, key: np.uint64, th: np.ndarray) -> None:
    """Without perfect: the doors of a chunk's east seam (EAST on its last
    column) and south seam (SOUTH on its last row). Side 0 (east) and 1
    (south) each draw from ``salted(key, side, SEAM_SALT)``: place ``i`` is
    a door when the low 32 bits of draw ``i`` pass ``TH_EXIT`` (east) or
    ``TH_OPEN`` (south); with none, draw ``c`` picks one."""
    c = grid.shape[0]
    for side in range(2):
        q = salted(key, _U64(side), SEAM_SALT)
        below = th[TH_EXIT] if side == 0 else th[TH_OPEN]
        count = 0
        for i in range(c):
            if (random_bits(q, _U64(i)) & _LOW32) < below:
                count += 1
                if side == 0:
                    grid[i, c - 1] |= EAST
                else:
                    grid[c - 1, i] |= SOUTH
        if count == 0:
            pick = np.int64(((random_bits(q, _U64(c)) & _LOW32) * _U64(c)) >> _S32)
            if side == 0:
                grid[pick, c - 1] |= EAST
            else:
                grid[c - 1, pick] |= SOUTH


@_njit(refcounts=False)
def place_chunk(
    out: np.ndarray, north: np.ndarray, grid: np.ndarray, top: Int64, left: Int64, flip_v: bool, flip_h: bool
) -> None:
    """OR the canonical ``grid``'s passages into ``out``, the chunk's first
    cell at ``(top, left)`` of ``out`` (either may be negative), turned
    upside down with ``flip_v`` and left to right with ``flip_h``; what a
    turned chunk's exits store on the row above it goes into ``north`` (a
    row of ``out``'s width) instead. What falls outside ``out`` is dropped.

    Turned, row ``Y`` of the chunk takes its EAST passages from canonical
    row ``c - 1 - Y`` and its SOUTH ones from row ``c - 2 - Y`` (row -1, the
    row above, those of the last canonical row); column ``X`` its EAST
    passages from canonical column ``c - 2 - X`` (column -1 those of the
    last) and its SOUTH ones from column ``c - 1 - X``."""
    h, w = out.shape
    c = grid.shape[0]
    fv = np.int64(flip_v)
    for yy in range(max(-fv, -top), min(c, h - top)):
        east_row = c - 1 - yy if flip_v else yy  # canonical rows, valid when in [0, c)
        south_row = c - 2 - yy if flip_v else yy
        target = north if yy < 0 else out[top + yy]
        e_in = yy >= 0
        s_in = south_row >= 0
        x_lo = max(0, -left)
        x_hi = min(c, w - left)
        if not flip_h:
            if not flip_v:  # the common case: the row as it is
                for xx in range(x_lo, x_hi):
                    target[left + xx] |= grid[yy, xx]
            elif e_in and s_in:
                for xx in range(x_lo, x_hi):
                    target[left + xx] |= (grid[east_row, xx] & EAST) | (grid[south_row, xx] & SOUTH)
            elif e_in:
                for xx in range(x_lo, x_hi):
                    target[left + xx] |= grid[east_row, xx] & EAST
            else:
                for xx in range(x_lo, x_hi):
                    target[left + xx] |= grid[south_row, xx] & SOUTH
            continue
        for xx in range(x_lo, min(c - 1, w - left)):
            v = np.uint8(0)
            if e_in:
                v |= grid[east_row, c - 2 - xx] & EAST
            if s_in:
                v |= grid[south_row, c - 1 - xx] & SOUTH
            target[left + xx] |= v
        if s_in and 0 <= left + c - 1 < w:
            target[left + c - 1] |= grid[south_row, 0] & SOUTH
        if e_in and 0 <= left - 1 < w:
            target[left - 1] |= grid[east_row, c - 1] & EAST


@_njit(refcounts=False)
def _chunk_row(
    out: np.ndarray,
    north: np.ndarray,
    key: np.uint64,
    c: Int64,
    perfect: bool,
    y0: Int64,
    x0: Int64,
    th: np.ndarray,
    cy: Int64,
    grid: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    draws: np.ndarray,
    flags: np.ndarray,
    heads: np.ndarray,
) -> None:
    """The chunks of chunk row ``cy`` that store a passage on a cell of
    ``out`` (the region whose first cell is ``(y0, x0)``): those that meet
    it, and (with perfect) those just east or south of it whose exits lead
    west or north into it."""
    h, w = out.shape
    rows_in = cy <= (y0 + h - 1) // c
    dy = place(cy) if perfect else 0
    for cx in range((x0 // c), (x0 + w) // c + 1):
        cols_in = cx <= (x0 + w - 1) // c
        dx = place(cx) if perfect else 0
        if not ((rows_in and cols_in) or (rows_in and dx > 0) or (cols_in and dy > 0)):
            continue
        kc = block_key(key, 0, cy, cx)
        chunk_cells(grid, left, right, draws, flags, heads, kc, dy != 0, dx != 0, th)
        if not perfect:
            seam_doors(grid, kc, th)
        place_chunk(out, north, grid, cy * c - y0, cx * c - x0, bool(dy > 0), bool(dx > 0))


@_njit(refcounts=False)
def _door(
    out: np.ndarray,
    key: np.uint64,
    c: Int64,
    level: Int64,
    jy: Int64,
    jx: Int64,
    power: np.uint64,
    half: np.uint64,
    y0: Int64,
    x0: Int64,
) -> None:
    """The door by which block ``(jy, jx)`` of ``level`` >= 1 leaves for its
    neighbour nearer the middle of the block above (none for the middle
    one), ORed into ``out`` when it stores on one of its cells. ``power``
    is ``K**level``, ``half`` ``(K**level - 1) / 2``."""
    dy = place(jy)
    dx = place(jx)
    if dy == 0 and dx == 0:
        return
    q = block_key(key, level, jy, jx)
    vertical = dx == 0 or (dy != 0 and (random_bits(q, _U64(0)) & _LOW32) < _COIN)
    size = _U64(c) * power
    at = _mul_high(random_bits(q, _ONE), size)  # the door's place along the side, in [0, size)
    top = _U64(c) * (_U64(np.int64(jy)) * power - half)  # the block's first row, modulo 2**64
    left = _U64(c) * (_U64(np.int64(jx)) * power - half)
    if vertical:
        row = top + size - _ONE if dy < 0 else top - _ONE
        col = left + at
        flag = SOUTH
    else:
        row = top + at
        col = left + size - _ONE if dx < 0 else left - _ONE
        flag = EAST
    ry = row - _U64(np.int64(y0))
    rx = col - _U64(np.int64(x0))
    h, w = out.shape
    if ry < _U64(h) and rx < _U64(w):
        out[np.int64(ry), np.int64(rx)] |= flag


@_njit(refcounts=False)
def plane_doors(out: np.ndarray, key: np.uint64, c: Int64, y0: Int64, x0: Int64) -> None:
    """With perfect: the doors of every block of level >= 1 that store on a
    cell of ``out``. Level by level, the blocks that meet the region and the
    cells just outside it, until one block holds them all: no door of that
    level or above can then join two of them. Such a level's blocks are
    less than ``2**63 + c`` cells wide (else the block of the origin holds
    all of ``[-2**62, 2**62]``), so their size fits 64 bits and a door cell's
    difference with ``(y0, x0)`` is exact modulo 2**64."""
    h, w = out.shape
    ny0, ny1 = y0 // c, (y0 + h) // c
    nx0, nx1 = x0 // c, (x0 + w) // c
    power = _ONE
    half = _U64(0)
    level = 0
    while True:
        level += 1
        ny0, ny1, nx0, nx1 = up(ny0), up(ny1), up(nx0), up(nx1)
        power = power * _U64(K)
        half = half * _U64(K) + _U64(HALF)
        if ny0 == ny1 and nx0 == nx1:
            return
        for jy in range(ny0, ny1 + 1):
            for jx in range(nx0, nx1 + 1):
                _door(out, key, c, level, jy, jx, power, half, y0, x0)


@_njit
def _merge_north(out: np.ndarray, north: np.ndarray, c: Int64, y0: Int64) -> None:
    """OR each chunk row's ``north`` passages into the row above it."""
    h, w = out.shape
    cy0 = y0 // c
    for i in range(north.shape[0]):
        r = (cy0 + i) * c - y0 - 1
        if 0 <= r < h:
            for x in range(w):  # cell by cell: a row at once has numba compile its shape-error message, 2 s
                out[r, x] |= north[i, x]


@_njit
def plane_region(
    out: np.ndarray, key: np.uint64, c: Int64, perfect: bool, y0: Int64, x0: Int64, th: np.ndarray
) -> None:
    """Cells ``[y0, y0 + h) x [x0, x0 + w)`` of the plane of ``key`` with
    chunks of ``c`` cells into the ``(h, w)`` uint8 ``out``, on one thread
    (every argument checked by the caller: the region within
    ``[-2**62, 2**62]``, ``th`` the ``N_THRESHOLDS`` thresholds)."""
    key = _U64(key)
    h, w = out.shape
    out[:] = 0
    cy0 = y0 // c
    n = (y0 + h) // c - cy0 + 1
    north = np.zeros((n, w), np.uint8)
    grid = np.empty((c, c), np.uint8)
    left = np.empty(c + LR_PAD, np.int32)
    right = np.empty(c + LR_PAD, np.int32)
    draws = np.empty(c, np.uint64)
    flags = np.empty(c, np.uint8)
    heads = np.empty(c, np.int64)
    for i in range(n):
        _chunk_row(
            out, north[i], key, c, perfect, y0, x0, th, cy0 + i, grid, left, right, draws, flags, heads
        )
    _merge_north(out, north, c, y0)
    if perfect:
        plane_doors(out, key, c, y0, x0)
