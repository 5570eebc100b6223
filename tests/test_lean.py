"""The lean backend (no numba): its drop-ins give the kernels' rows and sets
byte for byte under hypothesis; a process on it (``ELLER_STREAM_BACKEND=lean``,
numba never imported) gives the same rows, checkpoints and command-line output
as this one; checkpoints cross between the backends; the backend is chosen as
documented, and what it lacks fails clearly."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_support import ENV, numba_never_ready
from hypothesis import given
from hypothesis import strategies as st
from strategies import door_probabilities, probabilities, room_shares, seeds

import eller_stream as es
from eller_stream import _band_kernels as bk
from eller_stream import _eller_kernels as ek
from eller_stream import _lean_bands as lb
from eller_stream import _lean_eller as le
from eller_stream import _level_kernels as lk
from eller_stream._compare import ALGORITHMS
from eller_stream._numba import kernel_errstate
from eller_stream._params import BandParams
from eller_stream._rng import seed_key, threshold

ROOT = Path(__file__).resolve().parent.parent
LR = ek.LR_PAD
# Where numba is not installed (armv7l, riscv64), what compares the backends or
# numba's warming has nothing to compare: those tests skip, the rest run lean.
needs_numba = pytest.mark.skipif(
    importlib.util.find_spec("numba") is None,
    reason="numba is not installed: nothing to compare the lean backend with",
)


@pytest.fixture(autouse=True)
def _kernel_errstate() -> Any:
    """The kernels called directly here run as plain Python on the lean
    backend: in the errstate the package calls them in (no overflow warnings)."""
    with kernel_errstate():
        yield


def run_python(code: str, backend: str | None = "lean", extra_path: str | None = None, **env: str) -> str:
    """Run ``code`` in a new process on ``backend``; its stdout. With ``extra_path``, that
    folder comes first on the path, and is the process's working folder (which ``-c`` puts
    before it)."""
    environ = {**ENV, **env}
    if extra_path is not None:
        environ["PYTHONPATH"] = extra_path + os.pathsep + ENV["PYTHONPATH"]
    environ.pop("ELLER_STREAM_BACKEND", None)
    if backend is not None:
        environ["ELLER_STREAM_BACKEND"] = backend
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=600, cwd=extra_path
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# -- the drop-ins against the kernels, in this process --------------------------------------


def sets_after(width: int, rows: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Eller's lists after ``rows`` rows of a stream: a state that is not all ones."""
    left, right = (np.arange(width + LR, dtype=np.int32) for _ in range(2))
    half = np.uint64(2**31)  # the package's types: the kernel it compiles
    ek.eller_rows(left, right, np.empty((rows, width), np.uint8), seed_key(seed), np.uint64(0), half, half)
    return left, right


@given(
    width=st.integers(1, 200),
    before=st.integers(0, 5),
    n=st.integers(1, 30),
    seed=seeds,
    counter=st.integers(0, 2**64 - 1),
    horizontal=probabilities,
    vertical=probabilities,
)
def test_eller_rows_and_sets_are_the_kernels(
    width: int, before: int, n: int, seed: int, counter: int, horizontal: float, vertical: float
) -> None:
    left, right = sets_after(width, before, seed)
    lists = [left.copy(), right.copy(), left.copy(), right.copy()]
    a, b = np.empty((n, width), np.uint8), np.empty((n, width), np.uint8)
    args = (seed_key(seed), np.uint64(counter), threshold(horizontal), threshold(vertical))
    ca = ek.eller_rows(lists[0], lists[1], a, *args)
    cb = le.eller_rows(lists[2], lists[3], b, *args)
    assert np.array_equal(a, b) and ca == cb
    assert np.array_equal(lists[0][:width], lists[2][:width]) and np.array_equal(
        lists[1][:width], lists[3][:width]
    )


def thresholds(**knobs: float) -> np.ndarray:
    doors_above = knobs.pop("doors_above")
    values = {name: np.array([value]) for name, value in BandParams(**knobs).as_dict().items()}
    return BandParams.thresholds_of(values, np.array([doors_above]))


