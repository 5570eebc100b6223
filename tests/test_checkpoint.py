"""Checkpoints: exact resumption, O(width) size, refusal of bad bytes."""

from __future__ import annotations

import hashlib
import io
import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import eller_stream as es

HEADER = struct.Struct("<8sHHIQddQQ")


@given(
    width=st.integers(1, 120),
    seed=st.integers(0, 2**64 - 1),
    h=st.floats(0, 1),
    v=st.floats(0, 1),
    before=st.integers(0, 300),
    by_next=st.integers(0, 40),
    after=st.integers(0, 100),
)
def test_resume_continues_exactly(width, seed, h, v, before, by_next, after):
    original = es.EllerStream(width, seed, h, v)
    original.take(before)
    for _ in range(by_next):  # leaves rows generated ahead inside the stream
        next(original)
    data = original.checkpoint()
    resumed = es.EllerStream.resume(data)
    assert (resumed.width, resumed.seed, resumed.horizontal, resumed.vertical) == (width, seed, h, v)
    assert resumed.rows_emitted == before + by_next
    np.testing.assert_array_equal(resumed.take(after), original.take(after))
    np.testing.assert_array_equal(next(resumed), next(original))
    np.testing.assert_array_equal(resumed.finish(), original.finish())


def test_checkpoint_does_not_disturb_the_stream():
    a = es.EllerStream(33, 5)
    b = es.EllerStream(33, 5)
    rows = [next(a) for _ in range(10)]
    a.checkpoint()
    rows += [next(a) for _ in range(10)] + list(a.take(5))
    np.testing.assert_array_equal(np.array(rows), b.take(25))


def test_checkpoint_is_small_and_o_width():
    for width in (1, 80, 1000):
        stream = es.EllerStream(width, 1)
        stream.take(500)
        assert len(stream.checkpoint()) == HEADER.size + 4 * width + 16


def test_resume_far_row_index():
    stream = es.EllerStream(20, 3)
    stream._gen = stream._gen._replace(row=2**70 + 5)
    stream.take(3)
    resumed = es.EllerStream.resume(stream.checkpoint())
    assert resumed.rows_emitted == 2**70 + 8
    np.testing.assert_array_equal(resumed.take(10), stream.take(10))


def checkpoint_of(width=12, rows=40):
    stream = es.EllerStream(width, 99, 0.4, 0.6)
    stream.take(rows)
    return stream.checkpoint()


def resign(body: bytes) -> bytes:
    """Forge a checksum, as a foreign program that knows the format would."""
    return body + hashlib.blake2b(body, digest_size=16).digest()


def test_every_truncation_is_refused():
    data = checkpoint_of()
    for n in range(len(data)):
        with pytest.raises(ValueError):
            es.EllerStream.resume(data[:n])


def test_every_flipped_byte_is_refused():
    data = bytearray(checkpoint_of())
    for i in range(len(data)):
        for bit in (0x01, 0x80):
            bad = bytearray(data)
            bad[i] ^= bit
            with pytest.raises(ValueError):
                es.EllerStream.resume(bytes(bad))


@pytest.mark.parametrize(
    "data",
    [b"", b"hello world", b"\x00" * 100, b"ELLRSTRM" + b"\x00" * 80, np.arange(50, dtype=np.uint8).tobytes()],
)
def test_foreign_bytes_are_refused(data):
    with pytest.raises(ValueError):
        es.EllerStream.resume(data)


def test_wrong_type_is_a_type_error():
    with pytest.raises(TypeError, match="data"):
        es.EllerStream.resume("not bytes")  # type: ignore[arg-type]


def forged(width=6, left=None, **fields):
    """A checkpoint with a valid checksum; ``fields`` override header fields."""
    values = dict(magic=b"ELLRSTRM", version=1, flags=0, width=width, seed=1, h=0.5, v=0.5, lo=0, hi=0)
    values.update(fields)
    header = HEADER.pack(*values.values())
    if left is None:
        left = list(range(width))
    return resign(header + np.asarray(left, "<i4").tobytes())


def test_forged_but_valid_state_is_accepted():
    # sets {0, 2} and {1}, {3, 4, 5}: non-crossing, sorted circular lists
    stream = es.EllerStream.resume(forged(6, left=[2, 1, 0, 5, 3, 4]))
    grid = np.vstack([stream.take(20), stream.finish()[None]])
    assert grid.shape == (21, 6)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"version": 2}, "version"),
        ({"flags": 1}, "version"),
        ({"magic": b"ELLRSTRX"}, "not an eller_stream checkpoint"),
        ({"h": float("nan")}, "corrupt"),
        ({"v": 1.5}, "corrupt"),
        ({"left": [0, 1, 2, 3, 4]}, "corrupt"),  # fewer cells than the header's width
        ({"left": [0, 1, 2, 3, 4, 5, 6]}, "corrupt"),
        ({"left": [0, 1, 2, 3, 4, 6]}, "corrupt"),  # out of range
        ({"left": [0, 0, 2, 3, 4, 5]}, "corrupt"),  # not a permutation
        ({"left": [-1, 1, 2, 3, 4, 5]}, "corrupt"),
        ({"left": [2, 3, 0, 1, 4, 5]}, "corrupt"),  # crossing sets {0, 2} and {1, 3}
        ({"left": [1, 2, 0, 3, 4, 5]}, "corrupt"),  # cycle 0->2->1->0 is not sorted
    ],
)
def test_forged_invalid_states_are_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        es.EllerStream.resume(forged(**fields))


