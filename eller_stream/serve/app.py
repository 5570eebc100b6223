"""The HTTP API and the viewer, as an ASGI app (Starlette).

- ``GET /v1/rows?width=80&band=32&seed=7&start=-5&stop=60&format=raw``: the
  rows (raw flag bytes, JSON or PNG); immutable, with an ``ETag``.
- ``GET /v1/region?chunk=16&seed=7&y0=-5&y1=60&x0=2&x1=90&format=raw``: a
  rectangle of the plane, the same way.
- ``GET /v1/info``: the version, each endpoint's parameters and defaults,
  the limits, and whether the warm-up is over (``warm``).
- ``GET /``: the viewer; ``/viewer.js`` and ``/eller_stream.mjs`` its scripts
  (the second is the JavaScript module, for games too, which imports
  ``/_core.mjs``, ``/plane.mjs`` and ``/_wasm.mjs``).

A bad request is a 400 (an unknown path a 404, another method a 405), each
with a JSON body ``{"error": ..., "parameter": ...}``; every answer allows
any origin. A request is judged by the cells it makes (the rows it replays,
the whole bands it makes, :mod:`eller_stream._cost`; a region's whole
chunks, ``Plane.cells_made``): past ``INLINE_CELLS``, or drawn as a PNG
(whose pixels cost more than its cells), it is made in a worker thread (the
kernels let go of the GIL, a JSON answer is encoded in pieces), at most
``HEAVY_AT_ONCE`` at a time, so that the event loop answers the others.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from importlib import resources
from typing import Any, Protocol
from urllib.parse import parse_qs

import anyio.to_thread
from anyio import CapacityLimiter
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .. import __version__
from .. import _engine as engine
from . import _region, _request
from ._query import FORMATS, LIMITS, Query, QueryError

__all__ = ["app", "make_app", "warm"]

IMMUTABLE = "public, max-age=31536000, immutable"
INLINE_CELLS = 2**16  # a request that makes more cells runs in a worker thread, not in the event loop
HEAVY_AT_ONCE = 4  # worker threads making rows at once (each up to max_made_cells); the rest wait
SHAPE = "X-Width, X-Start, X-Stop, X-Height, X-Y0, X-Y1, X-X0, X-X1"  # what an answer holds (rows, regions)
WARM = threading.Event()  # set once warm() is over: numba's kernels answer (if numba failed, the lean twins)
CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag, " + SHAPE}
STATIC = {
    "/": ("viewer.html", "text/html; charset=utf-8"),
    "/viewer.js": ("viewer.js", "text/javascript; charset=utf-8"),
    "/plane_view.js": ("plane_view.js", "text/javascript; charset=utf-8"),
    "/numbers.js": ("numbers.js", "text/javascript; charset=utf-8"),
    "/eller_stream.mjs": ("eller_stream.mjs", "text/javascript; charset=utf-8"),
    # the modules eller_stream.mjs imports (its primitives, the plane, the primitives' WebAssembly)
    "/_core.mjs": ("_core.mjs", "text/javascript; charset=utf-8"),
    "/plane.mjs": ("plane.mjs", "text/javascript; charset=utf-8"),
    "/_wasm.mjs": ("_wasm.mjs", "text/javascript; charset=utf-8"),
}
MAX_FIELDS = 32


def error_body(status: int, message: str, parameter: str | None = None, **details: int) -> bytes:
    """The JSON body of an error answer."""
    return json.dumps({"error": message, "parameter": parameter, "status": status, **details}).encode()


def _error(status: int, message: str, parameter: str | None = None, **details: int) -> Response:
    body = error_body(status, message, parameter, **details)
    headers = {**CORS, "Cache-Control": "no-store"}
    return Response(body, status, headers=headers, media_type="application/json")


def _query(request: Request) -> dict[str, list[str]]:
    text = request.scope.get("query_string", b"").decode("latin-1")
    try:
        return parse_qs(text, keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except ValueError:
        raise QueryError("query", f"a query has at most {MAX_FIELDS} parameters") from None


class _Request(Protocol):
    """What an endpoint's parse gives (``RowsRequest``, ``RegionRequest``)."""

    @property
    def made(self) -> int: ...  # the cells making its answer takes
    @property
    def format(self) -> str: ...  # raw, json or png

    def etag(self) -> str: ...
    def headers(self) -> dict[str, str]: ...
    def body(self) -> tuple[bytes, str]: ...


def _endpoint(parse: Callable[[Query], _Request]) -> Callable[[Request], Any]:
    """The route of an endpoint whose query ``parse`` reads: a 400 naming
    the parameter, a 304 on a matching ``If-None-Match``, or the answer,
    made in a worker thread when it makes many cells."""

    async def answer(request: Request) -> Response:
        try:
            req = parse(_query(request))
        except QueryError as exc:
            return _error(400, str(exc), exc.parameter, **exc.details)
        except (TypeError, ValueError, RecursionError) as exc:  # a check that names no parameter
            return _error(400, f"a bad query: {str(exc)[:200] or type(exc).__name__}")
        etag = req.etag()
        headers = {**CORS, "ETag": etag, "Cache-Control": IMMUTABLE, **req.headers()}
        if _none_match(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers=headers)
        body, media = await _body(req)
        return Response(body, headers=headers, media_type=media)

    return answer


