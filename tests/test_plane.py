"""The plane (es.Plane): its regions against the plain restatement of
naive_plane.py (which imports nothing of the package), the lean twin against
the kernels, the guarantees checked by union-find and breadth-first search
over whole regions, blocks, paths, and every refusal."""

from __future__ import annotations

import inspect
from typing import Any

import naive_plane as npl
import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import plane_knobs, seeds

import eller_stream as es
from eller_stream import _lean_plane as lean
from eller_stream import _plane_kernels as pk
from eller_stream._numba import call
from eller_stream._plane_params import PlaneParams
from eller_stream._rng import seed_key

import naive


@pytest.fixture(scope="module")
def plane_kernel_answers() -> None:
    """The plane's numba kernel answers here, not its lean twin (which
    answers small regions while numba compiles)."""
    from eller_stream import _engine
    from eller_stream import plane as plane_module

    es.Plane(4).region(0, 9, 0, 9)
    _engine.settle()
    if es.backend() == "numba":
        assert not _engine.cold(plane_module._region_kernel)


pytestmark = pytest.mark.usefixtures("plane_kernel_answers")

TOP = 2**62
chunks = st.one_of(st.sampled_from([1, 2, 3, 16]), st.integers(1, 12), st.integers(13, 64))
# a coordinate near 0 or near either end of [-2**62, 2**62)
places = st.one_of(st.integers(-300, 300), st.integers(-TOP, -TOP + 300), st.integers(TOP - 300, TOP - 1))


def inside(grid: np.ndarray) -> np.ndarray:
    """``grid`` without the passages of its last column and row to the cells
    outside it."""
    out = grid.copy()
    out[:, -1] &= es.SOUTH
    out[-1] &= es.EAST
    return out


def clip(start: int, size: int) -> tuple[int, int]:
    """A range of ``size`` from ``start`` moved inside [-2**62, 2**62]."""
    start = min(start, TOP - size)
    return start, start + size


@given(
    chunk=chunks,
    seed=seeds,
    knobs=plane_knobs(),
    y=places,
    x=places,
    h=st.integers(1, 30),
    w=st.integers(1, 30),
)
def test_regions_are_the_plain_restatement(
    chunk: int, seed: int, knobs: dict[str, Any], y: int, x: int, h: int, w: int
) -> None:
    (y0, y1), (x0, x1) = clip(y, h), clip(x, w)
    plane = es.Plane(chunk, seed, **knobs)
    want = npl.plane_region(chunk, seed, y0, y1, x0, x1, **knobs)
    got = plane.region(y0, y1, x0, x1)
    assert got.dtype == np.uint8 and got.shape == (h, w) and got.flags.c_contiguous
    assert (got == want).all()


@given(
    chunk=chunks,
    seed=seeds,
    knobs=plane_knobs(),
    y=places,
    x=places,
    h=st.integers(1, 150),
    w=st.integers(1, 150),
)
def test_the_lean_twin_is_the_kernel(
    chunk: int, seed: int, knobs: dict[str, Any], y: int, x: int, h: int, w: int
) -> None:
    (y0, _), (x0, _) = clip(y, h), clip(x, w)
    params = PlaneParams(**knobs)
    th, perfect = params.thresholds(), params.perfect
    a, b = (np.full((h, w), 7, np.uint8) for _ in range(2))
    call(pk.plane_region, a, seed_key(seed), chunk, perfect, y0, x0, th)
    lean.plane_region(b, seed_key(seed), chunk, perfect, y0, x0, th)
    assert (a == b).all()


@given(
    chunk=chunks,
    seed=seeds,
    perfect=st.booleans(),
    y=places,
    x=places,
    size=st.tuples(st.integers(1, 90), st.integers(1, 90)),
    cut=st.tuples(*(st.integers(0, 89) for _ in range(4))),
)
def test_a_region_is_the_part_of_any_larger_region(
    chunk: int, seed: int, perfect: bool, y: int, x: int, size: tuple[int, int], cut: tuple[int, ...]
) -> None:
    (y0, y1), (x0, x1) = clip(y, size[0]), clip(x, size[1])
    plane = es.Plane(chunk, seed, perfect=perfect)
    big = plane.region(y0, y1, x0, x1)
    a, b = sorted((cut[0] % size[0], cut[1] % size[0]))
    c, d = sorted((cut[2] % size[1], cut[3] % size[1]))
    assert (plane.region(y0 + a, y0 + b + 1, x0 + c, x0 + d + 1) == big[a : b + 1, c : d + 1]).all()
    assert (plane[y0 + a : y0 + b + 1, x0 + c : x0 + d + 1] == big[a : b + 1, c : d + 1]).all()
    assert plane[y0 + a, x0 + c] == big[a, c]


