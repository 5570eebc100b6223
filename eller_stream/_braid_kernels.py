"""Numba kernels of the banded maze's loops (the braid).

Loops (the braid): a band's rows post-processed in place, once the whole
band is made.  Cell (y, x) of band b draws ``random_bits(loop_key(key, b),
y*width + x)``: if it is a dead end when the row-major scan reaches it and
the low 32 bits are below ``th[TH_LOOP]``, it opens one more wall to a
neighbour inside the band, a dead end itself if one is (Jamis Buck's braid
rule), chosen by the high 32 bits among the candidates in the order north,
south, west, east.  The seams are never touched, so every band still
leaves through its doors and the detour stays within the band.

The scan is made a row at a time on bit planes: a uint64 word per 64
columns (bit ``x % 64`` of word ``x // 64``), one plane per fact of the row
(an open side, a dead end, a draw's bit, a choice).  Within a row, a cell's
choice depends on the cells scanned before it only through its west
neighbour (is it still a dead end?) and through itself (did the west
neighbour open into it?); everything else is known when the row starts.
So each cell's choice is worked out for both cases, 64 cells a word
(:func:`_choose`), and which candidates open east, the one fact that runs
along the row, is a recurrence solved a word at a time: no cell is taken
alone, no branch depends on the maze.  ``docs/internals.md`` gives the
argument.
"""

from __future__ import annotations

import numpy as np

from ._band_kernels import LOOP_SALT, TH_DOOR_ABOVE, TH_LOOP, seam_doors
from ._format import EAST, SOUTH
from ._numba import _U64, Int64, _njit, bits_of, low_bits, or_at_bits
from ._rng import _GOLDEN, _LOW32, _S32, DRAW_STEP, draw_point, mix64


@_njit(inline="always")
def loop_key(key: np.uint64, band: np.uint64) -> np.uint64:
    """The generator key of band ``band``'s loops."""
    return mix64(_U64(key) ^ mix64(_U64(band) * _GOLDEN + LOOP_SALT))


