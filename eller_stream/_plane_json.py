"""The JSON of a :class:`~eller_stream.Plane`: what ``plane.to_json()``
writes and ``Plane.from_json`` reads, a plane in one line of text.

An object, its keys in this order: ``"version"`` (:data:`VERSION`),
``"chunk"``, ``"seed"`` as a decimal string (a JSON number past 2**53 loses
digits in JavaScript), and every parameter of
:class:`~eller_stream.PlaneParams` by name (``PlaneParams.names()``, so a
knob added there is saved with no change here).  It is also what the
JavaScript module's ``region`` takes as its params
(``region(JSON.parse(text), y0, y1, x0, x1)``).  A reader takes a parameter
left out at its default and refuses any key it does not know.

>>> import eller_stream as es
>>> plane_json(es.Plane(8, seed=2**64 - 1, perfect=False))
'{"version":1,"chunk":8,"seed":"18446744073709551615","perfect":false,"horizontal":0.5,"vertical":0.5}'
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ._json import check_seed_text, integer, read_as, saved_object
from ._maze_json import VERSION
from ._plane_params import PlaneParams

if TYPE_CHECKING:
    from .plane import Plane

__all__ = ["MAX_PLANE_TEXT", "VERSION", "plane_json", "plane_value", "read_plane"]

MAX_PLANE_TEXT = 4096  # the text read, at most: a plane's is about 100 bytes
_FIXED = ("version", "chunk", "seed")


def plane_value(plane: Plane) -> dict[str, Any]:
    """The JSON value of ``plane``: an object of the keys above, in order."""
    value: dict[str, Any] = {"version": VERSION, "chunk": plane.chunk, "seed": str(plane.seed)}
    value.update(plane.params.as_dict())
    return value


def plane_json(plane: Plane) -> str:
    """The canonical text of :func:`plane_value`: compact, keys in order."""
    return json.dumps(plane_value(plane), separators=(",", ":"), allow_nan=False)


def parse_plane(value: object) -> tuple[int, int, PlaneParams]:
    """``(chunk, seed, params)`` of a plane's JSON value, or a ``ValueError``
    naming what is wrong (never a ``TypeError``: the value comes from text).
    The chunk's range is the plane's to check."""
    value = saved_object(value, "the plane", (*_FIXED, *PlaneParams.names()), _FIXED, VERSION)
    seed = check_seed_text(value["seed"])
    try:
        chunk = integer("chunk", value["chunk"])
        params = PlaneParams.from_dict({name: value[name] for name in PlaneParams.names() if name in value})
    except TypeError as exc:  # a check's: the value is of the wrong JSON type
        raise ValueError(str(exc)) from None
    return chunk, seed, params


def read_plane(text: object) -> tuple[int, int, PlaneParams]:
    """:func:`parse_plane` of JSON ``text`` (str or bytes, at most
    :data:`MAX_PLANE_TEXT` long), every error a ``ValueError`` that starts
    with ``"not a Plane's JSON: "``."""
    return read_as(text, "a Plane", parse_plane, MAX_PLANE_TEXT)
