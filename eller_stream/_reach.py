"""The window's searches that stop at a number of rows: what a player sees
(:func:`seen`, for the fog of war) and where an item stays reachable
(:func:`lasting`), on the kept rows of a :class:`~eller_stream.Window`.

Both search a block of the kept rows alone (a way of at most ``radius``
steps stays within ``radius`` rows; the ways :func:`lasting` takes stay in
the rows it gives them), so nothing outside the block is looked at.

**Why items need a rule.**  A cell the player reaches inside the window now
may be cut off later while it is still kept: the way to it may run through
rows that scroll away (above, when the player goes down; below, when it goes
back up).  ``tests/test_game_kit.py`` finds walks that show it.

**The rule** (:func:`lasting`, ``Window.lasting``): an item on cell ``c`` of
row ``s`` is bound to the rows ``R(c) = s - k .. s + k`` (``k`` is
``within``; rows past the maze's ends left out).  The window marks ``c`` when
the player is within ``k`` rows of it, the window keeps all of ``R(c)``, and
the player reaches ``c`` inside ``R(c)`` alone.  Then ``c`` stays marked as long as the player steps through
open walls and stays within ``k`` rows of it (and the window keeps ``R(c)``):
the player walked from where it was, when ``c`` was marked, to where it is
now by steps that all lie in ``R(c)`` (it never left those rows), so it still
reaches ``c`` inside ``R(c)``, which the window keeps.  This holds for every
maze, loops, rooms and schedules included: it uses nothing of the maze but
its walls.

>>> import numpy as np
>>> grid = np.array([[1, 0], [0, 0]], np.uint8)  # (0, 0) - (0, 1); row 1 closed off
>>> seen(grid, 0, 1, 1).astype(int).tolist()
[[1, 1], [0, 0]]
"""

from __future__ import annotations

import numpy as np

from . import _bfs_kernels as bk
from ._numba import call
from ._validate import ROW_LIMIT
from .analysis import bfs_distances

__all__ = ["lasting", "seen"]


def _distances(block: np.ndarray, y: int, x: int) -> np.ndarray:
    """Steps from ``(y, x)`` to every cell of ``block``, shaped like it (-1: not reached)."""
    return bfs_distances(block, y * block.shape[1] + x).reshape(block.shape)


def seen(rows: np.ndarray, y: int, x: int, radius: int) -> np.ndarray:
    """The cells of ``rows`` at most ``radius`` steps from ``(y, x)``, through
    open walls and inside ``rows``: a bool mask shaped like ``rows`` (a way of
    at most ``radius`` steps stays within ``radius`` rows, so only those are
    searched)."""
    lo, hi = max(y - radius, 0), min(y + radius + 1, rows.shape[0])
    out = np.zeros(rows.shape, bool)
    dist = _distances(rows[lo:hi], y - lo, x)
    out[lo:hi] = (dist >= 0) & (dist <= radius)
    return out


def lasting(rows: np.ndarray, top: int, y: int, x: int, within: int) -> np.ndarray:
    """The cells of ``rows`` (the kept rows, the first of them row ``top``)
    that the rule above marks for a player at ``(y, x)`` (an index into
    ``rows``): within ``within`` rows of the player, with the rows within
    ``within`` of them kept (rows past the maze's ends, +-2**63, do not exist
    and need no keeping), and reached from the player inside those rows.
    One search for all of them (:func:`~eller_stream._bfs_kernels.reached_by_row`)."""
    n, w = rows.shape
    out = np.zeros(rows.shape, bool)
    span = min(4 * within + 1, n)  # the rows any of those searches holds
    high = np.empty(span * w, np.int64)
    queue = np.empty(span * w, np.int32)
    first_kept, last_kept = top == -ROW_LIMIT, top + n == ROW_LIMIT
    call(bk.reached_by_row, rows, y, x, within, first_kept, last_kept, out, high, queue)
    return out
