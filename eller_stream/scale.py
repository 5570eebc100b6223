"""The banded maze and the plane past one machine: the maze's rows, or a
region of the plane, as a Dask array, and in a Zarr store that names it
again (the ``[dask]`` extra: ``pip install '.[dask]'`` from a clone).

A chunk of :func:`to_dask` is ``maze.rows(a, b)`` of its own range, made
from the maze (a few hundred bytes pickled) and the two row numbers alone:
any scheduler, with any number of workers, gives the bytes of
``maze.rows(start, stop)``.  Chunks follow the bands (:func:`band_chunks`),
and each is made on one core: the workers are the parallelism.  A plane's
region is cut in 2-D chunks likewise (``eller_stream._plane_scale``).

Importing this module (or the package) does not import Dask or Zarr; the
functions that need them do, and say how to install them when they are not
there.

>>> import eller_stream as es
>>> maze = es.InfiniteMaze(8, band=4, seed=1)
>>> es.band_chunks(maze, -6, 9, bands_per_chunk=2)  # a part band, two bands, the rest
(2, 8, 5)
"""

from __future__ import annotations

import os
from typing import Any, overload

import numpy as np

from . import _plane_scale as ps
from ._dask_io import (
    HINT,
    MAX_META_BYTES,
    Cuts,
    chunk_buffer,
    one_core,
    open_store,
    require,
    store_attributes,
    write_store,
)
from ._params import BandParams
from ._schedule import Schedule
from ._validate import ROW_LIMIT, check_int, check_row_range
from .banded import InfiniteMaze
from .plane import Plane

__all__ = [
    "CHUNK_BYTES",
    "FORMAT",
    "HINT",
    "MAX_META_BYTES",
    "band_chunks",
    "read_zarr_maze",
    "require",
    "store_attributes",
    "to_dask",
    "write_zarr",
]

CHUNK_BYTES = 32 << 20  # the least bytes a chunk holds by default (when bands are smaller)
FORMAT = "eller_stream.InfiniteMaze.rows/1"  # the Zarr attribute "format" of write_zarr's stores
PLANE_FORMAT = ps.FORMAT  # ... of a plane's stores


def _check_range(maze: object, start: object, stop: object) -> tuple[InfiniteMaze, int, int]:
    if not isinstance(maze, InfiniteMaze):
        raise TypeError(f"maze must be an InfiniteMaze, got {type(maze).__name__}")
    first, end = check_row_range(start, stop)
    return maze, first, end