def bands_by(module: Any, n: int, width: int, seed: int, band0: int, band_height: int, th: Any) -> np.ndarray:
    """``n`` rows of whole bands from band ``band0`` on, by ``module``'s ``bands_rows``
    (the kernels' or the lean drop-ins)."""
    out = np.zeros((n, width), np.uint8)
    scratch = [np.empty(width + LR, np.int32), np.empty(width + LR, np.int32)]
    tail = [np.empty(width, np.uint8), np.empty(width + 1, np.int32)]
    module.bands_rows(out, seed_key(seed), np.uint64(band0), band_height, th, *scratch, *tail)
    return out


BANDS = {
    "width": st.integers(1, 60),
    "band_height": st.integers(2, 24),
    "seed": seeds,
    "band0": st.integers(0, 2**64 - 1),
    "horizontal": probabilities,
    "vertical": probabilities,
    "doors": door_probabilities,
    "loops": probabilities,
    "rooms": room_shares,
}


@given(bands=st.integers(1, 3), cut=st.integers(0, 5), doors_above=door_probabilities, **BANDS)
def test_whole_bands_are_the_kernels(
    width: int, band_height: int, bands: int, cut: int, seed: int, band0: int, **knobs: float
) -> None:
    th = thresholds(**knobs)
    n = max(1, bands * band_height - cut)  # the last band may be cut short
    args = (n, width, seed, band0, band_height, th)
    assert np.array_equal(bands_by(lk, *args), bands_by(lb, *args))


@given(
    width=st.integers(1, 60),
    band_height=st.integers(2, 24),
    y0=st.integers(0, 23),
    n=st.integers(1, 60),
    seed=seeds,
    band=st.integers(0, 2**64 - 1),
    horizontal=probabilities,
    vertical=probabilities,
    doors=door_probabilities,
)
def test_a_stream_across_bands_is_the_kernels(
    width: int,
    band_height: int,
    y0: int,
    n: int,
    seed: int,
    band: int,
    horizontal: float,
    vertical: float,
    doors: float,
) -> None:
    y0 %= band_height
    th = thresholds(horizontal=horizontal, vertical=vertical, doors=doors, doors_above=doors)[0]
    left, right = sets_after(width, 3, seed) if y0 else (np.arange(width + LR, dtype=np.int32),) * 2
    lists = [left.copy(), right.copy(), left.copy(), right.copy()]
    a, b = np.empty((n, width), np.uint8), np.empty((n, width), np.uint8)
    tail = [np.empty(width, np.uint8), np.empty(width + 1, np.int32)]
    bk.band_stream_rows(lists[0], lists[1], a, seed_key(seed), np.uint64(band), y0, band_height, th, *tail)
    lb.band_stream_rows(lists[2], lists[3], b, seed_key(seed), np.uint64(band), y0, band_height, th, *tail)
    assert np.array_equal(a, b)
    assert np.array_equal(lists[0][:width], lists[2][:width])


@given(cut=st.integers(0, 23), **BANDS)
def test_the_sets_after_a_bands_rows_are_the_kernels(
    width: int, band_height: int, cut: int, seed: int, band0: int, **knobs: float
) -> None:
    """The sets a stream closes with, after the rows of a band with loops and rooms so far."""
    th = thresholds(doors_above=knobs["doors"], **knobs)
    rows = bands_by(lk, band_height, width, seed, band0, band_height, th)[: max(1, band_height - cut)]
    lists = [np.full(width + LR, -1, np.int32) for _ in range(4)]
    lk.band_row_sets(rows, lists[0], lists[1])
    lb.band_row_sets(rows, lists[2], lists[3])
    assert np.array_equal(lists[0], lists[2]) and np.array_equal(lists[1], lists[3])


def test_the_lists_and_the_labels_round_trip() -> None:
    left, right = sets_after(37, 6, 5)
    labels = le.labels_of(left, 37)
    l2, r2 = np.zeros(37, np.int32), np.zeros(37, np.int32)
    le.lists_of(labels, l2, r2)
    assert np.array_equal(l2, left[:37]) and np.array_equal(r2, right[:37])
    assert bool(ek.is_noncrossing_partition(l2, r2))


# -- a process on the lean backend -----------------------------------------------------------

