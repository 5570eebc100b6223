"""Running the ``eller-stream`` command in tests.

:func:`run` runs it in this process (its entry point, ``eller_stream._entry.run``,
with ``sys.argv``, standard output and standard error swapped for buffers):
a command that writes to a pipe and exits gives the same status and the
same bytes there as in a process of its own, without the half second a new
interpreter takes to import numpy and numba and load the kernels.
:func:`process` runs it as a new process (``python -m eller_stream``) with
this checkout first on PYTHONPATH: for what is about the process itself
(signals, a real stdout, its environment, resource limits, import time).
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import locale
import os
import signal
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
CMD = [sys.executable, "-m", "eller_stream"]

_NEVER_COMPILES = """
import time
import numba.core.dispatcher
numba.core.dispatcher.Dispatcher.compile = lambda self, sig: time.sleep(3600)
"""


def numba_never_ready(folder: Any, how: str) -> dict[str, str]:
    """The environment of a new process whose numba never imports
    (``how="import"``) or imports but never compiles a kernel nor loads one
    from its cache (``how="compile"``): what runs there must not wait for it."""
    os.makedirs(folder, exist_ok=True)
    if how == "import":
        os.makedirs(os.path.join(folder, "numba"))
        with open(os.path.join(folder, "numba", "__init__.py"), "w") as f:
            f.write("import time\ntime.sleep(3600)\n")
    else:
        with open(os.path.join(folder, "sitecustomize.py"), "w") as f:
            f.write(_NEVER_COMPILES)
    environ = {**ENV, "PYTHONPATH": os.fspath(folder) + os.pathsep + ENV["PYTHONPATH"]}
    environ.pop("ELLER_STREAM_BACKEND", None)
    return environ


def process(
    *args: str | bytes, stdout: Any = subprocess.PIPE, timeout: float = 120, **kw: Any
) -> subprocess.CompletedProcess[Any]:
    """The command with ``args`` in a new process; stderr (and by default stdout) captured as bytes."""
    return subprocess.run(
        [*CMD, *args], stdout=stdout, stderr=subprocess.PIPE, env=ENV, timeout=timeout, check=False, **kw
    )


def run(
    *args: str | bytes,
    stdout: Any = subprocess.PIPE,
    timeout: float = 120,
    cwd: Any = None,
    text: bool = False,
    **kw: Any,
) -> subprocess.CompletedProcess[Any]:
    """The command with ``args`` (in the folder ``cwd``); stderr (and by
    default stdout) captured as bytes, or as text with ``text=True``. With
    stdout a pipe and nothing else asked of the process (``kw``) it runs in
    this process (:func:`in_process`); otherwise in a new one (:func:`process`)."""
    if stdout is not subprocess.PIPE or kw:
        return process(*args, stdout=stdout, timeout=timeout, cwd=cwd, text=text, **kw)
    done = in_process(*args, timeout=timeout, cwd=cwd)
    if text:  # as subprocess.run(text=True) decodes: the locale's encoding, universal newlines
        done.stdout, done.stderr = (_text(b) for b in (done.stdout, done.stderr))
    return done


def _text(data: bytes) -> str:
    encoding = locale.getpreferredencoding(False)
    return data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")


class _Pipe(io.TextIOWrapper):
    """A text stream over a byte buffer that, like a pipe, is no terminal and has no file descriptor."""

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise io.UnsupportedOperation("fileno")


# what a new interpreter's sys.stdout and sys.stderr would encode with (the locale's
# encoding, or PYTHONIOENCODING): the xdist worker's own, whose stdio are pipes too
_ENCODING = getattr(sys.__stdout__, "encoding", None) or "utf-8"
_HANDLED = [s for s in ("SIGINT", "SIGTERM", "SIGHUP", "SIGALRM") if hasattr(signal, s)]


@contextlib.contextmanager
def _kept_signals() -> Iterator[None]:
    """The entry point installs its own signal handlers and leaves them: put this process's back."""
    saved = {name: signal.getsignal(getattr(signal, name)) for name in _HANDLED}
    try:
        yield
    finally:
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_REAL, 0)
        for name, handler in saved.items():
            signal.signal(getattr(signal, name), handler)


