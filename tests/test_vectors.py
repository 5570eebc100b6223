"""The conformance vectors of docs/spec.md (tests/vectors/*.json): the
package, the plain-Python model of naive.py and the JavaScript module
(clients/js/eller_stream.mjs, run with node) all give their bytes."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import door_probabilities, probabilities, room_shares, seeds

import eller_stream as es

from naive import banded_reference, closing_row_reference, eller_reference, seed_key

pytestmark = pytest.mark.usefixtures("numba_answers")

HERE = Path(__file__).resolve().parent
VECTORS = sorted((HERE / "vectors").glob("*.json"))
ALL = [(path.name, i, v) for path in VECTORS for i, v in enumerate(json.loads(path.read_text())["vectors"])]
IDS = [f"{name}-{i}" for name, i, _ in ALL]
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (.ci/run installs nodejs)")


def sha(rows: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(rows, np.uint8).tobytes()).hexdigest()


def schedule_of(params: dict[str, Any]) -> dict[int, dict[str, float]] | None:
    frames = params.get("schedule")
    return None if frames is None else {int(b): f for b, f in frames.items()}


def package_rows(params: dict[str, Any], start: int, stop: int) -> tuple[np.ndarray, np.ndarray | None]:
    """The rows from the package (and the Eller stream's closing row)."""
    knobs = {k: v for k, v in params.items() if k not in ("width", "band", "seed", "schedule")}
    if "band" not in params:
        s = es.EllerStream(params["width"], int(params["seed"]), **knobs)
        rows = np.array([next(s) for _ in range(stop)], np.uint8).reshape(stop, params["width"])
        return rows[start:], s.finish()
    frames = schedule_of(params)
    schedule = None if frames is None else es.Schedule(frames)
    maze = es.InfiniteMaze(params["width"], params["band"], int(params["seed"]), schedule=schedule, **knobs)
    return maze.rows(start, stop), None


def naive_rows(params: dict[str, Any], start: int, stop: int) -> tuple[np.ndarray, np.ndarray | None]:
    """The same rows from naive.py, which imports nothing of the package."""
    knobs = {k: v for k, v in params.items() if k not in ("width", "band", "seed", "schedule")}
    width, seed = params["width"], int(params["seed"])
    if "band" not in params:
        h, v = knobs.get("horizontal", 0.5), knobs.get("vertical", 0.5)
        rows = eller_reference(width, stop, seed, h, v)
        return rows[start:], closing_row_reference(rows, width)
    return banded_reference(
        width, params["band"], seed, start, stop, schedule=schedule_of(params), **knobs
    ), None


def check(vector: dict[str, Any], rows: np.ndarray, closing: np.ndarray | None) -> None:
    start, width = int(vector["start"]), vector["params"]["width"]
    assert rows.shape == (int(vector["stop"]) - start, width)
    assert sha(rows) == vector["sha256"]
    for r, hexed in vector["rows"].items():
        assert rows[int(r) - start].tobytes().hex() == hexed, r
    if "closing_sha256" in vector:
        assert closing is not None and sha(closing) == vector["closing_sha256"]
    if "key" in vector:
        assert f"{seed_key(int(vector['params']['seed'])):016x}" == vector["key"]


@pytest.mark.parametrize(("name", "i", "vector"), ALL, ids=IDS)
def test_the_package_gives_each_vector(name: str, i: int, vector: dict[str, Any]) -> None:
    check(vector, *package_rows(vector["params"], int(vector["start"]), int(vector["stop"])))


@pytest.mark.parametrize(("name", "i", "vector"), ALL, ids=IDS)
def test_the_plain_model_gives_each_vector(name: str, i: int, vector: dict[str, Any]) -> None:
    check(vector, *naive_rows(vector["params"], int(vector["start"]), int(vector["stop"])))


def test_the_vectors_cover_what_the_spec_says() -> None:
    params = [v["params"] for _, _, v in ALL]
    eller = [p for p in params if "band" not in p]
    banded = [p for p in params if "band" in p]
    assert {1, 2} <= {p["width"] for p in eller} and {1, 2} <= {p["width"] for p in banded}
    assert {"0", str(2**64 - 1)} <= {p["seed"] for p in params}
    assert {2, 3, 4} <= {p["band"] for p in banded}
    starts = [int(v["start"]) for _, _, v in ALL]
    stops = [int(v["stop"]) for _, _, v in ALL]
    assert min(starts) == -(2**63) and max(stops) == 2**63 and any(s < 0 for s in starts)
    for name in ("horizontal", "vertical"):
        assert {0.0, 1.0} <= {p.get(name, 0.5) for p in eller}, name
    for name in ("horizontal", "vertical", "loops"):
        assert {0.0, 1.0} <= {p.get(name, -1) for p in banded}, name
    assert 1.0 in {p.get("doors") for p in banded} and any(p.get("rooms", 0) > 0 for p in banded)
    assert any("schedule" in p for p in banded)


# -- the JavaScript module --------------------------------------------------------------


@needs_node
def test_the_javascript_module_gives_every_vector() -> None:
    script = HERE / "js" / "check_vectors.mjs"
    done = subprocess.run(
        [NODE, str(script), *map(str, VECTORS)], capture_output=True, text=True, timeout=300
    )
    report = json.loads(done.stdout)
    assert report["failures"] == [] and done.returncode == 0
    assert report["checked"] == len(ALL)


class Node:
    """One node process answering rows requests a line at a time (tests/js/rows_stdio.mjs)."""

    def __init__(self) -> None:
        script = str(HERE / "js" / "rows_stdio.mjs")
        self.proc = subprocess.Popen([NODE, script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, params: dict[str, Any], start: int, stop: int) -> dict[str, str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"params": params, "start": str(start), "stop": str(stop)}) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, str] = json.loads(self.proc.stdout.readline())
        return answer


