"""What a region of the plane costs: a 512 x 512 region against
``InfiniteMaze.rows`` of as many cells (512 rows of 512), both on one
thread, and a region near 2**62 against one near 0; the best of several
rounds, ratios measured in one run (the machines are shared and noisy).

    python benchmarks/plane_speed.py [--size 512] [--rounds 30] [--chunk 16 64 4]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import eller_stream as es


def best(fn: Callable[[], object], rounds: int) -> float:
    """The fastest of ``rounds`` calls, in seconds (after one to warm up)."""
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--chunk", type=int, nargs="+", default=[16, 64, 4])
    args = parser.parse_args(argv)
    import numba

    numba.set_num_threads(1)
    n = args.size
    maze = es.InfiniteMaze(n, band=32, seed=1)
    rows = best(lambda: maze.rows(0, n), args.rounds)
    print(f"InfiniteMaze.rows(0, {n}), width {n}, one thread: {rows * 1e3:.2f} ms")
    far = 2**62 - 3 * n
    for chunk in args.chunk:
        for perfect in (True, False):
            plane = es.Plane(chunk, seed=1, perfect=perfect)
            near = best(lambda p=plane: p.region(-n // 2, n // 2, -n // 2, n // 2), args.rounds)
            away = best(lambda p=plane: p.region(far, far + n, -far - n, -far), args.rounds)
            print(
                f"chunk {chunk:4d} perfect={perfect!s:5s}: near 0 {near * 1e3:6.2f} ms "
                f"({near / rows:.2f}x rows), "
                f"near 2**62 {away * 1e3:6.2f} ms ({away / near:.2f}x near 0)"
            )


if __name__ == "__main__":
    main()
