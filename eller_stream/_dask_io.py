"""What the Dask and Zarr paths of the banded maze and of the plane share
(:mod:`eller_stream.scale`): importing the ``[dask]`` extra with a hint when
it is missing, making a chunk on one core, writing a local store whole or
not at all, and reading a store's attributes as the package reads JSON.

>>> from eller_stream._dask_io import local_path
>>> local_path("file:///data/maze.zarr"), local_path("s3://bucket/maze.zarr")
('/data/maze.zarr', None)
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
from ._parallel import alloc
from ._schedule import MAX_TEXT_BYTES
from ._validate import MAX_CHUNKS

__all__ = [
    "HINT",
    "MAX_META_BYTES",
    "Cuts",
    "chunk_buffer",
    "local_path",
    "one_core",
    "open_store",
    "remove",
    "require",
    "store_attributes",
    "write_local",
    "write_store",
]

HUGE_PAGE = 2 << 20  # Linux's transparent huge page on x86-64 and arm64
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


def chunk_buffer(rows: int, width: int) -> np.ndarray:
    """An uninitialised C-contiguous ``(rows, width)`` uint8 array for a
    chunk, starting on a huge page boundary when it is two huge pages or more.

    Dask's nanny starts workers with ``MALLOC_TRIM_THRESHOLD_`` set, which
    makes each chunk a fresh ``mmap`` whose pages fault in as the rows are
    written: about 500 faults and 1.3 ms of the kernel's time a chunk of 8
    MiB. numpy asks for huge pages (``MADV_HUGEPAGE``) on arrays of 4 MiB or
    more, and Linux gives them where a whole 2 MiB page fits the mapping:
    aligned, 15 faults and 0.6 ms (docs/performance.md).

    >>> buffer = chunk_buffer(8192, 1000)
    >>> buffer.shape, buffer.flags.c_contiguous, buffer.ctypes.data % HUGE_PAGE
    ((8192, 1000), True, 0)
    """
    cells = rows * width
    what = f"a chunk of {rows} rows of width {width}"
    if cells < 2 * HUGE_PAGE:
        return alloc((rows, width), np.uint8, what)
    whole = alloc((cells + HUGE_PAGE,), np.uint8, what)
    skip = -whole.ctypes.data % HUGE_PAGE
    return whole[skip : skip + cells].reshape(rows, width)


@contextlib.contextmanager
def one_core() -> Iterator[None]:
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


class Cuts:
    """Where a range ``start .. stop - 1`` (of rows or columns) is cut into
    chunks: ``head`` first (if any, at most the whole range: what reaches
    the next band or chunk of the maze), then ``step`` at a time, the last
    what is left. A few numbers, not a list of bounds, so that each Dask
    task carries a few hundred bytes.

    >>> cuts = Cuts(-6, 9, 2, 8)
    >>> cuts.sizes("rows", "a larger bands_per_chunk"), cuts.bounds(1)
    ((2, 8, 5), (-4, 4))
    """

    def __init__(self, start: int, stop: int, head: int, step: int) -> None:
        self.start, self.stop, self.step = start, stop, step
        self.head = min(head, stop - start)

    def sizes(self, what: str, remedy: str) -> tuple[int, ...]:
        """The chunks' sizes; over ``MAX_CHUNKS`` of them is a ``ValueError``
        that says what to give (``remedy``)."""
        n = self.stop - self.start - self.head
        if (n + self.step - 1) // self.step + 1 > MAX_CHUNKS:
            raise ValueError(f"{self.stop - self.start} {what} make over {MAX_CHUNKS} chunks: give {remedy}")
        whole, rest = divmod(n, self.step)
        return (self.head,) * (self.head > 0) + (self.step,) * whole + (rest,) * (rest > 0)

    def offset(self, i: int) -> int:
        return (i > 0) * self.head + max(0, i - (self.head > 0)) * self.step

    def bounds(self, i: int) -> tuple[int, int]:
        """The first and the last but one of chunk ``i``."""
        return self.start + self.offset(i), min(self.stop, self.start + self.offset(i + 1))


def local_path(path: str | os.PathLike[str]) -> str | None:
    """The folder ``path`` names on this machine (a ``file://`` URL too), or
    ``None`` for a URL of another file system."""
    text = os.fspath(path)
    for scheme in ("file://", "local://"):  # local://: fsspec's name for this machine's files too
        if text.startswith(scheme):
            return text[len(scheme) :]
    return None if "://" in text else text


STORE_FILES = ("zarr.json", ".zarray", ".zgroup")  # a folder holding one is a Zarr array or group


def is_store_folder(path: str) -> bool:
    """Whether the folder ``path`` holds a Zarr array or group (v3 or v2)."""
    return any(os.path.isfile(os.path.join(path, name)) for name in STORE_FILES)


def check_remote(url: str, overwrite: bool) -> None:
    """What is at ``url`` before a store is written there: nothing, unless
    ``overwrite`` (a ``FileExistsError``, as for a local path); and with
    ``overwrite``, a store, never a prefix of other objects (zarr would
    delete every object under it)."""
    fsspec = require("fsspec")

    fs, root = fsspec.core.url_to_fs(url)
    root = root.rstrip("/")
    if not fs.exists(root):
        return
    if not overwrite:
        raise FileExistsError(f"{url!r} exists (overwrite=True replaces it)")
    if not any(fs.exists(f"{root}/{name}") for name in STORE_FILES):
        raise ValueError(
            f"path: {url!r} holds objects but no Zarr store: overwrite=True replaces only a store"
        )


def write_local(target: str, write: Any, overwrite: bool) -> None:
    """``write`` a store into a folder beside ``target``, then rename it there.
    ``overwrite`` replaces a file, a symlink or a Zarr store, never another
    folder (``""`` or ``"."`` would have been the working directory)."""
    if os.path.lexists(target) and not overwrite:
        raise FileExistsError(f"{target!r} exists (overwrite=True replaces it)")
    if os.path.isdir(target) and not os.path.islink(target) and not is_store_folder(target):
        raise ValueError(
            f"path: {target!r} is a folder that holds no Zarr store: overwrite=True replaces only a store"
        )
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
        remove(old)


def remove(path: str) -> None:
    """Remove what ``write_zarr`` set aside at ``path``, whatever it is: a
    store's folder, a file or a symlink (not followed), or nothing."""
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def write_store(
    path: str | os.PathLike[str],
    array: Any,
    chunks: tuple[int, int],
    attributes: dict[str, Any],
    overwrite: bool,
) -> None:
    """Store the Dask ``array`` (uint8) in a Zarr array of ``chunks`` at
    ``path`` with ``attributes``, through the scheduler in use; a local
    ``path`` is written beside it and renamed into place when whole.

    The attributes are written after the chunks: Dask walks the target of a
    store (a Zarr array is a dataclass) into its metadata, and a schedule of
    a megabyte there cost seconds before the first chunk."""
    zarr = require("zarr")

    def write(target: str) -> None:
        store = zarr.create_array(
            store=target, shape=array.shape, chunks=chunks, dtype="uint8", overwrite=overwrite
        )
        array.store(store, lock=False)
        store.update_attributes(attributes)

    local = local_path(path)
    if not local and local is not None:
        raise ValueError("path must name a store, got an empty path")
    if local is None:
        check_remote(os.fspath(path), overwrite)
        write(os.fspath(path))
        return
    write_local(os.path.abspath(local), write, overwrite)


def open_store(path: str | os.PathLike[str], fmt: str, what: str) -> tuple[dict[str, Any], tuple[int, ...]]:
    """The attributes and shape of the Zarr array at ``path``, which must
    be of format ``fmt`` (else a ``ValueError``: not a store of ``what``)."""
    zarr = require("zarr")
    local = store_attributes(path)  # a folder's zarr.json, read as the package reads JSON
    try:
        array = zarr.open_array(os.fspath(path), mode="r")
        attrs = dict(array.attrs) if local is None else local
    except RecursionError:  # zarr's own reading of a store that is not a folder
        raise ValueError(f"{os.fspath(path)!r}: its metadata nest too deeply") from None
    if attrs.get("format") != fmt:
        raise ValueError(f"{os.fspath(path)!r} is not a store of {what} (no format {fmt!r})")
    return attrs, tuple(array.shape)


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
