"""Seeded content: random numbers for a game's items, tied to the cells of
an :class:`~eller_stream.banded.InfiniteMaze`.

The number of cell ``(row, column)`` under ``salt`` is a pure function of
``(seed, row, column, salt)``: the 53 high bits of

    mix64(mix64(k ^ mix64(row * GOLDEN + CONTENT_SALT)) + column * GOLDEN)

over 2**53, with ``k = mix64(key ^ mix64(salt * GOLDEN + CONTENT_SALT))``
(``key`` is the maze's :func:`~eller_stream._rng.seed_key`, rows taken
modulo 2**64).  ``CONTENT_SALT`` differs from every salt of the maze's own
draws, so the numbers are independent of its walls; the width, the band and
the other parameters play no part, so the numbers stay when they change.
numpy's uint64 arithmetic wraps the same way on every machine: the numbers
are equal everywhere, however the rows are split.
"""

from __future__ import annotations

import numpy as np

from ._rng import mix64_array
from ._validate import SEED_LIMIT, check_int, check_row_range

__all__ = ["CONTENT_SALT", "cell_random"]

CONTENT_SALT = np.uint64(0x636F6E74656E74)  # "content"; the maze's own: band, seam, loop, room
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MASK64 = 2**64 - 1


def cell_random(key: np.uint64, width: int, start: int, stop: int, salt: int) -> np.ndarray:
    """The numbers in [0, 1) of rows ``start`` to ``stop - 1``, columns 0 to
    ``width - 1``: a ``(stop - start, width)`` float64 array (see the module)."""
    start, stop = check_row_range(start, stop)
    salt = check_int("salt", salt, 0, SEED_LIMIT - 1)
    salt_key = mix64_array(np.array([salt], np.uint64) * _GOLDEN + CONTENT_SALT)
    k = mix64_array(np.array([key], np.uint64) ^ salt_key)
    rows = np.arange(stop - start, dtype=np.uint64) + np.uint64(start & _MASK64)
    row_keys = mix64_array(mix64_array(rows * _GOLDEN + CONTENT_SALT) ^ k)
    bits = row_keys[:, None] + np.arange(width, dtype=np.uint64)[None, :] * _GOLDEN
    return (mix64_array(bits) >> np.uint64(11)).astype(np.float64) * 2.0**-53
