"""How far apart along the maze are two neighbouring cells of the perfect
plane?  No spanning tree of the infinite grid bounds it: the path between
two neighbours across the seam of a block of level L stays inside their
block of level L, and can take a good part of it. This samples neighbours
by the level of the smallest block of level >= 1 holding both (level 1 split
into neighbours in one chunk and across a chunk seam), walks the one path
between them (``Plane.path``) and gives the detour's steps: the share that
are neighbours in the maze too (1 step), the median, the 90th and 99th
percentiles, the longest seen, and the bound (the block's cells).

    python benchmarks/plane_detour.py [--chunk 16] [--levels 3] [--pairs 200]
"""

from __future__ import annotations

import argparse

import numpy as np

import eller_stream as es
from eller_stream import _plane_blocks as pb

K = 9


def pair(
    plane: es.Plane, level: int, rng: np.random.Generator, in_chunk: bool
) -> tuple[tuple[int, int], ...]:
    """Two neighbouring cells whose smallest common block of level >= 1 is of
    ``level`` (``in_chunk``: two cells of one chunk, level 1)."""
    c = plane.chunk
    while True:
        y, x = (int(v) for v in rng.integers(-(2**61), 2**61, 2))
        top, left, size = plane.block(level, y, x)
        sub = size // K  # the blocks of the level below, or the chunks
        if in_chunk:
            a = (top + int(rng.integers(size)), left + int(rng.integers(size)))
            b = (a[0], a[1] + 1) if rng.integers(2) else (a[0] + 1, a[1])
            if (a[0] // c, a[1] // c) != (b[0] // c, b[1] // c):
                continue
        else:  # across the seam between two of its blocks of the level below
            i, j = int(rng.integers(K - 1)), int(rng.integers(size))
            if rng.integers(2):
                a = (top + j, left + (i + 1) * sub - 1)
                b = (a[0], a[1] + 1)
            else:
                a = (top + (i + 1) * sub - 1, left + j)
                b = (a[0] + 1, a[1])
        if pb.common_level(c, a, b) == level:
            return a, b


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunk", type=int, default=16)
    parser.add_argument("--levels", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    plane = es.Plane(args.chunk, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    print(f"chunk {args.chunk}, {args.pairs} pairs a row: detour in steps (1: a passage)")
    head = ("neighbours", "direct", "median", "90%", "99%", "longest", "bound")
    print("{:28s} {:>7s} {:>8s} {:>9s} {:>9s} {:>9s} {:>14s}".format(*head))
    rows = [(1, True)] + [(level, False) for level in range(1, args.levels + 1)]
    for level, in_chunk in rows:
        steps = np.array([len(plane.path(*pair(plane, level, rng, in_chunk))) - 1 for _ in range(args.pairs)])
        size = args.chunk * K**level
        what = "in one chunk" if in_chunk else f"across a seam, level {level}"
        q50, q90, q99 = np.percentile(steps, [50, 90, 99])
        direct = float((steps == 1).mean())
        cells = size * size - 1
        print(f"{what:28s} {direct:7.2f} {q50:8.0f} {q90:9.0f} {q99:9.0f} {steps.max():9d} {cells:14d}")


if __name__ == "__main__":
    main()
