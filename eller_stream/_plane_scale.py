"""The plane past one machine: a region as a Dask array in 2-D chunks, and
in a Zarr store that names the plane again (what :func:`es.to_dask
<eller_stream.scale.to_dask>`, :func:`es.write_zarr
<eller_stream.scale.write_zarr>` and :func:`es.read_zarr_plane` do for a
:class:`~eller_stream.Plane`; the ``[dask]`` extra).

A chunk of the array is ``plane.region(a, b, c, d)`` of its own rectangle,
made on one core from the plane (a hundred bytes pickled) and four numbers
alone, so any scheduler gives the bytes of ``plane.region(y0, y1, x0, x1)``.
Its chunks follow the plane's (:func:`plane_chunks`): a region makes every
chunk of the plane it touches, and one past its last row and column for the
passages out, so a Dask chunk cut on the plane's chunks makes few twice.

>>> import eller_stream as es
>>> es.plane_chunks(es.Plane(chunk=4, seed=1), -6, 9, 0, 10, chunks=8)  # the part to a chunk, then 8
((2, 8, 5), (8, 2))
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from . import _dask_io as dio
from ._plane_params import PlaneParams
from ._validate import MAX_CHUNKS, check_int, shown
from .plane import LIMIT, MAX_MADE, Plane, _bounds

__all__ = ["CHUNK_BYTES", "FORMAT", "plane_chunks", "read_zarr_plane"]  # to_dask, write_zarr: es.scale's

CHUNK_BYTES = 8 << 20  # the bytes a chunk holds by default, about: 0.1 s of work, where a task costs 2-4 ms
FORMAT = "eller_stream.Plane.region/1"  # the Zarr attribute "format" of a plane's stores

Bounds = tuple[int, int, int, int]


def _check(plane: object, y0: object, y1: object, x0: object, x1: object) -> tuple[Plane, Bounds]:
    if not isinstance(plane, Plane):
        raise TypeError(f"plane must be a Plane, got {type(plane).__name__}")
    return plane, (*_bounds("y", y0, y1), *_bounds("x", x0, x1))


def _shape(plane: Plane, chunks: object) -> tuple[int, int]:
    """The ``(rows, columns)`` of a whole Dask chunk, checked: multiples of
    the plane's chunk whose region makes at most ``MAX_MADE`` cells."""
    c = plane.chunk
    if chunks is None:  # square, about CHUNK_BYTES
        side = max(1, math.isqrt(CHUNK_BYTES) // c) * c
        return side, side
    if isinstance(chunks, (tuple, list)):
        if len(chunks) != 2:
            raise TypeError(f"chunks must be an int or a (rows, columns) pair, got {shown(chunks)}")
        sides = (
            check_int("chunks[0]", chunks[0], 1, 2 * LIMIT),
            check_int("chunks[1]", chunks[1], 1, 2 * LIMIT),
        )
    else:
        side = check_int("chunks", chunks, 1, 2 * LIMIT)
        sides = (side, side)
    if sides[0] % c or sides[1] % c:
        raise ValueError(f"chunks must be multiples of the plane's chunk ({c}), got {shown(chunks)}")
    made = (sides[0] // c + 1) * (sides[1] // c + 1) * c * c  # and the chunks past it, for the passages out
    if made > MAX_MADE:
        raise ValueError(
            f"chunks {shown(chunks)} make {made} cells a chunk, more than {MAX_MADE}: give smaller"
        )
    return sides


def _cuts(plane: Plane, bounds: Bounds, shape: tuple[int, int], aligned: bool) -> tuple[dio.Cuts, dio.Cuts]:
    """The cuts of the rows and of the columns: with ``aligned``, the part to
    the plane's next chunk first (if the region starts inside one)."""
    y0, y1, x0, x1 = bounds
    c = plane.chunk
    head_y, head_x = (-y0 % c, -x0 % c) if aligned else (0, 0)
    return dio.Cuts(y0, y1, head_y, shape[0]), dio.Cuts(x0, x1, head_x, shape[1])


def _sizes(rows: dio.Cuts, cols: dio.Cuts) -> tuple[tuple[int, ...], tuple[int, ...]]:
    remedy = "larger chunks=(rows, columns)"  # the argument that fixes it
    sizes = rows.sizes("rows", remedy), cols.sizes("columns", remedy)
    if len(sizes[0]) * len(sizes[1]) > MAX_CHUNKS:
        raise ValueError(f"the region makes over {MAX_CHUNKS} chunks: give {remedy}")
    return sizes


def plane_chunks(
    plane: Plane, y0: int, y1: int, x0: int, x1: int, chunks: int | tuple[int, int] | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The rows and the columns of each chunk of ``es.to_dask(plane, y0, y1,
    x0, x1)`` (its ``.chunks``): along each axis the part up to the plane's
    next chunk (when the region starts inside one), then ``chunks`` cells a
    chunk, the last what is left.

    Parameters
    ----------
    plane:
        A :class:`~eller_stream.Plane`.
    y0, y1, x0, x1:
        The region ``[y0, y1) x [x0, x1)``, as :meth:`Plane.region` takes it.
    chunks:
        The rows and columns of a whole chunk, each a multiple of
        ``plane.chunk`` (an int: both); ``None``: about :data:`CHUNK_BYTES`
        (8 MiB), square. Its region, and the chunks of the plane just past
        it, must make at most :data:`~eller_stream.plane.MAX_MADE` cells.

    >>> import eller_stream as es
    >>> es.plane_chunks(es.Plane(chunk=16), 0, 10_000, 0, 100)  # 181 chunks of the plane a side
    ((2896, 2896, 2896, 1312), (100,))
    """
    plane, bounds = _check(plane, y0, y1, x0, x1)
    return _sizes(*_cuts(plane, bounds, _shape(plane, chunks), aligned=True))


def make_region(plane: Plane, y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
    """A chunk: ``plane.region(y0, y1, x0, x1)``, on one core."""
    with dio.one_core():
        return plane.region(y0, y1, x0, x1)


class _Regions:
    """Chunk ``(i, j)``: the rows of cut ``i`` by the columns of cut ``j``."""

    def __init__(self, plane: Plane, rows: dio.Cuts, cols: dio.Cuts) -> None:
        self.plane, self.rows, self.cols = plane, rows, cols

    def __call__(self, block_id: tuple[int, int] = (0, 0)) -> np.ndarray:
        return make_region(self.plane, *self.rows.bounds(block_id[0]), *self.cols.bounds(block_id[1]))


def _array(plane: Plane, bounds: Bounds, shape: tuple[int, int], aligned: bool) -> Any:
    """The Dask array of the region: a blockwise layer (what is done to a
    chunk next runs in the same task), named by the plane and the cuts."""
    da = dio.require("dask.array")
    rows, cols = _cuts(plane, bounds, shape, aligned)
    sizes = _sizes(rows, cols)
    name = "eller-region-" + dio.require("dask.base").tokenize(repr(plane), bounds, sizes)
    meta = np.empty((0, 0), np.uint8)
    return da.map_blocks(_Regions(plane, rows, cols), chunks=sizes, dtype=np.uint8, meta=meta, name=name)


def to_dask(
    plane: Plane, y0: int, y1: int, x0: int, x1: int, *, chunks: int | tuple[int, int] | None = None
) -> Any:
    """:func:`es.to_dask <eller_stream.scale.to_dask>` of a plane: the region
    as a lazy ``(y1 - y0, x1 - x0)`` uint8 ``dask.array`` (chunks:
    :func:`plane_chunks`)."""
    plane, bounds = _check(plane, y0, y1, x0, x1)
    return _array(plane, bounds, _shape(plane, chunks), aligned=True)


def _attributes(plane: Plane, bounds: Bounds) -> dict[str, Any]:
    from . import __version__

    y0, y1, x0, x1 = bounds
    return {
        "format": FORMAT,
        "eller_stream_version": __version__,
        "chunk": plane.chunk,
        "seed": plane.seed,
        "params": plane.params.as_dict(),
        **{"y0": y0, "y1": y1, "x0": x0, "x1": x1},
    }


def write_zarr(
    path: str | os.PathLike[str],
    plane: Plane,
    bounds: tuple[int, int, int, int],
    *,
    chunks: int | tuple[int, int] | None = None,
    overwrite: bool = False,
) -> None:
    """:func:`es.write_zarr <eller_stream.scale.write_zarr>` of a plane's
    region: Zarr chunks of ``chunks`` counted from ``(y0, x0)``."""
    plane, checked = _check(plane, *bounds)
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    shape = _shape(plane, chunks)
    array = _array(plane, checked, shape, aligned=False)  # regular chunks, as Zarr's
    y0, y1, x0, x1 = checked
    store_chunks = (min(shape[0], y1 - y0), min(shape[1], x1 - x0))
    dio.write_store(path, array, store_chunks, _attributes(plane, checked), overwrite)


def read_zarr_plane(path: str | os.PathLike[str]) -> tuple[Plane, int, int, int, int]:
    """The plane and the region ``y0, y1, x0, x1`` of a store that
    :func:`es.write_zarr <eller_stream.scale.write_zarr>` wrote of a plane:
    ``plane.region(y0, y1, x0, x1)`` are its cells.

    Parameters
    ----------
    path:
        The store's folder or URL. A Zarr array without the attributes of
        a plane's store is a ``ValueError``.

    >>> import pytest; _ = pytest.importorskip("dask.array"), pytest.importorskip("zarr")  # [dask]
    >>> import os, tempfile, eller_stream as es
    >>> plane = es.Plane(chunk=4, seed=2, perfect=False)
    >>> path = os.path.join(tempfile.mkdtemp(), "plane.zarr")
    >>> es.write_zarr(path, plane, -3, 10, 2**62 - 9, 2**62)
    >>> es.read_zarr_plane(path) == (plane, -3, 10, 2**62 - 9, 2**62)
    True
    """
    attrs, shape = dio.open_store(path, FORMAT, "a plane's region")
    try:
        plane = Plane.from_params(attrs["chunk"], attrs["seed"], PlaneParams.from_dict(attrs["params"]))
        plane, (y0, y1, x0, x1) = _check(plane, attrs["y0"], attrs["y1"], attrs["x0"], attrs["x1"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{os.fspath(path)!r}: its plane attributes are broken: {exc}") from None
    if shape != (y1 - y0, x1 - x0):
        raise ValueError(f"{os.fspath(path)!r}: shape {shape} is not that of its region")
    return plane, y0, y1, x0, x1
