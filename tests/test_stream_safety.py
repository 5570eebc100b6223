"""EllerStream under hostile conditions: an exception (KeyboardInterrupt
included) at any point of a call, and threads sharing one stream.

The exception is injected at every step of a call: at each bytecode
instruction the interpreter runs in the stream's own code (a trace
function raises there), and at each call the stream makes into the kernel
runner, numpy and hashlib (proxies that raise at the n-th call).  After the
exception the stream must give exactly the rows of an untouched stream, and
those rows with the closing row must be a perfect maze (the union-find
oracle of naive.py).
"""

from __future__ import annotations

import collections
import itertools
import linecache
import sys
import threading
import types

import numpy as np
import pytest

import eller_stream as es
import eller_stream._eller_kernels as eller_kernels
import eller_stream._engine as engine
import eller_stream._stream_base as base_module
import eller_stream.stream as stream_module

from naive import perfect_problems

WIDTH, SEED, BLOCK = 5, 11, 3
TRACED = {stream_module.__file__, base_module.__file__, engine.__file__, eller_kernels.__file__}


class Injected(KeyboardInterrupt):
    """The exception the tests inject (a Ctrl-C, as far as the stream knows)."""


@pytest.fixture(scope="module", autouse=True)
def kernels_ready() -> None:
    """The compiled kernels, ready before the first test: until then a
    stream's blocks are short (the lean twins make them), and the blocks
    would change from test to test.  (A fixture, not the module's import:
    collection must not compile, see ``conftest.py``.)"""
    es.EllerStream(64, 0).take(1)
    es.EllerStream(64, 0).finish()
    for kernel in (engine.eller_rows, engine.eller_close):
        if isinstance(kernel, engine.Warming):
            assert kernel.ready.wait(600), kernel.error


def make() -> es.EllerStream:
    stream = es.EllerStream(WIDTH, SEED, 0.45, 0.55)
    stream._block_rows = BLOCK  # small blocks, so that calls cross block boundaries
    return stream


# Where the stream is when the call is made: (name, steps before the call).
SETUPS = {
    "fresh": [],
    "after take": [("take", 4)],
    "mid block": [("take", 2), ("next",), ("next",)],
    "end of block": [("next",), ("next",), ("next",)],
    "after checkpoint": [("next",), ("checkpoint",)],
}
# The call that gets the exception.
CALLS = {
    "take(0)": ("take", 0),
    "take(1)": ("take", 1),
    "take(2)": ("take", 2),
    "take(8)": ("take", 8),
    "take(5, out=)": ("take_out", 5),
    "next": ("next",),
    "finish": ("finish",),
    "checkpoint": ("checkpoint",),
}


def do(stream: es.EllerStream, step: tuple) -> tuple[str, object]:
    """Run a step; returns what it gave (rows, the closing row or checkpoint bytes)."""
    name = step[0]
    if name == "take":
        return "rows", stream.take(step[1]).copy()
    if name == "take_out":
        buf = np.full((step[1], WIDTH), 0xFF, np.uint8)
        return "rows", stream.take(step[1], out=buf).copy()
    if name == "next":
        return "rows", next(stream)[None].copy()
    if name == "finish":
        return "close", stream.finish()[None].copy()
    return "bytes", stream.checkpoint()


AFTER = [("take", 2), ("next",), ("next",), ("take", 5), ("checkpoint",), ("next",)]


def history(stream: es.EllerStream, steps: list[tuple]) -> list[tuple[str, object]]:
    return [do(stream, step) for step in steps]


def finish_history(stream: es.EllerStream, call: tuple) -> list[tuple[str, object]]:
    """Retry the call that failed, go on for a while, and close the maze."""
    out = [do(stream, call)]
    if call[0] != "finish":
        out += history(stream, AFTER)
        out.append(do(stream, ("finish",)))
    return out


def same_history(got: list[tuple[str, object]], want: list[tuple[str, object]]) -> None:
    assert [kind for kind, _ in got] == [kind for kind, _ in want]
    for (kind, a), (_, b) in zip(got, want, strict=True):
        if kind == "bytes":
            assert a == b
        else:
            np.testing.assert_array_equal(a, b)


def maze_of(steps: list[tuple[str, object]]) -> np.ndarray:
    return np.vstack([value for kind, value in steps if kind != "bytes"])


def reference(setup: list[tuple], call: tuple) -> list[tuple[str, object]]:
    stream = make()
    return history(stream, setup) + finish_history(stream, call)


