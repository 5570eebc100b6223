"""Loops in the banded maze (issue 20): the braid kernel against the plain
model in naive.py, byte for byte, and against independent oracles (BFS,
union-find): the detour bound, dead ends, loop counts, streams,
checkpoints, the parallel path and bad input."""

from __future__ import annotations

import hashlib
import pickle
import random

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import door_probabilities, probabilities, seeds

import eller_stream as es
from eller_stream import _parallel as par

from naive import (
    EAST,
    SOUTH,
    banded_reference,
    detour_reference,
    loop_count,
    neighbours,
    perfect_problems,
)

pytestmark = pytest.mark.usefixtures("numba_answers")


def dead_ends(grid: np.ndarray, rows: range) -> list[tuple[int, int]]:
    """The cells of ``rows`` with exactly one open side (BFS neighbours)."""
    return [(y, x) for y in rows for x in range(grid.shape[1]) if len(neighbours(grid, y, x)) == 1]


# -- the kernel is the model, byte for byte ------------------------------------------


@given(
    width=st.integers(1, 60),
    band=st.integers(2, 40),
    seed=seeds,
    horizontal=probabilities,
    vertical=probabilities,
    doors=door_probabilities,
    loops=probabilities,
    first_band=st.integers(-3, 3),
    cut=st.integers(0, 39),
)
def test_braided_rows_match_the_model(width, band, seed, horizontal, vertical, doors, loops, first_band, cut):
    maze = es.InfiniteMaze(width, band, seed, horizontal, vertical, doors, loops=loops)
    start = first_band * band - 1 - cut % band  # partial bands at both ends, whole ones between
    stop = start + 2 * band + 2 + cut
    expected = banded_reference(width, band, seed, start, stop, horizontal, vertical, doors, loops)
    np.testing.assert_array_equal(maze.rows(start, stop), expected)


@pytest.mark.parametrize("width", [64, 65, 100, 128, 130, 200])
@pytest.mark.parametrize("loops", [0.5, 1.0])
def test_braided_rows_past_a_word_match_the_model(width, loops):
    """Rows of more than 64 cells: the braid's scan works a word of 64
    columns at a time, and runs of candidates cross from one word into the
    next (the hypothesis test above keeps to one word)."""
    maze = es.InfiniteMaze(width, 16, 5, loops=loops)
    np.testing.assert_array_equal(maze.rows(-16, 48), banded_reference(width, 16, 5, -16, 48, loops=loops))


def test_loops_zero_is_todays_maze():
    for args in [(13, 5, 11, 0.4, 0.6, 0.3), (80, 32, 7, 0.5, 0.5, None), (1, 2, 0, 1.0, 0.0, 1.0)]:
        old, new = es.InfiniteMaze(*args), es.InfiniteMaze(*args, loops=0.0)
        assert old == new and old._plain and new._plain
        np.testing.assert_array_equal(old.rows(-37, 91), new.rows(-37, 91))


def test_loops_only_open_walls_inside_bands():
    for seed in range(4):
        plain = es.InfiniteMaze(25, 7, seed).rows(-14, 70)
        braided = es.InfiniteMaze(25, 7, seed, loops=0.6).rows(-14, 70)
        assert not (plain & ~braided).any()  # nothing closed
        added = braided & ~plain
        assert added.any()
        seam_rows = np.arange(-14, 70) % 7 == 6
        assert not (added[seam_rows] & SOUTH).any()  # the doors stay the doors


@pytest.mark.parametrize("width", [1, 2, 3, 17])
@pytest.mark.parametrize("band", [2, 3, 9])
def test_loops_one_leaves_no_dead_end(width, band):
    maze = es.InfiniteMaze(width, band, seed=width * band, loops=1.0)
    grid = maze.rows(-2 * band, 5 * band)
    assert dead_ends(grid, range(1, grid.shape[0] - 1)) == []  # the window's edges cut cells off
    assert es.metrics(grid).loops == loop_count(grid)


def test_dead_end_share_falls_with_loops():
    shares = []
    for loops in (0.0, 0.25, 0.5, 0.75, 1.0):
        grid = es.InfiniteMaze(60, 16, seed=5, loops=loops).rows(0, 16 * 12)
        shares.append(len(dead_ends(grid, range(1, grid.shape[0] - 1))))
    assert shares == sorted(shares, reverse=True) and shares[-1] == 0 and shares[0] > 0


# -- the detour bound, loops and connectivity ----------------------------------------


