"""A real ``eller-stream serve`` for the tests: started on a free port of
127.0.0.1 in a new process, stopped with SIGTERM."""

from __future__ import annotations

import http.client
import importlib.util
import json
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import pytest
from cli_support import CMD, ENV

HAS_SERVE = all(importlib.util.find_spec(name) for name in ("starlette", "uvicorn"))
# CI installs the extra: there these tests run (and fail without it)
needs_serve = pytest.mark.skipif(
    not HAS_SERVE and not os.environ.get("CI"),
    reason="the [serve] extra is not installed (pip install '.[serve]')",
)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Server:
    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        command = [*CMD, "serve", "--port", "0", *args]
        self.proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env or ENV)
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        if "serving http://" not in line:
            self.proc.kill()
            raise RuntimeError(f"the server did not start: {line}{self.proc.stderr.read()}")
        self.address = line.split("http://")[1].split("/")[0]
        self.host, port = self.address.rsplit(":", 1)
        self.port = int(port)

    def wait_warm(self, seconds: float = 300) -> None:
        """Wait until ``/v1/info`` says the warm-up is over (numba's kernels answer)."""
        deadline = time.monotonic() + seconds
        while not self.get("/v1/info").json()["warm"]:
            assert time.monotonic() < deadline, "the server's warm-up did not end"
            time.sleep(0.05)

    def get(self, path: str, headers: dict[str, str] | None = None, method: str = "GET") -> Answer:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, headers=headers or {})
            r = conn.getresponse()
            return Answer(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
        finally:
            conn.close()

    def raw(self, data: bytes) -> Answer:
        """Send ``data`` as it is (what http.client would not) and read the answer to its close."""
        return raw_request(self.host, self.port, data)

    def rows(self, **query: Any) -> Answer:
        return self.get("/v1/rows?" + urlencode(query))

    def region(self, **query: Any) -> Answer:
        return self.get("/v1/region?" + urlencode(query))

    def info_waits_while(self, heavy: Callable[[], Answer]) -> tuple[float, list[float]]:
        """How long ``heavy()`` takes alone, and how long twelve ``/v1/info``
        took while two clients asked ``heavy()`` again and again (each of
        their answers a 200)."""
        began = time.perf_counter()
        assert heavy().status == 200
        alone = time.perf_counter() - began
        done, statuses, waits = threading.Event(), [], []

        def client() -> None:
            while not done.is_set():
                statuses.append(heavy().status)

        clients = [threading.Thread(target=client) for _ in range(2)]
        for t in clients:
            t.start()
        time.sleep(alone / 2)
        for _ in range(12):
            began = time.perf_counter()
            assert self.get("/v1/info").status == 200
            waits.append(time.perf_counter() - began)
            time.sleep(0.03)
        done.set()
        for t in clients:
            t.join()
        assert statuses and set(statuses) == {200}
        return alone, waits

    def stop(self, signum: int = signal.SIGTERM) -> tuple[int, str]:
        """Send ``signum``; the exit status and what stderr said after the first line."""
        self.proc.send_signal(signum)
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        return self.proc.returncode, err


def raw_request(host: str, port: int, data: bytes) -> Answer:
    """Send ``data`` on a new connection, read until the server closes it, and parse the answer."""
    with socket.create_connection((host, port), timeout=60) as conn:
        conn.sendall(data)
        chunks = []
        while chunk := conn.recv(1 << 16):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict((k.strip().lower(), v.strip()) for k, v in (line.split(":", 1) for line in lines))
    return Answer(int(status_line.split()[1]), headers, body)
