"""The kernels' loops over rows and chunks are compiled without numba's
reference counts (``_numba._njit(refcounts=False)``): nothing they make or
call may then own memory, and what the kernels around them allocate must
still be freed."""

from __future__ import annotations

import ast
import pathlib

import pytest

import eller_stream as es

pytestmark = pytest.mark.usefixtures("numba_answers")


def test_the_row_loops_keep_no_reference_counts():
    """The loops over rows and chunks are compiled without numba's reference
    counts: with them, each view a loop made and each array an inlined
    helper took cost an atomic increment and decrement, about 40 a row on
    planes, two thirds of a 64-cell row's time on one machine, and a quarter
    of a plane's of chunk 16 (``docs/performance.md``). Their callers make
    the scratch they work in."""
    from eller_stream import (
        _band_kernels,
        _braid_kernels,
        _eller_kernels,
        _last_row_kernels,
        _level_kernels,
        _numba,
        _plane_kernels,
        _room_kernels,
    )
    from eller_stream import _eller_planes as planes

    _numba.load()
    kernels = [planes.planes_rows, planes._doors_taken, planes._doors_held]
    kernels += [_band_kernels.band_span, _band_kernels.band_stream_rows]
    names = "chunk_cells _exit_row _last_row seam_doors place_chunk _chunk_row _door plane_doors".split()
    kernels += [getattr(_plane_kernels, name) for name in names]
    kernels += [_eller_kernels.planes_eller, _band_kernels._span_in, _last_row_kernels.last_row_of_planes]
    kernels += [_last_row_kernels.last_row, _braid_kernels.braid_in, _level_kernels.bands_stream_rows]
    kernels += [_room_kernels.place_rooms, _room_kernels._rooms_planes_in, _room_kernels._rooms_band_in]
    kernels += [_level_kernels._band_in, _band_kernels.band_span_in]
    assert [k.targetoptions["_nrt"] for k in kernels] == [False] * len(kernels)


def test_what_the_kernels_allocate_they_free():
    """numba's own count of its allocations and frees, across every path
    through a loop without reference counts (rows on planes and by the
    lists, bands with levels, a stream, a plane perfect or not): a kernel
    without counts that took an array from a call would never free it."""
    from numba.core.runtime import _nrt_python, rtsys

    from eller_stream import _engine

    def run() -> None:
        levels = {"loops": 0.5, "rooms": 0.3}
        for width, knobs in ((80, {}), (20, {}), (80, levels), (20, levels), (300, {"loops": 0.2})):
            maze = es.InfiniteMaze(width, 8, 1, **knobs)
            assert maze.rows(0, 8 * 40).shape == (320, width)
            assert maze.rows(3, 8 * 20 + 5).shape == (162, width)
        assert es.EllerStream(80, seed=1).take(300).shape == (300, 80)
        for perfect in (True, False):
            assert es.Plane(16, seed=1, perfect=perfect).region(-9, 120, -50, 90).shape == (129, 140)

    run()  # compiled and warm
    assert _engine.settle(60)  # every kernel answers (no lean twin in the count)
    _nrt_python.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        run()
        after = rtsys.get_allocation_stats()
    finally:
        _nrt_python.memsys_disable_stats()
    allocated = after.alloc - before.alloc
    assert allocated > 100  # the paths allocate (else the count says nothing)
    assert after.free - before.free == allocated
    assert after.mi_free - before.mi_free == after.mi_alloc - before.mi_alloc


def _helpers(mode: str) -> list[tuple[str, ast.FunctionDef]]:
    """The package's kernels decorated ``@_njit(inline=mode)``, with their modules' names."""
    from test_signatures import inline_of

    found = []
    for path in sorted(pathlib.Path(es.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and inline_of(node) == mode:
                found.append((path.stem, node))
    return found


def test_the_helpers_llvm_inlines_keep_no_reference_counts_and_return_no_array():
    """A helper ``inline="always"`` is its own kernel, which LLVM inlines
    (typed and lowered once, not in each caller as numba's own inlining
    did: a quarter less compile on an empty cache), without reference
    counts: an array it returned would be freed once too often by its
    caller. The few that return views are ``inline="ir"``."""
    import importlib

    from eller_stream import _numba

    _numba.load()
    llvm, ir = _helpers("always"), _helpers("ir")
    assert len(llvm) > 50 and ir  # (the scan finds them)
    for module, node in llvm:
        assert node.returns is not None and "ndarray" not in ast.unparse(node.returns), node.name
        kernel = getattr(importlib.import_module(f"eller_stream.{module}"), node.name)
        assert kernel.targetoptions["forceinline"] is True and kernel.targetoptions["_nrt"] is False, (
            node.name
        )
    assert any("ndarray" in ast.unparse(node.returns or ast.Constant(None)) for _, node in ir)
