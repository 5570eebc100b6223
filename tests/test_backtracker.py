"""The recursive backtracker (backtracker.py and its kernel): perfect mazes,
the golden hash, argument checks, output into a memmap or a path."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import eller_stream as es

from naive import (
    perfect_problems,
)

sizes = st.tuples(st.integers(1, 200), st.integers(1, 200)).filter(lambda s: s[0] * s[1] <= 6000)


@given(size=sizes, seed=st.integers(0, 2**64 - 1))
def test_backtracker_is_perfect(size, seed):
    assert perfect_problems(es.backtracker(*size, seed)) == []


@pytest.mark.parametrize("size", [(1, 1), (1, 2), (2, 1), (2, 2), (3, 3), (200, 200), (1, 200), (200, 1)])
def test_edge_sizes(size):
    assert perfect_problems(es.backtracker(*size, 1)) == []


# sha256 (first 32 hex digits) of the 31 x 17 maze for seed 5 (the Growing
# Tree's are in test_growing_tree.py): a contract, like the stream's.
BACKTRACKER_GOLDEN = "432d35e8b2c2798a8547484efd37f54a"


def test_backtracker_golden_hash():
    grid = es.backtracker(31, 17, 5)
    assert hashlib.sha256(grid.tobytes()).hexdigest()[:32] == BACKTRACKER_GOLDEN


def test_seeded_and_reproducible():
    np.testing.assert_array_equal(es.backtracker(30, 20, 5), es.backtracker(30, 20, 5))


def test_bad_generator_arguments():
    make = es.backtracker
    with pytest.raises(ValueError, match="width"):
        make(width=0, height=3)
    with pytest.raises(TypeError, match="height"):
        make(width=3, height=2.5)
    with pytest.raises(ValueError, match="seed"):
        make(width=3, height=3, seed=-1)
    with pytest.raises(ValueError, match="out"):
        make(width=3, height=3, out=np.zeros((4, 3), np.uint8))
    with pytest.raises(TypeError, match="out"):
        make(width=3, height=3, out=np.zeros((3, 3), np.int32))


def test_backtracker_into_a_memmap_and_a_path(tmp_path):
    mm = np.lib.format.open_memmap(tmp_path / "a.npy", mode="w+", dtype=np.uint8, shape=(40, 50))
    assert es.backtracker(50, 40, seed=3, out=mm) is mm
    np.testing.assert_array_equal(mm, es.backtracker(50, 40, seed=3))
    grid = es.backtracker(50, 40, seed=3, out=tmp_path / "b.npy")
    assert isinstance(grid, np.memmap)
    np.testing.assert_array_equal(np.load(tmp_path / "b.npy"), es.backtracker(50, 40, seed=3))
    buf = np.full((40, 50), 255, np.uint8)  # dirty buffers are cleared first
    np.testing.assert_array_equal(
        es.growing_tree(50, 40, "random", 2, out=buf), es.growing_tree(50, 40, "random", 2)
    )
