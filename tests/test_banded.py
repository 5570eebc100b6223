"""The banded maze (InfiniteMaze, BandedStream) against the plain-Python
model in naive.py and independent oracles: perfect windows, seekable rows,
the detour bound, bad input, checkpoints and interrupted calls."""

from __future__ import annotations

import hashlib
import random
import threading

import numba
import numpy as np
import pytest
import scipy.sparse
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse.csgraph import connected_components
from strategies import door_probabilities, probabilities, seeds

import eller_stream as es
from eller_stream import _banded_stream as banded_stream
from eller_stream import banded

from naive import (
    EAST,
    SOUTH,
    band_reference,
    banded_reference,
    detour_reference,
    perfect_problems,
    reaches_next_row,
)

pytestmark = pytest.mark.usefixtures("numba_answers")

# -- the kernel is the model, byte for byte ------------------------------------------


@given(
    width=st.integers(1, 100),
    band=st.integers(2, 40),
    seed=seeds,
    horizontal=probabilities,
    vertical=probabilities,
    doors=door_probabilities,
    first_band=st.integers(-3, 3),
)
def test_kernel_matches_the_model(width, band, seed, horizontal, vertical, doors, first_band):
    maze = es.InfiniteMaze(width, band, seed, horizontal, vertical, doors)
    start = first_band * band - 1
    stop = start + 2 * band + 2
    expected = banded_reference(width, band, seed, start, stop, horizontal, vertical, doors)
    np.testing.assert_array_equal(maze.rows(start, stop), expected)


