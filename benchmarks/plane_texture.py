"""Do the plane's seams show?  Over regions of the plane: the EAST share
inside the chunks and across the seams between chunks side by side, the
SOUTH share likewise, each seam by its level (the smallest block of level
>= 1 holding both its chunks: 1, inside a block of level 1; 2 and up, the
seams between blocks, one door at most), and the dead ends, against a plain
Eller maze of as many cells.

    python benchmarks/plane_texture.py [--chunk 16] [--size 512] [--regions 4]
"""

from __future__ import annotations

import argparse

import numpy as np

import eller_stream as es
from eller_stream import _plane_blocks as pb


def seam_levels(first: int, n: int, chunk: int) -> np.ndarray:
    """For cells ``first .. first + n - 1`` along an axis: 0 where the cell
    and the next lie in one chunk, else the level of their seam."""
    out = np.zeros(n, np.int64)
    for i in range(n):
        v = first + i
        if (v + 1) % chunk == 0:
            out[i] = pb.common_level(chunk, (0, v), (0, v + 1))
    return out


def dead_ends(grid: np.ndarray) -> float:
    """The share of the cells inside ``grid`` (not on its border) with one open side."""
    east = (grid & es.EAST) != 0
    south = (grid & es.SOUTH) != 0
    degree = east.astype(np.int8) + south
    degree[:, 1:] += east[:, :-1]
    degree[1:] += south[:-1]
    return float((degree[1:-1, 1:-1] == 1).mean())


def texture(plane: es.Plane, y0: int, x0: int, size: int) -> dict[str, list[float]]:
    """The shares of one region, by name (lists, to average over regions)."""
    c = plane.chunk
    grid = plane.region(y0, y0 + size, x0, x0 + size)
    east = ((grid & es.EAST) != 0)[:, :-1]
    south = ((grid & es.SOUTH) != 0)[:-1]
    cols = seam_levels(x0, size - 1, c)
    rows = seam_levels(y0, size - 1, c)
    out: dict[str, list[float]] = {
        "EAST inside chunks": [float(east[:, cols == 0].mean())],
        "SOUTH inside chunks": [float(south[rows == 0].mean())],
        "EAST across all chunk seams": [float(east[:, cols > 0].mean())],
        "SOUTH across all chunk seams": [float(south[rows > 0].mean())],
        "dead ends": [dead_ends(grid)],
    }
    for level in sorted(set(cols[cols > 0]) | set(rows[rows > 0])):
        if (cols == level).any():
            out[f"EAST across seams of level {level}"] = [float(east[:, cols == level].mean())]
        if (rows == level).any():
            out[f"SOUTH across seams of level {level}"] = [float(south[rows == level].mean())]
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunk", type=int, default=16)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--regions", type=int, default=4)
    args = parser.parse_args(argv)
    eller = es.eller(args.size, args.size, seed=1)
    e_east = float(((eller & es.EAST) != 0)[:, :-1].mean())
    e_south = float(((eller & es.SOUTH) != 0)[:-1].mean())
    dead = dead_ends(eller)
    print(f"plain Eller {args.size} x {args.size}: EAST {e_east:.3f} SOUTH {e_south:.3f} dead {dead:.3f}")
    rng = np.random.default_rng(1)
    for perfect in (True, False):
        plane = es.Plane(args.chunk, seed=1, perfect=perfect)
        total: dict[str, list[float]] = {}
        for _ in range(args.regions):
            y0, x0 = (int(v) for v in rng.integers(-(2**62), 2**62 - args.size, 2))
            for name, values in texture(plane, y0, x0, args.size).items():
                total.setdefault(name, []).extend(values)
        print(
            f"\nperfect={perfect}, chunk {args.chunk}, {args.regions} regions of {args.size} x {args.size}:"
        )
        for name, values in total.items():
            print(f"  {name:34s} {np.mean(values):.3f}")


if __name__ == "__main__":
    main()
