"""What numba's cache of the package's kernels is keyed on: every module of
the package as the process imported it, not the kernel's own file alone.

numba keys a function's cached machine code on its own source file, but a
kernel holds the code of every kernel it calls, and the constants of the
modules it reads, from other files too (``bands_rows`` holds the braid's,
from ``_braid_kernels.py``). Changed there alone, the caller's cache would
still load, with the old code inside: a checkout or an editable install that
changes one file would make different rows from then on, silently. So each
kernel's cache is stamped with a hash of all the package's modules: a change
to any of them compiles every kernel again, once.

The modules are taken as they were when the package was imported
(``eller_stream._MODULE_STATS``: each file's mtime, size and inode, read
before any other module), not when numba loads, which may be much later: a
process that imported the old files and compiles after a checkout compiles
the old code, and must not stamp it as the new. When a file is no longer as
it was then (checked when the stamp is made, and again as each later kernel
is defined), the process's code may match no files: its kernels get a stamp
of their own, which no other process shares.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable

from . import _MODULE_STATS

_FOLDER = os.path.dirname(os.path.abspath(__file__))
_stamps: dict[bool, bytes] = {}  # True: the modules' stamp; False: this process's own
_checked: set[str | None] = set()  # the modules whose kernels defined() has checked


def _stats() -> dict[str, tuple[int, int, int]]:
    """The modules' (mtime, size, inode) now, as ``_MODULE_STATS`` holds them
    from the package's import (regular files named as modules only)."""
    stats: dict[str, tuple[int, int, int]] = {}
    try:
        for found in os.scandir(_FOLDER):
            if found.name.endswith(".py") and found.name[:-3].isidentifier() and found.is_file():
                st = found.stat()
                stats[found.name] = (st.st_mtime_ns, st.st_size, st.st_ino)
    except OSError:
        return {}
    return stats


def _as_imported() -> bool:
    """Whether every module is as it was when the package was imported."""
    return bool(_MODULE_STATS) and _stats() == _MODULE_STATS


def _own() -> bytes:
    return _stamps.setdefault(False, os.urandom(32))


def defined(func: Callable[..., object]) -> None:
    """Note that the kernel ``func`` is defined now (its module is being
    imported): once the modules' stamp is in use, a module changed since the
    package's import makes the later kernels' stamp the process's own.
    Checked at a module's first kernel: its others come from the same read
    of its file."""
    if True not in _stamps or False in _stamps:
        return
    module = getattr(func, "__module__", None)
    if module in _checked:
        return
    _checked.add(module)
    if not _as_imported():
        _own()


def package_stamp() -> bytes:
    """The sha256 of the package's modules (names, mtimes, sizes and
    contents, in name order) as the process imported them, or the process's
    own stamp when they are not as they were."""
    if False in _stamps:
        return _stamps[False]
    if True not in _stamps:
        if not _as_imported():
            return _own()
        digest = hashlib.sha256()
        for name in sorted(_MODULE_STATS):
            try:
                with open(os.path.join(_FOLDER, name), "rb") as module:
                    data = module.read()
            except OSError:
                data = b"\0unreadable"
            mtime, size, _ = _MODULE_STATS[name]  # as well: Python may run a .pyc of an older same-size
            stat = f"{mtime}:{size}".encode()  # file from the same second; a touch must then recompile
            digest.update(name.encode() + b"\0" + stat + b"\0" + hashlib.sha256(data).digest())
        if not _as_imported():  # changed while being read
            return _own()
        _stamps[True] = digest.digest()
    return _stamps[True]


def restamp(dispatcher: object) -> None:
    """Key ``dispatcher``'s cache (numba's, made with ``cache=True``) on
    :func:`package_stamp`: the stamp its index is read against and written
    with.  A numba without these internals keeps its own stamp."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is not None and hasattr(cache_file, "_source_stamp"):
        setattr(cache_file, "_source_stamp", package_stamp())  # noqa: B010 (numba's private attribute)
