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

from ._backtracker import backtracker
from ._growing_tree import growing_tree
from ._validate import check_int
from .analysis import detour, metrics
from .banded import DEFAULT_DOORS, InfiniteMaze
from .stream import eller

__all__ = ["ALGORITHMS", "compare", "generator", "to_json"]

# name -> what it runs; the default selection of `compare`
ALGORITHMS = (
    "eller",
    "eller:h=0.8,v=0.2",
    "eller:h=0.2,v=0.8",
    "growing-tree:newest",
    "growing-tree:oldest",
    "growing-tree:random",
    "growing-tree:middle",
    "growing-tree:newest:90,random:10",
    "growing-tree:newest:50,oldest:50",
    "backtracker",
    "banded:band=32",
    "banded:band=8",
)


def generator(name: str) -> Callable[[int, int, int], np.ndarray]:
    """The ``(width, height, seed) -> grid`` function an algorithm name stands for.

    Names: ``eller`` or ``eller:h=H,v=V``; ``growing-tree:STRATEGY`` (any
    strategy or mix that :func:`growing_tree` takes); ``backtracker``;
    ``banded:band=K[,doors=D,h=H,v=V]`` (the rows ``0 .. height - 2`` of an
    :class:`InfiniteMaze` and a closing row).

    >>> generator("eller:h=0.3,v=0.6")(4, 3, 1).shape
    (3, 4)
    >>> generator("banded:band=4")(5, 9, 2).shape
    (9, 5)
    """
    if not isinstance(name, str):
        raise TypeError(f"algorithm must be a string, got {name!r}")
    kind, _, spec = name.partition(":")
    if kind == "eller":
        params = _numbers(name, spec, {"h": 0.5, "v": 0.5})
        eller(1, 1, 0, params["h"], params["v"])  # validate now
        return lambda w, h, seed: eller(w, h, seed, params["h"], params["v"])
    if kind == "banded":
        params = _numbers(name, spec, {"band": 32.0, "doors": DEFAULT_DOORS, "h": 0.5, "v": 0.5})
        band = params["band"]
        if not math.isfinite(band) or band != int(band):
            raise ValueError(f"algorithm {name!r}: band must be a whole number, got {band!r}")

        def banded(w: int, h: int, seed: int) -> np.ndarray:
            maze = InfiniteMaze(w, int(band), seed, params["h"], params["v"], params["doors"])
            stream = maze.stream(0)
            grid = np.empty((h, w), np.uint8)
            stream.take(h - 1, out=grid[:-1])
            grid[-1] = stream.finish()
            return grid

        banded(1, 1, 0)  # validate now
        return banded
    if kind == "growing-tree":
        strategy = spec or "newest"
        growing_tree(1, 1, strategy, 0)  # validate now
        return lambda w, h, seed: growing_tree(w, h, strategy, seed)
    if kind == "backtracker" and not spec:
        return lambda w, h, seed: backtracker(w, h, seed)
    raise ValueError(f"algorithm {name!r} is not eller[:h=..,v=..], growing-tree:STRATEGY or backtracker")


def _numbers(name: str, spec: str, params: dict[str, float]) -> dict[str, float]:
    """``key=value`` pairs of an algorithm name, over the defaults ``params``."""
    params = dict(params)
    for part in filter(None, spec.split(",")):
        key, _, value = part.partition("=")
        if key not in params:
            keys = ", ".join(f"{k}=" for k in params)
            raise ValueError(f"algorithm {name!r}: {name.partition(':')[0]} takes {keys}, got {part!r}")
        try:
            params[key] = float(value)
        except ValueError:
            raise ValueError(f"algorithm {name!r}: {key} must be a number, got {value!r}") from None
    return params


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
    """
    width = check_int("width", width, 1, 2**15)
    height = check_int("height", height, 1, 2**15)
    seeds = check_int("seeds", seeds, 1, 1000)
    makers = [(name, generator(name)) for name in algorithms]
    cells = width * height
    out = []
    for name, make in makers:
        # compile / load the kernels first: big enough that the stream does not
        # run it as plain Python (it does so for a process's first 1024 cells)
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
