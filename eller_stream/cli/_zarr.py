"""``eller-stream render -o PATH.zarr``: the banded maze's rows in a Zarr
store, written through Dask (the ``[dask]`` extra), chunks of whole bands,
every core; the store's attributes name the maze (``es.read_zarr_maze``).
With ``--chunk``, a region of the plane in 2-D chunks (``es.read_zarr_plane``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable

from .. import _validate as v
from .. import scale
from .._plane_scale import plane_chunks
from .._validate import MAX_CHUNKS
from ..banded import ROW_LIMIT, InfiniteMaze
from ..plane import Plane
from . import _options as opt
from ._common import OutputError, RowLimitError, UsageError, isatty, os_message, say

__all__ = ["wanted", "write"]


def wanted(args: argparse.Namespace) -> bool:
    """Whether ``--output`` names a Zarr store."""
    return os.path.splitext(str(args.output).rstrip("/\\"))[1].lower() == ".zarr"


def _is_maze_store(path: str) -> bool:
    """A folder that ``write_zarr`` wrote (so it may be replaced)."""
    try:
        attrs = scale.store_attributes(path)
    except (OSError, ValueError):
        return False
    return attrs is not None and attrs.get("format") in (scale.FORMAT, scale.PLANE_FORMAT)


def _check(args: argparse.Namespace) -> tuple[str, InfiniteMaze | Plane, int, int]:
    path = os.path.abspath(str(args.output).rstrip("/\\"))
    if args.band is None and args.chunk is None:
        raise UsageError(
            "--output .zarr writes the banded maze's rows or a plane's region: it needs --band or --chunk"
        )
    for flag, on in (("--endpoints", args.endpoints), ("--solution", args.solution)):
        if on:
            raise UsageError(f"{flag} draws on a picture: a .zarr output holds the rows only")
    opt.check_no_pixels(args, "a .zarr output holds the rows only")
    if os.path.lexists(path) and not _is_maze_store(path):
        raise UsageError(f"--output: {args.output!r} exists and is not a store of maze rows")
    folder = os.path.dirname(path)
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise UsageError(f"--output: cannot write a store at {args.output!r}")
    for module in ("dask.array", "zarr"):
        try:
            scale.require(module)
        except ModuleNotFoundError as exc:
            raise UsageError(str(exc)) from None
    start = 0 if args.start is None else args.start
    if args.chunk is not None:
        y0, y1, x0, x1 = opt.plane_region(args)
        plane = Plane.from_params(args.chunk, v.check_seed(args.seed), opt.plane_params(args))
        _check_chunks(lambda: plane_chunks(plane, y0, y1, x0, x1))
        return path, plane, y0, y1
    if start + args.rows > ROW_LIMIT:
        raise RowLimitError(
            f"the banded maze has no rows past 2**63 - 1 ({ROW_LIMIT - 1}): from --start {start} "
            f"a store has at most {ROW_LIMIT - start} rows"
        )
    maze = InfiniteMaze.from_params(
        args.width, args.band, v.check_seed(args.seed), opt.band_params(args), opt.schedule_of(args)
    )
    _check_chunks(lambda: scale.band_chunks(maze, start, start + args.rows))
    return path, maze, start, start + args.rows


def _check_chunks(chunks: Callable[[], object]) -> None:
    """The store's chunks can be counted (the Dask graph is not too big)."""
    try:
        chunks()
    except ValueError:
        raise UsageError(
            f"--rows, --width: the store would have over {MAX_CHUNKS} chunks, more than a Dask graph "
            "should hold: write it in parts (--start)"
        ) from None


def write(args: argparse.Namespace) -> int:
    """Write the store (the rows ``--start`` to ``--start + --rows - 1``, no
    closing row; of the plane, the columns ``--left`` on too): every option
    checked first."""
    path, maze, start, stop = _check(args)
    if args.seed is None and isatty(sys.stderr):
        say(f"seed {maze.seed}")
    progress: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
    if isatty(sys.stderr):
        progress = scale.require("dask.diagnostics").ProgressBar(out=sys.stderr)
    try:
        with progress:
            if isinstance(maze, Plane):
                _, _, x0, x1 = opt.plane_region(args)
                scale.write_zarr(path, maze, start, stop, x0, x1, overwrite=True)
            else:
                scale.write_zarr(path, maze, start, stop, overwrite=True)
    except OSError as exc:  # a full disk: the store's, not standard output (its files carry no name)
        raise OutputError(f"cannot write the store {str(args.output)!r}: {os_message(exc)}") from None
    return 0
