"""A plane region past one machine: es.to_dask(plane, y0, y1, x0, x1) in 2-D
chunks cut on the plane's chunks (es.plane_chunks), each chunk the bytes of
Plane.region of its rectangle on every scheduler, far coordinates too; a
Zarr store that names the plane (es.write_zarr, es.read_zarr_plane); every
refusal named."""

from __future__ import annotations

import math
import os
import pickle

import naive_plane as npl
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import plane_knobs, seeds

import eller_stream as es
from eller_stream._plane_scale import CHUNK_BYTES

da = pytest.importorskip("dask.array", reason="the [dask] extra is not installed")
dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
zarr = pytest.importorskip("zarr")

TOP = 2**62
PLANES = {
    "perfect": es.Plane(chunk=4, seed=11),
    "local": es.Plane(chunk=3, seed=12, perfect=False, horizontal=0.3),
    "wide": es.Plane(chunk=16, seed=13, vertical=1.0),
}


def by_hand(n: int, first: int, chunk: int, step: int) -> tuple[int, ...]:
    """Sizes along an axis, the plain way: cut at every multiple of the
    plane's chunk from ``first`` on that is ``step`` past the last cut or
    the first chunk boundary."""
    cuts, at = [], first
    boundary = -(-first // chunk) * chunk  # the first chunk boundary at or after first
    if boundary > first:
        cuts.append(min(boundary, first + n) - first)
        at = boundary
    while at < first + n:
        cuts.append(min(step, first + n - at))
        at += step
    return tuple(cuts)


@given(
    chunk=st.integers(1, 7),
    seed=seeds,
    knobs=plane_knobs(),
    size=st.tuples(st.integers(1, 30), st.integers(1, 30)),
    corner=st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
    far=st.sampled_from([(0, 0), (TOP - 40, -TOP), (-TOP, TOP - 40)]),
    per=st.tuples(st.integers(1, 4), st.integers(1, 4)),
)
@settings(max_examples=20)
def test_every_chunk_is_the_region_of_its_rectangle(chunk, seed, knobs, size, corner, far, per):
    (h, w), (y0, x0) = size, (corner[0] + far[0], corner[1] + far[1])
    y0, x0 = max(-TOP, min(y0, TOP - h)), max(-TOP, min(x0, TOP - w))
    plane = es.Plane(chunk, seed, **knobs)
    shape = (per[0] * chunk, per[1] * chunk)
    array = es.to_dask(plane, y0, y0 + h, x0, x0 + w, chunks=shape)
    assert array.shape == (h, w) and array.dtype == np.uint8
    assert array.chunks == es.plane_chunks(plane, y0, y0 + h, x0, x0 + w, chunks=shape)
    assert array.chunks == (by_hand(h, y0, chunk, shape[0]), by_hand(w, x0, chunk, shape[1]))
    expect = npl.plane_region(chunk, seed, y0, y0 + h, x0, x0 + w, **knobs)
    np.testing.assert_array_equal(array.compute(scheduler="sync"), expect)
    ys, xs = np.cumsum((0, *array.chunks[0])), np.cumsum((0, *array.chunks[1]))
    for i in range(len(ys) - 1):  # and each chunk, computed alone, the region of its own rectangle
        for j in range(len(xs) - 1):
            block = array.blocks[i, j].compute(scheduler="sync")
            np.testing.assert_array_equal(
                block, plane.region(y0 + ys[i], y0 + ys[i + 1], x0 + xs[j], x0 + xs[j + 1])
            )


@pytest.mark.parametrize("kind", sorted(PLANES))
def test_the_same_bytes_on_every_scheduler(dask_client, kind):
    plane = PLANES[kind]
    for y0, y1, x0, x1 in [(-37, 45, -29, 61), (TOP - 50, TOP, -TOP, -TOP + 33), (10**15, 10**15 + 7, 5, 90)]:
        array = es.to_dask(plane, y0, y1, x0, x1, chunks=plane.chunk * 2)
        expect = plane.region(y0, y1, x0, x1)
        for scheduler in ("threads", "sync", dask_client):
            np.testing.assert_array_equal(array.compute(scheduler=scheduler), expect)


def test_default_chunks_are_about_8_mib_square():
    for plane in PLANES.values():
        side = math.isqrt(CHUNK_BYTES) // plane.chunk * plane.chunk
        rows, cols = es.plane_chunks(plane, 0, 3 * side + 1, 5, 2 * side)
        assert rows == (side, side, side, 1) and cols[1] == side and cols[0] == -5 % plane.chunk
        assert 0.95 * CHUNK_BYTES < side * side <= CHUNK_BYTES


def test_the_task_pickles_small_and_the_graph_is_named_by_the_plane_and_region():
    plane = PLANES["local"]
    assert pickle.loads(pickle.dumps(plane)) == plane and len(pickle.dumps(plane)) < 1000
    a = es.to_dask(plane, 0, 100, 0, 50)
    assert a.name == es.to_dask(es.Plane(3, 12, perfect=False, horizontal=0.3), 0, 100, 0, 50).name
    others = [es.to_dask(plane, 0, 100, 0, 51), es.to_dask(PLANES["perfect"], 0, 100, 0, 50)]
    assert all(a.name != b.name for b in others)
    summed = a.map_blocks(
        lambda b: b.sum(keepdims=True), chunks=((1,) * a.numblocks[0], (1,) * a.numblocks[1])
    )
    (optimized,) = dask.optimize(summed)
    assert len(optimized.__dask_graph__()) == a.numblocks[0] * a.numblocks[1]  # one task a chunk: fused


P = PLANES["perfect"]
M = es.InfiniteMaze(6, band=4, seed=1)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: es.to_dask(P, 0, 10), TypeError, r"a plane takes its columns too"),
        (lambda: es.to_dask(P, 0, 10, 0), TypeError, r"a plane takes its columns too"),
        (
            lambda: es.to_dask(P, 0, 10, 0, 5, bands_per_chunk=2),
            TypeError,
            "bands_per_chunk is an InfiniteMaze's",
        ),
        (lambda: es.to_dask(M, 0, 10, 0, 5), TypeError, "x0 is a plane's"),
        (lambda: es.to_dask(M, 0, 10, chunks=4), TypeError, "chunks is a plane's"),
        (lambda: es.to_dask(P, 5, 5, 0, 5), ValueError, "y1 must be greater than y0"),
        (
            lambda: es.to_dask(P, 0, 5, 0, TOP + 1),
            ValueError,
            r"x1 must be in \[-4611686018427387903, 4611686018427387904\], got 4611686018427387905",
        ),
        (lambda: es.to_dask(P, 0, 5, -TOP - 1, 0), ValueError, "x0 must be in"),
        (lambda: es.to_dask(P, 0.5, 5, 0, 5), TypeError, "y0 must be an int"),
        (lambda: es.to_dask(P, 0, 5, 0, 5, chunks=6), ValueError, r"multiples of the plane's chunk \(4\)"),
        (lambda: es.to_dask(P, 0, 5, 0, 5, chunks=(4, 6)), ValueError, "multiples of the plane's chunk"),
        (
            lambda: es.to_dask(P, 0, 5, 0, 5, chunks=(4, 4, 4)),
            TypeError,
            r"chunks must be an int or a \(rows",
        ),
        (lambda: es.to_dask(P, 0, 5, 0, 5, chunks=0), ValueError, "chunks must be in"),
        (lambda: es.to_dask(P, 0, 5, 0, 5, chunks="4"), TypeError, "chunks must be an int"),
        (lambda: es.to_dask(P, 0, 5, 0, 5, chunks=2**16), ValueError, "more than 2147483648: give smaller"),
        (
            lambda: es.to_dask(P, 0, 2**26, 0, 2**26, chunks=4),
            ValueError,
            r"over 16777216 chunks: give larger chunks=\(rows, columns\)",
        ),
        (
            lambda: es.to_dask(P, 0, 2**15, 0, 2**14, chunks=4),
            ValueError,
            r"the region makes over 16777216 chunks: give larger chunks=\(",
        ),
        (lambda: es.plane_chunks("plane", 0, 5, 0, 5), TypeError, "plane must be a Plane, got str"),
        (lambda: es.write_zarr("x.zarr", P, 0, 5), TypeError, "a plane takes its columns too"),
        (lambda: es.write_zarr(3, P, 0, 5, 0, 5), TypeError, "path must be"),
        (lambda: es.write_zarr("x.zarr", P, 0, 5, 0, 5, chunks=3), ValueError, "multiples"),
    ],
)
def test_bad_input_is_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