class Trace:
    """A trace function that raises Injected at the n-th line run in the
    stream's code (n counts from 1); ``count`` is how many it saw.

    Lines, not bytecode instructions: an exception can reach Python code only
    where the interpreter checks for pending signals (calls, jumps back,
    function starts), never between the instruction that takes a lock and the
    one that protects it, but a trace function at every instruction would put
    it there.  For the same reason the line event that marks the end of a
    ``with self._lock:`` block is skipped: it comes before the call that
    releases the lock, where no signal is ever handled (the interpreter
    checks for them after that call, once the lock is free)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.count = 0
        self.seen: set[tuple[int, int]] = set()

    def global_trace(self, frame: types.FrameType, event: str, arg: object):  # type: ignore[no-untyped-def]
        if frame.f_code.co_filename not in TRACED:
            return None
        return self.local_trace

    def local_trace(self, frame: types.FrameType, event: str, arg: object):  # type: ignore[no-untyped-def]
        if event == "line":
            key = (id(frame), frame.f_lineno)
            text = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
            if key in self.seen and text == "with self._lock:":
                return self.local_trace
            self.seen.add(key)
            self.count += 1
            if self.count == self.n:
                raise Injected(f"injected at line event {self.n}")
        return self.local_trace


def run_traced(stream: es.EllerStream, call: tuple, n: int) -> tuple[bool, int]:
    """Run the call with an exception at line event n; (raised?, line events seen)."""
    trace = Trace(n)
    sys.settrace(trace.global_trace)
    try:
        do(stream, call)
    except Injected:
        return True, trace.count
    finally:
        sys.settrace(None)
    return False, trace.count


def outcome(stream: es.EllerStream, steps: list[tuple], call: tuple, before_rows: int) -> str:
    """Check the stream after an exception in ``call``: it is as before the
    call ("undone"), or as after a call whose result the exception took away
    because it landed once the call had done its work ("done", the same as
    an exception just after the call returned).  Its rows must be an
    untouched stream's.  (There is no third outcome: a call changes the
    stream in one assignment at its end, so nothing is ever undone.)"""
    assert not stream._lock.locked()
    try:
        stream.finish() if stream.closed else stream.checkpoint()  # a probe that changes nothing
    except RuntimeError as exc:
        assert stream.closed and "closed" in str(exc)
    else:
        assert not stream.closed
    changed = stream.closed if call[0] == "finish" else stream.rows_emitted != before_rows
    ref = make()
    want = history(ref, steps)
    if changed:
        do(ref, call)  # what the call did, its result lost
        got_after = [*history(stream, AFTER), do(stream, ("finish",))] if not stream.closed else []
        want_after = [*history(ref, AFTER), do(ref, ("finish",))] if not ref.closed else []
    else:
        got_after = finish_history(stream, call)
        want_after = finish_history(ref, call)
    same_history(got_after, want_after)
    assert stream.closed and ref.closed and stream.rows_emitted == ref.rows_emitted
    if not changed:
        assert perfect_problems(maze_of(want + got_after)) == []
    return "done" if changed else "undone"


OUTCOMES: collections.Counter[str] = collections.Counter()
CALLS_FAILED: collections.Counter[str] = collections.Counter()


@pytest.mark.parametrize("setup", sorted(SETUPS))
@pytest.mark.parametrize("call", sorted(CALLS))
def test_an_exception_at_any_line_leaves_the_stream_consistent(setup, call):
    steps, op = SETUPS[setup], CALLS[call]
    assert perfect_problems(maze_of(reference(steps, op))) == []
    n = 0
    while True:
        n += 1
        stream = make()
        history(stream, steps)
        before_rows = stream.rows_emitted
        raised, seen = run_traced(stream, op, n)
        if not raised:
            assert n > 1, "the call ran no traced instruction"
            break
        OUTCOMES[outcome(stream, steps, op, before_rows)] += 1
    assert seen == n - 1  # every line the call ran got its exception


class Failing:
    """A module proxy: its functions count their calls in ``counter`` and the
    n-th call raises Injected instead of running."""

    def __init__(self, module: types.ModuleType, counter: list[int], n: int, types_too: bool = False) -> None:
        self._module, self._counter, self._n, self._types_too = module, counter, n, types_too

    def __getattr__(self, name: str) -> object:
        value = getattr(self._module, name)
        if not callable(value) or (isinstance(value, type) and not self._types_too):
            return value  # numpy's dtypes and scalar types pass through unchanged

        def wrapper(*args: object, **kwargs: object) -> object:
            self._counter[0] += 1
            if self._counter[0] == self._n:
                raise Injected(f"{name} failed (call {self._n})")
            return value(*args, **kwargs)

        return wrapper


@pytest.mark.parametrize("setup", sorted(SETUPS))
@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_failing_kernel_numpy_or_hashlib_call_changes_nothing(monkeypatch, setup, call):
    steps, op = SETUPS[setup], CALLS[call]
    want = reference(steps, op)
    n = 0
    while True:
        n += 1
        stream = make()
        before = history(stream, steps)
        counter = [0]
        with monkeypatch.context() as m:
            m.setattr(stream_module, "engine", Failing(engine, counter, n))
            m.setattr(stream_module, "np", Failing(np, counter, n))
            m.setattr(base_module, "np", Failing(np, counter, n))
            m.setattr(stream_module, "_checkpoint", Failing(stream_module._checkpoint, counter, n, True))
            try:
                do(stream, op)
                raised = False
            except Injected:
                raised = True
        if not raised:
            break
        same_history(before + finish_history(stream, op), want)
    if setup == "fresh" and op[1:] != (0,):  # these calls must generate rows
        assert n > 1, "the call made no call that could fail"
    CALLS_FAILED[call] += n - 1


def test_a_forged_row_count_beyond_what_checkpoint_writes_is_refused():
    import hashlib
    import struct

    header = struct.Struct("<8sHHIQddQQ")
    for rows in (2**128 - 1, 2**127, es.stream.MAX_ROWS + 1):
        body = header.pack(b"ELLRSTRM", 1, 0, 3, 1, 0.5, 0.5, rows & (2**64 - 1), rows >> 64)
        body += np.arange(3, dtype="<i4").tobytes()
        data = body + hashlib.blake2b(body, digest_size=16).digest()
        with pytest.raises(ValueError, match="row count"):
            es.EllerStream.resume(data)
    # the largest count is accepted, written back, and ends the rows
    stream = es.EllerStream(3, 1)
    stream._gen = stream._gen._replace(row=es.stream.MAX_ROWS - 2)
    stream.take(1)
    next(stream)
    resumed = es.EllerStream.resume(stream.checkpoint())
    assert resumed.rows_emitted == es.stream.MAX_ROWS
    with pytest.raises(ValueError, match="n=1"):
        resumed.take(1)
    with pytest.raises(OverflowError):
        next(resumed)
    np.testing.assert_array_equal(resumed.finish(), stream.finish())


@pytest.mark.parametrize("width", [1, 2, 7, 64])
def test_threads_sharing_a_stream_get_each_row_once(width):
    stream = es.EllerStream(width, 123)
    calls, errors = 400, []
    got: list[list[np.ndarray]] = [[] for _ in range(4)]
    checkpoints: list[bytes] = []
    start = threading.Barrier(5)

    def worker(i: int) -> None:
        try:
            start.wait()
            for j in range(calls):
                if (i + j) % 3:
                    got[i].append(next(stream).copy())
                else:
                    got[i].extend(stream.take(1 + j % 5))
        except BaseException as exc:  # every error is a failure here
            errors.append(exc)

    def checkpointer() -> None:
        try:
            start.wait()
            for _ in range(50):
                checkpoints.append(stream.checkpoint())
        except BaseException as exc:
            errors.append(exc)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        threads.append(threading.Thread(target=checkpointer))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == []
    rows = [r for rows in got for r in rows]
    total = len(rows)
    assert stream.rows_emitted == total
    whole = np.vstack([es.EllerStream(width, 123).take(total), stream.finish()[None]])
    assert perfect_problems(whole) == []
    if width >= 7:  # rows this wide are distinct enough for a multiset to mean something
        assert collections.Counter(r.tobytes() for r in rows) == collections.Counter(
            r.tobytes() for r in whole[:-1]
        )
    if width == 64:  # rows this wide are all different: each thread got its rows in stream order
        index = {r.tobytes(): y for y, r in enumerate(whole[:-1])}
        assert len(index) == total
        for rows_of_thread in got:
            positions = [index[r.tobytes()] for r in rows_of_thread]
            assert positions == sorted(positions)
    for data in checkpoints:  # every checkpoint continues the stream where it was
        resumed = es.EllerStream.resume(data)
        at = resumed.rows_emitted
        if at + 2 < total:
            np.testing.assert_array_equal(resumed.take(2), whole[at : at + 2])


@pytest.mark.parametrize(
    "make", [lambda: es.EllerStream(9, 5), lambda: es.InfiniteMaze(9, band=4, seed=5).stream(-3)]
)
def test_rows_emitted_read_by_another_thread_never_falls(make):
    """A reader of ``rows_emitted`` and ``row`` sees one committed state: the
    counters never go backwards while four threads take rows (issue 32)."""
    stream = make()
    stop, errors, seen = threading.Event(), [], []
    start = threading.Barrier(5)

    def worker(i: int) -> None:
        try:
            start.wait()
            for j in range(300):
                if (i + j) % 3 == 0:
                    stream.take(1 + j % 7)
                elif (i + j) % 3 == 1:
                    next(stream)
                else:
                    stream.checkpoint()
        except BaseException as exc:
            errors.append(exc)

    def reader() -> None:
        start.wait()
        while not stop.is_set():
            seen.append((stream.rows_emitted, getattr(stream, "row", stream.rows_emitted)))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        watcher = threading.Thread(target=reader)
        for t in [*threads, watcher]:
            t.start()
        for t in threads:
            t.join()
        stop.set()
        watcher.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == []
    emitted = [e for e, _ in seen]
    rows = [r for _, r in seen]
    assert len(seen) > 10
    assert all(a <= b for a, b in itertools.pairwise(emitted)), "rows_emitted fell"
    assert all(a <= b for a, b in itertools.pairwise(rows)), "row fell"