_ALL = _U64(0xFFFFFFFFFFFFFFFF)
_Z = _U64(0)
_1 = _U64(1)
_2 = _U64(2)
_3 = _U64(3)
_62 = _U64(62)
_63 = _U64(63)
_ODD = _U64(0xAAAAAAAAAAAAAAAA)  # the odd columns of a word
# Of a dead end with three candidates, the k-th is taken, k = (high 32 bits * 3) >> 32:
# k >= 1 from high 32 bits _K3_1 on, k = 2 from _K3_2 on.
_K3_1 = _U64((2**32 + 2) // 3)
_K3_2 = _U64((2**33 + 2) // 3)

# The planes of a row (rows of ``pl``):
_E0 = 0  # its EAST flags, as made
_S0 = 1  # its SOUTH flags, as made
_E1 = 2  # the next row's EAST flags, as made
_S1 = 3  # the next row's SOUTH flags, as made
_NOPEN = 4  # its north walls open (the row above's SOUTH flags, braided)
_FD = 5  # the row above's dead ends, braided
_OK = 6  # a draw that opens a loop (low 32 bits below the threshold)
_H31 = 7  # the draw's top bit (k of two candidates)
_K3A = 8  # k = 1 of three candidates
_K3B = 9  # k = 2 of three candidates
_AD = 10  # its dead ends before its scan
_WD = 11  # the west neighbour in _AD
_CAND = 12  # candidates: in _AD, with a draw in _OK
_AN, _AS, _AW, _AE = 13, 14, 15, 16  # the side chosen if the west neighbour is a dead end
_BN, _BS, _BW, _BE = 17, 18, 19, 20  # the side chosen if it is not
_BR = 21  # braided
_WDR = 22  # the west neighbour a dead end when scanned
_SN, _SS, _SW, _SE = 23, 24, 25, 26  # the side opened
_PE = 27  # EAST flags to add to the row above (written once the row below is scanned)
_PS = 28  # SOUTH flags to add to the row above
BRAID_PLANES = _PLANES = 29


@_njit(inline="always")
def _one_of(a: np.uint64, b: np.uint64, c: np.uint64, d: np.uint64) -> np.uint64:
    """Where exactly one of the four planes is set."""
    return ((a | b) ^ (c | d)) & ~((a & b) | (c & d))


@_njit(inline="always")
def _choose(
    cn: np.uint64,
    cs: np.uint64,
    cw: np.uint64,
    ce: np.uint64,
    qn: np.uint64,
    qs: np.uint64,
    qw: np.uint64,
    qe: np.uint64,
    h31: np.uint64,
    k3a: np.uint64,
    k3b: np.uint64,
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The side each dead end of a word opens (a plane a side: N, S, W, E).

    Of its candidates ``c*`` (at most three: a dead end has one side open),
    the dead ones ``q*`` if any, else all; of those the k-th in the order N,
    S, W, E, k = (high 32 bits of its draw * their count) >> 32, given as
    bits: ``h31`` (k of two), ``k3a`` / ``k3b`` (k = 1 / k = 2 of three)."""
    q = qn | qs | qw | qe
    pn = qn | (cn & ~q)
    ps = qs | (cs & ~q)
    pw = qw | (cw & ~q)
    pe = qe | (ce & ~q)
    sab = pn ^ ps  # of N and S, how many: sab + 2 * cab
    cab = pn & ps
    x1 = sab ^ pw  # of N, S and W, how many: x1 + 2 * x2
    x2 = cab | (sab & pw)
    e1 = x1 & ~x2
    e2 = x2 & ~x1
    two = (e2 & ~pe) | (e1 & pe)
    three = (x1 & x2) | (e2 & pe)
    k_lo = (two & h31) | (three & k3a)  # k = k_lo + 2 * k_hi
    k_hi = three & k3b
    sn = pn & ~(k_lo | k_hi)  # a side is taken when k is the count of the pool's sides before it
    ss = ps & ~k_hi & ~(k_lo ^ pn)
    sw = pw & ~(k_hi ^ cab) & ~(k_lo ^ sab)
    se = pe & ~(k_hi ^ x2) & ~(k_lo ^ x1)
    return sn, ss, sw, se


@_njit(inline="always")
def draw_codes(codes: np.ndarray, lkey: np.uint64, loop_below: np.uint64, n: Int64) -> None:
    """Each of a band's ``n`` cells' draws (``random_bits(lkey, c)``, row by
    row) as the 4 bits the scan reads, into ``codes``: a loop LLVM vectorises
    (a sum a cell)."""
    point = draw_point(lkey, _Z)
    for c in range(n):
        d = mix64(point)
        point += DRAW_STEP
        codes[c] = np.uint8(
            (((d & _LOW32) - loop_below) >> _63)  # _OK
            | ((d >> _63) << _1)  # _H31
            | ((((d >> _S32) - _K3_1) >> _63) << _2)  # k < 1 of three
            | ((((d >> _S32) - _K3_2) >> _63) << _3)  # k < 2 of three
        )


@_njit(inline="always")
def _west(pl: np.ndarray, p: int, i: int, by: np.uint64) -> np.uint64:
    """Word ``i`` of plane ``p`` moved ``by`` (1 or 2) columns east: each
    cell sees the bit of the cell ``by`` to its west."""
    word: np.uint64 = (pl[i, p] << by) | ((pl[i - 1, p] >> (_U64(64) - by)) if i > 0 else _Z)
    return word


@_njit(inline="always")
def _east(pl: np.ndarray, p: int, i: int) -> np.uint64:
    """Word ``i`` of plane ``p`` moved a column west: each cell sees the bit
    of its east neighbour (``pl`` ends with a zero word)."""
    word: np.uint64 = (pl[i, p] >> _1) | (pl[i + 1, p] << _63)
    return word


@_njit(inline="always")
def _or_flags(flat: np.ndarray, at: int, east: np.uint64, south: np.uint64) -> None:
    """``flat[at + i] |= EAST`` where bit i of ``east`` is set, ``SOUTH``
    where bit i of ``south`` is (``flat``: the band's rows, one after
    another, and 64 bytes more: past the row, the next one's bytes or the
    padding, ORed with nothing)."""
    or_at_bits(flat, at, east, EAST)
    or_at_bits(flat, at, south, SOUTH)


@_njit(inline="always")
def _scan(
    flat: np.ndarray,
    doors: np.ndarray,
    codes: np.ndarray,
    pl: np.ndarray,
    height: int,
    width: int,
    nw: int,
) -> None:
    """The scan of :func:`band_braid`, row by row, on ``nw`` words a row
    (inlined twice: with ``nw`` 1, a constant, for rows of up to 64 cells);
    ``flat`` (the band's rows) and ``doors`` end with 64 zero bytes."""
    for i in range(nw):
        pl[i, _NOPEN] = bits_of(doors, i * 64, 1)
        pl[i, _E0] = bits_of(flat, i * 64, EAST)
        pl[i, _S0] = bits_of(flat, i * 64, SOUTH)
    for y in range(height):
        last = y == height - 1
        for i in range(nw):  # the next row's flags, this row's draws and its dead ends
            at = (y + 1) * width + i * 64
            pl[i, _E1] = _Z if last else bits_of(flat, at, EAST)
            pl[i, _S1] = _Z if last else bits_of(flat, at, SOUTH)
            at = y * width + i * 64
            pl[i, _OK] = bits_of(codes, at, 1)
            pl[i, _H31] = bits_of(codes, at, 2)
            below_1 = bits_of(codes, at, 4)
            below_2 = bits_of(codes, at, 8)
            pl[i, _K3A] = ~below_1 & below_2
            pl[i, _K3B] = ~below_2
            valid = low_bits(min(64, width - i * 64))
            pl[i, _E1] &= valid
            pl[i, _S1] &= valid
            pl[i, _E0] &= valid  # row 0's (the others come from _E1)
            pl[i, _S0] &= valid
            pl[i, _AD] = _one_of(pl[i, _NOPEN], pl[i, _S0], pl[i, _E0], _west(pl, _E0, i, _1)) & valid
        for i in range(nw):  # each dead end's choice, with its west neighbour dead (A) or not (B)
            valid = low_bits(min(64, width - i * 64))
            inside_e = valid if i < nw - 1 else (valid >> _1)  # the last column has no east neighbour
            inside_w = _ALL if i > 0 else ~_1
            cn = (_Z if y == 0 else valid) & ~pl[i, _NOPEN]
            cs = (_Z if last else valid) & ~pl[i, _S0]
            cw = inside_w & valid & ~_west(pl, _E0, i, _1)
            ce = inside_e & ~pl[i, _E0]
            ds = _Z if last else _one_of(pl[i, _S0], pl[i, _S1], pl[i, _E1], _west(pl, _E1, i, _1)) & valid
            qn = cn & pl[i, _FD]
            qs = cs & ds
            qe = ce & _east(pl, _AD, i)
            h31, k3a, k3b = pl[i, _H31], pl[i, _K3A], pl[i, _K3B]
            pl[i, _AN], pl[i, _AS], pl[i, _AW], pl[i, _AE] = _choose(
                cn, cs, cw, ce, qn, qs, cw, qe, h31, k3a, k3b
            )
            pl[i, _BN], pl[i, _BS], pl[i, _BW], pl[i, _BE] = _choose(
                cn, cs, cw, ce, qn, qs, _Z, qe, h31, k3a, k3b
            )
            pl[i, _WD] = _west(pl, _AD, i, _1)
            pl[i, _CAND] = pl[i, _AD] & pl[i, _OK] & (cn | cs | cw | ce)
        # Which candidates open east, E: a recurrence along the row.  A candidate after a
        # candidate opens east if its choice says so (BE) and the one before it did not: along such
        # links E alternates from the candidate that starts them.  A start opens east as its draw
        # says (never, after a candidate), which for a run's first candidate turns on its west
        # neighbour being still a dead end: on E two cells west.  docs/internals.md says more.
        e_west = c_west = w = _Z  # word i - 1's E, candidates, and spread (bit 63: into word i)
        for i in range(nw):
            cand, ae, be, wdp = pl[i, _CAND], pl[i, _AE], pl[i, _BE], pl[i, _WD]
            c1 = (cand << _1) | (c_west >> _63)
            links = cand & c1 & be  # E(x) = not E(x - 1)
            starts = cand & ~links  # E(x) = 0 where a candidate is west, else the draw's
            firsts = cand & ~c1
            wdf = wdp & firsts
            turns = wdf & (ae ^ be)  # the starts whose E turns on E two cells west
            carry = (w >> _63) & links & _1
            e = _Z
            while True:
                wd = wdf & ~((e << _2) | (e_west >> _62))
                at = firsts & ((wd & ae) | (~wd & be))  # each start's E
                even = (at ^ _ODD) & starts  # the starts whose chain has E on its even columns
                w = even | (((links + ((even << _1) & links) + carry) ^ links) & links)  # spread on
                solved = cand & (w ^ _ODD)
                again = ((solved ^ e) << _2) & turns
                e = solved
                if again == _Z:
                    break
            pl[i, _BR] = cand & ~((e << _1) | (e_west >> _63))
            pl[i, _WDR] = wdp & ~c1 & ~((e << _2) | (e_west >> _62))
            e_west, c_west = e, cand
        for i in range(nw):  # the sides opened
            br, wd = pl[i, _BR], pl[i, _WDR]
            pl[i, _SN] = br & ((wd & pl[i, _AN]) | (~wd & pl[i, _BN]))
            pl[i, _SS] = br & ((wd & pl[i, _AS]) | (~wd & pl[i, _BS]))
            pl[i, _SW] = br & ((wd & pl[i, _AW]) | (~wd & pl[i, _BW]))
            pl[i, _SE] = br & ((wd & pl[i, _AE]) | (~wd & pl[i, _BE]))
        for i in range(nw):  # the row above's flags written; the next row's planes
            if y > 0:
                _or_flags(flat, (y - 1) * width + i * 64, pl[i, _PE], pl[i, _PS] | pl[i, _SN])
            pl[i, _PE] = pl[i, _SE] | _east(pl, _SW, i)
            pl[i, _PS] = pl[i, _SS]
            pl[i, _FD] = pl[i, _AD] & ~pl[i, _BR] & ~_west(pl, _SE, i, _1) & ~_east(pl, _SW, i)
            pl[i, _NOPEN] = pl[i, _S0] | pl[i, _SS]
            pl[i, _E0] = pl[i, _E1]
            pl[i, _S0] = pl[i, _S1]
    for i in range(nw):
        _or_flags(flat, (height - 1) * width + i * 64, pl[i, _PE], pl[i, _PS])


@_njit
def band_braid(
    rows: np.ndarray, key: np.uint64, band: np.uint64, th: np.ndarray, doors: np.ndarray, above: np.ndarray
) -> None:
    """Open loops in the whole band ``rows`` (``(band_height, width)``,
    C-contiguous) of band ``band``, in place; nothing when ``th[TH_LOOP]``
    is 0.  ``doors`` (``width`` entries) is scratch: it takes the doors of
    seam ``band``, read off ``above`` (the band above's last row, whose south
    walls open at exactly those doors) when it is given (``width`` entries,
    else empty).

    Row y is scanned in passes over its words, after rows 0 .. y - 1: its
    dead ends and each one's choice in both cases of its west neighbour;
    which candidates open east (word by word, west to east, a word worked
    out again while a run's start read a bit that changed); the sides
    opened; the next row's planes.  A row's flags are written once the row
    below is scanned (which may open its south walls)."""
    if _U64(th[TH_LOOP]) == _Z:
        return
    height, width = rows.shape
    pl = np.zeros(((width + 63) // 64 + 1, _PLANES), np.uint64)  # word i of each plane; then a zero word
    buf = np.empty(braid_bytes(height, width), np.uint8)
    braid_in(rows, key, band, th, doors, above, pl, buf)


@_njit(inline="always")
def braid_bytes(height: int, width: int) -> Int64:
    """The bytes of :func:`braid_in`'s ``buf`` for a band of ``height`` rows
    of ``width``: the band, its doors and its draws, each with 64 more."""
    return 2 * height * width + width + 192


@_njit(refcounts=False)
def braid_in(
    rows: np.ndarray, key: np.uint64, band: np.uint64, th: np.ndarray, doors: np.ndarray, above: np.ndarray,
    pl: np.ndarray, buf: np.ndarray,
) -> None:  # fmt: skip
    """:func:`band_braid` in its scratch (``pl``: the planes, zeros, ``(nw + 1, BRAID_PLANES)``; ``buf``:
    :func:`braid_bytes`), without reference counts."""
    loop_below = _U64(th[TH_LOOP])
    height, width = rows.shape
    if above.shape[0] == width:
        for x in range(width):
            doors[x] = (above[x] >> 1) & 1
    else:
        seam_doors(doors, key, _U64(band), th[TH_DOOR_ABOVE])
    lkey = loop_key(key, band)
    nw = (width + 63) // 64
    n = height * width
    # The rows and the doors with 64 zero bytes after them: a word of any
    # row is one 64-byte load or store, the band's last too.  (Copied by a
    # loop over the band as one row, which LLVM vectorises: numba's slice
    # assignment copies a byte at a time, and a loop a row at a time, over
    # rows as short as 24 cells, cost a third of a narrow band's braid.)
    cells = rows.reshape(n)  # C-contiguous: a view
    flat = buf[: n + 64]
    for c in range(n):
        flat[c] = cells[c]
    seam = buf[n + 64 : n + width + 128]
    for x in range(width):
        seam[x] = doors[x]
    for i in range(64):
        flat[n + i] = 0
        seam[width + i] = 0
    codes = buf[n + width + 128 :]
    draw_codes(codes, lkey, loop_below, n)
    if nw == 1:  # the same scan, its loops over words gone
        _scan(flat, seam, codes, pl, height, width, 1)
    else:
        _scan(flat, seam, codes, pl, height, width, nw)
    for c in range(n):
        cells[c] = flat[c]
