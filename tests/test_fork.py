"""What a fork waits for (eller_stream._fork), and what a child does when the
wait ran out: exercised on the hooks themselves, without forking (the forks
themselves: tests/test_hostile_banded.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from eller_stream import _engine, _fork, _numba

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def warming(monkeypatch: pytest.MonkeyPatch) -> _engine.Warming:
    """A Warming kernel of its own (the process's real ones left alone)."""
    w: _engine.Warming = _engine.Warming(lambda out: out.fill(2), lambda out: out.fill(1))
    _engine.Warming._all.remove(w)
    monkeypatch.setattr(_engine.Warming, "_all", [w])
    return w


def test_a_warming_thread_that_cannot_start_leaves_the_lean_twin_answering(warming, monkeypatch):
    """Where no thread can be had (a pids limit), the first call raised
    RuntimeError after the lean twin had made its rows, and a fork waited
    for a thread that never ran."""
    real = threading.Thread.start

    def refuse(self: threading.Thread) -> None:
        if self.name == "warming":
            raise RuntimeError("can't start new thread")
        real(self)

    monkeypatch.setattr(threading.Thread, "start", refuse)
    out = np.zeros((1, 4), np.uint8)
    warming(out)
    assert (out == 1).all() and warming.over and warming.error is not None
    monkeypatch.setattr(_fork, "WAIT", 5.0)
    start = time.monotonic()
    _fork._before()
    _fork._after()
    assert time.monotonic() - start < 2  # nothing busy to wait for
    warming(out)
    assert (out == 1).all()


def test_a_fork_from_the_thread_holding_numbas_lock_waits_for_no_one(monkeypatch):
    """A fork from a signal handler while its thread compiled (holding numba's
    locks) waited the whole WAIT for threads that were waiting for it."""
    monkeypatch.setattr(_fork, "_busy", [lambda: True])  # a thread that cannot go on
    monkeypatch.setattr(_fork, "WAIT", 5.0)
    start = time.monotonic()
    with _numba._load_lock:  # as the compiling thread holds it
        _fork._before()
        _fork._after()
    assert time.monotonic() - start < 2
    assert not _fork.copied_busy()


def test_a_child_forked_after_the_wait_ran_out_keeps_to_the_lean_twins(warming, monkeypatch):
    """When the wait ran out, numba's locks may be held in the child by a
    thread that did not come along: every kernel's lean twin answers there,
    those that were ready too (the child hung at its first big job)."""
    out = np.zeros((1, 4), np.uint8)
    warming._finish(None)  # ready: the kernel answers
    warming(out)
    assert (out == 2).all()
    monkeypatch.setattr(_fork, "_busy", [lambda: True])
    monkeypatch.setattr(_fork, "WAIT", 0.2)
    _fork._before()
    _fork._after()
    assert _fork.copied_busy()
    _engine.Warming._forked()  # the child's hook
    warming(out)
    assert (out == 1).all() and warming.error is not None
    monkeypatch.setattr(_fork, "_busy", [])
    _fork._before()
    _fork._after()
    assert not _fork.copied_busy()


SLOW_IMPORT = """
import os, sys, threading, time
sys.path.insert(0, sys.argv[1])
from eller_stream import _fork
_fork.guard()
importer = threading.Thread(target=lambda: __import__("slow_module"))
importer.start()
time.sleep(0.3)  # the other thread is inside slow_module's import
pid = os.fork()
if pid == 0:
    import slow_module  # waited for ever on the module's lock, held by a thread not copied
    os._exit(0 if slow_module.VALUE == 7 else 1)
print(os.waitpid(pid, 0)[1])
importer.join()
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_fork_while_another_thread_imports_leaves_the_child_working(tmp_path):
    """A fork while another thread was inside an import (a kernel's first
    call imports numba's modules as it types its arguments, before it takes
    any lock of numba's) copied that module's lock held, and the child's
    first import of it waited for ever (the slow fork test, on a slow day):
    a fork now waits for the imports under way."""
    (tmp_path / "slow_module.py").write_text("import time\ntime.sleep(1.0)\nVALUE = 7\n")
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    code = [sys.executable, "-c", SLOW_IMPORT, str(tmp_path)]
    done = subprocess.run(code, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "0", done.stderr


def test_a_fork_waits_for_a_thread_making_a_plain_python_kernel():
    """``plain_first`` makes its Warming kernels under a lock: a fork while a
    thread held it copied it held, and the child's first small maze of a
    generator (or solve) would have waited for it for ever."""
    taken, released = threading.Event(), threading.Event()

    def hold() -> None:
        with _engine._plain_first_lock:
            taken.set()
            time.sleep(0.3)
            released.set()  # set while it holds the lock: a fork that took the lock finds it set

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(10)
    _fork._before()  # as os.fork() calls it: takes the lock, so once the holder is done
    try:
        assert released.is_set()
    finally:
        _fork._after()
    thread.join()
