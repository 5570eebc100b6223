"""Eller's rows on bit planes, 64 cells a word: the rows of
:func:`._eller_kernels.eller_rows`, byte for byte, made about twice as fast
on wide rows (``docs/internals.md``, "Eller on bit planes").

A row's sets are kept as two planes, a bit a cell (bit ``x % 64`` of word
``x // 64``): ``P``, the cell has an earlier cell in its set, and ``N``, a
later one.  Sets never cross, so the depth at a gap (how many sets are open
across it) is a prefix sum of the opens (``~P & N``) less the closes
(``P & ~N``); it is kept as four planes (:func:`_depths`), and a row whose
sets nest deeper than 15 is left to the lists.  A row is then:

1. ``conn``: each cell is connected, through the gaps before it, to the
   innermost set open across the gap after it (a wall since that set's last
   cell, per depth, smeared by the carries of one addition: :func:`_conn`).
   The joins are the draws, except where x + 1 continues a set that x is
   connected to already.
2. The final sets (after the joins): a cell has a later cell in its final
   set when ``N | J | conn``; an earlier one when ``P``, the join before it,
   or the same smear made on the row reversed (bits reversed a word).
3. The south walls: a cell closes as drawn, except the last cell of a final
   set, which stays open when every other cell of it closed: "an open draw
   earlier in the final set" is a fill per depth (:func:`_fill`).  The next
   row's ``P`` is that fill on the open cells; its ``N`` the fill made on
   the row reversed.

Cell ``i`` of the stream draws ``random_bits(key, i)`` as the lists do: the
low 32 bits its east wall, the high 32 bits its south wall.
"""

from __future__ import annotations

import numpy as np

from ._depth_lanes import LANES, _eq, _ones, conn_pass, fill_pass
from ._numba import _U64, Int64, _njit, low_bits
from ._planes_io import draw_masks, store_word
from ._rng import DRAW_STEP, draw_point

PLANES_FROM = 22  # the narrowest row made on planes: narrower, the lists are faster
DEEPEST = 15  # depths 0 .. 15 in four planes
NARROW = 2  # rows of up to this many words take their depths a word at a time

# What a band's rooms ask of a row (``planes_rows``' ``rooms``, a plane each):
ROOM_JOINS = 0  # the cell joins its east neighbour's set before the row (a room's top row)
ROOM_OPEN = 1  # its south wall lies inside a room: never closes
ROOM_CLOSE = 2  # it lies above a room's top row: closes whenever it may
ROOM_EAST = 3  # its east wall lies inside a room: opened after the row (the room is one set)
ROOM_PLANES = 4

ROW_WORDS = 17  # the rows of words planes_rows works in
SCRATCH_ROWS = 1 + ROW_WORDS + 8  # planes_rows' scratch (scratch_rows) as rows of nw + 1 words
SETS_WORDS = 2 + SCRATCH_ROWS  # the sets P, N and planes_rows' scratch, as rows of nw + 1 words

_Z = _U64(0)
_1 = _U64(1)
_63 = _U64(63)


