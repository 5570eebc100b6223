"""Schedules (issue 20): parameters by band, keyframes linear between and
held outside, against the plain model in naive.py; a schedule as data
(equality, repr, JSON, checkpoints) and bad input."""

from __future__ import annotations

import io
import itertools
import json
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import door_probabilities, probabilities

import eller_stream as es
from eller_stream import _band_kernels as bk
from eller_stream import _checkpoint, _level_kernels, _room_kernels

from naive import banded_reference, neighbours, schedule_params

frames = st.fixed_dictionaries(
    {},
    optional={
        "horizontal": probabilities,
        "vertical": probabilities,
        "doors": door_probabilities,
        "loops": probabilities,
    },
)
schedules = st.dictionaries(st.integers(-6, 6), frames, min_size=1, max_size=4)
OWN = {"horizontal": 0.5, "vertical": 0.5, "doors": 0.45, "loops": 0.0}


@pytest.mark.long
@given(width=st.integers(1, 40), band=st.integers(2, 12), seed=st.integers(0, 2**64 - 1), schedule=schedules,
       start=st.integers(-80, 40), n=st.integers(1, 90))  # fmt: skip
def test_rows_match_the_model(width, band, seed, schedule, start, n):
    maze = es.InfiniteMaze(width, band, seed, schedule=es.Schedule(schedule))
    expected = banded_reference(width, band, seed, start, start + n, schedule=schedule)
    np.testing.assert_array_equal(maze.rows(start, start + n), expected)
    stream = maze.stream(start)
    k = n // 3
    rows = np.vstack(
        [stream.take(k), np.array([next(stream) for _ in range(min(2, n - k))]).reshape(-1, width)]
    )
    rows = np.vstack([rows, es.BandedStream.resume(stream.checkpoint()).take(n - len(rows))])
    np.testing.assert_array_equal(rows, expected)


@pytest.mark.usefixtures("numba_answers")
@pytest.mark.parametrize(("width", "band"), [(24, 16), (80, 8), (13, 10)])
def test_a_range_through_bands_of_more_and_fewer_rooms_is_the_model(width, band):
    # one call makes its bands' scratch once (level_scratch), sized for the band of
    # the range that asks for the most rooms, whichever that is
    schedule = {0: {"rooms": 0.0}, 3: {"rooms": 0.45, "loops": 0.3}, 6: {"rooms": 0.05}, 9: {"rooms": 0.4}}
    maze = es.InfiniteMaze(width, band, 5, schedule=es.Schedule(schedule))
    expected = banded_reference(width, band, 5, -band, 11 * band, schedule=schedule)
    np.testing.assert_array_equal(maze.rows(-band, 11 * band), expected)
    assert any(maze.band_params(b).rooms > 0.3 for b in range(11))
    ths = maze._ths(-1, 12)  # and the scratch holds the most rooms any of them may get
    rects = _level_kernels.level_scratch(band, width, ths)[0]
    assert rects.shape[0] == max(_room_kernels.room_capacity(band, width, th) for th in ths) > 16


@given(schedule=st.dictionaries(st.integers(-(2**63), 2**63 - 1), frames, min_size=1, max_size=5),
       bands=st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=8))  # fmt: skip
def test_band_params_are_the_model_and_the_thresholds_agree(schedule, bands):
    s = es.Schedule(schedule)
    own = es.BandParams(horizontal=0.25, loops=0.75)
    for b in bands:
        p = s.params_at(own, b)
        assert p.as_dict() == schedule_params(schedule, own.as_dict(), b)
        if b > -(2**63):
            th = s.thresholds(own, b, 1)[0]
            expected = p.thresholds()
            expected[bk.TH_DOOR_ABOVE] = s.params_at(own, b - 1).thresholds()[bk.TH_DOOR]
            np.testing.assert_array_equal(th, expected)
    b0 = min(bands) // 2  # a range of bands at once: row j is band b0 + j
    many = s.thresholds(own, b0, 30)
    for j in (0, 7, 29):
        np.testing.assert_array_equal(many[j], s.thresholds(own, b0 + j, 1)[0])
    # a schedule keeps the bands asked for lately: each maze's own values still count
    other = es.BandParams(horizontal=0.5, loops=0.25, doors=0.5)
    for b in bands:
        if b > -(2**63):
            kept, fresh = s.thresholds(other, b, 1), es.Schedule(schedule).thresholds(other, b, 1)
            np.testing.assert_array_equal(kept, fresh)


