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
from ._numba import _U64, _njit
from ._rng import _GOLDEN, _LOW32, _S32, mix64, random_bits


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
