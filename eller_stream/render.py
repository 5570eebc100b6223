"""Text, tile and raw views of maze rows, all of them streamable.

Every style renders a block of rows at a time with numpy (no per-cell
Python) and can start and stop anywhere in a stream:

- ``ascii``: ``+--+`` / ``|  |`` walls, two text lines per maze row;
- ``unicode``: box-drawing walls with the right junctions, two lines per row
  (the line of junctions above a row needs that row and the one before it,
  so it lags one row behind);
- ``blocks``: the tile map a game uses (wall ``█``, floor space), one
  character per tile: the maze as a ``(2*rows+1, 2*width+1)`` tile map;
- ``raw``: each row as ``width`` bytes of flags, nothing else.

Names follow the presentation scheme of the package: a format's name gives
the whole picture of a grid (:func:`text`, :func:`tiles`), ``_rows`` gives
it lazily as rows arrive (:func:`text_rows`, :func:`tile_rows`), ``read_``
reads rows back (:func:`read_raw`); ``image`` adds ``svg``, ``png_rows`` and
the ``write_`` functions.

>>> import numpy as np
>>> import eller_stream as es
>>> grid = np.array([[1, 2], [1, 0]], np.uint8)
>>> print(es.text(grid, "ascii"), end="")
+--+--+
|     |
+--+  +
|     |
+--+--+
>>> print(es.text(grid, "unicode"), end="")
┌─────┐
│     │
├──╴  │
│     │
└─────┘
>>> es.tiles(grid).astype(int)
array([[1, 1, 1, 1, 1],
       [1, 0, 0, 0, 1],
       [1, 1, 1, 0, 1],
       [1, 0, 0, 0, 1],
       [1, 1, 1, 1, 1]])
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from typing import BinaryIO

import numpy as np

from ._format import EAST, SOUTH
from ._validate import check_rows, check_width

__all__ = [
    "STYLES",
    "TextRenderer",
    "read_raw",
    "text",
    "text_rows",
    "tile_rows",
    "tiles",
]

STYLES = ("ascii", "unicode", "blocks", "raw")
TEXT_STYLES = STYLES[:3]  # drawn as text; raw is the stream's bytes
CELL_COLUMNS = {"ascii": 3, "unicode": 3, "blocks": 2, "raw": 1}  # text columns per cell

# Box-drawing character for a junction, indexed by up*8 + down*4 + left*2 + right.
_BOX = np.array([ord(c) for c in " ╶╴─╷┌┐┬╵└┘┴│├┤┼"], np.uint32)
_NL = ord("\n")
_WALL = ord("█")


def tiles(grid: np.ndarray, top: bool = True, left: bool = True) -> np.ndarray:
    """The walls of a maze as a bool tile map of shape ``(2h+1, 2w+1)``, ``[y, x]``.

    Cell ``(y, x)`` is tile ``(2y+1, 2x+1)``; ``True`` is a wall.  Works for
    any block of rows: the bottom tile row shows the last row's ``SOUTH`` and
    the right tile column the last column's ``EAST``, so without the closing
    row (or for a region of a :class:`~eller_stream.Plane`) they show the
    openings through which the maze goes on; a bounded maze has none there.
    With ``top=False`` the top edge is left open, as :func:`tile_rows`
    leaves it: the top border row is not there (shape ``(2h, 2w+1)``, cell
    ``(y, x)`` is tile ``(2y, 2x+1)``), for a block of rows that goes on
    above; ``left=False`` leaves out the left border column likewise (cell
    ``(y, x)`` is then tile column ``2x``), for a plane region, which goes
    on to the left: tiles of regions side by side then join without a seam.

    Parameters
    ----------
    grid : numpy.ndarray
        A ``(h, w)`` uint8 array of maze rows (a 1-d row is one row).
    top : bool
        Give the top border row (the default).
    left : bool
        Give the left border column (the default).

    >>> import eller_stream as es
    >>> t = es.tiles(es.eller(4, 3, seed=1))
    >>> t.shape, t.dtype, bool(t[0].all() and t[:, 0].all())
    ((7, 9), dtype('bool'), True)
    >>> bool((es.tiles(es.eller(4, 3, seed=1), top=False, left=False) == t[1:, 1:]).all())
    True
    """
    grid = check_rows("grid", grid)
    h, w = grid.shape
    out = np.ones((2 * h + 1, 2 * w + 1), bool)
    out[1::2, 1::2] = False
    out[1::2, 2::2] = (grid & EAST) == 0
    out[2::2, 1::2] = (grid & SOUTH) == 0
    return out[0 if top else 1 :, 0 if left else 1 :]


def tile_rows(rows: Iterable[np.ndarray], top: bool = True) -> Iterator[np.ndarray]:
    """Lazily turn maze rows into tile rows (bool, length ``2*width+1``).

    Yields the top border first (unless ``top`` is false), then two tile
    rows for each maze row as soon as it arrives, so a game can keep a
    scrolling window of an endless maze.

    Parameters
    ----------
    rows : iterable of numpy.ndarray
        Maze rows, ``(width,)`` uint8 each (an ``EllerStream`` will do).
    top : bool
        Yield the top border first.

    >>> import itertools, eller_stream as es
    >>> window = list(itertools.islice(es.tile_rows(es.EllerStream(5, seed=2)), 7))
    >>> len(window), window[0].shape
    (7, (11,))
    """
    started = False
    for row in rows:
        block = tiles(np.asarray(row))
        yield from block[0 if top and not started else 1 :]
        started = True


def _ascii_block(rows: np.ndarray) -> np.ndarray:
    n, w = rows.shape
    out = np.empty((n, 2, 3 * w + 2), np.uint8)
    cells, floors = out[:, 0], out[:, 1]
    cells[:] = ord(" ")
    cells[:, 0] = ord("|")
    cells[:, 3::3] = np.where(rows & EAST, ord(" "), ord("|"))
    floors[:, 0::3] = ord("+")
    south = np.where(rows & SOUTH, ord(" "), ord("-")).astype(np.uint8)
    floors[:, 1:-1:3] = south
    floors[:, 2:-1:3] = south
    out[:, :, -1] = _NL
    return out


def _ascii_top(w: int) -> bytes:
    return ("+--" * w + "+\n").encode()


def _junction_lines(above: np.ndarray | None, below: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Code points of the junction lines between consecutive rows.

    ``below`` is (n, w) rows; line i lies above ``below[i]`` and under
    ``below[i - 1]`` (or ``above`` for i = 0, ``None`` meaning the top border).
    Rows of ``below`` may be all 0xFF to mean "no row" (the bottom border).
    """
    n, w = below.shape
    prev = np.empty_like(below)
    prev[1:] = below[:-1]
    if above is None:
        prev[0] = 0
    else:
        prev[0] = above
    has_prev = np.ones((n, 1), bool)
    has_prev[0] = above is not None
    has_next = (below != 0xFF).any(axis=1, keepdims=True)
    # walls of the vertical lines at junction columns 0..w, in the row above/below
    up = np.ones((n, w + 1), bool)
    up[:, 1:-1] = (prev[:, :-1] & EAST) == 0
    up &= has_prev
    down = np.ones((n, w + 1), bool)
    down[:, 1:-1] = (below[:, :-1] & EAST) == 0
    down &= has_next
    # horizontal wall segments under the row above (a top border has them all)
    seg = ((prev & SOUTH) == 0) | ~has_prev
    left = np.zeros((n, w + 1), bool)
    left[:, 1:] = seg
    right = np.zeros((n, w + 1), bool)
    right[:, :-1] = seg
    index = up * 8 + down * 4 + left * 2 + right
    if out is None:
        out = np.empty((n, 3 * w + 2), np.uint32)
    out[:, 0::3] = _BOX[index]
    horizontal = np.where(seg, ord("─"), ord(" "))
    out[:, 1:-1:3] = horizontal
    out[:, 2:-1:3] = horizontal
    out[:, -1] = _NL
    return out