def test_a_caller_writing_to_the_thresholds_changes_no_later_rows():
    """The thresholds a schedule kept for a band were handed out as they
    were: a caller's write to them changed the rows of every maze sharing
    the schedule."""
    s = es.Schedule({0: {"loops": 1.0}, 4: {"loops": 0.0, "rooms": 0.25}, 8: {"horizontal": 0.1}})
    maze = es.InfiniteMaze(12, band=4, seed=3, schedule=s)
    expected = es.InfiniteMaze(12, band=4, seed=3, schedule=es.Schedule(s.keyframes)).rows(0, 40)
    for _ in range(2):  # the answer made, then the answer kept
        s.thresholds(maze.params, 2, 1)[0, :] = 0
    got = np.concatenate([maze.rows(y, y + 1) for y in range(40)])
    np.testing.assert_array_equal(got, expected)


def test_keyframes_linear_between_and_held_outside():
    maze = es.InfiniteMaze(
        10, 4, 1, horizontal=0.3, schedule=es.Schedule({-10: {"loops": 1.0}, 10: {"vertical": 0.1}})
    )
    assert maze.band_params(-11) == es.BandParams(horizontal=0.3, loops=1.0)
    assert maze.band_params(0) == es.BandParams(horizontal=0.3, vertical=0.3, loops=0.5)
    assert maze.band_params(10) == maze.band_params(10**18) == es.BandParams(horizontal=0.3, vertical=0.1)
    assert es.InfiniteMaze(10, 4, 1).band_params(5) == es.BandParams()


def test_a_schedule_is_data():
    a = es.Schedule({20: {"loops": 1.0, "doors": 0.2}, 0: {"loops": 0}})
    b = es.Schedule({0: {"loops": 0.0}, 20: {"doors": 0.2, "loops": 1.0}})
    assert a == b and hash(a) == hash(b) and a != es.Schedule({0: {"loops": 0.0}})
    assert repr(a) == "Schedule({0: {'loops': 0.0}, 20: {'doors': 0.2, 'loops': 1.0}})"
    assert eval(repr(a), {"Schedule": es.Schedule}) == a
    assert es.Schedule.from_json(a.to_json()) == a and json.loads(a.to_json()) == {
        "0": {"loops": 0.0},
        "20": {"doors": 0.2, "loops": 1.0},
    }
    assert pickle.loads(pickle.dumps(a)) == a
    keyframes = a.keyframes
    keyframes[0]["loops"] = 0.5  # a copy
    assert a.keyframes[0] == {"loops": 0.0}
    m = es.InfiniteMaze(8, 3, 2, schedule=a)
    assert m == es.InfiniteMaze(8, 3, 2, schedule=b) and m != es.InfiniteMaze(8, 3, 2)
    assert "schedule=Schedule(" in repr(m)


def test_checkpoints_carry_the_schedule():
    s = es.Schedule({-3: {"loops": 0.8, "horizontal": 0.2}, 4: {"doors": 1.0}})
    maze = es.InfiniteMaze(11, 5, seed=3, loops=0.1, schedule=s)
    stream = maze.stream(-20)
    stream.take(33)
    data = stream.checkpoint()
    resumed = es.BandedStream.resume(data)
    assert resumed.maze == maze and resumed.maze.schedule == s
    np.testing.assert_array_equal(resumed.take(40), maze.rows(13, 53))
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(stream)).take(5), maze.rows(13, 18))
    # no schedule: the bytes of before
    assert b"schedule" not in es.InfiniteMaze(11, 5, seed=3).stream().checkpoint()


def test_a_ramp_of_loops_lowers_the_dead_ends_band_by_band():
    width, band = 400, 32
    maze = es.InfiniteMaze(
        width, band, seed=20, schedule=es.Schedule({0: {"loops": 0.0}, 20: {"loops": 1.0}})
    )
    grid = maze.rows(-band, 22 * band)
    # dead ends by degree, numpy (not the generator's bookkeeping): E, S, W, N
    east = (grid & es.EAST) > 0
    south = (grid & es.SOUTH) > 0
    degree = east.astype(int) + south
    degree[:, 1:] += east[:, :-1]
    degree[1:] += south[:-1]
    shares = [float((degree[band * (b + 1) : band * (b + 2)] == 1).mean()) for b in range(21)]
    assert all(a > b for a, b in itertools.pairwise(shares)), shares
    assert shares[0] > 0.25 and shares[-1] == 0.0
    y, x = band * 21 + 5, 7  # the numpy degree is the BFS one
    assert degree[y, x] == len(neighbours(grid, y, x))


