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
from ._eller_kernels import row_draws
from ._format import EAST, SOUTH
from ._numba import _U64, Int64, _njit
from ._rng import _GOLDEN, _LOW32, _S32, mix64


@_njit(inline="always")
def loop_key(key: np.uint64, band: np.uint64) -> np.uint64:
    """The generator key of band ``band``'s loops."""
    return mix64(_U64(key) ^ mix64(_U64(band) * _GOLDEN + LOOP_SALT))


# A cell's open sides as 4 bits, in the order of the candidates, and a mark for the cells of
# the frame around a band (never a candidate):
_N, _S, _W, _E, _OUT = 1, 2, 4, 8, 16


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The braid's lookup tables (made once, at import; numba freezes them
    into the kernel):

    * ``near[d, v]``: for a neighbour in direction ``d`` (bit ``1 << d``)
      with sides ``v``: bit d if it lies inside the band, bit d + 4 if it is
      also a dead end;
    * ``count[c | dead << 4]``, ``side[(c | dead << 4) * 4 + k]``: of a dead
      end's candidates ``c`` (the dead ones ``dead``), the pool (the dead
      ones if any, else all): how many, and its k-th (from the lowest bit)."""
    near = np.zeros((4, 32), np.uint8)
    for d in range(4):
        for v in range(32):
            if not v & _OUT:
                near[d, v] = (1 << d) | ((bin(v).count("1") == 1) << (d + 4))
    count = np.zeros(256, np.uint8)
    side = np.zeros(256 * 4, np.uint8)
    for c in range(16):
        for dead in range(16):
            pool = (dead & c) or c
            bits = [1 << d for d in range(4) if pool >> d & 1]
            count[c | dead << 4] = len(bits)
            for k, b in enumerate(bits):
                side[(c | dead << 4) * 4 + k] = b
    return near, count, side


_NEAR, _COUNT, _SIDE = _tables()


@_njit
def _band_sides(rows: np.ndarray, doors_above: np.ndarray, sides: np.ndarray) -> None:
    """The open sides of each cell of a band's rows (bits ``_N``, ``_S``,
    ``_W``, ``_E``) into ``sides[1 : K + 1, 1 : width + 1]`` (``sides`` is
    ``(K + 2, width + 2)``: a frame around the band, marked ``_OUT``, so
    that neighbours need no bounds check).  North of the band's first row:
    the doors of the seam above; south of its last: its own ``SOUTH`` flags.
    Loops over whole rows without a branch (vectorised)."""
    height, width = rows.shape
    top = sides[0]  # until the end: the seam's doors as a row's south walls, the row above the first
    for x in range(width):
        top[x] = (doors_above[x] & 1) << 1
    for y in range(height):
        row = rows[y]
        above = rows[y - 1] if y > 0 else top
        open_ = sides[y + 1]
        open_[0] = _OUT
        open_[width + 1] = _OUT
        open_[1] = ((above[0] >> 1) & 1) | (row[0] & SOUTH) | ((row[0] & EAST) << 3)
        for x in range(1, width):
            v = row[x]
            open_[x + 1] = (
                ((above[x] >> 1) & 1) | (v & SOUTH) | ((v & EAST) << 3) | ((row[x - 1] & EAST) << 2)
            )
    bottom = sides[height + 1]
    for x in range(width + 2):
        top[x] = _OUT
        bottom[x] = _OUT


@_njit
def band_braid(
    rows: np.ndarray, key: np.uint64, band: np.uint64, th: np.ndarray, doors: np.ndarray, above: np.ndarray
) -> None:
    """Open loops in the whole band ``rows`` (``(band_height, width)``) of
    band ``band``, in place; nothing when ``th[TH_LOOP]`` is 0.  ``doors``
    (``width`` entries) is scratch: it takes the doors of seam ``band``,
    read off ``above`` (the band above's last row, whose south walls open at
    exactly those doors) when it is given (``width`` entries, else empty).

    The scan is row-major, each cell's open sides read as the scan has left
    them (kept as bits, :func:`_band_sides`).  Opening walls only takes dead
    ends away, so a row's candidates can be listed first, without a branch
    (a cell with at most one side open whose draw opens a loop), then taken
    in order, each braided if it is still a dead end: the same walls as a
    cell-by-cell scan, without its unpredictable branches.

    A braided cell's candidates and their choice come from lookup tables
    (:func:`_tables`).  The loop body is written out here, not called: numba
    counts the references of arrays passed to an inlined function.  Indices
    are unsigned: no negative-index wrap code."""
    loop_below = _U64(th[TH_LOOP])
    if loop_below == _U64(0):
        return
    height, width = rows.shape
    if above.shape[0] == width:
        for x in range(width):
            doors[x] = (above[x] >> 1) & 1
    else:
        seam_doors(doors, key, _U64(band), th[TH_DOOR_ABOVE])
    lkey = loop_key(key, band)
    framed = np.empty((height + 2, width + 2), np.uint8)
    _band_sides(rows, doors, framed)
    sides = framed.reshape(-1)  # cell (y, x) at (y + 1) * stride + x + 1
    flat = rows.reshape(-1)  # cell (y, x) at y * width + x
    stride = _U64(width + 2)
    picked = np.empty(width, np.int64)
    draws = np.empty(width, np.uint64)
    listed = np.empty(width, np.uint8)
    for y in range(height):
        base = _U64(y) * _U64(width)
        at = _U64(y + 1) * stride + _U64(1)
        row_draws(draws, lkey, base)
        for x in range(width):  # vectorised: whether each cell is a candidate
            v = np.int64(sides[at + _U64(x)])
            listed[x] = np.uint8((v & (v - 1)) == 0) & np.uint8((draws[x] & _LOW32) < loop_below)
        m: Int64 = 0
        for x in range(width):  # the candidates: at most one side open, and a draw that opens a loop
            picked[m] = x
            m += np.int64(listed[x])
        for i in range(m):  # in scan order, each if it is still a dead end
            c = _U64(picked[i])
            s = at + c
            here = np.int64(sides[s])
            if here == 0 or here & (here - 1):
                continue
            near = (
                np.int64(_NEAR[0, sides[s - stride]])
                | np.int64(_NEAR[1, sides[s + stride]])
                | np.int64(_NEAR[2, sides[s - _U64(1)]])
                | np.int64(_NEAR[3, sides[s + _U64(1)]])
            )
            cand = near & ~here & 15
            choice = _U64(cand | (near & (cand << 4)))
            count = _U64(_COUNT[choice])
            if count == 0:
                continue
            k = ((draws[c] >> _S32) * count) >> _S32
            side = np.int64(_SIDE[choice * _U64(4) + k])
            up, down, left, right = side & _N, (side >> 1) & 1, (side >> 2) & 1, side >> 3
            flat[base + c - _U64(up * width + left)] |= np.uint8(SOUTH * (up | down) + EAST * (left | right))
            sides[s] = np.uint8(here | side)
            other = s + _U64((down - up) * np.int64(stride) + right - left)
            sides[other] |= np.uint8(((side & 5) << 1) | ((side & 10) >> 1))  # the opposite side
