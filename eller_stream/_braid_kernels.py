"""Numba kernels of the banded maze's loops (the braid).

Loops (the braid): a band's rows post-processed in place, once the whole
band is made.  Cell (y, x) of band b draws ``random_bits(loop_key(key, b),
y*width + x)``: if it is a dead end when the row-major scan reaches it and
the low 32 bits are below ``th[TH_LOOP]``, it opens one more wall to a
neighbour inside the band, a dead end itself if one is (Jamis Buck's braid
rule), chosen by the high 32 bits among the candidates in the order north,
south, west, east.  The seams are never touched, so every band still
leaves through its doors and the detour stays within the band.
"""

from __future__ import annotations

import numpy as np

from ._band_kernels import LOOP_SALT, TH_DOOR_ABOVE, TH_LOOP, seam_doors
from ._format import EAST, SOUTH
from ._numba import _U64, Int64, _njit, _sel
from ._rng import _GOLDEN, _LOW32, _S32, mix64, random_bits


@_njit(inline="always")
def loop_key(key: np.uint64, band: np.uint64) -> np.uint64:
    """The generator key of band ``band``'s loops."""
    return mix64(_U64(key) ^ mix64(_U64(band) * _GOLDEN + LOOP_SALT))


@_njit
def _band_sides(rows: np.ndarray, doors_above: np.ndarray, sides: np.ndarray) -> None:
    """How many sides of each cell of a band's rows are open, into
    ``sides[1 : K + 1, 1 : width + 1]`` (``sides`` is ``(K + 2, width + 2)``:
    a frame around the band, so that neighbours need no bounds check; what
    the frame holds is never read as a candidate's).  North of the band's
    first row: the doors of the seam above; south of its last: its own
    ``SOUTH`` flags.  Loops over whole rows without a branch (vectorised)."""
    height, width = rows.shape
    for y in range(height):
        row = rows[y]
        count = sides[y + 1]
        if y == 0:
            for x in range(width):
                count[x + 1] = doors_above[x]
        else:
            above = rows[y - 1]
            for x in range(width):
                count[x + 1] = (above[x] >> 1) & 1
        for x in range(width):
            v = row[x]
            count[x + 1] += (v & 1) + ((v >> 1) & 1)
        for x in range(1, width):
            count[x + 1] += row[x - 1] & 1


@_njit(inline="always")
def _kth_bit(pool: Int64, k: Int64) -> Int64:
    """The index of the ``k``-th (0-based, k < 4) set bit of the 4-bit
    ``pool``, without a branch."""
    p1 = pool & (pool - 1)
    p2 = p1 & (p1 - 1)
    p3 = p2 & (p2 - 1)
    p = _sel(np.int64(k == 0), pool, _sel(np.int64(k == 1), p1, _sel(np.int64(k == 2), p2, p3)))
    return np.int64((p & 1) == 0) + np.int64((p & 3) == 0) + np.int64((p & 7) == 0)


@_njit(inline="always")
def _braid_cell(rows: np.ndarray, sides: np.ndarray, y: int, x: int, hi: np.uint64) -> None:
    """Open the wall of dead end (y, x) that the high 32 bits of its draw
    (``hi``) pick among the closed ones to neighbours inside the band, dead
    ends first, and count the new passage in ``sides`` (framed: cell (y, x)
    is ``sides[y + 1, x + 1]``).

    Candidates are bits of a 4-bit mask in the order north, south, west,
    east; the k-th set bit of the pool is taken, without a branch but the
    one for a cell with no candidate."""
    height, width = rows.shape
    v = np.int64(rows[y, x])
    sy, sx = y + 1, x + 1
    north = np.int64(y > 0) & ((np.int64(rows[max(y - 1, 0), x]) >> 1) ^ 1) & 1
    south = np.int64(y + 1 < height) & ((v >> 1) ^ 1) & 1
    west = np.int64(x > 0) & (np.int64(rows[y, max(x - 1, 0)]) ^ 1) & 1
    east = np.int64(x + 1 < width) & (v ^ 1) & 1
    cand = north | (south << 1) | (west << 2) | (east << 3)
    dead = (
        (north & np.int64(sides[sy - 1, sx] == 1))
        | ((south & np.int64(sides[sy + 1, sx] == 1)) << 1)
        | ((west & np.int64(sides[sy, sx - 1] == 1)) << 2)
        | ((east & np.int64(sides[sy, sx + 1] == 1)) << 3)
    )
    pool = _sel(np.int64(dead != 0), dead, cand)
    n = (pool & 1) + ((pool >> 1) & 1) + ((pool >> 2) & 1) + ((pool >> 3) & 1)
    if n == 0:
        return
    d = _kth_bit(pool, np.int64((hi * _U64(n)) >> _S32))
    up, down, left, right = np.int64(d == 0), np.int64(d == 1), np.int64(d == 2), np.int64(d == 3)
    rows[y - up, x - left] |= np.uint8(_sel(up | down, np.int64(SOUTH), np.int64(EAST)))
    sides[sy, sx] += 1
    sides[sy + down - up, sx + right - left] += 1


@_njit
def band_braid(rows: np.ndarray, key: np.uint64, band: np.uint64, th: np.ndarray, doors: np.ndarray) -> None:
    """Open loops in the whole band ``rows`` (``(band_height, width)``) of
    band ``band``, in place; nothing when ``th[TH_LOOP]`` is 0.  ``doors``
    (``width`` entries) is scratch: it takes the doors of seam ``band``.

    The scan is row-major, each cell's sides read as the scan has left them
    (kept counted in an array, :func:`_band_sides`).  Opening walls only
    takes dead ends away (a side count only grows), so a row's candidates
    can be listed first, without a branch (a cell that is a dead end, or has
    fewer sides, and whose draw opens a loop), then taken in order, each
    braided if it is still a dead end: the same walls as a cell-by-cell
    scan, without its unpredictable branches."""
    loop_below = _U64(th[TH_LOOP])
    if loop_below == _U64(0):
        return
    height, width = rows.shape
    seam_doors(doors, key, _U64(band), th[TH_DOOR_ABOVE])
    lkey = loop_key(key, band)
    sides = np.empty((height + 2, width + 2), np.uint8)
    _band_sides(rows, doors, sides)
    picked = np.empty(width, np.int64)
    draws = np.empty(width, np.uint64)
    for y in range(height):
        counts = sides[y + 1]
        base = _U64(y) * _U64(width)
        n: Int64 = 0
        for x in range(width):  # the cells with at most one side open
            picked[n] = x
            n += np.int64(counts[x + 1] <= 1)
        for i in range(n):  # their draws (vectorised)
            draws[i] = random_bits(lkey, base + _U64(picked[i]))
        m: Int64 = 0
        for i in range(n):  # ... the cells whose draw opens a loop
            bits = draws[i]
            picked[m] = picked[i]
            draws[m] = bits >> _S32
            m += np.int64((bits & _LOW32) < loop_below)
        for i in range(m):  # in scan order, each if it is still a dead end
            x = picked[i]
            if counts[x + 1] == 1:
                _braid_cell(rows, sides, y, x, draws[i])