@pytest.fixture(scope="module")
def node() -> Iterator[Node]:
    if NODE is None:
        pytest.skip("node is not installed (.ci/run installs nodejs)")
    n = Node()
    yield n
    n.proc.kill()
    n.proc.wait()


@given(
    width=st.integers(1, 40),
    band=st.integers(2, 20),
    seed=seeds,
    start=st.integers(-(2**63), 2**63 - 60),
    count=st.integers(1, 50),
    horizontal=probabilities,
    vertical=probabilities,
    doors=door_probabilities,
    loops=probabilities,
    rooms=room_shares,
)
def test_the_javascript_module_matches_the_banded_maze(
    node: Node, width: int, band: int, seed: int, start: int, count: int, **knobs: float
) -> None:
    maze = es.InfiniteMaze(width, band, seed, **knobs)
    answer = node.ask({"width": width, "band": band, "seed": str(seed), **knobs}, start, start + count)
    assert answer.get("hex") == maze.rows(start, start + count).tobytes().hex(), answer.get("error")


@given(
    width=st.integers(1, 60),
    seed=seeds,
    stop=st.integers(1, 60),
    horizontal=probabilities,
    vertical=probabilities,
)
def test_the_javascript_module_matches_the_eller_stream(
    node: Node, width: int, seed: int, stop: int, horizontal: float, vertical: float
) -> None:
    s = es.EllerStream(width, seed, horizontal, vertical)
    want = b"".join(next(s).tobytes() for _ in range(stop))
    answer = node.ask(
        {"width": width, "seed": str(seed), "horizontal": horizontal, "vertical": vertical}, 0, stop
    )
    assert answer.get("hex") == want.hex(), answer.get("error")


@given(
    keys=st.lists(st.integers(-50, 50), min_size=1, max_size=4, unique=True),
    values=st.lists(st.tuples(probabilities, probabilities, room_shares), min_size=4, max_size=4),
    start=st.integers(-400, 400),
    seed=seeds,
)
def test_the_javascript_module_matches_schedules(
    node: Node, keys: list[int], values: list[tuple[float, ...]], start: int, seed: int
) -> None:
    frames = {
        k: {"loops": v[0], "horizontal": v[1], "rooms": v[2]} for k, v in zip(keys, values, strict=False)
    }
    maze = es.InfiniteMaze(16, 8, seed, schedule=es.Schedule(frames))
    params = {"width": 16, "band": 8, "seed": str(seed), "schedule": {str(k): f for k, f in frames.items()}}
    answer = node.ask(params, start, start + 40)
    assert answer.get("hex") == maze.rows(start, start + 40).tobytes().hex(), answer.get("error")


@pytest.mark.parametrize(
    ("params", "start", "stop", "message"),
    [
        ({"width": 0, "seed": "1"}, 0, 1, "width must be in [1,"),
        ({"width": 4, "seed": "-1"}, 0, 1, "seed must be in [0,"),
        ({"width": 4, "seed": "1", "band": 1}, 0, 1, "band must be in [2,"),
        ({"width": 4, "seed": "1", "band": 4, "doors": 0}, 0, 1, "doors must be in (0, 1]"),
        ({"width": 4, "seed": "1", "band": 4, "rooms": 1}, 0, 1, "rooms must be in [0, 1)"),
        ({"width": 4, "seed": "1", "band": 4, "loops": 2}, 0, 1, "loops must be in [0, 1]"),
        ({"width": 4, "seed": "1", "band": 4, "colour": 2}, 0, 1, 'unknown parameter "colour"'),
        ({"width": 4, "seed": "1", "loops": 0.5}, 0, 1, "loops needs band"),
        ({"width": 4, "seed": "1"}, -1, 1, "start must be in [0,"),
        ({"width": 4, "seed": "1", "band": 4}, 5, 4, "stop must be at least start"),
        ({"width": 4, "seed": "1", "band": 4}, 0, 2**63 + 1, "stop must be in"),
        ({"width": 4, "seed": "1.5", "band": 4}, 0, 1, "seed must be an integer"),
    ],
)
def test_the_javascript_module_names_the_bad_parameter(
    node: Node, params: dict[str, Any], start: int, stop: int, message: str
) -> None:
    answer = node.ask(params, start, stop)
    assert message in answer.get("error", ""), answer
