"""The ``--save-state`` / ``--resume`` state file: the stream's checkpoint
and its last row (so that text styles continue seamlessly), with a checksum.

The file is replaced atomically (``eller_stream._atomic``): a symlink is
written through, the replaced file keeps its permissions, and the folder is
synced after the rename.
"""

from __future__ import annotations

import errno
import os
import stat

import numpy as np

from .. import _atomic, _checkpoint
from ..banded import BandedStream
from ..stream import EllerStream
from ._common import UsageError, os_message

Stream = EllerStream | BandedStream


def encode_state(checkpoint: bytes, last_row: np.ndarray | None) -> bytes:
    """The --save-state file's bytes."""
    return _checkpoint.pack_state(checkpoint, b"" if last_row is None else last_row.tobytes())


def _resume(checkpoint: bytes) -> Stream:
    """A stream from either kind of checkpoint."""
    if checkpoint.startswith(_checkpoint.BANDED_MAGIC):
        return BandedStream.resume(checkpoint)
    return EllerStream.resume(checkpoint)


def decode_state(data: bytes) -> tuple[Stream, np.ndarray | None]:
    """Read a --save-state file (or a bare ``checkpoint()`` of either stream)."""
    if data.startswith((_checkpoint.ELLER_MAGIC, _checkpoint.BANDED_MAGIC)):
        return _resume(data), None
    checkpoint, row_bytes = _checkpoint.unpack_state(data)
    stream = _resume(checkpoint)
    if not row_bytes:
        return stream, None
    row = np.frombuffer(row_bytes, np.uint8).copy()
    if len(row) != stream.width or (row > 3).any() or row[-1] & 1:
        raise ValueError("state file is corrupt (last row does not fit the stream)")
    return stream, row


def read_state_file(path: str) -> tuple[Stream, np.ndarray | None]:
    """The stream and last row a --resume file holds; UsageError if it
    cannot be read or is not a state."""
    try:
        with open(path, "rb") as f:
            try:
                data = _checkpoint.read_state(f)
            except ValueError as exc:
                raise UsageError(f"--resume: {path!r}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"--resume: cannot read {path!r}: {os_message(exc)}") from None
    try:
        return decode_state(data)
    except ValueError as exc:
        raise UsageError(f"--resume: {path!r}: {exc}") from None


def state_target(path: str) -> str:
    """The file --save-state writes: ``path``, or through a symlink the
    file it names.  Raises UsageError for anything but a regular file (or a
    file yet to be made) in a writable folder."""
    if path == "":
        raise UsageError("--save-state: the file name is empty")
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    if os.path.exists(target) and not stat.S_ISREG(os.stat(target).st_mode):
        raise UsageError(f"--save-state: {path!r} is not a regular file")
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise UsageError(f"--save-state: cannot write a file at {path!r}")
    return target


def save_state(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a whole new file or none.

    The target was checked before streaming started (:func:`state_target`);
    what has changed since (the folder removed or made read-only) is an
    OSError here, like a full disk, not a usage error."""
    target = os.path.realpath(path)
    if os.path.exists(target) and not stat.S_ISREG(os.stat(target).st_mode):
        raise OSError(errno.EINVAL, "no longer a regular file", path)
    _atomic.write_bytes(target, data)
