"""analysis.py: the solver, suggested endpoints, validation and metrics,
checked against plain BFS and counts over the whole grid."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import eller_stream as es

from naive import (
    EAST,
    SOUTH,
    bfs_path,
    neighbours,
)


def walk_ok(grid, path, start, end):
    assert tuple(path[0]) == tuple(start) and tuple(path[-1]) == tuple(end)
    for (y0, x0), (y1, x1) in itertools.pairwise(path):
        assert abs(y0 - y1) + abs(x0 - x1) == 1
        assert (y1, x1) in neighbours(grid, y0, x0)  # through an open passage
    assert len({tuple(c) for c in path}) == len(path)


@given(
    size=st.tuples(st.integers(1, 40), st.integers(1, 40)),
    seed=st.integers(0, 10**6),
    algorithm=st.sampled_from(["eller", "backtracker", "random", "oldest"]),
    data=st.data(),
)
def test_solve_walks_open_passages_and_matches_bfs(size, seed, algorithm, data):
    w, h = size
    if algorithm == "eller":
        grid = es.eller(w, h, seed)
    elif algorithm == "backtracker":
        grid = es.backtracker(w, h, seed)
    else:
        grid = es.growing_tree(w, h, algorithm, seed)
    start = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    end = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    path = es.solve(grid, start, end)
    assert path.shape[1] == 2
    walk_ok(grid, path, start, end)
    assert [tuple(c) for c in path.tolist()] == bfs_path(grid, start, end)


@given(
    size=st.tuples(st.integers(1, 20), st.integers(1, 20)),
    seed=st.integers(0, 10**6),
    changes=st.lists(st.tuples(st.integers(0, 19), st.integers(0, 19), st.integers(0, 255)), max_size=12),
    data=st.data(),
)
def test_solve_on_grids_that_are_not_trees(size, seed, changes, data):
    """Loops (the tree walk must notice them and walk again marking cells),
    cut passages, passages out of the grid and unknown bits."""
    w, h = size
    grid = es.backtracker(w, h, seed)
    for y, x, bits in changes:
        grid[y % h, x % w] ^= bits
    start = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    end = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    if not bfs_path(grid, start, end):
        with pytest.raises(ValueError, match=r"cannot be reached.*does not connect them"):
            es.solve(grid, start, end)
        return
    walk_ok(grid, es.solve(grid, start, end), start, end)


def test_solve_errors():
    grid = es.eller(5, 5, seed=1)
    with pytest.raises(ValueError, match="end"):
        es.solve(np.zeros((3, 3), np.uint8), (0, 0), (2, 2))
    with pytest.raises(ValueError, match="start"):
        es.solve(grid, (5, 0), (0, 0))
    with pytest.raises(TypeError, match="end"):
        es.solve(grid, (0, 0), (1, 2, 3))
    with pytest.raises(TypeError, match="grid"):
        es.solve(grid.astype(np.int16), (0, 0), (1, 1))
    assert es.solve(grid, (2, 2), (2, 2)).tolist() == [[2, 2]]


def bfs_distances(grid, source):
    from collections import deque

    dist = {source: 0}
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        for nb in neighbours(grid, *cell):
            if nb not in dist:
                dist[nb] = dist[cell] + 1
                queue.append(nb)
    return dist


@given(size=st.tuples(st.integers(1, 30), st.integers(1, 30)), seed=st.integers(0, 10**6))
def test_suggest_endpoints_follows_its_definition(size, seed):
    w, h = size
    grid = es.growing_tree(w, h, "random", seed)
    start, end = es.suggest_endpoints(grid)
    assert start[0] == 0 and end[0] == h - 1
    d0 = bfs_distances(grid, (0, 0))
    bottom = [d0[(h - 1, x)] for x in range(w)]
    assert d0[end] == max(bottom) and end[1] == bottom.index(max(bottom))
    d1 = bfs_distances(grid, end)
    top = [d1[(0, x)] for x in range(w)]
    assert d1[start] == max(top) and start[1] == top.index(max(top))
    assert es.suggest_endpoints(grid) == (start, end)


@given(
    size=st.tuples(st.integers(1, 20), st.integers(1, 20)),
    seed=st.integers(0, 10**6),
    extra=st.lists(st.tuples(st.integers(0, 19), st.integers(0, 19), st.integers(1, 255)), max_size=12),
)
def test_endpoints_and_counts_on_grids_that_are_not_trees(size, seed, extra):
    """Loops, passages out of the grid and unknown bits: the tree sweeps
    must notice the loops (and fall back), and the counts ignore the rest."""
    w, h = size
    grid = es.backtracker(w, h, seed)
    for y, x, bits in extra:
        grid[y % h, x % w] |= bits
    d0 = bfs_distances(grid, (0, 0))
    bottom = [d0.get((h - 1, x), -1) for x in range(w)]
    start, end = es.suggest_endpoints(grid)  # adding passages keeps it connected
    assert d0[end] == max(bottom) and end[1] == bottom.index(max(bottom))
    d1 = bfs_distances(grid, end)
    top = [d1[(0, x)] for x in range(w)]
    assert d1[start] == max(top) and start[1] == top.index(max(top))
    m = es.metrics(grid)
    degrees = [len(neighbours(grid, y, x)) for y in range(h) for x in range(w)]
    assert [m["dead_ends"], m["junctions"], m["crossroads"]] == [degrees.count(k) for k in (1, 3, 4)]
    assert m["passages"] == sum(degrees) // 2
    assert m["solution_length"] == d1[start] + 1


def test_validate_names_what_is_wrong():
    assert es.validate(es.eller(7, 6, seed=1)) == []
    loop = np.array([[3, 2], [1, 0]], np.uint8)
    assert any("passages" in p for p in es.validate(loop))
    assert not es.is_perfect(loop)
    cut = np.array([[1, 0], [1, 0]], np.uint8)
    assert any("not connected" in p for p in es.validate(cut))
    outside = es.eller(3, 3, seed=2)
    outside[0, 2] |= EAST
    assert any("last column" in p for p in es.validate(outside))
    outside = es.eller(3, 3, seed=2)
    outside[2, 0] |= SOUTH
    assert any("last row" in p for p in es.validate(outside))
    bits = es.eller(3, 3, seed=2)
    bits[1, 1] |= 8
    assert any("bits" in p for p in es.validate(bits))
    with pytest.raises(ValueError, match="grid"):
        es.validate(np.zeros((0, 3), np.uint8))


def test_metrics_against_plain_counts():
    grid = es.growing_tree(25, 18, "newest:50,oldest:50", 4)
    m = es.metrics(grid)
    h, w = grid.shape
    degrees = [len(neighbours(grid, y, x)) for y in range(h) for x in range(w)]
    assert m["dead_ends"] == degrees.count(1)
    assert m["junctions"] == degrees.count(3) and m["crossroads"] == degrees.count(4)
    assert m["passages"] == h * w - 1
    east = int(np.count_nonzero(grid & EAST))
    south = int(np.count_nonzero(grid & SOUTH))
    assert m["horizontal_vertical_ratio"] == pytest.approx(east / south)
    start, end = es.suggest_endpoints(grid)
    assert m["solution_length"] == len(bfs_path(grid, start, end))
    assert m["solution_ratio"] == pytest.approx(m["solution_length"] / (w + h))

    # straight runs, by hand: maximal runs of EAST along rows and SOUTH down columns
    def runs_along(lines, flag):
        runs = []
        for line in lines:
            n = 0
            for v in [*list(line), 0]:
                if v & flag:
                    n += 1
                elif n:
                    runs.append(n)
                    n = 0
        return runs

    runs = runs_along(grid, EAST) + runs_along(grid.T, SOUTH)
    assert m["mean_straight_run"] == pytest.approx(np.mean(runs))


def test_textures_tell_the_algorithms_apart():
    def dead(make):
        return np.mean([es.metrics(make(s))["dead_end_fraction"] for s in range(3)])

    newest = dead(lambda s: es.growing_tree(80, 80, "newest", s))
    random = dead(lambda s: es.growing_tree(80, 80, "random", s))
    back = dead(lambda s: es.backtracker(80, 80, s))
    assert newest < 0.15 and back < 0.15 and random > 0.22
    assert abs(newest - back) < 0.02
    sol_newest = es.metrics(es.growing_tree(80, 80, "newest", 1))["solution_ratio"]
    sol_random = es.metrics(es.growing_tree(80, 80, "random", 1))["solution_ratio"]
    sol_oldest = es.metrics(es.growing_tree(80, 80, "oldest", 1))["solution_ratio"]
    assert sol_newest > 3 * sol_random and sol_newest > 3 * sol_oldest
    oldest = es.metrics(es.growing_tree(80, 80, "oldest", 1))
    assert (
        oldest["mean_straight_run"]
        > 5 * es.metrics(es.growing_tree(80, 80, "random", 1))["mean_straight_run"]
    )


def test_big_grid_has_no_recursion_limit():
    grid = es.backtracker(4000, 4000, seed=1)
    start, end = es.suggest_endpoints(grid)
    path = es.solve(grid, start, end)
    assert len(path) > 100_000  # a backtracker maze winds a lot
    assert es.metrics(grid)["solution_length"] == len(path)
