"""The lean backend's banded maze: the band kernels' drop-ins, with numpy and
plain Python (docs/spec.md, section 5).

Rows without doors or rooms are :func:`eller_stream._lean_eller.eller_step`
with the band's draws; a band's last two rows and the rows that meet a room
go cell by cell (:func:`rule_step`); loops visit only the cells that are dead
ends before any opens (a side count only grows). Each public function has the
arguments and the effect of the kernel of the same name.
"""

from __future__ import annotations

import numpy as np

from ._band_kernels import (
    BAND_SALT,
    LOOP_SALT,
    ROOM_SALT,
    SEAM_SALT,
    TH_DOOR,
    TH_DOOR_ABOVE,
    TH_JOIN,
    TH_JOIN_FIRST,
    TH_LOOP,
    TH_OPEN,
    TH_OPEN_FIRST,
    TH_ROOM,
)
from ._format import EAST, SOUTH
from ._lean_eller import eller_step, join_east, labels_of, last_cells, lists_of, next_labels, roots
from ._rng import _mix64_int, draws

__all__ = ["band_row_sets", "band_span", "band_stream_rows", "bands_rows", "bands_stream_rows", "rooms_of"]
__all__ += ["seam_doors"]

GOLDEN = 0x9E3779B97F4A7C15
MASK = 2**64 - 1
LOW = 0xFFFFFFFF
Word = int | np.uint64  # a key, band or salt: a Python int or a numpy uint64


def salted(key: Word, index: Word, salt: Word) -> int:
    """The key of part ``index`` (a band, a seam) of the maze ``key``."""
    return _mix64_int(int(key) ^ _mix64_int(((int(index) % 2**64) * GOLDEN + int(salt)) & MASK))


def seam_doors(width: int, key: int, seam: int, door_below: int) -> np.ndarray:
    """The door columns of seam ``seam`` (uint8, 1: door)."""
    q = salted(key, seam, SEAM_SALT)
    doors = ((draws(q, 0, width) & np.uint64(LOW)) < np.uint64(door_below)).astype(np.uint8)
    if not doors.any():
        doors[((int(draws(q, width, 1)[0]) & LOW) * width) >> 32] = 1
    return doors


Rect = tuple[int, int, int, int]


