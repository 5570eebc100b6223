"""The banded maze past one machine: its rows as a Dask array, and in a Zarr
store that names the maze again (the ``[dask]`` extra:
``pip install '.[dask]'`` from a clone).

A chunk of :func:`to_dask` is ``maze.rows(a, b)`` of its own range, made
from the maze (a few hundred bytes pickled) and the two row numbers alone:
any scheduler, with any number of workers, gives the bytes of
``maze.rows(start, stop)``.  Chunks follow the bands (:func:`band_chunks`),
and each is made on one core: the workers are the parallelism.

Importing this module (or the package) does not import Dask or Zarr; the
functions that need them do, and say how to install them when they are not
there.

>>> import eller_stream as es
>>> maze = es.InfiniteMaze(8, band=4, seed=1)
>>> es.band_chunks(maze, -6, 9, bands_per_chunk=2)  # a part band, two bands, the rest
(2, 8, 5)
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from collections.abc import Iterator
from typing import Any

import numpy as np

from ._backend import backend
from ._json import loads
from ._params import BandParams
from ._schedule import MAX_TEXT_BYTES, Schedule
from ._validate import MAX_CHUNKS, ROW_LIMIT, check_int, check_row_range
from .banded import InfiniteMaze

__all__ = ["CHUNK_BYTES", "FORMAT", "band_chunks", "read_zarr_maze", "to_dask", "write_zarr"]

CHUNK_BYTES = 8 << 20  # the least bytes a chunk holds by default (when bands are smaller)
FORMAT = "eller_stream.InfiniteMaze.rows/1"  # the Zarr attribute "format" of write_zarr's stores
MAX_META_BYTES = MAX_TEXT_BYTES + (64 << 10)  # a zarr.json that write_zarr writes, at most
# the packages of the [dask] extra by name: the package itself is not on PyPI (yet)
HINT = "pip install 'dask[array]' distributed zarr (the [dask] extra: pip install '.[dask]' in a clone)"


def require(module: str) -> Any:
    """Import ``module`` of the ``[dask]`` extra, or a ``ModuleNotFoundError``
    that says how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            f"{module} is not installed (it is part of the [dask] extra): {HINT}", name=exc.name
        ) from exc


def _check_range(maze: object, start: object, stop: object) -> tuple[InfiniteMaze, int, int]:
    if not isinstance(maze, InfiniteMaze):
        raise TypeError(f"maze must be an InfiniteMaze, got {type(maze).__name__}")
    first, end = check_row_range(start, stop)
    return maze, first, end


