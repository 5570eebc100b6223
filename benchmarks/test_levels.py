"""Speed of loops and schedules in the banded maze (issue 20): ``rows()``
of 64 bands at width 80, band 32, with ``loops`` (and a schedule) against
``loops=0`` (and with rooms), in turns so that the ratios see the same load (target: at
most 1.5x per cell)."""

from __future__ import annotations

import numba
import numpy as np
from conftest import RESULTS, interleaved_best, note

import eller_stream as es

WIDTH = 80
BAND = 32
BANDS = 64


def test_loops_against_plain_rows():
    rows = BAND * BANDS
    cells = rows * WIDTH
    out = np.empty((rows, WIDTH), np.uint8)
    plain = es.InfiniteMaze(WIDTH, band=BAND, seed=1)
    loopy = es.InfiniteMaze(WIDTH, band=BAND, seed=1, loops=0.5)
    ramp = es.InfiniteMaze(
        WIDTH, band=BAND, seed=1, schedule=es.Schedule({0: {"loops": 0.0}, 64: {"loops": 1.0}})
    )
    rooms = es.InfiniteMaze(WIDTH, band=BAND, seed=1, rooms=0.3)
    both = es.InfiniteMaze(WIDTH, band=BAND, seed=1, loops=0.5, rooms=0.3)
    threads = numba.get_num_threads()

    def one_thread(maze: es.InfiniteMaze) -> None:
        numba.set_num_threads(1)
        try:
            maze.rows(0, rows, out=out)
        finally:
            numba.set_num_threads(threads)

    best = interleaved_best(
        {
            "loops=0, 1 thread": lambda: one_thread(plain),
            "loops=0.5, 1 thread": lambda: one_thread(loopy),
            "rooms=0.3, 1 thread": lambda: one_thread(rooms),
            "loops=0": lambda: plain.rows(0, rows, out=out),
            "loops=0.5": lambda: loopy.rows(0, rows, out=out),
            "schedule 0..1": lambda: ramp.rows(0, rows, out=out),
            "rooms=0.3": lambda: rooms.rows(0, rows, out=out),
            "loops=0.5 rooms=0.3": lambda: both.rows(0, rows, out=out),
        },
        rounds=31,
    )
    ns = {name: t / cells * 1e9 for name, t in best.items()}
    for name, value in ns.items():
        RESULTS[f"banded rows {name} [{WIDTH}, band {BAND}, {BANDS} bands]"] = value
    note(
        f"loops at {WIDTH}: loops=0.5 / loops=0 = {ns['loops=0.5'] / ns['loops=0']:.2f}, "
        f"schedule / loops=0 = {ns['schedule 0..1'] / ns['loops=0']:.2f}, "
        f"rooms=0.3 / loops=0 = {ns['rooms=0.3'] / ns['loops=0']:.2f}, "
        f"both / loops=0 = {ns['loops=0.5 rooms=0.3'] / ns['loops=0']:.2f} (target <= 1.5)"
    )
    one = ns["loops=0, 1 thread"]
    note(
        f"one thread at {WIDTH}: loops=0.5 / loops=0 = {ns['loops=0.5, 1 thread'] / one:.2f}, "
        f"rooms=0.3 / loops=0 = {ns['rooms=0.3, 1 thread'] / one:.2f} (target <= 1.5)"
    )