# -- Zarr -------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(PLANES))
def test_a_zarr_store_holds_the_region_and_names_the_plane(tmp_path, dask_client, kind):
    plane = PLANES[kind]
    path = tmp_path / "plane.zarr"
    y0, y1, x0, x1 = -TOP + 5, -TOP + 5 + 7 * plane.chunk + 2, TOP - 5 * plane.chunk - 1, TOP
    shape = (2 * plane.chunk, 3 * plane.chunk)
    with dask.config.set(scheduler=dask_client):  # the workers write their own chunks
        es.write_zarr(path, plane, y0, y1, x0, x1, chunks=shape)
    store = zarr.open_array(str(path), mode="r")
    assert store.shape == (y1 - y0, x1 - x0) and store.chunks == shape  # counted from (y0, x0), as Zarr's
    np.testing.assert_array_equal(store[:], plane.region(y0, y1, x0, x1))
    attrs = dict(store.attrs)
    assert (
        attrs["format"] == "eller_stream.Plane.region/1" and attrs["eller_stream_version"] == es.__version__
    )
    assert (attrs["chunk"], attrs["seed"], attrs["params"]) == (
        plane.chunk,
        plane.seed,
        plane.params.as_dict(),
    )
    assert (attrs["y0"], attrs["y1"], attrs["x0"], attrs["x1"]) == (y0, y1, x0, x1)
    assert es.read_zarr_plane(path) == (plane, y0, y1, x0, x1)
    assert os.listdir(tmp_path) == ["plane.zarr"]  # no temporary folder left