@given(
    width=st.integers(1, 12),
    band=st.integers(2, 7),
    seed=seeds,
    horizontal=probabilities,
    vertical=probabilities,
    loops=probabilities,
    first_band=st.integers(-(2**40), 2**40),
)
def test_detour_within_the_band_by_bfs(width, band, seed, horizontal, vertical, loops, first_band):
    maze = es.InfiniteMaze(width, band, seed, horizontal, vertical, loops=loops)
    start = first_band * band
    grid = maze.rows(start, start + 3 * band + 1)
    expected = detour_reference(grid)
    assert es.detour(grid).tolist() == expected
    assert all(0 <= d <= band - 1 for d in expected)


@pytest.mark.parametrize("loops", [0.1, 0.5, 1.0])
def test_detour_within_the_band_on_long_windows(loops):
    for band in (2, 5, 32):
        maze = es.InfiniteMaze(40, band, seed=band, loops=loops)
        grid = maze.rows(-(10**9) * band, -(10**9) * band + 1500)  # from a band's first row
        d = es.detour(grid)
        assert d.min() >= 0 and d.max() <= band - 1


@given(
    width=st.integers(1, 30),
    band=st.integers(2, 10),
    seed=seeds,
    loops=probabilities,
    first_band=st.integers(-(2**40), 2**40),
    bands=st.integers(1, 3),
)
def test_windows_closed_by_finish_are_connected_with_their_loops(width, band, seed, loops, first_band, bands):
    stream = es.InfiniteMaze(width, band, seed, loops=loops).stream(start=first_band * band)
    grid = np.vstack([stream.take(bands * band), stream.finish()[None]])
    problems = perfect_problems(grid)
    n = loop_count(grid)
    assert es.metrics(grid).loops == n
    assert all(p.startswith("loop closed") for p in problems[:n]) and len(problems) == n + (n > 0)
    assert es.is_perfect(grid) == (n == 0)
    if loops == 0.0:
        assert problems == []


def test_a_braided_grid_is_not_perfect():
    grid = es.closed_rows(es.InfiniteMaze(20, 6, seed=1, loops=0.5).stream(), 25)
    m = es.metrics(grid)
    assert m.loops > 0 and m.loops == m.passages - m.cells + 1 and not es.is_perfect(grid)


# -- streams, the parallel path, checkpoints ------------------------------------------


@given(
    width=st.integers(1, 30),
    band=st.integers(2, 12),
    seed=seeds,
    loops=probabilities,
    start=st.integers(-100, 100),
    cuts=st.lists(st.integers(0, 25), min_size=1, max_size=6),
)
def test_stream_rows_are_the_maze_rows(width, band, seed, loops, start, cuts):
    maze = es.InfiniteMaze(width, band, seed, loops=loops)
    stream = maze.stream(start)
    parts = []
    for i, n in enumerate(cuts):
        if i % 3 == 1 and n:
            parts.append(np.array([next(stream) for _ in range(n)]))
        else:
            parts.append(stream.take(n))
        if i == 2:  # a resumed stream goes on with the same rows
            stream = es.BandedStream.resume(stream.checkpoint())
    total = sum(cuts)
    np.testing.assert_array_equal(np.vstack(parts), maze.rows(start, start + total) if total else parts[0])


def test_the_stream_holds_one_band():
    maze = es.InfiniteMaze(50, band=400, seed=3, loops=0.5)
    stream = maze.stream(-5)
    rows = stream.take(900)
    np.testing.assert_array_equal(rows, maze.rows(-5, 895))
    held = stream._held
    assert held is not None and held[1].shape == (400, 50)


def test_the_parallel_path_gives_the_same_rows(monkeypatch):
    maze = es.InfiniteMaze(37, 9, seed=4, loops=0.7)
    n = 9 * 500 + 4
    whole = maze.rows(-9 * 40 - 4, -9 * 40 - 4 + n)  # >= _PARALLEL_CELLS: every core
    assert whole.size >= par.PARALLEL_CELLS
    monkeypatch.setattr(par, "PARALLEL_CELLS", 2**62)  # one core now
    np.testing.assert_array_equal(whole, maze.rows(-9 * 40 - 4, -9 * 40 - 4 + n))
    by_band = np.vstack([maze.rows(r, r + 9) for r in range(-9 * 40 - 9, -9 * 40 - 4 + n, 9)])
    np.testing.assert_array_equal(whole, by_band[5 : 5 + n])


