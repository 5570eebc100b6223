"""uvicorn's HTTP protocols, answering what their parser refuses with the
API's JSON error, not uvicorn's plain text ("Invalid HTTP request received.").

A request the HTTP parser cannot read never reaches the app, so the app
cannot answer it: uvicorn does, in ``send_400_response``, which these
subclasses replace. httptools keeps a URL's parts at 16-bit offsets, so a
URL of more than 65535 bytes does not parse: that is a ``414`` naming the
limit; anything else the parser refuses (h11 also refuses a request line and
headers of more than ``h11_max_incomplete_event_size`` bytes, 16 KiB by
default) is a ``400``.

>>> protocol("h11").__name__
'H11JsonErrors'
"""

from __future__ import annotations

import asyncio
from http import HTTPStatus
from typing import Any

from .app import CORS, error_body

__all__ = ["URL_LIMIT", "protocol"]

URL_LIMIT = 65535  # the longest URL httptools parses (offsets of 16 bits)


class _JsonErrors:
    """The mixin: ``send_400_response`` writes the API's JSON and closes."""

    transport: asyncio.Transport
    server_state: Any

    def send_400_response(self, msg: str) -> None:
        if len(getattr(self, "url", b"")) > URL_LIMIT:  # httptools: the URL so far, then the refusal
            status, message = 414, f"the URL is longer than {URL_LIMIT} bytes"
        else:
            status, message = 400, "not a valid HTTP request (or its request line and headers too long)"
        body = error_body(status, message)
        head = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode()]
        head += [name + b": " + value for name, value in self.server_state.default_headers]
        headers = {**CORS, "Cache-Control": "no-store", "Content-Type": "application/json"}
        head += [f"{name}: {value}".encode() for name, value in headers.items()]
        head += [f"Content-Length: {len(body)}".encode(), b"Connection: close"]
        self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        self.transport.close()


def protocol(name: str) -> type[asyncio.Protocol]:
    """uvicorn's protocol ``name`` (``"httptools"`` or ``"h11"``) with the API's
    errors: what ``uvicorn.Config(http=...)`` takes."""
    if name == "httptools":
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        class HttpToolsJsonErrors(_JsonErrors, HttpToolsProtocol):
            pass

        return HttpToolsJsonErrors
    if name == "h11":
        from uvicorn.protocols.http.h11_impl import H11Protocol

        class H11JsonErrors(_JsonErrors, H11Protocol):
            pass

        return H11JsonErrors
    raise ValueError(f"protocol must be 'httptools' or 'h11', got {name!r}")