def test_a_large_region_is_made_in_strips_on_every_core_and_is_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from eller_stream import _parallel as par
    from eller_stream import plane as plane_module

    plane = es.Plane(chunk=7, seed=11)
    y0, x0 = TOP - 700, -TOP + 5  # 5 rows down into a chunk row
    parts: list[int] = []
    real = par.run_parts
    monkeypatch.setattr(par, "run_parts", lambda p: parts.append(len(p)) or real(p))
    whole = plane.region(y0, y0 + 600, x0, x0 + 500)  # 300 000 cells: every core
    assert max(parts) == numba.get_num_threads() > 1
    monkeypatch.setattr(plane_module, "CALL_CELLS", 4000)  # strips of two chunk rows: one a thread
    assert (plane.region(y0, y0 + 600, x0, x0 + 500) == whole).all()
    th = plane.params.thresholds()
    one = np.empty_like(whole)
    call(pk.plane_region, one, plane._key, 7, True, y0, x0, th)
    assert (one == whole).all()


# -- the guarantees ------------------------------------------------------------------


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 16])
@pytest.mark.parametrize("seed", [0, 2**64 - 1, 12345])
@pytest.mark.parametrize("where", [(0, 0), (-7, 10**9), (TOP - 200 * 16, -TOP + 200 * 16)])
def test_every_block_of_level_1_is_a_perfect_maze(chunk: int, seed: int, where: tuple[int, int]) -> None:
    plane = es.Plane(chunk, seed)
    top, left, size = plane.block(1, *where)
    assert size == 9 * chunk and (top, left, size) == npl.block_of(chunk, 1, *where)
    grid = plane.region(top, top + size, left, left + size)
    assert naive.perfect_problems(inside(grid)) == []


@pytest.mark.parametrize(("chunk", "level"), [(1, 2), (2, 2), (1, 3)])
@pytest.mark.parametrize("seed", [3, 4])
def test_blocks_of_levels_2_and_3_are_perfect_mazes_and_hold_perfect_blocks(
    chunk: int, level: int, seed: int
) -> None:
    plane = es.Plane(chunk, seed, horizontal=0.3, vertical=0.7)
    top, left, size = plane.block(level, 5 * chunk * 9**level, -3)
    grid = plane.region(top, top + size, left, left + size)
    assert naive.perfect_problems(inside(grid)) == []
    step = size // 9  # each block of the level below, on its own cells
    for i in range(0, size, step):
        for j in range(0, size, step):
            assert naive.perfect_problems(inside(grid[i : i + step, j : j + step])) == []


@given(chunk=chunks, seed=seeds, y=places, x=places, h=st.integers(1, 120), w=st.integers(1, 120))
def test_a_perfect_region_is_a_forest(chunk: int, seed: int, y: int, x: int, h: int, w: int) -> None:
    (y0, y1), (x0, x1) = clip(y, h), clip(x, w)
    grid = inside(es.Plane(chunk, seed).region(y0, y1, x0, x1))
    problems = naive.perfect_problems(grid)
    assert not [p for p in problems if p.startswith("loop")]


