"""The conformance vectors of docs/spec.md (tests/vectors/*.json): the
package, the plain-Python model of naive.py and the JavaScript module
(clients/js/eller_stream.mjs, run with node) all give their bytes."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import naive_plane
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from node_support import NODE, NodeLines, half_up_module, needs_node, running
from strategies import door_probabilities, probabilities, room_shares, seeds

import eller_stream as es

import naive
from naive import banded_reference, closing_row_reference, eller_reference, seed_key

pytestmark = pytest.mark.usefixtures("numba_answers")

HERE = Path(__file__).resolve().parent
# the rows' vectors (the plane's, plane.json, have regions: checked below)
VECTORS = sorted(path for path in (HERE / "vectors").glob("*.json") if path.name != "plane.json")
ALL = [(path.name, i, v) for path in VECTORS for i, v in enumerate(json.loads(path.read_text())["vectors"])]
IDS = [f"{name}-{i}" for name, i, _ in ALL]


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

    abouts = [v["about"] for _, _, v in ALL if "about" in v]
    for kind in ("horizontal", "0.8 x horizontal", "vertical", "0.6 x vertical", "doors", "loops"):
        assert any(a.startswith(f"tie: a draw exactly on the threshold of {kind} ") for a in abouts), kind
    for what in ("tie: the room target", "clip:", "left out:", "braid doors:"):
        assert any(a.startswith(what) for a in abouts), what


# -- the vectors that catch a port's mistakes (tests/vectors/porting.json) ----------------
def _make_vectors() -> Any:
    spec = importlib.util.spec_from_file_location("make_vectors", HERE / "vectors" / "make_vectors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _make_vectors()


def porting(prefix: str) -> list[dict[str, Any]]:
    found = [v for _, _, v in ALL if v.get("about", "").startswith(prefix)]
    assert found, prefix
    return found


def naive_sha(vector: dict[str, Any]) -> str:
    return sha(naive_rows(vector["params"], int(vector["start"]), int(vector["stop"]))[0])


def test_each_tie_sits_half_way_between_two_thresholds() -> None:
    for _, factor, _, value, *_ in (*MAKE.TIES_ELLER, *MAKE.TIES_BANDED):
        scaled = value * factor * 2**32  # binary64, as section 2.4 says
        assert scaled % 1 == 0.5 and math.floor(scaled) % 2 == 0, value
    width, band, _, rooms = MAKE.TIE_ROOMS
    low = math.floor(rooms * 2**32)
    assert rooms * 2**32 == low + 0.5 and low % 2 == 0
    assert (band * width * low) >> 32 != (band * width * (low + 1)) >> 32  # the target moves


def half_up(x: float) -> int:
    return math.floor(x + 0.5)


def test_rounding_half_up_changes_every_tie_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    ties = porting("tie:")
    assert len(ties) == len(MAKE.TIES_ELLER) + len(MAKE.TIES_BANDED) + 1
    monkeypatch.setattr(naive, "round", half_up, raising=False)  # naive.py's thresholds round so
    for v in ties:
        assert naive_sha(v) != v["sha256"], v["about"]


# The rules as naive.py has them, which the mistakes below call.
SCHEDULE_PARAMS, BAND_REFERENCE = naive.schedule_params, naive.band_reference


def unclipped(keyframes: dict[int, dict[str, float]], own: dict[str, float], band: int) -> dict[str, float]:
    """A band's parameters without the clipping step (a mistake)."""
    out = SCHEDULE_PARAMS(keyframes, own, band)
    keys = sorted(keyframes)
    if keys[0] < band < keys[-1]:
        i = max(i for i, key in enumerate(keys) if key <= band)
        t = float(band - keys[i]) / float(keys[i + 1] - keys[i])
        for name in own:
            a, b = (float(keyframes[k].get(name, own[name])) for k in keys[i : i + 2])
            out[name] = a + (b - a) * t
    return out


def named_only(keyframes: dict[int, dict[str, float]], own: dict[str, float], band: int) -> dict[str, float]:
    """Each parameter between the keyframes that name it (a mistake)."""
    out = {}
    for name in own:
        named = {k: {name: f[name]} for k, f in keyframes.items() if name in f}
        out[name] = SCHEDULE_PARAMS(named, {name: own[name]}, band)[name] if named else own[name]
    return out


