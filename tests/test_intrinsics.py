"""The vector intrinsics of ``eller_stream._numba`` (``bits_of``,
``or_at_bits``, ``load_u64``, ``store_u64``), compiled and as the plain-Python
twins that run under ``NUMBA_DISABLE_JIT=1``, against numpy written out here.
The braid and the rooms stand on them: a wrong bit would move a wall."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eller_stream import _numba
from eller_stream._backend import backend

SIZE = 200  # bytes in each test array: room for 64 from any start below 136
starts = st.integers(0, SIZE - 64)
words = st.integers(0, 2**64 - 1)
flags = st.sampled_from([1, 2, 4, 8, 16, 128, 3, 255])
arrays = st.binary(min_size=SIZE, max_size=SIZE).map(lambda b: np.frombuffer(b, np.uint8).copy())


def _compiled() -> dict[str, Callable[..., Any]]:
    """Each intrinsic inside a compiled kernel (empty without numba or with
    the JIT off: the twins are then what the kernels call)."""
    if backend() != "numba" or _numba.jit_disabled():
        return {}
    import numba

    _numba.load()
    bits_of, or_at_bits = _numba.bits_of, _numba.or_at_bits
    load_u64, store_u64 = _numba.load_u64, _numba.store_u64

    @numba.njit(cache=False)
    def call_bits_of(a: np.ndarray, start: int, flag: int) -> np.uint64:
        return bits_of(a, start, flag)

    @numba.njit(cache=False)
    def call_or_at_bits(a: np.ndarray, start: int, bits: np.uint64, flag: int) -> None:
        or_at_bits(a, start, bits, flag)

    @numba.njit(cache=False)
    def call_load_u64(a: np.ndarray, start: int) -> np.uint64:
        return load_u64(a, start)

    @numba.njit(cache=False)
    def call_store_u64(a: np.ndarray, start: int, value: np.uint64) -> None:
        store_u64(a, start, value)

    return {
        "bits_of": call_bits_of,
        "or_at_bits": call_or_at_bits,
        "load_u64": call_load_u64,
        "store_u64": call_store_u64,
    }


COMPILED = _compiled()
TWINS = {
    "bits_of": _numba._bits_of_twin,
    "or_at_bits": _numba._or_at_bits_twin,
    "load_u64": _numba._load_u64_twin,
    "store_u64": _numba._store_u64_twin,
}


def _both(name: str) -> list[Callable[..., Any]]:
    return [TWINS[name], *([COMPILED[name]] if COMPILED else [])]


@settings(max_examples=60, deadline=None)
@given(arrays, starts, flags)
def test_bits_of_sets_bit_i_where_the_byte_has_the_flag(a: np.ndarray, start: int, flag: int) -> None:
    expected = sum(1 << i for i in range(64) if int(a[start + i]) & flag)
    for f in _both("bits_of"):
        assert int(f(a, start, flag)) == expected


@settings(max_examples=60, deadline=None)
@given(arrays, starts, words, flags)
def test_or_at_bits_ors_the_flag_where_the_bit_is_set_and_nothing_else(
    a: np.ndarray, start: int, bits: int, flag: int
) -> None:
    expected = a.copy()
    for i in range(64):
        if bits >> i & 1:
            expected[start + i] |= flag
    for f in _both("or_at_bits"):
        b = a.copy()
        f(b, start, np.uint64(bits), flag)
        assert (b == expected).all()


@settings(max_examples=60, deadline=None)
@given(arrays, st.integers(0, SIZE - 8), words)
def test_load_and_store_u64_are_little_endian_at_any_byte(a: np.ndarray, start: int, value: int) -> None:
    expected_load = sum(int(a[start + i]) << (8 * i) for i in range(8))
    expected_store = a.copy()
    expected_store[start : start + 8] = [(value >> (8 * i)) & 255 for i in range(8)]
    for load in _both("load_u64"):
        assert int(load(a, start)) == expected_load
    for store in _both("store_u64"):
        b = a.copy()
        store(b, start, np.uint64(value))
        assert (b == expected_store).all()


def test_the_compiled_intrinsics_are_tested_where_numba_runs() -> None:
    if backend() != "numba" or _numba.jit_disabled():
        pytest.skip("no compiled kernels here (lean backend or NUMBA_DISABLE_JIT=1): the twins were tested")
    assert set(COMPILED) == set(TWINS)
