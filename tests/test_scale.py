"""Past one machine (issue 24): the banded maze's rows as a Dask array and a
Zarr store, and datasets of bounded mazes, the same bytes whatever computes
them (threads, one thread, two worker processes)."""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

import eller_stream as es
from eller_stream import scale
from eller_stream.scale import CHUNK_BYTES

from naive import EAST, SOUTH, perfect_problems

da = pytest.importorskip("dask.array", reason="the [dask] extra is not installed")
dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
zarr = pytest.importorskip("zarr")


def _schedulers(dask_client):
    return [{"scheduler": "threads"}, {"scheduler": "sync"}, {"scheduler": dask_client}]


def _ranges(band, count, seed):
    """Random ranges around row 0 and far away, cutting bands at both ends."""
    rng = np.random.default_rng(seed)
    out = [(-band - 3, 2 * band + 1), (0, band), (5, 6)]
    for _ in range(count):
        start = int(rng.integers(-20 * band, 20 * band)) + int(rng.choice([0, 10**15, -(10**12)]))
        out.append((start, start + int(rng.integers(1, 9 * band))))
    return out


MAZES = {
    "plain": es.InfiniteMaze(13, band=6, seed=11),
    "loops": es.InfiniteMaze(13, band=6, seed=12, loops=0.5),
    "rooms": es.InfiniteMaze(40, band=12, seed=13, rooms=0.2),
    "schedule": es.InfiniteMaze(
        17, band=8, seed=14, schedule=es.Schedule({-3: {"loops": 0.0}, 4: {"loops": 1.0, "rooms": 0.1}})
    ),
}


@pytest.mark.parametrize("kind", sorted(MAZES))
def test_to_dask_gives_the_rows_on_every_scheduler(dask_client, kind):
    maze = MAZES[kind]
    ranges = _ranges(maze.band, 6, seed=len(kind))
    arrays = [es.to_dask(maze, a, b, bands_per_chunk=1 + i % 3) for i, (a, b) in enumerate(ranges)]
    for i, (array, (a, b)) in enumerate(zip(arrays, ranges, strict=True)):
        assert array.shape == (b - a, maze.width) and array.dtype == np.uint8
        assert array.chunks == (es.band_chunks(maze, a, b, 1 + i % 3), (maze.width,))
    for kwargs in _schedulers(dask_client):
        got = dask.compute(*arrays, **kwargs)
        for rows, (a, b) in zip(got, ranges, strict=True):
            assert rows.dtype == np.uint8 and rows.flags.c_contiguous
            np.testing.assert_array_equal(rows, maze.rows(a, b), err_msg=f"{kind} {a}..{b} {kwargs}")