def _bands_per_chunk(maze: InfiniteMaze, bands_per_chunk: object) -> int:
    if bands_per_chunk is None:
        return max(1, -(-CHUNK_BYTES // (maze.band * maze.width)))
    return check_int("bands_per_chunk", bands_per_chunk, 1, ROW_LIMIT // maze.band)


def _sizes(n: int, head: int, rows: int) -> tuple[int, ...]:
    """Chunk sizes of ``n`` rows: ``head`` rows (if any), then ``rows`` at a time."""
    head = min(n, head)
    count = (n - head + rows - 1) // rows
    if count + 1 > MAX_CHUNKS:
        raise ValueError(f"{n} rows make over {MAX_CHUNKS} chunks: give a larger bands_per_chunk")
    whole, rest = divmod(n - head, rows)
    return (head,) * (head > 0) + (rows,) * whole + (rest,) * (rest > 0)


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
        :data:`CHUNK_BYTES` (8 MiB), else the fewest bands that do: a
        ``distributed`` task costs about 1-2 ms, and a band of 32 x 1000
        cells takes 0.2 ms to make (one band a chunk is then over 10x slower;
        docs/performance.md).

    >>> import eller_stream as es
    >>> es.band_chunks(es.InfiniteMaze(1000, band=32, seed=0), 0, 100_000)[:2]  # 263 bands: 8 MiB
    (8416, 8416)
    """
    maze, start, stop = _check_range(maze, start, stop)
    rows = maze.band * _bands_per_chunk(maze, bands_per_chunk)
    return _sizes(stop - start, -start % maze.band, rows)


@contextlib.contextmanager
def _one_core() -> Iterator[None]:
    """numba's threads for this thread set to one while a chunk is made
    (``numba.set_num_threads`` is per thread)."""
    from ._numba import load

    load()
    if backend() == "lean":  # one core already
        yield
        return
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def make_chunk(maze: InfiniteMaze, start: int, stop: int) -> np.ndarray:
    """A chunk: ``maze.rows(start, stop)``, on one core."""
    with _one_core():
        return maze.rows(start, stop)


class _Chunks:
    """Chunk ``i`` of the rows ``start .. stop - 1`` cut as :func:`_sizes`
    cuts them (``head`` rows, then ``rows`` at a time): a few numbers, not a
    list of bounds, so that each task carries a few hundred bytes."""

    def __init__(self, maze: InfiniteMaze, start: int, stop: int, head: int, rows: int) -> None:
        self.maze, self.start, self.stop, self.head, self.rows = maze, start, stop, head, rows

    def offset(self, i: int) -> int:
        return (i > 0) * self.head + max(0, i - (self.head > 0)) * self.rows

    def __call__(self, block_id: tuple[int, int] = (0, 0)) -> np.ndarray:
        i = block_id[0]
        return make_chunk(
            self.maze, self.start + self.offset(i), min(self.stop, self.start + self.offset(i + 1))
        )


def _rows_array(maze: InfiniteMaze, start: int, stop: int, head: int, rows: int) -> Any:
    """The Dask array of the rows, cut as :func:`_sizes` cuts them: a
    blockwise layer, so that what is done to each chunk next (a reduction,
    a store) runs in the same task (Dask fuses them)."""
    da = require("dask.array")
    sizes = _sizes(stop - start, head, rows)
    name = "eller-rows-" + require("dask.base").tokenize(repr(maze), start, sizes)
    make = _Chunks(maze, start, stop, min(head, stop - start), rows)
    meta = np.empty((0, 0), np.uint8)
    return da.map_blocks(make, chunks=(sizes, (maze.width,)), dtype=np.uint8, meta=meta, name=name)


def to_dask(maze: InfiniteMaze, start: int, stop: int, *, bands_per_chunk: int | None = None) -> Any:
    """Rows ``start`` to ``stop - 1`` of ``maze`` as a lazy ``(stop - start,
    width)`` uint8 ``dask.array``, a chunk of whole bands at a time.

    Each chunk is ``maze.rows(a, b)`` of its rows (:func:`band_chunks`), made
    on one core from the maze and ``(a, b)`` alone: computed by any scheduler
    (threads, processes, a ``distributed`` cluster) the array is the bytes of
    ``maze.rows(start, stop)``, with loops, rooms and schedules too.

    Parameters
    ----------
    maze:
        An :class:`~eller_stream.InfiniteMaze`.
    start, stop:
        The rows, any ints with ``start < stop`` in ``[-2**63, 2**63]``.
    bands_per_chunk:
        Bands a chunk (see :func:`band_chunks`); ``None``: about 8 MiB a
        chunk, one band a chunk when bands are that large.

    Raises ``ModuleNotFoundError`` without the ``[dask]`` extra.

    >>> import pytest; da = pytest.importorskip("dask.array")  # the [dask] extra
    >>> import eller_stream as es
    >>> maze = es.InfiniteMaze(8, band=4, seed=1)
    >>> rows = es.to_dask(maze, -6, 9, bands_per_chunk=2)
    >>> rows.chunks
    ((2, 8, 5), (8,))
    >>> bool((rows.compute(scheduler="threads") == maze.rows(-6, 9)).all())
    True
    """
    maze, start, stop = _check_range(maze, start, stop)
    return _rows_array(
        maze, start, stop, -start % maze.band, maze.band * _bands_per_chunk(maze, bands_per_chunk)
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


def _local_path(path: str | os.PathLike[str]) -> str | None:
    """The folder ``path`` names on this machine (a ``file://`` URL too), or
    ``None`` for a URL of another file system."""
    text = os.fspath(path)
    if text.startswith("file://"):
        return text[len("file://") :]
    return None if "://" in text else text


def write_zarr(
    path: str | os.PathLike[str],
    maze: InfiniteMaze,
    start: int,
    stop: int,
    *,
    bands_per_chunk: int | None = None,
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

    Parameters
    ----------
    path:
        A folder (or an fsspec URL such as ``s3://bucket/maze.zarr``, written
        in place) that must not exist unless ``overwrite``.
    maze:
        An :class:`~eller_stream.InfiniteMaze`.
    start, stop:
        The rows, any ints with ``start < stop``.
    bands_per_chunk:
        Bands a chunk, as for :func:`to_dask`.
    overwrite:
        Replace what is at ``path``.

    >>> import pytest; da, zarr = pytest.importorskip("dask.array"), pytest.importorskip("zarr")  # [dask]
    >>> import os, tempfile, eller_stream as es
    >>> maze = es.InfiniteMaze(8, band=4, seed=1, loops=0.5)
    >>> path = os.path.join(tempfile.mkdtemp(), "maze.zarr")
    >>> es.write_zarr(path, maze, 0, 20)
    >>> bool((zarr.open_array(path, mode="r")[:] == maze.rows(0, 20)).all())
    True
    """
    maze, start, stop = _check_range(maze, start, stop)
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    rows = maze.band * _bands_per_chunk(maze, bands_per_chunk)
    zarr = require("zarr")
    array = _rows_array(maze, start, stop, 0, rows)
    attributes = _attributes(maze, start, stop)
    shape, chunks = (stop - start, maze.width), (min(rows, stop - start), maze.width)

    def write(target: str) -> None:
        store = zarr.create_array(
            store=target,
            shape=shape,
            chunks=chunks,
            dtype="uint8",
            attributes=attributes,
            overwrite=overwrite,
        )
        array.store(store, lock=False)

    local = _local_path(path)
    if local is None:
        write(os.fspath(path))
        return
    _write_local(os.path.abspath(local), write, overwrite)


def _write_local(target: str, write: Any, overwrite: bool) -> None:
    """``write`` a store into a folder beside ``target``, then rename it there."""
    if os.path.lexists(target) and not overwrite:
        raise FileExistsError(f"{target!r} exists (overwrite=True replaces it)")
    folder, name = os.path.split(target)
    temp = os.path.join(folder, f".{name}.eller-stream-{os.getpid()}-{uuid.uuid4().hex}.tmp")
    old = temp[: -len(".tmp")] + ".old"
    try:
        write(temp)
        if os.path.lexists(target):
            os.rename(target, old)
        os.rename(temp, target)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
        _remove(old)


def _remove(path: str) -> None:
    """Remove what ``write_zarr`` set aside at ``path``, whatever it is: a
    store's folder, a file or a symlink (not followed), or nothing."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


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
    zarr = require("zarr")
    local = store_attributes(path)  # a folder's zarr.json, read as the package reads JSON
    try:
        array = zarr.open_array(os.fspath(path), mode="r")
        attrs = dict(array.attrs) if local is None else local
    except RecursionError:  # zarr's own reading of a store that is not a folder
        raise ValueError(f"{os.fspath(path)!r}: its metadata nest too deeply") from None
    if attrs.get("format") != FORMAT:
        raise ValueError(f"{os.fspath(path)!r} is not a store of maze rows (no format {FORMAT!r})")
    try:
        schedule = None if attrs["schedule"] is None else Schedule.from_json_value(attrs["schedule"])
        maze = InfiniteMaze.from_params(
            attrs["width"], attrs["band"], attrs["seed"], BandParams.from_dict(attrs["params"]), schedule
        )
        maze, start, stop = _check_range(maze, attrs["start"], attrs["stop"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{os.fspath(path)!r}: its maze attributes are broken: {exc}") from None
    if tuple(array.shape) != (stop - start, maze.width):
        raise ValueError(f"{os.fspath(path)!r}: shape {tuple(array.shape)} is not that of its rows")
    return maze, start, stop


def store_attributes(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The attributes in the ``zarr.json`` of the folder ``path``, or
    ``None`` without one: read through ``eller_stream._json`` (deep nesting,
    a key twice, huge integers are a ``ValueError``), at most
    :data:`MAX_META_BYTES` (the largest schedule, indented, and the rest)."""
    name = os.path.join(os.fspath(path), "zarr.json")
    if not os.path.isfile(name):
        return None
    with open(name, "rb") as f:
        text = f.read(MAX_META_BYTES + 1)
    what = f"{os.fspath(path)!r}: its zarr.json"
    if len(text) > MAX_META_BYTES:
        raise ValueError(f"{what} is over {MAX_META_BYTES} bytes")
    meta = loads(text, what)
    attrs = meta.get("attributes", {}) if isinstance(meta, dict) else None
    if not isinstance(attrs, dict):
        raise ValueError(f"{what} has no attributes object")
    return attrs
