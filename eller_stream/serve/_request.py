"""A rows request of the HTTP API, parsed and checked, and its answer.

:func:`parse` turns a query (name -> the values given) into a
:class:`RowsRequest` or raises :class:`QueryError` naming the parameter;
:meth:`RowsRequest.body` makes the bytes of the answer. Nothing here knows
HTTP: the app (:mod:`.app`) maps these to responses.

>>> r = parse({"width": ["4"], "band": ["2"], "seed": ["7"], "start": ["-1"], "stop": ["1"]})
>>> r.width, r.start, r.stop, r.format
(4, -1, 1, 'raw')
>>> len(r.body()[0])
8
>>> parse({"width": ["4"], "seed": ["x"], "start": ["0"], "stop": ["1"]})
Traceback (most recent call last):
...
eller_stream.serve._query.QueryError: seed must be an integer, got 'x'
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import __version__, _cost
from .._params import BandParams
from .._schedule import Schedule
from .._validate import MAX_BAND, ROW_LIMIT, SEED_LIMIT
from ..banded import InfiniteMaze
from ..stream import EllerStream
from . import _query as q
from ._answer import encode, etag
from ._query import FORMATS, LIMITS, Query, QueryError

__all__ = ["FORMATS", "LIMITS", "QueryError", "RowsRequest", "info", "parse"]

KNOBS = BandParams.names()
ELLER_KNOBS = ("horizontal", "vertical")  # the Eller stream's parameters; the others need band
NAMES = ("width", "band", "seed", "start", "stop", "format", "schedule", *KNOBS)


def _schedule(query: Query) -> Schedule | None:
    text = q.one(query, "schedule")
    if text is None:
        return None
    try:
        return Schedule.from_json(text)
    except (TypeError, ValueError, RecursionError) as exc:  # RecursionError: JSON nested too deep
        raise QueryError("schedule", f"schedule: {str(exc)[:200] or type(exc).__name__}") from None


@dataclass(frozen=True)
class RowsRequest:
    """Rows ``start .. stop - 1`` of one maze, in one format."""

    width: int
    band: int | None  # None: the Eller stream
    seed: int
    start: int
    stop: int
    format: str
    knobs: tuple[tuple[str, float], ...]
    schedule: Schedule | None
    made: int  # the cells making it takes (eller_stream._cost), its answer's among them

    def key(self) -> str:
        """The request in one canonical text (what its ETag hashes)."""
        value = {
            "v": __version__,
            "width": self.width,
            "band": self.band,
            "seed": str(self.seed),
            "start": str(self.start),
            "stop": str(self.stop),
            "format": self.format,
            "knobs": dict(self.knobs),
            "schedule": None if self.schedule is None else self.schedule.as_json_value(),
        }
        return json.dumps(value, sort_keys=True)

    def etag(self) -> str:
        return etag(self.key())

    def headers(self) -> dict[str, str]:
        """The answer's headers that say what it holds."""
        return {"X-Width": str(self.width), "X-Start": str(self.start), "X-Stop": str(self.stop)}

    def rows(self) -> np.ndarray:
        """The ``(stop - start, width)`` rows."""
        if self.band is None:
            return _eller_rows(self.width, self.seed, self.knobs, self.stop)[self.start :]
        maze = _maze(self.width, self.band, self.seed, self.knobs, self.schedule)
        return maze.rows(self.start, self.stop)

    def body(self) -> tuple[bytes, str]:
        """The answer's bytes and media type."""
        head = {"width": self.width, "start": str(self.start), "stop": str(self.stop)}
        return encode(self.rows(), self.format, head)


@functools.lru_cache(maxsize=256)
def _maze(
    width: int, band: int, seed: int, knobs: tuple[tuple[str, float], ...], schedule: Schedule | None
) -> InfiniteMaze:
    return InfiniteMaze(width, band, seed, schedule=schedule, **dict(knobs))


def _eller_rows(width: int, seed: int, knobs: tuple[tuple[str, float], ...], stop: int) -> np.ndarray:
    return EllerStream(width, seed, **dict(knobs)).take(stop)


def parse(query: Query) -> RowsRequest:
    """The request a query string asks for (``name -> values``, as
    ``urllib.parse.parse_qs`` gives it), checked; a :class:`QueryError` names
    the first bad parameter."""
    q.check_names(query, NAMES)
    width = q.integer(query, "width", 1, LIMITS["max_width"])
    band = None if q.one(query, "band") is None else q.integer(query, "band", 2, MAX_BAND)
    seed = q.integer(query, "seed", 0, SEED_LIMIT - 1)
    low = 0 if band is None else -ROW_LIMIT
    start = q.integer(query, "start", low, ROW_LIMIT - 1)
    stop = q.integer(query, "stop", low, ROW_LIMIT)  # then stop <= start is said as such
    if stop <= start:
        raise QueryError("stop", f"stop must be greater than start, got start={start}, stop={stop}")
    format = q.fmt(query)
    given = q.knobs(query, BandParams)
    schedule = _schedule(query)
    banded_only = [name for name in given if name not in ELLER_KNOBS] + ["schedule"] * (schedule is not None)
    if band is None and banded_only:
        raise QueryError(banded_only[0], f"{banded_only[0]} needs band (the Eller stream has none)")
    cells = (stop - start) * width
    limit = LIMITS["max_png_cells"] if format == "png" else LIMITS["max_cells"]
    if cells > limit:
        raise QueryError("stop", f"(stop - start) * width must be at most {limit} cells, got {cells}")
    frozen = tuple(sorted(given.items()))
    made = _made(width, band, seed, start, stop, frozen, schedule)
    return RowsRequest(width, band, seed, start, stop, format, frozen, schedule, made)


def _made(
    width: int,
    band: int | None,
    seed: int,
    start: int,
    stop: int,
    knobs: tuple[tuple[str, float], ...],
    schedule: Schedule | None,
) -> int:
    """The cells the request makes, refused (naming what makes them) past ``max_made_cells``."""
    limit = LIMITS["max_made_cells"]
    if band is None:
        made = _cost.eller_cells_made(width, start, stop)
        why, parameter = "the Eller stream replays its rows from 0: stop * width", "stop"
    else:
        made = _cost.cells_made(_maze(width, band, seed, knobs, schedule), start, stop)
        why = "the rows above start in its band are replayed, and a band with loops or rooms made whole"
        parameter = "band"
    if made > limit:
        message = f"this request makes {made} cells ({why}), at most {limit} a request"
        raise QueryError(parameter, message, cells=made, limit=limit)
    return made


def info() -> dict[str, Any]:
    """What ``GET /v1/info`` says of ``/v1/rows``: its parameters, and the
    defaults of its knobs (from their declarations, ``BandParams``)."""
    return {"parameters": list(NAMES), "defaults": {name: BandParams.default(name) for name in KNOBS}}
