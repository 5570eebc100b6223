"""maze.random: a pure function of (seed, row, column, salt), the same
through any split of rows and in any process, and independent of the walls."""

from __future__ import annotations

import hashlib
import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

import eller_stream as es

from naive import cell_random_reference

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("start", [-(2**63), -(2**62) - 3, -1, 0, 10**12, 2**63 - 40])
def test_the_numbers_are_the_plain_python_reference(start):
    maze = es.InfiniteMaze(7, band=5, seed=12345)
    for salt in (0, 1, 2**64 - 1):
        got = maze.random(start, start + 40, salt=salt)
        assert got.dtype == np.float64 and got.shape == (40, 7)
        for y in (0, 1, 17, 39):
            for x in range(7):
                assert got[y, x] == cell_random_reference(12345, start + y, x, salt)


def test_any_split_of_rows_gives_the_same_numbers():
    maze = es.InfiniteMaze(9, band=4, seed=3, loops=0.5)
    whole = maze.random(-500, 500, salt=7)
    rng = np.random.default_rng(0)
    cuts = np.sort(rng.choice(np.arange(-499, 500), 30, replace=False))
    bounds = [-500, *cuts.tolist(), 500]
    parts = [maze.random(a, b, salt=7) for a, b in itertools.pairwise(bounds)]
    assert np.array_equal(np.vstack(parts), whole)
    assert np.array_equal(maze.random(0, 1, salt=7)[0], whole[500])


def test_only_the_seed_the_cell_and_the_salt_matter():
    a = es.InfiniteMaze(12, band=4, seed=5).random(100, 110)
    b = es.InfiniteMaze(5, band=30, seed=5, loops=1.0, rooms=0.2).random(100, 110)
    assert np.array_equal(a[:, :5], b)  # neither the width nor the maze's knobs
    assert not np.array_equal(a, es.InfiniteMaze(12, band=4, seed=6).random(100, 110))
    assert not np.array_equal(a, es.InfiniteMaze(12, band=4, seed=5).random(100, 110, salt=1))


def test_the_same_numbers_in_another_process():
    maze = es.InfiniteMaze(50, band=8, seed=2**63 + 11)
    here = hashlib.sha256(maze.random(-(2**62), -(2**62) + 300, salt=99).tobytes()).hexdigest()
    code = (
        "import hashlib, eller_stream as es;"
        "m = es.InfiniteMaze(50, band=8, seed=2**63 + 11);"
        "print(hashlib.sha256(m.random(-(2**62), -(2**62) + 300, salt=99).tobytes()).hexdigest())"
    )
    env = {**os.environ, "PYTHONPATH": ROOT, "PYTHONHASHSEED": "123"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == here


def test_uniform_in_zero_one():
    from scipy import stats  # here: 0.6 s to import, for the worker that runs this

    r = es.InfiniteMaze(100, band=8, seed=1).random(0, 400).reshape(-1)
    assert 0.0 <= r.min() and r.max() < 1.0
    assert stats.kstest(r, "uniform").pvalue > 1e-4  # 40,000 numbers: a uniform sample passes


@pytest.mark.parametrize("knobs", [{}, {"loops": 0.5, "rooms": 0.2}])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_not_correlated_with_the_walls(seed, knobs):
    """The maze's own draws and the content's come from distinct salts.  A
    chi-square test of independence between a cell's walls (its EAST and
    SOUTH flags: 4 states) and its number in 4 bins, over 48,000 cells,
    must not reject at p = 1e-4; and the correlation of each flag with the
    number stays within 4.5 standard errors (1 / sqrt(n))."""
    from scipy import stats

    maze = es.InfiniteMaze(80, band=16, seed=seed, **knobs)
    walls = maze.rows(-300, 300) & 3
    numbers = maze.random(-300, 300)
    table = np.zeros((4, 4), np.int64)
    np.add.at(table, (walls.reshape(-1), (numbers.reshape(-1) * 4).astype(int)), 1)
    assert stats.chi2_contingency(table).pvalue > 1e-4
    n = walls.size
    for flag in (es.EAST, es.SOUTH):
        r = np.corrcoef((walls & flag).reshape(-1), numbers.reshape(-1))[0, 1]
        assert abs(r) < 4.5 / np.sqrt(n)


def test_the_numbers_of_two_salts_are_independent():
    maze = es.InfiniteMaze(80, band=16, seed=4)
    a, b = maze.random(0, 600, salt=0).reshape(-1), maze.random(0, 600, salt=1).reshape(-1)
    assert abs(np.corrcoef(a, b)[0, 1]) < 4.5 / np.sqrt(a.size)


def test_bad_input():
    maze = es.InfiniteMaze(4, band=4, seed=1)
    with pytest.raises(ValueError, match="stop must be greater than start"):
        maze.random(5, 5)
    with pytest.raises(ValueError, match="salt must be in"):
        maze.random(0, 1, salt=-1)
    with pytest.raises(TypeError, match="salt must be an int"):
        maze.random(0, 1, salt=0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="start must be in"):
        maze.random(-(2**63) - 1, 0)


def test_placing_an_item_the_player_can_reach():
    """The README's recipe: the reachable cell of the window with the smallest number."""
    maze = es.InfiniteMaze(20, band=8, seed=3, rooms=0.2)
    win = es.Window(maze, row=500)
    player = (500, 10)
    numbers = np.where(win.reachable(player), maze.random(win.top, win.bottom, salt=1), np.inf)
    y, x = np.unravel_index(np.argmin(numbers), numbers.shape)
    item = (win.top + int(y), int(x))
    assert win.path(player, item) is not None
