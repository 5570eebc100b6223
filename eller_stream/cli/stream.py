"""The bare command: an endless maze on standard output."""

from __future__ import annotations

import argparse
import errno
import os
import shutil
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import FrameType
from typing import BinaryIO

import numpy as np

from ..banded import BandedStream, InfiniteMaze
from ..render import CELL_COLUMNS, STYLES, TextRenderer
from ..stream import EllerStream
from . import _options as opt
from ._common import (
    EXIT_STATUSES,
    PROG,
    STOP_SIGNALS,
    ExitStatus,
    OutputError,
    Parser,
    UsageError,
    isatty,
    os_message,
    require_stdout,
    say,
    silence,
)
from .state import Stream, encode_state, read_state_file, save_state, state_target

EXAMPLES = (
    """\
examples:
  eller-stream                             an endless maze as wide as the terminal (Ctrl-C ends it)
  eller-stream --rows 20 --seed 7          a complete 20-row maze, the same every time
  eller-stream --style unicode --width 30 --rows 10
  eller-stream --style raw --width 1000 | my-program      1000 flag bytes per row (EAST=1, SOUTH=2)
  eller-stream --rows 50 --seed 1 --save-state s.bin      stop without the closing row, save the state
  eller-stream --resume s.bin --rows 50                   continue exactly where it stopped
  eller-stream --band 16 --start -1000                    the banded maze from row -1000 (any row, at once)

Without --rows the maze never ends; Ctrl-C writes the closing row so that
what is on screen is a complete maze (with --save-state it saves instead).

--band K streams es.InfiniteMaze: every cell reaches the next row within
K - 1 rows above it, and any row can be the first (--start, negative too).
From a band's first row (a multiple of K) the rows and the closing row form
a perfect maze.

other commands:
  eller-stream render --help               draw a maze as a PNG or SVG picture
  eller-stream compare --help              compare Eller, Growing Tree and the backtracker

"""
    + EXIT_STATUSES
)


def parser() -> Parser:
    p = Parser(PROG, "Stream an endless perfect maze (Eller's algorithm), one row at a time.", EXAMPLES)
    opt.add_width(p, "cells per row (default: fit the terminal; 80 columns when piped)")
    p.add_argument(
        "--rows", type=opt.rows_type, help="rows in all, the last one the closing row (default: endless)"
    )
    opt.add_seed(p)
    opt.add_probabilities(
        p,
        "probability of joining side-by-side sets, in [0, 1] (0.5)",
        "probability of an extra downward opening, in [0, 1] (0.5)",
    )
    p.add_argument(
        "--style",
        choices=STYLES,
        help="ascii, unicode (box drawing), blocks (one character per tile) or raw "
        "(width flag bytes per row); default: unicode on a UTF-8 terminal, ascii otherwise",
    )
    p.add_argument(
        "--rate",
        type=opt.rate_type,
        help="rows per second, 0 = as fast as possible (default: 10 on a terminal, 0 when piped)",
    )
    p.add_argument("--save-state", metavar="FILE", help="stop without the closing row and save the state")
    p.add_argument("--resume", metavar="FILE", help="continue a stream saved with --save-state")
    opt.add_banded(p)
    return p


@dataclass(frozen=True)
class StreamPlan:
    """Everything the stream needs, validated before anything is written."""

    stream: Stream
    previous: np.ndarray | None  # the row before the first one (a resumed stream's last row)
    resumed: bool
    style: str
    rows: int | None  # rows in all (with the closing row); None: endless
    rate: float  # rows per second; 0: as fast as possible
    tty: bool
    save_path: str | None


def _default_style(tty: bool) -> str:
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return "unicode" if tty and encoding == "utf8" else "ascii"


def _resumed(args: argparse.Namespace) -> tuple[Stream, np.ndarray | None]:
    """The stream --resume continues; options given must agree with it."""
    stream, previous = read_state_file(args.resume)
    if args.start is not None:
        raise UsageError("--start cannot be given with --resume (the state says where the stream is)")
    saved_band, saved_doors = (
        (stream.band, stream.doors) if isinstance(stream, BandedStream) else (None, None)
    )
    for option, given, saved in (
        ("--width", args.width, stream.width),
        ("--seed", args.seed, stream.seed),
        ("--horizontal", args.horizontal, stream.horizontal),
        ("--vertical", args.vertical, stream.vertical),
        ("--band", args.band, saved_band),
        ("--doors", args.doors, saved_doors),
    ):
        if given is not None and given != saved:
            raise UsageError(f"{option} {given} disagrees with the resumed state ({saved})")
    return stream, previous


