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

__all__ = ["PNG_CELL", "PNG_WALL", "encode", "etag"]

PNG_CELL, PNG_WALL = 8, 2  # the picture eller-stream render draws by default


def encode(grid: np.ndarray, format: str, head: dict[str, Any]) -> tuple[bytes, str]:
    """The answer's bytes and media type: ``raw`` the flag bytes row after
    row; ``json`` ``head``'s fields then ``"rows"``, the grid as lists;
    ``png`` the picture (cells of :data:`PNG_CELL` pixels, walls of
    :data:`PNG_WALL`)."""
    if format == "raw":
        data = grid.tobytes()
    elif format == "json":
        data = json.dumps({**head, "rows": grid.tolist()}, separators=(",", ":")).encode()
    else:
        buffer = io.BytesIO()
        write_png(buffer, grid, cell=PNG_CELL, wall=PNG_WALL)
        data = buffer.getvalue()
    return data, FORMATS[format]


def etag(key: str) -> str:
    """The strong ``ETag`` of a request's canonical text (its answer never changes)."""
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'