@pytest.mark.parametrize("chunk", [1, 2, 5, 16])
@pytest.mark.parametrize("seed", [0, 9])
@pytest.mark.parametrize("horizontal", [0.0, 0.5, 1.0])
def test_without_perfect_chunks_are_perfect_and_every_seam_has_a_door(
    chunk: int, seed: int, horizontal: float
) -> None:
    plane = es.Plane(chunk, seed, perfect=False, horizontal=horizontal, vertical=1.0 - horizontal)
    y0, x0 = (TOP // chunk - 4) * chunk, -3 * chunk
    n = 4  # chunks a side
    grid = plane.region(y0, y0 + n * chunk, x0, x0 + n * chunk)
    for i in range(n):
        for j in range(n):
            part = grid[i * chunk : (i + 1) * chunk, j * chunk : (j + 1) * chunk]
            assert naive.perfect_problems(inside(part)) == []
            if j + 1 < n:
                assert (part[:, -1] & es.EAST).any()
            if i + 1 < n:
                assert (part[-1] & es.SOUTH).any()
    # two neighbouring cells meet inside their two chunks: any 2 x 1 or 1 x 2 chunks connect
    labels = naive.component_labels(inside(grid[: 2 * chunk, :chunk]))
    assert (labels == labels[0, 0]).all()
    labels = naive.component_labels(inside(grid[:chunk, : 2 * chunk]))
    assert (labels == labels[0, 0]).all()


def test_without_perfect_loops_are_only_at_the_seams() -> None:
    plane = es.Plane(8, 5, perfect=False)
    grid = inside(plane.region(0, 64, 0, 64))
    assert naive.loop_count(grid) > 0  # doors make loops
    closed = grid.copy()
    closed[:, 7::8] &= es.SOUTH  # shut every seam
    closed[7::8, :] &= es.EAST
    assert naive.loop_count(closed) == 0


# -- blocks -------------------------------------------------------------------------


@given(chunk=chunks, level=st.integers(0, 6), y=places, x=places)
def test_blocks_tile_nest_and_are_centred(chunk: int, level: int, y: int, x: int) -> None:
    plane = es.Plane(chunk)
    top, left, size = plane.block(level, y, x)
    assert size == chunk * 9**level and top <= y < top + size and left <= x < left + size
    assert (top, left, size) == npl.block_of(chunk, level, y, x)
    if level == 0:
        assert (top, left) == (y - y % chunk, x - x % chunk)
    if -TOP <= top and top + size - 1 < TOP and -TOP <= left:  # its corners are cells: the same block
        assert plane.block(level, top, left) == plane.block(level, top + size - 1, left) == (top, left, size)
    if level < plane.levels:
        ut, ul, us = plane.block(level + 1, y, x)
        assert ut <= top and top + size <= ut + us and ul <= left and left + size <= ul + us


@pytest.mark.parametrize("chunk", [1, 2, 16, 1024])
def test_the_top_level_holds_every_cell(chunk: int) -> None:
    plane = es.Plane(chunk)
    top, left, size = plane.block(plane.levels, 0, 0)
    assert top <= -TOP and top + size > TOP and left == top
    assert plane.block(plane.levels, TOP - 1, -TOP) == (top, left, size)
    below = plane.block(plane.levels - 1, 0, 0)
    assert not (below[0] <= -TOP and below[0] + below[2] > TOP)
    for level in range(1, plane.levels + 1):  # each level's block of the origin centred on the one below
        t, _, s = plane.block(level, 0, 0)
        t0, _, s0 = plane.block(level - 1, 0, 0)
        assert t0 - t == t + s - (t0 + s0) == (s - s0) // 2


# -- paths --------------------------------------------------------------------------


def is_walk(plane: es.Plane, path: np.ndarray) -> bool:
    """Each step goes to a neighbour through an open wall."""
    steps = path[1:] - path[:-1]
    if not (np.abs(steps).sum(axis=1) == 1).all():
        return False
    top, left = path.min(axis=0)
    bottom, right = path.max(axis=0)
    grid = plane.region(int(top), int(bottom) + 1, int(left), int(right) + 1)
    for (y, x), (v, u) in zip(path[:-1] - [top, left], path[1:] - [top, left], strict=True):
        a, b = sorted([(y, x), (v, u)])
        if not grid[a] & (es.EAST if a[0] == b[0] else es.SOUTH):
            return False
    return True


@pytest.mark.parametrize(
    ("chunk", "a", "b"),
    [(1, (0, 0), (200, -150)), (2, (5, 5), (-60, 70)), (3, (1, 2), (1, 3)), (5, (0, 4), (0, 5))],
)
def test_a_path_is_the_one_path_inside_the_block_that_holds_both(
    chunk: int, a: tuple[int, int], b: tuple[int, int]
) -> None:
    plane = es.Plane(chunk, seed=17)
    path = plane.path(a, b)
    assert tuple(path[0]) == a and tuple(path[-1]) == b and is_walk(plane, path)
    assert len({tuple(p) for p in path}) == len(path)  # simple
    level = next(lv for lv in range(1, 9) if plane.block(lv, *a) == plane.block(lv, *b))
    top, left, size = plane.block(level, *a)
    grid = inside(plane.region(top, top + size, left, left + size))
    want = naive.bfs_path(grid, (a[0] - top, a[1] - left), (b[0] - top, b[1] - left))
    assert [tuple(p) for p in path - [top, left]] == want


def test_neighbours_across_a_seam_of_a_high_level_are_joined_far_away() -> None:
    plane = es.Plane(chunk=1, seed=2)
    _, left, size = plane.block(3, 0, 0)  # 729 cells wide
    a, b = (3, left + size - 1), (3, left + size)
    path = plane.path(a, b)
    assert is_walk(plane, path) and len(path) > 2
    assert tuple(path[0]) == a and tuple(path[-1]) == b


def test_a_path_without_perfect_is_a_shortest_one_in_the_block() -> None:
    plane = es.Plane(chunk=4, seed=1, perfect=False)
    a, b = (0, 0), (20, -30)
    path = plane.path(a, b)
    top, left, size = plane.block(2, 0, 0)
    grid = inside(plane.region(top, top + size, left, left + size))
    assert is_walk(plane, path)
    assert len(path) == len(naive.bfs_path(grid, (a[0] - top, a[1] - left), (b[0] - top, b[1] - left)))


def test_a_path_states_its_limit() -> None:
    from eller_stream import _plane_path

    plane = es.Plane(chunk=1024)
    with pytest.raises(ValueError, match="more than 67108864 cells"):
        plane.path((0, 0), (5000, 5000))
    with pytest.raises(ValueError, match="would search 2176782336 cells, more than 67108864"):
        es.Plane(chunk=64, perfect=False).path((0, 0), (0, 5000))
    small = es.Plane(chunk=1, seed=2)
    _, left, size = small.block(6, 0, 0)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_plane_path, "PATH_CELLS", 81 * 3)
        with pytest.raises(ValueError, match="passes through more than 3 blocks of level 1"):
            small.path((0, left + size - 1), (0, left + size))


