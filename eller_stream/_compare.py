"""Side-by-side comparison of the generators: speed, memory and texture.

>>> import eller_stream as es
>>> rows = es.compare(width=12, height=10, seeds=1, algorithms=["backtracker", "growing-tree:random"])
>>> [r["algorithm"] for r in rows]
['backtracker', 'growing-tree:random']
>>> rows[0]["dead_end_fraction"] < rows[1]["dead_end_fraction"]
True
"""

from __future__ import annotations

import functools
import json
import math
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _engine
from ._generators import ALGORITHMS, generator
from ._validate import check_int
from .analysis import detour, metrics

__all__ = ["ALGORITHMS", "compare", "generator", "to_json"]


def _peak_extra_bytes(make: Callable[[], np.ndarray]) -> int:
    """Peak memory allocated while ``make`` runs, beyond the grid it returns."""
    tracemalloc.start()
    try:
        grid = make()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return max(0, peak - grid.nbytes)


def to_json(rows: Sequence[dict[str, Any]]) -> str:
    """``rows`` (from :func:`compare`) as strict JSON: a number that is not
    finite (``horizontal_vertical_ratio`` of a maze with no SOUTH passage is
    infinite) is written ``null``, never ``Infinity`` or ``NaN``, which
    strict parsers refuse.

    >>> print(to_json([{"ratio": float("inf"), "cells": 4}]))
    [
      {
        "ratio": null,
        "cells": 4
      }
    ]
    """
    finite = [
        {
            key: None if isinstance(value, float) and not math.isfinite(value) else value
            for key, value in row.items()
        }
        for row in rows
    ]
    return json.dumps(finite, indent=2, allow_nan=False)


def compare(
    width: int = 200,
    height: int = 200,
    seeds: int = 3,
    algorithms: Sequence[str] = ALGORITHMS,
) -> list[dict[str, Any]]:
    """Generate the same size with each algorithm over ``seeds`` seeds
    (0, 1, ...) and return one dict per algorithm: ``ns_per_cell`` (best of
    the seeds), ``extra_bytes_per_cell`` (peak allocation beyond the output
    grid), the means of :func:`metrics` over the seeds, and ``detour_max``
    and ``detour_p99``: the largest and the 99th percentile of
    :func:`detour` (rows a player must keep above itself), means over the
    seeds.

    Parameters
    ----------
    width, height:
        The size of every maze, each in ``[1, 2**15]``.
    seeds:
        Mazes per algorithm (seeds ``0 .. seeds - 1``), in ``[1, 1000]``.
    algorithms:
        Names that :func:`eller_stream._generators.generator` takes
        (``eller:h=0.3,v=0.6``, ``growing-tree:random``, ``banded:loops=0.5``...).

    >>> import eller_stream as es
    >>> (row,) = es.compare(8, 8, seeds=1, algorithms=["banded:band=4,loops=1"])
    >>> row["algorithm"], row["seeds"], row["dead_end_fraction"] < 0.2
    ('banded:band=4,loops=1', 1, True)
    """
    width = check_int("width", width, 1, 2**15)
    height = check_int("height", height, 1, 2**15)
    seeds = check_int("seeds", seeds, 1, 1000)
    makers = [(name, generator(name)) for name in algorithms]
    cells = width * height
    out = []
    for name, make in makers:
        # compile / load the kernels first: a process's first calls go to the
        # lean twins while numba gets them ready in a thread; wait for it
        make(64, 64, 0)
        _engine.settle()
        make(64, 64, 0)
        best = float("inf")
        samples = []
        detours = []
        for seed in range(seeds):
            t0 = time.perf_counter()
            grid = make(width, height, seed)
            best = min(best, time.perf_counter() - t0)
            samples.append(metrics(grid))
            d = detour(grid)
            detours.append((float(d.max()), float(np.percentile(d, 99))) if d.size else (0.0, 0.0))
        row: dict[str, Any] = {
            "algorithm": name,
            "width": width,
            "height": height,
            "seeds": seeds,
            "ns_per_cell": best / cells * 1e9,
            "extra_bytes_per_cell": _peak_extra_bytes(functools.partial(make, width, height, 0)) / cells,
        }
        for key, _value in samples[0].items():
            if key != "cells":
                row[key] = float(np.mean([s[key] for s in samples]))
        row["detour_max"] = float(np.mean([d[0] for d in detours]))
        row["detour_p99"] = float(np.mean([d[1] for d in detours]))
        out.append(row)
    return out
