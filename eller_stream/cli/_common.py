"""What every subcommand shares: exit statuses, errors, stderr, the parser."""

from __future__ import annotations

import argparse
import enum
import os
import signal
import sys
from typing import BinaryIO, NoReturn, TextIO

PROG = "eller-stream"
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class ExitStatus(enum.IntEnum):
    """The command's exit statuses (``EXIT_STATUSES`` says what they mean)."""

    OK = 0
    BROKEN_PIPE = 1  # as in the Python docs' note on SIGPIPE
    USAGE = 2
    ROW_LIMIT = 3  # the banded maze has no rows past 2**63 - 1
    OUTPUT = 74  # EX_IOERR of sysexits.h
    SIGHUP = 128 + 1
    SIGINT = 128 + 2
    SIGTERM = 128 + 15

    @staticmethod
    def signalled(signum: int) -> int:
        """128 + N for an end by signal N."""
        return 128 + int(signum)


EXIT_STATUSES = """\
exit status:
  0    done
  1    the reader of standard output went away (a closed pipe); with
       --save-state the state is saved
  2    a bad option or input file, a picture too large to draw, or a maze
       too wide for the memory
  3    the banded maze ended: its rows are numbered below 2**63; the rows
       that exist are written, then the closing row (or the state)
  74   standard output or a file could not be written (closed, full disk,
       read-only); a regular file is cut back to the last whole row; with
       --save-state the stream writes the closing row when the state
       cannot be saved, and saves the state (going on right after the
       last whole row written) when standard output fails
  128+N  ended by signal N: 130 Ctrl-C (SIGINT), 129 SIGHUP, 143 SIGTERM;
       the stream first writes the closing row (or saves the state), unless
       standard output takes nothing for a second: then it gives the write
       up and says so in one line
Every error is one line on standard error: "eller-stream: error: ...".
"""

PICTURE_EXIT_STATUSES = """\
exit status:
  0    done
  2    a bad option, or a picture too large to draw
  3    the banded maze ends at row 2**63 - 1: the rows asked for are not all there
  74   the picture could not be written (full disk, read-only folder); a file
       already there is kept
  128+N  ended by signal N: 130 Ctrl-C (SIGINT), 129 SIGHUP, 143 SIGTERM
A picture is written whole or not at all.  Every error is one line on
standard error: "eller-stream: error: ...".
"""


class UsageError(Exception):
    """A bad argument or input file: one line on stderr, exit status 2."""


class OutputError(Exception):
    """Standard output or a file could not be written: one line on stderr,
    exit status 74."""


class RowLimitError(Exception):
    """The maze has no more rows: one line on stderr, exit status 3."""


def say(message: str) -> None:
    """One line on stderr, if there is a stderr to write to."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(f"{PROG}: {message}\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def os_message(exc: OSError) -> str:
    return exc.strerror or str(exc)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a UsageError (one line, exit 2)."""

    def __init__(self, prog: str, description: str, epilog: str) -> None:
        super().__init__(
            prog=prog,
            description=description,
            epilog=epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    def error(self, message: str) -> NoReturn:
        # "argument --band: band must be ..." -> "--band: band must be ...",
        # as the command's other errors name an option
        if message.startswith("argument -"):
            message = message[len("argument ") :]
        raise UsageError(message)


def isatty(f: TextIO | None) -> bool:
    try:
        return f is not None and f.isatty()
    except (OSError, ValueError):
        return False


def silence(out: BinaryIO | TextIO) -> None:
    """Point ``out``'s descriptor at /dev/null and drop what its buffer
    holds, so that the interpreter's last flush does not fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, out.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def flush_stdout() -> None:
    """Flush what print() left in stdout's buffer now, where a failure can
    be reported, rather than at exit, where Python would print its own."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except OSError as exc:
        try:
            silence(sys.stdout)
        except (OSError, ValueError):
            pass
        raise OutputError(f"cannot write to standard output: {os_message(exc)}") from None


def require_stdout() -> TextIO:
    if sys.stdout is None:
        raise OutputError("standard output is closed")
    return sys.stdout
