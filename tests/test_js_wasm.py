"""The JavaScript module's two ways to the same bytes (clients/js): its
WebAssembly (kernels.wat, embedded by _wasm.mjs: the draws and Eller's plain
rows) and its plain JavaScript (``useWasm(false)``, and wherever WebAssembly
does not run, as under ``node --jitless``). Each gives every vector; the
plain one gives the package's rows on random mazes (test_vectors.py); rows wider than the
WebAssembly's memory holds, and more rows than one call of it makes, give
the package's bytes; the WebAssembly is in use under node unless told; and
the embedded bytes are what wabt builds from kernels.wat."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from node_support import NODE, STATIC, NodeLines, needs_node, running, to_js

import eller_stream as es

HERE = Path(__file__).resolve().parent
JS = HERE / "js"
CLIENT = HERE.parent / "clients" / "js"
VECTORS = sorted(path for path in (HERE / "vectors").glob("*.json") if path.name != "plane.json")
N_VECTORS = sum(len(json.loads(path.read_text())["vectors"]) for path in VECTORS)
PLANE = json.loads((HERE / "vectors" / "plane.json").read_text())["vectors"]
# how node runs the module: its flags, ELLER_STREAM_WASM, whether the WebAssembly is then in use
WAYS = {"wasm": ([], "1", True), "plain": ([], "0", False), "jitless": (["--jitless"], "1", False)}


def run(way: str, script: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    flags, wasm, _ = WAYS[way]
    env = {**os.environ, "ELLER_STREAM_WASM": wasm}
    command = [NODE, *flags, str(JS / script), *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=300, env=env)


# -- the vectors, each way ------------------------------------------------------------------------
@needs_node
@pytest.mark.parametrize("way", sorted(WAYS))
def test_each_way_gives_every_vector(way: str) -> None:
    done = run(way, "check_vectors.mjs", *map(str, VECTORS))
    report = json.loads(done.stdout)
    assert report["failures"] == [] and done.returncode == 0
    assert report["checked"] == N_VECTORS
    assert report["wasm"] is WAYS[way][2]  # the way asked for is the way taken


@needs_node
@pytest.mark.parametrize("way", sorted(WAYS))
def test_each_way_gives_every_plane_vector(way: str) -> None:
    batch = [to_js([v["params"], v["y0"], v["y1"], v["x0"], v["x1"]]) for v in PLANE]
    done = run(way, "plane_stdio.mjs", stdin=json.dumps({"call": "region", "batch": batch}) + "\n")
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)["answers"]
    assert len(answers) == len(PLANE)
    for v, answer in zip(PLANE, answers, strict=True):
        assert "hex" in answer, (v, answer)
        assert hashlib.sha256(bytes.fromhex(answer["hex"])).hexdigest() == v["sha256"], v.get("about")


# -- the module both ways (test_vectors.py checks both against the package on random mazes) --
class Plain(NodeLines):
    """Rows requests to the module's plain JavaScript (tests/js/rows_stdio.mjs)."""

    script = "rows_stdio.mjs"
    env: ClassVar[dict[str, str]] = {"ELLER_STREAM_WASM": "0"}

    def ask(self, params: dict[str, Any], start: int, stop: int) -> dict[str, str]:
        return self.send({"params": params, "start": str(start), "stop": str(stop)})


class Wasm(Plain):
    """The same requests to its WebAssembly (the default)."""

    env: ClassVar[dict[str, str]] = {"ELLER_STREAM_WASM": "1"}


@pytest.fixture(scope="module")
def plain() -> Iterator[Plain]:
    yield from running(Plain)


@pytest.fixture(scope="module")
def wasm() -> Iterator[Wasm]:
    yield from running(Wasm)


# -- the WebAssembly's edges: its widths, and its calls of many rows -------------------------------
WIDE = 4096  # the widest rows the WebAssembly's memory holds (_core.mjs): wider ones are swept in JavaScript
OUT_BYTES = 65536  # the bytes of rows one call of it makes


