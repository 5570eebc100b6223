"""Saving a game in one call: ``maze.to_json()`` / ``InfiniteMaze.from_json``
and ``win.to_json()`` / ``Window.from_json`` round-trip exactly (hypothesis,
over every parameter of ``BandParams`` and schedules), refuse bad text with a
ValueError that names what is wrong, and the JavaScript module (under node)
takes the maze's JSON as its params and gives the same rows."""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from node_support import NodeLines, running
from strategies import door_probabilities, probabilities, room_shares, seeds

import eller_stream as es

TOP = 2**63

# Every knob of BandParams, each with the values it takes (a knob added there is covered here).
KNOB_VALUES = {"doors": door_probabilities, "rooms": room_shares}
knobs = st.fixed_dictionaries(
    {}, optional={name: KNOB_VALUES.get(name, probabilities) for name in es.BandParams.names()}
)
band_indices = st.one_of(st.integers(-50, 50), st.integers(-(2**63), 2**63 - 1))
schedules = st.one_of(
    st.none(), st.dictionaries(band_indices, knobs, min_size=1, max_size=4).map(es.Schedule)
)


def maze_of(width: int, band: int, seed: int, values: dict[str, float], schedule: Any) -> es.InfiniteMaze:
    return es.InfiniteMaze.from_params(width, band, seed, es.BandParams(**values), schedule)


# widths up to 2**26: a maze wider than this machine's memory holds a row of is refused when it is made
any_maze = st.builds(maze_of, st.integers(1, 2**26), st.integers(2, 65536), seeds, knobs, schedules)
small_maze = st.builds(maze_of, st.integers(1, 12), st.integers(2, 9), seeds, knobs, schedules)


# -- the maze ---------------------------------------------------------------------------------
@given(any_maze)
def test_a_maze_round_trips_exactly(maze: es.InfiniteMaze) -> None:
    text = maze.to_json()
    back = es.InfiniteMaze.from_json(text)
    assert back == maze and back.to_json() == text
    assert es.InfiniteMaze.from_json(text.encode()) == maze
    value = json.loads(text)
    assert list(value)[:4] == ["version", "width", "band", "seed"] and value["version"] == 1
    assert value["seed"] == str(maze.seed)  # a decimal string, whatever its size
    assert [k for k in value if k in es.BandParams.names()] == list(es.BandParams.names())  # every knob
    assert ("schedule" in value) == (maze.schedule is not None)
    assert json.dumps(value, separators=(",", ":")) == text  # compact, one line


@settings(max_examples=20, deadline=None)
@given(small_maze, st.integers(-(2**63), 2**63 - 20))
def test_the_maze_read_back_gives_the_same_rows(maze: es.InfiniteMaze, start: int) -> None:
    back = es.InfiniteMaze.from_json(maze.to_json())
    assert back.rows(start, start + 9).tobytes() == maze.rows(start, start + 9).tobytes()


def test_a_knob_left_out_takes_its_default() -> None:
    text = '{"version": 1, "width": 6, "band": 4, "seed": "3", "loops": 0.5}'
    assert es.InfiniteMaze.from_json(text) == es.InfiniteMaze(6, band=4, seed=3, loops=0.5)


GOOD = {"version": 1, "width": 6, "band": 4, "seed": "3"}


def with_(**changes: Any) -> str:
    value = {**GOOD, **changes}
    return json.dumps({k: v for k, v in value.items() if v is not ...})


