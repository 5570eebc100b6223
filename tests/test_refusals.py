"""Every implementation refuses the same bad input: the package's API
(``InfiniteMaze``, ``EllerStream``, ``Schedule``), the HTTP API's query
parser and the JavaScript module (clients/js/eller_stream.mjs, under node),
each with an error whose message names the argument (``TypeError`` or
``ValueError`` in Python, ``TypeError`` or ``RangeError`` in JavaScript).
The inputs are the JavaScript module's (JSON with BigInts, NaN and the
infinities); the package gets their Python values, the server their text.
Inputs at the edges of every range are accepted by all three."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

import pytest
from node_support import Big, NodeLines, running, to_js

import eller_stream as es

TOP = 2**63
BANDED = {"width": 8, "band": 4, "seed": "1"}
ELLER = {"width": 8, "seed": "1"}
_DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)")


def as_int(value: Any) -> Any:
    """A decimal string or a Big as the int it is; anything else as it is."""
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        return int(value)
    return int(value) if isinstance(value, Big) else value


def in_python(call: str, params: dict[str, Any], *args: Any) -> None:
    """The package's call of the same input."""
    kw = {k: as_int(v) if k in ("width", "band", "seed") else v for k, v in params.items()}
    if "schedule" in kw:
        kw["schedule"] = es.Schedule.from_json_value(kw["schedule"])
    if "band" in kw:
        es.InfiniteMaze(**kw).rows(*map(as_int, args))
        return
    stream = es.EllerStream(**kw)
    if call == "closingRow":
        stream.take(as_int(args[0]))
        stream.finish()


def query_text(value: Any) -> str:
    if isinstance(value, (dict, list)) or value is None:
        return json.dumps(value)
    return str(int(value)) if isinstance(value, Big) else str(value)


def in_server(params: dict[str, Any], start: Any, stop: Any) -> None:
    """The HTTP API's parse of the same query (a QueryError is a ValueError)."""
    from eller_stream.serve._request import parse

    query = {k: [query_text(v)] for k, v in {**params, "start": start, "stop": stop}.items()}
    parse(query)


class Node(NodeLines):
    """Calls of the module, a line at a time (tests/js/calls_stdio.mjs)."""

    script = "calls_stdio.mjs"

    def call(self, call: str, *args: Any) -> dict[str, Any]:
        return self.send({"call": call, "args": to_js(list(args))})


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    yield from running(Node)


# (what, call, params, args, the word each message names, where: p(ython) s(erver) j(s))
Case = tuple[str, str, dict[str, Any], tuple[Any, ...], str, str]
ROWS: list[Case] = [
    ("start == stop", "rows", BANDED, (4, 4), "stop", "psj"),
    ("stop below start", "rows", BANDED, (5, 4), "stop", "psj"),
    ("start 2**63", "rows", BANDED, (Big(TOP), Big(TOP)), "start", "psj"),
    ("start below -2**63", "rows", BANDED, (Big(-TOP - 1), 0), "start", "psj"),
    ("stop past 2**63", "rows", BANDED, (0, Big(TOP + 1)), "stop", "psj"),
    ("start 1.5", "rows", BANDED, (1.5, 4), "start", "psj"),
    ("start a word", "rows", BANDED, ("x", 4), "start", "psj"),
    ("start true", "rows", BANDED, (True, 4), "start", "psj"),
    ("start null", "rows", BANDED, (None, 4), "start", "psj"),
    ("stop NaN", "rows", BANDED, (0, math.nan), "stop", "psj"),
    ("too many bytes", "rows", {**BANDED, "width": 2**31 - 2}, (0, 2**30), "width", "pj"),
    # the Eller stream's rows count from 0 (the package streams them: no range to check)
    ("eller: start == stop", "rows", ELLER, (0, 0), "stop", "sj"),
    ("eller: start == stop == 3", "rows", ELLER, (3, 3), "stop", "sj"),
    ("eller: start -1", "rows", ELLER, (-1, 1), "start", "sj"),
    ("eller: start 2**63", "rows", ELLER, (Big(TOP), Big(TOP)), "start", "sj"),
    ("eller: stop past 2**63", "rows", ELLER, (0, Big(TOP + 1)), "stop", "sj"),
    ("closing row after -1 rows", "closingRow", ELLER, (-1,), "n", "pj"),
    ("closing row after 1.5 rows", "closingRow", ELLER, (1.5,), "n", "pj"),
]