@pytest.mark.parametrize(
    ("keyframes", "error", "match"),
    [
        ({0: {"wiggle": 0.5}}, ValueError, "wiggle"),
        ({0: {"band": 4}}, ValueError, "'band'"),
        ({0: {"width": 4}}, ValueError, "'width'"),
        ({1.5: {}}, TypeError, "band index"),
        ({"3": {}}, TypeError, "band index"),
        ({True: {}}, TypeError, "band index"),
        ({2**63: {}}, ValueError, "band index"),
        ({0: {"loops": float("nan")}}, ValueError, "loops"),
        ({0: {"loops": True}}, TypeError, "loops"),
        ({0: {"loops": 1.5}}, ValueError, "loops"),
        ({0: {"doors": 0.0}}, ValueError, "doors"),
        ({0: {"horizontal": "0.5"}}, TypeError, "horizontal"),
        ({0: [("loops", 0.5)]}, TypeError, "keyframe"),
        ({}, ValueError, "keyframe"),
        ([(0, {})], TypeError, "dict of keyframes"),
    ],
)
def test_bad_schedules_are_refused(keyframes, error, match):
    with pytest.raises(error, match=match):
        es.Schedule(keyframes)


@pytest.mark.parametrize(
    "text",
    [
        "[1]",
        '{"a": {}}',
        '{"01": {}}',
        '{"1": 3}',
        '{"1": {"loops": NaN}}',
        '{"1": {"no": 1}}',
        "{",
        "{}",
        "3",
    ],
)
def test_json_that_is_not_a_schedule_is_refused(text):
    with pytest.raises(ValueError, match="schedule"):
        es.Schedule.from_json(text)


def test_a_maze_refuses_what_is_not_a_schedule():
    with pytest.raises(TypeError, match="schedule"):
        es.InfiniteMaze(5, schedule={0: {"loops": 1.0}})
    with pytest.raises(TypeError, match="schedule"):
        es.Schedule.from_json(None)


# -- one limit, on the canonical JSON (issue 32) -------------------------------------

LIMIT = 1 << 20  # a schedule's to_json() is at most this many bytes (docs/levels.md)


def keyframes_of_size(n: int) -> dict[int, dict[str, float]]:
    """Keyframes whose ``to_json()`` is exactly ``n`` bytes (``n >= 40``):
    empty ones at 0, 1, 2, ..., then one at a negative band whose digits
    make up the rest."""
    frames: dict[int, dict[str, float]] = {}
    size = 2  # {}
    while n - size > 37:
        size += len(str(len(frames))) + 5 + bool(frames)  # "i":{} and its comma
        frames[len(frames)] = {}
    digits = n - size - bool(frames) - 17  # ,"-111":{"loops":0.5}
    frames[-int("1" * digits)] = {"loops": 0.5}
    text = json.dumps({str(k): frames[k] for k in sorted(frames)}, separators=(",", ":"))
    assert len(text) == n
    return frames


@pytest.mark.long
def test_the_limit_is_on_the_canonical_json():
    at = es.Schedule(keyframes_of_size(LIMIT))
    assert len(at.to_json()) == LIMIT and es.Schedule.from_json(at.to_json()) == at
    over = keyframes_of_size(LIMIT + 1)
    with pytest.raises(ValueError, match=f"at most {LIMIT} bytes"):
        es.Schedule(over)
    with pytest.raises(ValueError, match=f"at most {LIMIT} bytes"):
        es.Schedule.from_json(json.dumps({str(k): f for k, f in over.items()}, separators=(",", ":")))
    with pytest.raises(ValueError, match=f"at most {LIMIT} bytes"):  # refused before it is checked
        es.Schedule({key: {} for key in range(LIMIT // 7 + 1)})
    # values written 0/1: text under the limit, canonical (0.0/1.0) over it
    parts = [f'"{i}":{{"loops":{i % 2}}}' for i in range(50_500)]
    text = "{" + ",".join(parts) + "}"
    assert len(text) < LIMIT < len(text.replace("0}", "0.0}").replace("1}", "1.0}"))
    with pytest.raises(ValueError, match=f"at most {LIMIT} bytes"):
        es.Schedule.from_json(text)
    # whitespace and other spellings are read, up to four times the limit
    spaced = at.to_json().replace(":", ": ")
    assert LIMIT < len(spaced) <= 4 * LIMIT and es.Schedule.from_json(spaced) == at
    with pytest.raises(ValueError, match="over the limit"):
        es.Schedule.from_json(" " * (4 * LIMIT) + at.to_json())
    from eller_stream import _schedule

    assert LIMIT == _schedule.MAX_JSON_BYTES


def test_a_maze_with_the_largest_schedule_saves_and_resumes():
    at = es.Schedule(keyframes_of_size(LIMIT))
    maze = es.InfiniteMaze(9, 4, 5, horizontal=0.30000000000000004, schedule=at)
    stream = maze.stream(-7)
    stream.take(6)
    data = stream.checkpoint()
    assert _checkpoint.read_state(io.BytesIO(data)) == data  # how the command line reads a state
    resumed = es.BandedStream.resume(data)
    assert resumed.maze == maze
    np.testing.assert_array_equal(resumed.take(5), maze.rows(-1, 4))


# -- JSON from outside (issue 32) ----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000,
        '{"0":' * 5000,
        '{"0": {"loops": ' + "[" * 100_000,
        "[" * 2000 + "]" * 2000,
        b"[" * 5000,
    ],
)
def test_deep_json_is_a_value_error(text):
    with pytest.raises(ValueError, match=r"schedule's JSON: .*nested too deeply"):
        es.Schedule.from_json(text)


def test_an_integer_of_too_many_digits_names_the_schedule():
    with pytest.raises(ValueError, match="schedule's JSON: an integer of 5000 digits") as info:
        es.Schedule.from_json('{"0": {"loops": ' + "1" * 5000 + "}}")
    assert "set_int_max_str_digits" not in str(info.value)
    # a float of that many digits is a number (out of range here)
    with pytest.raises(ValueError, match="loops must be in"):
        es.Schedule.from_json('{"0": {"loops": 1' + "0" * 5000 + ".0}}")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"0": {"loops": 0.5}, "-0": {"loops": 1.0}}', "band 0 twice"),
        ('{"0": {}, "0": {"loops": 1.0}}', "key '0' twice"),
        ('{"7": {"loops": 0.5, "loops": 1.0}}', "key 'loops' twice"),
    ],
)
def test_a_band_or_a_parameter_named_twice_is_refused(text, match):
    with pytest.raises(ValueError, match=match):
        es.Schedule.from_json(text)


