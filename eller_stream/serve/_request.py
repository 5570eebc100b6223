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
eller_stream.serve._request.QueryError: seed must be an integer, got 'x'
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import __version__, _cost
from .._params import BandParams
from .._schedule import Schedule
from .._validate import MAX_BAND, ROW_LIMIT, SEED_LIMIT
from ..banded import InfiniteMaze
from ..image import write_png
from ..stream import EllerStream

__all__ = ["FORMATS", "LIMITS", "QueryError", "RowsRequest", "info", "parse"]

# What one request may ask for: the answer's cells, a picture's cells, the
# width, and the cells it makes (eller_stream._cost: the rows replayed to reach
# start, from its band's first row or the Eller stream's row 0, and the whole
# bands made for loops and rooms): about 0.1 to 0.6 s and 120 MB at most.
LIMITS = {"max_cells": 2**20, "max_png_cells": 2**16, "max_width": 4096, "max_made_cells": 2**24}
FORMATS = {"raw": "application/octet-stream", "json": "application/json", "png": "image/png"}
PNG_CELL, PNG_WALL = 8, 2
KNOBS = BandParams.names()
ELLER_KNOBS = ("horizontal", "vertical")  # the Eller stream's parameters; the others need band
NAMES = ("width", "band", "seed", "start", "stop", "format", "schedule", *KNOBS)
_INT = re.compile(r"-?(0|[1-9][0-9]*)")
_FLOAT = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


class QueryError(ValueError):
    """A bad query: the parameter it names, and what is wrong (a 400);
    ``details``: more fields for the answer's JSON body."""

    def __init__(self, parameter: str, message: str, **details: int) -> None:
        super().__init__(message)
        self.parameter = parameter
        self.details = details


def _one(query: Mapping[str, Sequence[str]], name: str) -> str | None:
    values = query.get(name)
    if not values:
        return None
    if len(values) > 1:
        raise QueryError(name, f"{name} is given {len(values)} times")
    return values[0]


def _int(
    query: Mapping[str, Sequence[str]], name: str, low: int, high: int, default: int | None = None
) -> int:
    text = _one(query, name)
    if text is None:
        if default is None:
            raise QueryError(name, f"{name} is required")
        return default
    if not _INT.fullmatch(text):
        raise QueryError(name, f"{name} must be an integer, got {text[:40]!r}")
    digits = len(text) - text.startswith("-")
    if digits > len(str(max(-low, high))):  # out of range, and maybe past Python's int-digit limit
        raise QueryError(name, f"{name} must be in [{low}, {high}], got an integer of {digits} digits")
    value = int(text)
    if not low <= value <= high:
        raise QueryError(name, f"{name} must be in [{low}, {high}], got {value}")
    return value


def _knobs(query: Mapping[str, Sequence[str]]) -> dict[str, float]:
    out = {}
    for name in KNOBS:
        text = _one(query, name)
        if text is None:
            continue
        if not _FLOAT.fullmatch(text):
            raise QueryError(name, f"{name} must be a decimal number, got {text[:40]!r}")
        try:
            out[name] = float(BandParams.check(name, float(text)))
        except (TypeError, ValueError) as exc:
            raise QueryError(name, str(exc)) from None
    return out


def _schedule(query: Mapping[str, Sequence[str]]) -> Schedule | None:
    text = _one(query, "schedule")
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
        return '"' + hashlib.sha256(self.key().encode()).hexdigest()[:32] + '"'

    def rows(self) -> np.ndarray:
        """The ``(stop - start, width)`` rows."""
        if self.band is None:
            return _eller_rows(self.width, self.seed, self.knobs, self.stop)[self.start :]
        maze = _maze(self.width, self.band, self.seed, self.knobs, self.schedule)
        return maze.rows(self.start, self.stop)

    def body(self) -> tuple[bytes, str]:
        """The answer's bytes and media type."""
        rows = self.rows()
        if self.format == "raw":
            data = rows.tobytes()
        elif self.format == "json":
            value = {
                "width": self.width,
                "start": str(self.start),
                "stop": str(self.stop),
                "rows": rows.tolist(),
            }
            data = json.dumps(value, separators=(",", ":")).encode()
        else:
            buffer = io.BytesIO()
            write_png(buffer, rows, cell=PNG_CELL, wall=PNG_WALL)
            data = buffer.getvalue()
        return data, FORMATS[self.format]


@functools.lru_cache(maxsize=256)
def _maze(
    width: int, band: int, seed: int, knobs: tuple[tuple[str, float], ...], schedule: Schedule | None
) -> InfiniteMaze:
    return InfiniteMaze(width, band, seed, schedule=schedule, **dict(knobs))


def _eller_rows(width: int, seed: int, knobs: tuple[tuple[str, float], ...], stop: int) -> np.ndarray:
    return EllerStream(width, seed, **dict(knobs)).take(stop)


def parse(query: Mapping[str, Sequence[str]]) -> RowsRequest:
    """The request a query string asks for (``name -> values``, as
    ``urllib.parse.parse_qs`` gives it), checked; a :class:`QueryError` names
    the first bad parameter."""
    for name in query:
        if name not in NAMES:
            raise QueryError(name, f"unknown parameter {name[:40]!r} (known: {', '.join(NAMES)})")
    width = _int(query, "width", 1, LIMITS["max_width"])
    band = None if _one(query, "band") is None else _int(query, "band", 2, MAX_BAND)
    seed = _int(query, "seed", 0, SEED_LIMIT - 1)
    low = 0 if band is None else -ROW_LIMIT
    start = _int(query, "start", low, ROW_LIMIT - 1)
    stop = _int(query, "stop", low + 1, ROW_LIMIT)
    if stop <= start:
        raise QueryError("stop", f"stop must be greater than start, got start={start}, stop={stop}")
    fmt = _one(query, "format") or "raw"
    if fmt not in FORMATS:
        raise QueryError("format", f"format must be one of {', '.join(FORMATS)}, got {fmt[:40]!r}")
    knobs = _knobs(query)
    schedule = _schedule(query)
    banded_only = [name for name in knobs if name not in ELLER_KNOBS] + ["schedule"] * (schedule is not None)
    if band is None and banded_only:
        raise QueryError(banded_only[0], f"{banded_only[0]} needs band (the Eller stream has none)")
    cells = (stop - start) * width
    limit = LIMITS["max_png_cells"] if fmt == "png" else LIMITS["max_cells"]
    if cells > limit:
        raise QueryError("stop", f"(stop - start) * width must be at most {limit} cells, got {cells}")
    frozen = tuple(sorted(knobs.items()))
    made = _made(width, band, seed, start, stop, frozen, schedule)
    return RowsRequest(width, band, seed, start, stop, fmt, frozen, schedule, made)


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
    """What ``GET /v1/info`` answers: the version, the parameters' defaults, the limits."""
    defaults = {name: BandParams.default(name) for name in KNOBS}
    return {"version": __version__, "defaults": defaults, "limits": LIMITS, "formats": list(FORMATS)}
