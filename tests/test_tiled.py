"""Tiled maps (es.write_tiled, eller-stream render -o *.tmj/*.tmx), read back
by pytiled-parser and pytmx: the wall tiles are es.tiles of the grid, the
objects land on their cells, infinite maps keep absolute tile rows."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import cli_support
import numpy as np
import pytest

import eller_stream as es

pytiled_parser = pytest.importorskip("pytiled_parser")
pytmx = pytest.importorskip("pytmx")

TILE = 8


def walls_of(tiled_map) -> dict[int, bool]:
    """gid -> whether that tile is a wall, by the tiles' ``wall`` property."""
    out = {0: False}
    for firstgid, tileset in tiled_map.tilesets.items():
        for tile_id, tile in tileset.tiles.items():
            out[firstgid + tile_id] = bool(tile.properties["wall"])
    return out


def pytiled_walls(path: pathlib.Path) -> tuple[np.ndarray, object]:
    tiled_map = pytiled_parser.parse_map(path)
    layer = tiled_map.layers[0]
    assert layer.name == "maze" and not tiled_map.infinite
    lookup = walls_of(tiled_map)
    return np.array([[lookup[g] for g in row] for row in layer.data]), tiled_map


def pytmx_walls(path: pathlib.Path) -> tuple[np.ndarray, object]:
    tiled_map = pytmx.TiledMap(str(path))
    layer = tiled_map.get_layer_by_name("maze")
    gids = np.array(layer.data)
    assert gids.shape == (tiled_map.height, tiled_map.width)
    walls = np.vectorize(lambda g: bool((tiled_map.get_tile_properties_by_gid(g) or {}).get("wall")))(gids)
    return walls, tiled_map


