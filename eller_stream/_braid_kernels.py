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
from ._numba import _U64, Int64, _njit, lowest_bit
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


@_njit
def band_braid(rows: np.ndarray, key: np.uint64, band: np.uint64, th: np.ndarray, doors: np.ndarray) -> None:
    """Open loops in the whole band ``rows`` (``(band_height, width)``) of
    band ``band``, in place; nothing when ``th[TH_LOOP]`` is 0.  ``doors``
    (``width`` entries) is scratch: it takes the doors of seam ``band``.

    The scan is row-major, each cell's sides read as the scan has left them
    (kept counted, :func:`_band_sides`).  Opening walls only takes dead ends
    away (a side count only grows), so a row's candidates can be listed
    first, without a branch (a cell that is a dead end, or has fewer sides,
    and whose draw opens a loop), then taken in order, each braided if it is
    still a dead end: the same walls as a cell-by-cell scan, without its
    unpredictable branches.

    A braided cell's candidates are bits of a 4-bit mask in the order north,
    south, west, east; the k-th set bit of the pool is taken without a
    branch.  The loop body is written out here, not called: numba counts the
    references of arrays passed to an inlined function, which cost more than
    the braid."""
    loop_below = _U64(th[TH_LOOP])
    if loop_below == _U64(0):
        return
    height, width = rows.shape
    seam_doors(doors, key, _U64(band), th[TH_DOOR_ABOVE])
    lkey = loop_key(key, band)
    framed = np.empty((height + 2, width + 2), np.uint8)
    _band_sides(rows, doors, framed)
    sides = framed.reshape(-1)  # cell (y, x) at (y + 1) * stride + x + 1
    stride = width + 2
    picked = np.empty(width, np.int64)
    draws = np.empty(width, np.uint64)
    for y in range(height):
        base = _U64(y) * _U64(width)
        at = (y + 1) * stride + 1
        n: Int64 = 0
        for x in range(width):  # the cells with at most one side open
            picked[n] = x
            n += np.int64(sides[at + x] <= 1)
        for i in range(n):  # their draws (vectorised)
            draws[i] = random_bits(lkey, base + _U64(picked[i]))
        m: Int64 = 0
        for i in range(n):  # ... the cells whose draw opens a loop
            bits = draws[i]
            picked[m] = picked[i]
            draws[m] = bits >> _S32
            m += np.int64((bits & _LOW32) < loop_below)
        north_ok = np.int64(y > 0)
        south_ok = np.int64(y + 1 < height)
        for i in range(m):  # in scan order, each if it is still a dead end
            x = picked[i]
            s = at + x
            if sides[s] != 1:
                continue
            v = np.int64(rows[y, x])
            north = north_ok & ((np.int64(rows[max(y - 1, 0), x]) >> 1) ^ 1) & 1
            south = south_ok & ((v >> 1) ^ 1) & 1
            west = np.int64(x > 0) & (np.int64(rows[y, max(x - 1, 0)]) ^ 1) & 1
            east = np.int64(x + 1 < width) & (v ^ 1) & 1
            cand = north | (south << 1) | (west << 2) | (east << 3)
            dead = (
                np.int64(sides[s - stride] == 1)
                | (np.int64(sides[s + stride] == 1) << 1)
                | (np.int64(sides[s - 1] == 1) << 2)
                | (np.int64(sides[s + 1] == 1) << 3)
            ) & cand
            pool = dead | (cand & -np.int64(dead == 0))
            count = (pool & 1) + ((pool >> 1) & 1) + ((pool >> 2) & 1) + ((pool >> 3) & 1)
            if count == 0:
                continue
            k = np.int64((draws[i] * _U64(count)) >> _S32)
            for j in range(1, 4):  # drop the k lowest set bits
                pool &= pool - np.int64(k >= j)
            d = lowest_bit(pool)
            up, down, left, right = np.int64(d == 0), np.int64(d == 1), np.int64(d == 2), np.int64(d == 3)
            rows[y - up, x - left] |= np.uint8(SOUTH * (up | down) + EAST * (left | right))
            sides[s] += 1
            sides[s + (down - up) * stride + right - left] += 1