def test_a_small_region_is_one_zarr_chunk_and_replaced_only_when_asked(tmp_path):
    path = tmp_path / "p.zarr"
    es.write_zarr(path, P, 3, 9, -2, 1)
    assert zarr.open_array(str(path), mode="r").chunks == (6, 3)
    with pytest.raises(FileExistsError, match="overwrite=True"):
        es.write_zarr(path, P, 0, 4, 0, 4)
    es.write_zarr(path, PLANES["local"], 0, 4, 0, 4, overwrite=True)
    assert es.read_zarr_plane(path) == (PLANES["local"], 0, 4, 0, 4)


def test_a_store_of_another_kind_is_not_a_plane(tmp_path):
    es.write_zarr(tmp_path / "m.zarr", M, 0, 5)
    with pytest.raises(ValueError, match="not a store of a plane's region"):
        es.read_zarr_plane(tmp_path / "m.zarr")
    with pytest.raises(ValueError, match="not a store of maze rows"):
        es.read_zarr_maze(_written(tmp_path / "p.zarr"))
    store = zarr.open_array(str(tmp_path / "p.zarr"), mode="r+")
    store.attrs["chunk"] = 0
    with pytest.raises(ValueError, match="plane attributes are broken: chunk must be in"):
        es.read_zarr_plane(tmp_path / "p.zarr")
    store.attrs["chunk"] = 4
    store.attrs["x1"] = 9
    with pytest.raises(ValueError, match=r"shape \(5, 5\) is not that of its region"):
        es.read_zarr_plane(tmp_path / "p.zarr")


def _written(path):
    es.write_zarr(path, P, 0, 5, 0, 5)
    return path
