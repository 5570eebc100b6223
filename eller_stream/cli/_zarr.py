"""``eller-stream render -o PATH.zarr``: the banded maze's rows in a Zarr
store, written through Dask (the ``[dask]`` extra), chunks of whole bands,
every core; the store's attributes name the maze (``es.read_zarr_maze``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from .. import _validate as v
from .. import scale
from ..banded import ROW_LIMIT, InfiniteMaze
from . import _options as opt
from ._common import RowLimitError, UsageError, isatty, say

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
    return attrs is not None and attrs.get("format") == scale.FORMAT


def _check(args: argparse.Namespace) -> tuple[str, InfiniteMaze, int, int]:
    path = os.path.abspath(str(args.output).rstrip("/\\"))
    if args.band is None:
        raise UsageError("--output .zarr writes the banded maze's rows: it needs --band")
    for flag, on in (("--endpoints", args.endpoints), ("--solution", args.solution)):
        if on:
            raise UsageError(f"{flag} draws on a picture: a .zarr output holds the rows only")
    if os.path.lexists(path) and not _is_maze_store(path):
        raise UsageError(f"--output: {args.output!r} exists and is not a store of maze rows")
    folder = os.path.dirname(path)
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise UsageError(f"--output: cannot write a store at {args.output!r}")
    start = 0 if args.start is None else args.start
    if start + args.rows > ROW_LIMIT:
        raise RowLimitError(
            f"the banded maze has no rows past 2**63 - 1 ({ROW_LIMIT - 1}): from --start {start} "
            f"a store has at most {ROW_LIMIT - start} rows"
        )
    for module in ("dask.array", "zarr"):
        try:
            scale.require(module)
        except ModuleNotFoundError as exc:
            raise UsageError(str(exc)) from None
    maze = InfiniteMaze.from_params(
        args.width, args.band, v.check_seed(args.seed), opt.band_params(args), opt.schedule_of(args)
    )
    return path, maze, start, start + args.rows


def write(args: argparse.Namespace) -> int:
    """Write the store (the rows ``--start`` to ``--start + --rows - 1``, no
    closing row): every option checked first."""
    path, maze, start, stop = _check(args)
    if args.seed is None and isatty(sys.stderr):
        say(f"seed {maze.seed}")
    progress: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
    if isatty(sys.stderr):
        progress = scale.require("dask.diagnostics").ProgressBar(out=sys.stderr)
    with progress:
        scale.write_zarr(path, maze, start, stop, overwrite=True)
    return 0
