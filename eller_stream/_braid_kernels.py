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


@_njit(inline="always")
def _open_sides(rows: np.ndarray, y: int, x: int, doors_above: np.ndarray) -> int:
    """How many sides of cell (y, x) of a band's rows are open (north of
    the band's first row: the doors of the seam above), without a branch."""
    v = np.int64(rows[y, x])
    west = np.int64(rows[y, max(x - 1, 0)]) & np.int64(x > 0)
    north_row = (np.int64(rows[max(y - 1, 0), x]) >> 1) & 1
    north = _sel(np.int64(y > 0), north_row, np.int64(doors_above[x]))
    return int((v & 1) + ((v >> 1) & 1) + (west & 1) + north)


@_njit(inline="always")
def _braid_cell(rows: np.ndarray, y: int, x: int, bits: np.uint64, doors: np.ndarray) -> None:
    """Open the wall of dead end (y, x) that its draw ``bits`` picks among
    the closed ones to neighbours inside the band, dead ends first.

    Candidates are bits of a 4-bit mask in the order north, south, west,
    east; the k-th set bit of the pool is taken, without a branch but the
    one for a cell with no candidate."""
    height, width = rows.shape
    v = np.int64(rows[y, x])
    yn, ys = max(y - 1, 0), min(y + 1, height - 1)
    xw, xe = max(x - 1, 0), min(x + 1, width - 1)
    north = np.int64(y > 0) & ((np.int64(rows[yn, x]) >> 1) ^ 1) & 1
    south = np.int64(y + 1 < height) & ((v >> 1) ^ 1) & 1
    west = np.int64(x > 0) & (np.int64(rows[y, xw]) ^ 1) & 1
    east = np.int64(x + 1 < width) & (v ^ 1) & 1
    cand = north | (south << 1) | (west << 2) | (east << 3)
    dead = (
        (north & np.int64(_open_sides(rows, yn, x, doors) == 1))
        | ((south & np.int64(_open_sides(rows, ys, x, doors) == 1)) << 1)
        | ((west & np.int64(_open_sides(rows, y, xw, doors) == 1)) << 2)
        | ((east & np.int64(_open_sides(rows, y, xe, doors) == 1)) << 3)
    )
    pool = _sel(np.int64(dead != 0), dead, cand)
    n = (pool & 1) + ((pool >> 1) & 1) + ((pool >> 2) & 1) + ((pool >> 3) & 1)
    if n == 0:
        return
    k = np.int64(((bits >> _S32) * _U64(n)) >> _S32)
    for _ in range(k):  # drop the k lowest set bits: the k-th candidate is the lowest left
        pool &= pool - 1
    d = np.int64((pool & 1) == 0) + np.int64((pool & 3) == 0) + np.int64((pool & 7) == 0)  # its index
    ty = y - np.int64(d == 0)
    tx = x - np.int64(d == 2)
    rows[ty, tx] |= np.uint8(_sel(np.int64(d < 2), np.int64(SOUTH), np.int64(EAST)))


@_njit
def band_braid(rows: np.ndarray, key: np.uint64, band: np.uint64, th: np.ndarray, doors: np.ndarray) -> None:
    """Open loops in the whole band ``rows`` (``(band_height, width)``) of
    band ``band``, in place; nothing when ``th[TH_LOOP]`` is 0.  ``doors``
    (``width`` entries) is scratch: it takes the doors of seam ``band``.

    The scan is row-major, each cell's sides read as the scan has left them.
    Opening walls only takes dead ends away (a side count only grows), so a
    row's candidates can be listed first, without a branch (a cell that is a
    dead end, or has fewer sides, and whose draw opens a loop), then taken
    in order, each braided if it is still a dead end: the same walls as a
    cell-by-cell scan, without its unpredictable branches."""
    loop_below = _U64(th[TH_LOOP])
    if loop_below == _U64(0):
        return
    height, width = rows.shape
    seam_doors(doors, key, _U64(band), th[TH_DOOR_ABOVE])
    lkey = loop_key(key, band)
    picked = np.empty(width, np.int64)
    for y in range(height):
        row = rows[y]
        above = rows[y - 1] if y > 0 else doors  # doors are 0/1: the north side is bit 0 there
        shift = 1 if y > 0 else 0
        base = _U64(y) * _U64(width)
        n: Int64 = 0
        west = np.int64(0)
        for x in range(width):  # the cells with at most one side open
            v = np.int64(row[x])
            sides = (v & 1) + ((v >> 1) & 1) + west + ((np.int64(above[x]) >> shift) & 1)
            picked[n] = x
            n += np.int64(sides <= 1)
            west = v & 1
        m: Int64 = 0
        for i in range(n):  # ... whose draw opens a loop
            x = picked[i]
            picked[m] = x
            m += np.int64((random_bits(lkey, base + _U64(x)) & _LOW32) < loop_below)
        for i in range(m):  # in scan order, each if it is still a dead end
            x = picked[i]
            if _open_sides(rows, y, x, doors) == 1:
                _braid_cell(rows, y, x, random_bits(lkey, base + _U64(x)), doors)
