"""Eller's rows on bit planes (``eller_stream._eller_planes``): rows of
``PLANES_FROM`` cells or more, several at a time, are made 64 cells a word.
They must be the rows of the plain model (tests/naive.py) and of the lists,
byte for byte, whatever the sets' nesting depth."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import door_probabilities, probabilities, room_shares, seeds

import eller_stream as es
from eller_stream import _band_kernels as bk
from eller_stream import _eller_kernels as kernels
from eller_stream import _eller_planes as planes
from eller_stream._eller_planes import DEEPEST, PLANES_FROM, ROOM_PLANES
from eller_stream._last_row_kernels import last_row
from eller_stream._numba import kernel_errstate

from naive import banded_reference, closing_row_reference, eller_reference, seam_doors_reference

pytestmark = pytest.mark.usefixtures("numba_answers")

wide = st.integers(PLANES_FROM, PLANES_FROM + 150)


@settings(max_examples=25, deadline=None)
@given(width=wide, rows=st.integers(2, 6), seed=seeds, h=probabilities, v=probabilities)
def test_wide_rows_match_the_plain_reference(width, rows, seed, h, v):
    stream = es.EllerStream(width, seed, h, v)
    grid = stream.take(rows)
    np.testing.assert_array_equal(grid, eller_reference(width, rows, seed, h, v))
    np.testing.assert_array_equal(stream.finish(), closing_row_reference(grid, width))


@settings(max_examples=10, deadline=None)
@given(
    width=wide, band=st.integers(5, 9), seed=seeds, h=probabilities, v=probabilities, doors=door_probabilities
)
def test_wide_bands_match_the_model(width, band, seed, h, v, doors):
    maze = es.InfiniteMaze(width, band, seed, h, v, doors)
    expected = banded_reference(width, band, seed, -1, band + 1, h, v, doors)
    np.testing.assert_array_equal(maze.rows(-1, band + 1), expected)


def one_row_at_a_time(left, right, out, key, counter, h, v):
    """The lists, a row a call (a single row is never made on planes)."""
    for y in range(out.shape[0]):  # a counter returned is an int: as np.uint64, the package's types
        counter = np.uint64(kernels.eller_rows(left, right, out[y : y + 1], key, counter, h, v))
    return counter


def thresholds(h, v):
    return np.uint64(round(h * 2**32)), np.uint64(round(v * 2**32))


@given(
    width=st.one_of(st.integers(1, 70), wide),
    calls=st.lists(st.integers(1, 12), min_size=1, max_size=3),
    seed=seeds,
    h=probabilities,
    v=probabilities,
    deepest=st.sampled_from([0, 1, 2, 3, DEEPEST]),
)
def test_planes_make_the_lists_rows_and_sets(width, calls, seed, h, v, deepest):
    # a row whose sets nest deeper than ``deepest`` goes to the lists: with
    # 0 to 3, most rows do, so both ways and the switches between them are run
    key = np.uint64(seed)
    jb, ob = thresholds(h, v)
    lists = [np.arange(width + kernels.LR_PAD, dtype=np.int32) for _ in range(4)]
    ca = cb = np.uint64(0)
    with kernel_errstate():
        for n in calls:
            a, b = np.empty((n, width), np.uint8), np.empty((n, width), np.uint8)
            ca = one_row_at_a_time(lists[0], lists[1], a, key, ca, jb, ob)
            cb = np.uint64(kernels.rows_by_planes(lists[2], lists[3], b, key, cb, jb, ob, np.int64(deepest)))
            np.testing.assert_array_equal(a, b)
            assert ca == cb
            np.testing.assert_array_equal(lists[0][:width], lists[2][:width])
            np.testing.assert_array_equal(lists[1][:width], lists[3][:width])


def nested(width, depth):
    """Lists of ``depth`` sets nested in each other ({0, w-1}, {1, w-2}, ...)."""
    left = np.arange(width + kernels.LR_PAD, dtype=np.int32)
    right = left.copy()
    for i in range(depth):
        a, b = i, width - 1 - i
        left[a], right[a], left[b], right[b] = b, b, a, a
    return left, right


@pytest.mark.parametrize("depth", [DEEPEST, DEEPEST + 1, 40])
@pytest.mark.parametrize("h", [0.0, 0.5, 1.0])
def test_sets_nested_past_the_planes_go_to_the_lists(depth, h):
    width = 200
    jb, ob = thresholds(h, 0.5)
    for seed in range(8):
        l1, r1 = nested(width, depth)
        l2, r2 = nested(width, depth)
        assert kernels.is_noncrossing_partition(l1[:width], r1[:width])
        a, b = np.empty((6, width), np.uint8), np.empty((6, width), np.uint8)
        with kernel_errstate():
            ca = one_row_at_a_time(l1, r1, a, np.uint64(seed), np.uint64(0), jb, ob)
            cb = kernels.eller_rows(l2, r2, b, np.uint64(seed), np.uint64(0), jb, ob)
        np.testing.assert_array_equal(a, b)
        assert ca == cb
        np.testing.assert_array_equal(l1[:width], l2[:width])
        np.testing.assert_array_equal(r1[:width], r2[:width])


@pytest.mark.parametrize("plain_rows", [0, 2])
@pytest.mark.parametrize("h", [0.0, 0.5])
@pytest.mark.parametrize("depth", [4, DEEPEST + 5])
def test_a_band_whose_sets_nest_past_the_planes_is_the_lists_band(depth, h, plain_rows):
    # the banded maze's plain, penultimate and last rows on planes, from sets nested
    # past what the planes hold: the same rows and sets as the lists' kernels
    width, band = 120, 8
    maze = es.InfiniteMaze(width, band, 3, h, 1.0, 0.3)
    th, key = maze._th, np.uint64(maze._key)
    for b in range(4):
        bkey = np.uint64(bk.band_key(key, np.uint64(b)))
        l1, r1 = nested(width, depth)
        l2, r2 = nested(width, depth)
        doors = [np.zeros(width, np.uint8) for _ in range(2)]
        parent = [np.zeros(width + 1, np.int32) for _ in range(2)]
        n = plain_rows + 2  # plain rows, the penultimate, the last
        a, b_ = np.empty((n, width), np.uint8), np.empty((n, width), np.uint8)
        y0 = band - n
        with kernel_errstate():
            counter = np.uint64(y0 * width)
            for y in range(plain_rows):  # the lists: a row a call
                kernels.eller_rows(l1, r1, a[y : y + 1], bkey, counter + np.uint64(y * width), th[0], th[1])
            bk.seam_doors(doors[0], key, np.uint64(b + 1), th[bk.TH_DOOR])
            at = counter + np.uint64(plain_rows * width)
            bk._penultimate_row(l1, r1, a[n - 2], bkey, at, th[0], th[1], doors[0], parent[0])
            last_row(l1, r1, a[n - 1], doors[0], parent[0])
            bk.band_span(l2, r2, b_, key, np.uint64(b), y0, band, th, doors[1], parent[1])
        np.testing.assert_array_equal(a, b_)
        np.testing.assert_array_equal(l1[:width], l2[:width])
        np.testing.assert_array_equal(r1[:width], r2[:width])


@pytest.mark.parametrize("depth", [4, DEEPEST + 5])
def test_a_bands_last_rows_from_sets_given_as_planes_are_the_lists_rows(depth):
    # a band with rooms hands its last two rows its sets as planes (_span_in, given=True),
    # never as lists: the rows of band_span from the same sets as lists, also where they
    # nest past the planes (the penultimate row then goes to the lists)
    width, band = 120, 8
    maze = es.InfiniteMaze(width, band, 3, 0.5, 1.0, 0.3)
    th, key = maze._th, np.uint64(maze._key)
    nw = (width + 63) // 64
    for b in range(4):
        l1, r1 = nested(width, depth)
        l2, r2 = nested(width, depth)
        span = np.zeros((bk.SPAN_WORDS, nw + 1), np.uint64)
        a, b_ = np.empty((2, width), np.uint8), np.empty((2, width), np.uint8)
        doors, parent = np.zeros(width, np.uint8), np.zeros(width + 1, np.int32)
        with kernel_errstate():
            planes.planes_of_lists(l1, r1, span[0], span[1], width)
            l1[:] = np.arange(len(l1))  # other sets, each a cell: read, they would change the rows
            r1[:] = np.arange(len(r1))
            base = np.empty(nw + 1, np.int64)
            i, y = bk._span_in(
                l1, r1, a, key, np.uint64(b), band - 2, band - 2, th, doors, parent, span, base, True
            )
            if i < 2:
                bk.band_span(l1, r1, a[i:], key, np.uint64(b), y, band, th, doors, parent)
            bk.band_span(
                l2, r2, b_, key, np.uint64(b), band - 2, band, th, np.zeros_like(doors), parent.copy()
            )
        assert (i < 2) == (depth > DEEPEST)
        np.testing.assert_array_equal(a, b_)


@settings(max_examples=10, deadline=None)
@given(
    width=wide,
    band=st.integers(4, 12),
    seed=seeds,
    h=probabilities,
    v=probabilities,
    loops=st.sampled_from([0.0, 0.5]),
    rooms=room_shares,
)
def test_wide_bands_with_rooms_match_the_model(width, band, seed, h, v, loops, rooms):
    # a room's rows on planes: the rooms' rules as planes beside the draws
    maze = es.InfiniteMaze(width, band, seed, h, v, loops=loops, rooms=rooms)
    expected = banded_reference(width, band, seed, -1, band + 1, h, v, 0.45, loops, rooms=rooms)
    np.testing.assert_array_equal(maze.rows(-1, band + 1), expected)


@pytest.mark.long
@settings(deadline=None)
@given(
    width=st.integers(2, 150),
    band=st.integers(4, 34),
    seed=seeds,
    b=st.integers(-(2**40), 2**40),
    h=probabilities,
    v=probabilities,
    rooms=room_shares,
    deepest=st.sampled_from([0, 1, 2, 3, DEEPEST]),
)
def test_rooms_on_planes_make_the_lists_rows_and_sets(width, band, seed, b, h, v, rooms, deepest):
    # with ``deepest`` 0 to 3 most rows go back to the lists: both ways and the switches run
    from eller_stream import _band_kernels as bk
    from eller_stream import _room_kernels as rk

    maze = es.InfiniteMaze(width, band, seed, h, v, rooms=rooms)
    th, key, band_no = maze._th, np.uint64(maze._key), np.uint64(b % 2**64)
    plain = band - 2
    nw = (width + 63) // 64
    with kernel_errstate():
        rects = np.empty((rk.room_capacity(band, width, th), 4), np.int64)
        n = rk.band_rooms(band, width, key, band_no, th, rects)
        masks = np.zeros((plain + rk.ROOM_MAX_HEIGHT, ROOM_PLANES, nw + 1), np.uint64)
        rk.room_planes(rects, n, masks)
        bkey = np.uint64(bk.band_key(key, band_no))
        lists = [np.arange(width + kernels.LR_PAD, dtype=np.int32) for _ in range(4)]
        a, b_ = np.empty((plain, width), np.uint8), np.empty((plain, width), np.uint8)
        decided = np.empty(width, np.uint64)
        rk.rooms_by_lists(lists[0], lists[1], a, bkey, th, masks, decided)
        rk.rooms_by_planes(lists[2], lists[3], b_, bkey, th, masks, np.int64(deepest), decided)
    np.testing.assert_array_equal(a, b_)
    np.testing.assert_array_equal(lists[0][:width], lists[2][:width])
    np.testing.assert_array_equal(lists[1][:width], lists[3][:width])


def test_room_planes_refuse_planes_too_small_for_the_rooms():
    # the planes are written with no bounds check: too few rows (the rooms' rows and
    # ROOM_MAX_HEIGHT more) or words is a clear error, not memory written past the array
    from eller_stream import _room_kernels as rk

    rects = np.array([[3, 60, 4, 8]], np.int64)  # rows 3-6, columns 60-67: two words
    with kernel_errstate():
        rk.room_planes(rects, 1, np.zeros((3 + rk.ROOM_MAX_HEIGHT, ROOM_PLANES, 3), np.uint64))
        for shape in ((3 + rk.ROOM_MAX_HEIGHT - 1, ROOM_PLANES, 3), (10, ROOM_PLANES, 2)):
            with pytest.raises(ValueError, match="room_planes: masks has fewer rows or words"):
                rk.room_planes(rects, 1, np.zeros(shape, np.uint64))


@settings(max_examples=60, deadline=None)
@given(
    width=st.one_of(st.sampled_from([1, 63, 64, 65, 128, 1000]), st.integers(1, 200)),
    seed=seeds,
    seam=st.integers(-(2**63), 2**63 - 1),
    doors=st.sampled_from([0, 1, 2**20, 2**31, 2**32 - 1, 2**32]),
)
def test_seam_doors_as_words_and_bytes_are_the_model(width, seed, seam, doors):
    # 64 draws a vector, bytes from the words; a seam without a door still picks one column
    key, below = np.uint64(seed), np.uint64(doors)
    as_bytes = np.zeros(width, np.uint8)
    words = np.zeros(width // 64 + 2, np.uint64)
    with kernel_errstate():
        bk.seam_doors(as_bytes, key, np.uint64(seam % 2**64), below)
        bk.seam_door_words(words, np.int64(width), key, np.uint64(seam % 2**64), below)
    expected = np.array(seam_doors_reference(width, seed, seam, doors / 2**32), np.uint8)
    bits = np.unpackbits(words.view(np.uint8), bitorder="little")
    np.testing.assert_array_equal(bits[:width], expected)
    np.testing.assert_array_equal(as_bytes, expected)
    assert not bits[width:].any()
