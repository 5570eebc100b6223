"""The plane in the JavaScript module (clients/js/plane.mjs, re-exported by
eller_stream.mjs, run with node): every vector of tests/vectors/plane.json,
the bytes of the package's ``Plane.region`` on random regions (chunks 1 to
64, both modes, coordinates near 0 and near +/-2**62, probabilities 0 and 1),
the same refusals, the same defaults, and the modules served and linked."""

from __future__ import annotations

import hashlib
import inspect
import json
import math
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from node_support import NODE, STATIC, Big, NodeLines, half_up_module, needs_node, running, to_js
from strategies import plane_knobs, seeds

import eller_stream as es
from eller_stream import plane as plane_module
from eller_stream._plane_params import PlaneParams

HERE = Path(__file__).resolve().parent
PLANE = json.loads((HERE / "vectors" / "plane.json").read_text())["vectors"]
TOP = 2**62
SAFE = 2**53 - 1
_DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)")
Region = tuple[Any, Any, Any, Any, Any]  # params, y0, y1, x0, x1 as the module gets them


class Node(NodeLines):
    """Batches of the module's plane calls, a line a batch (tests/js/plane_stdio.mjs)."""

    script = "plane_stdio.mjs"

    def calls(self, call: str, batch: list[Region]) -> list[dict[str, str]]:
        answers: list[dict[str, str]] = self.send({"call": call, "batch": to_js([list(r) for r in batch])})[
            "answers"
        ]
        assert len(answers) == len(batch)
        return answers


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    yield from running(Node)


def as_int(value: Any) -> Any:
    """A decimal string or a Big as the int it is; anything else as it is."""
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        return int(value)
    return int(value) if isinstance(value, Big) else value


def in_python(params: dict[str, Any], *bounds: Any) -> Any:
    """The package's region of the module's arguments (and the Plane)."""
    kw = {k: as_int(v) if k in ("chunk", "seed") else v for k, v in params.items()}
    plane = es.Plane(**kw)
    return plane.region(*map(as_int, bounds)), plane


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- the vectors ----------------------------------------------------------------------------------
@needs_node
def test_the_javascript_module_gives_every_plane_vector(node: Node) -> None:
    answers = node.calls("region", [(v["params"], v["y0"], v["y1"], v["x0"], v["x1"]) for v in PLANE])
    for v, answer in zip(PLANE, answers, strict=True):
        assert "hex" in answer, (v, answer)
        got = bytes.fromhex(answer["hex"])
        width = int(v["x1"]) - int(v["x0"])
        assert len(got) == (int(v["y1"]) - int(v["y0"])) * width
        assert sha(got) == v["sha256"], (v["params"], v["y0"], v["x0"], v.get("about"))
        for y, hexed in v["rows"].items():
            k = int(y) - int(v["y0"])
            assert got[k * width : (k + 1) * width].hex() == hexed, (v.get("about"), y)


