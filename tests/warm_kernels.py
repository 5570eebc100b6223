"""Get the package's numba kernels ready (compiled, or loaded from numba's
cache) for the argument types the tests call them with, in two halves of
about equal compile time: ``python warm_kernels.py 0`` and ``... 1``.

On an empty cache each pytest-xdist worker would compile every kernel it
meets, the same kernels in both (about 50 s each); conftest runs the two
halves side by side in the controller before the workers start, so the
compile is paid once, on both cores, and the workers load the kernels from
the cache (numba's index files, keyed on the source files' stamps). A
signature the warm-up misses is compiled by the first worker that meets it,
as before. Nothing is checked here: the tests check what the kernels give.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

import eller_stream as es
from eller_stream import _eller_kernels, _engine


def streams() -> None:
    """Eller's kernels, the banded maze's (rooms, loops, a schedule), their
    big-job and parallel forms; streams across bands and checkpoints."""
    s = es.EllerStream(8, 3)
    s.take(3)
    es.EllerStream.resume(s.checkpoint()).finish()
    es.EllerStream(64, 3).take(2048)  # past the lean twin's share: the kernel itself
    lists = [np.arange(64 + _eller_kernels.LR_PAD, dtype=np.int32) for _ in "lr"]
    _eller_kernels.rows_by_planes(*lists, np.empty((2, 64), np.uint8), *[np.uint64(1)] * 4, np.int64(3))
    es.eller(7, 30, 2)
    for knobs in ({}, {"loops": 0.5}, {"rooms": 0.3}, {"loops": 0.5, "rooms": 0.3}):
        maze = es.InfiniteMaze(13, 5, 11, **knobs)  # type: ignore[arg-type]
        maze.rows(-12, 30)
        maze.rows(0, 40_000)  # a big job: the parallel kernels
        t = maze.stream(-7)
        t.take(9)
        t.finish()
        es.InfiniteMaze(8, 6, 0, **knobs).stream(0).take(3000)  # type: ignore[arg-type]
    ramp = es.Schedule({-2: {"loops": 1.0, "doors": 0.2}, 3: {"horizontal": 0.9}})
    scheduled = es.InfiniteMaze(13, 5, 11, schedule=ramp)
    scheduled.rows(-12, 30)
    scheduled.rows(0, 40_000)
    scheduled.stream(-7).take(3000)
    es.InfiniteMaze(23, 9, 11, loops=0.3, rooms=0.3).room_rects(-12, 60)
    es.growing_tree(9, 7, "oldest:60,random:40", 3)  # here for balance: the halves take about as long
    es.detour(es.eller(7, 30, 2))
    _engine.settle()


def grids() -> None:
    """The other generators, the analysis of a grid (walks, metrics, loops,
    detours), the window's searches and the plane's regions."""
    for strategy in ("newest", "oldest", "random", "middle", "newest:90,random:10", "newest:50,oldest:50"):
        es.growing_tree(9, 7, strategy, 3)
    grid = es.backtracker(9, 7, 4)
    start, end = es.suggest_endpoints(grid)
    es.solve(grid, start, end)
    es.metrics(grid)
    es.distances(grid, start)
    frozen = grid.copy()
    frozen.flags.writeable = False  # a read-only grid: its own signatures
    es.metrics(frozen)
    es.validate(np.array([[3, 2], [1, 0]], np.uint8))
    loopy = es.InfiniteMaze(13, 5, 11, loops=0.6)
    loops = es.closed_rows(loopy.stream(-10), 21)
    es.metrics(loops)
    es.solve(loops, (0, 0), (20, 12))  # a grid with loops: the marking walk
    rooms = es.InfiniteMaze(23, 9, 11, loops=0.3, rooms=0.3)
    win = es.Window(rooms, row=-5, below=12)
    win.distances((-5, 3))
    win.path((-5, 3), (7, 20))
    win.lasting((-5, 3), 4)
    rooms.random(-12, 60, salt=5)
    for perfect in (True, False):
        plane = es.Plane(4, 1, perfect=perfect)
        plane.region(-3, 9, -5, 7)
        plane.region(0, 512, 0, 512)  # on every core
        plane.path((0, 0), (9, 9))
    _engine.settle()


# (about 33 s each, side by side on a quiet 2-core machine with an empty cache: the
# braid and rooms kernels of the banded maze are the longest; one kernel is not split)
HALVES: list[Callable[[], None]] = [streams, grids]

if __name__ == "__main__":
    HALVES[int(sys.argv[1])]()