def _unicode_cells(rows: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    n, w = rows.shape
    if out is None:
        out = np.empty((n, 3 * w + 2), np.uint32)
    out[:] = ord(" ")
    out[:, 0] = ord("│")
    out[:, 3::3] = np.where(rows & EAST, ord(" "), ord("│"))
    out[:, -1] = _NL
    return out


def _blocks_lines(rows: np.ndarray, top: bool) -> np.ndarray:
    t = tiles(rows)
    t = t if top else t[1:]
    out = np.empty((t.shape[0], t.shape[1] + 1), np.uint32)
    out[:, :-1] = np.where(t, _WALL, ord(" "))
    out[:, -1] = _NL
    return out


def _utf8(points: np.ndarray) -> bytes:
    """UTF-8 bytes of an array of code points (decoded from its buffer, no copy)."""
    return codecs.utf_32_le_decode(np.ascontiguousarray(points, "<u4").data)[0].encode()


class TextRenderer:
    """Streams the text of maze rows block by block.

    ``start()`` gives what comes before the first row (the top border),
    ``rows(block)`` the text of a block of rows, ``close(row)`` the text of
    the closing row and the bottom border.  A renderer made with
    ``previous=`` continues a stream after that row, without a top border;
    ``resumed=True`` without ``previous`` continues after a row it does not
    know (a stream resumed from checkpoint bytes): no top border, and no
    line of walls above the first row, since those walls are not known.

    Parameters
    ----------
    width : int
        Cells per row.
    style : str
        One of ``STYLES``: ``ascii``, ``unicode``, ``blocks`` or ``raw``.
    previous : numpy.ndarray, optional
        The row before the first one to render (a resumed stream's last row).
    resumed : bool
        Continue after a row that is not known.

    >>> import eller_stream as es
    >>> s = es.EllerStream(3, seed=4)
    >>> r = es.TextRenderer(3, "ascii")
    >>> text = r.start() + r.rows(s.take(2)) + r.close(s.finish())
    >>> print(text.decode(), end="")
    +--+--+--+
    |  |  |  |
    +  +  +  +
    |        |
    +--+  +  +
    |     |  |
    +--+--+--+
    """

    def __init__(
        self, width: int, style: str = "ascii", previous: np.ndarray | None = None, resumed: bool = False
    ) -> None:
        self.width = check_width(width)
        if style not in STYLES:
            raise ValueError(f"style must be one of {', '.join(STYLES)}; got {style!r}")
        self.style = style
        self._previous = None if previous is None else check_rows("previous", previous, self.width)[-1]
        self._resumed = previous is not None or bool(resumed)
        self._unknown_above = self._resumed and previous is None  # the first junction line is unknown

    def start(self) -> bytes:
        """Text before the first row: the top border (nothing when resumed)."""
        if self._resumed or self.style in ("raw", "unicode"):
            return b""  # unicode draws its top border with the first row
        if self.style == "ascii":
            return _ascii_top(self.width)
        return _utf8(_blocks_lines(np.zeros((0, self.width), np.uint8), top=True))

    def rows(self, block: np.ndarray) -> bytes:
        """The text of a block of rows (a row or a ``(n, width)`` array)."""
        block = check_rows("block", block, self.width)
        if self.style == "raw":
            return block.tobytes()
        if self.style == "ascii":
            return _ascii_block(block).tobytes()
        if self.style == "blocks":
            return _utf8(_blocks_lines(block, top=False))
        if not len(block):  # nothing to draw: the junction line above a row needs the row
            return b""
        lines = np.empty((len(block), 2, 3 * self.width + 2), np.uint32)  # junctions, then cells
        _junction_lines(self._previous, block, out=lines[:, 0])
        _unicode_cells(block, out=lines[:, 1])
        if len(block):
            self._previous = block[-1].copy()
            if self._unknown_above:
                self._unknown_above = False
                return _utf8(lines[0, 1:]) + _utf8(lines[1:])
        return _utf8(lines)

    def close(self, row: np.ndarray | None = None) -> bytes:
        """The closing row's text (if given) and the bottom border."""
        text = b"" if row is None else self.rows(row)
        if self.style == "unicode":
            # the bottom border; with no row at all, the top border alone (as ascii draws it)
            no_row = np.full((1, self.width), 0xFF, np.uint8)
            text += _utf8(_junction_lines(self._previous, no_row))
        return text


def text_rows(rows: Iterable[np.ndarray], style: str = "ascii") -> Iterator[str]:
    """Lazily render maze rows as lines of text (without newlines).

    The last row given is taken as the closing row, so the bottom border is
    drawn once the rows run out.

    Parameters
    ----------
    rows : iterable of numpy.ndarray
        Maze rows, ``(width,)`` uint8 each.
    style : str
        ``ascii``, ``unicode`` or ``blocks``.

    >>> import eller_stream as es
    >>> for line in es.text_rows(es.eller(2, 1, seed=0)):
    ...     print(line)
    +--+--+
    |     |
    +--+--+
    """
    _check_text_style(style)  # at the call, not at the first line
    return _text_lines(rows, style)


def _text_lines(rows: Iterable[np.ndarray], style: str) -> Iterator[str]:
    renderer: TextRenderer | None = None
    for row in rows:
        row = check_rows("row", np.asarray(row))
        if renderer is None:
            renderer = TextRenderer(row.shape[1], style)
            yield from renderer.start().decode().splitlines()
        yield from renderer.rows(row).decode().splitlines()
    if renderer is not None:
        yield from renderer.close().decode().splitlines()


def _check_text_style(style: object) -> None:
    """``style`` must be a text style (not ``raw``, the stream's bytes)."""
    if not isinstance(style, str):
        raise TypeError(f"style must be a str, got {type(style).__name__}")
    if style not in TEXT_STYLES:
        raise ValueError(
            f"style must be a text style ({', '.join(TEXT_STYLES[:-1])} or {TEXT_STYLES[-1]}), got {style!r}"
        )


def text(grid: np.ndarray, style: str = "ascii") -> str:
    """A whole maze as text (``ascii``, ``unicode`` or ``blocks``).

    Parameters
    ----------
    grid : numpy.ndarray
        A ``(h, w)`` uint8 array of maze rows.
    style : str
        ``ascii``, ``unicode`` or ``blocks``.

    >>> import eller_stream as es
    >>> print(es.text(es.eller(3, 2, seed=5), "blocks"), end="")
    ███████
    █ █ █ █
    █ █ █ █
    █     █
    ███████
    """
    grid = check_rows("grid", grid)
    _check_text_style(style)
    renderer = TextRenderer(grid.shape[1], style)
    return (renderer.start() + renderer.rows(grid) + renderer.close()).decode()


def read_raw(fileobj: BinaryIO, width: int, chunk_rows: int = 4096) -> Iterator[np.ndarray]:
    """Iterate over the rows of a raw stream (``width`` flag bytes a row).

    Raises ``ValueError`` if the data ends inside a row or holds bytes that
    are not row flags.

    Parameters
    ----------
    fileobj : binary file
        A file object open for reading in binary mode.
    width : int
        Cells (bytes) per row.
    chunk_rows : int
        Rows read at a time.

    >>> import io, eller_stream as es
    >>> grid = es.eller(5, 4, seed=2)
    >>> rows = list(es.read_raw(io.BytesIO(grid.tobytes()), 5))
    >>> len(rows), bool((rows[-1] == grid[-1]).all())
    (4, True)
    """
    width = check_width(width)
    if not hasattr(fileobj, "read"):
        raise TypeError(f"fileobj must be a binary file object, got {type(fileobj).__name__}")
    pending = b""
    while True:
        data = fileobj.read(width * chunk_rows)
        if not isinstance(data, bytes):
            raise TypeError("fileobj must be opened in binary mode")
        if not data:
            break
        pending += data
        whole = len(pending) // width * width
        block = np.frombuffer(pending[:whole], np.uint8).reshape(-1, width)
        if (block > (EAST | SOUTH)).any():
            raise ValueError("raw data holds bytes that are not maze row flags")
        yield from block.copy()
        pending = pending[whole:]
    if pending:
        raise ValueError(f"raw data ends inside a row ({len(pending)} of {width} bytes)")
