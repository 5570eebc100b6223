"""``eller-stream render --chunk N``: a region of the plane as a PNG (streamed
in strips), an SVG, an infinite Tiled map and a Zarr store, its knobs the
options PlaneParams declares; every bad option one line and exit 2, nothing
written. The regions come from tests/naive_plane.py."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET

import naive_plane as npl
import numpy as np
import png
import pytest
from cli_support import one_error_line
from cli_support import run as cli
from test_image import expected_image, read_png
from test_plane_render import plane_tiles, read_map

import eller_stream as es
from eller_stream._plane_params import PlaneParams
from eller_stream.cli import render as render_cli

from naive import EAST, SOUTH


def inside(grid: np.ndarray) -> np.ndarray:
    """The region without its passages out (what a closed picture shows)."""
    out = grid.copy()
    out[:, -1] &= ~np.uint8(EAST)
    out[-1] &= ~np.uint8(SOUTH)
    return out


def description(path) -> str:
    for kind, data in png.Reader(filename=str(path)).chunks():
        if kind == b"tEXt" and data.startswith(b"Description\0"):
            return data.split(b"\0", 1)[1].decode("latin-1")
    raise AssertionError("no Description")


def test_a_png_of_a_region_is_its_picture_and_draws_itself_again(tmp_path):
    path = tmp_path / "p.png"
    args = ["--chunk", "4", "--seed", "11", "--start", "-9", "--rows", "15", "--left", str(2**62 - 13)]
    out = cli(
        "render", "-o", str(path), *args, "--width", "13", "--no-perfect", "--vertical", "0.25", "--cell", "3"
    )
    assert out.returncode == 0 and out.stderr == b"", out.stderr
    grid = npl.plane_region(4, 11, -9, 6, 2**62 - 13, 2**62, perfect=False, vertical=0.25)
    np.testing.assert_array_equal(read_png(path.read_bytes()), expected_image(inside(grid), 3, 2))
    said = description(path)
    assert (
        "--chunk 4 --start -9 --left 4611686018427387891 --no-perfect" in said and "--vertical 0.25" in said
    )
    again = tmp_path / "again.png"
    assert cli("render", "-o", str(again), *said.split()[2:]).returncode == 0
    assert again.read_bytes() == path.read_bytes()


def test_a_streamed_png_made_in_strips_is_the_whole_picture(tmp_path, monkeypatch):
    """Strips of whole chunk rows (here 6 rows: 2 chunks of 3), ending on
    the plane's chunk rows wherever the region starts, give the picture of
    the whole region."""
    monkeypatch.setattr(render_cli, "STRIP_CELLS", 50)
    calls: list[tuple[int, int]] = []
    region = es.Plane.region

    def recorded(plane, y0, y1, x0, x1):
        calls.append((y0, y1))
        return region(plane, y0, y1, x0, x1)

    monkeypatch.setattr(es.Plane, "region", recorded)
    path = tmp_path / "s.png"
    args = ["-o", str(path), "--chunk", "3", "--seed", "2", "--start", "-8", "--rows", "23", "--width", "7"]
    assert render_cli.main([*args, "--left", "-100", "--cell", "2", "--wall", "1"]) == 0
    grid = npl.plane_region(3, 2, -8, 15, -100, -93)
    np.testing.assert_array_equal(read_png(path.read_bytes()), expected_image(inside(grid), 2, 1))
    assert calls == [(-8, -3), (-3, 3), (3, 9), (9, 15)]  # the first to the end of its two chunk rows


FEW_ROWS = [(12, 5), (2, 5), (8, 8), (-3, 2), (2**62 - 20, 10), (2**62 - 2, 1)]


@pytest.mark.parametrize(("start", "rows"), FEW_ROWS)
def test_a_png_of_fewer_rows_than_a_chunk_starting_inside_one(tmp_path, start, rows):
    """A strip was the rows asked for, shorter than the chunk: from a row past
    that far into its chunk, the strip ended before it began (a traceback)."""
    path = tmp_path / "f.png"
    args = ["--chunk", "16", "--seed", "3", "--start", str(start), "--rows", str(rows), "--width", "3"]
    out = cli("render", "-o", str(path), *args, "--cell", "2", "--wall", "1")
    assert out.returncode == 0 and out.stderr == b"", out.stderr
    grid = npl.plane_region(16, 3, start, start + rows, 0, 3)
    np.testing.assert_array_equal(read_png(path.read_bytes()), expected_image(inside(grid), 2, 1))


def test_an_svg_of_a_region_draws_its_walls(tmp_path):
    path = tmp_path / "p.svg"
    out = cli("render", "-o", str(path), "--chunk", "5", "--seed", "1", "--start", "3", "--rows", "9",
              "--left", "-4", "--width", "11", "--horizontal", "0.8")  # fmt: skip
    assert out.returncode == 0, out.stderr
    grid = npl.plane_region(5, 1, 3, 12, -4, 7, horizontal=0.8)
    mine = re.sub(r"<metadata>.*</metadata>\n", "", path.read_text())
    assert mine == es.svg(inside(grid))  # the border closed, the inside the region's
    ET.fromstring(mine)


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
def test_a_tiled_map_of_a_region_is_infinite_at_absolute_tiles(tmp_path, ext):
    path = tmp_path / f"p.{ext}"
    out = cli("render", "-o", str(path), "--chunk", "4", "--seed", "6", "--start", "-40", "--rows", "20",
              "--left", str(-(2**29)), "--width", "24")  # fmt: skip
    assert out.returncode == 0, out.stderr
    grid = npl.plane_region(4, 6, -40, -20, -(2**29), -(2**29) + 24)
    tiles, tiled_map = read_map(path)
    assert tiles == plane_tiles(grid, -40, -(2**29))
    assert (
        tiled_map.properties["first_column"] == -(2**29)
        and "--chunk 4" in tiled_map.properties["description"]
    )


def test_endpoints_of_a_block_of_level_1(tmp_path):
    plane = es.Plane(chunk=3, seed=4)
    y0, x0, size = plane.block(1, -50, 70)
    path = tmp_path / "b.png"
    region = ["--start", str(y0), "--left", str(x0), "--rows", str(size), "--width", str(size)]
    out = cli(
        "render",
        "-o",
        str(path),
        "--chunk",
        "3",
        "--seed",
        "4",
        *region,
        "--solution",
        "--cell",
        "2",
        "--wall",
        "1",
    )
    assert out.returncode == 0, out.stderr
    grid = inside(plane.region(y0, y0 + size, x0, x0 + size))
    (sy, sx), (ey, ex) = es.suggest_endpoints(grid)
    way = es.solve(grid, (sy, sx), (ey, ex))
    np.testing.assert_array_equal(read_png(path.read_bytes()), expected_image(grid, 2, 1, sx, ex, way))


def test_a_zarr_store_of_a_region(tmp_path):
    zarr = pytest.importorskip("zarr", reason="the [dask] extra is not installed")
    pytest.importorskip("dask.array")
    path = tmp_path / "p.zarr"
    region = ["--start", str(-(2**62)), "--rows", "40", "--left", "17", "--width", "50"]
    out = cli("render", "-o", str(path), "--chunk", "6", "--seed", "3", *region, "--no-perfect")
    assert out.returncode == 0 and out.stderr == b"", out.stderr
    plane, *bounds = es.read_zarr_plane(path)
    assert plane == es.Plane(6, 3, perfect=False) and bounds == [-(2**62), -(2**62) + 40, 17, 67]
    expect = npl.plane_region(6, 3, -(2**62), -(2**62) + 40, 17, 67, perfect=False)
    np.testing.assert_array_equal(zarr.open_array(str(path), mode="r")[:], expect)


def test_the_knob_options_follow_plane_params():
    """Every PlaneParams knob is an option (a flag: --NAME/--no-NAME), with
    its declared help; none is written by hand."""
    text = render_cli.parser().format_help()
    for name in PlaneParams.names():
        if PlaneParams.kind(name) is bool:
            assert f"--{name}, --no-{name}" in text
        else:
            assert f"--{name}" in text
    assert "one tree (true) or perfect chunks" in text


@pytest.mark.parametrize(
    "args, words",
    [
        (["--left", "5"], "--left needs --chunk"),
        (["--start", "5"], "--start needs --band or --chunk"),
        (["--no-perfect"], "--no-perfect needs --chunk"),
        (["--perfect"], "--perfect needs --chunk"),
        (["--chunk", "4", "--band", "8"], "--chunk draws the plane, --band the banded maze"),
        (["--chunk", "4", "--algorithm", "backtracker"], "--chunk draws the plane: it takes no --algorithm"),
        (["--chunk", "4", "--loops", "0.5"], "--loops needs --band"),
        (["--chunk", "0"], "--chunk: chunk must be in [1, 1024], got 0"),
        (["--chunk", "1025"], "--chunk: chunk must be in [1, 1024]"),
        (["--chunk", "4", "--horizontal", "2"], "--horizontal: horizontal must be in [0, 1]"),
        (["--chunk", "4", "--left", str(2**62)], "--left: left must be in"),
        (["--chunk", "4", "--start", str(-(2**62) - 1)], "--start -4611686018427387905 and --rows 30"),
        (["--chunk", "4", "--start", str(2**62 - 29)], "the plane's rows and columns are in [-2**62, 2**62)"),
        (["--chunk", "4", "--left", str(2**62 - 39)], "--left 4611686018427387865 and --width 40"),
        (
            ["--chunk", "1024", "--rows", "1", "--width", str(2**21), "--cell", "1", "--wall", "1"],
            "more than 2147483648",
        ),
        (  # a strip of one row, the last of a chunk row, makes the next chunk row too: was a traceback
            ["--chunk", "1024", "--start", "1023", "--rows", "1", "--width", "1500000", "--cell", "1"],
            "makes 3072327680 cells of the plane at a time",
        ),
        (
            ["--chunk", "4", "--start", "12", "--rows", "4", "--left", "-16", "--width", "12", "--endpoints"],
            "--endpoints: this region of the plane",
        ),
    ],
)
def test_bad_plane_options_exit_2_with_one_line(tmp_path, args, words):
    out = cli("render", "-o", str(tmp_path / "p.png"), "--seed", "1", *args)
    assert out.returncode == 2 and words in one_error_line(out.stderr), out.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
def test_a_map_past_tileds_coordinates_exits_2(tmp_path, ext):
    out = cli(
        "render", "-o", str(tmp_path / f"p.{ext}"), "--chunk", "4", "--left", str(2**30), "--width", "4"
    )
    assert out.returncode == 2 and "--left: the map's chunks of columns 1073741824" in one_error_line(
        out.stderr
    )
    assert os.listdir(tmp_path) == []
    # the same region as a picture: no such limit
    assert cli("render", "-o", str(tmp_path / "p.png"), "--chunk", "4", "--left", str(2**30)).returncode == 0


def test_the_readmes_command_draws_the_readmes_pictures(tmp_path):
    """The plane section of README.md shows docs/plane.png and
    docs/plane_local.png and the command that draws them (the second with
    --no-perfect): the command's pixels are the pictures'."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    readme = open(os.path.join(root, "README.md")).read()
    section = readme[readme.index("## A plane, endless every way") : readme.index("## Making a game")]
    assert "](docs/plane.png)" in section and "](docs/plane_local.png)" in section
    (command,) = re.findall(r"^eller-stream render -o plane\.png (--chunk .*)$", section, re.M)
    for extra, picture in (([], "plane.png"), (["--no-perfect"], "plane_local.png")):
        path = tmp_path / picture
        assert cli("render", "-o", str(path), *command.split(), *extra).returncode == 0
        shown = read_png(open(os.path.join(root, "docs", picture), "rb").read())
        np.testing.assert_array_equal(read_png(path.read_bytes()), shown)
