"""Eller's rows on bit planes (``eller_stream._eller_planes``) against the
lists (a cell at a time, what ``eller_rows`` was before) and the floor
kernel, at several widths: where the planes are faster, and by how much
(issue 35's take / floor goal; ``PLANES_FROM`` is read off this table).

    python benchmarks/eller_bitrows.py [--rounds 9] [--cases 2000]

First checks that both make the same rows and sets on random cases (widths
1-427, probabilities 0, 1 and between, several calls each; a limit on the
sets' depth of 0-3 sends rows to the lists too), then times each kernel at
widths 8 to 10000, interleaved, the best of ``--rounds``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from eller_frames import random_cases
from floor import floor_rows

from eller_stream._eller_kernels import LR_PAD, eller_sweep, row_draws, rows_by_planes
from eller_stream._eller_planes import DEEPEST
from eller_stream._numba import _U64, _njit


@_njit
def lists_rows(left, right, out, key, counter, join_below, open_below):  # type: ignore[no-untyped-def]
    """Eller's rows a cell at a time on the lists (``eller_sweep``)."""
    n_rows, width = out.shape
    draws = np.empty(width, np.uint64)
    for y in range(n_rows):
        row_draws(draws, _U64(key), _U64(counter))
        counter = _U64(counter) + _U64(width)
        eller_sweep(left, right, out[y], draws, _U64(join_below), _U64(open_below))
    return counter


def check(cases: int) -> None:
    """The same rows, sets and counter by the lists and on planes."""
    rng = np.random.default_rng(7)
    for t, width, rows, jb, ob, key in random_cases(cases, 4):
        width += 128 * (t % 3)
        deepest = DEEPEST if t % 2 else int(rng.integers(0, 4))
        a_lists = [np.arange(width + LR_PAD) for _ in range(2)]
        b_lists = [np.arange(width + LR_PAD) for _ in range(2)]
        ca = cb = np.uint64(0)
        for _ in range(3):
            m = int(rng.integers(1, rows + 1))
            a, b = np.empty((m, width), np.uint8), np.empty((m, width), np.uint8)
            ca = lists_rows(a_lists[0], a_lists[1], a, key, ca, jb, ob)
            cb = rows_by_planes(b_lists[0], b_lists[1], b, key, cb, jb, ob, deepest)
            assert ca == cb and np.array_equal(a, b), (t, width, deepest)
            for u, v in zip(a_lists, b_lists, strict=True):
                assert np.array_equal(u[:width], v[:width]), (t, width, deepest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--cases", type=int, default=2000)
    args = parser.parse_args()
    check(args.cases)
    print(f"the same rows and sets by the lists and on planes in {args.cases} random cases")
    print("width  lists ns  planes ns  floor ns  lists/planes  planes/floor")
    for width in (8, 24, 32, 40, 48, 64, 80, 128, 200, 1000, 10000):
        ns = at_width(width, args.rounds)
        print(
            f"{width:5d}  {ns['lists']:8.2f}  {ns['planes']:9.2f}  {ns['floor']:8.2f}"
            f"  {ns['lists'] / ns['planes']:12.2f}  {ns['planes'] / ns['floor']:12.2f}"
        )


def at_width(width: int, rounds: int) -> dict[str, float]:
    """ns a cell of each kernel at ``width``, the best of ``rounds`` (interleaved)."""
    n = max(64, 2_000_000 // width)
    out = np.empty((n, width), np.uint8)
    key, half = np.uint64(1), np.uint64(1 << 31)

    def lists() -> object:
        return lists_rows(np.arange(width + LR_PAD), np.arange(width + LR_PAD), out, key, 0, half, half)

    def planes() -> object:
        fresh = np.arange(width + LR_PAD), np.arange(width + LR_PAD)
        return rows_by_planes(*fresh, out, key, np.uint64(0), half, half, DEEPEST)

    fns = {"lists": lists, "planes": planes, "floor": lambda: floor_rows(out, key, np.uint64(0), half)}
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(rounds + 1):  # the first round warms up (the best is kept)
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: t / (n * width) * 1e9 for name, t in best.items()}


if __name__ == "__main__":
    main()
