"""Rooms in the banded maze (issue 20): placement and rows against the
plain model in naive.py, byte for byte; a tree once each room is one node
(union-find in naive.py), the detour bound (BFS), streams, checkpoints,
schedules and bad input."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import probabilities, room_shares, seeds

import eller_stream as es

from naive import (
    EAST,
    SOUTH,
    banded_reference,
    component_labels,
    contracted_problems,
    detour_reference,
    rooms_reference,
)

pytestmark = pytest.mark.usefixtures("numba_answers")


@given(
    width=st.integers(1, 60),
    band=st.integers(2, 40),
    seed=seeds,
    horizontal=probabilities,
    vertical=probabilities,
    loops=probabilities,
    rooms=room_shares,
    first_band=st.integers(-3, 3),
    cut=st.integers(0, 39),
)
def test_rows_with_rooms_match_the_model(
    width, band, seed, horizontal, vertical, loops, rooms, first_band, cut
):
    maze = es.InfiniteMaze(width, band, seed, horizontal, vertical, loops=loops, rooms=rooms)
    start = first_band * band - 1 - cut % band
    stop = start + 2 * band + 2 + cut
    expected = banded_reference(
        width, band, seed, start, stop, horizontal, vertical, 0.45, loops, rooms=rooms
    )
    np.testing.assert_array_equal(maze.rows(start, stop), expected)


@given(
    width=st.integers(1, 60),
    band=st.integers(2, 40),
    seed=seeds,
    rooms=room_shares,
    b=st.integers(-(2**40), 2**40),
)
def test_room_rects_are_the_models_and_open_inside(width, band, seed, rooms, b):
    maze = es.InfiniteMaze(width, band, seed, rooms=rooms)
    rects = maze.room_rects(b * band, b * band + band)
    assert rects.dtype == np.int64 and rects.shape[1] == 4 and rects.flags.c_contiguous
    model = [(t + b * band, x, h, w) for t, x, h, w in rooms_reference(width, band, seed, b, rooms)]
    assert [tuple(r) for r in rects.tolist()] == model
    grid = maze.rows(b * band, b * band + band)
    taken = np.zeros(grid.shape, bool)
    for top, left, h, w in rects.tolist():
        y = top - b * band
        assert (
            0 <= y and y + h <= band - 2 and 2 <= h and 2 <= w and left + w <= width
        )  # off the last two rows
        assert not taken[max(y - 1, 0) : y + h + 1, max(left - 1, 0) : left + w + 1].any()  # apart
        taken[y : y + h, left : left + w] = True
        assert (grid[y : y + h, left : left + w - 1] & EAST).all()
        assert (grid[y : y + h - 1, left : left + w] & SOUTH).all()


def test_room_rects_of_a_range():
    maze = es.InfiniteMaze(40, 10, seed=3, rooms=0.3)
    whole = maze.room_rects(-30, 30)
    tops, bottoms = whole[:, 0], whole[:, 0] + whole[:, 2]
    assert len(whole) > 10 and tops.min() >= -30 and bottoms.max() <= 30
    part = maze.room_rects(-4, 13)  # the rooms that meet rows -4 .. 12
    expected = whole[(tops < 13) & (bottoms > -4)]
    np.testing.assert_array_equal(part, expected)
    assert es.InfiniteMaze(40, 10, seed=3).room_rects(0, 100).shape == (0, 4)
    assert es.InfiniteMaze(40, 3, seed=3, rooms=0.5).room_rects(0, 100).shape == (
        0,
        4,
    )  # no room fits a band of 3
    with pytest.raises(ValueError, match="stop"):
        maze.room_rects(5, 5)
    with pytest.raises(TypeError, match="start"):
        maze.room_rects(0.5, 5)


def test_room_rects_of_a_long_range_answer_at_once(monkeypatch):
    """``room_rects(0, 10**9)`` at band 2 never answered (issue 32): bands too
    short for a room answer at once; a range past ``MAX_ROOM_BANDS`` bands is
    a ValueError, as ``rows()`` refuses a range it cannot make."""
    assert es.InfiniteMaze(30, band=2, seed=1, rooms=0.5).room_rects(0, 10**9).shape == (0, 4)
    maze = es.InfiniteMaze(30, band=4, seed=1, rooms=0.5)
    with pytest.raises(ValueError, match=f"at most {es.banded.MAX_ROOM_BANDS} bands"):
        maze.room_rects(0, 10**9)
    monkeypatch.setattr(es.banded, "MAX_ROOM_BANDS", 300)  # the bound itself, at a size quick to reach
    assert len(maze.room_rects(-4, 4 * 299)) > 0
    with pytest.raises(ValueError, match="cross 301 bands of 4: room_rects places the rooms of at most 300"):
        maze.room_rects(-4, 4 * 299 + 1)
    big = es.InfiniteMaze(4096, band=4096, seed=1, rooms=0.9)  # 2**24 cells a band: 0.2 s each
    with pytest.raises(ValueError, match=f"{es.banded.MAX_ROOM_CELLS} cells, a call"):
        big.room_rects(0, 10**9)  # 244,141 bands: about 15 hours


@pytest.mark.parametrize("band", [4, 5, 7, 16, 33])
@pytest.mark.parametrize("end", ["first", "last"])
def test_room_rects_at_the_ends_of_the_maze_are_cut_to_its_rows(band, end):
    """``room_rects(-2**63, ...)`` raised OverflowError for a band that is not
    a power of two (issue 32): the rooms of the end bands are the model's,
    cut to the rows ``[-2**63, 2**63)``."""
    maze = es.InfiniteMaze(30, band=band, seed=5, rooms=0.6)
    start, stop = (-(2**63), -(2**63) + 3 * band) if end == "first" else (2**63 - 3 * band, 2**63)
    rects = maze.room_rects(start, stop)
    expected = []
    for b in range(start // band, (stop - 1) // band + 1):
        for t, x, h, w in rooms_reference(30, band, 5, b, 0.6):
            top, bottom = b * band + t, b * band + t + h
            if top < stop and bottom > start:  # it meets the range: kept, cut to the maze's rows
                top, bottom = max(top, -(2**63)), min(bottom, 2**63)
                expected.append((top, x, bottom - top, w))
    assert expected and [tuple(r) for r in rects.tolist()] == expected


def test_the_room_share_is_about_rooms():
    for rooms, low, high in [(0.1, 0.08, 0.13), (0.3, 0.22, 0.32)]:
        rects = es.InfiniteMaze(80, 32, seed=1, rooms=rooms).room_rects(0, 32 * 50)
        share = float((rects[:, 2] * rects[:, 3]).sum()) / (80 * 32 * 50)
        assert low <= share <= high, (rooms, share)


@given(
    width=st.integers(1, 30),
    band=st.integers(2, 12),
    seed=seeds,
    horizontal=probabilities,
    vertical=probabilities,
    rooms=room_shares,
    first_band=st.integers(-(2**40), 2**40),
    bands=st.integers(1, 3),
    extra=st.integers(0, 11),
)
def test_windows_closed_by_finish_are_trees_of_places(
    width, band, seed, horizontal, vertical, rooms, first_band, bands, extra
):
    maze = es.InfiniteMaze(width, band, seed, horizontal, vertical, rooms=rooms)
    start = first_band * band
    stream = maze.stream(start=start)
    n = bands * band + extra % band
    grid = np.vstack([stream.take(n), stream.finish()[None]])
    # the closing row stands for row start + n: the rooms are cut to the rows before it
    rects = [
        (t - start, x, min(h, start + n - t), w) for t, x, h, w in maze.room_rects(start, start + n).tolist()
    ]
    assert contracted_problems(grid, rects) == []
    if rects:
        assert es.metrics(grid).loops > 0  # a room's open walls are loops of cells, not of places


@given(
    width=st.integers(1, 12),
    band=st.integers(2, 8),
    seed=seeds,
    loops=probabilities,
    rooms=room_shares,
    first_band=st.integers(-(2**40), 2**40),
)
def test_detour_within_the_band_by_bfs(width, band, seed, loops, rooms, first_band):
    maze = es.InfiniteMaze(width, band, seed, loops=loops, rooms=rooms)
    grid = maze.rows(first_band * band, first_band * band + 3 * band + 1)
    expected = detour_reference(grid)
    assert es.detour(grid).tolist() == expected and all(0 <= d <= band - 1 for d in expected)


def test_detour_within_the_band_on_long_windows():
    for band in (4, 9, 32):
        grid = es.InfiniteMaze(60, band, seed=band, loops=0.3, rooms=0.25).rows(
            -band * 10**6, -band * 10**6 + 2000
        )
        d = es.detour(grid)
        assert d.min() >= 0 and d.max() <= band - 1


@given(
    width=st.integers(1, 30),
    band=st.integers(2, 12),
    seed=seeds,
    rooms=room_shares,
    loops=st.sampled_from([0.0, 0.5]),
    start=st.integers(-100, 100),
    cuts=st.lists(st.integers(0, 25), min_size=1, max_size=5),
)
def test_stream_rows_are_the_maze_rows(width, band, seed, rooms, loops, start, cuts):
    maze = es.InfiniteMaze(width, band, seed, rooms=rooms, loops=loops)
    stream = maze.stream(start)
    parts = []
    for i, n in enumerate(cuts):
        parts.append(
            np.array([next(stream) for _ in range(n)]).reshape(n, width) if i % 2 else stream.take(n)
        )
        if i == 1:
            stream = es.BandedStream.resume(stream.checkpoint())
    np.testing.assert_array_equal(
        np.vstack(parts), maze.rows(start, start + sum(cuts)) if sum(cuts) else parts[0]
    )


def test_checkpoints_and_schedules_carry_the_rooms():
    ramp = es.Schedule({0: {"rooms": 0.0}, 8: {"rooms": 0.4, "loops": 0.2}})
    maze = es.InfiniteMaze(17, 6, seed=2, rooms=0.1, schedule=ramp)
    assert maze.band_params(-1).rooms == 0.0 and maze.band_params(4).rooms == 0.2
    stream = maze.stream(-9)
    stream.take(40)
    resumed = es.BandedStream.resume(stream.checkpoint())
    assert resumed.maze == maze
    np.testing.assert_array_equal(resumed.take(30), maze.rows(31, 61))
    keyframes = {0: {"rooms": 0.0}, 8: {"rooms": 0.4, "loops": 0.2}}
    expected = banded_reference(17, 6, 2, -9, 70, schedule=keyframes, rooms=0.1)
    np.testing.assert_array_equal(maze.rows(-9, 70), expected)
    assert b'"rooms":0.1' in stream.checkpoint()
    assert b"rooms" not in es.InfiniteMaze(17, 6, seed=2).stream().checkpoint()


GOLDEN = {  # computed with naive.banded_reference, not with the kernels
    (80, 32, 1, 0.5, 0.5, None, 0.0, 0.3, -100, 300): (
        "4cbe6c86cc75be35ddbbaf0f23b0a0e5059c0921b570697d92a420ec12afe5bc"
    ),
    (9, 6, 2**64 - 1, 0.3, 0.9, 0.2, 1.0, 0.5, 10**15, 10**15 + 77): (
        "7026685d3fc3a3eecf1e0485e465f7b501f13b86d8695448d2993b96f0e1e5de"
    ),
    (30, 4, 5, 0.5, 0.5, None, 0.0, 0.9, -7, 40): (
        "0a86eb6dd8741d160b293232d182bbd7d046c78a6b64a12dad6dc0f311940d6d"
    ),
}


@pytest.mark.parametrize("case", list(GOLDEN))
def test_golden_hashes(case):
    width, band, seed, h, v, doors, loops, rooms, start, stop = case
    rows = es.InfiniteMaze(width, band, seed, h, v, doors, loops=loops, rooms=rooms).rows(start, stop)
    assert hashlib.sha256(rows.tobytes()).hexdigest() == GOLDEN[case]


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (1.0, ValueError),
        (-0.1, ValueError),
        (float("nan"), ValueError),
        (True, TypeError),
        ("0.1", TypeError),
    ],
)
def test_bad_rooms_are_refused(value, error):
    with pytest.raises(error, match="rooms"):
        es.InfiniteMaze(5, rooms=value)
    with pytest.raises(error, match="rooms"):
        es.Schedule({0: {"rooms": value}})


@pytest.mark.parametrize("band", [4, 5, 6, 8, 11])
def test_room_placement_sweep(band):
    # small bands and widths: rooms often end one row or column short of the edge
    for width in (2, 3, 5, 9, 13, 30):
        for rooms in (0.3, 0.6, 0.99):
            for seed in range(6):
                maze = es.InfiniteMaze(width, band, seed, rooms=rooms)
                for b in (-1, 0, 3):
                    got = (maze.room_rects(b * band, b * band + band) - [b * band, 0, 0, 0]).tolist()
                    assert [tuple(r) for r in got] == rooms_reference(width, band, seed, b, rooms)


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(2, 40),
    band=st.integers(4, 24),
    seed=seeds,
    vertical=probabilities,
    rooms=room_shares,
    b=st.integers(-3, 3),
)
def test_a_set_enters_a_rooms_top_row_only_as_its_last_way_down(width, band, seed, vertical, rooms, b):
    # docs/spec.md 5.3, rule 3.2: above a room's top row, a cell opens only when its set
    # (the components of the band's rows so far, by BFS) opens nowhere else in that row
    maze = es.InfiniteMaze(width, band, seed, vertical=vertical, rooms=rooms)
    grid = maze.rows(b * band, (b + 1) * band)
    for top, left, _, w in (maze.room_rects(b * band, (b + 1) * band) - [b * band, 0, 0, 0]).tolist():
        if top == 0:
            continue
        sets = component_labels(grid[:top])[-1]  # row top - 1's sets: the band starts from sets of one cell
        opened = [sets[x] for x in range(width) if grid[top - 1, x] & SOUTH]
        for x in range(left, left + w):
            if grid[top - 1, x] & SOUTH:
                assert opened.count(sets[x]) == 1, (top, x)


@settings(max_examples=40, deadline=None)
@given(
    width=st.integers(60, 200),
    band=st.integers(4, 14),
    seed=seeds,
    rooms=st.sampled_from([0.1, 0.3, 0.6, 0.99]),
    loops=st.sampled_from([0.0, 0.5]),
    b=st.integers(-2, 2),
)
def test_wide_rows_with_rooms_match_the_model(width, band, seed, rooms, loops, b):
    # rooms across the placement bitmap's 64-column words
    maze = es.InfiniteMaze(width, band, seed, loops=loops, rooms=rooms)
    got = (maze.room_rects(b * band, b * band + band) - [b * band, 0, 0, 0]).tolist()
    assert [tuple(r) for r in got] == rooms_reference(width, band, seed, b, rooms)
    expected = banded_reference(width, band, seed, b * band, (b + 1) * band, loops=loops, rooms=rooms)
    np.testing.assert_array_equal(maze.rows(b * band, (b + 1) * band), expected)
