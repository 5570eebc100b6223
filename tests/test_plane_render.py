"""A plane region drawn: its tiles (es.tiles with the left and top edges
open), an infinite Tiled map of it whose chunks lie at absolute tile rows and
columns (negative and far ones, refused past Tiled's 32-bit coordinates),
maps of regions side by side that join without a seam, and its pictures.
The regions come from tests/naive_plane.py, the tiles from a plain count."""

from __future__ import annotations

import json
import pathlib

import naive_plane as npl
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import plane_knobs, seeds

import eller_stream as es
from eller_stream.tiled import check_span

from naive import EAST, SOUTH

pytiled_parser = pytest.importorskip("pytiled_parser")

TILE = 8
INT32 = 2**31


def oracle(chunk: int, seed: int, y0: int, y1: int, x0: int, x1: int, **knobs: object) -> np.ndarray:
    grid = npl.plane_region(chunk, seed, y0, y1, x0, x1, **knobs)  # type: ignore[arg-type]
    assert np.array_equal(grid, es.Plane(chunk, seed, **knobs).region(y0, y1, x0, x1))  # type: ignore[arg-type]
    return grid


def plane_tiles(grid: np.ndarray, y0: int, x0: int) -> dict[tuple[int, int], bool]:
    """Absolute tile -> wall, the plain way: a cell's tile is floor, the tile
    east of it a wall without EAST, the one below a wall without SOUTH, the
    corners walls; the region's tile rows 2*y0 + 1 .. 2*y1, columns likewise."""
    h, w = grid.shape
    out: dict[tuple[int, int], bool] = {}
    for y in range(h):
        for x in range(w):
            ty, tx = 2 * (y0 + y) + 1, 2 * (x0 + x) + 1
            out[(ty, tx)] = False
            out[(ty, tx + 1)] = not grid[y, x] & EAST
            out[(ty + 1, tx)] = not grid[y, x] & SOUTH
            out[(ty + 1, tx + 1)] = True
    return out


def read_map(path: pathlib.Path) -> tuple[dict[tuple[int, int], bool], object]:
    """The tiles of an infinite map by absolute (row, column), and the map."""
    tiled_map = pytiled_parser.parse_map(path)
    assert tiled_map.infinite
    lookup = {0: None}
    for firstgid, tileset in tiled_map.tilesets.items():
        for tile_id, tile in tileset.tiles.items():
            lookup[firstgid + tile_id] = bool(tile.properties["wall"])
    tiles: dict[tuple[int, int], bool] = {}
    for chunk in tiled_map.layers[0].chunks:
        assert (chunk.size.width, chunk.size.height) == (16, 16)
        assert chunk.coordinates.x % 16 == 0 and chunk.coordinates.y % 16 == 0
        for dy, line in enumerate(chunk.data):
            for dx, gid in enumerate(line):
                if gid:
                    tiles[(chunk.coordinates.y + dy, chunk.coordinates.x + dx)] = lookup[gid]
    return tiles, tiled_map


def write_region(path: pathlib.Path, grid: np.ndarray, y0: int, x0: int, **kw: object) -> None:
    es.write_tiled(path, grid, infinite=True, top=False, left=False, first_row=y0, first_column=x0, **kw)


