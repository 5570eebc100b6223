"""Which engine makes the rows: numba's compiled kernels, or the lean backend.

The lean backend (:mod:`eller_stream._lean`) makes the same rows with numpy
and plain Python, for machines where numba cannot be installed (32-bit ARM,
RISC-V, musl) or is not wanted (little memory, no compile). It is chosen

- when ``ELLER_STREAM_BACKEND=lean``;
- when the variable is unset (or empty) and numba is not installed, or
  fails to import when a kernel first needs it.

``ELLER_STREAM_BACKEND=numba`` insists on numba and fails clearly without
it. With numba, the package imports it only when a kernel first needs it
(often in a background thread: a stream's first rows come from the lean
backend meanwhile); in the lean backend numba is never imported.

>>> import eller_stream as es
>>> es.backend() in ("numba", "lean")
True
"""

from __future__ import annotations

import importlib.util
import os
import sys

__all__ = ["LEAN", "NeedsNumba", "backend", "require_numba"]

ENV = "ELLER_STREAM_BACKEND"


class NeedsNumba(RuntimeError):
    """A function that only the numba backend has, called on the lean one."""


def _choose() -> str:
    asked = os.environ.get(ENV, "").strip().lower()
    if asked not in ("", "numba", "lean"):
        raise ImportError(f"{ENV} must be 'numba' or 'lean' (or unset), got {os.environ[ENV]!r}")
    if asked == "lean":
        return "lean"
    if asked == "numba":  # insisted on: imported now, so that it fails here if it must
        try:
            import numba  # noqa: F401
        except Exception as exc:
            message = f"{ENV}=numba, but numba cannot be imported ({exc}): pip install numba"
            raise ImportError(message) from None
        return "numba"
    if "numba" in sys.modules or importlib.util.find_spec("numba") is not None:
        return "numba"  # imported when a kernel is first needed (eller_stream._numba.load)
    return "lean"


_BACKEND = _choose()
LEAN = _BACKEND == "lean"
_failed: list[str] = []  # numba was there but failed to import (eller_stream._numba.load): lean after all


def numba_failed(reason: str) -> None:
    """numba was found but could not be imported: the lean backend goes on."""
    _failed.append(reason)


def backend() -> str:
    """The engine in use: ``"numba"`` (compiled kernels) or ``"lean"`` (numpy
    and plain Python, without numba). With numba installed, it imports numba
    (if no kernel has yet) to tell whether it works."""
    if not LEAN:
        from ._numba import load

        load()
    return "lean" if LEAN or _failed else "numba"


def require_numba(what: str) -> None:
    """Raise :class:`NeedsNumba` naming ``what`` when the backend is lean."""
    if not LEAN:
        from ._numba import load

        load()  # does numba import?
    if LEAN or _failed:
        why = f"numba failed to import: {_failed[0]}" if _failed else f"numba is not installed, or {ENV}=lean"
        raise NeedsNumba(
            f"{what} needs numba, and the backend is lean ({why}): pip install numba; "
            "the lean backend has the Eller stream and the banded maze"
        )
