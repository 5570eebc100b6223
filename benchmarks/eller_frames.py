"""Eller's rows made another way, to see whether it is faster: a stack of
frames and two bits a cell, no linked lists (issue 35's take / floor goal).

    python benchmarks/eller_frames.py [--rounds 15] [--cases 3000]

The rule (docs/spec.md) rewritten: a row's sets are non-crossing, so a set
with cells p < q and none between opens a *frame* (p, q), and frames nest.
Read left to right, a cell needs only two bits of the sets: whether it has
a previous cell in its set (``hp``) and a next one (``hn``).  The join at
gap x is then the draw, except 0 when x + 1 follows x in its set, and 0
when x + 1 closes a frame whose *top-level* gaps (its first gap and each
gap where one nested set ends and the next begins) all joined; a south wall
is its draw, except that the rightmost cell of each final set stays open
when all the others closed.  So a sweep keeps, per open frame, "every
top-level gap joined so far" and, per run of joined cells, "one opened
already", on a stack (the top in registers), and writes the next row's two
bits (with a fix-up when a frame's last run joins its set at the close).

It makes the same rows as ``_eller_kernels.eller_rows`` (checked here on
random widths, seeds and probabilities 0, 1 and between, over several
calls), but needs more live values than x86-64 has registers: numba's code
spills, and the sweep is slower than the lists' (docs/performance.md).

The joins alone (:func:`joins_rows`) are the least a sweep of this rule
does: only the east walls, from each row's two bits a cell (made in
advance) and the draws, with "every top-level gap joined" on a stack
indexed by depth.  It is timed against the floor kernel (benchmarks/floor.py)
in the same rounds: were it at 4x the floor already, no sweep that also makes
the south walls and the next row's bits could reach the issue's goal.  The
sets' nesting depth is printed too: a row made on bit planes, 64 cells a
word, would need a mask per depth.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator

import numpy as np
from floor import floor_rows

from eller_stream._eller_kernels import LR_PAD, eller_rows, row_draws
from eller_stream._numba import _U64, _njit, _sel
from eller_stream._rng import _LOW32, _S32, DRAW_STEP, draw_point, mix64


@_njit(inline="always")
def frames_sweep(row, draws, hp, hn, hp2, hn2, st, join_below, open_below):  # type: ignore[no-untyped-def]
    """One row from the bits ``hp``/``hn`` into ``row``, the next row's bits
    into ``hp2``/``hn2`` (``width + 1`` entries, the last scratch); ``st``:
    the stack below the top, four rows of ``width + 2``."""
    w = row.shape[0]
    scr = np.int64(w)
    dummy = np.int64(st.shape[1] - 1)
    m_u, m_r, m_l, m_f = st[0], st[1], st[2], st[3]
    hn2[:] = 0
    # the current run: u (its frame's top-level gaps all joined), ro (a cell
    # of it opened), lo (its last open cell), first (its first open cell);
    # t_*: the same of the run the frame is in (the top of the stack)
    u = np.int64(0)
    ro = np.int64(0)
    lo = scr
    first = scr
    d = np.int64(0)
    t_u = np.int64(0)
    t_r = np.int64(0)
    t_l = scr
    t_f = scr
    for x in range(w - 1):
        bits = draws[x]
        jd = np.int64((bits & _LOW32) < join_below)
        cd = np.int64((bits >> _S32) >= open_below)
        h = np.int64(hn[x])
        p1 = np.int64(hp[x + 1])
        c_a = h & p1  # x + 1 follows x in its set
        c_b = p1 ^ c_a  # x + 1 closes a frame
        c_c = h ^ c_a  # x opens a frame
        c_d = (h | p1) ^ 1  # a top-level gap
        join = jd & (c_a ^ 1) & ((c_b & u) ^ 1)
        rightmost = (h | join | u) ^ 1
        close = cd & ((rightmost & (ro ^ 1)) ^ 1)
        opn = close ^ 1
        row[x] = np.uint8(join | (opn << 1))
        hp2[x] = np.uint8(ro & opn)
        hn2[np.uint64(_sel(opn, lo, scr))] = 1
        first = _sel(opn & (ro ^ 1), np.int64(x), first)
        lo = _sel(opn, np.int64(x), lo)
        ro = ro | opn
        s_u = m_u[d]
        s_r = m_r[d]
        s_l = m_l[d]
        s_f = m_f[d]
        k = np.uint64(_sel(c_c, d + 1, dummy))
        m_u[k] = t_u
        m_r[k] = t_r
        m_l[k] = t_l
        m_f[k] = t_f
        link = c_b & (u ^ 1) & join & t_r & ro  # the frame's last run joins its set
        hn2[np.uint64(_sel(link, t_l, scr))] = 1
        hp2[np.uint64(_sel(link, first, scr))] = 1
        p_r = _sel(u, ro, _sel(join, t_r | ro, t_r))
        p_l = _sel(u, lo, _sel(join & ro, lo, t_l))
        p_f = _sel(u, first, _sel(t_r | (join ^ 1), t_f, first))
        save = c_d & (jd ^ 1) & u
        n_u = _sel(c_b, t_u, _sel(c_c, jd, u & (jd | c_a)))
        t_u = _sel(c_c, u, _sel(c_b, s_u, t_u))
        t_r = _sel(c_c | save, ro, _sel(c_b, s_r, t_r))
        t_l = _sel(c_c | save, lo, _sel(c_b, s_l, t_l))
        t_f = _sel(c_c | save, first, _sel(c_b, s_f, t_f))
        reset = (c_c | c_d) & (jd ^ 1)
        ro = _sel(c_b, p_r, _sel(reset, np.int64(0), ro))
        lo = _sel(c_b, p_l, _sel(reset, scr, lo))
        first = _sel(c_b, p_f, _sel(reset, scr, first))
        u = n_u
        d = d + c_c - c_b
    x = w - 1
    cd = np.int64((draws[x] >> _S32) >= open_below)
    opn = (cd & ro) ^ 1
    row[x] = np.uint8(opn << 1)
    hp2[x] = np.uint8(ro & opn)
    hn2[np.uint64(_sel(opn, lo, scr))] = 1


@_njit
def frames_rows(left, right, out, key, counter, join_below, open_below):  # type: ignore[no-untyped-def]
    """:func:`eller_rows` by :func:`frames_sweep`: the lists become two bits
    a cell before the rows, and lists again after them."""
    key = _U64(key)
    counter = _U64(counter)
    join_below = _U64(join_below)
    open_below = _U64(open_below)
    n_rows, width = out.shape
    draws = np.empty(width, np.uint64)
    bits = np.zeros((4, width + 1), np.uint8)
    st = np.zeros((4, width + 2), np.int64)
    for x in range(width):
        bits[0, x] = left[x] < x
        bits[1, x] = right[x] > x
    a = 0
    for y in range(n_rows):
        row_draws(draws, key, counter)
        counter += _U64(width)
        frames_sweep(
            out[y], draws, bits[a], bits[a + 1], bits[2 - a], bits[3 - a], st, join_below, open_below
        )
        a = 2 - a
    hp, hn, firsts, lasts = bits[a], bits[a + 1], st[0], st[1]
    depth = 0
    for x in range(width):  # the bits as lists again
        if hp[x]:
            last = lasts[depth - 1]
            left[x] = last
            right[last] = x
            if hn[x]:
                lasts[depth - 1] = x
            else:
                right[x] = firsts[depth - 1]
                left[firsts[depth - 1]] = x
                depth -= 1
        elif hn[x]:
            firsts[depth] = x
            lasts[depth] = x
            depth += 1
        else:
            left[x] = x
            right[x] = x
    return counter


@_njit
def row_bits(width, n_rows, key, join_below, open_below):  # type: ignore[no-untyped-def]
    """``eller_rows``' rows of ``width`` from sets of one cell, and the two
    bits of each row's sets before it (bit 0: a previous cell in its set,
    bit 1: a next one)."""
    left = np.arange(width + LR_PAD)
    right = np.arange(width + LR_PAD)
    codes = np.empty((n_rows, width), np.uint8)
    out = np.empty((n_rows, width), np.uint8)
    counter = _U64(0)
    for y in range(n_rows):
        for x in range(width):
            codes[y, x] = np.uint8(np.int64(left[x] < x) | (np.int64(right[x] > x) << 1))
        counter = eller_rows(left, right, out[y : y + 1], key, counter, join_below, open_below)
    return codes, out


@_njit(inline="always")
def stack_joins(row, code, jd):  # type: ignore[no-untyped-def]
    """Only the east walls of one of ``eller_rows``' rows into ``row``, from
    the two bits of its sets (``code``, :func:`row_bits`) and its join draws
    (``jd``, a byte a gap).  ``ok[d]``: every top-level gap of the open set
    at depth d joined since its last cell; the top in a register."""
    width = row.shape[0]
    ok = np.ones(width + 2, np.uint8)  # slot d + 1: depth d (slot 0: the one below depth 0)
    depth = 1
    top = np.int64(1)
    for c in range(1, width):
        k = np.int64(code[c])
        p = k & 1  # c has a previous cell: gap c - 1 closes a frame (joined unless all joined)
        n = k >> 1
        j = np.int64(jd[c - 1])
        row[c - 1] = np.uint8(j & ~(p & top) & 1)
        now = p | (top & j)
        ok[depth] = np.uint8(now)
        push = (p ^ 1) & n
        pop = p & (n ^ 1)
        below = np.int64(ok[depth - 1])
        depth += push - pop
        top = push | ((push ^ 1) & ((pop & below) | ((pop ^ 1) & now)))
    row[width - 1] = 0


@_njit
def joins_rows(codes, out, key, join_below):  # type: ignore[no-untyped-def]
    """Only the east walls of ``eller_rows``' rows into ``out``, from the
    two bits of each row's sets (:func:`row_bits`) and the draws (made a
    row at a time, vectorised, as ``row_draws``): :func:`stack_joins` a row."""
    n_rows, width = codes.shape
    point = draw_point(_U64(key), _U64(0))
    jd = np.empty(width, np.uint8)
    for y in range(n_rows):
        for x in range(width):
            jd[x] = np.uint8((mix64(point) & _LOW32) < join_below)
            point += DRAW_STEP
        stack_joins(out[y], codes[y], jd)


def joins_alone(rounds: int) -> None:
    """:func:`joins_rows` against the floor kernel and ``eller_rows``, width 1000."""
    width, n = 1000, 2048
    key, half = np.uint64(1), np.uint64(1 << 31)
    codes, rows = row_bits(width, n, key, half, half)
    east = np.empty_like(rows)
    joins_rows(codes, east, key, half)
    assert np.array_equal(east, rows & 1), "the joins differ from eller_rows' east walls"
    starts = ((codes & 1) ^ 1) & (codes >> 1)
    depth = np.cumsum(starts.astype(np.int64) - ((codes & 1) & ((codes >> 1) ^ 1)), axis=1)
    print(f"nesting depth at a gap: mean {depth.mean():.2f}, most {depth.max()} (width 1000, 2048 rows)")
    out = np.empty((n, width), np.uint8)
    fns = {
        "eller_rows": lambda: eller_rows(
            np.arange(width + LR_PAD), np.arange(width + LR_PAD), out, key, np.uint64(0), half, half
        ),
        "joins alone": lambda: joins_rows(codes, out, key, half),
        "floor": lambda: floor_rows(out, key, np.uint64(0), half),
    }
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds + 1):  # the first round warms up
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    floor = min(times["floor"][1:])
    for name, t in times.items():
        best = min(t[1:])
        print(f"{name:20s} {best / (n * width) * 1e9:.2f} ns a cell, {best / floor:.2f}x the floor")


def random_cases(cases: int, seed: int) -> Iterator[tuple[int, int, int, np.uint64, np.uint64, np.uint64]]:
    """``(t, width, rows, join_below, open_below, key)`` of ``cases`` random
    cases: widths 1-39, or 1-299 one case in three; thresholds 0, 2**32 or
    between."""
    rng = np.random.default_rng(seed)
    for t in range(cases):
        width = int(rng.integers(1, 40)) if t % 3 else int(rng.integers(1, 300))
        rows = int(rng.integers(1, 30))
        jb, ob = (np.uint64(rng.choice([0, 2**32, int(rng.integers(0, 2**32))])) for _ in range(2))
        yield t, width, rows, jb, ob, np.uint64(t * 0x9E3779B97F4A7C15 % 2**64)


def check(cases: int) -> None:
    """The same rows and lists as the kernel on ``cases`` random cases, three calls each."""
    for t, width, rows, jb, ob, key in random_cases(cases, 1):
        lists = [np.arange(width + LR_PAD, dtype=np.int32) for _ in range(4)]
        a, b = np.empty((rows, width), np.uint8), np.empty((rows, width), np.uint8)
        ca = cb = np.uint64(0)
        for _ in range(3):
            ca = eller_rows(lists[0], lists[1], a, key, ca, jb, ob)
            cb = frames_rows(lists[2], lists[3], b, key, cb, jb, ob)
            assert np.array_equal(a, b), (width, rows, t)
            assert np.array_equal(lists[0][:width], lists[2][:width]), (width, rows, t)
            assert np.array_equal(lists[1][:width], lists[3][:width]), (width, rows, t)
        codes, made = row_bits(width, rows, key, jb, ob)
        east = np.empty_like(made)
        joins_rows(codes, east, key, jb)
        assert np.array_equal(east, made & 1), (width, rows, t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--cases", type=int, default=3000)
    args = parser.parse_args()
    check(args.cases)
    print(f"the same rows and lists as eller_rows in {args.cases} random cases")
    joins_alone(args.rounds)
    width, n = 1000, 2048
    out = np.empty((n, width), np.uint8)
    fns = {"lists (eller_rows)": eller_rows, "frames": frames_rows}
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(args.rounds + 1):  # the first round warms up
        for name, fn in fns.items():
            ones = np.arange(width + LR_PAD, dtype=np.int32)
            start = time.perf_counter()
            fn(ones, ones.copy(), out, np.uint64(1), np.uint64(0), np.uint64(1 << 31), np.uint64(1 << 31))
            times[name].append(time.perf_counter() - start)
    base = min(times["lists (eller_rows)"][1:])
    for name, t in times.items():
        best = min(t[1:])
        print(f"{name:20s} {best / (n * width) * 1e9:.2f} ns a cell, {best / base:.2f}x the lists")


if __name__ == "__main__":
    main()