DIGESTS = r"""
import hashlib, json, sys
import numpy as np
import eller_stream as es

def h(*arrays):
    return hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in arrays)).hexdigest()

out = {"backend": es.backend()}
for width in (1, 2, 3, 17, 80, 200):
    for knobs in ({}, {"horizontal": 0.0, "vertical": 1.0}, {"horizontal": 1.0, "vertical": 0.0}):
        s = es.EllerStream(width, 7, **knobs)
        rows = s.take(30)
        saved = s.checkpoint()
        out[f"eller {width} {knobs}"] = h(rows, s.take(5), s.finish(), es.EllerStream.resume(saved).take(3))
    levels = [(2, {}), (5, {"doors": 1.0}), (16, {"loops": 0.5}), (16, {"rooms": 0.3}),
              (12, {"loops": 1.0, "rooms": 0.5, "horizontal": 0.0}), (9, {"vertical": 1.0, "doors": 1e-9})]
    for band, knobs in levels:
        m = es.InfiniteMaze(width, band, 2**64 - 1, **knobs)
        s = m.stream(-band - 3)
        head = s.take(2 * band)
        ends = m.rows(-50, 60), m.rows(2**63 - 20, 2**63)
        out[f"banded {width} {band} {knobs}"] = h(*ends, head, s.checkpoint(), s.finish())
schedule = es.Schedule({0: {"loops": 0.0}, 5: {"loops": 1.0, "rooms": 0.4}})
m = es.InfiniteMaze(30, 8, 3, schedule=schedule)
out["schedule"] = h(m.rows(-20, 80), m.stream(3).take(40))
out["numba imported"] = "numba" in sys.modules
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def digests() -> tuple[dict[str, Any], dict[str, Any]]:
    """The digests on the lean backend (a new process) and on this one."""
    lean = json.loads(run_python(DIGESTS))
    here: dict[str, Any] = {}
    exec(compile(DIGESTS.replace("print(json.dumps(out))", "result = out"), "digests", "exec"), here)
    return lean, here["result"]


def test_a_lean_process_never_imports_numba(digests: tuple[dict[str, Any], dict[str, Any]]) -> None:
    lean, here = digests
    assert lean["backend"] == "lean" and lean["numba imported"] is False
    assert here["backend"] == es.backend()


@needs_numba
def test_both_backends_give_the_same_bytes(digests: tuple[dict[str, Any], dict[str, Any]]) -> None:
    lean, here = digests
    names = [name for name in here if name not in ("backend", "numba imported")]
    assert len(names) > 50
    assert {name: lean[name] for name in names} == {name: here[name] for name in names}


def test_the_conformance_vectors_on_the_lean_backend() -> None:
    code = f"""
import sys; sys.path.insert(0, {str(ROOT / "tests")!r})
import test_vectors as t
for name, i, v in t.ALL:
    t.check(v, *t.package_rows(v["params"], int(v["start"]), int(v["stop"])))
print(len(t.ALL), t.es.backend())
"""
    count, backend = run_python(code).split()
    assert backend == "lean" and int(count) >= 80


@needs_numba
def test_checkpoints_cross_between_the_backends() -> None:
    make = """
import eller_stream as es
s = es.EllerStream(23, 9, 0.4, 0.6); s.take(17)
b = es.InfiniteMaze(23, 7, 9, loops=0.5).stream(-30); b.take(12)
c = es.InfiniteMaze(23, 7, 9).stream(-30); c.take(12)
print(s.checkpoint().hex(), b.checkpoint().hex(), c.checkpoint().hex())
"""
    go_on = """
