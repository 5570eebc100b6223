"""An answer's bytes, the same for every endpoint: a grid in the row format
as ``raw``, ``json`` or ``png``, and the ``ETag`` of the request's
canonical text.

>>> import numpy as np
>>> grid = np.array([[1, 2], [0, 0]], np.uint8)
>>> encode(grid, "raw", {})
(b'\\x01\\x02\\x00\\x00', 'application/octet-stream')
>>> encode(grid, "json", {"width": 2})[0]
b'{"width":2,"rows":[[1,2],[0,0]]}'
>>> len(etag('{"width": 2}'))
34
"""

from __future__ import annotations

import hashlib
import io
import json
from typing import Any

import numpy as np

from ..image import write_png
from ._query import FORMATS

__all__ = ["JSON_PIECE_CELLS", "PNG_CELL", "PNG_WALL", "encode", "etag"]

PNG_CELL, PNG_WALL = 8, 2  # the picture eller-stream render draws by default
# The rows of a JSON answer are encoded this many cells at a time at most: json.dumps holds
# the GIL for a whole call (0.5 s for 2**20 cells), and the event loop must get it back.
JSON_PIECE_CELLS = 2**14


def encode(grid: np.ndarray, format: str, head: dict[str, Any]) -> tuple[bytes, str]:
    """The answer's bytes and media type: ``raw`` the flag bytes row after
    row; ``json`` ``head``'s fields then ``"rows"``, the grid as lists;
    ``png`` the picture (cells of :data:`PNG_CELL` pixels, walls of
    :data:`PNG_WALL`)."""
    if format == "raw":
        data = grid.tobytes()
    elif format == "json":
        data = _json(grid, head)
    else:
        buffer = io.BytesIO()
        write_png(buffer, grid, cell=PNG_CELL, wall=PNG_WALL)
        data = buffer.getvalue()
    return data, FORMATS[format]


def _json(grid: np.ndarray, head: dict[str, Any]) -> bytes:
    """``json.dumps({**head, "rows": grid.tolist()})``, compact, made a
    piece of at most :data:`JSON_PIECE_CELLS` cells at a time (whole rows,
    or pieces of a longer row): the same bytes, with the GIL let go between
    the pieces."""
    height, width = grid.shape
    if width > JSON_PIECE_CELLS:
        n = JSON_PIECE_CELLS
        rows = ("[" + ",".join(_items(row[j : j + n]) for j in range(0, width, n)) + "]" for row in grid)
    else:
        step = JSON_PIECE_CELLS // max(1, width)
        rows = (_items(grid[i : i + step]) for i in range(0, height, step))
    start = json.dumps(head, separators=(",", ":"))[:-1] + ("," if head else "")
    return (start + '"rows":[' + ",".join(rows) + "]}").encode()


def _items(part: np.ndarray) -> str:
    """The JSON of ``part.tolist()`` without its outer brackets."""
    return json.dumps(part.tolist(), separators=(",", ":"))[1:-1]


def etag(key: str) -> str:
    """The strong ``ETag`` of a request's canonical text (its answer never changes)."""
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'
