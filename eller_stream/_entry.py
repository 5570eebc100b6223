"""The console script's entry point.

It imports nothing heavy before it can turn Ctrl-C (or a closed terminal,
SIGHUP, or SIGTERM) into a quiet exit: loading numpy and numba takes a
noticeable fraction of a second, and a signal in that time would otherwise
print a traceback from inside an import.
"""

from __future__ import annotations

import signal
import sys

_STOPPING = (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None))


class _Stop(BaseException):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: object) -> None:
    raise _Stop(signum)


def run() -> None:
    """Run the command: ``eller-stream ...`` and ``python -m eller_stream ...``."""
    for signum in _STOPPING:
        if signum is not None:
            signal.signal(signum, _stop)
    try:
        from .cli import main
    except (_Stop, KeyboardInterrupt) as exc:
        sys.exit(128 + (exc.signum if isinstance(exc, _Stop) else signal.SIGINT))
    # the command installs its own handlers; until then Ctrl-C is a KeyboardInterrupt
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code = main()
    except _Stop as exc:  # SIGTERM or SIGHUP before the command took over its handling
        code = 128 + exc.signum
    sys.exit(code)
