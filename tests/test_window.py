"""es.Window and es.distances against the plain breadth-first oracle of
tests/naive.py, on hundreds of random windows scrolled both ways from rows
near -2**62, 0 and 2**62, with and without loops and rooms."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eller_stream as es

from naive import bfs_distances_reference, neighbours

STEPS = {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}
MAZES = [
    {},
    {"loops": 0.6},
    {"rooms": 0.25},
    {"loops": 0.3, "rooms": 0.2},
    {"schedule": es.Schedule({0: {"loops": 1.0}, 3: {"loops": 0.0, "rooms": 0.2}})},
]


def check_window(win: es.Window, maze: es.InfiniteMaze, rng: random.Random) -> None:
    """Everything the window says about its rows, against a fresh copy of
    the rows and the oracle."""
    rows = maze.rows(win.top, win.bottom)
    assert win.rows.tolist() == rows.tolist()
    assert win.top == max(win.row - win.above, -(2**63)) and win.bottom == min(win.row + win.below + 1, 2**63)
    h, w = rows.shape
    for _ in range(2):
        a = (rng.randrange(h), rng.randrange(w))
        b = (rng.randrange(h), rng.randrange(w))
        absolute_a, absolute_b = (a[0] + win.top, a[1]), (b[0] + win.top, b[1])
        expect = bfs_distances_reference(rows, a)
        assert win.distances(absolute_a).tolist() == expect.tolist()
        assert es.distances(rows, a).tolist() == expect.tolist()
        assert win.reachable(absolute_a).tolist() == (expect >= 0).tolist()
        path = win.path(absolute_a, absolute_b)
        if expect[b] < 0:
            assert path is None
            continue
        assert path.dtype == np.int64 and path.shape == (expect[b] + 1, 2)  # a shortest path
        assert tuple(path[0]) == absolute_a and tuple(path[-1]) == absolute_b
        cells = [(int(y) - win.top, int(x)) for y, x in path]
        for here, there in itertools.pairwise(cells):
            assert there in neighbours(rows, *here)
        for name, (dy, dx) in STEPS.items():
            y, x = a
            open_ = (y + dy, x + dx) in neighbours(rows, y, x)
            assert win.can_move(absolute_a, name) is open_
            assert win.can_move(absolute_a, (dy, dx)) is open_


@pytest.mark.parametrize("origin", [-(2**62), 0, 2**62])
@pytest.mark.parametrize("knobs", range(len(MAZES)))
def test_random_windows_agree_with_the_oracle(origin, knobs):
    rng = random.Random(origin ^ knobs)
    for trial in range(8):
        width, band = rng.randrange(1, 12), rng.randrange(2, 9)
        maze = es.InfiniteMaze(width, band=band, seed=rng.randrange(2**64), **MAZES[knobs])
        above = None if trial % 2 else rng.randrange(0, 12)
        row = origin + rng.randrange(-50, 50)
        win = es.Window(maze, row=row, above=above, below=rng.randrange(0, 20))
        assert win.above == (band - 1 if above is None else above)
        check_window(win, maze, rng)
        for _ in range(6):  # scroll both ways: by a row, by a few, and by more than the window
            row += rng.choice([1, -1, 2, -3, 7, -7, 40, -40, 0])
            made = win.rows_made
            old_top, old_bottom = win.top, win.bottom
            win.move_to(row)
            assert win.row == row
            overlap = max(0, min(old_bottom, win.bottom) - max(old_top, win.top))
            assert win.rows_made - made == (win.bottom - win.top) - overlap  # only the new rows are made
            check_window(win, maze, rng)


def test_the_window_reaches_the_ends_of_the_maze():
    maze = es.InfiniteMaze(5, band=4, seed=9, loops=0.5)
    rng = random.Random(1)
    win = es.Window(maze, row=-(2**63), below=6)
    assert (win.top, win.bottom) == (-(2**63), -(2**63) + 7)
    check_window(win, maze, rng)
    win.move_to(2**63 - 1)
    assert (win.top, win.bottom) == (2**63 - 4, 2**63)
    check_window(win, maze, rng)
    path = win.path((2**63 - 1, 0), (2**63 - 4, 4))
    assert path is None or path[:, 0].max() == 2**63 - 1


def test_a_player_in_the_window_is_never_stranded():
    """The guarantee the default ``above`` keeps: from every cell of the
    player's row some cell of the next row is reachable inside the window."""
    for knobs in MAZES:
        maze = es.InfiniteMaze(30, band=6, seed=4, **knobs)
        win = es.Window(maze, row=-1000, below=1)
        for row in range(-1000, -940):
            win.move_to(row)
            y = row - win.top
            for x in range(0, 30, 7):
                assert bfs_distances_reference(win.rows, (y, x))[y + 1].max() >= 0


