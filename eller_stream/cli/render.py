"""``eller-stream render``: a maze as a PNG or SVG picture, or a Tiled map (.tmj, .tmx)."""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from .. import _validate as v
from .._generators import RENDER_KINDS, generator
from .._growing_tree import parse_strategy
from .._params import BandParams
from .._plane_params import PlaneParams
from .._schedule import Schedule
from .._stream_base import closed_rows
from ..analysis import suggest_endpoints
from ..banded import ROW_LIMIT, InfiniteMaze
from ..image import write_image, write_png
from ..plane import MAX_MADE, Plane
from ..stream import EllerStream
from ..tiled import check_span, write_tiled
from . import _options as opt
from . import _zarr
from ._common import PICTURE_EXIT_STATUSES, PROG, Parser, RowLimitError, UsageError, isatty, say
from .state import Stream

EXAMPLES = (
    """\
examples:
  eller-stream render -o maze.png --width 40 --rows 30
  eller-stream render -o maze.svg --width 40 --rows 30 --endpoints --solution
  eller-stream render -o tall.png --width 1000 --rows 10000 --cell 2 --wall 1     streamed, O(width) memory
  eller-stream render -o gt.png --algorithm growing-tree --strategy newest:90,random:10 --width 80 --rows 60
  eller-stream render -o level.tmj --band 16 --start 1000000 --rows 48   a Tiled map (.tmj JSON, .tmx XML)
  eller-stream render -o big.zarr --band 32 --rows 100000 --width 1000   the rows, through Dask ([dask] extra)
  eller-stream render -o plane.png --chunk 16 --start -500 --rows 200 --left 2000 --width 300
  eller-stream render -o plane.tmj --chunk 16 --no-perfect --start -64 --left -64 --rows 128 --width 128

Eller mazes are streamed into the PNG row by row unless --endpoints or
--solution is given (both need the finished maze); the other algorithms build
the whole grid.  --strategy applies to growing-tree only, --horizontal and
--vertical to eller only: other combinations are refused.  Without --seed the
seed is shown on a terminal; the picture always records the command's
parameters (a PNG tEXt chunk, SVG <metadata>).  Pictures larger than PNG's
2**31 - 1 pixels a side, or that would need more than 1 GiB of memory to
draw, are refused before anything is drawn.  A Tiled map (.tmj or .tmx) has
a tile layer of walls and floors and, with --endpoints, the start and end
as objects; with --band its rows keep their numbers from --start (the map
property first_row); --cell, --wall and --solution are refused (as for a .zarr
store).  --chunk draws the region of the plane (es.Plane) whose first row
is --start and first column --left, --rows by --width cells, its knobs
--perfect/--no-perfect, --horizontal, --vertical; a picture closes its
border, a Tiled map of it is infinite, its tiles at their absolute rows and
columns (cells in about [-2**30, 2**30) each way: Tiled's 32-bit tile
coordinates), open at the top and left where the plane goes on, so that the
maps of regions side by side join.  The plane's rows and columns are in
[-2**62, 2**62); --endpoints needs a region whose top and bottom rows
connect inside it (a block of level 1 always does, with --perfect).

"""
    + PICTURE_EXIT_STATUSES
)

MAX_PIXELS_SIDE = 2**31 - 1  # PNG's limit on either side
MAX_RENDER_BYTES = 1 << 30  # memory a render may plan to use
STRIP_CELLS = 1 << 22  # cells of the plane a streamed picture makes at a time


def parser() -> Parser:
    p = Parser(f"{PROG} render", "Draw a maze as a PNG or SVG picture, or write it as a Tiled map.", EXAMPLES)
    what = "the .png, .svg, .tmj or .tmx file to write (or a .zarr store of the rows)"
    p.add_argument("-o", "--output", required=True, help=what)
    opt.add_width(p, "cells per row (40)", default=40)
    p.add_argument("--rows", type=opt.rows_type, default=30, help="rows (30)")
    p.add_argument("--algorithm", choices=RENDER_KINDS, default="eller")
    p.add_argument("--strategy", help="Growing Tree strategy or mix (newest)")
    opt.add_seed(p)
    opt.add_probabilities(p, "Eller's horizontal probability (0.5)", "Eller's vertical probability (0.5)")
    # None when not given: a Tiled map or a .zarr store refuses them (they size a picture's pixels)
    p.add_argument("--cell", type=opt.option_int("cell", 1, 1000), help="cell size in pixels (8)")
    p.add_argument("--wall", type=opt.option_int("wall", 1, 1000), help="wall thickness in pixels (2)")
    p.add_argument("--endpoints", action="store_true", help="open the suggested start and end in the wall")
    p.add_argument("--solution", action="store_true", help="draw the path between them (implies --endpoints)")
    opt.add_banded(p, plane=True)
    opt.add_plane(p)
    return p


