"""The lean backend's plane: :func:`plane_region`, the drop-in of
:func:`eller_stream._plane_kernels.plane_region` (same arguments, same
bytes), with numpy and plain Python (docs/spec.md, section 8).

Every chunk a region needs is made at once: their rows side by side as one
long row whose sets never cross from one chunk to the next, each step of
Eller's rule for all of them with numpy, the joins with
:func:`eller_stream._lean_eller.join_east`'s union-find. The passages are
then turned into place and stored all at once; the doors of the levels
above are a few Python integers a level.

>>> import numpy as np
>>> from eller_stream import _lean_plane as lean, _plane_kernels as pk
>>> from eller_stream._numba import call
>>> from eller_stream._plane_params import PlaneParams
>>> from eller_stream._rng import seed_key
>>> th = PlaneParams().thresholds()
>>> a, b = np.empty((30, 40), np.uint8), np.empty((30, 40), np.uint8)
>>> lean.plane_region(a, seed_key(3), 4, True, -7, 2**62 - 20, th)
>>> call(pk.plane_region, b, seed_key(3), 4, True, -7, 2**62 - 20, th)
>>> bool((a == b).all())
True
"""

from __future__ import annotations

import numpy as np

from ._band_kernels import SEAM_SALT
from ._format import EAST, SOUTH
from ._lean_eller import join_east, last_cells, next_labels, roots
from ._plane_blocks import block_keys, door, place, salted, up
from ._plane_kernels import (
    TH_EXIT,
    TH_JOIN,
    TH_JOIN_FIRST,
    TH_JOIN_LAST,
    TH_OPEN,
    TH_OPEN_FIRST,
)
from ._rng import _GOLDEN, mix64_array

__all__ = ["plane_doors", "plane_region"]

U64 = np.uint64
LOW = U64(0xFFFFFFFF)


def chunk_cells(keys: np.ndarray, c: int, south: np.ndarray, east: np.ndarray, th: np.ndarray) -> np.ndarray:
    """The canonical chunks of ``keys`` (``_plane_kernels.chunk_cells``), all
    at once: an ``(n, c, c)`` uint8 array."""
    n = keys.shape[0]
    grid = np.zeros((n, c, c), np.uint8)
    labels = np.arange(n * c, dtype=np.int64)  # every cell its own set, numbered across the chunks
    cols = np.arange(c, dtype=U64)
    inner = np.ones((n, c), bool)
    inner[:, -1] = False  # no chunk joins its last cell to the next chunk's first
    chunk_of = np.repeat(np.arange(n), c)
    last_cell = np.arange(n) * c + c - 1
    for y in range(c):
        bits = mix64_array(keys[:, None] + (cols + U64(y * c)) * _GOLDEN)
        lo, hi = bits & LOW, bits >> U64(32)
        final = y == c - 1
        join = th[TH_JOIN_LAST] if final else th[TH_JOIN_FIRST] if y == 0 else th[TH_JOIN]
        opens = th[TH_OPEN_FIRST] if y == 0 and not final else th[TH_OPEN]
        wants_join = lo < join
        if final:
            wants_join |= ~south[:, None]  # a closing row joins every pair of different sets
        east_flags = np.zeros(n * c, np.uint8)
        candidates = np.flatnonzero(wants_join & inner)
        if candidates.size:
            parent = list(range(n * c))
            join_east(labels.tolist(), candidates.tolist(), parent, east_flags)
            root = roots(parent, labels)
        else:
            root = labels
        fire = east & ((lo[:, c - 1] < th[TH_EXIT]) | (final & ~south))
        east_flags[last_cell[fire]] = EAST
        done = fire[chunk_of] & (root == root[last_cell][chunk_of])  # the set that exits east
        wants = (hi < opens).ravel()
        ends = last_cells(root)
        if final:
            may = south[chunk_of] & ~done  # each set exits once: its first cell that opens, or its last
            opening = np.flatnonzero(may & wants)
            sets, first = np.unique(root[opening], return_index=True)
            went = np.zeros(n * c, bool)
            went[opening[first]] = True
            has = np.zeros(n * c, bool)
            has[sets] = True
            went |= may & ends & ~has[root]
        else:  # Eller's rule, the exiting set's cells closed
            other = np.zeros(n * c, bool)
            other[root[wants & ~ends]] = True
            went = (wants | (ends & ~other[root])) & ~done
        grid[:, y, :] = (east_flags | went.astype(np.uint8) * np.uint8(SOUTH)).reshape(n, c)
        if not final:
            labels = next_labels(root, went)
    return grid