def own_doors_above(width: int, band_height: int, seed: int, band: int, **knobs: Any) -> np.ndarray:
    """A band whose loops see its top seam's doors drawn with its own doors (a mistake)."""
    knobs["doors_above"] = knobs["doors"]
    rows: np.ndarray = BAND_REFERENCE(width, band_height, seed, band, **knobs)
    return rows


@pytest.mark.parametrize(
    ("prefix", "name", "mistake"),
    [
        ("clip:", "schedule_params", unclipped),
        ("left out:", "schedule_params", named_only),
        ("braid doors:", "band_reference", own_doors_above),
    ],
)
def test_each_porting_vector_catches_its_mistake(
    monkeypatch: pytest.MonkeyPatch, prefix: str, name: str, mistake: Any
) -> None:
    vectors = porting(prefix)
    for v in vectors:
        assert naive_sha(v) == v["sha256"]
    monkeypatch.setattr(naive, name, mistake)
    for v in vectors:
        assert naive_sha(v) != v["sha256"], v["about"]


@needs_node
def test_a_javascript_module_that_rounds_half_up_fails_the_tie_vectors(tmp_path: Path) -> None:
    wrong = half_up_module(tmp_path)
    ties = porting("tie:")
    path = tmp_path / "ties.json"
    path.write_text(json.dumps({"vectors": ties}))
    script = HERE / "js" / "check_vectors.mjs"
    env = {**os.environ, "ELLER_STREAM_MODULE": str(wrong)}
    command = [NODE, str(script), str(path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["checked"] == len(ties)
    failed = {f.split(" ")[0] for f in report["failures"]}
    assert failed == {f"{path}#{i}" for i in range(len(ties))}  # every one of them


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


class Node(NodeLines):
    """Rows requests, a line at a time (tests/js/rows_stdio.mjs)."""

    script = "rows_stdio.mjs"

    def ask(self, params: dict[str, Any], start: int, stop: int) -> dict[str, str]:
        return self.send({"params": params, "start": str(start), "stop": str(stop)})


class PlainNode(Node):
    """The same requests to the module's plain JavaScript (where WebAssembly does not run)."""

    env: ClassVar[dict[str, str]] = {"ELLER_STREAM_WASM": "0"}


@pytest.fixture(scope="module", params=[Node, PlainNode], ids=["wasm", "plain"])
def node(request: pytest.FixtureRequest) -> Iterator[Node]:
    """The module's rows, with its WebAssembly and without: the same bytes both ways."""
    yield from running(request.param)


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
        ({"width": 4, "seed": "1", "band": 4}, 5, 4, "stop must be greater than start"),
        ({"width": 4, "seed": "1", "band": 4}, 0, 2**63 + 1, "stop must be in"),
        ({"width": 4, "seed": "1.5", "band": 4}, 0, 1, "seed must be an integer"),
    ],
)
def test_the_javascript_module_names_the_bad_parameter(
    node: Node, params: dict[str, Any], start: int, stop: int, message: str
) -> None:
    answer = node.ask(params, start, stop)
    assert message in answer.get("error", ""), answer


@needs_node
def test_the_javascript_defaults_are_the_packages() -> None:
    """The module's ``DEFAULTS`` (which the viewer's knobs follow) are
    ``BandParams``' names and defaults, in order."""
    module = (HERE.parent / "clients" / "js" / "eller_stream.mjs").as_uri()
    script = f"import {{ DEFAULTS }} from {json.dumps(module)}; console.log(JSON.stringify(DEFAULTS));"
    assert NODE is not None
    command = [NODE, "--input-type=module", "-e", script]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    defaults = json.loads(done.stdout, object_pairs_hook=list)
    assert defaults == list(es.BandParams().as_dict().items())


# -- the plane (tests/vectors/plane.json) ------------------------------------------------
PLANE = json.loads((HERE / "vectors" / "plane.json").read_text())["vectors"]
PLANE_IDS = [f"plane-{i}" for i in range(len(PLANE))]


def bounds(v: dict[str, Any]) -> tuple[int, int, int, int]:
    return int(v["y0"]), int(v["y1"]), int(v["x0"]), int(v["x1"])


