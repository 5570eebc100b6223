"""What numba's cache of the package's kernels is keyed on: every module of
the package as it was imported, not the kernel's own file alone.

numba keys a function's cached machine code on its own source file, but a
kernel holds the code of every kernel it calls, from other files too
(``band_make`` holds the braid's, from ``_braid_kernels.py``). Changed
there alone, the caller's cache would still load, with the old callee
inside: a checkout or an editable install that changes one file would make
different rows from then on, silently. So each kernel's cache is stamped
with a hash of all the package's modules: a change to any of them compiles
every kernel again, once.

The hash is of the files as they were when the first kernel was defined
(the package being imported), not when numba is loaded, which may be much
later: a process that imported the old files and compiles after a checkout
compiles the old code, and must not stamp it as the new. A module imported
later whose file changed since then makes the process's code match no
files: its kernels get a stamp of their own, which no other process shares.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

_FOLDER = os.path.dirname(os.path.abspath(__file__))
_digests: dict[str, bytes] = {}  # each module's sha256 when the first kernel was defined
_checked: set[str] = set()  # the modules whose kernels were defined (checked against _digests)
_stamps: dict[bool, bytes] = {}  # the stamp, while the files match; a stamp of this process's own


def _digest(path: Path) -> bytes:
    try:
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError:  # gone, or a dangling link (an editor's lock file): still a state of the folder
        return b"unreadable"


def _snapshot() -> None:
    if not _digests:
        modules = [p for p in Path(_FOLDER).glob("*.py") if p.stem.isidentifier()]
        _digests.update({p.name: _digest(p) for p in modules})


def defined(func: Callable[..., object]) -> None:
    """Note that the kernel ``func`` is defined now (its module is being
    imported): the first one takes the modules' hashes; the first of each
    module checks its file against them."""
    _snapshot()
    path = func.__code__.co_filename
    name = os.path.basename(path)
    if name in _checked or os.path.dirname(os.path.abspath(path)) != _FOLDER:
        return
    _checked.add(name)
    if _digests.get(name) != _digest(Path(path)):
        _stamps.setdefault(False, os.urandom(32))  # changed since: this process's code is its own


def package_stamp() -> bytes:
    """The sha256 of the package's modules (names and contents, in name
    order) when the first kernel was defined, or this process's own stamp
    once a module imported since was found changed."""
    if False in _stamps:
        return _stamps[False]
    if True not in _stamps:
        _snapshot()
        digest = hashlib.sha256()
        for name in sorted(_digests):
            digest.update(name.encode() + b"\0" + _digests[name])
        _stamps[True] = digest.digest()
    return _stamps[True]


def restamp(dispatcher: object) -> None:
    """Key ``dispatcher``'s cache (numba's, made with ``cache=True``) on
    :func:`package_stamp`: the stamp its index is read against and written
    with.  A numba without these internals keeps its own stamp."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is not None and hasattr(cache_file, "_source_stamp"):
        setattr(cache_file, "_source_stamp", package_stamp())  # noqa: B010 (numba's private attribute)
