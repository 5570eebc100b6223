"""Issue 35's table, the rows made in Python, measured in one run: each
ratio from interleaved rounds (every contender timed in turn each round, so
all see the same load), reported as the median round and the best.

    python benchmarks/speed.py [--rounds 40] [--fresh 5]

- ``take`` at width 1000 against the floor kernel (benchmarks/floor.py: the
  same random bits, a byte written a cell, no maze);
- ``InfiniteMaze.rows`` on one thread against ``take``, width 1000, 64 bands
  of 32;
- the same rows on both cores against one thread, once in this process and
  then in ``--fresh`` new processes (a steady speed-up is one every process
  gets), each beside the parallel floor kernel (``floor_rows_parallel``: the
  most two threads of that work get on the machine, in the same rounds);
- ``loops=0.5, rooms=0.3`` against the plain maze on one thread, width 24
  (4096 rows) and width 80 (2048 rows), each beside the levels' floor
  (``floor.levels_floor``: plain bands plus only the numbers the levels
  must draw and the rooms' placement) against the plain bands' kernel.

The other rows of the table: benchmarks/js_speed.py (the JavaScript module),
benchmarks/serve_cold.py (the server's first answer), benchmarks/scale.py
(Dask); the test run is timed as CI runs it (docs/performance.md).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import numba
import numpy as np
from floor import floor_rows, floor_rows_parallel, levels_floor

import eller_stream as es
from eller_stream import _engine


def rounds_of(fns: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """Seconds of each function in each of ``rounds`` interleaved rounds (after a warm-up)."""
    for fn in fns.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def ratio(times: dict[str, list[float]], top: str, bottom: str) -> tuple[float, float]:
    """(median of the per-round ratios, ratio of the best rounds) of ``top`` / ``bottom``."""
    per_round = [a / b for a, b in zip(times[top], times[bottom], strict=True)]
    return statistics.median(per_round), min(times[top]) / min(times[bottom])


def two_cores(rounds: int, settle: bool = True) -> tuple[float, float, float, float]:
    """``rows`` of 64 bands of 32 at width 1000, one thread / both, and the
    same for the parallel floor kernel (3.5x the cells in two runs of rows,
    nothing shared), interleaved: (median, best) of each."""
    maze = es.InfiniteMaze(1000, 32, 1)
    # the floor draws 3.5x the maze's cells, so that a call takes about as long as the
    # maze's (2.7 ms on one thread): the threads' wake-up is paid once a call
    floor_out = np.empty((7168, 1000), np.uint8)
    if settle:
        maze.rows(0, 2048)
        _engine.settle()  # the kernels compiled in the background are ready
    threads = numba.get_num_threads()

    def on(n: int, fn: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            numba.set_num_threads(n)
            try:
                return fn()
            finally:
                numba.set_num_threads(threads)

        return run

    def rows() -> object:
        return maze.rows(0, 2048)

    def floor() -> object:
        return floor_rows_parallel(floor_out, np.uint64(1), np.uint64(1 << 31), threads)

    times = rounds_of(
        {
            "one": on(1, rows),
            "all": on(threads, rows),
            "floor one": on(1, floor),
            "floor all": on(threads, floor),
        },
        rounds,
    )
    return ratio(times, "one", "all") + ratio(times, "floor one", "floor all")


def levels(w: int, n: int, rounds: int) -> None:
    """``loops=0.5, rooms=0.3`` against the plain maze, ``n`` rows of width
    ``w`` (one thread), and in the same rounds the levels' floor against the
    plain bands' kernel (``floor.levels_floor``)."""
    mazes = {"plain": es.InfiniteMaze(w, 32, 1), "levels": es.InfiniteMaze(w, 32, 1, loops=0.5, rooms=0.3)}
    kernel, floor = levels_floor(w, 32, 0.5, 0.3)
    out = np.empty((n, w), np.uint8)
    kernel(out)
    assert np.array_equal(out, mazes["plain"].rows(0, n)), "levels_floor's plain bands are the maze's"
    fns: dict[str, Callable[[], object]] = {k: (lambda m=m: m.rows(0, n)) for k, m in mazes.items()}
    t = rounds_of({**fns, "kernel": lambda: kernel(out), "floor": lambda: floor(out)}, rounds)
    goal = 1.5 if w == 24 else 1.3
    med, best = ratio(t, "levels", "plain")
    print(f"loops 0.5, rooms 0.3 / plain, width {w}:")
    print(f"  median {med:.2f}x, best {best:.2f}x (goal <= {goal});")
    print(f"  plain {min(t['plain']) / (n * w) * 1e9:.2f} ns a cell")
    med, best = ratio(t, "floor", "kernel")
    print("  the levels' floor (plain bands with only the levels' draws and the rooms' placement,")
    print(f"  floor.py) / the plain bands: median {med:.2f}x, best {best:.2f}x")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--fresh", type=int, default=5, help="new processes that measure the 2-core speed-up")
    parser.add_argument("--two-cores-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-settle", action="store_true", help="time while the kernels still compile")
    args = parser.parse_args(argv)
    if args.two_cores_only:
        print(" ".join(f"{v:.3f}" for v in two_cores(args.rounds, not args.no_settle)))
        return
    rounds = args.rounds
    layer, threads = numba.config.THREADING_LAYER, numba.get_num_threads()
    print(f"numba {numba.__version__}, threading layer {layer}, {threads} threads")
    width, rows = 1000, 2048
    floor_out = np.empty((rows, width), np.uint8)
    one = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        plain = es.InfiniteMaze(width, 32, 1)
        stream = es.EllerStream(width, 1)
        times = rounds_of(
            {
                "take": lambda: stream.take(rows),
                "floor": lambda: floor_rows(floor_out, np.uint64(1), np.uint64(0), np.uint64(1 << 31)),
                "rows": lambda: plain.rows(0, rows),
            },
            rounds,
        )
        cells = rows * width
        for name in ("take", "floor", "rows"):
            print(f"  {name:5s} width 1000: {min(times[name]) / cells * 1e9:.2f} ns a cell (best)")
        med, best = ratio(times, "take", "floor")
        print(f"take / floor, width 1000: median {med:.2f}x, best {best:.2f}x (goal <= 4)")
        med, best = ratio(times, "rows", "take")
        print(f"rows / take, 1 thread: median {med:.3f}x, best {best:.3f}x (goal <= 1.10)")
        for w, n in ((24, 4096), (80, 2048)):
            levels(w, n, rounds)
    finally:
        numba.set_num_threads(one)
    med, best, f_med, f_best = two_cores(rounds)
    print(f"2 cores / 1, this process: median {med:.2f}x, best {best:.2f}x (goal >= 1.8 in every run)")
    print(f"  the parallel floor kernel: median {f_med:.2f}x, best {f_best:.2f}x")
    for i in range(args.fresh):
        out = subprocess.run(
            [sys.executable, __file__, "--two-cores-only", "--rounds", str(rounds)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        m, b, fm, fb = (float(v) for v in out)
        floor = f"floor {fm:.2f}x, {fb:.2f}x"
        print(f"2 cores / 1, fresh process {i + 1}: median {m:.2f}x, best {b:.2f}x; {floor}")


if __name__ == "__main__":
    main()
