"""The game kit of es.Window against the oracle of tests/naive.py: tile_of
and cell_of against tiles(), step against can_move, the fog of war across
scrolls both ways, and the rule of lasting items over long random walks
(every cell it marks stays marked and reachable while the player stays
within reach of it), with the counter-example that shows why a rule is
needed: a cell reachable when placed is not always reachable later while
it is still kept."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import seeds

import eller_stream as es

from naive import bfs_distances_reference, lasting_reference, neighbours

TOP = 2**63
MAZES = [
    {},
    {"loops": 1.0},
    {"loops": 0.4},
    {"rooms": 0.3},
    {"loops": 0.5, "rooms": 0.2},
    {"schedule": es.Schedule({0: {"loops": 1.0}, 4: {"loops": 0.0, "rooms": 0.25}})},
]
rows_near = st.one_of(st.integers(-60, 60), st.integers(-TOP, -TOP + 40), st.integers(TOP - 40, TOP - 1))


def absolute(win: es.Window, mask: np.ndarray) -> set[tuple[int, int]]:
    return {(win.top + int(y), int(x)) for y, x in zip(*np.nonzero(mask), strict=True)}


def test_directions_are_public_and_read_only() -> None:
    assert dict(es.DIRECTIONS) == {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}
    with pytest.raises(TypeError):
        es.DIRECTIONS["up"] = (-1, 0)  # type: ignore[index]
    assert "DIRECTIONS" in es.__all__


# -- game coordinates ---------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10), st.integers(2, 8), seeds, st.sampled_from(MAZES), rows_near, st.integers(0, 9))
def test_tiles_cells_and_steps_agree_with_the_tile_map_and_the_oracle(
    width: int, band: int, seed: int, knobs: dict, row: int, below: int
) -> None:
    win = es.Window(es.InfiniteMaze(width, band=band, seed=seed, **knobs), row=row, below=below)
    tiles, rows = win.tiles(), win.rows
    for y in range(rows.shape[0]):
        for x in range(width):
            cell = (win.top + y, x)
            assert win.index(cell) == (y, x)
            ty, tx = win.tile_of(cell)
            assert not tiles[ty, tx] and win.cell_of((ty, tx)) == cell
            open_ = neighbours(rows, y, x)
            for name, (dy, dx) in es.DIRECTIONS.items():
                expect = (y + dy, x + dx) in open_
                assert win.can_move(cell, name) is expect
                there = win.step(cell, name)
                assert there == ((win.top + y + dy, x + dx) if expect else None)
                assert win.step(cell, (dy, dx)) == there
                if expect:  # the tile between two open cells is floor, and its cell the north or west one
                    between = (ty + dy, tx + dx)
                    assert not tiles[between] and win.cell_of(between) == min(cell, there)
    for ty in range(tiles.shape[0]):
        for tx in range(tiles.shape[1]):
            cell = win.cell_of((ty, tx))
            assert (cell is None) == bool(tiles[ty, tx])  # every floor tile has a cell, no wall has one
            if cell is not None:
                cy, cx = win.tile_of(cell)
                assert (ty - cy, tx - cx) in ((0, 0), (0, 1), (1, 0))


def test_the_last_tile_row_opens_down_where_the_maze_goes_on() -> None:
    win = es.Window(es.InfiniteMaze(6, band=4, seed=2), row=3, above=0, below=0)
    last = win.tiles().shape[0] - 1
    for x in range(6):
        down = bool(win.rows[0, x] & es.SOUTH)
        assert win.cell_of((last, 2 * x + 1)) == ((3, x) if down else None)
        assert win.step((3, x), "south") is None  # the row below is not kept


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda w: w.tile_of((10, 0)), ValueError, r"cell row 10 is outside the window: rows -7 to 9"),
        (lambda w: w.cell_of((2 * 17, 1)), ValueError, r"tile\[0\] \(ty\) must be in \[0, 33\], got 34"),
        (lambda w: w.cell_of((0, 9)), ValueError, r"tile\[1\] \(tx\) must be in \[0, 8\], got 9"),
        (lambda w: w.cell_of((0, -1)), ValueError, r"tile\[1\] \(tx\) must be in"),
        (lambda w: w.cell_of(5), TypeError, r"tile must be a \(ty, tx\) pair, got 5"),
        (lambda w: w.cell_of((0.0, 1)), TypeError, r"tile\[0\] \(ty\) must be an int"),
        (lambda w: w.step((0, 0), "up"), ValueError, r"direction must be one of"),
        (lambda w: w.step((0, 4), "south"), ValueError, r"cell column 4 is outside the maze"),
        (lambda w: w.index((-8, 0)), ValueError, r"cell row -8 is outside the window"),
        (lambda w: w.explore((0, 0), -1), ValueError, r"radius must be at least 0, got -1"),
        (lambda w: w.explore((0, 0), 1.5), TypeError, r"radius must be an int"),
        (lambda w: w.lasting((0, 0), -1), ValueError, r"within must be in \[0, 1048576\], got -1"),
        (lambda w: w.lasting((20, 0)), ValueError, r"cell row 20 is outside the window"),
    ],
)
def test_bad_input_names_the_argument(call, error, match) -> None:
    win = es.Window(es.InfiniteMaze(4, band=8, seed=1), row=0, below=9)  # rows -7 .. 9: 17 rows, 34 tile rows
    with pytest.raises(error, match=match):
        call(win)


# -- the fog of war ------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10), st.integers(2, 8), seeds, st.sampled_from(MAZES), rows_near, st.integers(0, 2**32))
def test_the_fog_scrolls_with_the_window_both_ways(
    width: int, band: int, seed: int, knobs: dict, row: int, walk: int
) -> None:
    rng = random.Random(walk)
    win = es.Window(es.InfiniteMaze(width, band=band, seed=seed, **knobs), row=row, below=rng.randrange(10))
    marked: set[tuple[int, int]] = set()  # the cells explored, in absolute rows: the model
    assert not win.explored.any()
    for _ in range(12):
        cell = (rng.randrange(win.top, win.bottom), rng.randrange(width))
        radius = rng.choice([0, 1, 2, 5, 40])
        dist = bfs_distances_reference(win.rows, win.index(cell))
        expect = (dist >= 0) & (dist <= radius)
        seen = win.explore(cell, radius)
        assert seen.tolist() == expect.tolist()
        marked |= absolute(win, expect)
        assert absolute(win, win.explored) == marked
        step = rng.choice([1, -1, 2, -3, 5, -5, 30, -30, 0])  # by a row, by a few, by more than the window
        win.move_to(min(max(win.row + step, -TOP), TOP - 1))
        marked = {c for c in marked if win.top <= c[0] < win.bottom}  # rows that leave forget their marks
        assert absolute(win, win.explored) == marked and win.explored.shape == win.rows.shape
    with pytest.raises(ValueError, match="read-only"):
        win.explored[0, 0] = True


# -- items that stay reachable ------------------------------------------------------------------
def kept(win: es.Window, cell: tuple[int, int], within: int) -> bool:
    """Whether the window keeps every row within ``within`` of ``cell`` (that exists)."""
    return win.top <= max(cell[0] - within, -TOP) and min(cell[0] + within, TOP - 1) < win.bottom


def walk(
    win: es.Window, player: tuple[int, int], steps: int, rng: random.Random
) -> Iterator[tuple[int, int]]:
    """A random walk through open walls (the oracle's), in legs that lean down or up, the
    window following the player; yields the player's cell after every step."""
    lean = 0.0
    for t in range(steps):
        if t % 40 == 0:
            lean = rng.choice([-0.6, -0.3, 0.0, 0.3, 0.6])
        options = [(win.top + y, x) for y, x in neighbours(win.rows, *win.index(player))]
        down = [c for c in options if (c[0] - player[0]) * lean > 0]
        if down and rng.random() < abs(lean):
            player = rng.choice(down)
        elif options:  # (none: above=0 keeps no row above, and the way on goes up)
            player = rng.choice(options)
        win.move_to(player[0])
        yield player


def check_walk(
    win: es.Window, start: tuple[int, int], within: int, steps: int, rng: random.Random, every: int = 1
) -> int:
    """The rule after every step of a walk: the mask is the oracle's, every cell in it is
    reachable from the player inside the window, and a cell marked before is marked still
    while the player is within ``within`` rows of it and the window keeps its rows.
    The mask is compared with the oracle's every ``every`` steps.  Returns how many
    times a cell stayed marked across a step."""
    before: set[tuple[int, int]] = set()
    held = 0
    for t, player in enumerate(walk(win, start, steps, rng)):
        mask = win.lasting(player, within)
        y, x = win.index(player)
        if t % every == 0:
            assert mask.tolist() == lasting_reference(win.rows, win.top, (y, x), within).tolist()
        now = absolute(win, mask)
        reach = bfs_distances_reference(win.rows, (y, x)) >= 0
        assert not (mask & ~reach).any()  # marked: reachable now, inside the window
        for cell in before:
            if abs(cell[0] - player[0]) <= within and kept(win, cell, within):
                assert cell in now, (cell, player)  # it stays marked
                held += 1
        before = now
    return held


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 9),
    st.integers(2, 7),
    seeds,
    st.sampled_from(MAZES),
    rows_near,
    st.integers(0, 6),
    st.sampled_from([(None, 16), (4, 4), (0, 30), (12, 3), ("2w", "2w")]),
    st.integers(0, 2**32),
)
def test_lasting_cells_stay_reachable_over_random_walks(
    width: int, band: int, seed: int, knobs: dict, row: int, within: int, sizes: tuple, walk_seed: int
) -> None:
    above, below = (2 * within if size == "2w" else size for size in sizes)
    maze = es.InfiniteMaze(width, band=band, seed=seed, **knobs)
    rng = random.Random(walk_seed)
    win = es.Window(maze, row=row, above=above, below=below)
    check_walk(win, (row, rng.randrange(width)), within, 150, rng)