import sys, hashlib, eller_stream as es
e, b, c = (bytes.fromhex(x) for x in sys.argv[1:])
rows = es.EllerStream.resume(e).take(20).tobytes() + es.BandedStream.resume(b).take(20).tobytes()
rows += es.BandedStream.resume(c).take(20).tobytes()
print(es.backend(), hashlib.sha256(rows).hexdigest())
"""
    for writer, reader in (("lean", "numba"), ("numba", "lean")):
        saved = run_python(make, writer).split()
        code = f"import sys; sys.argv[1:] = {saved!r}\n" + go_on
        other = run_python(code, reader).split()
        same = run_python(code, writer).split()
        assert other[0] == reader and same[0] == writer
        assert other[1] == same[1]


@needs_numba
@pytest.mark.parametrize(
    "args",
    [
        ["--rows", "30", "--width", "17", "--seed", "4"],
        [
            "--band",
            "8",
            "--start",
            "-20",
            "--rows",
            "40",
            "--width",
            "17",
            "--loops",
            "0.4",
            "--style",
            "raw",
            "--seed",
            "5",
        ],
        ["render", "-o", "-", "--width", "12", "--rows", "9", "--band", "4", "--rooms", "0.3", "--seed", "5"],
    ],
)
def test_the_command_line_is_the_same_on_both(args: list[str], tmp_path: Path) -> None:
    code = (
        "import sys; from eller_stream._entry import run; sys.argv = ['eller-stream', *sys.argv[1:]]; run()"
    )
    outputs = []
    for backend in ("lean", "numba"):
        environ = {**ENV, "ELLER_STREAM_BACKEND": backend}
        argv = [str(tmp_path / f"{backend}.png") if a == "-" else a for a in args]
        done = subprocess.run(
            [sys.executable, "-c", code, *argv], capture_output=True, env=environ, timeout=300
        )
        assert done.returncode == 0, done.stderr
        outputs.append(
            done.stdout + (tmp_path / f"{backend}.png").read_bytes() if "render" in args else done.stdout
        )
    assert outputs[0] == outputs[1] and len(outputs[0]) > 100


def test_compare_on_the_lean_backend_compares_what_it_has() -> None:
    """``eller-stream compare`` on the lean backend stopped at the first
    generator that needs numba (exit 2): it compares the others, and says so."""
    code = (
        "import sys; from eller_stream._entry import run; sys.argv = ['eller-stream', *sys.argv[1:]]; run()"
    )
    argv = ["compare", "--width", "12", "--height", "10", "--seeds", "1", "--json"]
    environ = {**ENV, "ELLER_STREAM_BACKEND": "lean"}
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, env=environ, timeout=300)
    assert done.returncode == 0, done.stderr
    names = [row["algorithm"] for row in json.loads(done.stdout)]
    assert names == [n for n in ALGORITHMS if not n.startswith(("growing-tree", "backtracker"))]
    assert "eller" in names and "banded:band=32" in names
    assert done.stderr.decode().startswith("eller-stream: note: the lean backend has no growing-tree:newest")
    assert "backtracker" in done.stderr.decode() and len(done.stderr.decode().splitlines()) == 1


# -- with numba, the first rows do not wait for it -----------------------------------------

COLD_START = r"""
import hashlib, json, sys
import numpy as np
import eller_stream as es
from eller_stream import _engine as engine

def digest(*arrays):
    return hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in arrays)).hexdigest()

out = {}
s = es.EllerStream(80, seed=5)
maze = es.InfiniteMaze(80, 16, 5)
out["numba imported before the first rows"] = "numba" in sys.modules  # (a first kernel call starts it)
first = next(s)
out["eller first while cold"] = engine.cold(engine.eller_rows)
b = maze.stream(-3)
bfirst = next(b)
out["band first while cold"] = engine.cold(engine.band_stream_rows)
out["ready"] = engine.eller_rows.ready.wait(600) and engine.band_stream_rows.ready.wait(600)
out["errors"] = [repr(engine.eller_rows.error), repr(engine.band_stream_rows.error)]
out["mixed"] = digest(first, s.take(100), s.finish(), bfirst, b.take(100), b.finish())
s, b = es.EllerStream(80, seed=5), es.InfiniteMaze(80, 16, 5).stream(-3)
out["compiled"] = digest(s.take(101), s.finish(), b.take(101), b.finish())
out["cold after"] = engine.cold(engine.eller_rows) or engine.cold(engine.band_stream_rows)
out["backend"] = es.backend()
print(json.dumps(out))
"""


def check_cold_start(out: dict[str, Any]) -> None:
    """What ``COLD_START`` printed: the first row of each stream came while its kernel was not
    ready (the lean twin made it), the kernels were ready later, and the rows after the switch
    are the same."""
    assert out["backend"] == "numba" and out["ready"] is True and out["errors"] == ["None", "None"]
    assert out["eller first while cold"] is True and out["band first while cold"] is True
    assert out["numba imported before the first rows"] is False  # the import waits for the first rows too
    assert out["cold after"] is False
    assert out["mixed"] == out["compiled"]


TOP_KERNELS = ("_eller_kernels.eller_rows-", "_band_kernels.band_stream_rows-")  # COLD_START's kernels


@needs_numba
def test_while_numba_compiles_the_streams_kernels_the_first_rows_come_from_the_lean_twins(
    tmp_path: Path,
) -> None:
    # a copy of the package whose numba cache holds what the kernels call but not the two
    # kernels themselves (copied with its files' times: the cache is keyed on them): numba
    # compiles those two, in 4 s, not every kernel under them, in 20 (the test below)
    package = tmp_path / "eller_stream"
    shutil.copytree(
        ROOT / "eller_stream",
        package,
        ignore=lambda _, names: [n for n in names if n.startswith(TOP_KERNELS)],
    )
    cache = package / "__pycache__"
    out = json.loads(run_python(COLD_START, backend=None, extra_path=str(tmp_path), NUMBA_CACHE_DIR=""))
    check_cold_start(out)
    assert all(any(cache.glob(f"{top}*.nbi")) for top in TOP_KERNELS), "numba compiled and cached them"


NUMBA_NEVER_READY = r"""
import hashlib, sys
import eller_stream as es

