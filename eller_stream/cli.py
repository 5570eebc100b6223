"""The ``eller-stream`` command: endless mazes on standard output.

The bare command streams; other subcommands may be added in front of it
(``eller-stream render ...``) without changing what the bare command does.
"""

from __future__ import annotations

import argparse
import errno
import glob
import math
import os
import shutil
import signal
import stat
import sys
import tempfile
import time
from collections.abc import Sequence
from types import FrameType
from typing import BinaryIO, NoReturn, TextIO

import numpy as np

from . import _checkpoint
from . import _validate as v
from .banded import BandedStream, InfiniteMaze
from .render import CELL_COLUMNS, STYLES, TextRenderer
from .stream import EllerStream

PROG = "eller-stream"
EXIT_BROKEN_PIPE = 1  # as in the Python docs' note on SIGPIPE
EXIT_USAGE = 2
EXIT_OUTPUT = 74  # EX_IOERR of sysexits.h
EXIT_INTERRUPTED = 128 + signal.SIGINT
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

EXIT_STATUSES = """\
exit status:
  0    done
  1    the reader of standard output went away (a closed pipe); with
       --save-state the state is saved
  2    a bad option or input file, or a picture too large to draw
  74   standard output or a file could not be written (closed, full disk,
       read-only); with --save-state the stream writes the closing row
       when the state cannot be saved, and saves the state when standard
       output fails
  128+N  ended by signal N: 130 Ctrl-C (SIGINT), 129 SIGHUP, 143 SIGTERM;
       the stream first writes the closing row (or saves the state)
Every error is one line on standard error: "eller-stream: error: ...".
"""

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



class UsageError(Exception):
    """A bad argument or input file: one line on stderr, exit status 2."""


class OutputError(Exception):
    """Standard output or a file could not be written: one line on stderr,
    exit status 74."""


