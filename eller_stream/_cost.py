"""What a range of rows costs to make: the cells the kernels write for it.

``InfiniteMaze.rows(start, stop)`` makes more than its ``stop - start``
rows: the rows of ``start``'s band above it are replayed to reach it (the
sets of a band's rows come from the band's first row), and a band with loops
or rooms is made whole even when the range takes part of it (the braid and
the rooms are drawn on the whole band). So the cost of a range is, in rows:

* the rows asked for, ``stop - start``;
* plus ``start % band``: the rows above ``start`` in its band, replayed, or
  made as part of that whole band;
* plus ``band - stop % band`` when the last band is cut and made whole.

The Eller stream has no bands: its rows come from row 0, so rows
``start .. stop`` cost ``stop`` rows. The library and the server
(:mod:`eller_stream.serve`) judge a request by these counts.

>>> import eller_stream as es
>>> cells_made(es.InfiniteMaze(10, band=8, seed=1), 13, 14)  # row 13 replays rows 8 to 12
60
>>> cells_made(es.InfiniteMaze(10, band=8, seed=1, loops=0.5), 13, 14)  # the whole band 8 .. 15
80
>>> eller_cells_made(10, 5, 7)
70
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _parallel as par
from ._validate import check_row_range

if TYPE_CHECKING:
    from .banded import InfiniteMaze

__all__ = ["cells_made", "check_fits", "eller_cells_made", "peak_bytes", "rows_made"]


def rows_made(maze: InfiniteMaze, start: int, stop: int) -> int:
    """The rows ``maze.rows(start, stop)`` makes, each ``maze.width`` cells:
    the range, the rows above ``start`` in its band, and the rest of the last
    band when it is cut and made whole (loops or rooms there)."""
    start, stop = check_row_range(start, stop)
    k = maze.band
    made = stop - start + start % k
    if stop % k and maze._whole_in((stop - 1) // k):  # the last band, cut short, is made whole
        made += k - stop % k
    return made


def cells_made(maze: InfiniteMaze, start: int, stop: int) -> int:
    """The cells ``maze.rows(start, stop)`` makes: :func:`rows_made` times the width."""
    return rows_made(maze, start, stop) * maze.width


def eller_cells_made(width: int, start: int, stop: int) -> int:
    """The cells that rows ``start .. stop - 1`` of an Eller stream of this
    width make: every row from 0 (``start`` does not matter)."""
    if not 0 <= start < stop:
        raise ValueError(f"an Eller stream's rows need 0 <= start < stop, got start={start}, stop={stop}")
    return stop * width


def peak_bytes(maze: InfiniteMaze, start: int, stop: int, out: bool = True) -> int:
    """The bytes ``maze.rows(start, stop)`` holds at once, about: the
    answer (``out``: when it is allocated, not given), a whole band when
    the range cuts one that is made whole (a replay runs through a small
    scratch block, and whole bands between are made in place), and a row's
    scratch (``SCRATCH_PER_CELL`` bytes a cell of the width)."""
    start, stop = check_row_range(start, stop)
    return _peak(maze, start, stop, out)


def _peak(maze: InfiniteMaze, start: int, stop: int, out: bool) -> int:
    k, w = maze.band, maze.width
    cut = (start % k and maze._whole_in(start // k)) or (stop % k and maze._whole_in((stop - 1) // k))
    return (stop - start) * w * out + k * w * bool(cut) + par.SCRATCH_PER_CELL * w


def check_fits(maze: InfiniteMaze, start: int, stop: int, out: bool = True) -> None:
    """Refuse, with a ``ValueError``, a range whose :func:`peak_bytes` are
    more than this machine's memory, before any of it is made (``start`` and
    ``stop`` already checked, as ``rows`` does)."""
    need = _peak(maze, start, stop, out)
    # the rows, a whole band and the scratch together (the rows alone are par.alloc's to refuse)
    if need > par._memory_bytes():
        raise ValueError(
            f"rows({start}, {stop}) of width {maze.width} and band {maze.band} need {need} bytes at once"
            " (the rows, any whole band they cut and the scratch), more than this machine's memory"
        )