def test_chunks_follow_the_bands():
    maze = es.InfiniteMaze(10, band=4, seed=0)
    assert es.band_chunks(maze, -6, 9, bands_per_chunk=2) == (2, 8, 5)
    assert es.band_chunks(maze, 0, 8, bands_per_chunk=1) == (4, 4)
    assert es.band_chunks(maze, 1, 3, bands_per_chunk=5) == (2,)  # inside one band
    assert es.band_chunks(maze, -1, 0) == (1,)
    # the default: about CHUNK_BYTES (32 MiB) a chunk, one band a chunk when a band is larger
    assert CHUNK_BYTES == 32 << 20
    assert es.band_chunks(maze, 0, 10**7)[0] == 4 * -(-(32 << 20) // 40)
    wide = es.InfiniteMaze(2**19, band=64, seed=0)
    assert set(es.band_chunks(wide, 0, 640)) == {64}
    assert set(es.band_chunks(es.InfiniteMaze(2**17, band=64, seed=0), 0, 512)) == {256}
    for start in range(-9, 9):
        sizes = es.band_chunks(maze, start, start + 23, bands_per_chunk=2)
        assert sum(sizes) == 23 and all(sizes)
        bounds = np.cumsum((start, *sizes))
        assert all(row % 4 == 0 for row in bounds[1:-1])  # every cut is at a band's first row


@pytest.mark.parametrize("rows", [1, 100, 4196, 8192])
def test_a_chunk_is_the_rows_on_huge_pages_when_large(rows):
    """A chunk of two huge pages (4 MiB) or more starts on a 2 MiB boundary
    (Linux backs it with huge pages: Dask's workers fault each chunk in
    afresh); its bytes are maze.rows' whatever its size."""
    maze = es.InfiniteMaze(1000, band=32, seed=3, loops=0.5)
    chunk = scale.make_chunk(maze, -5, rows - 5)
    np.testing.assert_array_equal(chunk, maze.rows(-5, rows - 5))
    assert chunk.flags.c_contiguous and chunk.flags.writeable
    if rows * 1000 >= 4 << 20:
        assert chunk.ctypes.data % (2 << 20) == 0


def test_one_band_chunks_on_a_cluster_match(dask_client):
    maze = es.InfiniteMaze(300, band=16, seed=5, loops=0.25)
    array = es.to_dask(maze, -1000, 1000, bands_per_chunk=1)
    assert len(array.chunks[0]) == 126
    np.testing.assert_array_equal(array.compute(scheduler=dask_client), maze.rows(-1000, 1000))


def test_the_maze_pickles_to_an_equal_maze():
    for maze in MAZES.values():
        again = pickle.loads(pickle.dumps(maze))
        assert again == maze and repr(again) == repr(maze)
        np.testing.assert_array_equal(again.rows(-30, 30), maze.rows(-30, 30))
        assert len(pickle.dumps(maze)) < 2000


def test_what_is_done_to_a_chunk_next_runs_in_its_task():
    rows = es.to_dask(MAZES["plain"], -7, 500, bands_per_chunk=2)
    summed = rows.map_blocks(lambda b: b.sum(keepdims=True), chunks=((1,) * rows.numblocks[0], (1,)))
    (optimized,) = dask.optimize(summed)
    assert len(optimized.__dask_graph__()) == rows.numblocks[0]  # one task a chunk: fused


def test_the_graph_is_named_by_the_maze_and_rows():
    a = es.to_dask(MAZES["plain"], 0, 100)
    assert a.name == es.to_dask(MAZES["plain"], 0, 100).name
    assert a.name != es.to_dask(MAZES["plain"], 0, 101).name != es.to_dask(MAZES["loops"], 0, 100).name


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: es.to_dask(MAZES["plain"], 5, 5), ValueError, "stop must be greater than start"),
        (lambda: es.to_dask(MAZES["plain"], 5, -1), ValueError, "stop must be greater than start"),
        (lambda: es.to_dask("maze", 0, 5), TypeError, "maze must be an InfiniteMaze, got str"),
        (lambda: es.to_dask(es.EllerStream(5), 0, 5), TypeError, "maze must be an InfiniteMaze"),
        (lambda: es.to_dask(MAZES["plain"], 0.5, 5), TypeError, "start must be an int"),
        (lambda: es.to_dask(MAZES["plain"], 0, 5, bands_per_chunk=0), ValueError, "bands_per_chunk"),
        (lambda: es.to_dask(MAZES["plain"], 0, 2**62, bands_per_chunk=1), ValueError, "bands_per_chunk"),
        (lambda: es.band_chunks(MAZES["plain"], 0, 1, bands_per_chunk="2"), TypeError, "bands_per_chunk"),
        (lambda: es.write_zarr("x.zarr", None, 0, 5), TypeError, "maze must be an InfiniteMaze"),
        (lambda: es.write_zarr(3, MAZES["plain"], 0, 5), TypeError, "path must be"),
        (lambda: es.dataset(-1, 4, 4), ValueError, "n must be"),
        (lambda: es.dataset(1.5, 4, 4), TypeError, "n must be an int"),
        (lambda: es.dataset(2, 0, 4), ValueError, "width must be"),
        (lambda: es.dataset(2, 4, 0), ValueError, "height must be"),
        (lambda: es.dataset(2, 4, 4, seed=2**32), ValueError, "seed must be"),
        (lambda: es.dataset(2, 4, 4, algorithm="prim"), ValueError, "algorithm 'prim'"),
        (lambda: es.dataset(2, 4, 4, algorithm="growing-tree:bogus"), ValueError, "bogus"),
        (lambda: es.dataset(2, 4, 4, algorithm=3), TypeError, "algorithm must be a string"),
        (lambda: es.dataset(2, 4, 4, solutions=1), TypeError, "solutions must be a bool"),
        (lambda: es.dataset(4, 4, 4, chunks=0), ValueError, "chunks must be"),
        (lambda: es.dataset(4, 4, 4, chunks=(1, 2)), ValueError, "chunks must add up to n = 4"),
        (lambda: es.dataset(2**32, 4, 4, chunks=1), ValueError, "chunks=1 cuts n = 4294967296 mazes into"),
        (lambda: es.dataset(2**20 + 1, 4, 4, chunks=1), ValueError, "into over 1048576 chunks"),
    ],
)
def test_bad_input_is_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


