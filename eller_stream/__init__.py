"""eller_stream: infinite perfect mazes, one row at a time.

A maze row is a ``numpy.uint8`` array of shape ``(width,)``; a grid is
``(height, width)``, indexed ``[y, x]``.  Each cell holds passage flags:
``EAST = 1`` (open to the right) and ``SOUTH = 2`` (open downward).

>>> import eller_stream as es
>>> s = es.EllerStream(width=8, seed=1)
>>> rows = s.take(3)
>>> last = s.finish()
>>> rows.shape, last.shape
((3, 8), (8,))
"""

from ._format import EAST, SOUTH
from .analysis import detour, is_perfect, metrics, solve, suggest_endpoints, validate
from .backtracker import backtracker
from .banded import BandedStream, InfiniteMaze
from .compare import compare
from .growing_tree import STRATEGIES, growing_tree, parse_strategy
from .image import png_rows, render_image, svg, write_png
from .render import STYLES, TextRenderer, read_raw, render_text, text_lines, tile_rows, tiles
from .stream import EllerStream, count_passages, eller

__all__ = [
    "EAST",
    "SOUTH",
    "STRATEGIES",
    "STYLES",
    "BandedStream",
    "EllerStream",
    "InfiniteMaze",
    "TextRenderer",
    "backtracker",
    "compare",
    "count_passages",
    "detour",
    "eller",
    "growing_tree",
    "is_perfect",
    "metrics",
    "parse_strategy",
    "png_rows",
    "read_raw",
    "render_image",
    "render_text",
    "solve",
    "suggest_endpoints",
    "svg",
    "text_lines",
    "tile_rows",
    "tiles",
    "validate",
    "write_png",
]
__version__ = "0.1.0"
