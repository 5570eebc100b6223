"""PNG and SVG pictures, read back and checked pixel by pixel; tcod interop."""

from __future__ import annotations

import io
import os
import re
import subprocess
import tracemalloc
import xml.etree.ElementTree as ET
from pathlib import Path
from unittest import mock

import cli_support
import numpy as np
import png
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import eller_stream as es
from eller_stream import _pixels

from naive import EAST, SOUTH

FLOOR, WALL, PATH = 0, 1, 2


def read_png(data: bytes) -> np.ndarray:
    _w, _h, rows, info = png.Reader(bytes=data).read()
    assert info["palette"][:3] == [(255, 255, 255), (24, 24, 32), (220, 40, 40)]
    return np.array([list(r) for r in rows], np.uint8)


def expected_image(grid, cell, wall, start=None, end=None, path=None):
    """The picture, painted the slow way: walls everywhere, then each cell,
    each open passage, the openings and the path."""
    h, w = grid.shape
    p = cell + wall
    img = np.full((h * cell + (h + 1) * wall, w * cell + (w + 1) * wall), WALL, np.uint8)

    def box(y, x):  # pixel slices of cell (y, x)
        return slice(wall + y * p, wall + y * p + cell), slice(wall + x * p, wall + x * p + cell)

    on = set() if path is None else {tuple(c) for c in path.tolist()}
    for y in range(h):
        for x in range(w):
            ys, xs = box(y, x)
            img[ys, xs] = PATH if (y, x) in on else FLOOR
            if grid[y, x] & EAST:
                both = (y, x) in on and (y, x + 1) in on
                img[ys, xs.stop : xs.stop + wall] = PATH if both else FLOOR
            if grid[y, x] & SOUTH:
                both = (y, x) in on and (y + 1, x) in on
                img[ys.stop : ys.stop + wall, xs] = PATH if both else FLOOR
    colour = FLOOR if path is None else PATH
    if start is not None:
        img[:wall, box(0, start)[1]] = colour
    if end is not None:
        img[-wall:, box(h - 1, end)[1]] = colour
    return img


@pytest.mark.parametrize(
    ("w", "h", "cell", "wall"),
    [
        (1, 1, 1, 1),
        (7, 5, 3, 1),
        (12, 9, 4, 2),
        # wall=0 drew a blank picture; it is refused since issue 15 (tests/test_hostile_edges.py)
        pytest.param(2, 11, 1, 0, marks=pytest.mark.xfail(raises=ValueError, strict=True)),
    ],
)
def test_png_pixels_match_the_grid(w, h, cell, wall):
    grid = es.eller(w, h, seed=w * h)
    buf = io.BytesIO()
    es.write_png(buf, grid, cell=cell, wall=wall)
    np.testing.assert_array_equal(read_png(buf.getvalue()), expected_image(grid, cell, wall))


@pytest.mark.parametrize("algorithm", ["eller", "backtracker", "growing-tree"])
def test_png_endpoints_and_solution(tmp_path, algorithm):
    make = {"eller": es.eller, "backtracker": es.backtracker, "growing-tree": es.growing_tree}[algorithm]
    grid = make(15, 10, seed=3)
    (_, sx), (_, ex) = es.suggest_endpoints(grid)
    path = es.solve(grid, (0, sx), (9, ex))
    target = tmp_path / "m.png"
    es.write_image(target, grid, cell=4, wall=2, solution=True)
    img = read_png(target.read_bytes())
    np.testing.assert_array_equal(img, expected_image(grid, 4, 2, sx, ex, path))
    # the solution colour covers exactly the path: its cells, passages and two openings
    assert np.count_nonzero(img == PATH) == len(path) * 16 + (len(path) - 1) * 8 + 2 * 8
    es.write_image(target, grid, cell=4, wall=2, endpoints=True)
    img = read_png(target.read_bytes())
    assert not (img == PATH).any()
    np.testing.assert_array_equal(img, expected_image(grid, 4, 2, sx, ex))
    assert (img[0] == FLOOR).sum() == 4 and (img[-1] == FLOOR).sum() == 4  # one opening each


def test_streamed_png_equals_whole_grid_png():
    stream = es.EllerStream(33, seed=5)
    rows = (stream.finish() if i == 79 else next(stream) for i in range(80))
    streamed = io.BytesIO()
    es.write_png(streamed, rows, width=33, height=80, cell=3, wall=1)
    whole = io.BytesIO()
    es.write_png(whole, es.eller(33, 80, seed=5), cell=3, wall=1)
    assert streamed.getvalue() == whole.getvalue()