@dataclass(frozen=True)
class RenderPlan:
    """A picture to draw, every option checked."""

    output: str
    svg: bool
    tiled: bool  # a Tiled map (.tmj or .tmx)
    algorithm: str
    width: int
    rows: int
    seed: int
    horizontal: float
    vertical: float
    strategy: str
    cell: int
    wall: int
    endpoints: bool
    solution: bool
    band: int | None
    start: int
    params: BandParams  # the banded maze's (with --band)
    schedule: Schedule | None
    schedule_path: str | None
    chunk: int | None  # the plane's (with --chunk), its first column and knobs
    left: int
    plane_params: PlaneParams

    @property
    def plane(self) -> Plane | None:
        """The plane drawn (with --chunk)."""
        return None if self.chunk is None else Plane.from_params(self.chunk, self.seed, self.plane_params)

    @property
    def streamed(self) -> bool:
        """Drawn row by row as the rows come (a PNG of Eller's maze with no marks)."""
        marks = self.endpoints or self.solution
        return self.algorithm == "eller" and not self.svg and not self.tiled and not marks

    @property
    def strip(self) -> int:
        """Rows of the plane made at a time for a streamed picture: whole
        chunk rows, about ``STRIP_CELLS`` cells."""
        c = self.chunk or 1
        return min(self.rows, c * max(1, STRIP_CELLS // (c * self.width)))

    def description(self) -> str:
        """The command's parameters, stored in the picture: they draw it again."""
        params = [f"--algorithm {self.algorithm}", f"--width {self.width}", f"--rows {self.rows}"]
        params.append(f"--seed {self.seed}")
        if self.algorithm == "eller":
            params += [f"--horizontal {self.horizontal!r}", f"--vertical {self.vertical!r}"]
        if self.chunk is not None:
            params += [f"--chunk {self.chunk}", f"--start {self.start}", f"--left {self.left}"]
            params += opt.plane_options(self.plane_params)
        if self.band is not None:
            params += [f"--band {self.band}", f"--start {self.start}", *opt.band_options(self.params)]
            if self.schedule_path is not None:
                # as its escape, a character no map or SVG can hold (a control, a non-UTF-8 byte)
                shown = v.NOT_XML.sub(lambda m: ascii(m.group())[1:-1], self.schedule_path)
                params.append(f"--schedule {shown}")
        if self.algorithm == "growing-tree":
            params.append(f"--strategy {self.strategy}")
        if not self.tiled:  # a map has no pixels
            params += [f"--cell {self.cell}", f"--wall {self.wall}"]
        params += [
            flag for flag, on in (("--endpoints", self.endpoints), ("--solution", self.solution)) if on
        ]
        return f"{PROG} render " + " ".join(params)


def _check_output(output: str) -> str:
    """The output's extension (.png, .svg, .tmj, .tmx), after checking it can be written."""
    ext = os.path.splitext(output)[1].lower()
    if ext not in (".png", ".svg", ".tmj", ".tmx"):
        raise UsageError(f"--output must end in .png, .svg, .tmj, .tmx or .zarr, got {output!r}")
    folder = os.path.dirname(os.path.abspath(output))
    if os.path.isdir(output):
        raise UsageError(f"--output: {output!r} is a folder")
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise UsageError(f"--output: cannot write a file at {output!r}")
    return ext


def _check_algorithm(args: argparse.Namespace) -> None:
    """Options of another algorithm are refused."""
    if args.strategy is not None and args.algorithm != "growing-tree":
        raise UsageError("--strategy applies to --algorithm growing-tree only")
    for option, given in (("--horizontal", args.horizontal), ("--vertical", args.vertical)):
        if given is not None and args.algorithm != "eller":
            raise UsageError(f"{option} applies to --algorithm eller only")
    if args.algorithm == "growing-tree" and args.strategy is not None:
        try:
            parse_strategy(args.strategy)
        except (TypeError, ValueError) as exc:
            raise UsageError(f"--strategy: {exc}") from None
    if args.algorithm != "eller" and args.width * args.rows >= 2**31:
        raise UsageError("--width * --rows must be below 2**31 for this algorithm")
    opt.check_banded(args)
    opt.check_plane(args)
    for option, given in (("--band", args.band), ("--chunk", args.chunk)):
        if given is not None and args.algorithm != "eller":
            what = "the banded maze" if option == "--band" else "the plane"
            raise UsageError(f"{option} draws {what}: it takes no --algorithm but eller")


def render_bytes(p: RenderPlan) -> int:
    """About the most memory a render holds at once, in bytes: a few
    arrays of one row of pixels (one of 8-byte pixel columns), and the
    whole grid (with the SVG text, tens of bytes a cell) unless streamed."""
    px_w = p.width * p.cell + (p.width + 1) * p.wall
    total = 8 * p.width * p.cell + 4 * px_w
    if not p.streamed:
        total += p.width * p.rows * (64 if p.svg else 240 if p.tiled else 2)
    elif p.chunk is not None:
        total += p.strip * p.width  # a strip of the plane's rows
    return total


def _check_rows(p: RenderPlan) -> None:
    """The banded maze's rows end at 2**63 - 1: the picture's rows (but the
    closing one) must be there."""
    if p.band is not None and p.start + p.rows - 1 > ROW_LIMIT:
        raise RowLimitError(
            f"the banded maze has no rows past 2**63 - 1 ({ROW_LIMIT - 1}): from --start {p.start} "
            f"a picture has at most {ROW_LIMIT - p.start + 1} rows (the closing row included)"
        )


def _check_region(p: RenderPlan) -> None:
    """The plane's region makes at most MAX_MADE cells a call, and a Tiled
    map of it fits Tiled's coordinates."""
    plane = p.plane
    if plane is None:
        return
    # a streamed picture's strips: the first, the second and the third are the largest (the
    # others are as the second, or the last, which is shorter)
    strips = itertools.islice(_strips(p), 3) if p.streamed else [(p.start, p.start + p.rows)]
    made = max(plane.cells_made(y, end, p.left, p.left + p.width) for y, end in strips)
    if made > MAX_MADE:
        raise UsageError(
            f"the region makes {made} cells of the plane at a time (its chunks whole), more than "
            f"{MAX_MADE}: use a smaller --width or --rows"
        )
    if p.tiled:
        try:
            check_span(p.start, p.rows, p.left, p.width, names=("--start", "--left"))
        except ValueError as exc:
            raise UsageError(str(exc)) from None


def _check_size(p: RenderPlan) -> None:
    px_w = p.width * p.cell + (p.width + 1) * p.wall
    px_h = p.rows * p.cell + (p.rows + 1) * p.wall
    if p.tiled and p.solution:
        raise UsageError("--solution draws on a picture (.png or .svg); a Tiled map takes --endpoints")
    if not p.svg and not p.tiled and max(px_w, px_h) > MAX_PIXELS_SIDE:
        raise UsageError(
            f"the picture would be {px_w} x {px_h} pixels; a PNG side is at most {MAX_PIXELS_SIDE}"
        )
    need = render_bytes(p)
    if need > MAX_RENDER_BYTES:
        raise UsageError(
            f"drawing a {px_w} x {px_h} pixel picture needs about {need / 2**30:.1f} GiB of memory "
            f"(at most {MAX_RENDER_BYTES // 2**30} GiB); use a smaller --width, --cell or --wall"
        )


def plan(args: argparse.Namespace) -> RenderPlan:
    """Check every option before anything is drawn."""
    ext = _check_output(args.output)
    _check_algorithm(args)
    if ext in (".tmj", ".tmx"):
        opt.check_no_pixels(args, "a Tiled map has a tile a cell or wall")
    p = RenderPlan(
        output=args.output,
        svg=ext == ".svg",
        tiled=ext in (".tmj", ".tmx"),
        algorithm=args.algorithm,
        width=args.width,
        rows=args.rows,
        seed=v.check_seed(args.seed),
        horizontal=0.5 if args.horizontal is None else args.horizontal,
        vertical=0.5 if args.vertical is None else args.vertical,
        strategy="newest" if args.strategy is None else args.strategy,
        cell=8 if args.cell is None else args.cell,
        wall=2 if args.wall is None else args.wall,
        endpoints=args.endpoints,
        solution=args.solution,
        band=args.band,
        start=0 if args.start is None else args.start,
        params=opt.band_params(args),
        schedule=opt.schedule_of(args),
        schedule_path=None if args.schedule is None else args.schedule.path,
        chunk=args.chunk,
        left=0 if args.left is None else args.left,
        plane_params=opt.plane_params(args),
    )
    if p.chunk is not None:
        opt.plane_region(args)  # in the plane's [-2**62, 2**62) both ways
    _check_rows(p)
    _check_size(p)
    _check_region(p)
    return p


class Progress:
    """A progress bar on stderr, drawn at most ten times a second."""

    def __init__(self) -> None:
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done != total and now - self.last < 0.1:
            return
        self.last = now
        filled = 30 * done // total
        sys.stderr.write(f"\rrendering [{'#' * filled}{' ' * (30 - filled)}] {100 * done // total:3d}%")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _stream(p: RenderPlan) -> Stream:
    if p.band is None:
        return EllerStream(p.width, p.seed, p.horizontal, p.vertical)
    return InfiniteMaze.from_params(p.width, p.band, p.seed, p.params, p.schedule).stream(p.start)


def _rows(p: RenderPlan) -> Iterator[np.ndarray]:
    """The maze's rows, the last one the closing row (the plane's: its
    region, a strip of rows at a time)."""
    plane = p.plane
    if plane is not None:
        for y, end in _strips(p):
            yield from plane.region(y, end, p.left, p.left + p.width)
        return
    stream = _stream(p)
    for _ in range(p.rows - 1):
        yield next(stream)
    yield stream.finish()


def _strips(p: RenderPlan) -> Iterator[tuple[int, int]]:
    """The rows ``[y, end)`` of the plane's region made at a time, top to
    bottom: strips that end on the plane's chunk rows (at least the one y is
    in: fewer rows than a chunk make a strip shorter than the chunk, wherever
    in it y lies)."""
    chunk = p.chunk or 1
    y, stop = p.start, p.start + p.rows
    while y < stop:
        end = min(stop, y - y % chunk + max(p.strip, chunk))
        yield y, end
        y = end


def _grid(p: RenderPlan) -> np.ndarray:
    plane = p.plane
    if plane is not None:
        return plane.region(p.start, p.start + p.rows, p.left, p.left + p.width)
    if p.band is not None:
        return closed_rows(_stream(p), p.rows)
    name = {
        "eller": f"eller:h={p.horizontal!r},v={p.vertical!r}",
        "growing-tree": f"growing-tree:{p.strategy}",
    }
    return generator(name.get(p.algorithm, p.algorithm))(p.width, p.rows, p.seed)


def draw(p: RenderPlan) -> None:
    progress = Progress() if isatty(sys.stderr) else None
    if p.tiled:
        grid = _grid(p)
        _check_connected(p, grid)
        plane = p.chunk is not None  # a plane's map: infinite, at absolute tiles, open where it goes on
        write_tiled(
            p.output,
            grid,
            endpoints=p.endpoints,
            top=not plane,
            left=not plane,
            infinite=plane,
            first_row=p.start if p.band is not None or plane else 0,
            first_column=p.left if plane else None,
            description=p.description(),
        )
        return
    if p.streamed:
        write_png(
            p.output,
            _rows(p),
            width=p.width,
            height=p.rows,
            cell=p.cell,
            wall=p.wall,
            progress=progress,
            description=p.description(),
        )
        return
    grid = _grid(p)
    _check_connected(p, grid)
    write_image(
        p.output,
        grid,
        cell=p.cell,
        wall=p.wall,
        endpoints=p.endpoints,
        solution=p.solution,
        description=p.description(),
    )


def _check_connected(p: RenderPlan, grid: np.ndarray) -> None:
    """The endpoints of a plane region need its top and bottom rows joined
    inside it (a region of the plane may be cut in parts)."""
    if p.chunk is None or not (p.endpoints or p.solution):
        return
    try:
        suggest_endpoints(grid)
    except ValueError:
        flag = "--solution" if p.solution else "--endpoints"
        raise UsageError(
            f"{flag}: this region of the plane does not join its top row to its bottom row inside "
            "it; a block of level 1 of a --perfect plane always does (es.Plane.block)"
        ) from None


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(list(argv))
    if _zarr.wanted(args):  # -o PATH.zarr: the banded maze's rows, not a picture
        _check_algorithm(args)
        return _zarr.write(args)
    p = plan(args)
    if args.seed is None and isatty(sys.stderr):
        say(f"seed {p.seed}")
    draw(p)
    return 0
