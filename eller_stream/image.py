"""Pictures of mazes: PNG (streamed row by row) and SVG.

A maze of ``w x h`` cells becomes an image of ``w*cell + (w+1)*wall`` by
``h*cell + (h+1)*wall`` pixels: walls are ``wall`` pixels thick, cells
``cell`` pixels wide.  PNGs are written by pypng from an iterator of pixel
rows, so a streamed maze (``EllerStream``) renders in O(width) memory
however tall it is; only a drawn solution needs the whole grid.

Optional marks: ``start``/``end`` open the outer wall at a top-row and a
bottom-row cell, given as a ``(y, x)`` cell (what
:func:`eller_stream.suggest_endpoints` returns) or as its column x; ``path`` (a ``(k, 2)`` array of ``(y, x)``
cells, as :func:`eller_stream.solve` returns) is drawn in its own colour.

>>> import io, png, eller_stream as es
>>> grid = es.eller(4, 3, seed=1)
>>> buf = io.BytesIO()
>>> es.write_png(buf, grid, cell=3, wall=1)
>>> w, h, rows, info = png.Reader(bytes=buf.getvalue()).read()
>>> (w, h) == (4 * 3 + 5, 3 * 3 + 4)
True
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO
from xml.sax.saxutils import escape

import numpy as np

from ._atomic import atomic_write
from ._format import EAST, SOUTH
from ._pixels import (
    FLOOR,
    PATH,
    WALL,
    Endpoint,
    check_sizes,
    edge_x,
    image_size,
    pack2,
    path_masks,
    pixel_blocks,
)
from ._validate import check_int, check_rows, check_xml_text
from .analysis import solve, suggest_endpoints

__all__ = ["FLOOR", "PALETTE", "PATH", "WALL", "png_rows", "svg", "write_image", "write_png"]

PALETTE = [(255, 255, 255), (24, 24, 32), (220, 40, 40)]


def png_rows(
    rows: Iterable[np.ndarray],
    width: int,
    *,
    cell: int = 8,
    wall: int = 2,
    start: Endpoint | None = None,
    end: Endpoint | None = None,
    path: np.ndarray | None = None,
    height: int | None = None,
) -> Iterator[bytes]:
    """Pixel rows (palette indices as bytes) of the maze made of ``rows``.

    The last row given is drawn with the bottom wall under it (the end
    opening, if any, is made there).

    Parameters
    ----------
    rows : iterable of numpy.ndarray
        Maze rows, ``(width,)`` uint8 each, top to bottom.
    width : int
        Cells per row.
    cell, wall : int, keyword-only
        Cell size and wall thickness in pixels, each in ``[1, 1000]``.
    start, end : int or (y, x) cell, optional, keyword-only
        Openings in the outer wall: a column x or a ``(y, x)`` cell of the
        top (``start``) or bottom (``end``) row; the bottom row's y is
        checked when ``height`` is given.
    path : numpy.ndarray, optional, keyword-only
        A ``(k, 2)`` array of ``(y, x)`` cells to draw in the path colour;
        needs ``height``.
    height : int, optional, keyword-only
        The number of rows ``rows`` yields.

    >>> import eller_stream as es
    >>> rows = list(es.png_rows(es.eller(2, 1, seed=0), 2, cell=1, wall=1))
    >>> [list(r) for r in rows]
    [[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]]
    """
    cell, wall = check_sizes(cell, wall)
    for block in _blocks(rows, width, height, cell, wall, start, end, path):
        for line in block:
            yield line.tobytes()


def _blocks(
    rows: Iterable[np.ndarray],
    width: int,
    height: int | None,
    cell: int,
    wall: int,
    start: Endpoint | None,
    end: Endpoint | None,
    path: np.ndarray | None,
) -> Iterator[np.ndarray]:
    """:func:`pixel_blocks` of ``rows``, the marks checked first."""
    masks = None
    if path is not None:
        if height is None:
            raise ValueError("height is needed to draw a path")
        masks = path_masks(path, height, width)
    if start is not None:
        start = edge_x("start", start, 0, width)
    if end is not None:
        end = edge_x("end", end, None if height is None else height - 1, width)
    return pixel_blocks(rows, width, cell, wall, start, end, masks)


def write_png(
    target: str | os.PathLike[str] | BinaryIO,
    rows: Iterable[np.ndarray] | np.ndarray,
    *,
    width: int | None = None,
    height: int | None = None,
    cell: int = 8,
    wall: int = 2,
    start: Endpoint | None = None,
    end: Endpoint | None = None,
    path: np.ndarray | None = None,
    progress: Callable[[int, int], None] | None = None,
    description: str | None = None,
) -> None:
    """Write a maze as a palette PNG, streaming (O(width) memory).

    A file named by a path is replaced whole or not at all (written beside
    it first, then synced and renamed: see ``eller_stream._atomic``).

    Parameters
    ----------
    target : str, os.PathLike or binary file
        The file to write: a path, or a file object open for writing.
    rows : numpy.ndarray or iterable of numpy.ndarray
        A ``(height, width)`` grid, or any iterable of rows (then give
        ``width`` and ``height``).
    width, height : int, optional, keyword-only
        Cells per row and the number of rows ``rows`` yields; needed when
        ``rows`` is not a grid.
    cell, wall : int, keyword-only
        Cell size and wall thickness in pixels, each in ``[1, 1000]``.
    start, end : int or (y, x) cell, optional, keyword-only
        A top-row and a bottom-row cell to open the outer wall at: what
        :func:`eller_stream.suggest_endpoints` returns, ``(y, x)`` cells,
        or their columns x.
    path : numpy.ndarray, optional, keyword-only
        A ``(k, 2)`` array of ``(y, x)`` cells drawn in the path colour.
    progress : callable, optional, keyword-only
        ``progress(done, total)`` is called as rows are drawn.
    description : str, optional, keyword-only
        Stored as the PNG's ``Description`` (a ``tEXt`` chunk, Latin-1).

    >>> import io, eller_stream as es
    >>> s = es.EllerStream(50, seed=1)
    >>> rows = (s.finish() if i == 99 else next(s) for i in range(100))
    >>> out = io.BytesIO()
    >>> es.write_png(out, rows, width=50, height=100, cell=2, wall=1)
    >>> out.getvalue()[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    import png

    if isinstance(rows, np.ndarray):
        grid = check_rows("rows", rows)
        height, width = grid.shape
        rows = grid
    if width is None or height is None:
        raise ValueError("width and height are needed when rows is not a grid")
    width = check_int("width", width, 1)
    height = check_int("height", height, 1)
    cell, wall = check_sizes(cell, wall)
    px_w, px_h = image_size(width, height, cell, wall)
    if max(px_w, px_h) > PNG_MAX_SIDE:
        raise ValueError(f"a {px_w} x {px_h} pixel picture is larger than PNG allows ({PNG_MAX_SIDE} a side)")
    chunks = b"" if description is None else _text_chunk("Description", description)
    counted = rows if isinstance(rows, np.ndarray) and progress is None else _counting(rows, height, progress)
    drawn = _blocks(counted, width, height, cell, wall, start, end, path)
    pixels = (line for block in drawn for line in pack2(block))
    writer = png.Writer(px_w, px_h, palette=PALETTE, bitdepth=2, compression=6, chunk_limit=1 << 18)
    if isinstance(target, (str, os.PathLike)):
        with atomic_write(target) as f:
            writer.write_packed(_AfterHeader(f, chunks), pixels)
    else:
        writer.write_packed(_AfterHeader(target, chunks), pixels)


PNG_MAX_SIDE = 2**31 - 1
_PNG_HEAD = 8 + 12 + 13  # signature, then the IHDR chunk


def _text_chunk(key: str, value: str) -> bytes:
    """A PNG tEXt chunk."""
    data = key.encode("latin-1") + b"\0" + value.encode("latin-1", "replace")
    if not 1 <= len(key) <= 79 or "\0" in key:
        raise ValueError(f"text keyword must be 1 to 79 characters without NUL, got {key!r}")
    return struct.pack(">I", len(data)) + b"tEXt" + data + struct.pack(">I", zlib.crc32(b"tEXt" + data))


class _AfterHeader:
    """A file that puts ``chunks`` after the PNG header (signature and IHDR)
    that pypng writes first: pypng has no way to write tEXt chunks."""

    def __init__(self, f: BinaryIO, chunks: bytes) -> None:
        self._f, self._chunks, self._head = f, chunks, b""

    def write(self, data: bytes) -> object:
        if self._chunks:
            self._head += bytes(data)
            if len(self._head) < _PNG_HEAD:
                return len(data)
            data, self._head = self._head[:_PNG_HEAD] + self._chunks + self._head[_PNG_HEAD:], b""
            self._chunks = b""
        return self._f.write(data)

    def flush(self) -> None:
        self._f.flush()


def _counting(
    rows: Iterable[np.ndarray], height: int, progress: Callable[[int, int], None] | None
) -> Iterator[np.ndarray]:
    done = 0
    for row in rows:
        if done == height:
            raise ValueError(f"rows yields more than height={height} rows")
        yield row
        done += 1
        if progress is not None:
            progress(done, height)
    if done != height:
        raise ValueError(f"rows yields {done} rows, height says {height}")


def _runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and ends (exclusive) of the runs of True along the last axis,
    for a 1-d mask."""
    padded = np.concatenate([[False], mask, [False]]).astype(np.int8)
    edges = np.diff(padded)
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)


def svg(
    grid: np.ndarray,
    *,
    cell: int = 8,
    wall: int = 2,
    start: Endpoint | None = None,
    end: Endpoint | None = None,
    path: np.ndarray | None = None,
    description: str | None = None,
) -> str:
    """The maze as an SVG document: walls as one path of straight runs,
    the solution (if given) as a polyline through the cell centres.

    Parameters
    ----------
    grid : numpy.ndarray
        A ``(height, width)`` uint8 grid of maze rows.
    cell, wall : int, keyword-only
        Cell size and wall thickness in pixels, each in ``[1, 1000]``.
    start, end : int or (y, x) cell, optional, keyword-only
        As for :func:`write_png`: ``(y, x)`` cells of the top and bottom
        rows, or their columns x, where the outer wall opens.
    path : numpy.ndarray, optional, keyword-only
        A ``(k, 2)`` array of ``(y, x)`` cells, drawn as a polyline.
    description : str, optional, keyword-only
        Text for a ``<metadata>`` element, of characters XML holds (a
        ValueError for a control but tab, LF and CR, a lone surrogate, U+FFFE, U+FFFF).

    >>> import eller_stream as es
    >>> text = es.svg(es.eller(3, 2, seed=1))
    >>> text.startswith("<?xml") and "<path" in text
    True
    """
    grid = check_rows("grid", grid)
    h, w = grid.shape
    cell, wall = check_sizes(cell, wall)
    if start is not None:
        start = edge_x("start", start, 0, w)
    if end is not None:
        end = edge_x("end", end, h - 1, w)
    description = None if description is None else check_xml_text("description", description)
    pitch = cell + wall
    px_w, px_h = image_size(w, h, cell, wall)
    half = wall / 2
    d: list[str] = []
    # horizontal walls on line i (above row i; i == h is the bottom border)
    for i in range(h + 1):
        if i == 0 or i == h:
            mask = np.ones(w, bool)
            opening = start if i == 0 else end
            if opening is not None:
                mask[opening] = False
        else:
            mask = (grid[i - 1] & SOUTH) == 0
        y = i * pitch + half
        for a, b in zip(*_runs(mask), strict=False):
            d.append(f"M{a * pitch:g} {y:g}H{b * pitch + wall:g}")
    # vertical walls on line j (left of column j; j == w is the right border)
    for j in range(w + 1):
        mask = np.ones(h, bool) if j == 0 or j == w else (grid[:, j - 1] & EAST) == 0
        x = j * pitch + half
        for a, b in zip(*_runs(mask), strict=False):
            d.append(f"M{x:g} {a * pitch:g}V{b * pitch + wall:g}")
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{px_w}" height="{px_h}" '
        f'viewBox="0 0 {px_w} {px_h}">',
        f"<title>maze {w} x {h}</title>",
        # CR as a reference: a parser would read a bare one as LF
        *([] if description is None else [f"<metadata>{escape(description, {chr(13): '&#13;'})}</metadata>"]),
        f'<rect width="{px_w}" height="{px_h}" fill="rgb{PALETTE[FLOOR]}"/>',
        f'<path d="{"".join(d)}" stroke="rgb{PALETTE[WALL]}" stroke-width="{wall}" '
        'stroke-linecap="square" fill="none"/>',
    ]
    if path is not None:
        path_masks(path, h, w)  # validates
        parts.append(_svg_polyline(path, cell, wall, px_h, start is not None, end is not None))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _svg_polyline(path: np.ndarray, cell: int, wall: int, px_h: int, top: bool, bottom: bool) -> str:
    """The solution through the cell centres, out through the openings."""
    pitch = cell + wall
    centre = wall + cell / 2
    pts = [(x * pitch + centre, y * pitch + centre) for y, x in np.asarray(path).tolist()]
    if top and pts:
        pts.insert(0, (pts[0][0], 0))
    if bottom and pts:
        pts.append((pts[-1][0], px_h))
    points = " ".join(f"{x:g},{y:g}" for x, y in pts)
    return (
        f'<polyline points="{points}" stroke="rgb{PALETTE[PATH]}" '
        f'stroke-width="{max(1, cell // 2)}" fill="none" stroke-linejoin="round"/>'
    )


def write_image(
    target: str | os.PathLike[str],
    grid: np.ndarray,
    *,
    cell: int = 8,
    wall: int = 2,
    endpoints: bool = False,
    solution: bool = False,
    description: str | None = None,
) -> None:
    """Write ``grid`` to a ``.png`` or ``.svg`` file, by its extension.

    The file is replaced whole or not at all (written beside it first, then
    synced and renamed: see ``eller_stream._atomic``).

    Parameters
    ----------
    target : str or os.PathLike
        The file to write; its name ends in ``.png`` or ``.svg``.
    grid : numpy.ndarray
        A ``(height, width)`` uint8 grid of maze rows.
    cell, wall : int, keyword-only
        Cell size and wall thickness in pixels, each in ``[1, 1000]``.
    endpoints : bool, keyword-only
        Open the suggested start and end in the outer wall.
    solution : bool, keyword-only
        Draw the path between them (implies ``endpoints``).
    description : str, optional, keyword-only
        Stored in the file (PNG ``tEXt`` Description, SVG ``<metadata>``).

    >>> import os, tempfile, eller_stream as es
    >>> folder = tempfile.mkdtemp()
    >>> es.write_image(os.path.join(folder, "m.svg"), es.eller(5, 5, seed=1), solution=True)
    >>> os.path.getsize(os.path.join(folder, "m.svg")) > 0
    True
    """
    grid = check_rows("grid", grid)
    start = end = path = None
    if endpoints or solution:
        (_, start), (_, end) = suggest_endpoints(grid)
        if solution:
            path = solve(grid, (0, start), (grid.shape[0] - 1, end))
    ext = os.path.splitext(os.fspath(target))[1].lower()
    if ext == ".svg":
        text = svg(grid, cell=cell, wall=wall, start=start, end=end, path=path, description=description)
        data = text.encode("utf-8")
        with atomic_write(target, reserve=len(data)) as f:
            f.write(data)
    elif ext == ".png":
        write_png(
            target, grid, cell=cell, wall=wall, start=start, end=end, path=path, description=description
        )
    else:
        raise ValueError(f"target must end in .png or .svg, got {os.fspath(target)!r}")