def cell_of(x: float, y: float, first_row: int, top: bool) -> tuple[int, int]:
    """The cell under an object at pixel (x, y) of a finite map."""
    ty, tx = int(y) // TILE, int(x) // TILE
    assert tx % 2 == 1 and (ty - top) % 2 == 0  # on a cell's tile, not a wall's
    return first_row + (ty - top) // 2, (tx - 1) // 2


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
@pytest.mark.parametrize("top", [True, False])
def test_a_window_round_trips(tmp_path, ext, top):
    maze = es.InfiniteMaze(13, band=8, seed=4, loops=0.4, rooms=0.2)
    win = es.Window(maze, row=-(10**9))
    player = (win.row, 6)
    items = np.where(win.reachable(player), maze.random(win.top, win.bottom, salt=3), 2.0)
    objects = [{"name": "player", "row": player[0], "column": player[1]}]
    for y, x in zip(*np.nonzero(items < 0.05), strict=True):
        objects.append(
            {"name": "coin", "row": win.top + int(y), "column": int(x), "properties": {"value": 5}}
        )
    path = tmp_path / f"window.{ext}"
    es.write_tiled(path, win.rows, objects=objects, top=top, first_row=win.top, endpoints=True)
    expect = es.tiles(win.rows, top=top)
    readers = [pytiled_walls] + ([pytmx_walls] if ext == "tmx" else [])  # pytmx reads XML only
    start, end = es.suggest_endpoints(win.rows)
    named = [*objects, {"name": "start", "row": win.top + start[0], "column": start[1]}]
    named.append({"name": "end", "row": win.top + end[0], "column": end[1]})
    for read in readers:
        walls, tiled_map = read(path)
        assert walls.shape == expect.shape and np.array_equal(walls, expect)
        if read is pytiled_walls:
            found = [
                (o.name, o.coordinates.x, o.coordinates.y, o.properties)
                for o in tiled_map.layers[1].tiled_objects
            ]
            assert tiled_map.properties["first_row"] == win.top and tiled_map.properties["top"] is top
        else:
            found = [(o.name, o.x, o.y, o.properties) for o in tiled_map.objects]
        assert len(found) == len(named)
        for obj, (name, x, y, props) in zip(named, found, strict=True):
            assert name == obj["name"]
            assert cell_of(x, y, win.top, top) == (obj["row"], obj["column"])
            assert walls[int(y) // TILE, int(x) // TILE] == 0  # a floor tile
            assert props["row"] == obj["row"] and props["column"] == obj["column"]
            assert props.get("value") == obj.get("properties", {}).get("value")


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
@pytest.mark.parametrize("first_row", [-37, 0, 1000])
def test_an_infinite_map_keeps_absolute_tile_rows(tmp_path, caplog, ext, first_row):
    maze = es.InfiniteMaze(11, band=6, seed=8)
    rows = maze.rows(first_row, first_row + 21)
    path = tmp_path / f"level.{ext}"
    es.write_tiled(
        path,
        rows,
        top=False,
        infinite=True,
        first_row=first_row,
        objects=[{"name": "gem", "row": first_row + 5, "column": 7}],
    )
    tiled_map = pytiled_parser.parse_map(path)
    assert tiled_map.infinite
    lookup = walls_of(tiled_map)
    tiles_at: dict[tuple[int, int], int] = {}
    for chunk in tiled_map.layers[0].chunks:
        assert (chunk.size.width, chunk.size.height) == (16, 16)
        assert chunk.coordinates.x % 16 == 0 and chunk.coordinates.y % 16 == 0
        for dy, line in enumerate(chunk.data):
            for dx, gid in enumerate(line):
                if gid:
                    tiles_at[(chunk.coordinates.y + dy, chunk.coordinates.x + dx)] = gid
    expect = es.tiles(rows, top=False)  # its tile row i is absolute tile row 2 * first_row + 1 + i
    got = np.zeros(expect.shape, bool)
    for (ty, tx), gid in tiles_at.items():
        got[ty - (2 * first_row + 1), tx] = lookup[gid]
    assert len(tiles_at) == expect.size and np.array_equal(got, expect)
    assert (2 * first_row + 1, 1) in tiles_at and (2 * first_row, 1) not in tiles_at  # cell (first_row, 0)
    (gem,) = tiled_map.layers[1].tiled_objects
    assert (int(gem.coordinates.y) // TILE, int(gem.coordinates.x) // TILE) == (2 * (first_row + 5) + 1, 15)
    if ext == "tmx":  # pytmx reads finite maps only (documented): a bare Exception, the reason logged
        with pytest.raises(Exception):  # noqa: B017
            pytmx.TiledMap(str(path))
        assert "infinite is not supported" in caplog.text


def test_two_windows_of_an_infinite_map_agree_where_they_overlap(tmp_path):
    maze = es.InfiniteMaze(9, band=5, seed=1)
    cells = {}
    for first in (0, 10):
        es.write_tiled(
            tmp_path / "w.tmj", maze.rows(first, first + 20), top=False, infinite=True, first_row=first
        )
        for chunk in pytiled_parser.parse_map(tmp_path / "w.tmj").layers[0].chunks:
            for dy, line in enumerate(chunk.data):
                for dx, gid in enumerate(line):
                    key = (chunk.coordinates.y + dy, chunk.coordinates.x + dx)
                    if gid and key in cells:
                        assert cells[key] == gid
                    elif gid:
                        cells[key] = gid
    assert len(cells) == (2 * 30) * 19


@pytest.mark.parametrize(
    ("path", "kwargs", "error", "match"),
    [
        ("maze.png", {}, ValueError, r"path must end in \.tmj \(Tiled JSON\) or \.tmx"),
        (
            "no/such/folder/maze.tmj",
            {},
            ValueError,
            r"path 'no/such/folder/maze.tmj': the folder .* does not exist",
        ),
        (
            "maze.tmj",
            {"objects": [{"name": "a", "row": 4, "column": 0}]},
            ValueError,
            r"objects\[0\] row must be in \[0, 3\]",
        ),
        (
            "maze.tmj",
            {"objects": [{"name": "a", "row": 0}]},
            ValueError,
            r"objects\[0\] needs name, row and column",
        ),
        ("maze.tmj", {"objects": ["a"]}, TypeError, r"objects\[0\] must be a dict"),
        (
            "maze.tmx",
            {"objects": [{"name": "a", "row": 0, "column": 0, "properties": {"p": [1]}}]},
            TypeError,
            r"objects\[0\] property 'p' must be a bool, int, float or str",
        ),
        ("maze.tmx", {"first_row": 2**63 - 2}, ValueError, r"first_row must be in"),
        # a truthy string was taken for True ('no' made an infinite map)
        ("maze.tmj", {"infinite": "no"}, TypeError, r"infinite must be True or False, got str: 'no'"),
        ("maze.tmj", {"top": ""}, TypeError, r"top must be True or False"),
        ("maze.tmx", {"endpoints": "false"}, TypeError, r"endpoints must be True or False"),
        ("maze.tmj", {"left": 1}, TypeError, r"left must be True or False, got int"),
        ("maze.tmj", {"top": "no"}, TypeError, r"top must be True or False, got str"),
    ],
)
def test_bad_input_names_it(tmp_path, path, kwargs, error, match):
    with pytest.raises(error, match=match):
        es.write_tiled(
            str(tmp_path / path) if "no/such" not in path else path, es.eller(3, 4, seed=1), **kwargs
        )
    assert os.listdir(tmp_path) == []  # nothing written
    with pytest.raises(TypeError, match="grid must be a numpy uint8 array"):
        es.write_tiled(tmp_path / "m.tmj", [[0]])


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return cli_support.run(*args, text=True)


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
def test_the_cli_writes_a_level(tmp_path, ext):
    out = tmp_path / f"level.{ext}"
    done = cli(
        "render",
        "-o",
        str(out),
        "--band",
        "16",
        "--start",
        "1000000",
        "--rows",
        "48",
        "--seed",
        "5",
        "--width",
        "20",
        "--endpoints",
    )
    assert done.returncode == 0 and done.stderr == ""
    walls, tiled_map = pytiled_walls(out)
    maze = es.InfiniteMaze(20, band=16, seed=5)
    grid = es.closed_rows(maze.stream(1000000), 48)  # as the PNG of the same command draws it
    assert np.array_equal(walls, es.tiles(grid))
    assert tiled_map.properties["first_row"] == 1000000
    assert "--start 1000000" in tiled_map.properties["description"]
    start, end = es.suggest_endpoints(grid)
    found = {o.name: (o.properties["row"], o.properties["column"]) for o in tiled_map.layers[1].tiled_objects}
    assert found == {"start": (1000000 + start[0], start[1]), "end": (1000000 + end[0], end[1])}


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["-o", "level.tmz"], "--output must end in .png, .svg, .tmj, .tmx or .zarr, got 'level.tmz'"),
        (["-o", "level.tmx", "--solution"], "--solution draws on a picture"),
        (["-o", "level.tmj", "--cell", "4"], "--cell sizes a picture's pixels (.png or .svg); a Tiled map"),
        (["-o", "level.tmx", "--wall", "1"], "--wall sizes a picture's pixels"),
        (["-o", "no/such/level.tmj"], "--output: cannot write a file at 'no/such/level.tmj'"),
    ],
)
def test_the_cli_refuses_in_one_line(tmp_path, args, match):
    done = cli_support.run("render", *args, text=True, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("eller-stream: error: ") and match in done.stderr
    assert done.stderr.count("\n") == 1 and os.listdir(tmp_path) == []


def test_a_maps_description_draws_the_same_map_again(tmp_path):
    """The description a map records is a command that makes it again (no
    --cell or --wall in it, which a map refuses)."""

    def render(*args: str) -> None:
        done = cli_support.run("render", *args, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr

    render("-o", "a.tmj", "--band", "4", "--rows", "6", "--width", "5", "--seed", "3", "--loops", "0.5")
    description = json.loads((tmp_path / "a.tmj").read_text())["properties"]
    command = next(p["value"] for p in description if p["name"] == "description").split()
    assert command[:2] == ["eller-stream", "render"] and "--cell" not in command
    render("-o", "b.tmj", *command[2:])
    assert (tmp_path / "a.tmj").read_bytes() == (tmp_path / "b.tmj").read_bytes()
