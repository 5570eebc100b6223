"""The command line's level options: --loops, --rooms and --schedule with
--band, in the stream command and render; each option comes from BandParams
(a new knob gets its option without a change here)."""

from __future__ import annotations

import numpy as np
import pytest
from cli_support import raw_rows as raw
from cli_support import run as cli

import eller_stream as es
from eller_stream._params import BandParams


@pytest.fixture
def ramp(tmp_path):
    schedule = es.Schedule({-2: {"loops": 0.0, "rooms": 0.0}, 3: {"loops": 1.0, "rooms": 0.25}})
    path = tmp_path / "ramp.json"
    path.write_text(schedule.to_json())
    return schedule, str(path)


def test_every_banded_parameter_has_its_option():
    out = cli("--help")
    text = out.stdout.decode()
    for name in BandParams.names():
        assert f"--{name}" in text
    assert "--schedule FILE" in text


def test_loops_rooms_and_a_schedule_stream_the_library_rows(ramp):
    schedule, path = ramp
    args = ["--band", "6", "--start", "-15", "--rows", "61", "--seed", "4", "--doors", "0.6"]
    grid = raw(*args, "--loops", "0.3", "--rooms", "0.2", "--schedule", path, width=25)
    maze = es.InfiniteMaze(25, band=6, seed=4, doors=0.6, loops=0.3, rooms=0.2, schedule=schedule)
    np.testing.assert_array_equal(grid[:-1], maze.rows(-15, 45))
    assert es.metrics(grid).loops > 0


def test_save_and_resume_keep_the_schedule(tmp_path, ramp):
    schedule, path = ramp
    state = str(tmp_path / "s.bin")
    common = ["--band", "5", "--seed", "9", "--start", "-12"]
    first = raw(*common, "--schedule", path, "--rows", "20", "--save-state", state, width=14)
    rest = raw("--resume", state, "--rows", "11", width=14)
    maze = es.InfiniteMaze(14, band=5, seed=9, schedule=schedule)
    np.testing.assert_array_equal(np.vstack([first, rest[:-1]]), maze.rows(-12, 18))
    out = cli("--resume", state, "--loops", "0.5")
    assert out.returncode == 2 and b"--loops 0.5 disagrees" in out.stderr
    other = tmp_path / "other.json"
    other.write_text(es.Schedule({0: {"loops": 0.5}}).to_json())
    out = cli("--resume", state, "--schedule", str(other))
    assert out.returncode == 2 and b"--schedule" in out.stderr and b"disagrees" in out.stderr


def test_render_records_and_redraws_the_level(tmp_path, ramp):
    import png

    _, path = ramp
    first = tmp_path / "a.png"
    out = cli("render", "-o", str(first), "--band", "4", "--width", "10", "--rows", "9", "--seed", "2",
              "--loops", "0.5", "--rooms", "0.3", "--schedule", path)  # fmt: skip
    assert out.returncode == 0, out.stderr
    reader = png.Reader(filename=str(first))
    chunks = dict(reader.chunks())
    description = chunks[b"tEXt"].split(b"\0", 1)[1].decode()
    for option in ("--loops 0.5", "--rooms 0.3", f"--schedule {path}"):
        assert option in description
    again = tmp_path / "b.png"
    out = cli("render", "-o", str(again), *description.split()[2:])
    assert out.returncode == 0, out.stderr
    a, b = png.Reader(filename=str(first)).read(), png.Reader(filename=str(again)).read()
    assert [bytes(r) for r in a[2]] == [bytes(r) for r in b[2]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--loops", "0.5"], b"--loops needs --band"),
        (["--rooms", "0.1"], b"--rooms needs --band"),
        (["--band", "4", "--loops", "1.5"], b"--loops: loops must be in [0, 1]"),
        (["--band", "4", "--loops", "nan"], b"--loops: loops must be in [0, 1]"),
        (["--band", "4", "--rooms", "1"], b"--rooms: rooms must be in [0, 1)"),
        (["--band", "4", "--loops", "x"], b"--loops: must be a number"),
        (["--band", "4", "--schedule", "/no/such/file"], b"--schedule: cannot read"),
    ],
)
def test_bad_level_options_are_one_line(args, message):
    out = cli(*args, "--rows", "3")
    assert out.returncode == 2 and out.stdout == b""
    assert out.stderr.startswith(b"eller-stream: error: ") and out.stderr.count(b"\n") == 1
    assert message in out.stderr, out.stderr


@pytest.mark.parametrize(
    "text", ["{", "[1]", '{"x": {}}', '{"0": {"nope": 1}}', '{"0": {"loops": 2}}', '{"0": {"loops": true}}']
)
def test_a_file_that_is_not_a_schedule_is_one_line(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    for command in ([], ["render", "-o", str(tmp_path / "x.png")]):
        out = cli(*command, "--band", "4", "--schedule", str(path), "--rows", "3")
        assert out.returncode == 2 and out.stderr.count(b"\n") == 1
        assert out.stderr.startswith(b"eller-stream: error: --schedule: ")
        assert b"is not a schedule" in out.stderr
