"""Argument checks shared by the public functions.

Each check names the argument in its message, raises ``TypeError`` for a
value of the wrong kind and ``ValueError`` for one out of range.
"""

from __future__ import annotations

import math
import numbers
import re
import secrets

import numpy as np

SEED_LIMIT = 2**64
MAX_WIDTH = 2**31 - 2  # the widest row; the bounded generators take it as their tallest grid too
ROW_LIMIT = 2**63  # the banded maze's rows are numbered in [-ROW_LIMIT, ROW_LIMIT)
# The tallest band: reaching a row replays the rows above it in its band,
# at most MAX_BAND - 1 of them (about 5 ns a cell: 0.03 s at width 80).
MAX_BAND = 2**16
MAX_CHUNKS = 1 << 24  # more chunks than this is a Dask graph no scheduler should be handed


def check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    """Return ``value`` as an int in ``[low, high]``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}: {shown(value)}")
    result = int(value)
    if result < low or (high is not None and result > high):
        bound = f"at least {low}" if high is None else f"in [{low}, {high}]"
        raise ValueError(f"{name} must be {bound}, got {shown(result)}")
    return result


def shown(value: object) -> str:
    """``repr(value)`` for an error message, or what it is when it is too
    long to print: an int past Python's int-digit limit (``repr`` raises) by
    its size in bits, and anything else ``repr`` refuses by its type.

    >>> shown(-5), shown(2**5000), shown(-(2**5000))
    ('-5', 'an int of 5001 bits', 'a negative int of 5001 bits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1024:
        return f"{'a negative' if value < 0 else 'an'} int of {value.bit_length()} bits"
    try:
        return repr(value)
    except ValueError:  # a Fraction or Decimal of a huge int
        return f"a {type(value).__name__} too long to print"


def check_probability(name: str, value: object) -> float:
    """Return ``value`` as a float in ``[0, 1]``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number in [0, 1], got {type(value).__name__}: {shown(value)}")
    try:
        result = float(value)
    except OverflowError:  # an int or Fraction too big for a float: far out of range
        raise ValueError(f"{name} must be in [0, 1], got {shown(value)}") from None
    if math.isnan(result) or not 0.0 <= result <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {result!r}")
    return result


def check_seed(seed: object) -> int:
    """Return a seed in ``[0, 2**64)``; ``None`` draws one from OS entropy."""
    if seed is None:
        return secrets.randbits(64)
    return check_int("seed", seed, 0, SEED_LIMIT - 1)


def check_width(width: object) -> int:
    return check_int("width", width, 1, MAX_WIDTH)


def check_band(band: object) -> int:
    """Return ``band`` (rows per band of the banded maze) as an int in ``[2, MAX_BAND]``."""
    return check_int("band", band, 2, MAX_BAND)


def check_row(name: str, row: object) -> int:
    """Return ``row`` as a row number of the banded maze, in ``[-2**63, 2**63)``."""
    return check_int(name, row, -ROW_LIMIT, ROW_LIMIT - 1)


def check_row_range(start: object, stop: object) -> tuple[int, int]:
    """Return rows ``start`` to ``stop - 1`` of the banded maze as ints, ``start < stop``."""
    first = check_row("start", start)
    end = check_int("stop", stop, -ROW_LIMIT, ROW_LIMIT)
    if end <= first:
        raise ValueError(f"stop must be greater than start, got start={first}, stop={end}")
    return first, end


def check_grid_buffer(name: str, out: object, shape: tuple[int, ...]) -> np.ndarray:
    """``out`` must be a writeable, C-contiguous uint8 array of ``shape``;
    returns it as a plain ``ndarray`` view to write through (a subclass such
    as ``np.matrix`` indexes differently; ``np.memmap`` writes the same)."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name} must be a numpy array, got {type(out).__name__}")
    if out.dtype != np.uint8:
        raise TypeError(f"{name} must have dtype uint8, got {out.dtype}")
    if out.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {out.shape}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"{name} must be C-contiguous and writeable")
    return out.view(np.ndarray)


def check_rows(name: str, rows: object, width: int | None = None) -> np.ndarray:
    """``rows`` as a 2-d uint8 array of maze rows (a 1-d row is one row)."""
    if not isinstance(rows, np.ndarray):
        raise TypeError(f"{name} must be a numpy uint8 array of maze rows, got {type(rows).__name__}")
    if rows.dtype != np.uint8:
        raise TypeError(f"{name} must have dtype uint8, got {rows.dtype}")
    if rows.ndim == 1:
        rows = rows[None, :]
    if rows.ndim != 2 or rows.shape[1] < 1:
        raise ValueError(f"{name} must have shape (rows, width) with width >= 1, got {rows.shape}")
    if width is not None and rows.shape[1] != width:
        raise ValueError(f"{name} has width {rows.shape[1]}, expected {width}")
    return rows


# What XML 1.0 has no character for, not even as &#...;: the C0 controls but
# tab, LF and CR, lone surrogates, U+FFFE and U+FFFF (a .tmx, an SVG, and a
# .tmj too: one rule for both Tiled formats, which convert into each other).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def check_xml_text(name: str, value: object) -> str:
    """Return ``value`` as a plain str that an XML document can hold."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}: {value!r}")
    bad = NOT_XML.search(value)
    if bad is not None:
        raise ValueError(
            f"{name} has U+{ord(bad.group()):04X} at index {bad.start()}, a character XML cannot hold"
            " (of the controls it allows tab, LF and CR; no lone surrogates, no U+FFFE or U+FFFF)"
        )
    return str(value)
