"""The JSON of an :class:`~eller_stream.InfiniteMaze`: what ``maze.to_json()``
writes and ``InfiniteMaze.from_json`` reads, a maze in one line of text.

An object, its keys in this order: ``"version"`` (:data:`VERSION`),
``"width"``, ``"band"``, ``"seed"`` as a decimal string (a JSON number past
2**53 loses digits in JavaScript), every parameter of
:class:`~eller_stream.BandParams` by name (the list is ``BandParams.names()``,
so a knob added there is saved with no change here), and ``"schedule"``
(:meth:`~eller_stream.Schedule.as_json_value`) when the maze has one.  It is
also what the JavaScript module takes as its params
(``rows(JSON.parse(text), start, stop)``).  A reader takes a parameter that
is left out at its default (JSON saved before a knob existed) and refuses
any key it does not know.

>>> import eller_stream as es
>>> value = maze_value(es.InfiniteMaze(6, band=4, seed=2**64 - 1))
>>> value["seed"], list(value)[4:]
('18446744073709551615', ['horizontal', 'vertical', 'doors', 'loops', 'rooms'])
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ._json import check_seed_text, integer, json_kind, read_as, saved_object
from ._params import BandParams
from ._schedule import MAX_TEXT_BYTES, Schedule
from ._validate import check_band, check_width

if TYPE_CHECKING:
    from .banded import InfiniteMaze

__all__ = ["MAX_MAZE_TEXT", "VERSION", "maze_json", "maze_value", "parse_maze", "read_maze"]

VERSION = 1  # the format written; a reader takes this one alone
# The text read, at most: a schedule's (Schedule.from_json's limit) and room for the rest.
MAX_MAZE_TEXT = MAX_TEXT_BYTES + 4096
_FIXED = ("version", "width", "band", "seed")

Parts = tuple[int, int, int, BandParams, Schedule | None]


def maze_value(maze: InfiniteMaze) -> dict[str, Any]:
    """The JSON value of ``maze``: an object of the keys above, in order."""
    value: dict[str, Any] = {"version": VERSION, "width": maze.width, "band": maze.band}
    value["seed"] = str(maze.seed)
    value.update(maze.params.as_dict())
    if maze.schedule is not None:
        value["schedule"] = maze.schedule.as_json_value()
    return value


def maze_json(maze: InfiniteMaze) -> str:
    """The canonical text of :func:`maze_value`: compact, keys in order."""
    return json.dumps(maze_value(maze), separators=(",", ":"), allow_nan=False)


def parse_maze(value: object) -> Parts:
    """``(width, band, seed, params, schedule)`` of a maze's JSON value, or a
    ``ValueError`` naming what is wrong (never a ``TypeError``: the value
    comes from text)."""
    value = saved_object(value, "the maze", (*_FIXED, *BandParams.names(), "schedule"), _FIXED, VERSION)
    seed = check_seed_text(value["seed"])
    try:
        width = check_width(integer("width", value["width"]))
        band = check_band(integer("band", value["band"]))
        params = BandParams.from_dict({name: value[name] for name in BandParams.names() if name in value})
        schedule = None
        if "schedule" in value:
            if not isinstance(value["schedule"], dict):
                got = json_kind(value["schedule"])
                raise ValueError(f"schedule must be an object of keyframes, got {got}")
            schedule = Schedule.from_json_value(value["schedule"])
    except TypeError as exc:  # a check's: the value is of the wrong JSON type
        raise ValueError(str(exc)) from None
    return width, band, seed, params, schedule


def read_maze(text: object) -> Parts:
    """:func:`parse_maze` of JSON ``text`` (str or bytes, at most
    :data:`MAX_MAZE_TEXT` long), every error a ``ValueError`` that starts
    with ``"not an InfiniteMaze's JSON: "``."""
    return read_as(text, "an InfiniteMaze", parse_maze, MAX_MAZE_TEXT)
