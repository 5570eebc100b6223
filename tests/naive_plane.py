"""The plane (docs/spec.md, section 8) restated the plain way, for the tests
to compare ``eller_stream.Plane`` against: exact Python integers, sets as
labels relabelled by scanning the row, every chunk that meets a region made
whole, every level's doors looked at up to a level past any coordinate.

Nothing here imports eller_stream (``naive`` does not either).
"""

from __future__ import annotations

import numpy as np

from naive import EAST, GOLDEN, MASK64, SOUTH, mix64, seed_key

K = 9  # blocks of a level are K x K blocks of the level below
HALF = (K - 1) // 2
LOW = 0xFFFFFFFF
PLAN_SALT = 0x706C616E  # "plan": a level's key
ROW_SALT = 0x726F77  # "row"
COL_SALT = 0x636F6C  # "col"
SEAM_SALT = 0x7365616D  # "seam": a chunk's seams without perfect
FIRST_JOIN = 0.8  # a chunk's row 0 joins with FIRST_JOIN * horizontal ...
FIRST_OPEN = 0.6  # ... and opens with FIRST_OPEN * vertical
LAST_JOIN = 0.5  # the last row of a chunk with exits south joins with LAST_JOIN * horizontal
EXIT = 0.8  # a row's east exit, and without perfect a door of an east seam: EXIT * horizontal
TOP = 2**62


def threshold(p: float) -> int:
    return round(p * 2**32)


def draw(k: int, i: int) -> int:
    return mix64((k + i * GOLDEN) & MASK64)


def salted(key: int, index: int, salt: int) -> int:
    return mix64(key ^ mix64(((index % 2**64) * GOLDEN + salt) & MASK64))


def block_key(key: int, level: int, jy: int, jx: int) -> int:
    """The key of block ``(jy, jx)`` of ``level`` (level 0: the chunks)."""
    return salted(salted(salted(key, level, PLAN_SALT), jy, ROW_SALT), jx, COL_SALT)


def up(j: int) -> int:
    """The block of the level above that holds block ``j`` (along one axis)."""
    return (j + HALF) // K


def place(j: int) -> int:
    """Where block ``j`` sits in the block above, -HALF .. HALF (0: the middle)."""
    return j - K * up(j)


def index_at(n: int, level: int) -> int:
    """The block of ``level`` that holds chunk ``n`` (along one axis)."""
    for _ in range(level):
        n = up(n)
    return n


