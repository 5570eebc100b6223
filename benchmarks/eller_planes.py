"""Eller's joins on bit planes, 64 cells a word, to see what a row made
without a sweep a cell would cost (issue 35's take / floor goal).

    python benchmarks/eller_planes.py [--rounds 15] [--cases 3000]

A row's sets are non-crossing; given each cell's two bits (a previous cell
in its set, ``P``; a next one, ``N``), the depth at gap x, ``D(x)``, is how
many sets are open across it: the opens (``~P & N``) less the closes
(``P & ~N``) up to x.  The join at gap x is its draw, except 0 when x + 1
continues a set (``P(x + 1)``) that x is connected to already: when no gap
at depth ``D(x)`` since that set's last cell drew a wall
(``benchmarks/eller_frames.py`` does this with a stack, a cell at a time).

Here every step is a word operation: the depth as four bit planes (a
prefix sum by doubling, a bit-sliced adder a step), and per depth d a
"wall seen since the set's last cell" smear, made by one addition whose
carries run along the word (set at a wall, cleared at a cell of a depth-d
set).  The draws are made and packed 64 a word in the same kernel.  Rows
that might be deeper than 15 are made a cell at a time (the count is printed).

Only the joins: the south walls and the next row's bits would need the
final sets' smears too (docs/performance.md, session 20).  Checked against
``eller_rows``' east walls on random cases, then timed against the floor
kernel (benchmarks/floor.py) and ``eller_rows``, in the same rounds.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from eller_frames import random_cases, row_bits, stack_joins
from floor import floor_rows

from eller_stream._eller_kernels import LR_PAD, eller_rows
from eller_stream._eller_planes import _add4, _eq, _popcount
from eller_stream._numba import _U64, _njit
from eller_stream._rng import _LOW32, DRAW_STEP, draw_point, mix64

_Z = _U64(0)
_1 = _U64(1)
_ALL = _U64(0xFFFFFFFFFFFFFFFF)
DEEPEST = 15  # depths 0 .. 15 in four planes


@_njit
def pack_rows(codes):  # type: ignore[no-untyped-def]
    """Each row's ``P`` and ``N`` bits (codes of ``row_bits``) as words:
    ``[y, 0, i]`` and ``[y, 1, i]``, then a zero word."""
    n_rows, width = codes.shape
    nw = (width + 63) // 64
    out = np.zeros((n_rows, 2, nw + 1), np.uint64)
    for y in range(n_rows):
        for x in range(width):
            k = _U64(codes[y, x])
            out[y, 0, x >> 6] |= (k & _1) << _U64(x & 63)
            out[y, 1, x >> 6] |= (k >> _1) << _U64(x & 63)
    return out


@_njit(inline="always")
def _row_by_stack(row, code, jd, bytes_):  # type: ignore[no-untyped-def]
    """The joins of one row a cell at a time (``eller_frames.stack_joins``),
    from its codes and its draws' words ``jd`` (unpacked into ``bytes_``)."""
    for x in range(row.shape[0]):
        bytes_[x] = np.uint8((jd[x >> 6] >> _U64(x & 63)) & _1)
    stack_joins(row, code, bytes_)


