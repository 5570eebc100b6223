"""Do the seams of the banded maze show?  Per row position inside a band:
the EAST, SOUTH and dead-end fractions, against the interior rows and a
plain Eller stream.

    python benchmarks/seams.py [--width 1000] [--band 32] [--bands 400] [--doors 0.5 ...]
"""

from __future__ import annotations

import argparse

import numpy as np

import eller_stream as es


def row_stats(grid: np.ndarray) -> np.ndarray:
    """(rows, 3): EAST, SOUTH and dead-end fractions of each row but the
    first and last (whose neighbours above or below are missing)."""
    east = (grid & es.EAST) != 0
    south = (grid & es.SOUTH) != 0
    degree = east.astype(np.int8) + south
    degree[:, 1:] += east[:, :-1]
    degree[1:] += south[:-1]
    inner = slice(1, -1)
    return np.stack(
        [east[inner, :-1].mean(axis=1), south[inner].mean(axis=1), (degree[inner] == 1).mean(axis=1)], axis=1
    )


def seam_table(width: int, band: int, bands: int, doors: float | None, seed: int = 1) -> np.ndarray:
    """(band, 3): the row statistics by row position in the band."""
    maze = es.InfiniteMaze(width, band=band, seed=seed, doors=doors)
    grid = maze.rows(-1, bands * band + 1)
    stats = row_stats(grid)  # row i of stats is maze row i
    return stats.reshape(bands, band, 3).mean(axis=0)


def eller_stats(width: int, rows: int, seed: int = 1) -> np.ndarray:
    return row_stats(es.EllerStream(width, seed=seed).take(rows)).mean(axis=0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--width", type=int, default=1000)
    p.add_argument("--band", type=int, default=32)
    p.add_argument("--bands", type=int, default=400)
    p.add_argument("--doors", type=float, nargs="*", default=[None])
    args = p.parse_args()
    plain = eller_stats(args.width, args.band * args.bands)
    print(
        f"width {args.width}, band {args.band}, {args.bands} bands; plain Eller stream: "
        f"EAST {plain[0]:.3f} SOUTH {plain[1]:.3f} dead ends {plain[2]:.3f}"
    )
    for doors in args.doors:
        table = seam_table(args.width, args.band, args.bands, doors)
        interior = table[1:-2].mean(axis=0)
        label = "default" if doors is None else doors
        print(
            f"doors {label}: interior EAST {interior[0]:.3f} SOUTH {interior[1]:.3f} dead {interior[2]:.3f}"
        )
        for name, y in (("first", 0), ("penultimate", args.band - 2), ("last", args.band - 1)):
            e, s, d = table[y]
            print(f"  {name:<12} EAST {e:.3f} SOUTH {s:.3f} dead {d:.3f}")


if __name__ == "__main__":
    main()