def span(chunk: int, level: int, j: int) -> tuple[int, int]:
    """Block ``j`` of ``level`` along one axis: its first cell and its size."""
    blocks = K**level
    return chunk * (j * blocks - (blocks - 1) // 2), chunk * blocks


def thresholds(horizontal: float, vertical: float) -> dict[str, int]:
    return {
        "join": threshold(horizontal),
        "open": threshold(vertical),
        "join_first": threshold(horizontal * FIRST_JOIN),
        "open_first": threshold(vertical * FIRST_OPEN),
        "join_last": threshold(horizontal * LAST_JOIN),
        "exit": threshold(horizontal * EXIT),
    }


def chunk_cells(kc: int, c: int, south: bool, east: bool, th: dict[str, int]) -> list[list[int]]:
    """A chunk as its rules make it, before it is turned into place: rows
    0 .. c - 1 from the top, EAST on the last column an exit east, SOUTH on
    the last row an exit south."""
    grid = [[0] * c for _ in range(c)]
    label = list(range(c))
    fresh = c
    for y in range(c):
        bits = [draw(kc, y * c + x) for x in range(c)]
        last = y == c - 1
        closing = last and not south
        join = th["join_last"] if last else th["join_first"] if y == 0 else th["join"]
        opens = th["open_first"] if y == 0 and not last else th["open"]
        for x in range(c - 1):  # east walls, left to right
            if label[x] != label[x + 1] and (closing or (bits[x] & LOW) < join):
                grid[y][x] |= EAST
                old = label[x + 1]
                label = [label[x] if v == old else v for v in label]
        done = None  # the set that leaves by the east exit
        if east and (closing or (bits[c - 1] & LOW) < th["exit"]):
            grid[y][c - 1] |= EAST
            done = label[c - 1]
        if closing:
            break
        opened: set[int] = set()
        for x in range(c):  # south walls, left to right
            if label[x] == done:
                continue
            further_right = label[x] in label[x + 1 :]
            if last:  # each set leaves once: its first cell that draws an opening, or its last cell
                if label[x] not in opened and ((bits[x] >> 32) < opens or not further_right):
                    grid[y][x] |= SOUTH
                    opened.add(label[x])
                continue
            may_close = further_right or label[x] in opened
            if may_close and (bits[x] >> 32) >= opens:
                continue
            grid[y][x] |= SOUTH
            opened.add(label[x])
        new = []
        for x in range(c):
            if grid[y][x] & SOUTH:
                new.append(label[x])
            else:
                new.append(fresh)
                fresh += 1
        label = new
    return grid


def chunk_passages(key: int, c: int, perfect: bool, cy: int, cx: int, th: dict[str, int]):
    """Every passage that chunk ``(cy, cx)`` makes, as (y, x, flag) with the
    flag on cell (y, x): its own, its exits and (without perfect) its seams'
    doors."""
    kc = block_key(key, 0, cy, cx)
    dy, dx = (place(cy), place(cx)) if perfect else (0, 0)
    grid = chunk_cells(kc, c, dy != 0, dx != 0, th)
    top, left = cy * c, cx * c

    def row(y: int) -> int:
        return c - 1 - y if dy > 0 else y

    def col(x: int) -> int:
        return c - 1 - x if dx > 0 else x

    out = []
    for y in range(c):
        for x in range(c):
            if grid[y][x] & EAST:  # between (y, x) and (y, x + 1), turned into place
                out.append((top + row(y), left + min(col(x), col(x + 1)), EAST))
            if grid[y][x] & SOUTH:
                out.append((top + min(row(y), row(y + 1)), left + col(x), SOUTH))
    if not perfect:
        for side, flag, below in ((0, EAST, th["exit"]), (1, SOUTH, th["open"])):
            q = salted(kc, side, SEAM_SALT)
            doors = [i for i in range(c) if (draw(q, i) & LOW) < below]
            if not doors:
                doors = [((draw(q, c) & LOW) * c) >> 32]
            for i in doors:
                out.append((top + i, left + c - 1, flag) if flag == EAST else (top + c - 1, left + i, flag))
    return out


def door(key: int, c: int, level: int, jy: int, jx: int):
    """The one door by which block ``(jy, jx)`` of ``level`` (>= 1) leaves for
    its neighbour nearer the middle of the block above, as (y, x, flag); None
    for the middle block."""
    dy, dx = place(jy), place(jx)
    if dy == 0 and dx == 0:
        return None
    q = block_key(key, level, jy, jx)
    vertical = dx == 0 or (dy != 0 and (draw(q, 0) & LOW) < 2**31)
    top, size = span(c, level, jy)
    left, _ = span(c, level, jx)
    p = (draw(q, 1) * size) >> 64
    if vertical:
        return (top + size - 1 if dy < 0 else top - 1, left + p, SOUTH)
    return (top + p, left + size - 1 if dx < 0 else left - 1, EAST)


def plane_region(
    chunk: int,
    seed: int,
    y0: int,
    y1: int,
    x0: int,
    x1: int,
    perfect: bool = True,
    horizontal: float = 0.5,
    vertical: float = 0.5,
) -> np.ndarray:
    """Cells ``[y0, y1) x [x0, x1)`` of the plane: every chunk that meets
    rows ``y0 .. y1`` and columns ``x0 .. x1`` (the cells just outside, whose
    passages the last row and column carry) made whole, and the doors of
    every block of every level up to one larger than 2**66 cells."""
    key = seed_key(seed)
    th = thresholds(horizontal, vertical)
    out = np.zeros((y1 - y0, x1 - x0), np.uint8)

    def put(y: int, x: int, flag: int) -> None:
        if y0 <= y < y1 and x0 <= x < x1:
            assert not out[y - y0, x - x0] & flag, "a passage made twice"
            out[y - y0, x - x0] |= flag

    for cy in range(y0 // chunk, y1 // chunk + 1):
        for cx in range(x0 // chunk, x1 // chunk + 1):
            for passage in chunk_passages(key, chunk, perfect, cy, cx, th):
                put(*passage)
    if perfect:
        level = 1
        while chunk * K ** (level - 1) <= 2**66:
            for jy in range(index_at(y0 // chunk, level), index_at(y1 // chunk, level) + 1):
                for jx in range(index_at(x0 // chunk, level), index_at(x1 // chunk, level) + 1):
                    d = door(key, chunk, level, jy, jx)
                    if d is not None:
                        put(*d)
            level += 1
    return out


def block_of(chunk: int, level: int, y: int, x: int) -> tuple[int, int, int]:
    """``Plane.block``: the block of ``level`` that holds cell (y, x), as
    (first row, first column, size)."""
    top, size = span(chunk, level, index_at(y // chunk, level))
    left, _ = span(chunk, level, index_at(x // chunk, level))
    return top, left, size
