import gc
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import settings

# numpy's BLAS (OpenBLAS) starts a thread a core as numpy loads, which spins a while: 0.05 s of
# CPU in each process, 7 s of the run's (the CLI asks for one thread itself, eller_stream._entry);
# the workers and every process the tests start take one
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(__file__))
import bytecode

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "warm_kernels.py")
WARM_KEY = "eller_stream_kernels_ready"  # the workers' input: the file there once the warm-up is over


def _jit_on() -> bool:
    """Whether the tests' processes run numba's kernels (not the lean backend, not plain Python)."""
    lean = os.environ.get("ELLER_STREAM_BACKEND", "").strip().lower() == "lean"
    return not lean and os.environ.get("NUMBA_DISABLE_JIT", "0").strip() in ("", "0")


def pytest_configure(config: pytest.Config) -> None:
    """In the controller (or the one process) of a run, the package's
    bytecode first, and on a run on xdist workers the tests' too (``bytecode.py``).

    In the controller of a run on xdist workers (``-n 2``): get the kernels
    ready (``warm_kernels.py``) in two processes, one half each, while the
    workers start and collect; they wait for it before their first test
    (:func:`pytest_runtestloop`). On an empty numba cache the compile is
    then paid once, on both cores, not by each worker for itself; on a full
    one the two processes load the kernels and end in a few seconds."""
    if hasattr(config, "workerinput"):
        return
    bytecode.compile_package()
    if config.getoption("dist", "no") == "no":
        return
    if _start_warm_up(config) and hasattr(os, "nice"):
        # what this process starts from now on (the workers, and all they start) yields to the
        # warm-up's halves, the run's longest chain: the workers' start and collection (10 s of
        # CPU) no longer lengthen it; once it is over, nothing of the run competes with them
        os.nice(5)
    bytecode.rewrite_tests(config)  # while the warm-up's halves start