@pytest.mark.parametrize("perfect", [True, False])
@pytest.mark.parametrize("chunk", [1, 16])
def test_near_the_edge_a_path_through_a_block_past_it_is_refused_naming_a_and_b(chunk, perfect) -> None:
    """A block of level 1 near 2**62 reaches past it, where no region goes (it
    was refused as ``y1`` out of range, a value the caller never gave); a path
    in a block inside the range is still found."""
    plane = es.Plane(chunk=chunk, seed=7, perfect=perfect)
    top = 2**62
    refused = 0
    pairs = [((top - 1, 0), (top - 2, 0)), ((top - 1, top - 1), (top - 1, top - 1)), ((-top, 5), (-top, 6))]
    for a, b in pairs:
        top_y, left, size = plane.block(1, *a)
        if min(top_y, left) < -top or max(top_y, left) + size > top:  # the block reaches past
            with pytest.raises(ValueError, match=r"^a, b: .*reaches past \[-2\*\*62, 2\*\*62\)"):
                plane.path(a, b)
            refused += 1
        else:
            assert is_walk(plane, plane.path(a, b))
    assert refused >= 1
    y0, _, size = plane.block(1, top - 10 * 9 * chunk, 0)
    assert y0 + size <= top
    a, b = (y0, 0), (y0 + size - 1, 2)
    path = plane.path(a, b)
    assert path[0].tolist() == list(a) and path[-1].tolist() == list(b)
    assert is_walk(plane, path)


# -- the knobs and the refusals -----------------------------------------------------


