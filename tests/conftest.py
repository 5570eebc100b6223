import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import settings

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    """An ``eller-stream serve`` of the module's tests (``serve_support.Server``)."""
    from serve_support import Server

    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless chromium of the module's tests (``browser_support.open_browser``)."""
    from browser_support import open_browser

    yield from open_browser()
