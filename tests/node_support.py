"""node for the tests: a script of ``tests/js`` that answers one JSON line
on stdout for each JSON line on stdin (``rows_stdio.mjs``, ``calls_stdio.mjs``,
``plane_stdio.mjs``)."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import pytest

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (.ci/run installs nodejs)")
JS = Path(__file__).resolve().parent / "js"


class NodeLines:
    """One node process running ``tests/js/<script>``, asked a line at a time
    (``env``: more of its environment, as ``ELLER_STREAM_WASM``)."""

    script = ""
    env: ClassVar[dict[str, str]] = {}

    def __init__(self) -> None:
        assert NODE is not None
        command = [NODE, str(JS / self.script)]
        env = {**os.environ, **self.env}
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


class Big(int):
    """An int the JavaScript module gets as a BigInt (a plain int is a Number)."""


def to_js(value: Any) -> Any:
    """``value`` as the scripts read it (tests/js/_revive.mjs): a ``Big`` as a
    BigInt, NaN and the infinities as those Numbers."""
    if isinstance(value, Big):
        return {"$big": str(int(value))}
    if isinstance(value, float) and not math.isfinite(value):
        return {"$": "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"}
    if isinstance(value, dict):
        return {k: to_js(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_js(v) for v in value]
    return value


N = TypeVar("N", bound=NodeLines)


def running(kind: type[N]) -> Iterator[N]:
    """A fixture's body: the process for the tests of a module, then stopped."""
    if NODE is None:
        pytest.skip("node is not installed (.ci/run installs nodejs)")
    process = kind()
    yield process
    process.close()


STATIC = Path(__file__).resolve().parent.parent / "eller_stream" / "serve" / "static"


def half_up_module(where: Path) -> Path:
    """A copy of the JavaScript module in ``where`` whose ``threshold``
    (in ``_core.mjs``) rounds half up, as ``Math.round`` does: the path of
    its ``eller_stream.mjs``, for ``ELLER_STREAM_MODULE``."""
    for path in STATIC.glob("*.mjs"):
        (where / path.name).write_text(path.read_text())
    core = where / "_core.mjs"
    head, rest = core.read_text().split("export function threshold(p) {\n", 1)
    _, tail = rest.split("\n}\n", 1)
    core.write_text(head + "export function threshold(p) {\n  return Math.round(p * TWO32);\n}\n" + tail)
    return where / "eller_stream.mjs"