BAD_MAZES = [
    ("[1]", r"the maze must be a JSON object, got an array"),
    ("{", r"^not an InfiniteMaze's JSON: Expecting property name"),
    ('{"version": 1, "version": 1}', r"the key 'version' twice"),
    ("[" * 5000, r"nested too deeply"),
    ('{"version": 1, "width": ' + "9" * 5000 + "}", r"an integer of 5000 digits"),
    (with_(loops=float("nan")), r"NaN is not a number"),
    (with_(version=...), r"the key 'version' is missing"),
    (with_(seed=...), r"the key 'seed' is missing"),
    (with_(colour="red"), r"unknown key 'colour' \(the keys: version, width, band, seed, horizontal"),
    (with_(version=2), r"version 2 is not supported \(this reads version 1\)"),
    (with_(version="1"), r'version "1" is not supported'),
    (with_(version=True), r"version true is not supported"),
    (with_(version=1.0), r"version 1.0 is not supported"),
    (with_(seed=3), r"seed must be a decimal string of an int in \[0, 2\*\*64\), got 3$"),
    (with_(seed="-1"), r'seed must be a decimal string .*got "-1"'),
    (with_(seed="03"), r'seed must be a decimal string .*got "03"'),
    (with_(seed=str(2**64)), r"seed must be a decimal string .*got \"18446744073709551616\""),
    (with_(seed=" 3"), r"seed must be a decimal string"),
    (with_(width=0), r"width must be in \[1, 2147483646\], got 0"),
    (with_(width=6.0), r"width must be a JSON integer, got 6.0"),
    (with_(band=1), r"band must be in \[2, 65536\], got 1"),
    (with_(band=None), r"band must be a JSON integer, got null"),
    (with_(horizontal=2), r"horizontal must be in \[0, 1\], got 2.0"),
    (with_(horizontal="0.5"), r"horizontal must be a real number in \[0, 1\], got str"),
    (with_(doors=0), r"doors must be in \(0, 1\], got 0"),
    (with_(rooms=1), r"rooms must be in \[0, 1\), got 1.0"),
    (with_(schedule=None), r"schedule must be an object of keyframes, got null"),
    (with_(schedule=[]), r"schedule must be an object of keyframes, got an array"),
    (with_(schedule={}), r"a schedule needs at least one keyframe"),
    (with_(schedule={"x": {}}), r"keys must be band indices, got 'x'"),
    (with_(schedule={"0": {"loops": 2}}), r"the schedule at band 0: loops must be in \[0, 1\]"),
    (with_(schedule={"0": {"loop": 0.5}}), r"unknown banded-maze parameter 'loop'"),
    ('"' + " " * (4 * 2**20 + 4097) + '"', r"characters, over the limit of 4198400"),
]


@pytest.mark.parametrize(("text", "match"), BAD_MAZES)
def test_bad_maze_text_is_a_value_error_naming_what_is_wrong(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match) as caught:
        es.InfiniteMaze.from_json(text)
    assert str(caught.value).startswith("not an InfiniteMaze's JSON: ")


def test_a_maze_from_json_that_is_not_text_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="an InfiniteMaze's JSON must be str or bytes, got dict"):
        es.InfiniteMaze.from_json({"width": 3})  # type: ignore[arg-type]


# -- the JavaScript module reads the maze's JSON ---------------------------------------------------
class Node(NodeLines):
    """The module's rows of a maze's JSON text (tests/js/rows_stdio.mjs reads
    the request line with JSON.parse, so the params are JSON.parse(text))."""

    script = "rows_stdio.mjs"

    def rows(self, text: str, start: int, stop: int) -> dict[str, str]:
        return self.send({"params": json.loads(text), "start": str(start), "stop": str(stop)})


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    yield from running(Node)


@settings(max_examples=40, deadline=None)
@given(
    st.builds(maze_of, st.integers(1, 30), st.integers(2, 16), seeds, knobs, schedules),
    st.integers(-(2**63), 2**63 - 40),
    st.integers(1, 30),
)
def test_the_javascript_module_takes_the_maze_json_as_its_params(
    node: Node, maze: es.InfiniteMaze, start: int, count: int
) -> None:
    answer = node.rows(maze.to_json(), start, start + count)
    assert answer.get("hex") == maze.rows(start, start + count).tobytes().hex(), answer.get("error")


@pytest.mark.parametrize("version", [2, 0, "1", None, True, [1]])
def test_both_refuse_a_version_they_do_not_read(node: Node, version: Any) -> None:
    # (1.0 is refused by Python alone: JavaScript's JSON.parse cannot tell it from 1)
    text = with_(version=version)
    answer = node.rows(text, 0, 1)
    assert "RangeError: version" in answer.get("error", ""), answer
    if version == "1":  # it said "version 1 is not supported (this reads version 1 ...)"
        assert 'version "1" is not supported' in answer["error"]
    with pytest.raises(ValueError, match=r"version .* is not supported"):
        es.InfiniteMaze.from_json(text)


def test_both_refuse_a_key_they_do_not_know(node: Node) -> None:
    assert 'unknown parameter "colour"' in node.rows(with_(colour=1), 0, 1).get("error", "")
    with pytest.raises(ValueError, match="unknown key 'colour'"):
        es.InfiniteMaze.from_json(with_(colour=1))


