"""Growing Tree mazes on bounded grids, in the row format.

The algorithm keeps a list of active cells; each step picks one (by the
strategy), carves to a random unvisited neighbour and adds it to the list,
or removes the cell when it has none.  The strategy sets the texture:

- ``"newest"``: a stack, the recursive backtracker's long winding corridors,
  few dead ends, long solutions;
- ``"random"``: randomized Prim, bushy, with many short dead ends (each
  random pick is drawn 24 steps before it is made, so that its memory can
  be fetched in the meantime, and drawn again at the pick if the list has
  changed so that it no longer fits: uniform over the list at the pick);
- ``"oldest"``: a queue, breadth-first growth; each cell carves to all its
  free neighbours (in a random order) before the next one moves, so long
  straight corridors radiate from the start (very few dead ends, short
  solutions);
- ``"middle"``: the middle of the list, much like oldest;
- mixes, as a mapping ``{"newest": 0.9, "random": 0.1}`` or a string
  ``"newest:90,random:10"``: each step draws which strategy picks (the
  steps of a mix run in batches of 32, and a random pick is drawn when the
  batch two before its own starts, and drawn again at the pick if it no
  longer fits; in the first two batches, at the pick).

Whatever the kernels do for speed, every strategy and mix builds the
textbook's mazes, statistically: ``tests/test_texture.py`` compares their
dead ends, straight runs and solutions with a plain Growing Tree.

>>> import eller_stream as es
>>> grid = es.growing_tree(6, 4, strategy="newest:50,oldest:50", seed=1)
>>> grid.shape, grid.dtype, es.count_passages(grid)
((4, 6), dtype('uint8'), 23)
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping

import numpy as np

from . import _growing_tree_fast as fast
from . import _growing_tree_kernels as g
from ._backend import require_numba
from ._engine import plain_first
from ._format import EAST, SOUTH
from ._growing_tree_kernels import STRATEGIES
from ._numba import call
from ._rng import seed_key
from ._validate import MAX_WIDTH, check_grid_buffer, check_int, check_seed

__all__ = ["STRATEGIES", "growing_tree", "parse_strategy"]

RANDOM_ALONE = {"random": 1.0}  # randomized Prim: a kernel of its own


def parse_strategy(strategy: str | Mapping[str, float]) -> dict[str, float]:
    """Normalised weights of a strategy name, mix string or mapping.

    Parameters
    ----------
    strategy:
        A name of :data:`STRATEGIES`, a mix ``"name:weight,..."`` (a name
        alone weighs 1) or a mapping ``{name: weight}``; the weights are
        real numbers >= 0 with a positive, finite total.  Strategies of
        weight 0 are left out of the result.

    >>> parse_strategy("newest:90,random:10")
    {'newest': 0.9, 'random': 0.1}
    >>> parse_strategy("oldest")
    {'oldest': 1.0}
    """
    if isinstance(strategy, str):
        weights: dict[str, float] = {}
        for part in strategy.split(","):
            name, _, text = part.strip().partition(":")
            try:
                weights[name.strip()] = float(text) if text else 1.0
            except ValueError:
                raise ValueError(f"strategy weight must be a number, got {text!r} in {strategy!r}") from None
    elif isinstance(strategy, Mapping):
        weights = dict(strategy)
    else:
        raise TypeError(f"strategy must be a name, a 'name:weight,...' string or a mapping, got {strategy!r}")
    for name, weight in weights.items():
        if name not in STRATEGIES:
            raise ValueError(f"strategy {name!r} is not one of {', '.join(STRATEGIES)}")
        # any real number, numpy's included (np.int64(3)); never a bool
        if isinstance(weight, (bool, np.bool_)) or not isinstance(weight, numbers.Real):
            raise ValueError(f"strategy weight of {name!r} must be a number >= 0, got {weight!r}")
        try:
            weights[name] = float(weight)
        except OverflowError:  # an int too big for a float
            raise ValueError(f"strategy weight of {name!r} must be finite, got {weight!r}") from None
        if not weights[name] >= 0:
            raise ValueError(f"strategy weight of {name!r} must be a number >= 0, got {weight!r}")
    total = sum(weights.values())
    if not weights or not total > 0 or total == float("inf"):
        raise ValueError(f"strategy needs a positive finite total weight, got {strategy!r}")
    return {name: weight / total for name, weight in weights.items() if weight > 0}


def _thresholds(weights: dict[str, float]) -> np.ndarray:
    cumulative = np.cumsum([weights.get(name, 0.0) for name in STRATEGIES])
    out = np.minimum(np.round(cumulative * 2**32), 2**32).astype(np.uint64)
    out[-1] = 2**32  # rounding never leaves a gap at the top
    return out


def _framed_work(width: int, height: int) -> np.ndarray:
    """The zeroed maze inside a frame of one cell on each side, so that no
    step tests the bounds, where every cell has a free-side bit for each
    neighbour inside the maze (bits 4-7: north, south, west, east; see
    ``_growing_tree_kernels``), so that a cell tells its unvisited neighbours by
    itself."""
    work = np.zeros((height + 2, width + 2), np.uint8)
    free = np.uint8(0xF << g.FREE_SHIFT)
    work[1:-1, 1:-1] = free
    inner = slice(1, -1)
    for rows, cols, side in ((1, inner, 0), (-2, inner, 1), (inner, 1, 2), (inner, -2, 3)):
        work[rows, cols] &= free ^ np.uint8(1 << (g.FREE_SHIFT + side))  # that way lies the frame
    return work


def growing_tree(
    width: int,
    height: int,
    strategy: str | Mapping[str, float] = "newest",
    seed: int | None = None,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """A perfect ``(height, width)`` maze by the Growing Tree algorithm.

    Every step costs O(1) amortised for every strategy and mix.  Extra
    memory: 5 bytes per cell (the active list, and a copy of the maze with a
    frame around it, each cell noting which neighbours are still unvisited, so
    that no step tests the bounds or looks at four neighbours).

    Parameters
    ----------
    width, height:
        The maze's size in cells, each at least 1, with ``(width + 2) *
        (height + 2)`` below 2**31.
    strategy:
        Which active cell each step picks: a name of :data:`STRATEGIES` or a
        mix, as :func:`parse_strategy` takes (default ``"newest"``).
    seed:
        An int in ``[0, 2**64)``; ``None`` draws one from OS entropy.
    out:
        A C-contiguous, writeable ``(height, width)`` uint8 array to fill and
        return; ``None``: a new array.

    >>> import eller_stream as es
    >>> a = es.growing_tree(8, 8, "random", seed=3)
    >>> bool((a == es.growing_tree(8, 8, "random", seed=3)).all())
    True
    """
    require_numba("es.growing_tree")
    width = check_int("width", width, 1, MAX_WIDTH)
    height = check_int("height", height, 1, MAX_WIDTH)
    weights = parse_strategy(strategy)
    seed = check_seed(seed)
    if (width + 2) * (height + 2) >= 2**31:
        raise ValueError(f"(width + 2) * (height + 2) must be below 2**31, got {width} x {height}")
    out = np.empty((height, width), np.uint8) if out is None else out
    buf = check_grid_buffer("out", out, (height, width))
    work = _framed_work(width, height)
    active = np.empty(width * height + 1, np.int32)
    _run_kernel(work, active, width, height, seed_key(seed), weights)
    np.bitwise_and(work[1:-1, 1:-1], EAST | SOUTH, out=buf)
    return out


def _run_kernel(
    work: np.ndarray,
    active: np.ndarray,
    width: int,
    height: int,
    key: np.uint64,
    weights: dict[str, float],
) -> None:
    """Build the maze in ``work`` (from :func:`_framed_work`) with the kernel
    that fits the weights: a fast path of ``_growing_tree_fast`` where there
    is one, else the general kernel compiled for the mix; a small maze in the
    kernel's plain Python while numba gets it ready (:func:`plain_first`)."""
    flat = work.reshape(-1)
    if weights == RANDOM_ALONE:  # order does not matter: a faster kernel
        call(plain_first(fast.growing_tree_random), flat, active, width, height, key)
    elif weights == {"oldest": 1.0}:  # a breadth-first search: a faster kernel
        call(plain_first(fast.growing_tree_oldest), flat, active, width, height, key)
    elif weights.keys() == {"newest", "random"}:  # the same steps in a leaner loop
        newest = _thresholds(weights)[0]
        call(plain_first(fast.growing_tree_newest_random), flat, active, width, height, key, newest)
    else:
        kernel = g.general_kernel(mix=len(weights) > 1, random_picks="random" in weights)
        call(plain_first(kernel), flat, active, width, height, key, _thresholds(weights))