@pytest.mark.parametrize("index", [-(2**62), -1, 0, 2**62, 2**63 // 7 * 7 - 14])
def test_model_far_from_zero(index):
    maze = es.InfiniteMaze(9, band=7, seed=3, doors=0.4)
    expected = banded_reference(9, 7, 3, index - 3, index + 11, 0.5, 0.5, 0.4)
    np.testing.assert_array_equal(maze.rows(index - 3, index + 11), expected)


def test_band_rows_end_at_their_doors():
    # the last row of each band opens downward at exactly its seam's doors
    maze = es.InfiniteMaze(30, band=5, seed=8, doors=0.2)
    grid = maze.rows(0, 50)
    for b in range(10):
        last = grid[5 * b + 4]
        model = band_reference(30, 5, 8, b, 0.5, 0.5, 0.2)[-1]
        np.testing.assert_array_equal(last, model)
        assert (last & SOUTH).any()


# -- perfect and loop-free -----------------------------------------------------------


@given(
    width=st.integers(1, 40),
    band=st.integers(2, 12),
    seed=seeds,
    horizontal=probabilities,
    vertical=probabilities,
    doors=door_probabilities,
    first_band=st.integers(-(2**40), 2**40),
    bands=st.integers(1, 4),
    extra=st.integers(0, 11),
)
def test_whole_bands_closed_by_finish_are_perfect(
    width, band, seed, horizontal, vertical, doors, first_band, bands, extra
):
    maze = es.InfiniteMaze(width, band, seed, horizontal, vertical, doors)
    stream = maze.stream(start=first_band * band)
    rows = stream.take(bands * band + extra % band)
    grid = np.vstack([rows, stream.finish()[None]])
    assert perfect_problems(grid) == []


def _assert_forest(rows_iter, width):
    """No loop in the rows, checked a chunk at a time by scipy's connected
    components: the rows above a chunk are summed up by a spanning star of
    each of their components among the chunk's top boundary."""
    carried = None  # component labels of the last row seen, through every row above
    carried_south = None
    for chunk in rows_iter:
        h = chunk.shape[0]
        n = (h + 1) * width  # node 0..width-1: the row above the chunk
        src, dst = [], []
        top = np.arange(width)
        if carried is not None:
            # a star per component of the row above, through all earlier rows
            order = np.argsort(carried, kind="stable")
            same = carried[order][1:] == carried[order][:-1]
            src.append(order[1:][same])
            dst.append(order[:-1][same])
            south_above = carried_south
            src.append(top[south_above])
            dst.append(width + top[south_above])
        cells = np.arange(h * width).reshape(h, width) + width
        east = (chunk & EAST).astype(bool)
        east[:, -1] = False
        src.append(cells[east])
        dst.append(cells[east] + 1)
        south = (chunk[:-1] & SOUTH).astype(bool)
        src.append(cells[:-1][south])
        dst.append(cells[:-1][south] + width)
        s = np.concatenate(src)
        d = np.concatenate(dst)
        graph = scipy.sparse.coo_matrix((np.ones(len(s)), (s, d)), shape=(n, n))
        count, labels = connected_components(graph, directed=False)
        assert len(s) == n - count, "a loop"
        carried = labels[-width:]
        carried_south = (chunk[-1] & SOUTH).astype(bool)


@pytest.mark.parametrize("width", [26, 80, pytest.param(1000, marks=pytest.mark.slow)])
def test_a_hundred_thousand_rows_have_no_loop(width):
    maze = es.InfiniteMaze(width, seed=width)
    chunk = max(32, 200_000 // width)
    _assert_forest((maze.rows(y, y + chunk) for y in range(-50_000, 50_000, chunk)), width)


def test_the_forest_check_finds_a_loop():
    s = es.InfiniteMaze(12, band=4, seed=1).stream(start=0)
    grid = np.vstack([s.take(39), s.finish()[None]])  # perfect: connected
    _assert_forest([grid[:17], grid[17:]], 12)
    x = int(np.flatnonzero(~grid[20, :-1] & EAST)[0])
    grid[20, x] |= EAST  # one passage more in a connected maze: a loop
    with pytest.raises(AssertionError, match="a loop"):
        _assert_forest([grid[:17], grid[17:]], 12)
    grid[20, x] &= ~np.uint8(EAST)
    y = int(np.flatnonzero(~grid[:-1, 5] & SOUTH)[0])
    grid[y, 5] |= SOUTH
    with pytest.raises(AssertionError, match="a loop"):
        _assert_forest([grid[: y + 1], grid[y + 1 :]], 12)  # across two chunks


# -- seekable ------------------------------------------------------------------------


@given(
    width=st.integers(1, 30),
    band=st.integers(2, 20),
    seed=seeds,
    start=st.integers(-(2**63), 2**63 - 200),
    length=st.integers(2, 150),
    data=st.data(),
)
def test_rows_do_not_depend_on_how_they_are_asked(width, band, seed, start, length, data):
    maze = es.InfiniteMaze(width, band, seed)
    stop = start + length
    whole = maze.rows(start, stop)
    middle = data.draw(st.integers(start + 1, stop - 1))
    np.testing.assert_array_equal(whole, np.vstack([maze.rows(start, middle), maze.rows(middle, stop)]))
    np.testing.assert_array_equal(whole, maze[start:stop])
    # band by band
    pieces = []
    y = start
    while y < stop:
        end = min(stop, (y // band + 1) * band)
        pieces.append(maze.rows(y, end))
        y = end
    np.testing.assert_array_equal(whole, np.vstack(pieces))
    # a stream, in chunks and row by row
    stream = maze.stream(start)
    sizes = data.draw(st.lists(st.integers(0, 40), max_size=6))
    got = [stream.take(n) for n in sizes]
    got += [next(stream)[None] for _ in range(min(3, length))]
    done = sum(len(g) for g in got)
    if done < length:
        got.append(stream.take(length - done))
    np.testing.assert_array_equal(np.vstack(got)[:length], whole)
    assert stream.rows_emitted == max(done, length)


def test_rows_fill_out_and_single_rows():
    maze = es.InfiniteMaze(7, band=3, seed=2)
    buf = np.empty((9, 7), np.uint8)
    assert maze.rows(-4, 5, out=buf) is buf
    np.testing.assert_array_equal(buf, maze.rows(-4, 5))
    np.testing.assert_array_equal(maze[-3], buf[1])


def test_all_cores_give_the_same_bytes(monkeypatch):
    maze = es.InfiniteMaze(1000, band=32, seed=5)
    parts = []
    real = banded.par.run_parts
    monkeypatch.setattr(banded.par, "run_parts", lambda p: parts.append(len(p)) or real(p))
    parallel = maze.rows(-100, 3000)
    assert max(parts) == numba.get_num_threads() > 1  # the long range ran on every core
    monkeypatch.undo()
    one_stream = maze.stream(-100).take(3100)  # one core, band after band
    np.testing.assert_array_equal(parallel, one_stream)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        np.testing.assert_array_equal(maze.rows(-100, 3000), parallel)
    finally:
        numba.set_num_threads(threads)


def test_only_the_bands_touched_are_generated(monkeypatch):
    calls = []
    real = banded.engine.band_stream_rows

    def spy(left, right, out, key, band, y0, *rest):
        calls.append((int(band), y0, out.shape[0]))
        return real(left, right, out, key, band, y0, *rest)

    monkeypatch.setattr(banded.engine, "band_stream_rows", spy)
    maze = es.InfiniteMaze(80, band=32, seed=1)
    start = 10**18 + 5
    maze.rows(start, start + 64)
    # the rows above the start in its band (replayed), the rest of that band, the next bands
    band0, first = divmod(start, 32)
    assert calls == [(band0, 0, first), (band0, first, 32 - first), (band0 + 1, 0, 64 - (32 - first))]


# -- the detour bound ----------------------------------------------------------------


@pytest.mark.parametrize(("width", "band"), [(6, 5), (3, 2), (11, 9)])
def test_every_row_reaches_the_next_within_its_band(width, band):
    maze = es.InfiniteMaze(width, band=band, seed=width * band)
    start = (-5000 // band) * band  # a band's first row
    grid = maze.rows(start, start + 10_000)
    for r in range(grid.shape[0] - 1):
        above = (start + r) % band  # rows of r's band above it
        assert reaches_next_row(grid, r, above), r
    values = es.detour(grid)
    assert values.max() <= band - 1
    assert values.tolist() == detour_reference(grid)


@given(width=st.integers(1, 12), height=st.integers(1, 40), seed=seeds)
def test_detour_agrees_with_the_model_on_eller(width, height, seed):
    grid = es.eller(width, height, seed)
    assert es.detour(grid).tolist() == detour_reference(grid)


def test_detour_of_a_disconnected_grid():
    grid = np.array([[0, 2], [3, 0], [0, 0]], np.uint8)  # cell (0, 0) reaches nothing
    assert es.detour(grid).tolist() == [-1, 0]
    assert es.detour(np.zeros((1, 3), np.uint8)).tolist() == []
    with pytest.raises(TypeError, match="grid"):
        es.detour([[0]])


def test_eller_strands_where_the_banded_maze_does_not():
    eller = es.detour(es.eller(80, 3000, seed=1))
    banded_grid = es.detour(es.InfiniteMaze(80, band=32, seed=1).rows(0, 3000))
    assert eller.max() > 60
    assert banded_grid.max() <= 31


# -- determinism ---------------------------------------------------------------------

GOLDEN = {
    (
        40,
        32,
        1,
        0.5,
        0.5,
        None,
        -1000,
        -900,
    ): "3ea13651771e044a391f288535bce3ad2c1be171334802d5345ab5ab9f015e7f",
    (
        7,
        2,
        2**64 - 1,
        0.3,
        0.9,
        0.05,
        10**18,
        10**18 + 50,
    ): "9f90d625e20f5f8e71ca86a5c317231a63521b54b964b85029a05c5f77a9db05",
    (100, 5, 0, 1.0, 0.0, 1.0, 0, 64): "cc5e738d329398612eaaf414250ff1aa6e2dd57fbc91034d4bc8d4a53425090c",
}


@pytest.mark.parametrize("case", list(GOLDEN))
def test_golden_hashes(case):
    width, band, seed, h, v, doors, start, stop = case
    rows = es.InfiniteMaze(width, band, seed, h, v, doors).rows(start, stop)
    assert hashlib.sha256(rows.tobytes()).hexdigest() == GOLDEN[case]


# -- bad input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"band": 1}, ValueError, "band"),
        ({"band": 2.0}, TypeError, "band"),
        ({"band": True}, TypeError, "band"),
        ({"doors": 0.0}, ValueError, "doors"),
        ({"doors": 1.5}, ValueError, "doors"),
        ({"doors": -0.1}, ValueError, "doors"),
        ({"doors": float("nan")}, ValueError, "doors"),
        ({"doors": "0.5"}, TypeError, "doors"),
        ({"width": 0}, ValueError, "width"),
        ({"seed": -1}, ValueError, "seed"),
        ({"horizontal": 2}, ValueError, "horizontal"),
    ],
)
def test_bad_parameters(kwargs, error, name):
    with pytest.raises(error, match=name):
        es.InfiniteMaze(**{"width": 5, **kwargs})


def test_bad_ranges():
    maze = es.InfiniteMaze(5, band=3, seed=1)
    with pytest.raises(ValueError, match="stop"):
        maze.rows(4, 4)
    with pytest.raises(ValueError, match="stop"):
        maze.rows(4, 2)
    with pytest.raises(TypeError, match="start"):
        maze.rows(1.0, 3)
    with pytest.raises(TypeError, match="stop"):
        maze.rows(1, True)
    with pytest.raises(ValueError, match="start"):
        maze.rows(-(2**63) - 1, 0)
    with pytest.raises(ValueError, match="stop"):
        maze.rows(0, 2**63 + 1)
    with pytest.raises(ValueError, match="memory"):
        maze.rows(0, 2**62)
    with pytest.raises(ValueError, match="step"):
        maze[0:10:2]
    with pytest.raises(ValueError, match="start and stop"):
        maze[:10]
    with pytest.raises(TypeError, match="index"):
        maze["3"]
    with pytest.raises(ValueError, match="out"):
        maze.rows(0, 3, out=np.empty((2, 5), np.uint8))
    with pytest.raises(TypeError, match="start"):
        maze.stream(start=0.5)


def test_public_attributes():
    maze = es.InfiniteMaze(9, band=4, seed=12, horizontal=0.25, vertical=0.75, doors=0.3)
    assert (maze.width, maze.band, maze.seed, maze.horizontal, maze.vertical, maze.doors) == (
        9,
        4,
        12,
        0.25,
        0.75,
        0.3,
    )
    assert es.InfiniteMaze(3, seed=1).doors == banded.DEFAULT_DOORS
    assert es.InfiniteMaze(3, seed=1).band == 32
    assert maze == es.InfiniteMaze(9, 4, 12, 0.25, 0.75, 0.3) and maze != es.InfiniteMaze(9, 4, 13)
    assert "band=4" in repr(maze)


# -- the stream ----------------------------------------------------------------------


def test_stream_checkpoint_and_resume_continue_exactly():
    maze = es.InfiniteMaze(11, band=6, seed=4)
    s = maze.stream(start=-20)
    first = np.vstack([s.take(5), next(s)[None], next(s)[None]])
    data = s.checkpoint()
    t = es.BandedStream.resume(data)
    assert t.rows_emitted == s.rows_emitted == 7 and t.start == -20 and t.row == -13
    np.testing.assert_array_equal(t.take(30), s.take(30))
    np.testing.assert_array_equal(t.finish(), s.finish())
    np.testing.assert_array_equal(first, maze.rows(-20, -13))
    assert s.closed and s.rows_emitted == 38
    with pytest.raises(RuntimeError, match="closed"):
        s.take(1)
    with pytest.raises(RuntimeError, match="closed"):
        s.checkpoint()
    with pytest.raises(StopIteration):
        next(s)


def test_corrupt_checkpoints_are_refused():
    data = es.InfiniteMaze(5, band=3, seed=9).stream(start=7).checkpoint()
    for i in range(len(data)):
        for bit in (1, 128):
            bad = bytearray(data)
            bad[i] ^= bit
            with pytest.raises(ValueError):
                es.BandedStream.resume(bytes(bad))
    for n in range(len(data)):
        with pytest.raises(ValueError):
            es.BandedStream.resume(data[:n])
    with pytest.raises(ValueError):
        es.BandedStream.resume(data + b"\0")
    with pytest.raises(TypeError, match="data"):
        es.BandedStream.resume("text")


def _forge(header, names, fields, tail=b""):
    """A checkpoint of ``header``'s layout with a valid checksum: a genuine one's
    fields, ``fields`` changed."""
    import hashlib

    genuine = {
        "magic": b"ELLRBAND", "flags": 0, "width": 5, "band": 3, "seed": 9, "h": 0.5, "v": 0.5,
        "doors": 0.45, "start": 0, "rows": 0, "rows_lo": 0, "rows_hi": 0, "size": len(tail),
    }  # fmt: skip
    values = {**genuine, **fields}
    body = header.pack(*(values[name] for name in names)) + tail
    return body + hashlib.blake2b(body, digest_size=16).digest()


def test_forged_checkpoints_with_valid_checksums_are_refused():
    from eller_stream._checkpoint import BANDED_HEADER, BANDED_V1_HEADER

    v1_names = ["magic", "version", "flags", "width", "band", "seed", "h", "v", "doors", "start", "rows"]
    v2_names = ["magic", "version", "flags", "width", "band", "seed", "start", "rows_lo", "rows_hi", "size"]

    def v1(**fields):
        return _forge(BANDED_V1_HEADER, v1_names, {"version": 1, **fields})

    def v2(tail=b'{"doors":0.45,"horizontal":0.5,"vertical":0.5}', **fields):
        return _forge(BANDED_HEADER, v2_names, {"version": 2, **fields}, tail)

    # what an older version wrote still resumes, with its parameters
    old = es.BandedStream.resume(v1(rows=4, h=0.25))
    assert old.rows_emitted == 4 and old.maze == es.InfiniteMaze(5, 3, 9, 0.25)
    assert es.BandedStream.resume(v2(rows_lo=4)).rows_emitted == 4
    assert v2() == es.InfiniteMaze(5, 3, 9).stream(0).checkpoint()
    for forged in [
        v1(band=1),
        v1(doors=0.0),
        v1(width=0),
        v1(h=2.0),
        v1(start=2**63 - 1, rows=2),
        v1(rows=2**64 - 1),
        v1(version=3),
        v1(doors=float("nan")),
        v2(band=1),
        v2(band=2**16 + 1),
        v2(width=0),
        v2(start=2**63 - 1, rows_lo=2),
        v2(start=-(2**63), rows_hi=1, rows_lo=1),
        v2(rows_hi=2**63),
        v2(tail=b'{"doors":0.0}'),
        v2(tail=b'{"doors":true}'),
        v2(tail=b'{"doors":NaN}'),
        v2(tail=b'{"no_such_knob":0.5}'),  # (was "loops": a knob since issue 20)
        v2(tail=b"[0.5]"),
        v2(tail=b"\xff"),
        v2(tail=b"{}", size=3),
        v2(flags=1),
    ]:
        with pytest.raises(ValueError):
            es.BandedStream.resume(forged)
    # a missing name takes its default
    assert es.BandedStream.resume(v2(tail=b"{}")).params == es.InfiniteMaze(5, 3).params


def test_every_state_a_checkpoint_accepts_can_be_written_back():
    # a stream that handed out row 2**63 - 1 (issue 25: it was refused as corrupt)
    s = es.InfiniteMaze(5, band=3, seed=2).stream(start=2**63 - 2)
    last = s.take(2)
    t = es.BandedStream.resume(s.checkpoint())
    assert t.row == 2**63 and t.rows_emitted == 2
    with pytest.raises(ValueError, match="cannot pass row"):
        next(t)
    with pytest.raises(ValueError, match="n=1"):
        t.take(1)
    np.testing.assert_array_equal(t.finish(), s.finish())
    np.testing.assert_array_equal(last, es.InfiniteMaze(5, band=3, seed=2).rows(2**63 - 2, 2**63))
    # from the first row to the last: 2**64 rows handed out (a checksum-valid forgery was accepted,
    # then checkpoint() raised struct.error)
    s = es.BandedStream.resume(es.InfiniteMaze(4, band=2, seed=1).stream(-(2**63)).checkpoint())
    s._gen = s._maze._seek(2**63 - 1)
    resumed = es.BandedStream.resume(s.checkpoint())
    assert resumed.rows_emitted == 2**64 - 1
    resumed.take(1)
    again = es.BandedStream.resume(resumed.checkpoint())
    assert again.rows_emitted == 2**64 and again.row == 2**63


class _Boom(KeyboardInterrupt):
    pass


@pytest.mark.parametrize(
    ("call", "stage"),
    [
        ("take", "kernel"),
        ("next", "kernel"),
        ("finish", "kernel"),
        ("finish", "close"),
        ("checkpoint", "hash"),
    ],
)
def test_an_interrupted_call_leaves_the_stream_as_it_was(monkeypatch, call, stage):
    maze = es.InfiniteMaze(9, band=4, seed=6)
    s = maze.stream(start=-2)
    s.take(2)
    next(s)  # a block of rows ahead is pending; the next row is not a band's first
    before = s.rows_emitted
    targets = {
        "kernel": (banded.engine, "band_stream_rows"),
        "close": (banded_stream.engine, "eller_close"),
        "hash": (banded_stream._checkpoint, "seal"),
    }
    module, name = targets[stage]
    real = getattr(module, name)

    def interrupted(*args, **kwargs):
        real(*args, **kwargs)  # the work is done (buffers written), then the interrupt lands
        raise _Boom

    monkeypatch.setattr(module, name, interrupted)
    actions = {
        "take": lambda: s.take(5000),
        "next": lambda: [next(s) for _ in range(5000)],
        "finish": s.finish,
        "checkpoint": s.checkpoint,
    }
    with pytest.raises(_Boom):
        actions[call]()
    monkeypatch.setattr(module, name, real)
    assert not s.closed
    if call != "next":  # next() hands out the rows of its block before it needs the kernel
        assert s.rows_emitted == before
    done = s.rows_emitted
    rows = np.vstack([s.take(7), s.finish()[None]])
    expected = maze.stream(start=-2)
    expected.take(done)
    np.testing.assert_array_equal(rows, np.vstack([expected.take(7), expected.finish()[None]]))


def test_threads_share_a_stream():
    maze = es.InfiniteMaze(5, band=4, seed=3)
    s = maze.stream(start=0)
    got: list[bytes] = []
    lock = threading.Lock()

    def work(seed):
        rng = random.Random(seed)
        mine = []
        for _ in range(400):
            if rng.random() < 0.5:
                mine.append(next(s).tobytes())
            else:
                mine.extend(r.tobytes() for r in s.take(rng.randrange(4)))
        with lock:
            got.extend(mine)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert s.rows_emitted == len(got)
    expected = maze.rows(0, len(got))
    assert sorted(got) == sorted(r.tobytes() for r in expected)


def test_a_stream_in_a_tall_band_keeps_o_width_memory():
    # starting (or finishing) far down a band replays the rows above in bounded blocks
    import tracemalloc

    maze = es.InfiniteMaze(10, band=2**16, seed=4)
    tracemalloc.start()
    s = maze.stream(start=2**16 - 10)
    rows = s.take(10)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 200_000  # the 65526 rows above are 655 kB
    np.testing.assert_array_equal(rows, maze.rows(2**16 - 10, 2**16))


def test_a_stream_keeps_o_width_memory():
    import tracemalloc

    s = es.InfiniteMaze(200, band=8, seed=1).stream(start=5)
    next(s)
    tracemalloc.start()
    for _ in range(20_000):
        next(s)
    for _ in range(50):
        s.take(100)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 300_000  # the 64 KiB block ahead, its copy and a few rows


# -- compare -------------------------------------------------------------------------


def test_compare_shows_the_detour_of_every_generator():
    rows = es.compare(
        60, 200, seeds=2, algorithms=["eller", "backtracker", "banded:band=8", "banded:band=32"]
    )
    by = {r["algorithm"]: r for r in rows}
    assert by["banded:band=8"]["detour_max"] <= 7 and by["banded:band=32"]["detour_max"] <= 31
    assert by["eller"]["detour_max"] > 31 and by["backtracker"]["detour_max"] > 31
    assert by["banded:band=8"]["detour_p99"] <= by["banded:band=8"]["detour_max"]
    from eller_stream._compare import generator

    for seed in range(2):  # a banded row of compare is a closed, perfect maze
        grid = generator("banded:band=8")(30, 40, seed)
        assert perfect_problems(grid) == []
        np.testing.assert_array_equal(grid[:-1], es.InfiniteMaze(30, 8, seed).rows(0, 39))


@pytest.mark.parametrize(
    "name",
    [
        "banded:band=1",
        "banded:band=2.5",
        "banded:doors=0",
        "banded:x=1",
        "banded:band=k",
        "banded:band=nan",
        "banded:band=inf",
    ],
)
def test_compare_refuses_bad_banded_names(name):
    from eller_stream._compare import generator

    with pytest.raises(ValueError, match=r"band|doors|takes"):
        generator(name)


@given(
    width=st.integers(1, 9),
    height=st.integers(1, 30),
    flags=st.randoms(use_true_random=False),
)
def test_detour_agrees_with_the_model_on_any_grid(width, height, flags):
    # loops, islands and dead rows too: any flags at all
    grid = np.array([[flags.randrange(4) for _ in range(width)] for _ in range(height)], np.uint8)
    assert es.detour(grid).tolist() == detour_reference(grid)


def test_tile_rows_take_a_banded_stream():
    import itertools

    maze = es.InfiniteMaze(9, band=5, seed=2)
    tiles = np.array(list(itertools.islice(es.tile_rows(maze.stream(start=-7)), 1 + 2 * 12)))
    np.testing.assert_array_equal(tiles, es.tiles(maze.rows(-7, 5)))


THREADS_SCRIPT = """
import threading, numba
import eller_stream as es
maze = es.InfiniteMaze(500, band=16, seed=9)
expected = maze.rows(0, 2000)
results = []
def work():
    results.append(all((maze.rows(0, 2000) == expected).all() for _ in range(10)))
workers = [threading.Thread(target=work) for _ in range(4)]
for w in workers:
    w.start()
for w in workers:
    w.join()
print(numba.threading_layer(), results)
"""


def test_threads_share_a_maze_on_every_core():
    # numba's workqueue thread pool (used where neither OpenMP nor TBB is
    # installed) takes one parallel call at a time: rows() must queue them
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "NUMBA_THREADING_LAYER": "workqueue", "PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-c", THREADS_SCRIPT], capture_output=True, text=True, env=env,
                         timeout=300, check=False)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["workqueue", "[True,", "True,", "True,", "True]"]
