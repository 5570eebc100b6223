"""The texture of the banded maze's loops and rooms (issue 20): dead
ends, the straight share of corridors and loops per cell, for a few values
of ``loops`` and of ``rooms``, over a window closed by ``finish()`` (a
room's open walls count as loops of cells).

    python benchmarks/levels_texture.py [--width 80] [--band 32] [--bands 400] [--loops 0 0.25 0.5 1]
        [--rooms 0.1 0.3]
"""

from __future__ import annotations

import argparse

import eller_stream as es


def texture(maze: es.InfiniteMaze, bands: int) -> es.Metrics:
    """The metrics of ``bands`` bands from row 0, closed by ``finish()``."""
    return es.metrics(es.closed_rows(maze.stream(0), bands * maze.band + 1))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=80)
    parser.add_argument("--band", type=int, default=32)
    parser.add_argument("--bands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--loops", type=float, nargs="+", default=[0.0, 0.25, 0.5, 1.0])
    parser.add_argument("--rooms", type=float, nargs="+", default=[0.1, 0.3])
    args = parser.parse_args(argv)
    print(f"width {args.width}, band {args.band}, {args.bands} bands, seed {args.seed}")
    print("| loops | rooms | dead ends | straight | loops per cell |")
    print("|---|---|---|---|---|")
    knobs = [(loops, 0.0) for loops in args.loops] + [(0.0, rooms) for rooms in args.rooms]
    for loops, rooms in knobs:
        maze = es.InfiniteMaze(args.width, args.band, args.seed, loops=loops, rooms=rooms)
        m = texture(maze, args.bands)
        cells = f"{m.dead_end_fraction:.1%} | {m.straight_fraction:.1%} | {m.loops / m.cells:.3f}"
        print(f"| {loops:g} | {rooms:g} | {cells} |")


if __name__ == "__main__":
    main()
