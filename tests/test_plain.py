"""A kernel's plain Python (``eller_stream._plain``): the walks of the analysis
(solve, suggested endpoints, distances, validation) and the Growing Tree and
the backtracker answer a small grid at once while numba gets their kernels
ready, with the kernels' answers."""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np
import pytest
from cli_support import CMD, in_process, numba_never_ready
from hypothesis import given
from hypothesis import strategies as st
from strategies import probabilities, seeds

import eller_stream
import eller_stream as es
from eller_stream import _backtracker, _bfs_kernels, _engine, _growing_tree, _plain, _walk_kernels, analysis
from eller_stream._plain import twin

WALKS = ["bfs_farthest", "passage_masks", "path_from_parents", "path_length", "tree_distances"]
WALKS += ["tree_walk", "walk"]
KERNELS = SimpleNamespace(bfs=_bfs_kernels.bfs, **{name: getattr(_walk_kernels, name) for name in WALKS})
TWINS = SimpleNamespace(**{name: twin(kernel) for name, kernel in vars(KERNELS).items()})

needs_numba = pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="needs numba")


def answers(grid: np.ndarray) -> list[Any]:
    """What the analysis says of ``grid``: its problems, the suggested
    endpoints and the path between them, a corner-to-corner path, distances."""
    h, w = grid.shape
    out: list[Any] = [es.validate(grid)]
    for ends in (None, ((0, 0), (h - 1, w - 1))):
        try:
            start, end = es.suggest_endpoints(grid) if ends is None else ends
            out += [start, end, es.solve(grid, start, end).tolist()]
        except ValueError as exc:
            out.append(str(exc))
    out.append(es.distances(grid, (h // 2, w // 2)).tolist())
    return out


def with_walks(walks: SimpleNamespace, grid: np.ndarray) -> list[Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(analysis, "wk", walks)
        return answers(grid)


@st.composite
def grids(draw: st.DrawFn) -> np.ndarray:
    """Perfect mazes, mazes with loops and rooms, and any flags at all (loops, parts)."""
    w, h, seed = draw(st.integers(1, 12)), draw(st.integers(1, 12)), draw(seeds)
    kind = draw(st.sampled_from(["eller", "growing tree", "levels", "any"]))
    if kind == "eller":
        return es.eller(w, h, seed, horizontal=draw(probabilities), vertical=draw(probabilities))
    if kind == "growing tree":
        return es.growing_tree(w, h, draw(st.sampled_from(["newest", "random", "oldest:50,middle:50"])), seed)
    if kind == "levels":
        loops, rooms = draw(probabilities), draw(st.sampled_from([0.0, 0.3]))
        maze = es.InfiniteMaze(max(w, 2), draw(st.integers(2, 6)), seed, loops=loops, rooms=rooms)
        return es.closed_rows(maze.stream(draw(st.integers(-20, 20))), h)
    grid = np.array(draw(st.lists(st.integers(0, 3), min_size=h * w, max_size=h * w)), np.uint8)
    grid = grid.reshape(h, w)
    grid[:, -1] &= ~np.uint8(es.EAST)
    grid[-1] &= ~np.uint8(es.SOUTH)
    return grid


@given(grids())
def test_the_walks_plain_python_is_the_kernels(grid: np.ndarray) -> None:
    assert with_walks(TWINS, grid) == with_walks(KERNELS, grid)


def kernels_alone(patch: pytest.MonkeyPatch) -> None:
    """Every caller of a walk or a generator calls the kernel itself, not its lean twin first."""
    patch.setattr(analysis, "wk", KERNELS)
    patch.setattr(_growing_tree, "plain_first", lambda kernel: kernel)
    patch.setattr(_backtracker, "plain_first", lambda kernel: kernel)


MIXES = st.dictionaries(st.sampled_from(es.STRATEGIES), st.integers(1, 9), min_size=1)


@given(
    st.integers(1, 12),
    st.integers(1, 12),
    seeds,
    st.one_of(st.sampled_from(["backtracker", *es.STRATEGIES]), MIXES),
)
def test_the_generators_plain_python_is_the_kernels(w: int, h: int, seed: int, how: Any) -> None:
    def make() -> np.ndarray:
        return es.backtracker(w, h, seed) if how == "backtracker" else es.growing_tree(w, h, how, seed)

    with pytest.MonkeyPatch.context() as patch:
        for module in (_growing_tree, _backtracker):
            patch.setattr(module, "plain_first", twin)
        by_twins = make()
        kernels_alone(patch)
        assert np.array_equal(by_twins, make())


def test_the_analysis_calls_the_warming_walks() -> None:
    """The analysis calls the walks as ``eller_stream._walks`` gives them
    (the kernels themselves on the lean backend)."""
    from eller_stream import _walks

    assert analysis.wk is _walks
    for name in vars(KERNELS):
        walk = getattr(_walks, name)
        assert walk is getattr(KERNELS, name) if es.backend() == "lean" else walk.most == _engine.PLAIN_CELLS


@pytest.mark.skipif(es.backend() == "lean", reason="on the lean backend every kernel is plain Python already")
def test_every_kernels_plain_python_calls_plain_python_alone() -> None:
    """A kernel's twin, and each function it calls, names no kernel and no
    module of the package (a helper reached as ``module.helper`` would be the
    compiled one, and wait for numba)."""
    for info in pkgutil.iter_modules(eller_stream.__path__):
        with contextlib.suppress(ImportError):  # a module of an extra not installed
            importlib.import_module(f"eller_stream.{info.name}")
    kernels = [kernel for kernel, _ in list(_plain._python.values())]
    assert len(kernels) > 250  # every kernel of the package, its helpers and intrinsics
    for kernel in kernels:
        twin(kernel)
    for func in list(_plain._rebound.values()):
        for name in _plain._names(func.__code__):
            value = func.__globals__.get(name)
            assert _plain.python_of(value) is None, f"{func.__qualname__} calls {name} compiled"
            assert not (isinstance(value, ModuleType) and value.__name__.startswith("eller_stream")), name


@needs_numba
def test_a_walk_gets_ready_on_a_whole_copy_of_the_grid() -> None:
    """The thread that gets a walk ready ran it on a copy of the first
    call's grid cut to its first row, as the rows' kernels are: a walk from a
    cell of a later row (``bfs``) read past the copy's end. And the copy was
    writable and C-ordered whatever the grid: numba compiled a signature the
    calls do not use, and the call after it compiled theirs while it waited."""
    seen: list[tuple[tuple[int, ...], bool, bool]] = []

    def kernel(grid: np.ndarray, source: int) -> int:
        seen.append((grid.shape, grid.flags.writeable, grid.flags.f_contiguous))
        return int(grid.reshape(-1, order="A")[source])

    walk = _engine.plain_first(kernel)  # as each walk of eller_stream._walks
    grid = np.asfortranarray(np.arange(15, dtype=np.uint8).reshape(5, 3))
    grid.flags.writeable = False
    assert walk(grid, 13) == grid.reshape(-1, order="A")[13]  # the lean twin (the function itself, rebound)
    assert walk.done.wait(10) and walk.error is None
    assert seen == [((5, 3), False, True)] * 2  # the lean twin's call, then the kernel's on the copy


def test_the_plain_python_takes_a_job_a_warm_cache_would_not_beat() -> None:
    """plain_first took jobs of up to 65,536 cells, the lean twins' limit:
    plain Python's 1.5-2 s for a maze of 256 x 256, against 0.4 s for
    numba's import and a warm cache's load."""
    walk = _engine.plain_first(lambda out: "kernel")
    assert _engine.PLAIN_CELLS * 40e-6 <= 0.4 and walk.most == _engine.PLAIN_CELLS  # 40 us a cell at most


NUMBA_NEVER_READY = r"""
import hashlib, sys
import eller_stream as es

grids = [es.eller(40, 30, 1), es.closed_rows(es.InfiniteMaze(30, 8, 4, loops=0.5, rooms=0.3).stream(-3), 40)]
grids.append(es.InfiniteMaze(64, 16, 9, loops=0.4).rows(0, 64))  # 4,096 cells, loops
out = []
for grid in grids:
    start, end = es.suggest_endpoints(grid)
    out += [repr((start, end, es.validate(grid))), es.solve(grid, start, end).tobytes()]
    out.append(es.distances(grid, (0, 0)).tobytes())
print(hashlib.sha256(repr(out).encode()).hexdigest())
"""


PICTURES = [[], ["--algorithm", "backtracker"], ["--algorithm", "growing-tree"]]
PICTURES.append(["--algorithm", "growing-tree", "--strategy", "newest:50,random:50"])


@needs_numba
def test_a_small_grid_is_solved_while_numba_is_not_ready(tmp_path: Path) -> None:
    """Under a numba whose import never ends, a small grid is solved, its
    endpoints suggested and its distances measured by the walks' plain
    Python, with the kernels' answers; under one that never compiles nor
    loads a kernel, ``render --solution`` draws a maze of each generator
    (it waited for numba's compile, 8.5 s on an empty cache, before; the
    Growing Tree and the backtracker 1.5-2 s)."""
    environ = numba_never_ready(tmp_path / "import", "import")
    done = subprocess.run(
        [sys.executable, "-c", NUMBA_NEVER_READY], capture_output=True, text=True, env=environ, timeout=60
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    here: dict[str, Any] = {}
    with pytest.MonkeyPatch.context() as patch:
        kernels_alone(patch)
        code = NUMBA_NEVER_READY.replace("print(", "result = (")
        exec(code, here)
    assert done.stdout.strip() == here["result"] and len(here["result"]) == 64
    environ = numba_never_ready(tmp_path / "compile", "compile")  # the generators need numba's import
    for i, how in enumerate(PICTURES):
        picture = ["render", "--width", "40", "--rows", "30", "--seed", "5", "--solution", *how]
        a, b = tmp_path / f"{i}a.png", tmp_path / f"{i}b.png"
        drawn = subprocess.run([*CMD, *picture, "-o", str(a)], capture_output=True, env=environ, timeout=60)
        assert drawn.returncode == 0 and drawn.stderr == b"", drawn.stderr
        with pytest.MonkeyPatch.context() as patch:
            kernels_alone(patch)
            assert in_process(*picture, "-o", str(b)).returncode == 0
        assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest(), how


@needs_numba
def test_a_warming_kernel_takes_no_more_than_its_most_whatever_the_limit() -> None:
    big, small = (_engine.Warming(lambda out: "kernel", lambda out: "lean", most=16) for _ in "bs")
    try:
        _engine.lean_up_to(10**6)  # as the server sets it
        assert big(np.zeros(17)) == "kernel"
        assert small(np.zeros((2, 8))) == "lean"
    finally:
        _engine.lean_up_to(0)
