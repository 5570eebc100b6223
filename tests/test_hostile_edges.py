"""Library edges of issue 15: huge and numpy numbers, empty grids, strict
JSON, wall=0, and endpoints as (y, x) cells."""

from __future__ import annotations

import io
import json
import re
from fractions import Fraction

import numpy as np
import pytest
from test_image import expected_image, read_png

import eller_stream as es
from eller_stream import cli

# -- numbers too big for a float ------------------------------------------------

HUGE = [10**400, -(10**400), Fraction(10**400, 3), 2**1024]
HUGE_IDS = ["10**400", "-10**400", "Fraction(10**400, 3)", "2**1024"]


@pytest.mark.parametrize("value", HUGE, ids=HUGE_IDS)
@pytest.mark.parametrize("name", ["horizontal", "vertical"])
def test_huge_probability_is_a_value_error_naming_it(name, value):
    with pytest.raises(ValueError, match=name):
        es.EllerStream(4, seed=1, **{name: value})
    with pytest.raises(ValueError, match=name):
        es.eller(4, 3, 1, **{name: value})


@pytest.mark.parametrize("value", [10**400, -(10**400), 2**1024], ids=["10**400", "-10**400", "2**1024"])
def test_huge_strategy_weight_is_a_value_error_naming_it(value):
    with pytest.raises(ValueError, match="strategy weight of 'newest'"):
        es.growing_tree(5, 5, strategy={"newest": value, "random": 1.0}, seed=1)


# -- numpy numbers are numbers ---------------------------------------------------


@pytest.mark.parametrize(
    ("numpy_strategy", "plain"),
    [
        ({"middle": np.int64(3)}, {"middle": 3}),
        ({"newest": np.int32(9), "random": np.uint8(1)}, {"newest": 9, "random": 1}),
        ({"newest": np.float32(0.5), "oldest": np.float64(0.5)}, {"newest": 0.5, "oldest": 0.5}),
        ({"oldest": np.int16(6), "random": np.float16(4)}, {"oldest": 6, "random": 4}),
        ({"random": np.uint64(2**63)}, {"random": 1}),
        ({"newest": Fraction(1, 3), "middle": Fraction(2, 3)}, {"newest": 1 / 3, "middle": 2 / 3}),
    ],
)
def test_strategy_weights_may_be_numpy_numbers(numpy_strategy, plain):
    grid = es.growing_tree(9, 7, strategy=numpy_strategy, seed=5)
    np.testing.assert_array_equal(grid, es.growing_tree(9, 7, strategy=plain, seed=5))
    assert es.is_perfect(grid)


@pytest.mark.parametrize("weight", [np.bool_(True), True, "3", None, np.float64("nan"), -1, np.int8(-2)])
def test_strategy_weights_that_are_not_numbers_are_refused(weight):
    with pytest.raises(ValueError, match="strategy weight of 'middle'"):
        es.growing_tree(4, 4, strategy={"middle": weight, "newest": 1})


def test_int_arguments_take_numpy_ints():
    width, height, seed = np.int64(6), np.int32(4), np.uint64(7)
    assert (es.growing_tree(width, height, "random", seed) == es.growing_tree(6, 4, "random", 7)).all()
    assert (es.backtracker(np.uint16(6), height, seed) == es.backtracker(6, 4, seed=7)).all()
    assert (es.eller(np.int8(6), height, seed) == es.eller(6, 4, 7)).all()
    stream = es.EllerStream(np.int16(5), seed=np.int64(3))
    assert stream.take(np.int64(3)).shape == (3, 5)
    grid = es.eller(6, 4, 7)
    path = es.solve(grid, (np.int64(0), np.int64(0)), np.array([3, 5]))
    assert path[-1].tolist() == [3, 5]
    buf = io.BytesIO()
    es.write_png(buf, grid, cell=np.int64(3), wall=np.uint8(1), start=np.int64(1))
    assert read_png(buf.getvalue()).shape == (4 * 3 + 5, 6 * 3 + 7)


# -- an empty grid ----------------------------------------------------------------


@pytest.mark.parametrize("width", [1, 2, 5])
@pytest.mark.parametrize("style", ["ascii", "unicode", "blocks"])
def test_render_text_of_no_rows(style, width):
    """A 0-row grid draws one wall line, as wide as the maze's lines."""
    empty = np.zeros((0, width), np.uint8)
    text = es.text(empty, style)
    assert text.count("\n") == 1 and text.endswith("\n")
    full = es.text(es.eller(width, 3, seed=1), style)
    assert len(text) == len(full.splitlines()[0]) + 1
    assert text.strip(" \n") == text.rstrip("\n")  # no gap: a whole line of wall
    assert list(es.text_rows([empty], style)) == [text[:-1]]


@pytest.mark.parametrize("style", ["ascii", "unicode", "blocks", "raw"])
def test_an_empty_block_inside_a_stream_changes_nothing(style):
    grid = es.eller(4, 5, seed=2)
    plain = es.TextRenderer(4, style)
    expected = plain.start() + plain.rows(grid[:2]) + plain.rows(grid[2:4]) + plain.close(grid[4])
    r = es.TextRenderer(4, style)
    empty = np.zeros((0, 4), np.uint8)
    got = r.start() + r.rows(empty) + r.rows(grid[:2]) + r.rows(empty) + r.rows(grid[2:4]) + r.close(grid[4])
    assert got == expected


# -- strict JSON -----------------------------------------------------------------