def _new_stream(args: argparse.Namespace, style: str, tty: bool) -> Stream:
    opt.check_banded(args)
    width = args.width
    if width is None:
        columns = shutil.get_terminal_size((80, 24)).columns if tty else 80
        width = max(1, (columns - 1) // CELL_COLUMNS[style]) if style != "raw" else columns
    h = 0.5 if args.horizontal is None else args.horizontal
    vert = 0.5 if args.vertical is None else args.vertical
    if args.band is None:
        return EllerStream(width, args.seed, h, vert)
    maze = InfiniteMaze(width, args.band, args.seed, h, vert, args.doors)
    return maze.stream(0 if args.start is None else args.start)


def plan(args: argparse.Namespace, tty: bool) -> StreamPlan:
    """Validate every argument and input file before anything is written."""
    style = args.style or _default_style(tty)
    rate = (10.0 if tty else 0.0) if args.rate is None else args.rate
    if args.save_state is not None:
        state_target(args.save_state)
    if args.resume is not None:
        stream, previous = _resumed(args)
    else:
        stream, previous = _new_stream(args, style, tty), None
    return StreamPlan(stream, previous, args.resume is not None, style, args.rows, rate, tty, args.save_state)


class Interrupt:
    """SIGINT, SIGTERM and SIGHUP set a flag that the loop reads between
    rows, so that no row is ever half written."""

    def __init__(self) -> None:
        self.hit = False
        self.signum: int = signal.SIGINT

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if not self.hit:
            self.signum = signum
        self.hit = True


def write_out(out: BinaryIO, data: bytes) -> None:
    """Write all of ``data``: an unbuffered stdout (``python -u``,
    PYTHONUNBUFFERED) may take part of it (a full disk, a signal during a
    write to a pipe) and say so only by the count it returns."""
    view = memoryview(data)
    while view:
        n = out.write(view)
        if n is None:  # a non-blocking descriptor that is full
            raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN))
        view = view[n:]


def _save_or_fail(path: str, data: bytes) -> None:
    try:
        save_state(path, data)
    except OSError as exc:
        raise OutputError(f"--save-state: cannot save the state: {os_message(exc)}") from None


def run_stream(p: StreamPlan, out: BinaryIO, interrupt: Interrupt) -> int:
    stream, rows, rate, save_path = p.stream, p.rows, p.rate, p.save_path
    width = stream.width
    renderer = TextRenderer(width, p.style, previous=p.previous, resumed=p.resumed)
    last_row = p.previous
    # rows to stream before the end: all of them when saving, else all but the closing row
    target = None if rows is None else (rows if save_path else rows - 1)
    chunk = 1 if rate > 0 else max(1, min(4096, (1 << 16) // width))
    buf = np.empty((chunk, width), np.uint8)
    saved_before_block = encode_state(stream.checkpoint(), last_row) if save_path else b""
    done = 0
    started = time.monotonic()
    try:
        write_out(out, renderer.start())
        while not interrupt.hit and (target is None or done < target):
            n = chunk if target is None else min(chunk, target - done)
            block = stream.take(n, out=buf[:n])
            write_out(out, renderer.rows(block))
            out.flush()
            done += n
            if save_path:
                last_row = block[-1].copy()
                saved_before_block = encode_state(stream.checkpoint(), last_row)
            if rate > 0:
                due = started + done / rate
                while not interrupt.hit and (wait := due - time.monotonic()) > 0:
                    time.sleep(min(wait, 0.05))
        if save_path:
            try:
                save_state(save_path, saved_before_block)
            except OSError as exc:
                # No state: close the maze instead, so that what was written is complete.
                write_out(out, renderer.close(stream.finish()))
                out.flush()
                raise OutputError(f"--save-state: cannot save the state: {os_message(exc)}") from None
        else:
            # On a terminal, "\r" puts the closing row over the "^C" it echoed.
            erase = b"\r" if interrupt.hit and p.tty and p.style != "raw" else b""
            write_out(out, erase + renderer.close(stream.finish()))
        out.flush()
    except BrokenPipeError:
        # The reader went away: stop quietly.
        silence(out)
        if save_path:
            _save_or_fail(save_path, saved_before_block)
        return ExitStatus.BROKEN_PIPE
    except OSError as exc:
        # Standard output failed (full disk, read-only descriptor): the rows
        # written so far stay; save the state before the failed block.
        silence(out)
        if save_path:
            _save_or_fail(save_path, saved_before_block)
        raise OutputError(f"cannot write to standard output: {os_message(exc)}") from None
    return ExitStatus.signalled(interrupt.signum) if interrupt.hit else ExitStatus.OK


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(list(argv))
    stdout = require_stdout()
    tty = isatty(stdout)
    p = plan(args, tty)
    if args.seed is None and args.resume is None and tty and isatty(sys.stderr):
        say(f"seed {p.stream.seed}")
    interrupt = Interrupt()
    previous = {signum: signal.signal(signum, interrupt) for signum in STOP_SIGNALS}
    try:
        return run_stream(p, stdout.buffer, interrupt)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