@needs_node
@pytest.mark.parametrize("way", ["wasm", "plain"])
@pytest.mark.parametrize(
    ("width", "start", "stop"),
    [
        (80, 0, 2 * OUT_BYTES // 80 + 7),
        (80, 1000, 1900),
        (WIDE, 0, 40),
        (WIDE + 1, 3, 20),
        (3 * WIDE + 5, 0, 9),
    ],
)
def test_the_eller_stream_at_the_edges(
    way: str, width: int, start: int, stop: int, plain: Plain, wasm: Wasm
) -> None:
    node = plain if way == "plain" else wasm
    want = es.EllerStream(width, 11).take(stop)[start:].tobytes()
    answer = node.ask({"width": width, "seed": "11"}, start, stop)
    assert answer.get("hex") == want.hex(), answer.get("error")


@needs_node
@pytest.mark.parametrize("way", ["wasm", "plain"])
@pytest.mark.parametrize(
    ("width", "band", "knobs"),
    [
        (80, 2000, {}),  # a band's plain rows in more than one call
        (WIDE, 40, {"rooms": 0.3}),
        (WIDE + 1, 9, {"loops": 0.5, "rooms": 0.2}),
        (2 * WIDE + 3, 5, {"horizontal": 0.7}),
    ],
)
def test_the_banded_maze_at_the_edges(
    way: str, width: int, band: int, knobs: dict[str, float], plain: Plain, wasm: Wasm
) -> None:
    node = plain if way == "plain" else wasm
    start, stop = -band - 3, band + 2
    want = es.InfiniteMaze(width, band, 12, **knobs).rows(start, stop).tobytes()
    answer = node.ask({"width": width, "band": band, "seed": "12", **knobs}, start, stop)
    assert answer.get("hex") == want.hex(), answer.get("error")


def test_the_edges_are_the_modules() -> None:
    """WIDE and OUT_BYTES above are _core.mjs's (else the edges tested are not its edges)."""
    core = (STATIC / "_core.mjs").read_text()
    assert re.search(rf"^const WIDE = {WIDE};$", core, re.M)
    assert re.search(rf"^const OUT_BYTES = {OUT_BYTES};$", core, re.M)


# -- the embedded bytes ---------------------------------------------------------------------------
BUILD = (CLIENT / "build_wasm.mjs").read_text()
WABT_VERSION = re.findall(r'^const WABT_VERSION = "([0-9.]+)";$', BUILD, re.M)[0]


@pytest.fixture(scope="module")
def wabt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where wabt is installed: ELLER_STREAM_WABT (.ci/run installs it there:
    then it must be), else a fresh npm install of the pinned version (the
    test is skipped only where npm or the registry cannot be had)."""
    given_prefix = os.environ.get("ELLER_STREAM_WABT")
    if given_prefix:
        return Path(given_prefix)
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed (.ci/run installs it and wabt)")
    prefix = tmp_path_factory.mktemp("wabt")
    command = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", f"wabt@{WABT_VERSION}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        pytest.skip(f"wabt {WABT_VERSION} cannot be installed here: {done.stderr.strip()[-300:]}")
    return prefix


@needs_node
def test_the_embedded_webassembly_is_what_wabt_builds_from_kernels_wat(wabt: Path) -> None:
    assert NODE is not None
    command = [NODE, str(CLIENT / "build_wasm.mjs"), str(wabt), "--print"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (STATIC / "_wasm.mjs").read_text()
    assert (CLIENT / "_wasm.mjs").resolve() == (STATIC / "_wasm.mjs").resolve()


def test_the_ci_installs_the_pinned_wabt() -> None:
    """.ci/run installs the wabt build_wasm.mjs pins, and tells this test where."""
    ci = (HERE.parent / ".ci" / "run").read_text()
    assert f"wabt@{WABT_VERSION}" in ci and "ELLER_STREAM_WABT" in ci
