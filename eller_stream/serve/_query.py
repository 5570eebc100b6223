"""A query string's values, read and checked: what every endpoint of the
HTTP API parses its parameters with (:mod:`._request` the rows',
:mod:`._region` the plane's).

A query is ``name -> the values given`` (as ``urllib.parse.parse_qs``
gives it); each reader raises :class:`QueryError` naming the parameter.
The knobs are read from their declarations (:mod:`eller_stream._knobs`),
so that a new knob is a new parameter without an edit here. The limits are
the API's: one table for every endpoint.

>>> integer({"y0": ["-12"]}, "y0", -100, 100)
-12
>>> from eller_stream._plane_params import PlaneParams
>>> knobs({"perfect": ["false"], "vertical": ["0.25"]}, PlaneParams)
{'perfect': False, 'vertical': 0.25}
>>> integer({"x0": ["1e3"]}, "x0", 0, 9)
Traceback (most recent call last):
...
eller_stream.serve._query.QueryError: x0 must be an integer, got '1e3'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .._knobs import Knobs

__all__ = ["FORMATS", "LIMITS", "Query", "QueryError", "check_names", "fmt", "integer", "knobs", "one"]

Query = Mapping[str, Sequence[str]]

# What one request may ask for: the answer's cells, a picture's cells, the
# width of a row range, and the cells it makes (eller_stream._cost for rows:
# the rows replayed to reach start, from its band's first row or the Eller
# stream's row 0, and the whole bands made for loops and rooms; for a region
# of the plane, every chunk it touches, whole): about 0.1 to 0.6 s and 120 MB
# at most.
LIMITS = {"max_cells": 2**20, "max_png_cells": 2**16, "max_width": 4096, "max_made_cells": 2**24}
FORMATS = {"raw": "application/octet-stream", "json": "application/json", "png": "image/png"}
_INT = re.compile(r"-?(0|[1-9][0-9]*)")
_FLOAT = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


class QueryError(ValueError):
    """A bad query: the parameter it names, and what is wrong (a 400);
    ``details``: more fields for the answer's JSON body."""

    def __init__(self, parameter: str, message: str, **details: int) -> None:
        super().__init__(message)
        self.parameter = parameter
        self.details = details


def check_names(query: Query, names: Sequence[str]) -> None:
    """Refuse a parameter that is not one of ``names``."""
    for name in query:
        if name not in names:
            raise QueryError(name, f"unknown parameter {name[:40]!r} (known: {', '.join(names)})")


def one(query: Query, name: str) -> str | None:
    """The one value of ``name``, or ``None`` when it is not given (given
    twice is an error: which would count?)."""
    values = query.get(name)
    if not values:
        return None
    if len(values) > 1:
        raise QueryError(name, f"{name} is given {len(values)} times")
    return values[0]


def integer(query: Query, name: str, low: int, high: int, default: int | None = None) -> int:
    """``name`` as a plain decimal integer in ``[low, high]`` (required when
    there is no ``default``). Its digits are counted before it is turned
    into an int: more digits than its range allows are refused, even past
    Python's 4,300-digit limit."""
    text = one(query, name)
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


def knobs(query: Query, params: type[Knobs]) -> dict[str, Any]:
    """The knobs of ``params`` (``BandParams``, ``PlaneParams``) that the
    query gives, each read as its declaration says (:meth:`Knobs.parse`)
    and checked: a number as a plain decimal (``0.25``, ``1e-3``; not
    ``nan``, ``inf`` or ``-0``), a flag as ``true``/``false`` (or
    ``1``/``0``, ``yes``/``no``, ``on``/``off``)."""
    out = {}
    for name in params.names():
        text = one(query, name)
        if text is None:
            continue
        if params.kind(name) is float and not _FLOAT.fullmatch(text):
            raise QueryError(name, f"{name} must be a decimal number, got {text[:40]!r}")
        try:
            out[name] = params.parse(name, text)
        except (TypeError, ValueError) as exc:
            raise QueryError(name, str(exc)[:200]) from None  # (a flag's text of any length)
    return out


def fmt(query: Query) -> str:
    """The answer's format, one of :data:`FORMATS` (``raw`` when not given)."""
    text = one(query, "format") or "raw"
    if text not in FORMATS:
        raise QueryError("format", f"format must be one of {', '.join(FORMATS)}, got {text[:40]!r}")
    return text
