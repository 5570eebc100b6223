"""The vector intrinsics of Eller on bit planes, compiled, against what they
stand for computed another way: the draws as masks against numpy's draws
(``_rng.draws``), the stored flags against numpy's unpacked bits, and the
depth lanes against their twins (the rule a depth at a time, as the planes
worked it before) on arbitrary words, every lane and carry counted."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eller_stream import _numba
from eller_stream._numba import jit_disabled, kernel_errstate
from eller_stream._rng import draws

pytestmark = pytest.mark.skipif(jit_disabled(), reason="the intrinsics are compiled code (their twins run)")

u64 = st.integers(0, 2**64 - 1)
thresholds = st.one_of(st.sampled_from([0, 1, 2**31, 2**32 - 1, 2**32]), st.integers(0, 2**32))


@pytest.fixture(scope="module")
def compiled() -> dict[str, Any]:
    """Kernels that call each intrinsic (an intrinsic is only called from a kernel)."""
    _numba.load()
    import numba

    from eller_stream import _depth_lanes, _planes_io

    draw_masks, store_flags = _planes_io.draw_masks, _planes_io.store_flags
    conn_pass, fill_pass = _depth_lanes.conn_pass, _depth_lanes.fill_pass

    @numba.njit
    def masks(point: Any, count: Any, join_below: Any, open_below: Any) -> Any:
        return draw_masks(point, count, join_below, open_below)

    @numba.njit
    def store(row: Any, start: Any, east: Any, south: Any) -> None:
        store_flags(row, start, east, south)

    @numba.njit
    def conn(P: Any, N: Any, D: Any, X: Any, out: Any, nw: Any, g: Any) -> None:
        conn_pass(P, N, D, X, out, nw, g)

    @numba.njit
    def fill(P: Any, N: Any, D: Any, X: Any, out: Any, nw: Any, g: Any) -> None:
        fill_pass(P, N, D, X, out, nw, g)

    return {"masks": masks, "store": store, "conn": conn, "fill": fill}


@settings(max_examples=300, deadline=None)
@given(key=u64, counter=u64, count=st.integers(1, 64), join_below=thresholds, open_below=thresholds)
def test_the_draws_as_masks_are_numpys_draws(compiled, key, counter, count, join_below, open_below):
    point = np.uint64((key + counter * 0x9E3779B97F4A7C15) % 2**64)  # _rng.draw_point
    joins, closes = compiled["masks"](point, count, np.uint64(join_below), np.uint64(open_below))
    bits = draws(key, counter, count)
    want_joins = sum(int(b & 0xFFFFFFFF < join_below) << i for i, b in enumerate(bits.tolist()))
    want_closes = sum(int(b >> 32 >= open_below) << i for i, b in enumerate(bits.tolist()))
    assert (int(joins), int(closes)) == (want_joins, want_closes)


@settings(max_examples=200, deadline=None)
@given(start=st.integers(0, 40), east=u64, south=u64, fill=st.integers(0, 255))
def test_stored_flags_are_the_masks_bits_and_touch_nothing_else(compiled, start, east, south, fill):
    row = np.full(start + 64 + 40, fill, np.uint8)
    compiled["store"](row, start, np.uint64(east), np.uint64(south))
    unpack = np.unpackbits(np.array([east, south], "<u8").view(np.uint8), bitorder="little").reshape(2, 64)
    np.testing.assert_array_equal(row[start : start + 64], unpack[0] | (unpack[1] << 1))
    assert (row[:start] == fill).all() and (row[start + 64 :] == fill).all()


@pytest.mark.parametrize("kind", ["conn", "fill"])
@settings(max_examples=300, deadline=None)
@given(g=st.sampled_from([1, 9]), nw=st.integers(1, 5), data=st.data())
def test_eight_depths_at_once_are_the_depths_one_at_a_time(compiled, kind, g, nw, data):
    # arbitrary words (not only a row's), so every lane and its carries count; a pass of
    # depths 9-16 ORs into what the pass of depths 1-8 wrote
    from eller_stream import _depth_lanes

    twin = _depth_lanes._pass_twin(kind == "fill")
    row = st.lists(u64, min_size=nw + 1, max_size=nw + 1)
    P, N, X, before = (np.array(data.draw(row), np.uint64) for _ in range(4))
    D = np.array([data.draw(row) for _ in range(4)], np.uint64)
    got, want = before.copy(), before.copy()
    compiled[kind](P, N, D, X, got, nw, g)
    with kernel_errstate():
        twin(P, N, D, X, want, nw, g)
    np.testing.assert_array_equal(got, want)
    assert got[nw] == before[nw]  # the word past the row is not written