def param(name: str, value: Any, where: str = "psj", base: dict[str, Any] = BANDED, word: str = "") -> Case:
    params = {**base, name: value}
    return (f"{name} {value!r}", "rows", params, (0, 1), word or name, where)


PARAMS: list[Case] = [
    *(param("width", v) for v in (0, -1, 2**31 - 1, 2.5, True, None)),
    ("no width", "rows", {"band": 4, "seed": "1"}, (0, 1), "width", "psj"),
    *(param("band", v) for v in (1, 0, 65537, 2.5, True, "four")),
    *(param("seed", v) for v in ("-1", str(2**64), "1.5", "0x10", "", " 1", "01", 1.5, -1, True)),
    param("seed", None, where="sj"),  # the package draws a seed for None
    param("seed", Big(2**64)),
    *(param("horizontal", v) for v in (-0.1, 1.5, math.nan, math.inf, -math.inf, True, None)),
    param("horizontal", "0.5", where="pj"),  # the server's values are text
    *(param("vertical", v) for v in (2, -1e-300, math.nan)),
    *(param("doors", v) for v in (0, 0.0, -0.0, 1.5, math.nan)),
    *(param("loops", v) for v in (-1e-9, 1.0000000000000002, math.inf)),
    *(param("rooms", v) for v in (1, 1.0, 1.5, -0.5)),
    *(param(name, 0.5, base=ELLER) for name in ("doors", "loops", "rooms")),
    param("schedule", {"0": {"loops": 0.5}}, base=ELLER),
    param("colour", 2),
    param("colour", 2, base=ELLER),
]
SCHEDULES: list[Case] = [
    *(
        param("schedule", v, word=word)
        for v, word in (
            ([], "schedule"),
            ([{"loops": 0.5}], "schedule"),
            ({}, "schedule"),
            ("0", "schedule"),
            (None, "schedule"),
            ({"x": {}}, "schedule"),
            ({"01": {}}, "schedule"),
            ({"+1": {}}, "schedule"),
            ({str(TOP): {}}, "schedule"),
            ({str(-TOP - 1): {}}, "schedule"),
            ({"0": 5}, "schedule"),
            ({"0": None}, "schedule"),
            ({"0": []}, "schedule"),
            ({"0": [0.5]}, "schedule"),
            ({"0": "ab"}, "schedule"),
            ({"0": {"colour": 1}}, "colour"),
            ({"0": {"width": 9}}, "width"),
            ({"0": {"loops": 2}}, "loops"),
            ({"0": {"doors": 0}}, "doors"),
            ({"0": {"rooms": 1}}, "rooms"),
            ({"0": {"loops": "0.5"}}, "loops"),
            ({"0": {"loops": True}}, "loops"),
            ({"0": {"loops": None}}, "loops"),
        )
    ),
    param("schedule", {"0": {"horizontal": math.nan}}, where="pj"),  # JSON has no NaN: the server's
    param("schedule", {"0": {}, "-0": {}}, word="band 0"),
    param("schedule", {"4": {"loops": 0.1}, "-0": {}, "0": {"doors": 0.5}}, word="band 0"),
]
CASES = ROWS + PARAMS + SCHEDULES


# Schedule.from_json_value keeps the last keyframe of a band named twice
# (issue 32, item 7: its fix is on another branch)
def cases(where: str) -> list[Any]:
    out = []
    for what, call, params, args, word, places in CASES:
        if where[0] not in places:
            continue
        out.append(pytest.param(call, params, args, word, id=what))
    return out


