"""Saving a plane in one call: ``plane.to_json()`` / ``Plane.from_json``
round-trip exactly (hypothesis, over chunks, seeds and every knob of
``PlaneParams``), refuse bad text with a ValueError that names what is
wrong, and the JavaScript module (under node) takes the plane's JSON as its
params and gives the same regions."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from node_support import Big, NodeLines, running, to_js
from strategies import plane_knobs, seeds

import eller_stream as es
from eller_stream._plane_params import PlaneParams
from eller_stream.plane import MAX_CHUNK


def planes(most: int = MAX_CHUNK) -> st.SearchStrategy[es.Plane]:
    """Planes of chunks up to ``most``, any seed and knobs."""
    chunks = st.integers(1, most)
    return st.builds(lambda c, seed, knobs: es.Plane(c, seed, **knobs), chunks, seeds, plane_knobs())


@given(planes())
def test_a_plane_round_trips_exactly(plane: es.Plane) -> None:
    text = plane.to_json()
    back = es.Plane.from_json(text)
    assert back == plane and back.to_json() == text
    assert es.Plane.from_json(text.encode()) == plane
    value = json.loads(text)
    assert list(value) == ["version", "chunk", "seed", *PlaneParams.names()] and value["version"] == 1
    assert value["seed"] == str(plane.seed)  # a decimal string, whatever its size
    assert json.dumps(value, separators=(",", ":")) == text  # compact, one line


@settings(max_examples=15, deadline=None)
@given(planes(16), st.integers(-(2**62), 2**62 - 20), st.integers(-(2**62), 2**62 - 20))
def test_the_plane_read_back_gives_the_same_regions(plane: es.Plane, y0: int, x0: int) -> None:
    back = es.Plane.from_json(plane.to_json())
    assert back.region(y0, y0 + 7, x0, x0 + 9).tobytes() == plane.region(y0, y0 + 7, x0, x0 + 9).tobytes()


def test_a_knob_left_out_takes_its_default() -> None:
    assert es.Plane.from_json('{"version": 1, "chunk": 4, "seed": "3", "perfect": false}') == es.Plane(
        4, 3, perfect=False
    )


GOOD = {"version": 1, "chunk": 4, "seed": "3"}


def with_(**changes: Any) -> str:
    value = {**GOOD, **changes}
    return json.dumps({k: v for k, v in value.items() if v is not ...})


BAD_PLANES = [
    ("[1]", r"the plane must be a JSON object, got an array"),
    ("{", r"^not a Plane's JSON: Expecting property name"),
    ('{"chunk": 1, "chunk": 1}', r"the key 'chunk' twice"),
    ("[" * 4000, r"nested too deeply"),
    (with_(vertical=float("nan")), r"NaN is not a number"),
    (with_(version=...), r"the key 'version' is missing"),
    (with_(chunk=...), r"the key 'chunk' is missing"),
    (with_(seed=...), r"the key 'seed' is missing"),
    (with_(width=8), r"unknown key 'width' \(the keys: version, chunk, seed, perfect, horizontal, vert"),
    (with_(version=2), r"version 2 is not supported \(this reads version 1\)"),
    (with_(version=True), r"version true is not supported"),
    (with_(seed=3), r"seed must be a decimal string of an int in \[0, 2\*\*64\), got 3$"),
    (with_(seed="-1"), r'seed must be a decimal string .*got "-1"'),
    (with_(seed=str(2**64)), r"seed must be a decimal string"),
    (with_(chunk=0), r"chunk must be in \[1, 1024\], got 0"),
    (with_(chunk=1025), r"chunk must be in \[1, 1024\], got 1025"),
    (with_(chunk=4.0), r"chunk must be a JSON integer, got 4.0"),
    (with_(chunk=True), r"chunk must be a JSON integer, got true"),
    (with_(perfect=1), r"perfect must be True or False, got int"),
    (with_(horizontal=2), r"horizontal must be in \[0, 1\], got 2.0"),
    (with_(vertical="0.5"), r"vertical must be a real number in \[0, 1\], got str"),
    ('"' + " " * 5000 + '"', r"characters, over the limit of 4096"),
]


@pytest.mark.parametrize(("text", "match"), BAD_PLANES)
def test_bad_plane_text_is_a_value_error_naming_what_is_wrong(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match) as caught:
        es.Plane.from_json(text)
    assert str(caught.value).startswith("not a Plane's JSON: ")


def test_a_plane_from_json_that_is_not_text_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="a Plane's JSON must be str or bytes, got dict"):
        es.Plane.from_json({"chunk": 3})  # type: ignore[arg-type]


# -- the JavaScript module reads the plane's JSON --------------------------------------------------
class Node(NodeLines):
    """The module's regions (tests/js/plane_stdio.mjs, which reads each
    request line with JSON.parse: the params are JSON.parse(text))."""

    script = "plane_stdio.mjs"

    def region(self, text: str, y0: int, y1: int, x0: int, x1: int) -> dict[str, str]:
        batch = to_js([[json.loads(text), Big(y0), Big(y1), Big(x0), Big(x1)]])
        answers: list[dict[str, str]] = self.send({"call": "region", "batch": batch})["answers"]
        return answers[0]


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    yield from running(Node)


@settings(max_examples=30, deadline=None)
@given(planes(24), st.integers(-(2**62), 2**62 - 20), st.integers(-50, 50))
def test_the_javascript_module_takes_the_plane_json_as_its_params(
    node: Node, plane: es.Plane, y0: int, x0: int
) -> None:
    answer = node.region(plane.to_json(), y0, y0 + 6, x0, x0 + 11)
    assert answer.get("hex") == plane.region(y0, y0 + 6, x0, x0 + 11).tobytes().hex(), answer.get("error")


@pytest.mark.parametrize("version", [2, 0, "1", None, True, [1]])
def test_both_refuse_a_version_they_do_not_read(node: Node, version: Any) -> None:
    text = with_(version=version)
    answer = node.region(text, 0, 1, 0, 1)
    assert answer.get("kind") == "RangeError" and "version" in answer.get("error", ""), answer
    if version == "1":  # it said "version 1 is not supported (this reads version 1)"
        assert 'version "1" is not supported' in answer["error"]
    with pytest.raises(ValueError, match=r"version .* is not supported"):
        es.Plane.from_json(text)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"seed": ...}, "seed"),  # the module took seed 0 (an attacker's)
        ({"chunk": ...}, "chunk"),
        ({"seed": 7}, "seed must be a decimal string"),
        ({"seed": "-0"}, "seed must be a decimal string"),
        ({"seed": "07"}, "seed must be a decimal string"),
        ({"seed": str(2**64)}, "seed must be a decimal string"),
        ({"chunk": "16"}, "chunk must be a JSON integer"),
    ],
)
def test_both_read_a_saved_plane_as_strictly(node: Node, changes: dict[str, Any], words: str) -> None:
    """JSON with a "version" is a saved plane: the module took it with a
    key left out (seed 0, chunk 16) or spelt as params may be (a number
    seed, a string chunk), where Plane.from_json refuses it."""
    text = with_(**changes)
    answer = node.region(text, 0, 2, 0, 2)
    assert answer.get("kind") == "RangeError" and words in answer.get("error", ""), answer
    with pytest.raises(ValueError, match=re.escape(words)):
        es.Plane.from_json(text)
    plain = {k: v for k, v in json.loads(text).items() if k != "version"}  # params: defaults and spellings
    if plain.get("seed") not in ("-0", "07", str(2**64)) and plain.get("chunk") != "16":
        assert "hex" in node.region(json.dumps(plain), 0, 2, 0, 2)


def test_both_refuse_a_key_they_do_not_know(node: Node) -> None:
    assert 'unknown parameter "width"' in node.region(with_(width=1), 0, 1, 0, 1).get("error", "")
    with pytest.raises(ValueError, match="unknown key 'width'"):
        es.Plane.from_json(with_(width=1))
