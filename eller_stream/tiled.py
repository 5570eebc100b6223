"""Maze rows as a map of the Tiled editor: JSON (``.tmj``) or XML (``.tmx``).

The map has one tile layer, ``maze``, whose tiles are :func:`es.tiles
<eller_stream.render.tiles>` of the grid (gid 1 floor, gid 2 wall, from a
tileset of two image-less 8x8 tiles embedded in the map, each with a bool
property ``wall``), and an object layer, ``objects``: the objects given and,
with ``endpoints=True``, ``start`` and ``end`` (:func:`es.suggest_endpoints`).
Each object is a tile-sized rectangle over its cell's tile, with integer
properties ``row`` (absolute) and ``column``.

Rows are absolute: ``first_row`` is the maze row of the grid's first row
(``first_row=win.top`` for a :class:`Window`'s rows), and it is stored as
the map property ``first_row`` (with ``top``, whether the top border row is
there).  Cell ``(row, col)`` is tile ``(2*(row - first_row) + top, 2*col +
1)`` of a finite map.  ``infinite=True`` writes Tiled's chunked infinite map
(16x16 chunks), in which cell ``(row, col)`` is tile ``(2*row + 1, 2*col +
1)`` whatever the grid's first row: a map of the rows a game has now lines
up with the map of rows it had before (the Tiled editor holds tile
coordinates in 32-bit ints, so rows past about ±2**30 are likely beyond it:
not tested here; pytiled-parser reads any).  A plane region's map gives
``first_column`` as well (its columns absolute, as its rows), with
``top=False, left=False`` (an infinite map's defaults): its tiles are then the plane's own, tile rows
``2*y0 + 1`` to ``2*y1`` and columns ``2*x0 + 1`` to ``2*x1``, so that the
maps of regions side by side join without a seam; an infinite one past
Tiled's 32-bit tile coordinates is refused.  pytmx reads the finite maps only (it refuses
infinite ones, raising); pytiled-parser and Tiled read both.  pytmx also
refuses object properties named like an object's attributes (``x``,
``y``, ``width``, ``name``, ...).

Property values are bool, int (in ``[-2**63, 2**64)``), finite float or
str; numpy scalars of these (``np.float64``, ``np.int64``, ``np.bool_``,
...) are written as the Python value.  Names, values and ``description``
hold what XML can: a control character but tab, LF and CR (which come back
as written), a lone surrogate, U+FFFE or U+FFFF is refused, NaN and inf too,
in both formats alike: ValueError naming the field, before anything is
written.  The file is replaced whole or not at all (``_atomic``).

What is exact where: pytiled-parser reads a ``.tmj``'s numbers exactly
(JSON integers; a reader whose numbers are doubles, as JavaScript's, rounds
past 2**53).  It reads a ``.tmx``'s int properties and object positions
through a float: int properties (``row``, ``first_row``, yours) are exact
for magnitudes up to 2**53 (past it, the nearest double); an object of an
infinite map lies at pixel y ``16*row + 8``, exact for rows in ``[-2**52,
2**52)`` (row 2**52 reads one tile row off).  A finite map's positions are
small, exact in every reader; pytmx reads int properties exactly; tiles and
chunk coordinates are exact everywhere.

>>> import os, tempfile, eller_stream as es
>>> path = os.path.join(tempfile.mkdtemp(), "level.tmj")
>>> es.write_tiled(path, es.eller(6, 4, seed=1), objects=[{"name": "key", "row": 2, "column": 3}])
>>> os.path.getsize(path) > 0
True
"""

from __future__ import annotations

import json
import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ._atomic import write_bytes
from ._knobs import check_flag
from ._validate import ROW_LIMIT, check_int, check_xml_text
from .analysis import _check_grid, suggest_endpoints
from .render import tiles

__all__ = ["CHUNK", "TILE", "check_span", "write_tiled"]

TILE = 8  # pixels a side of a tile
CHUNK = 16  # tiles a side of a chunk of an infinite map
TILED_LOW, TILED_HIGH = -(2**31), 2**31  # Tiled's tile coordinates: "int" in its format, 32 bits
FLOOR, WALL = 1, 2  # gids
_VERSION, _TILED_VERSION = "1.10", "1.10.2"
_INT_LOW, _INT_HIGH = -(2**63), 2**64  # int properties: what int64 and uint64 hold

Property = tuple[str, str, Any]  # name, Tiled type, value


