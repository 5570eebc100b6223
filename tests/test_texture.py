"""The companions' textures against the textbook: every Growing Tree
strategy and mix of the package must build mazes that are statistically
indistinguishable from tests/naive.py's textbook Growing Tree (compiled by
tests/textbook_jit.py), whatever the kernels do for speed.

Three statistics per maze, over SEEDS mazes of SIZE x SIZE from each side,
compared by Welch's z (the difference of the means over its standard
error): the dead-end fraction, the mean straight run and the length of the
solution between the suggested endpoints.  |z| < Z passes.

Why SEEDS = 2000: the issue asks that a difference of 0.2 percentage points
in the dead-end fraction shows.  The per-maze standard deviation of the
dead-end fraction at 50 x 50 (measured on the textbook, 2000 mazes) ranges
from 0.38 points (newest) over 0.62 (random) to 1.13 (oldest:1,middle:3),
so with 2000 mazes a side the standard error of the difference is at most
1.13 * sqrt(2 / 2000) = 0.036 points: a true difference of 0.2 points has
an expected |z| of at least 5.6 (10.3 for random), and fails |z| < 3 with
probability 99.5% or more, while an unbiased kernel passes each comparison
with probability 99.7%.  The seeds are fixed, so the test is deterministic.

The textbook's side is the same numbers every run: its statistics (each
one's mean and variance over the seeds) are kept in ``texture_textbook.json``
(``python tests/test_texture.py`` writes them), and the test run makes only
the package's mazes; a slow test builds the textbook's mazes again and
checks the file.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from textbook_jit import growing_tree_textbook

import eller_stream as es

from naive import EAST, SOUTH, growing_tree_reference

SIZE = 50
SEEDS = 2000
Z = 3.0
BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "texture_textbook.json")
STRATEGIES = [
    "newest",
    "oldest",
    "random",
    "middle",
    "newest:90,random:10",
    "newest:50,oldest:50",
    "newest:30,middle:70",
    "oldest:1,middle:3",
    "newest:50,random:50",
    "newest:97,random:3",
    "oldest:60,random:40",
    "random:30,middle:70",
    "newest:4,oldest:3,random:2,middle:1",
]


def texture(grids: np.ndarray) -> dict[str, np.ndarray]:
    """Per maze of the (n, h, w) stack: the dead-end fraction and the mean
    straight run (passages over maximal runs of EAST along rows and SOUTH
    down columns), counted here with numpy; the solution length from
    es.metrics, the same function for both sides."""
    _, h, w = grids.shape
    east = grids & np.uint8(EAST)  # 0 or 1 a cell, kept in bytes: 2000 mazes at a time
    south = (grids & np.uint8(SOUTH)) >> 1
    east[:, :, -1] = 0
    south[:, -1, :] = 0
    degree = east + south
    degree[:, :, 1:] += east[:, :, :-1]
    degree[:, 1:, :] += south[:, :-1, :]
    dead = np.count_nonzero(degree == 1, axis=(1, 2)) / (h * w)
    runs = np.count_nonzero(east[:, :, 1:] > east[:, :, :-1], axis=(1, 2))
    runs += np.count_nonzero(east[:, :, 0], axis=1)
    runs += np.count_nonzero(south[:, 1:, :] > south[:, :-1, :], axis=(1, 2))
    runs += np.count_nonzero(south[:, 0, :], axis=1)
    passages = np.count_nonzero(east, axis=(1, 2)) + np.count_nonzero(south, axis=(1, 2))
    solution = np.array([es.metrics(g)["solution_length"] for g in grids], np.float64)
    return {"dead_end_fraction": dead, "mean_straight_run": passages / runs, "solution_length": solution}


def moments(grids: np.ndarray) -> dict[str, list[float]]:
    """Each statistic of :func:`texture` as [mean, variance (n - 1)] over the mazes."""
    return {name: [float(v.mean()), float(v.var(ddof=1))] for name, v in texture(grids).items()}


def textbook_moments(strategy: str, seeds: int = SEEDS, size: int = SIZE) -> dict[str, list[float]]:
    weights = es.parse_strategy(strategy)
    return moments(np.array([growing_tree_textbook(size, size, weights, seed) for seed in range(seeds)]))


def stored_textbook() -> dict[str, dict[str, list[float]]]:
    with open(BOOK) as f:
        book = json.load(f)
    assert (book["size"], book["seeds"]) == (SIZE, SEEDS), "python tests/test_texture.py writes it again"
    table: dict[str, dict[str, list[float]]] = book["strategies"]
    return table


def z_scores(strategy: str) -> dict[str, float]:
    """Welch's z of package minus textbook, for each statistic (the
    textbook's from the file)."""
    book = stored_textbook()
    assert strategy in book, f"no textbook statistics for {strategy}: python tests/test_texture.py"
    fast = moments(np.array([es.growing_tree(SIZE, SIZE, strategy, seed) for seed in range(SEEDS)]))
    return {name: _welch_moments(fast[name], book[strategy][name], SEEDS) for name in fast}


