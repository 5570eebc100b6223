"""What numba's cache of the package's kernels is keyed on: every module of
the package, not the kernel's own file alone.

numba keys a function's cached machine code on its own source file, but a
kernel holds the code of every kernel it calls, from other files too
(``band_make`` holds the braid's, from ``_braid_kernels.py``). Changed
there alone, the caller's cache would still load, with the old callee
inside: a checkout or an editable install that changes one file would make
different rows from then on, silently. So each kernel's cache is stamped
with a hash of all the package's modules: a change to any of them compiles
every kernel again, once.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_stamp: list[bytes] = []


def package_stamp() -> bytes:
    """The sha256 of the package's modules (names and contents, in name
    order), computed once a process."""
    if not _stamp:
        digest = hashlib.sha256()
        for path in sorted(Path(__file__).parent.glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        _stamp.append(digest.digest())
    return _stamp[0]


def restamp(dispatcher: object) -> None:
    """Key ``dispatcher``'s cache (numba's, made with ``cache=True``) on
    :func:`package_stamp`: the stamp its index is read against and written
    with.  A numba without these internals keeps its own stamp."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is not None and hasattr(cache_file, "_source_stamp"):
        setattr(cache_file, "_source_stamp", package_stamp())  # noqa: B010 (numba's private attribute)