@pytest.mark.parametrize("knobs", range(len(MAZES)))
def test_lasting_cells_stay_reachable_over_a_long_walk(knobs: int) -> None:
    """Thousands of steps on a window of 2 * within rows each way: every cell the
    player comes within reach of is held, and many stay marked across many steps."""
    rng = random.Random(knobs)
    within = 5
    maze = es.InfiniteMaze(12, band=5, seed=knobs + 11, **MAZES[knobs])
    win = es.Window(maze, row=-20, above=2 * within, below=2 * within)
    assert check_walk(win, (-20, 6), within, 2500, rng, every=10) > 50_000


def test_the_default_reach_is_half_the_smaller_side() -> None:
    maze = es.InfiniteMaze(10, band=6, seed=5, loops=0.3)
    win = es.Window(maze, row=7, above=9, below=14)
    assert win.lasting((7, 4)).tolist() == win.lasting((7, 4), 4).tolist()
    far = win.lasting((7, 4), 5)  # nothing in rows -2 .. 2: row 2 - 5 is not kept
    assert not far[: 3 - win.top].any() and far[3 - win.top :].any()


def test_a_cell_reachable_when_placed_may_be_cut_off_while_still_kept() -> None:
    """Why win.reachable alone is not a rule for items: a walk on which a cell at or
    below the player, reachable when it was placed, is later unreachable inside the
    window that still keeps it (the way to it scrolled away), checked with the oracle."""
    found = []
    for seed in range(20):
        rng = random.Random(seed)
        maze = es.InfiniteMaze(8, band=4, seed=seed)
        win = es.Window(maze, row=0)  # the defaults: band - 1 rows above, 16 below
        placed: set[tuple[int, int]] = set()
        for player in walk(win, (0, 4), 200, rng):
            reach = bfs_distances_reference(win.rows, win.index(player)) >= 0
            placed = {c for c in placed if win.top <= c[0] < win.bottom}
            lost = {c for c in placed if not reach[win.index(c)]}
            if lost:
                cell = min(lost)
                found.append((seed, player, cell))
                break
            placed |= {c for c in absolute(win, reach) if c[0] >= player[0]}
    assert len(found) == 20, found  # on every seed: it is common, not a corner case


def test_the_readme_recipe_runs(tmp_path, monkeypatch) -> None:
    """The code of the README's "Making a game" section, as it is written there."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme[readme.index("## Making a game") :]
    code = section[section.index("```python\n") + 10 : section.index("```\n", section.index("```python"))]
    monkeypatch.chdir(tmp_path)
    names: dict = {"es": es, "np": np}
    exec(code, names)
    win, player, item = names["win"], names["player"], names["item"]
    assert names["way"] is not None and win.lasting(player, 16)[win.index(item)]
    assert es.Window.from_json(names["saved"]).to_json() == names["saved"]
    assert (tmp_path / "level.tmj").exists()