def _welch_moments(a: list[float], b: list[float], n: int) -> float:
    """Welch's z of two samples of ``n`` given as [mean, variance]."""
    return float((a[0] - b[0]) / np.sqrt(a[1] / n + b[1] / n))


def _welch(a: np.ndarray, b: np.ndarray) -> float:
    return float((a.mean() - b.mean()) / np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b)))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_texture_is_the_textbooks(strategy):
    z = z_scores(strategy)
    assert all(abs(v) < Z for v in z.values()), z


@pytest.mark.slow
def test_the_stored_textbook_statistics_are_the_textbooks():
    """texture_textbook.json holds what the textbook's mazes give, for
    every strategy the test compares (and no other)."""
    book = stored_textbook()
    assert sorted(book) == sorted(STRATEGIES)
    for strategy in STRATEGIES:
        again = textbook_moments(strategy)
        for name, (mean, var) in again.items():
            assert book[strategy][name] == pytest.approx([mean, var], rel=1e-12), (strategy, name)


def test_compiled_textbook_is_the_plain_one():
    """The compiled textbook builds the plain textbook's mazes, byte for byte."""
    for strategy in STRATEGIES:
        weights = es.parse_strategy(strategy)
        for seed, (w, h) in enumerate([(1, 1), (1, 7), (6, 1), (2, 2), (13, 9), (20, 20)]):
            np.testing.assert_array_equal(
                growing_tree_textbook(w, h, weights, seed), growing_tree_reference(w, h, weights, seed)
            )


def test_texture_statistics_against_plain_counts():
    """texture() counts what es.metrics counts, maze by maze."""
    grids = np.array([es.growing_tree(17, 11, s, 3) for s in STRATEGIES])
    t = texture(grids)
    for k, g in enumerate(grids):
        m = es.metrics(g)
        assert t["dead_end_fraction"][k] == pytest.approx(m["dead_end_fraction"])
        assert t["mean_straight_run"][k] == pytest.approx(m["mean_straight_run"])
        assert t["solution_length"][k] == m["solution_length"]


def test_the_statistic_sees_a_biased_kernel():
    """A small bias must fail: 2% of the random picks of randomized Prim
    replaced by newest picks (newest:2,random:98) moves the dead-end
    fraction by 0.25 points (z = 13 with these seeds)."""
    weights = {"newest": 0.02, "random": 0.98}
    fast = np.array([growing_tree_textbook(SIZE, SIZE, weights, seed) for seed in range(SEEDS)])
    prim = {"random": 1.0}
    book = np.array([growing_tree_textbook(SIZE, SIZE, prim, seed + SEEDS) for seed in range(SEEDS)])
    z = _welch(texture(fast)["dead_end_fraction"], texture(book)["dead_end_fraction"])
    assert abs(z) > Z, z


if __name__ == "__main__":  # write texture_textbook.json (after a change to the textbook or the strategies)
    table = {strategy: textbook_moments(strategy) for strategy in STRATEGIES}
    with open(BOOK, "w") as out:
        json.dump({"size": SIZE, "seeds": SEEDS, "strategies": table}, out, indent=1)
        out.write("\n")
