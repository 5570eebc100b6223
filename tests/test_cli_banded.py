"""The eller-stream command with --band/--start: the banded maze from any
row, saved and resumed, drawn, and refused with one line when asked wrong."""

from __future__ import annotations

import numpy as np
import png
import pytest
from cli_support import raw_rows as raw
from cli_support import run as cli

import eller_stream as es

from naive import parse_ascii, perfect_problems


@pytest.mark.parametrize("start", [-1000, 0, 10**12, -(2**63), 2**63 - 1 - 40])
def test_band_and_start_stream_the_banded_maze(start):
    grid = raw("--band", "8", "--start", str(start), "--rows", "41", "--seed", "5", width=30)
    maze = es.InfiniteMaze(30, band=8, seed=5)
    np.testing.assert_array_equal(grid[:-1], maze.rows(start, start + 40))
    stream = maze.stream(start)
    stream.take(40)
    np.testing.assert_array_equal(grid[-1], stream.finish())
    if start % 8 == 0:  # from a band's first row: a perfect maze
        assert perfect_problems(grid) == []


def test_text_styles_draw_the_banded_maze():
    out = cli(
        "--band", "4", "--start", "-8", "--rows", "12", "--seed", "2", "--width", "9", "--style", "ascii"
    )
    assert out.returncode == 0, out.stderr
    grid = parse_ascii(out.stdout.decode())
    assert perfect_problems(grid) == []
    np.testing.assert_array_equal(grid[:-1], es.InfiniteMaze(9, 4, 2).rows(-8, 3))


def test_banded_save_and_resume_equal_one_stream(tmp_path):
    state = str(tmp_path / "s.bin")
    first = raw(
        "--band", "6", "--start", "-12", "--rows", "20", "--seed", "1", "--save-state", state, width=11
    )
    second = raw("--resume", state, "--rows", "15", width=11)
    stream = es.InfiniteMaze(11, band=6, seed=1).stream(-12)
    np.testing.assert_array_equal(np.vstack([first, second[:-1]]), stream.take(34))
    np.testing.assert_array_equal(second[-1], stream.finish())
    again = raw("--resume", state, "--rows", "15", "--band", "6", width=11)  # agreeing options are fine
    np.testing.assert_array_equal(again, second)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--start", "5"], "--start needs --band"),
        (["--doors", "0.5"], "--doors needs --band"),
        (["--band", "1"], "--band"),
        (["--band", "2.5"], "--band"),
        (["--band", "x"], "--band"),
        (["--band", "4", "--doors", "0"], "--doors"),
        (["--band", "4", "--doors", "1.5"], "--doors"),
        (["--band", "4", "--doors", "nan"], "--doors"),
        (["--band", "4", "--start", "1.5"], "--start"),
        (["--band", "4", "--start", str(2**63)], "--start"),
    ],
)
def test_bad_banded_arguments_exit_2_with_one_line(args, words):
    out = cli(*args, "--rows", "3")
    assert out.returncode == 2
    assert out.stdout == b""
    lines = out.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("eller-stream: error: ") and words in lines[0]


def test_resume_refuses_a_start_or_another_band(tmp_path):
    state = str(tmp_path / "s.bin")
    raw("--band", "6", "--rows", "5", "--seed", "1", "--save-state", state, width=7)
    for args, words in ((["--start", "3"], "--start"), (["--band", "7"], "--band 7 disagrees")):
        out = cli("--resume", state, *args)
        assert out.returncode == 2 and words in out.stderr.decode() and len(out.stderr.splitlines()) == 1


@pytest.mark.parametrize("ext", [".png", ".svg"])
def test_render_draws_the_banded_maze(tmp_path, ext):
    path = str(tmp_path / f"m{ext}")
    out = cli("render", "-o", path, "--band", "5", "--start", "-10", "--width", "12", "--rows", "20",
              "--seed", "4", "--cell", "3", "--wall", "1")  # fmt: skip
    assert out.returncode == 0, out.stderr
    stream = es.InfiniteMaze(12, band=5, seed=4).stream(-10)
    grid = np.vstack([stream.take(19), stream.finish()[None]])
    assert perfect_problems(grid) == []
    expected = str(tmp_path / f"e{ext}")
    es.write_image(expected, grid, cell=3, wall=1)
    if ext == ".png":
        assert list(png.Reader(filename=path).read()[2]) == list(png.Reader(filename=expected).read()[2])
    else:
        drawn = open(path).read()
        assert "--band 5 --start -10" in drawn  # the parameters that draw it again
        drawn = "".join(line for line in drawn.splitlines(True) if not line.startswith("<metadata>"))
        assert drawn == open(expected).read()


def test_render_refuses_band_with_another_algorithm(tmp_path):
    out = cli("render", "-o", str(tmp_path / "m.png"), "--band", "5", "--algorithm", "backtracker")
    assert out.returncode == 2 and b"--band" in out.stderr and len(out.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--band", "9999999999999999999999"], "--band"),
        (["--band", "4", "--doors", "2"], "--doors"),
        (["--band", "4", "--start", "1e3"], "--start"),
        (["--width", "0"], "--width"),
        (["--seed", "-1"], "--seed"),
    ],
)
def test_every_error_names_the_option_typed(args, option):
    """Before, a --band too large for the library was blamed on --doors."""
    out = cli(*args, "--rows", "3")
    lines = out.stderr.decode().splitlines()
    assert out.returncode == 2 and len(lines) == 1, lines
    assert lines[0].startswith(f"eller-stream: error: {option}: "), lines
    others = {"--band", "--doors", "--start", "--width", "--seed"} - {option}
    assert not any(other in lines[0] for other in others), lines