def _value(field: str, value: object) -> tuple[str, bool | int | float | str]:
    """(Tiled type, plain Python value) of a property value, numpy scalars
    included, or an error naming ``field``: the one check of every value
    either format writes."""
    if isinstance(value, (bool, np.bool_)):
        return "bool", bool(value)
    if isinstance(value, (int, np.integer)):
        number = int(value)
        if not _INT_LOW <= number < _INT_HIGH:  # the error leaves out a number too long to print
            raise ValueError(
                f"{field} must be an int in [-2**63, 2**64), got one of {number.bit_length()} bits"
            )
        return "int", number
    if isinstance(value, (float, np.floating)):
        with np.errstate(over="ignore"):
            real = float(value)  # a longdouble past a float's range is inf, refused next
        if not math.isfinite(real):
            raise ValueError(f"{field} must be a finite float (JSON has no NaN or inf), got {value!r}")
        return "float", real
    if isinstance(value, str):
        return "string", check_xml_text(field, value)
    raise TypeError(f"{field} must be a bool, int, float or str (or a numpy scalar of one), got {value!r}")


def _property(owner: str, name: object, value: object) -> Property:
    if not isinstance(name, str):
        raise TypeError(f"{owner} property names must be str, got {name!r}")
    name = check_xml_text(f"{owner} property name {name!r}", name)
    kind, plain = _value(f"{owner} property {name!r}", value)
    return name, kind, plain


def _objects(
    objects: Iterable[Mapping[str, object]] | None, first_row: int, first_column: int, shape: tuple[int, int]
) -> list[tuple[str, int, int, list[Property]]]:
    """The objects as (name, row, column, properties), every one checked
    (rows and columns absolute)."""
    h, w = shape
    found = []
    for i, obj in enumerate(objects or ()):
        owner = f"objects[{i}]"
        if not isinstance(obj, Mapping):
            raise TypeError(f"{owner} must be a dict with name, row and column, got {obj!r}")
        missing = [key for key in ("name", "row", "column") if key not in obj]
        unknown = sorted(set(obj) - {"name", "row", "column", "properties"})
        if missing or unknown:
            raise ValueError(f"{owner} needs name, row and column (and maybe properties): {obj!r}")
        name = check_xml_text(f"{owner} name", obj["name"])
        row = check_int(f"{owner} row", obj["row"], first_row, first_row + h - 1)
        column = check_int(f"{owner} column", obj["column"], first_column, first_column + w - 1)
        props = obj.get("properties") or {}
        if not isinstance(props, Mapping):
            raise TypeError(f"{owner} properties must be a dict, got {props!r}")
        given = [_property(owner, k, v) for k, v in props.items()]
        fixed = [(k, "int", v) for k, v in (("row", row), ("column", column)) if k not in props]
        found.append((name, row, column, fixed + given))
    return found


def _check_path(path: object) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise TypeError(f"path must be a str path, got {text!r}")
    if os.path.splitext(text)[1].lower() not in (".tmj", ".tmx"):
        raise ValueError(f"path must end in .tmj (Tiled JSON) or .tmx (Tiled XML), got {text!r}")
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise ValueError(f"path {text!r}: the folder {folder!r} does not exist")
    return text


