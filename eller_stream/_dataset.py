"""Datasets of bounded mazes, the same on one worker or many.

Maze ``i`` of ``dataset(n, width, height, algorithm, seed)`` is
``generator(algorithm)(width, height, seed * 2**32 + i)``: a pure function
of ``(seed, i)``.  With ``seed`` in ``[0, 2**32)`` and ``n <= 2**32``, the
generator seeds of dataset ``seed`` are the interval ``[seed * 2**32,
seed * 2**32 + n)``, inside ``[seed * 2**32, (seed + 1) * 2**32)``: datasets
of different ``seed`` share no generator seed, and so (but by a collision of
the 64-bit seed hash) no maze.

>>> import eller_stream as es
>>> mazes = es.dataset(3, 6, 4, seed=5)
>>> mazes.shape, mazes.dtype
((3, 4, 6), dtype('uint8'))
>>> bool((mazes[2] == es.eller(6, 4, seed=5 * 2**32 + 2)).all())
True
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from . import _parallel as par
from ._generators import generator
from ._validate import MAX_WIDTH, check_int
from .analysis import solve, suggest_endpoints

__all__ = ["MAX_MAZES", "SEED_STRIDE", "Dataset", "dataset"]

# A dataset's graph costs about 850 bytes a chunk (3 arrays' layers: more with
# solutions) before anything runs, where to_dask's costs little: 2**20 chunks
# is about 0.9 GB of graph.
MAX_CHUNKS = 1 << 20

SEED_STRIDE = 2**32  # maze i of dataset `seed` is generated with seed * SEED_STRIDE + i
MAX_MAZES = SEED_STRIDE


class Dataset(NamedTuple):
    """Mazes and their solutions (``dataset(..., solutions=True)``); numpy
    arrays, or Dask arrays when ``chunks=`` was given (``dask.compute(*ds)``
    computes them together).

    ``mazes``: ``(n, height, width)`` uint8 grids in the row format.
    ``endpoints``: ``(n, 2, 2)`` int64, ``endpoints[i] = [[y0, x0], [y1,
    x1]]``, the start (top row) and end (bottom row) that
    :func:`~eller_stream.suggest_endpoints` gives.
    ``offsets``: ``(n + 1,)`` int64, CSR-style: maze ``i``'s path is
    ``cells[offsets[i]:offsets[i + 1]]``.
    ``cells``: ``(total, 2)`` int64 ``(y, x)`` cells of every path in turn,
    each from its start to its end, both included (:func:`~eller_stream.solve`);
    with Dask, its chunks' lengths are unknown until computed.
    """

    mazes: Any
    endpoints: Any
    offsets: Any
    cells: Any

    def path(self, i: int) -> Any:
        """Maze ``i``'s path, a ``(k, 2)`` array of ``(y, x)`` cells.

        Parameters
        ----------
        i:
            The maze, in ``[0, n)``.

        >>> import eller_stream as es
        >>> ds = es.dataset(2, 5, 3, solutions=True)
        >>> bool((ds.path(1)[0] == ds.endpoints[1, 0]).all())
        True
        """
        return self.cells[self.offsets[i] : self.offsets[i + 1]]


@functools.lru_cache(maxsize=32)
def _generate(algorithm: str) -> Callable[[int, int, int], np.ndarray]:
    return generator(algorithm)


def make_block(
    algorithm: str, width: int, height: int, seed: int, first: int, stop: int, solutions: bool
) -> tuple[np.ndarray, ...]:
    """Mazes ``first`` to ``stop - 1`` of a dataset (and with ``solutions``,
    their endpoints, path lengths and the paths' cells)."""
    make = _generate(algorithm)
    mazes = np.empty((stop - first, height, width), np.uint8)
    for k in range(stop - first):
        mazes[k] = make(width, height, seed * SEED_STRIDE + first + k)
    if not solutions:
        return (mazes,)
    ends = np.empty((stop - first, 2, 2), np.int64)
    paths = []
    for k, grid in enumerate(mazes):
        start, end = suggest_endpoints(grid)
        ends[k] = (start, end)
        paths.append(solve(grid, start, end))
    lengths = np.array([len(p) for p in paths], np.int64)
    cells = np.concatenate([np.empty((0, 2), np.int64), *paths])
    return mazes, ends, lengths, cells


def _chunk_sizes(n: int, chunks: object) -> tuple[int, ...]:
    """The chunks' sizes along the first axis: at most :data:`MAX_CHUNKS`,
    none empty."""
    if isinstance(chunks, tuple):
        if len(chunks) > MAX_CHUNKS:
            raise ValueError(f"chunks must be at most {MAX_CHUNKS} sizes, got {len(chunks)}")
        sizes = tuple(check_int("chunks", c, 0) for c in chunks)
        if sum(sizes) != n:
            raise ValueError(f"chunks must add up to n = {n}, got {sum(sizes)}")
        return tuple(c for c in sizes if c) or (0,)  # no empty chunk (dask's cumsum trips on one)
    per = check_int("chunks", chunks, 1)
    if -(-n // per) > MAX_CHUNKS:
        raise ValueError(f"chunks={per} cuts n = {n} mazes into over {MAX_CHUNKS} chunks: give larger chunks")
    return (per,) * (n // per) + (n % per,) * (n % per > 0) or (0,)


def _check(n: object, width: object, height: object, algorithm: object, seed: object) -> tuple[int, ...]:
    size = check_int("n", n, 0, MAX_MAZES)
    w = check_int("width", width, 1, MAX_WIDTH)
    h = check_int("height", height, 1)
    s = check_int("seed", seed, 0, SEED_STRIDE - 1)
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be a string, got {type(algorithm).__name__}: {algorithm!r}")
    _generate(algorithm)  # a ValueError naming it when unknown
    return size, w, h, s


def dataset(
    n: int,
    width: int,
    height: int,
    algorithm: str = "eller",
    seed: int = 0,
    solutions: bool = False,
    chunks: int | tuple[int, ...] | None = None,
) -> Any:
    """``n`` bounded mazes as an ``(n, height, width)`` uint8 array; maze
    ``i`` is ``generator(algorithm)(width, height, seed * 2**32 + i)``, so
    the same on one worker or 64, and datasets of different ``seed`` share
    no maze seed (module docstring).

    Parameters
    ----------
    n:
        Mazes, in ``[0, 2**32]``.
    width, height:
        Cells per row and rows of each maze, at least 1.
    algorithm:
        Any generator name: ``eller[:h=..,v=..]``, ``growing-tree:STRATEGY``,
        ``backtracker``, ``banded:band=..,...`` (as ``eller-stream compare``).
    seed:
        The dataset, in ``[0, 2**32)``.
    solutions:
        Return a :class:`Dataset`: the mazes, their suggested endpoints and
        the paths between them (CSR layout: ``offsets``, ``cells``).
    chunks:
        ``None``: numpy arrays, made here.  Mazes per chunk (an int) or the
        chunks' sizes (a tuple adding up to ``n``): lazy Dask arrays (the
        ``[dask]`` extra), chunked along the first axis; any chunking and
        any scheduler give the same bytes.

    >>> import eller_stream as es
    >>> ds = es.dataset(4, 5, 3, algorithm="backtracker", seed=1, solutions=True)
    >>> ds.mazes.shape, ds.endpoints.shape, int(ds.offsets[0]), len(ds.cells) == int(ds.offsets[-1])
    ((4, 3, 5), (4, 2, 2), 0, True)
    """
    n, width, height, seed = _check(n, width, height, algorithm, seed)
    if not isinstance(solutions, bool):
        raise TypeError(f"solutions must be a bool, got {type(solutions).__name__}")
    if chunks is not None:
        return _lazy(algorithm, width, height, seed, _chunk_sizes(n, chunks), solutions)
    par.alloc((n, height, width), np.uint8, f"{n} mazes of {height} x {width} cells")
    block = make_block(algorithm, width, height, seed, 0, n, solutions)
    if not solutions:
        return block[0]
    mazes, ends, lengths, cells = block
    return Dataset(mazes, ends, np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64), cells)


def _lazy(algorithm: str, width: int, height: int, seed: int, sizes: tuple[int, ...], solutions: bool) -> Any:
    """The Dask arrays of a dataset: one task a chunk makes its mazes (and
    solutions); the arrays take their parts."""
    from .scale import require

    da = require("dask.array")
    base = require("dask.base")
    hlg = require("dask.highlevelgraph")
    token = base.tokenize(algorithm, width, height, seed, sizes, solutions)
    block = f"eller-dataset-block-{token}"
    bounds = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    blocks = {
        (block, j): (make_block, algorithm, width, height, seed, int(a), int(b), solutions)
        for j, (a, b) in enumerate(itertools.pairwise(bounds))
    }
    parts = (
        ("mazes", (sizes, (height,), (width,)), np.uint8),
        ("endpoints", (sizes, (2,), (2,)), np.int64),
        ("lengths", (sizes,), np.int64),
        ("cells", ((np.nan,) * len(sizes), (2,)), np.int64),
    )
    arrays = []
    for part, (label, chunks, dtype) in enumerate(parts[: 4 if solutions else 1]):
        name = f"eller-dataset-{label}-{token}"
        zeros = (0,) * (len(chunks) - 1)
        layer = {(name, j, *zeros): (operator.getitem, (block, j), part) for j in range(len(sizes))}
        graph = hlg.HighLevelGraph({block: blocks, name: layer}, {block: set(), name: {block}})
        meta = np.empty((0,) * len(chunks), dtype)
        arrays.append(da.Array(graph, name, chunks=chunks, dtype=dtype, meta=meta))
    if not solutions:
        return arrays[0]
    mazes, ends, lengths, cells = arrays
    offsets = da.concatenate([da.zeros(1, dtype=np.int64), da.cumsum(lengths)])
    return Dataset(mazes, ends, offsets, cells)