@pytest.mark.parametrize(
    ("key", "match"),
    [
        ("1,2", "keys must be band indices, got '1,2'"),  # all the keys are read at once, joined by commas
        ("+5", "keys must be band indices"),
        ("05", "keys must be band indices"),
        ("-" + "9" * 19, r"must be in \[-2\*\*63, 2\*\*63\), got -9999999999999999999\b"),
        ("9" * 20, r"must be in \[-2\*\*63, 2\*\*63\), got 99999999999999999999\b"),
        ("-" + "1" * 20, "got 21 digits"),
    ],
)
def test_a_key_that_is_not_a_band_index_is_named(key, match):
    text = json.dumps({"0": {}, "3": {}, key: {"loops": 1.0}})
    with pytest.raises(ValueError, match=match):
        es.Schedule.from_json(text)


def test_minus_zero_is_written_as_zero():
    a = es.Schedule({0: {"loops": -0.0, "horizontal": -0.0}})
    b = es.Schedule.from_json('{"-0": {"loops": -0, "horizontal": -0.0}}')
    zero = es.Schedule({0: {"loops": 0.0, "horizontal": 0.0}})
    assert a.to_json() == b.to_json() == zero.to_json() == '{"0":{"horizontal":0.0,"loops":0.0}}'
    assert hash(a) == hash(zero) and repr(b) == repr(zero)
    # the maze's own values too: one checkpoint for one maze
    minus = es.InfiniteMaze(6, 4, 1, horizontal=-0.0, vertical=-0.0).stream()
    plus = es.InfiniteMaze(6, 4, 1, horizontal=0.0, vertical=0.0).stream()
    assert minus.checkpoint() == plus.checkpoint()
    assert repr(es.BandParams(vertical=-0.0)) == repr(es.BandParams(vertical=0.0))


def test_a_call_costs_no_pass_over_the_keyframes():
    import time

    frames = {i: {"loops": float(i % 2), "doors": 0.25 + 0.5 * (i % 2)} for i in range(30_000)}
    maze = es.InfiniteMaze(8, 4, 3, schedule=es.Schedule(frames))
    stream = maze.stream(4 * 15_000)
    maze.rows(0, 8), stream.take(4)  # compiled, warm
    t0 = time.perf_counter()
    for i in range(100):
        maze.band_params(i)
        maze.rows(4 * i, 4 * i + 8)
        stream.take(2)
    # with the keyframes' values rebuilt per call this took about 4 s
    assert time.perf_counter() - t0 < 1.0


# -- keyframes no band reaches (issue 32) --------------------------------------------


