"""es.distances, es.solve, es.suggest_endpoints and es.metrics on regions of
the plane (whose last row and column carry passages out of the grid, not
followed): against plain breadth-first search over tests/naive_plane.py's
regions (naive.neighbours keeps to the grid)."""

from __future__ import annotations

import itertools
from collections import deque

import naive_plane as npl
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import plane_knobs, seeds

import eller_stream as es

from naive import EAST, SOUTH, loop_count, neighbours

regions = st.fixed_dictionaries(
    {
        "chunk": st.integers(1, 6),
        "seed": seeds,
        "knobs": plane_knobs(),
        "size": st.tuples(st.sampled_from([1, 2, 3, 9, 16]) | st.integers(1, 20), st.integers(1, 20)),
        "corner": st.tuples(st.integers(-40, 40), st.integers(-40, 40)) | st.just((2**62 - 20, -(2**62))),
    }
)


def region_of(r: dict) -> np.ndarray:
    (h, w), (y0, x0) = r["size"], r["corner"]
    return npl.plane_region(r["chunk"], r["seed"], y0, y0 + h, x0, x0 + w, **r["knobs"])


def bfs(grid: np.ndarray, source: tuple[int, int]) -> dict[tuple[int, int], int]:
    dist = {source: 0}
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        for nb in neighbours(grid, *cell):
            if nb not in dist:
                dist[nb] = dist[cell] + 1
                queue.append(nb)
    return dist


def inside(grid: np.ndarray) -> np.ndarray:
    out = grid.copy()
    out[:, -1] &= ~np.uint8(EAST)
    out[-1] &= ~np.uint8(SOUTH)
    return out


@given(r=regions, data=st.data())
@settings(max_examples=40)
def test_distances_and_paths_keep_inside_the_region(r, data):
    grid = region_of(r)
    h, w = grid.shape
    a = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    b = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    dist = bfs(grid, a)
    expect = np.array([[dist.get((y, x), -1) for x in range(w)] for y in range(h)], np.int64)
    np.testing.assert_array_equal(es.distances(grid, a), expect)
    if b not in dist:
        with pytest.raises(ValueError, match="cannot be reached"):
            es.solve(grid, a, b)
        return
    path = [tuple(c) for c in es.solve(grid, a, b).tolist()]
    assert path[0] == a and path[-1] == b and len(set(path)) == len(path)
    for here, there in itertools.pairwise(path):
        assert there in neighbours(grid, *here)  # an open passage inside the grid
    if r["knobs"]["perfect"]:  # a forest: the one path, so the shortest
        assert len(path) - 1 == dist[b]
    assert es.solve(inside(grid), a, b).tolist() == [list(c) for c in path]


@given(r=regions)
@settings(max_examples=40)
def test_metrics_count_the_maze_inside_the_region(r):
    grid = region_of(r)
    h, w = grid.shape
    m = es.metrics(grid)
    degrees = [len(neighbours(grid, y, x)) for y in range(h) for x in range(w)]
    assert m.cells == h * w and m.passages == sum(degrees) // 2
    assert [m.dead_ends, m.junctions, m.crossroads] == [degrees.count(k) for k in (1, 3, 4)]
    assert m.loops == loop_count(grid)
    if r["knobs"]["perfect"]:
        assert m.loops == 0  # a perfect plane is a tree: any region of it a forest
    from_corner = bfs(grid, (0, 0))
    bottom = [from_corner.get((h - 1, x), -1) for x in range(w)]
    if max(bottom) < 0:  # the region is cut in parts: no endpoints, solution 0
        assert (m.solution_length, m.solution_ratio) == (0, 0.0)
        with pytest.raises(ValueError, match="not connected"):
            es.suggest_endpoints(grid)
    else:
        start, end = es.suggest_endpoints(grid)
        assert end == (h - 1, bottom.index(max(bottom)))
        from_end = bfs(grid, end)
        top = [from_end.get((0, x), -1) for x in range(w)]  # (0, 0) among them
        assert start == (0, top.index(max(top))) and m.solution_length == max(top) + 1
    assert m == es.metrics(inside(grid))


@pytest.mark.parametrize("perfect", [True, False])
def test_a_block_of_level_1_is_a_perfect_maze_when_the_plane_is(perfect):
    plane = es.Plane(chunk=3, seed=21, perfect=perfect)
    y0, x0, size = plane.block(1, 10**12, -(10**9))
    grid = inside(plane.region(y0, y0 + size, x0, x0 + size))
    m = es.metrics(grid)
    assert (es.is_perfect(grid), m.loops == 0) == (perfect, perfect)
    assert m.passages - m.cells + 1 == m.loops  # connected either way (chunks join through doors)
    start, end = es.suggest_endpoints(grid)
    dist = bfs(grid, start)
    assert dist[end] + 1 == m.solution_length  # the endpoints' distance, loops or not
    path = es.solve(grid, start, end)
    assert len(path) == m.solution_length if perfect else len(path) >= m.solution_length