class _Map:
    """What both formats write: the tiles, where they lie, the objects."""

    def __init__(
        self, grid: np.ndarray, first: tuple[int, int], edges: tuple[bool, bool], infinite: bool, plane: bool
    ) -> None:
        (self.first_row, self.first_column), (self.top, self.left) = first, edges
        self.gids = np.where(tiles(grid, top=self.top, left=self.left), WALL, FLOOR).astype(np.int64)
        self.infinite, self.plane = infinite, plane
        # the tile row and column of the grid's first tile: absolute in an infinite map
        self.y0 = 2 * self.first_row + (0 if self.top else 1) if infinite else 0
        self.x0 = 2 * self.first_column + (0 if self.left else 1) if infinite else 0
        self.height, self.width = self.gids.shape

    def tile_y(self, row: int) -> int:
        """The tile row of maze row ``row`` (absolute)."""
        return self.y0 + 2 * (row - self.first_row) + (1 if self.top else 0)

    def tile_x(self, column: int) -> int:
        """The tile column of maze column ``column`` (absolute)."""
        return self.x0 + 2 * (column - self.first_column) + (1 if self.left else 0)

    def chunk_span(self) -> tuple[int, int, int, int]:
        """The first tile row and column of the chunks that hold the tiles,
        and their tile rows and columns in all."""
        r0, c0 = self.y0 // CHUNK * CHUNK, self.x0 // CHUNK * CHUNK
        rows = -(-(self.y0 + self.height - r0) // CHUNK) * CHUNK
        cols = -(-(self.x0 + self.width - c0) // CHUNK) * CHUNK
        return r0, c0, rows, cols

    def chunks(self) -> list[tuple[int, int, np.ndarray]]:
        """(x, y, 16x16 gids) of the chunks that hold the tiles, 0 outside."""
        r0, c0, rows, cols = self.chunk_span()
        full = np.zeros((rows, cols), np.int64)
        full[self.y0 - r0 : self.y0 - r0 + self.height, self.x0 - c0 : self.x0 - c0 + self.width] = self.gids
        return [
            (c0 + cx, r0 + cy, full[cy : cy + CHUNK, cx : cx + CHUNK])
            for cy in range(0, rows, CHUNK)
            for cx in range(0, cols, CHUNK)
        ]

    def properties(self, description: str | None) -> list[Property]:
        props: list[Property] = [("first_row", "int", self.first_row), ("top", "bool", self.top)]
        if self.plane:  # a plane region's map (a banded maze's columns start at 0)
            props += [("first_column", "int", self.first_column), ("left", "bool", self.left)]
        if description is not None:
            props.append(("description", "string", description))
        return props


def check_span(
    first_row: int,
    rows: int,
    first_column: int,
    columns: int,
    *,
    top: bool = False,
    left: bool = False,
    names: tuple[str, str] = ("first_row", "first_column"),
) -> None:
    """Whether an infinite map of ``rows x columns`` cells from ``(first_row,
    first_column)`` fits Tiled's tile coordinates (its format says "int":
    32 bits in the editor, C++, and in readers such as the Rust ``tiled``
    crate): else a ``ValueError`` naming ``names[0]`` or ``names[1]``.

    Parameters
    ----------
    first_row, rows, first_column, columns : int
        The cells: rows ``first_row`` to ``first_row + rows - 1``, columns likewise.
    top, left : bool
        Whether the map has its top border row and left border column.
    names : (str, str)
        What the error calls the first row and the first column.

    >>> check_span(2**30 - 8, 4, 0, 10)
    >>> check_span(2**30, 4, 0, 10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: first_row: the map's chunks of rows 1073741824 to 1073741827 span tiles [2147483648, ...
    """
    for name, first, count, edge in (
        (names[0], first_row, rows, top),
        (names[1], first_column, columns, left),
    ):
        start = (2 * first + (0 if edge else 1)) // CHUNK * CHUNK  # the first tile's chunk
        stop = -(-(2 * (first + count) + 1) // CHUNK) * CHUNK  # past the last tile's (the far border)
        if start < TILED_LOW or stop > TILED_HIGH:
            what = "rows" if name == names[0] else "columns"
            raise ValueError(
                f"{name}: the map's chunks of {what} {first} to {first + count - 1} span tiles [{start}, "
                f"{stop}), past Tiled's 32-bit tile coordinates, [-2**31, 2**31): an infinite map holds "
                "cells in about [-2**30, 2**30) each way"
            )


def _json_props(props: list[Property]) -> list[dict[str, Any]]:
    return [{"name": n, "type": t, "value": v} for n, t, v in props]


def _tileset() -> list[tuple[int, bool]]:
    return [(FLOOR - 1, False), (WALL - 1, True)]


def _tmj(m: _Map, objects: list[tuple[str, int, int, list[Property]]], description: str | None) -> bytes:
    layer: dict[str, Any] = {"id": 1, "name": "maze", "type": "tilelayer", "opacity": 1, "visible": True}
    layer.update(x=0, y=0, width=m.width, height=m.height)
    if m.infinite:
        chunks = m.chunks()
        layer["chunks"] = [
            {"x": x, "y": y, "width": CHUNK, "height": CHUNK, "data": g.reshape(-1).tolist()}
            for x, y, g in chunks
        ]
        layer.update(startx=chunks[0][0], starty=chunks[0][1], width=chunks[-1][0] + CHUNK - chunks[0][0])
        layer["height"] = chunks[-1][1] + CHUNK - chunks[0][1]
    else:
        layer["data"] = m.gids.reshape(-1).tolist()
    group: dict[str, Any] = {"id": 2, "name": "objects", "type": "objectgroup", "draworder": "topdown"}
    group.update(opacity=1, visible=True, x=0, y=0, objects=[])
    for i, (name, row, column, props) in enumerate(objects, 1):
        group["objects"].append(
            {
                **{"id": i, "name": name, "type": "", "rotation": 0, "visible": True},
                **{"x": m.tile_x(column) * TILE, "y": m.tile_y(row) * TILE, "width": TILE, "height": TILE},
                "properties": _json_props(props),
            }
        )
    tileset: dict[str, Any] = {"firstgid": 1, "name": "eller_stream", "tilewidth": TILE, "tileheight": TILE}
    tileset.update(tilecount=2, columns=0, margin=0, spacing=0)
    tileset["tiles"] = [{"id": i, "properties": _json_props([("wall", "bool", w)])} for i, w in _tileset()]
    doc: dict[str, Any] = {"type": "map", "version": _VERSION, "tiledversion": _TILED_VERSION}
    doc.update(orientation="orthogonal", renderorder="right-down", compressionlevel=-1)
    doc.update(width=layer["width"], height=layer["height"], tilewidth=TILE, tileheight=TILE)
    doc.update(infinite=m.infinite, nextlayerid=3, nextobjectid=len(objects) + 1)
    doc.update(properties=_json_props(m.properties(description)), tilesets=[tileset], layers=[layer, group])
    return (json.dumps(doc, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")


def _xml_props(parent: ET.Element, props: list[Property]) -> None:
    node = ET.SubElement(parent, "properties")
    for name, kind, value in props:
        # plain values (_value): repr gives a float's shortest exact digits
        text = str(value).lower() if kind == "bool" else repr(value) if kind == "float" else str(value)
        ET.SubElement(node, "property", name=name, type=kind, value=text)


def _csv(gids: np.ndarray) -> str:
    return "\n" + ",\n".join(",".join(map(str, row)) for row in gids.tolist()) + "\n"


def _tmx(m: _Map, objects: list[tuple[str, int, int, list[Property]]], description: str | None) -> bytes:
    root = ET.Element("map", version=_VERSION, tiledversion=_TILED_VERSION, orientation="orthogonal")
    root.set("renderorder", "right-down")
    chunks = m.chunks() if m.infinite else []
    width = chunks[-1][0] + CHUNK - chunks[0][0] if chunks else m.width
    height = chunks[-1][1] + CHUNK - chunks[0][1] if chunks else m.height
    for key, value in (("width", width), ("height", height), ("tilewidth", TILE), ("tileheight", TILE)):
        root.set(key, str(value))
    root.set("infinite", "1" if m.infinite else "0")
    root.set("nextlayerid", "3")
    root.set("nextobjectid", str(len(objects) + 1))
    _xml_props(root, m.properties(description))
    tileset = ET.SubElement(root, "tileset", firstgid="1", name="eller_stream")
    for key, value in (("tilewidth", TILE), ("tileheight", TILE), ("tilecount", 2), ("columns", 0)):
        tileset.set(key, str(value))
    ET.SubElement(tileset, "grid", orientation="orthogonal", width="1", height="1")
    for i, wall in _tileset():
        _xml_props(ET.SubElement(tileset, "tile", id=str(i)), [("wall", "bool", wall)])
    layer = ET.SubElement(root, "layer", id="1", name="maze", width=str(width), height=str(height))
    data = ET.SubElement(layer, "data", encoding="csv")
    if m.infinite:
        for x, y, g in chunks:
            chunk = ET.SubElement(data, "chunk", x=str(x), y=str(y), width=str(CHUNK), height=str(CHUNK))
            chunk.text = _csv(g)
    else:
        data.text = _csv(m.gids)
    group = ET.SubElement(root, "objectgroup", id="2", name="objects")
    for i, (name, row, column, props) in enumerate(objects, 1):
        node = ET.SubElement(group, "object", id=str(i), name=name)
        for key, value in (("x", m.tile_x(column) * TILE), ("y", m.tile_y(row) * TILE)):
            node.set(key, str(value))
        node.set("width", str(TILE))
        node.set("height", str(TILE))
        _xml_props(node, props)
    ET.indent(root, space=" ")
    text: bytes = ET.tostring(root, encoding="UTF-8", xml_declaration=True)
    return text + b"\n"


def _endpoints(
    grid: np.ndarray, first_row: int, first_column: int
) -> list[tuple[str, int, int, list[Property]]]:
    """The objects ``start`` and ``end`` at :func:`es.suggest_endpoints`, absolute."""
    start, end = suggest_endpoints(grid)
    found = []
    for name, (y, x) in (("start", start), ("end", end)):
        at: list[Property] = [("row", "int", first_row + y), ("column", "int", first_column + x)]
        found.append((name, first_row + y, first_column + x, at))
    return found


def _flags(**flags: object) -> tuple[bool, ...]:
    """The flags, each checked to be a bool (a ``TypeError`` names it)."""
    return tuple(check_flag(name, value) for name, value in flags.items())


def _edges(top: object, left: object, infinite: bool, plane: bool) -> tuple[bool, ...]:
    """``top`` and ``left``, checked; ``None`` is the border the map needs:
    a finite map's both, an infinite one's left alone, a plane region's
    infinite map's neither (the rows above and the columns to the left are
    the neighbouring maps')."""
    return _flags(
        top=not infinite if top is None else top,
        left=not (infinite and plane) if left is None else left,
    )


def write_tiled(
    path: str | os.PathLike[str],
    grid: np.ndarray,
    *,
    objects: Iterable[Mapping[str, object]] | None = None,
    endpoints: bool = False,
    top: bool | None = None,
    left: bool | None = None,
    infinite: bool = False,
    first_row: int = 0,
    first_column: int | None = None,
    description: str | None = None,
) -> None:
    """Write ``grid`` as a Tiled map, JSON or XML by the extension of ``path``
    (``.tmj`` or ``.tmx``), replaced whole or not at all.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write, ending in ``.tmj`` or ``.tmx``, in a folder that exists.
    grid : numpy.ndarray
        A ``(h, w)`` uint8 array of maze rows (a window's ``win.rows``, a whole maze).
    objects : iterable of dict, optional
        Objects to place: dicts with ``name`` (str), ``row`` (absolute: from
        ``first_row`` to ``first_row + h - 1``), ``column`` and optionally
        ``properties`` (a dict of bool, int, float or str values, numpy
        scalars too; see the module for what is refused and what is exact).
    endpoints : bool
        Add the objects ``start`` and ``end`` at :func:`es.suggest_endpoints`.
    top : bool, optional
        Give the top border row (``es.tiles(grid, top=top)``): by default a finite map's.
    left : bool, optional
        Give the left border column; by default, all but an infinite map
        with ``first_column`` (a plane region's: regions' maps then join).
    infinite : bool
        Write Tiled's chunked infinite map, tiles at their absolute rows.
    first_row : int
        The maze row of the grid's first row (``win.top`` for a window).
    first_column : int, optional
        A plane region's ``x0`` (``None``: columns from 0, a banded maze's): objects'
        columns are absolute too, stored as ``first_column`` (with ``left``); an
        infinite map past Tiled's 32-bit tiles is refused (:func:`check_span`).
    description : str, optional
        Text stored as the map property ``description`` (of characters XML
        holds, as object names and properties).

    Raises
    ------
    TypeError
        For an argument, object or property value of the wrong kind.
    ValueError
        For a value out of range, text XML cannot hold, NaN or inf: naming it.

    >>> import os, tempfile, eller_stream as es
    >>> win = es.Window(es.InfiniteMaze(8, band=4, seed=2), row=1000)
    >>> path = os.path.join(tempfile.mkdtemp(), "window.tmx")
    >>> es.write_tiled(path, win.rows, top=False, first_row=win.top, endpoints=True)
    >>> open(path, "rb").read(38)
    b"<?xml version='1.0' encoding='UTF-8'?>"
    >>> region = es.Plane(chunk=8, seed=1).region(-20, 20, 2**29, 2**29 + 40)
    >>> es.write_tiled(path, region, infinite=True, first_row=-20, first_column=2**29)
    """
    target = _check_path(path)
    grid = _check_grid(grid)
    endpoints, infinite = _flags(endpoints=endpoints, infinite=infinite)
    top, left = _edges(top, left, infinite, first_column is not None)
    first_row = check_int("first_row", first_row, -ROW_LIMIT, ROW_LIMIT - grid.shape[0])
    plane = first_column is not None or not left
    high = ROW_LIMIT - grid.shape[1]
    column = 0 if first_column is None else check_int("first_column", first_column, -ROW_LIMIT, high)
    found = _objects(objects, first_row, column, grid.shape)
    found += _endpoints(grid, first_row, column) if endpoints else []
    if description is not None and not isinstance(description, str):
        raise TypeError(f"description must be a str or None, got {type(description).__name__}")
    description = None if description is None else check_xml_text("description", description)
    if infinite and plane:
        check_span(first_row, grid.shape[0], column, grid.shape[1], top=bool(top), left=bool(left))
    m = _Map(grid, (first_row, column), (bool(top), bool(left)), bool(infinite), plane)
    write = _tmx if target.lower().endswith(".tmx") else _tmj
    write_bytes(target, write(m, found, description))
