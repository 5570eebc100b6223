"""A player's moves on the plane: ``plane.can_move`` and ``plane.step``
against the walls of the oracle's region (tests/naive_plane.py), across
chunk seams and at the plane's edges, and what they refuse."""

from __future__ import annotations

import random
from typing import Any

import naive_plane as npl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import plane_knobs, seeds

import eller_stream as es
from eller_stream.plane import LIMIT

from naive import EAST, SOUTH

corners = st.one_of(
    st.integers(-40, 40), st.integers(-LIMIT, -LIMIT + 12), st.integers(LIMIT - 12, LIMIT - 1)
)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), seeds, plane_knobs(), corners, corners)
def test_every_move_is_the_wall_between_the_cells(chunk: int, seed: int, knobs: Any, y: int, x: int) -> None:
    plane = es.Plane(chunk, seed, **knobs)
    y0, x0 = max(y - 1, -LIMIT), max(x - 1, -LIMIT)  # the cell and its neighbours inside the plane
    grid = npl.plane_region(chunk, seed, y0, min(y + 2, LIMIT), x0, min(x + 2, LIMIT), **knobs)

    def open_between(a: tuple[int, int], b: tuple[int, int]) -> bool:
        (ay, ax), (by, _) = sorted([a, b])
        flag = SOUTH if ay != by else EAST
        return bool(grid[ay - y0, ax - x0] & flag)

    for name, (dy, dx) in es.DIRECTIONS.items():
        to = (y + dy, x + dx)
        inside = -LIMIT <= to[0] < LIMIT and -LIMIT <= to[1] < LIMIT
        expect = inside and open_between((y, x), to)
        assert plane.can_move((y, x), name) is expect
        assert plane.can_move((y, x), (dy, dx)) is expect
        assert plane.step((y, x), name) == (to if expect else None)
        if inside:  # the same wall, seen from the other side
            assert plane.can_move(to, (-dy, -dx)) is expect


def test_a_walk_across_chunk_seams_goes_only_through_open_walls() -> None:
    """A player's random walk by steps alone, kept in a block of level 1:
    every step goes through a wall open in the oracle's region of the
    block, and the walk crosses chunk seams."""
    plane = es.Plane(chunk=4, seed=11)
    y0, x0, size = plane.block(1, 0, 0)
    grid = npl.plane_region(4, 11, y0, y0 + size, x0, x0 + size)
    seen = {(0, 0)}
    cell = (0, 0)
    rng = random.Random(5)
    for _ in range(4000):
        name = rng.choice(list(es.DIRECTIONS))
        nxt = plane.step(cell, name)
        if nxt is not None and y0 <= nxt[0] < y0 + size and x0 <= nxt[1] < x0 + size:
            (ay, ax), (by, _) = sorted([cell, nxt])
            assert grid[ay - y0, ax - x0] & (SOUTH if ay != by else EAST)
            cell = nxt
            seen.add(cell)
    assert len({(cy // 4, cx // 4) for cy, cx in seen}) > 3  # it crossed seams


@pytest.mark.parametrize(
    ("cell", "direction", "error", "message"),
    [
        ((0, 0), "up", ValueError, r"direction must be one of 'north', 'south', 'west', 'east'"),
        ((0, 0), (1, 1), ValueError, "direction must be one of"),
        ((0,), "north", TypeError, r"cell must be a \(y, x\) pair"),
        ((0, 2**62), "north", ValueError, r"cell\[1\] \(x\) must be in"),
        (("0", 0), "north", TypeError, r"cell\[0\] \(y\) must be an int"),
    ],
)
def test_bad_moves_are_refused_naming_the_argument(
    cell: Any, direction: Any, error: type, message: str
) -> None:
    plane = es.Plane(4)
    with pytest.raises(error, match=message):
        plane.can_move(cell, direction)
    with pytest.raises(error, match=message):
        plane.step(cell, direction)