@_njit(inline="always")
def _add4(
    a0: np.uint64, a1: np.uint64, a2: np.uint64, a3: np.uint64,
    b0: np.uint64, b1: np.uint64, b2: np.uint64, b3: np.uint64,
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:  # fmt: skip
    """Four-bit numbers, a plane a bit, added lane by lane (mod 16)."""
    s0 = a0 ^ b0
    c = a0 & b0
    t = a1 ^ b1
    s1 = t ^ c
    c = (a1 & b1) | (c & t)
    t = a2 ^ b2
    s2 = t ^ c
    c = (a2 & b2) | (c & t)
    return s0, s1, s2, a3 ^ b3 ^ c


@_njit(inline="always")
def _popcount(w: np.uint64) -> Int64:
    """The set bits of ``w`` (LLVM makes it one ``popcnt``)."""
    w = w - ((w >> _1) & _U64(0x5555555555555555))
    w = (w & _U64(0x3333333333333333)) + ((w >> _U64(2)) & _U64(0x3333333333333333))
    w = (w + (w >> _U64(4))) & _U64(0x0F0F0F0F0F0F0F0F)
    return np.int64((w * _U64(0x0101010101010101)) >> _U64(56))


@_njit(inline="always")
def _rev(w: np.uint64) -> np.uint64:
    """The bits of ``w`` reversed (LLVM sees ``llvm.bitreverse``)."""
    w = ((w >> _1) & _U64(0x5555555555555555)) | ((w & _U64(0x5555555555555555)) << _1)
    w = ((w >> _U64(2)) & _U64(0x3333333333333333)) | ((w & _U64(0x3333333333333333)) << _U64(2))
    w = ((w >> _U64(4)) & _U64(0x0F0F0F0F0F0F0F0F)) | ((w & _U64(0x0F0F0F0F0F0F0F0F)) << _U64(4))
    w = ((w >> _U64(8)) & _U64(0x00FF00FF00FF00FF)) | ((w & _U64(0x00FF00FF00FF00FF)) << _U64(8))
    w = ((w >> _U64(16)) & _U64(0x0000FFFF0000FFFF)) | ((w & _U64(0x0000FFFF0000FFFF)) << _U64(16))
    return (w >> _U64(32)) | (w << _U64(32))


@_njit(inline="always")
def _depths(P: np.ndarray, N: np.ndarray, nw: Int64, D: np.ndarray, base: np.ndarray) -> Int64:
    """``D[:, i]``: the depth after each cell of word i (the sets open across
    the gap after it) as four planes.  Returns the row's greatest depth, or
    -1 when it is deeper than ``DEEPEST`` (``D`` then of no use).  ``base``
    (``nw`` int64s) is scratch."""
    if nw <= NARROW:
        return _depths_by_word(P, N, nw, D)
    return _depths_by_pass(P, N, nw, D, base)


@_njit(inline="always")
def _word_depths(
    p: np.uint64, n: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """A word's opens (``~p & n``), its closes (``p & ~n``) and the depth
    after each cell counted from the word's start (four planes, mod 16): a
    prefix sum of +1 at the opens and -1 (1111) at the closes, by doubling."""
    opens = ~p & n
    closes = p & ~n
    d0, d1, d2, d3 = opens | closes, closes, closes, closes
    for s in (1, 2, 4, 8, 16, 32):
        sh = _U64(s)
        d0, d1, d2, d3 = _add4(d0, d1, d2, d3, d0 << sh, d1 << sh, d2 << sh, d3 << sh)
    return opens, closes, d0, d1, d2, d3


@_njit(inline="always")
def _depths_by_word(P: np.ndarray, N: np.ndarray, nw: Int64, D: np.ndarray) -> Int64:
    """:func:`_depths` a word at a time, the depth before each word carried
    in a register: a narrow row's way (no vector iterations to win)."""
    depth: Int64 = 0
    most: Int64 = 0
    for i in range(nw):
        opens, closes, d0, d1, d2, d3 = _word_depths(P[i], N[i])
        k0, k1, k2, k3 = _ones(depth, 0), _ones(depth, 1), _ones(depth, 2), _ones(depth, 3)
        d0, d1, d2, d3 = _add4(d0, d1, d2, d3, k0, k1, k2, k3)  # plus the depth before the word
        if opens & _eq(d0, d1, d2, d3, 0) != _Z:  # depth 16 (it moves by one a cell)
            return -1
        D[0, i] = d0
        D[1, i] = d1
        D[2, i] = d2
        D[3, i] = d3
        most = max(most, _deepest(d0, d1, d2, d3), depth)
        depth += _popcount(opens) - _popcount(closes)
    return most


@_njit(inline="always")
def _depths_by_pass(P: np.ndarray, N: np.ndarray, nw: Int64, D: np.ndarray, base: np.ndarray) -> Int64:
    """:func:`_depths` in three passes over the words: each word's own
    prefix sums from depth 0, the depth before each word, that depth added.
    The first and the last pass carry nothing from word to word, so LLVM
    makes them several words at a time (8 with AVX-512, ``vpopcntq`` for
    the counts)."""
    for i in range(nw):
        opens, closes, d0, d1, d2, d3 = _word_depths(P[i], N[i])
        D[0, i] = d0
        D[1, i] = d1
        D[2, i] = d2
        D[3, i] = d3
        base[i] = _popcount(opens) - _popcount(closes)
    depth: Int64 = 0
    for i in range(nw):
        step = base[i]
        base[i] = depth
        depth += step
    most: Int64 = 0
    deeper = _Z
    for i in range(nw):
        k = base[i]
        d0, d1, d2, d3 = _add4(
            D[0, i], D[1, i], D[2, i], D[3, i], _ones(k, 0), _ones(k, 1), _ones(k, 2), _ones(k, 3)
        )
        deeper |= ~P[i] & N[i] & _eq(d0, d1, d2, d3, 0)  # depth 16 at an open (it moves by one a cell)
        D[0, i] = d0
        D[1, i] = d1
        D[2, i] = d2
        D[3, i] = d3
        most = max(most, _deepest(d0, d1, d2, d3), k)
    return -1 if deeper != _Z else most


@_njit(inline="always")
def _deepest(d0: np.uint64, d1: np.uint64, d2: np.uint64, d3: np.uint64) -> Int64:
    """The greatest of a word's four-plane numbers."""
    most: Int64 = 0
    live = _Z - _1
    for b, plane in ((3, d3), (2, d2), (1, d1), (0, d0)):
        hit = live & plane
        nz = np.int64(hit != _Z)
        most |= nz << b
        live = hit if nz else live
    return most


@_njit(inline="always")
def _reversed(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, ra: np.ndarray, rb: np.ndarray, rc: np.ndarray,
    D: np.ndarray, R: np.ndarray, nw: Int64,
) -> None:  # fmt: skip
    """The row reversed for the passes from the right, in one loop (one
    pass over the words, not seven).  ``ra``, ``rb``, ``rc``: the words of
    ``a``, ``b``, ``c`` reversed, bit b of word k to bit 63 - b of word
    nw - 1 - k (the padding past the last cell comes first: cells of no set,
    at depth 0).  ``R``: the depth planes ``D`` reversed, at each cell the
    depth across the gap before it."""
    for k in range(nw):
        i = nw - 1 - k
        ra[k] = _rev(a[i])
        rb[k] = _rev(b[i])
        rc[k] = _rev(c[i])
        for q in range(4):
            w = D[q, i] << _1
            if i > 0:
                w |= D[q, i - 1] >> _63
            R[q, k] = _rev(w)
    ra[nw] = _Z
    rb[nw] = _Z
    rc[nw] = _Z


@_njit(inline="always")
def _conn(
    P: np.ndarray, N: np.ndarray, D: np.ndarray, most: Int64, wall: np.ndarray, out: np.ndarray, nw: Int64
) -> None:
    """``out``: each cell connected, through the gaps before it (``wall``: a
    bit a gap, the gap after it closed), to the innermost set open across
    the gap after it."""
    for g in range(1, max(most, 1) + 1, LANES):  # depths 1 .. most, eight at a time
        conn_pass(P, N, D, wall, out, nw, g)


@_njit(inline="always")
def _fill(
    P: np.ndarray, N: np.ndarray, D: np.ndarray, most: Int64, src: np.ndarray, out: np.ndarray, nw: Int64
) -> None:
    """``out``: each cell has an earlier cell of its set in ``src``."""
    for g in range(1, max(most, 1) + 1, LANES):
        fill_pass(P, N, D, src, out, nw, g)


@_njit(refcounts=False)
def _doors_taken(
    Pf: np.ndarray, Nf: np.ndarray, D: np.ndarray, most: Int64, doors: np.ndarray, cd: np.ndarray,
    src: np.ndarray, out: np.ndarray, nw: Int64,
) -> None:  # fmt: skip
    """``out``: each cell has an earlier cell of its final set in a door
    column with an open draw (a call of its own: inlined, the rows without
    doors would pay for its registers)."""
    for i in range(nw):
        src[i] = doors[i] & ~cd[i]
    _fill(Pf, Nf, D, most, src, out, nw)


@_njit(refcounts=False)
def _doors_held(
    rN: np.ndarray, rP: np.ndarray, R: np.ndarray, most: Int64, opened: np.ndarray, doors: np.ndarray,
    src: np.ndarray, out: np.ndarray, held: np.ndarray, nw: Int64,
) -> None:  # fmt: skip
    """``held``: each cell is in a door column, or is open with a later open
    cell of its final set in one; at the first cell of a set of the next
    row, whether the set holds a door (``rN``, ``rP``, ``R``: the final sets
    reversed; ``opened``: the open cells; a call of its own, as
    :func:`_doors_taken`)."""
    for k in range(nw):
        src[k] = _rev(opened[nw - 1 - k] & doors[nw - 1 - k])
    _fill(rN, rP, R, most, src, out, nw)  # an open door cell later in the final set
    for i in range(nw):
        held[i] = doors[i] | (opened[i] & _rev(out[nw - 1 - i]))


@_njit(inline="always")
def planes_of_lists(left: np.ndarray, right: np.ndarray, P: np.ndarray, N: np.ndarray, width: Int64) -> None:
    """``P``, ``N`` (``(width + 63) // 64 + 1`` words) from the lists of
    :mod:`._eller_kernels` (circular, in left-to-right order)."""
    P[:] = _Z
    N[:] = _Z
    for x in range(width):
        P[x >> 6] |= _U64(left[x] < x) << _U64(x & 63)
        N[x >> 6] |= _U64(right[x] > x) << _U64(x & 63)


@_njit
def lists_of_planes(P: np.ndarray, N: np.ndarray, left: np.ndarray, right: np.ndarray, width: Int64) -> None:
    """The lists of the sets ``P``, ``N`` (:func:`planes_of_lists` undone):
    each open set's first and last cell so far on a stack (which a cell
    with an earlier cell never finds empty, in sets that do not cross). A
    kernel of its own, which allocates its stack: the loops without
    reference counts call it (once a span, or where the planes give up)."""
    stack = np.empty((width + 1, 2), np.int64)
    depth = 0
    for x in range(width):
        first = x
        if (P[x >> 6] >> _U64(x & 63)) & _1 and depth > 0:
            depth -= 1
            first = stack[depth, 0]
            last = stack[depth, 1]
            right[last] = x
            left[x] = last
        else:
            left[x] = x
        if (N[x >> 6] >> _U64(x & 63)) & _1:
            stack[depth, 0] = first
            stack[depth, 1] = x
            depth += 1
        else:
            right[x] = first
            left[first] = x


@_njit(inline="ir")
def scratch_rows(work: np.ndarray, nw: Int64) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`planes_rows`' scratch from the ``SCRATCH_ROWS`` rows of ``work``
    (``nw + 1`` words each, its first zero): no doors (that row), no rooms,
    its words and its depths. Views: nothing is allocated."""
    no_rooms = work[0, :0].reshape((0, ROOM_PLANES, nw + 1))
    return work[0], no_rooms, work[1 : 1 + ROW_WORDS], work[1 + ROW_WORDS : SCRATCH_ROWS]


@_njit(inline="always")
def _undo_joins(P: np.ndarray, N: np.ndarray, P0: np.ndarray, N0: np.ndarray, nw: Int64, roomy: bool) -> None:
    """The sets as they were before the row's room tops joined (a row left
    to the lists is made from them)."""
    if roomy:
        for i in range(nw):
            P[i] = P0[i]
            N[i] = N0[i]


@_njit(refcounts=False)
def planes_rows(
    P: np.ndarray, N: np.ndarray, out: np.ndarray, key: np.uint64, counter: np.uint64,
    join_below: np.uint64, open_below: np.uint64, deepest: Int64, doors: np.ndarray, held: np.ndarray,
    rooms: np.ndarray, words: np.ndarray, depths: np.ndarray, base: np.ndarray,
) -> Int64:  # fmt: skip
    """Rows of ``eller_rows`` into ``out`` from the sets ``P``, ``N`` (``nw +
    1`` words, the last zero; left as the sets after the rows made), as
    long as no row's sets, before or after its joins, nest deeper than
    ``deepest`` (at most ``DEEPEST``): returns how many were made.

    ``doors`` (``nw + 1`` words): door columns, for the banded maze's
    penultimate row (``_band_kernels._penultimate_row``): there a cell in a
    door column closes, when it is not alone, if an earlier cell of its final
    set opened in a door column (the first open draw in a door column opens:
    no cell before it did).  All zero for Eller's rows.  ``held`` (``nw + 1``
    words): with doors, where the row made holds its next sets' doors (see
    :func:`_doors_held`: the band's last row reads it); untouched without.

    ``rooms`` (``(len(out), ROOM_PLANES, nw + 1)`` words, or no rows for
    none): what a band's rooms ask of each row (``ROOM_*``; the rows of
    ``_room_kernels._room_row``, byte for byte).

    ``words`` (``ROW_WORDS`` rows of ``nw + 1`` words), ``depths`` (8 such
    rows) and ``base`` (``nw + 1`` int64s): scratch the caller makes (once
    for many calls: no reference counts here, so the rows' views and the
    inlined helpers' arguments cost nothing a row)."""
    n_rows: Int64 = out.shape[0]
    width = out.shape[1]
    nw = (width + 63) // 64
    words[:] = _Z
    depths[:] = _Z
    jd, cd, w1, w2, w3, conn, J, Jl, Nf, Pf, eo, taken, P0, N0, east, rJ, gaps = words  # east: ROOM_EAST
    D = depths[:4]
    R = depths[4:]
    any_door = False
    for i in range(nw):
        any_door |= doors[i] != _Z
    for i in range(nw):  # gaps: those between cells of the row
        cells = min(64, width - 1 - i * 64)  # the word's cells with a gap after them
        gaps[i] = low_bits(cells) if cells > 0 else _Z
    roomy = rooms.shape[0] > 0
    for y in range(n_rows):
        point = draw_point(key, counter + _U64(y) * _U64(width))
        for i in range(nw):  # the draws, 64 a word: joins, and closes (south walls)
            cells = min(64, width - i * 64)
            jd[i], cd[i] = draw_masks(point, cells, join_below, open_below)
            point += _U64(cells) * DRAW_STEP
        if roomy:  # a room's top joins its cells' sets (the sets before kept in P0, N0)
            carry_in = _Z
            for i in range(nw):
                joins = rooms[y, ROOM_JOINS, i]
                P0[i] = P[i]
                N0[i] = N[i]
                P[i] |= (joins << _1) | carry_in
                N[i] |= joins
                carry_in = joins >> _63
                cd[i] = (cd[i] & ~rooms[y, ROOM_OPEN, i]) | rooms[y, ROOM_CLOSE, i]
                east[i] = rooms[y, ROOM_EAST, i]
        most = _depths(P, N, nw, D, base)
        if most < 0 or most > deepest:
            _undo_joins(P, N, P0, N0, nw, roomy)
            return y
        for i in range(nw):
            w1[i] = ~jd[i]
        _conn(P, N, D, most, w1, conn, nw)
        carry_in = _Z
        for i in range(nw):
            nxt = (P[i] >> _1) | (P[i + 1] << _63)  # x + 1 continues a set
            j = jd[i] & ~(nxt & conn[i]) & gaps[i]
            J[i] = j
            Nf[i] = N[i] | j | conn[i]
            Jl[i] = (j << _1) | carry_in  # the join before the cell
            carry_in = j >> _63
            w3[i] = ~Jl[i]
        _reversed(N, P, w3, w1, w2, Pf, D, R, nw)  # the row reversed: a later cell is an earlier one
        _conn(w1, w2, R, most, Pf, w3, nw)
        for i in range(nw):  # connected from the right: the reversed pass's words, reversed back
            Pf[i] = P[i] | Jl[i] | _rev(w3[nw - 1 - i])
        most = _depths(Pf, Nf, nw, D, base)
        if most < 0 or most > deepest:
            _undo_joins(P, N, P0, N0, nw, roomy)
            return y
        for i in range(nw):
            w3[i] = ~cd[i]
        _fill(Pf, Nf, D, most, w3, eo, nw)  # an open draw earlier in the final set
        if any_door:
            _doors_taken(Pf, Nf, D, most, doors, cd, w1, taken, nw)
        for i in range(nw):
            # closed: not alone (a later cell, or an open one before), and drawn closed
            # or a door column after a door that opened
            o = ~((Nf[i] | eo[i]) & (cd[i] | (doors[i] & taken[i])))
            P[i] = o & eo[i]  # an open cell earlier in the set: the first open draw is one
            Jl[i] = o  # the open cells
        _reversed(Nf, Pf, Jl, w1, w2, rJ, D, R, nw)
        _fill(w1, w2, R, most, rJ, w3, nw)  # an open cell later in the final set
        row = out[y]
        for i in range(nw):
            N[i] = Jl[i] & _rev(w3[nw - 1 - i])  # open, with an open cell later in the final set
            store_word(row, i, J[i] | east[i], Jl[i])
        if any_door:  # which of the next row's sets hold a door (the band's last row)
            _doors_held(w1, w2, R, most, Jl, doors, rJ, w3, held, nw)
    return n_rows