@given(
    chunk=st.integers(1, 6),
    seed=seeds,
    knobs=plane_knobs(),
    size=st.tuples(st.integers(1, 13), st.integers(1, 13)),
    corner=st.tuples(st.integers(-60, 60), st.integers(-60, 60)),
)
@settings(max_examples=15)
def test_tiles_of_a_region_are_the_planes_own(chunk, seed, knobs, size, corner):
    (h, w), (y0, x0) = size, corner
    grid = oracle(chunk, seed, y0, y0 + h, x0, x0 + w, **knobs)
    t = es.tiles(grid, top=False, left=False)
    assert t.shape == (2 * h, 2 * w)
    expect = plane_tiles(grid, y0, x0)
    got = {(2 * y0 + 1 + i, 2 * x0 + 1 + j): bool(t[i, j]) for i in range(2 * h) for j in range(2 * w)}
    assert got == expect
    # with both edges: the border row and column of walls come first, nothing else changes
    full = es.tiles(grid)
    assert full[0].all() and full[:, 0].all() and np.array_equal(full[1:, 1:], t)


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
def test_an_infinite_map_of_a_region_needs_no_edge_flags(tmp_path, ext):
    """A newcomer's maps of two overlapping regions, written with
    ``infinite=True, first_row=, first_column=`` and nothing else, drew the
    top and left walls of each (the defaults, ``True``): 28 of the 81 tiles
    they share disagreed.  An infinite map's edges now default to the
    plane's own tiles."""
    plane = es.Plane(16, seed=7)
    maps = {}
    for y0, x0 in ((-20, 1000), (0, 1010), (20, 1000)):
        grid = plane.region(y0, y0 + 40, x0, x0 + 40)
        path = tmp_path / f"r{y0}.{ext}"
        es.write_tiled(path, grid, infinite=True, first_row=y0, first_column=x0)
        maps[y0], tiled_map = read_map(path)
        assert maps[y0] == plane_tiles(grid, y0, x0)
        assert (tiled_map.properties["top"], tiled_map.properties["left"]) == (False, False)
    shared = maps[-20].keys() & maps[0].keys()  # overlapping regions: the same tiles where both are
    assert len(shared) == 2 * 20 * 2 * 30 and all(maps[-20][k] == maps[0][k] for k in shared)
    assert not maps[-20].keys() & maps[20].keys()  # regions one above the other: no tile twice
    assert maps[-20] | maps[20] == plane_tiles(plane.region(-20, 60, 1000, 1040), -20, 1000)


def test_the_edge_flags_default_to_the_border_of_a_finite_map(tmp_path):
    """A finite map keeps its border; a banded maze's infinite map (no
    ``first_column``) keeps its left wall, the maze's own, and leaves out the
    top row of walls (the rows above's)."""
    rows = es.InfiniteMaze(9, band=4, seed=3).rows(10, 22)
    for infinite, top, left in ((False, True, True), (True, False, True)):
        path = tmp_path / f"m{infinite}.tmj"
        es.write_tiled(path, rows, infinite=infinite, first_row=10)
        props = pytiled_parser.parse_map(path).properties
        assert (props["top"], props.get("left", True)) == (top, left)  # "left" is a plane map's


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
@pytest.mark.parametrize(
    "corner", [(-37, -21), (0, 0), (5, 2**20 + 3), (-(2**30), -(2**30)), (2**30 - 20, 2**30 - 30)]
)
def test_an_infinite_map_of_a_region_lies_at_its_absolute_tiles(tmp_path, ext, corner):
    y0, x0 = corner
    grid = oracle(4, 9, y0, y0 + 18, x0, x0 + 28, perfect=False)
    path = tmp_path / f"region.{ext}"
    write_region(path, grid, y0, x0, objects=[{"name": "gem", "row": y0 + 5, "column": x0 + 7}])
    tiles, tiled_map = read_map(path)
    assert tiles == plane_tiles(grid, y0, x0)  # every tile where it belongs, nothing else
    props = tiled_map.properties
    assert (props["first_row"], props["first_column"], props["top"], props["left"]) == (y0, x0, False, False)
    (gem,) = tiled_map.layers[1].tiled_objects
    assert (int(gem.coordinates.y) // TILE, int(gem.coordinates.x) // TILE) == (
        2 * (y0 + 5) + 1,
        2 * (x0 + 7) + 1,
    )
    assert (gem.properties["row"], gem.properties["column"]) == (y0 + 5, x0 + 7)


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
def test_maps_of_regions_side_by_side_join_without_a_seam(tmp_path, ext):
    plane = es.Plane(chunk=5, seed=3)
    y0, y1, x0, x1 = -13, 17, 40, 77
    whole, _ = _written(tmp_path / f"whole.{ext}", plane, y0, y1, x0, x1)
    parts: dict[tuple[int, int], bool] = {}
    for i, (a, b, c, d) in enumerate([(y0, 2, x0, 61), (y0, 2, 61, x1), (2, y1, x0, 50), (2, y1, 50, x1)]):
        tiles, _ = _written(tmp_path / f"part{i}.{ext}", plane, a, b, c, d)
        assert not set(tiles) & set(parts)  # no tile of two maps: nothing drawn twice, nothing to disagree
        parts.update(tiles)
    assert parts == whole