class Sink:
    """A file that keeps nothing, so that only the rendering's memory counts."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, data: bytes) -> int:
        self.size += len(data)
        return len(data)


def peak_streaming(height: int) -> tuple[int, int]:
    stream = es.EllerStream(100, seed=1)
    rows = (stream.finish() if i == height - 1 else next(stream) for i in range(height))
    sink = Sink()
    tracemalloc.start()
    es.write_png(sink, rows, width=100, height=height, cell=2, wall=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, sink.size


@pytest.mark.slow
def test_streamed_png_memory_does_not_grow_with_height():
    small, _ = peak_streaming(4000)
    tall, written = peak_streaming(40000)
    image_bytes = (2 * 100 + 101) * (3 * 40000 + 1) // 4  # the 2-bit image, uncompressed
    assert tall < small + 64 * 1024, (small, tall)
    assert tall < image_bytes / 4 and written > 0


@settings(max_examples=60, deadline=None)
@given(
    w=st.integers(1, 12),
    h=st.integers(1, 12),
    cell=st.integers(1, 4),
    wall=st.integers(1, 3),
    seed=st.integers(0, 2**64 - 1),
    block=st.sampled_from([1, 60, 1 << 18]),
    marks=st.sampled_from(["none", "endpoints", "path"]),
)
def test_a_picture_drawn_in_blocks_of_any_size_is_the_picture(w, h, cell, wall, seed, block, marks):
    # the pixel rows are drawn many maze rows at a time (_pixels.BLOCK_PIXELS, here down to a maze
    # row a block): the wall under a block's last row waits for the next block, the last one is the
    # bottom wall; from a grid and from rows one at a time, packed into a PNG and as bytes
    grid = es.backtracker(w, h, seed=seed)
    start = end = path = None
    if marks != "none":
        (_, start), (_, end) = es.suggest_endpoints(grid)
        if marks == "path":
            path = es.solve(grid, (0, start), (h - 1, end))
    want = expected_image(grid, cell, wall, start, end, path)
    kw = {"cell": cell, "wall": wall, "start": start, "end": end, "path": path}
    with mock.patch.object(_pixels, "BLOCK_PIXELS", block):
        for rows in (grid, iter(grid)):
            buf = io.BytesIO()
            es.write_png(buf, rows, width=w, height=h, **kw)
            np.testing.assert_array_equal(read_png(buf.getvalue()), want)
        lines = list(es.png_rows(iter(grid), w, height=h, **kw))
    np.testing.assert_array_equal(np.array([list(line) for line in lines], np.uint8), want)


def test_png_row_count_must_match():
    with pytest.raises(ValueError, match="rows"):
        es.write_png(io.BytesIO(), iter(es.eller(5, 4, seed=1)), width=5, height=5)
    with pytest.raises(ValueError, match="height"):
        es.write_png(io.BytesIO(), iter(es.eller(5, 4, seed=1)), width=5)
    with pytest.raises(ValueError, match="cell"):
        es.write_png(io.BytesIO(), es.eller(5, 4, seed=1), cell=0)
    with pytest.raises(ValueError, match="path"):
        es.write_png(io.BytesIO(), es.eller(5, 4, seed=1), path=np.array([[0, 0], [1, 1]]))
    with pytest.raises(ValueError, match=r"png or \.svg"):
        es.write_image("maze.gif", es.eller(5, 4, seed=1))


def svg_walls(text: str) -> set[tuple]:
    """Unit wall segments drawn by the SVG's wall path, in cell coordinates."""
    root = ET.fromstring(text)
    ns = {"s": "http://www.w3.org/2000/svg"}
    d = root.find("s:path", ns).get("d")
    pitch = 5  # cell 4 + wall 1
    segments = set()
    for x, y, kind, to in re.findall(r"M([\d.]+) ([\d.]+)([HV])([\d.]+)", d):
        x, y, to = float(x), float(y), float(to)
        if kind == "H":
            line = round((y - 0.5) / pitch)
            for c in range(round(x / pitch), round((to - 1) / pitch)):
                segments.add(("h", line, c))
        else:
            line = round((x - 0.5) / pitch)
            for c in range(round(y / pitch), round((to - 1) / pitch)):
                segments.add(("v", line, c))
    return segments


def test_svg_parses_and_draws_the_grid_walls():
    grid = es.growing_tree(9, 7, "random", seed=2)
    (_, sx), (_, ex) = es.suggest_endpoints(grid)
    path = es.solve(grid, (0, sx), (6, ex))
    text = es.svg(grid, cell=4, wall=1, start=sx, end=ex, path=path)
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    expected = set()
    for i in range(8):  # horizontal lines
        for x in range(9):
            if i in (0, 7):
                opening = (i == 0 and x == sx) or (i == 7 and x == ex)
                if not opening:
                    expected.add(("h", i, x))
            elif not grid[i - 1, x] & SOUTH:
                expected.add(("h", i, x))
    for j in range(10):
        for y in range(7):
            if j in (0, 9) or not grid[y, j - 1] & EAST:
                expected.add(("v", j, y))
    assert svg_walls(text) == expected
    points = root.find("{http://www.w3.org/2000/svg}polyline").get("points").split()
    assert len(points) == len(path) + 2


