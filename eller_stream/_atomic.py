"""Files replaced whole or not at all.

Every file the package writes by name goes through :func:`atomic_write`: the
data goes to a temporary file beside the target, named
``.NAME.eller-stream-PID-XXXX.tmp`` (a user can tell what it is, and a later
run can tell whether the process that made it is gone), which is synced and
then renamed over the target; the folder is synced after the rename, so the
new name survives a crash.  A symlink is written through (the file it names
is replaced), a replaced file keeps its permissions (a new one gets
``0o666 & ~umask``, as a plain ``open`` gives), and on any exception, Ctrl-C
included, the temporary file is removed and the old file stays as it was.
A target that is not a regular file (a FIFO, a terminal, ``/dev/full``) is
written into as a stream: renaming over it would replace it.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "f.bin")
>>> with atomic_write(path) as f:
...     _ = f.write(b"data")
>>> open(path, "rb").read()
b'data'
"""

from __future__ import annotations

import contextlib
import errno
import glob
import io
import os
import stat
import tempfile
from collections.abc import Iterator
from typing import BinaryIO

__all__ = ["atomic_write", "remove_stale_temps", "write_bytes"]

TEMP_MARK = ".eller-stream-"
_NO_RESERVE = {errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL}  # the file system cannot reserve


def temp_prefix(target: str) -> str:
    """The start of the temporary file's name for ``target``."""
    return f".{os.path.basename(target)}{TEMP_MARK}{os.getpid()}-"


def remove_stale_temps(target: str) -> None:
    """Remove temporary files that an earlier run, killed before it could
    clean up (SIGKILL), left next to ``target``: only ours (same name and
    owner) and only when the process that made them no longer exists."""
    folder, name = os.path.split(target)
    start = os.path.join(folder, f".{name}{TEMP_MARK}")
    for temp in glob.glob(os.path.join(glob.escape(folder), f".{glob.escape(name)}{TEMP_MARK}*-*.tmp")):
        pid_text = temp[len(start) :].split("-", 1)[0]
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        try:
            os.kill(int(pid_text), 0)
            continue  # still running
        except ProcessLookupError:
            pass
        except OSError:
            continue  # exists, belongs to someone else
        with contextlib.suppress(OSError):
            info = os.lstat(temp)
            if stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid():
                os.unlink(temp)


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _write_all(fd: int, data: bytes | bytearray | memoryview) -> int:
    view = memoryview(data).cast("B")
    total = len(view)
    while view:
        view = view[os.write(fd, view) :]
    return total


class _Raw(io.RawIOBase):
    """A descriptor written with ``os.write``; a failed write names ``target``
    (``os.write`` names no file, and the temporary file is not the user's)."""

    def __init__(self, fd: int, target: str) -> None:
        self.fd = fd
        self.target = target
        self.dropped = False  # after a failure: what is left in a buffer goes nowhere

    def writable(self) -> bool:
        return True

    def write(self, data: object) -> int:
        view = memoryview(data)  # type: ignore[arg-type]
        if self.dropped:
            return len(view.cast("B"))
        try:
            return _write_all(self.fd, view)
        except OSError as exc:
            if exc.filename is None:
                raise OSError(exc.errno, exc.strerror, self.target) from None
            raise

    def fileno(self) -> int:
        return self.fd


@contextlib.contextmanager
def _buffered(fd: int, target: str) -> Iterator[BinaryIO]:
    """A buffered binary file over ``fd``, flushed when the block ends; after
    an exception what is left in its buffer is dropped, not written."""
    raw = _Raw(fd, target)
    f = io.BufferedWriter(raw, buffer_size=1 << 16)
    try:
        yield f
        f.flush()
    except BaseException:
        raw.dropped = True
        raise
    finally:
        with contextlib.suppress(OSError, ValueError):
            f.close()


def _reserve(fd: int, size: int, target: str) -> None:
    """Make the file at least ``size`` bytes long, its blocks allocated
    where the file system can (so that a full disk fails now, not later)."""
    fallocate = getattr(os, "posix_fallocate", None)
    try:
        if fallocate is None:
            raise OSError(errno.ENOSYS, "posix_fallocate is not available")
        fallocate(fd, 0, size)
    except OSError as exc:
        if exc.errno not in _NO_RESERVE:
            reason = exc.strerror or os.strerror(exc.errno or 0)
            message = f"cannot reserve {size} bytes for {target!r}: {reason}"
            raise OSError(exc.errno, message, target) from None
        if os.fstat(fd).st_size < size:
            os.ftruncate(fd, size)


def sync_folder(folder: str) -> None:
    """fsync a folder, where the file system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], *, reserve: int | None = None) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new content into; ``path`` is
    replaced when the block ends without an exception, and left as it was
    otherwise.  ``reserve``: bytes to allocate up front (the file is then
    at least that long), so that a full disk fails before anything is
    written."""
    target = os.path.realpath(os.fspath(path))
    folder = os.path.dirname(target)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        mode = _new_file_mode()
    else:
        if not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
            # a FIFO, a terminal, /dev/full: written into, as a stream (renaming a file
            # over it would replace the device or the pipe with a plain file)
            with _write_through(target) as f:
                yield f
            return
        mode = stat.S_IMODE(info.st_mode)
    remove_stale_temps(target)
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(target), suffix=".tmp", dir=folder)
    try:
        with _buffered(fd, target) as f:
            os.fchmod(fd, mode)
            if reserve is not None:
                _reserve(fd, reserve, target)
            yield f
        os.fsync(fd)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
    sync_folder(folder)


@contextlib.contextmanager
def _write_through(target: str) -> Iterator[BinaryIO]:
    """A binary file written straight into ``target``, a file that is not a
    regular one (nothing to replace: what is written is there)."""
    fd = os.open(target, os.O_WRONLY)
    try:
        with _buffered(fd, target) as f:
            yield f
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file at ``path`` with ``data``, atomically."""
    with atomic_write(path, reserve=len(data) or None) as f:
        f.write(data)