def rooms_of(height: int, width: int, key: int, band: int, room_below: int) -> list[Rect]:
    """Band ``band``'s rooms as (top, left, height, width), in the order placed."""
    rows = height - 2
    target = (height * width * int(room_below)) >> 32
    if rows < 2 or width < 2 or target == 0:
        return []
    m = salted(key, band, ROOM_SALT)
    hmax, wmax = min(rows, 6), min(width, 8)
    placed: list[Rect] = []
    # the cells of the rooms placed: a room apart from all of them (corners
    # too) has none in its rectangle grown by a cell each way (the rule of
    # spec 5.6, at a cost of the room's cells, not of the rooms placed)
    taken = np.zeros((rows + 2, width + 2), bool)
    total = 0
    bits = draws(m, 0, 2 * (16 + target // 5)).tolist()
    for i in range(16 + target // 5):
        size, place = bits[2 * i], bits[2 * i + 1]
        h = 2 + (((size & LOW) * (hmax - 1)) >> 32)
        w = 2 + (((size >> 32) * (wmax - 1)) >> 32)
        top = ((place & LOW) * (rows - h + 1)) >> 32
        left = ((place >> 32) * (width - w + 1)) >> 32
        if not taken[top : top + h + 2, left : left + w + 2].any():  # taken is offset by one
            taken[top + 1 : top + h + 1, left + 1 : left + w + 1] = True
            placed.append((top, left, h, w))
            total += h * w
            if total >= target:
                break
    return placed


class Rooms:
    """Where a band's rooms are: each cell's room (-1: none), and whether it
    lies in its room's first row."""

    def __init__(self, height: int, width: int, placed: list[Rect]) -> None:
        self.room = np.full((height + 1, width), -1, np.int64)  # one more row: below the last is none
        self.top = np.zeros((height + 1, width), bool)
        for i, (t, left, h, w) in enumerate(placed):
            self.room[t : t + h, left : left + w] = i
            self.top[t, left : left + w] = True
        # row y meets a room: a cell in one, or a cell below in a room's first row
        meets = (self.room[:-1] >= 0).any(axis=1) | self.top[1:].any(axis=1)
        self.meets = np.asarray(meets, bool)


def rule_step(
    labels: np.ndarray,
    bits: np.ndarray,
    join: int,
    opens: int,
    row: np.ndarray,
    door: np.ndarray | None,
    rooms: Rooms | None,
    y: int,
) -> np.ndarray:
    """A band's row with every rule of docs/spec.md 5.3, cell by cell:
    ``door`` the doors below (the band's row K - 2), ``rooms`` its rooms."""
    width = labels.shape[0]
    lo = (bits & np.uint64(LOW)).tolist()
    hi = (bits >> np.uint64(32)).tolist()
    here = rooms.room[y].tolist() if rooms else [-1] * width
    top = rooms.top[y].tolist() if rooms else [False] * width
    below = rooms.room[y + 1].tolist() if rooms else [-1] * width
    into_top = rooms.top[y + 1].tolist() if rooms else [False] * width
    east = np.zeros(width, np.uint8)
    parent = list(range(width))
    lab = labels.tolist()
    same = [here[x] >= 0 and here[x] == here[x + 1] for x in range(width - 1)]
    join_east(lab, [x for x in range(width - 1) if same[x] and top[x]], parent, east)  # rule 1
    for x in range(width - 1):  # rule 2, one cell at a time: a room's joins come first
        if same[x]:
            east[x] = EAST
        elif lo[x] < join:
            join_east(lab, [x], parent, east)
    root = roots(parent, labels)
    last = last_cells(root).tolist()
    rl = root.tolist()
    doors = door.tolist() if door is not None else [0] * width
    opened: set[int] = set()
    at_door: set[int] = set()
    south = np.zeros(width, bool)
    for x in range(width):  # rule 3
        r = rl[x]
        may_close = not last[x] or r in opened
        if (doors[x] and r in at_door) or (into_top[x] and may_close):
            continue
        inside = here[x] >= 0 and here[x] == below[x]
        if not inside and may_close and hi[x] >= opens:
            continue
        south[x] = True
        opened.add(r)
        if doors[x]:
            at_door.add(r)
    row[:] = east | (south.astype(np.uint8) * np.uint8(SOUTH))
    return next_labels(root, south)


def last_row(labels: np.ndarray, door: np.ndarray, row: np.ndarray) -> None:
    """A band's last row: join unless both sets hold a door; open at the doors.

    Without a union-find (``_last_row_kernels`` says why): a set's first cell
    joins the cell before it unless its set and an earlier set hold a door;
    no other cell joins."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    held = np.zeros(first.shape[0], bool)
    held[inverse[door.astype(bool)]] = True
    starts = np.zeros(labels.shape[0], bool)
    starts[first] = True
    holds = held[inverse.ravel()]
    door_starts = starts & holds
    earlier = np.concatenate(([False], np.logical_or.accumulate(door_starts)[:-1]))  # before the cell
    join = starts & ~(earlier & holds)
    row[:] = door * np.uint8(SOUTH)
    row[:-1] |= join[1:].astype(np.uint8) * np.uint8(EAST)


def _rows(
    labels: np.ndarray,
    out: np.ndarray,
    key: int,
    band: int,
    y0: int,
    height: int,
    th: np.ndarray,
    rooms: Rooms | None,
) -> np.ndarray:
    """Rows ``y0 ..`` of a band into ``out`` from ``labels``; the labels after them."""
    width = labels.shape[0]
    c = salted(key, band, BAND_SALT)
    n = out.shape[0]
    bits = draws(c, y0 * width, n * width).reshape(n, width) if n else np.empty((0, width), np.uint64)
    door = None
    for i in range(n):
        y = y0 + i
        if y == height - 1:
            door = seam_doors(width, key, band + 1, int(th[TH_DOOR])) if door is None else door
            last_row(labels, door, out[i])
            return np.arange(width, dtype=np.int64)
        join = int(th[TH_JOIN_FIRST] if y == 0 else th[TH_JOIN])
        opens = int(th[TH_OPEN_FIRST] if y == 0 else th[TH_OPEN])
        if y == height - 2:
            door = seam_doors(width, key, band + 1, int(th[TH_DOOR]))
            labels = rule_step(labels, bits[i], join, opens, out[i], door, rooms, y)
        elif rooms is not None and rooms.meets[y]:
            labels = rule_step(labels, bits[i], join, opens, out[i], None, rooms, y)
        else:
            labels = eller_step(labels, bits[i], join, opens, out[i])
    return labels


def band_span(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    band: np.uint64,
    y0: int,
    band_height: int,
    th: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """:func:`eller_stream._band_kernels.band_span`: rows ``y0 ..`` of band
    ``band`` (within it), continuing ``left``/``right``."""
    width = out.shape[1]
    labels = _rows(labels_of(left, width), out, int(key), int(band), int(y0), int(band_height), th, None)
    lists_of(labels, left, right)


def band_stream_rows(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    band: np.uint64,
    y0: int,
    band_height: int,
    th: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """:func:`eller_stream._band_kernels.band_stream_rows`: a stream's rows
    from row ``y0`` of band ``band``, across bands."""
    bands_stream_rows(left, right, out, key, band, y0, band_height, th[None], doors, parent)


def bands_stream_rows(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    band: np.uint64,
    y0: int,
    band_height: int,
    ths: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """:func:`eller_stream._level_kernels.bands_stream_rows`: as
    :func:`band_stream_rows` with a thresholds row per band (not braided)."""
    i, y, j, b = 0, int(y0), 0, int(band)
    while i < out.shape[0]:
        m = min(out.shape[0] - i, band_height - y)
        th = ths[j if len(ths) > 1 else 0]
        band_span(left, right, out[i : i + m], key, np.uint64(b % 2**64), y, band_height, th, doors, parent)
        i, y = i + m, y + m
        if y == band_height:
            b, y, j = b + 1, 0, j + 1


def braid(rows: np.ndarray, key: int, band: int, th: np.ndarray) -> None:
    """Open band ``band``'s loops in its whole rows (docs/spec.md 5.5)."""
    below = int(th[TH_LOOP])
    if below == 0:
        return
    height, width = rows.shape
    north = seam_doors(width, key, band, int(th[TH_DOOR_ABOVE]))
    bits = draws(salted(key, band, LOOP_SALT), 0, height * width).reshape(height, width)
    up = np.vstack([north[None] * np.uint8(SOUTH), rows[:-1]]) & SOUTH
    west = np.zeros_like(rows)
    west[:, 1:] = rows[:, :-1] & EAST
    sides = (rows & EAST) + ((rows & SOUTH) >> 1) + (up >> 1) + west
    # a cell with no open side yet may become a dead end when a neighbour opens into it
    ys, xs = np.nonzero((sides <= 1) & ((bits & np.uint64(LOW)) < np.uint64(below)))
    if ys.size == 0:
        return
    g = rows.tolist()
    doors = north.tolist()

    def is_open(y: int, x: int, d: int) -> bool:
        if d == 0:
            return bool(g[y - 1][x] & SOUTH) if y > 0 else bool(doors[x])
        if d == 1:
            return bool(g[y][x] & SOUTH)
        if d == 2:
            return x > 0 and bool(g[y][x - 1] & EAST)
        return bool(g[y][x] & EAST)

    def count(y: int, x: int) -> int:
        return is_open(y, x, 0) + is_open(y, x, 1) + is_open(y, x, 2) + is_open(y, x, 3)

    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        if count(y, x) != 1:
            continue
        pool = [
            d
            for d, (dy, dx) in enumerate(steps)
            if 0 <= y + dy < height and 0 <= x + dx < width and not is_open(y, x, d)
        ]
        dead = [d for d in pool if count(y + steps[d][0], x + steps[d][1]) == 1]
        pool = dead or pool
        if not pool:
            continue
        d = pool[((int(bits[y, x]) >> 32) * len(pool)) >> 32]
        if d < 2:
            g[y - 1 + d][x] |= SOUTH
        else:
            g[y][x - 3 + d] |= EAST
    rows[:] = np.array(g, np.uint8)


def band_make(out: np.ndarray, key: int, band: int, band_height: int, th: np.ndarray) -> None:
    """One band of :func:`eller_stream._level_kernels.bands_rows`: the first ``len(out)``
    rows of band ``band``, with its rooms and loops when they are the whole band."""
    width = out.shape[1]
    whole = out.shape[0] == band_height
    placed = rooms_of(band_height, width, key, band, int(th[TH_ROOM])) if whole and th[TH_ROOM] > 0 else []
    rooms = Rooms(band_height, width, placed) if placed else None
    _rows(np.arange(width, dtype=np.int64), out, key, band, 0, band_height, th, rooms)
    if whole:
        braid(out, key, band, th)


def bands_rows(
    out: np.ndarray,
    key: np.uint64,
    band0: np.uint64,
    band_height: int,
    ths: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    doors: np.ndarray,
    parent: np.ndarray,
) -> None:
    """:func:`eller_stream._level_kernels.bands_rows`: bands from ``band0``
    into ``out`` (the last may be cut short, then not braided)."""
    for j, lo in enumerate(range(0, out.shape[0], band_height)):
        th = ths[j if len(ths) > 1 else 0]
        band_make(out[lo : lo + band_height], int(key), (int(band0) + j) % 2**64, band_height, th)


def band_row_sets(rows: np.ndarray, left: np.ndarray, right: np.ndarray) -> None:
    """The sets of the row after ``rows`` (a band's rows from its first row,
    loops and rooms included) into ``left``/``right``: each row's components
    followed down to the next one through its openings, as Eller does (a
    component that reaches no later row joins nothing after it)."""
    h, w = rows.shape
    labels = np.arange(w, dtype=np.int64)
    for y in range(h):
        parent = list(range(w))
        east = np.flatnonzero(rows[y, :-1] & EAST).tolist()
        join_east(labels.tolist(), east, parent, np.zeros(w, np.uint8))
        labels = next_labels(roots(parent, labels), (rows[y] & SOUTH) != 0)
    lists_of(labels, left, right)