def test_tcod_pathfinding_agrees_with_solve():
    tcod_path = pytest.importorskip("tcod.path")
    for make in (lambda: es.eller(30, 20, seed=4), lambda: es.backtracker(30, 20, seed=4)):
        grid = make()
        tiles = es.tiles(grid)
        cost = (~tiles).astype(np.int32)  # floor 1, wall 0 (blocked)
        (sy, sx), (ey, ex) = es.suggest_endpoints(grid)
        ours = es.solve(grid, (sy, sx), (ey, ex))
        theirs = tcod_path.path2d(
            cost,
            start_points=[(2 * sy + 1, 2 * sx + 1)],
            end_points=[(2 * ey + 1, 2 * ex + 1)],
            cardinal=1,
            diagonal=0,
        )
        assert len(theirs) == 2 * (len(ours) - 1) + 1
        np.testing.assert_array_equal(theirs[::2], 2 * ours + 1)  # the same cells, in order


def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return cli_support.run(*args)


def test_cli_render_png_and_svg(tmp_path):
    out = cli(
        "render", "-o", str(tmp_path / "a.png"), "--width", "12", "--rows", "8", "--seed", "7", "--cell", "3"
    )
    assert out.returncode == 0 and out.stderr == b"" and out.stdout == b""
    img = read_png((tmp_path / "a.png").read_bytes())
    np.testing.assert_array_equal(img, expected_image(es.eller(12, 8, seed=7), 3, 2))
    out = cli("render", "-o", str(tmp_path / "b.png"), "--algorithm", "growing-tree", "--strategy", "random",
              "--width", "12", "--rows", "8", "--seed", "7", "--solution")  # fmt: skip
    assert out.returncode == 0
    img = read_png((tmp_path / "b.png").read_bytes())
    assert (img == PATH).any() and (img[0] == PATH).any() and (img[-1] == PATH).any()
    out = cli(
        "render", "-o", str(tmp_path / "c.svg"), "--algorithm", "backtracker", "--endpoints", "--seed", "1"
    )
    assert out.returncode == 0
    ET.parse(tmp_path / "c.svg")


@pytest.mark.parametrize(
    "args",
    [
        ["-o", "maze.gif"],
        ["-o", "/nonexistent/dir/m.png"],
        ["-o", "m.png", "--width", "0"],
        ["-o", "m.png", "--cell", "0"],
        ["-o", "m.png", "--algorithm", "prim"],
        ["-o", "m.png", "--algorithm", "growing-tree", "--strategy", "sideways"],
        [],
    ],
)
def test_cli_render_bad_arguments(tmp_path, args):
    out = cli_support.run("render", *args, cwd=tmp_path, timeout=60)
    assert out.returncode == 2 and out.stdout == b""
    assert len(out.stderr.decode().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_progress_bar(capsys):
    from eller_stream.cli.render import Progress as _Progress

    bar = _Progress()
    bar(1, 10)
    bar(10, 10)
    err = capsys.readouterr().err
    assert "rendering [" in err and "100%" in err and err.endswith("\n")


def test_svg_description_holds_what_xml_can_and_refuses_the_rest():
    grid = es.eller(3, 2, seed=1)
    text = "a\tb\nc\rd\r\ne\x7f\x85 &<>\"' ]]>\U0010ffff"
    metadata = ET.fromstring(es.svg(grid, description=text)).find("{http://www.w3.org/2000/svg}metadata")
    assert metadata is not None and metadata.text == text  # CR too: not turned into LF by the parser
    for bad in ("\x00", "\x01", "\x1f", "\ud800", "\ufffe", "\uffff"):
        with pytest.raises(ValueError, match=f"description has U\\+{ord(bad):04X} at index 1"):
            es.svg(grid, description=f"a{bad}")


def test_the_pictures_guide_runs(tmp_path, monkeypatch, capsys):
    """docs/pictures.md's example, as it is written there."""
    guide = (Path(__file__).resolve().parents[1] / "docs" / "pictures.md").read_text()
    code = guide[guide.index("```python\n") + 10 : guide.index("```\n", guide.index("```python"))]
    monkeypatch.chdir(tmp_path)
    names: dict[str, object] = {}
    exec(code, names)
    assert sorted(os.listdir(tmp_path)) == ["maze.svg", "tall.png"]
    assert len(names["rows"]) == 4 and names["walls"].shape == (9, 17)
    assert capsys.readouterr().out.startswith(es.text(names["grid"], "unicode"))