# -- the window ---------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    small_maze,
    st.one_of(st.integers(-40, 40), st.integers(-TOP, -TOP + 30), st.integers(TOP - 30, TOP - 1)),
    st.one_of(st.none(), st.integers(0, 12)),
    st.integers(0, 12),
    st.integers(0, 2**32),
)
def test_a_window_round_trips_exactly(
    maze: es.InfiniteMaze, row: int, above: int | None, below: int, seed: int
) -> None:
    rng = random.Random(seed)
    win = es.Window(maze, row=row, above=above, below=below)
    for _ in range(rng.randrange(4)):  # some fog, scrolled
        cell = (rng.randrange(win.top, win.bottom), rng.randrange(maze.width))
        win.explore(cell, rng.randrange(5))
        win.move_to(min(max(win.row + rng.randrange(-3, 4), -TOP), TOP - 1))
    text = win.to_json()
    back = es.Window.from_json(text)
    assert back.to_json() == text
    assert back.maze == maze and (back.row, back.top, back.bottom) == (win.row, win.top, win.bottom)
    assert (back.above, back.below) == (win.above, win.below)
    assert back.rows.tobytes() == win.rows.tobytes() and back.explored.tolist() == win.explored.tolist()
    value = json.loads(text)
    assert list(value) == ["version", "maze", "row", "above", "below", "top", "bottom", "explored"]
    assert value["maze"] == json.loads(maze.to_json())
    assert value["row"] == str(win.row) and value["bottom"] == str(win.bottom)
    back.move_to(win.row + (1 if win.row < TOP - 1 else -1))  # the window read back goes on as any
    assert back.rows.tobytes() == maze.rows(back.top, back.bottom).tobytes()


def window_value(**changes: Any) -> str:
    win = es.Window(es.InfiniteMaze(5, band=4, seed=1), row=10, above=2, below=1)
    win.explore((10, 2), 1)
    value = {**json.loads(win.to_json()), **changes}
    return json.dumps({k: v for k, v in value.items() if v is not ...})


BAD_WINDOWS = [
    (None, r"the window must be a JSON object"),
    ({"zoom": 2}, r"unknown key 'zoom' \(the keys: version, maze, row"),
    ({"explored": ...}, r"the key 'explored' is missing"),
    ({"version": 2}, r"version 2 is not supported"),
    ({"maze": {"width": 5}}, r"^not a Window's JSON: maze: the key 'version' is missing"),
    ({"maze": json.loads(with_(seed=1))}, r"maze: seed must be a decimal string"),
    ({"row": 10}, r"row must be a decimal string of a row, got 10"),
    ({"row": str(TOP)}, r"row must be in \[-9223372036854775808, 9223372036854775807\]"),
    ({"above": -1}, r"above must be in \[0, 1048576\], got -1"),
    ({"below": 1.0}, r"below must be a JSON integer, got 1.0"),
    ({"top": "9"}, r"top and bottom must be 8 and 12 \(row, above, below\), got 9, 12"),
    ({"bottom": str(TOP + 1)}, r"bottom must be in"),
    ({"explored": "AAAAAAAA"}, r"explored must be the base64 of 3 bytes \(20 bits\)"),
    ({"explored": "AA*A"}, r"explored is not base64"),
    ({"explored": "AAAP"}, r"explored must hold 20 bits, the last byte padded with zero bits"),
    ({"explored": [0]}, r"explored must be the base64"),
]


@pytest.mark.parametrize(("changes", "match"), BAD_WINDOWS)
def test_bad_window_text_is_a_value_error_naming_what_is_wrong(changes: dict[str, Any] | None, match: str):
    text = "[]" if changes is None else window_value(**changes)  # made here: collection compiles nothing
    with pytest.raises(ValueError, match=match) as caught:
        es.Window.from_json(text)
    assert str(caught.value).startswith("not a Window's JSON: ")


def test_the_fog_is_saved_bit_by_bit() -> None:
    win = es.Window(es.InfiniteMaze(5, band=4, seed=1), row=10, above=2, below=1)  # 4 rows of 5: 20 bits
    win.explore((10, 2), 0)  # the cell alone: bit 2 * 5 + 2 = 12
    data = base64.b64decode(json.loads(win.to_json())["explored"])
    bits = np.unpackbits(np.frombuffer(data, np.uint8))
    assert bits.tolist() == [int(i == 12) for i in range(24)]
