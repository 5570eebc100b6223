"""The plane's blocks with exact Python integers: where a block of a level
lies, which holds a cell, and the door by which it leaves for its neighbour
nearer the middle of the block above (docs/spec.md, section 8).

Along each axis, chunk ``n`` is block ``n`` of level 0; block ``j`` of a
level lies in block ``up(j) = floor((j + HALF) / K)`` of the level above, at
place ``j - K * up(j)`` in ``-HALF .. HALF`` (0: the middle). So block ``j``
of level ``L`` covers chunks ``j * K**L - (K**L - 1) / 2`` to
``j * K**L + (K**L - 1) / 2``: each level's block of the origin is centred on
the one below, and any two cells share a block at some level.

>>> from eller_stream._plane_blocks import block, levels
>>> block(16, 0, 5, -3)  # level 0: the chunk
(0, -16, 16)
>>> block(16, 1, 5, -3)  # level 1: 9 x 9 chunks, the origin's chunk in the middle
(-64, -64, 144)
>>> levels(16)  # the level whose block of the origin holds all of [-2**62, 2**62]
19
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np

from ._format import EAST, SOUTH
from ._plane_kernels import COL_SALT, HALF, PLAN_SALT, ROW_SALT, K
from ._rng import _GOLDEN, draws, mix64_array

__all__ = ["LIMIT", "block", "block_keys", "common_level", "door", "index_at", "levels", "place", "salted"]
__all__ += ["span", "up"]

LIMIT = 2**62  # rows and columns of a region lie in [-LIMIT, LIMIT)
LOW = 0xFFFFFFFF
U64 = np.uint64
Index = TypeVar("Index", int, np.ndarray)  # one block index, or an int64 array of them


def salted(keys: np.ndarray, index: np.ndarray | int, salt: np.uint64) -> np.ndarray:
    """``salted`` (docs/spec.md, section 2.3) of the uint64 ``keys``,
    elementwise; ``index`` int64 (a negative one as its two's complement)."""
    i = np.asarray(index, np.int64).astype(U64)
    return mix64_array(np.asarray(keys, U64) ^ mix64_array(i * _GOLDEN + salt))


def block_keys(key: np.uint64, level: int, jy: np.ndarray, jx: np.ndarray) -> np.ndarray:
    """The keys of blocks ``(jy[i], jx[i])`` of ``level`` (level 0: the chunks)."""
    k = salted(np.full(jy.shape, key, U64), np.full(jy.shape, level), PLAN_SALT)
    return salted(salted(k, jy, ROW_SALT), jx, COL_SALT)


def place(j: Index) -> Index:
    """Where block ``j`` sits in the block above, ``-HALF .. HALF`` (0: the middle)."""
    out: Index = j - K * ((j + HALF) // K)
    return out


def up(j: int) -> int:
    """The block of the level above that holds block ``j`` (one axis)."""
    return (j + HALF) // K


def index_at(n: int, level: int) -> int:
    """The block of ``level`` that holds chunk ``n`` (one axis)."""
    for _ in range(level):
        n = up(n)
    return n


def span(chunk: int, level: int, j: int) -> tuple[int, int]:
    """Block ``j`` of ``level`` along one axis: its first cell and its size."""
    blocks = K**level
    return chunk * (j * blocks - (blocks - 1) // 2), chunk * blocks


def block(chunk: int, level: int, y: int, x: int) -> tuple[int, int, int]:
    """The block of ``level`` that holds cell ``(y, x)``: ``(first row,
    first column, size)``."""
    top, size = span(chunk, level, index_at(y // chunk, level))
    left, _ = span(chunk, level, index_at(x // chunk, level))
    return top, left, size


def levels(chunk: int) -> int:
    """The first level whose block of the origin holds every cell of
    ``[-LIMIT, LIMIT]`` (so any two cells of a region share a block of it)."""
    level = 0
    while chunk * ((K**level - 1) // 2) < LIMIT:
        level += 1
    return level


def common_level(chunk: int, a: tuple[int, int], b: tuple[int, int]) -> int:
    """The smallest level >= 1 with one block holding cells ``a`` and ``b``."""
    ay, ax, by, bx = a[0] // chunk, a[1] // chunk, b[0] // chunk, b[1] // chunk
    level = 1
    ay, ax, by, bx = up(ay), up(ax), up(by), up(bx)
    while (ay, ax) != (by, bx):
        ay, ax, by, bx = up(ay), up(ax), up(by), up(bx)
        level += 1
    return level


def door(key: int, chunk: int, level: int, jy: int, jx: int) -> tuple[int, int, int] | None:
    """The door by which block ``(jy, jx)`` of ``level`` >= 1 leaves for its
    neighbour nearer the middle of the block above, as ``(y, x, flag)``:
    ``flag`` (EAST or SOUTH) on cell ``(y, x)``; ``None`` for the middle
    block. Its draws: 0 (low 32 bits below 2**31: vertical, when both ways
    lead nearer) and 1 (the place along the side, ``draw * size >> 64``)."""
    dy, dx = place(jy), place(jx)
    if dy == 0 and dx == 0:
        return None
    q = int(block_keys(U64(key), level, np.array([jy], np.int64), np.array([jx], np.int64))[0])
    coin, where = (int(v) for v in draws(q, 0, 2))
    top, size = span(chunk, level, jy)
    left, _ = span(chunk, level, jx)
    along = (where * size) >> 64
    if dx == 0 or (dy != 0 and coin & LOW < 2**31):
        return (top + size - 1 if dy < 0 else top - 1, left + along, SOUTH)
    return (top + along, left + size - 1 if dx < 0 else left - 1, EAST)