def test_the_knobs_are_declared_once() -> None:
    signature = inspect.signature(es.Plane)
    keywords = {n: p.default for n, p in signature.parameters.items() if p.kind is p.KEYWORD_ONLY}
    assert keywords == {name: PlaneParams.default(name) for name in PlaneParams.names()}
    plane = es.Plane(4, 9, perfect=False, horizontal=0.25)
    assert plane.params == PlaneParams(perfect=False, horizontal=0.25)
    assert es.Plane.from_params(4, 9, plane.params) == plane and hash(
        es.Plane.from_params(4, 9, plane.params)
    ) == hash(plane)
    assert repr(plane) == "Plane(chunk=4, seed=9, perfect=False, horizontal=0.25, vertical=0.5)"
    assert PlaneParams.parse("perfect", "No") is False and PlaneParams.parse("vertical", "1") == 1.0
    assert es.Plane(horizontal=-0.0).params.horizontal.hex() == "0x0.0p+0"


def test_numpys_bools_are_flags_as_the_banded_mazes_and_tiled_take_them() -> None:
    # numpy 2 names np.bool_ "bool": a check by type name refused np.True_ as "got bool"
    assert es.Plane(4, perfect=np.False_).params.perfect is False
    assert PlaneParams(perfect=np.True_).perfect is True


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: es.Plane(0), ValueError, r"chunk must be in \[1, 1024\], got 0"),
        (lambda: es.Plane(1025), ValueError, "chunk must be in"),
        (lambda: es.Plane(4.0), TypeError, "chunk must be an int"),
        (lambda: es.Plane(True), TypeError, "chunk must be an int"),
        (lambda: es.Plane(4, -1), ValueError, "seed must be in"),
        (lambda: es.Plane(4, 2**64), ValueError, "seed must be in"),
        (lambda: es.Plane(4, perfect=1), TypeError, "perfect must be True or False"),
        (lambda: es.Plane(4, horizontal=1.5), ValueError, r"horizontal must be in \[0, 1\]"),
        (lambda: es.Plane(4, vertical=float("nan")), ValueError, "vertical must be in"),
        (lambda: es.Plane(4, vertical="0.5"), TypeError, "vertical must be a real number"),
        (lambda: es.Plane.from_params(4, 0, {"perfect": True}), TypeError, "params must be a PlaneParams"),
        (lambda: PlaneParams.parse("perfect", "maybe"), ValueError, "perfect must be true or false"),
        (lambda: PlaneParams.from_dict({"doors": 0.5}), ValueError, "unknown plane parameter 'doors'"),
    ],
)
def test_a_bad_plane_is_refused_naming_the_argument(make: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((0, 0, 0, 1), ValueError, "y1 must be greater than y0"),
        ((0, 1, 5, 4), ValueError, "x1 must be greater than x0"),
        ((-TOP - 1, 0, 0, 1), ValueError, "y0 must be in"),
        ((0, TOP + 1, 0, 1), ValueError, "y1 must be in"),
        ((0, 1, TOP, TOP + 1), ValueError, "x0 must be in"),
        ((0, 1, 0, TOP + 1), ValueError, "x1 must be in"),
        ((0.5, 1, 0, 1), TypeError, "y0 must be an int"),
        ((0, 1, None, 1), TypeError, "x0 must be an int"),
        ((0, 1, 0, np.int64(2)), None, None),
        ((0, 1, 0, 2**40), ValueError, "makes .* cells .* more than 2147483648: ask for it in parts"),
        ((-TOP, TOP, 0, 1), ValueError, "more than 2147483648"),
    ],
)
def test_a_bad_region_is_refused_naming_the_argument(args: tuple[Any, ...], error: Any, message: Any) -> None:
    plane = es.Plane(16)
    if error is None:
        assert plane.region(*args).shape == (1, 2)
        return
    with pytest.raises(error, match=message):
        plane.region(*args)


