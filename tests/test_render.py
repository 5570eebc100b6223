"""Text, tiles and raw views, read back by the independent parsers."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import eller_stream as es

from naive import parse_ascii, parse_blocks, parse_unicode, perfect_problems

PARSERS = {"ascii": parse_ascii, "unicode": parse_unicode, "blocks": parse_blocks}


@given(width=st.integers(1, 40), height=st.integers(1, 15), seed=st.integers(0, 2**64 - 1))
def test_every_text_style_reads_back_to_the_grid(width, height, seed):
    grid = es.eller(width, height, seed)
    for style, parse in PARSERS.items():
        np.testing.assert_array_equal(parse(es.text(grid, style)), grid, err_msg=style)


@pytest.mark.parametrize("style", ["ascii", "unicode", "blocks", "raw"])
def test_streamed_text_in_any_blocks_equals_the_whole(style):
    grid = es.eller(17, 30, seed=4)
    whole = es.TextRenderer(17, style)
    expected = whole.start() + whole.rows(grid[:-1]) + whole.close(grid[-1])
    r = es.TextRenderer(17, style)
    got = r.start()
    for lo, hi in [(0, 1), (1, 2), (2, 9), (9, 29)]:
        got += r.rows(grid[lo:hi])
    got += r.close(grid[-1])
    assert got == expected
    if style == "raw":
        assert got == grid.tobytes()
    else:
        np.testing.assert_array_equal(PARSERS[style](got.decode()), grid)


@pytest.mark.parametrize("style", ["ascii", "unicode", "blocks"])
def test_resumed_renderer_continues_seamlessly(style):
    grid = es.eller(9, 12, seed=8)
    one = es.TextRenderer(9, style)
    expected = one.start() + one.rows(grid[:-1]) + one.close(grid[-1])
    a = es.TextRenderer(9, style)
    first = a.start() + a.rows(grid[:5])
    b = es.TextRenderer(9, style, previous=grid[4])
    second = b.start() + b.rows(grid[5:-1]) + b.close(grid[-1])
    assert first + second == expected


def test_text_lines_is_lazy_and_complete():
    stream = es.EllerStream(6, seed=1)
    lines = es.text_rows(stream)
    head = [next(lines) for _ in range(5)]  # top border + two rows
    assert head[0] == "+--" * 6 + "+" and stream.rows_emitted <= 3
    rows = [*list(es.EllerStream(6, seed=2).take(4)), np.zeros(6, np.uint8)]
    text = "\n".join(es.text_rows(rows, "unicode")) + "\n"
    assert parse_unicode(text).shape == (5, 6)


def test_tiles_match_the_grid():
    grid = es.eller(7, 5, seed=3)
    t = es.tiles(grid)
    assert t.shape == (11, 15) and t.dtype == bool
    for y in range(5):
        for x in range(7):
            assert not t[2 * y + 1, 2 * x + 1]
            assert t[2 * y + 1, 2 * x + 2] == (not grid[y, x] & es.EAST)
            assert t[2 * y + 2, 2 * x + 1] == (not grid[y, x] & es.SOUTH)
    # the floor tiles of a perfect maze form a tree in the tile graph, too
    assert np.count_nonzero(~t) == 7 * 5 + (7 * 5 - 1)


def test_tile_rows_stream_a_window():
    stream = es.EllerStream(8, seed=5)
    rows = es.tile_rows(stream)
    window = [next(rows) for _ in range(21)]
    assert all(r.shape == (17,) for r in window)
    np.testing.assert_array_equal(np.array(window), es.tiles(es.EllerStream(8, seed=5).take(10)))


def test_read_raw_round_trip_and_errors():
    grid = es.eller(13, 50, seed=6)
    rows = list(es.read_raw(io.BytesIO(grid.tobytes()), 13, chunk_rows=7))
    np.testing.assert_array_equal(np.array(rows), grid)
    assert perfect_problems(np.array(rows)) == []
    assert list(es.read_raw(io.BytesIO(b""), 5)) == []
    with pytest.raises(ValueError, match="inside a row"):
        list(es.read_raw(io.BytesIO(grid.tobytes()[:-1]), 13))
    with pytest.raises(ValueError, match="flags"):
        list(es.read_raw(io.BytesIO(b"\x07\x00"), 2))
    with pytest.raises(TypeError, match="binary"):
        list(es.read_raw(io.StringIO("abc"), 3))
    with pytest.raises(ValueError, match="width"):
        list(es.read_raw(io.BytesIO(b""), 0))


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="style"):
        es.TextRenderer(4, "fancy")
    with pytest.raises(TypeError, match="grid"):
        es.tiles([[1, 2]])
    with pytest.raises(TypeError, match="grid"):
        es.text(np.zeros((2, 2), np.int64))
    with pytest.raises(ValueError, match="block"):
        es.TextRenderer(4).rows(np.zeros((2, 5), np.uint8))
    with pytest.raises(ValueError, match="style"):
        es.text(np.zeros((2, 2), np.uint8), "raw")


def test_tiles_without_the_top_edge_are_what_tile_rows_gives():
    grid = es.InfiniteMaze(9, band=4, seed=3).rows(5, 17)
    lazy = np.vstack(list(es.tile_rows(grid, top=False)))
    open_top = es.tiles(grid, top=False)
    assert open_top.shape == (2 * 12, 2 * 9 + 1) and np.array_equal(open_top, lazy)
    assert np.array_equal(es.tiles(grid)[1:], open_top) and es.tiles(grid)[0].all()
    assert not open_top[0, 1::2].any()  # row 5's cells sit on the first tile row


@pytest.mark.parametrize(
    ("style", "error"), [("fancy", ValueError), ("raw", ValueError), (["ascii"], TypeError)]
)
def test_text_names_only_the_text_styles(style, error):
    """``es.text(grid, "fancy")`` listed ``raw`` among the styles, which
    ``es.text`` then refused: the two messages disagreed."""
    grid = es.eller(5, 3, seed=1)
    for make in (lambda: es.text(grid, style), lambda: es.text_rows(grid, style)):  # at the call
        with pytest.raises(error, match="style must be") as info:
            make()
        assert "raw" not in str(info.value).replace(repr(style), "")