def _say(message: str) -> None:
    """One line on stderr, if there is a stderr to write to."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(f"{PROG}: {message}\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _os_message(exc: OSError) -> str:
    return exc.strerror or str(exc)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> _Parser:
    p = _Parser(
        prog=PROG,
        description="Stream an endless perfect maze (Eller's algorithm), one row at a time.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--width", help="cells per row (default: fit the terminal; 80 columns when piped)")
    p.add_argument("--rows", help="rows in all, the last one the closing row (default: endless)")
    p.add_argument("--seed", help="an integer in [0, 2**64) (default: random)")
    p.add_argument("--horizontal", help="probability of joining side-by-side sets, in [0, 1] (0.5)")
    p.add_argument("--vertical", help="probability of an extra downward opening, in [0, 1] (0.5)")
    p.add_argument(
        "--style",
        choices=STYLES,
        help="ascii, unicode (box drawing), blocks (one character per tile) or raw "
        "(width flag bytes per row); default: unicode on a UTF-8 terminal, ascii otherwise",
    )
    p.add_argument(
        "--rate",
        help="rows per second, 0 = as fast as possible (default: 10 on a terminal, 0 when piped)",
    )
    p.add_argument("--save-state", metavar="FILE", help="stop without the closing row and save the state")
    p.add_argument("--resume", metavar="FILE", help="continue a stream saved with --save-state")
    _banded_options(p)
    return p


def _banded_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--band", metavar="K", help="the banded maze (InfiniteMaze) with K rows per band, K >= 2")
    p.add_argument("--start", metavar="ROW", help="with --band: the first row, any integer (0)")
    p.add_argument("--doors", metavar="P", help="with --band: share of door columns at the seams, in (0, 1]")


def _banded(
    args: argparse.Namespace, width: int, seed: int | None, h: float, vert: float
) -> InfiniteMaze | None:
    """The InfiniteMaze that --band asks for, or None without --band."""
    if args.band is None:
        for option, value in (("--start", args.start), ("--doors", args.doors)):
            if value is not None:
                raise UsageError(f"{option} needs --band")
        return None
    band = _checked("--band", v.check_int, "band", _int("--band", args.band), 2)
    doors = None if args.doors is None else _float("--doors", args.doors)
    return _checked("--doors", InfiniteMaze, width, band, seed, h, vert, doors)


def _start(args: argparse.Namespace) -> int:
    from .banded import ROW_LIMIT

    return _checked(
        "--start", v.check_int, "start", _int("--start", args.start or "0"), -ROW_LIMIT, ROW_LIMIT - 1
    )


# -- argument conversion ------------------------------------------------------


def _checked(option: str, check, *args):
    try:
        return check(*args)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{option}: {exc}") from None


def _int(option: str, text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise UsageError(f"{option} must be an integer, got {text!r}") from None


def _float(option: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"{option} must be a number, got {text!r}") from None


# -- state files ----------------------------------------------------------------


def encode_state(checkpoint: bytes, last_row: np.ndarray | None) -> bytes:
    """The --save-state file: the stream's checkpoint and its last row (so
    that text styles continue seamlessly), with a checksum."""
    return _checkpoint.pack_state(checkpoint, b"" if last_row is None else last_row.tobytes())


def _resume(checkpoint: bytes) -> EllerStream | BandedStream:
    """A stream from either kind of checkpoint."""
    if checkpoint.startswith(_checkpoint.BANDED_MAGIC):
        return BandedStream.resume(checkpoint)
    return EllerStream.resume(checkpoint)


def decode_state(data: bytes) -> tuple[EllerStream | BandedStream, np.ndarray | None]:
    """Read a --save-state file (or a bare ``checkpoint()`` of either stream)."""
    if data.startswith((_checkpoint.ELLER_MAGIC, _checkpoint.BANDED_MAGIC)):
        return _resume(data), None
    checkpoint, row_bytes = _checkpoint.unpack_state(data)
    stream = _resume(checkpoint)
    if not row_bytes:
        return stream, None
    row = np.frombuffer(row_bytes, np.uint8).copy()
    if len(row) != stream.width or (row > 3).any() or row[-1] & 1:
        raise ValueError("state file is corrupt (last row does not fit the stream)")
    return stream, row


_TEMP_MARK = ".eller-stream-"


def _temp_prefix(path: str) -> str:
    """Temporary files are named ``.NAME.eller-stream-PID-XXXX.tmp`` next to
    the file they will replace: a user can tell what they are, and a later
    run can tell whether the process that made them is gone."""
    return f".{os.path.basename(path)}{_TEMP_MARK}{os.getpid()}-"


def _remove_stale_temps(path: str) -> None:
    """Remove temporary files that an earlier run, killed before it could
    clean up (SIGKILL), left next to ``path``: only ours (same name and
    owner) and only when the process that made them no longer exists."""
    folder, name = os.path.split(path)
    for temp in glob.glob(os.path.join(glob.escape(folder), f".{glob.escape(name)}{_TEMP_MARK}*-*.tmp")):
        pid_text = temp[len(os.path.join(folder, f".{name}{_TEMP_MARK}")) :].split("-", 1)[0]
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        try:
            os.kill(int(pid_text), 0)
            continue  # still running
        except ProcessLookupError:
            pass
        except OSError:
            continue  # exists, belongs to someone else
        try:
            info = os.lstat(temp)
            if stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid():
                os.unlink(temp)
        except OSError:
            pass


def state_target(path: str) -> str:
    """The file --save-state writes: ``path``, or through a symlink the
    file it names.  Raises UsageError for anything but a regular file (or a
    file yet to be made) in a writable folder."""
    if path == "":
        raise UsageError("--save-state: the file name is empty")
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    if os.path.exists(target) and not stat.S_ISREG(os.stat(target).st_mode):
        raise UsageError(f"--save-state: {path!r} is not a regular file")
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise UsageError(f"--save-state: cannot write a file at {path!r}")
    return target


def _save_state(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a whole new file or none.

    A symlink is written through (the file it names is replaced); the
    replaced file keeps its permissions; the folder is synced after the
    rename, so the new name survives a crash."""
    target = state_target(path)
    folder = os.path.dirname(target)
    _remove_stale_temps(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=".tmp", dir=folder)
    try:
        try:
            _write_all(fd, data)
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _sync_folder(folder)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _sync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder
    finally:
        os.close(fd)


