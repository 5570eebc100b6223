"""A maze's picture as palette pixels (``FLOOR``, ``WALL``, ``PATH``), drawn
a block of maze rows at a time with numpy: the pixel rows of many maze rows
in a few array operations, not a few operations each pixel row (a picture
of a narrow maze is mostly pixel rows: 8192 rows of one cell, 81,922 pixel
rows, took 0.65 s drawn one at a time). A block holds at most
``BLOCK_PIXELS`` pixels (or one maze row), so a streamed picture's memory
does not grow with its height."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice

import numpy as np

from ._format import EAST, SOUTH
from ._validate import check_int, check_rows

FLOOR, WALL, PATH = 0, 1, 2
BLOCK_PIXELS = 1 << 18

Endpoint = int | tuple[int, int]
Masks = tuple[np.ndarray, np.ndarray, np.ndarray]


def image_size(width: int, height: int, cell: int, wall: int) -> tuple[int, int]:
    return width * cell + (width + 1) * wall, height * cell + (height + 1) * wall


def check_sizes(cell: int, wall: int) -> tuple[int, int]:
    # wall 0 would draw no wall at all: a blank picture
    return check_int("cell", cell, 1, 1000), check_int("wall", wall, 1, 1000)


def edge_x(name: str, value: object, row: int | None, width: int) -> int:
    """The column of an endpoint given as x or as a ``(y, x)`` cell, which
    must lie on ``row`` (the top row for ``start``, the bottom row for
    ``end``; ``None``: not known, so not checked)."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise TypeError(f"{name} must be a column x or a (y, x) cell, got {value!r}")
        y = check_int(f"{name}[0] (y)", value[0], 0)
        if row is not None and y != row:
            edge = "top" if name == "start" else "bottom"
            raise ValueError(f"{name} must be a cell of the {edge} row (y = {row}), got {tuple(value)!r}")
        return check_int(f"{name}[1] (x)", value[1], 0, width - 1)
    return check_int(name, value, 0, width - 1)


def path_masks(path: np.ndarray | None, height: int, width: int) -> Masks | None:
    """Cells on the path and the EAST/SOUTH passages it goes through."""
    if path is None:
        return None
    path = np.asarray(path)
    if path.ndim != 2 or path.shape[1] != 2 or len(path) == 0:
        raise ValueError(f"path must be a (k, 2) array of (y, x) cells, got shape {path.shape}")
    ys, xs = path[:, 0].astype(np.int64), path[:, 1].astype(np.int64)
    if ys.min() < 0 or ys.max() >= height or xs.min() < 0 or xs.max() >= width:
        raise ValueError("path has cells outside the grid")
    on = np.zeros((height, width), bool)
    on[ys, xs] = True
    east = np.zeros((height, width), bool)
    south = np.zeros((height, width), bool)
    dy, dx = np.diff(ys), np.diff(xs)
    if (np.abs(dy) + np.abs(dx) != 1).any():
        raise ValueError("path must step between neighbouring cells")
    horizontal = dy == 0
    east[ys[:-1][horizontal], np.minimum(xs[:-1], xs[1:])[horizontal]] = True
    south[np.minimum(ys[:-1], ys[1:])[~horizontal], xs[:-1][~horizontal]] = True
    return on, east, south


def _row_blocks(rows: Iterable[np.ndarray], width: int, per: int) -> Iterator[np.ndarray]:
    """``rows`` (a grid, or rows one at a time, each checked) as ``(k, width)`` blocks of ``per`` rows."""
    if isinstance(rows, np.ndarray) and rows.ndim == 2:
        grid = check_rows("row", rows, width)
        for y in range(0, len(grid), per):
            yield grid[y : y + per]
        return
    it = iter(rows)
    while block := [check_rows("row", np.asarray(row), width)[0] for row in islice(it, per)]:
        yield np.stack(block)


def pixel_blocks(
    rows: Iterable[np.ndarray],
    width: int,
    cell: int,
    wall: int,
    start: int | None = None,
    end: int | None = None,
    masks: Masks | None = None,
) -> Iterator[np.ndarray]:
    """The picture's pixel rows, top to bottom, as ``(n, pixel width)`` uint8
    blocks: the top wall, then each maze row's ``cell`` rows and the
    ``wall`` rows under it; the last maze row's are the bottom wall (with
    the ``end`` opening). ``start``, ``end``: checked columns; ``masks``:
    :func:`path_masks`, whose rows match ``rows``."""
    px_w = image_size(width, 1, cell, wall)[0]
    cell_x = wall + np.arange(width) * (cell + wall)  # each cell's first pixel column
    inner = cell_x[:, None] + np.arange(cell)  # (width, cell): the columns of each cell
    gaps = (cell_x + cell)[:-1, None] + np.arange(wall)  # (width - 1, wall): of each wall between two

    def outer(opening: int | None) -> np.ndarray:  # the top or the bottom wall, opened at a column
        stripe = np.full((wall, px_w), WALL, np.uint8)
        if opening is not None:
            stripe[:, cell_x[opening] : cell_x[opening] + cell] = FLOOR if masks is None else PATH
        return stripe

    yield outer(start)
    y, held = 0, None  # held: the wall rows under the last maze row drawn, unless it is the last
    for block in _row_blocks(rows, width, max(1, BLOCK_PIXELS // ((cell + wall) * px_w))):
        k = len(block)
        out = np.full((k, cell + wall, px_w), WALL, np.uint8)
        line, under = out[:, 0], out[:, cell]  # a cell row and a wall row of each maze row
        line[:, inner] = FLOOR
        line[:, gaps] = np.where(block[:, :-1, None] & EAST, FLOOR, WALL)
        under[:, inner] = np.where(block[:, :, None] & SOUTH, FLOOR, WALL)
        if masks is not None:
            on, east, south = (m[y : y + k] for m in masks)
            for pixels, columns, marked in (
                (line, inner, on),
                (line, gaps, east[:, :-1]),
                (under, inner, south),
            ):
                painted = pixels[:, columns]
                painted[marked] = PATH
                pixels[:, columns] = painted
        out[:, 1:cell] = line[:, None]
        out[:, cell + 1 :] = under[:, None]
        if held is not None:
            yield held
        drawn = out.reshape(-1, px_w)
        yield drawn[:-wall]
        held, y = drawn[-wall:], y + k
    if held is not None:
        yield outer(end)


def pack2(block: np.ndarray) -> np.ndarray:
    """Palette indices (a byte a pixel, ``(n, w)``) packed four pixels a byte,
    as a PNG of bit depth 2 stores them: ``(n, ceil(w / 4))``."""
    n, w = block.shape
    if w % 4:
        block = np.concatenate([block, np.zeros((n, -w % 4), np.uint8)], axis=1)
    quads = block.reshape(n, -1, 4)
    packed: np.ndarray = (quads[..., 0] << 6) | (quads[..., 1] << 4) | (quads[..., 2] << 2) | quads[..., 3]
    return packed
