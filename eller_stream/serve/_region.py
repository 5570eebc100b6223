"""A region request of the HTTP API (``/v1/region``): a rectangle of the
plane, parsed and checked, and its answer.

:func:`parse` turns a query (name -> the values given) into a
:class:`RegionRequest` or raises :class:`~._query.QueryError` naming the
parameter, as :mod:`._request` does for rows; the knobs are
:class:`~eller_stream.PlaneParams`' (read from their declarations), the
limits the rows' (:data:`~._query.LIMITS`), a region's cost the cells
:meth:`Plane.cells_made <eller_stream.Plane.cells_made>` counts. Nothing
here knows HTTP.

>>> r = parse({"seed": ["7"], "chunk": ["4"], "y0": ["-2"], "y1": ["1"], "x0": ["5"], "x1": ["9"]})
>>> r.height, r.width, r.made, r.params.perfect
(3, 4, 64, True)
>>> len(r.body()[0])
12
>>> parse({"seed": ["7"], "y0": ["0"], "y1": ["0"], "x0": ["0"], "x1": ["1"]})
Traceback (most recent call last):
...
eller_stream.serve._query.QueryError: y1 must be greater than y0, got y0=0, y1=0
"""

from __future__ import annotations

import functools
import inspect
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import __version__
from .._plane_params import PlaneParams
from .._validate import SEED_LIMIT
from ..plane import LIMIT, MAX_CHUNK, Plane
from . import _query as q
from ._answer import encode, etag
from ._query import LIMITS, Query, QueryError

__all__ = ["CHUNK", "NAMES", "RegionRequest", "info", "parse"]

CHUNK: int = inspect.signature(Plane).parameters["chunk"].default  # the plane's own default, 16
NAMES = ("chunk", "seed", "y0", "y1", "x0", "x1", "format", *PlaneParams.names())


@dataclass(frozen=True)
class RegionRequest:
    """Cells ``[y0, y1) x [x0, x1)`` of one plane, in one format."""

    chunk: int
    seed: int
    y0: int
    y1: int
    x0: int
    x1: int
    format: str
    params: PlaneParams
    made: int  # the cells making it takes: every chunk it touches, whole (Plane.cells_made)

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    def key(self) -> str:
        """The request in one canonical text (what its ETag hashes): a knob
        spelt out at its default is the same request as one left out."""
        value = {
            "v": __version__,
            "path": "/v1/region",
            "chunk": self.chunk,
            "seed": str(self.seed),
            "bounds": [str(b) for b in (self.y0, self.y1, self.x0, self.x1)],
            "format": self.format,
            "knobs": self.params.as_dict(),
        }
        return json.dumps(value, sort_keys=True)

    def etag(self) -> str:
        return etag(self.key())

    def headers(self) -> dict[str, str]:
        """The answer's headers that say what it holds: its shape and bounds."""
        bounds = {"X-Y0": self.y0, "X-Y1": self.y1, "X-X0": self.x0, "X-X1": self.x1}
        return {
            "X-Height": str(self.height),
            "X-Width": str(self.width),
            **{k: str(v) for k, v in bounds.items()},
        }

    def grid(self) -> np.ndarray:
        """The ``(height, width)`` cells: ``Plane.region(y0, y1, x0, x1)``."""
        return _plane(self.chunk, self.seed, self.params).region(self.y0, self.y1, self.x0, self.x1)

    def body(self) -> tuple[bytes, str]:
        """The answer's bytes and media type."""
        head: dict[str, Any] = {
            "y0": str(self.y0),
            "y1": str(self.y1),
            "x0": str(self.x0),
            "x1": str(self.x1),
        }
        head |= {"height": self.height, "width": self.width}
        return encode(self.grid(), self.format, head)


@functools.lru_cache(maxsize=256)
def _plane(chunk: int, seed: int, params: PlaneParams) -> Plane:
    return Plane.from_params(chunk, seed, params)


def _bounds(query: Query, axis: str) -> tuple[int, int]:
    """``{axis}0`` in ``[-2**62, 2**62)`` and ``{axis}1`` in ``(-2**62, 2**62]``, above it."""
    start = q.integer(query, f"{axis}0", -LIMIT, LIMIT - 1)
    stop = q.integer(query, f"{axis}1", -LIMIT + 1, LIMIT)
    if stop <= start:
        message = f"{axis}1 must be greater than {axis}0, got {axis}0={start}, {axis}1={stop}"
        raise QueryError(f"{axis}1", message)
    return start, stop


def parse(query: Query) -> RegionRequest:
    """The region a query string asks for (``name -> values``, as
    ``urllib.parse.parse_qs`` gives it), checked; a :class:`QueryError`
    names the first bad parameter."""
    q.check_names(query, NAMES)
    chunk = q.integer(query, "chunk", 1, MAX_CHUNK, default=CHUNK)
    seed = q.integer(query, "seed", 0, SEED_LIMIT - 1)
    y0, y1 = _bounds(query, "y")
    x0, x1 = _bounds(query, "x")
    format = q.fmt(query)
    params = PlaneParams(**q.knobs(query, PlaneParams))
    cells = (y1 - y0) * (x1 - x0)
    limit = LIMITS["max_png_cells"] if format == "png" else LIMITS["max_cells"]
    if cells > limit:
        longer = "y1" if y1 - y0 >= x1 - x0 else "x1"  # the side to shorten
        raise QueryError(longer, f"(y1 - y0) * (x1 - x0) must be at most {limit} cells, got {cells}")
    made = _plane(chunk, seed, params).cells_made(y0, y1, x0, x1)
    limit = LIMITS["max_made_cells"]
    if made > limit:
        why = "every chunk it touches, and those of the row and column just past it, whole"
        message = f"this region makes {made} cells ({why}), at most {limit} a request"
        message += ": ask with a smaller chunk or in parts"
        raise QueryError("chunk", message, cells=made, limit=limit)
    return RegionRequest(chunk, seed, y0, y1, x0, x1, format, params, made)


def info() -> dict[str, Any]:
    """What ``GET /v1/info`` says of ``/v1/region``: its parameters, the
    defaults of ``chunk`` and of the knobs (from their declarations,
    ``PlaneParams``), the chunk's range and the coordinates' (as strings:
    they pass 2**53)."""
    defaults = {"chunk": CHUNK, **{name: PlaneParams.default(name) for name in PlaneParams.names()}}
    return {
        "parameters": list(NAMES),
        "defaults": defaults,
        "chunk": [1, MAX_CHUNK],
        "coordinates": [str(-LIMIT), str(LIMIT)],
    }
