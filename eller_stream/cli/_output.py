"""Standard output for the stream: whole rows or none.

A full disk (or a file size limit) can take part of a write.  When standard
output is a regular file, a failed write is cut back to the last whole row
that reached it (``os.ftruncate`` at the row boundary computed from the
bytes the file took), so that what the file holds is whole rows and a saved
state can go on exactly after them.
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import os
import stat
from collections.abc import Sequence
from typing import BinaryIO, Protocol

import numpy as np


def write_out(out: BinaryIO, data: bytes) -> None:
    """Write all of ``data``: an unbuffered stdout (``python -u``,
    PYTHONUNBUFFERED) may take part of it (a full disk, a signal during a
    write to a pipe) and say so only by the count it returns."""
    view = memoryview(data)
    while view:
        n = out.write(view)
        if n is None:  # a non-blocking descriptor that is full
            raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN))
        view = view[n:]


def row_ends(data: bytes, rows: int, style: str, width: int) -> Sequence[int]:
    """Where each of the ``rows`` maze rows rendered in ``data`` ends (byte
    offsets, exclusive).  A text style draws two lines a row (the first row
    of a resumed unicode stream: one); the offsets are counted from the end."""
    if style == "raw":
        return range(width, width * rows + 1, width)
    newlines = np.flatnonzero(np.frombuffer(data, np.uint8) == ord("\n"))
    last = len(newlines) - 1
    return [int(newlines[last - 2 * (rows - 1 - k)]) + 1 for k in range(rows)]


class Writing(Protocol):
    """What is told when a write begins and ends (the stream's interrupt)."""

    writing: bool


class RowOutput:
    """Writes rendered rows to ``out``, flushed; on a failed write to a
    regular file, cuts the file back to the last whole row and records in
    ``kept`` how many rows of that write it holds (0 elsewhere)."""

    def __init__(self, out: BinaryIO, interrupt: Writing | None = None) -> None:
        self.out = out
        self.interrupt = interrupt  # has a ``writing`` flag, set during each write
        self.kept = 0
        self.fd: int | None = None
        with contextlib.suppress(OSError, ValueError, AttributeError):
            fd = out.fileno()
            if stat.S_ISREG(os.fstat(fd).st_mode):
                self.fd = fd

    def _position(self) -> int | None:
        if self.fd is None:
            return None
        try:
            return os.lseek(self.fd, 0, os.SEEK_CUR)
        except OSError:
            return None

    def write(self, data: bytes, ends: Sequence[int] = ()) -> None:
        """Write ``data``, the text of rows ending at offsets ``ends``."""
        before = self._position()
        if self.interrupt is not None:
            self.interrupt.writing = True
        try:
            write_out(self.out, data)
            self.out.flush()
        except OSError:
            self.kept = self._cut(before, ends)
            raise
        finally:
            if self.interrupt is not None:
                self.interrupt.writing = False

    def _cut(self, before: int | None, ends: Sequence[int]) -> int:
        """Cut the file back to the last whole row; the rows kept."""
        after = self._position()
        if before is None or after is None or self.fd is None:
            return 0
        kept = bisect.bisect_right(ends, after - before)
        keep = before + (ends[kept - 1] if kept else 0)
        try:
            if after > keep:
                os.ftruncate(self.fd, keep)
                os.lseek(self.fd, keep, os.SEEK_SET)
        except OSError:
            return 0
        return kept