def _bands_per_chunk(maze: InfiniteMaze, bands_per_chunk: object) -> int:
    if bands_per_chunk is None:
        return max(1, -(-CHUNK_BYTES // (maze.band * maze.width)))
    return check_int("bands_per_chunk", bands_per_chunk, 1, ROW_LIMIT // maze.band)


def _sizes(start: int, stop: int, head: int, rows: int) -> tuple[int, ...]:
    """Chunk sizes of the rows: ``head`` rows (if any), then ``rows`` at a time."""
    return Cuts(start, stop, head, rows).sizes("rows", "a larger bands_per_chunk")


def band_chunks(
    maze: InfiniteMaze, start: int, stop: int, bands_per_chunk: int | None = None
) -> tuple[int, ...]:
    """The rows of each chunk of :func:`to_dask`: the part of a band that
    ``start`` cuts (if it does), then ``bands_per_chunk`` whole bands a
    chunk, the last chunk what is left.

    Parameters
    ----------
    maze:
        An :class:`~eller_stream.InfiniteMaze`.
    start, stop:
        The rows ``start`` to ``stop - 1``, any ints with ``start < stop``.
    bands_per_chunk:
        Bands a chunk; ``None``: one band when a band holds at least
        :data:`CHUNK_BYTES` (32 MiB), else the fewest bands that do: a
        ``distributed`` task costs about 2-4 ms of the machine's CPU, and a
        band of 32 x 1000 cells takes 0.04 ms to make (docs/performance.md).

    >>> import eller_stream as es
    >>> es.band_chunks(es.InfiniteMaze(1000, band=32, seed=0), 0, 100_000)  # 1049 bands: 32 MiB
    (33568, 33568, 32864)
    """
    maze, start, stop = _check_range(maze, start, stop)
    rows = maze.band * _bands_per_chunk(maze, bands_per_chunk)
    return _sizes(start, stop, -start % maze.band, rows)


def make_chunk(maze: InfiniteMaze, start: int, stop: int) -> np.ndarray:
    """A chunk: ``maze.rows(start, stop)``, on one core."""
    with one_core():
        return maze.rows(start, stop, out=chunk_buffer(stop - start, maze.width))


class _Chunks:
    """Chunk ``i``: the rows of cut ``i`` (a few numbers a task)."""

    def __init__(self, maze: InfiniteMaze, cuts: Cuts) -> None:
        self.maze, self.cuts = maze, cuts

    def __call__(self, block_id: tuple[int, int] = (0, 0)) -> np.ndarray:
        return make_chunk(self.maze, *self.cuts.bounds(block_id[0]))


def _rows_array(maze: InfiniteMaze, start: int, stop: int, head: int, rows: int) -> Any:
    """The Dask array of the rows, cut as :func:`_sizes` cuts them: a
    blockwise layer, so that what is done to each chunk next (a reduction,
    a store) runs in the same task (Dask fuses them)."""
    da = require("dask.array")
    cuts = Cuts(start, stop, head, rows)
    sizes = cuts.sizes("rows", "a larger bands_per_chunk")
    name = "eller-rows-" + require("dask.base").tokenize(repr(maze), start, sizes)
    make = _Chunks(maze, cuts)
    meta = np.empty((0, 0), np.uint8)
    return da.map_blocks(make, chunks=(sizes, (maze.width,)), dtype=np.uint8, meta=meta, name=name)


@overload
def to_dask(maze: InfiniteMaze, start: int, stop: int, *, bands_per_chunk: int | None = None) -> Any: ...


@overload
def to_dask(
    maze: Plane, start: int, stop: int, x0: int, x1: int, *, chunks: int | tuple[int, int] | None = None
) -> Any: ...


def to_dask(
    maze: InfiniteMaze | Plane,
    start: int,
    stop: int,
    x0: int | None = None,
    x1: int | None = None,
    *,
    bands_per_chunk: int | None = None,
    chunks: int | tuple[int, int] | None = None,
) -> Any:
    """Rows ``start`` to ``stop - 1`` of ``maze`` as a lazy ``(stop - start,
    width)`` uint8 ``dask.array``, a chunk of whole bands at a time; of a
    :class:`~eller_stream.Plane`, the region ``[start, stop) x [x0, x1)``
    as a lazy ``(stop - start, x1 - x0)`` one in 2-D chunks.

    Each chunk is ``maze.rows(a, b)`` of its rows (:func:`band_chunks`), made
    on one core from the maze and ``(a, b)`` alone: computed by any scheduler
    (threads, processes, a ``distributed`` cluster) the array is the bytes of
    ``maze.rows(start, stop)``, with loops, rooms and schedules too.  A
    plane's chunk is ``plane.region(a, b, c, d)`` of its own rectangle
    (:func:`~eller_stream.plane_chunks`), the array the bytes of
    ``plane.region(start, stop, x0, x1)``.

    Parameters
    ----------
    maze:
        An :class:`~eller_stream.InfiniteMaze` or a :class:`~eller_stream.Plane`.
    start, stop:
        The rows, any ints with ``start < stop`` in ``[-2**63, 2**63]`` (a
        plane's: ``y0``, ``y1``, in ``[-2**62, 2**62]``).
    x0, x1:
        A plane's columns, as :meth:`Plane.region` takes them; nothing for
        an ``InfiniteMaze``.
    bands_per_chunk:
        Bands a chunk (see :func:`band_chunks`); ``None``: about 32 MiB a
        chunk, one band a chunk when bands are that large.
    chunks:
        A plane's: the ``(rows, columns)`` of a chunk, multiples of
        ``plane.chunk`` (an int: both); ``None``: about 8 MiB, square.

    Raises ``ModuleNotFoundError`` without the ``[dask]`` extra.

    >>> import pytest; da = pytest.importorskip("dask.array")  # the [dask] extra
    >>> import eller_stream as es
    >>> maze = es.InfiniteMaze(8, band=4, seed=1)
    >>> rows = es.to_dask(maze, -6, 9, bands_per_chunk=2)
    >>> rows.chunks
    ((2, 8, 5), (8,))
    >>> bool((rows.compute(scheduler="threads") == maze.rows(-6, 9)).all())
    True
    >>> plane = es.Plane(chunk=4, seed=1)
    >>> cells = es.to_dask(plane, -6, 9, 2**62 - 10, 2**62, chunks=(8, 4))
    >>> cells.chunks
    ((2, 8, 5), (2, 4, 4))
    >>> bool((cells.compute() == plane.region(-6, 9, 2**62 - 10, 2**62)).all())
    True
    """
    if isinstance(maze, Plane):
        _only_plane_options(bands_per_chunk=bands_per_chunk)
        return ps.to_dask(maze, start, stop, *_columns(x0, x1), chunks=chunks)
    _only_band_options(x0=x0, x1=x1, chunks=chunks)
    maze, start, stop = _check_range(maze, start, stop)
    return _rows_array(
        maze, start, stop, -start % maze.band, maze.band * _bands_per_chunk(maze, bands_per_chunk)
    )


def _columns(x0: int | None, x1: int | None) -> tuple[int, int]:
    if x0 is None or x1 is None:
        raise TypeError("a plane takes its columns too: (plane, y0, y1, x0, x1)")
    return x0, x1


def _only_plane_options(**given: object) -> None:
    for name, value in given.items():
        if value is not None:
            raise TypeError(f"{name} is an InfiniteMaze's: a plane takes chunks=(rows, columns)")


def _only_band_options(**given: object) -> None:
    for name, value in given.items():
        if value is not None:
            raise TypeError(
                f"{name} is a plane's: an InfiniteMaze takes (maze, start, stop, bands_per_chunk=)"
            )


def _attributes(maze: InfiniteMaze, start: int, stop: int) -> dict[str, Any]:
    from . import __version__

    schedule = None if maze.schedule is None else maze.schedule.as_json_value()
    return {
        "format": FORMAT,
        "eller_stream_version": __version__,
        "width": maze.width,
        "band": maze.band,
        "seed": maze.seed,
        "params": maze.params.as_dict(),
        "schedule": schedule,
        "start": start,
        "stop": stop,
    }


@overload
def write_zarr(
    path: str | os.PathLike[str],
    maze: InfiniteMaze,
    start: int,
    stop: int,
    *,
    bands_per_chunk: int | None = None,
    overwrite: bool = False,
) -> None: ...


@overload
def write_zarr(
    path: str | os.PathLike[str],
    maze: Plane,
    start: int,
    stop: int,
    x0: int,
    x1: int,
    *,
    chunks: int | tuple[int, int] | None = None,
    overwrite: bool = False,
) -> None: ...


def write_zarr(
    path: str | os.PathLike[str],
    maze: InfiniteMaze | Plane,
    start: int,
    stop: int,
    x0: int | None = None,
    x1: int | None = None,
    *,
    bands_per_chunk: int | None = None,
    chunks: int | tuple[int, int] | None = None,
    overwrite: bool = False,
) -> None:
    """Write rows ``start`` to ``stop - 1`` of ``maze`` to a Zarr array at
    ``path``, through Dask (the scheduler in use: a ``distributed.Client``'s
    workers write their own chunks), with what names the maze in its
    attributes: ``format``, ``eller_stream_version``, ``width``, ``band``,
    ``seed``, ``params`` (``BandParams.as_dict()``), ``schedule``
    (``Schedule.as_json_value()`` or null), ``start`` and ``stop``
    (:func:`read_zarr_maze` reads them back).

    Zarr chunks are ``(rows, width)``, ``rows`` = ``bands_per_chunk`` bands
    (:func:`band_chunks`), counted from ``start``: whole bands each when
    ``start`` is a band's first row (else each chunk is still
    ``maze.rows`` of its own rows, at the cost of one band's replay).  A
    local ``path`` is written to a folder beside it and renamed into place
    when whole: a reader never sees half a store.

    Of a :class:`~eller_stream.Plane`, the region ``[start, stop) x [x0,
    x1)``, in Zarr chunks of ``chunks`` (as :func:`to_dask` takes it)
    counted from ``(start, x0)``, with the attributes ``format``
    (``eller_stream.Plane.region/1``), ``eller_stream_version``, ``chunk``,
    ``seed``, ``params`` (``PlaneParams.as_dict()``), ``y0``, ``y1``, ``x0``
    and ``x1`` (:func:`~eller_stream.read_zarr_plane` reads them back).

    Parameters
    ----------
    path:
        A folder (or an fsspec URL such as ``s3://bucket/maze.zarr``, written
        in place) that must not exist unless ``overwrite``.
    maze:
        An :class:`~eller_stream.InfiniteMaze` or a :class:`~eller_stream.Plane`.
    start, stop:
        The rows, any ints with ``start < stop``.
    x0, x1:
        A plane's columns; nothing for an ``InfiniteMaze``.
    bands_per_chunk, chunks:
        Bands a chunk, or a plane's chunk shape, as for :func:`to_dask`.
    overwrite:
        Replace the file, symlink or Zarr store at ``path`` (never another
        folder: a ``ValueError``).

    >>> import pytest; da, zarr = pytest.importorskip("dask.array"), pytest.importorskip("zarr")  # [dask]
    >>> import os, tempfile, eller_stream as es
    >>> maze = es.InfiniteMaze(8, band=4, seed=1, loops=0.5)
    >>> path = os.path.join(tempfile.mkdtemp(), "maze.zarr")
    >>> es.write_zarr(path, maze, 0, 20)
    >>> bool((zarr.open_array(path, mode="r")[:] == maze.rows(0, 20)).all())
    True
    """
    if isinstance(maze, Plane):
        _only_plane_options(bands_per_chunk=bands_per_chunk)
        ps.write_zarr(path, maze, (start, stop, *_columns(x0, x1)), chunks=chunks, overwrite=overwrite)
        return
    _only_band_options(x0=x0, x1=x1, chunks=chunks)
    maze, start, stop = _check_range(maze, start, stop)
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    rows = maze.band * _bands_per_chunk(maze, bands_per_chunk)
    array = _rows_array(maze, start, stop, 0, rows)
    write_store(path, array, (min(rows, stop - start), maze.width), _attributes(maze, start, stop), overwrite)


def read_zarr_maze(path: str | os.PathLike[str]) -> tuple[InfiniteMaze, int, int]:
    """The maze, ``start`` and ``stop`` of a store that :func:`write_zarr`
    wrote: ``maze.rows(start, stop)`` are its rows.

    Parameters
    ----------
    path:
        The store's folder or URL.  A Zarr array without
        :func:`write_zarr`'s attributes is a ``ValueError``.

    >>> import pytest; _ = pytest.importorskip("dask.array"), pytest.importorskip("zarr")  # [dask]
    >>> import os, tempfile, eller_stream as es
    >>> maze = es.InfiniteMaze(8, band=4, seed=1, schedule=es.Schedule({0: {"rooms": 0.2}}))
    >>> path = os.path.join(tempfile.mkdtemp(), "maze.zarr")
    >>> es.write_zarr(path, maze, -3, 10)
    >>> es.read_zarr_maze(path) == (maze, -3, 10)
    True
    """
    attrs, shape = open_store(path, FORMAT, "maze rows")
    try:
        schedule = None if attrs["schedule"] is None else Schedule.from_json_value(attrs["schedule"])
        maze = InfiniteMaze.from_params(
            attrs["width"], attrs["band"], attrs["seed"], BandParams.from_dict(attrs["params"]), schedule
        )
        maze, start, stop = _check_range(maze, attrs["start"], attrs["stop"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{os.fspath(path)!r}: its maze attributes are broken: {exc}") from None
    if shape != (stop - start, maze.width):
        raise ValueError(f"{os.fspath(path)!r}: shape {shape} is not that of its rows")
    return maze, start, stop
