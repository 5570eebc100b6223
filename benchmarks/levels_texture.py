"""The texture of the banded maze's loops (issue 20): dead ends, the
straight share of corridors and loops per cell, for a few values of
``loops`` (and a ramp schedule), over a window closed by ``finish()``.

    python benchmarks/levels_texture.py [--width 80] [--band 32] [--bands 400] [--loops 0 0.25 0.5 1]
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
    args = parser.parse_args(argv)
    print(f"width {args.width}, band {args.band}, {args.bands} bands, seed {args.seed}")
    print("| loops | dead ends | straight | loops per cell |")
    print("|---|---|---|---|")
    for loops in args.loops:
        maze = es.InfiniteMaze(args.width, args.band, args.seed, loops=loops)
        m = texture(maze, args.bands)
        print(
            f"| {loops:g} | {m.dead_end_fraction:.1%} | {m.straight_fraction:.1%} | {m.loops / m.cells:.3f} |"
        )


if __name__ == "__main__":
    main()
