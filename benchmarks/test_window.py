"""es.Window (issue 21): moving the window one row down and one row up, and
the breadth-first distances over the rows it keeps, at width 80, band 32; and
``lasting`` as a game calls it every step.

    python -m pytest benchmarks/test_window.py --benchmark-enable

``move_to`` one row makes one new row with ``maze.rows``, which replays the
rows above it in its band (half a band on average; the benchmark walks a
whole band, so every position in it is timed) and moves the kept rows.
"""

from __future__ import annotations

from conftest import note

import eller_stream as es

WIDTH, BAND = 80, 32


def _walker(maze: es.InfiniteMaze, step: int):
    win = es.Window(maze, row=10**6)

    def walk() -> None:
        for _ in range(BAND):
            win.move_to(win.row + step)

    return walk


def _move(benchmark, name: str, step: int, **knobs: float) -> None:
    walk = _walker(es.InfiniteMaze(WIDTH, band=BAND, seed=1, **knobs), step)
    walk()
    benchmark.pedantic(walk, rounds=20, iterations=1, warmup_rounds=1)
    us = benchmark.stats.stats.min / BAND * 1e6
    note(f"{name}: {us:.1f} us per move_to (best of 20 walks of {BAND} rows)")


def test_move_down(benchmark):
    _move(benchmark, "window move_to +1 row", 1)


def test_move_up(benchmark):
    _move(benchmark, "window move_to -1 row", -1)


def test_move_down_rooms_loops(benchmark):
    _move(benchmark, "window move_to +1 row (loops 0.5, rooms 0.2)", 1, loops=0.5, rooms=0.2)


def test_distances(per_cell):
    win = es.Window(es.InfiniteMaze(WIDTH, band=BAND, seed=1, loops=0.5), row=0)
    cell = (0, WIDTH // 2)
    ns = per_cell("window distances", lambda: win.distances(cell), win.rows.size, rounds=200)
    note(f"window distances: {ns:.2f} ns per cell ({win.rows.size} cells)")


def test_lasting(benchmark):
    """``lasting`` as the example calls it every step: 65 rows of 30 cells, within 16 (one
    search of the rows around the player; it was one search of 33 rows for each of 33 rows)."""
    maze = es.InfiniteMaze(30, band=8, seed=5, loops=0.3)
    win = es.Window(maze, row=1000, above=32, below=32)
    player = (1000, 15)
    win.lasting(player, 16)
    benchmark.pedantic(lambda: win.lasting(player, 16), rounds=200, iterations=5, warmup_rounds=5)
    note(f"window lasting, 65 x 30, within 16: {benchmark.stats.stats.min * 1e6:.1f} us a call (best of 200)")