# -- Zarr -------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(MAZES))
def test_a_zarr_store_holds_the_rows_and_names_the_maze(tmp_path, dask_client, kind):
    maze = MAZES[kind]
    path = tmp_path / "maze.zarr"
    start, stop = -3 * maze.band - 2, 5 * maze.band + 3
    with dask.config.set(scheduler=dask_client):  # the workers write their own chunks
        es.write_zarr(path, maze, start, stop, bands_per_chunk=2)
    store = zarr.open_array(str(path), mode="r")
    assert store.shape == (stop - start, maze.width) and store.chunks == (2 * maze.band, maze.width)
    np.testing.assert_array_equal(store[:], maze.rows(start, stop))
    attrs = dict(store.attrs)
    assert attrs["width"] == maze.width and attrs["band"] == maze.band and attrs["seed"] == maze.seed
    assert attrs["params"] == maze.params.as_dict() and (attrs["start"], attrs["stop"]) == (start, stop)
    assert attrs["eller_stream_version"] == es.__version__
    expected = None if maze.schedule is None else maze.schedule.as_json_value()
    assert attrs["schedule"] == expected
    again, a, b = es.read_zarr_maze(path)
    assert again == maze and (a, b) == (start, stop)
    np.testing.assert_array_equal(da.from_zarr(str(path)).compute(), again.rows(a, b))
    assert os.listdir(tmp_path) == ["maze.zarr"]  # no temporary folder left


def test_band_aligned_zarr_chunks_are_whole_bands(tmp_path):
    maze = es.InfiniteMaze(20, band=8, seed=3)
    es.write_zarr(tmp_path / "m.zarr", maze, -16, 60, bands_per_chunk=3)
    store = zarr.open_array(str(tmp_path / "m.zarr"), mode="r")
    assert store.chunks == (24, 20) and store.nchunks == 4
    np.testing.assert_array_equal(store[24:48], maze.rows(8, 32))


def test_zarr_refuses_to_replace_unless_asked(tmp_path):
    path = tmp_path / "m.zarr"
    small, big = es.InfiniteMaze(5, band=2, seed=1), es.InfiniteMaze(9, band=3, seed=2)
    es.write_zarr(path, small, 0, 4)
    with pytest.raises(FileExistsError, match="overwrite=True"):
        es.write_zarr(path, big, 0, 9)
    assert es.read_zarr_maze(path) == (small, 0, 4)
    es.write_zarr(path, big, 0, 9, overwrite=True)
    assert es.read_zarr_maze(path) == (big, 0, 9)
    assert sorted(os.listdir(tmp_path)) == ["m.zarr"]


@pytest.mark.parametrize("kind", ["file", "symlink"])
def test_overwriting_a_file_or_symlink_leaves_nothing_beside_the_store(tmp_path, kind):
    """A file or symlink replaced by ``overwrite=True`` left a hidden ``.old``
    beside the store (issue 32)."""
    path, elsewhere = tmp_path / "m.zarr", tmp_path / "kept.txt"
    elsewhere.write_text("not ours")
    if kind == "file":
        path.write_text("a file")
    else:
        path.symlink_to(elsewhere)
    maze = es.InfiniteMaze(5, band=2, seed=1)
    es.write_zarr(path, maze, 0, 4, overwrite=True)
    assert es.read_zarr_maze(path) == (maze, 0, 4)
    assert sorted(os.listdir(tmp_path)) == ["kept.txt", "m.zarr"]
    assert elsewhere.read_text() == "not ours"  # the link's target is not touched


def test_a_failed_write_leaves_nothing(tmp_path, monkeypatch):

    def broken(maze, a, b):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(scale, "make_chunk", broken)
    with dask.config.set(scheduler="threads"), pytest.raises(RuntimeError, match="disk on fire"):
        es.write_zarr(tmp_path / "m.zarr", MAZES["plain"], 0, 50, bands_per_chunk=1)
    assert os.listdir(tmp_path) == []


def test_a_foreign_store_is_not_a_maze(tmp_path):
    zarr.create_array(store=str(tmp_path / "other.zarr"), shape=(3, 3), dtype="uint8")
    with pytest.raises(ValueError, match="not a store of maze rows"):
        es.read_zarr_maze(tmp_path / "other.zarr")
    path = tmp_path / "m.zarr"
    es.write_zarr(path, MAZES["plain"], 0, 5)
    store = zarr.open_array(str(path), mode="r+")
    store.attrs["band"] = 1
    with pytest.raises(ValueError, match="maze attributes are broken: band must be"):
        es.read_zarr_maze(path)


