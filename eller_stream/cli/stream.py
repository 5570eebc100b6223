"""The bare command: an endless maze on standard output."""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import FrameType
from typing import BinaryIO

import numpy as np

from ..banded import ROW_LIMIT, BandedStream, InfiniteMaze
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
    RowLimitError,
    UsageError,
    isatty,
    os_message,
    require_stdout,
    say,
    silence,
)
from ._output import RowOutput, row_ends
from .state import Stream, decode_state, encode_state, read_state_file, save_state, state_target

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
  eller-stream serve --help                serve rows over HTTP, with a viewer in the browser

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
    saved: dict[str, object] = {
        "width": stream.width,
        "seed": stream.seed,
        "horizontal": stream.horizontal,
        "vertical": stream.vertical,
        "band": None,
        **dict.fromkeys(opt.BANDED_ONLY),
        "schedule": None,
    }
    if isinstance(stream, BandedStream):
        saved["band"] = stream.band
        saved.update({name: getattr(stream.params, name) for name in opt.BANDED_ONLY})
        saved["schedule"] = stream.maze.schedule
    for name, value in saved.items():
        option, given = f"--{name}", opt.schedule_of(args) if name == "schedule" else getattr(args, name)
        if given is not None and given != value:
            raise UsageError(f"{option} {given} disagrees with the resumed state ({value})")
    return stream, previous