@pytest.mark.parametrize(
    ("index", "error", "message"),
    [
        ((slice(0, 4), slice(0, 4, 2)), ValueError, "a slice of columns takes no step"),
        ((slice(None, 4), slice(0, 4)), ValueError, "the plane is infinite: a slice of rows needs both"),
        ((slice(0, 4),), TypeError, r"a plane takes two indices, plane\[rows, columns\], got 1 index$"),
        ((0, 1, 2), TypeError, "got 3 indices$"),
        (slice(0, 4), TypeError, "a plane takes two indices"),
        (3, TypeError, "got one index, 3$"),  # was "got 3", read as three indices
        ((slice(0, 4), 3), TypeError, "two slices or two ints"),
        ((TOP, 0), ValueError, "y must be in"),
        ((0, "1"), TypeError, "x must be an int"),
    ],
)
def test_bad_indices_are_refused(index: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        es.Plane(4)[index]


def test_bad_blocks_and_paths_are_refused() -> None:
    plane = es.Plane(16)
    with pytest.raises(ValueError, match=r"level must be in \[0, 19\]"):
        plane.block(20, 0, 0)
    with pytest.raises(ValueError, match="level must be in"):
        plane.block(-1, 0, 0)
    with pytest.raises(TypeError, match="level must be an int"):
        plane.block(1.0, 0, 0)
    with pytest.raises(ValueError, match="x must be in"):
        plane.block(1, 0, TOP)
    with pytest.raises(TypeError, match=r"a must be a \(y, x\) pair"):
        plane.path(0, (0, 1))
    with pytest.raises(ValueError, match=r"b\[1\] \(x\) must be in"):
        plane.path((0, 0), (0, -TOP - 1))


# -- every backend gives the same bytes ---------------------------------------------

SCRIPT = r"""
import hashlib, json, sys
import eller_stream as es
out = {}
for chunk, perfect in ((1, True), (3, False), (16, True), (7, True), (64, False)):
    p = es.Plane(chunk, 5, perfect=perfect, horizontal=0.4, vertical=0.7)
    g = p.region(2**62 - 50, 2**62, -2**62, -2**62 + 61).tobytes() + p.region(-20, 33, -9, 40).tobytes()
    out[f"{chunk},{perfect}"] = hashlib.sha256(g).hexdigest()
out["path"] = es.Plane(2, 1).path((0, 0), (30, -41)).tolist()
out["numba imported"] = "numba" in sys.modules
print(json.dumps(out))
"""


@pytest.mark.parametrize("env", [{"ELLER_STREAM_BACKEND": "lean"}, {"NUMBA_DISABLE_JIT": "1"}])
def test_the_lean_backend_and_plain_python_kernels_give_the_same_bytes(env: dict[str, str]) -> None:
    import json
    import subprocess
    import sys

    from cli_support import ENV

    here: dict[str, Any] = {}
    exec(SCRIPT.replace("print(json.dumps(out))", "here.update(out)"), {"here": here})
    environ = {k: v for k, v in ENV.items() if k not in ("ELLER_STREAM_BACKEND", "NUMBA_DISABLE_JIT")}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env={**environ, **env}, timeout=900
    )
    assert done.returncode == 0, done.stderr
    there = json.loads(done.stdout)
    assert there.pop("numba imported") is ("NUMBA_DISABLE_JIT" in env)
    here.pop("numba imported")
    assert there == here


def test_the_plane_vectors_on_the_lean_backend() -> None:
    import subprocess
    import sys
    from pathlib import Path

    from cli_support import ENV

    here = Path(__file__).resolve().parent
    code = f"""
import sys; sys.path.insert(0, {str(here)!r})
import test_vectors as t
for v in t.PLANE:
    t.check_region(v, t.package_region(v))
print(len(t.PLANE), t.es.backend())
"""
    environ = {k: v for k, v in ENV.items() if k != "NUMBA_DISABLE_JIT"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**environ, "ELLER_STREAM_BACKEND": "lean"},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    count, backend = done.stdout.split()
    assert backend == "lean" and int(count) >= 60


def test_the_guide_says_what_the_plane_does() -> None:
    plane = es.Plane(chunk=16, seed=7)
    grid = plane.region(-100, 100, 2**62 - 300, 2**62 - 100)
    assert grid.shape == (200, 200) and (plane[-100:100, 2**62 - 300 : 2**62 - 100] == grid).all()
    assert plane.block(1, 0, 0) == (-64, -64, 144) and plane.levels == 19
    way = plane.path((0, 0), (500, -320))
    assert tuple(way[0]) == (0, 0) and tuple(way[-1]) == (500, -320) and way.shape[1] == 2
    assert plane.cells_made(0, 16, 0, 16) == 4 * 16 * 16
