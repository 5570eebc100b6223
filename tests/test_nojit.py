"""The kernels run as plain Python too (NUMBA_DISABLE_JIT=1) and give the
same rows: a subprocess computes digests without the JIT, this process
computes them with it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numba
import pytest

pytestmark = pytest.mark.usefixtures("numba_answers")

SCRIPT = r"""
import hashlib, json, sys
import numpy as np
import eller_stream as es
from eller_stream import _stream_base

# next() makes a block of rows ahead, 64 KiB of them (4096 rows at width 13): as plain Python,
# seconds of rows no digest holds; blocks of 512 bytes take the same paths (a block, rows
# handed out of it, the state replayed from its start)
_stream_base.BLOCK_BYTES = 512

def digests():
    out = {}
    cases = [(1, 0, 0.5, 0.5), (2, 7, 1.0, 0.0), (9, 2**64 - 1, 0.3, 0.9), (40, 5, 0.5, 0.5)]
    cases.append((130, 3, 0.4, 0.6))  # rows on bit planes (130 >= PLANES_FROM)
    for width, seed, h, v in cases:
        s = es.EllerStream(width, seed, h, v)
        rows = [next(s) for _ in range(3)]
        rows += list(s.take(20))
        t = es.EllerStream.resume(s.checkpoint())
        rows += list(t.take(5)) + [t.finish()]
        grid = np.array(rows)
        out[f"{width},{seed},{h},{v}"] = hashlib.sha256(grid.tobytes()).hexdigest()
    # the last mix: the general kernel with its batches of random picks
    mixes = ["newest:90,random:10", "newest:50,oldest:50", "oldest:60,random:40"]
    for strategy in ["newest", "oldest", "random", "middle", *mixes]:
        out[strategy] = hashlib.sha256(es.growing_tree(9, 7, strategy, 3).tobytes()).hexdigest()
    grid = es.backtracker(9, 7, 4)
    out["backtracker"] = hashlib.sha256(grid.tobytes()).hexdigest()
    start, end = es.suggest_endpoints(grid)
    out["solve"] = repr((start, end, es.solve(grid, start, end).tolist()))
    out["metrics"] = repr(sorted(es.metrics(grid).items()))
    out["validate"] = repr(es.validate(np.array([[3, 2], [1, 0]], np.uint8)))
    # the banded maze: ranges, the stream across bands, and ranges on every core
    maze = es.InfiniteMaze(13, 5, 11, 0.4, 0.6, 0.3)
    s = maze.stream(-7)
    rows = [s.take(9), np.array([next(s) for _ in range(8)]), s.take(3), s.finish()[None]]
    out["banded"] = hashlib.sha256(maze.rows(-12, 30).tobytes() + np.vstack(rows).tobytes()).hexdigest()
    wide = es.InfiniteMaze(70, 8, 11, 0.4, 0.6, 0.3)  # rows on bit planes (70 >= PLANES_FROM)
    out["banded wide"] = hashlib.sha256(wide.rows(-9, 17).tobytes()).hexdigest()
    from eller_stream import _parallel as par
    par.PARALLEL_CELLS, cells = 1, par.PARALLEL_CELLS  # a few bands on every core: a run a thread
    out["banded parallel"] = hashlib.sha256(maze.rows(-15, 8).tobytes()).hexdigest()  # bands -3 .. 1
    # issue 20: loops (the braid) and a schedule, their kernels and the loop count
    loopy = es.InfiniteMaze(13, 5, 11, 0.4, 0.6, 0.3, loops=0.6)
    s = loopy.stream(-7)
    rows = [s.take(9), np.array([next(s) for _ in range(8)]), s.take(3), s.finish()[None]]
    out["loops"] = hashlib.sha256(loopy.rows(-12, 30).tobytes() + np.vstack(rows).tobytes()).hexdigest()
    ramp = es.Schedule({-2: {"loops": 1.0, "doors": 0.2}, 3: {"horizontal": 0.9}})
    ramp = es.InfiniteMaze(13, 5, 11, schedule=ramp)
    s = ramp.stream(-7)
    rows = [s.take(9), np.array([next(s) for _ in range(8)]), s.take(3), s.finish()[None]]
    out["schedule"] = hashlib.sha256(ramp.rows(-12, 30).tobytes() + np.vstack(rows).tobytes()).hexdigest()
    out["schedule parallel"] = hashlib.sha256(ramp.rows(-15, 8).tobytes()).hexdigest()
    par.PARALLEL_CELLS = cells
    out["metrics loops"] = repr(es.metrics(es.closed_rows(loopy.stream(-10), 21)).loops)
    rooms = es.InfiniteMaze(23, 9, 11, loops=0.3, rooms=0.3)
    s = rooms.stream(-7)
    rows = [s.take(9), np.array([next(s) for _ in range(8)]), s.take(3), s.finish()[None]]
    out["rooms"] = hashlib.sha256(rooms.rows(-12, 60).tobytes() + np.vstack(rows).tobytes()).hexdigest()
    out["room rects"] = repr(rooms.room_rects(-12, 60).tolist())
    out["detour"] = repr(es.detour(es.eller(7, 30, 2)).tolist())
    # issue 21: the window's breadth-first kernels, and the seeded content
    win = es.Window(rooms, row=-5, below=12)
    path = win.path((-5, 3), (7, 20))
    out["window"] = repr((win.distances((-5, 3)).tolist(), None if path is None else path.tolist()))
    out["random"] = hashlib.sha256(rooms.random(-12, 60, salt=5).tobytes()).hexdigest()
    out["lasting"] = repr(win.lasting((-5, 3), 4).tolist())
    return out

if __name__ == "__main__":
    print(json.dumps(digests()))
"""


def run(env_extra: dict[str, str]) -> dict[str, str]:
    env = {**os.environ, **env_extra}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_pure_python_kernels_give_the_same_rows():
    assert not numba.config.DISABLE_JIT
    jit = run({"NUMBA_DISABLE_JIT": "0"})
    plain = run({"NUMBA_DISABLE_JIT": "1"})
    assert plain == jit
    assert len(set(jit.values())) == len(jit)