def test_a_range_on_every_core_is_the_serial_one(monkeypatch):
    """A run of bands a thread, each with its own thresholds of the schedule
    (sliced per run), past the uint64 wrap of the band numbers: the bytes of
    one thread, of the stream and of the bands one at a time."""
    ramp = es.Schedule({-4: {"loops": 1.0, "doors": 0.2}, -1: {"rooms": 0.4}, 2: {"horizontal": 0.9}})
    threads, parts, real = numba.get_num_threads(), [], par.run_parts
    monkeypatch.setattr(par, "PARALLEL_CELLS", 1)
    monkeypatch.setattr(par, "run_parts", lambda p: parts.append(len(p)) or real(p))
    for maze in (es.InfiniteMaze(23, 6, seed=8, loops=0.5), es.InfiniteMaze(23, 6, seed=8, schedule=ramp)):
        parts.clear()
        parallel = maze.rows(-30, 50)  # 13 whole bands (6 and 7 a thread) and 2 rows of one
        assert max(parts) == threads > 1
        try:
            numba.set_num_threads(1)
            np.testing.assert_array_equal(maze.rows(-30, 50), parallel)
        finally:
            numba.set_num_threads(threads)
        np.testing.assert_array_equal(maze.stream(-30).take(80), parallel)
        by_band = np.vstack([maze.rows(r, r + 6) for r in range(-30, 54, 6)])
        np.testing.assert_array_equal(by_band[:80], parallel)


def test_checkpoints_keep_the_loops():
    maze = es.InfiniteMaze(12, 5, seed=2, loops=0.35)
    stream = maze.stream(-3)
    stream.take(7)
    resumed = es.BandedStream.resume(stream.checkpoint())
    assert resumed.maze == maze and resumed.params.loops == 0.35
    np.testing.assert_array_equal(resumed.take(20), maze.rows(4, 24))
    again = pickle.loads(pickle.dumps(resumed))
    np.testing.assert_array_equal(again.take(3), maze.rows(24, 27))
    # a maze without loops still saves the bytes it saved before loops existed
    assert b"loops" not in es.InfiniteMaze(12, 5, seed=2).stream().checkpoint()
    assert b'"loops":0.35' in stream.checkpoint()


# -- golden hashes and bad input ------------------------------------------------------

GOLDEN = {  # computed with naive.banded_reference, not with the kernels
    (80, 32, 1, 0.5, 0.5, None, 0.25, -100, 300): (
        "551064036992695001d005ba8020d09a2d0a34ed90ced916928abac9aeb36fd8"
    ),
    (9, 4, 2**64 - 1, 0.3, 0.9, 0.2, 1.0, 10**15, 10**15 + 77): (
        "b6e5e352db0ada179fd0afed22be5b36a457660d5a12476e0848a5b84d826377"
    ),
    (1, 3, 5, 0.5, 0.5, None, 1.0, -7, 20): (
        "f3e2d95108f66c4aa780a32b05f101b06b8f8dafd2699d0d686f7494a602028b"
    ),
    (40, 2, 0, 1.0, 0.0, 1.0, 0.5, 0, 60): (
        "835abeb39a52327c375f8accbaecd82add7eb4737b0d35219b6ffbfec136e554"
    ),
}


@pytest.mark.parametrize("case", list(GOLDEN))
def test_golden_hashes(case):
    width, band, seed, h, v, doors, loops, start, stop = case
    rows = es.InfiniteMaze(width, band, seed, h, v, doors, loops=loops).rows(start, stop)
    assert hashlib.sha256(rows.tobytes()).hexdigest() == GOLDEN[case]


@pytest.mark.parametrize(
    ("value", "error"),
    [(-0.1, ValueError), (1.5, ValueError), (float("nan"), ValueError), (True, TypeError), ("1", TypeError)],
)
def test_bad_loops_are_refused(value, error):
    with pytest.raises(error, match="loops"):
        es.InfiniteMaze(5, loops=value)
    with pytest.raises(error, match="loops"):
        es.BandParams(loops=value)


def test_random_ranges_agree_with_whole_bands():
    rng = random.Random(20)
    maze = es.InfiniteMaze(31, 11, seed=9, loops=0.45)
    ref = maze.rows(-11 * 8, 11 * 8)
    for _ in range(40):
        a = rng.randrange(-88, 87)
        b = rng.randrange(a + 1, 89)
        np.testing.assert_array_equal(maze.rows(a, b), ref[a + 88 : b + 88])
        assert (maze[a] == ref[a + 88]).all()
    assert (ref & (EAST | SOUTH) == ref).all()
