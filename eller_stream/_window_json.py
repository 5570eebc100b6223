"""The JSON of a :class:`~eller_stream.Window`: what ``win.to_json()`` writes
and ``Window.from_json`` reads.

An object, its keys in this order: ``"version"`` (:data:`VERSION`),
``"maze"`` (the maze's JSON value, :mod:`eller_stream._maze_json`),
``"row"``, ``"above"``, ``"below"``, ``"top"``, ``"bottom"`` (the rows as
decimal strings, as the seed: JavaScript's numbers are exact only to
2**53; ``above`` and ``below`` as numbers) and ``"explored"``: the fog of war,
the ``(bottom - top) * width`` bits of ``win.explored`` row by row, each
byte's first bit its highest (``numpy.packbits``), the last byte padded with
zero bits, in base64.  ``top`` and ``bottom`` follow from the others and a
reader checks that they do; no row is saved (every row comes back from the
maze).

>>> import eller_stream as es
>>> win = es.Window(es.InfiniteMaze(4, band=4, seed=1), row=10, above=1, below=0)
>>> window_json(win)[window_json(win).index('"row"') :]
'"row":"10","above":1,"below":0,"top":"9","bottom":"11","explored":"AA=="}'
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import TYPE_CHECKING, Any

import numpy as np

from ._json import read_as, saved_object
from ._maze_json import Parts, maze_value, parse_maze
from ._validate import ROW_LIMIT, check_int

if TYPE_CHECKING:
    from .window import Window

__all__ = ["VERSION", "WindowState", "read_window", "window_json"]

VERSION = 1
_KEYS = ("version", "maze", "row", "above", "below", "top", "bottom", "explored")
_ROW_TEXT = re.compile(r"-?(0|[1-9][0-9]{0,18})")
MAX_KEPT = 2**20  # above and below, at most (as Window takes them)

WindowState = tuple[Parts, int, int, int, np.ndarray]  # (maze, row, above, below, explored)


def window_json(win: Window) -> str:
    """The canonical text of ``win``'s JSON: compact, keys in order."""
    bits = np.packbits(np.ascontiguousarray(win.explored), axis=None)
    value: dict[str, Any] = {
        "version": VERSION,
        "maze": maze_value(win.maze),
        "row": str(win.row),
        "above": win.above,
        "below": win.below,
        "top": str(win.top),
        "bottom": str(win.bottom),
        "explored": base64.b64encode(bits.tobytes()).decode("ascii"),
    }
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _row(name: str, value: object, limit: int = ROW_LIMIT - 1) -> int:
    if not isinstance(value, str) or not _ROW_TEXT.fullmatch(value):
        raise ValueError(f"{name} must be a decimal string of a row, got {json.dumps(value)[:40]}")
    return check_int(name, int(value), -ROW_LIMIT, limit)


def _kept(name: str, value: object) -> int:
    if type(value) is not int:
        raise ValueError(f"{name} must be a JSON integer, got {json.dumps(value)[:40]}")
    return check_int(name, value, 0, MAX_KEPT)


def parse_window(value: object) -> WindowState:
    """The state of a window's JSON value (``ValueError`` naming what is wrong)."""
    value = saved_object(value, "the window", _KEYS, _KEYS, VERSION)
    try:
        maze = parse_maze(value["maze"])
    except ValueError as exc:
        raise ValueError(f"maze: {exc}") from None
    row = _row("row", value["row"])
    above, below = _kept("above", value["above"]), _kept("below", value["below"])
    top, bottom = _row("top", value["top"]), _row("bottom", value["bottom"], ROW_LIMIT)
    want = (max(row - above, -ROW_LIMIT), min(row + below + 1, ROW_LIMIT))
    if (top, bottom) != want:
        must = f"top and bottom must be {want[0]} and {want[1]} (row, above, below)"
        raise ValueError(f"{must}, got {top}, {bottom}")
    cells = (bottom - top) * maze[0]
    explored = value["explored"]
    size = (cells + 7) // 8
    if not isinstance(explored, str) or len(explored) != 4 * ((size + 2) // 3):
        raise ValueError(f"explored must be the base64 of {size} bytes ({cells} bits)")
    try:
        data = base64.b64decode(explored, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("explored is not base64") from None
    bits = np.frombuffer(data, np.uint8)
    if len(bits) != size or (cells % 8 and bits[-1] & (0xFF >> (cells % 8))):
        raise ValueError(f"explored must hold {cells} bits, the last byte padded with zero bits")
    mask = np.unpackbits(bits, count=cells).astype(bool).reshape(bottom - top, maze[0])
    return maze, row, above, below, mask


def read_window(text: object) -> WindowState:
    """:func:`parse_window` of JSON ``text``, every error a ``ValueError``
    starting with ``"not a Window's JSON: "``."""
    return read_as(text, "a Window", parse_window)