def _strict(text: str) -> object:
    def refuse(constant: str) -> None:
        raise ValueError(f"not strict JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_compare_json_is_strict(capsys):
    """A single row has no SOUTH passage: the ratio EAST/SOUTH is infinite,
    and is written null."""
    status = cli.main(["compare", "--width", "5", "--height", "1", "--seeds", "1", "--json",
                       "--algorithm", "backtracker", "--algorithm", "eller"])  # fmt: skip
    assert status == 0
    rows = _strict(capsys.readouterr().out)
    assert [row["horizontal_vertical_ratio"] for row in rows] == [None, None]
    assert [row["passages"] for row in rows] == [4.0, 4.0]


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_to_json_writes_null_for_what_is_not_finite(value):
    from eller_stream._compare import to_json

    assert _strict(to_json([{"a": value, "b": 1.5, "c": "x"}])) == [{"a": None, "b": 1.5, "c": "x"}]


# -- wall=0 ------------------------------------------------------------------------


def test_wall_zero_is_refused_naming_wall():
    grid = es.eller(3, 2, seed=1)
    with pytest.raises(ValueError, match="wall"):
        es.write_png(io.BytesIO(), grid, wall=0)
    with pytest.raises(ValueError, match="wall"):
        es.svg(grid, wall=0)
    with pytest.raises(ValueError, match="wall"):
        next(es.png_rows(grid, 3, wall=0))
    with pytest.raises(ValueError, match="wall"):
        es.write_image("never.png", grid, wall=0)


def test_cli_wall_zero_is_a_usage_error(tmp_path, capsys):
    target = tmp_path / "m.png"
    argv = ["render", "-o", str(target), "--width", "4", "--rows", "3", "--seed", "1", "--wall", "0"]
    status = cli.main(argv)
    err = capsys.readouterr().err
    assert status == 2
    assert re.fullmatch(r"eller-stream: error: --wall: .*\n", err), err
    assert not target.exists()


# -- endpoints as (y, x) cells -----------------------------------------------------


@pytest.mark.parametrize("algorithm", ["eller", "backtracker", "growing_tree"])
def test_png_and_svg_take_what_suggest_endpoints_returns(algorithm):
    grid = {"eller": es.eller, "backtracker": es.backtracker, "growing_tree": es.growing_tree}[algorithm](
        7, 5, seed=3
    )
    start, end = es.suggest_endpoints(grid)
    path = es.solve(grid, start, end)
    for kwargs in ({}, {"path": path}):
        cells, columns = io.BytesIO(), io.BytesIO()
        es.write_png(cells, grid, cell=3, wall=1, start=start, end=end, **kwargs)
        es.write_png(columns, grid, cell=3, wall=1, start=start[1], end=end[1], **kwargs)
        pixels = read_png(cells.getvalue())
        np.testing.assert_array_equal(pixels, read_png(columns.getvalue()))
        expected = expected_image(grid, 3, 1, start[1], end[1], kwargs.get("path"))
        np.testing.assert_array_equal(pixels, expected)
        assert es.svg(grid, cell=3, wall=1, start=start, end=end, **kwargs) == es.svg(
            grid, cell=3, wall=1, start=start[1], end=end[1], **kwargs
        )
    as_arrays = es.svg(grid, cell=3, wall=1, start=np.array(start), end=np.array(end))
    assert as_arrays == es.svg(grid, cell=3, wall=1, start=start[1], end=end[1])


@pytest.mark.parametrize(
    ("start", "end", "name", "error"),
    [
        ((1, 2), None, "start", ValueError),  # not on the top row
        (None, (0, 2), "end", ValueError),  # not on the bottom row
        ((0, 7), None, "start", ValueError),  # x out of the grid
        (None, (4, -1), "end", ValueError),
        ((0,), None, "start", TypeError),
        (None, (4, 1, 1), "end", TypeError),
        ((0, "1"), None, "start", TypeError),
        (None, (4.0, 1), "end", TypeError),
    ],
)
def test_endpoints_off_their_edge_are_refused(start, end, name, error):
    grid = es.eller(7, 5, seed=1)
    with pytest.raises(error, match=re.escape(name)):
        es.write_png(io.BytesIO(), grid, start=start, end=end)
    with pytest.raises(error, match=re.escape(name)):
        es.svg(grid, start=start, end=end)


@pytest.mark.parametrize(
    "fill",
    [
        lambda out: es.InfiniteMaze(7, band=4, seed=2).rows(-3, 6, out=out),
        lambda out: es.InfiniteMaze(7, band=4, seed=2, loops=0.5, rooms=0.3).rows(-3, 6, out=out),
        lambda out: es.EllerStream(7, 2).take(9, out=out),
        lambda out: es.backtracker(7, 9, seed=2, out=out),
        lambda out: es.growing_tree(7, 9, seed=2, out=out),
    ],
    ids=["rows", "level-rows", "take", "backtracker", "growing_tree"],
)
@pytest.mark.parametrize("kind", ["matrix", "memmap"])
@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_an_ndarray_subclass_as_out_is_filled_like_an_array(fill, kind, tmp_path):
    """``out=np.asmatrix(...)`` raised IndexError (issue 32): a subclass of the
    right shape and dtype is filled exactly as a plain array is."""
    if kind == "matrix":
        out = np.asmatrix(np.zeros((9, 7), np.uint8))
    else:
        out = np.memmap(tmp_path / "m.bin", np.uint8, mode="w+", shape=(9, 7))
    got = fill(out)
    assert got is out
    np.testing.assert_array_equal(np.asarray(out), fill(np.zeros((9, 7), np.uint8)))
