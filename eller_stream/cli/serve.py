"""``eller-stream serve``: the HTTP API and the viewer (eller_stream.serve)."""

from __future__ import annotations

import asyncio
import http.client
import importlib.util
import logging
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from . import _options as opt
from ._common import PROG, Parser, UsageError, os_message, say

EXIT_STATUSES = """\
exit status:
  0    stopped
  2    a bad option, an address it cannot listen on, or the [serve] extra
       not installed
  128+N  stopped by signal N: 130 Ctrl-C (SIGINT), 143 SIGTERM, 129 SIGHUP
Every error is one line on standard error: "eller-stream: error: ...".
"""

EXAMPLES = f"""\
examples:
  eller-stream serve                            http://127.0.0.1:8080/ : the viewer
  eller-stream serve --port 0                   any free port (printed)
  eller-stream serve --grace 30                 a stop waits 30 s for the answers under way
  curl 'http://127.0.0.1:8080/v1/rows?width=80&band=32&seed=7&start=-5&stop=60' > rows.raw
  curl 'http://127.0.0.1:8080/v1/region?seed=7&y0=-50&y1=50&x0=0&x1=80' > region.raw

the API (docs/serve.md):
  GET /v1/rows   width, seed, start, stop, band (none: the Eller stream, rows
                 from 0), horizontal, vertical, doors, loops, rooms, schedule
                 (JSON), format=raw|json|png
  GET /v1/region a rectangle of the plane: y0, y1, x0, x1 (in [-2**62, 2**62]),
                 seed, chunk (16), perfect, horizontal, vertical,
                 format=raw|json|png
  GET /v1/info   the version, each endpoint's parameters and defaults, the limits

{EXIT_STATUSES}"""

EXTRA = ("starlette", "uvicorn")
SHUTDOWN_GRACE = 5  # seconds a signal leaves the answers under way before they are dropped (--grace)
# the packages of the [serve] extra by name: the package itself is not on PyPI (yet)
HINT = "pip install starlette uvicorn httptools (the [serve] extra: pip install '.[serve]' in a clone)"

if TYPE_CHECKING:
    import uvicorn


def parser() -> Parser:
    p = Parser(f"{PROG} serve", "Serve the maze's rows over HTTP, with a viewer at /.", EXAMPLES)
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (127.0.0.1)")
    p.add_argument(
        "--port", type=opt.option_int("port", 0, 65535), default=8080, help="the port; 0: any (8080)"
    )
    p.add_argument(
        "--grace",
        type=opt.option_int("grace", 0, 3600),
        default=SHUTDOWN_GRACE,
        help=f"seconds a stop leaves the answers under way before it cuts them short ({SHUTDOWN_GRACE})",
    )
    return p


def _listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket. Its protocol is IPPROTO_TCP, not 0, so that
    asyncio sets TCP_NODELAY on the connections it accepts: without it a
    response written in two parts waits for the client's delayed ACK (40 ms)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        address = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM, socket.IPPROTO_TCP)[0][4]
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    except (OSError, OverflowError, UnicodeError) as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {_reason(exc)}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(1024)
    except (OSError, OverflowError) as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {_reason(exc)}") from None
    return sock


def _reason(exc: Exception) -> str:
    return os_message(exc) if isinstance(exc, OSError) else str(exc)


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(argv)
    missing = [name for name in EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(f"serve needs {', '.join(missing)}: {HINT}")
    import uvicorn

    from .. import _engine
    from ..serve._protocol import protocol
    from ..serve._query import LIMITS
    from ..serve.app import app, warm

    sock = _listen(args.host, args.port)
    # It listens at once: while numba gets the kernels ready (seconds; half a
    # minute on an empty cache), their lean twins answer (eller_stream._engine),
    # every request, the largest too (seconds, not the compile's half minute).
    _engine.lean_up_to(LIMITS["max_made_cells"])
    threading.Thread(target=_warm, args=(warm,), name="warm-up", daemon=True).start()
    http = protocol("httptools" if importlib.util.find_spec("httptools") else "h11")  # JSON errors
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, http=http, lifespan="off",
        timeout_graceful_shutdown=args.grace,  # a client that reads nothing holds no one up
    )  # fmt: skip
    server = uvicorn.Server(config)
    threading.Thread(target=_announce, args=(server, sock.getsockname()[:2]), daemon=True).start()
    logging.getLogger("uvicorn.error").addFilter(_OwnWords(args.grace))
    server.run(sockets=[sock])  # after a signal, uvicorn raises it again: the status is 128 + N
    return 0


class _OwnWords(logging.Filter):
    """uvicorn's log lines that the command has its own way for: a request
    its parser refused (the client got a JSON 400: the server's stderr is no
    log of clients' mistakes), and a shutdown that gave up on answers still
    under way (a client that reads nothing), said in the command's words."""

    def __init__(self, grace: int) -> None:
        super().__init__()
        self.grace = grace

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "graceful shutdown exceeded" in message:
            say(f"stopping: answers still being sent after {self.grace} s were cut short")
            return False
        if record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError):
            return False  # an answer cut short while it was being made: said above
        return message != "Invalid HTTP request received."


def _warm(warm: Callable[[], None]) -> None:
    """The warm-up, in its thread: should numba fail, the lean twins answer on."""
    try:
        warm()
    except Exception:  # nothing to report to: the requests are answered all the same
        pass


def _announce(server: uvicorn.Server, address: tuple[str, int]) -> None:
    """Once the server runs, ask it for a few rows (the first request of a
    process pays for uvicorn's first connection, ~20 ms), then say where it is."""
    host, port = address
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.01)
    local = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    try:
        conn = http.client.HTTPConnection(local, port, timeout=10)
        conn.request("GET", "/v1/rows?width=8&band=8&seed=1&start=0&stop=8")
        conn.getresponse().read()
        conn.close()
    except OSError:
        pass  # it serves all the same
    shown = f"[{host}]" if ":" in host else host
    say(f"serving http://{shown}:{port}/ (the viewer; the API at /v1/rows and /v1/region); Ctrl-C stops")
