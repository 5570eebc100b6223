"""Running the ``eller-stream`` command in tests: a new process
(``python -m eller_stream``) with this checkout first on PYTHONPATH."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
CMD = [sys.executable, "-m", "eller_stream"]


def run(
    *args: str, stdout: Any = subprocess.PIPE, timeout: float = 120, **kw: Any
) -> subprocess.CompletedProcess[bytes]:
    """The command with ``args``; stderr (and by default stdout) captured as bytes."""
    return subprocess.run(
        [*CMD, *args], stdout=stdout, stderr=subprocess.PIPE, env=ENV, timeout=timeout, check=False, **kw
    )


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
