"""Schedules (issue 20): parameters by band, keyframes linear between and
held outside, against the plain model in naive.py; a schedule as data
(equality, repr, JSON, checkpoints) and bad input."""

from __future__ import annotations

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