def package_region(v: dict[str, Any]) -> np.ndarray:
    p = v["params"]
    knobs = {k: x for k, x in p.items() if k not in ("chunk", "seed")}
    return es.Plane(p["chunk"], int(p["seed"]), **knobs).region(*bounds(v))


def naive_region(v: dict[str, Any]) -> np.ndarray:
    p = v["params"]
    knobs = {k: x for k, x in p.items() if k not in ("chunk", "seed")}
    y0, y1, x0, x1 = bounds(v)
    return naive_plane.plane_region(p["chunk"], int(p["seed"]), y0, y1, x0, x1, **knobs)


def check_region(v: dict[str, Any], grid: np.ndarray) -> None:
    y0, y1, x0, x1 = bounds(v)
    assert grid.shape == (y1 - y0, x1 - x0) and sha(grid) == v["sha256"]
    for y, hexed in v["rows"].items():
        assert grid[int(y) - y0].tobytes().hex() == hexed, y


@pytest.mark.parametrize("vector", PLANE, ids=PLANE_IDS)
def test_the_package_gives_each_plane_vector(vector: dict[str, Any]) -> None:
    check_region(vector, package_region(vector))


@pytest.mark.parametrize("vector", PLANE, ids=PLANE_IDS)
def test_the_plain_model_gives_each_plane_vector(vector: dict[str, Any]) -> None:
    check_region(vector, naive_region(vector))


def test_the_plane_vectors_cover_what_the_spec_says() -> None:
    params = [v["params"] for v in PLANE]
    assert set(range(1, 6)) | {16, 33, 64} <= {p["chunk"] for p in params}
    assert {True, False} == {p.get("perfect", True) for p in params}
    assert {"0", str(2**64 - 1)} <= {p["seed"] for p in params}
    assert min(int(v["y0"]) for v in PLANE) == -(2**62) == min(int(v["x0"]) for v in PLANE)
    assert max(int(v["y1"]) for v in PLANE) == 2**62 == max(int(v["x1"]) for v in PLANE)
    for name in ("horizontal", "vertical"):
        assert {0.0, 1.0} <= {p.get(name, 0.5) for p in params}, name
    abouts = [v.get("about", "") for v in PLANE]
    for kind in ("horizontal", "0.8 x horizontal", "0.5 x horizontal", "vertical", "0.6 x vertical"):
        assert any(a.startswith(f"tie: a draw exactly on the threshold of {kind} ") for a in abouts), kind
    levels = {int(a.split("level ")[1].split(" ")[0]) for a in abouts if a.startswith("door:")}
    assert max(levels) >= 17 and len(levels) >= 4


def test_each_plane_tie_sits_half_way_and_half_up_changes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    ties = [v for v in PLANE if v.get("about", "").startswith("tie:")]
    assert len(ties) == len(MAKE.PLANE_TIES)
    for (name, factor, perfect, _, value), v in zip(MAKE.PLANE_TIES, ties, strict=True):
        assert v["params"][name] == value and v["params"]["perfect"] is perfect
        scaled = value * factor * 2**32  # binary64, as section 2.4 says
        assert scaled % 1 == 0.5 and math.floor(scaled) % 2 == 0, value
    monkeypatch.setattr(naive_plane, "round", half_up, raising=False)
    for v in ties:
        assert sha(naive_region(v)) != v["sha256"], v["about"]


def test_each_door_vector_holds_its_door() -> None:
    doors = [v for v in PLANE if v.get("about", "").startswith("door:")]
    for v in doors:
        p, level = v["params"], int(v["about"].split("level ")[1].split(" ")[0])
        key = naive_plane.seed_key(int(p["seed"]))
        y0, y1, x0, x1 = bounds(v)
        mid = ((y0 + y1) // 2) // p["chunk"], ((x0 + x1) // 2) // p["chunk"]
        near = [
            naive_plane.door(key, p["chunk"], level, jy, jx)
            for jy in range(naive_plane.index_at(mid[0], level) - 1, naive_plane.index_at(mid[0], level) + 2)
            for jx in range(naive_plane.index_at(mid[1], level) - 1, naive_plane.index_at(mid[1], level) + 2)
        ]
        inside = [d for d in near if d is not None and y0 <= d[0] < y1 and x0 <= d[1] < x1]
        assert inside, v["about"]
        grid = naive_region(v)
        assert all(grid[d[0] - y0, d[1] - x0] & d[2] for d in inside)
