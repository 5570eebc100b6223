"""The levels' speed (issue 20), measured in one run: ``rows()`` of mazes with
loops and rooms against the plain maze, and the per-band kernel behind them.

    python benchmarks/levels.py [--rounds 60] [--threads 1] [--width 80] [--rows 2048]

- ``rows()`` on ``--threads`` numba threads (1: the kernel alone), width 80
  (``--width``), band 32, 2048 rows a call (``--rows``), each maze in turn
  every round (so every ratio sees the same load), best round: ns per cell
  and the ratio to ``loops=0, rooms=0``;
- ``bands_rows`` of one whole band of width x 32 (the kernel ``rows()``
  calls for bands with loops or rooms; here each band alone, with no band
  above at hand), 40 bands a call, interleaved the same way: us per band.

The machines are shared: quote the ratios of one run, not times across runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
from conftest import interleaved_best

import eller_stream as es
from eller_stream import _engine, _numba

BAND = 32
MAZES = {
    "plain": {},
    "loops 0.5": {"loops": 0.5},
    "loops 1": {"loops": 1.0},
    "rooms 0.1": {"rooms": 0.1},
    "rooms 0.2": {"rooms": 0.2},
    "rooms 0.3": {"rooms": 0.3},
    "loops 0.5 + rooms 0.1": {"loops": 0.5, "rooms": 0.1},
    "loops 0.5 + rooms 0.2": {"loops": 0.5, "rooms": 0.2},
    "loops 0.5 + rooms 0.3": {"loops": 0.5, "rooms": 0.3},
    "loops 1 + rooms 0.3": {"loops": 1.0, "rooms": 0.3},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--width", type=int, default=80)
    parser.add_argument("--rows", type=int, default=2048, help="rows a call (a multiple of the band, 32)")
    args = parser.parse_args()
    rounds, width, rows = args.rounds, args.width, args.rows
    _numba.load()
    import numba

    from eller_stream import _level_kernels as lk
    from eller_stream._eller_kernels import LR_PAD

    numba.set_num_threads(args.threads)
    out = np.empty((rows, width), np.uint8)
    mazes = {name: es.InfiniteMaze(width, BAND, 1, **knobs) for name, knobs in MAZES.items()}
    for maze in mazes.values():
        maze.rows(0, rows, out=out)
    _engine.settle()  # the numba kernels, not their lean twins while they compile
    counter = iter(range(10**9))

    def rows_of(maze: es.InfiniteMaze) -> Callable[[], None]:
        def call() -> None:
            r = next(counter)  # new rows each time: no cache between the calls
            maze.rows(r * rows, (r + 1) * rows, out=out)

        return call

    best = interleaved_best({name: rows_of(maze) for name, maze in mazes.items()}, rounds)
    plain = best["plain"]
    print(f"rows(), {args.threads} thread(s), width {width}, band {BAND}, best of {rounds} x {rows} rows:")
    for name, t in best.items():
        print(f"  {name:24s} {t / rows / width * 1e9:6.2f} ns/cell  {t / plain:.2f}x")

    left = np.empty(width + LR_PAD, np.int32)
    right = np.empty(width + LR_PAD, np.int32)
    doors = np.empty(width, np.uint8)
    parent = np.empty(width + 1, np.int32)
    band = np.empty((BAND, width), np.uint8)
    key = np.uint64(12345)

    def bands(th: np.ndarray) -> Callable[[], None]:
        ths = th.reshape((1, -1))

        def make() -> None:
            for b in range(40):
                lk.bands_rows(band, key, np.uint64(b), BAND, ths, left, right, doors, parent)

        return make

    calls = {name: bands(es.BandParams(**knobs).thresholds()) for name, knobs in MAZES.items()}
    best = interleaved_best(calls, rounds * 5)
    plain = best["plain"]
    print(f"bands_rows of one band (one thread), {width} x {BAND}, best of {rounds * 5} x 40 bands:")
    for name, t in best.items():
        print(f"  {name:24s} {t / 40 * 1e6:6.2f} us/band  {t / plain:.2f}x")


if __name__ == "__main__":
    main()
