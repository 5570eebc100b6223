"""The console script's entry point.

It imports nothing heavy before it can turn Ctrl-C (or a closed terminal,
SIGHUP, or SIGTERM) into a quiet exit: loading numpy and numba takes a
noticeable fraction of a second, and a signal in that time would otherwise
print a traceback from inside an import.

numpy's BLAS (OpenBLAS) starts a thread a core as numpy loads, and they spin
a while: 0.05-0.07 s of CPU on a second core in every command, which makes
no BLAS call. The command asks for one thread unless its user set a number.
"""

from __future__ import annotations

import os
import signal
import sys

_STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class _Stop(BaseException):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: object) -> None:
    raise _Stop(signum)


def run() -> None:
    """Run the command: ``eller-stream ...`` and ``python -m eller_stream ...``."""
    # While the package loads, a signal only sets a flag: an exception raised
    # inside an import could be caught (and lost) by the code being imported.
    pending: list[int] = []
    for signum in _STOPPING:
        signal.signal(signum, lambda signum, frame: pending.append(signum))
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # read once, as numpy loads
    try:
        from .cli import load, main

        load(sys.argv[1:])  # the subcommand's modules: numpy, numba and the kernels' modules
    except ImportError as exc:  # a bad ELLER_STREAM_BACKEND, or a broken install: one line, status 2
        sys.stderr.write(f"eller-stream: error: {exc}\n")
        sys.exit(2)
    try:
        # From here until the command installs its own handling, Ctrl-C is a
        # KeyboardInterrupt (main() ends quietly on it), SIGTERM/SIGHUP a _Stop;
        # one that lands anywhere in this block, even before main(), ends quietly.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for signum in _STOPPING:
            if signum != signal.SIGINT:
                signal.signal(signum, _stop)
        if pending:  # a signal came while the package loaded
            raise _Stop(pending[0])
        code = main()
    except KeyboardInterrupt:
        code = 128 + signal.SIGINT
    except _Stop as exc:
        code = 128 + exc.signum
    sys.exit(code)
