"""What one small call of ``InfiniteMaze.rows`` costs, in microseconds: a
game that asks for a row or a band at a time pays this per call, on top of
the cells (one thread; the kernels loaded first).

    python benchmarks/call_cost.py [--rounds 300]

Each case is the best of ``--rounds`` calls after a warm-up; the last
column is the same rows made in one call of 128 bands, per band, so the
difference is the cost of a call.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import eller_stream as es
from eller_stream import _engine


def best_call(maze: es.InfiniteMaze, rows: int, rounds: int) -> float:
    out = np.empty((rows, maze.width), np.uint8)
    for _ in range(10):
        maze.rows(0, rows, out=out)
    _engine.settle()  # every kernel ready: no call answered by a lean twin
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        maze.rows(0, rows, out=out)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=300)
    a = p.parse_args()
    numba.set_num_threads(1)
    print(f"{'case':38s} {'1 row':>8s} {'1 band':>8s} {'a band of 128':>14s}")
    for width in (24, 80):
        for name, knobs in (("plain", {}), ("loops 0.5, rooms 0.3", {"loops": 0.5, "rooms": 0.3})):
            maze = es.InfiniteMaze(width, 32, 1, **knobs)
            one_row = best_call(maze, 1, a.rounds)
            one_band = best_call(maze, 32, a.rounds)
            many = best_call(maze, 32 * 128, max(5, a.rounds // 30)) / 128
            case = f"width {width}, {name}"
            print(f"{case:38s} {one_row * 1e6:6.1f} us {one_band * 1e6:6.1f} us {many * 1e6:11.1f} us")


if __name__ == "__main__":
    main()