def test_the_rows_are_read_only_and_the_window_prints():
    win = es.Window(es.InfiniteMaze(4, band=3, seed=1), row=5, below=2)
    with pytest.raises(ValueError, match="read-only"):
        win.rows[0, 0] = 0
    assert "row=5" in repr(win) and win.tiles().tolist() == es.tiles(win.rows, top=False).tolist()


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda w: w.distances((9, 0)), ValueError, r"cell row 9 is outside the window: rows -7 to 8"),
        (lambda w: w.distances((-8, 0)), ValueError, r"cell row -8 is outside the window"),
        (lambda w: w.can_move((0, 4), "south"), ValueError, r"cell column 4 is outside the maze"),
        (lambda w: w.path((0, 0), (20, 0)), ValueError, r"^b row 20 is outside"),
        (lambda w: w.path((0, -1), (0, 0)), ValueError, r"^a column -1 is outside"),
        (lambda w: w.reachable(0), TypeError, r"cell must be a \(row, column\) pair"),
        (lambda w: w.distances((0.5, 1)), TypeError, r"cell\[0\] \(row\) must be an int"),
        (lambda w: w.can_move((0, 0), "up"), ValueError, r"direction must be one of .*got 'up'"),
        (lambda w: w.can_move((0, 0), (1, 1)), ValueError, r"direction .*got \(1, 1\)"),
        (lambda w: w.can_move((0, 0), (0, 2)), ValueError, r"direction .*got \(0, 2\)"),
        (lambda w: w.can_move((0, 0), 3), ValueError, r"direction .*got 3"),
        (lambda w: w.move_to(2**63), ValueError, r"row must be in"),
        (lambda w: w.move_to("1"), TypeError, r"row must be an int"),
    ],
)
def test_bad_input_names_the_argument(call, error, match):
    win = es.Window(es.InfiniteMaze(4, band=8, seed=1), row=0, below=8)
    with pytest.raises(error, match=match):
        call(win)


def test_bad_window_arguments():
    maze = es.InfiniteMaze(4, band=8, seed=1)
    with pytest.raises(TypeError, match="maze must be an InfiniteMaze"):
        es.Window(es.EllerStream(4, seed=1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="above must be in"):
        es.Window(maze, above=-1)
    with pytest.raises(TypeError, match="below must be an int"):
        es.Window(maze, below=1.5)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.integers(0, 2**32),
    st.sampled_from(["eller", "loops", "random-bits"]),
    st.data(),
)
def test_distances_of_any_grid_agree_with_the_oracle(w, h, seed, kind, data):
    if kind == "eller":
        grid = es.eller(w, h, seed=seed)
    elif kind == "loops":
        grid = es.InfiniteMaze(w, band=3, seed=seed, loops=1.0).rows(0, h)
    else:  # any flags, out of the grid too, in parts
        grid = np.random.default_rng(seed).integers(0, 256, (h, w)).astype(np.uint8)
    cell = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    assert es.distances(grid, cell).tolist() == bfs_distances_reference(grid & 3, cell).tolist()


def test_distances_bad_input():
    with pytest.raises(ValueError, match=r"cell\[0\] \(y\) must be in \[0, 1\]"):
        es.distances(es.eller(3, 2, seed=1), (2, 0))
    with pytest.raises(TypeError, match="grid must be a numpy uint8 array"):
        es.distances([[1, 0]], (0, 0))  # type: ignore[arg-type]


def test_solve_raises_when_the_grid_does_not_connect_the_cells():
    grid = np.array([[1, 0, 0], [0, 0, 0]], np.uint8)  # (0, 0)-(0, 1); the rest alone
    assert es.solve(grid, (0, 0), (0, 1)).tolist() == [[0, 0], [0, 1]]
    with pytest.raises(ValueError, match=r"end \(1, 2\) cannot be reached from start \(0, 0\): the grid"):
        es.solve(grid, (0, 0), (1, 2))
    looped = np.array([[3, 2, 0], [1, 0, 0]], np.uint8)  # a loop, and a part apart
    with pytest.raises(ValueError, match="does not connect them"):
        es.solve(looped, (0, 0), (0, 2))
