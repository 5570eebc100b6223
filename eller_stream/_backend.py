"""Which engine makes the rows: numba's compiled kernels, or the lean backend.

The lean backend (:mod:`eller_stream._lean`) makes the same rows with numpy
and plain Python, for machines where numba cannot be installed (32-bit ARM,
RISC-V, musl) or is not wanted (little memory, no compile). It is chosen

- when ``ELLER_STREAM_BACKEND=lean``;
- when the variable is unset (or empty) and numba cannot be imported.

``ELLER_STREAM_BACKEND=numba`` insists on numba and fails clearly without
it. The choice is made once, when the package first needs it; in the lean
backend numba is never imported.

>>> import eller_stream as es
>>> es.backend() in ("numba", "lean")
True
"""

from __future__ import annotations

import os

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
    try:
        import numba  # noqa: F401
    except Exception as exc:  # not installed, or installed but broken (its llvmlite, say)
        if asked == "numba":
            message = f"{ENV}=numba, but numba cannot be imported ({exc}): pip install numba"
            raise ImportError(message) from None
        return "lean"
    return "numba"


_BACKEND = _choose()
LEAN = _BACKEND == "lean"


def backend() -> str:
    """The engine in use: ``"numba"`` (compiled kernels) or ``"lean"`` (numpy
    and plain Python, without numba)."""
    return _BACKEND


def require_numba(what: str) -> None:
    """Raise :class:`NeedsNumba` naming ``what`` when the backend is lean."""
    if LEAN:
        raise NeedsNumba(
            f"{what} needs numba, and the backend is lean (numba is not installed, or "
            f"{ENV}=lean): pip install numba; the lean backend has the Eller stream and the banded maze"
        )