# -- the banded checkpoint's parameters: JSON from outside (issue 32) ----------------

BANDED = struct.Struct("<8sHHIQQqQQI")


def banded_forged(params: bytes, width=6, band=4, seed=1, start=0, rows=0):
    """A sealed version-2 banded checkpoint holding ``params`` as its JSON."""
    header = BANDED.pack(b"ELLRBAND", 2, 0, width, band, seed, start, rows, 0, len(params))
    return resign(header + params)


KNOBS = b'"doors":0.45,"horizontal":0.5,"vertical":0.5'


def test_forged_banded_parameters_are_read():
    stream = es.BandedStream.resume(banded_forged(b"{" + KNOBS + b',"schedule":{"0":{"loops":1.0}}}'))
    assert stream.maze == es.InfiniteMaze(6, 4, 1, schedule=es.Schedule({0: {"loops": 1.0}}))


@pytest.mark.parametrize(
    ("params", "match"),
    [
        (b"[" * 5000, "nested too deeply"),
        (b"{" + KNOBS + b',"schedule":' + b"[" * 5000, "nested too deeply"),
        (b"{" + KNOBS + b',"schedule":{"0":{"loops":1.0},"-0":{"loops":0.0}}}', "band 0 twice"),
        (b"{" + KNOBS + b',"schedule":{"0":{"loops":1.0},"0":{"loops":0.0}}}', "key '0' twice"),
        (b"{" + KNOBS + b',"doors":0.5}', "key 'doors' twice"),
        (b'{"doors":' + b"1" * 5000 + b"}", "5000 digits"),
        (b"{" + KNOBS + b',"loops":NaN}', "NaN"),
    ],
)
def test_hostile_banded_parameters_are_corrupt(params, match):
    with pytest.raises(ValueError, match=f"corrupt .*{match}"):
        es.BandedStream.resume(banded_forged(params))


def test_the_library_and_the_command_line_take_the_same_parameters():
    from eller_stream import _checkpoint

    good = b"{" + KNOBS + b"}"
    for size, taken in ((_checkpoint.MAX_PARAMS_BYTES, True), (_checkpoint.MAX_PARAMS_BYTES + 1, False)):
        data = banded_forged(good[:-1] + b" " * (size - len(good)) + b"}")  # JSON allows the spaces
        for read in (es.BandedStream.resume, lambda d: _checkpoint.read_state(io.BytesIO(d))):
            if taken:
                read(data)
            else:
                with pytest.raises(ValueError, match="parameters too long"):
                    read(data)


# -- a Zarr store's attributes (issue 32) -----------------------------------------------


@pytest.fixture
def store(tmp_path):
    pytest.importorskip("zarr", reason="the [dask] extra is not installed")
    pytest.importorskip("dask.array", reason="the [dask] extra is not installed")
    path = tmp_path / "m.zarr"
    es.write_zarr(path, es.InfiniteMaze(8, 4, 1, schedule=es.Schedule({0: {"loops": 0.5}})), 0, 8)
    return path


@pytest.mark.parametrize(
    ("old", "new", "match"),
    [
        ('"start": 0', '"deep": ' + "[" * 5000 + "]" * 5000 + ', "start": 0', "nested too deeply"),
        ('"start": 0', '"start": 0, "start": 1', "key 'start' twice"),
        ('"0": {', '"-0": {}, "0": {', "band 0 twice"),
        ('"start": 0', '"start": ' + "1" * 5000, "5000 digits"),
    ],
)
def test_hostile_store_attributes_are_a_value_error(store, old, new, match):
    meta = store / "zarr.json"
    text = meta.read_text()
    assert old in text
    meta.write_text(text.replace(old, new, 1))
    with pytest.raises(ValueError, match=match):
        es.read_zarr_maze(store)


def test_a_store_with_the_largest_schedule_reads_back(tmp_path):
    pytest.importorskip("zarr", reason="the [dask] extra is not installed")
    pytest.importorskip("dask.array", reason="the [dask] extra is not installed")
    from test_schedule import LIMIT, keyframes_of_size

    maze = es.InfiniteMaze(8, 4, 1, schedule=es.Schedule(keyframes_of_size(LIMIT)))
    es.write_zarr(tmp_path / "m.zarr", maze, -4, 4)
    assert es.read_zarr_maze(tmp_path / "m.zarr") == (maze, -4, 4)
