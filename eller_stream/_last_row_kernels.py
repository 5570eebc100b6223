"""The banded maze's last row (``_band_kernels``): join side-by-side cells
of different sets unless both sets hold a door column, then open SOUTH at
exactly the doors.  Every set then leaves the band through exactly one
door.  Two kernels make the same row: :func:`last_row` from the lists, a
cell at a time, and :func:`last_row_of_planes` from the bit planes
(``_eller_planes``), a word at a time.

Neither needs a union-find over the row's joins.  Scan the row left to
right; the *running* component is the one of the cell just scanned.  A join is
declined only between two components that both hold a door, and the
running component changes only where a join is declined, so once a set
holding a door has started, the running component holds a door for the
rest of the row.  The sets never cross, so a cell either starts a set or
goes on with the innermost set open across the gap before it, ``T``:

* a set's first cell meets only the running component (nothing else has
  touched its set yet): it joins unless its set holds a door and an
  earlier set did;
* any other cell never joins: the running component either still holds
  ``T`` (it held it at ``T``'s previous cell and never changed since), or
  changed at a declined join, after which both it and ``T``'s component
  hold a door.

So a row is two masks: the first cells of sets (``~P``) and whether each
set holds a door (at its first cell: the penultimate row's ``planes_rows``
makes it, from the depths it has, with one fill from the right); "an
earlier set held a door" is everything past the first such first cell.
"""

from __future__ import annotations

import numpy as np

from ._format import EAST, SOUTH
from ._numba import _U64, Int64, _njit, _sel, low_bits
from ._planes_io import store_word

_HELD = np.uint8(4)  # while the lists' row is built: the set rooted here holds a door
_1 = _U64(1)
_63 = _U64(63)


@_njit(refcounts=False)
def last_row(
    left: np.ndarray, right: np.ndarray, row: np.ndarray, doors: np.ndarray, parent: np.ndarray
) -> None:
    """The last row from the sets as lists (``doors``: a byte a column, 1 at
    a door), by the rule of the module's docstring.  Leaves
    ``left``/``right`` as sets of one cell (the next band's first row).

    ``parent`` (``width`` entries or more) is scratch: each cell's set's
    first cell; while the row is built, bit 4 of ``row[first]`` marks a set
    that holds a door column."""
    width = row.shape[0]
    # A cell's set starts at its previous cell's set's first cell (``left[x] <
    # x``), or at x; each set's first cell marks whether the set holds a door.
    for x in range(width):
        lx = np.int64(left[x])
        parent[x] = x
        first = parent[_sel(np.int64(lx < x), lx, np.int64(x))]
        parent[x] = first
        row[x] = 0
        row[first] |= doors[x] * _HELD
    earlier: Int64 = 0  # a set that holds a door has started
    for x in range(width):
        first = np.int64(parent[x] == x)
        held = np.int64(row[x] >> 2) & 1
        join = first & (1 ^ (earlier & held))
        row[max(x - 1, 0)] |= np.uint8(join & np.int64(x > 0))  # EAST of the cell before
        earlier |= first & held
    for x in range(width):
        row[x] = (row[x] & EAST) | (SOUTH * doors[x])
        left[x] = x
        right[x] = x


@_njit(refcounts=False)
def last_row_of_planes(
    P: np.ndarray,
    held: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    row: np.ndarray,
    door_words: np.ndarray,
    joined: np.ndarray,
) -> None:
    """:func:`last_row` from the sets as bit planes (``_eller_planes``), by
    the module's docstring, a word at a time: ``P`` (a cell has an earlier
    cell in its set: ``~P`` are the sets' first cells) and ``held`` (at a
    set's first cell, whether the set holds a door: what the penultimate
    row's ``planes_rows`` leaves), ``nw + 1`` words each; ``door_words``: the
    door columns, a bit a cell; ``joined``: ``nw + 1`` words of scratch
    (no reference counts here: the caller makes it)."""
    width = row.shape[0]
    nw = (width + 63) // 64
    # A set's first cell joins the cell before it unless the set holds a door
    # and an earlier set did; any other cell never joins (the module's docstring).
    joined[nw] = _U64(0)
    earlier = _U64(0)  # all ones once a set holding a door has started
    for i in range(nw):
        firsts = ~P[i]
        doors_first = firsts & held[i]  # first cells of sets that hold a door
        lowest = doors_first & (_U64(0) - doors_first)
        before = earlier | (_U64(0) - (lowest << _1))  # above the row's first such cell
        joined[i] = firsts & ~(before & held[i]) & low_bits(min(64, width - i * 64))  # (no cell past the row)
        earlier |= _U64(0) - _U64(doors_first != _U64(0))
    for i in range(nw):
        east = (joined[i] >> _1) | (joined[i + 1] << _63)  # (cell 0's bit is no join)
        store_word(row, i, east, door_words[i])
    for x in range(width):
        left[x] = x
        right[x] = x