# -- datasets -----------------------------------------------------------------
def _walk_ok(grid, path):
    """Each step of ``path`` goes to a neighbour through an open wall (the row
    format: EAST opens to the right, SOUTH opens below)."""
    for (y0, x0), (y1, x1) in zip(path[:-1].tolist(), path[1:].tolist(), strict=True):
        if y0 == y1 and abs(x0 - x1) == 1:
            if not grid[y0, min(x0, x1)] & EAST:
                return False
        elif x0 == x1 and abs(y0 - y1) == 1:
            if not grid[min(y0, y1), x0] & SOUTH:
                return False
        else:
            return False
    return True


def test_maze_i_is_a_pure_function_of_seed_and_i():
    mazes = es.dataset(5, 9, 7, algorithm="growing-tree:newest", seed=3)
    assert mazes.shape == (5, 7, 9) and mazes.dtype == np.uint8
    for i in range(5):
        np.testing.assert_array_equal(mazes[i], es.growing_tree(9, 7, "newest", seed=3 * 2**32 + i))
    np.testing.assert_array_equal(es.dataset(3, 9, 7, "growing-tree:newest", seed=3), mazes[:3])
    other = es.dataset(5, 9, 7, algorithm="growing-tree:newest", seed=4)
    assert not any((other[i] == mazes[j]).all() for i in range(5) for j in range(5))
    assert es.dataset(0, 4, 4).shape == (0, 4, 4)


PERFECT = ["eller", "eller:h=0.8,v=0.2", "growing-tree:random", "backtracker", "banded:band=4"]


@pytest.mark.parametrize("algorithm", PERFECT)
def test_datasets_are_the_same_on_every_scheduler_and_chunking(dask_client, algorithm):
    n, w, h = 13, 8, 6
    expected = es.dataset(n, w, h, algorithm=algorithm, seed=7)
    for grid in expected:
        assert perfect_problems(grid) == []
    lazy = [es.dataset(n, w, h, algorithm=algorithm, seed=7, chunks=c) for c in (1, 4, (0, 13), (6, 0, 7))]
    for kwargs in _schedulers(dask_client):
        for got in dask.compute(*lazy, **kwargs):
            np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("algorithm", [*PERFECT, "banded:band=4,loops=0.5", "banded:rooms=0.2"])
def test_solutions_walk_from_start_to_end(algorithm):
    ds = es.dataset(9, 10, 8, algorithm=algorithm, seed=2, solutions=True)
    assert isinstance(ds, es.Dataset)
    assert ds.endpoints.shape == (9, 2, 2) and ds.endpoints.dtype == np.int64
    assert ds.offsets.shape == (10,) and ds.offsets.dtype == np.int64 and ds.offsets[0] == 0
    assert ds.cells.shape == (ds.offsets[-1], 2) and ds.cells.dtype == np.int64
    np.testing.assert_array_equal(ds.mazes, es.dataset(9, 10, 8, algorithm=algorithm, seed=2))
    for i, grid in enumerate(ds.mazes):
        path = ds.path(i)
        assert ((path >= 0) & (path < (8, 10))).all()
        assert tuple(path[0]) == tuple(ds.endpoints[i, 0]) == es.suggest_endpoints(grid)[0]
        assert tuple(path[-1]) == tuple(ds.endpoints[i, 1]) == es.suggest_endpoints(grid)[1]
        assert ds.endpoints[i, 0, 0] == 0 and ds.endpoints[i, 1, 0] == 7
        assert _walk_ok(grid, path), (algorithm, i)


def test_lazy_solutions_equal_eager_ones(dask_client):
    eager = es.dataset(11, 7, 5, algorithm="backtracker", seed=9, solutions=True)
    for chunks in (3, (5, 6), 11):
        lazy = es.dataset(11, 7, 5, algorithm="backtracker", seed=9, solutions=True, chunks=chunks)
        assert lazy.mazes.chunks[0] == lazy.endpoints.chunks[0]
        for kwargs in _schedulers(dask_client):
            got = es.Dataset(*dask.compute(*lazy, **kwargs))
            for name in es.Dataset._fields:
                np.testing.assert_array_equal(getattr(got, name), getattr(eager, name), err_msg=name)


def test_walk_check_sees_a_wrong_step():
    grid = es.eller(4, 1, seed=0)  # one row: all open east
    assert _walk_ok(grid, np.array([[0, 0], [0, 1], [0, 2]]))
    assert not _walk_ok(grid, np.array([[0, 0], [0, 2]]))
    closed = np.zeros((2, 2), np.uint8)
    assert not _walk_ok(closed, np.array([[0, 0], [1, 0]]))


