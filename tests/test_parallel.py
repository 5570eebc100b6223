"""The package's own threads (eller_stream._parallel): the runs a range is cut
in, and the parts handed to the threads: side by side, each once, errors
raised once every part is over, and a pool that survives ``fork``."""

from __future__ import annotations

import multiprocessing
import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eller_stream import _parallel as par


@given(n=st.integers(0, 500), parts=st.integers(1, 9))
def test_split_cuts_a_range_in_even_runs(n: int, parts: int) -> None:
    runs = par.split(n, parts)
    assert [i for a, b in runs for i in range(a, b)] == list(range(n))
    assert len(runs) == min(n, parts) and all(b > a for a, b in runs)
    sizes = [b - a for a, b in runs]
    assert not sizes or max(sizes) - min(sizes) <= 1


def test_the_parts_run_side_by_side_each_once() -> None:
    """Each part waits at a barrier for the others: parts run one after
    another would break it (its timeout) instead of passing it."""
    for n in (2, 3, 2):  # the pool grows, then is reused
        barrier = threading.Barrier(n, timeout=20)
        ran: list[int] = []

        def part(ran: list[int] = ran, barrier: threading.Barrier = barrier) -> None:
            barrier.wait()
            ran.append(threading.get_ident())

        par.run_parts([part] * n)
        assert len(ran) == n and len(set(ran)) == n and threading.get_ident() in ran


def test_an_error_is_raised_once_every_part_is_over() -> None:
    over: list[str] = []

    def slow() -> None:
        time.sleep(0.2)
        over.append("slow")

    def fails() -> None:
        raise ValueError("in a part")

    with pytest.raises(ValueError, match="in a part"):
        par.run_parts([fails, slow])  # this thread's own part fails
    assert over == ["slow"]
    with pytest.raises(ValueError, match="in a part"):
        par.run_parts([slow, fails])  # another thread's part fails
    assert over == ["slow", "slow"]
    ran: list[bool] = []
    par.run_parts([lambda: ran.append(True), lambda: ran.append(True)])  # the pool goes on
    assert ran == [True, True]


def test_one_part_runs_here_and_takes_no_lock() -> None:
    """A range on one thread (most of them) never waits for another thread's parallel call."""
    ran: list[int] = []
    with par._lock:
        done = threading.Thread(target=par.run_parts, args=([lambda: ran.append(threading.get_ident())],))
        done.start()
        done.join(timeout=20)
    assert not done.is_alive() and ran == [done.ident]


def _two_parts(_: int) -> int:
    out: list[int] = []
    par.run_parts([lambda: out.append(1), lambda: out.append(2)])
    return sum(out)


def test_the_pool_is_made_again_in_a_forked_child() -> None:
    """The threads do not come along in a fork: a child that kept the
    parent's list of them would hand its parts to no one and wait for ever."""
    par.run_parts([lambda: None, lambda: None])  # the parent has its thread
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.map_async(_two_parts, [0, 1]).get(timeout=60) == [3, 3]


def test_where_no_thread_can_be_started_a_range_is_made_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pids limit: ``Thread.start`` raises ``RuntimeError``; a range on
    every core is then made on this thread, the same bytes, not refused."""
    import numba
    import numpy as np

    import eller_stream as es

    real = threading.Thread.start

    def refuse(self: threading.Thread) -> None:
        if self.name == "eller-stream-part":
            raise RuntimeError("can't start new thread")
        real(self)

    maze = es.InfiniteMaze(300, 16, seed=4, loops=0.5)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = maze.rows(-100, 1000)
    finally:
        numba.set_num_threads(threads)
    monkeypatch.setattr(par, "_threads", [])
    monkeypatch.setattr(threading.Thread, "start", refuse)
    ran: list[int] = []
    par.run_parts([lambda: ran.append(threading.get_ident())] * 3)
    assert ran == [threading.get_ident()] * 3
    np.testing.assert_array_equal(maze.rows(-100, 1000), one)  # 330 000 cells: every core, had it threads
    assert par._threads == []
