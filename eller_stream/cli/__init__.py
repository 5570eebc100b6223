"""The ``eller-stream`` command: endless mazes on standard output.

The bare command streams (:mod:`.stream`); the other subcommands are listed
in ``COMMANDS``, one module each with a ``main(argv) -> int``: a new one
(say ``serve``) is a new module and one line there.  They may be added in
front of the bare command without changing what it does.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from .._backend import NeedsNumba
from ._common import ExitStatus, OutputError, RowLimitError, UsageError, flush_stdout, os_message, say

__all__ = ["COMMANDS", "ExitStatus", "load", "main"]

# subcommand -> the module (in this package) that runs it
COMMANDS = {
    "render": "render",
    "compare": "compare",
    "serve": "serve",
}
DEFAULT_COMMAND = "stream"


def _command(argv: list[str]) -> tuple[str, list[str]]:
    """The module that runs ``argv``, and the arguments it takes."""
    if argv and argv[0] in COMMANDS:
        return COMMANDS[argv[0]], argv[1:]
    return DEFAULT_COMMAND, argv


def load(argv: Sequence[str]) -> None:
    """Import the module of the subcommand ``argv`` names (and with it numpy
    and the package's modules it uses): the entry point does it while a
    signal only sets a flag. numba comes later, when a kernel first needs it,
    and always in a thread of its own (``eller_stream._numba.load``), where
    no signal can land inside its import."""
    importlib.import_module(f"{__name__}.{_command(list(argv))[0]}")


def _run(argv: list[str]) -> int:
    name, argv = _command(argv)
    module = importlib.import_module(f"{__name__}.{name}")
    try:
        code: int = module.main(argv)
    except SystemExit as exc:  # --help: argparse printed it and exits
        code = exc.code if isinstance(exc.code, int) else 0
    flush_stdout()
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return int(_run(args))
    except UsageError as exc:
        say(f"error: {exc}")
        return ExitStatus.USAGE
    except RowLimitError as exc:
        say(f"error: {exc}")
        return ExitStatus.ROW_LIMIT
    except OutputError as exc:
        say(f"error: {exc}")
        return ExitStatus.OUTPUT
    except OSError as exc:  # a file (or, without a file name, standard output) could not be written
        where = repr(exc.filename) if exc.filename else "to standard output"
        say(f"error: cannot write {where}: {os_message(exc)}")
        return ExitStatus.OUTPUT
    except NeedsNumba as exc:  # a companion on the lean backend
        say(f"error: {exc}")
        return ExitStatus.USAGE
    except MemoryError:  # an allocation sized by the options, refused
        say("error: not enough memory for what the options ask (a smaller --width or --rows may do)")
        return ExitStatus.USAGE
    except KeyboardInterrupt:  # Ctrl-C before streaming started
        return ExitStatus.SIGINT