@needs_node
def test_a_javascript_module_that_rounds_half_up_fails_the_plane_tie_vectors(tmp_path: Path) -> None:
    """The tie vectors pin ``threshold``'s rounding for the plane's thresholds too."""
    ties = [v for v in PLANE if v.get("about", "").startswith("tie:")]
    assert len(ties) >= 5
    assert NODE is not None
    batch = [to_js([v["params"], v["y0"], v["y1"], v["x0"], v["x1"]]) for v in ties]
    env = {**os.environ, "ELLER_STREAM_MODULE": str(half_up_module(tmp_path))}
    line = json.dumps({"call": "region", "batch": batch}) + "\n"
    done = subprocess.run(
        [NODE, str(HERE / "js" / "plane_stdio.mjs")],
        input=line,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    answers = json.loads(done.stdout)["answers"]
    for v, answer in zip(ties, answers, strict=True):
        assert sha(bytes.fromhex(answer["hex"])) != v["sha256"], v["about"]


# -- random regions, against the package --------------------------------------------------------
near = st.one_of(
    st.integers(-300, 300),
    st.integers(-TOP, -TOP + 300),
    st.integers(TOP - 300, TOP - 1),
    st.integers(-TOP, TOP - 1),
)


def as_given(value: int, form: str) -> Any:
    """``value`` as a Number (when safe), a BigInt or a decimal string."""
    if form == "number" and abs(value) <= SAFE:
        return value
    return str(value) if form == "str" else Big(value)


@st.composite
def regions(draw: st.DrawFn) -> Region:
    params: dict[str, Any] = {
        "chunk": draw(st.integers(1, 64)),
        "seed": str(draw(seeds)),
        **draw(plane_knobs()),
    }
    y0, x0 = draw(near), draw(near)
    y1 = min(y0 + draw(st.integers(1, 24)), TOP)
    x1 = min(x0 + draw(st.integers(1, 24)), TOP)
    forms = st.sampled_from(["number", "big", "str"])
    return (params, *(as_given(v, draw(forms)) for v in (y0, y1, x0, x1)))


@needs_node
@given(batch=st.lists(regions(), min_size=1, max_size=24))
def test_the_javascript_module_matches_the_package_plane(node: Node, batch: list[Region]) -> None:
    for case, answer, cells in zip(
        batch, node.calls("region", batch), node.calls("cellsMade", batch), strict=True
    ):
        grid, plane = in_python(*case)
        assert answer.get("hex") == grid.tobytes().hex(), (case, answer.get("error"))
        assert int(cells["cells"]) == plane.cells_made(*map(as_int, case[1:])), case


# -- refusals ---------------------------------------------------------------------------------------
OK: dict[str, Any] = {"chunk": 4, "seed": "1"}
AT = (0, 1, 0, 1)
# (what, params, bounds, the word both messages name, who refuses: p(ython) j(s), kinds alike)
Bad = tuple[str, Any, tuple[Any, ...], str, str, bool]


def knob(name: str, value: Any, where: str = "pj", alike: bool = True) -> Bad:
    return (f"{name} {value!r}", {**OK, name: value}, AT, name, where, alike)


def at(what: str, bounds: tuple[Any, ...], word: str, where: str = "pj") -> Bad:
    return (what, OK, bounds, word, where, True)


BAD: list[Bad] = [
    *(knob("chunk", v) for v in (0, -1, 1025, Big(2**64), 2.5, True, None, "x", "16.0")),
    *(knob("seed", v) for v in (-1, "-1", Big(2**64), str(2**64), "1.5", "0x10", "", " 1", "01", 1.5, True)),
    knob("seed", None, where="j"),  # the package draws a seed for None
    knob("seed", float(2**53), where="j"),  # a Number past the safe integers is not exact
    *(knob("perfect", v) for v in (1, 0, None, "true")),
    *(knob("horizontal", v) for v in (-0.1, 1.5, math.nan, math.inf, -math.inf, True, None, "0.5")),
    *(knob("vertical", v) for v in (2, -1e-300, math.nan, 1.0000000000000002)),
    knob("colour", 2, alike=False),  # Python's unexpected keyword is a TypeError; the module's a RangeError
    ("params null", None, AT, "params", "j", True),
    ("params a list", [], AT, "params", "j", True),
    at("y0 == y1", (0, 0, 0, 1), "y1"),
    at("y1 below y0", (1, 0, 0, 1), "y1"),
    at("x0 == x1", (0, 1, 5, 5), "x1"),
    at("y0 below -2**62", (Big(-TOP - 1), 0, 0, 1), "y0"),
    at("y0 2**62", (Big(TOP), Big(TOP + 1), 0, 1), "y0"),
    at("y1 -2**62", (Big(-TOP), Big(-TOP), 0, 1), "y1"),
    at("y1 past 2**62", (0, Big(TOP + 1), 0, 1), "y1"),
    at("x0 below -2**62", (0, 1, Big(-TOP - 1), 0), "x0"),
    at("x1 past 2**62", (0, 1, 0, Big(TOP + 1)), "x1"),
    at("y0 1.5", (1.5, 4, 0, 1), "y0"),
    at("y0 a word", ("x", 4, 0, 1), "y0"),
    at("y1 true", (0, True, 0, 1), "y1"),
    at("x0 null", (0, 1, None, 1), "x0"),
    at("x1 NaN", (0, 1, 0, math.nan), "x1"),
    at("x1 Infinity", (0, 1, 0, math.inf), "x1"),
    at("y0 an unsafe Number", (float(2**53 + 2), float(2**53 + 4), 0, 1), "y0", where="j"),
    # both name the arguments (the module named none, an attacker found)
    at("more than MAX_MADE", (0, 2**16, 0, 2**15), "y0, y1, x0, x1: region"),
    at("all the rows", (Big(-TOP), Big(TOP), 0, 1), "y0, y1, x0, x1: region"),
]
KIND = {"TypeError": TypeError, "RangeError": ValueError}


def bad_cases(where: str) -> list[Any]:
    return [pytest.param(p, b, w, alike, id=what) for what, p, b, w, places, alike in BAD if where in places]


@needs_node
@pytest.mark.parametrize(("params", "bounds", "word", "alike"), bad_cases("j"))
def test_the_javascript_module_refuses(
    node: Node, params: Any, bounds: tuple[Any, ...], word: str, alike: bool
) -> None:
    answer, cells = (
        node.calls("region", [(params, *bounds)])[0],
        node.calls("cellsMade", [(params, *bounds)])[0],
    )
    assert answer.get("kind") in KIND and word in answer["error"], answer
    if not word.endswith("region"):  # cellsMade counts what region refuses to make
        assert cells == answer, cells


@pytest.mark.parametrize(("params", "bounds", "word", "alike"), bad_cases("p"))
def test_the_package_refuses_the_same(
    node: Node, params: Any, bounds: tuple[Any, ...], word: str, alike: bool
) -> None:
    with pytest.raises((TypeError, ValueError), match=re.escape(word)) as caught:
        in_python(params, *bounds)
    answer = node.calls("region", [(params, *bounds)])[0]
    assert answer.get("kind") in KIND, answer
    if alike:
        assert caught.type is KIND[answer["kind"]], (caught.value, answer)


def test_the_limit_is_the_packages() -> None:
    assert plane_module.MAX_MADE == 2**31
    source = (STATIC / "plane.mjs").read_text()
    assert "export const MAX_MADE = 2n ** 31n;" in source
    assert "export const MAX_CHUNK = 1024;" in source


@needs_node
def test_both_count_the_cells_made_at_the_limit(node: Node) -> None:
    """A region that makes MAX_MADE cells is taken (its count is the same in
    both), one chunk more is refused by both before anything is made."""
    params = {"chunk": 1024, "seed": "3"}
    edge = (params, 0, 1, 0, 2047 * 1024)  # 1 x 2048 chunks (column 2047 * 1024 starts the last) of 2**20
    over = (params, 0, 1, 0, 2048 * 1024)
    counts = node.calls("cellsMade", [edge, over])
    plane = es.Plane(1024, 3)
    assert [int(c["cells"]) for c in counts] == [plane.cells_made(*edge[1:]), plane.cells_made(*over[1:])]
    assert plane.cells_made(*edge[1:]) <= 2**31 < plane.cells_made(*over[1:])
    answer = node.calls("region", [over])[0]
    assert answer.get("kind") == "RangeError" and "more than 2147483648" in answer["error"], answer
    with pytest.raises(ValueError, match="more than 2147483648"):
        plane.region(*over[1:])


ACCEPTED: list[Region] = [
    (OK, Big(TOP - 1), Big(TOP), Big(TOP - 1), Big(TOP)),
    (OK, Big(-TOP), Big(-TOP + 1), Big(-TOP), Big(-TOP + 1)),
    (OK, str(-TOP), str(-TOP + 3), str(TOP - 3), str(TOP)),
    ({"chunk": 1, "seed": 0}, -2, 3, -2, 3),
    ({"chunk": Big(3), "seed": Big(2**64 - 1)}, -2, 3, -2, 3),
    ({"chunk": 1024, "seed": "7"}, 5, 9, 5, 9),
    ({}, SAFE - 3, SAFE, -SAFE, -SAFE + 3),
    ({"seed": 5, "perfect": False, "horizontal": 0, "vertical": 1}, 0, 20, 0, 20),
    ({"chunk": 5, "horizontal": 1, "vertical": -0.0}, 0, 20, -7, 20),
]


@needs_node
def test_both_accept_the_edges(node: Node) -> None:
    for case, answer in zip(ACCEPTED, node.calls("region", ACCEPTED), strict=True):
        grid, _ = in_python(*case)
        assert answer.get("hex") == grid.tobytes().hex(), (case, answer.get("error"))


# -- defaults, and where the modules are -------------------------------------------------------------
@needs_node
def test_the_javascript_plane_defaults_are_the_packages() -> None:
    """``PLANE_DEFAULTS``: Plane's chunk and seed, then PlaneParams' names and
    defaults, in order."""
    module = (HERE.parent / "clients" / "js" / "eller_stream.mjs").as_uri()
    script = (
        f"import {{ PLANE_DEFAULTS }} from {json.dumps(module)}; console.log(JSON.stringify(PLANE_DEFAULTS));"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    defaults = json.loads(done.stdout, object_pairs_hook=list)
    signature = inspect.signature(es.Plane).parameters
    assert defaults[:2] == [("chunk", signature["chunk"].default), ("seed", signature["seed"].default)]
    assert defaults[2:] == list(PlaneParams().as_dict().items())


def imported(name: str) -> set[str]:
    """The modules of static/ that ``name`` imports, and theirs."""
    found: set[str] = set()
    todo = [name]
    while todo:
        text = (STATIC / todo.pop()).read_text()
        lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
        for other in re.findall(r'from "\./([\w.]+\.mjs)"', "\n".join(lines)):
            if other not in found:
                found.add(other)
                todo.append(other)
    return found - {name}


def test_every_module_is_served_and_linked() -> None:
    """What eller_stream.mjs imports is served beside it and linked from clients/js."""
    from eller_stream.serve.app import STATIC as SERVED

    wanted = imported("eller_stream.mjs")
    assert {"_core.mjs", "plane.mjs"} <= wanted
    for name in wanted | {"eller_stream.mjs"}:
        assert SERVED[f"/{name}"][0] == name
        link = HERE.parent / "clients" / "js" / name
        assert link.is_symlink() and link.resolve() == (STATIC / name).resolve(), name
