"""The cost model of :mod:`eller_stream._cost` against a brute count: every
row the kernels write while ``maze.rows(start, stop)`` runs, counted by
wrapping the one function that calls them (and the parallel runner)."""

from __future__ import annotations

import threading
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import eller_stream as es
from eller_stream import _cost, banded
from eller_stream import _parallel as par

SCHEDULES = [
    None,
    es.Schedule({0: {"loops": 0.0}, 2: {"loops": 1.0}}),
    es.Schedule({-3: {"rooms": 0.3}, 1: {"rooms": 0.0, "loops": 0.0}, 4: {"loops": 0.5}}),
    es.Schedule({0: {"horizontal": 0.2}, 3: {"horizontal": 0.9}}),
]


def brute_cells(maze: es.InfiniteMaze, start: int, stop: int) -> int:
    """The cells the kernels write for ``maze.rows(start, stop)``: each call's
    output block (its first 2-d uint8 array) counted as it is made."""
    made = [0]

    def count(args: tuple[Any, ...]) -> None:
        for a in args:
            if isinstance(a, np.ndarray) and a.dtype == np.uint8 and a.ndim == 2:
                made[0] += a.size
                return

    real_call, lock = banded.call, threading.Lock()

    def call(kernel: Any, *args: Any, **kwargs: Any) -> Any:
        with lock:  # the threads of a range on every core count too
            count(args)
        return real_call(kernel, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(banded, "call", call)
        maze.rows(start, stop)
    return made[0]


@given(
    width=st.integers(1, 40),
    band=st.integers(2, 20),
    start=st.integers(-300, 300),
    count=st.integers(1, 90),
    loops=st.sampled_from([0.0, 0.5]),
    rooms=st.sampled_from([0.0, 0.3]),
    schedule=st.sampled_from(SCHEDULES),
)
@example(width=64, band=8, start=-5, count=4000, loops=0.0, rooms=0.0, schedule=None)  # every core
@example(width=64, band=8, start=3, count=4001, loops=0.5, rooms=0.0, schedule=None)
@example(width=64, band=8, start=3, count=4001, loops=0.0, rooms=0.0, schedule=SCHEDULES[2])
@example(width=5, band=16, start=17, count=3, loops=0.0, rooms=0.3, schedule=None)  # inside one band
def test_cells_made_is_what_the_kernels_write(
    width: int, band: int, start: int, count: int, loops: float, rooms: float, schedule: es.Schedule | None
) -> None:
    maze = es.InfiniteMaze(width, band, 1, loops=loops, rooms=rooms, schedule=schedule)
    stop = start + count
    assert _cost.cells_made(maze, start, stop) == brute_cells(maze, start, stop)
    assert _cost.rows_made(maze, start, stop) * width == _cost.cells_made(maze, start, stop)


def test_the_issues_request_makes_the_whole_band() -> None:
    # one row of 4,096 cells makes the 65536 x 4096 band (loops, rooms) or replays it (neither)
    k, w = 65536, 4096
    assert _cost.cells_made(es.InfiniteMaze(w, k, 3, loops=1, rooms=0.9), k - 1, k) == k * w
    assert _cost.cells_made(es.InfiniteMaze(w, k, 3), k - 1, k) == k * w
    assert _cost.cells_made(es.InfiniteMaze(w, k, 3, loops=1), 0, 1) == k * w
    assert _cost.cells_made(es.InfiniteMaze(w, k, 3), 0, 1) == w  # the band's first row: nothing replayed
    assert _cost.cells_made(es.InfiniteMaze(w, k, 3), -(2**63), -(2**63) + 1) == w


def test_the_eller_stream_replays_from_row_0() -> None:
    assert _cost.eller_cells_made(7, 100, 101) == 101 * 7
    with pytest.raises(ValueError, match="0 <= start < stop"):
        _cost.eller_cells_made(7, -1, 3)
    with pytest.raises(ValueError, match="0 <= start < stop"):
        _cost.eller_cells_made(7, 3, 3)


def test_the_cost_checks_its_range() -> None:
    maze = es.InfiniteMaze(4, 4, 1)
    with pytest.raises(ValueError, match="stop must be greater than start"):
        _cost.cells_made(maze, 5, 5)
    with pytest.raises(TypeError, match="start must be an int"):
        _cost.peak_bytes(maze, 1.5, 3)


def test_peak_bytes() -> None:
    plain = es.InfiniteMaze(10, 8, 1)
    braid = es.InfiniteMaze(10, 8, 1, loops=0.5)
    scratch = par.SCRATCH_PER_CELL * 10  # a row's scratch, whatever the range
    assert _cost.peak_bytes(plain, 3, 5) == 20 + scratch  # a replay runs through a small scratch block
    assert _cost.peak_bytes(braid, 3, 5) == 20 + 80 + scratch  # the band 0 .. 7, made whole
    assert _cost.peak_bytes(braid, 8, 24) == 160 + scratch  # whole bands are made in place
    assert _cost.peak_bytes(braid, 8, 24, out=False) == scratch


def test_rows_refuses_up_front_what_cannot_be_held_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # each array fits (par.alloc's check), but the answer and the whole band it cuts do not, together
    monkeypatch.setattr(par, "_memory_bytes", lambda: 1640)
    maze = es.InfiniteMaze(10, 64, 1, loops=0.5)
    assert maze.rows(0, 64).shape == (64, 10)  # 640 + 640 bytes: whole bands are made in place
    with pytest.raises(ValueError, match=r"rows\(1, 65\) of width 10 and band 64 need 1920 bytes at once"):
        maze.rows(1, 65)
    assert maze.rows(1, 65, out=np.empty((64, 10), np.uint8)).shape == (64, 10)  # the band alone fits


# -- the range checks' messages, past Python's int-digit limit ----------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: es.InfiniteMaze(8, 4, 2**20_000),
            r"seed must be in \[0, 18446744073709551615\], got an int of 20001 bits",
        ),
        (lambda: es.InfiniteMaze(8, 4, 1).rows(0, 10**5000), r"stop must be in .*, got an int of 16610 bits"),
        (
            lambda: es.InfiniteMaze(8, 4, 1).rows(-(10**5000), 0),
            r"start must be in .*, got a negative int of 16610 bits",
        ),
        (lambda: es.InfiniteMaze(2**20_000 + 1), r"width must be in .*, got an int of 20001 bits"),
    ],
)
def test_a_huge_int_is_named_not_printed(call: Any, message: str) -> None:
    # printing it raised Python's "Exceeds the limit (4300 digits)" instead of the check's message
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: es.InfiniteMaze(8, loops=10**5000), r"loops must be in \[0, 1\], got an int of 16610 bits"),
        (lambda: es.InfiniteMaze(8, doors=10**5000), r"doors must be in \(0, 1\], got an int of 16610 bits"),
        (lambda: es.EllerStream(8, 1, horizontal=-(10**5000)), "horizontal must be in .*a negative int of"),
        (
            lambda: es.InfiniteMaze(Fraction(10**5000, 3)),
            "width must be an int, got Fraction: a Fraction too long",
        ),
    ],
)
def test_a_huge_number_is_named_not_printed(call: Any, message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        call()
