"""Speed of the banded maze (issue: seekable endless levels), in turns with
the plain stream so that the ratios see the same load:

* one thread, ``rows()`` across 64 bands at width 1000, against
  ``EllerStream.take()`` of as many rows (target: at most 1.15x per cell);
* every core, the same range (target: at least 1.7x the one-thread
  throughput on 2 cores);
* seeking: ``rows(10**18, 10**18 + 64)`` at width 80, band 32, against
  ``take(64)`` on an open width-80 stream (target: within 3x);
* ``es.detour`` on a 1000 x 1000 Eller grid and on a banded one (ns per cell).
"""

from __future__ import annotations

import numba
import numpy as np
from conftest import RESULTS, interleaved_best, note

import eller_stream as es

WIDTH = 1000
BAND = 32
BANDS = 64


def test_banded_rows_against_take():
    rows = BAND * BANDS
    cells = rows * WIDTH
    maze = es.InfiniteMaze(WIDTH, band=BAND, seed=1)
    stream = es.EllerStream(WIDTH, seed=1)
    out = np.empty((rows, WIDTH), np.uint8)
    threads = numba.get_num_threads()

    def one_thread():
        numba.set_num_threads(1)
        try:
            maze.rows(0, rows, out=out)
        finally:
            numba.set_num_threads(threads)

    best = interleaved_best(
        {
            "take": lambda: stream.take(rows, out=out),
            "rows, 1 thread": one_thread,
            "rows, all cores": lambda: maze.rows(0, rows, out=out),
        },
        rounds=15,
    )
    ns = {name: t / cells * 1e9 for name, t in best.items()}
    for name, value in ns.items():
        RESULTS[f"banded {name} [{WIDTH}, {BANDS} bands]"] = value
    one = ns["rows, 1 thread"]
    note(
        f"banded rows at {WIDTH}: 1 thread / take = {one / ns['take']:.3f} (target <= 1.15); "
        f"{threads} threads speed-up = {one / ns['rows, all cores']:.2f}x (target >= 1.7)"
    )


def test_seek_against_take():
    maze = es.InfiniteMaze(80, band=32, seed=1)
    stream = es.EllerStream(80, seed=1)
    stream.take(10)
    cells = 64 * 80
    best = interleaved_best(
        {"take(64)": lambda: stream.take(64), "seek": lambda: maze.rows(10**18, 10**18 + 64)},
        rounds=2001,
    )
    ns = {name: t / cells * 1e9 for name, t in best.items()}
    RESULTS["banded seek rows(10**18, +64) [80]"] = ns["seek"]
    RESULTS["take(64) [80]"] = ns["take(64)"]
    note(f"banded seek at 80: seek / take(64) = {ns['seek'] / ns['take(64)']:.2f} (target <= 3)")


def test_detour_eller(per_cell):
    grid = es.eller(1000, 1000, seed=1)
    per_cell("detour [eller 1000 x 1000]", lambda: es.detour(grid), grid.size, rounds=5)
    d = es.detour(grid)
    note(f"detour of the 1000 x 1000 Eller grid: mean {d.mean():.1f}, max {d.max()} rows")


def test_detour_banded(per_cell):
    grid = es.InfiniteMaze(1000, band=32, seed=1).rows(0, 1000)
    per_cell("detour [banded 1000 x 1000, band 32]", lambda: es.detour(grid), grid.size, rounds=5)
    d = es.detour(grid)
    note(f"detour of the 1000 x 1000 banded grid: mean {d.mean():.1f}, max {d.max()} rows")