def seam_doors(grid: np.ndarray, keys: np.ndarray, th: np.ndarray) -> None:
    """Without perfect: the doors of each chunk's east and south seams
    (``_plane_kernels.seam_doors``), into ``grid``."""
    c = grid.shape[1]
    places = np.arange(c, dtype=U64)
    for side, below in ((0, th[TH_EXIT]), (1, th[TH_OPEN])):
        q = salted(keys, side, SEAM_SALT)
        doors = (mix64_array(q[:, None] + places * _GOLDEN) & LOW) < below
        none = np.flatnonzero(~doors.any(axis=1))
        pick = ((mix64_array(q[none] + U64(c) * _GOLDEN) & LOW) * U64(c)) >> U64(32)
        doors[none, pick.astype(np.int64)] = True
        if side == 0:
            grid[:, :, c - 1] |= doors.astype(np.uint8) * np.uint8(EAST)
        else:
            grid[:, c - 1, :] |= doors.astype(np.uint8) * np.uint8(SOUTH)


def needed(h: int, w: int, c: int, perfect: bool, y0: int, x0: int) -> tuple[np.ndarray, np.ndarray]:
    """The chunks ``(cy, cx)`` that store a passage on a cell of the region
    (``_plane_kernels._chunk_row``'s choice)."""
    cys = np.arange(y0 // c, (y0 + h) // c + 1, dtype=np.int64)
    cxs = np.arange(x0 // c, (x0 + w) // c + 1, dtype=np.int64)
    cy, cx = (a.ravel() for a in np.meshgrid(cys, cxs, indexing="ij"))
    rows_in = cy <= (y0 + h - 1) // c
    cols_in = cx <= (x0 + w - 1) // c
    keep = rows_in & cols_in
    if perfect:
        keep |= (rows_in & (place(cx) > 0)) | (cols_in & (place(cy) > 0))
    return cy[keep], cx[keep]


def _store(out: np.ndarray, ys: np.ndarray, xs: np.ndarray, flag: int) -> None:
    h, w = out.shape
    keep = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    out[ys[keep], xs[keep]] |= np.uint8(flag)  # no cell gets one flag twice: each passage has one owner


def place_chunks(
    out: np.ndarray,
    grid: np.ndarray,
    tops: np.ndarray,
    lefts: np.ndarray,
    flip_v: np.ndarray,
    flip_h: np.ndarray,
) -> None:
    """Every chunk's passages turned into place and stored in ``out``
    (``_plane_kernels.place_chunk``, all chunks at once)."""
    c = grid.shape[1]
    i, y, x = np.nonzero(grid & EAST)
    _store(
        out, tops[i] + np.where(flip_v[i], c - 1 - y, y), lefts[i] + np.where(flip_h[i], c - 2 - x, x), EAST
    )
    i, y, x = np.nonzero(grid & SOUTH)
    _store(
        out, tops[i] + np.where(flip_v[i], c - 2 - y, y), lefts[i] + np.where(flip_h[i], c - 1 - x, x), SOUTH
    )


def plane_doors(out: np.ndarray, key: np.uint64, c: int, y0: int, x0: int) -> None:
    """The doors of the blocks of level >= 1 that store on a cell of ``out``
    (``_plane_kernels.plane_doors``), with Python integers."""
    h, w = out.shape
    ny0, ny1, nx0, nx1 = y0 // c, (y0 + h) // c, x0 // c, (x0 + w) // c
    level = 0
    while True:
        level += 1
        ny0, ny1, nx0, nx1 = up(ny0), up(ny1), up(nx0), up(nx1)
        if ny0 == ny1 and nx0 == nx1:
            return
        for jy in range(ny0, ny1 + 1):
            for jx in range(nx0, nx1 + 1):
                found = door(int(key), c, level, jy, jx)
                if found is not None and 0 <= found[0] - y0 < h and 0 <= found[1] - x0 < w:
                    out[found[0] - y0, found[1] - x0] |= np.uint8(found[2])


def plane_region(
    out: np.ndarray, key: np.uint64, c: int, perfect: bool, y0: int, x0: int, th: np.ndarray
) -> None:
    """:func:`eller_stream._plane_kernels.plane_region`, the lean way."""
    with np.errstate(over="ignore"):  # uint64 wrap-around is intended (also when called for a cold kernel)
        _region(out, key, int(c), bool(perfect), int(y0), int(x0), th)


def _region(out: np.ndarray, key: np.uint64, c: int, perfect: bool, y0: int, x0: int, th: np.ndarray) -> None:
    h, w = out.shape
    out[:] = 0
    cy, cx = needed(h, w, c, perfect, y0, x0)
    if cy.size:
        keys = block_keys(U64(key), 0, cy, cx)
        dy, dx = (place(cy), place(cx)) if perfect else (np.zeros_like(cy), np.zeros_like(cx))
        grid = chunk_cells(keys, c, dy != 0, dx != 0, th)
        if not perfect:
            seam_doors(grid, keys, th)
        place_chunks(out, grid, cy * c - y0, cx * c - x0, dy > 0, dx > 0)
    if perfect:
        plane_doors(out, U64(key), c, y0, x0)