# -- streaming -------------------------------------------------------------------


class _Interrupt:
    """SIGINT, SIGTERM and SIGHUP set a flag that the loop reads between
    rows, so that no row is ever half written."""

    def __init__(self) -> None:
        self.hit = False
        self.signum: int = signal.SIGINT

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if not self.hit:
            self.signum = signum
        self.hit = True


def _default_style(tty: bool) -> str:
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return "unicode" if tty and encoding == "utf8" else "ascii"


def _plan(args: argparse.Namespace, tty: bool) -> dict:
    """Validate every argument and input file before anything is written."""
    style = args.style or _default_style(tty)
    rows = (
        None if args.rows is None else _checked("--rows", v.check_int, "rows", _int("--rows", args.rows), 1)
    )
    rate = 10.0 if tty else 0.0
    if args.rate is not None:
        rate = _float("--rate", args.rate)
        if math.isnan(rate) or math.isinf(rate) or rate < 0:
            raise UsageError(f"--rate must be a finite number >= 0, got {args.rate!r}")
    width = None
    if args.width is not None:
        width = _checked("--width", v.check_width, _int("--width", args.width))
    seed = None if args.seed is None else _checked("--seed", v.check_seed, _int("--seed", args.seed))
    h = None if args.horizontal is None else _float("--horizontal", args.horizontal)
    vert = None if args.vertical is None else _float("--vertical", args.vertical)
    if h is not None:
        _checked("--horizontal", v.check_probability, "horizontal", h)
    if vert is not None:
        _checked("--vertical", v.check_probability, "vertical", vert)
    if args.save_state is not None:
        state_target(args.save_state)
    previous = None
    if args.resume is not None:
        try:
            with open(args.resume, "rb") as f:
                try:
                    data = _checkpoint.read_state(f)
                except ValueError as exc:
                    raise UsageError(f"--resume: {args.resume!r}: {exc}") from None
        except OSError as exc:
            raise UsageError(f"--resume: cannot read {args.resume!r}: {_os_message(exc)}") from None
        try:
            stream, previous = decode_state(data)
        except ValueError as exc:
            raise UsageError(f"--resume: {args.resume!r}: {exc}") from None
        if args.start is not None:
            raise UsageError("--start cannot be given with --resume (the state says where the stream is)")
        saved_band, saved_doors = (None, None)
        if isinstance(stream, BandedStream):
            saved_band, saved_doors = stream.band, stream.params.doors
        band = None if args.band is None else _int("--band", args.band)
        doors = None if args.doors is None else _float("--doors", args.doors)
        for option, given, saved in (
            ("--width", width, stream.width),
            ("--seed", seed, stream.seed),
            ("--horizontal", h, stream.horizontal),
            ("--vertical", vert, stream.vertical),
            ("--band", band, saved_band),
            ("--doors", doors, saved_doors),
        ):
            if given is not None and given != saved:
                raise UsageError(f"{option} {given} disagrees with the resumed state ({saved})")
    else:
        if width is None:
            columns = shutil.get_terminal_size((80, 24)).columns if tty else 80
            width = max(1, (columns - 1) // CELL_COLUMNS[style]) if style != "raw" else columns
        h, vert = 0.5 if h is None else h, 0.5 if vert is None else vert
        maze = _banded(args, width, seed, h, vert)
        stream = EllerStream(width, seed, h, vert) if maze is None else maze.stream(_start(args))
    return {
        "stream": stream,
        "previous": previous,
        "resumed": args.resume is not None,
        "style": style,
        "rows": rows,
        "rate": rate,
        "tty": tty,
    }


def _stream(plan: dict, save_path: str | None, out: BinaryIO, interrupt: _Interrupt) -> int:
    stream: EllerStream | BandedStream = plan["stream"]
    rows: int | None = plan["rows"]
    rate: float = plan["rate"]
    width = stream.width
    resumed = plan.get("resumed", False)
    renderer = TextRenderer(width, plan["style"], previous=plan["previous"], resumed=resumed)
    last_row = plan["previous"]
    # rows to stream before the end: all of them when saving, else all but the closing row
    target = None if rows is None else (rows if save_path else rows - 1)
    chunk = 1 if rate > 0 else max(1, min(4096, (1 << 16) // width))
    buf = np.empty((chunk, width), np.uint8)
    saved_before_block = encode_state(stream.checkpoint(), last_row) if save_path else b""
    done = 0
    started = time.monotonic()
    try:
        _write_out(out, renderer.start())
        while not interrupt.hit and (target is None or done < target):
            n = chunk if target is None else min(chunk, target - done)
            block = stream.take(n, out=buf[:n])
            _write_out(out, renderer.rows(block))
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
                _save_state(save_path, saved_before_block)
            except OSError as exc:
                # No state: close the maze instead, so that what was written is complete.
                _write_out(out, renderer.close(stream.finish()))
                out.flush()
                raise OutputError(f"--save-state: cannot save the state: {_os_message(exc)}") from None
        else:
            # On a terminal, "\r" puts the closing row over the "^C" it echoed.
            erase = b"\r" if interrupt.hit and plan["tty"] and plan["style"] != "raw" else b""
            _write_out(out, erase + renderer.close(stream.finish()))
        out.flush()
    except BrokenPipeError:
        # The reader went away: stop quietly.
        _silence(out)
        if save_path:
            _save_or_fail(save_path, saved_before_block)
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        # Standard output failed (full disk, read-only descriptor): the rows
        # written so far stay; save the state before the failed block.
        _silence(out)
        if save_path:
            _save_or_fail(save_path, saved_before_block)
        raise OutputError(f"cannot write to standard output: {_os_message(exc)}") from None
    return 128 + interrupt.signum if interrupt.hit else 0


def _write_out(out: BinaryIO, data: bytes) -> None:
    """Write all of ``data``: an unbuffered stdout (``python -u``,
    PYTHONUNBUFFERED) may take part of it (a full disk, a signal during a
    write to a pipe) and say so only by the count it returns."""
    view = memoryview(data)
    while view:
        n = out.write(view)
        if n is None:  # a non-blocking descriptor that is full
            raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN))
        view = view[n:]


def _silence(out: BinaryIO | TextIO) -> None:
    """Point ``out``'s descriptor at /dev/null and drop what its buffer
    holds, so that the interpreter's last flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, out.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def _save_or_fail(path: str, data: bytes) -> None:
    try:
        _save_state(path, data)
    except OSError as exc:
        raise OutputError(f"--save-state: cannot save the state: {_os_message(exc)}") from None


def stream_main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    if sys.stdout is None:
        raise OutputError("standard output is closed")
    tty = _isatty(sys.stdout)
    plan = _plan(args, tty)
    if args.seed is None and args.resume is None and tty and _isatty(sys.stderr):
        _say(f"seed {plan['stream'].seed}")
    interrupt = _Interrupt()
    previous = {signum: signal.signal(signum, interrupt) for signum in STOP_SIGNALS}
    try:
        return _stream(plan, args.save_state, sys.stdout.buffer, interrupt)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _isatty(f: TextIO | None) -> bool:
    try:
        return f is not None and f.isatty()
    except (OSError, ValueError):
        return False


COMPARE_EXAMPLES = """\
examples:
  eller-stream compare                          200 x 200, 3 seeds, every algorithm
  eller-stream compare --width 1000 --height 1000 --seeds 1
  eller-stream compare --algorithm backtracker --algorithm growing-tree:random --json

algorithms: eller[:h=H,v=V], growing-tree:STRATEGY (newest, oldest, random,
middle or a mix such as newest:90,random:10), backtracker,
banded[:band=K,doors=D,h=H,v=V] (an InfiniteMaze closed at the bottom).

"detour" is how many rows above a row its cells need to reach the next row
(es.detour): a scrolling game must keep that many rows above the player.
"""

_COLUMNS = [
    ("algorithm", "algorithm", "{}"),
    ("ns_per_cell", "ns/cell", "{:.1f}"),
    ("extra_bytes_per_cell", "extra B/cell", "{:.2f}"),
    ("dead_end_fraction", "dead ends", "{:.1%}"),
    ("junction_fraction", "junctions", "{:.1%}"),
    ("straight_fraction", "straight", "{:.1%}"),
    ("mean_straight_run", "mean run", "{:.2f}"),
    ("horizontal_vertical_ratio", "E/S ratio", "{:.2f}"),
    ("solution_ratio", "solution/(w+h)", "{:.2f}"),
    ("detour_max", "detour max", "{:.0f}"),
    ("detour_p99", "detour p99", "{:.0f}"),
]


def compare_main(argv: Sequence[str]) -> int:
    from ._compare import ALGORITHMS, compare

    p = _Parser(
        prog=f"{PROG} compare",
        description="Compare the generators on one size: speed, memory and texture metrics.",
        epilog=COMPARE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--width", default="200", help="cells per row (200)")
    p.add_argument("--height", default="200", help="rows (200)")
    p.add_argument("--seeds", default="3", help="seeds per algorithm, 0, 1, ... (3)")
    p.add_argument("--algorithm", action="append", help="an algorithm to include (repeatable; default: all)")
    p.add_argument(
        "--json",
        action="store_true",
        help="print JSON for machines instead of a table (strict JSON: a value that is not finite is null)",
    )
    args = p.parse_args(list(argv))
    width = _checked("--width", v.check_int, "width", _int("--width", args.width), 1, 2**15)
    height = _checked("--height", v.check_int, "height", _int("--height", args.height), 1, 2**15)
    seeds = _checked("--seeds", v.check_int, "seeds", _int("--seeds", args.seeds), 1, 1000)
    algorithms = args.algorithm or list(ALGORITHMS)
    from ._compare import generator

    for name in algorithms:
        _checked("--algorithm", generator, name)
    if sys.stdout is None:
        raise OutputError("standard output is closed")
    rows = compare(width, height, seeds, algorithms)
    if args.json:
        from ._compare import to_json

        print(to_json(rows))
        return 0
    table = [[fmt.format(row[key]) for key, _, fmt in _COLUMNS] for row in rows]
    headers = [title for _, title, _ in _COLUMNS]
    widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(headers)]
    print(f"{width} x {height} cells, best of {seeds} seed(s) for speed, mean of them for the rest")
    print("  ".join(h.ljust(widths[0]) if i == 0 else h.rjust(widths[i]) for i, h in enumerate(headers)))
    for r in table:
        print("  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)))
    return 0


RENDER_EXAMPLES = (
    """\
examples:
  eller-stream render -o maze.png --width 40 --rows 30
  eller-stream render -o maze.svg --width 40 --rows 30 --endpoints --solution
  eller-stream render -o tall.png --width 1000 --rows 1000000 --cell 2 --wall 1   streamed, O(width) memory
  eller-stream render -o gt.png --algorithm growing-tree --strategy newest:90,random:10 --width 80 --rows 60

Eller mazes are streamed into the PNG row by row unless --endpoints or
--solution is given (both need the finished maze); the other algorithms build
the whole grid.  --strategy applies to growing-tree only, --horizontal and
--vertical to eller only: other combinations are refused.  Without --seed the
seed is shown on a terminal; the picture always records the command's
parameters (a PNG tEXt chunk, SVG <metadata>).  Pictures larger than PNG's
2**31 - 1 pixels a side, or that would need more than 1 GiB of memory to
draw, are refused before anything is drawn.

"""
    + EXIT_STATUSES
)

MAX_PIXELS_SIDE = 2**31 - 1  # PNG's limit on either side
MAX_RENDER_BYTES = 1 << 30  # memory a render may plan to use


def _render_bytes(width: int, rows: int, cell: int, wall: int, streamed: bool, svg: bool) -> int:
    """About the most memory a render holds at once, in bytes: a few
    arrays of one row of pixels (one of 8-byte pixel columns), and the
    whole grid (with the SVG text, tens of bytes a cell) unless streamed."""
    px_w = width * cell + (width + 1) * wall
    total = 8 * width * cell + 4 * px_w
    if not streamed:
        total += width * rows * (64 if svg else 2)
    return total


class _Progress:
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


def render_main(argv: Sequence[str]) -> int:
    from ._backtracker import backtracker
    from ._growing_tree import growing_tree
    from .image import write_image, write_png
    from .stream import eller

    p = _Parser(
        prog=f"{PROG} render",
        description="Draw a maze as a PNG or SVG picture.",
        epilog=RENDER_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("-o", "--output", required=True, help="the .png or .svg file to write")
    p.add_argument("--width", default="40", help="cells per row (40)")
    p.add_argument("--rows", default="30", help="rows (30)")
    p.add_argument("--algorithm", choices=["eller", "growing-tree", "backtracker"], default="eller")
    p.add_argument("--strategy", help="Growing Tree strategy or mix (newest)")
    p.add_argument("--seed", help="an integer in [0, 2**64) (default: random)")
    p.add_argument("--horizontal", help="Eller's horizontal probability (0.5)")
    p.add_argument("--vertical", help="Eller's vertical probability (0.5)")
    p.add_argument("--cell", default="8", help="cell size in pixels (8)")
    p.add_argument("--wall", default="2", help="wall thickness in pixels (2)")
    p.add_argument("--endpoints", action="store_true", help="open the suggested start and end in the wall")
    p.add_argument("--solution", action="store_true", help="draw the path between them (implies --endpoints)")
    _banded_options(p)
    args = p.parse_args(list(argv))
    ext = os.path.splitext(args.output)[1].lower()
    if ext not in (".png", ".svg"):
        raise UsageError(f"--output must end in .png or .svg, got {args.output!r}")
    folder = os.path.dirname(os.path.abspath(args.output))
    if os.path.isdir(args.output):
        raise UsageError(f"--output: {args.output!r} is a folder")
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise UsageError(f"--output: cannot write a file at {args.output!r}")
    if args.strategy is not None and args.algorithm != "growing-tree":
        raise UsageError("--strategy applies to --algorithm growing-tree only")
    for option, given in (("--horizontal", args.horizontal), ("--vertical", args.vertical)):
        if given is not None and args.algorithm != "eller":
            raise UsageError(f"{option} applies to --algorithm eller only")
    strategy = "newest" if args.strategy is None else args.strategy
    width = _checked("--width", v.check_width, _int("--width", args.width))
    rows = _checked("--rows", v.check_int, "rows", _int("--rows", args.rows), 1)
    seed = _checked("--seed", v.check_seed, None if args.seed is None else _int("--seed", args.seed))
    h_text = "0.5" if args.horizontal is None else args.horizontal
    v_text = "0.5" if args.vertical is None else args.vertical
    h = _checked("--horizontal", v.check_probability, "horizontal", _float("--horizontal", h_text))
    vert = _checked("--vertical", v.check_probability, "vertical", _float("--vertical", v_text))
    cell = _checked("--cell", v.check_int, "cell", _int("--cell", args.cell), 1, 1000)
    wall = _checked("--wall", v.check_int, "wall", _int("--wall", args.wall), 1, 1000)
    if args.algorithm == "growing-tree":
        from ._growing_tree import parse_strategy

        _checked("--strategy", parse_strategy, strategy)
    if args.algorithm != "eller" and width * rows >= 2**31:
        raise UsageError("--width * --rows must be below 2**31 for this algorithm")
    maze = _banded(args, width, seed, h, vert)
    if maze is not None and args.algorithm != "eller":
        raise UsageError("--band draws the banded maze: it takes no --algorithm but eller")
    start = 0 if maze is None else _start(args)  # the first row: used with --band only
    streamed = args.algorithm == "eller" and ext == ".png" and not (args.endpoints or args.solution)
    px_w, px_h = width * cell + (width + 1) * wall, rows * cell + (rows + 1) * wall
    if ext == ".png" and max(px_w, px_h) > MAX_PIXELS_SIDE:
        raise UsageError(
            f"the picture would be {px_w} x {px_h} pixels; a PNG side is at most {MAX_PIXELS_SIDE}"
        )
    need = _render_bytes(width, rows, cell, wall, streamed, ext == ".svg")
    if need > MAX_RENDER_BYTES:
        raise UsageError(
            f"drawing a {px_w} x {px_h} pixel picture needs about {need / 2**30:.1f} GiB of memory "
            f"(at most {MAX_RENDER_BYTES // 2**30} GiB); use a smaller --width, --cell or --wall"
        )
    if args.seed is None and _isatty(sys.stderr):
        _say(f"seed {seed}")
    params = [f"--algorithm {args.algorithm}", f"--width {width}", f"--rows {rows}", f"--seed {seed}"]
    if args.algorithm == "eller":
        params += [f"--horizontal {h!r}", f"--vertical {vert!r}"]
    if maze is not None:
        params += [f"--band {maze.band}", f"--start {start}", f"--doors {maze.doors!r}"]
    if args.algorithm == "growing-tree":
        params.append(f"--strategy {strategy}")
    params += [f"--cell {cell}", f"--wall {wall}"]
    params += [flag for flag, on in (("--endpoints", args.endpoints), ("--solution", args.solution)) if on]
    description = f"{PROG} render " + " ".join(params)
    progress = _Progress() if _isatty(sys.stderr) else None
    if streamed:
        stream = EllerStream(width, seed, h, vert) if maze is None else maze.stream(start)

        def maze_rows():
            for _ in range(rows - 1):
                yield next(stream)
            yield stream.finish()

        write_png(
            args.output,
            maze_rows(),
            width=width,
            height=rows,
            cell=cell,
            wall=wall,
            progress=progress,
            text={"Description": description},
        )
        return 0
    if maze is not None:
        banded = maze.stream(start)
        grid = np.empty((rows, width), np.uint8)
        banded.take(rows - 1, out=grid[:-1])
        grid[-1] = banded.finish()
    elif args.algorithm == "eller":
        grid = eller(width, rows, seed, h, vert)
    elif args.algorithm == "growing-tree":
        grid = growing_tree(width, rows, strategy, seed)
    else:
        grid = backtracker(width, rows, seed)
    write_image(
        args.output,
        grid,
        cell,
        wall,
        endpoints=args.endpoints,
        solution=args.solution,
        description=description,
    )
    return 0


SUBCOMMANDS = {"compare": compare_main, "render": render_main}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            if argv and argv[0] in SUBCOMMANDS:
                code = SUBCOMMANDS[argv[0]](argv[1:])
            else:
                code = stream_main(argv)
        except SystemExit as exc:  # --help: argparse printed it and exits
            code = exc.code if isinstance(exc.code, int) else 0
        _flush_stdout()
        return code
    except UsageError as exc:
        _say(f"error: {exc}")
        return EXIT_USAGE
    except OutputError as exc:
        _say(f"error: {exc}")
        return EXIT_OUTPUT
    except OSError as exc:  # a file (or, without a file name, standard output) could not be written
        where = repr(exc.filename) if exc.filename else "to standard output"
        _say(f"error: cannot write {where}: {_os_message(exc)}")
        return EXIT_OUTPUT
    except KeyboardInterrupt:  # Ctrl-C before streaming started
        return EXIT_INTERRUPTED


def _flush_stdout() -> None:
    """Flush what print() left in stdout's buffer now, where a failure can
    be reported, rather than at exit, where Python would print its own."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except OSError as exc:
        try:
            _silence(sys.stdout)
        except (OSError, ValueError):
            pass
        raise OutputError(f"cannot write to standard output: {_os_message(exc)}") from None


def run() -> None:
    """Console-script entry point (the installed command uses
    ``eller_stream._entry.run``, which also covers the imports)."""
    sys.exit(main())
