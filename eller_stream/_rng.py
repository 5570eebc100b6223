"""The random numbers of every maze: the determinism contract in one place.

Random numbers come from a counter-based generator (the SplitMix64
finaliser applied to ``key + counter * GOLDEN``): draw ``i`` of a maze
always sees the same 64 random bits, whichever way the work is chunked, and
no generator state other than the counter needs to be saved.  A user seed
becomes the key through :func:`seed_key`; a probability becomes a threshold
on 32 random bits through :func:`threshold`.  Changing anything here
changes what every seed produces (the golden hashes of the tests pin it).
"""

from __future__ import annotations

import numpy as np

from ._numba import _U64, Int64, _mul_high, _njit

_GOLDEN = _U64(0x9E3779B97F4A7C15)
_MIX1 = _U64(0xBF58476D1CE4E5B9)
_MIX2 = _U64(0x94D049BB133111EB)
_LOW32 = _U64(0xFFFFFFFF)
_S30 = _U64(30)
_S27 = _U64(27)
_S31 = _U64(31)
_S32 = _U64(32)


def threshold(p: float) -> np.uint64:
    """A probability as a threshold on 32 random bits (1.0 -> 2**32: always)."""
    return np.uint64(round(p * 2**32))


@_njit
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64 finaliser: a bijective 64-bit hash."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


def mix64_array(z: np.ndarray) -> np.ndarray:
    """:func:`mix64` on a uint64 array, in place (numpy's uint64 arithmetic
    wraps as the kernels' does); returns ``z``."""
    z ^= z >> _S30
    z *= _MIX1
    z ^= z >> _S27
    z *= _MIX2
    z ^= z >> _S31
    return z


def draws(key: int | np.uint64, counter: int | np.uint64, n: int) -> np.ndarray:
    """:func:`random_bits` of draws ``counter .. counter + n - 1`` of the
    maze ``key``, as a uint64 array, with numpy (counters modulo 2**64)."""
    i = np.arange(n, dtype=np.uint64) + _U64(int(counter) % 2**64)
    return mix64_array(_U64(int(key) % 2**64) + i * _GOLDEN)


def _mix64_int(z: int) -> int:
    """mix64 on Python ints (for the few calls made outside kernels)."""
    mask = 2**64 - 1
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def seed_key(seed: int) -> np.uint64:
    """Turn a user seed into the generator key.  Plain Python, so that a new
    stream does not have to load a compiled function before its first row."""
    return np.uint64(_mix64_int(_mix64_int((int(seed) + 0x9E3779B97F4A7C15) & (2**64 - 1)) ^ 0x656C6C6572))


@_njit(inline="always")
def draw_point(key: np.uint64, counter: np.uint64) -> np.uint64:
    """What :func:`random_bits` hashes for draw ``counter`` of the maze
    ``key``.  The next draw's is this plus ``DRAW_STEP``: a loop over
    consecutive draws adds instead of multiplying (a third of the hash's
    multiplications)."""
    return _U64(key) + _U64(counter) * _GOLDEN


DRAW_STEP = _GOLDEN


@_njit(inline="always")
def random_bits(key: np.uint64, counter: np.uint64) -> np.uint64:
    """The 64 random bits of draw number ``counter`` of the maze ``key``."""
    return mix64(draw_point(key, counter))


@_njit(inline="always")
def _below(bits: np.uint64, n: Int64) -> np.int64:
    """A number in [0, n) from the high 32 bits of ``bits``."""
    return np.int64(((bits >> _U64(32)) * _U64(n)) >> _U64(32))


@_njit(inline="always")
def _below_cells(bits: np.uint64, n: Int64) -> np.int64:
    """A cell number in [0, n) from ``bits``: :func:`_below` (the high 32 bits
    times n) while that product fits in 64 bits (n < 2**32, every grid the
    generators made before; the same cells), else the high 64 bits of
    ``bits * n``, uniform however many cells there are."""
    if n < (1 << 32):
        return _below(bits, n)
    return np.int64(_mul_high(_U64(bits), _U64(n)))