@_njit
def joins_planes(pn, codes, out, key, join_below, planes_up_to=DEEPEST):  # type: ignore[no-untyped-def]
    """The east walls of ``eller_rows``' rows into ``out`` (a byte a cell),
    from each row's words ``pn`` (:func:`pack_rows`) and the draws, on bit
    planes; a row that might be deeper than ``planes_up_to`` (at most
    ``DEEPEST``) a cell at a time from its ``codes``.  Returns how many rows were."""
    n_rows, width = out.shape
    deep_rows = 0
    nw = (width + 63) // 64
    join_below = _U64(join_below)
    point = draw_point(_U64(key), _Z)
    jd = np.zeros(nw + 1, np.uint64)
    unpacked = np.empty(width, np.uint8)  # a deep row's draws, a byte a gap
    carry = np.zeros(DEEPEST + 2, np.uint64)  # the smear at depth d running into the next word
    top = np.zeros(DEEPEST + 2, np.uint64)  # bit 63 of the smear's last word: (x - 1) of bit 0
    for y in range(n_rows):
        for i in range(nw):  # the draws, 64 a word
            word = _Z
            for b in range(64):
                word |= _U64((mix64(point) & _LOW32) < join_below) << _U64(b)
                point += DRAW_STEP
            jd[i] = word
        point -= _U64(nw * 64 - width) * DRAW_STEP
        for d in range(DEEPEST + 2):
            carry[d] = _Z
            top[d] = _Z
        row = out[y]
        depth = 0
        for i in range(nw):  # deep enough for the planes? (the depth may rise by each open)
            opens = ~pn[y, 0, i] & pn[y, 1, i]
            if depth + _popcount(opens) > planes_up_to:
                depth = -1
                break
            depth += _popcount(opens) - _popcount(pn[y, 0, i] & ~pn[y, 1, i])
        if depth < 0:
            deep_rows += 1
            _row_by_stack(row, codes[y], jd, unpacked)
            continue
        depth = 0  # at the end of the word before
        for i in range(nw):
            p = pn[y, 0, i]
            n = pn[y, 1, i]
            opens = ~p & n
            closes = p & ~n
            n_opens = _popcount(opens)
            # the depth after each cell: its open or close (+1, -1 = 1111), summed by doubling
            d0, d1, d2, d3 = opens | closes, closes, closes, closes
            for s in (1, 2, 4, 8, 16, 32):
                sh = _U64(s)
                d0, d1, d2, d3 = _add4(d0, d1, d2, d3, d0 << sh, d1 << sh, d2 << sh, d3 << sh)
            k = depth
            d0, d1, d2, d3 = _add4(
                d0, d1, d2, d3,
                _ALL if k & 1 else _Z, _ALL if k & 2 else _Z, _ALL if k & 4 else _Z, _ALL if k & 8 else _Z,
            )  # fmt: skip
            nxt = (p >> _1) | (pn[y, 0, i + 1] << _U64(63))  # P of x + 1
            member = p | n
            deepest = depth + n_opens
            conn = _Z
            below = _eq(d0, d1, d2, d3, 0)
            for d in range(1, deepest + 1):
                here = _eq(d0, d1, d2, d3, d)
                m = (member & ~closes & here) | (closes & below)  # the cells of depth-d sets
                wall = here & ~jd[i]
                v = ~(m & ~wall)  # where the smear goes on
                t1 = v + wall
                t2 = t1 + carry[d]
                carry[d] = _U64(t1 < v) | _U64(t2 < t1)
                seen = ((t2 ^ v) | wall) & v
                before = (seen << _1) | top[d]  # seen up to x - 1
                top[d] = seen >> _U64(63)
                conn |= here & ~(before & ~m)
                below = here
            # deeper than any timed row: only the levels reached are smeared (carries stay 0)
            j = jd[i] & ~(nxt & conn)
            for b in range(min(64, width - i * 64)):
                row[i * 64 + b] = np.uint8((j >> _U64(b)) & _1)
            depth += n_opens - _popcount(closes)
        row[width - 1] = 0
    return deep_rows


def check(cases: int) -> None:
    """The same east walls as ``eller_rows`` on ``cases`` random cases, on
    bit planes and by the stack (a row with an open set sent there)."""
    for t, width, rows, jb, ob, key in random_cases(cases, 2):
        codes, made = row_bits(width, rows, key, jb, ob)
        for up_to in (DEEPEST, 0):  # on planes, then every row with an open set by the stack
            east = np.empty_like(made)
            joins_planes(pack_rows(codes), codes, east, key, jb, up_to)
            assert np.array_equal(east, made & 1), (width, rows, t, up_to)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--cases", type=int, default=3000)
    args = parser.parse_args()
    check(args.cases)
    print(f"the same east walls as eller_rows in {args.cases} random cases")
    width, n = 1000, 2048
    key, half = np.uint64(1), np.uint64(1 << 31)
    codes, rows = row_bits(width, n, key, half, half)
    pn = pack_rows(codes)
    out = np.empty((n, width), np.uint8)
    deep = joins_planes(pn, codes, out, key, half)
    assert np.array_equal(out, rows & 1)
    print(f"rows made a cell at a time (might be deeper than {DEEPEST}): {deep} of {n}")
    fns = {
        "eller_rows": lambda: eller_rows(
            np.arange(width + LR_PAD), np.arange(width + LR_PAD), out, key, np.uint64(0), half, half
        ),
        "joins on planes": lambda: joins_planes(pn, codes, out, key, half),
        "floor": lambda: floor_rows(out, key, np.uint64(0), half),
    }
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(args.rounds + 1):  # the first round warms up
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    floor = min(times["floor"][1:])
    for name, t in times.items():
        best = min(t[1:])
        print(f"{name:20s} {best / (n * width) * 1e9:.2f} ns a cell, {best / floor:.2f}x the floor")


if __name__ == "__main__":
    main()