@pytest.mark.parametrize(("call", "params", "args", "word"), cases("js"))
def test_the_javascript_module_refuses(
    node: Node, call: str, params: dict[str, Any], args: tuple[Any, ...], word: str
) -> None:
    answer = node.call(call, params, *args)
    assert answer.get("kind") in ("TypeError", "RangeError"), answer
    assert word in answer["error"], answer


@pytest.mark.parametrize(("call", "params", "args", "word"), cases("python"))
def test_the_package_refuses(call: str, params: dict[str, Any], args: tuple[Any, ...], word: str) -> None:
    with pytest.raises((TypeError, ValueError), match=re.escape(word)):
        in_python(call, params, *args)


@pytest.mark.parametrize(("call", "params", "args", "word"), cases("server"))
def test_the_server_refuses(call: str, params: dict[str, Any], args: tuple[Any, ...], word: str) -> None:
    pytest.importorskip("starlette")
    with pytest.raises(ValueError, match=re.escape(word)):
        in_server(params, *args)


# -- and the edges of every range, which all three accept ------------------------------
ACCEPTED: list[tuple[str, dict[str, Any], tuple[Any, ...]]] = [
    ("the first row", BANDED, (Big(-TOP), Big(-TOP + 1))),
    ("the last row", BANDED, (Big(TOP - 1), Big(TOP))),
    ("one row", BANDED, (-1, 0)),
    ("eller: row 0", ELLER, (0, 1)),
    ("eller: rows 5 to 9", ELLER, (5, 9)),
    ("width 1, band 2", {"width": 1, "band": 2, "seed": "0"}, (0, 3)),
    ("band 65536", {"width": 2, "band": 65536, "seed": "0"}, (0, 2)),
    ("the last seed", {**BANDED, "seed": str(2**64 - 1)}, (0, 1)),
    ("a Number seed", {**BANDED, "seed": 5}, (0, 1)),
    ("probabilities 0 and 1", {**BANDED, "horizontal": 0, "vertical": 1, "doors": 1, "loops": 0}, (0, 4)),
    ("the least doors", {**BANDED, "doors": 5e-324}, (0, 4)),
    ("rooms below 1", {**BANDED, "band": 8, "rooms": 0.9999999999999999}, (0, 8)),
    ("an empty keyframe", {**BANDED, "schedule": {"-5": {}}}, (0, 4)),
    ("keyframes -0 and 3", {**BANDED, "schedule": {"-0": {"loops": 1}, "3": {"doors": 1.0}}}, (-4, 20)),
]


@pytest.mark.parametrize(("params", "args"), [pytest.param(p, a, id=w) for w, p, a in ACCEPTED])
def test_all_three_accept_the_edges(node: Node, params: dict[str, Any], args: tuple[Any, ...]) -> None:
    answer = node.call("rows", params, *args)
    assert answer.get("length") == (as_int(args[1]) - as_int(args[0])) * params["width"], answer
    in_python("rows", params, *args)
    if params["width"] <= 4096:
        in_server(params, *args)


def test_the_javascript_module_refuses_an_eller_range_it_would_replay_for_years(node: Node) -> None:
    """``rows({width: 6, seed: "3"}, 2**63 - 2, 2**63)`` never returned: the
    Eller stream is made from row 0 (issue 32). Past ``MAX_ELLER_CELLS`` it is
    a RangeError, as the server refuses it by the cells it makes."""
    for call, args in [("rows", (ELLER, Big(TOP - 2), Big(TOP))), ("closingRow", (ELLER, Big(TOP - 1)))]:
        answer = node.call(call, *args)
        assert answer.get("kind") == "RangeError" and "no seek" in answer.get("error", ""), answer
    assert node.call("rows", ELLER, 0, 3) == {"length": 24}