def test_a_keyframe_no_band_reaches_still_shapes_the_ramp():
    # bands of 16 rows: band 2**59 - 1 holds the last row, so 2**60 is never reached
    frames = {0: {"loops": 0.0}, 2**60: {"loops": 1.0}}
    maze = es.InfiniteMaze(10, 16, 3, schedule=es.Schedule(frames))
    last = (2**63 - 1) // 16
    assert maze.band_params(last).loops == schedule_params(frames, OWN | {"rooms": 0.0}, last)["loops"]
    assert maze.band_params(last).loops == (2**59 - 1) / 2**60
    top = 2**63
    expected = banded_reference(10, 16, 3, top - 40, top, schedule=frames)
    np.testing.assert_array_equal(maze.rows(top - 40, top), expected)


# -- the JavaScript module agrees -------------------------------------------------------


def node_rows(params, start, stop):
    """The answer of clients/js (tests/js/rows_stdio.mjs) to one rows request."""
    import pathlib
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = pathlib.Path(__file__).parent / "js" / "rows_stdio.mjs"
    line = json.dumps({"params": params, "start": str(start), "stop": str(stop)})
    done = subprocess.run([node, str(script)], input=line + "\n", capture_output=True, text=True, timeout=60)
    return json.loads(done.stdout)


def test_the_javascript_module_refuses_a_band_named_twice():
    params = {"width": 6, "band": 4, "seed": "1", "schedule": {"0": {"loops": 0.5}, "-0": {"loops": 1}}}
    answer = node_rows(params, 0, 4)
    assert "band 0 twice" in answer.get("error", ""), answer
    with pytest.raises(ValueError, match="band 0 twice"):
        es.Schedule.from_json(json.dumps(params["schedule"]))


def test_the_javascript_module_takes_a_keyframe_no_band_reaches():
    frames = {"0": {"loops": 0.0}, str(2**60): {"loops": 1.0}}
    maze = es.InfiniteMaze(10, 16, 3, schedule=es.Schedule.from_json(json.dumps(frames)))
    answer = node_rows({"width": 10, "band": 16, "seed": "3", "schedule": frames}, 2**63 - 40, 2**63)
    assert answer.get("hex") == maze.rows(2**63 - 40, 2**63).tobytes().hex(), answer


def test_the_lean_backend_takes_the_same_keyframes():
    import os
    import subprocess
    import sys

    code = (
        "import eller_stream as es\n"
        "assert es.backend() == 'lean'\n"
        "far = es.Schedule({0: {'loops': 0.0}, 2**60: {'loops': 1.0}})\n"
        "print(es.InfiniteMaze(10, 16, 3, schedule=far).rows(2**63 - 40, 2**63).tobytes().hex())\n"
        "try:\n"
        '    es.Schedule.from_json(\'{"0": {}, "-0": {}}\')\n'
        "except ValueError as exc:\n"
        "    print(exc)\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "ELLER_STREAM_BACKEND": "lean", "PYTHONPATH": root}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    rows, refusal = done.stdout.splitlines()
    far = es.Schedule({0: {"loops": 0.0}, 2**60: {"loops": 1.0}})
    assert rows == es.InfiniteMaze(10, 16, 3, schedule=far).rows(2**63 - 40, 2**63).tobytes().hex()
    assert refusal == "the schedule has band 0 twice"


def test_a_band_index_past_the_int_digit_limit_is_named_by_its_size() -> None:
    """A band key of 5,000 digits gave Python's own digit-limit message (issue 32)."""
    with pytest.raises(ValueError, match=r"band index must be in \[-2\*\*63, 2\*\*63\), got 5000 digits"):
        es.Schedule.from_json('{"' + "1" * 5000 + '": {}}')
    with pytest.raises(ValueError, match=r"got an int of 16610 bits"):
        es.Schedule({10**5000: {}})


def test_reading_a_large_schedule_leaves_the_garbage_collector_as_it_was():
    # a schedule of 10,000 keyframes or more is read with the collector paused (its passes
    # over the whole process were most of the time); after, it runs as before, also when
    # the schedule is refused, and stays off if it was off
    import gc

    many = {band: {"loops": 0.5} for band in range(20_000)}
    text = es.Schedule(many).to_json()
    assert gc.isenabled()
    assert es.Schedule.from_json(text) == es.Schedule(many) and gc.isenabled()
    with pytest.raises(ValueError, match="the schedule at band 19999"):
        es.Schedule({**many, 19_999: {"loops": 2.0}})
    assert gc.isenabled()
    with pytest.raises(ValueError, match="band 0 twice"):
        es.Schedule.from_json(text[:-1] + ',"-0":{}}')
    assert gc.isenabled()
    gc.disable()
    try:
        assert es.Schedule(many) == es.Schedule.from_json(text) and not gc.isenabled()
    finally:
        gc.enable()
