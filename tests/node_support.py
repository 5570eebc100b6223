"""node for the tests: a script of ``tests/js`` that answers one JSON line
on stdout for each JSON line on stdin (``rows_stdio.mjs``, ``calls_stdio.mjs``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (.ci/run installs nodejs)")
JS = Path(__file__).resolve().parent / "js"


class NodeLines:
    """One node process running ``tests/js/<script>``, asked a line at a time."""

    script = ""

    def __init__(self) -> None:
        assert NODE is not None
        command = [NODE, str(JS / self.script)]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


N = TypeVar("N", bound=NodeLines)


def running(kind: type[N]) -> Iterator[N]:
    """A fixture's body: the process for the tests of a module, then stopped."""
    if NODE is None:
        pytest.skip("node is not installed (.ci/run installs nodejs)")
    process = kind()
    yield process
    process.close()