@contextlib.contextmanager
def _chdir(path: Any) -> Iterator[None]:
    """In the folder ``path`` (None: where this process is), and back (contextlib.chdir of Python 3.11)."""
    if path is None:
        yield
        return
    here = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(here)


def _new_process_warnings() -> None:
    """A new interpreter's warning filters (without -W or PYTHONWARNINGS), each
    warning printed to ``sys.stderr`` the first time its line gives it (not
    recorded by pytest); inside ``warnings.catch_warnings()``, which puts
    this process's back."""
    warnings.resetwarnings()
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__", append=True)
    for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
        warnings.filterwarnings("ignore", category=category, append=True)
    warnings.simplefilter("default", append=True)

    def show(
        message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None
    ) -> None:
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))

    warnings.showwarning = show


def in_process(
    *args: str | bytes, timeout: float = 120, cwd: Any = None
) -> subprocess.CompletedProcess[bytes]:
    """The command with ``args`` run by its entry point in this process, as
    ``python -m eller_stream`` would run it: its exit status (``sys.exit``)
    and the bytes written to standard output and standard error. Warnings
    reach its stderr as they would a new process's (each once). A command
    that takes longer than ``timeout`` seconds ends this process (faulthandler,
    which prints where it was): the test fails as a crashed one. An argument
    given as bytes is decoded as the interpreter decodes its command line
    (``os.fsdecode``: undecodable bytes become lone surrogates); ``cwd`` is
    the working folder while it runs."""
    from eller_stream import _entry

    out, err = io.BytesIO(), io.BytesIO()
    fake_out = _Pipe(out, encoding=_ENCODING)
    fake_err = _Pipe(err, encoding=_ENCODING, errors="backslashreplace", line_buffering=True)
    saved = sys.argv, sys.stdout, sys.stderr
    code: Any = 0
    if sys.__stderr__ is not None:
        faulthandler.dump_traceback_later(timeout, exit=True, file=sys.__stderr__)
    try:
        with _kept_signals(), warnings.catch_warnings():
            _new_process_warnings()
            sys.argv = [sys.argv[0], *(os.fsdecode(a) for a in args)]
            sys.stdout, sys.stderr = fake_out, fake_err
            try:
                with _chdir(cwd):
                    _entry.run()
            except SystemExit as exc:
                code = exc.code
            for f in (fake_out, fake_err):
                f.flush()
    finally:
        faulthandler.cancel_dump_traceback_later()
        sys.argv, sys.stdout, sys.stderr = saved
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): the message on stderr, status 1
        err.write(f"{code}\n".encode(_ENCODING, "backslashreplace"))
        code = 1
    command = [*CMD, *map(os.fsdecode, args)]
    return subprocess.CompletedProcess(command, code, out.getvalue(), err.getvalue())


def one_error_line(err: bytes) -> str:
    """The one line ``eller-stream: error: ...`` that ``err`` must be."""
    text = err.decode()
    lines = text.splitlines()
    assert "Traceback" not in text, text
    assert len(lines) == 1 and lines[0].startswith("eller-stream: error: "), text
    return lines[0]


def raw(data: bytes, width: int) -> np.ndarray:
    """``--style raw`` output as a ``(rows, width)`` grid."""
    return np.frombuffer(data, np.uint8).reshape(-1, width)


def raw_rows(*args: str, width: int) -> np.ndarray:
    """The rows the command with ``args`` streams in ``--style raw`` (it must succeed)."""
    out = run(*args, "--style", "raw", "--width", str(width))
    assert out.returncode == 0, out.stderr
    return raw(out.stdout, width)