def _none_match(header: str | None, etag: str) -> bool:
    """Whether ``If-None-Match`` matches: ``*`` (the rows exist), or a tag of
    its list, compared weakly (``W/"..."`` matches ``"..."``)."""
    if header is None:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",")}
    return "*" in tags or etag in tags


_limiters: dict[asyncio.AbstractEventLoop, CapacityLimiter] = {}  # one an event loop


async def _body(req: _Request) -> tuple[bytes, str]:
    if req.made <= INLINE_CELLS and req.format != "png":  # a picture costs its pixels, not its cells
        return req.body()
    loop = asyncio.get_running_loop()
    limiter = _limiters.get(loop)
    if limiter is None:
        for old in [old for old in _limiters if old.is_closed()]:
            del _limiters[old]
        limiter = _limiters[loop] = CapacityLimiter(HEAVY_AT_ONCE)
    return await anyio.to_thread.run_sync(req.body, limiter=limiter)


async def info_route(request: Request) -> Response:
    if request.query_params:
        name = next(iter(request.query_params))
        return _error(400, f"unknown parameter {name[:40]!r} (/v1/info takes none)", name)
    return Response(json.dumps(info()), headers=CORS, media_type="application/json")


def info() -> dict[str, Any]:
    """What ``GET /v1/info`` answers: the version, the limits and formats
    (one table for every endpoint), each endpoint's parameters and defaults
    (``defaults`` alone: the rows'), and ``warm``: whether :func:`warm` is
    over (before, the kernels' lean twins make the answers: the same bytes,
    the large ones slower)."""
    rows = _request.info()
    endpoints = {"/v1/rows": rows, "/v1/region": _region.info()}
    head = {"version": __version__, "defaults": rows["defaults"], "limits": LIMITS, "formats": list(FORMATS)}
    return {**head, "endpoints": endpoints, "warm": WARM.is_set()}


def _static(name: str, media: str) -> Any:
    data = resources.files(__package__).joinpath("static", name).read_bytes()

    async def serve(request: Request) -> Response:
        return Response(data, headers={**CORS, "Cache-Control": "no-cache"}, media_type=media)

    return serve


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    messages = {
        404: f"no such path: {request.url.path[:80]}",
        405: f"{request.method} is not allowed here (GET)",
    }
    return _error(status, messages.get(status, "the server failed"))


def make_app() -> Starlette:
    """The app: the API's routes, the viewer and its scripts."""
    routes = [
        Route("/v1/rows", _endpoint(_request.parse), methods=["GET"]),
        Route("/v1/region", _endpoint(_region.parse), methods=["GET"]),
        Route("/v1/info", info_route, methods=["GET"]),
    ]
    routes += [Route(path, _static(name, media), methods=["GET"]) for path, (name, media) in STATIC.items()]
    return Starlette(routes=routes, exception_handlers={HTTPException: _http_error, Exception: _http_error})


def warm() -> None:
    """Compile (or load from numba's cache) every kernel a request can run,
    so that the first request is as fast as the rest; then set :data:`WARM`
    (also if numba failed: the lean twins answer for good)."""
    try:
        _warm_up()
    finally:
        WARM.set()


def _warm_up() -> None:
    parse = _request.parse
    small = {"width": ["8"], "seed": ["1"], "start": ["-3"], "stop": ["9"]}
    for extra in ({}, {"loops": ["0.5"]}, {"rooms": ["0.3"]}, {"loops": ["1"], "rooms": ["0.5"]}):
        for fmt in ("raw", "json", "png"):
            parse({**small, "band": ["8"], "format": [fmt], **extra}).body()
    parse({**small, "band": ["8"], "schedule": ['{"0": {"loops": 0}, "1": {"loops": 0.5}}']}).body()
    parse({**small, "start": ["0"]}).body()
    parse({"width": ["80"], "band": ["32"], "seed": ["1"], "start": ["0"], "stop": ["2048"]}).body()
    corner = {"seed": ["1"], "chunk": ["4"], "y0": ["-3"], "y1": ["9"], "x0": ["-5"], "x1": ["7"]}
    for perfect in ("true", "false"):
        for fmt in ("raw", "json", "png"):
            _region.parse({**corner, "perfect": [perfect], "format": [fmt]}).body()
    big = {"seed": ["1"], "y0": ["0"], "y1": ["512"], "x0": ["0"], "x1": ["512"]}  # on every core
    for perfect in ("true", "false"):
        _region.parse({**big, "perfect": [perfect]}).body()
    engine.settle()  # the kernels, not their lean twins, answer from the first request


app = make_app()