# -- the extra is optional ---------------------------------------------------------
def test_importing_the_package_imports_no_dask():
    code = (
        "import sys, eller_stream as es; es.InfiniteMaze; es.dataset; es.band_chunks; es.to_dask; "
        "es.dataset(2, 3, 3); print(sorted(m for m in ('dask', 'distributed', 'zarr') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("missing", ["dask", "zarr"])
def test_without_the_extra_the_error_says_how_to_install_it(monkeypatch, missing):
    for name in list(sys.modules):
        if name == missing or name.startswith(missing + "."):
            monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, missing, None)
    hint = re.escape(es.scale.HINT)
    with pytest.raises(ModuleNotFoundError, match=hint):
        es.write_zarr("never.zarr", MAZES["plain"], 0, 5)
    if missing == "dask":
        with pytest.raises(ModuleNotFoundError, match=hint):
            es.to_dask(MAZES["plain"], 0, 5)
        with pytest.raises(ModuleNotFoundError, match=hint):
            es.dataset(2, 3, 3, chunks=1)


def test_a_url_is_written_in_place(tmp_path):
    pytest.importorskip("fsspec")
    maze = MAZES["loops"]
    url = f"memory://maze-{os.getpid()}.zarr"  # the memory file system of this process: local threads
    with dask.config.set(scheduler="threads"):
        es.write_zarr(url, maze, -5, 40)
        assert es.read_zarr_maze(url) == (maze, -5, 40)
        with pytest.raises(FileExistsError, match="exists"):  # as for a local path (was zarr's own error)
            es.write_zarr(url, maze, 0, 9)
        es.write_zarr(url, maze, 0, 9, overwrite=True)
        np.testing.assert_array_equal(zarr.open_array(url, mode="r")[:], maze.rows(0, 9))
    es.write_zarr(f"file://{tmp_path}/m.zarr", maze, 0, 9)  # a file:// URL is a local folder
    assert es.read_zarr_maze(tmp_path / "m.zarr") == (maze, 0, 9)


@pytest.mark.parametrize("name", ["", ".", "folder"])
def test_overwrite_never_replaces_a_folder_that_is_not_a_store(tmp_path, monkeypatch, name):
    """``write_zarr("", ..., overwrite=True)`` replaced the working directory
    with the store (``os.path.abspath("")``), and so did ``"."`` or any
    folder: now a ValueError naming ``path``, and nothing touched."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "precious.txt").write_text("kept")
    (tmp_path / "folder" / "precious.txt").write_text("kept")
    maze = es.InfiniteMaze(5, band=2, seed=1)
    with pytest.raises(ValueError, match="path"):
        es.write_zarr(name, maze, 0, 4, overwrite=True)
    with pytest.raises(ValueError, match="path"):
        es.write_zarr(name, es.Plane(4, seed=1), 0, 4, 0, 4, overwrite=True)
    assert sorted(os.listdir(tmp_path)) == ["folder", "precious.txt"]
    assert os.listdir(tmp_path / "folder") == ["precious.txt"]


def test_overwrite_at_a_url_never_replaces_what_is_not_a_store(tmp_path):
    """``local://`` (fsspec's name for this machine's files) went past the
    check and zarr deleted the folder; at any URL, a prefix of other objects
    was deleted too."""
    fsspec = pytest.importorskip("fsspec")
    maze = es.InfiniteMaze(5, band=2, seed=1)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "notes.txt").write_text("kept")
    with pytest.raises(ValueError, match="path"):
        es.write_zarr(f"local://{tmp_path}/folder", maze, 0, 4, overwrite=True)
    assert os.listdir(tmp_path / "folder") == ["notes.txt"]
    prefix = f"memory://objects-{os.getpid()}"
    with fsspec.open(f"{prefix}/notes.txt", "w") as f:
        f.write("kept")
    with dask.config.set(scheduler="threads"):
        with pytest.raises(ValueError, match="path"):
            es.write_zarr(prefix, maze, 0, 4, overwrite=True)
        with pytest.raises(FileExistsError, match="exists"):  # no store written among the objects
            es.write_zarr(prefix, maze, 0, 4)
        assert fsspec.filesystem("memory").ls(prefix, detail=False) == [f"/objects-{os.getpid()}/notes.txt"]
        assert fsspec.filesystem("memory").cat(f"{prefix}/notes.txt") == b"kept"
        es.write_zarr(f"{prefix}/m.zarr", maze, 0, 4)  # a store replaces a store
        es.write_zarr(f"{prefix}/m.zarr", maze, 0, 2, overwrite=True)
        assert es.read_zarr_maze(f"{prefix}/m.zarr") == (maze, 0, 2)
