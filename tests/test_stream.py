"""EllerStream and eller(): perfect mazes, the documented stream, the API."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import probabilities, seeds

import eller_stream as es

from naive import closing_row_reference, eller_reference, perfect_problems

pytestmark = pytest.mark.usefixtures("numba_answers")


def row_set_counts(grid: np.ndarray) -> list[int]:
    """For each row, how many sets its cells form, connected through the rows
    above it and the row itself (a plain union-find, row by row)."""
    h, w = grid.shape
    parent = list(range(h * w))

    def find(i):
        while parent[i] != i:
            i = parent[i]
        return i

    counts = []
    for y in range(h):
        if y:
            for x in range(w):
                if grid[y - 1, x] & es.SOUTH:
                    parent[find(y * w + x)] = find((y - 1) * w + x)
        for x in range(w - 1):
            if grid[y, x] & es.EAST:
                parent[find(y * w + x)] = find(y * w + x + 1)
        counts.append(len({find(y * w + x) for x in range(w)}))
    return counts


def whole_maze(stream: es.EllerStream, rows: int) -> np.ndarray:
    return np.vstack([stream.take(rows), stream.finish()[None, :]])


@given(width=st.integers(1, 200), rows=st.integers(0, 30), seed=seeds, h=probabilities, v=probabilities)
def test_any_rows_plus_closing_row_is_perfect(width, rows, seed, h, v):
    grid = whole_maze(es.EllerStream(width, seed, h, v), rows)
    assert grid.shape == (rows + 1, width) and grid.dtype == np.uint8
    assert perfect_problems(grid) == []


@given(width=st.integers(1, 12), rows=st.integers(1, 10), seed=seeds, h=probabilities, v=probabilities)
def test_rows_match_the_plain_reference(width, rows, seed, h, v):
    stream = es.EllerStream(width, seed, h, v)
    grid = stream.take(rows)
    np.testing.assert_array_equal(grid, eller_reference(width, rows, seed, h, v))
    np.testing.assert_array_equal(stream.finish(), closing_row_reference(grid, width))


@pytest.mark.parametrize("width", [1, 2, 3, 4, 99, 100])
def test_small_and_odd_even_widths(width):
    for seed in range(20):
        assert perfect_problems(whole_maze(es.EllerStream(width, seed), 15)) == []


def test_width_one_is_a_corridor():
    grid = whole_maze(es.EllerStream(1, 5), 6)
    assert grid[:-1, 0].tolist() == [es.SOUTH] * 6 and grid[-1, 0] == 0


def test_probability_edges_shape_the_maze():
    # horizontal=0: no joins before the closing row, so every column is a corridor
    grid = es.EllerStream(10, 1, horizontal=0.0, vertical=0.3).take(20)
    assert not (grid & es.EAST).any() and (grid & es.SOUTH).all()
    # vertical=1: every cell opens down
    grid = es.EllerStream(10, 1, horizontal=0.5, vertical=1.0).take(20)
    assert (grid & es.SOUTH).all()
    # vertical=0: each set of a row opens down exactly once
    grid = es.EllerStream(30, 2, horizontal=0.5, vertical=0.0).take(50)
    assert [int((row & es.SOUTH).astype(bool).sum()) for row in grid] == row_set_counts(grid)
    # horizontal=1 joins every pair of different sets
    s = es.EllerStream(30, 3, horizontal=1.0, vertical=0.5)
    first = s.take(1)[0]
    assert (first[:-1] & es.EAST).all()


@given(
    width=st.integers(1, 60),
    seed=seeds,
    chunks=st.lists(st.integers(0, 9), min_size=1, max_size=12),
)
def test_chunking_does_not_change_the_rows(width, seed, chunks):
    total = sum(chunks) + len(chunks)
    expected = es.EllerStream(width, seed).take(total)
    stream = es.EllerStream(width, seed)
    got = []
    for n in chunks:
        got.extend(stream.take(n))
        got.append(next(stream))
    np.testing.assert_array_equal(np.array(got).reshape(total, width), expected)
    assert stream.rows_emitted == total


def test_next_and_take_mix_then_finish_matches():
    a = es.EllerStream(37, 11)
    b = es.EllerStream(37, 11)
    rows = [next(a) for _ in range(5)] + list(a.take(300)) + [next(a) for _ in range(3)]
    np.testing.assert_array_equal(np.array(rows), b.take(308))
    np.testing.assert_array_equal(a.finish(), b.finish())


def test_rows_belong_to_the_caller():
    stream = es.EllerStream(50, 4)
    first = next(stream)
    keep = first.copy()
    block = stream.take(10)
    more = [next(stream) for _ in range(5000)]
    np.testing.assert_array_equal(first, keep)
    first[:] = 255  # writing into a handed-out row changes nothing else
    np.testing.assert_array_equal(more[0], es.EllerStream(50, 4).take(12)[11])
    assert not np.shares_memory(more[0], more[1])
    assert not np.shares_memory(block, more[0])


def test_take_returns_c_contiguous_owned_block():
    block = es.EllerStream(9, 1).take(7)
    assert block.shape == (7, 9) and block.dtype == np.uint8 and block.flags.c_contiguous
    assert es.EllerStream(9, 1).take(0).shape == (0, 9)


def test_finish_closes_the_stream():
    stream = es.EllerStream(6, 2)
    stream.take(3)
    last = stream.finish()
    assert not (last & es.SOUTH).any() and last[-1] == 0
    assert stream.closed and stream.rows_emitted == 4
    with pytest.raises(StopIteration):
        next(stream)
    assert list(stream) == []
    with pytest.raises(RuntimeError, match="closed"):
        stream.take(1)
    with pytest.raises(RuntimeError, match="closed"):
        stream.finish()
    with pytest.raises(RuntimeError, match="closed"):
        stream.checkpoint()


def test_finish_on_a_new_stream_is_a_one_row_maze():
    row = es.EllerStream(5, 0).finish()
    assert row.tolist() == [1, 1, 1, 1, 0]
    assert perfect_problems(row[None, :]) == []


def test_seed_none_is_drawn_and_reproducible():
    a = es.EllerStream(20)
    b = es.EllerStream(20)
    assert 0 <= a.seed < 2**64 and a.seed != b.seed
    np.testing.assert_array_equal(a.take(20), es.EllerStream(20, a.seed).take(20))


def test_public_attributes_and_repr():
    s = es.EllerStream(np.int64(12), seed=np.uint64(3), horizontal=0.25, vertical=1)
    assert (s.width, s.seed, s.horizontal, s.vertical, s.rows_emitted) == (12, 3, 0.25, 1.0, 0)
    assert "width=12" in repr(s) and "seed=3" in repr(s)


# Golden hashes: the rows of a seed are a contract.  A change here is a
# breaking change of the stream and must be deliberate and documented.
GOLDEN = {
    (16, 0, 0.5, 0.5): "875e7517f61e0c3a",
    (80, 12345, 0.3, 0.7): "2cc04a11cba90ee1",
    (7, 2**64 - 1, 1.0, 0.0): "13555372f1bef5f7",
    (1000, 42, 0.5, 0.5): "2613fc2659faeafa",
}


def stream_digest(width, seed, h, v):
    stream = es.EllerStream(width, seed, h, v)
    grid = whole_maze(stream, 200)
    return hashlib.sha256(grid.tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("params", sorted(GOLDEN))
def test_golden_hashes(params):
    assert stream_digest(*params) == GOLDEN[params]


def test_row_indices_beyond_2_to_the_64_cells():
    stream = es.EllerStream(1000, 8)
    stream._gen = stream._gen._replace(row=2**62)  # cell counter wraps modulo 2**64
    grid = whole_maze(stream, 30)
    assert perfect_problems(grid) == []
    assert stream.rows_emitted == 2**62 + 31


def test_eller_grid():
    grid = es.eller(13, 9, seed=6, horizontal=0.4, vertical=0.6)
    assert grid.shape == (9, 13) and grid.dtype == np.uint8 and grid.flags.c_contiguous
    assert perfect_problems(grid) == []
    np.testing.assert_array_equal(grid, whole_maze(es.EllerStream(13, 6, 0.4, 0.6), 8))
    assert perfect_problems(es.eller(1, 1, seed=0)) == []
    assert es.eller(4, 1, seed=0).tolist() == [[1, 1, 1, 0]]


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"width": 0}, ValueError, "width"),
        ({"width": -3}, ValueError, "width"),
        ({"width": 2.0}, TypeError, "width"),
        ({"width": True}, TypeError, "width"),
        ({"width": "8"}, TypeError, "width"),
        ({"width": 2**40}, ValueError, "width"),
        ({"width": 5, "seed": -1}, ValueError, "seed"),
        ({"width": 5, "seed": 2**64}, ValueError, "seed"),
        ({"width": 5, "seed": 1.5}, TypeError, "seed"),
        ({"width": 5, "seed": False}, TypeError, "seed"),
        ({"width": 5, "horizontal": float("nan")}, ValueError, "horizontal"),
        ({"width": 5, "horizontal": 1.0000001}, ValueError, "horizontal"),
        ({"width": 5, "vertical": -0.1}, ValueError, "vertical"),
        ({"width": 5, "vertical": "0.5"}, TypeError, "vertical"),
        ({"width": 5, "vertical": True}, TypeError, "vertical"),
        ({"width": 5, "horizontal": float("inf")}, ValueError, "horizontal"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, error, name):
    with pytest.raises(error, match=name):
        es.EllerStream(**kwargs)
    if "width" in kwargs and len(kwargs) == 1:
        with pytest.raises(error, match=name):
            es.eller(kwargs["width"], 3)


def test_bad_take_and_height():
    stream = es.EllerStream(4, 1)
    with pytest.raises(ValueError, match="n"):
        stream.take(-1)
    with pytest.raises(TypeError, match="n"):
        stream.take(2.5)
    with pytest.raises(ValueError, match="height"):
        es.eller(4, 0)
    with pytest.raises(TypeError, match="height"):
        es.eller(4, None)
    assert stream.rows_emitted == 0  # a refused call changes nothing
    np.testing.assert_array_equal(stream.take(3), es.EllerStream(4, 1).take(3))


def test_take_into_a_buffer():
    buf = np.full((5, 7), 255, np.uint8)
    stream = es.EllerStream(7, 2)
    assert stream.take(5, out=buf) is buf
    np.testing.assert_array_equal(buf, es.EllerStream(7, 2).take(5))
    np.testing.assert_array_equal(stream.take(5, out=buf), es.EllerStream(7, 2).take(10)[5:])
    with pytest.raises(ValueError, match="out"):
        stream.take(4, out=buf)
    with pytest.raises(TypeError, match="out"):
        stream.take(5, out=buf.astype(np.int16))
    with pytest.raises(ValueError, match="out"):
        stream.take(5, out=np.zeros((7, 5), np.uint8).T)
    with pytest.raises(TypeError, match="out"):
        stream.take(5, out=[[0] * 7] * 5)
    assert stream.rows_emitted == 10
