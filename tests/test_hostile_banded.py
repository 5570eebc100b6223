"""The banded maze at its limits (issue 25): tall bands, the last rows, a
fork after the parallel path, interrupts inside long calls, rows that do
not expose the stream's buffer, pickling."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest

import eller_stream as es
import eller_stream._stream_base as base
from eller_stream import _parallel as par
from eller_stream import banded

from naive import perfect_problems


def test_a_band_taller_than_the_limit_is_refused_with_the_limit():
    # band=2**62 returned uninitialised memory (a wrapped band count), and a seek
    # deep in it never returned
    for band in (2**62, 2**62 - 1, banded.MAX_BAND + 1):
        with pytest.raises(ValueError, match=r"band must be in \[2, 65536\]"):
            es.InfiniteMaze(5, band=band, seed=1)
    maze = es.InfiniteMaze(5, band=banded.MAX_BAND, seed=1)
    assert maze[-1].shape == (5,)  # the last row of the tallest band: a seek of 65535 rows


@pytest.mark.parametrize("band", [2, 3, 7, banded.MAX_BAND])
def test_rows_near_the_ends_fill_every_cell(band):
    # "never hand back a buffer the kernel did not fill": a poisoned out= shows any cell left
    maze = es.InfiniteMaze(6, band=band, seed=3)
    for start, stop in [(-(2**63), -(2**63) + 9), (2**63 - 9, 2**63), (-4, 5), (2**62 - 1, 2**62 + 1)]:
        out = np.full((stop - start, 6), 0xFF, np.uint8)
        maze.rows(start, stop, out=out)
        assert out.max() <= 3
        np.testing.assert_array_equal(out, maze.stream(start).take(stop - start))


def test_an_index_past_the_last_row_blames_the_index():
    maze = es.InfiniteMaze(4, band=4, seed=1)
    with pytest.raises(ValueError, match=r"^index must be in"):
        maze[2**63]
    with pytest.raises(ValueError, match=r"^index must be in"):
        maze[-(2**63) - 1]


def test_doors_out_of_range_says_zero_is_excluded():
    for doors in (1.5, -0.1, 0.0):
        with pytest.raises(ValueError, match=r"doors must be in \(0, 1\]"):
            es.InfiniteMaze(4, doors=doors)


def test_a_checkpoint_of_the_other_stream_says_which_class_resumes_it():
    banded_data = es.InfiniteMaze(4, band=4, seed=1).stream().checkpoint()
    eller_data = es.EllerStream(4, 1).checkpoint()
    with pytest.raises(ValueError, match=r"banded-stream checkpoint: BandedStream.resume"):
        es.EllerStream.resume(banded_data)
    with pytest.raises(ValueError, match=r"EllerStream checkpoint: EllerStream.resume"):
        es.BandedStream.resume(eller_data)


def test_an_old_checkpoint_in_a_band_over_the_limit_is_refused_clearly():
    import hashlib

    from eller_stream._checkpoint import BANDED_V1_HEADER

    body = BANDED_V1_HEADER.pack(b"ELLRBAND", 1, 0, 8, 2**62, 1, 0.5, 0.5, 0.45, 2**62 - 2, 1)
    data = body + hashlib.blake2b(body, digest_size=16).digest()
    with pytest.raises(ValueError, match="taller than the limit"):
        es.BandedStream.resume(data)


@pytest.mark.parametrize("make", ["eller", "banded"])
def test_writing_into_a_row_from_next_changes_no_row_to_come(make):
    def stream():
        if make == "eller":
            return es.EllerStream(7, 5)
        return es.InfiniteMaze(7, band=5, seed=5).stream(-3)

    s, ref = stream(), stream()
    for _ in range(3):
        row = next(s)
        row[:] = 0xEE
        if row.base is not None:  # the rows ahead of a block were reachable through .base
            row.base[...] = 0xEE
    want = ref.take(13)
    got = np.vstack([want[:3], s.take(10)])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("make", ["eller", "banded"])
def test_streams_pickle_through_their_checkpoint(make):
    s = es.EllerStream(9, 4) if make == "eller" else es.InfiniteMaze(9, band=4, seed=4).stream(-6)
    s.take(5)
    next(s)
    t = pickle.loads(pickle.dumps(s))
    assert type(t) is type(s) and t.rows_emitted == s.rows_emitted
    np.testing.assert_array_equal(t.take(20), s.take(20))
    np.testing.assert_array_equal(t.finish(), s.finish())
    with pytest.raises(RuntimeError, match="closed"):
        pickle.dumps(s)


def test_a_long_range_is_made_in_short_calls_that_ctrl_c_can_come_between(monkeypatch):
    # a seek deep into a band, and a long range, were each one uninterruptible kernel call
    calls = []
    real = banded.engine.band_stream_rows

    def spy(left, right, out, *rest):
        calls.append(out.size)
        return real(left, right, out, *rest)

    monkeypatch.setattr(banded.engine, "band_stream_rows", spy)
    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)  # the serial path
    maze = es.InfiniteMaze(1000, band=banded.MAX_BAND, seed=2)
    maze.rows(banded.MAX_BAND - 2, banded.MAX_BAND + 10_000)  # a seek of 65534 rows, then 10002 rows
    assert len(calls) > 10 and max(calls) <= base.CALL_CELLS
    calls.clear()
    maze.stream(banded.MAX_BAND - 1)
    assert max(calls) <= base.CALL_CELLS


def test_ctrl_c_lands_inside_a_long_range_and_changes_nothing():
    maze = es.InfiniteMaze(2000, band=64, seed=2)
    s = maze.stream(0)
    s.take(3)
    calls = []
    real = base.fill

    class Alarm(KeyboardInterrupt):
        pass

    def alarm(signum, frame):
        raise Alarm

    def counting_kernel(kernel):
        def run(*args):
            calls.append(1)
            return kernel(*args)

        return run

    previous = signal.signal(signal.SIGALRM, alarm)
    base.fill = lambda kernel, sets, out: real(counting_kernel(kernel), sets, out)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(Alarm):
            s.take(300_000)  # 6e8 cells: about 3 s of kernel calls
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        base.fill = real
    assert 0 < len(calls) < 300_000 * 2000 // base.CALL_CELLS  # it stopped between two calls
    assert s.rows_emitted == 3
    np.testing.assert_array_equal(s.take(5), maze.rows(3, 8))


def _sum_rows(i: int) -> int:
    return int(es.InfiniteMaze(1000, band=32, seed=1).rows(0, 3000).sum())


def test_a_fork_after_the_parallel_path_leaves_the_children_working():
    # numba's OpenMP pool does not survive fork(): the children died ("fork() called from a
    # process already using GNU OpenMP") and map() never returned
    maze = es.InfiniteMaze(1000, band=32, seed=1)
    want = int(maze.rows(0, 3000).sum())
    assert par._used[0]  # the parallel kernel ran in this process
    with multiprocessing.get_context("fork").Pool(2) as pool:
        got = pool.map_async(_sum_rows, range(4)).get(timeout=120)
    assert got == [want] * 4


def test_a_fork_while_a_kernel_gets_ready_leaves_the_child_working():
    """A child forked while the thread that gets a kernel ready held numba's
    locks (and an import's) waited for ever at its first numba call: a fork
    now waits for that thread."""
    code = textwrap.dedent(
        """
        import os, eller_stream as es
        from eller_stream import _engine
        maze = es.InfiniteMaze(10, band=4, seed=2)
        maze.rows(0, 8)  # the lean twin answers; a thread imports numba and gets the kernel ready
        print("in flight", any(w._started and not w.done.is_set() for w in _engine.Warming._all))
        pid = os.fork()
        if pid == 0:
            print("child", es.Window(maze, row=20).lasting((20, 3)).sum(), flush=True)
            os._exit(0)
        print("child's status", os.waitpid(pid, 0)[1])
        print("parent", es.Window(maze, row=20).lasting((20, 3)).sum())
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "in flight True"  # else the test tests nothing
    parent = lines[-1].split()[-1]
    assert sorted(lines[1:]) == sorted([f"child {parent}", "child's status 0", f"parent {parent}"])


@pytest.mark.slow
def test_a_fork_while_another_thread_compiles_leaves_the_child_working(tmp_path):
    """A job too big for the lean twin compiles in its caller's thread; a
    fork from another thread meanwhile copied numba's compiler lock held, and
    the child waited for it for ever: a fork now waits for that lock."""
    code = textwrap.dedent(
        """
        import os, threading, time, eller_stream as es
        def say(*words):  # a line in one write: two threads' print() calls interleave their words
            os.write(1, (" ".join(map(str, words)) + "\\n").encode())
        def forker():
            time.sleep(0.5)
            pid = os.fork()
            if pid == 0:
                say("child", es.InfiniteMaze(1000, band=4, seed=2).rows(0, 200).sum())
                os._exit(0)
            say("child's status", os.waitpid(pid, 0)[1])
        thread = threading.Thread(target=forker)
        thread.start()
        say("parent", es.InfiniteMaze(1000, band=4, seed=2).rows(0, 200).sum())  # compiles here
        thread.join()
        """
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # empty: the compile takes seconds
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    parent = next((line.split()[-1] for line in lines if line.startswith("parent")), None)
    assert sorted(lines) == sorted([f"child {parent}", "child's status 0", f"parent {parent}"]), done.stdout


@pytest.mark.slow
def test_the_parallel_path_under_a_memory_limit_gives_a_clear_error():
    # it raised SystemError from inside the parallel kernel (the serial path: MemoryError)
    code = textwrap.dedent(
        """
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2_500_000_000, 2_500_000_000))
        import eller_stream as es
        try:
            es.InfiniteMaze(100_000_000, band=2, seed=1).rows(0, 4)
        except (MemoryError, ValueError) as exc:
            print("clear", type(exc).__name__)
        else:
            print("made")
        """
    )
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    assert "SystemError" not in result.stderr, result.stderr
    assert result.stdout.split()[0] in ("clear", "made"), result.stderr


def test_a_whole_band_from_the_tallest_band_is_perfect():
    grid = es.closed_rows(es.InfiniteMaze(3, band=banded.MAX_BAND, seed=8).stream(0), banded.MAX_BAND)
    assert perfect_problems(grid) == []


def test_the_last_row_keeps_its_seam_doors_and_a_window_takes_them_as_walls():
    """Row 2**63 - 1 is the last (issue 32, decided): its SOUTH flags are the
    seam's doors, as every other band's last row has them (the vectors that
    end at 2**63 pin them); nothing moves through them."""
    maze = es.InfiniteMaze(12, band=8, seed=5)
    last = 2**63 - 1
    row = maze.rows(last, last + 1)[0]
    assert (row & es.SOUTH).any()
    assert last % 8 == 7  # a band's last row: SOUTH exactly at the doors
    win = es.Window(maze, row=last)
    assert win.bottom == 2**63
    assert not any(win.can_move((last, x), "south") for x in range(12))