def _new_stream(args: argparse.Namespace, style: str, tty: bool) -> Stream:
    opt.check_banded(args)
    width = args.width
    if width is None:
        columns = shutil.get_terminal_size((80, 24)).columns if tty else 80
        width = max(1, (columns - 1) // CELL_COLUMNS[style]) if style != "raw" else columns
    try:
        if args.band is None:
            h = 0.5 if args.horizontal is None else args.horizontal
            vert = 0.5 if args.vertical is None else args.vertical
            return EllerStream(width, args.seed, h, vert)
        params, schedule = opt.band_params(args), opt.schedule_of(args)
        maze = InfiniteMaze.from_params(width, args.band, args.seed, params, schedule)
    except ValueError as exc:  # the options are checked: what is left is a width too large for the memory
        raise UsageError(f"--width {width}: {exc}") from None
    return maze.stream(0 if args.start is None else args.start)


def plan(args: argparse.Namespace, tty: bool) -> StreamPlan:
    """Validate every argument and input file before anything is written."""
    style = args.style or _default_style(tty)
    rate = (10.0 if tty else 0.0) if args.rate is None else args.rate
    if args.save_state is not None:
        state_target(args.save_state)
    try:
        if args.resume is not None:
            stream, previous = _resumed(args)
        else:
            stream, previous = _new_stream(args, style, tty), None
        # one row's text, drawn now: a width too large for memory fails here, before any output
        TextRenderer(stream.width, style).rows(np.zeros((1, stream.width), np.uint8))
    except MemoryError:
        width = args.width if args.resume is None else "of the resumed state"
        raise UsageError(f"--width {width}: not enough memory for a maze this wide") from None
    return StreamPlan(stream, previous, args.resume is not None, style, args.rows, rate, tty, args.save_state)


GRACE = 1.0  # seconds a blocked standard output has, after a stop signal, to take what is being written


class StdoutBlocked(Exception):
    """Standard output took nothing for :data:`GRACE` seconds after a stop signal."""


class Interrupt:
    """SIGINT, SIGTERM and SIGHUP set a flag that the loop reads between
    rows, so that no row is ever half written.  A reader that stops reading
    would hold the stream in a write (its rows, or the closing row) for
    ever: the first signal arms a timer, and a write still going on
    :data:`GRACE` seconds later is given up (:class:`StdoutBlocked`)."""

    def __init__(self) -> None:
        self.hit = False
        self.signum: int = signal.SIGINT
        self.writing = False  # inside a write to standard output

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if not self.hit:
            self.signum = signum
            if hasattr(signal, "setitimer"):
                signal.setitimer(signal.ITIMER_REAL, GRACE)
        self.hit = True

    def alarm(self, signum: int, frame: FrameType | None) -> None:
        """SIGALRM, :data:`GRACE` seconds after the stop signal: a write
        still blocked ends; outside a write, look again in a moment."""
        if self.writing:
            raise StdoutBlocked
        signal.setitimer(signal.ITIMER_REAL, 0.05)


def _save_or_fail(path: str, data: bytes) -> None:
    try:
        save_state(path, data)
    except OSError as exc:
        raise OutputError(f"--save-state: cannot save the state: {os_message(exc)}") from None


def rows_left(stream: Stream, saving: bool) -> int | None:
    """Rows the stream can still hand out (None: no end).  The banded maze's
    rows end at 2**63 - 1; a saved state must name a row that exists, so a
    stream that saves stops one row earlier."""
    if not isinstance(stream, BandedStream):
        return None
    return ROW_LIMIT - stream.row - (1 if saving else 0)


class _Streamer:
    """One run of the stream: rows in blocks to standard output, then the
    closing row or the saved state."""

    def __init__(self, p: StreamPlan, out: BinaryIO, interrupt: Interrupt) -> None:
        self.p, self.stream, self.interrupt = p, p.stream, interrupt
        self.out = RowOutput(out, interrupt)
        self.renderer = TextRenderer(p.stream.width, p.style, previous=p.previous, resumed=p.resumed)
        self.last_row = p.previous
        self.saved = encode_state(self.stream.checkpoint(), self.last_row) if p.save_path else b""
        # rows to stream before the end: all of them when saving, else all but the closing row
        self.target = None if p.rows is None else (p.rows if p.save_path else p.rows - 1)
        left = rows_left(self.stream, p.save_path is not None)
        self.limited = left is not None and (self.target is None or self.target > left)
        if self.limited:
            self.target = left
        width = self.stream.width
        self.chunk = 1 if p.rate > 0 else max(1, min(4096, (1 << 16) // width))
        if self.target is not None:
            self.chunk = max(1, min(self.chunk, self.target))
        self.buf = np.empty((self.chunk, width), np.uint8)

    def rows(self) -> None:
        """Stream rows until the target, or a signal."""
        done = 0
        started = time.monotonic()
        while not self.interrupt.hit and (self.target is None or done < self.target):
            n = self.chunk if self.target is None else min(self.chunk, self.target - done)
            block = self.stream.take(n, out=self.buf[:n])
            data = self.renderer.rows(block)
            try:
                self.out.write(data, row_ends(data, n, self.p.style, self.stream.width))
            except OSError:
                self._advance_saved(block[: self.out.kept], whole=False)
                raise
            done += n
            self._advance_saved(block, whole=True)
            if self.p.rate > 0:
                due = started + done / self.p.rate
                while not self.interrupt.hit and (wait := due - time.monotonic()) > 0:
                    time.sleep(min(wait, 0.05))

    def _advance_saved(self, rows: np.ndarray, whole: bool) -> None:
        """The state after ``rows`` more rows, the ones now written whole
        (``whole``: all of the block the stream just gave)."""
        if not self.p.save_path or not len(rows):
            return
        if whole:
            state = self.stream
        else:  # a part of the block: from the state before it
            state, _ = decode_state(self.saved)
            state.take(len(rows))
        self.last_row = rows[-1].copy()
        self.saved = encode_state(state.checkpoint(), self.last_row)

    def end(self) -> None:
        """The state, or the closing row (also when the state cannot be saved)."""
        if self.p.save_path:
            try:
                save_state(self.p.save_path, self.saved)
            except OSError as exc:
                # No state: close the maze instead, so that what was written is complete.
                self.out.write(self.renderer.close(self.stream.finish()))
                raise OutputError(f"--save-state: cannot save the state: {os_message(exc)}") from None
        else:
            # On a terminal, "\r" puts the closing row over the "^C" it echoed.
            erase = b"\r" if self.interrupt.hit and self.p.tty and self.p.style != "raw" else b""
            self.out.write(erase + self.renderer.close(self.stream.finish()))

    def run(self) -> int:
        try:
            self.out.write(self.renderer.start())
            self.rows()
            self.end()
        except StdoutBlocked:
            # The reader stopped reading, and a signal asks to end: what was
            # being written (rows, or the closing row) is given up.
            silence(self.out.out)
            if self.p.save_path:
                _save_or_fail(self.p.save_path, self.saved)
                lost = "the state is saved after the last rows written whole (more may have gone out in part)"
            else:
                lost = "the closing row is not written (the last row may be cut)"
            name = signal.Signals(self.interrupt.signum).name
            say(f"error: standard output took nothing for {GRACE:g} s after {name}: {lost}")
            return ExitStatus.signalled(self.interrupt.signum)
        except BrokenPipeError:
            # The reader went away: stop quietly.
            silence(self.out.out)
            if self.p.save_path:
                _save_or_fail(self.p.save_path, self.saved)
            return ExitStatus.BROKEN_PIPE
        except OSError as exc:
            # Standard output failed (full disk, read-only descriptor): the
            # whole rows written so far stay; the state goes on after them.
            silence(self.out.out)
            if self.p.save_path:
                _save_or_fail(self.p.save_path, self.saved)
            raise OutputError(f"cannot write to standard output: {os_message(exc)}") from None
        if self.interrupt.hit:
            return ExitStatus.signalled(self.interrupt.signum)
        if self.limited:
            then = "the state is saved" if self.p.save_path else "the closing row is written"
            raise RowLimitError(f"the banded maze has no rows past 2**63 - 1 ({ROW_LIMIT - 1}); {then}")
        return ExitStatus.OK


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(list(argv))
    stdout = require_stdout()
    tty = isatty(stdout)
    p = plan(args, tty)
    if args.seed is None and args.resume is None and tty and isatty(sys.stderr):
        say(f"seed {p.stream.seed}")
    interrupt = Interrupt()
    try:
        streamer = _Streamer(p, stdout.buffer, interrupt)
    except MemoryError:
        raise UsageError(f"--width {p.stream.width}: not enough memory for a maze this wide") from None
    previous = {signum: signal.signal(signum, interrupt) for signum in STOP_SIGNALS}
    if hasattr(signal, "SIGALRM"):
        previous[signal.SIGALRM] = signal.signal(signal.SIGALRM, interrupt.alarm)
    try:
        return streamer.run()
    finally:
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_REAL, 0)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