s = es.InfiniteMaze(30, 8, 4, loops=0.5, rooms=0.3).stream(-3)
rows = [s.take(12), s.finish()]
e = es.EllerStream(20, seed=3)
rows.append(e.take(5))
rows.append(es.EllerStream.resume(e.checkpoint()).take(4))
print(hashlib.sha256(b"".join(r.tobytes() for r in rows)).hexdigest())
"""


@needs_numba
def test_a_small_stream_closes_and_resumes_while_numba_is_not_ready(tmp_path: Path) -> None:
    """Under a numba whose import never ends, a small stream with loops and
    rooms is closed (its sets after the band's rows so far) and a stream
    resumed (its sets checked) by the lean twins: a small job never waits
    for numba (both waited for it, a second on a warm cache, before)."""
    environ = numba_never_ready(tmp_path, "import")
    command = [sys.executable, "-c", NUMBA_NEVER_READY]
    done = subprocess.run(command, capture_output=True, text=True, env=environ, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    here = io.StringIO()
    with contextlib.redirect_stdout(here):  # the same script in this process, numba's kernels ready
        exec(NUMBA_NEVER_READY, {})
    assert done.stdout == here.getvalue() and len(done.stdout.strip()) == 64


@pytest.mark.slow
@pytest.mark.long
@needs_numba
def test_on_an_empty_numba_cache_the_first_rows_come_before_the_compile(tmp_path: Path) -> None:
    # by the order of events, on a cache with nothing in it: numba compiles every kernel the
    # two streams call, about 20 s, while the lean twins answer
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    out = json.loads(run_python(COLD_START, backend=None, NUMBA_CACHE_DIR=str(cache)))
    check_cold_start(out)
    assert any(cache.rglob("*.nbi")), "numba compiled and cached the kernels meanwhile"


@needs_numba
def test_the_warming_kernels_answer_with_their_lean_twins_until_ready() -> None:
    from eller_stream import _engine

    calls: list[str] = []
    gate = __import__("threading").Event()

    def kernel(out: np.ndarray) -> str:
        gate.wait(10)
        calls.append(f"kernel {out.shape}")
        return "kernel"

    def lean(out: np.ndarray) -> str:
        calls.append("lean")
        return "lean"

    w = _engine.Warming(kernel, lean)
    assert w(np.zeros((5, 3))) == "lean" and _engine.cold(w)
    assert w(np.zeros((5, 3))) == "lean"  # still compiling
    gate.set()
    assert w.ready.wait(10) and not _engine.cold(w)
    assert w(np.zeros((5, 3))) == "kernel"
    assert calls == ["lean", "lean", "kernel (1, 3)", "kernel (5, 3)"]  # the warm-up call: one row


def test_a_kernel_numba_cannot_make_leaves_the_lean_twin_and_settle_returns() -> None:
    # settle() waited on "ready" alone, which a failed kernel never sets: it hung
    from eller_stream import _engine

    def broken(out: np.ndarray) -> str:
        raise RuntimeError("numba could not")

    w = _engine.Warming(broken, lambda out: "lean")
    assert w(np.zeros((2, 8))) == "lean"
    settled: list[bool] = []
    waiter = __import__("threading").Thread(target=lambda: settled.append(_engine.settle()), daemon=True)
    waiter.start()
    waiter.join(30)  # settle() without a timeout must come back
    assert settled == [True] and isinstance(w.error, RuntimeError) and not w.ready.is_set()
    assert w(np.zeros((2, 8))) == "lean" and not _engine.cold(w)


@needs_numba
def test_a_big_job_waits_for_the_kernel() -> None:
    from eller_stream import _engine

    w = _engine.Warming(lambda out: "kernel", lambda out: "lean")
    assert w(np.zeros((2, 8))) == "lean"
    big = _engine.Warming(lambda out: "kernel", lambda out: "lean")
    assert big(np.zeros((_engine.LEAN_CELLS // 8 + 1, 8))) == "kernel" and not _engine.cold(big)


# -- choosing the backend, and what the lean one lacks ---------------------------------------


def no_numba(tmp_path: Path) -> str:
    """A folder whose numba.py fails to import, put first on the path: numba as if not installed."""
    (tmp_path / "numba.py").write_text("raise ImportError('No module named numba (a test)')\n")
    return str(tmp_path)


def test_without_numba_it_goes_lean(tmp_path: Path) -> None:
    code = "import eller_stream as es; print(es.backend(), es.InfiniteMaze(8, 4, 1).rows(0, 4).sum())"
    assert run_python(code, backend=None, extra_path=no_numba(tmp_path)).split()[0] == "lean"


def test_numba_asked_for_and_missing_fails_clearly(tmp_path: Path) -> None:
    code = "import eller_stream as es\ntry:\n    es.EllerStream(4)\nexcept ImportError as e:\n    print(e)"
    message = run_python(code, backend="numba", extra_path=no_numba(tmp_path))
    assert (
        message.startswith("ELLER_STREAM_BACKEND=numba, but numba cannot be imported")
        and "pip install numba" in message
    )


def test_a_bad_backend_name_is_one_line_on_the_command_line() -> None:
    environ = {**ENV, "ELLER_STREAM_BACKEND": "fast"}
    done = subprocess.run(
        [sys.executable, "-m", "eller_stream", "--rows", "2"],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
    )
    assert done.returncode == 2
    assert (
        done.stderr
        == "eller-stream: error: ELLER_STREAM_BACKEND must be 'numba' or 'lean' (or unset), got 'fast'\n"
    )


def test_the_companions_say_what_to_install() -> None:
    code = """
import eller_stream as es
for call in (lambda: es.growing_tree(5, 5), lambda: es.backtracker(5, 5)):
    try:
        call()
    except es.NeedsNumba as e:
        print(e)
"""
    lines = run_python(code).splitlines()
    assert len(lines) == 2 and all("needs numba" in line and "pip install numba" in line for line in lines)
    assert lines[0].startswith("es.growing_tree") and lines[1].startswith("es.backtracker")


def test_the_numba_dependency_has_markers_for_machines_without_wheels() -> None:
    import tomllib
    from packaging.markers import Marker
    from packaging.requirements import Requirement

    deps = [
        Requirement(d)
        for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    ]
    (numba_dep,) = [d for d in deps if d.name == "numba"]
    assert isinstance(numba_dep.marker, Marker)
    for machine, wanted in (
        ("x86_64", True),
        ("AMD64", True),
        ("aarch64", True),
        ("arm64", True),
        ("armv7l", False),
        ("riscv64", False),
        ("i686", False),
    ):
        assert numba_dep.marker.evaluate({"platform_machine": machine}) is wanted, machine
    assert {d.name for d in deps} == {"numba", "numpy", "pypng"}
    assert all(d.marker is None for d in deps if d.name != "numba")


def test_digest_of_this_process_is_stable() -> None:
    # the digests compare two processes; here one value pins them to the vectors' rows too
    rows = es.InfiniteMaze(80, 32, 0).rows(-40, 70)
    vectors = json.loads((ROOT / "tests" / "vectors" / "banded.json").read_text())["vectors"]
    (vector,) = [v for v in vectors if v["params"] == {"width": 80, "seed": "0", "band": 32}]
    assert hashlib.sha256(rows.tobytes()).hexdigest() == vector["sha256"]


@pytest.mark.slow
def test_a_venv_without_numba(tmp_path: Path) -> None:
    """``pip install --no-deps .`` with numpy and pypng alone: the README's first
    command, the stream, the banded maze, the command line and checkpoints."""
    import shutil
    import venv

    source = tmp_path / "source"
    shutil.copytree(
        ROOT / "eller_stream", source / "eller_stream", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    venv.create(tmp_path / "venv", with_pip=True)
    python = str(tmp_path / "venv" / "bin" / "python")
    for args in (["--no-deps", str(source)], ["numpy", "pypng"]):
        done = subprocess.run(
            [python, "-m", "pip", "install", "-q", *args], capture_output=True, text=True, timeout=600
        )
        if done.returncode != 0 and "No matching distribution" in done.stderr:
            pytest.skip(f"no package registry here: {done.stderr.strip()[-200:]}")
        assert done.returncode == 0, done.stderr
    script = str(tmp_path / "venv" / "bin" / "eller-stream")
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ELLER_STREAM_BACKEND")}
    first = subprocess.run(
        [script, "--rows", "12", "--width", "30", "--style", "unicode"],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )
    assert first.returncode == 0 and len(first.stdout.splitlines()) == 25, first.stderr
    state = tmp_path / "state"
    saved = subprocess.run(
        [script, "--band", "8", "--rows", "20", "--seed", "3", "--save-state", str(state), "--style", "raw"],
        capture_output=True,
        env=environ,
        timeout=120,
    )
    assert saved.returncode == 0 and state.exists(), saved.stderr
    resumed = subprocess.run(
        [script, "--resume", str(state), "--rows", "4", "--style", "raw"],
        capture_output=True,
        env=environ,
        timeout=120,
    )
    assert resumed.returncode == 0 and len(resumed.stdout) == 4 * 80, resumed.stderr
    code = """
import sys, eller_stream as es
print(es.backend(), "numba" in sys.modules)
print(es.InfiniteMaze(40, 16, 7, loops=0.3).rows(-5, 60).sum(), es.EllerStream(9, 1).take(50).sum())
try:
    es.growing_tree(5, 5)
except es.NeedsNumba as e:
    print("needs numba:", "pip install numba" in str(e))
"""
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, env=environ, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "lean False" and lines[-1] == "needs numba: True"
    maze = es.InfiniteMaze(40, 16, 7, loops=0.3)
    assert lines[1] == f"{maze.rows(-5, 60).sum()} {es.EllerStream(9, 1).take(50).sum()}"


@needs_numba
def test_after_numba_loads_no_stand_in_is_left() -> None:
    # a stand-in left in a module is a kernel numba cannot compile (an untyped global): with a warm
    # numba cache the kernels load without typing and the tests would not see it
    code = """
import importlib, pkgutil, sys
import eller_stream
for info in pkgutil.walk_packages(eller_stream.__path__, "eller_stream."):
    if not info.name.startswith(("eller_stream.serve", "eller_stream.__main__")):
        importlib.import_module(info.name)
from eller_stream import _numba
_numba.load()
left = [f"{name}.{key}" for name, module in list(sys.modules.items()) if name.startswith("eller_stream")
        for key, value in vars(module).items() if isinstance(value, (_numba._Lazy, _numba._Prange))]
print(left)
"""
    assert run_python(code, backend=None).strip() == "[]"


@needs_numba
def test_a_numba_that_fails_to_import_leaves_clean_lean_rows(tmp_path: Path) -> None:
    """numba found but failing to import at the first kernel call (the
    warming thread's): the note on stderr and nothing else (that call ran
    without the plain-Python errstate and warned of uint64 overflows, issue
    32), and the same rows."""
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['numba'] = None\n")
    args = [sys.executable, "-m", "eller_stream", "--band", "8", "--loops", "0.5", "--rooms", "0.3"]
    args += ["--rows", "3000", "--width", "24", "--seed", "5", "--style", "raw"]
    env = {**ENV, "PYTHONPATH": str(tmp_path) + os.pathsep + ENV["PYTHONPATH"]}
    env.pop("ELLER_STREAM_BACKEND", None)
    done = subprocess.run(args, capture_output=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("eller_stream: note: numba failed to import"), lines
    here = subprocess.run(args, capture_output=True, env=ENV, timeout=600, check=True)
    assert done.stdout == here.stdout and len(here.stdout) == 3000 * 24