def _written(path, plane, y0, y1, x0, x1):
    write_region(path, plane.region(y0, y1, x0, x1), y0, x0)
    return read_map(path)


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
@pytest.mark.parametrize(
    "corner, name",
    [
        ((-(2**30) - 1, 0), "first_row"),
        ((2**30 - 4, 0), "first_row"),  # its bottom border's tile row is 2**31
        ((0, -(2**30) - 1), "first_column"),
        ((0, 2**62 - 40), "first_column"),
    ],
)
def test_a_map_past_tileds_32_bit_coordinates_is_refused(tmp_path, ext, corner, name):
    y0, x0 = corner
    grid = es.Plane(chunk=4, seed=1).region(y0, y0 + 4, x0, x0 + 4)
    path = tmp_path / f"far.{ext}"
    with pytest.raises(ValueError, match=rf"^{name}: .*32-bit"):
        write_region(path, grid, y0, x0)
    assert list(tmp_path.iterdir()) == []
    # the cells that fit: rows up to 2**30 - 2 (the chunks end at tile 2**31), from -2**30
    check_span(2**30 - 8, 7, -(2**30), 4)
    with pytest.raises(ValueError, match="first_row"):
        check_span(2**30 - 8, 8, 0, 4)
    with pytest.raises(ValueError, match="first_column"):
        check_span(0, 4, -(2**30) - 1, 4)
    # a finite map has no such coordinates (its tiles start at 0): written
    es.write_tiled(path, grid, top=False, left=False, first_row=y0, first_column=x0)
    text = path.read_text()
    assert json.loads(text)["infinite"] is False if ext == "tmj" else 'infinite="0"' in text


def test_objects_and_endpoints_of_a_region_have_absolute_columns(tmp_path):
    plane = es.Plane(chunk=4, seed=5)
    y0, x0, size = plane.block(1, 1000, -(10**6))  # a block of level 1: perfect, so the endpoints exist
    grid = plane.region(y0, y0 + size, x0, x0 + size)
    path = tmp_path / "block.tmj"
    with pytest.raises(ValueError, match=rf"column must be in \[{x0}, {x0 + size - 1}\], got 3"):
        write_region(path, grid, y0, x0, objects=[{"name": "key", "row": y0, "column": 3}])
    write_region(path, grid, y0, x0, endpoints=True)
    start, end = es.suggest_endpoints(grid)
    objects = {o.name: o for o in pytiled_parser.parse_map(path).layers[1].tiled_objects}
    for name, (y, x) in (("start", start), ("end", end)):
        assert (objects[name].properties["row"], objects[name].properties["column"]) == (y0 + y, x0 + x)
        assert int(objects[name].coordinates.x) // TILE == 2 * (x0 + x) + 1


def test_a_banded_maps_columns_still_start_at_0(tmp_path):
    """A banded maze's map has no first_column property (a plane's map
    only), its first column at tile column 1, and rows past 2**30 (its
    readers, as pytiled-parser, take them: documented)."""
    rows = es.InfiniteMaze(6, band=4, seed=1).rows(2**40, 2**40 + 5)
    path = tmp_path / "m.tmj"
    es.write_tiled(path, rows, infinite=True, top=False, first_row=2**40)
    doc = json.loads(path.read_text())
    assert [p["name"] for p in doc["properties"]] == ["first_row", "top"]
    tiles, _ = read_map(path)
    assert min(tx for _, tx in tiles) == 0 and min(ty for ty, _ in tiles) == 2**41 + 1