def _start_warm_up(config: pytest.Config) -> bool:
    if not _jit_on() or config.option.collectonly or importlib.util.find_spec("numba") is None:
        return False
    spec = importlib.util.find_spec("eller_stream")  # the package the workers import (their sys.path is this)
    if spec is None or spec.origin is None:
        return False
    where = os.path.dirname(os.path.dirname(spec.origin))
    env = {**os.environ, "PYTHONPATH": where + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.DEVNULL
    marks = tempfile.mkdtemp(prefix="eller-warm-")  # the halves' marks (what each has ready), then ours
    halves = [
        subprocess.Popen([sys.executable, WARM, h, marks], stdout=out, stderr=out, env=env) for h in "01"
    ]
    ready = os.path.join(marks, "ready")
    config.stash[_READY] = ready
    config.stash[_HALVES] = halves

    def wait() -> None:  # a warm-up that failed costs its time only: the workers compile what they meet
        for half in halves:
            half.wait()
        open(ready, "w").close()

    threading.Thread(target=wait, name="warm-up", daemon=True).start()
    return True


_READY = pytest.StashKey[str]()
_HALVES = pytest.StashKey[list[subprocess.Popen[bytes]]]()


def pytest_unconfigure(config: pytest.Config) -> None:
    """The controller's warm-up ends with the run (one cut short by Ctrl-C too), its folder goes."""
    for half in config.stash.get(_HALVES, []):
        if half.poll() is None:
            half.kill()
        half.wait()
    if _READY in config.stash:
        shutil.rmtree(os.path.dirname(config.stash[_READY]), ignore_errors=True)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Tell each xdist worker where the warm-up's end is marked."""
    ready = node.config.stash.get(_READY, None)
    if ready is not None:
        node.workerinput[WARM_KEY] = ready


def pytest_collection_finish(session: pytest.Session) -> None:
    """Collection compiled nothing: a test module that runs a kernel as it is
    imported (a stream's rows in a parameter list) starts numba's compile in
    every worker, beside the warm-up (43 s a worker on an empty cache), so it
    is an error here; make such values in the test or a fixture."""
    engine = sys.modules.get("eller_stream._engine")
    started = [w for w in engine.Warming._all if w._started] if engine is not None else []
    if started:
        names = ", ".join(sorted({getattr(w.lean, "__name__", "?") for w in started}))
        raise pytest.UsageError(f"a test module ran a kernel ({names}) as it was imported: run it in a test")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``long`` first, the rest in their order: a worker
    cannot hand half of a test to the other, so one left for the end of the
    run (the 20 s compile of test_lean's empty cache was) kept the run going
    on one core alone. Every worker sorts its collection alike.

    On xdist workers, the tests of the server and the browser first in the
    second worker's share, those of the Dask cluster last (xdist's
    worksteal hands each worker an equal run of the order, then a worker
    with none left takes the end of another's): each shared fixture then
    starts in one worker, not in both (a server and a chromium, 3 s of CPU;
    a cluster, 2.5 s), and the cluster's tests come one after another, so
    that it starts once and ends with them (``dask_client``); in one
    process, or where the shares cannot be laid out so, the cluster's
    tests still come last, one after another."""

    def uses(item: pytest.Item, names: set[str]) -> bool:
        return not names.isdisjoint(getattr(item, "fixturenames", ()))

    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    web = [item for item in items if uses(item, {"server", "browser"})]
    dask = [item for item in items if uses(item, {"dask_client"}) and not uses(item, {"server", "browser"})]
    rest = [item for item in items if not uses(item, {"server", "browser", "dask_client"})]
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    first = len(items) // workers  # as xdist splits: the first share, then the rest among the others
    if workers >= 2 and len(web) + len(dask) <= len(items) - first:
        items[:] = rest[:first] + web + rest[first:] + dask
    else:
        items.sort(key=lambda item: uses(item, {"dask_client"}))


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> None:
    """In a worker: wait for the controller's warm-up before the first test
    (at most ten minutes: then the worker compiles what it meets); then set
    aside what the imports and the collection made, which the garbage
    collector's full passes scanned again and again, and let it pass less
    often (12.6 s of the workers' CPU went to its passes)."""
    ready = getattr(session.config, "workerinput", {}).get(WARM_KEY)
    deadline = time.monotonic() + 600
    while ready is not None and not os.path.exists(ready) and time.monotonic() < deadline:
        time.sleep(0.05)
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


@pytest.fixture
def run_cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python -m eller_stream ARGS...`` in a new process, with this
    checkout first on PYTHONPATH; text output captured.  ``check=True``
    (the default) fails the test on a non-zero exit status."""
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "eller_stream", *args]
        return subprocess.run(command, capture_output=True, text=True, check=check, env=env)

    return run


@pytest.fixture(scope="module")
def numba_answers() -> None:
    """The numba kernels of the streams and the banded maze answer, not their lean twins:
    a module that pins the kernels uses it (``pytestmark``).  While numba
    compiles in the background the lean twins answer small jobs, so a test
    run early would check the lean backend alone (which ``test_lean``
    checks against these kernels)."""
    import eller_stream as es
    from eller_stream import _engine

    es.EllerStream(8, 0).take(3)
    for knobs in ({}, {"loops": 0.5}, {"rooms": 0.3}, {"loops": 0.5, "rooms": 0.3}):
        maze = es.InfiniteMaze(8, 6, 0, **knobs)
        maze.rows(0, 24)
        maze.stream(0).take(3)
    _engine.settle()


@pytest.fixture(scope="session")
def server() -> Iterator[Any]:
    """An ``eller-stream serve`` (``serve_support.Server``) shared by the tests of a worker
    (its start, numba's kernels loaded for every request, is a second or two of CPU each)."""
    from serve_support import Server

    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def _chromium() -> Iterator[Any]:
    from browser_support import open_browser

    yield from open_browser()


@pytest.fixture
def browser(_chromium: Any) -> Any:
    """A headless chromium shared by the tests of a worker (``browser_support.open_browser``),
    its page's log emptied for each test (a refused request another test made is not this one's)."""
    _chromium.get_log("browser")
    return _chromium


_CLUSTER: list[tuple[Any, Any]] = []  # the worker's Dask cluster and client, while its tests run


@pytest.fixture
def dask_client() -> Any:
    """A Dask client of two worker processes of one thread each, on the loopback only,
    shared by a run of consecutive tests that use it (the [dask] extra: a module that
    uses it skips without). It is closed after the last of them (``pytest_runtest_teardown``):
    idle, its processes and the client's thread take 0.12 s of CPU a second, and
    ``tracemalloc`` counts its threads' allocations in a test that measures its own."""
    if not _CLUSTER:
        import distributed

        cluster = distributed.LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",  # None binds 8787 all the same (dask/distributed#8136):
            worker_dashboard_address=None,  # a second cluster warned that the port was taken
        )
        _CLUSTER.append((cluster, distributed.Client(cluster)))
    return _CLUSTER[0][1]


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """The Dask cluster ends with the last of a run of tests that use it (a
    worker that takes more such tests from the other later starts another)."""
    if _CLUSTER and "dask_client" not in getattr(nextitem, "fixturenames", ()):
        cluster, client = _CLUSTER.pop()
        client.close()
        cluster.close()
