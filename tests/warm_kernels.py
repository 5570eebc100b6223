"""Get the package's numba kernels ready (compiled, or loaded from numba's
cache) for the argument types the tests call them with, in two halves
that run side by side: ``python warm_kernels.py 0 DIR`` and ``... 1 DIR``.

On an empty cache each pytest-xdist worker would compile every kernel it
meets, the same kernels in both; conftest runs the two halves in the
controller before the workers start, so the compile is paid once, on both
cores, and the workers load the kernels from the cache (numba's index
files, keyed on the source files' stamps). A signature the warm-up misses is
compiled by the first worker that meets it, as before.

No kernel is compiled by both halves: a kernel compiles the kernels it
calls that are not in the cache yet, so the halves take turns on the ones
they share, marking in ``DIR`` what is done (Eller's planes, which the
rooms' rows call; the banded maze's rows, which the levels call; the braid,
which they call too; the levels). The levels are the longest chain (each
kernel compiled after those it calls), so the other half compiles the
rooms' rows they call while the first makes Eller's planes and the bands:
both halves end together (28 s each on an empty cache, from 32.5 s). Without
``DIR``, or should the other half fail, a half waits for nothing.
Nothing is checked here: the tests check what the kernels give.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import eller_stream as es
from eller_stream import _braid_kernels, _eller_kernels, _engine, _room_kernels, _walk_kernels

MARKS = sys.argv[2] if len(sys.argv) > 2 else None
LEVELS = [{"loops": 0.5}, {"rooms": 0.3}, {"loops": 0.5, "rooms": 0.3}]  # the knobs of the levels' kernels
RAMP = {-2: {"loops": 1.0, "doors": 0.2}, 3: {"horizontal": 0.9}}  # a schedule


def mark(name: str) -> None:
    """Say that this half has the kernels ``name`` ready."""
    _engine.settle()
    if MARKS is not None:
        open(os.path.join(MARKS, name), "w").close()


def wait_for(name: str, other: int) -> None:
    """Wait until the other half marks ``name`` (or ends without it)."""
    if MARKS is None:
        return
    done = os.path.join(MARKS, f"half{other}.done")
    while not os.path.exists(os.path.join(MARKS, name)) and not os.path.exists(done):
        time.sleep(0.05)


def compile_for(kernel: Any, *args: object) -> None:
    """Compile ``kernel`` for the types of ``args`` (into numba's cache), without running it."""
    import numba

    kernel.compile(tuple(numba.typeof(a) for a in args))


def streams() -> None:
    """Eller's kernels; the banded maze's rows; once the braid is ready, its
    levels (rooms, loops, a schedule); then the banded maze's streams."""
    s = es.EllerStream(8, 3)
    s.take(3)
    es.EllerStream.resume(s.checkpoint()).finish()
    es.EllerStream(64, 3).take(2048)  # past the lean twin's share: the kernel itself
    lists = [np.arange(64 + _eller_kernels.LR_PAD, dtype=np.int32) for _ in "lr"]
    _eller_kernels.rows_by_planes(*lists, np.empty((2, 64), np.uint8), *[np.uint64(1)] * 4, np.int64(3))
    mark("eller")  # Eller's planes: the rooms' rows call them
    es.eller(7, 30, 2)
    plain = es.InfiniteMaze(13, 5, 11)
    plain.rows(-12, 30)
    mark("bands")  # band_span: the levels call it
    wait_for("braid", 1)
    es.InfiniteMaze(13, 5, 11, **LEVELS[0]).rows(-12, 30)  # type: ignore[arg-type]
    mark("levels")  # the other half makes their parallel ranges
    for knobs in [{}, *LEVELS]:
        maze = es.InfiniteMaze(13, 5, 11, **knobs)  # type: ignore[arg-type]
        maze.rows(-12, 30)
        t = maze.stream(-7)
        t.take(9)
        t.finish()
        es.InfiniteMaze(8, 6, 0, **knobs).stream(0).take(3000)  # type: ignore[arg-type]
    scheduled = es.InfiniteMaze(13, 5, 11, schedule=es.Schedule(RAMP))
    scheduled.rows(-12, 30)
    scheduled.stream(-7).take(3000)
    es.InfiniteMaze(23, 9, 11, loops=0.3, rooms=0.3).room_rects(-12, 60)
    _engine.settle()


def grids() -> None:
    """The braid and the rooms' plan (which the levels call); the other
    generators, the analysis of a grid (walks, metrics, loops, detours), the
    plane's regions; once the banded maze's rows are ready, their ranges on
    every core (the serial kernels on threads); once the levels are, theirs
    and the window's searches."""
    th = np.zeros(16, np.uint64)  # nothing drawn: compiled, no more
    doors, none = np.zeros(13, np.uint8), np.zeros(0, np.uint8)
    _braid_kernels.band_braid(np.zeros((5, 13), np.uint8), np.uint64(1), np.uint64(2), th, doors, none)
    rects = np.zeros((4, 4), np.int64)
    _room_kernels.band_rooms(np.int64(5), np.int64(13), np.uint64(1), np.uint64(2), th, rects)
    mark("braid")
    # the rooms' row kernels, which the levels call: here, while the other half makes what they wait for
    u64, i32, out = np.zeros((2, 2), np.uint64), np.zeros(13, np.int32), np.zeros((5, 13), np.uint8)
    masks, one = np.zeros((1, 1, 1), np.uint64), np.uint64(1)
    compile_for(_room_kernels.room_planes, rects, 0, masks)
    for strategy in ("newest", "oldest", "random"):
        es.growing_tree(9, 7, strategy, 3)
    wait_for("eller", 0)  # then the rooms' rows, done before the other half's levels call them
    compile_for(_room_kernels.rooms_by_lists, i32, i32, out, one, th, masks, th)
    base = np.zeros(1, np.int64)
    compile_for(_room_kernels._rooms_planes_in, i32, i32, out, one, th, masks, 0, th, u64, base, True)
    for strategy in ("middle", "newest:90,random:10", "newest:50,oldest:50", "oldest:60,random:40"):
        es.growing_tree(9, 7, strategy, 3)
    grid = es.backtracker(9, 7, 4)
    es.detour(grid)
    start, end = es.suggest_endpoints(grid)
    es.solve(grid, start, end)
    es.metrics(grid)
    es.distances(grid, start)
    frozen = grid.copy()
    frozen.flags.writeable = False  # a read-only grid: its own signatures
    es.metrics(frozen)  # answered by the lean twin while the kernel is not ready (no compile then):
    _walk_kernels.passage_masks(frozen, np.empty(frozen.size, np.uint8), np.zeros(16, np.int64))
    es.validate(np.array([[3, 2], [1, 0]], np.uint8))
    for perfect in (True, False):
        plane = es.Plane(4, 1, perfect=perfect)
        plane.region(-3, 9, -5, 7)
        plane.region(0, 512, 0, 512)  # on every core
        plane.path((0, 0), (9, 9))
    wait_for("bands", 0)
    es.InfiniteMaze(13, 5, 11).rows(0, 40_000)  # a big job: on every core
    wait_for("levels", 0)
    for knobs in LEVELS:
        es.InfiniteMaze(13, 5, 11, **knobs).rows(0, 40_000)  # type: ignore[arg-type]
    es.InfiniteMaze(13, 5, 11, schedule=es.Schedule(RAMP)).rows(0, 40_000)
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
    _engine.settle()


HALVES: list[Callable[[], None]] = [streams, grids]

if __name__ == "__main__":
    # numba's compile makes millions of objects: the garbage collector's passes at its
    # default thresholds (700 new objects) were 5.4 s of the 72 s the halves take, 2.0 here
    gc.set_threshold(100_000, 50, 100)
    half = int(sys.argv[1])
    try:
        HALVES[half]()
    finally:
        if MARKS is not None:  # the other half waits no longer
            open(os.path.join(MARKS, f"half{half}.done"), "w").close()
